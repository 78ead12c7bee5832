/* cmocka suite of the soft backend's confirmation by watchpoints, on plain data: the choice of
 * candidate lines and the words each window arms (record/confirm.c), the window and run blobs
 * (lib/confirm.c), the folding of hits window by window (report/aggregate/estimate-confirm.c) and
 * judgement of a confirmed line (report/model/confirm.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/confirm.h"
#include "c2c/soft.h"
#include "record/confirm.h"
#include "record/soft-decode.h"
#include "report/aggregate/estimate.h"
#include "report/model/findings.h"

#define PID 100
#define LINE 0x7f0000001000ULL   /* a heap line: no symbol needed */
#define OTHER 0x7f0000002000ULL

enum { LD = SOFTDEC_LOAD, ST = SOFTDEC_STORE, AT = SOFTDEC_ATOMIC };

/* --- candidates and windows ---------------------------------------------------------------- */

static void test_candidates(void **state)
{
	const struct confirm_cand *c[CONFIRM_CANDIDATES];
	struct confirm_sel s;

	(void)state;
	confirm_sel_init(&s, 64, 4);
	/* one thread's line, hot; a line of two threads, warmer still; a cold line */
	for (int i = 0; i < 100; i++)
		confirm_sel_feed(&s, PID, 1, LINE + 0x8, 1, 1000);
	for (int i = 0; i < 150; i++)
		confirm_sel_feed(&s, PID, 2 + i % 2, OTHER + 0x10, 0, 1000);
	confirm_sel_feed(&s, PID, 4, 0x7f0000003000ULL, 0, 1000);   /* under 2% of the hottest */
	assert_int_equal(confirm_sel_candidates(&s, c, CONFIRM_CANDIDATES), 2);
	assert_true(c[0]->line == OTHER && c[1]->line == LINE);
	assert_int_equal(c[0]->nr_tids, 2);
	assert_int_equal(c[1]->nr_tids, 1);     /* one thread seen: still a candidate */
	/* another process's line at the same address is another candidate */
	for (int i = 0; i < 10; i++)
		confirm_sel_feed(&s, PID + 1, 7, LINE, 0, 1000);
	assert_int_equal(confirm_sel_candidates(&s, c, CONFIRM_CANDIDATES), 3);
	confirm_sel_release(&s);
}

/* The anchor (the hot written word) is in every window of its line and first; the other seven
 * words take the other three registers in turns, each beside it within three windows. */
static void test_windows(void **state)
{
	struct c2c_confirm_window w;
	struct confirm_sel s;
	unsigned int seen = 0;

	(void)state;
	confirm_sel_init(&s, 64, 4);
	for (int i = 0; i < 50; i++)
		confirm_sel_feed(&s, PID, 1, LINE + 0x20, 0, 1000);    /* hottest word: read */
	for (int i = 0; i < 5; i++)
		confirm_sel_feed(&s, PID, 2, LINE + 0x0, 1, 1000);     /* written: the anchor */
	for (int k = 0; k < 3; k++) {
		assert_int_equal(confirm_sel_next(&s, &w), 1);
		assert_int_equal(w.window, (uint64_t)k + 1);
		assert_int_equal(w.pid, PID);
		assert_true(w.line == LINE);
		assert_int_equal(w.nr_words, 4);
		assert_true(w.word[0].addr == LINE && w.word[0].len == 8);
		for (unsigned int i = 1; i < 4; i++) {
			unsigned int bit = 1u << ((w.word[i].addr - LINE) / 8);

			assert_true(w.word[i].addr != LINE && w.word[i].len == 8);
			for (unsigned int j = 1; j < i; j++)
				assert_true(w.word[j].addr != w.word[i].addr);
			seen |= bit;
		}
	}
	assert_int_equal(seen, 0xfe);     /* every other word beside the anchor */
	/* without any sampled write the hottest word anchors */
	confirm_sel_release(&s);
	confirm_sel_init(&s, 64, 4);
	for (int i = 0; i < 5; i++)
		confirm_sel_feed(&s, PID, 1, LINE + 0x38, 0, 1000);
	assert_int_equal(confirm_sel_next(&s, &w), 1);
	assert_true(w.word[0].addr == LINE + 0x38);
	confirm_sel_release(&s);
}

