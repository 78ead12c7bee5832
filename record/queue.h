/* Time ordering of records read from several ring buffers (one per CPU).
 *
 * Each ring is in time order, but rings are drained one after another, so records must be
 * merged. The rule is perf's FINISHED_ROUND rule: a drain round reads every ring to its head;
 * any record still unread when round N ends was written after round N started, so at the end
 * of round N every queued record with a time up to the largest time seen in round N-1 can be
 * written (sorted by time, ties kept in arrival order); the rest waits for the next round.
 * oq_finish() writes everything left. Records are copied (strings, callchains, a sample's user
 * registers and stack, and blob data too) on oq_add(). */
#ifndef C2C_RECORD_QUEUE_H
#define C2C_RECORD_QUEUE_H

#include <stdint.h>

#include "c2c/trace.h"

typedef int (*oq_write_fn)(const struct trace_event *ev, void *ctx);

struct oq_item;

struct oq {
	struct oq_item *item;
	size_t nr, cap;
	uint64_t seq;
	uint64_t prev_round_max, round_max;
	oq_write_fn write;
	void *ctx;
	uint64_t written, max_queued;
};

void oq_init(struct oq *q, oq_write_fn write, void *ctx);
void oq_release(struct oq *q);
void oq_add(struct oq *q, const struct trace_event *ev, uint64_t time);
/* End of a drain round: write what is safe. Returns the first write error. */
int oq_round_end(struct oq *q);
int oq_finish(struct oq *q);

#endif
