/* Tests of report/advice: member grouping, verdicts and advice text over a real cacheline table
 * with fake code and data resolvers, what a line holds for heap/stack/unknown memory, --summary
 * limits and the printed block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/advice.h"

#define LH     ((uint64_t)DSRC_LVL_HIT << DSRC_LVL_SHIFT)
#define L1     (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define ST     (DSRC_OP_STORE | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define HITM   (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_L3 << DSRC_LVL_SHIFT | \
		(uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT)

#define DATA   0x600000ULL   /* "g" (struct s, 24 bytes): members a, b, c of 8 bytes */
#define HEAP   0x1000000ULL
#define STACK  0x7ff000ULL
#define SHM    0x2000000ULL  /* MAP_SHARED System V segment */

static const int32_t cpu_node[4] = { 0, 0, 0, 0 };

/* Code: 0x400100 is "wa" at w.c:10, 0x400200 "wb" at w.c:20, others unknown. */
static int fake_code(void *ctx, const struct maps_map *map, uint8_t mode, uint64_t ip,
		     uint64_t al, struct cltab_code *out)
{
	(void)ctx, (void)map, (void)mode, (void)al;
	if (ip != 0x400100 && ip != 0x400200)
		return -1;
	out->symbol = ip == 0x400100 ? "wa" : "wb";
	out->srcfile = "/src/w.c";
	out->line = ip == 0x400100 ? 10 : 20;
	return 0;
}

static int fake_data(void *ctx, const struct cltab_line *ln, const struct cltab_offset *of,
		     uint64_t addr, struct sym_data_info *out)
{
	static const char *const members[][8] = {
		{ "g.a", "g.a (+1)", "g.a (+2)", "g.a (+3)", "g.a (+4)", "g.a (+5)", "g.a (+6)",
		  "g.a (+7)" },
		{ "g.b", "g.b (+1)", "g.b (+2)", "g.b (+3)", "g.b (+4)", "g.b (+5)", "g.b (+6)",
		  "g.b (+7)" },
		{ "g.c", "g.c (+1)", "g.c (+2)", "g.c (+3)", "g.c (+4)", "g.c (+5)", "g.c (+6)",
		  "g.c (+7)" },
	};
	int *calls = ctx;

	(void)of;
	(*calls)++;
	memset(out, 0, sizeof(*out));
	if (!ln->dmap || strcmp(ln->dmap->dso->name, "/bin/app") || addr < DATA ||
	    addr >= DATA + 24) {
		out->reason = ln->dmap && !strcmp(ln->dmap->dso->name, "/bin/app")
			      ? "no variable at address" : "heap";
		return -2;
	}
	out->var = "g";
	out->type = "struct s";
	out->var_size = 24;
	out->var_offset = addr - DATA;
	out->member = members[(addr - DATA) / 8][(addr - DATA) % 8];
	return 0;
}

struct fx {
	struct maps *m;
	struct cltab *t;
	struct advice *a;
	int data_calls;
};

static void mmap_rec(struct fx *f, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
		     const char *name)
{
	struct trace_event ev = { .type = TRACE_REC_MMAP };

	ev.mmap = (struct trace_mmap){ .pid = 100, .tid = 100, .start = start, .len = len,
		.pgoff = pgoff, .prot = prot, .flags = start == SHM ? 1 : 2,
		.maj = name[0] == '/' ? 8 : 0,
		.ino = name[0] == '/' ? 5 : 0, .cpumode = 2, .filename = name };
	cltab_feed(f->t, f->m, &ev);
}

static void fx_open(struct fx *f)
{
	struct cltab_opts o = { .cl_size = 64, .display = CLTAB_DISPLAY_TOT, .nr_cpus = 4,
				.cpu_node = cpu_node, .nr_nodes = 1, .sym = fake_code };

	memset(f, 0, sizeof(*f));
	f->m = maps_new();
	f->t = cltab_new(&o);
	mmap_rec(f, 0x400000, 0x1000, 0, 5, "/bin/app");
	mmap_rec(f, DATA, 0x1000, 0x1000, 3, "/bin/app");
	mmap_rec(f, HEAP, 0x10000, 0, 3, "[heap]");
	mmap_rec(f, STACK, 0x1000, 0, 3, "[stack:77]");
	mmap_rec(f, SHM, 0x1000, 0, 3, "/SYSV0000002a (deleted)");
}

