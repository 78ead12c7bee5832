/* Doctor rows (record/doctor.c) for fake machines (data/sysfs/<machine>) and injected cpuid
 * facts: each backend's verdict, its reason and its fix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record/doctor.h"

struct want {
	const char *topic;
	enum doctor_status st;
	const char *detail;        /* substring */
	const char *fix;           /* substring, NULL: no fix expected */
};

struct row {
	int line;
	const char *machine;
	int hypervisor, privileged, paranoid;
	int hw_memory;
	struct want w[8];
};

static const struct row rows[] = {
	{ __LINE__, "sapphire-rapids", 0, 1, 2, 1, {
		{ "pebs-loads", DOCTOR_OK, "mem-loads-aux leader", NULL },
		{ "amd-uncore", DOCTOR_NO, "not available on GenuineIntel", NULL },
		{ "pebs-stores", DOCTOR_OK, "event=0xcd,umask=0x2", NULL },
		{ "topdown", DOCTOR_OK, "8 (level 1 and 2)", NULL },
		{ "topdown-stat", DOCTOR_INFO, "Intel PERF_METRICS model, 9 counters (cpu/slots/ ...)", NULL },
		{ "ibs", DOCTOR_NO, "not available on GenuineIntel", NULL },
		{ "rdpmc", DOCTOR_INFO, "cpu/rdpmc=1", NULL },
	} },
	{ __LINE__, "skylake-sp", 0, 0, 2, 1, {
		{ "topdown", DOCTOR_NO, "PERF_METRICS", "Ice Lake" },
		{ "perf_event_paranoid", DOCTOR_INFO, "user space only", "perf_event_paranoid=1" },
	} },
	{ __LINE__, "alder-lake", 0, 0, 3, 1, {
		{ "pebs-loads", DOCTOR_OK, "cpu_core/mem-loads/", NULL },
		{ "perf_event_paranoid", DOCTOR_NO, "perf_event_paranoid=3",
		  "run as root or set kernel.perf_event_paranoid=1" },
	} },
	{ __LINE__, "zen3", 0, 1, 2, 0, {
		{ "ibs", DOCTOR_NO, "Zen 4 extensions", "Zen 4 or newer" },
		{ "topdown", DOCTOR_NO, "cannot share a group", NULL },
		{ "topdown-stat", DOCTOR_NO, "is Zen 3: it has no per-slot dispatch events", NULL },
		{ "amd-uncore", DOCTOR_NO, "no amd_l3 PMU", NULL },
	} },
	{ __LINE__, "zen2", 0, 0, 2, 0, {
		{ "amd-uncore", DOCTOR_INFO, "4 L3 counters (amd_l3) and 12 DRAM/link counters",
		  "perf_event_paranoid=0" },
		{ "topdown-stat", DOCTOR_NO, "Zen 4 or newer", NULL },
	} },
	{ __LINE__, "zen5", 0, 1, 2, 1, {
		{ "ibs", DOCTOR_OK, "load-latency filter", NULL },
		{ "topdown-stat", DOCTOR_INFO, "Zen 5 model, 10 counters (cpu/ls_not_halted_cyc/ ...)", NULL },
		{ "amd-uncore", DOCTOR_NO, "no amd_l3 PMU", NULL },
	} },
	{ __LINE__, "neoverse-n2", 0, 0, 1, 1, {
		{ "spe", DOCTOR_OK, "arm_spe_0 (type 9), min_interval 1024", "CAP_PERFMON" },
		{ "topdown-stat", DOCTOR_INFO, "Neoverse N2 model, 6 counters", NULL },
		{ "pebs-loads", DOCTOR_NO, "not available on ARM", NULL },
	} },
	{ __LINE__, "power10", 0, 1, 2, 1, {
		{ "power-mem", DOCTOR_OK, "cpu/mem-loads/", NULL },
	} },
	/* like this VM: only software PMUs, under a hypervisor */
	{ __LINE__, "vm-no-pmu", 1, 1, 2, 0, {
		{ "ibs", DOCTOR_NO, "hypervisor without a virtual PMU", "-e page-faults" },
		{ "topdown", DOCTOR_NO, "hypervisor without a virtual PMU", "pmu=on" },
		{ "pebs-loads", DOCTOR_NO, "not available on AuthenticAMD", NULL },
		{ "topdown-stat", DOCTOR_NO, "Zen 5: no core PMU", NULL },
		{ "region-markers", DOCTOR_INFO, "not probed", NULL },
	} },
};

static void test_doctor_machines(void **state)
{
	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct row *t = &rows[r];
		struct doctor_env env = { .privileged = t->privileged, .paranoid = t->paranoid };
		struct doctor d;
		char root[128];

		snprintf(root, sizeof(root), "data/sysfs/%s", t->machine);
		setenv("C2C_SYSFS_ROOT", root, 1);
		env.cpuid.valid = 1;
		env.cpuid.hypervisor = t->hypervisor;
		snprintf(env.cpuid.hv_vendor, sizeof(env.cpuid.hv_vendor), "KVMKVMKVM");
		assert_int_equal(doctor_run(&d, &env), 0);
		if (d.hw_memory != t->hw_memory)
			fail_msg("row at line %d: hw_memory %d", t->line, d.hw_memory);
		for (size_t i = 0; i < 8 && t->w[i].topic; i++) {
			const struct want *w = &t->w[i];
			const struct doctor_row *dr = doctor_find(&d, w->topic);

			if (!dr || dr->st != w->st || !strstr(dr->detail, w->detail) ||
			    (w->fix ? !strstr(dr->fix, w->fix) : dr->fix[0] != '\0'))
				fail_msg("row at line %d topic %s: %s st %d detail '%s' fix '%s'",
					 t->line, w->topic, dr ? "found" : "missing", dr ? (int)dr->st : -1,
					 dr ? dr->detail : "", dr ? dr->fix : "");
		}
		doctor_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
