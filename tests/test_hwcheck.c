/* The hardware acceptance kit's judgement (report/diff/hwcheck.c) on plain figures: the noise
 * bound of two proportions, each check passing, failing and skipping, the verdict, and perf
 * stat's CSV. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report/diff/hwcheck.h"
#include "report/model/model.h"

static const struct hwc_check *find(const struct hwc_check *c, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].what, what))
			return &c[i];
	fail_msg("no check '%s'", what);
	return NULL;
}

static void side(struct hwc_side *s, const char *label, uint64_t loads, uint64_t hitm,
		 double cost, const char *top, double share)
{
	memset(s, 0, sizeof(*s));
	s->label = label;
	s->loads = loads;
	s->hitm = hitm;
	s->total_cost = cost;
	if (top) {
		snprintf(s->top[0].key, sizeof(s->top[0].key), "%s", top);
		s->top[0].verdict = RM_V_FALSE;
		s->top[0].share = share;
		s->nr_top = 1;
	}
}

static void test_noise(void **state)
{
	double tol;

	(void)state;
	/* p = 0.5, n = 10000 each: 3 sigma = 3 * sqrt(0.25 * 2e-4) = 0.0212, plus the floor */
	assert_true(hwc_within_noise(5000, 10000, 5500, 10000, &tol));
	assert_true(tol > 0.0511 && tol < 0.0513);
	assert_false(hwc_within_noise(5000, 10000, 5520, 10000, &tol));
	/* few samples: a wide bound */
	assert_true(hwc_within_noise(5, 10, 9, 10, &tol));
	assert_false(hwc_within_noise(0, 1000, 100, 1000, &tol));
}

static void test_agree(void **state)
{
	struct hwc_side p, o;
	struct hwc_check c[HWC_MAX_CHECKS];
	size_t n;

	(void)state;
	side(&p, "perf c2c", 20000, 6000, 6000, "buf1", 95.0);
	side(&o, "c2c-lite", 18000, 5600, 5600, "buf1", 93.0);
	n = hwc_compare(&p, &o, "buf1", NULL, c);
	assert_int_equal(find(c, n, "top finding")->st, HWC_OK);
	assert_int_equal(find(c, n, "data names")->st, HWC_OK);
	assert_int_equal(find(c, n, "HITM share")->st, HWC_OK);
	assert_int_equal(find(c, n, "peer share")->st, HWC_OK);   /* 0 of both */
	assert_int_equal(find(c, n, "top share")->st, HWC_OK);
	assert_int_equal(find(c, n, "TopDown")->st, HWC_SKIP);    /* neither has it */
	assert_int_equal(find(c, n, "expected")->st, HWC_OK);
	assert_int_equal(hwc_verdict(c, n), HWC_OK);
}

static void test_disagree(void **state)
{
	struct hwc_side p, o;
	struct hwc_check c[HWC_MAX_CHECKS];
	size_t n;

	(void)state;
	/* the same object, but a third of the HITMs per load: outside the noise */
	side(&p, "perf c2c", 20000, 6000, 6000, "buf1", 95.0);
	side(&o, "c2c-lite", 20000, 2000, 2000, "buf1", 95.0);
	n = hwc_compare(&p, &o, NULL, NULL, c);
	assert_int_equal(find(c, n, "HITM share")->st, HWC_FAIL);
	assert_int_equal(find(c, n, "top finding")->st, HWC_OK);
	assert_int_equal(hwc_verdict(c, n), HWC_FAIL);

	/* another object on top, and perf's second finding missing from ours */
	side(&o, "c2c-lite", 20000, 6000, 6000, "counter", 95.0);
	snprintf(p.top[1].key, sizeof(p.top[1].key), "stats");
	p.top[1].share = 4.0;            /* under 5%: not required */
	p.nr_top = 2;
	n = hwc_compare(&p, &o, "buf1", NULL, c);
	assert_int_equal(find(c, n, "top finding")->st, HWC_FAIL);
	assert_int_equal(find(c, n, "data names")->st, HWC_FAIL);
	assert_non_null(strstr(find(c, n, "data names")->detail, "buf1"));
	assert_null(strstr(find(c, n, "data names")->detail, "stats"));
	assert_int_equal(find(c, n, "top share")->st, HWC_SKIP);
	assert_int_equal(find(c, n, "expected")->st, HWC_FAIL);

	/* the same object with another verdict is not the same finding */
	side(&o, "c2c-lite", 20000, 6000, 6000, "buf1", 95.0);
	o.top[0].verdict = RM_V_TRUE;
	n = hwc_compare(&p, &o, NULL, NULL, c);
	assert_int_equal(find(c, n, "top finding")->st, HWC_FAIL);
}

