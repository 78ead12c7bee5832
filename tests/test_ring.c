/* Ring draining and kernel record decoding (record/ring.c) on a fake ring buffer, and the
 * round-based time ordering (record/queue.c). Record layouts: pmu-events.md §8. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record/queue.h"
#include "record/ring.h"

#define PAGE 4096
#define DATA 4096

struct fake {
	uint8_t *mem;
	struct ring r;
	uint64_t head;
};

static void fake_init(struct fake *f, uint64_t start)
{
	f->mem = calloc(1, PAGE + DATA);
	assert_int_equal(ring_init(&f->r, f->mem, PAGE, DATA), 0);
	f->r.pc->data_tail = start;
	f->head = start;
}

static void fake_free(struct fake *f)
{
	ring_unmap(&f->r);
	free(f->mem);
}

/* Append a record (wrapping at the end of the data area) and publish the head. */
static void fake_put(struct fake *f, const void *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		f->r.data[(f->head + i) & (DATA - 1)] = ((const uint8_t *)rec)[i];
	f->head += len;
	f->r.pc->data_head = f->head;
}

/* A record builder. */
struct rb {
	uint8_t b[512];
	size_t n;
};

static void rb_start(struct rb *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	memcpy(r->b, &h, sizeof(h));
	r->n = sizeof(h);
}

static void rb64(struct rb *r, uint64_t v)
{
	memcpy(r->b + r->n, &v, 8);
	r->n += 8;
}

static void rb32x2(struct rb *r, uint32_t a, uint32_t b)
{
	rb64(r, (uint64_t)a | (uint64_t)b << 32);
}

static void rbstr(struct rb *r, const char *s)
{
	size_t len = strlen(s) + 1, pad = (len + 7) & ~(size_t)7;

	memset(r->b + r->n, 0, pad);
	memcpy(r->b + r->n, s, len);
	r->n += pad;
}

static const struct perf_event_header *rb_end(struct rb *r)
{
	struct perf_event_header *h = (void *)r->b;

	h->size = (uint16_t)r->n;
	return h;
}

#define ST_MEM (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT | \
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

static struct ring_event one_ev = { .sample_type = ST_MEM, .read_format = 0x14, .id = 7,
				    .index = 0, .td_index = -1 };
static const struct ring_layout one = { &one_ev, 1, ST_MEM };

static void mem_sample(struct rb *r, uint64_t time, uint64_t addr)
{
	rb_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	rb64(r, 0x401000);                /* ip */
	rb32x2(r, 100, 101);              /* pid, tid */
	rb64(r, time);
	rb64(r, addr);
	rb32x2(r, 3, 0);                  /* cpu */
	rb64(r, 1000);                    /* period */
	rb64(r, 0x0005000400000123ull);   /* weight struct: var1 0x123 */
	rb64(r, 0x68100142ull);           /* data_src */
	rb64(r, 0x12345000);              /* phys */
	rb_end(r);
}

struct collect {
	struct trace_event ev[16];
	int n, stop_at;
	const struct ring_layout *lay;
	char strs[16][64];
};

static int collect_fn(const struct perf_event_header *h, void *ctx)
{
	struct collect *c = ctx;
	int r;

	if (c->n == c->stop_at)
		return 99;
	r = ring_decode(h, c->lay, &c->ev[c->n]);
	assert_int_equal(r, RING_EVENT);
	if (c->ev[c->n].type == TRACE_REC_MMAP) {
		snprintf(c->strs[c->n], 64, "%s", c->ev[c->n].mmap.filename);
		c->ev[c->n].mmap.filename = c->strs[c->n];
	} else if (c->ev[c->n].type == TRACE_REC_COMM) {
		snprintf(c->strs[c->n], 64, "%s", c->ev[c->n].comm.comm);
		c->ev[c->n].comm.comm = c->strs[c->n];
	}
	c->n++;
	return 0;
}

