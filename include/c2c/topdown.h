/* TopDown level 1 and level 2 per vendor: which counters a CPU needs and what the breakdown is.
 *
 * Pure code shared by `stat` (record side), the region library and the report: a model
 * (td_model_select) says which counters to open (td_model_events) and td_compute() turns their
 * counts into fractions of pipeline slots. Nothing here opens events or reads files. The
 * formulas and their sources are in docs/topdown.md:
 *   Intel Ice Lake+   SLOTS and the PERF_METRICS pseudo-events (kernel topdown.txt): each
 *                     topdown-X count is slots x byte/0xff, fraction = X / slots;
 *   AMD Zen 4, Zen 5  PMCx1A0 dispatch-slot events over W x cycles (W = 6, 8; perf's amdzen4/5
 *                     pipeline metrics);
 *   Arm Neoverse      STALL_SLOT* over #slots x CPU_CYCLES (N2, V1, V2; perf's sbsa metrics),
 *                     with the N2 correction that takes one CPU_CYCLES off STALL_SLOT and
 *                     STALL_SLOT_FRONTEND; N1 has no slot events and gets cycle fractions.
 *   Intel SNB..CLX    topdown-total-slots, -slots-issued, -slots-retired, -fetch-bubbles and
 *                     -recovery-bubbles (kernel core.c aliases, perf's topdown.txt), 4 slots a
 *                     cycle (the aliases' .scale: 2 per thread with HT's any=1);
 * Zen 3 and older, Intel without either alias set and unknown cores give a reason instead. */
#ifndef C2C_TOPDOWN_H
#define C2C_TOPDOWN_H

#include <stddef.h>
#include <stdint.h>

/* Counters a model reads. Intel's metric inputs are the kernel's slot counts, not the raw bytes. */
enum td_in {
	TDI_SLOTS, TDI_RETIRING, TDI_BAD_SPEC, TDI_FE_BOUND, TDI_BE_BOUND,
	TDI_HEAVY_OPS, TDI_BR_MISPREDICT, TDI_FETCH_LAT, TDI_MEM_BOUND,
	TDI_CYCLES,                       /* AMD ls_not_halted_cyc, Arm CPU_CYCLES */
	TDI_AMD_DISPATCHED,               /* de_src_op_disp.all */
	TDI_AMD_RET_OPS,                  /* ex_ret_ops */
	TDI_AMD_FE_EMPTY,                 /* de_no_dispatch_per_slot.no_ops_from_frontend */
	TDI_AMD_BE_STALLS,                /* de_no_dispatch_per_slot.backend_stalls */
	TDI_AMD_SMT,                      /* de_no_dispatch_per_slot.smt_contention */
	TDI_AMD_FE_LAT_CYC,               /* no_ops_from_frontend with cmask=W: all slots empty */
	TDI_AMD_LD_NOT_DONE,              /* ex_no_retire.load_not_complete */
	TDI_AMD_NOT_DONE,                 /* ex_no_retire.not_complete */
	TDI_AMD_UCODE_OPS,                /* ex_ret_ucode_ops */
	TDI_ARM_STALL_SLOT, TDI_ARM_STALL_SLOT_FE, TDI_ARM_STALL_SLOT_BE,
	TDI_ARM_OP_SPEC, TDI_ARM_OP_RETIRED,
	TDI_ARM_STALL_FE, TDI_ARM_STALL_BE,   /* N1: cycles with no op from the frontend/backend */
	TDI_ARM_INST_SPEC, TDI_ARM_INST_RETIRED,
	/* Intel before Ice Lake (topdown-total-slots is TDI_CYCLES: its raw cycle count) */
	TDI_INTEL_SLOTS_ISSUED, TDI_INTEL_SLOTS_RETIRED, TDI_INTEL_FETCH_BUBBLES,
	TDI_INTEL_RECOVERY_CYC,           /* topdown-recovery-bubbles: raw cycles */
	TDI_AMD_BRN_MISP,                 /* ex_ret_brn_misp */
	TDI_AMD_RESYNCS,                  /* Zen 4 resyncs_or_nc_redirects, Zen 5 bp_redirects.resync */
	TDI_NR,
};

/* Results, fractions of slots (0..1). The level-2 rows split their level-1 parent. */
enum td_out {
	TDO_RETIRING, TDO_BAD_SPEC, TDO_FE_BOUND, TDO_BE_BOUND,      /* level 1 */
	TDO_SMT_CONTENTION,               /* AMD: slots lost to the sibling thread (level 1) */
	TDO_LIGHT_OPS, TDO_HEAVY_OPS,     /* retiring: Intel heavy = microcode/multi-uop; AMD fastpath/microcode */
	TDO_BR_MISPREDICT, TDO_MACHINE_CLEARS,   /* bad spec: AMD machine clears = pipeline restarts */
	TDO_FETCH_LAT, TDO_FETCH_BW,
	TDO_MEM_BOUND, TDO_CORE_BOUND,
	TDO_NR,
};

