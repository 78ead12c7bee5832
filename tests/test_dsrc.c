/* Tests of report/aggregate/dsrc: every decision of c2c-semantics.md §2.3 and the Appendix A encodings,
 * table-driven; each row names the counters it must bump (all others must stay 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/aggregate/dsrc.h"

#define OP(x)     ((uint64_t)(x) << DSRC_OP_SHIFT)
#define LVL(x)    ((uint64_t)(x) << DSRC_LVL_SHIFT)
#define SNP(x)    ((uint64_t)(x) << DSRC_SNOOP_SHIFT)
#define SNPX(x)   ((uint64_t)(x) << DSRC_SNOOPX_SHIFT)
#define LCK(x)    ((uint64_t)(x) << DSRC_LOCK_SHIFT)
#define BLK(x)    ((uint64_t)(x) << DSRC_BLK_SHIFT)
#define REM       ((uint64_t)DSRC_REMOTE << DSRC_REMOTE_SHIFT)
#define HOPS(x)   ((uint64_t)(x) << DSRC_HOPS_SHIFT)
#define LNUM(x)   ((uint64_t)(x) << DSRC_LVLNUM_SHIFT)
#define LOAD      OP(DSRC_OP_LOAD)
#define STORE     OP(DSRC_OP_STORE)
#define LH        LVL(DSRC_LVL_HIT)

/* Expected counters as a list of field offsets with their values. */
struct want {
	size_t off;
	uint32_t v;
};
#define W(f, n) { offsetof(struct dsrc_stats, f), n }

struct row {
	int line;
	uint64_t ds;
	uint64_t daddr;
	int dmap, cmap;
	struct want want[12];
};

