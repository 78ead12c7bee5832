/* Arm SPE session (see spe.h): perf 6.1's arm-spe.c and the auxtrace queue code it uses.
 *
 * HOW IT WORKS. Each AUXTRACE buffer goes to the queue of its index (a CPU's AUX area in per-CPU
 * recordings). A queue gets a decoder when perf would set it up (at the next timed record after
 * its first buffer): the decoder reads its first SPE record and the queue enters a min-heap keyed
 * by that record's timestamp. Before each timed record R of the file is delivered, every queue
 * whose key is below R's time (converted to SPE counter ticks through TIME_CONV) is run: the queue
 * on top of the heap synthesizes samples from its records until one is at or past min(the next
 * queue's key + 1, R's time), and goes back into the heap with that record's time as its key.
 * A queue that runs out of data leaves the heap for good (perf 6.1 does not put it back when more
 * buffers arrive; opts.revive does). A context switch record then sets the CPU's current tid; a
 * CONTEXT packet sets it too, and from the first one on switches are ignored. At the end of the
 * file every queue is run to its end.
 *
 * The heap is perf's auxtrace_heap, operation for operation, so that queues with equal keys are
 * taken in perf's order. The work is done lazily: spe_event() sets the goal, spe_next() advances
 * one record at a time and returns each sample as it is made, so no more than one sample is held
 * whatever the amount of AUX data. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/spe.h"

#define SPE_WARN_MAX       10         /* bad-packet warnings before a count at the end */
#define SPE_MAX_TIMESTAMP  UINT64_MAX
#define PD_EXIT            4
#define PD_SWITCH          14
#define PD_SWITCH_CPU_WIDE 15

struct spe_buf {
	const uint8_t *data;
	uint64_t size, file_off;
	uint8_t *owned;            /* a copy to free once read */
};

struct spe_queue {
	uint32_t idx;
	int32_t cpu, tid;          /* of its first buffer (perf's queue->cpu, queue->tid) */
	struct spe_buf *buf;
	size_t nr_buf, cap_buf;
	/* perf's struct arm_spe_queue, present once set up */
	int set_up, on_heap;
	int32_t q_pid, q_tid, q_cpu;
	int have_thread;           /* speq->thread: q_tid's thread was found */
	uint64_t timestamp;
	/* decoder */
	size_t cur;                /* the buffer being read, SIZE_MAX before the first */
	const uint8_t *p;
	size_t len;
	uint64_t addr, off;        /* alignment address and file offset of *p */
	struct spe_record rec;
	uint64_t bad_off, bad_n;   /* a run of skipped bytes */
	int bad_cut;
};

struct spe_heap_item {
	uint32_t q;                /* index into s->q */
	uint64_t ordinal;
};

struct spe_thread {
	int32_t tid, pid, cpu;
	uint8_t used;
};

enum spe_work { W_NONE, W_QUEUES, W_TIMELESS };

struct spe {
	struct spe_opts o;
	struct spe_queue *q;       /* sorted by idx */
	size_t nr_q, cap_q;
	int new_data;
	struct spe_heap_item *heap;
	size_t heap_cnt, heap_cap;
	int use_ctx;
	/* threads: tid -> pid (open addressing), the current tid of each CPU */
	struct spe_thread *thr;
	size_t thr_cap, thr_n;
	int32_t *cur_tid;         /* grown to the highest CPU named (below TRACE_CPU_MAX) */
	size_t nr_cur, cap_cur;
	/* work in progress */
	enum spe_work work;
	uint64_t goal;             /* W_QUEUES: decode what lies before this tick */
	int32_t tl_tid;            /* W_TIMELESS: the queues of this tid (-1 all) */
	size_t tl_next;
	int in_run;
	size_t run_q;
	uint64_t run_ts;
	int have_switch;           /* a switch to apply once the work is done */
	int32_t sw_cpu, sw_pid, sw_tid;
	int flushed;
	struct spe_stats st;
	unsigned int warned;
};

/* ---- time ---------------------------------------------------------------------------------- */

uint64_t spe_tsc_to_perf(uint64_t cyc, const struct spe_tc *tc)
{
	unsigned int sh = tc->time_shift & 63;
	uint64_t quot, rem;

	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> sh;
	rem = cyc & ((1ull << sh) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> sh);
}