static void fx_close(struct fx *f)
{
	advice_free(f->a);
	cltab_free(f->t);
	maps_free(f->m);
}

static void add(struct fx *f, uint32_t tid, uint32_t cpu, uint64_t ip, uint64_t addr, uint64_t ds,
		int n)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };

	while (n-- > 0) {
		ev.sample = (struct trace_sample){ .ip = ip, .addr = addr, .data_src = ds,
			.weight = 10, .pid = 100, .tid = tid, .cpu = cpu, .cpumode = 2,
			.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
				 TRACE_SAMPLE_HAS_WEIGHT };
		cltab_feed(f->t, f->m, &ev);
	}
}

static void build(struct fx *f, int top, int verbose)
{
	struct advice_opts o = { .top = top, .verbose = verbose, .data = fake_data,
				 .data_ctx = &f->data_calls };

	cltab_finish(f->t);
	assert_int_equal(advice_build(&f->a, f->t, &o), 0);
}

struct smp {
	uint32_t tid, cpu;
	uint64_t ip, off, ds;
	int n;
};

static const struct verdict_case {
	int line;
	struct smp s[6];
	enum advice_verdict verdict;
	const char *a, *b;       /* members the verdict names */
	size_t nr_mem;
	const char *advice;      /* a part of the advice text */
} verdict_cases[] = {
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 1, 0, 0x400100, 0, HITM, 4 },
		      { 2, 1, 0x400200, 8, ST, 6 }, { 2, 1, 0x400200, 8, HITM, 3 } },
	  ADVICE_FALSE_SHARING, "g.a", "g.b", 2,
	  "g.a (0x0, written in wa at w.c:10) and g.b (0x8, written in wb at w.c:20) share a "
	  "64-byte line: pad or align them to separate lines (e.g. __attribute__((aligned(64))))" },
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 2, 1, 0x400200, 16, HITM, 7 },
		      { 2, 1, 0x400200, 16, L1, 2 } },
	  ADVICE_FALSE_SHARING, "g.c", "g.a", 2,
	  "g.c (0x10, read in wb at w.c:20) and g.a (0x0, written in wa at w.c:10) share" },
	{ __LINE__, { { 1, 0, 0x400100, 8, ST, 5 }, { 2, 1, 0x400200, 8, HITM, 4 },
		      { 3, 2, 0x400200, 8, ST, 1 } },
	  ADVICE_TRUE_SHARING, "g.b", NULL, 1,
	  "one counter/lock, g.b (0x8, written in wa at w.c:10), is written and read by 3 CPUs" },
	/* bytes +0 and +4 of one scalar are one member */
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 2, 1, 0x400200, 4, ST, 2 },
		      { 2, 1, 0x400200, 4, HITM, 4 } },
	  ADVICE_TRUE_SHARING, "g.a", NULL, 1, "by 2 CPUs" },
	{ __LINE__, { { 1, 0, 0x400100, 0, HITM, 5 }, { 2, 1, 0x400200, 8, HITM, 2 } },
	  ADVICE_NO_STORES, "g.a", NULL, 2, "HITMs on g.a but no store was sampled" },
	/* beyond the variable: members unknown, named by offset; code unknown: by address */
	{ __LINE__, { { 1, 0, 0x400300, 32, ST, 5 }, { 2, 1, 0x400300, 40, ST, 5 },
		      { 2, 1, 0x400300, 40, HITM, 5 } },
	  ADVICE_FALSE_SHARING, "", "", 2,
	  "offset 0x20 (written in 0x400300) and offset 0x28 (written in 0x400300) share" },
};

