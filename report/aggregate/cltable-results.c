/* The public view of a finished cacheline table: what cltable.h lets callers read, with its
 * self-check (cltab_check()). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "c2c/log.h"
#include "report/aggregate/cltable-int.h"

/* --- results -------------------------------------------------------------------------------- */

const struct cltab_opts *cltab_opts(const struct cltab *t)
{
	return &t->opts;
}

const struct dsrc_stats *cltab_total(const struct cltab *t)
{
	return &t->total;
}

const struct dsrc_stats *cltab_shared(const struct cltab *t)
{
	return &t->shared;
}

uint32_t cltab_nr_shared(const struct cltab *t)
{
	return t->nr_shared;
}

size_t cltab_nr_lines(const struct cltab *t)
{
	size_t n = 0;
	uint32_t k;

	for (k = 0; k < cltab_nr_shards(t); k++)
		n += cltab_shard(t, k)->lines.nr;
	return n;
}

size_t cltab_nr_offsets(const struct cltab *t)
{
	size_t n = 0;
	uint32_t k;

	for (k = 0; k < cltab_nr_shards(t); k++)
		n += cltab_shard(t, k)->ents.nr;
	return n;
}

struct cltab_line *const *cltab_lines(const struct cltab *t, size_t *nr)
{
	*nr = t->nr_shown;
	return t->shown;
}

const struct callers *cltab_callers(const struct cltab *t)
{
	return t->callers;
}

const struct cltab_counts *cltab_counts(const struct cltab *t)
{
	return &t->counts;
}

uint32_t cltab_node_words(const struct cltab *t)
{
	return t->node_words;
}

uint32_t cltab_nr_node_bits(const struct cltab *t)
{
	return t->node_bits;
}

static int cltab_stats_eq(const struct dsrc_stats *a, const struct dsrc_stats *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Every entry belongs to an existing line; all entries add up to the per-class totals;
 * displayed lines equal the sum of their offsets. */
static int cltab_check_lines(const struct cltab *t)
{
	uint32_t i;

	for (i = 0; i < t->ents.nr; i++)
		if (cltab_ent(t, i)->line >= t->lines.nr)
			return c2c_err(-EBADMSG, "entry %u belongs to line %u of %u", i,
				       cltab_ent(t, i)->line, t->lines.nr);
	return 0;
}

int cltab_check(const struct cltab *t)
{
	struct dsrc_stats sum = { 0 }, total = { 0 }, lsum;
	size_t i, j;
	uint32_t k;
	int rc;

	for (k = 0; k < cltab_nr_shards(t); k++) {
		const struct cltab *sh = cltab_shard(t, k);
		struct dsrc_stats part;

		rc = cltab_check_lines(sh);
		if (rc)
			return rc;
		for (i = 0; i < sh->ents.nr; i++)
			cltab_ent_stats(sh, cltab_ent(sh, (uint32_t)i), &sum, NULL);
		cltab_class_total(sh, &part);
		dsrc_add(&total, &part);
	}
	if (!cltab_stats_eq(&sum, &total))
		return c2c_err(-EBADMSG, "entries do not add up to the total");
	if (t->finished && !cltab_stats_eq(&total, &t->total))
		return c2c_err(-EBADMSG, "the total changed after finishing");
	for (i = 0; i < t->nr_shown; i++) {
		const struct cltab_line *l = t->shown[i];

		memset(&lsum, 0, sizeof(lsum));
		for (j = 0; j < l->nr_off; j++) {
			if (l->off[j]->line != l)
				return c2c_err(-EBADMSG, "offset %zu of line %zu belongs elsewhere", j, i);
			dsrc_add(&lsum, &l->off[j]->stats);
		}
		if (!cltab_stats_eq(&lsum, &l->stats))
			return c2c_err(-EBADMSG, "line %zu: offsets do not add up to the line", i);
	}
	if (sum.nr_entries != (uint32_t)t->counts.samples)
		return c2c_err(-EBADMSG, "%u entries for %llu samples", sum.nr_entries,
			       (unsigned long long)t->counts.samples);
	return 0;
}
