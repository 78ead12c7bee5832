/* Draining a recording's rings (record/session-int.h): each kernel record decoded, counted,
 * queued in time order (a soft or watch sample decoded here, with its registers). */
#define _GNU_SOURCE
#include <stdlib.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/backend-soft.h"
#include "record/backend-watch.h"
#include "record/buildid.h"
#include "record/events.h"
#include "record/pagemap.h"
#include "record/queue.h"
#include "record/regions.h"
#include "record/ring.h"
#include "record/session-int.h"

static void count(struct sess *s, const struct trace_event *ev)
{
	if (ev->type == TRACE_REC_SAMPLE) {
		s->res->samples++;
	} else if (ev->type == TRACE_REC_LOST) {
		if (ev->lost.kind == TRACE_LOST_RECORDS)
			s->res->lost_records += ev->lost.count;
		else if (ev->lost.kind == TRACE_LOST_SAMPLES)
			s->res->lost_samples += ev->lost.count;
		else if (ev->lost.kind == TRACE_LOST_THROTTLE)
			s->res->throttles++;
	}
}

/* PERF_RECORD_AUX: the PMU published AUX bytes (Arm SPE records). The record goes to the trace
 * with its flags, followed by the bytes as a TRACE_BLOB_SPE_AUX blob; the decoding happens at
 * report time. Lost data is counted as perf counts it (session.c: truncated, partial and
 * collision flags out of all AUX records). */
static void on_aux(struct sess *s, struct trace_event *ev)
{
	struct trace_event b = { .type = TRACE_REC_BLOB };
	struct trace_aux *a = &ev->aux;
	void *buf;

	s->res->aux_records++;
	s->res->aux_truncated += !!(a->flags & TRACE_AUX_TRUNCATED);
	s->res->aux_partial += !!(a->flags & TRACE_AUX_PARTIAL);
	s->res->aux_collision += !!(a->flags & TRACE_AUX_COLLISION);
	if (a->cpu == TRACE_CPU_NONE)
		a->cpu = (uint32_t)s->cur->cpu;
	oq_add(&s->q, ev, a->time);
	if (!a->size)
		return;
	if (!s->cur->aux || a->size > s->cur->aux_size) {
		s->res->aux_dropped += a->size;
		if (!s->warned_aux++)
			c2c_warn("AUX record of %llu bytes beyond the %llu-byte AUX area of CPU %d: "
				 "its data is dropped", (unsigned long long)a->size,
				 (unsigned long long)s->cur->aux_size, s->cur->cpu);
		return;
	}
	buf = xmalloc(a->size);
	if (ring_aux_read(s->cur, a->offset, a->size, buf)) {
		s->res->aux_dropped += a->size;
		if (!s->warned_aux++)
			c2c_warn("AUX record at offset %llu of CPU %d overlaps data already read: its "
				 "data is dropped", (unsigned long long)a->offset, s->cur->cpu);
		free(buf);
		return;
	}
	s->res->aux_bytes += a->size;
	b.blob.kind = TRACE_BLOB_SPE_AUX;
	b.blob.cpu = (uint32_t)s->cur->cpu;
	b.blob.offset = a->offset;
	b.blob.size = a->size;
	b.blob.data = buf;
	b.blob.time = a->time;
	oq_add(&s->q, &b, b.blob.time);
	free(buf);
}

/* Keep the code map of the soft and watch backends up to date. */
void sess_side_band(struct sess *s, const struct trace_event *ev)
{
	if (!s->cm)
		return;
	if (ev->type == TRACE_REC_MMAP)
		codemap_mmap(s->cm, &ev->mmap);
	else if (ev->type == TRACE_REC_COMM && ev->comm.exec)
		codemap_exec(s->cm, ev->comm.pid);
	else if (ev->type == TRACE_REC_FORK)
		codemap_fork(s->cm, ev->task.pid, ev->task.ppid);
}

/* The event a sample record comes from: its index in s->l, -1 when unknown. */
static int sample_index(const struct sess *s, const struct perf_event_header *h)
{
	return ring_sample_index(h, &s->lay);
}

/* Soft and watch samples: the physical address of the data address from the process's pagemap
 * (read as the sample is drained: a page that moved or a process that exited since gives none). */
static void add_phys(struct sess *s, struct trace_sample *o)
{
	uint64_t phys;

	if (!s->pm || !(o->flags & TRACE_SAMPLE_HAS_ADDR) || !o->addr)
		return;
	if (pagemap_lookup(s->pm, (pid_t)o->pid, o->addr, &phys)) {
		s->no_phys++;
		return;
	}
	o->phys_addr = phys;
	o->flags |= TRACE_SAMPLE_HAS_PHYS;
}

static int on_watch_sample(struct sess *s, const struct perf_event_header *h);

/* A cpu-clock sample of the soft backend: decoded here, with the registers ring_decode()
 * does not read. The confirmation watchpoints' hits go to on_watch_sample(). */
static int on_soft_sample(struct sess *s, const struct perf_event_header *h)
{
	int idx = sample_index(s, h);
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	const struct ev_desc *e;

	if (idx < 0 || (size_t)idx >= s->l.nr)
		return 0;
	e = &s->l.ev[idx];
	if (e->backend == TRACE_BACKEND_WATCH && s->confirm && e->role == EV_ROLE_SAMPLER)
		return on_watch_sample(s, h);
	if (e->backend != TRACE_BACKEND_SOFT || e->role != EV_ROLE_SAMPLER)
		return 0;
	if (soft_backend_sample(s->soft, h, e->attr.sample_type, e->attr.sample_regs_user,
				(uint16_t)idx, &ev.sample)) {
		if (!s->res->malformed++)
			c2c_warn("skipping a malformed cpu-clock sample (%u bytes)", h->size);
		return 0;
	}
	sess_confirm_feed(s, &ev.sample);
	if (ev.sample.time > s->max_time)
		s->max_time = ev.sample.time;
	add_phys(s, &ev.sample);
	count(s, &ev);
	oq_add(&s->q, &ev, ev.sample.time);
	return 0;
}

