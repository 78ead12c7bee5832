/* rate_plan() (record/rate-plan.h): the sampling rate from what the user said, the kernel's cap
 * and the soft backend's measured cost, with its source and the line that says why. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/rate-plan.h"

/* An info line is "c2c-lite: info: " and the text, at most 100 columns. */
static void assert_fits(const char *s)
{
	if (strlen("c2c-lite: info: ") + strlen(s) > 100)
		fail_msg("longer than 100 columns: %s", s);
}

/* The soft backend, default bound, no cap, a sample costing @ns. */
static struct rate_plan soft(double ns, double budget, uint64_t kernel_max)
{
	struct rate_req r = { .soft = 1, .budget = budget, .kernel_max = kernel_max,
			      .ns_per_sample = ns };
	struct rate_plan p;

	assert_int_equal(rate_plan(&r, &p), 0);
	if (p.say) {
		assert_fits(p.reason);
		assert_fits(p.detail);
	}
	return p;
}

static void test_user_and_kernel(void **state)
{
	struct rate_req r = { .ns_per_sample = -1 };
	struct rate_plan p;

	(void)state;
	/* nothing said, another backend: the default, nothing to say */
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_int_equal(p.freq, RATE_DEFAULT_HZ);
	assert_int_equal(p.source, RATE_DEFAULT);
	assert_false(p.say);
	assert_false(p.measure);
	/* a kernel cap under the default: the cap, said */
	r.kernel_max = 1000;
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_int_equal(p.freq, 1000);
	assert_int_equal(p.source, RATE_KERNEL_CAP);
	assert_true(p.say);
	assert_string_equal(p.reason, "sampling at 1000 Hz, the kernel's perf_event_max_sample_rate");
	/* ... a cap above it changes nothing */
	r.kernel_max = 100000;
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_int_equal(p.source, RATE_DEFAULT);
	/* -F up to the cap, and over it refused with the limit and the sysctl that raises it */
	r.freq = 100000;
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_int_equal(p.source, RATE_GIVEN_FREQ);
	assert_int_equal(p.freq, 100000);
	r.freq = 100001;
	assert_int_equal(rate_plan(&r, &p), -EINVAL);
	assert_string_equal(p.reason, "-F 100001 is above the kernel's limit of 100000 samples a "
			    "second; use -F 100000 or less, or raise it: sysctl -w "
			    "kernel.perf_event_max_sample_rate=100001");
	/* ... with no cap known, any -F */
	r.kernel_max = 0;
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_int_equal(p.freq, 100001);
	/* -c: a period, whatever the cap; with -F refused */
	r = (struct rate_req){ .period = 100000, .kernel_max = 10, .ns_per_sample = -1 };
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_int_equal(p.source, RATE_GIVEN_PERIOD);
	assert_int_equal(p.period, 100000);
	assert_int_equal(p.freq, 0);
	r.freq = 10;
	assert_int_equal(rate_plan(&r, &p), -EINVAL);
	assert_string_equal(p.reason, "-c and -F exclude each other");
	/* a bound chooses the rate: not with -F or -c */
	r = (struct rate_req){ .freq = 1000, .budget = 0.05, .ns_per_sample = -1 };
	assert_int_equal(rate_plan(&r, &p), -EINVAL);
	assert_string_equal(p.reason, "--soft-overhead chooses the sampling rate: not with -F");
	r = (struct rate_req){ .period = 1000, .budget = 0.05, .ns_per_sample = -1 };
	assert_int_equal(rate_plan(&r, &p), -EINVAL);
	assert_string_equal(p.reason, "--soft-overhead chooses the sampling rate: not with -c");
}

static void test_soft_measure(void **state)
{
	struct rate_req r = { .soft = 1, .ns_per_sample = -1 };
	struct rate_plan p;

	(void)state;
	/* the soft backend without -F or -c: measure, then plan again */
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_true(p.measure);
	assert_int_equal(p.freq, RATE_DEFAULT_HZ);
	/* unlimited, -F or -c: nothing to measure */
	r.budget = -1;
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_false(p.measure);
	r = (struct rate_req){ .soft = 1, .freq = 2000, .ns_per_sample = -1 };
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_false(p.measure);
	assert_int_equal(p.freq, 2000);
	r = (struct rate_req){ .soft = 1, .period = 2000, .ns_per_sample = -1 };
	assert_int_equal(rate_plan(&r, &p), 0);
	assert_false(p.measure);
	/* a measured cost of 0 (none shows): the default */
	p = soft(0, 0, 0);
	assert_int_equal(p.freq, RATE_DEFAULT_HZ);
	assert_false(p.say);
}

