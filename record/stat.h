/* `c2c-lite stat`: counting events on a workload, processes or every CPU, as `perf stat` does.
 *
 * A plan (stat_plan_build) lists the counters: the software defaults (task-clock,
 * context-switches, cpu-migrations, page-faults) or the -e events, and with --topdown the
 * TopDown model's counters on the core PMU (include/c2c/topdown.h). Building reads sysfs and
 * /proc/cpuinfo below the sysfs root only, so tests run it on the fake machines in data/sysfs/.
 * When TopDown cannot be counted the plan keeps the reason (no model for the CPU, no core PMU in
 * sysfs: a VM without a virtual PMU, perf_event_paranoid) and the names of the counters it would
 * have needed. stat_open() opens the plan on the targets (one fd per counter and thread or CPU;
 * a counter that does not open keeps its -errno and the reason in words), stat_read() sums the
 * fds, scaled by time enabled / time running when the kernel multiplexed them. */
#ifndef C2C_RECORD_STAT_H
#define C2C_RECORD_STAT_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "c2c/topdown.h"

struct stat_counter {
	char name[160];
	struct perf_event_attr attr;
	int leader;                 /* index of its group leader (itself when it leads) */
	int td_in;                  /* enum td_in for TopDown counters, -1 otherwise */
	int has_cpus;               /* open only on the CPUs in cpus (hybrid core PMU) */
	char cpus[64];              /* the PMU's cpus list */
	int err;                    /* -errno when it opened nowhere; 0 otherwise */
	char why[200];              /* the reason when err */
	uint64_t val, ena, run;     /* sums over the fds at the last stat_read() */
};

struct stat_plan {
	struct stat_counter *c;
	size_t nr, cap;
	int topdown;                /* --topdown was asked */
	struct td_model model;
	int td_ok;                  /* TopDown counters are in the plan */
	char td_why[400];           /* why not (one line), "" when td_ok */
	char td_missing[400];       /* the counters TopDown needed and did not get */
	/* opened */
	int *fd;                    /* nr x nr_targets, -1 closed */
	size_t nr_targets;
};

struct stat_opts {
	const char *const *events;  /* -e, NULL: the software defaults */
	size_t nr_events;
	int topdown;
	int all_user;               /* count user space only (exclude_kernel) */
};

/* Where to count: one of a workload pid (inherits to its children, enabled at exec), a list of
 * threads, or every CPU (pid -1). */
struct stat_target {
	pid_t *tids;
	size_t nr_tids;
	int *cpus;
	size_t nr_cpus;
	int workload;               /* tids[0] is a forked child held before exec */
};

/* The threads of @pid now (/proc/PID/task), or every online CPU. 0 or -errno (logged). */
int stat_target_pid(struct stat_target *t, pid_t pid);
int stat_target_cpus(struct stat_target *t);

int stat_plan_build(struct stat_plan *p, const struct stat_opts *o);
void stat_plan_release(struct stat_plan *p);
/* Open every counter on every target. 0 when at least one counter opened somewhere; -errno of the
 * first failure otherwise (each counter's err/why say what happened to it). */
int stat_open(struct stat_plan *p, const struct stat_target *t);
/* Start counting (-p/-a; a workload starts at its exec). */
void stat_enable(struct stat_plan *p);
/* Refresh val/ena/run of every counter. 0 or -errno. */
int stat_read(struct stat_plan *p);
void stat_close(struct stat_plan *p);

/* The value of counter @i scaled to the time it was enabled (val x ena / run); *counted is 0
 * when it never ran. Pure. */
uint64_t stat_scaled(const struct stat_counter *c, int *counted);
/* TopDown inputs from the plan's counters, as deltas from @prev (scaled values, NULL: totals);
 * @prev is then updated to the current values. Pure. */
void stat_td_counts(const struct stat_plan *p, uint64_t *prev, struct td_counts *out);

#endif
