/* Tests of record/stat.c on the fake machines in data/sysfs/: every attr the TopDown counters of
 * `stat --topdown` open (Sapphire Rapids, Ice Lake, Zen 4, Zen 5, Neoverse N2, Alder Lake), the
 * reasons where TopDown cannot be counted (Zen 3, Skylake, a VM without a PMU), and how the plan
 * opens its groups, falls back to user space at perf_event_paranoid 2 and lists the counters that
 * did not open (perf_event_open replaced below). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "record/stat.h"
#include "record/sys.h"
#include "tests/fake-machine.h"

/* --- a fake perf_event_open (this file's definition wins over libc2c.a's sys.o) ---------------- */

static struct {
	int fail_errno;               /* every open fails with it */
	int no_kernel_errno;          /* opens counting kernel time fail with it */
	int calls;
	struct { struct perf_event_attr a; int pid, cpu, group; } call[64];
} fake;

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	(void)flags;
	if (fake.calls < 64)
		fake.call[fake.calls] = (typeof(fake.call[0])){ *attr, pid, cpu, group_fd };
	fake.calls++;
	if (fake.fail_errno || (fake.no_kernel_errno && !attr->exclude_kernel)) {
		errno = fake.fail_errno ? fake.fail_errno : fake.no_kernel_errno;
		return -1;
	}
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* --- the plans ------------------------------------------------------------------------------ */

struct want_ev {
	const char *name;
	uint32_t type;
	uint64_t config;
	int leader;
	int td_in;
};

struct machine {
	int line;
	const char *machine;
	const char *cpu;               /* model name, NULL: refused */
	const char *why;               /* substring of td_why when refused */
	const char *missing;           /* substring of td_missing when refused */
	int has_cpus;
	struct want_ev ev[12];         /* after the 4 software defaults */
};

#define SW 4     /* the software defaults come first */

