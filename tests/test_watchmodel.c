/* Tests of the watchpoint coherence model and the rotation math (record/watch-model.c). Each
 * sequence row lists its accesses in time order and the counters the model must give; the
 * expected counts are worked out by hand in the row's comment. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/aggregate/watch-model.h"

#define LINE 0x10000ULL          /* line A */
#define LINE2 0x10040ULL         /* line B: the next 64-byte line */

struct step {
	uint32_t cpu;
	uint64_t addr;
	int w;
};

struct seq {
	int line;
	const struct step *steps;
	size_t n;
	int repeat;              /* the steps are applied this many times (0: once) */
	size_t nr_lines;
	struct watch_stats want; /* of line A; only hitm, hitm_true, hitm_false, shared, inval */
};

#define STEPS(...) .steps = (const struct step[]){__VA_ARGS__}, \
		   .n = sizeof((const struct step[]){__VA_ARGS__}) / sizeof(struct step)

static const struct seq seqs[] = {
	/* ping-pong writes to a and b (offsets 0 and 8) from 2 CPUs, 10 rounds: every write but the
	 * first finds the line modified on the other CPU: 19 HITMs, all false sharing */
	{ __LINE__, STEPS({ 0, LINE + 0, 1 }, { 1, LINE + 8, 1 }), .repeat = 10, .nr_lines = 1,
	  .want = { .hitm = 19, .hitm_false = 19 } },
	/* the same on one word: true sharing */
	{ __LINE__, STEPS({ 0, LINE, 1 }, { 1, LINE, 1 }), .repeat = 10, .nr_lines = 1,
	  .want = { .hitm = 19, .hitm_true = 19 } },
	/* reads only: the second CPU's first read copies the line clean (1 shared), then all hit */
	{ __LINE__, STEPS({ 0, LINE, 0 }, { 1, LINE + 8, 0 }), .repeat = 10, .nr_lines = 1,
	  .want = { .shared = 1 } },
	/* padded: each counter on its own line, nothing moves */
	{ __LINE__, STEPS({ 0, LINE, 1 }, { 1, LINE2, 1 }), .repeat = 10, .nr_lines = 2 },
	/* one CPU writing over and over */
	{ __LINE__, STEPS({ 3, LINE, 1 }, { 3, LINE + 8, 1 }, { 3, LINE, 0 }), .repeat = 10, .nr_lines = 1 },
	/* both read (1 shared), cpu0 writes (1 invalidation), cpu1 reads the word written (HITM,
	 * true), cpu1 reads a neighbour (hit: it holds S) */
	{ __LINE__, STEPS({ 0, LINE, 0 }, { 1, LINE, 0 }, { 0, LINE, 1 }, { 1, LINE, 0 }, { 1, LINE + 16, 0 }),
	  .nr_lines = 1, .want = { .shared = 1, .inval = 1, .hitm = 1, .hitm_true = 1 } },
	/* cpu0 writes a, cpu1 reads b (HITM, false), cpu1 writes b (S->M: invalidates cpu0's S copy) */
	{ __LINE__, STEPS({ 0, LINE, 1 }, { 1, LINE + 8, 0 }, { 1, LINE + 8, 1 }), .nr_lines = 1,
	  .want = { .hitm = 1, .hitm_false = 1, .inval = 1 } },
	/* E -> M is silent: cpu0 reads then writes bytes 4-11 alone; cpu1 then reads bytes 6-13
	 * (HITM, true: they overlap), cpu1 reads bytes 16-23 (hit) */
	{ __LINE__, STEPS({ 0, LINE + 4, 0 }, { 0, LINE + 4, 1 }, { 1, LINE + 6, 0 }, { 1, LINE + 16, 0 }),
	  .nr_lines = 1, .want = { .hitm = 1, .hitm_true = 1 } },
	/* three CPUs: a write invalidates two sharers once */
	{ __LINE__, STEPS({ 0, LINE, 0 }, { 1, LINE, 0 }, { 2, LINE, 0 }, { 2, LINE, 1 }), .nr_lines = 1,
	  .want = { .shared = 2, .inval = 1 } },
};

/* Totals equal the sums over offsets and over sites; the HITM split adds up; reads and writes
 * add up to accesses; at most one CPU holds M or E. */