uint64_t spe_perf_to_tsc(uint64_t ns, const struct spe_tc *tc)
{
	unsigned int sh = tc->time_shift & 63;
	uint64_t t = ns - tc->time_zero, quot = t / tc->time_mult, rem = t % tc->time_mult;

	return (quot << sh) + (rem << sh) / tc->time_mult;
}

/* ---- threads (perf's machine threads, reduced to what SPE needs) ---------------------------- */

static size_t thr_slot(const struct spe *s, int32_t tid)
{
	size_t h = ((uint32_t)tid * 2654435761u) & (s->thr_cap - 1);

	while (s->thr[h].used && s->thr[h].tid != tid)
		h = (h + 1) & (s->thr_cap - 1);
	return h;
}

static struct spe_thread *thr_find(const struct spe *s, int32_t tid)
{
	size_t h;

	if (!s->thr_cap)
		return NULL;
	h = thr_slot(s, tid);
	return s->thr[h].used == 1 ? &s->thr[h] : NULL;
}

static void thr_grow(struct spe *s)
{
	struct spe_thread *old = s->thr;
	size_t n = s->thr_cap, i;

	s->thr_cap = n ? 2 * n : 64;
	s->thr = xcalloc(s->thr_cap, sizeof(*s->thr));
	s->thr_n = 0;
	for (i = 0; i < n; i++)
		if (old[i].used == 1) {
			s->thr[thr_slot(s, old[i].tid)] = old[i];
			s->thr_n++;
		}
	free(old);
}

/* machine__findnew_thread(): an existing thread keeps its pid unless it had none
 * (machine__update_thread_pid()); a thread given a pid other than its tid, new or updated, makes
 * its leader too (thread__init_maps(): the maps are the leader's). */
void spe_thread_findnew(struct spe *s, int32_t pid, int32_t tid)
{
	struct spe_thread *t = thr_find(s, tid);

	if (t) {
		if (pid == -1 || t->pid != -1)
			return;
		t->pid = pid;
	} else {
		if (2 * (s->thr_n + 1) > s->thr_cap)
			thr_grow(s);
		t = &s->thr[thr_slot(s, tid)];
		*t = (struct spe_thread){ tid, pid, -1, 1 };
		s->thr_n++;
	}
	if (pid != -1 && pid != tid)
		spe_thread_findnew(s, pid, pid);
}

void spe_thread_find(struct spe *s, int32_t pid, int32_t tid)
{
	if (thr_find(s, tid))
		spe_thread_findnew(s, pid, tid);
}

void spe_thread_parent(struct spe *s, int32_t pid, int32_t tid)
{
	struct spe_thread *t;

	spe_thread_findnew(s, pid, tid);
	t = thr_find(s, tid);
	if (t->pid != pid) {   /* "removing erroneous parent thread" */
		spe_thread_remove(s, tid);
		spe_thread_findnew(s, pid, tid);
	}
}

void spe_thread_remove(struct spe *s, int32_t tid)
{
	struct spe_thread *t = thr_find(s, tid);
	size_t i, j;

	if (!t)
		return;
	/* backward-shift deletion keeps the probe chains whole */
	i = (size_t)(t - s->thr);
	t->used = 0;
	s->thr_n--;
	for (j = (i + 1) & (s->thr_cap - 1); s->thr[j].used; j = (j + 1) & (s->thr_cap - 1)) {
		struct spe_thread m = s->thr[j];

		s->thr[j].used = 0;
		s->thr[thr_slot(s, m.tid)] = m;
	}
}

static int32_t current_tid(const struct spe *s, int32_t cpu)
{
	if (cpu < 0 || (size_t)cpu >= s->nr_cur)
		return -1;
	return s->cur_tid[cpu];
}

/* machine__set_current_tid() */
static int set_current_tid(struct spe *s, int32_t cpu, int32_t pid, int32_t tid)
{
	if (cpu < 0 || cpu >= TRACE_CPU_MAX)
		return -EINVAL;
	if ((size_t)cpu >= s->nr_cur) {
		s->cur_tid = xgrow(s->cur_tid, &s->cap_cur, (size_t)cpu + 1, sizeof(*s->cur_tid));
		while (s->nr_cur <= (size_t)cpu)
			s->cur_tid[s->nr_cur++] = -1;
	}
	s->cur_tid[cpu] = tid;
	spe_thread_findnew(s, pid, tid);
	thr_find(s, tid)->cpu = cpu;
	return 0;
}

