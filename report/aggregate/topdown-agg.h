/* topdown-agg: TopDown breakdown (retiring, bad speculation, frontend and backend bound, and the
 * level-2 splits where recorded) per cacheline and per function, from the slots and metric values
 * that samples carry (trace_sample.td_slots, td[]).
 *
 * What the values are: on Intel cores with PERF_METRICS the recorder puts slots and the
 * topdown-* events in the load sampler's group and reads the group with every sample
 * (record/topdown.c, record/ring.c read_group()). The kernel turns the 8-bit fractions of the
 * PERF_METRICS register (each field / 0xff of slots; kernel Documentation/topdown.txt) into
 * counts in slots units and accumulates them, so td_slots and td[i] are running totals since the
 * group was enabled, and td[i] / td_slots is the fraction of slots in category i. The order of
 * td[] is the order of the "topdown-*" events in trace_info.events (record/topdown.c adds them in
 * the order retiring, bad-spec, fe-bound, be-bound, heavy-ops, br-mispredict, fetch-lat,
 * mem-bound, skipping the ones the PMU lacks); a trace with TopDown samples but no such event
 * names is read in that order.
 *
 * Attribution: the counts between two consecutive samples of the same counter (same CPU and same
 * thread: per-task counters follow the thread, per-CPU counters keep counting for the CPU) are
 * charged to the later sample's cacheline and code address. The first sample of each (CPU,
 * thread) only sets the base; a total that goes backwards (counter re-created, another instance)
 * sets a new base. Percentages are sums of metric counts over sums of slots.
 *
 * Memory is proportional to distinct (CPU, thread), cachelines and code addresses. Not
 * thread-safe. Pure: the report model lays the breakdown out (report/model/sections.h). */
#ifndef C2C_REPORT_TOPDOWN_AGG_H
#define C2C_REPORT_TOPDOWN_AGG_H

#include <stdint.h>

#include "c2c/trace.h"
#include "report/resolve/maps.h"
#include "report/resolve/symbols.h"

enum td_metric {
	TD_RETIRING, TD_BAD_SPEC, TD_FE_BOUND, TD_BE_BOUND,          /* level 1 */
	TD_HEAVY_OPS, TD_BR_MISPREDICT, TD_FETCH_LAT, TD_MEM_BOUND,  /* level 2 */
	TD_NR,
};

/* A breakdown: slots and per-metric counts summed over the attributed intervals. */
struct td_sum {
	uint64_t slots;
	uint64_t m[TD_NR];
	uint64_t intervals;
};

struct td_agg;

/* @info: the trace's (metric order from its event names); @cl_size: bytes per cacheline. */
struct td_agg *td_agg_new(const struct trace_info *info, uint32_t cl_size);
void td_agg_free(struct td_agg *a);

/* Feed every sample in trace order; samples without TopDown values are ignored. */
void td_agg_sample(struct td_agg *a, const struct trace_sample *s);

/* Samples that carried TopDown values; the overall breakdown; which metrics were recorded. */
uint64_t td_agg_nr_samples(const struct td_agg *a);
const struct td_sum *td_agg_total(const struct td_agg *a);
int td_agg_has(const struct td_agg *a, enum td_metric m);
/* The breakdown of the cacheline holding @addr (NULL when none was charged). */
const struct td_sum *td_agg_line(const struct td_agg *a, uint64_t addr);
/* Percent of slots of metric @m in @s (0 without slots). */
double td_pct(const struct td_sum *s, enum td_metric m);
const char *td_metric_name(enum td_metric m);

/* Name of the function at code address @ip of a sample (NULL: unknown). Strings must stay valid
 * until the caller of td_agg_rows() is done with its rows. */
typedef const char *(*td_agg_sym_fn)(void *ctx, uint32_t pid, uint32_t tid, uint8_t cpumode,
				     uint64_t ip);

/* The report's function namer: maps model plus symbols session. */
struct td_agg_sym_ctx {
	struct maps *maps;
	struct sym_session *sym;
};
const char *td_agg_sym(void *ctx, uint32_t pid, uint32_t tid, uint8_t cpumode, uint64_t ip);

/* Intervals attributed (0: no two samples of one CPU and thread). */
uint64_t td_agg_intervals(const struct td_agg *a);

/* One row of td_agg_rows(): a cacheline (name NULL) or a function. */
struct td_row {
	const char *name;        /* function; "[unknown]" when @fn could not name it */
	uint64_t line;           /* cacheline address */
	struct td_sum sum;
};
/* Every cacheline (@funcs 0) or function (@funcs 1, named by @fn, which may be NULL) charged,
 * most slots first (ties: address, name); *nr set. Caller frees the array. */
struct td_row *td_agg_rows(const struct td_agg *a, int funcs, td_agg_sym_fn fn, void *ctx,
			   size_t *nr);

#endif