static void check_line(const struct watch_model *m, const struct watch_line *l)
{
	struct watch_stats off = { 0 }, site = { 0 };
	int excl = 0, valid = 0;

	for (int i = 0; i < WATCH_LINE_MAX; i++)
		watch_stats_add(&off, &l->by_offset[i]);
	for (size_t i = 0; i < l->nr_sites; i++) {
		watch_stats_add(&site, &l->sites[i].st);
		if (i)
			assert_true(l->sites[i - 1].offset < l->sites[i].offset ||
				    (l->sites[i - 1].offset == l->sites[i].offset &&
				     l->sites[i - 1].ip < l->sites[i].ip));
	}
	assert_memory_equal(&off, &l->total, sizeof(off));
	assert_memory_equal(&site, &l->total, sizeof(site));
	assert_int_equal(l->total.hitm, l->total.hitm_true + l->total.hitm_false);
	assert_int_equal(l->total.accesses, l->total.reads + l->total.writes);
	for (uint32_t cpu = 0; cpu < 8; cpu++) {
		enum watch_state st = watch_model_state(m, l->addr, cpu);

		excl += st == WATCH_M || st == WATCH_E;
		valid += st != WATCH_I;
	}
	assert_true(excl <= 1);
	assert_true(!excl || valid == 1);
}

static struct watch_model *run_seq(const struct seq *s)
{
	struct watch_model *m;
	uint64_t t = 100;

	assert_int_equal(watch_model_new(&m, 64), 0);
	for (int r = 0; r < (s->repeat ? s->repeat : 1); r++) {
		for (size_t i = 0; i < s->n; i++) {
			struct watch_access a = { .time = t++, .cpu = s->steps[i].cpu, .tid = 1000 + s->steps[i].cpu,
						  .ip = 0x401000 + i, .addr = s->steps[i].addr, .size = 8,
						  .is_write = s->steps[i].w };

			assert_int_equal(watch_model_add(m, &a), 0);
			for (size_t k = 0; k < watch_model_nr_lines(m); k++)
				check_line(m, watch_model_line(m, k));
		}
	}
	return m;
}

static void test_watchmodel_sequences(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		const struct seq *s = &seqs[i];
		struct watch_model *m = run_seq(s);
		const struct watch_line *l = watch_model_line(m, 0);
		const struct watch_stats *g = &l->total, *w = &s->want;
		uint64_t all = s->n * (s->repeat ? s->repeat : 1);
		uint64_t lines_total = 0;

		for (size_t k = 0; k < watch_model_nr_lines(m); k++) {
			const struct watch_line *o = watch_model_line(m, k);

			lines_total += o->total.accesses;
			if (k)   /* only line A ever has traffic in these rows */
				assert_int_equal(o->total.hitm + o->total.shared + o->total.inval, 0);
		}
		if (watch_model_nr_lines(m) != s->nr_lines || lines_total != all || l->addr != LINE ||
		    g->hitm != w->hitm || g->hitm_true != w->hitm_true || g->hitm_false != w->hitm_false ||
		    g->shared != w->shared || g->inval != w->inval)
			fail_msg("row at line %d: lines %zu accesses %llu hitm %llu (true %llu false %llu) "
				 "shared %llu inval %llu", s->line, watch_model_nr_lines(m),
				 (unsigned long long)lines_total, (unsigned long long)g->hitm,
				 (unsigned long long)g->hitm_true, (unsigned long long)g->hitm_false,
				 (unsigned long long)g->shared, (unsigned long long)g->inval);
		watch_model_free(m);
	}
}

/* The false-sharing ping-pong charges each HITM to the word and code address that took it. */
static void test_watchmodel_attribution(void **state)
{
	struct watch_model *m = run_seq(&seqs[0]);
	const struct watch_line *l = watch_model_line(m, 0);

	(void)state;
	assert_int_equal(l->by_offset[0].accesses, 10);
	assert_int_equal(l->by_offset[0].writes, 10);
	assert_int_equal(l->by_offset[0].hitm, 9);     /* the first write found the line nowhere */
	assert_int_equal(l->by_offset[8].hitm, 10);
	assert_int_equal(l->nr_sites, 2);
	assert_int_equal(l->sites[0].offset, 0);
	assert_int_equal(l->sites[0].ip, 0x401000);
	assert_int_equal(l->sites[1].offset, 8);
	assert_int_equal(l->sites[1].ip, 0x401001);
	assert_int_equal(l->sites[1].st.hitm_false, 10);
	assert_int_equal(watch_model_state(m, LINE + 8, 1), WATCH_M);
	assert_int_equal(watch_model_state(m, LINE, 0), WATCH_I);
	assert_int_equal(watch_model_state(m, LINE2, 0), WATCH_I);
	assert_null(watch_model_line(m, 1));
	watch_model_free(m);
}

