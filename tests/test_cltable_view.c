/* Tests of report/aggregate/cltable-view: re-filtering, re-sorting and offset order over a finished table
 * built in memory from trace records, for every display mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/aggregate/cltable-view.h"
#include "report/aggregate/dsrc.h"
#include "report/model/model.h"

#define APP 0x400000ULL

static uint64_t ds(unsigned op, unsigned lvl, unsigned snoop, unsigned snoopx, unsigned remote)
{
	return (uint64_t)op << DSRC_OP_SHIFT | (uint64_t)lvl << DSRC_LVL_SHIFT |
	       (uint64_t)snoop << DSRC_SNOOP_SHIFT | (uint64_t)DSRC_LOCK_NA << DSRC_LOCK_SHIFT |
	       (uint64_t)snoopx << DSRC_SNOOPX_SHIFT | (uint64_t)remote << DSRC_REMOTE_SHIFT;
}

enum kind { LCL_HITM, RMT_HITM, STORE, LCL_PEER, L1 };

static uint64_t kind_ds(enum kind k)
{
	switch (k) {
	case LCL_HITM: return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L3, DSRC_SNOOP_HITM, 0, 0);
	case RMT_HITM:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM, 0, 1);
	case STORE: return ds(DSRC_OP_STORE, DSRC_LVL_HIT | DSRC_LVL_L1, DSRC_SNOOP_NA, 0, 0);
	case LCL_PEER:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L2, DSRC_SNOOP_NONE, DSRC_SNOOPX_PEER, 0);
	case L1: default: return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L1, DSRC_SNOOP_NONE, 0, 0);
	}
}

struct smp {
	uint64_t addr, ip;
	enum kind kind;
	int n;
	uint32_t tid, cpu;
};

static const int32_t cpu_node[4] = { 0, 0, 1, 1 };

static struct cltab *build(struct maps **mp, const struct smp *s, size_t n, enum cltab_display d)
{
	struct cltab_opts o = { .cl_size = 64, .display = d, .show_all = 1, .nr_cpus = 4,
				.cpu_node = cpu_node, .nr_nodes = 2 };
	struct cltab *t = cltab_new(&o);
	struct maps *m = maps_new();
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	size_t i;
	int k;

	ev.mmap = (struct trace_mmap){ .pid = 100, .tid = 100, .start = APP, .len = 0x100000,
				       .prot = 3, .flags = 2, .maj = 8, .ino = 42, .cpumode = 2,
				       .filename = "/usr/bin/app" };
	cltab_feed(t, m, &ev);
	for (i = 0; i < n; i++)
		for (k = 0; k < s[i].n; k++) {
			memset(&ev, 0, sizeof(ev));
			ev.type = TRACE_REC_SAMPLE;
			ev.sample = (struct trace_sample){
				.ip = s[i].ip, .addr = s[i].addr, .data_src = kind_ds(s[i].kind),
				.weight = 100 + (uint64_t)k, .pid = 100,
				.tid = s[i].tid ? s[i].tid : 100, .cpu = s[i].cpu, .cpumode = 2,
				.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR |
					 TRACE_SAMPLE_HAS_DSRC | TRACE_SAMPLE_HAS_WEIGHT,
			};
			cltab_feed(t, m, &ev);
		}
	cltab_finish(t);
	assert_int_equal(cltab_check(t), 0);
	*mp = m;
	return t;
}

/* Lines A..E of the fixture. */
#define LA (APP + 0x1000)
#define LB (APP + 0x2000)
#define LC (APP + 0x3000)
#define LD (APP + 0x4000)
#define LE (APP + 0x5000)

static const struct smp fixture[] = {
	{ LA + 0x0, APP + 0x100, LCL_HITM, 10, 0, 0 },
	{ LA + 0x8, APP + 0x200, RMT_HITM, 5, 0, 2 },
	{ LA + 0x8, APP + 0x300, STORE, 3, 0, 3 },
	{ LB + 0x10, APP + 0x400, RMT_HITM, 20, 0, 1 },
	{ LC + 0x0, APP + 0x500, LCL_PEER, 4, 0, 0 },
	{ LD + 0x0, APP + 0x600, L1, 7, 0, 0 },
	{ LE + 0x20, APP + 0x700, LCL_HITM, 1, 0, 0 },
};

