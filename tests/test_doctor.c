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
	struct want w[6];
	const char *absent[6];     /* topics of other vendors, or folded into one row */
};

static const struct row rows[] = {
	{ __LINE__, "sapphire-rapids", 0, 1, 2, 1, {
		{ "pebs-loads", DOCTOR_OK, "mem-loads-aux leader", NULL },
		{ "pebs-stores", DOCTOR_OK, "event=0xcd,umask=0x2", NULL },
		{ "topdown", DOCTOR_OK, "8 (level 1 and 2)", NULL },
		{ "rdpmc", DOCTOR_INFO, "cpu/rdpmc=1", NULL },
	}, { "ibs", "spe", "power-mem", "hw-pmu" } },
	{ __LINE__, "skylake-sp", 0, 0, 2, 1, {
		{ "topdown", DOCTOR_NO, "PERF_METRICS", "Ice Lake" },
		{ "perf_event_paranoid", DOCTOR_INFO, "user space only", "perf_event_paranoid=1" },
	} },
	{ __LINE__, "alder-lake", 0, 0, 3, 1, {
		/* hybrid: both PMUs on one row each */
		{ "pebs-loads", DOCTOR_OK, "cpu_core/mem-loads/ (event=0xcd,umask=0x1,ldlat=3), "
		  "with the mem-loads-aux leader; cpu_atom/mem-loads/", NULL },
		{ "pebs-stores", DOCTOR_OK, "cpu_core/mem-stores/ (event=0xcd,umask=0x2); "
		  "cpu_atom/mem-stores/", NULL },
		{ "perf_event_paranoid", DOCTOR_NO, "perf_event_paranoid=3",
		  "run as root or set kernel.perf_event_paranoid=1" },
	}, { "ibs", "spe", "power-mem" } },
	{ __LINE__, "zen3", 0, 1, 2, 0, {
		{ "ibs", DOCTOR_NO, "Zen 4 extensions", "Zen 4 or newer" },
		{ "topdown", DOCTOR_NO, "cannot share a group", NULL },
	}, { "pebs-loads", "pebs-stores", "spe", "power-mem" } },
	{ __LINE__, "zen5", 0, 1, 2, 1, {
		{ "ibs", DOCTOR_OK, "load-latency filter", NULL },
	}, { "pebs-loads", "spe", "power-mem" } },
	{ __LINE__, "neoverse-n2", 0, 0, 1, 1, {
		{ "spe", DOCTOR_OK, "arm_spe_0 (type 9), min_interval 1024", "CAP_PERFMON" },
	}, { "pebs-loads", "pebs-stores", "ibs", "power-mem", "rdpmc" } },
	{ __LINE__, "power10", 0, 1, 2, 1, {
		{ "power-mem", DOCTOR_OK, "cpu/mem-loads/", NULL },
	}, { "pebs-loads", "ibs", "spe", "rdpmc" } },
	/* like this VM: only software PMUs, under a hypervisor */
	{ __LINE__, "vm-no-pmu", 1, 1, 2, 0, {
		/* one row, one fix for every hardware backend */
		{ "hw-pmu", DOCTOR_NO, "hypervisor without a virtual PMU (KVMKVMKVM): hardware "
		  "memory sampling unavailable: no AMD IBS, no TopDown", "pmu=on" },
	}, { "ibs", "topdown", "pebs-loads", "spe", "power-mem" } },
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
		for (size_t i = 0; i < 6 && t->w[i].topic; i++) {
			const struct want *w = &t->w[i];
			const struct doctor_row *dr = doctor_find(&d, w->topic);

			if (!dr || dr->st != w->st || !strstr(dr->detail, w->detail) ||
			    (w->fix ? !strstr(dr->fix, w->fix) : dr->fix[0] != '\0'))
				fail_msg("row at line %d topic %s: %s st %d detail '%s' fix '%s'",
					 t->line, w->topic, dr ? "found" : "missing", dr ? (int)dr->st : -1,
					 dr ? dr->detail : "", dr ? dr->fix : "");
		}
		for (size_t i = 0; i < 6 && t->absent[i]; i++)
			if (doctor_find(&d, t->absent[i]))
				fail_msg("row at line %d: topic %s shown", t->line, t->absent[i]);
		/* each line once: no topic, detail or fix twice */
		for (size_t i = 0; i < d.nr; i++)
			for (size_t j = i + 1; j < d.nr; j++)
				if (!strcmp(d.row[i].topic, d.row[j].topic) ||
				    !strcmp(d.row[i].detail, d.row[j].detail) ||
				    (d.row[i].fix[0] && !strcmp(d.row[i].fix, d.row[j].fix)))
					fail_msg("row at line %d: rows %zu and %zu repeat (%s, %s)",
						 t->line, i, j, d.row[i].topic, d.row[j].topic);
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
