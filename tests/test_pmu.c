/* PMU discovery and term placement (record/pmu.c, record/sysfs.c, record/cpuinfo.c) on the
 * fake sysfs trees under data/sysfs/. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "record/cpuinfo.h"
#include "record/pmu.h"
#include "record/sysfs.h"
#include "tests/fake-machine.h"

struct place_row {
	int line;
	const char *fmt;
	uint64_t val;
	int err;
	struct pmu_config want;
};

static const struct place_row place_rows[] = {
	{ __LINE__, "config:0-7", 0xcd, 0, { 0xcd, 0, 0, 0 } },
	{ __LINE__, "config:8-15", 0x1, 0, { 0x100, 0, 0, 0 } },
	{ __LINE__, "config:0-7,32-35", 0x1a0, 0, { 0x1000000a0ull, 0, 0, 0 } },
	{ __LINE__, "config:0-7,32-35", 0x1000, -ERANGE, { 0 } },
	{ __LINE__, "config1:0-15", 30, 0, { 0, 30, 0, 0 } },
	{ __LINE__, "config1:0-15", 0x10000, -ERANGE, { 0 } },
	{ __LINE__, "config2:0-11", 4095, 0, { 0, 0, 4095, 0 } },
	{ __LINE__, "config3:0-63", ~0ull, 0, { 0, 0, 0, ~0ull } },
	{ __LINE__, "config:19", 1, 0, { 1u << 19, 0, 0, 0 } },
	{ __LINE__, "config:19", 2, -ERANGE, { 0 } },
	{ __LINE__, "config:0-63", ~0ull, 0, { ~0ull, 0, 0, 0 } },
	{ __LINE__, "config:8-15,40-47", 0x1ff, 0, { 0xff00ull | (1ull << 40), 0, 0, 0 } },
	{ __LINE__, "config4:0-7", 1, -EINVAL, { 0 } },
	{ __LINE__, "config:7-0", 1, -EINVAL, { 0 } },
	{ __LINE__, "config:0-64", 1, -EINVAL, { 0 } },
	{ __LINE__, "config", 1, -EINVAL, { 0 } },
	{ __LINE__, "config:x", 1, -EINVAL, { 0 } },
};

static void test_pmu_format_place(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(place_rows) / sizeof(place_rows[0]); i++) {
		const struct place_row *r = &place_rows[i];
		struct pmu_config c = { 0 };
		int err = pmu_format_place(r->fmt, r->val, &c);

		if (err != r->err || (!err && memcmp(&c, &r->want, sizeof(c))))
			fail_msg("row at line %d: err %d config 0x%llx/0x%llx/0x%llx/0x%llx", r->line,
				 err, (unsigned long long)c.config, (unsigned long long)c.config1,
				 (unsigned long long)c.config2, (unsigned long long)c.config3);
	}
}

struct term_row {
	int line;
	const char *machine, *pmu, *terms;
	int err;
	struct pmu_config want;
};

static const struct term_row term_rows[] = {
	{ __LINE__, "skylake-sp", "cpu", "event=0xcd,umask=0x1,ldlat=3", 0, { 0x1cd, 3, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "mem-loads,ldlat=30", 0, { 0x1cd, 30, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "mem-loads,ldlat=30,ldlat=40", 0, { 0x1cd, 40, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "mem-stores", 0, { 0x82d0, 0, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "topdown-recovery-bubbles", 0, { 0x120030d, 0, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "config=0x1234,config1=7", 0, { 0x1234, 7, 0, 0 } },
	{ __LINE__, "sapphire-rapids", "cpu", "mem-loads-aux", 0, { 0x8203, 0, 0, 0 } },
	{ __LINE__, "sapphire-rapids", "cpu", "topdown-mem-bound", 0, { 0x8700, 0, 0, 0 } },
	{ __LINE__, "zen4", "cpu", "event=0x1a0,umask=0x1", 0, { 0x1000001a0ull, 0, 0, 0 } },
	{ __LINE__, "zen4", "ibs_op", "cnt_ctl=1", 0, { 0x80000, 0, 0, 0 } },
	{ __LINE__, "zen4", "ibs_op", "ldlat=128", -ENOENT, { 0 } },
	{ __LINE__, "zen5", "ibs_op", "ldlat=128", 0, { 0, 128, 0, 0 } },
	{ __LINE__, "neoverse-n2", "arm_spe_0",
	  "ts_enable=1,pa_enable=1,load_filter=1,min_latency=30", 0, { 0x200000003ull, 0, 30, 0 } },
	{ __LINE__, "power9", "cpu", "mem-loads", 0, { 0x34340401e0ull, 0, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "umask=?", -EINVAL, { 0 } },
	{ __LINE__, "skylake-sp", "cpu", "event=1,,umask=2", 0, { 0x201, 0, 0, 0 } },
	{ __LINE__, "skylake-sp", "cpu", "period=100", -ENOENT, { 0 } },
};

static void test_pmu_apply_terms(void **state)
{
	(void)state;
	c2c_log_set_hook(quiet, NULL);
	for (size_t i = 0; i < sizeof(term_rows) / sizeof(term_rows[0]); i++) {
		const struct term_row *r = &term_rows[i];
		struct pmu_config c = { 0 };
		struct pmu p;
		int err;

		set_machine(r->machine);
		assert_int_equal(pmu_open(&p, r->pmu), 0);
		err = pmu_apply_terms(&p, r->terms, &c, NULL);
		if (err != r->err || (!err && memcmp(&c, &r->want, sizeof(c))))
			fail_msg("row at line %d: err %d config 0x%llx/0x%llx/0x%llx", r->line, err,
				 (unsigned long long)c.config, (unsigned long long)c.config1,
				 (unsigned long long)c.config2);
	}
	c2c_log_set_hook(NULL, NULL);
}

static void test_pmu_extra_terms(void **state)
{
	struct pmu_term_extra x = { .inherit = -1 };
	struct pmu_config c = { 0 };
	struct pmu p;

	(void)state;
	set_machine("skylake-sp");
	assert_int_equal(pmu_open(&p, "cpu"), 0);
	assert_int_equal(pmu_apply_terms(&p, "event=0x3c,period=5000,name=cyc,no-inherit", &c, &x), 0);
	assert_int_equal(x.period, 5000);
	assert_int_equal(x.inherit, 0);
	assert_string_equal(x.name, "cyc");
}

struct open_row {
	int line;
	const char *machine, *name;
	int err;
	uint32_t type;
};

static const struct open_row open_rows[] = {
	{ __LINE__, "skylake-sp", "cpu", 0, 4 },
	{ __LINE__, "skylake-sp", "software", 0, 1 },
	{ __LINE__, "skylake-sp", "ibs_op", -ENOENT, 0 },
	{ __LINE__, "skylake-sp", "../cpu", -EINVAL, 0 },
	{ __LINE__, "alder-lake", "cpu_core", 0, 4 },
	{ __LINE__, "alder-lake", "cpu_atom", 0, 10 },
	{ __LINE__, "alder-lake", "cpu", -ENOENT, 0 },
	{ __LINE__, "zen5", "ibs_op", 0, 11 },
	{ __LINE__, "neoverse-n2", "arm_spe_0", 0, 9 },
};

static void test_pmu_open(void **state)
{
	struct pmu p;
	char **names;
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(open_rows) / sizeof(open_rows[0]); i++) {
		const struct open_row *r = &open_rows[i];
		int err;

		set_machine(r->machine);
		err = pmu_open(&p, r->name);
		if (err != r->err || (!err && p.type != r->type))
			fail_msg("row at line %d: err %d type %u", r->line, err, p.type);
	}
	set_machine("neoverse-n2");
	assert_int_equal(pmu_open_prefix(&p, "arm_spe_"), 0);
	assert_string_equal(p.name, "arm_spe_0");
	assert_int_equal(pmu_cap_u64(&p, "min_interval", 4096), 1024);
	assert_int_equal(pmu_cap_u64(&p, "nosuch", 7), 7);
	assert_int_equal(pmu_list(&names), 0);
	assert_string_equal(names[0], "arm_spe_0");
	assert_string_equal(names[1], "armv8_pmuv3_0");
	pmu_names_free(names);
	set_machine("zen5");
	assert_int_equal(pmu_open(&p, "ibs_op"), 0);
	assert_int_equal(pmu_cap(&p, "ldlat", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	assert_true(pmu_has_format(&p, "ldlat"));
	assert_false(pmu_has_alias(&p, "mem-loads"));
	set_machine("nonexistent-machine");
	assert_int_equal(pmu_list(&names), -ENOENT);
}

struct cpulist_row {
	int line;
	const char *s;
	int count;
	uint8_t want[2];
};

static const struct cpulist_row cpulist_rows[] = {
	{ __LINE__, "0-3", 4, { 0x0f, 0 } },
	{ __LINE__, "0-3,8,10-11\n", 7, { 0x0f, 0x0d } },
	{ __LINE__, "4-7", 4, { 0xf0, 0 } },
	{ __LINE__, "", 0, { 0, 0 } },
	{ __LINE__, "3-1", -EINVAL, { 0 } },
	{ __LINE__, "a", -EINVAL, { 0 } },
	{ __LINE__, "0-16", -EINVAL, { 0 } },
	{ __LINE__, "1,1", 1, { 0x02, 0 } },
};

static void test_sysfs_cpulist(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cpulist_rows) / sizeof(cpulist_rows[0]); i++) {
		const struct cpulist_row *r = &cpulist_rows[i];
		uint8_t bm[2] = { 0 };
		int n = sysfs_parse_cpulist(r->s, bm, 16);

		if (n != r->count || (n >= 0 && memcmp(bm, r->want, 2)))
			fail_msg("row at line %d: count %d bitmap %02x %02x", r->line, n, bm[0], bm[1]);
	}
}

struct cpuinfo_row {
	int line;
	const char *machine;
	enum cpu_vendor vendor;
	const char *vendor_str;
	uint32_t family, model, nr_cpus;
};

static const struct cpuinfo_row cpuinfo_rows[] = {
	{ __LINE__, "skylake-sp", CPU_VENDOR_INTEL, "GenuineIntel", 6, 85, 4 },
	{ __LINE__, "sapphire-rapids", CPU_VENDOR_INTEL, "GenuineIntel", 6, 143, 4 },
	{ __LINE__, "alder-lake", CPU_VENDOR_INTEL, "GenuineIntel", 6, 151, 8 },
	{ __LINE__, "zen3", CPU_VENDOR_AMD, "AuthenticAMD", 25, 1, 4 },
	{ __LINE__, "zen5", CPU_VENDOR_AMD, "AuthenticAMD", 26, 2, 4 },
	{ __LINE__, "neoverse-n2", CPU_VENDOR_ARM, "ARM", 8, 0xd49, 4 },
	{ __LINE__, "power9", CPU_VENDOR_IBM, "IBM", 0, 9, 4 },
	{ __LINE__, "power10", CPU_VENDOR_IBM, "IBM", 0, 10, 4 },
};

static void test_cpuinfo_machines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cpuinfo_rows) / sizeof(cpuinfo_rows[0]); i++) {
		const struct cpuinfo_row *r = &cpuinfo_rows[i];
		struct cpuinfo ci;

		set_machine(r->machine);
		assert_int_equal(cpuinfo_read(&ci), 0);
		if (ci.vendor != r->vendor || strcmp(ci.vendor_str, r->vendor_str) ||
		    ci.family != r->family || ci.model != r->model || ci.nr_cpus != r->nr_cpus)
			fail_msg("row at line %d: vendor %d '%s' family %u model %u cpus %u", r->line,
				 ci.vendor, ci.vendor_str, ci.family, ci.model, ci.nr_cpus);
	}
}

static void test_sysfs_read(void **state)
{
	uint64_t v;
	char line[64];

	(void)state;
	set_machine("skylake-sp");
	assert_int_equal(sysfs_read_u64("/sys/bus/event_source/devices/cpu/type", &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(sysfs_read_u64("/sys/bus/event_source/devices/cpu/caps/pmu_name", &v),
			 -EINVAL);
	assert_int_equal(sysfs_read_line("/sys/devices/system/node/node1/cpulist", line,
					 sizeof(line)), 0);
	assert_string_equal(line, "2-3");
	assert_int_equal(sysfs_read_line("/nonexistent", line, sizeof(line)), -ENOENT);
	assert_true(sysfs_exists("/proc/cpuinfo"));
	unsetenv("C2C_SYSFS_ROOT");
	assert_string_equal(sysfs_root(), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_format_place),
		cmocka_unit_test(test_pmu_apply_terms),
		cmocka_unit_test(test_pmu_extra_terms),
		cmocka_unit_test(test_pmu_open),
		cmocka_unit_test(test_sysfs_cpulist),
		cmocka_unit_test(test_cpuinfo_machines),
		cmocka_unit_test(test_sysfs_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
