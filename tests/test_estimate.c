/* cmocka suite of report/aggregate/estimate*.c, the report model and findings built from it
 * (report/model/) and report/stdio/stdio-estimate.c: hand-built soft and watch sample streams go
 * through estim_feed() with a maps model holding one anonymous and one file mapping; the test
 * names the file mapping's bytes ("buf1.a", "buf1.b") the way rm_name() would. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/soft.h"
#include "report/aggregate/estimate.h"
#include "report/model/findings.h"
#include "report/model/sections-build.h"
#include "report/stdio/stdio-estimate.h"
#include "record/soft-decode.h"

#define PID 100
#define DATA 0x601000ULL       /* file mapping "prog" [DATA, DATA + 0x1000) */
#define HEAP 0x7f0000000000ULL /* anonymous private mapping */

enum { LD = SOFTDEC_LOAD, ST = SOFTDEC_STORE, AT = SOFTDEC_ATOMIC };

struct fx {
	struct maps *maps;
	struct estim *e;
	uint64_t time;
	int show_all;
	struct rm_model *m;
	struct rm_findings *fs;
};

/* What rm_name() gives the file mapping's bytes: members of buf1 (struct, 32 bytes). */
static void fake_names(struct rm_model *m)
{
	static const char *const names[] = { "buf1.a", "buf1.b", "buf1.c", "buf1.d" };
	size_t i, k;

	for (i = 0; i < m->nr_line; i++) {
		struct rm_line *l = &m->line[i];
		const struct estim_line *el = l->src;
		int named = el->dmap && !strcmp(el->dmap->dso->name, "/nonexistent/prog") &&
			    l->addr >= DATA && l->addr < DATA + 32;

		l->what = named ? "buf1 (struct b, 32 bytes)" : "anon";
		l->object = named ? "buf1" : NULL;
		for (k = 0; k < l->nr_row; k++) {
			struct rm_row *r = &l->row[k];
			uint64_t a = l->addr + r->offset;

			r->member = named && a < DATA + 32 ? names[(a - DATA) / 8] : NULL;
			r->data = r->member ? r->member : "anon";
		}
	}
}

static void fx_mmap(struct fx *f, uint64_t start, const char *file, uint32_t flags, uint64_t ino)
{
	struct trace_event ev = { .type = TRACE_REC_MMAP };

	ev.mmap = (struct trace_mmap){ .pid = PID, .tid = PID, .start = start, .len = 0x1000,
				       .prot = 3, .flags = flags, .ino = ino, .maj = ino ? 8 : 0,
				       .cpumode = 2, .filename = file };
	estim_feed(f->e, f->maps, &ev);
}

static struct fx *fx_new(enum estim_mode mode, int show_all)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct estim_opts o = { .mode = mode, .cl_size = 64 };

	f->show_all = show_all;
	f->maps = maps_new();
	f->e = estim_new(&o);
	fx_mmap(f, DATA, "/nonexistent/prog", 2, 42);
	fx_mmap(f, HEAP, "//anon", 2, 0);
	return f;
}

static void fx_free(struct fx *f)
{
	rm_findings_free(f->fs);
	rm_free(f->m);
	estim_free(f->e);
	maps_free(f->maps);
	free(f);
}

/* One sample: @reason SOFTDEC_ADDR carries @addr, other reasons none. */
static void feed(struct fx *f, uint32_t tid, uint32_t cpu, uint64_t addr, int kind,
		 uint64_t weight, enum softdec_reason reason)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_sample *s = &ev.sample;

	s->time = ++f->time * 1000;
	s->ip = 0x401000 + (uint64_t)kind * 0x10;
	s->pid = PID;
	s->tid = tid;
	s->cpu = cpu;
	s->cpumode = 2;
	s->weight = weight;
	s->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC;
	s->data_src = softdec_data_src(softdec_has_addr(reason) ? (enum softdec_kind)kind
								 : SOFTDEC_KIND_NONE);
	s->detail = (uint16_t)(reason | (softdec_has_addr(reason) ? kind << 5 : 0));
	if (softdec_has_addr(reason)) {
		s->addr = addr;
		s->flags |= TRACE_SAMPLE_HAS_ADDR;
	}
	estim_feed(f->e, f->maps, &ev);
}

static void feed_n(struct fx *f, int n, uint32_t tid, uint64_t addr, int kind, uint64_t weight)
{
	while (n-- > 0)
		feed(f, tid, tid % 2, addr, kind, weight, SOFTDEC_ADDR);
}

static int contended(const struct rm_line *l, void *ctx)
{
	(void)ctx;
	return l->verdict != RM_V_NONE;
}