static void test_soft_bound(void **state)
{
	struct rate_plan p;

	(void)state;
	/* (the rate aims at SOFT_BUDGET_AIM = 0.75 of the bound: 2.25% for the default 3%) */
	/* cheap samples: the default, not said (1 us at 4000 Hz: 0.4%) */
	p = soft(1000, 0, 0);
	assert_int_equal(p.freq, 4000);
	assert_int_equal(p.source, RATE_DEFAULT);
	assert_false(p.say);
	assert_true(p.share > 0.0039 && p.share < 0.0041);
	assert_true(p.budget == SOFT_BUDGET_DEFAULT);
	/* exactly at the aim: 5.625 us x 4000 = 2.25%; just over: two significant digits down */
	assert_int_equal(soft(5625, 0, 0).freq, 4000);
	p = soft(5626, 0, 0);
	assert_int_equal(p.freq, 3900);
	assert_int_equal(p.source, RATE_CALIBRATED);
	assert_string_equal(p.reason, "soft backend: sampling at 3900 Hz: 5.6 us a sample here, 2% "
			    "at 4000 Hz (bound 3%)");
	assert_string_equal(p.detail, "");
	/* a VM of 44 us a sample: 511.4 Hz for 2.25% */
	p = soft(44000, 0, 0);
	assert_int_equal(p.freq, 510);
	assert_string_equal(p.reason, "soft backend: sampling at 510 Hz: 44 us a sample here, 18% "
			    "at 4000 Hz (bound 3%)");
	/* a 1% bound: the aim (170 Hz) would give a busy second under 200 samples; the bound
	 * itself allows 227 Hz: 200 Hz, within it */
	p = soft(44000, 0.01, 0);
	assert_int_equal(p.freq, SOFT_FREQ_WANT);
	assert_int_equal(p.source, RATE_FEW);
	assert_true(p.share <= 0.01);
	assert_string_equal(p.detail, "");
	/* the 287 us a sample: the aim is 78 Hz, the bound 104 Hz: 100 Hz, and few
	 * samples said */
	p = soft(287000, 0, 0);
	assert_int_equal(p.freq, 100);
	assert_int_equal(p.source, RATE_FEW);
	assert_true(p.share <= 0.03);
	assert_string_equal(p.reason, "soft backend: sampling at 100 Hz: 287 us a sample here, 2.9% "
			    "(bound 3%)");
	assert_string_equal(p.detail, "soft backend: about 100 samples per thread-second, few (-F "
			    "sets the rate)");
	/* the bound forbids even the floor: the floor, past the bound, said */
	p = soft(1e6, 0, 0);
	assert_int_equal(p.freq, SOFT_FREQ_MIN);
	assert_int_equal(p.source, RATE_FLOOR);
	assert_true(p.share > 0.03);
	assert_string_equal(p.reason, "soft backend: sampling at 100 Hz, the floor: 1000 us a "
			    "sample here, 10% (bound 3%)");
	assert_true(*p.detail);
	/* unlimited: any cost at the default */
	p = soft(1e6, -1, 0);
	assert_int_equal(p.freq, 4000);
	assert_false(p.say);
}

static void test_soft_and_cap(void **state)
{
	struct rate_plan p;

	(void)state;
	/* the kernel's cap is where the bound starts from */
	p = soft(44000, 0, 1000);
	assert_int_equal(p.freq, 510);
	assert_string_equal(p.reason, "soft backend: sampling at 510 Hz: 44 us a sample here, 4% at "
			    "1000 Hz (bound 3%)");
	/* a cap the bound allows: the cap, said as such */
	p = soft(44000, 0.5, 1000);
	assert_int_equal(p.freq, 1000);
	assert_int_equal(p.source, RATE_KERNEL_CAP);
	assert_true(p.say);
	assert_string_equal(p.reason, "sampling at 1000 Hz, the kernel's perf_event_max_sample_rate");
	assert_true(p.share > 0.043 && p.share < 0.045);
	/* never above the cap, even to reach 200 samples a second */
	p = soft(200000, 0, 150);
	assert_int_equal(p.freq, 150);
	assert_true(p.freq <= 150);
	p = soft(1e6, 0, 50);
	assert_int_equal(p.freq, 50);
	assert_int_equal(p.source, RATE_FLOOR);
}