/* Candidates take windows in turns: the one served longest ago first. */
static void test_turns(void **state)
{
	struct c2c_confirm_window w;
	struct confirm_sel s;
	int a = 0, b = 0;

	(void)state;
	confirm_sel_init(&s, 64, 4);
	assert_int_equal(confirm_sel_next(&s, &w), 0);           /* nothing sampled yet */
	for (int i = 0; i < 60; i++)
		confirm_sel_feed(&s, PID, 1, LINE, 1, 1000);
	for (int i = 0; i < 40; i++)
		confirm_sel_feed(&s, PID, 2, OTHER, 1, 1000);
	for (int k = 0; k < 10; k++) {
		assert_int_equal(confirm_sel_next(&s, &w), 1);
		a += w.line == LINE;
		b += w.line == OTHER;
		if (k == 0)
			assert_true(w.line == LINE);                  /* the hottest first */
	}
	assert_int_equal(a, 5);
	assert_int_equal(b, 5);
	assert_int_equal(s.lines, 2);
	/* the hotter line's windows saw one thread, twice: the other one ranks first now, until a
	 * window sees two threads on it */
	w.line = LINE;
	w.pid = PID;
	confirm_sel_result(&s, &w, 1);
	confirm_sel_result(&s, &w, 0);
	{
		const struct confirm_cand *c[CONFIRM_CANDIDATES];

		assert_int_equal(confirm_sel_candidates(&s, c, CONFIRM_CANDIDATES), 2);
		assert_true(c[0]->line == OTHER);
		confirm_sel_result(&s, &w, 2);
		assert_int_equal(confirm_sel_candidates(&s, c, CONFIRM_CANDIDATES), 2);
		assert_true(c[0]->line == LINE);
	}
	confirm_sel_release(&s);
}

/* --- blobs ---------------------------------------------------------------------------------- */