/* What the report session does after reading: finish, model, name, judge, keep, group. */
static void finish(struct fx *f)
{
	estim_finish(f->e);
	assert_int_equal(estim_check(f->e), 0);
	f->m = rm_from_estim(f->e);
	fake_names(f->m);
	rm_judge(f->m);
	assert_int_equal(rm_check(f->m), 0);
	rm_keep(f->m, f->show_all ? NULL : contended, NULL, 1);
	f->fs = rm_findings_build(f->m);
}

/* The judged line at @addr (kept or not: judged before rm_keep), or NULL. */
static const struct rm_line *line_at(struct fx *f, uint64_t addr)
{
	size_t i;

	for (i = 0; i < f->m->nr_line; i++)
		if (f->m->line[i].addr == addr)
			return &f->m->line[i];
	return NULL;
}

static char *print_info(struct fx *f, const struct trace_info *info)
{
	struct rm_sections *ss = rm_sections_new();
	struct rm_header_in h = { .path = "t.c2c", .info = info, .kind = f->m->kind };
	struct stdio_estim_opts o = { .sections = ss, .info = info, .summary = 5 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	rm_sec_header(ss, &h);
	rm_sec_run(ss, &(struct rm_run_in){ .e = f->e, .m = f->m, .fs = f->fs });
	assert_int_equal(stdio_estim_print(m, f->m, f->fs, &o), 0);
	rm_sections_free(ss);
	fclose(m);
	return buf;
}

static char *print(struct fx *f)
{
	return print_info(f, NULL);
}

static char *print_rotated(struct fx *f)
{
	static char opts[] = "watch=buf1,rotate=10ms";
	struct trace_info info = { .backend = TRACE_BACKEND_WATCH, .options = opts };

	return print_info(f, &info);
}

/* Two threads write neighbouring words of one line; a hotter line stays private to one thread. */
static void test_estimate_false_sharing_first(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	const struct rm_line *l;
	const struct estim_line *el;

	(void)state;
	feed_n(f, 50, 103, HEAP + 0x200, ST, 1000000);   /* private, hotter */
	for (int i = 0; i < 10; i++) {                    /* the two threads run together */
		feed_n(f, 1, 101, DATA + 0, ST, 1000000);
		feed_n(f, i < 8 ? 1 : 2, 102, DATA + 8, ST, 1000000);
		if (i < 3)
			feed_n(f, 1, 102, DATA + 8, LD, 1000000);
	}
	finish(f);
	assert_int_equal(estim_nr_lines(f->e), 2);
	assert_int_equal(estim_line(f->e, 0)->addr, HEAP + 0x200);   /* by weight */
	assert_int_equal(f->m->nr_line, 1);                          /* contended only */
	l = &f->m->line[0];
	el = l->src;
	assert_int_equal(l->verdict, RM_V_FALSE);
	assert_int_equal(l->addr, DATA);
	assert_int_equal(el->c.samples, 25);
	assert_int_equal(el->c.stores, 22);
	assert_int_equal(el->c.loads, 3);
	assert_int_equal(l->nr_threads, 2);
	assert_int_equal(l->nr_cpus, 2);
	assert_int_equal(l->nr_mem, 2);
	assert_string_equal(l->mem[1].name, "buf1.b");
	assert_true(l->false_cost > 0);
	assert_true(l->true_cost == 0);
	assert_int_equal(f->fs->nr, 1);
	assert_string_equal(f->fs->f[0].object, "buf1");
	assert_int_equal(f->fs->nr_contended_lines, 1);
	fx_free(f);
}

/* One atomic counter incremented by four threads. */
static void test_estimate_atomic_true_sharing(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	const struct rm_line *l;
	const struct estim_line *el;
	uint32_t t;

	(void)state;
	for (int i = 0; i < 5; i++)
		for (t = 0; t < 4; t++)
			feed_n(f, 1, 200 + t, HEAP + 0x40, AT, 500);
	finish(f);
	l = &f->m->line[0];
	el = l->src;
	assert_int_equal(l->verdict, RM_V_TRUE);
	assert_int_equal(el->c.atomics, 20);
	assert_int_equal(el->c.stores, 0);
	assert_int_equal(l->nr_mem, 1);
	assert_int_equal(l->mem[0].nr_writers, 4);
	assert_int_equal(el->nr_site, 1);
	assert_int_equal(l->nr_touch, 4);
	fx_free(f);
}

/* The same two writers, padded onto different lines. */
static void test_estimate_padded_none(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	char *out;

	(void)state;
	feed_n(f, 10, 101, DATA + 0, ST, 1000);
	feed_n(f, 10, 102, DATA + 64, ST, 1000);
	finish(f);
	assert_int_equal(estim_nr_lines(f->e), 2);
	assert_int_equal(f->m->nr_line, 0);
	assert_int_equal(f->fs->nr_contended_lines, 0);
	out = print(f);
	assert_non_null(strstr(out, "no contended cacheline: nothing to fix"));
	assert_null(strstr(out, "Cache Line Distribution Pareto"));
	free(out);
	fx_free(f);
}

/* Table-driven verdicts: each row is a list of (tid, offset, kind) accesses to one line, fed in
 * order (so every thread's accesses overlap in time with the others'). */
struct acc { uint32_t tid, offset; int kind; };
struct verdict_row {
	int line;
	struct acc acc[6];
	enum rm_verdict want;
};

static const struct verdict_row verdict_rows[] = {
	{ __LINE__, { { 1, 0, LD }, { 2, 0, LD }, { 3, 8, LD } }, RM_V_NONE },
	{ __LINE__, { { 1, 0, ST }, { 1, 8, LD } }, RM_V_NONE },
	{ __LINE__, { { 1, 0, ST }, { 2, 0, LD } }, RM_V_TRUE },
	{ __LINE__, { { 1, 0, ST }, { 2, 8, LD } }, RM_V_FALSE },
	{ __LINE__, { { 1, 0, ST }, { 2, 8, ST } }, RM_V_FALSE },
	{ __LINE__, { { 1, 0, AT }, { 2, 0, AT } }, RM_V_TRUE },
	/* a lock and its data: every pair shares the lock word */
	{ __LINE__, { { 1, 0, AT }, { 1, 8, ST }, { 2, 0, AT }, { 2, 8, ST } }, RM_V_TRUE },
	/* a counter shared by 1 and 2, a neighbour written by 3 */
	{ __LINE__, { { 1, 0, AT }, { 2, 0, AT }, { 3, 16, ST } }, RM_V_MIXED },
	/* reader and writer share a read-only field, the writer writes another */
	{ __LINE__, { { 1, 8, LD }, { 1, 0, ST }, { 2, 8, LD } }, RM_V_FALSE },
	/* a single-producer ring: head written by 1 and read by 2, tail the other way round */
	{ __LINE__, { { 1, 0, ST }, { 2, 0, LD }, { 2, 8, ST }, { 1, 8, LD } }, RM_V_MIXED },
};

static void test_estimate_verdict_table(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(verdict_rows) / sizeof(verdict_rows[0]); i++) {
		const struct verdict_row *r = &verdict_rows[i];
		struct fx *f = fx_new(ESTIM_SOFT, 1);
		const struct rm_line *l;

		for (j = 0; j < 6 && r->acc[j].tid; j++)
			feed_n(f, 1, r->acc[j].tid, HEAP + r->acc[j].offset, r->acc[j].kind, 10);
		/* once more, so that every thread's accesses span the others' */
		for (j = 0; j < 6 && r->acc[j].tid; j++)
			feed_n(f, 1, r->acc[j].tid, HEAP + r->acc[j].offset, r->acc[j].kind, 10);
		finish(f);
		l = line_at(f, HEAP);
		assert_non_null(l);
		if (l->verdict != r->want)
			fail_msg("row at line %d: verdict %s, want %s", r->line,
				 rm_verdict_name(l->verdict), rm_verdict_name(r->want));
		fx_free(f);
	}
}

