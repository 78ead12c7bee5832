/* The SPE facts blob (lib/spe.c: text form, parser, perf's clock conversion) and the recorder's
 * MIDR gathering (record/spe-info.c) on the fake Neoverse trees of data/sysfs/. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/spe.h"
#include "c2c/trace.h"
#include "record/ring.h"
#include "record/spe-info.h"

static void fill(struct c2c_spe_info *in)
{
	c2c_spe_info_init(in);
	snprintf(in->pmu, sizeof(in->pmu), "arm_spe_0");
	in->pmu_type = 10;
	in->per_cpu = 1;
	in->switch_events = 1;
	in->min_interval = 1024;
	in->count_size = 12;
	in->ernd = 0;
	in->aux_bytes = 4 << 20;
	in->cpuid_midr = 0x413fd0c1;
	c2c_spe_info_set_midr(in, 3, 0x411fd401);
	c2c_spe_info_set_midr(in, 0, 0x413fd0c1);
	c2c_spe_info_set_midr(in, 8191, 0x410fd490);
	c2c_spe_info_set_midr(in, 3, 0x410fd490);       /* replaces */
	in->tc = (struct c2c_time_conv){ .time_shift = 31, .time_mult = 0xffffffffu,
					 .time_zero = UINT64_MAX, .time_cycles = 1ull << 40,
					 .time_mask = UINT64_MAX >> 8, .cap_user_time_zero = 1,
					 .cap_user_time_short = 1 };
}

static void test_spe_info_roundtrip(void **state)
{
	struct c2c_spe_info in, out;
	char *text;
	size_t n;

	(void)state;
	fill(&in);
	assert_int_equal(in.nr_midr, 3);
	n = c2c_spe_info_format(&in, &text);
	assert_int_equal(n, strlen(text));
	assert_non_null(strstr(text, "c2c-spe-info 1\npmu arm_spe_0\npmu_type 10\n"));
	assert_non_null(strstr(text, "midr 3 0x00000000410fd490\n"));
	assert_null(strstr(text, "arch_inst"));                /* absent cap, absent line */
	assert_int_equal(c2c_spe_info_parse(text, n, &out), 0);
	assert_string_equal(out.pmu, "arm_spe_0");
	assert_int_equal(out.pmu_type, 10);
	assert_int_equal(out.per_cpu, 1);
	assert_int_equal(out.switch_events, 1);
	assert_int_equal(out.min_interval, 1024);
	assert_int_equal(out.count_size, 12);
	assert_int_equal(out.ernd, 0);
	assert_int_equal(out.arch_inst, UINT64_MAX);
	assert_int_equal(out.aux_bytes, 4 << 20);
	assert_int_equal(out.cpuid_midr, 0x413fd0c1);
	assert_int_equal(out.nr_midr, 3);
	assert_int_equal(c2c_spe_info_midr(&out, 0), 0x413fd0c1);
	assert_int_equal(c2c_spe_info_midr(&out, 3), 0x410fd490);
	assert_int_equal(c2c_spe_info_midr(&out, 8191), 0x410fd490);
	assert_int_equal(c2c_spe_info_midr(&out, 1), 0);
	assert_memory_equal(&out.tc, &in.tc, sizeof(in.tc));
	free(text);
	c2c_spe_info_release(&in);
	c2c_spe_info_release(&out);
}

static void test_spe_info_bad(void **state)
{
	static const char *const bad[] = {
		"", "c2c-spe-info 2\n", "pmu_type 1\n", "c2c-spe-info 1\npmu_type x\n",
		"c2c-spe-info 1\npmu_type 4294967296\n", "c2c-spe-info 1\nper_cpu 2\n",
		"c2c-spe-info 1\nmidr 8192 0x1\n", "c2c-spe-info 1\nmidr 1\n",
		"c2c-spe-info 1\nmidr 1 0x1 2\n", "c2c-spe-info 1\ntime_shift 64\n",
		"c2c-spe-info 1\nnospace\n", "c2c-spe-info 1\ntime_mult -1\n",
	};
	static const char ok[] = "c2c-spe-info 1\nlater_key anything at all\n\npmu_type 7";
	struct c2c_spe_info out;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (c2c_spe_info_parse(bad[i], strlen(bad[i]), &out) != -EBADMSG)
			fail_msg("'%s' parsed", bad[i]);
	assert_int_equal(c2c_spe_info_parse(ok, sizeof(ok) - 1, &out), 0);
	assert_int_equal(out.pmu_type, 7);
	c2c_spe_info_release(&out);
	/* a NUL inside the text is corruption, not the end of a line */
	assert_int_equal(c2c_spe_info_parse("c2c-spe-info 1\npmu_type 7\0x\n", 27, &out), -EBADMSG);
}

/* perf's tsc_to_perf_time(), worked by hand. */
static void test_time_conv(void **state)
{
	struct c2c_time_conv tc = { .time_shift = 10, .time_mult = 1000, .time_zero = 5,
				    .cap_user_time_zero = 1 };

	(void)state;
	/* 3000 = 2 << 10 | 952: 5 + 2 * 1000 + (952 * 1000 >> 10) = 2005 + 929 */
	assert_int_equal(c2c_time_conv_to_ns(&tc, 3000), 2934);
	/* short counters: cycles counted from time_cycles within time_mask */
	tc.cap_user_time_short = 1;
	tc.time_cycles = 1 << 20;
	tc.time_mask = 0xfff;
	/* (1 << 20) + ((0x12345 - (1 << 20)) & 0xfff) = 0x100345 */
	assert_int_equal(c2c_time_conv_to_ns(&tc, 0x12345), 5 + (0x100345ull >> 10) * 1000 +
			 ((0x100345ull & 1023) * 1000 >> 10));
	/* no TIME_CONV: perf converts with zeros */
	tc.cap_user_time_zero = 0;
	assert_int_equal(c2c_time_conv_to_ns(&tc, 123456), 0);
}

