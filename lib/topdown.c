/* TopDown models and formulas per vendor (see include/c2c/topdown.h and docs/topdown.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "c2c/topdown.h"

static const char *const out_names[TDO_NR] = {
	[TDO_RETIRING] = "retiring", [TDO_BAD_SPEC] = "bad-spec", [TDO_FE_BOUND] = "fe-bound",
	[TDO_BE_BOUND] = "be-bound", [TDO_SMT_CONTENTION] = "smt-contention",
	[TDO_LIGHT_OPS] = "light-ops", [TDO_HEAVY_OPS] = "heavy-ops",
	[TDO_BR_MISPREDICT] = "br-mispredict", [TDO_MACHINE_CLEARS] = "machine-clears",
	[TDO_FETCH_LAT] = "fetch-lat", [TDO_FETCH_BW] = "fetch-bw",
	[TDO_MEM_BOUND] = "mem-bound", [TDO_CORE_BOUND] = "core-bound",
};

static const int out_parent[TDO_NR] = {
	[TDO_RETIRING] = -1, [TDO_BAD_SPEC] = -1, [TDO_FE_BOUND] = -1, [TDO_BE_BOUND] = -1,
	[TDO_SMT_CONTENTION] = -1,
	[TDO_LIGHT_OPS] = TDO_RETIRING, [TDO_HEAVY_OPS] = TDO_RETIRING,
	[TDO_BR_MISPREDICT] = TDO_BAD_SPEC, [TDO_MACHINE_CLEARS] = TDO_BAD_SPEC,
	[TDO_FETCH_LAT] = TDO_FE_BOUND, [TDO_FETCH_BW] = TDO_FE_BOUND,
	[TDO_MEM_BOUND] = TDO_BE_BOUND, [TDO_CORE_BOUND] = TDO_BE_BOUND,
};

const char *td_out_name(enum td_out o)
{
	return (unsigned)o < TDO_NR ? out_names[o] : "?";
}

int td_out_parent(enum td_out o)
{
	return (unsigned)o < TDO_NR ? out_parent[o] : -1;
}

/* --- models --------------------------------------------------------------------------------- */

/* Intel: sysfs aliases of the core PMU (kernel arch/x86/events/intel/core.c). */
static const struct td_event intel_events[] = {
	{ TDI_SLOTS, "slots", "slots", 1 },
	{ TDI_RETIRING, "topdown-retiring", "topdown-retiring", 1 },
	{ TDI_BAD_SPEC, "topdown-bad-spec", "topdown-bad-spec", 1 },
	{ TDI_FE_BOUND, "topdown-fe-bound", "topdown-fe-bound", 1 },
	{ TDI_BE_BOUND, "topdown-be-bound", "topdown-be-bound", 1 },
	{ TDI_HEAVY_OPS, "topdown-heavy-ops", "topdown-heavy-ops", 2 },
	{ TDI_BR_MISPREDICT, "topdown-br-mispredict", "topdown-br-mispredict", 2 },
	{ TDI_FETCH_LAT, "topdown-fetch-lat", "topdown-fetch-lat", 2 },
	{ TDI_MEM_BOUND, "topdown-mem-bound", "topdown-mem-bound", 2 },
};

/* Intel before Ice Lake: the kernel's generic-counter aliases (arch/x86/events/intel/core.c),
 * total slots first so that it can lead the group (fixed counter 1 counts it). */
static const struct td_event intel_slots4_events[] = {
	{ TDI_CYCLES, "topdown-total-slots", "topdown-total-slots", 1 },
	{ TDI_INTEL_SLOTS_ISSUED, "topdown-slots-issued", "topdown-slots-issued", 1 },
	{ TDI_INTEL_SLOTS_RETIRED, "topdown-slots-retired", "topdown-slots-retired", 1 },
	{ TDI_INTEL_FETCH_BUBBLES, "topdown-fetch-bubbles", "topdown-fetch-bubbles", 1 },
	{ TDI_INTEL_RECOVERY_CYC, "topdown-recovery-bubbles", "topdown-recovery-bubbles", 1 },
};

/* AMD Zen 4/5 core PMU: event=config:0-7,32-35, umask=config:8-15, cmask=config:24-31 (perf's
 * amdzen4/amdzen5 pipeline.json encodings). The cmask of the frontend-latency event is the width
 * and is filled in by td_model_events(). */
