/* Tests of TopDown counted beside IBS/SPE samples: the reader blob (include/c2c/tdreader.h) and
 * the attribution by time (report/aggregate/topdown-time.h) on worked numbers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/tdreader.h"
#include "report/aggregate/topdown-time.h"
#include "report/model/sections-build.h"
#include "report/stdio/sections.h"

/* Zen 4 level 1 as record opens it beside ibs_op: cycles lead, then the four slot counters. */
static struct td_reader zen4_reader(int scope_cpu)
{
	struct td_reader r = { .model = { .kind = TD_KIND_AMD_SLOTS, .cpu = "Zen 4", .width = 6 },
			       .scope_cpu = scope_cpu, .period = 1000000, .event = 1,
			       .lead = TDI_CYCLES, .nr = 4,
			       .in = { TDI_AMD_DISPATCHED, TDI_AMD_RET_OPS, TDI_AMD_FE_EMPTY,
				       TDI_AMD_BE_STALLS, -1, -1, -1, -1 } };
	return r;
}

static void test_reader_blob(void **state)
{
	struct td_reader r = zen4_reader(0), back;
	char buf[512];
	int n = td_reader_format(&r, buf, sizeof(buf));

	(void)state;
	assert_true(n > 0);
	assert_non_null(strstr(buf, "c2c-topdown 1\nmodel amd-slots\ncpu Zen 4\nwidth 6\n"));
	assert_non_null(strstr(buf, "scope thread\nperiod 1000000\nreader 1\nlead cycles\n"
			       "value 0 amd-dispatched\nvalue 1 amd-ret-ops\n"));
	assert_int_equal(td_reader_parse(buf, (size_t)n, &back), 0);
	assert_int_equal(back.model.kind, TD_KIND_AMD_SLOTS);
	assert_string_equal(back.model.cpu, "Zen 4");
	assert_int_equal(back.model.width, 6);
	assert_int_equal(back.event, 1);
	assert_int_equal(back.lead, TDI_CYCLES);
	assert_int_equal(back.nr, 4);
	assert_memory_equal(back.in, r.in, sizeof(r.in));
	assert_int_equal(td_reader_format(&r, buf, 40), -1);   /* does not fit */

	/* bad blobs: each a one-line -EBADMSG, never a crash */
	static const char *const bad[] = {
		"c2c-topdown 2\nmodel amd-slots\nlead cycles\n",
		"c2c-topdown 1\nmodel zen9\nlead cycles\n",
		"c2c-topdown 1\nmodel amd-slots\n",                              /* no lead */
		"c2c-topdown 1\nlead cycles\n",                                  /* no model */
		"c2c-topdown 1\nmodel amd-slots\nlead cycles\nvalue 8 amd-ret-ops\n",
		"c2c-topdown 1\nmodel amd-slots\nlead cycles\nvalue 1 amd-ret-ops\n",  /* hole at 0 */
		"c2c-topdown 1\nmodel amd-slots\nlead cycles\nvalue 0 nothing\n",
		"c2c-topdown 1\nmodel amd-slots\nlead cycles\nwidth 65\n",
		"c2c-topdown 1\nmodel amd-slots\nlead cycles\nreader 70000\n",
		"c2c-topdown 1\nmodel amd-slots\nlead cycles\nscope node\n",
		"",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (td_reader_parse(bad[i], strlen(bad[i]), &back) != -EBADMSG)
			fail_msg("bad blob %zu accepted", i);
	/* a later version's key is skipped */
	{
		const char *later = "c2c-topdown 1\nmodel arm-slots\nlead cycles\nnew 1\n";

		assert_int_equal(td_reader_parse(later, strlen(later), &back), 0);
	}
	assert_int_equal(back.model.kind, TD_KIND_ARM_SLOTS);
}

static void test_reader_counts(void **state)
{
	struct td_reader r = zen4_reader(0);
	struct trace_sample s = { .td_slots = 1000, .td_nr = 4, .td = { 3000, 2400, 1200, 1800 } };
	struct td_counts c;
	struct td_result res;

	(void)state;
	td_reader_counts(&r, &s, &c);
	assert_int_equal(c.v[TDI_CYCLES], 1000);
	assert_int_equal(c.v[TDI_AMD_DISPATCHED], 3000);
	assert_int_equal(c.v[TDI_AMD_BE_STALLS], 1800);
	assert_false(c.have & (1ull << TDI_AMD_SMT));
	assert_int_equal(td_compute(&r.model, &c, &res), 0);
	assert_float_equal(res.slots, 6000, 1e-9);
	assert_float_equal(res.v[TDO_RETIRING], 0.4, 1e-12);
	assert_float_equal(res.v[TDO_BAD_SPEC], 0.1, 1e-12);
	assert_float_equal(res.v[TDO_FE_BOUND], 0.2, 1e-12);
	assert_float_equal(res.v[TDO_BE_BOUND], 0.3, 1e-12);
}

static void reading(struct tdt *a, uint32_t cpu, uint32_t tid, uint64_t t, uint64_t cyc,
		    uint64_t disp, uint64_t ret, uint64_t fe, uint64_t be)
{
	struct trace_sample s = { .event = 1, .cpu = cpu, .tid = tid, .pid = 1, .time = t,
				  .flags = TRACE_SAMPLE_TOPDOWN | TRACE_SAMPLE_HAS_CPU,
				  .td_slots = cyc, .td_nr = 4, .td = { disp, ret, fe, be } };

	tdt_feed(a, &s);
}

static void sample(struct tdt *a, uint32_t cpu, uint32_t tid, uint64_t t, uint64_t addr,
		   uint64_t ip)
{
	struct trace_sample s = { .event = 0, .cpu = cpu, .tid = tid, .pid = 1, .time = t,
				  .ip = ip, .addr = addr, .cpumode = 2,
				  .flags = TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_CPU };

	tdt_feed(a, &s);
}

static const char *namer(void *ctx, uint32_t pid, uint32_t tid, uint8_t cpumode, uint64_t ip)
{
	(void)ctx, (void)pid, (void)tid, (void)cpumode;
	return ip == 0x400 ? "f400" : ip == 0x500 ? "f500" : NULL;
}

/* The worked example of docs/topdown.md ("TopDown beside IBS and SPE samples"). */
static struct tdt *worked(void)
{
	struct td_reader r = zen4_reader(0);
	struct tdt *a = tdt_new(&r, 64);

	sample(a, 0, 100, 10, 0x1008, 0x400);                  /* A */
	sample(a, 0, 100, 20, 0x1040, 0x500);                  /* B */
	sample(a, 1, 101, 25, 0x1000, 0x400);                  /* another thread: no reading */
	reading(a, 0, 100, 30, 1000, 3000, 2400, 1200, 1800);  /* A and B share it */
	sample(a, 0, 100, 40, 0x1030, 0x400);                  /* C */
	sample(a, 0, 100, 55, 0x2000, 0x500);                  /* after the next reading */
	reading(a, 0, 100, 50, 2000, 4000, 3000, 1800, 4800);  /* C alone */
	reading(a, 0, 100, 50, 2000, 4000, 3000, 1800, 4800);  /* no movement: no interval */
	reading(a, 0, 100, 60, 2500, 4500, 3300, 2400, 5400);  /* the 0x2000 sample */
	tdt_finish(a);
	return a;
}

static void expect(const struct td_result *r, double slots, double ret, double bad, double fe,
		   double be)
{
	assert_float_equal(r->slots, slots, 1e-9);
	assert_float_equal(r->v[TDO_RETIRING], ret, 1e-9);
	assert_float_equal(r->v[TDO_BAD_SPEC], bad, 1e-9);
	assert_float_equal(r->v[TDO_FE_BOUND], fe, 1e-9);
	assert_float_equal(r->v[TDO_BE_BOUND], be, 1e-9);
}

static void test_attribution(void **state)
{
	struct tdt *a = worked();
	const struct tdt_stats *st = tdt_stats(a);
	struct td_result r;
	struct tdt_row *rows;
	size_t nr;

	(void)state;
	assert_int_equal(st->readings, 4);
	assert_int_equal(st->intervals, 3);
	assert_int_equal(st->intervals_charged, 3);
	assert_int_equal(st->samples_charged, 4);
	assert_int_equal(st->samples_uncharged, 1);    /* thread 101 never had a reading */
	/* all: 2500 cycles = 15000 slots; ret 3300, disp 4500, fe 2400, be 5400 */
	assert_int_equal(tdt_total(a, 1, &r), 0);
	expect(&r, 15000, 0.22, 0.08, 0.16, 0.36);
	/* line 0x1000: half of interval 1 (A) and all of interval 2 (C): 1500 cycles, disp 2500,
	 * ret 1800, fe 1200, be 3900 */
	assert_int_equal(tdt_line(a, 0x1010, &r), 0);
	expect(&r, 9000, 0.2, 700.0 / 9000, 1200.0 / 9000, 3900.0 / 9000);
	/* line 0x1040: the other half of interval 1 (B) */
	assert_int_equal(tdt_line(a, 0x1040, &r), 0);
	expect(&r, 3000, 0.4, 0.1, 0.2, 0.3);
	/* line 0x2000: the last interval alone: 500 cycles, disp 500, ret 300, fe 600, be 600 */
	assert_int_equal(tdt_line(a, 0x2000, &r), 0);
	expect(&r, 3000, 0.1, 200.0 / 3000, 0.2, 0.2);
	assert_int_equal(tdt_line(a, 0x3000, &r), -ENOENT);

	rows = tdt_rows(a, 0, 10, NULL, NULL, &nr);
	assert_int_equal(nr, 3);
	assert_int_equal(rows[0].line, 0x1000);
	assert_int_equal(rows[0].samples, 2);
	assert_int_equal(rows[1].line, 0x1040);   /* ties on slots: by address */
	assert_int_equal(rows[2].line, 0x2000);
	free(rows);
	rows = tdt_rows(a, 1, 1, namer, NULL, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(rows[0].name, "f400");  /* A and C: same as line 0x1000 */
	expect(&rows[0].r, 9000, 0.2, 700.0 / 9000, 1200.0 / 9000, 3900.0 / 9000);
	free(rows);
	tdt_free(a);
}

static void test_uncharged_and_resets(void **state)
{
	struct td_reader r = zen4_reader(1);     /* per-CPU counters: every thread of the CPU */
	struct tdt *a = tdt_new(&r, 64);
	struct td_result res;

	(void)state;
	reading(a, 2, 7, 10, 600, 600, 600, 600, 600);       /* no sample before it */
	sample(a, 2, 8, 15, 0x4000, 0x400);                 /* another thread, same CPU */
	reading(a, 2, 9, 20, 100, 200, 300, 100, 100);      /* totals went down: from zero */
	assert_int_equal(tdt_stats(a)->resets, 1);
	assert_int_equal(tdt_stats(a)->intervals, 2);
	assert_int_equal(tdt_stats(a)->intervals_charged, 1);
	assert_int_equal(tdt_line(a, 0x4000, &res), 0);
	expect(&res, 600, 0.5, 0, 100.0 / 600, 100.0 / 600);  /* bad spec clamped at 0 */
	assert_int_equal(tdt_total(a, 0, &res), 0);
	assert_float_equal(res.slots, 600, 1e-9);
	assert_int_equal(tdt_total(a, 1, &res), 0);
	assert_float_equal(res.slots, 4200, 1e-9);
	tdt_finish(a);
	assert_int_equal(tdt_stats(a)->samples_uncharged, 0);
	tdt_free(a);

	/* nothing counted: no result, no block */
	a = tdt_new(&r, 64);
	assert_int_equal(tdt_total(a, 1, &res), -ERANGE);
	tdt_free(a);
}

static void test_print(void **state)
{
	struct tdt *a = worked();
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct rm_sections *ss = rm_sections_new();

	(void)state;
	rm_sec_topdown_time(ss, a, namer, NULL);
	assert_int_equal(stdio_section_print(f, rm_sections_get(ss, RM_SEC_TOPDOWN_TIME), 5), 0);
	rm_sections_free(ss);
	fclose(f);
	assert_non_null(strstr(out, "# TopDown by time: Zen 4 counters in a group apart from the "
			       "sampler, read every 1000000 cycles per CPU and thread"));
	assert_non_null(strstr(out, "4 readings, 3 intervals (3 with memory samples), 4 samples "
			       "charged, 1 after their stream's last reading not charged"));
	assert_non_null(strstr(out, "#   all (counted)                           5          15000"
			       "     22.0      8.0     16.0     36.0\n"));
	assert_non_null(strstr(out, "#   line 0x1000                             2           9000"
			       "     20.0      7.8     13.3     43.3\n"));
	assert_true(strstr(out, "func f400") < strstr(out, "func f500"));
	free(out);
	tdt_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_blob),
		cmocka_unit_test(test_reader_counts),
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_uncharged_and_resets),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
