/* Goroutines as the report's threads.
 *
 * A goroutine moves between OS threads: judged by thread, one goroutine's counter written on
 * two threads in turn reads as true sharing, and eight goroutines' padded counters on two
 * threads read as eight truly shared lines. A c2c-lite trace (1.7) gives each soft and watch
 * sample in a Go binary the goroutine its thread ran (trace_sample.task: the goid, read through
 * r14). Where
 * the sampled code is Go source (its line is in a .go file: cgo's C code and Go assembly may
 * hold anything in r14), the sample is charged to the goroutine instead of the OS thread:
 * maps_task_thread() gives a thread of the process that stands for it, which the model names
 * "comm/G<goid>". Samples elsewhere stay with their OS thread. */
#ifndef C2C_REPORT_RESOLVE_TASKS_H
#define C2C_REPORT_RESOLVE_TASKS_H

#include <stdint.h>

#include "c2c/trace.h"
#include "report/resolve/maps.h"
#include "report/resolve/symbols.h"

struct task_resolver;

/* @sym may be NULL: then no code is known to be Go and nothing changes. */
struct task_resolver *task_resolver_new(struct maps *maps, struct sym_session *sym);
void task_resolver_free(struct task_resolver *r);
/* Give @s the tid of its task's thread when its task applies; else leave it alone. */
void task_resolve(struct task_resolver *r, struct trace_sample *s);
/* Samples given to a task so far. */
uint64_t task_resolved(const struct task_resolver *r);

#endif
