/* Ring-buffer draining and kernel record decoding (see ring.h; layouts in pmu-events.md §8-9). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "record/ring.h"

#define RING_SCRATCH (64 * 1024)

int ring_init(struct ring *r, void *base, size_t page_size, uint64_t data_size)
{
	if (!data_size || (data_size & (data_size - 1)))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->pc = base;
	r->data = (uint8_t *)base + page_size;
	r->data_size = data_size;
	r->scratch = xmalloc(RING_SCRATCH);
	r->fd = -1;
	r->cpu = -1;
	return 0;
}

int ring_mmap(struct ring *r, int fd, unsigned int pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (1 + (size_t)pages) * page;
	void *base;
	int err;

	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	err = ring_init(r, base, page, (uint64_t)pages * page);
	if (err) {
		munmap(base, len);
		return err;
	}
	r->map_len = len;
	r->fd = fd;
	return 0;
}

int ring_mmap_aux(struct ring *r, unsigned int pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)pages * page;
	void *base;

	if (!r->map_len || !pages || (pages & (pages - 1)))
		return -EINVAL;
	r->pc->aux_offset = r->map_len;
	r->pc->aux_size = len;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, (off_t)r->map_len);
	if (base == MAP_FAILED)
		return -errno;
	r->aux = base;
	r->aux_size = len;
	r->aux_mapped = 1;
	return 0;
}

void ring_set_aux(struct ring *r, void *aux, uint64_t size)
{
	r->aux = aux;
	r->aux_size = size;
	r->aux_mapped = 0;
}

int ring_aux_read(struct ring *r, uint64_t offset, uint64_t size, void *out)
{
	uint64_t mask = r->aux_size - 1, off = offset & mask, first;
	uint64_t tail = __atomic_load_n(&r->pc->aux_tail, __ATOMIC_RELAXED);

	if (!r->aux || size > r->aux_size || offset + size < offset || offset < tail)
		return -EINVAL;
	first = size < r->aux_size - off ? size : r->aux_size - off;
	memcpy(out, r->aux + off, first);
	memcpy((uint8_t *)out + first, r->aux, size - first);
	__atomic_store_n(&r->pc->aux_tail, offset + size, __ATOMIC_RELEASE);
	return 0;
}

/* The kernel publishes the conversion under the seqlock of pc->lock (perf's
 * perf_read_tsc_conversion()). */
int ring_time_conv(const struct ring *r, struct c2c_time_conv *tc)
{
	const volatile struct perf_event_mmap_page *pc = r->pc;

	for (int i = 0; i < 10000; i++) {
		uint32_t seq = pc->lock;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		tc->time_mult = pc->time_mult;
		tc->time_shift = pc->time_shift;
		tc->time_zero = pc->time_zero;
		tc->time_cycles = pc->time_cycles;
		tc->time_mask = pc->time_mask;
		tc->cap_user_time_zero = pc->cap_user_time_zero;
		tc->cap_user_time_short = pc->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (pc->lock == seq && !(seq & 1))
			return 0;
	}
	return -EBUSY;
}

void ring_unmap(struct ring *r)
{
	if (!r)
		return;
	if (r->aux_mapped)
		munmap(r->aux, r->aux_size);
	if (r->map_len)
		munmap(r->pc, r->map_len);
	free(r->scratch);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

uint64_t ring_pending(const struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);

	return head - r->pc->data_tail;
}