/* arm_spe_set_pid_tid_cpu() */
static void set_pid_tid_cpu(struct spe *s, struct spe_queue *q)
{
	int32_t tid = current_tid(s, q->q_cpu);
	const struct spe_thread *t;

	if (tid != -1) {
		q->q_tid = tid;
		q->have_thread = 0;
	} else {
		q->q_tid = q->tid;
	}
	if (!q->have_thread && q->q_tid != -1 && thr_find(s, q->q_tid))
		q->have_thread = 1;
	t = q->have_thread ? thr_find(s, q->q_tid) : NULL;
	if (t) {
		q->q_pid = t->pid;
		if (q->cpu == -1)
			q->q_cpu = t->cpu;
	}
}

/* ---- queues and buffers -------------------------------------------------------------------- */

struct spe *spe_new(const struct spe_opts *o)
{
	struct spe *s = xcalloc(1, sizeof(*s));

	s->o = *o;
	if (!s->o.timeless && !s->o.tc.time_mult) {
		c2c_warn("'%s': no TIME_CONV record before the Arm SPE data (perf 6.1 divides by its "
			 "zero multiplier); SPE samples are decoded without times", o->name);
		s->o.timeless = 1;
	}
	return s;
}

void spe_free(struct spe *s)
{
	size_t i, j;

	if (!s)
		return;
	for (i = 0; i < s->nr_q; i++) {
		for (j = 0; j < s->q[i].nr_buf; j++)
			free(s->q[i].buf[j].owned);
		free(s->q[i].buf);
	}
	free(s->q);
	free(s->heap);
	free(s->thr);
	free(s->cur_tid);
	free(s);
}

const struct spe_stats *spe_stats(const struct spe *s)
{
	return &s->st;
}

/* The queue of @idx, created (in idx order, as perf's queue array is) when @make. */
static struct spe_queue *queue_of(struct spe *s, uint32_t idx, int make)
{
	size_t lo = 0, hi = s->nr_q;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->q[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->nr_q && s->q[lo].idx == idx)
		return &s->q[lo];
	if (!make)
		return NULL;
	s->q = xgrow(s->q, &s->cap_q, s->nr_q + 1, sizeof(*s->q));
	memmove(&s->q[lo + 1], &s->q[lo], (s->nr_q - lo) * sizeof(*s->q));
	s->nr_q++;
	for (size_t i = 0; i < s->heap_cnt; i++)   /* heap items name queues by position */
		if (s->heap[i].q >= lo)
			s->heap[i].q++;
	if (s->in_run && s->run_q >= lo)
		s->run_q++;
	if (s->work == W_TIMELESS && s->tl_next > lo)
		s->tl_next++;
	memset(&s->q[lo], 0, sizeof(s->q[lo]));
	s->q[lo].idx = idx;
	s->q[lo].cur = SIZE_MAX;
	return &s->q[lo];
}

int spe_add_buffer(struct spe *s, uint32_t idx, int32_t cpu, int32_t tid, const void *data,
		   uint64_t size, uint64_t file_off, int copy)
{
	struct spe_queue *q = queue_of(s, idx, 0);
	struct spe_buf *b;

	if (q && (q->cpu != cpu || q->tid != tid)) {
		c2c_warn("'%s': offset %" PRIu64 ": AUX buffer of cpu %d tid %d in the queue of cpu %d "
			 "tid %d: ignored (perf 6.1 stops at it: \"auxtrace queue conflict\")",
			 s->o.name, file_off, cpu, tid, q->cpu, q->tid);
		return -EINVAL;
	}
	if (!q) {
		q = queue_of(s, idx, 1);
		q->cpu = cpu;
		q->tid = tid;
	}
	q->buf = xgrow(q->buf, &q->cap_buf, q->nr_buf + 1, sizeof(*q->buf));
	b = &q->buf[q->nr_buf++];
	*b = (struct spe_buf){ data, size, file_off, NULL };
	if (copy && size) {
		b->owned = xmalloc((size_t)size);
		memcpy(b->owned, data, (size_t)size);
		b->data = b->owned;
	}
	s->new_data = 1;
	s->st.buffers++;
	s->st.bytes += size;
	return 0;
}