static void set_root(const char *m)
{
	char root[256];

	snprintf(root, sizeof(root), "data/sysfs/%s", m);
	setenv("C2C_SYSFS_ROOT", root, 1);
}

static void test_midr_sysfs_trees(void **state)
{
	static const struct { const char *machine; int ncpu; uint64_t midr; } rows[] = {
		{ "neoverse-n1", 4, 0x413fd0c1 },
		{ "neoverse-v1", 8, 0x411fd401 },
		{ "neoverse-n2", 4, 0x410fd490 },
	};
	int cpus[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct c2c_spe_info in;

		c2c_spe_info_init(&in);
		set_root(rows[r].machine);
		spe_info_midrs(&in, cpus, rows[r].ncpu);
		assert_int_equal(in.nr_midr, rows[r].ncpu);
		assert_int_equal(in.cpuid_midr, rows[r].midr);
		for (int c = 0; c < rows[r].ncpu; c++)
			assert_int_equal(c2c_spe_info_midr(&in, (uint32_t)c), rows[r].midr);
		c2c_spe_info_release(&in);
	}
	unsetenv("C2C_SYSFS_ROOT");
}

/* /proc/cpuinfo gives the MIDR when sysfs does not: implementer, variant, 0xf, part, revision. */
static void test_midr_cpuinfo(void **state)
{
	static const char text[] =
		"processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n"
		"CPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
		"processor\t: 5\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n"
		"CPU part\t: 0xd49\nCPU revision\t: 0\n\n"
		"processor\t: 6\nCPU implementer\t: 0xc0\nCPU variant\t: 0x1\n"   /* no part */
		"CPU revision\t: 2\n\n"
		"processor\t: 7\nCPU implementer\t: 0xc0\nCPU architecture: 8\nCPU variant\t: 0x1\n"
		"CPU part\t: 0xac4\nCPU revision\t: 2";                           /* no newline */
	struct c2c_spe_info in;

	(void)state;
	c2c_spe_info_init(&in);
	assert_int_equal(spe_midr_cpuinfo(text, &in), 3);
	assert_int_equal(c2c_spe_info_midr(&in, 0), 0x413fd0c1);
	assert_int_equal(c2c_spe_info_midr(&in, 5), 0x410fd490);
	assert_int_equal(c2c_spe_info_midr(&in, 6), 0);
	assert_int_equal(c2c_spe_info_midr(&in, 7), 0xc01fac42);
	c2c_spe_info_release(&in);
}

/* The conversion read from a real perf_event_mmap_page turns this CPU's counter into perf time:
 * a COMM record's timestamp lies between two converted counter reads around it. Runs where the
 * kernel publishes cap_user_time_zero (x86 with the TSC as sched_clock; arm64 always). */
static uint64_t counter(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0; isb" : "=r"(v));
	return v;
#else
	return 0;
#endif
}

static void test_time_conv_real_kernel(void **state)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_DUMMY, .comm = 1, .sample_id_all = 1,
				     .sample_type = PERF_SAMPLE_TIME, .exclude_kernel = 1 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct c2c_time_conv tc;
	uint64_t before, after, t = 0;
	struct ring r;
	void *base;
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);

	(void)state;
	if (fd < 0)
		skip();
	base = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(base != MAP_FAILED);
	assert_int_equal(ring_init(&r, base, page, page), 0);
	assert_int_equal(ring_time_conv(&r, &tc), 0);
	if (!tc.cap_user_time_zero || !counter()) {
		ring_unmap(&r);
		munmap(base, 2 * page);
		close(fd);
		skip();          /* e.g. a VM whose sched_clock is not the TSC (this build machine) */
	}
	before = c2c_time_conv_to_ns(&tc, counter());
	prctl(PR_SET_NAME, "spe-tc-test");
	after = c2c_time_conv_to_ns(&tc, counter());
	for (uint64_t pos = 0; pos < r.pc->data_head;) {
		const struct perf_event_header *h = (const void *)(r.data + pos);

		if (h->type == PERF_RECORD_COMM)
			memcpy(&t, (const uint8_t *)h + h->size - 8, 8);
		pos += h->size;
	}
	assert_true(t != 0);
	if (t < before || t > after)
		fail_msg("COMM at %llu ns, counter reads converted to %llu and %llu",
			 (unsigned long long)t, (unsigned long long)before,
			 (unsigned long long)after);
	ring_unmap(&r);
	munmap(base, 2 * page);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spe_info_roundtrip),
		cmocka_unit_test(test_spe_info_bad),
		cmocka_unit_test(test_time_conv),
		cmocka_unit_test(test_midr_sysfs_trees),
		cmocka_unit_test(test_midr_cpuinfo),
		cmocka_unit_test(test_time_conv_real_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
