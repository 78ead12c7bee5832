/* Region markers of a recorded workload (include/c2c/region.h) into the trace.
 *
 * Before the workload is forked, regions_open() creates an in-memory file (memfd, O_APPEND) and
 * puts its descriptor number in C2C_REGION_FD, which the workload inherits: the region library
 * in it appends one struct c2c_region_wire per begin and end. Every drain round
 * regions_drain() reads what was appended since and queues TRACE_REC_REGION records; the
 * queue's round rule (record/queue.h) then orders them among the samples, because a marker
 * appended after a round started cannot be older than what that round read.
 *
 * Clocks: the library stamps markers with CLOCK_MONOTONIC, samples carry the perf clock
 * (local_clock). When the first markers arrive, the offset is measured once (a run without
 * markers opens nothing more): a dummy event on record's own thread reports COMM records with
 * their time, the thread is renamed to its own name between two CLOCK_MONOTONIC readings, and
 * the kernel's time of that COMM is taken against their midpoint (the error is half the
 * bracket, a few microseconds). Without that event the offset is 0 and -v says so.
 *
 * Memory: the file grows by 64 bytes a marker for the whole run (a million markers: 64 MB of
 * RAM); marker records beyond 1 << 24 are dropped with a warning. */
#ifndef C2C_RECORD_REGIONS_H
#define C2C_RECORD_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/region.h"
#include "record/queue.h"

struct regions;

/* Create the file and set C2C_REGION_FD in this process's environment (inherited by the
 * workload). 0 or -errno (logged). */
int regions_open(struct regions **out);
/* Queue the markers appended since the last call. Returns how many. */
size_t regions_drain(struct regions *r, struct oq *q);
/* Markers read, and markers that did not parse (bad magic or kind). */
uint64_t regions_count(const struct regions *r);
uint64_t regions_bad(const struct regions *r);
void regions_free(struct regions *r);

/* Pure helpers, for tests. The time (last u64) of a PERF_RECORD_COMM of @len bytes whose
 * sample_id_all carries TID and TIME; -EINVAL when it is not one. */
int regions_comm_time(const void *rec, size_t len, uint64_t *time);
/* One wire marker into a trace record (the name points into @w); -EINVAL when it is not one. */
int regions_from_wire(const struct c2c_region_wire *w, int64_t offset, struct trace_region *out);

#endif