static const struct machine machines[] = {
	{ __LINE__, "sapphire-rapids", "Intel PERF_METRICS", NULL, NULL, 0, {
		{ "cpu/slots/", 4, 0x0400, SW, TDI_SLOTS },
		{ "cpu/topdown-retiring/", 4, 0x8000, SW, TDI_RETIRING },
		{ "cpu/topdown-bad-spec/", 4, 0x8100, SW, TDI_BAD_SPEC },
		{ "cpu/topdown-fe-bound/", 4, 0x8200, SW, TDI_FE_BOUND },
		{ "cpu/topdown-be-bound/", 4, 0x8300, SW, TDI_BE_BOUND },
		{ "cpu/topdown-heavy-ops/", 4, 0x8400, SW, TDI_HEAVY_OPS },
		{ "cpu/topdown-br-mispredict/", 4, 0x8500, SW, TDI_BR_MISPREDICT },
		{ "cpu/topdown-fetch-lat/", 4, 0x8600, SW, TDI_FETCH_LAT },
		{ "cpu/topdown-mem-bound/", 4, 0x8700, SW, TDI_MEM_BOUND },
	} },
	{ __LINE__, "icelake-sp", "Intel PERF_METRICS", NULL, NULL, 0, {
		{ "cpu/slots/", 4, 0x0400, SW, TDI_SLOTS },
		{ "cpu/topdown-retiring/", 4, 0x8000, SW, TDI_RETIRING },
		{ "cpu/topdown-bad-spec/", 4, 0x8100, SW, TDI_BAD_SPEC },
		{ "cpu/topdown-fe-bound/", 4, 0x8200, SW, TDI_FE_BOUND },
		{ "cpu/topdown-be-bound/", 4, 0x8300, SW, TDI_BE_BOUND },
	} },
	/* hybrid: the P-core PMU only, on its CPUs */
	{ __LINE__, "alder-lake", "Intel PERF_METRICS", NULL, NULL, 1, {
		{ "cpu_core/slots/", 4, 0x0400, SW, TDI_SLOTS },
		{ "cpu_core/topdown-retiring/", 4, 0x8000, SW, TDI_RETIRING },
	} },
	/* Zen 4: raw encodings through the cpu PMU's format (event=config:0-7,32-35), each alone */
	{ __LINE__, "zen4", "Zen 4", NULL, NULL, 0, {
		{ "cpu/ls_not_halted_cyc/", 4, 0x76, SW + 0, TDI_CYCLES },
		{ "cpu/de_src_op_disp.all/", 4, 0x7aa, SW + 1, TDI_AMD_DISPATCHED },
		{ "cpu/ex_ret_ops/", 4, 0xc1, SW + 2, TDI_AMD_RET_OPS },
		{ "cpu/de_no_dispatch_per_slot.no_ops_from_frontend/", 4, 0x1000001a0ull, SW + 3,
		  TDI_AMD_FE_EMPTY },
		{ "cpu/de_no_dispatch_per_slot.backend_stalls/", 4, 0x100001ea0ull, SW + 4,
		  TDI_AMD_BE_STALLS },
		{ "cpu/de_no_dispatch_per_slot.smt_contention/", 4, 0x1000060a0ull, SW + 5,
		  TDI_AMD_SMT },
		{ "cpu/de_no_dispatch_per_slot.no_ops_from_frontend:cmask=W/", 4, 0x1060001a0ull,
		  SW + 6, TDI_AMD_FE_LAT_CYC },
		{ "cpu/ex_no_retire.load_not_complete/", 4, 0xa2d6, SW + 7, TDI_AMD_LD_NOT_DONE },
		{ "cpu/ex_no_retire.not_complete/", 4, 0x02d6, SW + 8, TDI_AMD_NOT_DONE },
		{ "cpu/ex_ret_ucode_ops/", 4, 0x1000000c2ull, SW + 9, TDI_AMD_UCODE_OPS },
		{ "cpu/ex_ret_brn_misp/", 4, 0xc3, SW + 10, TDI_AMD_BRN_MISP },
		{ "cpu/resyncs_or_nc_redirects/", 4, 0x96, SW + 11, TDI_AMD_RESYNCS },
	} },
	/* Zen 5: 8 slots a cycle, so cmask=8 */
	{ __LINE__, "zen5", "Zen 5", NULL, NULL, 0, {
		[6] = { "cpu/de_no_dispatch_per_slot.no_ops_from_frontend:cmask=W/", 4,
			0x1080001a0ull, SW + 6, TDI_AMD_FE_LAT_CYC },
		/* its resync event is another (amdzen5/other.json) */
		[11] = { "cpu/bp_redirects.resync/", 4, 0x19f, SW + 11, TDI_AMD_RESYNCS },
	} },
	/* Neoverse N2: one group led by CPU_CYCLES on the PMU's CPUs */
	{ __LINE__, "neoverse-n2", "Neoverse N2", NULL, NULL, 1, {
		{ "armv8_pmuv3_0/cpu_cycles/", 8, 0x11, SW, TDI_CYCLES },
		{ "armv8_pmuv3_0/stall_slot/", 8, 0x3f, SW, TDI_ARM_STALL_SLOT },
		{ "armv8_pmuv3_0/stall_slot_frontend/", 8, 0x3e, SW, TDI_ARM_STALL_SLOT_FE },
		{ "armv8_pmuv3_0/stall_slot_backend/", 8, 0x3d, SW, TDI_ARM_STALL_SLOT_BE },
		{ "armv8_pmuv3_0/op_spec/", 8, 0x3b, SW, TDI_ARM_OP_SPEC },
		{ "armv8_pmuv3_0/op_retired/", 8, 0x3a, SW, TDI_ARM_OP_RETIRED },
	} },
	{ __LINE__, "zen3", NULL, "is Zen 3", NULL, 0, { { NULL } } },
	/* Skylake-SP: the kernel's generic-counter aliases, HT on (any=1); one group led by the
	 * total slots */
	{ __LINE__, "skylake-sp", "Intel 4-wide (pre-Ice Lake)", NULL, NULL, 0, {
		{ "cpu/topdown-total-slots/", 4, 0x20003c, SW, TDI_CYCLES },
		{ "cpu/topdown-slots-issued/", 4, 0x10e, SW, TDI_INTEL_SLOTS_ISSUED },
		{ "cpu/topdown-slots-retired/", 4, 0x2c2, SW, TDI_INTEL_SLOTS_RETIRED },
		{ "cpu/topdown-fetch-bubbles/", 4, 0x19c, SW, TDI_INTEL_FETCH_BUBBLES },
		{ "cpu/topdown-recovery-bubbles/", 4, 0x120030d, SW, TDI_INTEL_RECOVERY_CYC },
	} },
	{ __LINE__, "vm-no-pmu", NULL, "Zen 5: no core PMU", "ls_not_halted_cyc, de_src_op_disp.all",
	  0, { { NULL } } },
};

