/* The events `c2c-lite record` opens, built as `perf c2c record` builds them.
 *
 * events_add_default() picks the memory-sampling events of the machine's PMUs (sysfs below the
 * sysfs root, /proc/cpuinfo for the vendor): Intel cpu/mem-loads,ldlat=N/P + cpu/mem-stores/P
 * (with the cpu/mem-loads-aux/ leader where the PMU has that alias, and on both cpu_core and
 * cpu_atom on hybrids), AMD ibs_op// (ldlat on PMUs with caps/ldlat; Zen 3 and older refused),
 * PowerPC cpu/mem-loads/ + cpu/mem-stores/, Arm arm_spe_N with load/store filters and
 * min_latency. events_add_string() parses one -e string. events_finalize() applies the
 * common attr settings (sample_type, tracking bits, inherit, exclusions) of perf 6.1's
 * `perf record -W -d --phys-data --sample-cpu`, and for an Arm SPE event what perf's
 * arm_spe_recording_options() adds: the SPE event first with a fixed period (caps/min_interval
 * or -c; -F is refused), ts_enable unless the event string set it, the AUX area size, and a
 * dummy:u tracking event (period 1, context switches) last. The list is a plain value owned by
 * the caller. */
#ifndef C2C_RECORD_EVENTS_H
#define C2C_RECORD_EVENTS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "c2c/tdreader.h"
#include "record/cpuinfo.h"
#include "record/rate-plan.h"

#define EV_CPUS_MAX 4096

/* perf record's defaults (the rate: record/rate-plan.h). */
#define EV_DEFAULT_LDLAT  30
/* perf record's SPE buffers (arm_spe_recording_options): the AUX area is 4 MiB for privileged
 * users, 128 KiB otherwise, when the data ring of an unprivileged user also shrinks to 256 KiB. */
#define EV_SPE_AUX_PRIV_BYTES    (4u << 20)
#define EV_SPE_AUX_UNPRIV_BYTES  (128u << 10)
#define EV_SPE_DATA_UNPRIV_BYTES (256u << 10)
#define EV_SPE_DEFAULT_INTERVAL  4096   /* period when the PMU has no caps/min_interval */

enum ev_role {
	EV_ROLE_SAMPLER = 0,   /* its samples are kept */
	EV_ROLE_AUX,           /* mem-loads-aux leader: opened, samples dropped */
	EV_ROLE_TRACKING,      /* dummy side-band event (system-wide) */
	EV_ROLE_TD_SLOTS,      /* TopDown: slots leader (counting) */
	EV_ROLE_TD_METRIC,     /* TopDown: metric or vendor counter (counting member) */
	EV_ROLE_TD_READER,     /* TopDown beside IBS/SPE: the group's sampling leader, its samples
				* are readings (record/topdown.h) */
};

struct ev_desc {
	struct perf_event_attr attr;
	char name[160];        /* perf-style name */
	uint32_t backend;      /* enum trace_backend */
	enum ev_role role;
	int leader;            /* index of the group leader (itself when it leads) */
	int precise_max;       /* precise_ip to try first (falls back to lower ones) */
	int has_cpus;          /* 1: open only on the CPUs in cpus (hybrid/SPE PMU) */
	uint8_t cpus[EV_CPUS_MAX / 8];
	uint32_t aux_pages;    /* AUX area pages (SPE), 0 none */
	uint8_t aux_tracking;  /* the dummy:u side-band event perf adds for AUX tracing (SPE) */
	uint8_t ts_given;      /* SPE: the event string set ts_enable itself */
	uint64_t pa_mask;      /* SPE: the config bits of pa_enable (needs CAP_PERFMON) */
	int td_index;          /* TopDown member: position in trace_sample.td, -1 otherwise */
	int no_inherit;        /* the event string said no-inherit */
	uint64_t st_before_td; /* sample_type before TopDown made it carry IDENTIFIER ... */
	int st_saved;          /* ... when this is set */
};

