/* record --call-graph dwarf: each sample's user stack is unwound while the recording runs
 * (include/c2c/unwind.h), as the sample leaves the time-ordered queue, against the file
 * mappings of the kernel's MMAP records before it (and /proc/PID/maps for what was mapped
 * before the recording), and only the resulting callchain goes into the trace (its dictionary
 * of chains keeps that small). Unwinding here rather than in the report keeps 8 KiB of stack
 * per sample out of the trace; the price is CPU time during the recording, and the queue holds
 * the stacks of up to two drain rounds. A process that has exited before its samples are
 * unwound still has the mappings its MMAP records gave. */
#ifndef C2C_RECORD_UNWIND_REC_H
#define C2C_RECORD_UNWIND_REC_H

#include <stdint.h>

#include "c2c/trace.h"

struct rec_unwind;

struct rec_unwind *rec_unwind_new(void);
void rec_unwind_free(struct rec_unwind *r);
/* Side-band, in time order: a file mapping joins its process's maps (replacing those it
 * overlaps), fork copies the parent's, exec forgets the process. */
void rec_unwind_event(struct rec_unwind *r, const struct trace_event *ev);
/* A sample with user registers and stack: its chain becomes the recorded kernel part, then
 * the unwound user frames (valid until the next call); the registers and stack are dropped.
 * Samples without them are left alone. */
void rec_unwind_sample(struct rec_unwind *r, struct trace_sample *s);
/* Samples unwound, and those that gave more than the sampled address. */
void rec_unwind_counts(const struct rec_unwind *r, uint64_t *tried, uint64_t *walked);

#endif