static void check_mem_sample(const struct trace_sample *s, uint64_t time, uint64_t addr)
{
	assert_int_equal(s->ip, 0x401000);
	assert_int_equal(s->pid, 100);
	assert_int_equal(s->tid, 101);
	assert_int_equal(s->time, time);
	assert_int_equal(s->addr, addr);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->weight, 0x123);
	assert_int_equal(s->data_src, 0x68100142ull);
	assert_int_equal(s->phys_addr, 0x12345000);
	assert_int_equal(s->cpumode, PERF_RECORD_MISC_USER);
	assert_int_equal(s->flags, TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR |
			 TRACE_SAMPLE_HAS_PHYS | TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC |
			 TRACE_SAMPLE_EXACT_IP);
}

/* Samples, one of them wrapping the end of the data area, are read back whole. */
static void test_ring_wrap(void **state)
{
	struct collect c = { .stop_at = -1, .lay = &one };
	struct fake f;
	struct rb r;

	(void)state;
	fake_init(&f, DATA - 40);   /* the first record (80 bytes) wraps */
	for (int i = 0; i < 3; i++) {
		mem_sample(&r, 1000 + i, 0x7000 + i);
		fake_put(&f, r.b, r.n);
	}
	assert_int_equal(ring_pending(&f.r), 3 * 80);
	assert_int_equal(ring_drain(&f.r, collect_fn, &c), 0);
	assert_int_equal(c.n, 3);
	for (int i = 0; i < 3; i++)
		check_mem_sample(&c.ev[i].sample, 1000 + i, 0x7000 + i);
	assert_int_equal(f.r.pc->data_tail, f.head);
	assert_int_equal(ring_pending(&f.r), 0);
	fake_free(&f);
}

/* A callback that stops leaves the rest unread. */
static void test_ring_stop(void **state)
{
	struct collect c = { .stop_at = 1, .lay = &one };
	struct fake f;
	struct rb r;

	(void)state;
	fake_init(&f, 0);
	mem_sample(&r, 1, 1);
	fake_put(&f, r.b, r.n);
	fake_put(&f, r.b, r.n);
	assert_int_equal(ring_drain(&f.r, collect_fn, &c), 99);
	assert_int_equal(f.r.pc->data_tail, 80);
	fake_free(&f);
}

static void test_ring_corrupt_header(void **state)
{
	struct collect c = { .stop_at = -1, .lay = &one };
	struct perf_event_header h = { .type = 9, .size = 4 };
	struct fake f;

	(void)state;
	fake_init(&f, 0);
	fake_put(&f, &h, 8);
	assert_int_equal(ring_drain(&f.r, collect_fn, &c), -EBADMSG);
	fake_free(&f);
}

#define ST_SW (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
	       PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static void id_trailer(struct rb *r, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
		    uint64_t id)
{
	rb32x2(r, pid, tid);
	rb64(r, time);
	rb32x2(r, cpu, 0);
	rb64(r, id);
}