static const struct td_event amd_events[] = {
	{ TDI_CYCLES, "ls_not_halted_cyc", "event=0x76", 1 },
	{ TDI_AMD_DISPATCHED, "de_src_op_disp.all", "event=0xaa,umask=0x7", 1 },
	{ TDI_AMD_RET_OPS, "ex_ret_ops", "event=0xc1", 1 },
	{ TDI_AMD_FE_EMPTY, "de_no_dispatch_per_slot.no_ops_from_frontend", "event=0x1a0,umask=0x1", 1 },
	{ TDI_AMD_BE_STALLS, "de_no_dispatch_per_slot.backend_stalls", "event=0x1a0,umask=0x1e", 1 },
	{ TDI_AMD_SMT, "de_no_dispatch_per_slot.smt_contention", "event=0x1a0,umask=0x60", 1 },
	{ TDI_AMD_FE_LAT_CYC, "de_no_dispatch_per_slot.no_ops_from_frontend:cmask=W", NULL, 2 },
	{ TDI_AMD_LD_NOT_DONE, "ex_no_retire.load_not_complete", "event=0xd6,umask=0xa2", 2 },
	{ TDI_AMD_NOT_DONE, "ex_no_retire.not_complete", "event=0xd6,umask=0x2", 2 },
	{ TDI_AMD_UCODE_OPS, "ex_ret_ucode_ops", "event=0x1c2", 2 },
	{ TDI_AMD_BRN_MISP, "ex_ret_brn_misp", "event=0xc3", 2 },
	/* the resync event differs: filled in by td_model_events() */
	{ TDI_AMD_RESYNCS, "resyncs_or_nc_redirects", "event=0x96", 2 },
};

/* Arm PMUv3 common events (event=config:0-15): Arm ARM D17, perf's sbsa.json. CPU_CYCLES leads. */
static const struct td_event arm_slot_events[] = {
	{ TDI_CYCLES, "cpu_cycles", "event=0x11", 1 },
	{ TDI_ARM_STALL_SLOT, "stall_slot", "event=0x3f", 1 },
	{ TDI_ARM_STALL_SLOT_FE, "stall_slot_frontend", "event=0x3e", 1 },
	{ TDI_ARM_STALL_SLOT_BE, "stall_slot_backend", "event=0x3d", 1 },
	{ TDI_ARM_OP_SPEC, "op_spec", "event=0x3b", 1 },
	{ TDI_ARM_OP_RETIRED, "op_retired", "event=0x3a", 1 },
};

static const struct td_event arm_cycle_events[] = {
	{ TDI_CYCLES, "cpu_cycles", "event=0x11", 1 },
	{ TDI_ARM_STALL_FE, "stall_frontend", "event=0x23", 1 },
	{ TDI_ARM_STALL_BE, "stall_backend", "event=0x24", 1 },
	{ TDI_ARM_INST_SPEC, "inst_spec", "event=0x1b", 1 },
	{ TDI_ARM_INST_RETIRED, "inst_retired", "event=0x08", 1 },
};

/* Zen 4: family 0x19 models 0x10-0x1f and 0x60-0xaf (the kernel's X86_FEATURE_ZEN4 ranges). */
static int is_zen4(uint32_t family, uint32_t model)
{
	return family == 0x19 && ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0xaf));
}

static int no_model(char *why, size_t len, const char *fmt, unsigned a, unsigned b)
{
	snprintf(why, len, fmt, a, b);
	return -ENOTSUP;
}

static int select_intel(struct td_model *m, const struct td_cpu *c, char *why, size_t len)
{
	if ((!c->intel_slots || !c->intel_metrics) && c->intel_slots4) {
		/* the 4-wide cores before Ice Lake: 4 slots a cycle, 2 per thread when the
		 * aliases count the whole core (HT on: any=1, .scale 2) */
		m->kind = TD_KIND_INTEL_SLOTS4;
		snprintf(m->cpu, sizeof(m->cpu), "Intel 4-wide (pre-Ice Lake)");
		m->width = c->intel_slots_scale ? c->intel_slots_scale : 4;
		m->recovery_scale = c->intel_recovery_scale ? c->intel_recovery_scale : m->width;
		m->grouped = 1;
		return 0;
	}
	if (!c->intel_slots || !c->intel_metrics)
		return no_model(why, len, "Intel family %u model 0x%x: the core PMU has no 'slots' "
				"and 'topdown-*' events (PERF_METRICS arrived with Ice Lake) nor the "
				"older 'topdown-total-slots' set", c->family, c->model);
	m->kind = TD_KIND_INTEL_METRICS;
	snprintf(m->cpu, sizeof(m->cpu), "Intel PERF_METRICS");
	m->level2 = c->intel_level2;
	m->grouped = 1;
	return 0;
}

