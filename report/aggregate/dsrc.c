/* Decoding of perf_mem_data_src into the c2c counter block, following perf 6.1's
 * c2c_decode_stats() step by step (c2c-semantics.md §2.3). The order of the tests matters: a
 * sample with both LOAD and STORE bits is a load, level tests are independent ifs (one sample may
 * bump several counters), and the no-map test comes after the level counters were bumped. */
#include <string.h>

#include "report/aggregate/dsrc.h"

struct dsrc_fields {
	unsigned op, lvl, snoop, snoopx, lock, blk;
	int mrem;
};

static void dsrc_split(struct dsrc_fields *f, uint64_t ds)
{
	f->op = dsrc_field(ds, DSRC_OP_SHIFT, 5);
	f->lvl = dsrc_field(ds, DSRC_LVL_SHIFT, 14);
	f->snoop = dsrc_field(ds, DSRC_SNOOP_SHIFT, 5);
	f->snoopx = dsrc_field(ds, DSRC_SNOOPX_SHIFT, 2);
	f->lock = dsrc_field(ds, DSRC_LOCK_SHIFT, 2);
	f->blk = dsrc_field(ds, DSRC_BLK_SHIFT, 3);
	/* Skylake reports an unknown remote level through the remote bit alone; POWER sets remote
	 * plus hops for another core of the same node, so a non-zero hops cancels it. */
	f->mrem = dsrc_field(ds, DSRC_REMOTE_SHIFT, 1) == DSRC_REMOTE &&
		  dsrc_field(ds, DSRC_HOPS_SHIFT, 3) == 0;
}

static void dsrc_load_hit(struct dsrc_stats *st, const struct dsrc_fields *f)
{
	if (f->lvl & DSRC_LVL_UNC)
		st->ld_uncache++;
	if (f->lvl & DSRC_LVL_IO)
		st->ld_io++;
	if (f->lvl & DSRC_LVL_LFB)
		st->ld_fbhit++;
	if (f->lvl & DSRC_LVL_L1)
		st->ld_l1hit++;
	if (f->lvl & DSRC_LVL_L2) {
		st->ld_l2hit++;
		if (f->snoopx & DSRC_SNOOPX_PEER) {
			st->lcl_peer++;
			st->tot_peer++;
		}
	}
	if (f->lvl & DSRC_LVL_L3) {
		if (f->snoop & DSRC_SNOOP_HITM) {
			st->lcl_hitm++;
			st->tot_hitm++;
		} else {
			st->ld_llchit++;
		}
		if (f->snoopx & DSRC_SNOOPX_PEER) {
			st->lcl_peer++;
			st->tot_peer++;
		}
	}
	if (f->lvl & DSRC_LVL_LOC_RAM) {
		st->lcl_dram++;
		if (f->snoop & DSRC_SNOOP_HIT)
			st->ld_shared++;
		else
			st->ld_excl++;
	}
	if ((f->lvl & (DSRC_LVL_REM_RAM1 | DSRC_LVL_REM_RAM2)) || f->mrem) {
		st->rmt_dram++;
		if (f->snoop & DSRC_SNOOP_HIT)
			st->ld_shared++;
		else
			st->ld_excl++;
	}
}

static void dsrc_load_remote(struct dsrc_stats *st, const struct dsrc_fields *f)
{
	if (!(f->lvl & (DSRC_LVL_REM_CCE1 | DSRC_LVL_REM_CCE2)) && !f->mrem)
		return;
	if (f->snoop & DSRC_SNOOP_HIT) {
		st->rmt_hit++;
	} else if (f->snoop & DSRC_SNOOP_HITM) {
		st->rmt_hitm++;
		st->tot_hitm++;
	} else if (f->snoopx & DSRC_SNOOPX_PEER) {
		st->rmt_hit++;
		st->rmt_peer++;
		st->tot_peer++;
	}
}

/* Returns 0 when the sample was rejected (no address). */
static int dsrc_load(struct dsrc_stats *st, const struct dsrc_fields *f, uint64_t daddr)
{
	st->load++;
	if (!daddr) {
		st->ld_noadrs++;
		return 0;
	}
	if (f->lvl & DSRC_LVL_HIT)
		dsrc_load_hit(st, f);
	dsrc_load_remote(st, f);
	if (f->lvl & DSRC_LVL_MISS)
		st->ld_miss++;
	return 1;
}

static int dsrc_store(struct dsrc_stats *st, const struct dsrc_fields *f, uint64_t daddr)
{
	st->store++;
	if (!daddr) {
		st->st_noadrs++;
		return 0;
	}
	if (f->lvl & DSRC_LVL_HIT) {
		if (f->lvl & DSRC_LVL_UNC)
			st->st_uncache++;
		if (f->lvl & DSRC_LVL_L1)
			st->st_l1hit++;
	}
	if ((f->lvl & DSRC_LVL_MISS) && (f->lvl & DSRC_LVL_L1))
		st->st_l1miss++;
	if (f->lvl & DSRC_LVL_NA)
		st->st_na++;
	return 1;
}

void dsrc_decode(struct dsrc_stats *st, const struct dsrc_input *in)
{
	struct dsrc_fields f;
	int classified;

	memset(st, 0, sizeof(*st));
	dsrc_split(&f, in->data_src);
	st->nr_entries = 1;
	if (f.lock & DSRC_LOCK_LOCKED)
		st->locks++;
	if (f.blk & DSRC_BLK_DATA)
		st->blk_data++;
	if (f.blk & DSRC_BLK_ADDR)
		st->blk_addr++;
	if (f.op & DSRC_OP_LOAD) {
		classified = dsrc_load(st, &f, in->daddr);
	} else if (f.op & DSRC_OP_STORE) {
		classified = dsrc_store(st, &f, in->daddr);
	} else {
		st->noparse++;
		return;
	}
	if (classified && (!in->has_data_map || !in->has_code_map))
		st->nomap++;
}

void dsrc_add(struct dsrc_stats *dst, const struct dsrc_stats *src)
{
	uint32_t *restrict d = (uint32_t *)dst;
	const uint32_t *restrict s = (const uint32_t *)src;
	size_t i;

	_Static_assert(sizeof(struct dsrc_stats) == 32 * sizeof(uint32_t), "dsrc_stats is 32 u32");
	if (dst == src) {
		for (i = 0; i < 32; i++)
			((uint32_t *)dst)[i] *= 2;
		return;
	}
	for (i = 0; i < 32; i++)
		d[i] += s[i];
}

uint32_t dsrc_llc_misses(const struct dsrc_stats *st)
{
	return st->lcl_dram + st->rmt_dram + st->rmt_hitm + st->rmt_hit;
}

uint32_t dsrc_cache_hits(const struct dsrc_stats *st)
{
	return st->ld_fbhit + st->ld_l1hit + st->ld_l2hit + st->ld_llchit + st->lcl_hitm;
}

uint32_t dsrc_stores(const struct dsrc_stats *st)
{
	return st->st_l1hit + st->st_l1miss + st->st_na;
}

uint32_t dsrc_total_records(const struct dsrc_stats *st)
{
	return dsrc_llc_misses(st) + dsrc_cache_hits(st) + dsrc_stores(st);
}

uint32_t dsrc_total_loads(const struct dsrc_stats *st)
{
	return dsrc_llc_misses(st) + dsrc_cache_hits(st);
}