/* Costs within 3x give rates within 3x (3.3x: two significant digits, rounded down, lose up
 * to 10%), and a dearer sample never a higher rate. */
static void test_soft_monotone(void **state)
{
	uint64_t prev = UINT64_MAX;

	(void)state;
	for (double ns = 100; ns < 5e6; ns *= 1.1) {
		struct rate_plan p = soft(ns, 0, 0), q = soft(3 * ns, 0, 0);

		assert_true(p.freq <= prev);
		if ((double)p.freq > 3.3 * (double)q.freq)
			fail_msg("%.0f ns: %llu Hz, 3x: %llu Hz", ns, (unsigned long long)p.freq,
				 (unsigned long long)q.freq);
		assert_true(p.freq >= SOFT_FREQ_MIN && p.freq <= RATE_DEFAULT_HZ);
		/* at or above 200 Hz the bound holds; under it, only the floor breaks it */
		if (p.source != RATE_FLOOR)
			assert_true(p.share <= SOFT_BUDGET_DEFAULT * 1.0001);
		prev = p.freq;
	}
}

/* The plan of this machine: the kernel's cap read where record, doctor and the usage text read
 * it (C2C_SYSFS_ROOT stands for /), the request kept in the plan, and a plan made again for the
 * soft backend's measured cost from that request alone: nothing else travels. */
static void test_here_and_again(void **state)
{
	char root[] = "/tmp/c2c-test-rate-XXXXXX", path[256];
	struct rate_req r = { .budget = 0.05, .ns_per_sample = -1 };
	struct rate_plan p;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/perf_event_max_sample_rate", root);
	assert_non_null(f = fopen(path, "w"));
	fputs("1000\n", f);
	fclose(f);
	setenv("C2C_SYSFS_ROOT", root, 1);
	assert_int_equal(rate_kernel_max(), 1000);
	assert_int_equal(rate_plan_here(&r, &p), 0);
	assert_int_equal(p.freq, 1000);
	assert_int_equal(p.source, RATE_KERNEL_CAP);
	assert_int_equal(p.req.kernel_max, 1000);
	assert_true(p.req.budget == 0.05);
	/* the soft backend, then its cost measured: 44 us a sample takes 4.4% at 1000 Hz, over
	 * the aim of 75% of 5%: lowered to 850 Hz, from the cap the request kept */
	assert_int_equal(rate_replan(&p, 1, -1), 0);
	assert_true(p.measure);
	assert_int_equal(rate_replan(&p, 1, 44000), 0);
	assert_int_equal(p.source, RATE_CALIBRATED);
	assert_int_equal(p.freq, 850);
	assert_int_equal(p.req.kernel_max, 1000);
	/* -F over the cap read here: refused with it */
	r = (struct rate_req){ .freq = 1001, .ns_per_sample = -1 };
	assert_int_equal(rate_plan_here(&r, &p), -EINVAL);
	assert_non_null(strstr(p.reason, "limit of 1000 samples"));
	/* no cap readable: the default, and any -F */
	unlink(path);
	r = (struct rate_req){ .ns_per_sample = -1 };
	assert_int_equal(rate_plan_here(&r, &p), 0);
	assert_int_equal(p.source, RATE_DEFAULT);
	assert_int_equal(p.freq, RATE_DEFAULT_HZ);
	unsetenv("C2C_SYSFS_ROOT");
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_and_kernel),
		cmocka_unit_test(test_soft_measure),
		cmocka_unit_test(test_soft_bound),
		cmocka_unit_test(test_soft_and_cap),
		cmocka_unit_test(test_soft_monotone),
		cmocka_unit_test(test_here_and_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
