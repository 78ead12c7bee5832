/* `c2c-lite doctor`: what this machine lets c2c-lite record, why not, and the fix.
 *
 * doctor_env_detect() gathers the facts (cpuid on x86: vendor/family/model, hypervisor bit and
 * vendor, Intel leaf 0xA PMU version and counters, AMD counter and IBS bits; the user's
 * privileges; perf_event_paranoid; kpti= and the SPE kernel options). doctor_run() turns facts
 * plus sysfs (below the sysfs root) into rows, one per topic and backend (this vendor's only;
 * one row for all of them when there is no core PMU), each shown once: available or not, the
 * reason, the fix. With env.probe_open it also tries perf_event_open for software events and
 * hardware breakpoints.
 * The rows are plain values; doctor_release() frees them. */
#ifndef C2C_RECORD_DOCTOR_H
#define C2C_RECORD_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

struct doctor_cpuid {
	int valid;                   /* cpuid ran (x86) */
	char vendor[13];
	uint32_t family, model, stepping;
	int hypervisor;              /* leaf 1 ECX bit 31 */
	char hv_vendor[13];          /* leaf 0x40000000 signature */
	uint32_t pmu_version, gp_counters, gp_width, fixed_counters, fixed_width;  /* leaf 0xA */
	uint32_t amd_core_counters;  /* 4, 6 (PerfCtrExtCore) or leaf 0x80000022 */
	int amd_ibs;                 /* leaf 0x80000001 ECX bit 10 */
};

/* What the kernel says of its Arm SPE driver (/proc/cmdline, /proc/config.gz). */
struct doctor_kernel {
	int kpti;                    /* kpti= on the command line: 1 on, 0 off, -1 not given */
	char spe_pmu;                /* CONFIG_ARM_SPE_PMU: 'y', 'm', 'n' (not set); 0 unknown */
	char pid_in_contextidr;      /* CONFIG_PID_IN_CONTEXTIDR, likewise */
};

struct doctor_env {
	struct doctor_cpuid cpuid;
	struct doctor_kernel kernel;
	int privileged;              /* root or CAP_PERFMON/CAP_SYS_ADMIN */
	int paranoid;                /* kernel.perf_event_paranoid; -100: unknown */
	int probe_open;              /* try perf_event_open for software/breakpoint events */
};

enum doctor_status {
	DOCTOR_OK,
	DOCTOR_NO,
	DOCTOR_INFO,
};

struct doctor_row {
	char topic[32];
	enum doctor_status st;
	char detail[320];
	char fix[320];               /* "" when nothing to fix */
};

struct doctor {
	struct doctor_row *row;
	size_t nr, cap;
	int hw_memory;               /* some hardware memory-sampling backend is usable */
	int sw_events;               /* software events open */
	int soft;                    /* --backend=soft works (probed) */
	int watch;                   /* --backend=watch works (probed) */
};

void doctor_cpuid_read(struct doctor_cpuid *c);
void doctor_env_detect(struct doctor_env *env);
/* The kernel facts, below the sysfs root; what cannot be read stays unknown. */
void doctor_kernel_read(struct doctor_kernel *k);
/* One line of a kernel .config: 'y', 'm' or 'n' ("# CONFIG_X is not set") when it is about
 * @name (CONFIG_...), else 0. */
char doctor_kconfig_line(const char *line, const char *name);
int doctor_run(struct doctor *d, const struct doctor_env *env);
void doctor_release(struct doctor *d);
/* The row for @topic, or NULL. */
const struct doctor_row *doctor_find(const struct doctor *d, const char *topic);

/* The one-line verdict ('c2c-lite doctor -q'), without the "summary: " prefix. */
void doctor_summary(const struct doctor *d, int quiet, char *buf, size_t len);

#endif
