/* regions: which program region (include/c2c/region.h markers that record copied into the trace)
 * each sample fell in, per thread and time.
 *
 * Markers and samples come in trace order (time order). Each thread keeps a stack of the regions
 * it is inside: a begin pushes, an end pops the innermost instance of its region (inner ones
 * left open go with it), at most RG_DEPTH deep. A sample counts for the innermost region of its
 * thread (self) and for every region on the stack (inclusive); with a filter, rg_sample() keeps
 * only the samples taken while the filter's region was on their thread's stack, so the report's
 * lines, findings and TopDown cover that region alone.
 *
 * Limits against hostile traces: at most RG_MAX distinct names (later ones are counted in
 * rg_dropped()), names as the trace reader gives them (bounded by the record). Memory is
 * proportional to distinct names and threads with markers. Not thread-safe. */
#ifndef C2C_REPORT_AGGREGATE_REGIONS_H
#define C2C_REPORT_AGGREGATE_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"

#define RG_DEPTH 16
#define RG_MAX 256

struct rg_region {
	char *name;
	uint64_t entries;            /* completed begin/end pairs */
	uint64_t ns;                 /* time inside, summed over threads */
	uint64_t self, incl;         /* samples with it innermost / on the stack */
};

struct rg_table;

/* @filter: a region name whose samples alone are kept, NULL for all. */
struct rg_table *rg_new(const char *filter);
void rg_free(struct rg_table *t);
void rg_marker(struct rg_table *t, const struct trace_region *m);
/* Charge @s to its thread's regions; 1 when it is kept (see the filter above). */
int rg_sample(struct rg_table *t, const struct trace_sample *s);

size_t rg_nr(const struct rg_table *t);
const struct rg_region *rg_get(const struct rg_table *t, size_t i);
uint64_t rg_outside(const struct rg_table *t);       /* samples in no region */
uint64_t rg_dropped(const struct rg_table *t);       /* markers over RG_MAX or RG_DEPTH, bad */
/* Whether a region of that name was seen. */
int rg_has(const struct rg_table *t, const char *name);

/* Markers read (0: the trace had none); the filter given to rg_new() (NULL: none). */
uint64_t rg_markers(const struct rg_table *t);
const char *rg_filter(const struct rg_table *t);

#endif
