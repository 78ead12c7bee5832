/* Doctor rows (record/doctor.c) for fake machines (data/sysfs/<machine>) and injected cpuid
 * facts: each backend's verdict, its reason and its fix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
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
	struct doctor_kernel kernel;   /* what /proc/cmdline and /proc/config.gz would say */
	const char *absent[6];     /* topics of other vendors, or folded into one row */
};

static const struct row rows[] = {
	{ __LINE__, "sapphire-rapids", 0, 1, 2, 1, {
		{ "pebs-loads", DOCTOR_OK, "mem-loads-aux leader", NULL },
		{ "pebs-stores", DOCTOR_OK, "event=0xcd,umask=0x2", NULL },
		{ "topdown", DOCTOR_OK, "8 (level 1 and 2)", NULL },
		{ "topdown-stat", DOCTOR_INFO, "Intel PERF_METRICS model, 9 counters (cpu/slots/ ...), "
		  "not probed; level 1 and 2", NULL },
		{ "rdpmc", DOCTOR_INFO, "cpu/rdpmc=1", NULL },
	}, .absent = { "ibs", "spe", "power-mem", "hw-pmu", "amd-uncore" } },
	{ __LINE__, "skylake-sp", 0, 0, 2, 1, {
		{ "topdown", DOCTOR_NO, "PERF_METRICS arrived with Ice Lake); older TopDown needs 5 "
		  "counters beside the PEBS event (stat --topdown counts them)", "Ice Lake" },
		{ "topdown-stat", DOCTOR_INFO, "Intel 4-wide (pre-Ice Lake) model, 5 counters", NULL },
		{ "topdown-stat", DOCTOR_INFO, "; level 1 only: the five pre-Ice Lake TopDown events "
		  "have no level 2", NULL },
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
	}, .absent = { "ibs", "spe", "power-mem" } },
	{ __LINE__, "zen3", 0, 1, 2, 0, {
		{ "ibs", DOCTOR_NO, "Zen 4 extensions", "Zen 4 or newer" },
		{ "topdown", DOCTOR_NO, "record --topdown beside IBS: AMD family 0x19 model 0x1 is Zen 3",
		  NULL },
		{ "topdown-stat", DOCTOR_NO, "is Zen 3: it has no per-slot dispatch events", NULL },
		{ "amd-uncore", DOCTOR_INFO, "12 DRAM/link counters (amd_df on CPU 0; Zen 3: 8 DRAM "
		  "channels, 4 remote links (out); perf's amdzen3 data-fabric.json)", NULL },
	}, .absent = { "pebs-loads", "pebs-stores", "spe", "power-mem" } },
	{ __LINE__, "zen2", 0, 0, 2, 0, {
		{ "amd-uncore", DOCTOR_INFO, "record adds 4 L3 counters (amd_l3 on CPUs 0,2, a CCX "
		  "each) and 12 DRAM/link counters (amd_df on CPU 0; family 17h: 8 DRAM channels, 4 "
		  "remote links (out); seed 004", "perf_event_paranoid=0" },
		{ "topdown-stat", DOCTOR_NO, "Zen 4 or newer", NULL },
	}, .absent = { "pebs-loads", "pebs-stores", "spe", "power-mem" } },
	{ __LINE__, "zen5", 0, 1, 2, 1, {
		{ "ibs", DOCTOR_OK, "load-latency filter", NULL },
		{ "topdown-stat", DOCTOR_INFO, "Zen 5 model, 12 counters (cpu/ls_not_halted_cyc/ ...), "
		  "not probed; level 1 and 2", NULL },
		{ "topdown", DOCTOR_INFO, "record --topdown: the Zen 5 level-1 counters on cpu/, a "
		  "group of their own beside IBS read every 1000000 cycles", "-a counts per CPU" },
		{ "amd-uncore", DOCTOR_INFO, "36 DRAM/link counters (amd_df on CPU 0; Zen 5: 12 DRAM "
		  "channels (read, write), 6 xGMI links (in, out); perf's amdzen5 data-fabric.json) "
		  "to the trace", NULL },
	}, .absent = { "pebs-loads", "spe", "power-mem" } },
	{ __LINE__, "zen4", 0, 0, 0, 1, {
		{ "amd-uncore", DOCTOR_INFO, "4 L3 counters (amd_l3 on CPUs 0,2, a CCX each) and 56 "
		  "DRAM/link counters (amd_df on CPU 0; Zen 4: 12 DRAM channels (read, write), 8 xGMI "
		  "links (out); perf's amdzen4 data-fabric.json) to the trace", NULL },
	}, .absent = { "pebs-loads", "spe", "power-mem" } },
	{ __LINE__, "neoverse-n2", 0, 0, 1, 1, {
		{ "spe", DOCTOR_OK, "arm_spe_0 (type 9) on CPUs 0-3; min_interval 1024", NULL },
		{ "spe-pa", DOCTOR_INFO, "pa_enable needs CAP_PERFMON", "CAP_PERFMON" },
		{ "spe-access", DOCTOR_INFO, "own tasks only (no -a); 128 KiB AUX area",
		  "perf_event_paranoid=0 for -a" },
		{ "topdown-stat", DOCTOR_INFO, "Neoverse N2 model, 6 counters (armv8_pmuv3_0/cpu_cycles/ "
		  "...), not probed; level 1 only: Arm publishes no level 2 for Neoverse N2 (its "
		  "telemetry specification and perf's metrics stop at Topdown_L1", NULL },
		{ "topdown", DOCTOR_INFO, "the Neoverse N2 level-1 counters on armv8_pmuv3_0/, a group "
		  "of their own beside SPE", "-a counts per CPU" },
	}, .absent = { "pebs-loads", "pebs-stores", "ibs", "power-mem", "rdpmc", "amd-uncore" } },
	/* Arm SPE: what perf_event_paranoid, CAP_PERFMON and the kernel's options leave of it */
	{ __LINE__, "neoverse-n1", 0, 1, 2, 1, {
		{ "spe", DOCTOR_OK, "arm_spe_0 (type 10) on CPUs 0-3", NULL },
		{ "spe-pa", DOCTOR_OK, "physical data addresses", NULL },
		{ "spe-access", DOCTOR_OK, "root or CAP_PERFMON: user and kernel, per task or -a; "
		  "4 MiB AUX area per CPU; CONTEXT packets name each record's thread "
		  "(CONFIG_PID_IN_CONTEXTIDR=y)", NULL },
	}, { .kpti = -1, .spe_pmu = 'y', .pid_in_contextidr = 'y' } },
	{ __LINE__, "neoverse-v1", 0, 1, 2, 1, {
		{ "spe-access", DOCTOR_OK, "no CONTEXT packets (CONFIG_PID_IN_CONTEXTIDR is not set)",
		  NULL },
	}, { .kpti = -1, .spe_pmu = 'y', .pid_in_contextidr = 'n' } },
	{ __LINE__, "neoverse-v1", 0, 0, 2, 1, {
		{ "spe-pa", DOCTOR_INFO, "whatever perf_event_paranoid says", "cap_perfmon" },
		{ "spe-access", DOCTOR_INFO, "user space only (record falls back to it), own tasks "
		  "only (no -a); 128 KiB AUX area and 256 KiB ring per CPU (perf's unprivileged "
		  "sizes, within kernel.perf_event_mlock_kb); no CONTEXT packets without CAP_PERFMON, "
		  "so threads come from the context-switch records", "=1 for kernel samples" },
	} },
	{ __LINE__, "neoverse-v1", 0, 0, -1, 1, {
		{ "spe-access", DOCTOR_OK, "per task or -a; 4 MiB AUX area per CPU; no CONTEXT "
		  "packets without CAP_PERFMON", NULL },
	} },
	{ __LINE__, "neoverse-v1", 0, 0, 0, 1, {
		{ "spe-access", DOCTOR_OK, "per task or -a; 128 KiB AUX area", NULL },
	} },
	{ __LINE__, "neoverse-n1", 0, 0, 3, 1, {
		{ "spe-access", DOCTOR_NO, "perf_event_paranoid=3: no SPE recording",
		  "perf_event_paranoid=1" },
	} },
	{ __LINE__, "neoverse-n1-nospe", 0, 1, 2, 0, {
		{ "spe", DOCTOR_NO, "driver is loaded but registered no 'arm_spe_*' PMU: the "
		  "command line forces kpti=1", "kpti=off" },
	}, { .kpti = 1 } },
	{ __LINE__, "neoverse-n1-nospe", 0, 1, 2, 0, {
		{ "spe", DOCTOR_NO, "unmapped at EL0 (KPTI), or the firmware", "profiling buffer "
		  "inaccessible" },
	}, { .kpti = -1 } },
	{ __LINE__, "neoverse-n1-nodrv", 0, 1, 2, 0, {
		{ "spe", DOCTOR_NO, "as a module (CONFIG_ARM_SPE_PMU=m)", "modprobe arm_spe_pmu" },
	}, { .kpti = -1, .spe_pmu = 'm' } },
	{ __LINE__, "neoverse-n1-nodrv", 0, 1, 2, 0, {
		{ "spe", DOCTOR_NO, "built without the SPE driver", "CONFIG_ARM_SPE_PMU" },
	}, { .kpti = -1, .spe_pmu = 'n' } },
	{ __LINE__, "neoverse-n1-nodrv", 0, 1, 2, 0, {
		{ "spe", DOCTOR_NO, "no /proc/config.gz", "modprobe arm_spe_pmu, or" },
		{ "spe-pa", DOCTOR_NO, NULL, NULL },   /* no row: nothing to say without a PMU */
	}, { .kpti = -1 } },
	{ __LINE__, "power10", 0, 1, 2, 1, {
		{ "power-mem", DOCTOR_OK, "cpu/mem-loads/", NULL },
	}, .absent = { "pebs-loads", "ibs", "spe", "rdpmc" } },
	/* like this VM: only software PMUs, under a hypervisor */
	{ __LINE__, "vm-no-pmu", 1, 1, 2, 0, {
		/* one row, one fix for every hardware backend */
		{ "hw-pmu", DOCTOR_NO, "hypervisor without a virtual PMU (KVMKVMKVM): hardware "
		  "memory sampling unavailable: no AMD IBS, no TopDown", "pmu=on" },
		{ "topdown-stat", DOCTOR_NO, "Zen 5: no core PMU", NULL },
		{ "region-markers", DOCTOR_INFO, "not probed", NULL },
		{ "amd-uncore", DOCTOR_NO, "no amd_l3 PMU: no L3 counts", NULL },
	}, .absent = { "ibs", "topdown", "pebs-loads", "spe", "power-mem" } },
};