static int select_amd(struct td_model *m, const struct td_cpu *c, char *why, size_t len)
{
	if (c->family == 0x1a) {
		snprintf(m->cpu, sizeof(m->cpu), "Zen 5");
		m->width = 8;
	} else if (is_zen4(c->family, c->model)) {
		snprintf(m->cpu, sizeof(m->cpu), "Zen 4");
		m->width = 6;
	} else if (c->family == 0x19) {
		return no_model(why, len, "AMD family 0x%x model 0x%x is Zen 3: it has no per-slot "
				"dispatch events (PMCx1A0 arrived with Zen 4), so no TopDown breakdown",
				c->family, c->model);
	} else {
		return no_model(why, len, "AMD family 0x%x model 0x%x: TopDown needs Zen 4 or "
				"newer (PMCx1A0 dispatch slots)", c->family, c->model);
	}
	m->kind = TD_KIND_AMD_SLOTS;
	m->level2 = 1;
	return 0;
}

static int select_arm(struct td_model *m, const struct td_cpu *c, char *why, size_t len)
{
	static const struct { uint32_t part; const char *name; unsigned width; } cores[] = {
		{ 0xd0c, "Neoverse N1", 0 }, { 0xd49, "Neoverse N2", 5 },
		{ 0xd40, "Neoverse V1", 8 }, { 0xd4f, "Neoverse V2", 8 },
	};

	for (size_t i = 0; c->arm_implementer == 0x41 && i < sizeof(cores) / sizeof(cores[0]); i++) {
		if (cores[i].part != c->arm_part)
			continue;
		snprintf(m->cpu, sizeof(m->cpu), "%s", cores[i].name);
		m->grouped = 1;
		if (!cores[i].width) {
			m->kind = TD_KIND_ARM_CYCLES;
			return 0;
		}
		m->kind = TD_KIND_ARM_SLOTS;
		m->width = c->arm_caps_slots ? c->arm_caps_slots : cores[i].width;
		/* N2 r0p0 and r0p3 (seed 002; perf applies it to MIDR 0x410fd490 and 0x410fd493) */
		m->n2_erratum = c->arm_part == 0xd49 && c->arm_variant == 0 &&
				(c->arm_revision == 0 || c->arm_revision == 3);
		return 0;
	}
	return no_model(why, len, "Arm implementer 0x%x part 0x%x: no TopDown model (known: "
			"Neoverse N1, N2, V1, V2)", c->arm_implementer, c->arm_part);
}

int td_model_select(struct td_model *m, const struct td_cpu *c, char *why, size_t len)
{
	memset(m, 0, sizeof(*m));
	if (len)
		why[0] = 0;
	switch (c->vendor) {
	case TD_VENDOR_INTEL:
		return select_intel(m, c, why, len);
	case TD_VENDOR_AMD:
		return select_amd(m, c, why, len);
	case TD_VENDOR_ARM:
		return select_arm(m, c, why, len);
	default:
		snprintf(why, len, "no TopDown model for this CPU vendor (Intel, AMD and Arm "
			 "Neoverse are known)");
		return -ENOTSUP;
	}
}