struct fx {
	struct maps *m;
	struct cltab *t;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->t = build(&f->m, fixture, sizeof(fixture) / sizeof(fixture[0]), CLTAB_DISPLAY_TOT);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	cltab_free(f->t);
	maps_free(f->m);
	free(f);
	return 0;
}

static void test_cltable_view_filter_modes(void **state)
{
	static const struct {
		int line;
		enum cltab_display d;
		size_t nr;
		uint64_t addr[3];
	} rows[] = {
		{ __LINE__, CLTAB_DISPLAY_TOT, 3, { LB, LA, LE } },
		{ __LINE__, CLTAB_DISPLAY_LCL, 2, { LA, LE } },
		{ __LINE__, CLTAB_DISPLAY_RMT, 2, { LB, LA } },
		{ __LINE__, CLTAB_DISPLAY_PEER, 1, { LC } },
	};
	struct fx *f = *state;
	struct cltab_line *out[16];
	size_t i, j, n;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		n = cltv_filter(f->t, rows[i].d, out);
		if (n != rows[i].nr)
			fail_msg("row at line %d: %zu lines, want %zu", rows[i].line, n, rows[i].nr);
		for (j = 0; j < n; j++)
			if (out[j]->addr != rows[i].addr[j])
				fail_msg("row at line %d: line %zu is %#llx", rows[i].line, j,
					 (unsigned long long)out[j]->addr);
	}
}

/* 1 of 1000 is shown, 1 of 1001 is not (c2c-semantics.md §3.6). */
static void test_cltable_view_threshold(void **state)
{
	static const struct {
		int line;
		int big;
		size_t want;
	} rows[] = {
		{ __LINE__, 999, 2 },
		{ __LINE__, 1000, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct smp s[2] = { { LA, APP + 0x100, LCL_HITM, rows[i].big, 0, 0 },
				    { LB, APP + 0x100, LCL_HITM, 1, 0, 0 } };
		struct cltab_line *out[4];
		struct maps *m;
		struct cltab *t = build(&m, s, 2, CLTAB_DISPLAY_TOT);
		size_t n = cltv_filter(t, CLTAB_DISPLAY_LCL, out);

		if (n != rows[i].want)
			fail_msg("row at line %d: %zu lines shown, want %zu", rows[i].line, n,
				 rows[i].want);
		cltab_free(t);
		maps_free(m);
	}
}

/* Equal metrics keep the line-key order (ascending address here), whatever the input order. */
static void test_cltable_view_stable_ties(void **state)
{
	struct smp s[3] = { { LC, APP, RMT_HITM, 2, 0, 0 }, { LA, APP, RMT_HITM, 2, 0, 0 },
			    { LB, APP, RMT_HITM, 2, 0, 0 } };
	struct cltab_line *out[4];
	struct maps *m;
	struct cltab *t = build(&m, s, 3, CLTAB_DISPLAY_LCL);

	(void)state;
	assert_int_equal(cltv_filter(t, CLTAB_DISPLAY_RMT, out), 3);
	assert_int_equal(out[0]->addr, LA);
	assert_int_equal(out[1]->addr, LB);
	assert_int_equal(out[2]->addr, LC);
	cltab_free(t);
	maps_free(m);
}

/* Another mode's order: its metric descending, ties by the line key. */
static void test_cltable_view_sort_metric(void **state)
{
	struct fx *f = *state;
	struct cltab_line *out[16];
	size_t n, i;

	n = cltv_filter(f->t, CLTAB_DISPLAY_TOT, out);
	assert_true(n >= 2);
	cltv_sort(f->t, out, n, CLTAB_DISPLAY_LCL);
	for (i = 1; i < n; i++)
		assert_true(cltab_metric(CLTAB_DISPLAY_LCL, &out[i - 1]->stats) >=
			    cltab_metric(CLTAB_DISPLAY_LCL, &out[i]->stats));
	cltv_sort(f->t, out, n, CLTAB_DISPLAY_TOT);
	assert_int_equal(out[0]->addr, LB);
	assert_int_equal(out[n - 1]->addr, LE);
}

static const struct cltab_line *find_line(const struct cltab *t, uint64_t addr)
{
	struct cltab_line *const *all;
	size_t n, i;

	all = cltab_lines(t, &n);
	for (i = 0; i < n; i++)
		if (all[i]->addr == addr)
			return all[i];
	return NULL;
}

/* In rmt mode A's local-HITM-only offset 0x0 disappears; stores keep 0x8 visible everywhere. */
static void test_cltable_view_offsets(void **state)
{
	static const struct {
		int line;
		enum cltab_display d;
		size_t nr;
		uint64_t off0, ip0;
	} rows[] = {
		{ __LINE__, CLTAB_DISPLAY_TOT, 3, 0x0, APP + 0x100 },
		{ __LINE__, CLTAB_DISPLAY_LCL, 2, 0x0, APP + 0x100 },
		{ __LINE__, CLTAB_DISPLAY_RMT, 2, 0x8, APP + 0x200 },
		{ __LINE__, CLTAB_DISPLAY_PEER, 1, 0x8, APP + 0x300 },
	};
	struct fx *f = *state;
	const struct cltab_line *a = find_line(f->t, LA);
	uint32_t idx[8];
	size_t i, n;

	assert_non_null(a);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		n = cltv_offsets(f->t, a, rows[i].d, idx);
		if (n != rows[i].nr || a->off[idx[0]]->offset != rows[i].off0 ||
		    a->off[idx[0]]->ip != rows[i].ip0)
			fail_msg("row at line %d: %zu rows, first offset %#llx ip %#llx", rows[i].line,
				 n, (unsigned long long)a->off[idx[0]]->offset,
				 (unsigned long long)a->off[idx[0]]->ip);
	}
	/* tot: offset 0x8 has the rmt-HITM row (5) before the store row (0) */
	n = cltv_offsets(f->t, a, CLTAB_DISPLAY_TOT, idx);
	assert_int_equal(a->off[idx[1]]->ip, APP + 0x200);
	assert_int_equal(a->off[idx[2]]->ip, APP + 0x300);
}

