/* Tests of report/aggregate/topdown-agg: metric order from event names, intervals per (CPU, thread), bases
 * and rebasing, per-line and per-function sums, and the printed block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/aggregate/topdown-agg.h"
#include "report/model/sections-build.h"
#include "report/stdio/sections.h"

static struct trace_info info_of(struct trace_event_desc *ev, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ev[i] = (struct trace_event_desc){ .name = (char *)names[i] };
	return (struct trace_info){ .nr_events = (uint32_t)n, .events = ev };
}

/* One sample with running totals slots, t0, t1, ... (nr values). */
static void feed(struct td_agg *a, uint32_t cpu, uint32_t tid, uint64_t ip, uint64_t addr,
		 uint64_t slots, int nr, const uint64_t *td)
{
	struct trace_sample s = { .cpu = cpu, .tid = tid, .pid = 1, .ip = ip, .addr = addr,
				  .cpumode = 2, .td_slots = slots, .td_nr = (uint8_t)nr,
				  .flags = TRACE_SAMPLE_TOPDOWN | TRACE_SAMPLE_HAS_ADDR };

	memcpy(s.td, td, (size_t)nr * sizeof(*td));
	td_agg_sample(a, &s);
}

static const struct order_case {
	int line;
	const char *names[6];
	int nr;
	enum td_metric first, second;   /* what td[0] and td[1] are */
} order_cases[] = {
	{ __LINE__, { "cpu/mem-loads/P", "cpu/slots/", "cpu/topdown-retiring/",
		      "cpu/topdown-bad-spec/" }, 4, TD_RETIRING, TD_BAD_SPEC },
	{ __LINE__, { "cpu_core/topdown-be-bound/", "cpu_core/topdown-mem-bound/" }, 2,
	  TD_BE_BOUND, TD_MEM_BOUND },
	{ __LINE__, { "topdown-fetch-lat", "topdown-heavy-ops,foo" }, 2, TD_FETCH_LAT,
	  TD_HEAVY_OPS },
	/* no names: the recorder's order */
	{ __LINE__, { "cpu/mem-loads/P" }, 1, TD_RETIRING, TD_BAD_SPEC },
};

static void test_td_order(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(order_cases) / sizeof(order_cases[0]); i++) {
		const struct order_case *c = &order_cases[i];
		struct trace_event_desc ev[6];
		struct trace_info info = info_of(ev, c->names, c->nr);
		struct td_agg *a = td_agg_new(&info, 64);
		const uint64_t t1[2] = { 0, 0 }, t2[2] = { 25, 50 };

		feed(a, 0, 1, 0x10, 0x1000, 100, 2, t1);
		feed(a, 0, 1, 0x10, 0x1000, 200, 2, t2);
		if (td_pct(td_agg_total(a), c->first) != 25.0 ||
		    td_pct(td_agg_total(a), c->second) != 50.0 || !td_agg_has(a, c->first))
			fail_msg("row at line %d: %.1f %.1f", c->line,
				 td_pct(td_agg_total(a), c->first), td_pct(td_agg_total(a), c->second));
		td_agg_free(a);
	}
}

