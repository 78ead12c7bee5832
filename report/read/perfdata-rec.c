/* perf.data reader: decoding of one queued kernel record into a struct trace_event.
 *
 * Every field is bounds-checked against header.size; a record too short for what its attr
 * promises is counted and skipped (perf stops at such a record; a report from the rest is more
 * useful). Strings are returned in place when NUL-terminated inside the record, else copied. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata-int.h"

#define PD_BRANCH_HW_INDEX  (1ull << 17)
#define PD_BRANCH_COUNTERS  (1ull << 19)

/* A bounded cursor over a record body. */
struct cur {
	const struct perfdata_reader *r;
	const uint8_t *p, *end;
	int bad;
};

static int need(struct cur *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		return 0;
	}
	return 1;
}

static uint64_t u64(struct cur *c)
{
	uint64_t v;

	if (!need(c, 8))
		return 0;
	v = pd_u64(c->r, c->p);
	c->p += 8;
	return v;
}

static uint32_t u32(struct cur *c)
{
	uint32_t v;

	if (!need(c, 4))
		return 0;
	v = pd_u32(c->r, c->p);
	c->p += 4;
	return v;
}

static void skip(struct cur *c, uint64_t n)
{
	if (need(c, n))
		c->p += n;
}

static const char *str_in(struct perfdata_reader *r, const uint8_t *p, const uint8_t *end)
{
	size_t n = (size_t)(end - p), len;

	if (p >= end)
		return "";
	len = strnlen((const char *)p, n);
	if (len < n)
		return (const char *)p;
	if (r->scratch_cap < len + 1)
		r->scratch = xgrow(r->scratch, &r->scratch_cap, len + 1, 1);
	memcpy(r->scratch, p, len);
	r->scratch[len] = 0;
	return r->scratch;
}

/* A read value of @id: the sample goes to the event of @id when the value grew since the id's
 * previous sample (perf's deliver_sample_value(): a zero period is not delivered, nor an
 * unknown id). The event, or -1 for an unknown id. */
static int read_value(struct perfdata_reader *r, uint64_t id, uint64_t value)
{
	uint64_t delta;
	int m = pd_id_value(r, id, value, &delta);

	if (m >= 0 && delta && r->split_n < PD_READ_MAX)
		r->split_attr[r->split_n++] = (uint16_t)m;
	return m;
}

/* PERF_SAMPLE_READ: the events the sample is delivered to (r->split_attr), and the TopDown
 * values of a group holding slots and topdown-* events. */
static void read_values(struct perfdata_reader *r, struct cur *c, const struct pd_attr *a,
			struct trace_sample *s)
{
	uint64_t rf = a->read_format, nr, i, v, id;
	int m;

	r->split_n = r->split_pos = 0;
	if (!(rf & PD_R_GROUP)) {
		v = u64(c);
		skip(c, 8 * (!!(rf & PD_R_ENABLED) + !!(rf & PD_R_RUNNING)));
		id = (rf & PD_R_ID) ? u64(c) : 0;
		skip(c, 8 * !!(rf & PD_R_LOST));
		if (!c->bad)
			read_value(r, id, v);
		return;
	}
	nr = u64(c);
	skip(c, 8 * (!!(rf & PD_R_ENABLED) + !!(rf & PD_R_RUNNING)));
	if (nr > PD_READ_MAX) {
		c->bad = 1;
		return;
	}
	for (i = 0; i < nr && !c->bad; i++) {
		v = u64(c);
		id = (rf & PD_R_ID) ? u64(c) : 0;
		skip(c, 8 * !!(rf & PD_R_LOST));
		if (c->bad || (m = read_value(r, id, v)) < 0)
			continue;
		if (r->attr[m].td_role == PD_TD_SLOTS) {
			s->td_slots = v;
			s->flags |= TRACE_SAMPLE_TOPDOWN;
		} else if (r->attr[m].td_role == PD_TD_METRIC && s->td_nr < TRACE_TD_MAX) {
			s->td[s->td_nr++] = v;
			s->flags |= TRACE_SAMPLE_TOPDOWN;
		}
	}
}