static void check_machine(const struct machine *m)
{
	struct stat_opts o = { .topdown = 1 };
	struct stat_plan p;
	size_t nr = 0;

	set_machine(m->machine);
	assert_int_equal(stat_plan_build(&p, &o), 0);
	for (size_t i = 0; i < sizeof(m->ev) / sizeof(m->ev[0]); i++)
		nr = m->ev[i].name ? i + 1 : nr;
	if (!m->cpu) {
		if (p.td_ok || !strstr(p.td_why, m->why) ||
		    (m->missing && !strstr(p.td_missing, m->missing)) || p.nr != SW)
			fail_msg("row at line %d: td_ok %d nr %zu why '%s' missing '%s'", m->line,
				 p.td_ok, p.nr, p.td_why, p.td_missing);
		stat_plan_release(&p);
		return;
	}
	if (!p.td_ok || strcmp(p.model.cpu, m->cpu) || p.nr < SW + nr)
		fail_msg("row at line %d: td_ok %d cpu '%s' nr %zu why '%s'", m->line, p.td_ok,
			 p.model.cpu, p.nr, p.td_why);
	for (size_t i = 0; i < p.nr; i++) {
		const struct stat_counter *c = &p.c[i];
		const struct want_ev *w = i >= SW && i - SW < nr ? &m->ev[i - SW] : NULL;

		/* every counter: counting only, time enabled/running, no sampling bits */
		if (c->attr.size != sizeof(c->attr) || c->attr.sample_period || c->attr.sample_type ||
		    c->attr.freq || c->attr.precise_ip || c->attr.exclude_kernel ||
		    c->attr.read_format != (PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING) || c->attr.config1)
			fail_msg("row at line %d: counter %zu '%s' has sampling or format bits",
				 m->line, i, c->name);
		if (i < SW && (c->attr.type != PERF_TYPE_SOFTWARE || c->td_in != -1))
			fail_msg("row at line %d: counter %zu is not a software default", m->line, i);
		if (i >= SW && c->has_cpus != m->has_cpus)
			fail_msg("row at line %d: counter %zu has_cpus %d", m->line, i, c->has_cpus);
		if (!w || !w->name)
			continue;
		if (strcmp(c->name, w->name) || c->attr.type != w->type ||
		    c->attr.config != w->config || c->leader != w->leader || c->td_in != w->td_in)
			fail_msg("row at line %d: counter %zu '%s' type %u config 0x%llx leader %d "
				 "in %d; want '%s' 0x%llx leader %d", m->line, i, c->name,
				 c->attr.type, (unsigned long long)c->attr.config, c->leader,
				 c->td_in, w->name, (unsigned long long)w->config, w->leader);
	}
	stat_plan_release(&p);
}

static void test_plans(void **state)
{
	(void)state;
	c2c_log_set_hook(quiet, NULL);
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		check_machine(&machines[i]);
}

