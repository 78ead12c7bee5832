/* topdown-time: TopDown counted apart from the memory sampler (AMD IBS, Arm SPE; see
 * include/c2c/tdreader.h), attributed to cachelines and functions by time.
 *
 * Input: the readings (running totals of the model's counters of one CPU and thread, or of one
 * CPU for per-CPU counters) and the memory samples, both in trace order. Per stream (CPU and
 * thread; CPU alone for scope cpu):
 *   - the counts between two readings are the later reading minus the earlier one; the first
 *     reading counts from zero (the counters start at zero when their instance is created), and
 *     a total that went down (a new instance) also counts from zero;
 *   - the interval's counts are split evenly over the stream's memory samples with a time
 *     after the previous reading and at or before this one: each of the k samples gets 1/k of
 *     every counter, charged to its cacheline and its code address;
 *   - an interval without a memory sample stays unattributed (it is in "all", not in "lines");
 *     samples after the stream's last reading are unattributed too (counted, not charged).
 * The breakdown of a line or function is td_compute() on the counts charged to it, so its
 * shares are slot-weighted like perf's. This is an estimate: it assumes the pipeline behaved
 * the same at each sample of an interval, which is why the readings should be frequent.
 *
 * Pure code: no I/O (the report model lays it out, report/model/sections.h). Memory: the memory samples waiting for a reading, and one
 * charge per attributed sample. Not thread-safe. */
#ifndef C2C_REPORT_TOPDOWN_TIME_H
#define C2C_REPORT_TOPDOWN_TIME_H

#include <stdint.h>

#include "c2c/tdreader.h"
#include "c2c/topdown.h"
#include "report/aggregate/topdown-agg.h"

#define TDT_VALS (1 + TRACE_TD_MAX)   /* the leader's value, then td[] */

struct tdt;

struct tdt_stats {
	uint64_t readings;               /* reading samples fed */
	uint64_t intervals;              /* intervals with counts */
	uint64_t intervals_charged;      /* ... that had memory samples */
	uint64_t resets;                 /* totals that went down */
	uint64_t samples_charged;        /* memory samples that got a share */
	uint64_t samples_uncharged;      /* memory samples no reading followed */
};

struct tdt *tdt_new(const struct td_reader *r, uint32_t cl_size);
void tdt_free(struct tdt *a);
const struct td_reader *tdt_reader(const struct tdt *a);

/* A reading: running totals of @cpu and @tid at @time (td_reader_counts()). */
void tdt_reading(struct tdt *a, uint32_t cpu, uint32_t tid, uint64_t time,
		 const struct td_counts *totals);
/* A memory sample (time, cpu, tid, ip, pid, cpumode, addr when TRACE_SAMPLE_HAS_ADDR). */
void tdt_sample(struct tdt *a, const struct trace_sample *s);
/* A trace sample: a reading when it is of the reader's event, else a memory sample. */
void tdt_feed(struct tdt *a, const struct trace_sample *s);
/* The end of the trace: the samples still waiting become uncharged. */
void tdt_finish(struct tdt *a);

const struct tdt_stats *tdt_stats(const struct tdt *a);
/* Counts of every interval (@all) or of the charged ones only; td_compute()'s result. -ERANGE
 * or -EINVAL as td_compute() (nothing counted). */
int tdt_total(const struct tdt *a, int all, struct td_result *r);
/* The counts charged to the cacheline holding @addr; -ENOENT when none. */
int tdt_line(const struct tdt *a, uint64_t addr, struct td_result *r);

/* One row of tdt_rows(): a cacheline (name NULL) or a function. */
struct tdt_row {
	const char *name;                /* function; "[unknown]" when @fn could not name it */
	uint64_t line;                   /* cacheline address */
	uint64_t samples;                /* memory samples charged */
	struct td_result r;
};
/* The @top lines (@funcs 0) or functions (@funcs 1, named by @fn, which may be NULL) with the
 * most slots (ties: address, name); *nr set. Caller frees the array. */
struct tdt_row *tdt_rows(const struct tdt *a, int funcs, size_t top, td_agg_sym_fn fn, void *ctx,
			 size_t *nr);
/* How the counts were attributed, one line without a newline (the report header and JSON). */
void tdt_describe(const struct tdt *a, char *buf, size_t len);

#endif