struct ev_list {
	struct ev_desc *ev;
	size_t nr, cap;
	struct cpuinfo cpu;
	char pmu_name[64];         /* trace_info.pmu_name */
	uint32_t backend;          /* backend of the samplers */
	int td_enabled;            /* TopDown members are in a sampling group */
	char td_reason[256];       /* why TopDown is unavailable ("" when enabled/not asked) */
	uint32_t td_nr;            /* TopDown values per sample */
	unsigned int spe_data_pages; /* SPE: data ring pages perf uses when -m is not given (0: the
				      * default) */
	char td_names[8][32];
	int td_reader;             /* 1: the TopDown group stands apart (IBS, SPE); td_rd says how
				    * its readings map to model inputs (td_rd.event is set when the
				    * trace is written) */
	struct td_reader td_rd;
};

struct events_opts {
	unsigned int ldlat;        /* 0: the default (30; AMD caps/ldlat: no filter) */
	struct rate_plan rate;     /* the sampling rate (rate_plan_here()): a period of events
				    * (-c) or a frequency; zeroed: the default frequency */
	int all_user, all_kernel;
	int system_wide;           /* -a/-C: per-CPU events for every task, dummy tracking event */
	int workload;              /* a forked workload: enable_on_exec */
	int no_inherit;
	int topdown;               /* add TopDown members to the sampling group when possible */
	int loads_only, stores_only;
	int callchain;             /* 1 -g / --call-graph fp: PERF_SAMPLE_CALLCHAIN on the samplers;
				    * 2 --call-graph dwarf: the kernel part, and the user registers
				    * and stack to unwind (record/unwind-rec.h) */
	uint32_t stack_user;       /* dwarf: bytes of stack per sample (0: 8192) */
	int perf_privileged;       /* perf_event_paranoid_check(-1) (record/priv.h): SPE buffer sizes */
	unsigned int page_size;    /* 0: this machine's */
};

void events_init(struct ev_list *l);
void events_release(struct ev_list *l);
/* Read /proc/cpuinfo below the sysfs root into l->cpu (done by events_add_* when needed). */
int events_detect_cpu(struct ev_list *l);
/* The machine's memory events (loads and stores). -ENOTSUP with a logged reason when the
 * machine has no memory-sampling PMU. */
int events_add_default(struct ev_list *l, const struct events_opts *o);
/* One -e string: "mem-loads", "mem-stores", "page-faults", "cpu-clock", "pmu/terms/mods",
 * "name:mods". */
int events_add_string(struct ev_list *l, const struct events_opts *o, const char *spec);
/* The soft backend's event: cpu-clock:u with the registers of REGS_X86_SOFT_MASK
 * (record/backend-soft.h). */
int events_add_soft(struct ev_list *l, const struct events_opts *o);
/* One hardware watchpoint (read/write) on @len bytes (1, 2, 4, 8; aligned) at @addr; @name for
 * messages. Every hit is a sample (period 1). */
int events_add_watch(struct ev_list *l, uint64_t addr, unsigned int len, const char *name);
/* Add TopDown members per vendor, or record the reason in l->td_reason. */
int events_add_topdown(struct ev_list *l, const struct events_opts *o);
/* Apply the common settings; call once after all events were added. */
int events_finalize(struct ev_list *l, const struct events_opts *o);
/* The arm_spe_* PMU of an SPE event (by its attr.type); -ENOENT when none has that type. */
struct pmu;
int events_spe_pmu(const struct ev_desc *e, struct pmu *p);
/* The attr flag word at offset 40 (for tests and the trace's event descriptions). */
uint64_t events_attr_flags(const struct perf_event_attr *a);
/* Print the memory events this machine offers and the software events (for -e list) into
 * a caller's buffer-growing callback. */
int events_list(void (*emit)(const char *line, void *ctx), void *ctx);

#endif