/* ---- the decoder (arm-spe-decoder.c) -------------------------------------------------------- */

/* Say where bytes were skipped, once per run of them (the first SPE_WARN_MAX runs). */
static void bad_run_end(struct spe *s, struct spe_queue *q)
{
	if (!q->bad_n)
		return;
	if (s->warned++ < SPE_WARN_MAX)
		c2c_warn("'%s': offset %" PRIu64 ": %s in the Arm SPE data of cpu %d: %" PRIu64
			 " byte%s skipped", s->o.name, q->bad_off,
			 q->bad_cut ? "packet cut short" : "invalid packet", q->cpu, q->bad_n,
			 q->bad_n == 1 ? "" : "s");
	q->bad_n = 0;
	q->bad_cut = 0;
}

/* The next buffer with data after the current one, made current; its length, 0 when none
 * (arm_spe_get_trace(): the buffer left behind is dropped either way). */
static size_t next_buffer(struct spe *s, struct spe_queue *q)
{
	size_t n = q->cur == SIZE_MAX ? 0 : q->cur + 1;

	bad_run_end(s, q);
	if (q->cur != SIZE_MAX) {
		free(q->buf[q->cur].owned);
		q->buf[q->cur].owned = NULL;
	}
	for (; n < q->nr_buf; n++) {
		q->cur = n;
		if (!q->buf[n].size)
			continue;
		q->p = q->buf[n].data;
		q->len = (size_t)q->buf[n].size;
		q->off = q->buf[n].file_off;
		q->addr = s->o.in_place ? q->off : 0;
		return q->len;
	}
	return 0;
}

/* arm_spe_get_next_packet(): 1 with *p, 0 at the end of the data, -EBADMSG after skipping one
 * byte that starts no packet. PADs are passed over. */
static int next_packet(struct spe *s, struct spe_queue *q, struct spe_pkt *p)
{
	int n;

	do {
		if (!q->len && !next_buffer(s, q))
			return 0;
		n = spe_pkt_get(q->p, q->len, q->addr, p);
		if (n <= 0) {
			if (!q->bad_n)
				q->bad_off = q->off;
			q->bad_n++;
			q->bad_cut |= n == SPE_PKT_NEED_MORE;
			s->st.bad_bytes++;
			q->p++, q->len--, q->off++, q->addr++;
			return -EBADMSG;
		}
		bad_run_end(s, q);
		q->p += n, q->len -= (size_t)n, q->off += (uint64_t)n, q->addr += (uint64_t)n;
	} while (p->type == SPE_PKT_PAD);
	return 1;
}

/* arm_spe_read_record(): 1 with a whole record in q->rec, 0 at the end of the data (what was
 * read of a record is lost), -EBADMSG at a bad byte (q->rec holds the packets before it). */
static int read_record(struct spe *s, struct spe_queue *q)
{
	struct spe_pkt p;
	int rc;

	spe_rec_start(&q->rec);
	for (;;) {
		rc = next_packet(s, q, &p);
		if (rc <= 0)
			return rc;
		rc = spe_rec_add(&q->rec, &p);
		if (rc > 0) {
			s->st.records++;
			return 1;
		}
		if (rc < 0) {
			if (s->warned++ < SPE_WARN_MAX)
				c2c_warn("'%s': offset %" PRIu64 ": operation type packet of class 3 in the "
					 "Arm SPE data of cpu %d (perf: \"Get packet error!\")", s->o.name,
					 q->off - 2, q->cpu);
			return -EBADMSG;
		}
	}
}

/* ---- perf's auxtrace_heap ------------------------------------------------------------------ */

static void heapify(struct spe_heap_item *h, size_t pos, uint32_t q, uint64_t ordinal)
{
	while (pos) {
		size_t parent = (pos - 1) >> 1;

		if (h[parent].ordinal <= ordinal)
			break;
		h[pos] = h[parent];
		pos = parent;
	}
	h[pos] = (struct spe_heap_item){ q, ordinal };
}