/* -e replaces the defaults; record's spellings work; unknown names are refused. */
static void test_events(void **state)
{
	const char *ev[] = { "cycles", "cs", "cpu/event=0x76/" };
	struct stat_opts o = { .events = ev, .nr_events = 3, .all_user = 1 };
	struct stat_plan p;

	(void)state;
	set_machine("zen4");
	assert_int_equal(stat_plan_build(&p, &o), 0);
	assert_int_equal(p.nr, 3);
	assert_int_equal(p.c[0].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(p.c[1].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(p.c[2].attr.config, 0x76);
	for (int i = 0; i < 3; i++)
		assert_true(p.c[i].attr.exclude_kernel && !p.c[i].attr.sample_period);
	stat_plan_release(&p);
	ev[0] = "no-such-event";
	o.nr_events = 1;
	assert_true(stat_plan_build(&p, &o) < 0);
}

/* Groups open leader first on each target; a workload's leaders wait for exec. */
static void test_open_groups(void **state)
{
	struct stat_opts o = { .topdown = 1 };
	pid_t tid = 4242;
	struct stat_target t = { .tids = &tid, .nr_tids = 1, .workload = 1 };
	struct stat_plan p;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	set_machine("sapphire-rapids");
	assert_int_equal(stat_plan_build(&p, &o), 0);
	assert_int_equal(stat_open(&p, &t), 0);
	assert_int_equal(fake.calls, SW + 9);
	for (int i = 0; i < fake.calls; i++) {
		int lead = i < SW || i == SW;

		assert_int_equal(fake.call[i].pid, 4242);
		assert_int_equal(fake.call[i].cpu, -1);
		assert_int_equal(fake.call[i].a.disabled, lead);
		assert_int_equal(fake.call[i].a.enable_on_exec, lead);
		assert_int_equal(fake.call[i].a.inherit, 1);
		if (lead)
			assert_int_equal(fake.call[i].group, -1);
		else
			assert_int_equal(fake.call[i].group, p.fd[SW]);
	}
	assert_string_equal(p.td_missing, "");
	stat_plan_release(&p);
}

/* perf_event_paranoid 2: counting kernel time is refused, user space is kept (":u"). Per CPU
 * (-a) nothing opens and the reason names the level's fix. */
static void test_open_paranoid(void **state)
{
	struct stat_opts o = { 0 };
	pid_t tid = 7;
	int cpus[2] = { 0, 1 };
	struct stat_target t = { .tids = &tid, .nr_tids = 1 };
	struct stat_plan p;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.no_kernel_errno = EACCES;
	set_machine("vm-no-pmu");
	assert_int_equal(stat_plan_build(&p, &o), 0);
	assert_int_equal(stat_open(&p, &t), 0);
	assert_string_equal(p.c[0].name, "task-clock:u");
	assert_true(p.c[0].attr.exclude_kernel);
	stat_plan_release(&p);

	memset(&fake, 0, sizeof(fake));
	fake.fail_errno = EACCES;
	t = (struct stat_target){ .cpus = cpus, .nr_cpus = 2 };
	assert_int_equal(stat_plan_build(&p, &o), 0);
	assert_int_equal(stat_open(&p, &t), -EACCES);
	assert_non_null(strstr(p.c[0].why, "every CPU (-a)"));
	assert_non_null(strstr(p.c[0].why, "perf_event_paranoid=0"));
	assert_int_equal(fake.call[0].pid, -1);
	assert_int_equal(fake.call[1].cpu, 1);
	stat_plan_release(&p);
}

/* The kernel lacks the events (a PMU in sysfs that refuses them): the TopDown counters are named
 * missing, the members blame their leader, the software counters still count. */
static void test_open_missing(void **state)
{
	struct stat_opts o = { .topdown = 1 };
	pid_t tid = 9;
	struct stat_target t = { .tids = &tid, .nr_tids = 1 };
	struct stat_plan p;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	set_machine("neoverse-n2");
	assert_int_equal(stat_plan_build(&p, &o), 0);
	fake.fail_errno = ENOENT;
	assert_int_equal(stat_open(&p, &t), -ENOENT);    /* nothing at all opened */
	assert_non_null(strstr(p.td_missing, "armv8_pmuv3_0/cpu_cycles/, armv8_pmuv3_0/stall_slot/"));
	assert_non_null(strstr(p.c[SW + 1].why, "group leader armv8_pmuv3_0/cpu_cycles/"));
	assert_non_null(strstr(p.c[SW].why, "does not know this event"));
	stat_plan_release(&p);
}

/* Scaling by time enabled / running, and TopDown inputs as interval deltas. */
static void test_scaled_counts(void **state)
{
	struct stat_counter c[2] = {
		{ .val = 100, .ena = 1000, .run = 250, .td_in = TDI_CYCLES },
		{ .val = 50, .ena = 10, .run = 10, .td_in = TDI_AMD_RET_OPS },
	};
	struct stat_plan p = { .c = c, .nr = 2 };
	uint64_t prev[2] = { 0 };
	struct td_counts tc;
	int counted;

	(void)state;
	assert_int_equal(stat_scaled(&c[0], &counted), 400);
	assert_true(counted);
	stat_td_counts(&p, prev, &tc);
	assert_int_equal(tc.v[TDI_CYCLES], 400);
	assert_int_equal(tc.v[TDI_AMD_RET_OPS], 50);
	c[1].val = 80;
	c[0].run = 0;                                   /* never ran in this interval */
	stat_td_counts(&p, prev, &tc);
	assert_int_equal(tc.v[TDI_AMD_RET_OPS], 30);
	assert_false(tc.have & (1ull << TDI_CYCLES));
	assert_int_equal(stat_scaled(&c[0], &counted), 0);
	assert_false(counted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_open_groups),
		cmocka_unit_test(test_open_paranoid),
		cmocka_unit_test(test_open_missing),
		cmocka_unit_test(test_scaled_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