static void skip_branches(struct cur *c, const struct pd_attr *a)
{
	uint64_t nr = u64(c);

	if (a->branch_sample_type & PD_BRANCH_HW_INDEX)
		skip(c, 8);
	if (nr > (1u << 16)) {
		c->bad = 1;
		return;
	}
	skip(c, nr * 24);
	if (a->branch_sample_type & PD_BRANCH_COUNTERS)
		skip(c, nr * 8);
}

static void skip_regs(struct cur *c, uint64_t mask)
{
	if (u64(c))
		skip(c, 8 * (uint64_t)__builtin_popcountll(mask));
}

/* PERF_SAMPLE_REGS_USER: u64 abi, then a value per bit of the attr's mask (none for ABI_NONE,
 * a task without user state). Kept for 64-bit tasks (abi 2) only. */
static void read_user_regs(struct perfdata_reader *r, struct cur *c, uint64_t mask,
			   struct trace_sample *s)
{
	uint64_t abi = u64(c);
	unsigned n = (unsigned)__builtin_popcountll(mask);

	if (!abi || c->bad)
		return;
	if (!need(c, 8ull * n))
		return;
	for (unsigned i = 0; i < n; i++)
		r->regs[i] = pd_u64(r, c->p + 8 * i);
	c->p += 8ull * n;
	if (abi == 2 && n) {
		s->regs_mask = mask;
		s->regs = r->regs;
	}
}

/* PERF_SAMPLE_CALLCHAIN: u64 nr, nr addresses (context markers kept). A chain longer than
 * TRACE_CHAIN_MAX keeps its first entries; the count is checked against the record first. */
static void read_chain(struct perfdata_reader *r, struct cur *c, struct trace_sample *s)
{
	uint64_t n = u64(c), keep;

	if (!need(c, n > (1u << 20) ? UINT64_MAX / 2 : n * 8))
		return;
	keep = n > TRACE_CHAIN_MAX ? TRACE_CHAIN_MAX : n;
	for (uint64_t i = 0; i < keep; i++)
		r->chain[i] = pd_u64(r, c->p + 8 * i);
	c->p += n * 8;
	s->chain_nr = (uint32_t)keep;
	s->chain = keep ? r->chain : NULL;
}

/* The fields after PERIOD; most are skipped. */
static void sample_tail(struct perfdata_reader *r, struct cur *c, const struct pd_attr *a,
			struct trace_sample *s)
{
	uint64_t st = a->sample_type, n;

	if (st & PD_S_READ)
		read_values(r, c, a, s);
	if (st & PD_S_CALLCHAIN)
		read_chain(r, c, s);
	if (st & PD_S_RAW)
		skip(c, u32(c));
	if (st & PD_S_BRANCH_STACK)
		skip_branches(c, a);
	if (st & PD_S_REGS_USER)
		read_user_regs(r, c, a->regs_user, s);
	if (st & PD_S_STACK_USER) {
		n = u64(c);
		if (n && need(c, n)) {
			const uint8_t *data = c->p;

			c->p += n;
			s->stack_size = u64(c);   /* dyn_size: the bytes the kernel filled */
			if (s->stack_size > n)
				s->stack_size = n;
			s->stack = s->stack_size ? data : NULL;
		}
	}
	if (st & PD_S_WEIGHT) {
		s->weight = u64(c);
		s->flags |= TRACE_SAMPLE_HAS_WEIGHT;
	} else if (st & PD_S_WEIGHT_STRUCT) {
		/* x86 and powerpc perf use only var1_dw, the low 32 bits (c2c-semantics.md 4.3) */
		s->weight = u64(c) & 0xffffffffu;
		s->flags |= TRACE_SAMPLE_HAS_WEIGHT;
	}
	if (st & PD_S_DATA_SRC) {
		s->data_src = u64(c);
		s->flags |= TRACE_SAMPLE_HAS_DSRC;
	}
	if (st & PD_S_TRANSACTION)
		skip(c, 8);
	if (st & PD_S_REGS_INTR)
		skip_regs(c, a->regs_intr);
	if (st & PD_S_PHYS_ADDR) {
		s->phys_addr = u64(c);
		s->flags |= TRACE_SAMPLE_HAS_PHYS;
	}
	if (st & PD_S_CGROUP)
		skip(c, 8);
	if (st & PD_S_DATA_PAGE_SIZE)
		skip(c, 8);
	if (st & PD_S_CODE_PAGE_SIZE)
		skip(c, 8);
	if (st & PD_S_AUX)
		skip(c, u64(c));
}