static void heap_add(struct spe *s, uint32_t q, uint64_t ordinal)
{
	s->heap = xgrow(s->heap, &s->heap_cap, s->heap_cnt + 1, sizeof(*s->heap));
	heapify(s->heap, s->heap_cnt++, q, ordinal);
}

static void heap_pop(struct spe *s)
{
	struct spe_heap_item *h = s->heap;
	size_t cnt = s->heap_cnt, pos = 0, left, right;

	if (!cnt)
		return;
	s->heap_cnt--;
	for (;;) {
		left = (pos << 1) + 1;
		if (left >= cnt)
			break;
		right = left + 1;
		if (right >= cnt) {
			h[pos] = h[left];
			return;
		}
		if (h[left].ordinal < h[right].ordinal) {
			h[pos] = h[left];
			pos = left;
		} else {
			h[pos] = h[right];
			pos = right;
		}
	}
	heapify(h, pos, h[cnt - 1].q, h[cnt - 1].ordinal);
}

/* ---- samples ------------------------------------------------------------------------------- */

/* arm_spe_set_tid(): a CONTEXT packet names the task on the queue's CPU. */
static void set_tid(struct spe *s, struct spe_queue *q, int32_t tid)
{
	if (set_current_tid(s, q->q_cpu, -1, tid))
		return;   /* no CPU (per-thread recording): perf 6.1 stops with an error here */
	set_pid_tid_cpu(s, q);
}

/* arm_spe_sample() for the memory event: 1 with *out when the record is a load or a store. The
 * tool that receives it looks its thread up (machine__resolve()), creating it when new. */
static int make_sample(struct spe *s, struct spe_queue *q, struct trace_sample *out)
{
	const struct spe_record *r = &q->rec;
	uint64_t ds = spe_data_src(r, s->o.midr);

	if (!ds)
		return 0;
	memset(out, 0, sizeof(*out));
	out->time = s->o.timeless ? 0 : spe_tsc_to_perf(r->timestamp, &s->o.tc);
	out->ip = r->from_ip;
	out->cpumode = r->from_ip >= s->o.kernel_start ? 1 : 2;
	out->pid = (uint32_t)q->q_pid;
	out->tid = (uint32_t)q->q_tid;
	out->cpu = (uint32_t)q->q_cpu;
	out->addr = r->virt_addr;
	out->phys_addr = r->phys_addr;
	out->weight = r->lat_total;
	out->data_src = ds;
	out->flags = s->o.sample_flags;
	spe_thread_findnew(s, q->q_pid, q->q_tid);
	s->st.samples++;
	return 1;
}

/* arm_spe__setup_queue(): a new queue gets its decoder, and (with timestamps) its first record
 * and its place in the heap. A queue whose data holds no whole record never gets there. */
static void setup_queue(struct spe *s, size_t i)
{
	struct spe_queue *q = &s->q[i];
	int rc;

	if (!q->nr_buf)
		return;
	if (q->set_up && !(s->o.revive && !q->on_heap && q->cur + 1 < q->nr_buf))
		return;
	if (!q->set_up) {
		q->set_up = 1;
		q->q_pid = q->q_tid = -1;
		q->q_cpu = q->cpu;
	}
	if (s->o.timeless)
		return;
	do
		rc = read_record(s, q);
	while (rc < 0);
	if (!rc)
		return;
	q->timestamp = q->rec.timestamp;
	heap_add(s, (uint32_t)i, q->timestamp);
	q->on_heap = 1;
}

static void update_queues(struct spe *s)
{
	size_t i;

	if (!s->new_data)
		return;
	s->new_data = 0;
	for (i = 0; i < s->nr_q; i++)
		setup_queue(s, i);
}

/* ---- the work: perf's process_queues / run_decoder / process_timeless_queues ---------------- */