static void test_advice_verdicts(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(verdict_cases) / sizeof(verdict_cases[0]); i++) {
		const struct verdict_case *c = &verdict_cases[i];
		const struct advice_line *al;
		struct fx f;

		fx_open(&f);
		for (j = 0; j < 6 && c->s[j].n; j++)
			add(&f, c->s[j].tid, c->s[j].cpu, c->s[j].ip, DATA + c->s[j].off, c->s[j].ds,
			    c->s[j].n);
		build(&f, 5, 0);
		assert_int_equal(f.a->nr_line, 1);
		al = &f.a->line[0];
		if (al->verdict != c->verdict || al->nr_mem != c->nr_mem ||
		    !strstr(al->advice, c->advice))
			fail_msg("row at line %d: verdict %d, %zu members, advice '%s'", c->line,
				 al->verdict, al->nr_mem, al->advice);
		assert_string_equal(al->mem[al->a].name, c->a);
		if (c->b)
			assert_string_equal(al->mem[al->b].name, c->b);
		else
			assert_int_equal(al->b, -1);
		fx_close(&f);
	}
}

static void test_advice_members(void **state)
{
	const struct advice_line *al;
	struct fx f;

	(void)state;
	fx_open(&f);
	add(&f, 1, 0, 0x400100, DATA + 8, ST, 3);
	add(&f, 1, 0, 0x400100, DATA + 8, HITM, 2);
	add(&f, 2, 1, 0x400200, DATA + 12, HITM, 4);
	add(&f, 2, 1, 0x400200, DATA + 12, L1, 1);
	add(&f, 3, 2, 0x400200, DATA, ST, 1);
	build(&f, 5, 0);
	al = &f.a->line[0];
	assert_string_equal(al->what, "g (struct s, 24 bytes)");
	assert_int_equal(al->metric, 6);
	assert_true(al->share > 99.9);
	assert_int_equal(al->nr_mem, 2);
	/* by offset */
	assert_string_equal(al->mem[0].name, "g.a");
	assert_string_equal(al->mem[1].name, "g.b");
	assert_int_equal(al->mem[1].offset, 8);
	assert_int_equal(al->mem[1].loads, 7);
	assert_int_equal(al->mem[1].stores, 3);
	assert_int_equal(al->mem[1].metric, 6);
	assert_int_equal(al->mem[1].cpus, 2);
	assert_int_equal(al->mem[1].threads, 2);
	assert_int_equal(al->mem[1].writer->ip, 0x400100);
	assert_int_equal(al->mem[1].reader->ip, 0x400200);
	fx_close(&f);
}

static const struct what_case {
	int line;
	uint64_t addr;
	int verbose;
	const char *what;
} what_cases[] = {
	{ __LINE__, HEAP + 0x40, 0, "heap of pid 100" },
	{ __LINE__, STACK + 0x80, 0, "stack of tid 77" },
	{ __LINE__, SHM + 0x40, 0, "/SYSV0000002a (deleted)" },   /* shared memory: its name */
	{ __LINE__, DATA + 0x100, 0, "[unknown]" },
	{ __LINE__, DATA + 0x100, 1, "[unknown] (app: no variable at address)" },
	{ __LINE__, 0x9000000, 0, "[unknown]" },
	{ __LINE__, 0x9000000, 1, "[unknown] (heap)" },
};

static void test_advice_what(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(what_cases) / sizeof(what_cases[0]); i++) {
		const struct what_case *c = &what_cases[i];
		struct fx f;

		fx_open(&f);
		add(&f, 1, 0, 0x400100, c->addr, ST, 2);
		add(&f, 2, 1, 0x400200, c->addr, HITM, 2);
		build(&f, 5, c->verbose);
		assert_int_equal(f.a->nr_line, 1);
		if (strcmp(f.a->line[0].what, c->what))
			fail_msg("row at line %d: '%s'", c->line, f.a->line[0].what);
		fx_close(&f);
	}
}

