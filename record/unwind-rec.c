/* Record-time DWARF unwinding (see record/unwind-rec.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/unwind.h"
#include "c2c/xalloc.h"
#include "record/unwind-rec.h"

#define REC_PROCS 64

struct fmap {
	uint64_t start, end, pgoff;
	char *path;
};

struct pmaps {
	uint32_t pid;
	int used, stale;
	uint64_t seen;               /* for eviction */
	struct fmap *m;
	size_t nr, cap;
};

struct rec_unwind {
	struct c2c_unwind *u;
	struct pmaps p[REC_PROCS];
	uint64_t clock, tried, walked;
	uint64_t chain[TRACE_CHAIN_MAX];
};

static void pmaps_clear(struct pmaps *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->m[i].path);
	p->nr = 0;
}

static void pmaps_drop(struct pmaps *p)
{
	pmaps_clear(p);
	free(p->m);
	memset(p, 0, sizeof(*p));
}

/* A file mapping: it replaces the mappings it overlaps. */
static void pmaps_add(struct pmaps *p, uint64_t start, uint64_t end, uint64_t pgoff,
		      const char *path)
{
	size_t k = 0;

	if (end <= start)
		return;
	for (size_t i = 0; i < p->nr; i++) {
		if (p->m[i].start < end && start < p->m[i].end) {
			free(p->m[i].path);
			continue;
		}
		p->m[k++] = p->m[i];
	}
	p->nr = k;
	p->m = xgrow(p->m, &p->cap, p->nr + 1, sizeof(*p->m));
	p->m[p->nr++] = (struct fmap){ start, end, pgoff, xstrdup(path) };
}

/* Add the file mappings /proc/@p->pid/maps lists to those the kernel's MMAP records gave; 0,
 * or -1 when the file cannot be read. A process that has exited (or is exiting: its maps file
 * is then empty) keeps what was known: the files are still there to unwind with. */
static int pmaps_load(struct pmaps *p)
{
	char path[64], line[4096 + 128], file[4096];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/maps", p->pid);
	f = fopen(path, "re");
	p->stale = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %4095s", &start,
			   &end, &pgoff, file) == 4 && file[0] == '/')
			pmaps_add(p, start, end, pgoff, file);
	}
	fclose(f);
	return 0;
}

static struct pmaps *pmaps_get(struct rec_unwind *r, uint32_t pid)
{
	struct pmaps *p = NULL;

	for (int i = 0; i < REC_PROCS; i++) {
		if (r->p[i].used && r->p[i].pid == pid) {
			p = &r->p[i];
			break;
		}
		if (!p || !r->p[i].used || (p->used && r->p[i].seen < p->seen))
			p = &r->p[i];
	}
	if (p->used && p->pid != pid) {
		c2c_unwind_forget(r->u, p->pid);
		pmaps_drop(p);
	}
	if (!p->used) {
		p->used = 1;
		p->pid = pid;
		p->stale = 1;
	}
	p->seen = ++r->clock;
	return p;
}

static const struct fmap *pmaps_find(const struct pmaps *p, uint64_t addr)
{
	for (size_t i = 0; i < p->nr; i++)
		if (addr >= p->m[i].start && addr < p->m[i].end)
			return &p->m[i];
	return NULL;
}

static int find_map(void *ctx, uint32_t pid, uint64_t addr, struct c2c_unwind_map *out)
{
	struct rec_unwind *r = ctx;
	struct pmaps *p = pmaps_get(r, pid);
	const struct fmap *m;

	m = pmaps_find(p, addr);
	if (!m && p->stale && !pmaps_load(p))
		m = pmaps_find(p, addr);
	if (!m)
		return -1;
	*out = (struct c2c_unwind_map){ m->path, m->start, m->end, m->pgoff };
	return 0;
}

struct rec_unwind *rec_unwind_new(void)
{
	struct rec_unwind *r = xcalloc(1, sizeof(*r));

	r->u = c2c_unwind_new(find_map, r);
	return r;
}

void rec_unwind_free(struct rec_unwind *r)
{
	if (!r)
		return;
	c2c_unwind_free(r->u);
	for (int i = 0; i < REC_PROCS; i++)
		pmaps_drop(&r->p[i]);
	free(r);
}

static void forget(struct rec_unwind *r, uint32_t pid, int gone)
{
	for (int i = 0; i < REC_PROCS; i++)
		if (r->p[i].used && r->p[i].pid == pid) {
			if (gone)
				pmaps_drop(&r->p[i]);
			else
				r->p[i].stale = 1;
		}
	if (gone)
		c2c_unwind_forget(r->u, pid);
}

/* A new process (fork without exec) starts with its parent's file mappings. */
static void pmaps_fork(struct rec_unwind *r, uint32_t pid, uint32_t ppid)
{
	struct pmaps *c = pmaps_get(r, pid), *pp = NULL;

	for (int i = 0; i < REC_PROCS && !pp; i++)
		if (r->p[i].used && r->p[i].pid == ppid)
			pp = &r->p[i];
	if (!pp || !pp->nr)
		return;
	pmaps_clear(c);
	c->m = xgrow(c->m, &c->cap, pp->nr, sizeof(*c->m));
	for (size_t i = 0; i < pp->nr; i++) {
		c->m[i] = pp->m[i];
		c->m[i].path = xstrdup(pp->m[i].path);
	}
	c->nr = pp->nr;
}

void rec_unwind_event(struct rec_unwind *r, const struct trace_event *ev)
{
	if (ev->type == TRACE_REC_MMAP) {
		forget(r, ev->mmap.pid, 0);
		/* the maps of what the process ran, should it exit before its samples are
		 * unwound (a loaded machine, a short workload) */
		if (ev->mmap.pid != UINT32_MAX && ev->mmap.filename &&
		    ev->mmap.filename[0] == '/' && ev->mmap.start + ev->mmap.len > ev->mmap.start)
			pmaps_add(pmaps_get(r, ev->mmap.pid), ev->mmap.start,
				  ev->mmap.start + ev->mmap.len, ev->mmap.pgoff, ev->mmap.filename);
	} else if (ev->type == TRACE_REC_COMM && ev->comm.exec) {
		forget(r, ev->comm.pid, 1);
	} else if (ev->type == TRACE_REC_FORK && ev->task.pid != ev->task.ppid) {
		forget(r, ev->task.pid, 1);
		pmaps_fork(r, ev->task.pid, ev->task.ppid);
	} else if (ev->type == TRACE_REC_EXIT && ev->task.pid == ev->task.tid) {
		/* samples of other CPUs' rings may still come: the mappings stay (re-read should
		 * the pid live again), the unwinder's per-process state goes */
		forget(r, ev->task.pid, 0);
		c2c_unwind_forget(r->u, ev->task.pid);
	}
}

void rec_unwind_sample(struct rec_unwind *r, struct trace_sample *s)
{
	uint32_t n = c2c_unwind_sample(r->u, s, r->chain), k;

	if (n) {
		for (k = 0; k < n && r->chain[k] != TRACE_CHAIN_CONTEXT_USER; k++)
			;
		r->tried++;
		r->walked += n - k > 2;   /* the marker, the sampled address, a caller */
		s->chain = r->chain;
		s->chain_nr = n;
	}
	s->regs_mask = s->stack_size = 0;
	s->regs = NULL;
	s->stack = NULL;
}

void rec_unwind_counts(const struct rec_unwind *r, uint64_t *tried, uint64_t *walked)
{
	*tried = r->tried;
	*walked = r->walked;
}