/* A final read after the writer stopped (main after a join) is no contention. */
static void test_estimate_read_after_join(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 1);

	(void)state;
	feed_n(f, 20, 101, HEAP, ST, 100);
	feed_n(f, 20, 102, HEAP + 64, ST, 100);
	feed_n(f, 1, 100, HEAP, LD, 100);           /* main, after both threads ended */
	feed_n(f, 1, 100, HEAP + 64, LD, 100);
	finish(f);
	assert_int_equal(line_at(f, HEAP)->verdict, RM_V_NONE);
	assert_int_equal(line_at(f, HEAP + 64)->verdict, RM_V_NONE);
	fx_free(f);
}

/* A single-producer ring whose head (buf1.a) and tail (buf1.b) share a line, as timer samples
 * see it: each side's loads of the other's index stall and are sampled a hundred times, its own
 * index's stores a few times. The line is both: the loads share bytes truly, the stores of
 * different indexes falsely, and moving head and tail apart is the fix. Regression: the
 * sources were weighed by sample counts, so the few sampled stores made the false part vanish
 * and the ring was called TRUE SHARING. */
static void test_estimate_ring_mixed(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	const struct rm_finding *fd;

	(void)state;
	for (int i = 0; i < 100; i++) {
		feed(f, 101, 0, DATA + 8, LD, 100, SOFTDEC_ADDR);      /* producer reads tail */
		feed(f, 102, 1, DATA + 0, LD, 100, SOFTDEC_ADDR);      /* consumer reads head */
		if (i % 20 == 0)
			feed(f, 101, 0, DATA + 0, ST, 100, SOFTDEC_ADDR);  /* producer writes head */
		if (i % 25 == 0)
			feed(f, 102, 1, DATA + 8, ST, 100, SOFTDEC_ADDR);  /* consumer writes tail */
	}
	finish(f);
	assert_int_equal(f->fs->nr, 1);
	fd = &f->fs->f[0];
	assert_int_equal(fd->verdict, RM_V_MIXED);
	assert_true(fd->false_cost > 0 && fd->false_cost < fd->true_cost);
	assert_non_null(strstr(fd->advice, "buf1.a (written by tid 101) and buf1.b (written by "
				"tid 102) share a 64-byte line: put them on separate lines"));
	assert_non_null(strstr(fd->advice, "inherent to the algorithm"));
	assert_null(strstr(fd->advice, "besides, :"));
	fx_free(f);
}