int td_model_level2(const struct td_model *m, char *why, size_t len)
{
	const char *fmt = NULL;

	switch (m->kind) {
	case TD_KIND_AMD_SLOTS:
		break;
	case TD_KIND_INTEL_METRICS:
		if (!m->level2)
			fmt = "level 1 only: this core's PERF_METRICS has no level-2 bytes "
			      "(topdown-heavy-ops, -br-mispredict, -fetch-lat and -mem-bound arrived "
			      "with Sapphire Rapids)";
		break;
	case TD_KIND_INTEL_SLOTS4:
		fmt = "level 1 only: the five pre-Ice Lake TopDown events have no level 2";
		break;
	case TD_KIND_ARM_SLOTS:
		fmt = "level 1 only: Arm publishes no level 2 for %s (its telemetry specification "
		      "and perf's metrics stop at Topdown_L1; Topdown_Frontend and Topdown_Backend "
		      "start with Neoverse N3)";
		break;
	case TD_KIND_ARM_CYCLES:
		fmt = "level 1 only: Arm's method for %s is cycle accounting (frontend and backend "
		      "stalled cycles), with no level 2";
		break;
	default:
		fmt = "no TopDown model";
	}
	if (len)
		why[0] = 0;
	if (!fmt)
		return 1;
	snprintf(why, len, fmt, m->cpu);
	return 0;
}

size_t td_model_events(const struct td_model *m, struct td_event *out, size_t cap,
		       char *buf, size_t len)
{
	const struct td_event *t = NULL;
	size_t n = 0, nr = 0;

	switch (m->kind) {
	case TD_KIND_INTEL_METRICS:
		t = intel_events, nr = sizeof(intel_events) / sizeof(intel_events[0]);
		break;
	case TD_KIND_AMD_SLOTS:
		t = amd_events, nr = sizeof(amd_events) / sizeof(amd_events[0]);
		break;
	case TD_KIND_ARM_SLOTS:
		t = arm_slot_events, nr = sizeof(arm_slot_events) / sizeof(arm_slot_events[0]);
		break;
	case TD_KIND_ARM_CYCLES:
		t = arm_cycle_events, nr = sizeof(arm_cycle_events) / sizeof(arm_cycle_events[0]);
		break;
	case TD_KIND_INTEL_SLOTS4:
		t = intel_slots4_events, nr = sizeof(intel_slots4_events) / sizeof(intel_slots4_events[0]);
		break;
	default:
		return 0;
	}
	for (size_t i = 0; i < nr && n < cap; i++) {
		if (t[i].level > 1 && !m->level2)
			continue;
		out[n] = t[i];
		if (t[i].in == TDI_AMD_FE_LAT_CYC) {
			snprintf(buf, len, "event=0x1a0,umask=0x1,cmask=0x%x", m->width);
			out[n].terms = buf;
		}
		if (t[i].in == TDI_AMD_RESYNCS && m->width == 8) {   /* Zen 5 (amdzen5/other.json) */
			out[n].name = "bp_redirects.resync";
			out[n].terms = "event=0x9f,umask=0x1";
		}
		n++;
	}
	return n;
}

/* --- formulas ------------------------------------------------------------------------------- */

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

static int has(const struct td_counts *c, enum td_in i)
{
	return (c->have >> i) & 1;
}

static double val(const struct td_counts *c, enum td_in i)
{
	return (double)c->v[i];
}

static void put(struct td_result *r, enum td_out o, double x)
{
	r->v[o] = clamp01(x);
	r->have |= 1u << o;
}

static int need(const struct td_counts *c, const enum td_in *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!has(c, in[i]))
			return 0;
	return 1;
}

#define NEED(c, ...) need(c, (const enum td_in[]){ __VA_ARGS__ }, \
			  sizeof((const enum td_in[]){ __VA_ARGS__ }) / sizeof(enum td_in))

/* A level-2 pair that splits @parent: @part of it, the rest to @other. */
static void split(struct td_result *r, enum td_out parent, double part, enum td_out p, enum td_out other)
{
	put(r, p, part);
	put(r, other, r->v[parent] - r->v[p]);
}