/* Only the first N lines are resolved; lines without HITMs are never explained. */
static void test_advice_top(void **state)
{
	struct fx f;
	int i;

	(void)state;
	fx_open(&f);
	for (i = 0; i < 8; i++)
		add(&f, 1, 0, 0x400100, HEAP + 64 * (uint64_t)i, HITM, 10 - i);
	add(&f, 1, 0, 0x400100, HEAP + 64 * 20, ST, 1);
	build(&f, 3, 0);
	assert_int_equal(f.a->nr_line, 3);
	assert_int_equal(f.a->line[0].ln->addr, HEAP);
	assert_int_equal(f.a->line[2].ln->addr, HEAP + 128);
	assert_true(f.data_calls <= 6);   /* 3 lines x (start, row) */
	advice_free(f.a);
	f.a = NULL;
	{
		struct advice_opts o = { .top = 0, .data = fake_data, .data_ctx = &f.data_calls };
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		assert_int_equal(advice_build(&f.a, f.t, &o), 0);
		assert_int_equal(f.a->nr_line, 0);
		assert_int_equal(advice_print(m, f.a), 0);
		fclose(m);
		assert_int_equal(len, 0);
		free(buf);
	}
	fx_close(&f);
}

static void test_advice_print(void **state)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct fx f;

	(void)state;
	fx_open(&f);
	add(&f, 1, 0, 0x400100, DATA, ST, 5);
	add(&f, 2, 1, 0x400200, DATA + 8, ST, 5);
	add(&f, 2, 1, 0x400200, DATA + 8, HITM, 5);
	build(&f, 5, 0);
	assert_int_equal(advice_print(m, f.a), 0);
	fclose(m);
	assert_non_null(strstr(buf, "# c2c-lite summary: the 1 most contended of 1 displayed "
				    "cachelines (by Total HITMs)\n"));
	assert_non_null(strstr(buf, "# 1. 0x600000 g (struct s, 24 bytes): 100.0% of Total HITMs "
				    "(5 of 5)\n"));
	assert_non_null(strstr(buf, "#   verdict: FALSE SHARING\n"));
	assert_non_null(strstr(buf, "wb at w.c:20"));
	/* every line is a comment line, and the block ends with a blank line */
	assert_int_equal(buf[len - 1], '\n');
	assert_int_equal(buf[len - 2], '\n');
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		assert_true(!strcmp(line, "#") || !strncmp(line, "# ", 2));
	free(buf);
	fx_close(&f);
}

/* More than ADVICE_MAX_ROWS members: the heaviest are printed, the rest counted. */
static void test_advice_cap(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct fx f;
	int i;

	(void)state;
	fx_open(&f);
	for (i = 0; i < 20; i++)
		add(&f, 1, 0, 0x400100, HEAP + 2 * (uint64_t)i, HITM, i < 2 ? 1 : 2);
	add(&f, 2, 1, 0x400200, HEAP + 38, ST, 1);
	build(&f, 5, 0);
	assert_int_equal(f.a->line[0].nr_mem, 20);
	assert_int_equal(advice_print(m, f.a), 0);
	fclose(m);
	/* 0x4..0x26 have 2 HITMs, 0x26 a store too: 0x0, 0x2 (1 HITM), 0x22, 0x24 are left out */
	assert_non_null(strstr(buf, "#     (4 lighter offsets not shown)\n"));
	assert_null(strstr(buf, "#     0x0 "));        /* lightest: 1 HITM */
	assert_null(strstr(buf, "#     0x2 "));
	assert_null(strstr(buf, "#     0x24 "));
	assert_non_null(strstr(buf, "#     0x20 "));
	assert_non_null(strstr(buf, "#     0x26 "));      /* written: the heaviest */
	free(buf);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advice_verdicts),
		cmocka_unit_test(test_advice_members),
		cmocka_unit_test(test_advice_what),
		cmocka_unit_test(test_advice_top),
		cmocka_unit_test(test_advice_print),
		cmocka_unit_test(test_advice_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