/* A sample without data_src and kind is of unknown kind: shown as a load, never a write. */
static void test_estimate_unknown_kind(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 1);
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	const struct estim_line *el;
	char *out;

	(void)state;
	feed_n(f, 2, 101, HEAP, LD, 10);
	ev.sample = (struct trace_sample){ .pid = PID, .tid = 102, .cpumode = 2, .addr = HEAP + 8,
					   .ip = 0x999, .flags = TRACE_SAMPLE_HAS_ADDR };
	estim_feed(f->e, f->maps, &ev);
	finish(f);
	el = f->m->line[0].src;
	assert_int_equal(el->c.unknown, 1);
	assert_int_equal(el->c.weight, 21);            /* no weight: 1 */
	assert_int_equal(f->m->line[0].verdict, RM_V_NONE);
	assert_int_equal(el->nr_ips, 2);
	assert_int_equal(estim_totals(f->e)->unknown_kind, 1);
	out = print(f);
	assert_non_null(strstr(out, "1 (counted as loads)"));
	free(out);
	fx_free(f);
}

/* Unrecovered samples are counted by reason and weigh in the total time. */
static void test_estimate_unrecovered_reasons(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	const struct estim_totals *t;
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	char *out;

	(void)state;
	feed_n(f, 6, 101, HEAP, LD, 100);
	feed(f, 101, 0, 0, 0, 100, SOFTDEC_STACK);
	feed(f, 101, 0, 0, 0, 100, SOFTDEC_STACK);
	feed(f, 102, 1, 0, 0, 300, SOFTDEC_TLS);
	feed(f, 102, 1, 0, 0, 100, SOFTDEC_CLOBBERED);
	/* a recovered reason whose sample lost its address */
	ev.sample = (struct trace_sample){ .pid = PID, .tid = 102, .cpumode = 2, .weight = 100,
					   .flags = TRACE_SAMPLE_HAS_WEIGHT };
	estim_feed(f->e, f->maps, &ev);
	finish(f);
	t = estim_totals(f->e);
	assert_int_equal(t->samples, 11);
	assert_int_equal(t->weight, 1300);
	assert_int_equal(t->recovered, 6);
	assert_int_equal(t->reason[SOFTDEC_STACK], 2);
	assert_int_equal(t->reason_weight[SOFTDEC_STACK], 200);
	assert_int_equal(t->reason[SOFTDEC_TLS], 1);
	assert_int_equal(t->reason_weight[SOFTDEC_TLS], 300);
	assert_int_equal(t->reason[SOFTDEC_CLOBBERED], 1);
	assert_int_equal(t->reason[ESTIM_NO_ADDR], 1);
	assert_int_equal(t->reason[SOFTDEC_NO_MEM], 0);
	out = print(f);
	assert_non_null(strstr(out, "ESTIMATED"));
	assert_non_null(strstr(out, "6 (54.55% of samples, 46.15% of time)"));
	assert_non_null(strstr(out, softdec_reason_name(SOFTDEC_TLS)));
	assert_non_null(strstr(out, softdec_reason_name(SOFTDEC_CLOBBERED)));
	assert_non_null(strstr(out, "no data address in the sample"));
	assert_null(strstr(out, softdec_reason_name(SOFTDEC_NO_MEM)));
	/* 53.85% of the time has no address: the first lines after the title say so, heaviest
	 * code address first */
	{
		const char *w = strstr(out, "# WARNING: 53.8% of the sampled time (5 of 11 samples)");
		const char *tls = strstr(out, "thread-local");

		assert_non_null(w);
		assert_true(w < strstr(out, "ESTIMATED"));
		assert_non_null(tls);
		assert_true(tls < strstr(out, softdec_reason_name(SOFTDEC_STACK)));
	}
	free(out);
	{
		const struct estim_unattr *ua;
		size_t n = estim_unattr(f->e, &ua);

		assert_int_equal(n, 4);
		assert_int_equal(ua[0].reason, SOFTDEC_TLS);
		assert_int_equal(ua[0].weight, 300);
		assert_int_equal(ua[0].ip, 0x401000);
		assert_int_equal(ua[1].reason, SOFTDEC_STACK);
		assert_int_equal(ua[1].samples, 2);
	}
	fx_free(f);
}