static int intel(const struct td_counts *c, struct td_result *r)
{
	double s;

	if (!NEED(c, TDI_SLOTS, TDI_RETIRING, TDI_BAD_SPEC, TDI_FE_BOUND, TDI_BE_BOUND))
		return -EINVAL;
	s = r->slots = val(c, TDI_SLOTS);
	if (s <= 0)
		return -ERANGE;
	put(r, TDO_RETIRING, val(c, TDI_RETIRING) / s);
	put(r, TDO_BAD_SPEC, val(c, TDI_BAD_SPEC) / s);
	put(r, TDO_FE_BOUND, val(c, TDI_FE_BOUND) / s);
	put(r, TDO_BE_BOUND, val(c, TDI_BE_BOUND) / s);
	if (has(c, TDI_HEAVY_OPS))
		split(r, TDO_RETIRING, val(c, TDI_HEAVY_OPS) / s, TDO_HEAVY_OPS, TDO_LIGHT_OPS);
	if (has(c, TDI_BR_MISPREDICT))
		split(r, TDO_BAD_SPEC, val(c, TDI_BR_MISPREDICT) / s, TDO_BR_MISPREDICT,
		      TDO_MACHINE_CLEARS);
	if (has(c, TDI_FETCH_LAT))
		split(r, TDO_FE_BOUND, val(c, TDI_FETCH_LAT) / s, TDO_FETCH_LAT, TDO_FETCH_BW);
	if (has(c, TDI_MEM_BOUND))
		split(r, TDO_BE_BOUND, val(c, TDI_MEM_BOUND) / s, TDO_MEM_BOUND, TDO_CORE_BOUND);
	return 0;
}

static int amd(const struct td_model *m, const struct td_counts *c, struct td_result *r)
{
	double s, ret, disp;

	if (!NEED(c, TDI_CYCLES, TDI_AMD_DISPATCHED, TDI_AMD_RET_OPS, TDI_AMD_FE_EMPTY,
		  TDI_AMD_BE_STALLS))
		return -EINVAL;
	s = r->slots = (double)m->width * val(c, TDI_CYCLES);
	if (s <= 0)
		return -ERANGE;
	ret = val(c, TDI_AMD_RET_OPS);
	disp = val(c, TDI_AMD_DISPATCHED);
	put(r, TDO_RETIRING, ret / s);
	put(r, TDO_BAD_SPEC, (disp - ret) / s);
	put(r, TDO_FE_BOUND, val(c, TDI_AMD_FE_EMPTY) / s);
	put(r, TDO_BE_BOUND, val(c, TDI_AMD_BE_STALLS) / s);
	if (has(c, TDI_AMD_SMT))
		put(r, TDO_SMT_CONTENTION, val(c, TDI_AMD_SMT) / s);
	if (has(c, TDI_AMD_FE_LAT_CYC))
		split(r, TDO_FE_BOUND, m->width * val(c, TDI_AMD_FE_LAT_CYC) / s, TDO_FETCH_LAT,
		      TDO_FETCH_BW);
	if (NEED(c, TDI_AMD_LD_NOT_DONE, TDI_AMD_NOT_DONE) && c->v[TDI_AMD_NOT_DONE])
		split(r, TDO_BE_BOUND, r->v[TDO_BE_BOUND] * val(c, TDI_AMD_LD_NOT_DONE) /
		      val(c, TDI_AMD_NOT_DONE), TDO_MEM_BOUND, TDO_CORE_BOUND);
	/* perf's bad_speculation_mispredicts and _pipeline_restarts */
	if (NEED(c, TDI_AMD_BRN_MISP, TDI_AMD_RESYNCS) &&
	    c->v[TDI_AMD_BRN_MISP] + c->v[TDI_AMD_RESYNCS])
		split(r, TDO_BAD_SPEC, r->v[TDO_BAD_SPEC] * val(c, TDI_AMD_BRN_MISP) /
		      (val(c, TDI_AMD_BRN_MISP) + val(c, TDI_AMD_RESYNCS)), TDO_BR_MISPREDICT,
		      TDO_MACHINE_CLEARS);
	if (has(c, TDI_AMD_UCODE_OPS) && ret > 0)
		split(r, TDO_RETIRING, r->v[TDO_RETIRING] * val(c, TDI_AMD_UCODE_OPS) / ret,
		      TDO_HEAVY_OPS, TDO_LIGHT_OPS);
	return 0;
}