/* One turn of arm_spe_run_decoder()'s loop on the running queue: 1 with a sample. */
static int run_step(struct spe *s, struct trace_sample *out)
{
	struct spe_queue *q = &s->q[s->run_q];
	int made, rc;

	if (!s->o.timeless && q->rec.context_id != UINT64_MAX) {
		set_tid(s, q, (int32_t)q->rec.context_id);
		s->use_ctx = 1;
		s->st.used_context = 1;
		s->st.ctx_records++;
	}
	made = make_sample(s, q, out);
	rc = read_record(s, q);
	if (rc == 0) {
		s->in_run = 0;
		q->on_heap = 0;
	} else if (rc > 0) {
		if (q->rec.timestamp > q->timestamp)
			q->timestamp = q->rec.timestamp;
		if (!s->o.timeless && q->timestamp >= s->run_ts) {
			s->in_run = 0;
			heap_add(s, (uint32_t)s->run_q, q->timestamp);
		}
	}
	return made;
}

/* arm_spe_process_queues(): the next queue to run, 0 when the goal is reached. */
static int pick_queue(struct spe *s)
{
	uint64_t ts;
	uint32_t qi;

	if (!s->heap_cnt || s->heap[0].ordinal >= s->goal)
		return 0;
	qi = s->heap[0].q;
	heap_pop(s);
	if (s->heap_cnt) {
		ts = s->heap[0].ordinal + 1;
		if (ts > s->goal)
			ts = s->goal;
	} else {
		ts = s->goal;
	}
	/* a context switch set the CPU's task: the queue takes it up */
	if (!s->use_ctx)
		set_pid_tid_cpu(s, &s->q[qi]);
	s->run_q = qi;
	s->run_ts = ts;
	s->in_run = 1;
	return 1;
}

/* arm_spe_process_timeless_queues(): the next queue of the tid to run to its end. */
static int pick_timeless(struct spe *s)
{
	while (s->tl_next < s->nr_q) {
		struct spe_queue *q = &s->q[s->tl_next++];

		if (q->set_up && (s->tl_tid == -1 || q->q_tid == s->tl_tid)) {
			set_pid_tid_cpu(s, q);
			s->run_q = (size_t)(q - s->q);
			s->run_ts = 0;
			s->in_run = 1;
			return 1;
		}
	}
	return 0;
}

/* What the end of the data leaves to say: the runs of bad bytes not reported yet, and perf's
 * warning when no CONTEXT packet named the tasks. */
static void final_report(struct spe *s)
{
	size_t i;

	for (i = 0; i < s->nr_q; i++)
		bad_run_end(s, &s->q[i]);
	if (s->warned > SPE_WARN_MAX)
		c2c_warn("'%s': %u more runs of invalid Arm SPE packets (%" PRIu64 " bytes skipped in "
			 "all)", s->o.name, s->warned - SPE_WARN_MAX, s->st.bad_bytes);
	if (!s->use_ctx && !s->o.timeless && s->st.records)
		c2c_warn("'%s': no Arm SPE CONTEXT packets: the tasks of SPE samples come from context "
			 "switch records and may be inaccurate (as perf warns)", s->o.name);
}

/* The work is done: the switch that waited for it takes effect (arm_spe_context_switch()). */
static void work_done(struct spe *s)
{
	s->work = W_NONE;
	if (s->flushed == 1) {
		s->flushed = 2;
		final_report(s);
	}
	/* perf looks at use_ctx_pkt_for_pid after the queues ran: a CONTEXT packet decoded up to
	 * the switch wins over it */
	if (s->have_switch) {
		s->have_switch = 0;
		if (!s->use_ctx) {
			if (s->sw_tid == -1)
				c2c_warn("'%s': context_switch event has no tid", s->o.name);
			set_current_tid(s, s->sw_cpu, s->sw_pid, s->sw_tid);
		}
	}
}

int spe_next(struct spe *s, struct trace_sample *out)
{
	while (s->work != W_NONE) {
		if (!s->in_run && !(s->work == W_QUEUES ? pick_queue(s) : pick_timeless(s))) {
			work_done(s);
			break;
		}
		if (run_step(s, out))
			return 1;
	}
	return 0;
}

static void start_timeless(struct spe *s, int32_t tid)
{
	s->work = W_TIMELESS;
	s->tl_tid = tid;
	s->tl_next = 0;
	s->in_run = 0;
}