/* A soft store at @addr by @tid, sampled at @ip, whose access the recorder found at @access
 * (0: none given) @back instructions up; with @alt_ip, inferred, @alt_addr its other candidate. */
static void feed_acc(struct fx *f, uint32_t tid, uint64_t ip, uint64_t access, unsigned int back,
		     uint64_t addr, uint64_t alt_ip, uint64_t alt_addr)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_sample *s = &ev.sample;
	struct softdec_access a = { .reason = SOFTDEC_ADDR, .kind = SOFTDEC_STORE,
				    .back = (uint8_t)back };

	s->time = ++f->time * 1000;
	s->ip = ip;
	s->pid = PID;
	s->tid = tid;
	s->cpu = tid % 2;
	s->cpumode = 2;
	s->weight = 100;
	s->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC |
		   TRACE_SAMPLE_HAS_ADDR;
	s->data_src = softdec_data_src(SOFTDEC_STORE);
	s->detail = softdec_detail(&a);
	s->addr = addr;
	s->access_ip = access;
	if (alt_ip) {
		s->access_flags = SOFTDEC_ACC_INFERRED;
		s->nr_alt = 1;
		s->alt[0].ip = alt_ip;
		s->alt[0].addr = alt_addr;
		s->alt_detail[0] = softdec_detail(&a);
	}
	estim_feed(f->e, f->maps, &ev);
}

/* The site of line @l at @offset and code address @ip, or NULL. */
static const struct estim_site *site_at(const struct estim_line *l, uint32_t offset, uint64_t ip)
{
	for (size_t i = 0; l && i < l->nr_site; i++)
		if (l->site[i].offset == offset && l->site[i].ip == ip)
			return &l->site[i];
	return NULL;
}

/* The first line has @nr sites, one at offset 0 and @ip with @samples and @back: it. */
static const struct estim_site *check_site(struct fx *f, size_t nr, uint64_t ip, uint64_t samples,
					   unsigned int back)
{
	const struct estim_line *l = estim_line(f->e, 0);
	const struct estim_site *st;

	assert_non_null(l);
	assert_int_equal(l->nr_site, nr);
	st = site_at(l, 0, ip);
	assert_non_null(st);
	assert_int_equal(st->c.samples, samples);
	assert_int_equal(st->back, back);
	return st;
}

static int back8(void *ctx, const struct maps_map *map, uint64_t ip, unsigned int back,
		 uint64_t *at)
{
	(void)ctx, (void)map;
	*at = ip - 4 * back;
	return 0;
}

/* Rows are keyed by the access instruction: samples at different IPs with one access are one
 * row, which keeps its sampled IPs; a trace before 1.6 finds the access from detail's back. */
static void test_estimate_access_ip(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 1);
	const struct estim_site *st;

	(void)state;
	feed_acc(f, 101, 0x401088, 0x401080, 1, HEAP, 0, 0);
	feed_acc(f, 101, 0x401090, 0x401080, 3, HEAP, 0, 0);
	feed_acc(f, 101, 0x401090, 0x401080, 3, HEAP, 0, 0);
	feed_acc(f, 101, 0x4010a0, 0, 2, HEAP, 0, 0);   /* no ACCESS record, no callback */
	finish(f);
	st = check_site(f, 2, 0x401080, 3, 0);
	assert_int_equal(st->nr_sip, 2);
	assert_int_equal(st->sip[0].ip, 0x401090);
	assert_int_equal(st->sip[0].samples, 2);
	assert_int_equal(st->sip[1].ip, 0x401088);
	st = site_at(estim_line(f->e, 0), 0, 0x4010a0);
	assert_non_null(st);
	assert_int_equal(st->back, 2);       /* named by walking back from the sampled IP */
	assert_int_equal(f->m->line[0].row[0].code.sampled_ip, 0x401090);
	fx_free(f);

	/* before 1.6: the binary says where the access is */
	f = fx_new(ESTIM_SOFT, 1);
	{
		struct estim_opts o = { .mode = ESTIM_SOFT, .cl_size = 64, .insn_back = back8 };

		estim_free(f->e);
		f->e = estim_new(&o);
		fx_mmap(f, 0x401000, "/nonexistent/code", 2, 43);   /* the callback needs a map */
	}
	feed_acc(f, 101, 0x4010a0, 0, 2, HEAP, 0, 0);
	feed_acc(f, 101, 0x401098, 0, 0, HEAP, 0, 0);
	finish(f);
	check_site(f, 1, 0x401098, 2, 0);
	fx_free(f);
}

/* Inferred samples are charged among their candidates as their thread was seen exactly: 3 to 1
 * gives 6 and 2 of 8; a thread seen at none goes to the recorder's pick. */
