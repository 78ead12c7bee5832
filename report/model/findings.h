/* findings: the one judgement of every backend: which lines are falsely or truly shared, which
 * data objects that costs, what to fix and what fixing it may buy.
 *
 * THE RULE. A line's touches say which thread read, wrote or atomically updated which member:
 * a run of bytes the touches cover together (each its access's size from its first byte;
 * touches whose bytes overlap are one member, whatever the code calls them, and touches of
 * disjoint bytes are different members under one name: findings.c, MEMBERS ARE BYTES). For a touch of
 * thread t on member m, the other threads' accesses that make the line move are:
 *   true sources   other threads' writes (and atomics) of m, and when t writes, their reads of m:
 *                  the same bytes, shared by the algorithm;
 *   false sources  other threads' writes of other members that t does not write itself: the
 *                  line moves only because neighbouring bytes are written (a member both
 *                  threads write, like a lock beside the data it guards, is shared truly).
 * The touch's contention cost is split between true and false sharing in proportion to the
 * sources' access counts. What counts as its contention cost depends on the backend:
 *   PMU    the HITMs (or peer snoops) of its loads: every one is a transfer;
 *   watch  the transfers the coherence model charged to it;
 *   soft   its sampled time; a source counts only when its samples overlap the touch's in time
 *          (a final read after a join is no contention; a task that moved from one thread to
 *          another meets it only at the hand-over: findings.c, concurrent(), by 4-ms buckets),
 *          and each distinct source (thread, member, reads or writes) weighs 1: timer samples
 *          count stall time, not accesses.
 * A line is TRUE+FALSE when both parts are RM_MIXED_SHARE (10%; soft: 1%) of its contention or
 * more, else FALSE or TRUE SHARING by the larger part; NOT CONTENDED when its contention is
 * negligible (soft: under 1% of the line's time; watch: under 1 transfer per 1000 accesses;
 * PMU: none), and UNCLEAR on PMU lines with HITMs whose writers were never sampled.
 *
 * FINDINGS group the contended lines by data object (the variable, or the heap memory and the
 * type the code accesses it through: see names.h) and rank objects by their contention, so that
 * false sharing spread over an array of per-thread elements is one finding, not many small
 * lines. Each finding says what to fix, naming the members by the threads that write them, and
 * predicts the gain of fixing its false part: an upper bound, the share of the total cost
 * (sampled time, HITMs, transfers) on the false component.
 *
 * Pure: model in, judgement out. */
#ifndef C2C_REPORT_MODEL_FINDINGS_H
#define C2C_REPORT_MODEL_FINDINGS_H

#include <stddef.h>

#include "report/model/model.h"

/* The minority part makes a line TRUE+FALSE from this share of its contention. A line can be
 * both (the rule above is about which threads touch which bytes); the floor keeps a few stray
 * samples from adding a label. Soft data gets a lower floor: under timer sampling the false part
 * of a ring's head and tail lives in its stores, which seldom stall and so are seldom sampled,
 * yet moving them apart is the fix; event-based samples (PMU) and watchpoint counts weigh stores
 * as they happen. */
#define RM_MIXED_SHARE 0.10
#define RM_MIXED_SHARE_SOFT 0.01

/* Judge every line of @m (needs the rows' member names, rm_name(), for members): fills
 * rm_line.verdict, true_cost, false_cost and mem. Lines without names are judged by offsets. */
void rm_judge(struct rm_model *m);

/* EVIDENCE. What a finding rests on, so that a reader can weigh it: the samples (soft, PMU) or
 * accesses (watch) on its lines, by thread; the threads seen writing and only reading; and a
 * 95% interval on its share (Wilson's, over the model's total_samples: soft samples and PMU
 * HITMs are samples of a larger population; watch counts every access, so its interval is the
 * share itself). A verdict needs two threads: the second-most-seen thread's count is what it
 * rests on most thinly. Below the floor (RM_LOW_SAMPLES on the finding, RM_LOW_THREAD on that
 * thread; watch: RM_LOW_TRANSFERS) the verdict is a guess and the reports say "low confidence:
 * N samples" instead of asserting it. */
