/* Event selection on fake sysfs trees (data/sysfs/<machine>): every perf_event_attr field that
 * perf 6.1's `perf c2c record` sets (pmu-events.md §3.5, §4.2, §6.1, §7) is compared. */
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
#include "c2c/trace.h"
#include "record/events.h"
#include "record/topdown.h"
#include "tests/fake-machine.h"

/* attr flag bits (offset 40) */
#define F_DIS   (1ull << 0)
#define F_INH   (1ull << 1)
#define F_EXU   (1ull << 4)
#define F_EXK   (1ull << 5)
#define F_EXHV  (1ull << 6)
#define F_MMAP  (1ull << 8)
#define F_COMM  (1ull << 9)
#define F_FREQ  (1ull << 10)
#define F_EOE   (1ull << 12)
#define F_TASK  (1ull << 13)
#define F_P(n)  ((uint64_t)(n) << 15)
#define F_MDATA (1ull << 17)
#define F_SIDA  (1ull << 18)
#define F_EXG   (1ull << 20)
#define F_MMAP2 (1ull << 23)
#define F_CEXEC (1ull << 24)
#define F_CSW   (1ull << 26)
#define F_KSYM  (1ull << 29)
#define F_BPF   (1ull << 30)
#define F_TRACK (F_MMAP | F_COMM | F_TASK | F_MMAP2 | F_CEXEC | F_KSYM | F_BPF)
/* What perf 6.1 sets on the tracking event of `perf record -d ... -- cmd` (pmu-events.md §3.5). */
#define PERF61_TRACKING_FLAGS 0x61963703ull

#define ST_C2C_X86 0x108818full   /* IP TID TIME ADDR CPU PERIOD DATA_SRC PHYS WEIGHT_STRUCT */
#define ST_C2C_W   0x008c18full   /* the same with plain WEIGHT */
#define ST_ID      0x40ull
#define ST_IDENT   0x10000ull
#define ST_PERIOD  0x100ull
#define ST_READ    0x10ull
/* perf 6.1's `perf c2c record` on arm64, SPE and its dummy:u alike: IP TID TIME ADDR CPU
 * IDENTIFIER DATA_SRC PHYS_ADDR WEIGHT (-W -d --phys-data --sample-cpu, IDENTIFIER for AUX
 * tracing; no PERIOD: the SPE interval is fixed before evsel__config() runs) */
#define ST_SPE     0x9c08full

struct want {
	uint32_t type;
	uint64_t config, config1, config2;
	uint64_t sample_type, read_format;
	uint64_t period;           /* sample_period or sample_freq */
	uint64_t flags;
	int leader;
	int role;
};

struct row {
	int line;
	const char *machine;
	struct events_opts opts;
	int err;
	const char *pmu_name;
	uint32_t backend;
	size_t nr;
	struct want ev[16];
};

#define TRK (F_DIS | F_INH | F_FREQ | F_EOE | F_MDATA | F_SIDA | F_EXG | F_TRACK)
#define MEMBER (F_INH | F_FREQ | F_MDATA | F_SIDA | F_EXG)
#define OTHER (F_DIS | F_INH | F_FREQ | F_EOE | F_MDATA | F_SIDA | F_EXG)
#define WL { .workload = 1 }
/* the rate plans of -c N and -F N (record/rate-plan.h) */
#define PERIOD(n) .rate = { .period = (n), .source = RATE_GIVEN_PERIOD }
#define FREQ(n) .rate = { .freq = (n), .source = RATE_GIVEN_FREQ }
/* the default lowered to a kernel cap of 1000 Hz */
#define WL_CAPPED { .workload = 1, .rate = { .freq = 1000, .source = RATE_KERNEL_CAP } }
/* SPE: the event is no tracking event (mmap_data goes to the dummy); dummy:u tracks, with
 * context switches */
#define SPE_WL  (F_DIS | F_INH | F_EOE | F_SIDA | F_EXG)
#define DUMMY_U (F_EXK | F_EXHV | F_INH | F_SIDA | F_EXG | F_TRACK | F_MDATA | F_CSW)
#define SPE_ROWS_OPTS(m, opts, type, period) \
	{ __LINE__, m, opts, 0, "arm_spe_0", TRACE_BACKEND_SPE, 2, { \
		{ type, 0x600000003ull, 0, 30, ST_SPE, 0x14, period, SPE_WL, 0, EV_ROLE_SAMPLER }, \
		{ 1, 9, 0, 0, ST_SPE, 0x14, 1, DUMMY_U | F_DIS | F_EOE, 1, EV_ROLE_TRACKING }, \
	} }
#define SPE_ROWS(m, type, period) SPE_ROWS_OPTS(m, WL, type, period)