int ring_drain(struct ring *r, ring_fn fn, void *ctx)
{
	uint64_t head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pc->data_tail, mask = r->data_size - 1;
	int ret = 0;

	while (tail < head) {
		const struct perf_event_header *h = (const void *)(r->data + (tail & mask));
		struct perf_event_header hc;
		uint64_t off = tail & mask;

		if (off + sizeof(hc) > r->data_size) {
			/* the header itself wraps: copy it byte by byte */
			for (size_t i = 0; i < sizeof(hc); i++)
				((uint8_t *)&hc)[i] = r->data[(off + i) & mask];
			h = &hc;
		}
		if (h->size < sizeof(*h) || tail + h->size > head) {
			ret = -EBADMSG;
			break;
		}
		if (off + h->size > r->data_size) {
			size_t first = (size_t)(r->data_size - off);

			memcpy(r->scratch, r->data + off, first);
			memcpy(r->scratch + first, r->data, h->size - first);
			h = (const void *)r->scratch;
		}
		ret = fn(h, ctx);
		if (ret)
			break;
		tail += h->size;
	}
	__atomic_store_n(&r->pc->data_tail, tail, __ATOMIC_RELEASE);
	return ret;
}

/* --- decoding ------------------------------------------------------------------------------- */

struct cur {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get64(struct cur *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static void get32x2(struct cur *c, uint32_t *a, uint32_t *b)
{
	uint64_t v = get64(c);

	*a = (uint32_t)v;
	*b = (uint32_t)(v >> 32);
}

static void skip(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return;
	}
	c->p += n;
}

static int cmp_id(const void *key, const void *elem)
{
	uint64_t k = *(const uint64_t *)key, id = ((const struct ring_event *)elem)->id;

	return (k > id) - (k < id);
}

static const struct ring_event *find_id(const struct ring_layout *lay, uint64_t id)
{
	return bsearch(&id, lay->ev, lay->nr, sizeof(*lay->ev), cmp_id);
}

/* The sample_id trailer of a non-sample record. */
struct trailer {
	uint32_t pid, tid, cpu;
	uint64_t time, id;
	int has_cpu;
};

static size_t trailer_size(uint64_t st)
{
	size_t n = 0;

	n += (st & PERF_SAMPLE_TID) ? 8 : 0;
	n += (st & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (st & PERF_SAMPLE_ID) ? 8 : 0;
	n += (st & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (st & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

static int read_trailer(const struct perf_event_header *h, uint64_t st, struct trailer *t,
			const uint8_t **body_end)
{
	size_t n = trailer_size(st);
	struct cur c;
	uint32_t res;

	memset(t, 0, sizeof(*t));
	t->cpu = TRACE_CPU_NONE;
	if (h->size < sizeof(*h) + n)
		return -EBADMSG;
	c.p = (const uint8_t *)h + h->size - n;
	c.end = (const uint8_t *)h + h->size;
	c.bad = 0;
	*body_end = c.p;
	if (st & PERF_SAMPLE_TID)
		get32x2(&c, &t->pid, &t->tid);
	if (st & PERF_SAMPLE_TIME)
		t->time = get64(&c);
	if (st & PERF_SAMPLE_ID)
		t->id = get64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		get64(&c);
	if (st & PERF_SAMPLE_CPU) {
		get32x2(&c, &t->cpu, &res);
		t->has_cpu = 1;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		t->id = get64(&c);
	return 0;
}

static void read_group(struct cur *c, const struct ring_layout *lay, uint64_t rf,
		       struct trace_sample *s)
{
	uint64_t nr = (rf & PERF_FORMAT_GROUP) ? get64(c) : 1;

	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		get64(c);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		get64(c);
	for (uint64_t i = 0; i < nr && !c->bad; i++) {
		uint64_t val = get64(c), id = (rf & PERF_FORMAT_ID) ? get64(c) : 0;
		const struct ring_event *e = id ? find_id(lay, id) : NULL;

		if (rf & PERF_FORMAT_LOST)
			get64(c);
		if (!e || e->td_index == -1)
			continue;
		if (e->td_index == -2) {
			s->td_slots = val;
			s->flags |= TRACE_SAMPLE_TOPDOWN;
		} else if (e->td_index < TRACE_TD_MAX) {
			s->td[e->td_index] = val;
			if (s->td_nr < e->td_index + 1)
				s->td_nr = (uint8_t)(e->td_index + 1);
		}
	}
}

#define ST_UNSUPPORTED (PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

/* Which event produced the sample: IDENTIFIER is first; ID sits after IP/TID/TIME/ADDR. */
static const struct ring_event *sample_event(const struct perf_event_header *h,
					     const struct ring_layout *lay)
{
	uint64_t st = lay->id_sample_type, id;
	const uint8_t *p = (const uint8_t *)(h + 1);
	size_t off = 0;

	if (lay->nr == 1 || !(st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		return lay->nr ? &lay->ev[0] : NULL;
	if (!(st & PERF_SAMPLE_IDENTIFIER)) {
		st = lay->ev[0].sample_type;
		off = 8 * (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			   !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR));
	}
	if (h->size < sizeof(*h) + off + 8)
		return NULL;
	memcpy(&id, p + off, 8);
	return find_id(lay, id);
}

int ring_sample_index(const struct perf_event_header *h, const struct ring_layout *lay)
{
	const struct ring_event *e = sample_event(h, lay);

	return e ? (int)e->index : -1;
}

static int decode_sample(const struct perf_event_header *h, const struct ring_layout *lay,
			 struct trace_sample *s)
{
	const struct ring_event *e = sample_event(h, lay);
	struct cur c = { (const uint8_t *)(h + 1), (const uint8_t *)h + h->size, 0 };
	uint64_t st, v;
	uint32_t res;

	if (!e)
		return RING_SKIP;
	st = e->sample_type;
	if (st & ST_UNSUPPORTED)
		return -ENOTSUP;
	memset(s, 0, sizeof(*s));
	s->cpu = TRACE_CPU_NONE;
	s->event = e->index;
	s->cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (h->misc & PERF_RECORD_MISC_EXACT_IP)
		s->flags |= TRACE_SAMPLE_EXACT_IP;
	if (st & PERF_SAMPLE_IDENTIFIER)
		get64(&c);
	if (st & PERF_SAMPLE_IP)
		s->ip = get64(&c);
	if (st & PERF_SAMPLE_TID)
		get32x2(&c, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		s->time = get64(&c);
	if (st & PERF_SAMPLE_ADDR) {
		s->addr = get64(&c);
		if (s->addr)
			s->flags |= TRACE_SAMPLE_HAS_ADDR;
	}
	if (st & PERF_SAMPLE_ID)
		get64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		get64(&c);
	if (st & PERF_SAMPLE_CPU) {
		get32x2(&c, &s->cpu, &res);
		s->flags |= TRACE_SAMPLE_HAS_CPU;
	}
	if (st & PERF_SAMPLE_PERIOD)
		get64(&c);
	if (st & PERF_SAMPLE_READ)
		read_group(&c, lay, e->read_format, s);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		/* the record stays mapped while its event is handled: the chain points into it */
		v = get64(&c);
		if (c.bad || v > (uint64_t)(c.end - c.p) / 8)
			return -EBADMSG;
		s->chain = v ? (const uint64_t *)(const void *)c.p : NULL;
		s->chain_nr = v > TRACE_CHAIN_MAX ? TRACE_CHAIN_MAX : (uint32_t)v;
		skip(&c, v * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n = 0;

		memcpy(&n, c.p, c.end - c.p >= 4 ? 4 : 0);
		skip(&c, 4 + (uint64_t)n);
	}
	if (st & PERF_SAMPLE_REGS_USER) {   /* --call-graph dwarf: kept for the unwinder */
		v = get64(&c);
		if (v) {
			uint64_t n = (uint64_t)__builtin_popcountll(e->regs_user);

			if (c.bad || n * 8 > (uint64_t)(c.end - c.p))
				return -EBADMSG;
			if (v == PERF_SAMPLE_REGS_ABI_64 && n) {
				s->regs_mask = e->regs_user;
				s->regs = (const uint64_t *)(const void *)c.p;
			}
			skip(&c, n * 8);
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		v = get64(&c);
		if (v) {
			const uint8_t *data = c.p;

			skip(&c, v);
			s->stack_size = get64(&c);   /* the bytes the kernel filled */
			if (s->stack_size > v)
				s->stack_size = v;
			s->stack = s->stack_size ? data : NULL;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		v = get64(&c);
		s->weight = (st & PERF_SAMPLE_WEIGHT_STRUCT) ? (uint32_t)v : v;
		s->flags |= TRACE_SAMPLE_HAS_WEIGHT;
	}
	if (st & PERF_SAMPLE_DATA_SRC) {
		s->data_src = get64(&c);
		s->flags |= TRACE_SAMPLE_HAS_DSRC;
	}
	if (st & PERF_SAMPLE_TRANSACTION)
		get64(&c);
	if (st & PERF_SAMPLE_PHYS_ADDR) {
		s->phys_addr = get64(&c);
		if (s->phys_addr)
			s->flags |= TRACE_SAMPLE_HAS_PHYS;
	}
	return c.bad ? -EBADMSG : RING_EVENT;
}

/* A NUL-terminated string inside [p, end). */
static const char *body_str(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || !memchr(p, 0, (size_t)(end - p)))
		return NULL;
	return (const char *)p;
}

static int decode_mmap(const struct perf_event_header *h, const struct trailer *t,
		       const uint8_t *end, struct trace_mmap *m)
{
	struct cur c = { (const uint8_t *)(h + 1), end, 0 };

	memset(m, 0, sizeof(*m));
	m->time = t->time;
	m->cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	get32x2(&c, &m->pid, &m->tid);
	m->start = get64(&c);
	m->len = get64(&c);
	m->pgoff = get64(&c);
	if (h->type == PERF_RECORD_MMAP2) {
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			if (end - c.p < 24)
				return -EBADMSG;
			m->build_id_size = c.p[0] > TRACE_BUILD_ID_MAX ? TRACE_BUILD_ID_MAX : c.p[0];
			memcpy(m->build_id, c.p + 4, m->build_id_size);
			skip(&c, 24);
		} else {
			get32x2(&c, &m->maj, &m->min);
			m->ino = get64(&c);
			m->ino_generation = get64(&c);
		}
		get32x2(&c, &m->prot, &m->flags);
	} else {
		m->prot = (h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 1 : 5;  /* R, or R|X */
		m->flags = 2;                                                 /* MAP_PRIVATE */
	}
	if (c.bad || !(m->filename = body_str(c.p, end)))
		return -EBADMSG;
	return RING_EVENT;
}

/* AUX tracing records: PERF_RECORD_AUX, ITRACE_START and the context switches. */
static int decode_aux_side(const struct perf_event_header *h, const struct trailer *t,
			   struct cur *c, struct trace_event *out)
{
	uint32_t cpu = t->has_cpu ? t->cpu : TRACE_CPU_NONE, a, b;

	switch (h->type) {
	case PERF_RECORD_AUX:
		out->type = TRACE_REC_AUX;
		out->aux = (struct trace_aux){ .time = t->time, .cpu = cpu, .pid = t->pid,
					       .tid = t->tid };
		out->aux.offset = get64(c);
		out->aux.size = get64(c);
		out->aux.flags = get64(c);
		break;
	case PERF_RECORD_ITRACE_START:
		out->type = TRACE_REC_ITRACE_START;
		get32x2(c, &a, &b);
		out->itrace = (struct trace_itrace_start){ .time = t->time, .cpu = cpu, .pid = a,
							   .tid = b };
		break;
	default:
		out->type = TRACE_REC_SWITCH;
		out->sw = (struct trace_switch){ .time = t->time, .cpu = cpu, .pid = t->pid,
						 .tid = t->tid, .next_prev_pid = UINT32_MAX,
						 .next_prev_tid = UINT32_MAX };
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out->sw.flags |= TRACE_SWITCH_OUT;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			out->sw.flags |= TRACE_SWITCH_PREEMPT;
		if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			out->sw.flags |= TRACE_SWITCH_CPU_WIDE;
			get32x2(c, &out->sw.next_prev_pid, &out->sw.next_prev_tid);
		}
	}
	return c->bad ? -EBADMSG : RING_EVENT;
}

static uint16_t event_of(const struct ring_layout *lay, uint64_t id)
{
	const struct ring_event *e = id ? find_id(lay, id) : NULL;

	return e ? e->index : (lay->nr ? lay->ev[0].index : 0);
}

static int decode_other(const struct perf_event_header *h, const struct ring_layout *lay,
			struct trace_event *out)
{
	struct trailer t;
	const uint8_t *end;
	struct cur c;
	int err = read_trailer(h, lay->id_sample_type, &t, &end);

	if (err)
		return err;
	c = (struct cur){ (const uint8_t *)(h + 1), end, 0 };
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		out->type = TRACE_REC_MMAP;
		return decode_mmap(h, &t, end, &out->mmap);
	case PERF_RECORD_COMM:
		out->type = TRACE_REC_COMM;
		memset(&out->comm, 0, sizeof(out->comm));
		get32x2(&c, &out->comm.pid, &out->comm.tid);
		out->comm.time = t.time;
		out->comm.exec = !!(h->misc & PERF_RECORD_MISC_COMM_EXEC);
		out->comm.comm = body_str(c.p, end);
		return c.bad || !out->comm.comm ? -EBADMSG : RING_EVENT;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		out->type = h->type == PERF_RECORD_FORK ? TRACE_REC_FORK : TRACE_REC_EXIT;
		get32x2(&c, &out->task.pid, &out->task.ppid);
		get32x2(&c, &out->task.tid, &out->task.ptid);
		out->task.time = get64(&c);
		return c.bad ? -EBADMSG : RING_EVENT;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		break;
	case PERF_RECORD_AUX:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return decode_aux_side(h, &t, &c, out);
	default:
		return RING_SKIP;
	}
	out->type = TRACE_REC_LOST;
	memset(&out->lost, 0, sizeof(out->lost));
	out->lost.time = t.time;
	out->lost.cpu = t.has_cpu ? t.cpu : TRACE_CPU_NONE;
	if (h->type == PERF_RECORD_LOST) {
		uint64_t id = get64(&c);

		out->lost.kind = TRACE_LOST_RECORDS;
		out->lost.count = get64(&c);
		out->lost.event = event_of(lay, id);
	} else if (h->type == PERF_RECORD_LOST_SAMPLES) {
		out->lost.kind = TRACE_LOST_SAMPLES;
		out->lost.count = get64(&c);
		out->lost.event = event_of(lay, t.id);
	} else {
		uint64_t time = get64(&c), id = get64(&c);

		out->lost.kind = h->type == PERF_RECORD_THROTTLE ? TRACE_LOST_THROTTLE :
				 TRACE_LOST_UNTHROTTLE;
		out->lost.time = time ? time : t.time;
		out->lost.count = 1;
		out->lost.event = event_of(lay, id);
	}
	return c.bad ? -EBADMSG : RING_EVENT;
}

int ring_decode(const struct perf_event_header *h, const struct ring_layout *lay,
		struct trace_event *out)
{
	if (h->size < sizeof(*h))
		return -EBADMSG;
	if (h->type == PERF_RECORD_SAMPLE) {
		out->type = TRACE_REC_SAMPLE;
		return decode_sample(h, lay, &out->sample);
	}
	return decode_other(h, lay, out);
}

uint64_t ring_record_time(const struct perf_event_header *h, const struct ring_layout *lay)
{
	struct trace_event ev;
	struct trailer t;
	const uint8_t *end;

	if (h->type == PERF_RECORD_SAMPLE)
		return ring_decode(h, lay, &ev) == RING_EVENT ? ev.sample.time : 0;
	if (read_trailer(h, lay->id_sample_type, &t, &end))
		return 0;
	return t.time;
}