static void test_estimate_inferred(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 1);
	const struct estim_totals *t;
	const struct estim_line *l;
	const struct estim_site *a, *b, *c;
	char *out;

	(void)state;
	for (int i = 0; i < 3; i++)
		feed_acc(f, 101, 0x401104, 0x401100, 1, HEAP, 0, 0);
	feed_acc(f, 101, 0x401204, 0x401200, 1, HEAP + 8, 0, 0);
	for (int i = 0; i < 8; i++)   /* the recorder picked B; A is the other candidate */
		feed_acc(f, 101, 0x401300, 0x401200, 15, HEAP + 8, 0x401100, HEAP);
	for (int i = 0; i < 2; i++)   /* thread 102 was never seen exactly there */
		feed_acc(f, 102, 0x401300, 0x401200, 15, HEAP + 0x28, 0x401100, HEAP + 0x20);
	finish(f);
	t = estim_totals(f->e);
	assert_int_equal(t->recovered, 14);
	assert_int_equal(t->inferred, 10);
	assert_int_equal(t->inferred_weight, 1000);
	assert_int_equal(t->inferred_one_line, 10);
	assert_int_equal(t->inferred_unseen, 2);
	l = estim_line(f->e, 0);
	a = site_at(l, 0, 0x401100);
	b = site_at(l, 8, 0x401200);
	c = site_at(l, 0x28, 0x401200);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(a->c.samples, 3 + 6);
	assert_int_equal(a->c.inferred, 6);
	assert_int_equal(b->c.samples, 1 + 2);
	assert_int_equal(c->c.samples, 2);
	assert_null(site_at(l, 0x20, 0x401100));
	out = print(f);
	assert_non_null(strstr(out, "Access inferred:"));
	assert_null(strstr(out, "WARNING"));           /* every sample has an address */
	free(out);
	fx_free(f);
}

/* Watch: writer on CPU 0, then a reader of the same word and a writer of its neighbour on CPU 1. */
static void test_estimate_watch_transfers(void **state)
{
	struct fx *f = fx_new(ESTIM_WATCH, 0);
	const struct estim_line *el;
	const struct rm_line *l;
	size_t i;
	char *out;

	(void)state;
	for (i = 0; i < 3; i++) {
		feed(f, 101, 0, DATA + 0, ST, 999, SOFTDEC_ADDR);  /* weight ignored: 1 per hit */
		feed(f, 102, 1, DATA + 0, LD, 999, SOFTDEC_ADDR);  /* HITM, true */
		feed(f, 101, 0, DATA + 0, ST, 999, SOFTDEC_ADDR);  /* inval of 102's S copy */
		feed(f, 102, 1, DATA + 8, ST, 999, SOFTDEC_ADDR);  /* HITM, false */
	}
	finish(f);
	l = &f->m->line[0];
	el = l->src;
	assert_int_equal(el->c.samples, 12);
	assert_int_equal(el->c.weight, 12);
	assert_int_equal(el->ws.accesses, 12);
	assert_int_equal(el->ws.hitm_true, 3);
	assert_int_equal(el->ws.hitm_false, 3 + 2);   /* CPU 0's later first writes miss too */
	assert_int_equal(el->ws.hitm, el->ws.hitm_true + el->ws.hitm_false);
	assert_int_equal(el->off[1].ws.hitm_false, 3);
	/* 102 reads what 101 writes (true) and writes its neighbour (false) */
	assert_int_equal(l->verdict, RM_V_MIXED);
	assert_true(l->true_cost > 0 && l->false_cost > 0);
	for (i = 0; i < el->nr_site; i++)
		if (el->site[i].offset == 8)
			assert_int_equal(el->site[i].ws.hitm, 3);
	out = print(f);
	assert_non_null(strstr(out, "COUNTED FROM WATCHPOINT HITS"));
	assert_non_null(strstr(out, "Xfers"));
	assert_null(strstr(out, "ESTIMATED"));
	assert_null(strstr(out, "rotated"));
	assert_non_null(strstr(out, "Offset in the watched word:  12 exact, 0 inferred, 0 unknown"));
	free(out);
	out = print_rotated(f);
	assert_non_null(strstr(out, "transfers are lower bounds"));
	free(out);
	fx_free(f);
}

/* Watch: two threads writing neighbouring members, every access on one CPU (a busy machine ran
 * them in turn): no transfer can happen, the line is not contended, and the report says why
 * rather than "nothing to fix" (regression: corpus runs where the scheduler put both threads on
 * one CPU reported a clean program). */