#define ADDR 0x1000
static const struct row rows[] = {
	/* §2.3 decision steps */
	{ __LINE__, 0, ADDR, 1, 1, { W(noparse, 1) } },
	{ __LINE__, DSRC_NONE, ADDR, 1, 1, { W(noparse, 1) } },
	{ __LINE__, OP(DSRC_OP_PFETCH) | LH | LVL(DSRC_LVL_L1), ADDR, 1, 1, { W(noparse, 1) } },
	{ __LINE__, OP(DSRC_OP_EXEC) | LCK(DSRC_LOCK_LOCKED), ADDR, 1, 1,
	  { W(noparse, 1), W(locks, 1) } },
	{ __LINE__, OP(DSRC_OP_NA) | BLK(DSRC_BLK_DATA | DSRC_BLK_ADDR), 0, 0, 0,
	  { W(noparse, 1), W(blk_data, 1), W(blk_addr, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L1), 0, 1, 1, { W(load, 1), W(ld_noadrs, 1) } },
	{ __LINE__, STORE | LH | LVL(DSRC_LVL_L1), 0, 1, 1, { W(store, 1), W(st_noadrs, 1) } },
	{ __LINE__, LOAD | STORE | LH | LVL(DSRC_LVL_L1), ADDR, 1, 1,
	  { W(load, 1), W(ld_l1hit, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_UNC), ADDR, 1, 1, { W(load, 1), W(ld_uncache, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_IO), ADDR, 1, 1, { W(load, 1), W(ld_io, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_LFB), ADDR, 1, 1, { W(load, 1), W(ld_fbhit, 1) } },
	{ __LINE__, LOAD | LVL(DSRC_LVL_L1), ADDR, 1, 1, { W(load, 1) } },   /* no HIT bit */
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L2) | SNPX(DSRC_SNOOPX_PEER), ADDR, 1, 1,
	  { W(load, 1), W(ld_l2hit, 1), W(lcl_peer, 1), W(tot_peer, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L2) | SNP(DSRC_SNOOP_HITM), ADDR, 1, 1,
	  { W(load, 1), W(ld_l2hit, 1) } },                                   /* 6.1: not a HITM */
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L3) | SNP(DSRC_SNOOP_HITM) | SNPX(DSRC_SNOOPX_PEER),
	  ADDR, 1, 1, { W(load, 1), W(lcl_hitm, 1), W(tot_hitm, 1), W(lcl_peer, 1),
			W(tot_peer, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_LOC_RAM) | SNP(DSRC_SNOOP_HIT), ADDR, 1, 1,
	  { W(load, 1), W(lcl_dram, 1), W(ld_shared, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_REM_RAM2), ADDR, 1, 1,
	  { W(load, 1), W(rmt_dram, 1), W(ld_excl, 1) } },
	{ __LINE__, LOAD | LVL(DSRC_LVL_REM_CCE2) | SNPX(DSRC_SNOOPX_PEER), ADDR, 1, 1,
	  { W(load, 1), W(rmt_hit, 1), W(rmt_peer, 1), W(tot_peer, 1) } },    /* no HIT needed */
	{ __LINE__, LOAD | LVL(DSRC_LVL_MISS | DSRC_LVL_L3), ADDR, 1, 1, { W(load, 1), W(ld_miss, 1) } },
	{ __LINE__, STORE | LH | LVL(DSRC_LVL_UNC), ADDR, 1, 1, { W(store, 1), W(st_uncache, 1) } },
	{ __LINE__, STORE | LVL(DSRC_LVL_MISS | DSRC_LVL_L1), ADDR, 1, 1,
	  { W(store, 1), W(st_l1miss, 1) } },
	{ __LINE__, STORE | LVL(DSRC_LVL_NA), ADDR, 1, 1, { W(store, 1), W(st_na, 1) } },
	{ __LINE__, STORE | LH | LVL(DSRC_LVL_L3) | SNP(DSRC_SNOOP_HITM), ADDR, 1, 1, { W(store, 1) } },
	/* no map: counted after the level counters */
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L3) | SNP(DSRC_SNOOP_HITM), ADDR, 0, 1,
	  { W(load, 1), W(lcl_hitm, 1), W(tot_hitm, 1), W(nomap, 1) } },
	{ __LINE__, STORE | LH | LVL(DSRC_LVL_L1), ADDR, 1, 0,
	  { W(store, 1), W(st_l1hit, 1), W(nomap, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L1), 0, 0, 0, { W(load, 1), W(ld_noadrs, 1) } },
	/* Appendix A.1: Intel PEBS load table */
	{ __LINE__, LOAD | LVL(DSRC_LVL_MISS) | LNUM(DSRC_LVLNUM_L3) | SNP(DSRC_SNOOP_NA), ADDR, 1, 1,
	  { W(load, 1), W(ld_miss, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L1) | SNP(DSRC_SNOOP_NONE), ADDR, 1, 1,
	  { W(load, 1), W(ld_l1hit, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L3) | SNP(DSRC_SNOOP_MISS), ADDR, 1, 1,
	  { W(load, 1), W(ld_llchit, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_REM_CCE1) | REM | SNP(DSRC_SNOOP_HIT), ADDR, 1, 1,
	  { W(load, 1), W(rmt_hit, 1), W(rmt_dram, 1), W(ld_shared, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_REM_CCE1) | REM | SNP(DSRC_SNOOP_HITM), ADDR, 1, 1,
	  { W(load, 1), W(rmt_hitm, 1), W(tot_hitm, 1), W(rmt_dram, 1), W(ld_excl, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_REM_RAM1) | REM | SNP(DSRC_SNOOP_HIT), ADDR, 1, 1,
	  { W(load, 1), W(rmt_dram, 1), W(ld_shared, 1), W(rmt_hit, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_LOC_RAM) | SNP(DSRC_SNOOP_NONE | DSRC_SNOOP_MISS), ADDR,
	  1, 1, { W(load, 1), W(lcl_dram, 1), W(ld_excl, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_REM_RAM1) | REM | SNP(DSRC_SNOOP_NONE), ADDR, 1, 1,
	  { W(load, 1), W(rmt_dram, 1), W(ld_excl, 1) } },
	/* Skylake+: remote bit without level bits (mrem) */
	{ __LINE__, LOAD | LH | LNUM(DSRC_LVLNUM_L4) | SNP(DSRC_SNOOP_HIT), ADDR, 1, 1,
	  { W(load, 1) } },
	{ __LINE__, LOAD | LH | LNUM(DSRC_LVLNUM_L4) | REM | SNP(DSRC_SNOOP_HIT), ADDR, 1, 1,
	  { W(load, 1), W(rmt_dram, 1), W(ld_shared, 1), W(rmt_hit, 1) } },
	{ __LINE__, LOAD | LH | LNUM(DSRC_LVLNUM_ANY_CACHE) | REM | SNPX(DSRC_SNOOPX_FWD), ADDR, 1, 1,
	  { W(load, 1), W(rmt_dram, 1), W(ld_excl, 1) } },
	{ __LINE__, LOAD | LH | LNUM(DSRC_LVLNUM_ANY_CACHE) | REM | SNP(DSRC_SNOOP_HITM), ADDR, 1, 1,
	  { W(load, 1), W(rmt_hitm, 1), W(tot_hitm, 1), W(rmt_dram, 1), W(ld_excl, 1) } },
	/* A.2 AMD pre-Zen4 local cache: local and remote HITM at once */
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L3 | DSRC_LVL_REM_CCE1) | SNP(DSRC_SNOOP_HITM), ADDR,
	  1, 1, { W(load, 1), W(lcl_hitm, 1), W(rmt_hitm, 1), W(tot_hitm, 2) } },
	/* A.3 POWER: hops cancel the remote bit */
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L3) | REM | HOPS(1) | SNP(DSRC_SNOOP_HITM), ADDR, 1, 1,
	  { W(load, 1), W(lcl_hitm, 1), W(tot_hitm, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_REM_CCE1) | REM | HOPS(2) | SNP(DSRC_SNOOP_HITM), ADDR,
	  1, 1, { W(load, 1), W(rmt_hitm, 1), W(tot_hitm, 1) } },
	/* A.4 Arm SPE */
	{ __LINE__, LOAD | LVL(DSRC_LVL_NA) | REM | SNPX(DSRC_SNOOPX_PEER), ADDR, 1, 1,
	  { W(load, 1), W(rmt_hit, 1), W(rmt_peer, 1), W(tot_peer, 1) } },
	{ __LINE__, LOAD | LH | LVL(DSRC_LVL_L3) | SNPX(DSRC_SNOOPX_PEER), ADDR, 1, 1,
	  { W(load, 1), W(ld_llchit, 1), W(lcl_peer, 1), W(tot_peer, 1) } },
};

static void test_dsrc_decode_table(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct dsrc_input in = { r->ds, r->daddr, r->dmap, r->cmap };
		struct dsrc_stats got, want = { .nr_entries = 1 };

		for (j = 0; j < 12 && r->want[j].v; j++)
			*(uint32_t *)((char *)&want + r->want[j].off) = r->want[j].v;
		dsrc_decode(&got, &in);
		if (memcmp(&got, &want, sizeof(got))) {
			const uint32_t *g = (const uint32_t *)&got, *w = (const uint32_t *)&want;

			for (j = 0; j < 32; j++)
				if (g[j] != w[j])
					print_error("row at line %d: field %zu is %u, want %u\n", r->line,
						    j, g[j], w[j]);
			fail_msg("row at line %d differs", r->line);
		}
	}
}

static void test_dsrc_add_and_derived(void **state)
{
	struct dsrc_stats a = { .nr_entries = 1, .lcl_dram = 1, .rmt_dram = 2, .rmt_hitm = 3,
				.rmt_hit = 4, .ld_fbhit = 5, .ld_l1hit = 6, .ld_l2hit = 7,
				.ld_llchit = 8, .lcl_hitm = 9, .st_l1hit = 10, .st_l1miss = 11,
				.st_na = 12 };
	struct dsrc_stats b = a;

	(void)state;
	assert_int_equal(dsrc_llc_misses(&a), 10);
	assert_int_equal(dsrc_cache_hits(&a), 35);
	assert_int_equal(dsrc_stores(&a), 33);
	assert_int_equal(dsrc_total_loads(&a), 45);
	assert_int_equal(dsrc_total_records(&a), 78);
	dsrc_add(&b, &a);
	assert_int_equal(b.nr_entries, 2);
	assert_int_equal(b.st_na, 24);
	assert_int_equal(dsrc_total_records(&b), 156);
}

static void test_dsrc_u32_wraps(void **state)
{
	struct dsrc_stats a = { .load = UINT32_MAX }, one = { .load = 1 };

	(void)state;
	dsrc_add(&a, &one);
	assert_int_equal(a.load, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dsrc_decode_table),
		cmocka_unit_test(test_dsrc_add_and_derived),
		cmocka_unit_test(test_dsrc_u32_wraps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
