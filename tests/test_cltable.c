/* Tests of report/aggregate/cltable: line and offset keys, shared-line selection, the 0.1% display filter,
 * ordering and ties, cycles means, PA counts, node attribution and the symbol hook (a fake). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/aggregate/cltable.h"
#include "report/resolve/maps.h"

#define LH     ((uint64_t)DSRC_LVL_HIT << DSRC_LVL_SHIFT)
#define LOAD   ((uint64_t)DSRC_OP_LOAD)
#define STORE  ((uint64_t)DSRC_OP_STORE)
#define L1     (LOAD | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define ST_L1  (STORE | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define LHITM  (LOAD | LH | (uint64_t)DSRC_LVL_L3 << DSRC_LVL_SHIFT | \
		(uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT)
#define RHITM  (LOAD | LH | (uint64_t)DSRC_LVL_REM_CCE1 << DSRC_LVL_SHIFT | \
		(uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT)

static const int32_t cpu_node[4] = { 0, 0, 1, 1 };
static const struct trace_mem_range ranges[2] = { { 0, 0x1000, 0 }, { 0x1000, 0x2000, 1 } };

struct fx {
	struct maps *m;
	struct cltab *t;
	int sym_calls;
};

static int fake_sym(void *ctx, const struct maps_map *map, uint8_t mode, uint64_t ip,
		    uint64_t al, struct cltab_code *out)
{
	struct fx *f = ctx;

	(void)mode, (void)al;
	f->sym_calls++;
	if (!map || ip != 0x400100)
		return -1;
	out->symbol = "worker_loop";
	out->srcfile = "/src/w.c";
	out->line = 42;
	return 0;
}

static void fx_open(struct fx *f, enum cltab_display d, int show_all)
{
	struct cltab_opts o = { .cl_size = 64, .display = d, .show_all = show_all, .nr_cpus = 4,
				.cpu_node = cpu_node, .nr_nodes = 2, .mem_ranges = ranges,
				.nr_mem_ranges = 2, .sym = fake_sym, .sym_ctx = f };
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	uint32_t pid;

	f->m = maps_new();
	f->t = cltab_new(&o);
	f->sym_calls = 0;
	for (pid = 100; pid <= 200; pid += 100) {
		ev.mmap = (struct trace_mmap){ .pid = pid, .tid = pid, .start = 0x400000,
			.len = 0x1000, .prot = 5, .flags = 2, .maj = 8, .min = 1, .ino = 5,
			.cpumode = 2, .filename = "/bin/app" };
		cltab_feed(f->t, f->m, &ev);
		ev.mmap = (struct trace_mmap){ .pid = pid, .tid = pid,
			.start = pid == 100 ? 0x600000 : 0x700000, .len = 0x1000, .pgoff = 0x1000,
			.prot = 3, .flags = 2, .maj = 8, .min = 1, .ino = 5, .cpumode = 2,
			.filename = "/bin/app" };
		cltab_feed(f->t, f->m, &ev);
		ev.mmap = (struct trace_mmap){ .pid = pid, .tid = pid, .start = 0x1000000,
			.len = 0x10000, .prot = 3, .flags = 2, .cpumode = 2, .filename = "[heap]" };
		cltab_feed(f->t, f->m, &ev);
	}
}

static void fx_close(struct fx *f)
{
	assert_int_equal(cltab_check(f->t), 0);
	cltab_free(f->t);
	maps_free(f->m);
}

static void add(struct fx *f, uint32_t pid, uint32_t cpu, uint64_t ip, uint64_t addr,
		uint64_t ds, uint64_t w, uint64_t pa, uint8_t mode)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };

	ev.sample = (struct trace_sample){ .ip = ip, .addr = addr, .data_src = ds, .weight = w,
		.phys_addr = pa, .pid = pid, .tid = pid, .cpu = cpu, .cpumode = mode,
		.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
			 TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_PHYS };
	cltab_feed(f->t, f->m, &ev);
}

static void test_cltab_keys(void **state)
{
	struct fx f;
	struct cltab_line *const *ln;
	size_t nr;

	(void)state;
	fx_open(&f, CLTAB_DISPLAY_TOT, 1);
	add(&f, 100, 0, 0x400100, 0x1000040, LHITM, 10, 0, 2);  /* heap of 100 */
	add(&f, 200, 2, 0x400100, 0x1000048, LHITM, 10, 0, 2);  /* heap of 200: other line */
	add(&f, 100, 0, 0x400100, 0x600040, LHITM, 10, 0, 2);   /* .data, file offset 0x1040 */
	add(&f, 200, 2, 0x400100, 0x700048, LHITM, 10, 0, 2);   /* same file offset: merged */
	add(&f, 100, 0, 0x400100, 0x1000040, LHITM, 10, 0, 1);  /* kernel mode: no map */
	cltab_finish(f.t);
	ln = cltab_lines(f.t, &nr);
	assert_int_equal(cltab_nr_lines(f.t), 4);
	assert_int_equal(nr, 4);
	assert_int_equal(cltab_nr_shared(f.t), 4);
	/* the .data line has 2 HITMs and comes first, shown at the first sample's address */
	assert_int_equal(ln[0]->stats.tot_hitm, 2);
	assert_int_equal(ln[0]->addr, 0x600040);
	assert_int_equal(ln[0]->nr_off, 2);                       /* offsets 0x0 and 0x8 */
	/* ties: kernel mode first, then maps before no map, then DSO id, then pid */
	assert_int_equal(ln[1]->cpumode, 1);
	assert_int_equal(ln[2]->key_pid, 100);
	assert_int_equal(ln[3]->key_pid, 200);
	assert_int_equal(cltab_total(f.t)->nomap, 1);
	fx_close(&f);
}