/* Side-band records with their sample_id trailer (TID, TIME, CPU, IDENTIFIER). */
static void test_ring_sideband(void **state)
{
	struct ring_event evs[2] = {
		{ .sample_type = ST_SW, .id = 50, .index = 0, .td_index = -1 },
		{ .sample_type = ST_SW, .id = 60, .index = 1, .td_index = -1 },
	};
	const struct ring_layout lay = { evs, 2, ST_SW };
	struct collect c = { .stop_at = -1, .lay = &lay };
	struct fake f;
	struct rb r;

	(void)state;
	fake_init(&f, 0);
	rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	rb32x2(&r, 10, 11);
	rb64(&r, 0x400000);
	rb64(&r, 0x2000);
	rb64(&r, 0x1000);
	rb32x2(&r, 8, 1);                /* maj, min */
	rb64(&r, 1234);                  /* ino */
	rb64(&r, 5);                     /* ino generation */
	rb32x2(&r, 3, 2);                /* prot, flags */
	rbstr(&r, "/usr/bin/prog");
	id_trailer(&r, 10, 11, 500, 1, 50);
	fake_put(&f, r.b, rb_end(&r)->size);
	rb_start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb32x2(&r, 10, 11);
	rbstr(&r, "prog");
	id_trailer(&r, 10, 11, 501, 1, 50);
	fake_put(&f, r.b, rb_end(&r)->size);
	rb_start(&r, PERF_RECORD_FORK, 0);
	rb32x2(&r, 10, 9);
	rb32x2(&r, 12, 11);
	rb64(&r, 502);
	id_trailer(&r, 10, 12, 502, 0, 50);
	fake_put(&f, r.b, rb_end(&r)->size);
	rb_start(&r, PERF_RECORD_LOST, 0);
	rb64(&r, 60);
	rb64(&r, 17);
	id_trailer(&r, 0, 0, 503, 1, 60);
	fake_put(&f, r.b, rb_end(&r)->size);
	rb_start(&r, PERF_RECORD_LOST_SAMPLES, 0);
	rb64(&r, 4);
	id_trailer(&r, 0, 0, 504, 0, 60);
	fake_put(&f, r.b, rb_end(&r)->size);
	rb_start(&r, PERF_RECORD_THROTTLE, 0);
	rb64(&r, 505);
	rb64(&r, 60);
	rb64(&r, 60);
	id_trailer(&r, 0, 0, 505, 1, 60);
	fake_put(&f, r.b, rb_end(&r)->size);
	rb_start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	rb64(&r, 60);                    /* identifier */
	rb64(&r, 0xffffffff81000000ull);
	rb32x2(&r, 10, 12);
	rb64(&r, 506);
	rb64(&r, 0);                     /* addr 0: no HAS_ADDR */
	rb32x2(&r, 1, 0);
	fake_put(&f, r.b, rb_end(&r)->size);

	assert_int_equal(ring_drain(&f.r, collect_fn, &c), 0);
	assert_int_equal(c.n, 7);
	assert_int_equal(c.ev[0].type, TRACE_REC_MMAP);
	assert_int_equal(c.ev[0].mmap.pid, 10);
	assert_int_equal(c.ev[0].mmap.start, 0x400000);
	assert_int_equal(c.ev[0].mmap.len, 0x2000);
	assert_int_equal(c.ev[0].mmap.pgoff, 0x1000);
	assert_int_equal(c.ev[0].mmap.maj, 8);
	assert_int_equal(c.ev[0].mmap.ino, 1234);
	assert_int_equal(c.ev[0].mmap.prot, 3);
	assert_int_equal(c.ev[0].mmap.flags, 2);
	assert_int_equal(c.ev[0].mmap.time, 500);
	assert_string_equal(c.ev[0].mmap.filename, "/usr/bin/prog");
	assert_int_equal(c.ev[1].type, TRACE_REC_COMM);
	assert_int_equal(c.ev[1].comm.exec, 1);
	assert_string_equal(c.ev[1].comm.comm, "prog");
	assert_int_equal(c.ev[2].type, TRACE_REC_FORK);
	assert_int_equal(c.ev[2].task.ppid, 9);
	assert_int_equal(c.ev[2].task.tid, 12);
	assert_int_equal(c.ev[2].task.time, 502);
	assert_int_equal(c.ev[3].type, TRACE_REC_LOST);
	assert_int_equal(c.ev[3].lost.kind, TRACE_LOST_RECORDS);
	assert_int_equal(c.ev[3].lost.count, 17);
	assert_int_equal(c.ev[3].lost.event, 1);
	assert_int_equal(c.ev[3].lost.cpu, 1);
	assert_int_equal(c.ev[4].lost.kind, TRACE_LOST_SAMPLES);
	assert_int_equal(c.ev[4].lost.count, 4);
	assert_int_equal(c.ev[5].lost.kind, TRACE_LOST_THROTTLE);
	assert_int_equal(c.ev[5].lost.time, 505);
	assert_int_equal(c.ev[6].type, TRACE_REC_SAMPLE);
	assert_int_equal(c.ev[6].sample.event, 1);
	assert_int_equal(c.ev[6].sample.cpumode, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(c.ev[6].sample.flags, TRACE_SAMPLE_HAS_CPU);
	assert_int_equal(ring_record_time(rb_end(&r), &lay), 506);
	fake_free(&f);
}

/* A TopDown sample: PERF_SAMPLE_ID (not IDENTIFIER) and a FORMAT_GROUP read block. */
static void test_ring_topdown_group(void **state)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_READ;
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	struct ring_event evs[4] = {
		{ .sample_type = st, .read_format = rf, .id = 10, .index = 0, .td_index = -2 },
		{ .sample_type = st, .read_format = rf, .id = 11, .index = 1, .td_index = -1 },
		{ .sample_type = st, .read_format = rf, .id = 12, .index = 2, .td_index = 0 },
		{ .sample_type = st, .read_format = rf, .id = 13, .index = 3, .td_index = 1 },
	};
	const struct ring_layout lay = { evs, 4, st };
	struct trace_event ev;
	struct rb r;

	(void)state;
	rb_start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb64(&r, 0x401000);
	rb32x2(&r, 1, 2);
	rb64(&r, 77);
	rb64(&r, 0xdead);
	rb64(&r, 11);                    /* id: the sampler */
	rb32x2(&r, 0, 0);
	rb64(&r, 4);                     /* nr */
	rb64(&r, 1000); rb64(&r, 10); rb64(&r, 0);
	rb64(&r, 5);    rb64(&r, 11); rb64(&r, 0);
	rb64(&r, 400);  rb64(&r, 12); rb64(&r, 0);
	rb64(&r, 600);  rb64(&r, 13); rb64(&r, 0);
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), RING_EVENT);
	assert_int_equal(ev.sample.event, 1);
	assert_int_equal(ev.sample.td_slots, 1000);
	assert_int_equal(ev.sample.td_nr, 2);
	assert_int_equal(ev.sample.td[0], 400);
	assert_int_equal(ev.sample.td[1], 600);
	assert_true(ev.sample.flags & TRACE_SAMPLE_TOPDOWN);
	/* cut short: the read block is incomplete */
	r.n -= 16;
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), -EBADMSG);
	/* an id nobody opened */
	r.n += 16;
	memcpy(r.b + 8 + 32, &(uint64_t){ 99 }, 8);
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), RING_SKIP);
}

