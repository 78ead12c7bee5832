/* The events `c2c-lite record` opens, built as `perf c2c record` builds them.
 *
 * events_add_default() picks the memory-sampling events of the machine's PMUs (sysfs below the
 * sysfs root, /proc/cpuinfo for the vendor): Intel cpu/mem-loads,ldlat=N/P + cpu/mem-stores/P
 * (with the cpu/mem-loads-aux/ leader where the PMU has that alias, and on both cpu_core and
 * cpu_atom on hybrids), AMD ibs_op// (ldlat on PMUs with caps/ldlat; Zen 3 and older refused),
 * PowerPC cpu/mem-loads/ + cpu/mem-stores/, Arm arm_spe_N with load/store filters and
 * min_latency. events_add_string() parses one -e string. events_finalize() applies the
 * common attr settings (sample_type, tracking bits, inherit, exclusions) of perf 6.1's
 * `perf record -W -d --phys-data --sample-cpu`. The list is a plain value owned by the caller. */
#ifndef C2C_RECORD_EVENTS_H
#define C2C_RECORD_EVENTS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "record/cpuinfo.h"

#define EV_CPUS_MAX 4096

/* perf record's defaults. */
#define EV_DEFAULT_FREQ   4000
#define EV_DEFAULT_LDLAT  30
#define EV_SPE_AUX_PAGES  1024          /* 4 MiB AUX area (privileged default of perf) */

enum ev_role {
	EV_ROLE_SAMPLER = 0,   /* its samples are kept */
	EV_ROLE_AUX,           /* mem-loads-aux leader: opened, samples dropped */
	EV_ROLE_TRACKING,      /* dummy side-band event (system-wide) */
	EV_ROLE_TD_SLOTS,      /* TopDown: slots leader (counting) */
	EV_ROLE_TD_METRIC,     /* TopDown: metric or vendor counter (counting member) */
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
	int td_index;          /* TopDown member: position in trace_sample.td, -1 otherwise */
	int no_inherit;        /* the event string said no-inherit */
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
	char td_names[8][32];
};

struct events_opts {
	unsigned int ldlat;        /* 0: the default (30; AMD caps/ldlat: no filter) */
	uint64_t period;           /* -c: sample_period (freq 0) */
	uint64_t freq;             /* -F: sample_freq (0: 4000 unless period) */
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
/* The attr flag word at offset 40 (for tests and the trace's event descriptions). */
uint64_t events_attr_flags(const struct perf_event_attr *a);
/* Print the memory events this machine offers and the software events (for -e list) into
 * a caller's buffer-growing callback. */
int events_list(void (*emit)(const char *line, void *ctx), void *ctx);

#endif
