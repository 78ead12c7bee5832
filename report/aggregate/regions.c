/* Samples per program region (see regions.h): per-thread stacks of open regions in a sorted
 * array of threads, regions in order of first appearance. */
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/regions.h"

struct rg_frame {
	uint32_t region;
	uint64_t begin;
};

struct rg_thread {
	uint32_t tid;
	int depth;
	struct rg_frame st[RG_DEPTH];
};

struct rg_table {
	char *filter;
	struct rg_region *r;
	size_t nr, cap;
	struct rg_thread *th;        /* sorted by tid */
	size_t nth, capth;
	uint64_t outside, dropped, markers;
};

struct rg_table *rg_new(const char *filter)
{
	struct rg_table *t = xcalloc(1, sizeof(*t));

	t->filter = filter ? xstrdup(filter) : NULL;
	return t;
}

void rg_free(struct rg_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->r[i].name);
	free(t->r);
	free(t->th);
	free(t->filter);
	free(t);
}

static struct rg_thread *thread(struct rg_table *t, uint32_t tid, int add)
{
	size_t lo = 0, hi = t->nth;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->th[mid].tid == tid)
			return &t->th[mid];
		if (t->th[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!add)
		return NULL;
	t->th = xgrow(t->th, &t->capth, t->nth + 1, sizeof(*t->th));
	memmove(&t->th[lo + 1], &t->th[lo], (t->nth - lo) * sizeof(*t->th));
	memset(&t->th[lo], 0, sizeof(*t->th));
	t->th[lo].tid = tid;
	t->nth++;
	return &t->th[lo];
}

/* The index of @name, added when new; -1 past RG_MAX. */
static int region(struct rg_table *t, const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->r[i].name, name))
			return (int)i;
	if (t->nr >= RG_MAX)
		return -1;
	t->r = xgrow(t->r, &t->cap, t->nr + 1, sizeof(*t->r));
	memset(&t->r[t->nr], 0, sizeof(t->r[0]));
	t->r[t->nr].name = xstrdup(name);
	return (int)t->nr++;
}

void rg_marker(struct rg_table *t, const struct trace_region *m)
{
	int ri = m->name && *m->name ? region(t, m->name) : -1;
	struct rg_thread *th;
	int d;

	t->markers++;
	if (ri < 0 || (m->kind != TRACE_REGION_BEGIN && m->kind != TRACE_REGION_END)) {
		t->dropped++;
		return;
	}
	th = thread(t, m->tid, 1);
	if (m->kind == TRACE_REGION_BEGIN) {
		if (th->depth >= RG_DEPTH) {
			t->dropped++;
			return;
		}
		th->st[th->depth++] = (struct rg_frame){ (uint32_t)ri, m->time };
		return;
	}
	for (d = th->depth - 1; d >= 0 && th->st[d].region != (uint32_t)ri; d--)
		;
	if (d < 0) {                 /* an end without its begin (recording started inside) */
		t->dropped++;
		return;
	}
	t->r[ri].entries++;
	if (m->time > th->st[d].begin)
		t->r[ri].ns += m->time - th->st[d].begin;
	th->depth = d;
}

int rg_sample(struct rg_table *t, const struct trace_sample *s)
{
	struct rg_thread *th = t->nth ? thread(t, s->tid, 0) : NULL;
	int keep = !t->filter;

	if (!th || !th->depth) {
		t->outside++;
		return keep;
	}
	t->r[th->st[th->depth - 1].region].self++;
	for (int d = 0; d < th->depth; d++) {
		struct rg_region *r = &t->r[th->st[d].region];
		int seen = 0;

		for (int k = 0; k < d; k++)
			seen |= th->st[k].region == th->st[d].region;
		if (!seen)
			r->incl++;
		if (t->filter && !strcmp(r->name, t->filter))
			keep = 1;
	}
	return keep;
}

size_t rg_nr(const struct rg_table *t)
{
	return t->nr;
}

const struct rg_region *rg_get(const struct rg_table *t, size_t i)
{
	return i < t->nr ? &t->r[i] : NULL;
}

uint64_t rg_outside(const struct rg_table *t)
{
	return t->outside;
}

uint64_t rg_dropped(const struct rg_table *t)
{
	return t->dropped;
}

int rg_has(const struct rg_table *t, const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->r[i].name, name))
			return 1;
	return 0;
}

uint64_t rg_markers(const struct rg_table *t)
{
	return t->markers;
}

const char *rg_filter(const struct rg_table *t)
{
	return t->filter;
}