static void test_ring_malformed(void **state)
{
	struct trace_event ev;
	struct rb r;

	(void)state;
	mem_sample(&r, 1, 2);
	r.n -= 8;                        /* phys missing */
	assert_int_equal(ring_decode(rb_end(&r), &one, &ev), -EBADMSG);
	rb_start(&r, PERF_RECORD_COMM, 0);
	rb32x2(&r, 1, 1);
	rb64(&r, 0x4141414141414141ull); /* no NUL */
	assert_int_equal(ring_decode(rb_end(&r), &one, &ev), -EBADMSG);
	rb_start(&r, PERF_RECORD_NAMESPACES, 0);
	assert_int_equal(ring_decode(rb_end(&r), &(struct ring_layout){ &one_ev, 1, 0 }, &ev),
			 RING_SKIP);
	/* AUX and CPU-wide switch records cut short */
	rb_start(&r, PERF_RECORD_AUX, 0);
	rb64(&r, 0);
	rb64(&r, 8);
	assert_int_equal(ring_decode(rb_end(&r), &(struct ring_layout){ &one_ev, 1, 0 }, &ev),
			 -EBADMSG);
	rb_start(&r, PERF_RECORD_SWITCH_CPU_WIDE, 0);
	assert_int_equal(ring_decode(rb_end(&r), &(struct ring_layout){ &one_ev, 1, 0 }, &ev),
			 -EBADMSG);
}

/* The records of AUX tracing (Arm SPE), with the sample_id trailer perf's SPE session gives
 * them: TID, TIME, CPU, IDENTIFIER. */