static const struct row rows[] = {
	{ __LINE__, "skylake-sp", WL, 0, "skylake", TRACE_BACKEND_PEBS, 2, {
		{ 4, 0x1cd, 30, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, TRK | F_P(3), 0, EV_ROLE_SAMPLER },
		{ 4, 0x82d0, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, OTHER | F_P(3), 1, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "skylake-sp", { .workload = 1, .ldlat = 50, PERIOD(1000) }, 0, "skylake",
	  TRACE_BACKEND_PEBS, 2, {
		{ 4, 0x1cd, 50, 0, (ST_C2C_X86 & ~ST_PERIOD) | ST_ID, 0x14, 1000,
		  (TRK & ~F_FREQ) | F_P(3), 0, EV_ROLE_SAMPLER },
		{ 4, 0x82d0, 0, 0, (ST_C2C_X86 & ~ST_PERIOD) | ST_ID, 0x14, 1000,
		  (OTHER & ~F_FREQ) | F_P(3), 1, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "skylake-sp", { .workload = 1, .all_user = 1, .loads_only = 1 }, 0, "skylake",
	  TRACE_BACKEND_PEBS, 1, {
		{ 4, 0x1cd, 30, 0, ST_C2C_X86, 0x14, 4000, TRK | F_EXK | F_P(3), 0, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "skylake-sp", { .system_wide = 1 }, 0, "skylake", TRACE_BACKEND_PEBS, 3, {
		{ 4, 0x1cd, 30, 0, ST_C2C_X86 | ST_IDENT, 0x14, 4000,
		  (OTHER & ~F_EOE) | F_P(3), 0, EV_ROLE_SAMPLER },
		{ 4, 0x82d0, 0, 0, ST_C2C_X86 | ST_IDENT, 0x14, 4000,
		  (OTHER & ~F_EOE) | F_P(3), 1, EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, 0x86 | ST_IDENT, 0x14, 1,
		  F_INH | F_EXK | F_EXHV | F_SIDA | F_EXG | F_TRACK, 2, EV_ROLE_TRACKING },
	} },
	{ __LINE__, "icelake-sp", WL, 0, "icelake_server", TRACE_BACKEND_PEBS, 2, {
		{ 4, 0x1cd, 30, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, TRK | F_P(3), 0, EV_ROLE_SAMPLER },
		{ 4, 0x82d0, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, OTHER | F_P(3), 1, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "sapphire-rapids", WL, 0, "sapphire_rapids", TRACE_BACKEND_PEBS, 3, {
		{ 4, 0x8203, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, TRK | F_P(3), 0, EV_ROLE_AUX },
		{ 4, 0x1cd, 30, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, MEMBER | F_P(3), 0, EV_ROLE_SAMPLER },
		{ 4, 0x2cd, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, OTHER | F_P(3), 2, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "alder-lake", WL, 0, "alderlake_hybrid", TRACE_BACKEND_PEBS, 5, {
		{ 4, 0x8203, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, TRK | F_P(3), 0, EV_ROLE_AUX },
		{ 4, 0x1cd, 30, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, MEMBER | F_P(3), 0, EV_ROLE_SAMPLER },
		{ 4, 0x2cd, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, OTHER | F_P(3), 2, EV_ROLE_SAMPLER },
		{ 10, 0x5d0, 30, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, OTHER | F_P(3), 3, EV_ROLE_SAMPLER },
		{ 10, 0x6d0, 0, 0, ST_C2C_X86 | ST_ID, 0x14, 4000, OTHER | F_P(3), 4, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "zen3", WL, -ENOTSUP, NULL, 0, 0, { { 0 } } },
	{ __LINE__, "zen4", WL, 0, "ibs_op", TRACE_BACKEND_IBS, 1, {
		{ 11, 0, 0, 0, ST_C2C_X86, 0x14, 4000, TRK & ~F_EXG, 0, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "zen4", { .workload = 1, .ldlat = 256 }, 0, "ibs_op", TRACE_BACKEND_IBS, 1, {
		{ 11, 0, 0, 0, ST_C2C_X86, 0x14, 4000, TRK & ~F_EXG, 0, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "zen5", WL, 0, "ibs_op", TRACE_BACKEND_IBS, 1, {
		{ 11, 0, 0, 0, ST_C2C_X86, 0x14, 4000, TRK & ~F_EXG, 0, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "zen5", { .workload = 1, .ldlat = 256 }, 0, "ibs_op", TRACE_BACKEND_IBS, 1, {
		{ 11, 0, 256, 0, ST_C2C_X86, 0x14, 4000, TRK & ~F_EXG, 0, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "zen5", { .workload = 1, .ldlat = 100 }, -EINVAL, NULL, 0, 0, { { 0 } } },
	{ __LINE__, "zen4", { .workload = 1, PERIOD(100) }, -EINVAL, NULL, 0, 0, { { 0 } } },
	{ __LINE__, "zen4", { .workload = 1, PERIOD(4096) }, 0, "ibs_op", TRACE_BACKEND_IBS, 1, {
		{ 11, 0, 0, 0, ST_C2C_X86 & ~ST_PERIOD, 0x14, 4096, TRK & ~F_EXG & ~F_FREQ, 0,
		  EV_ROLE_SAMPLER },
	} },
	SPE_ROWS("neoverse-n1", 10, 1024),
	/* a default frequency the kernel's cap lowered is no -F: SPE takes its period */
	SPE_ROWS_OPTS("neoverse-n1", WL_CAPPED, 10, 1024),
	SPE_ROWS("neoverse-v1", 11, 512),
	SPE_ROWS("neoverse-n2", 9, 1024),
	{ __LINE__, "neoverse-n1", { .workload = 1, .stores_only = 1 }, 0, "arm_spe_0",
	  TRACE_BACKEND_SPE, 2, {
		{ 10, 0x400000003ull, 0, 0, ST_SPE, 0x14, 1024, SPE_WL, 0, EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, ST_SPE, 0x14, 1, DUMMY_U | F_DIS | F_EOE, 1, EV_ROLE_TRACKING },
	} },
	{ __LINE__, "neoverse-n1", { .workload = 1, .loads_only = 1, .ldlat = 64 }, 0,
	  "arm_spe_0", TRACE_BACKEND_SPE, 2, {
		{ 10, 0x200000003ull, 0, 64, ST_SPE, 0x14, 1024, SPE_WL, 0, EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, ST_SPE, 0x14, 1, DUMMY_U | F_DIS | F_EOE, 1, EV_ROLE_TRACKING },
	} },
	/* -a: the dummy is enabled at once (perf's "immediate" tracking event) */
	{ __LINE__, "neoverse-v1", { .system_wide = 1 }, 0, "arm_spe_0", TRACE_BACKEND_SPE, 2, {
		{ 11, 0x600000003ull, 0, 30, ST_SPE, 0x14, 512, SPE_WL & ~F_EOE, 0,
		  EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, ST_SPE, 0x14, 1, DUMMY_U, 1, EV_ROLE_TRACKING },
	} },
	/* -p: no exec to wait for; -u */
	{ __LINE__, "neoverse-n1", { .all_user = 1 }, 0, "arm_spe_0", TRACE_BACKEND_SPE, 2, {
		{ 10, 0x600000003ull, 0, 30, ST_SPE, 0x14, 1024, (SPE_WL & ~F_EOE) | F_EXK, 0,
		  EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, ST_SPE, 0x14, 1, DUMMY_U | F_DIS, 1, EV_ROLE_TRACKING },
	} },
	/* -k turns dummy:u into a kernel-only dummy, as perf's --all-kernel does */
	{ __LINE__, "neoverse-n1", { .workload = 1, .all_kernel = 1 }, 0, "arm_spe_0",
	  TRACE_BACKEND_SPE, 2, {
		{ 10, 0x600000003ull, 0, 30, ST_SPE, 0x14, 1024, SPE_WL | F_EXU, 0,
		  EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, ST_SPE, 0x14, 1, (DUMMY_U & ~F_EXK) | F_EXU | F_DIS | F_EOE, 1,
		  EV_ROLE_TRACKING },
	} },
	/* -c: perf 6.1 gives the period to every event, the dummy's 1 included */
	{ __LINE__, "neoverse-n1", { .workload = 1, PERIOD(2048), .no_inherit = 1 }, 0,
	  "arm_spe_0", TRACE_BACKEND_SPE, 2, {
		{ 10, 0x600000003ull, 0, 30, ST_SPE, 0x14, 2048, SPE_WL & ~F_INH, 0,
		  EV_ROLE_SAMPLER },
		{ 1, 9, 0, 0, ST_SPE, 0x14, 2048, (DUMMY_U & ~F_INH) | F_DIS | F_EOE, 1,
		  EV_ROLE_TRACKING },
	} },
	{ __LINE__, "neoverse-n1", { .workload = 1, FREQ(1000) }, -EINVAL, NULL, 0, 0, { { 0 } } },
	{ __LINE__, "neoverse-n1", { .workload = 1, .ldlat = 4096 }, -EINVAL, NULL, 0, 0, { { 0 } } },
	{ __LINE__, "power9", WL, 0, "POWER9", TRACE_BACKEND_POWER, 2, {
		{ 4, 0x34340401e0ull, 0, 0, ST_C2C_W | ST_ID, 0x14, 4000, TRK, 0, EV_ROLE_SAMPLER },
		{ 4, 0x343c0401e0ull, 0, 0, ST_C2C_W | ST_ID, 0x14, 4000, OTHER, 1, EV_ROLE_SAMPLER },
	} },
	{ __LINE__, "power10", WL, 0, "POWER10", TRACE_BACKEND_POWER, 2, {
		{ 4, 0x35340401e0ull, 0, 0, ST_C2C_W | ST_ID, 0x14, 4000, TRK, 0, EV_ROLE_SAMPLER },
		{ 4, 0x353c0401e0ull, 0, 0, ST_C2C_W | ST_ID, 0x14, 4000, OTHER, 1, EV_ROLE_SAMPLER },
	} },
};

static void check_ev(int line, size_t i, const struct ev_desc *e, const struct want *w)
{
	const struct perf_event_attr *a = &e->attr;
	uint64_t period = a->freq ? a->sample_freq : a->sample_period;

	if (a->type != w->type || a->config != w->config || a->config1 != w->config1 ||
	    a->config2 != w->config2 || a->sample_type != w->sample_type ||
	    a->read_format != w->read_format || period != w->period ||
	    events_attr_flags(a) != w->flags || e->leader != w->leader || (int)e->role != w->role ||
	    a->size != 128 || a->wakeup_events || a->bp_type || a->branch_sample_type ||
	    a->sample_regs_user || a->sample_stack_user || a->clockid || a->sample_regs_intr ||
	    a->aux_watermark || a->sample_max_stack || a->aux_sample_size || a->sig_data)
		fail_msg("row at line %d, event %zu (%s): type %u config 0x%llx config1 0x%llx "
			 "config2 0x%llx sample_type 0x%llx read_format 0x%llx period %llu flags "
			 "0x%llx leader %d role %d size %u; want type %u config 0x%llx config1 "
			 "0x%llx config2 0x%llx sample_type 0x%llx read_format 0x%llx period %llu "
			 "flags 0x%llx leader %d role %d", line, i, e->name, a->type,
			 (unsigned long long)a->config, (unsigned long long)a->config1,
			 (unsigned long long)a->config2, (unsigned long long)a->sample_type,
			 (unsigned long long)a->read_format, (unsigned long long)period,
			 (unsigned long long)events_attr_flags(a), e->leader, e->role, a->size,
			 w->type, (unsigned long long)w->config, (unsigned long long)w->config1,
			 (unsigned long long)w->config2, (unsigned long long)w->sample_type,
			 (unsigned long long)w->read_format, (unsigned long long)w->period,
			 (unsigned long long)w->flags, w->leader, w->role);
}

static void test_events_per_machine(void **state)
{
	(void)state;
	c2c_log_set_hook(quiet, NULL);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct row *row = &rows[r];
		struct ev_list l;
		int err;

		set_machine(row->machine);
		events_init(&l);
		err = events_add_default(&l, &row->opts);
		if (!err)
			err = events_finalize(&l, &row->opts);
		if (err != row->err)
			fail_msg("row at line %d: err %d, want %d", row->line, err, row->err);
		if (!err) {
			if (l.nr != row->nr)
				fail_msg("row at line %d: %zu events, want %zu", row->line, l.nr,
					 row->nr);
			if (strcmp(l.pmu_name, row->pmu_name) || l.backend != row->backend)
				fail_msg("row at line %d: pmu '%s' backend %u", row->line,
					 l.pmu_name, l.backend);
			for (size_t i = 0; i < l.nr; i++)
				check_ev(row->line, i, &l.ev[i], &row->ev[i]);
		}
		events_release(&l);
	}
	c2c_log_set_hook(NULL, NULL);
}

/* The tracking event of a plain workload recording has exactly perf 6.1's flag word. */
static void test_events_perf61_flag_word(void **state)
{
	struct events_opts o = { .workload = 1, .loads_only = 1 };
	struct ev_list l;

	(void)state;
	set_machine("icelake-sp");
	events_init(&l);
	assert_int_equal(events_add_default(&l, &o), 0);
	assert_int_equal(events_finalize(&l, &o), 0);
	assert_int_equal(events_attr_flags(&l.ev[0].attr) & ~F_P(3), PERF61_TRACKING_FLAGS);
	assert_int_equal(l.ev[0].attr.precise_ip, 3);
	events_release(&l);
}

static void test_events_hybrid_cpus(void **state)
{
	struct events_opts o = { .workload = 1 };
	struct ev_list l;

	(void)state;
	set_machine("alder-lake");
	events_init(&l);
	assert_int_equal(events_add_default(&l, &o), 0);
	for (size_t i = 0; i < l.nr; i++) {
		uint8_t want = l.ev[i].attr.type == 4 ? 0x0f : 0xf0;

		assert_true(l.ev[i].has_cpus);
		assert_int_equal(l.ev[i].cpus[0], want);
	}
	events_release(&l);
}

/* perf's AUX and data buffer sizes for SPE: 4 MiB of AUX when privileged; 128 KiB of AUX and
 * a 256 KiB data ring otherwise; in pages of this machine's size. */
static void test_events_spe_aux(void **state)
{
	static const struct { int priv; unsigned int page, aux, data; } rows[] = {
		{ 1, 4096, 1024, 0 }, { 0, 4096, 32, 64 }, { 1, 65536, 64, 0 }, { 0, 65536, 2, 4 },
		{ 0, 16384, 8, 16 },
	};

	(void)state;
	set_machine("neoverse-n2");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct events_opts o = { .workload = 1, .perf_privileged = rows[i].priv,
					 .page_size = rows[i].page };
		struct ev_list l;

		events_init(&l);
		assert_int_equal(events_add_default(&l, &o), 0);
		assert_int_equal(events_finalize(&l, &o), 0);
		if (l.ev[0].aux_pages != rows[i].aux || l.spe_data_pages != rows[i].data ||
		    l.ev[1].aux_pages)
			fail_msg("row %zu: aux %u data %u", i, l.ev[0].aux_pages, l.spe_data_pages);
		assert_int_equal(l.ev[0].pa_mask, 2);
		events_release(&l);
	}
}

/* -e strings with SPE: ts_enable unless the string set it, the SPE event first and the only
 * tracking event the dummy, one SPE event at most. */
static void test_events_spe_strings(void **state)
{
	struct events_opts o = { .workload = 1 };
	struct ev_list l;

	(void)state;
	c2c_log_set_hook(quiet, NULL);
	set_machine("neoverse-n1");
	events_init(&l);
	assert_int_equal(events_add_string(&l, &o, "page-faults"), 0);
	assert_int_equal(events_add_string(&l, &o, "arm_spe_0/load_filter=1/"), 0);
	assert_int_equal(events_finalize(&l, &o), 0);
	assert_int_equal(l.nr, 3);
	assert_int_equal(l.ev[0].attr.type, 10);
	assert_int_equal(l.ev[0].attr.config, 0x200000001ull);      /* ts_enable added */
	assert_int_equal(l.ev[0].attr.sample_period, 1024);
	assert_int_equal(l.ev[0].attr.sample_type, ST_SPE);
	assert_int_equal(l.ev[1].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(l.ev[1].leader, 1);
	assert_false(l.ev[1].attr.mmap || l.ev[1].attr.mmap_data || l.ev[0].attr.mmap_data);
	assert_true(l.ev[1].attr.sample_type & ST_IDENT);
	assert_true(l.ev[2].aux_tracking && l.ev[2].attr.mmap && l.ev[2].attr.context_switch);
	events_release(&l);

	events_init(&l);
	assert_int_equal(events_add_string(&l, &o, "arm_spe_0/ts_enable=0,store_filter=1/u"), 0);
	assert_int_equal(events_finalize(&l, &o), 0);
	assert_int_equal(l.ev[0].attr.config, 0x400000000ull);      /* the string said no */
	assert_int_equal(l.ev[0].attr.exclude_kernel, 1);
	events_release(&l);

	events_init(&l);
	assert_int_equal(events_add_string(&l, &o, "arm_spe_0/load_filter=1/"), 0);
	assert_int_equal(events_add_string(&l, &o, "arm_spe_0/store_filter=1/"), 0);
	assert_int_equal(events_finalize(&l, &o), -EINVAL);
	events_release(&l);
	c2c_log_set_hook(NULL, NULL);
}

struct td_row {
	int line;
	const char *machine;
	int enabled;
	const char *reason;        /* substring of td_reason when disabled */
	size_t nr;
	uint64_t config[16];       /* configs in list order */
	int leader[16];
	int td_nr;
};

static const struct td_row td_rows[] = {
	{ __LINE__, "skylake-sp", 0, "PERF_METRICS", 2, { 0x1cd, 0x82d0 }, { 0, 1 }, 0 },
	{ __LINE__, "icelake-sp", 1, NULL, 7,
	  { 0x400, 0x1cd, 0x82d0, 0x8000, 0x8100, 0x8200, 0x8300 }, { 0, 0, 2, 0, 0, 0, 0 }, 4 },
	{ __LINE__, "sapphire-rapids", 1, NULL, 12,
	  { 0x400, 0x8203, 0x1cd, 0x2cd, 0x8000, 0x8100, 0x8200, 0x8300, 0x8400, 0x8500, 0x8600,
	    0x8700 }, { 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0 }, 8 },
	/* beside IBS and SPE: a group of its own (test_topdown_reader checks its attrs) */
	{ __LINE__, "zen4", 1, NULL, 6, { 0, 0x76, 0x7aa, 0xc1, 0x1000001a0ull, 0x100001ea0ull },
	  { 0, 1, 1, 1, 1, 1 }, 4 },
	{ __LINE__, "neoverse-n2", 1, NULL, 8, { 0x600000003ull, 9, 0x11, 0x3f, 0x3e, 0x3d, 0x3b, 0x3a },
	  { 0, 1, 2, 2, 2, 2, 2, 2 }, 5 },
	{ __LINE__, "power9", 0, "POWER", 2, { 0x34340401e0ull, 0x343c0401e0ull }, { 0, 1 }, 0 },
};

static void test_topdown_per_machine(void **state)
{
	(void)state;
	for (size_t r = 0; r < sizeof(td_rows) / sizeof(td_rows[0]); r++) {
		const struct td_row *t = &td_rows[r];
		struct events_opts o = { .workload = 1, .topdown = 1 };
		struct ev_desc before[8];
		size_t nr_before;
		struct ev_list l;

		set_machine(t->machine);
		events_init(&l);
		assert_int_equal(events_add_default(&l, &o), 0);
		assert_int_equal(events_finalize(&l, &o), 0);
		nr_before = l.nr;
		memcpy(before, l.ev, l.nr * sizeof(*l.ev));
		assert_int_equal(topdown_add(&l, &o), 0);
		if (l.td_enabled != t->enabled || l.nr != t->nr || (int)l.td_nr != t->td_nr ||
		    (!t->enabled && !strstr(l.td_reason, t->reason)))
			fail_msg("row at line %d: enabled %d nr %zu td_nr %u reason '%s'", t->line,
				 l.td_enabled, l.nr, l.td_nr, l.td_reason);
		for (size_t i = 0; i < l.nr; i++) {
			const struct ev_desc *e = &l.ev[i];

			if (e->attr.config != t->config[i] || e->leader != t->leader[i])
				fail_msg("row at line %d event %zu: config 0x%llx leader %d", t->line,
					 i, (unsigned long long)e->attr.config, e->leader);
			if (!t->enabled || l.td_reader)
				continue;
			/* every event carries IDENTIFIER; slots leads, disabled, enable_on_exec */
			assert_true(e->attr.sample_type & ST_IDENT);
			assert_false(e->attr.sample_type & ST_ID);
			if (i == 0) {
				assert_int_equal(e->role, EV_ROLE_TD_SLOTS);
				assert_int_equal(e->attr.disabled, 1);
				assert_int_equal(e->attr.enable_on_exec, 1);
				assert_int_equal(e->attr.sample_period, 0);
				assert_int_equal(e->attr.read_format, 0x1c);
			}
			if (e->role == EV_ROLE_TD_METRIC) {
				assert_int_equal(e->attr.sample_period, 0);
				assert_int_equal(e->attr.freq, 0);
				assert_int_equal(e->attr.disabled, 0);
				assert_int_equal(e->attr.read_format, 0x1c);
			}
			if (e->attr.config == 0x1cd) {
				assert_true(e->attr.sample_type & ST_READ);
				assert_int_equal(e->attr.read_format, 0x1c);
				assert_int_equal(e->attr.disabled, 0);
				assert_int_equal(e->attr.sample_freq, 4000);
			}
		}
		if (t->enabled && l.td_reader) {
			/* the kernel refused the group apart: the events are exactly as before */
			topdown_remove(&l, "refused");
			assert_int_equal(l.td_enabled, 0);
			assert_int_equal(l.td_reader, 0);
			assert_int_equal(l.nr, nr_before);
			for (size_t i = 0; i < l.nr; i++)
				assert_memory_equal(&l.ev[i].attr, &before[i].attr, sizeof(before[i].attr));
		} else if (t->enabled) {
			/* the kernel refused: take TopDown out, the mem events are as before */
			topdown_remove(&l, "refused");
			assert_int_equal(l.td_enabled, 0);
			assert_string_equal(l.td_reason, "refused");
			for (size_t i = 0; i < l.nr; i++) {
				assert_true(l.ev[i].role == EV_ROLE_SAMPLER || l.ev[i].role == EV_ROLE_AUX);
				assert_false(l.ev[i].attr.sample_type & ST_READ);
				assert_int_equal(l.ev[i].attr.read_format, 0x14);
			}
			assert_int_equal(l.ev[0].leader, 0);
			assert_int_equal(l.ev[0].attr.disabled, 1);
			assert_int_equal(l.ev[0].attr.enable_on_exec, 1);
		}
		events_release(&l);
	}
}

/* TopDown beside IBS (Zen 4) and SPE (Neoverse N2): every attr of the group apart, what the
 * readings map to, and -a's per-CPU scope. */
static void test_topdown_reader(void **state)
{
	static const struct {
		const char *machine;
		int system_wide;
		uint32_t type;
		const char *model;
		size_t first;             /* index of the group's leader */
		int in[5];
	} rows[] = {
		{ "zen4", 0, 4, "Zen 4", 1, { TDI_AMD_DISPATCHED, TDI_AMD_RET_OPS, TDI_AMD_FE_EMPTY,
					      TDI_AMD_BE_STALLS, -1 } },
		{ "zen4", 1, 4, "Zen 4", 2, { TDI_AMD_DISPATCHED, TDI_AMD_RET_OPS, TDI_AMD_FE_EMPTY,
					      TDI_AMD_BE_STALLS, -1 } },
		{ "neoverse-n2", 0, 8, "Neoverse N2", 2, { TDI_ARM_STALL_SLOT, TDI_ARM_STALL_SLOT_FE,
							    TDI_ARM_STALL_SLOT_BE, TDI_ARM_OP_SPEC,
							    TDI_ARM_OP_RETIRED } },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct events_opts o = { .workload = !rows[r].system_wide,
					 .system_wide = rows[r].system_wide, .topdown = 1 };
		struct ev_list l;
		const struct ev_desc *s, *lead;
		char blob[512];

		set_machine(rows[r].machine);
		events_init(&l);
		assert_int_equal(events_add_default(&l, &o), 0);
		assert_int_equal(events_finalize(&l, &o), 0);
		assert_int_equal(topdown_add(&l, &o), 0);
		assert_int_equal(l.td_enabled, 1);
		assert_int_equal(l.td_reader, 1);
		assert_string_equal(l.td_rd.model.cpu, rows[r].model);
		assert_int_equal(l.td_rd.model.level2, 0);
		assert_int_equal(l.td_rd.scope_cpu, rows[r].system_wide);
		assert_int_equal(l.td_rd.lead, TDI_CYCLES);
		assert_int_equal(l.td_rd.period, TOPDOWN_READ_PERIOD);
		for (uint32_t i = 0; i < 5; i++)
			assert_int_equal(i < l.td_rd.nr ? l.td_rd.in[i] : -1, rows[r].in[i]);
		s = &l.ev[0];
		lead = &l.ev[rows[r].first];
		assert_int_equal(s->role, EV_ROLE_SAMPLER);
		/* the sampler: as before but with IDENTIFIER (the readings have another layout) */
		assert_true(s->attr.sample_type & ST_IDENT);
		assert_false(s->attr.sample_type & (ST_ID | ST_READ));
		assert_int_equal(lead->role, EV_ROLE_TD_READER);
		assert_int_equal(lead->leader, (int)rows[r].first);
		assert_int_equal(lead->attr.sample_period, TOPDOWN_READ_PERIOD);
		assert_int_equal(lead->attr.freq, 0);
		assert_int_equal(lead->attr.disabled, 1);
		assert_int_equal(lead->attr.enable_on_exec, !rows[r].system_wide);
		assert_int_equal(lead->attr.config, rows[r].type == 4 ? 0x76 : 0x11);
		for (size_t i = rows[r].first; i < l.nr; i++) {
			const struct ev_desc *e = &l.ev[i];

			assert_int_equal(e->attr.type, rows[r].type);
			assert_int_equal(e->leader, (int)rows[r].first);
			assert_int_equal(e->attr.sample_type,
					 (s->attr.sample_type & (0x7 | 0x40 | 0x80 | 0x200 | 0x10000)) |
					 ST_READ);
			assert_false(e->attr.sample_type & 0x8);   /* no ADDR: not a memory sample */
			assert_int_equal(e->attr.read_format, 0x1c);   /* GROUP | ID | LOST */
			/* per thread it follows the children as the sampler does (PERF_SAMPLE_READ
			 * with inherit: kernel 6.12+); per CPU inherit means nothing, and 6.1
			 * refuses it beside PERF_SAMPLE_READ */
			assert_int_equal(s->attr.inherit, 1);
			assert_int_equal(e->attr.inherit, !rows[r].system_wide);
			assert_int_equal(e->attr.exclude_kernel, s->attr.exclude_kernel);
			assert_int_equal(e->attr.exclude_user, s->attr.exclude_user);
			assert_int_equal(e->attr.sample_id_all, 1);
			assert_int_equal(e->attr.precise_ip, 0);
			/* the core PMU's cpus file: N2 has one (0-3), the Zen 4 cpu PMU none */
			assert_int_equal(e->has_cpus, rows[r].type == 8);
			if (i == rows[r].first)
				continue;
			assert_int_equal(e->role, EV_ROLE_TD_METRIC);
			assert_int_equal(e->td_index, (int)(i - rows[r].first - 1));
			assert_int_equal(e->attr.sample_period, 0);
			assert_int_equal(e->attr.disabled, 0);
			assert_int_equal(e->attr.enable_on_exec, 0);
		}
		/* the blob names every value the readings carry */
		l.td_rd.event = (uint32_t)rows[r].first;
		assert_true(td_reader_format(&l.td_rd, blob, sizeof(blob)) > 0);
		assert_non_null(strstr(blob, rows[r].system_wide ? "scope cpu\n" : "scope thread\n"));
		assert_non_null(strstr(blob, "lead cycles\n"));
		events_release(&l);
	}
}

struct str_row {
	int line;
	const char *machine, *spec;
	int err;
	uint32_t type;
	uint64_t config, config1, config2;
	int precise, exclude_kernel, exclude_user;
	uint64_t period;
};

static const struct str_row str_rows[] = {
	{ __LINE__, "skylake-sp", "page-faults", 0, 1, 2, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "faults:u", 0, 1, 2, 0, 0, 0, 1, 0, 0 },
	{ __LINE__, "skylake-sp", "cpu-clock:k", 0, 1, 0, 0, 0, 0, 0, 1, 0 },
	{ __LINE__, "skylake-sp", "cpu/event=0xcd,umask=0x1,ldlat=30/pp", 0, 4, 0x1cd, 30, 0, 2, 0, 0,
	  0 },
	{ __LINE__, "skylake-sp", "cpu/mem-loads,ldlat=100/P", 0, 4, 0x1cd, 100, 0, 3, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "cpu/event=0x3c,cmask=2,inv,period=5000/", 0, 4, 0x280003c, 0, 0, 0,
	  0, 0, 5000 },
	{ __LINE__, "skylake-sp", "cpu/ldlat=0x10000/", -ERANGE, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "cpu/nosuch=1/", -ENOENT, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "cpu/event=zz/", -EINVAL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "nopmu/event=1/", -ENOENT, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "page-faults:x", -EINVAL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "skylake-sp", "nosuch", -EINVAL, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/event=0x1a0,umask=0x1/", 0, 4, 0x1000001a0ull, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "zen4", "ibs_op/cnt_ctl=1/", 0, 11, 0x80000, 0, 0, 0, 0, 0, 0 },
	{ __LINE__, "neoverse-n2", "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,min_latency=30/",
	  0, 9, 0x200000003ull, 0, 30, 0, 0, 0, 0 },
	{ __LINE__, "neoverse-n2", "arm_spe_0/min_latency=4096/", -ERANGE, 0, 0, 0, 0, 0, 0, 0, 0 },
};

static void test_events_strings(void **state)
{
	(void)state;
	c2c_log_set_hook(quiet, NULL);
	for (size_t r = 0; r < sizeof(str_rows) / sizeof(str_rows[0]); r++) {
		const struct str_row *t = &str_rows[r];
		struct events_opts o = { .workload = 1 };
		struct ev_list l;
		int err;

		set_machine(t->machine);
		events_init(&l);
		err = events_add_string(&l, &o, t->spec);
		if (err != t->err)
			fail_msg("row at line %d ('%s'): err %d, want %d", t->line, t->spec, err,
				 t->err);
		if (!err) {
			const struct perf_event_attr *a = &l.ev[0].attr;

			if (a->type != t->type || a->config != t->config || a->config1 != t->config1 ||
			    a->config2 != t->config2 || l.ev[0].precise_max != t->precise ||
			    a->exclude_kernel != (unsigned)t->exclude_kernel ||
			    a->exclude_user != (unsigned)t->exclude_user || a->sample_period != t->period)
				fail_msg("row at line %d ('%s'): type %u config 0x%llx config1 0x%llx "
					 "config2 0x%llx precise %d exk %u exu %u period %llu", t->line,
					 t->spec, a->type, (unsigned long long)a->config,
					 (unsigned long long)a->config1, (unsigned long long)a->config2,
					 l.ev[0].precise_max, a->exclude_kernel, a->exclude_user,
					 (unsigned long long)a->sample_period);
		}
		events_release(&l);
	}
	c2c_log_set_hook(NULL, NULL);
}

/* Software events get no data-source bits; several events get PERF_SAMPLE_ID. */
static void test_events_software_finalize(void **state)
{
	struct events_opts o = { .workload = 1, PERIOD(1) };
	struct ev_list l;

	(void)state;
	set_machine("skylake-sp");
	events_init(&l);
	assert_int_equal(events_add_string(&l, &o, "page-faults"), 0);
	assert_int_equal(events_add_string(&l, &o, "cpu-clock"), 0);
	assert_int_equal(events_finalize(&l, &o), 0);
	assert_int_equal(l.ev[0].attr.sample_type, 0x8f | ST_ID);
	assert_int_equal(l.ev[1].attr.sample_type, 0x8f | ST_ID);
	assert_int_equal(l.ev[0].attr.sample_period, 1);
	assert_true(l.ev[0].attr.mmap2);
	assert_false(l.ev[1].attr.mmap2);
	assert_int_equal(l.backend, TRACE_BACKEND_SWEVENT);
	events_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_per_machine),
		cmocka_unit_test(test_events_perf61_flag_word),
		cmocka_unit_test(test_events_hybrid_cpus),
		cmocka_unit_test(test_events_spe_aux),
		cmocka_unit_test(test_events_spe_strings),
		cmocka_unit_test(test_topdown_per_machine),
		cmocka_unit_test(test_topdown_reader),
		cmocka_unit_test(test_events_strings),
		cmocka_unit_test(test_events_software_finalize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