static int arm_slots(const struct td_model *m, const struct td_counts *c, struct td_result *r)
{
	double s, cyc, fe, stall, ret_share;

	if (!NEED(c, TDI_CYCLES, TDI_ARM_STALL_SLOT, TDI_ARM_STALL_SLOT_FE, TDI_ARM_STALL_SLOT_BE,
		  TDI_ARM_OP_SPEC, TDI_ARM_OP_RETIRED))
		return -EINVAL;
	cyc = val(c, TDI_CYCLES);
	s = r->slots = (double)m->width * cyc;
	if (s <= 0)
		return -ERANGE;
	fe = val(c, TDI_ARM_STALL_SLOT_FE) - (m->n2_erratum ? cyc : 0);
	stall = val(c, TDI_ARM_STALL_SLOT) - (m->n2_erratum ? cyc : 0);
	ret_share = c->v[TDI_ARM_OP_SPEC] ? clamp01(val(c, TDI_ARM_OP_RETIRED) /
						   val(c, TDI_ARM_OP_SPEC)) : 0;
	put(r, TDO_FE_BOUND, fe / s);
	put(r, TDO_BE_BOUND, val(c, TDI_ARM_STALL_SLOT_BE) / s);
	put(r, TDO_RETIRING, ret_share * (1 - clamp01(stall / s)));
	put(r, TDO_BAD_SPEC, (1 - ret_share) * (1 - clamp01(stall / s)));
	return 0;
}

static int arm_cycles(const struct td_counts *c, struct td_result *r)
{
	double cyc, fe, be, busy, ret_share;

	if (!NEED(c, TDI_CYCLES, TDI_ARM_STALL_FE, TDI_ARM_STALL_BE, TDI_ARM_INST_SPEC,
		  TDI_ARM_INST_RETIRED))
		return -EINVAL;
	cyc = r->slots = val(c, TDI_CYCLES);
	if (cyc <= 0)
		return -ERANGE;
	fe = clamp01(val(c, TDI_ARM_STALL_FE) / cyc);
	be = clamp01(val(c, TDI_ARM_STALL_BE) / cyc);
	busy = clamp01(1 - fe - be);
	ret_share = c->v[TDI_ARM_INST_SPEC] ? clamp01(val(c, TDI_ARM_INST_RETIRED) /
						     val(c, TDI_ARM_INST_SPEC)) : 0;
	put(r, TDO_FE_BOUND, fe);
	put(r, TDO_BE_BOUND, be);
	put(r, TDO_RETIRING, busy * ret_share);
	put(r, TDO_BAD_SPEC, busy * (1 - ret_share));
	return 0;
}

/* perf's topdown.txt for the cores before Ice Lake: backend bound is what the other three
 * leave. */
static int intel_slots4(const struct td_model *m, const struct td_counts *c, struct td_result *r)
{
	double s, fe, bad, ret;

	if (!NEED(c, TDI_CYCLES, TDI_INTEL_SLOTS_ISSUED, TDI_INTEL_SLOTS_RETIRED,
		  TDI_INTEL_FETCH_BUBBLES, TDI_INTEL_RECOVERY_CYC))
		return -EINVAL;
	s = r->slots = (double)m->width * val(c, TDI_CYCLES);
	if (s <= 0)
		return -ERANGE;
	fe = clamp01(val(c, TDI_INTEL_FETCH_BUBBLES) / s);
	bad = clamp01((val(c, TDI_INTEL_SLOTS_ISSUED) - val(c, TDI_INTEL_SLOTS_RETIRED) +
		       (double)m->recovery_scale * val(c, TDI_INTEL_RECOVERY_CYC)) / s);
	ret = clamp01(val(c, TDI_INTEL_SLOTS_RETIRED) / s);
	put(r, TDO_FE_BOUND, fe);
	put(r, TDO_BAD_SPEC, bad);
	put(r, TDO_RETIRING, ret);
	put(r, TDO_BE_BOUND, 1 - fe - bad - ret);
	return 0;
}

int td_compute(const struct td_model *m, const struct td_counts *c, struct td_result *r)
{
	memset(r, 0, sizeof(*r));
	switch (m->kind) {
	case TD_KIND_INTEL_METRICS:
		return intel(c, r);
	case TD_KIND_AMD_SLOTS:
		return amd(m, c, r);
	case TD_KIND_ARM_SLOTS:
		return arm_slots(m, c, r);
	case TD_KIND_ARM_CYCLES:
		return arm_cycles(c, r);
	case TD_KIND_INTEL_SLOTS4:
		return intel_slots4(m, c, r);
	default:
		return -EINVAL;
	}
}

void td_intel_metrics_scale(uint64_t slots, uint64_t metrics, uint64_t out[8])
{
	for (int i = 0; i < 8; i++) {
		unsigned __int128 x = (unsigned __int128)slots * ((metrics >> (8 * i)) & 0xff);

		out[i] = (uint64_t)(x / 0xff);
	}
}
