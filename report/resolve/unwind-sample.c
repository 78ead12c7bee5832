/* Unwinding perf.data user stacks against the report's maps (see unwind-sample.h). */
#include <stdlib.h>

#include "c2c/unwind.h"
#include "c2c/xalloc.h"
#include "report/resolve/unwind-sample.h"

struct unwind_sample {
	struct maps *maps;
	struct c2c_unwind *u;
	const struct maps_thread *th;       /* the thread of the sample being unwound */
	uint64_t chain[TRACE_CHAIN_MAX];
	uint64_t tried, walked;
};

static int find_map(void *ctx, uint32_t pid, uint64_t addr, struct c2c_unwind_map *out)
{
	struct unwind_sample *us = ctx;
	struct maps_loc loc;

	(void)pid;
	if (!maps_find(us->maps, us->th, 2 /* user */, addr, &loc) || !loc.map->dso ||
	    loc.map->identity)
		return -1;
	out->path = loc.map->dso->name;
	out->start = loc.map->start;
	out->end = loc.map->end;
	out->pgoff = loc.map->pgoff;
	return 0;
}

struct unwind_sample *unwind_sample_new(struct maps *maps)
{
	struct unwind_sample *us = xcalloc(1, sizeof(*us));

	us->maps = maps;
	us->u = c2c_unwind_new(find_map, us);
	return us;
}

void unwind_sample_free(struct unwind_sample *us)
{
	if (!us)
		return;
	c2c_unwind_free(us->u);
	free(us);
}

void unwind_sample_event(struct unwind_sample *us, const struct trace_event *ev)
{
	if (ev->type == TRACE_REC_COMM && ev->comm.exec)
		c2c_unwind_forget(us->u, ev->comm.pid);
	else if (ev->type == TRACE_REC_EXIT && ev->task.pid == ev->task.tid)
		c2c_unwind_forget(us->u, ev->task.pid);
}

int unwind_sample_chain(struct unwind_sample *us, struct trace_sample *s)
{
	uint32_t n, k;

	us->th = maps_findnew_thread(us->maps, (int32_t)s->pid, (int32_t)s->tid);
	n = c2c_unwind_sample(us->u, s, us->chain);
	if (!n)
		return 0;
	for (k = 0; k < n && us->chain[k] != TRACE_CHAIN_CONTEXT_USER; k++)
		;
	us->tried++;
	us->walked += n - k > 2;   /* the marker, the sampled address, a caller */
	s->chain = us->chain;
	s->chain_nr = n;
	return 1;
}

void unwind_sample_counts(const struct unwind_sample *us, uint64_t *tried, uint64_t *walked)
{
	*tried = us->tried;
	*walked = us->walked;
}
