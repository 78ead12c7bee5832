/* diff: the before and after of a fix. Two report models (any backends) are compared finding by
 * finding: findings are matched by their data object with run-specific parts left out (the pid
 * in "heap of pid 4242: *c", the tid of a stack), so that ASLR and new pids do not matter; a
 * finding of unnamed data is matched by the code that touches it (the symbols of its costliest
 * line's rows). Each finding is then GONE (no contention left on it), SHRANK, GREW, SAME or NEW,
 * by its share of its run's total cost (percent of sampled time, HITMs or transfers). Pure:
 * models in, a diff out. */
#ifndef C2C_REPORT_DIFF_DIFF_H
#define C2C_REPORT_DIFF_DIFF_H

#include <stddef.h>
#include <stdio.h>

#include "c2c/run.h"
#include "report/model/findings.h"

enum diff_status { DIFF_GONE, DIFF_SHRANK, DIFF_SAME, DIFF_GREW, DIFF_NEW };

/* A share that changes by less than this many points, or 10% of itself, is the SAME. */
#define DIFF_SAME_POINTS 1.0

struct diff_side {
	const struct rm_finding *f;   /* NULL: none on that side */
	enum rm_verdict verdict;      /* RM_V_NONE when none */
	double share, gain;           /* percent of its run's total cost */
};

struct diff_entry {
	char key[256];                /* what matched the two sides */
	const char *what;             /* the heading of the newest side that has one */
	enum diff_status status;
	struct diff_side old, new;
};

struct diff {
	struct diff_entry *e;         /* gone and shrunk first, then by old share */
	size_t nr;
	size_t gone, shrank, same, grew, appeared;
};

/* The key a finding is matched by. */
void diff_key(const struct rm_finding *f, char *buf, size_t n);
struct diff *diff_build(const struct rm_findings *old, const struct rm_findings *new);
void diff_free(struct diff *d);

const char *diff_status_name(enum diff_status s);

/* WORKLOADS. What each run recorded, from its recorded command line: for a c2c-lite trace the
 * command after record's options (@options, as the trace keeps them), else what follows " -- ";
 * the program is its first word without its directory. */
enum diff_workloads {
	DIFF_WL_UNKNOWN,              /* a run attached to running tasks, or a perf.data without
				       * " -- ": nothing is said */
	DIFF_WL_SAME,                 /* one program with the same arguments */
	DIFF_WL_ARGS,                 /* one program with other arguments */
	DIFF_WL_PROGRAMS,             /* different programs */
};

/* The workload of @cmdline into @buf; 0, or -ENOENT when none can be told. */
int diff_workload(const char *cmdline, const char *options, char *buf, size_t n);
/* How the workloads @old and @new (NULL: unknown) compare. */
enum diff_workloads diff_workloads_cmp(const char *old, const char *new);
/* Its key in the JSON: "unknown", "same", "other arguments", "different programs". */
const char *diff_workloads_key(enum diff_workloads w);

/* THE GAIN, MEASURED. Each run's workload time as record saw it (include/c2c/run.h: traces
 * since 1.8 whose recording started the workload); the speedup is old wall time over new, and
 * it means something only when both ran the same command and exited 0 (@comparable; @why says
 * what is missing otherwise). */
struct diff_time {
	int have_old, have_new;
	struct c2c_run old, new;
	double speedup;               /* old wall / new wall; 0 unless both are known */
	double cpu_ratio;             /* old CPU / new CPU; 0 unless both are known */
	int comparable;
	const char *why;              /* NULL when comparable: static text */
};
void diff_time_build(const struct c2c_run *old, const struct c2c_run *new,
		     enum diff_workloads wl, struct diff_time *out);

#endif