/* The model of the table holds the line values perf's main table shows, under perf's headers. */
static void test_cltable_view_values_and_names(void **state)
{
	struct fx *f = *state;
	struct cltab_line *out[16];
	size_t n = cltv_filter(f->t, CLTAB_DISPLAY_TOT, out), i;
	struct rm_model *m = rm_from_cltab(f->t, CLTAB_DISPLAY_TOT, out, n);
	const struct rm_line *a = NULL;
	char buf[32];

	for (i = 0; i < m->nr_line; i++)
		if (m->line[i].addr == LA)
			a = &m->line[i];
	assert_non_null(a);
	assert_int_equal((int)a->v[RM_COL_HITM], 15);
	assert_int_equal((int)a->v[RM_COL_RMT_HITM], 5);
	assert_int_equal((int)a->v[RM_COL_STORES], 3);
	assert_string_equal(rm_col(RM_PMU, CLTAB_DISPLAY_RMT, RM_COL_COST)->group, "Rmt");
	assert_string_equal(rm_col(RM_PMU, CLTAB_DISPLAY_PEER, RM_COL_LCL_HITM)->hdr, "Local");
	assert_string_equal(rm_col(RM_PMU, CLTAB_DISPLAY_TOT, RM_COL_LCL_HITM)->hdr, "LclHitm");
	assert_string_equal(rm_display_title(CLTAB_DISPLAY_PEER), "Peer Snoop");
	assert_true(rm_pct(1, 0) == 0.0);
	assert_true(rm_pct(1, 4) == 25.0);
	/* no physical addresses in the fixture: no nodes */
	rm_cell(m, a, NULL, RM_COL_NODE, buf, sizeof(buf));
	assert_string_equal(buf, "N/A");
	rm_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cltable_view_filter_modes, setup, teardown),
		cmocka_unit_test(test_cltable_view_threshold),
		cmocka_unit_test(test_cltable_view_stable_ties),
		cmocka_unit_test_setup_teardown(test_cltable_view_sort_metric, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cltable_view_offsets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cltable_view_values_and_names, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