enum td_kind {
	TD_KIND_NONE,
	TD_KIND_INTEL_METRICS,            /* slots + topdown-* (4 metrics, or 8 on SPR and later) */
	TD_KIND_AMD_SLOTS,                /* Zen 4, Zen 5 */
	TD_KIND_ARM_SLOTS,                /* Neoverse N2, V1, V2 */
	TD_KIND_ARM_CYCLES,               /* Neoverse N1 */
	TD_KIND_INTEL_SLOTS4,             /* Sandy Bridge .. Cascade Lake: topdown-total-slots etc. */
};

enum td_vendor { TD_VENDOR_OTHER, TD_VENDOR_INTEL, TD_VENDOR_AMD, TD_VENDOR_ARM };

/* What identifies a core for TopDown: cpuinfo facts plus what the core PMU's sysfs offers. */
struct td_cpu {
	enum td_vendor vendor;
	uint32_t family, model;                           /* x86 */
	uint32_t arm_implementer, arm_part, arm_variant, arm_revision;
	int intel_slots, intel_metrics, intel_level2;     /* aliases slots, topdown-retiring, -mem-bound */
	int intel_slots4;                 /* the five topdown-total-slots ... -recovery-bubbles aliases */
	uint32_t intel_slots_scale;       /* topdown-total-slots.scale: 4, 2 with HT (any=1); 0 absent */
	uint32_t intel_recovery_scale;    /* topdown-recovery-bubbles.scale; 0 absent */
	uint32_t arm_caps_slots;                          /* caps/slots (PMMIR_EL1.SLOTS), 0 absent */
};

struct td_model {
	enum td_kind kind;
	char cpu[32];                     /* "Zen 4", "Neoverse N2", "Intel PERF_METRICS" */
	unsigned width;                   /* slots per cycle (AMD, Arm, pre-Ice Lake Intel: the
					   * total-slots scale); 0 when SLOTS is counted */
	unsigned recovery_scale;          /* pre-Ice Lake Intel: slots per recovery cycle */
	int level2;                       /* the level-2 inputs are opened */
	int n2_erratum;                   /* STALL_SLOT and STALL_SLOT_FRONTEND count a slot too many per cycle */
	int grouped;                      /* all events must be one group (Intel: slots leads) */
};

/* One counter of a model: what it feeds and how to spell it on the core PMU (a sysfs alias or
 * format terms for pmu_apply_terms()). */
struct td_event {
	enum td_in in;
	const char *name;
	const char *terms;
	int level;                        /* 1 or 2 */
};

/* Choose the model for @c. 0, or -ENOTSUP with the reason in @why (one line). */
int td_model_select(struct td_model *m, const struct td_cpu *c, char *why, size_t len);
/* The events @m opens, in group order (leader first); *nr set. Level-2 events only when m->level2.
 * The array is static; @buf receives the cmask term of AMD's frontend-latency event and must
 * outlive the use of the result. */
size_t td_model_events(const struct td_model *m, struct td_event *out, size_t cap,
		       char *buf, size_t len);

/* Whether @m has a level 2 (vendor-published splits of its level-1 rows): 1, or 0 with why not in
 * @why ("level 1 only: ...", one line; docs/topdown.md gives the sources checked). AMD Zen 4/5 and
 * Intel PERF_METRICS with the level-2 metrics have one; Arm Neoverse N1, N2, V1, V2 and Intel
 * before Sapphire Rapids do not. */
int td_model_level2(const struct td_model *m, char *why, size_t len);

/* Counts of one interval: v[] indexed by enum td_in, have bit (1 << in) when read. */
struct td_counts {
	uint64_t v[TDI_NR];
	uint64_t have;
};

struct td_result {
	double v[TDO_NR];
	uint32_t have;                    /* bit (1 << out) when computed */
	double slots;                     /* slots of the interval (width x cycles, or SLOTS) */
};

/* The breakdown of @c under @m. -EINVAL when an input the level-1 formula needs is missing,
 * -ERANGE when there are no slots (nothing ran). Level 2 is filled when its inputs are there.
 * Fractions are clamped to 0..1 (counts read at different times can overshoot). */
int td_compute(const struct td_model *m, const struct td_counts *c, struct td_result *r);

/* Intel PERF_METRICS read with rdpmc (RDPMC_METRIC): byte i / 0xff is the fraction of metric i
 * (retiring, bad spec, fe bound, be bound, heavy ops, br mispredict, fetch lat, mem bound). Turn a
 * (SLOTS, PERF_METRICS) pair into slot counts as the kernel does (slots x byte / 0xff), so two
 * readings can be subtracted (kernel topdown.txt, "Decoding metrics values"). */
void td_intel_metrics_scale(uint64_t slots, uint64_t metrics, uint64_t out[8]);

const char *td_out_name(enum td_out o);
/* The level-1 parent of a level-2 row, or -1 for a level-1 row. */
int td_out_parent(enum td_out o);

#endif
