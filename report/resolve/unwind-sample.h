/* A perf.data sample with a user stack (perf record --call-graph dwarf) gets its callchain
 * here: the kernel part the file recorded, then the user frames unwound from the registers and
 * the stack copy (include/c2c/unwind.h) with the files the maps model has at that time, as
 * perf's thread__resolve_callchain() joins them. */
#ifndef C2C_REPORT_UNWIND_SAMPLE_H
#define C2C_REPORT_UNWIND_SAMPLE_H

#include "c2c/trace.h"
#include "report/resolve/maps.h"

struct unwind_sample;

struct unwind_sample *unwind_sample_new(struct maps *maps);
void unwind_sample_free(struct unwind_sample *us);
/* Side-band: a process that exec'd or exited is forgotten. */
void unwind_sample_event(struct unwind_sample *us, const struct trace_event *ev);
/* When @s has user registers and stack: replace its chain with the joined one (valid until
 * the next call) and return 1; else 0, @s untouched. */
int unwind_sample_chain(struct unwind_sample *us, struct trace_sample *s);
/* Samples unwound, and how many of them gave more than the sampled address. */
void unwind_sample_counts(const struct unwind_sample *us, uint64_t *tried, uint64_t *walked);

#endif