/* Zero @s with vector stores: a memset() of its constant size compiles to "rep stos", whose
 * start-up was a third of this file's decoding time (perf annotate, 1M samples). */
static void zero_sample(struct trace_sample *s)
{
	typedef uint64_t v2 __attribute__((vector_size(16)));
	const v2 z = { 0, 0 };
	unsigned char *p = (unsigned char *)s;

	_Static_assert(sizeof(*s) % 16 == 0, "a trace_sample is whole 16-byte words");
#pragma GCC unroll 16
	for (size_t i = 0; i < sizeof(*s); i += 16)
		__builtin_memcpy(p + i, &z, 16);
}

static int decode_sample(struct perfdata_reader *r, struct cur *c, uint16_t misc, uint32_t attr,
			 struct trace_sample *s)
{
	const struct pd_attr *a = &r->attr[attr];
	uint64_t st = a->sample_type;

	zero_sample(s);
	s->cpu = TRACE_CPU_NONE;
	s->event = (uint16_t)attr;
	s->cpumode = misc & PD_MISC_CPUMODE;
	if (misc & PD_MISC_EXACT_IP)
		s->flags |= TRACE_SAMPLE_EXACT_IP;
	if (st & PD_S_IDENTIFIER)
		skip(c, 8);
	if (st & PD_S_IP)
		s->ip = u64(c);
	if (st & PD_S_TID) {
		s->pid = u32(c);
		s->tid = u32(c);
	}
	if (st & PD_S_TIME)
		s->time = u64(c);
	if (st & PD_S_ADDR) {
		s->addr = u64(c);
		s->flags |= TRACE_SAMPLE_HAS_ADDR;
	}
	if (st & PD_S_ID)
		skip(c, 8);
	if (st & PD_S_STREAM_ID)
		skip(c, 8);
	if (st & PD_S_CPU) {
		s->cpu = u32(c);
		skip(c, 4);
		s->flags |= TRACE_SAMPLE_HAS_CPU;
	}
	if (st & PD_S_PERIOD)
		skip(c, 8);
	if (st & ~(uint64_t)(PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ADDR | PD_S_ID | PD_S_CPU |
			     PD_S_PERIOD | PD_S_STREAM_ID | PD_S_IDENTIFIER))
		sample_tail(r, c, a, s);
	if (c->bad) {
		r->split_n = 0;
		return 0;
	}
	if (!(st & PD_S_READ)) {
		r->stats.nr_samples++;
		return 1;
	}
	if (!r->split_n)
		return 2;   /* well-formed, delivered to no event */
	/* the TopDown values go with the sampling event's own delivery, else the first one */
	r->split = *s;
	r->split_td = 0;
	for (uint32_t k = 0; k < r->split_n; k++)
		if (r->split_attr[k] == attr) {
			r->split_td = k;
			break;
		}
	pd_split_next(r, s);
	return 1;
}

void pd_split_next(struct perfdata_reader *r, struct trace_sample *s)
{
	uint32_t k = r->split_pos++;

	*s = r->split;
	s->event = r->split_attr[k];
	if (k != r->split_td) {
		s->flags &= (uint8_t)~TRACE_SAMPLE_TOPDOWN;
		s->td_nr = 0;
		s->td_slots = 0;
		memset(s->td, 0, sizeof(s->td));
	}
	r->stats.nr_samples++;
}