static void test_ring_aux_records(void **state)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_DATA_SRC |
		      PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_WEIGHT;
	struct ring_event e = { .sample_type = st, .read_format = 0x14, .id = 7, .td_index = -1 };
	const struct ring_layout lay = { &e, 1, st };
	struct trace_event ev;
	struct rb r;

	(void)state;
	rb_start(&r, PERF_RECORD_AUX, 0);
	rb64(&r, 0x10000);               /* aux_offset */
	rb64(&r, 0x2340);                /* aux_size */
	rb64(&r, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL);
	id_trailer(&r, 100, 101, 5000, 2, 7);
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), RING_EVENT);
	assert_int_equal(ev.type, TRACE_REC_AUX);
	assert_int_equal(ev.aux.offset, 0x10000);
	assert_int_equal(ev.aux.size, 0x2340);
	assert_int_equal(ev.aux.flags, TRACE_AUX_TRUNCATED | TRACE_AUX_PARTIAL);
	assert_int_equal(ev.aux.time, 5000);
	assert_int_equal(ev.aux.cpu, 2);
	assert_int_equal(ev.aux.pid, 100);
	assert_int_equal(ev.aux.tid, 101);
	assert_int_equal(ring_record_time(rb_end(&r), &lay), 5000);

	rb_start(&r, PERF_RECORD_ITRACE_START, 0);
	rb32x2(&r, 200, 201);
	id_trailer(&r, 200, 201, 4000, 3, 7);
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), RING_EVENT);
	assert_int_equal(ev.type, TRACE_REC_ITRACE_START);
	assert_int_equal(ev.itrace.pid, 200);
	assert_int_equal(ev.itrace.tid, 201);
	assert_int_equal(ev.itrace.time, 4000);
	assert_int_equal(ev.itrace.cpu, 3);

	/* per-task: no body, the task in the trailer */
	rb_start(&r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT |
		 PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	id_trailer(&r, 300, 301, 6000, 1, 7);
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), RING_EVENT);
	assert_int_equal(ev.type, TRACE_REC_SWITCH);
	assert_int_equal(ev.sw.flags, TRACE_SWITCH_OUT | TRACE_SWITCH_PREEMPT);
	assert_int_equal(ev.sw.pid, 300);
	assert_int_equal(ev.sw.tid, 301);
	assert_int_equal(ev.sw.cpu, 1);
	assert_int_equal(ev.sw.time, 6000);
	assert_int_equal(ev.sw.next_prev_pid, UINT32_MAX);
	assert_int_equal(ev.sw.next_prev_tid, UINT32_MAX);

	/* CPU-wide: switching in, from the task in the body */
	rb_start(&r, PERF_RECORD_SWITCH_CPU_WIDE, 0);
	rb32x2(&r, 400, 401);
	id_trailer(&r, 0, 0, 7000, 0, 7);
	assert_int_equal(ring_decode(rb_end(&r), &lay, &ev), RING_EVENT);
	assert_int_equal(ev.sw.flags, TRACE_SWITCH_CPU_WIDE);
	assert_int_equal(ev.sw.next_prev_pid, 400);
	assert_int_equal(ev.sw.next_prev_tid, 401);
	assert_int_equal(ev.sw.pid, 0);
	assert_int_equal(ev.sw.time, 7000);
}

/* The clock conversion of the control page, read under its lock. */
static void test_ring_time_conv(void **state)
{
	struct c2c_time_conv tc;
	struct fake f;

	(void)state;
	fake_init(&f, 0);
	f.r.pc->time_shift = 21;
	f.r.pc->time_mult = 0x9999;
	f.r.pc->time_zero = 0xfffffff000000000ull;
	f.r.pc->time_cycles = 12345;
	f.r.pc->time_mask = 0xffffffffffffull;
	f.r.pc->cap_user_time_zero = 1;
	f.r.pc->cap_user_time_short = 1;
	f.r.pc->lock = 4;
	assert_int_equal(ring_time_conv(&f.r, &tc), 0);
	assert_int_equal(tc.time_shift, 21);
	assert_int_equal(tc.time_mult, 0x9999);
	assert_int_equal(tc.time_zero, 0xfffffff000000000ull);
	assert_int_equal(tc.time_cycles, 12345);
	assert_int_equal(tc.time_mask, 0xffffffffffffull);
	assert_int_equal(tc.cap_user_time_zero, 1);
	assert_int_equal(tc.cap_user_time_short, 1);
	f.r.pc->lock = 5;                /* an update that never ends */
	assert_int_equal(ring_time_conv(&f.r, &tc), -EBUSY);
	fake_free(&f);
}

