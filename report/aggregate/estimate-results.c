/* The public view of a finished estimate table: what estimate.h lets callers read, with its
 * self-check (estim_check()). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/estimate-int.h"

/* --- results -------------------------------------------------------------------------------- */

const struct estim_opts *estim_opts(const struct estim *e)
{
	return &e->opts;
}

const struct estim_totals *estim_totals(const struct estim *e)
{
	return &e->tot;
}

size_t estim_nr_lines(const struct estim *e)
{
	return e->nr_lines;
}

const struct estim_line *estim_line(const struct estim *e, size_t i)
{
	return i < e->nr_lines ? e->lines[i] : NULL;
}

static int estim_counts_eq(const struct estim_counts *a, const struct estim_counts *b)
{
	return a->weight == b->weight && a->samples == b->samples && a->loads == b->loads &&
	       a->stores == b->stores && a->atomics == b->atomics && a->unknown == b->unknown &&
	       a->inferred == b->inferred;
}

static void estim_counts_sum(struct estim_counts *d, const struct estim_counts *s)
{
	d->weight += s->weight;
	d->samples += s->samples;
	d->loads += s->loads;
	d->stores += s->stores;
	d->atomics += s->atomics;
	d->unknown += s->unknown;
	d->inferred += s->inferred;
}

static int estim_check_line(const struct estim_line *l)
{
	struct estim_counts off = { 0 }, site = { 0 };
	size_t i;

	for (i = 0; i < l->nr_off; i++)
		estim_counts_sum(&off, &l->off[i].c);
	for (i = 0; i < l->nr_site; i++)
		estim_counts_sum(&site, &l->site[i].c);
	if (!estim_counts_eq(&off, &l->c) || !estim_counts_eq(&site, &l->c))
		return c2c_err(-EBADMSG, "estimate: line %#llx: offsets or sites do not add up",
			       (unsigned long long)l->addr);
	if (l->c.samples != l->c.loads + l->c.stores + l->c.atomics + l->c.unknown)
		return c2c_err(-EBADMSG, "estimate: line %#llx: kinds do not add up",
			       (unsigned long long)l->addr);
	return 0;
}

int estim_check(const struct estim *e)
{
	uint64_t samples = 0, weight = 0, unrec = 0, unrec_w = 0;
	size_t i;
	int err;

	for (i = 0; i < e->nr_lines; i++) {
		if ((err = estim_check_line(e->lines[i])))
			return err;
		samples += e->lines[i]->c.samples;
		weight += e->lines[i]->c.weight;
	}
	for (i = 0; i < ESTIM_NR_REASONS; i++) {
		unrec += e->tot.reason[i];
		unrec_w += e->tot.reason_weight[i];
	}
	if (samples != e->tot.recovered || weight != e->tot.recovered_weight ||
	    samples + unrec != e->tot.samples || weight + unrec_w != e->tot.weight)
		return c2c_err(-EBADMSG, "estimate: totals do not equal the lines plus the "
			       "unrecovered samples");
	return 0;
}