/* The sample_id trailer of a non-sample record: its cpu, and the end of the body. */
static const uint8_t *trailer(const struct perfdata_reader *r, const uint8_t *rec, uint16_t size,
			      uint32_t attr, uint32_t *cpu)
{
	const struct pd_attr *a = &r->attr[attr];
	const uint8_t *t;

	*cpu = TRACE_CPU_NONE;
	if (a->trailer + 8 > size)
		return rec + size;
	t = rec + size - a->trailer;
	if (a->tr_cpu >= 0)
		*cpu = pd_u32(r, t + a->tr_cpu);
	return t;
}

static uint64_t trailer_time(const struct perfdata_reader *r, const uint8_t *rec, uint16_t size,
			     uint32_t attr)
{
	const struct pd_attr *a = &r->attr[attr];

	if (a->tr_time < 0 || a->trailer + 8 > size)
		return 0;
	return pd_u64(r, rec + size - a->trailer + a->tr_time);
}

/* The build id of @name from the BUILD_ID feature (kernel maps are named "[kernel.kallsyms]_text"
 * in MMAP records and "[kernel.kallsyms]" in the feature). */
static void attach_build_id(const struct perfdata_reader *r, struct trace_mmap *m)
{
	size_t i, n;

	for (i = 0; i < r->nr_bid; i++) {
		n = strlen(r->bid[i].name);
		if (!strcmp(r->bid[i].name, m->filename) ||
		    (r->bid[i].name[0] == '[' && !strncmp(r->bid[i].name, m->filename, n))) {
			m->build_id_size = r->bid[i].size;
			memcpy(m->build_id, r->bid[i].id, r->bid[i].size);
			return;
		}
	}
}

static int decode_mmap(struct perfdata_reader *r, const uint8_t *rec, uint32_t type, uint16_t misc,
		       uint32_t attr, struct trace_mmap *m)
{
	uint16_t size = pd_u16(r, rec + 6);
	uint32_t cpu;
	const uint8_t *end = trailer(r, rec, size, attr, &cpu);
	struct cur c = { r, rec + 8, end, 0 };

	memset(m, 0, sizeof(*m));
	m->time = trailer_time(r, rec, size, attr);
	m->pid = u32(&c);
	m->tid = u32(&c);
	m->start = u64(&c);
	m->len = u64(&c);
	m->pgoff = u64(&c);
	m->cpumode = misc & PD_MISC_CPUMODE;
	if (type == PD_MMAP2) {
		if (misc & PD_MISC_EXACT_IP) {    /* MMAP_BUILD_ID */
			uint8_t n = need(&c, 24) ? c.p[0] : 0;

			m->build_id_size = n > TRACE_BUILD_ID_MAX ? TRACE_BUILD_ID_MAX : n;
			if (!c.bad)
				memcpy(m->build_id, c.p + 4, m->build_id_size);
			skip(&c, 24);
		} else {
			m->maj = u32(&c);
			m->min = u32(&c);
			m->ino = u64(&c);
			m->ino_generation = u64(&c);
		}
		m->prot = u32(&c);
		m->flags = u32(&c);
	} else {
		m->prot = (misc & PD_MISC_MMAP_DATA) ? 1 : 5;  /* PROT_READ, PROT_READ | PROT_EXEC */
	}
	if (c.bad)
		return 0;
	m->filename = str_in(r, c.p, end);
	if (!m->build_id_size && r->nr_bid)
		attach_build_id(r, m);
	return 1;
}

static int decode_comm(struct perfdata_reader *r, const uint8_t *rec, uint16_t misc, uint32_t attr,
		       struct trace_comm *cm)
{
	uint16_t size = pd_u16(r, rec + 6);
	uint32_t cpu;
	const uint8_t *end = trailer(r, rec, size, attr, &cpu);
	struct cur c = { r, rec + 8, end, 0 };

	memset(cm, 0, sizeof(*cm));
	cm->time = trailer_time(r, rec, size, attr);
	cm->pid = u32(&c);
	cm->tid = u32(&c);
	cm->exec = !!(misc & PD_MISC_MMAP_DATA);
	if (c.bad)
		return 0;
	cm->comm = str_in(r, c.p, end);
	return 1;
}