/* SPE-style AUX data: a span that wraps the end of the AUX area is copied whole. */
static void test_ring_aux(void **state)
{
	uint8_t aux[64], out[64];
	struct fake f;

	(void)state;
	fake_init(&f, 0);
	for (int i = 0; i < 64; i++)
		aux[i] = (uint8_t)i;
	ring_set_aux(&f.r, aux, sizeof(aux));
	assert_int_equal(ring_aux_read(&f.r, 64 * 3 + 56, 16, out), 0);
	for (int i = 0; i < 16; i++)
		assert_int_equal(out[i], (56 + i) % 64);
	assert_int_equal(f.r.pc->aux_tail, 64 * 3 + 72);
	assert_int_equal(ring_aux_read(&f.r, 0, 65, out), -EINVAL);
	/* a gap (padding skipped without a record) is fine; data before the tail is gone */
	assert_int_equal(ring_aux_read(&f.r, 64 * 3 + 80, 8, out), 0);
	assert_int_equal(out[0], 16);
	assert_int_equal(f.r.pc->aux_tail, 64 * 3 + 88);
	assert_int_equal(ring_aux_read(&f.r, 64 * 3 + 84, 8, out), -EINVAL);
	ring_set_aux(&f.r, NULL, 0);
	assert_int_equal(ring_aux_read(&f.r, 0, 8, out), -EINVAL);
	fake_free(&f);
}

/* --- queue ---------------------------------------------------------------------------------- */

struct out {
	uint64_t t[32];
	int n;
};

static int out_fn(const struct trace_event *ev, void *ctx)
{
	struct out *o = ctx;

	o->t[o->n++] = ev->sample.time;
	return 0;
}

static void add(struct oq *q, uint64_t t)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };

	ev.sample.time = t;
	oq_add(q, &ev, t);
}

static void test_queue_rounds(void **state)
{
	struct out o = { .n = 0 };
	struct oq q;

	(void)state;
	oq_init(&q, out_fn, &o);
	add(&q, 10); add(&q, 30);          /* ring A, round 1 */
	add(&q, 20); add(&q, 40);          /* ring B, round 1 */
	assert_int_equal(oq_round_end(&q), 0);
	assert_int_equal(o.n, 0);          /* nothing is safe after the first round */
	add(&q, 35); add(&q, 50);          /* round 2: 35 arrived late on ring A */
	add(&q, 45);
	assert_int_equal(oq_round_end(&q), 0);
	assert_int_equal(o.n, 5);          /* up to round 1's max (40) */
	assert_int_equal(oq_finish(&q), 0);
	assert_int_equal(o.n, 7);
	for (int i = 1; i < o.n; i++)
		assert_true(o.t[i - 1] <= o.t[i]);
	assert_int_equal(o.t[3], 35);
	oq_release(&q);
}

static int fail_fn(const struct trace_event *ev, void *ctx)
{
	(void)ev;
	(void)ctx;
	return -ENOSPC;
}

static void test_queue_strings_and_errors(void **state)
{
	struct trace_event ev = { .type = TRACE_REC_MMAP };
	char name[16] = "/lib/x";
	struct oq q;

	(void)state;
	oq_init(&q, fail_fn, NULL);
	ev.mmap.filename = name;
	oq_add(&q, &ev, 5);
	name[0] = 'X';                     /* the queue copied the string */
	assert_string_equal(q.item ? "/lib/x" : "", "/lib/x");
	assert_int_equal(oq_finish(&q), -ENOSPC);
	assert_int_equal(q.nr, 0);
	oq_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wrap),
		cmocka_unit_test(test_ring_stop),
		cmocka_unit_test(test_ring_corrupt_header),
		cmocka_unit_test(test_ring_sideband),
		cmocka_unit_test(test_ring_topdown_group),
		cmocka_unit_test(test_ring_malformed),
		cmocka_unit_test(test_ring_aux_records),
		cmocka_unit_test(test_ring_time_conv),
		cmocka_unit_test(test_ring_aux),
		cmocka_unit_test(test_queue_rounds),
		cmocka_unit_test(test_queue_strings_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