static void test_estimate_watch_one_cpu(void **state)
{
	struct fx *f = fx_new(ESTIM_WATCH, 0);
	char *out;

	(void)state;
	for (int i = 0; i < 50; i++) {
		feed(f, 101, 0, DATA + 0, ST, 1, SOFTDEC_ADDR);
		feed(f, 102, 0, DATA + 8, ST, 1, SOFTDEC_ADDR);
	}
	finish(f);
	assert_int_equal(f->fs->nr, 0);
	assert_int_equal(f->fs->nr_one_cpu_lines, 1);
	out = print(f);
	assert_non_null(strstr(out, "no contended cacheline seen, but 1 line several threads wrote "
				"ran on one CPU only"));
	free(out);
	fx_free(f);
	/* on two CPUs the same accesses are false sharing, and no note */
	f = fx_new(ESTIM_WATCH, 0);
	for (int i = 0; i < 50; i++) {
		feed(f, 101, 0, DATA + 0, ST, 1, SOFTDEC_ADDR);
		feed(f, 102, 1, DATA + 8, ST, 1, SOFTDEC_ADDR);
	}
	finish(f);
	assert_int_equal(f->fs->nr, 1);
	assert_int_equal(f->fs->f[0].verdict, RM_V_FALSE);
	assert_int_equal(f->fs->nr_one_cpu_lines, 0);
	fx_free(f);
}

/* How watch hits were placed in their words is counted by reason; a trace older than format 1.2
 * placed every hit at its word's start, whatever the sample says. */
static void test_estimate_watch_placed(void **state)
{
	static const enum softdec_reason reasons[] = { SOFTDEC_ADDR, SOFTDEC_ADDR_RIP,
						       SOFTDEC_ADDR_INFERRED, SOFTDEC_ADDR_WORD };

	(void)state;
	for (int old = 0; old < 2; old++) {
		struct estim_opts o = { .mode = ESTIM_WATCH, .cl_size = 64, .watch_word_only = old };
		struct fx *f = fx_new(ESTIM_WATCH, 0);
		const struct estim_totals *t;

		estim_free(f->e);
		f->e = estim_new(&o);
		fx_mmap(f, DATA, "/nonexistent/prog", 2, 42);
		for (size_t i = 0; i < 4; i++)
			feed(f, 101, 0, DATA + 4 * i, ST, 1, reasons[i]);
		finish(f);
		t = estim_totals(f->e);
		assert_int_equal(t->recovered, 4);
		assert_int_equal(t->placed[ESTIM_PLACED_EXACT], old ? 0 : 2);
		assert_int_equal(t->placed[ESTIM_PLACED_INFERRED], old ? 0 : 1);
		assert_int_equal(t->placed[ESTIM_PLACED_WORD], old ? 4 : 1);
		fx_free(f);
	}
	assert_string_equal(estim_placed_name(ESTIM_PLACED_INFERRED),
			    "inferred (operand size and displacement)");
	assert_string_equal(estim_placed_name(7), "?");
}

/* A task that moves between threads (a goroutine between OS threads) leaves its counter to the
 * other thread: the two threads' writes of it take turns 10 ms at a time and meet only at the
 * hand-overs, which is no true sharing; two threads updating it in the same milliseconds are. */
static void test_estimate_moving_task(void **state)
{
	(void)state;
	for (int both = 0; both < 2; both++) {
		struct fx *f = fx_new(ESTIM_SOFT, 0);

		for (int turn = 0; turn < 8; turn++) {
			uint32_t tid = 101 + (uint32_t)(turn % 2);

			f->time = (uint64_t)turn * 10000;   /* 10 ms turns (feed() adds 1 us a sample) */
			for (int i = 0; i < 40; i++) {
				feed_n(f, 1, tid, DATA + 0, AT, 10);
				if (both)
					feed_n(f, 1, 203 - tid, DATA + 0, AT, 10);
				f->time += 200;               /* 0.2 ms between samples */
			}
		}
		finish(f);
		assert_int_equal(f->fs->nr, both ? 1 : 0);
		if (both)
			assert_int_equal(f->fs->f[0].verdict, RM_V_TRUE);
		fx_free(f);
	}
}

/* Two threads that run at the same time but are seldom sampled on the line (soft-libcode's
 * memset halves: 1-2% of the time) meet in few buckets, about as many as independent samples
 * do: that is concurrency, FALSE SHARING (regression: "a quarter of the buckets of the one seen
 * in fewer" called them apart, NOT CONTENDED). */
static void test_estimate_sparse_concurrent(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);

	(void)state;
	for (int b = 0; b < 500; b++) {           /* 4-ms buckets: 2 s */
		f->time = (uint64_t)b * 4000;
		if (b % 7 == 0)
			feed_n(f, 1, 101, DATA + 0, ST, 10);
		if (b % 5 == 0)
			feed_n(f, 1, 102, DATA + 8, ST, 10);
	}
	finish(f);
	assert_int_equal(f->fs->nr, 1);
	assert_int_equal(f->fs->f[0].verdict, RM_V_FALSE);
	fx_free(f);
}

/* Soft samples seldom land on stores: where the false part rests on reads of bytes no sampled
 * store writes (a ring's tail both threads poll, whose producer's stores went unseen), the
 * evidence says the writer may be unseen instead of presenting the reads as the whole story. */
