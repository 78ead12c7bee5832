/* Re-filtering and re-ordering a finished cacheline table (see report/aggregate/cltable-view.h). Every
 * comparator ends on the line key and then the table's own order, so results are deterministic and
 * independent of the sort algorithm. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/aggregate/cltable-view.h"

#define CLTV_DISPLAY_LIMIT 0.001  /* perf's DISPLAY_LINE_LIMIT */

/* perf's dcacheline order (§5.2), from the line's public key fields. */
static int cltv_key_cmp(const struct cltab_line *a, const struct cltab_line *b)
{
	const struct maps_dso *da, *db;

	if (a->cpumode != b->cpumode)
		return (a->cpumode > b->cpumode) - (a->cpumode < b->cpumode);
	if (!a->dmap != !b->dmap)
		return a->dmap ? -1 : 1;
	if (a->dmap) {
		da = a->dmap->dso;
		db = b->dmap->dso;
		if (da->maj != db->maj)
			return (da->maj > db->maj) - (da->maj < db->maj);
		if (da->min != db->min)
			return (da->min > db->min) - (da->min < db->min);
		if (da->ino != db->ino)
			return (da->ino > db->ino) - (da->ino < db->ino);
		if (da->ino_generation != db->ino_generation)
			return (da->ino_generation > db->ino_generation) -
			       (da->ino_generation < db->ino_generation);
		if (maps_is_anon_private(a->dmap, a->cpumode) && a->key_pid != b->key_pid)
			return (a->key_pid > b->key_pid) - (a->key_pid < b->key_pid);
	}
	if (a->cl != b->cl)
		return (a->cl > b->cl) - (a->cl < b->cl);
	return (a->index > b->index) - (a->index < b->index);
}

static int cltv_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

static int cltv_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltab_line *a = *(struct cltab_line *const *)pa;
	const struct cltab_line *b = *(struct cltab_line *const *)pb;
	enum cltab_display d = *(const enum cltab_display *)arg;
	int c = cltv_desc(cltab_metric(d, &a->stats), cltab_metric(d, &b->stats));

	return c ? c : cltv_key_cmp(a, b);
}

void cltv_sort(const struct cltab *t, struct cltab_line **line, size_t nr, enum cltab_display d)
{
	(void)t;
	qsort_r(line, nr, sizeof(*line), cltv_line_cmp, &d);
}

size_t cltv_filter(const struct cltab *t, enum cltab_display d, struct cltab_line **out)
{
	struct cltab_line *const *all;
	size_t nr_all, i, n = 0;
	uint32_t tot = cltab_metric(d, cltab_shared(t));

	all = cltab_lines(t, &nr_all);
	if (!tot)
		return 0;
	for (i = 0; i < nr_all; i++)
		if ((double)cltab_metric(d, &all[i]->stats) / tot >= CLTV_DISPLAY_LIMIT)
			out[n++] = all[i];
	cltv_sort(t, out, n, d);
	return n;
}

int cltv_offset_visible(const struct cltab_offset *o, enum cltab_display d)
{
	return o->stats.store || cltab_metric(d, &o->stats);
}

struct cltv_off_arg {
	const struct cltab_opts *op;
	const struct cltab_line *l;
	enum cltab_display d;
};

static int cltv_off_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltv_off_arg *s = arg;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct cltab_offset *a = s->l->off[ia], *b = s->l->off[ib];
	int c = cltab_offset_order(s->op, s->d, a, b);

	/* the table's own order of equal keys */
	return c ? c : (ia > ib) - (ia < ib);
}

size_t cltv_offsets(const struct cltab *t, const struct cltab_line *l, enum cltab_display d,
		    uint32_t *out)
{
	struct cltv_off_arg arg = { .op = cltab_opts(t), .l = l, .d = d };
	size_t i, n = 0;

	for (i = 0; i < l->nr_off; i++)
		if (cltv_offset_visible(l->off[i], d))
			out[n++] = (uint32_t)i;
	qsort_r(out, n, sizeof(*out), cltv_off_cmp, &arg);
	return n;
}