static int decode_task(struct perfdata_reader *r, const uint8_t *rec, struct trace_task *t)
{
	struct cur c = { r, rec + 8, rec + pd_u16(r, rec + 6), 0 };

	memset(t, 0, sizeof(*t));
	/* perf_event__synthesize_fork() marks the FORKs of tasks that already ran: perf's
	 * machine__process_fork_event then copies no maps from the parent */
	if (pd_u32(r, rec) == PD_FORK && (pd_u16(r, rec + 4) & PD_MISC_FORK_EXEC))
		t->flags = TRACE_TASK_SYNTHESIZED;
	t->pid = u32(&c);
	t->ppid = u32(&c);
	t->tid = u32(&c);
	t->ptid = u32(&c);
	t->time = u64(&c);
	return !c.bad;
}

static int decode_lost(struct perfdata_reader *r, const uint8_t *rec, uint32_t type, uint32_t attr,
		       struct trace_lost *l)
{
	uint16_t size = pd_u16(r, rec + 6);
	const uint8_t *end;
	struct cur c;
	uint64_t id;
	int m;

	memset(l, 0, sizeof(*l));
	end = trailer(r, rec, size, attr, &l->cpu);
	c = (struct cur){ r, rec + 8, end, 0 };
	l->time = trailer_time(r, rec, size, attr);
	l->event = (uint16_t)attr;
	l->count = 1;
	switch (type) {
	case PD_LOST:
		id = u64(&c);
		l->count = u64(&c);
		l->kind = TRACE_LOST_RECORDS;
		m = pd_attr_of_id(r, id);
		if (m >= 0)
			l->event = (uint16_t)m;
		r->stats.nr_lost_records += l->count;
		break;
	case PD_LOST_SAMPLES:
		l->count = u64(&c);
		l->kind = TRACE_LOST_SAMPLES;
		r->stats.nr_lost_samples += l->count;
		break;
	default:
		l->time = u64(&c);
		id = u64(&c);
		m = pd_attr_of_id(r, id);
		if (m >= 0)
			l->event = (uint16_t)m;
		l->kind = type == PD_THROTTLE ? TRACE_LOST_THROTTLE : TRACE_LOST_UNTHROTTLE;
		if (type == PD_THROTTLE)
			r->stats.nr_throttle++;
		else
			r->stats.nr_unthrottle++;
	}
	return !c.bad;
}

static int decode_auxtrace(struct perfdata_reader *r, const uint8_t *rec, struct trace_blob *b)
{
	uint16_t size = pd_u16(r, rec + 6);

	memset(b, 0, sizeof(*b));
	b->kind = TRACE_BLOB_SPE_AUX;
	b->size = pd_u64(r, rec + 8);
	b->offset = pd_u64(r, rec + 16);
	b->cpu = pd_u32(r, rec + 40);
	b->data = rec + size;
	return 1;
}

/* Raw Arm SPE: PERF_RECORD_AUX, ITRACE_START and SWITCH(_CPU_WIDE) as record writes them into
 * a c2c-lite trace. */
static int decode_aux_side(struct perfdata_reader *r, const uint8_t *rec, uint32_t attr,
			   struct trace_event *ev)
{
	uint32_t type = pd_u32(r, rec);
	uint16_t misc = pd_u16(r, rec + 4), size = pd_u16(r, rec + 6);
	const struct pd_attr *a = &r->attr[attr];
	struct cur c = { r, rec + 8, rec + size, 0 };
	uint32_t cpu, pid = UINT32_MAX, tid = UINT32_MAX;
	const uint8_t *t = trailer(r, rec, size, attr, &cpu);
	uint64_t time = trailer_time(r, rec, size, attr);

