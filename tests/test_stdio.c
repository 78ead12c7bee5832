/* Tests of report/stdio/columns and report/stdio/stdio: the table mechanics, and a whole report checked
 * against real perf 6.1 output (the example of c2c-semantics.md §6.4, symbols from a fake). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/aggregate/cltable.h"
#include "report/stdio/columns.h"
#include "report/model/numfmt.h"
#include "report/resolve/maps.h"
#include "report/stdio/stdio.h"

/* Output of perf c2c report --stdio 6.1.187 for the samples built in build_example(). */
static const char golden[] =
	"=================================================\n"
	"           Shared Data Cache Line Table          \n"
	"=================================================\n"
	"#\n"
	"#        ----------- Cacheline ----------      Tot  ------- Load Hitm -------    Total    Total    Total  --------- Stores --------  ----- Core Load Hit -----  - LLC Load Hit --  - RMT Load Hit --  --- Load Dram ----\n"
	"# Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  records    Loads   Stores    L1Hit   L1Miss      N/A       FB       L1       L2    LclHit  LclHitm    RmtHit  RmtHitm       Lcl       Rmt\n"
	"# .....  ..................  ....  ......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  ........  .......  ........  .......  ........  ........\n"
	"#\n"
	"      0      0x55e3ba1100c0   N/A       0   88.89%        8        5        3        8        8        0        0        0        0        0        0        0         0        5         0        3         0         0\n"
	"      1      0x55e3ba110100   N/A       0   11.11%        1        1        0        7        5        2        2        0        0        0        4        0         0        1         0        0         0         0\n"
	"\n"
	"=================================================\n"
	"      Shared Cache Line Distribution Pareto      \n"
	"=================================================\n"
	"#\n"
	"#        ----- HITM -----  ------- Store Refs ------  --------- Data address ---------                      ---------- cycles ----------    Total       cpu         Shared                   \n"
	"#   Num  RmtHitm  LclHitm   L1 Hit  L1 Miss      N/A              Offset  Node  PA cnt        Code address  rmt hitm  lcl hitm      load  records       cnt  Symbol  Object  Source:Line  Node\n"
	"# .....  .......  .......  .......  .......  .......  ..................  ....  ......  ..................  ........  ........  ........  .......  ........  .....  .  ...........  ....\n"
	"#\n"
	"  ----------------------------------------------------------------------\n"
	"      0        3        5        0        0        0      0x55e3ba1100c0\n"
	"  ----------------------------------------------------------------------\n"
	"           0.00%  100.00%    0.00%    0.00%    0.00%                 0x8   N/A       0      0x55e3ba10d159         0       102         0        5         2  [.] w  t  t.c:7         0\n"
	"         100.00%    0.00%    0.00%    0.00%    0.00%                0x10   N/A       0      0x55e3ba10d15d       300         0         0        3         1  [.] w  t  t.c:7         0\n"
	"\n"
	"  ----------------------------------------------------------------------\n"
	"      1        0        1        2        0        0      0x55e3ba110100\n"
	"  ----------------------------------------------------------------------\n"
	"           0.00%  100.00%  100.00%    0.00%    0.00%                 0x8   N/A       0      0x55e3ba10d1c8         0        77         0        3         1  [.] main  t  t.c:8         0\n";