static void test_blobs(void **state)
{
	struct c2c_confirm_window w = { .window = 7, .pid = PID, .line = LINE, .armed_ns = 1234,
					.hits = 56, .nr_words = 2,
					.word = { { LINE, 8 }, { LINE + 0x20, 8 } } }, v;
	struct c2c_confirm_run r = { .status = C2C_CONFIRM_UNAVAILABLE, .budget = 0.0075,
				     .ns_per_hit = 6900, .cpu_ns = 10, .trap_ns = 2, .hits = 3 }, q;
	char buf[1024];
	int n;

	(void)state;
	snprintf(r.reason, sizeof(r.reason), "a watchpoint did not open (No space left)");
	n = c2c_confirm_window_format(&w, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(c2c_confirm_window_parse(buf, (size_t)n, &v), 0);
	assert_memory_equal(&v, &w, sizeof(v));
	n = c2c_confirm_run_format(&r, buf, sizeof(buf));
	assert_int_equal(c2c_confirm_run_parse(buf, (size_t)n, &q), 0);
	assert_int_equal(q.status, C2C_CONFIRM_UNAVAILABLE);
	assert_string_equal(q.reason, r.reason);
	assert_true(q.budget == 0.0075 && q.hits == 3 && q.trap_ns == 2);
	assert_int_equal(c2c_confirm_window_format(&w, buf, 20), -ENOSPC);
	/* a misaligned word, a bad length, a wrong magic, traps over the CPU time */
	assert_int_not_equal(c2c_confirm_window_parse("c2c-confirm-window 1\nword 0x1004 8\n", 35,
						      &v), 0);
	assert_int_not_equal(c2c_confirm_window_parse("c2c-confirm-window 1\nword 0x1000 3\n", 35,
						      &v), 0);
	assert_int_not_equal(c2c_confirm_run_parse("c2c-watch-duty 1\n", 17, &q), 0);
	assert_int_not_equal(c2c_confirm_run_parse("c2c-confirm-run 1\ncpu_ns 1\ntrap_ns 2\n", 36,
						   &q), 0);
	/* a later version's key is skipped */
	assert_int_equal(c2c_confirm_run_parse("c2c-confirm-run 1\nstatus off\nnew 5\n", 34, &q), 0);
	assert_int_equal(q.status, C2C_CONFIRM_OFF);
}

/* --- folding and judging --------------------------------------------------------------------- */

struct fx {
	struct maps *maps;
	struct estim *e;
	uint64_t time;
	struct rm_model *m;
	struct rm_findings *fs;
	uint64_t window;
};

static struct fx *fx_new(void)
{
	static const uint8_t cf[2] = { 0, 1 };   /* event 1: the confirmation watchpoints */
	struct estim_opts o = { .mode = ESTIM_SOFT, .cl_size = 64, .confirm_event = cf,
				.nr_events = 2 };
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	struct fx *f = calloc(1, sizeof(*f));

	f->maps = maps_new();
	f->e = estim_new(&o);
	ev.mmap = (struct trace_mmap){ .pid = PID, .tid = PID, .start = LINE & ~0xfffffULL,
				       .len = 0x100000, .prot = 3, .flags = 2, .cpumode = 2,
				       .filename = "//anon" };
	estim_feed(f->e, f->maps, &ev);
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

/* A timer sample (event 0) or a watchpoint hit (event 1, weight: the access's bytes). */
static void feed(struct fx *f, int hit, uint32_t tid, uint32_t cpu, uint64_t addr, int kind)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_sample *s = &ev.sample;

	s->time = ++f->time * 1000;
	s->ip = 0x401000 + (uint64_t)kind * 0x10 + tid;
	s->pid = PID;
	s->tid = tid;
	s->cpu = cpu;
	s->cpumode = 2;
	s->event = (uint16_t)hit;
	s->weight = hit ? 8 : 250000;
	s->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC |
		   TRACE_SAMPLE_HAS_ADDR;
	s->data_src = softdec_data_src((enum softdec_kind)kind);
	s->detail = (uint16_t)(SOFTDEC_ADDR | kind << 5);
	s->addr = addr;
	estim_feed(f->e, f->maps, &ev);
}

/* The blob that ends a window which armed the words at @offs (-1 ends the list). */
static void window(struct fx *f, const int *offs)
{
	struct c2c_confirm_window w = { .window = ++f->window, .pid = PID, .line = LINE,
					.armed_ns = 1000000 };
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	char buf[512];

	for (; *offs >= 0; offs++) {
		w.word[w.nr_words].addr = LINE + (uint64_t)*offs;
		w.word[w.nr_words++].len = 8;
	}
	ev.blob.kind = TRACE_BLOB_CONFIRM_WINDOW;
	ev.blob.time = f->time * 1000;
	ev.blob.size = (uint64_t)c2c_confirm_window_format(&w, buf, sizeof(buf));
	ev.blob.data = buf;
	estim_feed(f->e, f->maps, &ev);
}

static void run_blob(struct fx *f)
{
	struct c2c_confirm_run r = { .status = C2C_CONFIRM_ON, .budget = 0.0075, .ns_per_hit = 7000,
				     .cpu_ns = 1000000000, .windows = f->window };
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	char buf[512];

	ev.blob.kind = TRACE_BLOB_CONFIRM_RUN;
	ev.blob.size = (uint64_t)c2c_confirm_run_format(&r, buf, sizeof(buf));
	ev.blob.data = buf;
	estim_feed(f->e, f->maps, &ev);
}

static const struct rm_line *finish(struct fx *f)
{
	run_blob(f);
	estim_finish(f->e);
	assert_int_equal(estim_check(f->e), 0);
	f->m = rm_from_estim(f->e);
	rm_judge(f->m);
	f->fs = rm_findings_build(f->m);
	for (size_t i = 0; i < f->m->nr_line; i++)
		if (f->m->line[i].addr == LINE)
			return &f->m->line[i];
	fail_msg("no line at LINE");
	return NULL;
}

/* Failure 4 of issue 28: the samples see the lock's writer only; the reader's word, 32 bytes on,
 * is seen by the watchpoints, armed beside the lock word. */
static void samples_one_thread(struct fx *f)
{
	for (int i = 0; i < 50; i++)
		feed(f, 0, 1, 0, LINE, AT);
}

static void hits_lock_reader(struct fx *f, int n)
{
	for (int i = 0; i < n; i++) {
		feed(f, 1, 1, 0, LINE, AT);
		feed(f, 1, 2, 1, LINE + 0x20, LD);
	}
}

static void test_fold_coarmed(void **state)
{
	static const int both[] = { 0, 0x20, 0x28, 0x30, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;
	const struct rm_confirm *c;

	(void)state;
	samples_one_thread(f);
	hits_lock_reader(f, 100);
	window(f, both);
	l = finish(f);
	c = l->confirm;
	assert_non_null(c);
	assert_int_equal(c->state, RM_CF_SEEN);
	/* the transfers say the line moved, who wrote which bytes why */
	assert_true(c->judged && c->by_bytes);
	assert_int_equal(c->hits, 200);
	assert_int_equal(c->nr_acc, 2);
	assert_int_equal(c->acc[0].offset, 0);
	assert_int_equal(c->acc[0].atomics, 100);
	assert_int_equal(c->acc[0].size, 8);
	assert_int_equal(c->acc[1].offset, 0x20);
	assert_int_equal(c->acc[1].reads, 100);
	/* each read pulls the written line (false: other bytes), each atomic invalidates the copy */
	assert_true(c->xfers >= 99 && c->xfers_true == 0 && c->inval >= 99);
	assert_int_equal(c->nr_coarm, 1);
	assert_int_equal(c->coarm[0].words, 1u | 1u << 4 | 1u << 5 | 1u << 6);
	assert_int_equal(c->coarm[0].hits, 200);
	assert_int_equal(c->sampled, RM_V_NONE);               /* one thread sampled */
	assert_int_equal(l->verdict, RM_V_FALSE);
	assert_true(l->false_cost > 0 && l->true_cost == 0);
	assert_non_null(l->finding);
	/* the members are the watched ones, named by who writes and reads them */
	assert_int_equal(l->nr_mem, 2);
	assert_int_equal(l->mem[0].nr_writers, 1);
	assert_int_equal(l->mem[1].nr_readers, 1);
	assert_int_equal(l->mem[1].offset, 0x20);
	fx_free(f);
}

/* A lock and the counter it guards on one line, both written by both threads: a waiter's read of
 * the lock word pulls the line the holder wrote the counter in, a transfer on bytes that owner
 * did not write, yet both threads write both words: true sharing, as findings.h's rule has it.
 * (Such transfers made soft-libcode's mutex and counter TRUE+FALSE when the transfers split the
 * line; this interleaving is too regular to show that, and guards the rule's verdict.) */
static void test_fold_lock_and_data(void **state)
{
	static const int both[] = { 0, 0x8, 0x10, 0x18, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;

	(void)state;
	for (int i = 0; i < 50; i++) {
		feed(f, 0, 1 + (uint32_t)(i % 2), (uint32_t)(i % 2), LINE, AT);
		feed(f, 0, 1 + (uint32_t)(i % 2), (uint32_t)(i % 2), LINE + 8, ST);
	}
	for (int i = 0; i < 100; i++) {
		uint32_t t = 1 + (uint32_t)(i / 2 % 2);

		feed(f, 1, t, t - 1, LINE, i % 2 ? LD : AT);   /* the waiter spins, the holder locks */
		feed(f, 1, t, t - 1, LINE + 8, ST);
	}
	window(f, both);
	l = finish(f);
	assert_true(l->confirm->judged);
	assert_true(l->confirm->xfers > 0);
	assert_int_equal(l->verdict, RM_V_TRUE);
	fx_free(f);
}

/* The same accesses with the two words never armed together: no transfer between them is seen
 * (each window's hits are replayed alone), and the verdict rests on who wrote which bytes. */
static void test_fold_apart(void **state)
{
	static const int lock[] = { 0, 0x8, 0x10, 0x18, -1 }, rd[] = { 0x20, 0x28, 0x30, 0x38, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;

	(void)state;
	samples_one_thread(f);
	for (int k = 0; k < 10; k++) {
		for (int i = 0; i < 10; i++)
			feed(f, 1, 1, 0, LINE, AT);
		window(f, lock);
		for (int i = 0; i < 10; i++)
			feed(f, 1, 2, 1, LINE + 0x20, LD);
		window(f, rd);
	}
	l = finish(f);
	assert_int_equal(l->confirm->xfers, 0);
	assert_int_equal(l->confirm->nr_coarm, 2);
	assert_int_equal(l->confirm->unplaced, 0);
	assert_true(l->confirm->judged && l->confirm->by_bytes);
	assert_int_equal(l->verdict, RM_V_FALSE);
	fx_free(f);
}

/* A stop flag: two threads read it in their loops, a third sets it once, all on the same armed
 * word. The line moved once in 2000 watched accesses: not contended, although who wrote which
 * bytes alone would call it true sharing (a fixed variant was flagged so under load). The same
 * accesses on two words never armed together say nothing of transfers: still judged. */
static void test_read_mostly(void **state)
{
	static const int flag[] = { 0, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;
	char text[512];

	(void)state;
	for (int i = 0; i < 50; i++) {
		feed(f, 0, 1, 0, LINE, LD);
		feed(f, 0, 2, 1, LINE, LD);
	}
	for (int i = 0; i < 1000; i++) {
		feed(f, 1, 1, 0, LINE, LD);
		feed(f, 1, 2, 1, LINE, LD);
	}
	feed(f, 1, 3, 0, LINE, AT);
	window(f, flag);
	l = finish(f);
	assert_true(l->confirm->judged);
	assert_true(l->confirm->xfers + l->confirm->inval >= 1);
	assert_true((l->confirm->xfers + l->confirm->inval) * RM_WATCH_FLOOR < l->confirm->hits);
	assert_int_equal(l->confirm->xfers + l->confirm->inval, 1);
	assert_int_equal(l->verdict, RM_V_NONE);
	rm_confirm_text(l, text, sizeof(text));
	if (!strstr(text, "fewer than one write per 1000 accesses, not contended"))
		fail_msg("text '%s'", text);
	fx_free(f);
}

/* Element 0 written by one goroutine, then by the next (a benchmark's rounds), while a third
 * writes element 1 all along, in one window: the first two never ran at once, so element 0 is
 * not truly shared; the line is false sharing (a slack meant for accesses seen in different
 * windows made the handoff concurrent, and the Go corpus entry mixed in 2 runs of 5). */
static void test_handoff_in_one_window(void **state)
{
	static const int words[] = { 0, 0x8, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;

	(void)state;
	for (int i = 0; i < 50; i++) {
		feed(f, 0, 1, 0, LINE, ST);
		feed(f, 0, 3, 1, LINE + 8, ST);
	}
	for (int i = 0; i < 400; i++) {
		feed(f, 1, i < 200 ? 1 : 2, 0, LINE, ST);
		feed(f, 1, 3, 1, LINE + 8, ST);
	}
	window(f, words);
	l = finish(f);
	assert_true(l->confirm->judged);
	assert_int_equal(l->verdict, RM_V_FALSE);
	fx_free(f);
}

/* Failure 5: an SPSC ring's indexes, each written by one side and read by the other; the
 * samples saw the consumer's loads of tail only. Not false sharing. */
static void test_spsc_true(void **state)
{
	static const int idx[] = { 0, 0x8, 0x10, 0x18, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;

	(void)state;
	for (int i = 0; i < 30; i++) {
		feed(f, 0, 2, 1, LINE + 0x8, LD);      /* consumer loads tail */
		feed(f, 0, 1, 0, LINE + 0x0, LD);      /* producer loads head */
	}
	for (int i = 0; i < 100; i++) {
		feed(f, 1, 1, 0, LINE + 0x8, ST);      /* producer: tail++ */
		feed(f, 1, 2, 1, LINE + 0x8, LD);      /* consumer sees it */
		feed(f, 1, 2, 1, LINE + 0x0, ST);      /* consumer: head++ */
		feed(f, 1, 1, 0, LINE + 0x0, LD);      /* producer sees it */
	}
	window(f, idx);
	l = finish(f);
	assert_true(l->confirm->judged);
	assert_true(l->confirm->xfers_true > 0);
	assert_true(l->verdict == RM_V_TRUE || l->verdict == RM_V_MIXED);
	assert_int_not_equal(l->verdict, RM_V_FALSE);
	fx_free(f);
}

/* Failure 1: per-thread elements of a heap array, their members named alike from the code
 * ("me->hits" of two elements): told apart by their bytes, FALSE SHARING, two members. */
static void test_elements(void **state)
{
	static const int words[] = { 0, 0x8, 0x10, 0x18, -1 };
	struct fx *f = fx_new();
	struct rm_line *l;

	(void)state;
	for (int i = 0; i < 40; i++) {
		feed(f, 0, 1, 0, LINE + 0x0, ST);
		feed(f, 0, 2, 1, LINE + 0x10, ST);
	}
	for (int i = 0; i < 100; i++) {
		feed(f, 1, 1, 0, LINE + 0x0, ST);
		feed(f, 1, 2, 1, LINE + 0x10, ST);
	}
	window(f, words);
	run_blob(f);
	estim_finish(f->e);
	f->m = rm_from_estim(f->e);
	l = NULL;
	for (size_t i = 0; i < f->m->nr_line; i++)
		if (f->m->line[i].addr == LINE)
			l = &f->m->line[i];
	assert_non_null(l);
	assert_int_equal(l->confirm->nr_acc, 2);
	for (size_t i = 0; i < l->confirm->nr_acc; i++)
		snprintf(l->confirm->acc[i].member, sizeof(l->confirm->acc[i].member), "me->hits");
	rm_judge(f->m);
	assert_true(l->confirm->judged);
	assert_int_equal(l->verdict, RM_V_FALSE);
	assert_int_equal(l->nr_mem, 2);
	assert_int_equal(l->mem[0].nr_writers, 1);
	assert_int_equal(l->mem[1].nr_writers, 1);
	assert_int_equal(l->mem[1].offset, 0x10);
	fx_free(f);
}

/* What was not watched is unknown: a line no window armed keeps the samples' verdict, and so does
 * one where the watchpoints saw fewer threads than the samples and no transfer. */
static void test_not_judged(void **state)
{
	static const int other[] = { 0x38, -1 };
	struct fx *f = fx_new();
	const struct rm_line *l;

	(void)state;
	for (int i = 0; i < 50; i++) {
		feed(f, 0, 1, 0, LINE, ST);
		feed(f, 0, 2, 1, LINE + 0x8, ST);
	}
	l = finish(f);
	assert_int_equal(l->confirm->state, RM_CF_SAMPLES);
	assert_false(l->confirm->judged);
	assert_int_equal(l->verdict, RM_V_FALSE);              /* the samples' */
	fx_free(f);

	f = fx_new();
	for (int i = 0; i < 50; i++) {
		feed(f, 0, 1, 0, LINE, ST);
		feed(f, 0, 2, 1, LINE + 0x8, ST);
	}
	for (int i = 0; i < 20; i++)
		feed(f, 1, 1, 0, LINE + 0x38, LD);
	window(f, other);
	l = finish(f);
	assert_int_equal(l->confirm->state, RM_CF_SEEN);
	assert_false(l->confirm->judged);
	assert_int_equal(l->verdict, RM_V_FALSE);
	fx_free(f);
}

/* A trace without confirmation (recorded before it, or --no-confirm) has no rm_confirm. */
static void test_no_confirmation(void **state)
{
	struct estim_opts o = { .mode = ESTIM_SOFT, .cl_size = 64 };
	struct fx *f = fx_new();
	const struct rm_line *l;

	(void)state;
	estim_free(f->e);
	f->e = estim_new(&o);
	samples_one_thread(f);
	estim_finish(f->e);
	f->m = rm_from_estim(f->e);
	rm_judge(f->m);
	l = &f->m->line[0];
	assert_null(l->confirm);
	assert_null(f->m->confirm_run);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_turns),
		cmocka_unit_test(test_blobs),
		cmocka_unit_test(test_fold_coarmed),
		cmocka_unit_test(test_fold_lock_and_data),
		cmocka_unit_test(test_fold_apart),
		cmocka_unit_test(test_read_mostly),
		cmocka_unit_test(test_handoff_in_one_window),
		cmocka_unit_test(test_spsc_true),
		cmocka_unit_test(test_elements),
		cmocka_unit_test(test_not_judged),
		cmocka_unit_test(test_no_confirmation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