static void test_doctor_machines(void **state)
{
	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct row *t = &rows[r];
		struct doctor_env env = { .privileged = t->privileged, .paranoid = t->paranoid,
					  .kernel = t->kernel };
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

			if (!w->detail) {
				if (dr)
					fail_msg("row at line %d: unexpected topic %s", t->line,
						 w->topic);
				continue;
			}
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

/* The kernel facts read from a temporary root holding @cmdline as /proc/cmdline and @config as
 * /proc/config.gz (gzipped, or the first @raw bytes of it as they are when @raw is not 0). */
static void facts(const char *cmdline, const char *config, size_t raw, struct doctor_kernel *k)
{
	char root[] = "/tmp/c2c-test-doctor-XXXXXX", path[256];
	gzFile g;
	FILE *f;

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0700), 0);
	if (cmdline) {
		snprintf(path, sizeof(path), "%s/proc/cmdline", root);
		assert_non_null(f = fopen(path, "w"));
		fputs(cmdline, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/proc/config.gz", root);
	if (config && raw) {
		assert_non_null(f = fopen(path, "wb"));
		assert_int_equal(fwrite(config, 1, raw, f), raw);
		fclose(f);
	} else if (config) {
		assert_non_null(g = gzopen(path, "wb"));
		assert_true(gzputs(g, config) > 0);
		assert_int_equal(gzclose(g), Z_OK);
	}
	setenv("C2C_SYSFS_ROOT", root, 1);
	doctor_kernel_read(k);
	unsetenv("C2C_SYSFS_ROOT");
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
}

/* kpti= on the command line and a gzipped .config, whose lines longer than the reader's buffer
 * must not be taken for options. */
static void test_doctor_kernel_facts(void **state)
{
	char config[2048];
	struct doctor_kernel k;

	(void)state;
	assert_int_equal(doctor_kconfig_line("CONFIG_ARM_SPE_PMU=m\n", "CONFIG_ARM_SPE_PMU"), 'm');
	assert_int_equal(doctor_kconfig_line("CONFIG_ARM_SPE_PMU=y", "CONFIG_ARM_SPE_PMU"), 'y');
	assert_int_equal(doctor_kconfig_line("# CONFIG_ARM_SPE_PMU is not set\n",
					     "CONFIG_ARM_SPE_PMU"), 'n');
	assert_int_equal(doctor_kconfig_line("CONFIG_ARM_SPE_PMUX=y", "CONFIG_ARM_SPE_PMU"), 0);
	assert_int_equal(doctor_kconfig_line("CONFIG_ARM_SPE_PMU=\"y\"", "CONFIG_ARM_SPE_PMU"), 0);

	/* a whole config: what it names, and 'n' for what it does not; a long CMDLINE string
	 * whose second piece looks like an option is not one */
	snprintf(config, sizeof(config), "CONFIG_ARM64=y\nCONFIG_CMDLINE=\"%0*d"
		 "CONFIG_PID_IN_CONTEXTIDR=y\"\nCONFIG_ARM_SPE_PMU=m\n", 511 - 16, 0);
	facts("BOOT_IMAGE=/vmlinuz root=/dev/sda1 nokpti=1 kpti=off quiet\n", config, 0, &k);
	assert_int_equal(k.kpti, 0);
	assert_int_equal(k.spe_pmu, 'm');
	assert_int_equal(k.pid_in_contextidr, 'n');

	facts("root=/dev/vda kpti=1\n", "# CONFIG_ARM_SPE_PMU is not set\n"
	      "CONFIG_PID_IN_CONTEXTIDR=y\n", 0, &k);
	assert_int_equal(k.kpti, 1);
	assert_int_equal(k.spe_pmu, 'n');
	assert_int_equal(k.pid_in_contextidr, 'y');

	/* no files: nothing known; a config.gz cut short: nothing known either */
	facts(NULL, NULL, 0, &k);
	assert_int_equal(k.kpti, -1);
	assert_int_equal(k.spe_pmu, 0);
	facts("kpti=on", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x73\x76", 12, &k);
	assert_int_equal(k.kpti, 1);
	assert_int_equal(k.spe_pmu, 0);
	assert_int_equal(k.pid_in_contextidr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor_machines),
		cmocka_unit_test(test_doctor_kernel_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
