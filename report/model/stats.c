/* perf's run totals as model rows (see rm_stats_build() in report/model/model.h): the one list
 * of perf 6.1's labels for "Trace Event Information" and "Global Shared Cache Line Event
 * Information" (print_c2c__display_stats, print_shared_cacheline_info), and their values. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/dsrc.h"
#include "report/model/model.h"

/* How a row's value comes from the counters. */
enum src { FIELD, SUM, LLC, PCT, NR_SHARED, MERGED, TITLE };

struct stat_def {
	const char *label;
	enum src src;
	size_t a, b;             /* offsets of u32 fields of struct dsrc_stats */
	int shared;              /* over the shared lines' samples, else over every sample */
	const char *banner;      /* TITLE: the title as perf centres it between its rules */
};

#define F(x) offsetof(struct dsrc_stats, x)
static const struct stat_def defs[] = {
	{ "Trace Event Information", TITLE, 0, 0, 0,
	  "            Trace Event Information              " },
	{ "Total records", FIELD, F(nr_entries), 0, 0, NULL },
	{ "Locked Load/Store Operations", FIELD, F(locks), 0, 0, NULL },
	{ "Load Operations", FIELD, F(load), 0, 0, NULL },
	{ "Loads - uncacheable", FIELD, F(ld_uncache), 0, 0, NULL },
	{ "Loads - IO", FIELD, F(ld_io), 0, 0, NULL },
	{ "Loads - Miss", FIELD, F(ld_miss), 0, 0, NULL },
	{ "Loads - no mapping", FIELD, F(ld_noadrs), 0, 0, NULL },
	{ "Load Fill Buffer Hit", FIELD, F(ld_fbhit), 0, 0, NULL },
	{ "Load L1D hit", FIELD, F(ld_l1hit), 0, 0, NULL },
	{ "Load L2D hit", FIELD, F(ld_l2hit), 0, 0, NULL },
	{ "Load LLC hit", SUM, F(ld_llchit), F(lcl_hitm), 0, NULL },
	{ "Load Local HITM", FIELD, F(lcl_hitm), 0, 0, NULL },
	{ "Load Remote HITM", FIELD, F(rmt_hitm), 0, 0, NULL },
	{ "Load Remote HIT", FIELD, F(rmt_hit), 0, 0, NULL },
	{ "Load Local DRAM", FIELD, F(lcl_dram), 0, 0, NULL },
	{ "Load Remote DRAM", FIELD, F(rmt_dram), 0, 0, NULL },
	{ "Load MESI State Exclusive", FIELD, F(ld_excl), 0, 0, NULL },
	{ "Load MESI State Shared", FIELD, F(ld_shared), 0, 0, NULL },
	{ "Load LLC Misses", LLC, 0, 0, 0, NULL },
	{ "Load access blocked by data", FIELD, F(blk_data), 0, 0, NULL },
	{ "Load access blocked by address", FIELD, F(blk_addr), 0, 0, NULL },
	{ "Load HIT Local Peer", FIELD, F(lcl_peer), 0, 0, NULL },
	{ "Load HIT Remote Peer", FIELD, F(rmt_peer), 0, 0, NULL },
	{ "LLC Misses to Local DRAM", PCT, F(lcl_dram), 0, 0, NULL },
	{ "LLC Misses to Remote DRAM", PCT, F(rmt_dram), 0, 0, NULL },
	{ "LLC Misses to Remote cache (HIT)", PCT, F(rmt_hit), 0, 0, NULL },
	{ "LLC Misses to Remote cache (HITM)", PCT, F(rmt_hitm), 0, 0, NULL },
	{ "Store Operations", FIELD, F(store), 0, 0, NULL },
	{ "Store - uncacheable", FIELD, F(st_uncache), 0, 0, NULL },
	{ "Store - no mapping", FIELD, F(st_noadrs), 0, 0, NULL },
	{ "Store L1D Hit", FIELD, F(st_l1hit), 0, 0, NULL },
	{ "Store L1D Miss", FIELD, F(st_l1miss), 0, 0, NULL },
	{ "Store No available memory level", FIELD, F(st_na), 0, 0, NULL },
	{ "No Page Map Rejects", FIELD, F(nomap), 0, 0, NULL },
	{ "Unable to parse data source", FIELD, F(noparse), 0, 0, NULL },
	{ "Global Shared Cache Line Event Information", TITLE, 0, 0, 1,
	  "    Global Shared Cache Line Event Information   " },
	{ "Total Shared Cache Lines", NR_SHARED, 0, 0, 1, NULL },
	{ "Load HITs on shared lines", FIELD, F(load), 0, 1, NULL },
	{ "Fill Buffer Hits on shared lines", FIELD, F(ld_fbhit), 0, 1, NULL },
	{ "L1D hits on shared lines", FIELD, F(ld_l1hit), 0, 1, NULL },
	{ "L2D hits on shared lines", FIELD, F(ld_l2hit), 0, 1, NULL },
	{ "LLC hits on shared lines", SUM, F(ld_llchit), F(lcl_hitm), 1, NULL },
	{ "Load hits on peer cache or nodes", SUM, F(lcl_peer), F(rmt_peer), 1, NULL },
	{ "Locked Access on shared lines", FIELD, F(locks), 0, 1, NULL },
	{ "Blocked Access on shared lines", SUM, F(blk_data), F(blk_addr), 1, NULL },
	{ "Store HITs on shared lines", FIELD, F(store), 0, 1, NULL },
	{ "Store L1D hits on shared lines", FIELD, F(st_l1hit), 0, 1, NULL },
	{ "Store No available memory level", FIELD, F(st_na), 0, 1, NULL },
	{ "Total Merged records", MERGED, 0, 0, 1, NULL },
};
#undef F
#define NR_DEFS (sizeof(defs) / sizeof(defs[0]))

static uint32_t u32_at(const struct dsrc_stats *s, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)s + off, sizeof(v));
	return v;
}

void rm_stats_build(struct rm_model *m, const struct dsrc_stats *all,
		    const struct dsrc_stats *shared, uint32_t nr_shared)
{
	struct rm_stat *out = xcalloc(NR_DEFS, sizeof(*out));

	for (size_t i = 0; i < NR_DEFS; i++) {
		const struct stat_def *d = &defs[i];
		const struct dsrc_stats *s = d->shared ? shared : all;
		struct rm_stat *o = &out[i];

		o->label = d->label;
		o->banner = d->banner;
		o->kind = d->src == TITLE ? RM_STAT_TITLE : d->src == PCT ? RM_STAT_PCT : RM_STAT_COUNT;
		switch (d->src) {
		case FIELD: o->count = u32_at(s, d->a); break;
		case SUM: o->count = u32_at(s, d->a) + u32_at(s, d->b); break;
		case LLC: o->count = dsrc_llc_misses(s); break;
		/* divided first, as perf does: 0 LLC misses print as perf prints them */
		case PCT: o->pct = (double)u32_at(s, d->a) / (double)dsrc_llc_misses(s) * 100.; break;
		case NR_SHARED: o->count = nr_shared; break;
		case MERGED: o->count = s->lcl_hitm + s->rmt_hitm + s->store; break;
		case TITLE: break;
		}
	}
	free((void *)m->stats);
	m->stats = out;
	m->nr_stats = NR_DEFS;
}