/* Watched accesses: fewer than one transfer (the watch backend) or one write (the soft
 * backend's confirmation: a flag read in a loop and set once) per RM_WATCH_FLOOR accesses is no
 * contention. */
#define RM_WATCH_FLOOR 1000
#define RM_LOW_SAMPLES 20
#define RM_LOW_THREAD 3
#define RM_LOW_TRANSFERS 10

struct rm_evidence {
	uint64_t samples;            /* samples (soft, PMU) or accesses (watch) on its lines */
	uint64_t second;             /* ... of its second-most-seen thread */
	const struct maps_thread *thr[4];   /* the most seen threads, most first */
	uint64_t thr_samples[4];
	size_t nr_threads, nr_writers, nr_readers;   /* distinct; readers: seen reading only */
	double share_lo, share_hi;   /* percent: 95% interval of rm_finding.share */
	int low;                     /* below the floor: a guess, not a verdict */
	/* soft: the costliest member whose false part rests on reads of bytes no sampled store
	 * writes (a timer seldom charges a store: its writer may be unseen, which would make it
	 * true sharing); NULL: none */
	const struct rm_member *unseen;
};

struct rm_finding {
	const char *object;          /* the data object ("buf1", "heap of pid 12: *c") */
	const char *what;            /* the heading of its costliest line */
	enum rm_verdict verdict;     /* over its lines' contention */
	double cost;                 /* its lines' cost (rm_line.cost) */
	double true_cost, false_cost;
	double share;                /* percent of the model's total cost: its contention */
	double gain;                 /* percent of the model's total cost: its false part (an
				      * upper bound of what fixing the false sharing buys) */
	const struct rm_line **line; /* its contended lines, costliest first */
	size_t nr_line;
	int array;                   /* its members are elements of an array */
	struct rm_evidence ev;
	char addr[24];               /* "0x..." of its costliest line: the name of unnamed data */
	char what_buf[512];          /* @what when it is rearranged */
	char advice[1536];
};

struct rm_findings {
	struct rm_finding *f;        /* by contention, descending */
	size_t nr;
	/* THE RUNTIME'S OWN DATA: findings on data of a language runtime (Go's runtime.sched, a
	 * runtime.p): contention the program causes inside its runtime, not data it declares;
	 * kept apart from @f and shown after the program's own (rm_runtime_data()) */
	struct rm_finding *rt;
	size_t nr_rt;
	size_t nr_contended_lines;
	/* watch: uncontended lines that several threads touched, writing, while every access ran on
	 * one CPU: no transfer could happen in this run, whatever the layout */
	size_t nr_one_cpu_lines;
};

/* The data object of line @l is a language runtime's own (Go: a runtime.* variable or type, or
 * memory nobody named that only runtime.* code touches, a channel's hchan). */
int rm_runtime_data(const struct rm_line *l);

/* Group the judged, named lines of @m into findings (and set rm_line.finding). */
struct rm_findings *rm_findings_build(struct rm_model *m);
void rm_findings_free(struct rm_findings *f);

/* "4721 samples (2362 by fs/101, 2359 by fs/102), 2 threads writing, 0 only reading; share
 * 99.12% [98.81, 99.37] (95%)" */
void rm_evidence_text(const struct rm_model *m, const struct rm_finding *f, char *buf, size_t n);
/* The verdict as a heading says it: "FALSE SHARING", or "low confidence: 12 samples (looks like
 * FALSE SHARING)" below the evidence floor. */
void rm_verdict_text(const struct rm_model *m, const struct rm_finding *f, char *buf, size_t n);

/* "buf1.a (offset 0x0)", "offset 0x8" */
void rm_member_label(const struct rm_member *mb, char *buf, size_t n);
/* "fs/101", "3 threads (fs/101, fs/102, fs/103)", "-" */
void rm_threads_text(const struct maps_thread *const *t, size_t nr, char *buf, size_t n);

#endif