static void start_queues(struct spe *s, uint64_t goal)
{
	s->work = W_QUEUES;
	s->goal = goal;
	s->in_run = 0;
}

void spe_event(struct spe *s, uint64_t time, uint32_t type, int switch_out, int32_t cpu,
	       int32_t pid, int32_t tid)
{
	uint64_t ts = 0;

	assert(s->work == W_NONE);   /* spe_next() gave every sample of the last event */
	if (time && time != UINT64_MAX && !s->o.timeless)
		ts = spe_perf_to_tsc(time, &s->o.tc);
	if (ts || s->o.timeless)
		update_queues(s);
	if (s->o.timeless) {
		if (type == PD_EXIT)
			start_timeless(s, tid);
		return;
	}
	if (!ts)
		return;
	start_queues(s, ts);
	if (!s->use_ctx && (type == PD_SWITCH || type == PD_SWITCH_CPU_WIDE) && switch_out) {
		s->have_switch = 1;
		s->sw_cpu = cpu;
		s->sw_pid = pid;
		s->sw_tid = tid;
	}
}

void spe_flush(struct spe *s)
{
	assert(s->work == W_NONE);
	if (s->flushed)
		return;
	s->flushed = 1;
	update_queues(s);
	if (s->o.timeless)
		start_timeless(s, -1);
	else
		start_queues(s, SPE_MAX_TIMESTAMP);
}

/* ---- what the readers share ---------------------------------------------------------------- */

void spe_post(struct spe *s, const struct trace_event *ev)
{
	const struct trace_task *t = &ev->task;

	switch (ev->type) {
	case TRACE_REC_SAMPLE:
		spe_thread_findnew(s, (int32_t)ev->sample.pid, (int32_t)ev->sample.tid);
		break;
	case TRACE_REC_MMAP:
		if (ev->mmap.cpumode != 1 && ev->mmap.cpumode != 4)   /* not a kernel map */
			spe_thread_findnew(s, (int32_t)ev->mmap.pid, (int32_t)ev->mmap.tid);
		break;
	case TRACE_REC_COMM:
		spe_thread_findnew(s, (int32_t)ev->comm.pid, (int32_t)ev->comm.tid);
		break;
	case TRACE_REC_EXIT:
		spe_thread_find(s, (int32_t)t->pid, (int32_t)t->tid);
		break;
	case TRACE_REC_FORK:
		/* the child looked up (and given its pid), the parent made again when it has
		 * another pid, the child made anew */
		spe_thread_find(s, (int32_t)t->pid, (int32_t)t->tid);
		spe_thread_parent(s, (int32_t)t->ppid, (int32_t)t->ptid);
		spe_thread_remove(s, (int32_t)t->tid);
		spe_thread_findnew(s, (int32_t)t->pid, (int32_t)t->tid);
		break;
	default:
		break;
	}
}

/* PERF_SAMPLE_* bits */
enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3, S_ID = 1 << 6,
	S_CPU = 1 << 7, S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9, S_WEIGHT = 1 << 14,
	S_DATA_SRC = 1 << 15, S_IDENTIFIER = 1 << 16, S_PHYS_ADDR = 1 << 19,
};
/* perf's PERF_SAMPLE_MASK: what the synthesized memory event keeps of the SPE event's bits */
#define S_MASK (S_IP | S_TID | S_TIME | S_ADDR | S_ID | S_STREAM_ID | S_CPU | S_PERIOD | \
		S_IDENTIFIER)

void spe_memory_desc(uint64_t sample_type, uint64_t attr_flags, int timeless,
		     struct trace_event_desc *e)
{
	uint64_t st = sample_type & (S_MASK | S_PHYS_ADDR);

	st |= S_IP | S_TID | S_PERIOD | S_DATA_SRC | S_WEIGHT | S_ADDR;
	st = timeless ? st & ~(uint64_t)S_TIME : st | S_TIME;
	memset(e, 0, sizeof(*e));
	e->name = xstrdup("memory");
	e->backend = TRACE_BACKEND_SPE;
	e->type = 0;   /* PERF_TYPE_HARDWARE */
	e->sample_type = st;
	e->period = 1;
	e->attr_flags = attr_flags & ((1ull << 18) | 0x70);   /* sample_id_all, exclude_* */
}