static void test_td_intervals(void **state)
{
	static const char *const names[] = { "cpu/topdown-retiring/", "cpu/topdown-be-bound/" };
	struct trace_event_desc ev[2];
	struct trace_info info = info_of(ev, names, 2);
	struct td_agg *a = td_agg_new(&info, 64);
	const struct td_sum *s;
	struct trace_sample plain = { .cpu = 0, .tid = 1, .td_slots = 1 << 20 };

	(void)state;
	feed(a, 0, 1, 0x10, 0x1000, 1000, 2, (uint64_t[]){ 500, 500 });     /* base */
	feed(a, 1, 1, 0x10, 0x1000, 5000, 2, (uint64_t[]){ 0, 5000 });      /* base: other CPU */
	feed(a, 0, 2, 0x10, 0x1000, 9000, 2, (uint64_t[]){ 9000, 0 });      /* base: other tid */
	feed(a, 0, 1, 0x20, 0x1008, 1400, 2, (uint64_t[]){ 600, 800 });     /* +400: 100/300 */
	feed(a, 1, 1, 0x20, 0x1040, 5100, 2, (uint64_t[]){ 50, 5050 });     /* +100: 50/50 */
	feed(a, 0, 1, 0x20, 0x1040, 10, 2, (uint64_t[]){ 5, 5 });           /* backwards: rebase */
	feed(a, 0, 1, 0x20, 0x1040, 10, 2, (uint64_t[]){ 5, 5 });           /* no slots: none */
	td_agg_sample(a, &plain);                                            /* no TopDown */
	assert_int_equal(td_agg_nr_samples(a), 7);
	s = td_agg_total(a);
	assert_int_equal(s->slots, 500);
	assert_int_equal(s->intervals, 2);
	assert_int_equal(s->m[TD_RETIRING], 150);
	assert_int_equal(s->m[TD_BE_BOUND], 350);
	assert_true(td_agg_has(a, TD_BE_BOUND) && !td_agg_has(a, TD_FE_BOUND));
	s = td_agg_line(a, 0x1000);
	assert_non_null(s);
	assert_int_equal(s->slots, 400);
	assert_true(td_pct(s, TD_BE_BOUND) == 75.0);
	s = td_agg_line(a, 0x107f);
	assert_non_null(s);
	assert_int_equal(s->slots, 100);
	assert_null(td_agg_line(a, 0x2000));
	assert_true(td_pct(NULL, TD_RETIRING) == 0.0);
	td_agg_free(a);
}

static const char *fake_fn(void *ctx, uint32_t pid, uint32_t tid, uint8_t mode, uint64_t ip)
{
	(void)ctx, (void)pid, (void)tid, (void)mode;
	return ip < 0x100 ? "low" : ip < 0x200 ? "mid" : NULL;
}

static char *print_of(const struct td_agg *a, td_agg_sym_fn fn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct rm_sections *ss = rm_sections_new();

	rm_sec_topdown(ss, a, fn, NULL);
	assert_int_equal(stdio_section_print(m, rm_sections_get(ss, RM_SEC_TOPDOWN), 5), 0);
	rm_sections_free(ss);
	fclose(m);
	return buf;
}

static void test_td_print(void **state)
{
	static const char *const names[] = { "cpu/topdown-retiring/", "cpu/topdown-bad-spec/",
					     "cpu/topdown-fe-bound/", "cpu/topdown-be-bound/" };
	struct trace_event_desc ev[4];
	struct trace_info info = info_of(ev, names, 4);
	struct td_agg *a = td_agg_new(&info, 64);
	char *out;

	(void)state;
	out = print_of(a, fake_fn);
	assert_string_equal(out, "");       /* no TopDown samples: nothing */
	free(out);
	feed(a, 0, 1, 0x10, 0x1000, 100, 4, (uint64_t[]){ 0, 0, 0, 0 });
	out = print_of(a, fake_fn);
	assert_non_null(strstr(out, "nothing to attribute"));
	free(out);
	feed(a, 0, 1, 0x10, 0x1000, 1100, 4, (uint64_t[]){ 100, 100, 100, 700 });
	feed(a, 0, 1, 0x20, 0x2000, 1300, 4, (uint64_t[]){ 300, 100, 100, 700 });
	feed(a, 0, 1, 0x150, 0x2000, 1400, 4, (uint64_t[]){ 300, 200, 100, 700 });
	feed(a, 0, 1, 0x300, 0x2000, 1500, 4, (uint64_t[]){ 300, 200, 200, 700 });
	out = print_of(a, fake_fn);
	assert_non_null(strstr(out, "# TopDown: % of pipeline slots"));
	assert_non_null(strstr(out, " retiring bad-spec fe-bound be-bound\n"));
	assert_null(strstr(out, "mem-bound"));
	assert_non_null(strstr(out, "#   all                                        1400     21.4"));
	/* lines by slots: 0x1000 (1000) before 0x2000 (400) */
	assert_true(strstr(out, "line 0x1000") < strstr(out, "line 0x2000"));
	/* functions merged by name: low = 0x10 + 0x20 (1200 slots), then mid, [unknown] */
	assert_non_null(strstr(out, "#   func low                                   1200     25.0"));
	assert_true(strstr(out, "func [unknown]") < strstr(out, "func mid"));   /* ties by name */
	assert_true(strstr(out, "func low") < strstr(out, "func mid"));
	free(out);
	td_agg_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_td_order),
		cmocka_unit_test(test_td_intervals),
		cmocka_unit_test(test_td_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