static void test_cltab_filter_threshold(void **state)
{
	struct fx f;
	size_t nr, i;

	(void)state;
	for (i = 0; i < 2; i++) {
		int k, others = i ? 1000 : 999;

		fx_open(&f, CLTAB_DISPLAY_TOT, 0);
		add(&f, 100, 0, 0x400100, 0x1000000, LHITM, 1, 0, 2);
		for (k = 0; k < others; k++)
			add(&f, 100, 0, 0x400100, 0x1000100, LHITM, 1, 0, 2);
		add(&f, 100, 0, 0x400100, 0x1000200, L1, 1, 0, 2);   /* not shared */
		cltab_finish(f.t);
		cltab_lines(f.t, &nr);
		/* 1 of 1000 is shown (>= 0.001), 1 of 1001 is not */
		assert_int_equal(nr, i ? 1 : 2);
		assert_int_equal(cltab_nr_shared(f.t), 2);
		fx_close(&f);
	}
}

static void test_cltab_offsets_and_figures(void **state)
{
	struct fx f;
	struct cltab_line *const *ln;
	const struct cltab_offset *o;
	size_t nr;

	(void)state;
	fx_open(&f, CLTAB_DISPLAY_RMT, 0);
	add(&f, 100, 0, 0x400200, 0x1000010, ST_L1, 0, 0x100, 2);
	add(&f, 100, 2, 0x400100, 0x1000008, RHITM, 3, 0x100, 2);
	add(&f, 100, 2, 0x400100, 0x1000008, RHITM, 4, 0x100, 2);
	add(&f, 100, 3, 0x400100, 0x1000008, LHITM, 9, 0x1100, 2);
	add(&f, 100, 0, 0x400300, 0x1000008, LHITM, 5, 0x100, 2);  /* local only: hidden in rmt */
	add(&f, 100, 1, 0x400100, 0x1000000, L1, 2, 0, 2);        /* no store, no HITM: hidden */
	cltab_finish(f.t);
	ln = cltab_lines(f.t, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(ln[0]->nr_off, 4);
	assert_int_equal(ln[0]->paddr_cnt, 3);                  /* A, A, A, B, A: 3 changes */
	o = ln[0]->off[0];
	assert_int_equal(o->offset, 0);
	assert_false(o->visible);
	o = ln[0]->off[1];
	assert_int_equal(o->offset, 8);
	assert_int_equal(o->ip, 0x400100);
	assert_true(o->visible);
	assert_int_equal(o->stats.rmt_hitm, 2);
	assert_true(o->cycles[CLTAB_CYC_RMT_HITM].mean == 3.5);
	assert_true(o->cycles[CLTAB_CYC_LCL_HITM].mean == 9);
	assert_int_equal(o->cpu_cnt, 2);
	assert_int_equal(o->node_stats[1].rmt_hitm, 2);
	assert_int_equal(o->node_stats[0].rmt_hitm, 0);
	assert_int_equal(o->paddr_cnt, 2);
	assert_true(o->has_sym);
	assert_string_equal(o->code.symbol, "worker_loop");
	assert_false(ln[0]->off[2]->visible);                    /* 0x400300: local HITM only */
	assert_int_equal(ln[0]->off[3]->offset, 0x10);
	assert_true(ln[0]->off[3]->visible);
	assert_int_equal(f.sym_calls, 4);
	fx_close(&f);
}

static void test_cltab_coalesce_pid(void **state)
{
	struct cltab_opts o = { .cl_size = 64, .display = CLTAB_DISPLAY_TOT, .nr_cpus = 4,
				.cpu_node = cpu_node, .nr_nodes = 2,
				.coalesce = { CLTAB_CO_PID }, .nr_coalesce = 1 };
	struct maps *m = maps_new();
	struct cltab *t = cltab_new(&o);
	struct maps_thread *a = maps_findnew_thread(m, 100, 100);
	struct maps_thread *b = maps_findnew_thread(m, 100, 101);
	struct maps_thread *c = maps_findnew_thread(m, 90, 90);
	struct cltab_sample s = { .addr = 0x5000, .al_addr = 0x5000, .ip = 1, .data_src = LHITM,
				  .cpu = 0, .cpumode = 2, .thread = a };
	struct cltab_line *const *ln;
	size_t nr;

	(void)state;
	cltab_add(t, &s);
	s.thread = b, s.ip = 2;
	cltab_add(t, &s);     /* same pid: merged although ip and tid differ */
	s.thread = c;
	cltab_add(t, &s);
	cltab_finish(t);
	ln = cltab_lines(t, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(ln[0]->nr_off, 2);
	assert_int_equal(ln[0]->off[0]->thread->pid, 100);      /* pid ties sort descending */
	assert_int_equal(ln[0]->off[0]->stats.nr_entries, 2);
	assert_int_equal(cltab_check(t), 0);
	cltab_free(t);
	maps_free(m);
}

static const int32_t xcpu_node[4] = { 0, 0, 1, 1 };

/* One entry fed 1, 2 or 5 samples of mixed classes and nodes: counters, per-node counters and
 * cycles means equal one-by-one accumulation (the compact single-sample form and its promotion
 * replay the first sample exactly); with no_node_stats the node blocks stay zero. */
static void test_entry_forms(void **state)
{
	static const struct { int line, n, no_node; } rows[] = {
		{ __LINE__, 1, 0 }, { __LINE__, 2, 0 }, { __LINE__, 5, 0 }, { __LINE__, 5, 1 },
	};
	static const uint64_t ds[5] = { LHITM, L1, ST_L1, LHITM, L1 };
	static const uint64_t w[5] = { 333, 77, 5, 1000, 3 };
	size_t r;

	(void)state;
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct cltab_opts o = { .cl_size = 64, .show_all = 1, .nr_cpus = 4,
					.cpu_node = xcpu_node, .nr_nodes = 2,
					.no_node_stats = rows[r].no_node };
		struct cltab *t = cltab_new(&o);
		struct maps *m = maps_new();
		struct maps_thread *th = maps_findnew_thread(m, 100, 100);
		struct dsrc_stats want = { 0 }, wnode[2] = { { 0 } }, st;
		double n[CLTAB_CYC_NR] = { 0 }, mean[CLTAB_CYC_NR] = { 0 };
		struct cltab_line *const *ln;
		const struct cltab_offset *of;
		size_t nr;
		int i, k;

		for (i = 0; i < rows[r].n; i++) {
			struct cltab_sample s = { .addr = 0x1008, .al_addr = 0x1008, .ip = 0x400100,
						  .weight = w[i], .data_src = ds[i],
						  .cpu = (uint32_t)(i % 4), .cpumode = 2,
						  .thread = th, .has_code_map = 1 };
			struct dsrc_input in = { .data_src = ds[i], .daddr = s.addr,
						 .has_code_map = 1 };

			cltab_add(t, &s);
			dsrc_decode(&st, &in);
			dsrc_add(&want, &st);
			if (!rows[r].no_node)
				dsrc_add(&wnode[xcpu_node[i % 4]], &st);
			k = st.lcl_hitm ? CLTAB_CYC_LCL_HITM : st.load ? CLTAB_CYC_LOAD : -1;
			if (k >= 0) {
				n[k] += 1;
				mean[k] += ((double)w[i] - mean[k]) / n[k];
			}
		}
		cltab_finish(t);
		ln = cltab_lines(t, &nr);
		if (nr != 1 || ln[0]->nr_off != 1)
			fail_msg("row at line %d: %zu lines", rows[r].line, nr);
		of = ln[0]->off[0];
		if (memcmp(&of->stats, &want, sizeof(want)) ||
		    memcmp(&of->node_stats[0], &wnode[0], sizeof(want)) ||
		    memcmp(&of->node_stats[1], &wnode[1], sizeof(want)) || of->cpumode != 2)
			fail_msg("row at line %d: counters differ", rows[r].line);
		for (k = 0; k < CLTAB_CYC_NR; k++)
			if (of->cycles[k].n != n[k] || of->cycles[k].mean != mean[k])
				fail_msg("row at line %d: cycles mean %d differs", rows[r].line, k);
		assert_int_equal(cltab_check(t), 0);
		cltab_free(t);
		maps_free(m);
	}
}

/* Touches of entries shared by 1 to 20 threads, fed in turns over three entries of one line so
 * that the entries' touch blocks grow at different times and reuse each other's freed blocks,
 * and past CLTAB_TB_MAX threads the (entry, thread) hash takes the rest: every thread's counters
 * exact, in the order the threads first touched the entry, the first thread's first. */
static void test_touches_many_threads(void **state)
{
	static const int nthr[] = { 1, 2, 3, 4, 5, 6, 9, 20 };
	static const uint64_t ds[4] = { L1, ST_L1, LHITM, RHITM };
	size_t r;

	(void)state;
	for (r = 0; r < sizeof(nthr) / sizeof(nthr[0]); r++) {
		struct cltab_opts o = { .cl_size = 64, .show_all = 1, .nr_cpus = 4,
					.cpu_node = xcpu_node, .nr_nodes = 2 };
		struct cltab *t = cltab_new(&o);
		struct maps *m = maps_new();
		struct maps_thread *th[20];
		uint32_t want[3][20][CLTAB_T_NR], order[3][20], nord[3] = { 0 }, seen[3][20] = { { 0 } };
		uint64_t x = 0x9e3779b97f4a7c15ULL + r;
		struct cltab_line *const *ln;
		size_t nr, e, u;
		int i, k;

		memset(want, 0, sizeof(want));
		for (k = 0; k < nthr[r]; k++)
			th[k] = maps_findnew_thread(m, 100, 100 + k);
		for (i = 0; i < 3000; i++) {
			struct cltab_sample s = { .ip = 0x400100, .cpumode = 2, .has_code_map = 1 };
			struct dsrc_input in = { .has_code_map = 1 };
			struct dsrc_stats st;
			uint32_t tk, ek;

			x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
			tk = (uint32_t)((x * 2685821657736338717ULL) >> 40) % (uint32_t)nthr[r];
			ek = (uint32_t)(i % 3);
			s.addr = s.al_addr = 0x1000 + ek * 8;
			s.data_src = in.data_src = ds[(x >> 20) % 4];
			in.daddr = s.addr;
			s.cpu = tk % 4;
			s.weight = 10 + tk;
			s.thread = th[tk];
			cltab_add(t, &s);
			dsrc_decode(&st, &in);
			if (!seen[ek][tk]) {
				seen[ek][tk] = 1;
				order[ek][nord[ek]++] = tk;
			}
			want[ek][tk][CLTAB_T_LD] += st.load;
			want[ek][tk][CLTAB_T_ST] += st.store;
			want[ek][tk][CLTAB_T_LOCK] += st.locks;
			want[ek][tk][CLTAB_T_LCL_HITM] += st.lcl_hitm;
			want[ek][tk][CLTAB_T_RMT_HITM] += st.rmt_hitm;
			want[ek][tk][CLTAB_T_LCL_PEER] += st.lcl_peer;
			want[ek][tk][CLTAB_T_RMT_PEER] += st.rmt_peer;
		}
		cltab_finish(t);
		ln = cltab_lines(t, &nr);
		assert_int_equal(nr, 1);
		assert_int_equal(ln[0]->nr_off, 3);
		for (e = 0; e < 3; e++) {
			const struct cltab_offset *of = ln[0]->off[e];
			uint32_t ek = (uint32_t)(of->offset / 8);

			assert_true(ek < 3);
			if (of->nr_touch != nord[ek])
				fail_msg("%d threads, entry %u: %zu touches, want %u", nthr[r], ek,
					 of->nr_touch, nord[ek]);
			for (u = 0; u < of->nr_touch; u++) {
				uint32_t tk = order[ek][u];

				if (of->touch[u].thread != th[tk] ||
				    memcmp(of->touch[u].n, want[ek][tk], sizeof(want[ek][tk])))
					fail_msg("%d threads, entry %u, touch %zu (thread %u) differs",
						 nthr[r], ek, u, tk);
			}
		}
		assert_int_equal(cltab_check(t), 0);
		cltab_free(t);
		maps_free(m);
	}
}

/* A table with jobs = 4 (aggregation threads, lines sharded by key) gives exactly what one thread
 * gives: the same lines in the same order, the same offsets, counters, cycles means (bit for bit),
 * CPU counts, PA counts and touches, for 60000 random samples over two processes (private and
 * anonymous lines, equal-looking keys), with tid and iaddr coalescing. */
static void fill_random(struct cltab *t, struct maps *m)
{
	static const uint64_t ds[4] = { LHITM, RHITM, L1, ST_L1 };
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	uint32_t pid, i;

	for (pid = 100; pid <= 200; pid += 100) {
		ev.mmap = (struct trace_mmap){ .pid = pid, .tid = pid, .start = 0x400000,
			.len = 0x1000, .prot = 5, .flags = 2, .maj = 8, .min = 1, .ino = 5,
			.cpumode = 2, .filename = "/bin/app" };
		cltab_feed(t, m, &ev);
		ev.mmap = (struct trace_mmap){ .pid = pid, .tid = pid, .start = 0x1000000,
			.len = 0x100000, .prot = 3, .flags = 2, .cpumode = 2, .filename = "[heap]" };
		cltab_feed(t, m, &ev);
	}
	for (i = 0; i < 60000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pid = (x & 1) ? 100 : 200;
		ev.type = TRACE_REC_SAMPLE;
		ev.sample = (struct trace_sample){ .ip = 0x400100 + ((x >> 8) & 3) * 8,
			.addr = 0x1000000 + ((x >> 16) % 40000) * 8, .data_src = ds[(x >> 40) & 3],
			.weight = (x >> 44) & 1023, .phys_addr = (x >> 20) & 0x1ff8,
			.pid = pid, .tid = pid + ((x >> 56) & 3), .cpu = (uint32_t)(x >> 60) % 5,
			.cpumode = 2,
			.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
				 TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_PHYS };
		cltab_feed(t, m, &ev);
	}
}

static void test_jobs_identical(void **state)
{
	struct cltab_opts o = { .cl_size = 64, .show_all = 1, .nr_cpus = 4, .cpu_node = cpu_node,
				.nr_nodes = 2, .mem_ranges = ranges, .nr_mem_ranges = 2,
				.coalesce = { CLTAB_CO_TID, CLTAB_CO_IADDR }, .nr_coalesce = 2 };
	struct cltab *t[2];
	struct maps *m[2];
	struct cltab_line *const *ln[2];
	size_t nr[2], i, k;
	int j;

	(void)state;
	for (j = 0; j < 2; j++) {
		o.jobs = j ? 4 : 1;
		m[j] = maps_new();
		t[j] = cltab_new(&o);
		fill_random(t[j], m[j]);
		cltab_finish(t[j]);
		assert_int_equal(cltab_check(t[j]), 0);
		ln[j] = cltab_lines(t[j], &nr[j]);
	}
	assert_true(nr[0] > 1000);
	/* more entries than a table folds in one pass (CLTAB_SMALL_ENTS, 32768): the one-thread
	 * table goes on with the prefetching passes; the -j 4 table starts its four aggregation
	 * threads there and keeps its own lines while the new ones go to the threads, each of
	 * which stays under the bound; the two must agree */
	assert_true(cltab_nr_offsets(t[0]) > 4 * 32768 / 3 && cltab_nr_offsets(t[0]) < 4 * 32768);
	assert_int_equal(nr[0], nr[1]);
	assert_int_equal(cltab_nr_lines(t[0]), cltab_nr_lines(t[1]));
	assert_int_equal(cltab_nr_offsets(t[0]), cltab_nr_offsets(t[1]));
	assert_int_equal(cltab_nr_shared(t[0]), cltab_nr_shared(t[1]));
	assert_memory_equal(cltab_total(t[0]), cltab_total(t[1]), sizeof(struct dsrc_stats));
	assert_memory_equal(cltab_shared(t[0]), cltab_shared(t[1]), sizeof(struct dsrc_stats));
	assert_memory_equal(cltab_counts(t[0]), cltab_counts(t[1]), sizeof(struct cltab_counts));
	for (i = 0; i < nr[0]; i++) {
		const struct cltab_line *a = ln[0][i], *b = ln[1][i];

		if (a->cl != b->cl || a->addr != b->addr || a->key_pid != b->key_pid ||
		    a->nr_off != b->nr_off || a->paddr_cnt != b->paddr_cnt ||
		    memcmp(&a->stats, &b->stats, sizeof(a->stats)))
			fail_msg("line %zu differs", i);
		for (k = 0; k < a->nr_off; k++) {
			const struct cltab_offset *x = a->off[k], *y = b->off[k];

			if (x->offset != y->offset || x->ip != y->ip ||
			    x->thread->tid != y->thread->tid || x->cpu_cnt != y->cpu_cnt ||
			    x->paddr_cnt != y->paddr_cnt || x->nr_touch != y->nr_touch ||
			    memcmp(&x->stats, &y->stats, sizeof(x->stats)) ||
			    memcmp(x->cycles, y->cycles, sizeof(x->cycles)) ||
			    memcmp(x->node_stats, y->node_stats, 2 * sizeof(*x->node_stats)))
				fail_msg("line %zu offset %zu differs", i, k);
			for (size_t u = 0; u < x->nr_touch; u++)
				if (x->touch[u].thread->tid != y->touch[u].thread->tid ||
				    memcmp(x->touch[u].n, y->touch[u].n, sizeof(x->touch[u].n)))
					fail_msg("line %zu offset %zu touch %zu differs", i, k, u);
		}
	}
	for (j = 0; j < 2; j++) {
		cltab_free(t[j]);
		maps_free(m[j]);
	}
}


/* cltab_redisplay(): the lines of another display mode, as a table made for that mode gives
 * them (filter, order, offsets and their order), and back. */
static void test_redisplay(void **state)
{
	/* 4 KiB lines: fill_random()'s 320 KiB are 80 lines, each over perf's 0.1% in every mode */
	struct cltab_opts o = { .cl_size = 4096, .nr_cpus = 4, .cpu_node = cpu_node, .nr_nodes = 2,
				.mem_ranges = ranges, .nr_mem_ranges = 2 };
	static const enum cltab_display modes[] = { CLTAB_DISPLAY_RMT, CLTAB_DISPLAY_LCL,
						    CLTAB_DISPLAY_TOT };
	struct cltab *t, *ref;
	struct maps *m, *mr;

	(void)state;
	o.keep_sums = 1;
	m = maps_new();
	t = cltab_new(&o);
	fill_random(t, m);
	cltab_finish(t);
	for (size_t d = 0; d < sizeof(modes) / sizeof(modes[0]); d++) {
		struct cltab_line *const *a, *const *b;
		size_t na, nb;

		cltab_redisplay(t, modes[d]);
		o.display = modes[d];
		o.keep_sums = 0;
		mr = maps_new();
		ref = cltab_new(&o);
		fill_random(ref, mr);
		cltab_finish(ref);
		a = cltab_lines(t, &na);
		b = cltab_lines(ref, &nb);
		assert_true(nb > 40);
		assert_int_equal(na, nb);
		assert_int_equal(cltab_check(t), 0);
		for (size_t i = 0; i < na; i++) {
			assert_int_equal(a[i]->cl, b[i]->cl);
			assert_int_equal(a[i]->index, b[i]->index);
			assert_int_equal(a[i]->nr_off, b[i]->nr_off);
			assert_memory_equal(&a[i]->stats, &b[i]->stats, sizeof(a[i]->stats));
			for (size_t k = 0; k < a[i]->nr_off; k++) {
				assert_int_equal(a[i]->off[k]->offset, b[i]->off[k]->offset);
				assert_int_equal(a[i]->off[k]->ip, b[i]->off[k]->ip);
				assert_int_equal(a[i]->off[k]->visible, b[i]->off[k]->visible);
				assert_memory_equal(&a[i]->off[k]->stats, &b[i]->off[k]->stats,
						    sizeof(a[i]->off[k]->stats));
			}
		}
		cltab_free(ref);
		maps_free(mr);
	}
	cltab_free(t);
	maps_free(m);
}

/* Line sums are made from per-class counts while a table has at most 32 classes and from the
 * entries' counter blocks beyond: with random data_src words (hundreds of classes) and with four,
 * every displayed line equals the sum of its offsets and the lines the total. */
static void test_line_sums_many_classes(void **state)
{
	struct cltab_opts o = { .cl_size = 64, .show_all = 1, .nr_cpus = 4, .cpu_node = cpu_node,
				.nr_nodes = 2, .mem_ranges = ranges, .nr_mem_ranges = 2 };
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	uint64_t x = 0x2545f4914f6cdd1dULL;
	int many;

	(void)state;
	for (many = 0; many < 2; many++) {
		struct maps *m = maps_new();
		struct cltab *t = cltab_new(&o);
		struct cltab_line *const *ln;
		struct dsrc_stats sum = { 0 };
		size_t nr, i;

		ev.type = TRACE_REC_MMAP;
		ev.mmap = (struct trace_mmap){ .pid = 100, .tid = 100, .start = 0x1000000,
			.len = 0x100000, .prot = 3, .flags = 2, .cpumode = 2, .filename = "[heap]" };
		cltab_feed(t, m, &ev);
		for (i = 0; i < 20000; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			ev.type = TRACE_REC_SAMPLE;
			ev.sample = (struct trace_sample){ .ip = 0x400100 + ((x >> 8) & 3) * 8,
				.addr = 0x1000000 + ((x >> 16) % 4000) * 8,
				.data_src = many ? x & 0xffffffffffULL : (x & 3) + DSRC_OP_LOAD,
				.weight = (x >> 44) & 1023, .pid = 100, .tid = 100 + ((x >> 56) & 3),
				.cpu = (uint32_t)(x >> 60) % 4, .cpumode = 2,
				.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR |
					 TRACE_SAMPLE_HAS_DSRC | TRACE_SAMPLE_HAS_WEIGHT };
			cltab_feed(t, m, &ev);
		}
		cltab_finish(t);
		assert_int_equal(cltab_check(t), 0);
		ln = cltab_lines(t, &nr);
		assert_int_equal(nr, cltab_nr_lines(t));
		for (i = 0; i < nr; i++)
			dsrc_add(&sum, &ln[i]->stats);
		assert_memory_equal(&sum, cltab_total(t), sizeof(sum));
		assert_int_equal(sum.nr_entries, 20000);
		cltab_free(t);
		maps_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cltab_keys),
		cmocka_unit_test(test_cltab_filter_threshold),
		cmocka_unit_test(test_cltab_offsets_and_figures),
		cmocka_unit_test(test_cltab_coalesce_pid),
		cmocka_unit_test(test_entry_forms),
		cmocka_unit_test(test_touches_many_threads),
		cmocka_unit_test(test_jobs_identical),
		cmocka_unit_test(test_redisplay),
		cmocka_unit_test(test_line_sums_many_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