static void test_estimate_unseen_writer(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	char *out;

	(void)state;
	for (int i = 0; i < 12; i++) {
		feed_n(f, 1, 101, DATA + 0, ST, 10);      /* buf1.a: written by 101 */
		feed_n(f, 1, 101, DATA + 8, LD, 10);      /* buf1.b: read by both, never written */
		feed_n(f, 1, 102, DATA + 8, LD, 10);
	}
	finish(f);
	out = print(f);
	assert_non_null(strstr(out, "its false part rests on reads of buf1.b, which no sampled store "
				    "writes"));
	free(out);
	fx_free(f);
}

/* The advice names the members by the threads that write them. */
static void test_estimate_fix_text(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	char *out;

	(void)state;
	for (int i = 0; i < 12; i++) {   /* 24 samples: enough for a verdict (findings.h) */
		feed_n(f, 1, 101, DATA + 0, ST, 10);
		feed_n(f, 1, 102, DATA + 8, ST, 10);
	}
	finish(f);
	out = print(f);
	assert_non_null(strstr(out, "advice: buf1.a (written by tid 101) and buf1.b (written by tid 102) "
				    "share a 64-byte line: put them on separate lines"));
	assert_non_null(strstr(out, "1. buf1 (struct b, 32 bytes): FALSE SHARING, 100.00% of "
				    "sampled time, 1 line"));
	assert_non_null(strstr(out, "false sharing: 100.00% of sampled time; not a speedup"));
	assert_non_null(strstr(out, "n/a"));
	free(out);
	fx_free(f);
}

/* A counter shared by two threads next to a field another thread writes; unmapped memory. */
static void test_estimate_mixed_fix_text(void **state)
{
	struct fx *f = fx_new(ESTIM_SOFT, 0);
	const struct rm_line *l;
	char *out;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		feed_n(f, 1, 101, 0x900000, AT, 10);
		feed_n(f, 1, 102, 0x900000, AT, 10);
		feed_n(f, 1, 103, 0x900010, ST, 10);
	}
	finish(f);
	l = &f->m->line[0];
	assert_null(((const struct estim_line *)l->src)->dmap);
	assert_int_equal(l->verdict, RM_V_MIXED);
	out = print(f);
	assert_non_null(strstr(out, "TRUE+FALSE"));
	assert_non_null(strstr(out, "offset 0x0 (written by 2 threads (tid 101, tid 102)) and "
				    "offset 0x10 (written by tid 103) share a 64-byte line"));
	assert_non_null(strstr(out, "besides, offset 0x0 is written by 2 threads (tid 101, "
				    "tid 102): that sharing is inherent to the algorithm"));
	free(out);
	fx_free(f);
}

/* Lines of equal weight sort by address whatever the feeding order. */
static void test_estimate_deterministic(void **state)
{
	static const uint64_t addrs[] = { 0x180, 0x40, 0x100, 0xc0 };
	static const uint64_t sorted[] = { 0x40, 0xc0, 0x100, 0x180 };
	char *out[2];
	int pass;
	size_t i;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		struct fx *f = fx_new(ESTIM_SOFT, 1);

		for (i = 0; i < 4; i++) {
			uint64_t a = HEAP + addrs[pass ? 3 - i : i];

			feed_n(f, 2, 101, a, ST, 10);
			feed_n(f, 2, 102, a + 8, ST, 10);
		}
		finish(f);
		for (i = 0; i < 4; i++)
			assert_int_equal(estim_line(f->e, i)->addr, HEAP + sorted[i]);
		out[pass] = print(f);
		fx_free(f);
	}
	assert_string_equal(out[0], out[1]);
	free(out[0]);
	free(out[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate_false_sharing_first),
		cmocka_unit_test(test_estimate_atomic_true_sharing),
		cmocka_unit_test(test_estimate_padded_none),
		cmocka_unit_test(test_estimate_verdict_table),
		cmocka_unit_test(test_estimate_read_after_join),
		cmocka_unit_test(test_estimate_ring_mixed),
		cmocka_unit_test(test_estimate_unrecovered_reasons),
		cmocka_unit_test(test_estimate_access_ip),
		cmocka_unit_test(test_estimate_inferred),
		cmocka_unit_test(test_estimate_unknown_kind),
		cmocka_unit_test(test_estimate_watch_transfers),
		cmocka_unit_test(test_estimate_watch_placed),
		cmocka_unit_test(test_estimate_watch_one_cpu),
		cmocka_unit_test(test_estimate_fix_text),
		cmocka_unit_test(test_estimate_unseen_writer),
		cmocka_unit_test(test_estimate_moving_task),
		cmocka_unit_test(test_estimate_sparse_concurrent),
		cmocka_unit_test(test_estimate_mixed_fix_text),
		cmocka_unit_test(test_estimate_deterministic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
