/* The cacheline table's input: trace events resolved into samples and queued for folding
 * (cltab_feed(), cltab_add()). */
#define _GNU_SOURCE
#include <string.h>

#include "report/aggregate/cltable-int.h"

/* Stage the sample resolved in place at t->stage[t->nr_stage] for routing. */
static inline void cltab_stage(struct cltab *t)
{
	if (++t->nr_stage == CLTAB_PENDING)
		cltab_route_stage(t);
}

/* Fold the pending samples; with jobs, start the workers once the table has outgrown the caches:
 * from then on its lines stay here and new lines go to the workers' tables, by hash. */
static void cltab_flush_own(struct cltab *t)
{
	cltab_flush(t);
	if (t->want_work && !t->nr_work &&
	    (t->ents.nr >= CLTAB_SMALL_ENTS || t->lines.nr >= CLTAB_SMALL_LINES))
		cltab_start_workers(t, t->want_work);
}

static void cltab_queue(struct cltab *t, const struct cltab_pend *p)
{
	if (t->nr_work) {
		t->stage[t->nr_stage] = *p;
		cltab_stage(t);
		return;
	}
	t->pending[t->nr_pending++] = *p;
	if (t->nr_pending == CLTAB_PENDING)
		cltab_flush_own(t);
}

void cltab_add(struct cltab *t, const struct cltab_sample *s)
{
	struct cltab_pend p = { .s = *s, .pid = s->thread->pid, .tid = s->thread->tid };

	if (t->finished)
		return;
	p.seq = t->next_seq++;
	cltab_queue(t, &p);
	if (!t->nr_work)
		cltab_flush_own(t);
}

static void cltab_feed_sample(struct cltab *t, struct maps *maps, const struct trace_sample *ts)
{
	typeof(t->tmemo[0]) *tm = &t->tmemo[ts->tid % CLTAB_TMEMO];
	struct maps_thread *th = tm->th;
	struct cltab_pend *p;
	struct cltab_sample *s;
	struct maps_loc loc;
	uint8_t f = ts->flags;

	if (t->opts.phys && !((f & TRACE_SAMPLE_HAS_PHYS) && ts->phys_addr)) {
		t->counts.no_phys++;
		return;
	}
	if (!th || tm->pid != (int32_t)ts->pid || tm->tid != (int32_t)ts->tid) {
		th = maps_findnew_thread(maps, (int32_t)ts->pid, (int32_t)ts->tid);
		tm->th = th;
		tm->pid = (int32_t)ts->pid;
		tm->tid = (int32_t)ts->tid;
	}
	/* resolved in place: straight into the batch when this thread aggregates */
	p = t->nr_work ? &t->stage[t->nr_stage] : &t->pending[t->nr_pending];
	s = &p->s;
	s->ip = ts->ip;
	s->cpu = (f & TRACE_SAMPLE_HAS_CPU) ? ts->cpu : TRACE_CPU_NONE;
	s->cpumode = ts->cpumode;
	s->thread = th;
	s->addr = (f & TRACE_SAMPLE_HAS_ADDR) ? ts->addr : 0;
	s->phys_addr = (f & TRACE_SAMPLE_HAS_PHYS) ? ts->phys_addr : 0;
	s->weight = (f & TRACE_SAMPLE_HAS_WEIGHT) ? ts->weight : 0;
	s->data_src = (f & TRACE_SAMPLE_HAS_DSRC) ? ts->data_src : DSRC_NONE;
	maps_find_memo(maps, th, ts->cpumode, s->addr, &loc, t->dmemo, CLTAB_DMEMO, &t->dmemo_next);
	s->dmap = loc.map;
	s->al_addr = loc.al_addr;
	maps_find_memo(maps, th, ts->cpumode, ts->ip, &loc, &t->cmemo, 1, &t->cmemo_next);
	s->cmap = loc.map;
	/* found in the sample's mode: found in "any" mode too (user then kernel maps) */
	s->has_code_map = s->cmap != NULL || maps_find_any(maps, th, ts->ip, &loc);
	s->chain = t->callers && ts->chain_nr ?
		   callers_intern_sample(t->callers, maps, th, ts->chain, ts->chain_nr) : 0;
	p->seq = t->next_seq++;
	p->pid = th->pid;
	p->tid = th->tid;
	if (t->nr_work)
		cltab_stage(t);
	else if (++t->nr_pending == CLTAB_PENDING)
		cltab_flush_own(t);
}

static void cltab_feed_lost(struct cltab *t, const struct trace_lost *lo)
{
	switch (lo->kind) {
	case TRACE_LOST_RECORDS:
		t->counts.lost_records += lo->count;
		break;
	case TRACE_LOST_SAMPLES:
		t->counts.lost_samples += lo->count;
		break;
	case TRACE_LOST_THROTTLE:
		t->counts.throttle++;
		break;
	case TRACE_LOST_UNTHROTTLE:
		t->counts.unthrottle++;
		break;
	default:
		break;
	}
}

void cltab_feed(struct cltab *t, struct maps *maps, const struct trace_event *ev)
{
	if (t->finished)
		return;                  /* the key tables are gone (cltab_finish()) */
	if (ev->type != TRACE_REC_SAMPLE) {
		cltab_flush(t);   /* samples before a side-band record are resolved already */
		memset(&t->tmemo, 0, sizeof(t->tmemo));
		memset(&t->dmemo, 0, sizeof(t->dmemo));
		memset(&t->cmemo, 0, sizeof(t->cmemo));
	}
	switch (ev->type) {
	case TRACE_REC_SAMPLE:
		cltab_feed_sample(t, maps, &ev->sample);
		break;
	case TRACE_REC_MMAP:
		maps_mmap(maps, &ev->mmap);
		break;
	case TRACE_REC_COMM:
		maps_comm(maps, &ev->comm);
		break;
	case TRACE_REC_FORK:
		maps_fork(maps, &ev->task);
		break;
	case TRACE_REC_EXIT:
		maps_exit(maps, &ev->task);
		break;
	case TRACE_REC_LOST:
		cltab_feed_lost(t, &ev->lost);
		break;
	default:
		break;
	}
}