/* The length of the watched word at @addr (rotation moves an event over words of several
 * lengths). */
static unsigned int watch_len_at(const struct sess *s, size_t ev, uint64_t addr)
{
	for (size_t i = 0; i < s->plan.nr; i++)
		if (s->plan.w[i].addr == addr)
			return s->plan.w[i].len;
	return (unsigned int)s->l.ev[ev].attr.bp_len;
}

/* A watchpoint hit: parsed here with the registers ring_decode() does not read, and placed in
 * its word by the instruction that made it. */
static int on_watch_sample(struct sess *s, const struct perf_event_header *h)
{
	int idx = sample_index(s, h);
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_sample *o = &ev.sample;
	const struct ev_desc *e;
	struct soft_raw r;

	if (idx < 0 || (size_t)idx >= s->l.nr)
		return 0;
	e = &s->l.ev[idx];
	if (e->backend != TRACE_BACKEND_WATCH || e->role != EV_ROLE_SAMPLER)
		return 0;
	if (soft_parse_sample(h, e->attr.sample_type, e->attr.sample_regs_user, &r)) {
		if (!s->res->malformed++)
			c2c_warn("skipping a malformed watchpoint sample (%u bytes)", h->size);
		return 0;
	}
	soft_raw_sample(&r, h, (uint16_t)idx, o);
	o->addr = r.addr;
	o->flags |= TRACE_SAMPLE_HAS_ADDR;
	watch_decoder_fill(s->wd, o, r.abi == PERF_SAMPLE_REGS_ABI_64 ? &r.regs : NULL,
			   watch_len_at(s, (size_t)idx, r.addr));
	if (s->cm && o->cpumode == PERF_RECORD_MISC_USER && r.abi == PERF_SAMPLE_REGS_ABI_64)
		o->task = codemap_task(s->cm, o->pid, o->ip, &r.regs);
	s->last_time = o->time;
	if (o->time > s->max_time)
		s->max_time = o->time;
	s->chits += s->confirm;
	if (s->confirm && s->cf_nr_tids < 2 && (!s->cf_nr_tids || s->cf_tids[0] != o->tid))
		s->cf_tids[s->cf_nr_tids++] = o->tid;
	add_phys(s, o);
	count(s, &ev);
	oq_add(&s->q, &ev, o->time);
	return 0;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
	struct sess *s = ctx;
	struct trace_event ev;
	int r;

	if (h->type == PERF_RECORD_SAMPLE && s->soft)
		return on_soft_sample(s, h);
	if (h->type == PERF_RECORD_SAMPLE && s->wd && !s->soft)
		return on_watch_sample(s, h);
	r = ring_decode(h, &s->lay, &ev);

	if (r < 0) {
		if (!s->res->malformed++)
			c2c_warn("skipping a malformed kernel record (type %u, %u bytes)", h->type,
				 h->size);
		return 0;
	}
	if (r == RING_SKIP)
		return 0;
	if (ev.type == TRACE_REC_AUX) {
		on_aux(s, &ev);
		return 0;
	}
	if (ev.type == TRACE_REC_SAMPLE && s->l.ev[ev.sample.event].role == EV_ROLE_TD_READER) {
		s->res->td_readings++;   /* TopDown beside IBS/SPE: kept as they are */
		oq_add(&s->q, &ev, ev.sample.time);
		return 0;
	}
	if (ev.type == TRACE_REC_SAMPLE && s->l.ev[ev.sample.event].role != EV_ROLE_SAMPLER)
		return 0;            /* aux leader / tracking samples carry nothing we keep */
	if (ev.type == TRACE_REC_MMAP && (ev.mmap.prot & 4) && !ev.mmap.build_id_size)
		ev.mmap.build_id_size = buildid_lookup(s->bc, ev.mmap.filename, ev.mmap.build_id);
	sess_side_band(s, &ev);
	count(s, &ev);
	oq_add(&s->q, &ev, ev.type == TRACE_REC_SAMPLE ? ev.sample.time :
		ev.type == TRACE_REC_MMAP ? ev.mmap.time : ev.type == TRACE_REC_COMM ?
		ev.comm.time : ev.type == TRACE_REC_LOST ? ev.lost.time :
		ev.type == TRACE_REC_SWITCH ? ev.sw.time : ev.type == TRACE_REC_ITRACE_START ?
		ev.itrace.time : ev.task.time);
	return 0;
}

int sess_drain_round(struct sess *s)
{
	if (s->pm)
		pagemap_round(s->pm);
	for (int c = 0; c < s->ncpu; c++) {
		if (s->ring[c].fd < 0)
			continue;
		s->cur = &s->ring[c];
		if (ring_drain(&s->ring[c], on_record, s) == -EBADMSG)
			c2c_warn("corrupt record header in the ring of CPU %d", s->ring[c].cpu);
	}
	if (s->reg)
		regions_drain(s->reg, &s->q);
	return oq_round_end(&s->q);
}