static void test_col_banner(void **state)
{
	static const struct { int line, width; const char *word, *want; } rows[] = {
		{ __LINE__, 32, "Cacheline", "----------- Cacheline ----------" },
		{ __LINE__, 32, "Data address", "--------- Data address ---------" },
		{ __LINE__, 33, "Data address", "--------- Data address ----------" },
		{ __LINE__, 19, "CL", "------- CL --------" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		col_banner(buf, sizeof(buf), rows[i].width, rows[i].word);
		if (strcmp(buf, rows[i].want))
			fail_msg("row at line %d: '%s'", rows[i].line, buf);
	}
}

/* Node and CPU sets read as perf's bitmap_scnprintf() lists them (the model's cells). */
static void test_range_text(void **state)
{
	static const struct { int line; uint64_t set; uint32_t nbits; const char *want; } rows[] = {
		{ __LINE__, 0x1, 4, "0" }, { __LINE__, 0x3, 4, "0-1" }, { __LINE__, 0xd, 4, "0,2-3" },
		{ __LINE__, 0x0, 4, "" }, { __LINE__, 0x10, 4, "" }, { __LINE__, 0x2a, 8, "1,3,5" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		rm_range_text(&rows[i].set, rows[i].nbits, buf, sizeof(buf));
		if (strcmp(buf, rows[i].want))
			fail_msg("row at line %d: '%s'", rows[i].line, buf);
	}
}

static void test_col_row_layout(void **state)
{
	static const struct col c[3] = {
		{ "ab", 1, "x", 3 }, { NULL, 0, "y", 4, COL_LEFT }, { NULL, 0, "z", 2, COL_LEFT },
	};
	const char *cells[3] = { "1", "22", "3" }, *longc[3] = { "1", "22", NULL };
	char big[400];
	struct col_line l = { 0 };

	(void)state;
	col_header0(&l, c, 3);
	assert_string_equal(l.s, "#  ab    ");
	col_line_reset(&l);
	col_header1(&l, c, 3);
	assert_string_equal(l.s, "#   x     y   z");
	col_line_reset(&l);
	col_dots(&l, c, 3);
	assert_string_equal(l.s, "# ...  ....  ..");
	col_line_reset(&l);
	col_row(&l, c, 3, cells);
	assert_string_equal(l.s, "    1  22    3");          /* last cell never padded */
	memset(big, 'n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	longc[2] = big;
	col_line_reset(&l);
	col_row(&l, c, 3, longc);
	assert_int_equal(l.len, 3 + 4 + 2 + 2 * 2 + 227);       /* perf's row buffer */
	col_line_release(&l);
}

static int fake_sym(void *ctx, const struct maps_map *map, uint8_t mode, uint64_t ip,
		    uint64_t al, struct cltab_code *out)
{
	(void)ctx, (void)mode, (void)al;
	if (!map)
		return -1;
	out->symbol = ip == 0x55e3ba10d1c8 ? "main" : "w";
	out->srcfile = "/home/u/t.c";
	out->line = ip == 0x55e3ba10d1c8 ? 8 : 7;
	return 0;
}

static void feed(struct cltab *t, struct maps *m, uint32_t cpu, uint64_t ip, uint64_t addr,
		 uint64_t ds, uint64_t w)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };

	ev.sample = (struct trace_sample){ .ip = ip, .addr = addr, .data_src = ds, .weight = w,
		.pid = 1, .tid = 1, .cpu = cpu, .cpumode = 2,
		.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
			 TRACE_SAMPLE_HAS_WEIGHT };
	cltab_feed(t, m, &ev);
}

#define LH ((uint64_t)DSRC_LVL_HIT << DSRC_LVL_SHIFT)
#define LHITM (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_L3 << DSRC_LVL_SHIFT | \
	       (uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT)
#define RHITM (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_REM_CCE1 << DSRC_LVL_SHIFT | \
	       (uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT)
#define L1LD (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define L1ST (DSRC_OP_STORE | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)

static void build_example(struct cltab **tp, struct maps **mp)
{
	static const int32_t cpu_node[2] = { 0, 0 };
	struct cltab_opts o = { .cl_size = 64, .nr_cpus = 2, .cpu_node = cpu_node, .nr_nodes = 1,
				.sym = fake_sym };
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	struct cltab *t = cltab_new(&o);
	struct maps *m = maps_new();
	int i;

	ev.mmap = (struct trace_mmap){ .pid = 1, .tid = 1, .start = 0x55e3ba10c000, .len = 0x5000,
		.prot = 7, .flags = 2, .maj = 8, .min = 1, .ino = 9, .cpumode = 2,
		.filename = "/home/u/t" };
	cltab_feed(t, m, &ev);
	for (i = 0; i < 5; i++)
		feed(t, m, (uint32_t)(i & 1), 0x55e3ba10d159, 0x55e3ba1100c8, LHITM, 100 + (uint64_t)i);
	for (i = 0; i < 3; i++)
		feed(t, m, 1, 0x55e3ba10d15d, 0x55e3ba1100d0, RHITM, 300);
	for (i = 0; i < 4; i++)
		feed(t, m, 0, 0x55e3ba10d1c8, 0x55e3ba110100, L1LD, 4);
	for (i = 0; i < 2; i++)
		feed(t, m, 0, 0x55e3ba10d1c8, 0x55e3ba110108, L1ST, 0);
	feed(t, m, 0, 0x55e3ba10d1c8, 0x55e3ba110108, LHITM, 77);
	cltab_finish(t);
	*tp = t;
	*mp = m;
}

/* stdio_print() of the model of @t; with @names, a namer's names for its lines and rows. */
static int print_model(FILE *f, const struct cltab *t, struct stdio_opts *so,
		       void (*names)(struct rm_model *m, void *ctx), void *ctx)
{
	struct cltab_line *const *ln;
	struct rm_model *m;
	size_t nr;
	int rc;

	ln = cltab_lines(t, &nr);
	m = rm_from_cltab(t, cltab_opts(t)->display, ln, nr);
	if (names)
		names(m, ctx);
	rc = stdio_print(f, m, so);
	rm_free(m);
	return rc;
}

static int print_with_stats(FILE *f, const struct cltab *t, struct stdio_opts *so)
{
	return print_model(f, t, so, NULL, NULL);
}

static void test_stdio_matches_perf(void **state)
{
	static const char *const ev[] = { "cpu/mem-loads,ldlat=30/P", "cpu/mem-stores/P" };
	struct stdio_opts so = { .coalesce = "iaddr", .events = ev, .nr_events = 2 };
	struct cltab *t;
	struct maps *m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *table;

	(void)state;
	build_example(&t, &m);
	assert_int_equal(print_with_stats(f, t, &so), 0);
	fclose(f);
	table = strstr(buf, "           Shared Data Cache Line Table");
	assert_non_null(table);
	table -= 50;                                    /* the rule line above the title */
	assert_string_equal(table, golden);
	assert_non_null(strstr(buf, "  Events                            : cpu/mem-loads,ldlat=30/P\n"
				    "                                    : cpu/mem-stores/P\n"));
	assert_non_null(strstr(buf, "  Total records                     :         15\n"));
	assert_non_null(strstr(buf, "  Total Shared Cache Lines          :          2\n"));
	assert_non_null(strstr(buf, "  LLC Misses to Local DRAM          :        0.0%\n"));
	free(buf);
	cltab_free(t);
	maps_free(m);
}

/* Data names for the named Pareto: the line at 0x...1000c0 is "g (struct s, 64 bytes)", its
 * rows "g.m<offset>"; the other line has no name. */
static void fake_names(struct rm_model *m, void *ctx)
{
	static char names[16][16];
	size_t i, k, n = 0;

	for (i = 0; i < m->nr_line; i++) {
		struct rm_line *l = &m->line[i];

		if ((l->addr & 0xfff) == 0x0c0)
			l->what = "g (struct s, 64 bytes)";
		for (k = 0; k < l->nr_row && n < 16; k++, n++) {
			snprintf(names[n], sizeof(names[n]), "g.m%llx",
				 (unsigned long long)(l->addr + l->row[k].offset) & 0xff);
			l->row[k].data = names[n];
			*(int *)ctx += l->row[k].visible;
		}
		*(int *)ctx += 1;
	}
}

/* With namers, every Pareto line is perf's line, padded, then two spaces and the name; the rows of
 * one line share the Data column; the sections before the Pareto do not change. */
static void test_stdio_data_names(void **state)
{
	static const char *const ev[] = { "cpu/mem-loads,ldlat=30/P", "cpu/mem-stores/P" };
	struct stdio_opts so = { .coalesce = "iaddr", .events = ev, .nr_events = 2 };
	struct cltab *t;
	struct maps *m;
	char *plain = NULL, *named = NULL, *p, *q, *pe, *qe;
	size_t len = 0, col = 0;
	int calls = 0, lines = 0, with_names = 0;
	FILE *f;

	(void)state;
	build_example(&t, &m);
	f = open_memstream(&plain, &len);
	assert_int_equal(print_with_stats(f, t, &so), 0);
	fclose(f);
	so.data_names = 1;
	f = open_memstream(&named, &len);
	assert_int_equal(print_model(f, t, &so, fake_names, &calls), 0);
	fclose(f);
	assert_int_equal(calls, 2 + 3);                 /* 2 headings, 3 visible rows */
	assert_non_null(strstr(named, "  0x55e3ba1100c0  g (struct s, 64 bytes)\n"));
	assert_non_null(strstr(named, "  0x55e3ba110100  [unknown]\n"));
	assert_non_null(strstr(named, "  Data\n# ....."));
	for (p = plain, q = named; *p; p = pe + 1, q = qe + 1, lines++) {
		pe = strchr(p, '\n');
		qe = strchr(q, '\n');
		assert_non_null(qe);
		assert_memory_equal(p, q, (size_t)(pe - p));   /* perf's line is a prefix */
		*qe = '\0';                                   /* one line at a time */
		if (qe - q == pe - p)
			continue;
		with_names++;
		assert_true(strspn(q + (pe - p), " ") >= 2);
		assert_int_not_equal(q[qe - q - 1], ' ');
		if (strstr(q, "g.m") && strstr(q, "0x55e3ba10d15")) {  /* rows of the first line */
			size_t c = (size_t)(strstr(q, "g.m") - q);

			assert_true(!col || c == col);
			col = c;
		}
	}
	assert_int_equal(*q, '\0');
	assert_int_equal(with_names, 2 + 2 + 3);         /* header, dots, 2 headings, 3 rows */
	assert_true(col > 0);
	free(plain);
	free(named);
	cltab_free(t);
	maps_free(m);
}

static void test_stdio_stats_only_and_nan(void **state)
{
	static const int32_t cpu_node[1] = { 0 };
	struct cltab_opts o = { .cl_size = 64, .nr_cpus = 1, .cpu_node = cpu_node, .nr_nodes = 1 };
	struct stdio_opts so = { .coalesce = "iaddr", .stats_only = 1 };
	struct cltab *t = cltab_new(&o);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	cltab_finish(t);
	assert_int_equal(print_with_stats(f, t, &so), 0);
	fclose(f);
	assert_non_null(strstr(buf, "  LLC Misses to Remote DRAM         :       -nan%\n"));
	assert_null(strstr(buf, "Shared Data Cache Line Table"));
	assert_int_equal(buf[len - 1], '\n');
	assert_non_null(strstr(buf, "offset,iaddr\n"));
	free(buf);
	cltab_free(t);
}


/* numfmt against snprintf: every percentage a/b for b up to 1200 (the ties of %.2f among them:
 * 0.125 %, 0.375 %...), random ones, exact .5 ties and large means for %6.0f, and integers. */
static void test_numfmt(void **state)
{
	char a[64], b[64];
	uint64_t x = 0x2545f4914f6cdd1dULL;
	uint32_t part, whole;
	unsigned long n = 0;

	(void)state;
	for (whole = 1; whole <= 1200; whole++)
		for (part = 0; part <= whole; part++, n++) {
			double v = 100. * (double)part / (double)whole;

			numfmt_pct2(a, v);
			snprintf(b, sizeof(b), "%.2f%%", v);
			if (strcmp(a, b))
				fail_msg("%u/%u: numfmt '%s', snprintf '%s'", part, whole, a, b);
		}
	for (int i = 0; i < 2000000; i++, n++) {
		double v, m;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		whole = (uint32_t)(x >> 32) | 1;
		part = (uint32_t)x % whole;
		v = 100. * (double)part / (double)whole;
		numfmt_pct2(a, v);
		snprintf(b, sizeof(b), "%.2f%%", v);
		if (strcmp(a, b))
			fail_msg("%u/%u: numfmt '%s', snprintf '%s'", part, whole, a, b);
		m = (i & 3) == 0 ? (double)(x >> 40) + 0.5                  /* exact ties */
		    : (i & 3) == 1 ? (double)(x >> 11) / 1024.0               /* up to 2^43 */
		    : (i & 3) == 2 ? (double)(x >> 1)                         /* up to 2^63 */
		    : (double)(x % 100000) / (double)((x >> 20) % 999 + 1);   /* running means */
		numfmt_f0w6(a, m);
		snprintf(b, sizeof(b), "%6.0f", m);
		if (strcmp(a, b))
			fail_msg("%.17g: numfmt '%s', snprintf '%s'", m, a, b);
		numfmt_u64(a, x);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)x);
		assert_string_equal(a, b);
		numfmt_hex(a, x >> (i & 63));
		snprintf(b, sizeof(b), "0x%llx", (unsigned long long)(x >> (i & 63)));
		assert_string_equal(a, b);
	}
	numfmt_u64(a, 0);
	assert_string_equal(a, "0");
	numfmt_hex(a, 0);
	assert_string_equal(a, "0x0");
	numfmt_f0w6(a, 2.5);
	assert_string_equal(a, "     2");
	numfmt_pct2(a, 0.125);
	assert_string_equal(a, "0.12%");
	assert_true(n > 2000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numfmt),
		cmocka_unit_test(test_col_banner),
		cmocka_unit_test(test_range_text),
		cmocka_unit_test(test_col_row_layout),
		cmocka_unit_test(test_stdio_matches_perf),
		cmocka_unit_test(test_stdio_data_names),
		cmocka_unit_test(test_stdio_stats_only_and_nan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