static void test_none_and_skips(void **state)
{
	struct hwc_side p, o;
	struct hwc_check c[HWC_MAX_CHECKS];
	size_t n;

	(void)state;
	side(&p, "perf c2c", 5000, 3, 3, NULL, 0);
	side(&o, "c2c-lite", 4000, 1, 1, NULL, 0);
	n = hwc_compare(&p, &o, "-", NULL, c);
	assert_int_equal(find(c, n, "top finding")->st, HWC_OK);
	assert_int_equal(find(c, n, "data names")->st, HWC_SKIP);
	assert_int_equal(find(c, n, "expected")->st, HWC_OK);
	assert_int_equal(hwc_verdict(c, n), HWC_OK);
	/* no loads at all on one side: the shares are skipped, not passed */
	o.loads = o.hitm = 0;
	n = hwc_compare(&p, &o, NULL, NULL, c);
	assert_int_equal(find(c, n, "HITM share")->st, HWC_SKIP);
	/* every check skipped: nothing compared */
	struct hwc_check only[2] = { { "a", HWC_SKIP, "" }, { "b", HWC_SKIP, "" } };
	assert_int_equal(hwc_verdict(only, 2), HWC_SKIP);
}

static void test_topdown(void **state)
{
	struct hwc_side p, o;
	struct hwc_check c[HWC_MAX_CHECKS];
	const double a[4] = { 30, 5, 15, 50 }, b[4] = { 33, 4, 12, 51 };
	size_t n;

	(void)state;
	side(&p, "perf c2c", 100, 10, 10, "buf1", 90);
	side(&o, "c2c-lite", 100, 10, 10, "buf1", 90);
	p.has_td = o.has_td = 1;
	memcpy(p.td, a, sizeof(a));
	memcpy(o.td, b, sizeof(b));
	n = hwc_compare(&p, &o, NULL, NULL, c);
	assert_int_equal(find(c, n, "TopDown")->st, HWC_OK);
	o.td[3] = 60;                    /* backend bound 10 points off */
	n = hwc_compare(&p, &o, NULL, NULL, c);
	assert_int_equal(find(c, n, "TopDown")->st, HWC_FAIL);
	assert_non_null(strstr(find(c, n, "TopDown")->detail, "backend 50.0/60.0!"));
}