static void test_watchmodel_errors(void **state)
{
	struct watch_access a = { .time = 50, .cpu = 0, .addr = LINE, .size = 8, .is_write = 1 };
	struct watch_model *m;

	(void)state;
	assert_int_equal(watch_model_new(&m, 48), -EINVAL);
	assert_int_equal(watch_model_new(&m, 256), -EINVAL);
	assert_int_equal(watch_model_new(&m, 0), 0);          /* 64 */
	assert_int_equal(watch_model_add(m, &a), 0);
	a.time = 49;
	assert_int_equal(watch_model_add(m, &a), -EINVAL);    /* time went backwards */
	a.time = 60;
	a.size = 0;
	assert_int_equal(watch_model_add(m, &a), -EINVAL);
	a.size = 8;
	a.addr = LINE + 60;                                   /* crosses into the next line */
	assert_int_equal(watch_model_add(m, &a), -EINVAL);
	a.addr = LINE;
	a.cpu = 5000;
	assert_int_equal(watch_model_add(m, &a), -ERANGE);
	assert_int_equal(watch_model_nr_lines(m), 1);
	assert_int_equal(watch_model_line(m, 0)->total.accesses, 1);   /* unchanged by the errors */
	watch_model_free(m);
	watch_model_free(NULL);
}

/* add_all sorts by time: a shuffled ping-pong gives the same counts as the ordered one. */
static void test_watchmodel_add_all(void **state)
{
	struct watch_access acc[20];
	struct watch_model *m;
	const struct watch_line *l;

	(void)state;
	for (int i = 0; i < 20; i++) {
		int j = (i * 7) % 20;   /* a permutation of 0..19 */

		acc[i] = (struct watch_access){ .time = 1000 + j, .cpu = j % 2, .ip = 0x400000,
						.addr = LINE + (j % 2) * 8, .size = 8, .is_write = 1 };
	}
	assert_int_equal(watch_model_new(&m, 64), 0);
	assert_int_equal(watch_model_add_all(m, acc, 20), 0);
	l = watch_model_line(m, 0);
	assert_int_equal(l->total.hitm, 19);
	assert_int_equal(l->total.hitm_false, 19);
	for (int i = 1; i < 20; i++)
		assert_true(acc[i - 1].time <= acc[i].time);
	watch_model_free(m);
}

static void test_watchmodel_rotation(void **state)
{
	static const struct { int line; uint32_t words, slots; uint64_t step; size_t n; uint32_t want[4]; } t[] = {
		{ __LINE__, 8, 4, 0, 4, { 0, 1, 2, 3 } },
		{ __LINE__, 8, 4, 1, 4, { 4, 5, 6, 7 } },
		{ __LINE__, 8, 4, 2, 4, { 0, 1, 2, 3 } },
		{ __LINE__, 6, 4, 1, 4, { 4, 5, 0, 1 } },
		{ __LINE__, 6, 4, 2, 4, { 2, 3, 4, 5 } },
		{ __LINE__, 3, 4, 7, 3, { 0, 1, 2 } },   /* fewer words than registers: all, always */
		{ __LINE__, 8, 0, 0, 0, { 0 } },
		{ __LINE__, 0, 4, 0, 0, { 0 } },
	};
	uint64_t watched[8] = { 0 };
	uint32_t out[4];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t n = watch_rotation_words(t[i].words, t[i].slots, t[i].step, out);

		if (n != t[i].n || memcmp(out, t[i].want, n * sizeof(out[0])))
			fail_msg("row at line %d: got %zu words", t[i].line, n);
	}
	/* 6 words, 4 registers, 3 steps of 10 ms: every word is watched 2 steps out of 3 */
	for (uint64_t step = 0; step < 3; step++) {
		size_t n = watch_rotation_words(6, 4, step, out);

		for (size_t j = 0; j < n; j++)
			watched[out[j]] += 10000000;
	}
	for (int w = 0; w < 6; w++)
		assert_true(watch_scale(watched[w], 30000000) == 1.5);
}

static void test_watchmodel_scale(void **state)
{
	struct watch_stats s = { .accesses = 3, .reads = 2, .writes = 1, .hitm = 1, .hitm_false = 1 };
	struct watch_stats d;

	(void)state;
	assert_true(watch_scale(0, 100) == 0.0);
	assert_true(watch_scale(50, 100) == 2.0);
	assert_true(watch_scale(100, 100) == 1.0);
	assert_true(watch_scale(150, 100) == 1.0);
	assert_true(watch_scale(25, 100) == 4.0);
	watch_stats_scale(&d, &s, 2.5);
	assert_int_equal(d.accesses, 8);   /* 7.5 rounds up */
	assert_int_equal(d.reads, 5);
	assert_int_equal(d.writes, 3);     /* 2.5 rounds away from zero */
	assert_int_equal(d.hitm, 3);
	assert_int_equal(d.hitm_true, 0);
	watch_stats_scale(&s, &s, 4.0);    /* in place */
	assert_int_equal(s.accesses, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watchmodel_sequences),
		cmocka_unit_test(test_watchmodel_attribution),
		cmocka_unit_test(test_watchmodel_errors),
		cmocka_unit_test(test_watchmodel_add_all),
		cmocka_unit_test(test_watchmodel_rotation),
		cmocka_unit_test(test_watchmodel_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