	c.end = t;
	if (t < rec + size && a->tr_tid >= 0) {
		pid = pd_u32(r, t + a->tr_tid);
		tid = pd_u32(r, t + a->tr_tid + 4);
	}
	memset(&ev->sw, 0, sizeof(ev->sw) > sizeof(ev->aux) ? sizeof(ev->sw) : sizeof(ev->aux));
	if (type == PD_AUX) {
		ev->type = TRACE_REC_AUX;
		ev->aux = (struct trace_aux){ time, cpu, pid, tid, 0, 0, 0 };
		ev->aux.offset = u64(&c);
		ev->aux.size = u64(&c);
		ev->aux.flags = u64(&c);
	} else if (type == PD_ITRACE_START) {
		ev->type = TRACE_REC_ITRACE_START;
		ev->itrace = (struct trace_itrace_start){ time, cpu, 0, 0 };
		ev->itrace.pid = u32(&c);
		ev->itrace.tid = u32(&c);
	} else {
		ev->type = TRACE_REC_SWITCH;
		ev->sw = (struct trace_switch){ time, cpu, pid, tid, 0, UINT32_MAX, UINT32_MAX };
		if (misc & PD_MISC_SWITCH_OUT)
			ev->sw.flags |= TRACE_SWITCH_OUT;
		if (misc & PD_MISC_SWITCH_PREEMPT)
			ev->sw.flags |= TRACE_SWITCH_PREEMPT;
		if (type == PD_SWITCH_CPU_WIDE) {
			ev->sw.flags |= TRACE_SWITCH_CPU_WIDE;
			ev->sw.next_prev_pid = u32(&c);
			ev->sw.next_prev_tid = u32(&c);
		}
	}
	return !c.bad;
}

/* PERF_RECORD_AUX {aux_offset, aux_size, flags}: what the kernel says it could not keep. */
static void aux_flags(struct perfdata_reader *r, struct cur *c)
{
	uint64_t flags;

	u64(c);
	u64(c);
	flags = u64(c);
	if (c->bad)
		return;
	r->stats.nr_aux_truncated += !!(flags & 0x01);
	r->stats.nr_aux_partial += !!(flags & 0x04);
	r->stats.nr_aux_collision += !!(flags & 0x08);
}

int pd_decode(struct perfdata_reader *r, const uint8_t *rec, uint32_t attr, struct trace_event *ev)
{
	uint32_t type = pd_u32(r, rec);
	uint16_t misc = pd_u16(r, rec + 4), size = pd_u16(r, rec + 6);
	struct cur c = { r, rec + 8, rec + size, 0 };
	int ok;

	switch (type) {
	case PD_SAMPLE:
		ev->type = TRACE_REC_SAMPLE;
		ok = decode_sample(r, &c, misc, attr, &ev->sample);
		break;
	case PD_MMAP:
	case PD_MMAP2:
		ev->type = TRACE_REC_MMAP;
		ok = decode_mmap(r, rec, type, misc, attr, &ev->mmap);
		break;
	case PD_COMM:
		ev->type = TRACE_REC_COMM;
		ok = decode_comm(r, rec, misc, attr, &ev->comm);
		break;
	case PD_FORK:
	case PD_EXIT:
		ev->type = type == PD_FORK ? TRACE_REC_FORK : TRACE_REC_EXIT;
		ok = decode_task(r, rec, &ev->task);
		break;
	case PD_AUXTRACE:
		ev->type = TRACE_REC_BLOB;
		ok = decode_auxtrace(r, rec, &ev->blob);
		break;
	case PD_LOST:
	case PD_LOST_SAMPLES:
	case PD_THROTTLE:
	case PD_UNTHROTTLE:
		ev->type = TRACE_REC_LOST;
		ok = decode_lost(r, rec, type, attr, &ev->lost);
		break;
	case PD_AUX:
		aux_flags(r, &c);
		if (!(r->opts & PERFDATA_SPE_RAW))
			return 0;
		/* fall through */
	case PD_ITRACE_START:
	case PD_SWITCH:
	case PD_SWITCH_CPU_WIDE:
		if (!(r->opts & PERFDATA_SPE_RAW))
			return 0;
		ok = decode_aux_side(r, rec, attr, ev);
		break;
	default:
		return 0;   /* queued only to time the Arm SPE decoding (switches, ITRACE_START) */
	}
	if (!ok)
		r->nr_bad++;
	return ok == 1;
}