static void test_perf_stat(void **state)
{
	/* written after perf-stat(1)'s CSV (-x,), not captured (no PMU here): counter value, unit,
	 * event, run time, percent running, metric value, metric unit; metric-only lines have the
	 * first fields empty */
	static const char csv[] =
		"# started on Tue Nov 24 10:00:00 2026\n"
		"\n"
		"12000000,,TOPDOWN.SLOTS,2000000,100.00,,\n"
		"3600000,,topdown-retiring,2000000,100.00,30.0,% tma_retiring\n"
		",,,,,8.5,% tma_bad_speculation\n"
		"1800000,,topdown-fe-bound,2000000,100.00,15.0,% tma_frontend_bound\n"
		",,,,,46.5,% tma_backend_bound\n";
	double td[4] = { 0 };

	(void)state;
	assert_int_equal(hwc_parse_perf_stat(csv, td), 0);
	assert_true(td[0] == 30.0 && td[1] == 8.5 && td[2] == 15.0 && td[3] == 46.5);
	/* older perf: names without tma_ and with spaces */
	assert_int_equal(hwc_parse_perf_stat(",,,,,25,Retiring\n,,,,,5,Bad Speculation\n"
					     ",,,,,20,Frontend Bound\n,,,,,50,backend_bound\n", td), 0);
	assert_true(td[0] == 25.0 && td[3] == 50.0);
	/* a metric missing, or not a number: -ENOENT */
	assert_int_equal(hwc_parse_perf_stat(",,,,,25,tma_retiring\n", td), -ENOENT);
	assert_int_equal(hwc_parse_perf_stat(",,,,,x,tma_retiring\n,,,,,5,tma_bad_speculation\n"
					     ",,,,,20,tma_frontend_bound\n,,,,,50,tma_backend_bound\n",
					     td), -ENOENT);
	assert_int_equal(hwc_parse_perf_stat("", td), -ENOENT);
}

/* the start of `perf c2c report --stdio` (perf 6.1) of `c2c-gen -s falseshare -p perf.data` */
static const char perf_table[] =
	"=================================================\n"
	"           Shared Data Cache Line Table          \n"
	"=================================================\n"
	"#\n"
	"#        ----------- Cacheline ----------      Tot  ------- Load Hitm -------    Total    "
	"Total    Total  --------- Stores --------  ...\n"
	"# Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  records    "
	"Loads   Stores    L1Hit   L1Miss ...\n"
	"# .....  ..................  ....  ......  .......  .......  .......  .......  .......  ...\n"
	"#\n"
	"      0           0x2001040     0    1370   89.07%      725      422      303     1926     "
	"1028      898      690      208        0\n"
	"      1            0x610100     0       1   10.93%       89       89        0       89       "
	"89        0        0        0        0\n"
	"\n"
	"=================================================\n"
	"      Shared Cache Line Distribution Pareto      \n";

static void test_perf_report(void **state)
{
	struct hwc_side p, o;
	struct hwc_check c[HWC_MAX_CHECKS];
	uint64_t a, t, r;
	size_t n;

	(void)state;
	assert_int_equal(hwc_parse_c2c_table(perf_table, &a, &t, &r), 0);
	assert_true(a == 0x2001040 && t == 725 && r == 1926);
	assert_int_equal(hwc_parse_c2c_table("no table here\n", &a, &t, &r), -ENOENT);
	side(&p, "perf c2c", 1028, 725, 814, "buf1", 89.07);
	side(&o, "c2c-lite", 1028, 725, 814, "buf1", 89.07);
	p.has_line = 1;
	p.line_addr = 0x2001040;
	p.line_total = 725;
	p.line_records = 1926;
	n = hwc_compare(&p, &o, NULL, perf_table, c);
	assert_int_equal(find(c, n, "perf report")->st, HWC_OK);
	p.line_records = 1925;           /* one record fewer read from the file */
	n = hwc_compare(&p, &o, NULL, perf_table, c);
	assert_int_equal(find(c, n, "perf report")->st, HWC_FAIL);
	n = hwc_compare(&p, &o, NULL, NULL, c);
	assert_int_equal(find(c, n, "perf report")->st, HWC_SKIP);
	/* perf shows no line, ours does */
	n = hwc_compare(&p, &o, NULL, "Shared Data Cache Line Table\n#\n\n", c);
	assert_int_equal(find(c, n, "perf report")->st, HWC_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_agree),
		cmocka_unit_test(test_disagree),
		cmocka_unit_test(test_none_and_skips),
		cmocka_unit_test(test_topdown),
		cmocka_unit_test(test_perf_stat),
		cmocka_unit_test(test_perf_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
