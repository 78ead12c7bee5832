/* perf.data reader: perf's ordered-events queue.
 *
 * Records are queued with their timestamp and a sequence number; at the end of round n (a
 * FINISHED_ROUND record) everything up to the highest timestamp seen by the end of round n-1 is
 * final: it is sorted (natural merge sort, stable) and moved to the ready list. Records from a
 * mapping are queued by pointer; others are copied into reference-counted chunks, recycled once
 * every record in them has been delivered. */
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata-int.h"

#define PD_CHUNK_SIZE      (1u << 20)

static int qent_before(const struct pd_qent *a, const struct pd_qent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void merge(const struct pd_qent *a, size_t na, const struct pd_qent *b, size_t nb,
		  struct pd_qent *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = qent_before(&b[j], &a[i]) ? b[j++] : a[i++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

/* The end of the ascending run that starts at @i. */
static size_t run_end(const struct pd_qent *v, size_t i, size_t n)
{
	while (i + 1 < n && !qent_before(&v[i + 1], &v[i]))
		i++;
	return i + 1;
}

/* Natural merge sort of @n entries (@tmp has room for @n); the result is in @v. Ring buffers
 * deliver one ascending run per CPU, so a round usually sorts in one or two passes. */
static void qsort_entries(struct pd_qent *v, size_t n, struct pd_qent *tmp)
{
	struct pd_qent *src = v, *dst = tmp, *t;
	size_t i, a, b, runs;

	do {
		for (i = 0, runs = 0; i < n; runs++) {
			a = run_end(src, i, n);
			b = a < n ? run_end(src, a, n) : a;
			merge(src + i, a - i, src + a, b - a, dst + i);
			i = b;
		}
		t = src;
		src = dst;
		dst = t;
	} while (runs > 1);
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
}

void pd_chunk_put(struct perfdata_reader *r, struct pd_chunk *c)
{
	if (c && !--c->live && c != r->cur_chunk)
		c->used = 0;
}

static uint8_t *chunk_copy(struct perfdata_reader *r, const uint8_t *rec, size_t n,
			   struct pd_chunk **owner)
{
	struct pd_chunk *c = r->cur_chunk;
	uint8_t *dst;

	if (!c || c->cap - c->used < n) {
		for (c = r->chunks; c; c = c->next)
			if (!c->live && c->cap >= n && c != r->cur_chunk)
				break;
		if (!c) {
			size_t cap = n > PD_CHUNK_SIZE ? n : PD_CHUNK_SIZE;

			c = xmalloc(sizeof(*c) + cap);
			c->cap = cap;
			c->live = 0;
			c->next = r->chunks;
			r->chunks = c;
		}
		if (r->cur_chunk && !r->cur_chunk->live)
			r->cur_chunk->used = 0;
		c->used = 0;
		r->cur_chunk = c;
	}
	dst = c->data + c->used;
	memcpy(dst, rec, n);
	c->used += (n + 7) & ~(size_t)7;
	if (c->used > c->cap)
		c->used = c->cap;
	c->live++;
	*owner = c;
	return dst;
}

void pd_queue_push(struct perfdata_reader *r, const uint8_t *rec, uint64_t n, int vol,
		       uint32_t attr, uint64_t time)
{
	struct pd_qent *e;

	if (r->q_n == r->q_cap)
		r->q = xgrow(r->q, &r->q_cap, r->q_n + 1, sizeof(*r->q));
	e = &r->q[r->q_n++];
	e->time = time;
	e->seq = r->seq++;
	e->attr = attr;
	e->chunk = NULL;
	e->rec = vol ? chunk_copy(r, rec, (size_t)n, &e->chunk) : rec;
	if (r->q_n - 1 > r->q_sorted && time < r->q_last_time)
		r->q_new_ordered = 0;
	r->q_last_time = time;
	if (time < r->last_flush)
		r->stats.nr_unordered++;
}

/* A record without a time, or with time 0: perf's ordered_events__queue refuses it (-ETIME) and
 * perf delivers it at once, ahead of what is still queued. Called with the ready list empty. */
void pd_queue_now(struct perfdata_reader *r, const uint8_t *rec, uint64_t n, int vol,
		  uint32_t attr)
{
	struct pd_qent *e;

	if (!r->ready_cap)
		r->ready = xgrow(r->ready, &r->ready_cap, 1, sizeof(*r->ready));
	e = &r->ready[0];
	e->time = 0;
	e->seq = r->seq++;
	e->attr = attr;
	e->chunk = NULL;
	e->rec = vol ? chunk_copy(r, rec, (size_t)n, &e->chunk) : rec;
	r->ready_n = 1;
	r->ready_pos = 0;
}

/* The merged entries in tmp become the ready list; the old ready array is the next tmp. */
static void swap_ready_tmp(struct perfdata_reader *r)
{
	struct pd_qent *t = r->ready;
	size_t c = r->ready_cap;

	r->ready = r->tmp;
	r->ready_cap = r->tmp_cap;
	r->tmp = t;
	r->tmp_cap = c;
}

/* Sort what is queued and move every entry with time <= @limit to the ready list. */
void pd_queue_flush(struct perfdata_reader *r, uint64_t limit)
{
	size_t n = r->q_n, ns = r->q_sorted, k;

	if (!n) {
		r->ready_n = r->ready_pos = 0;
		return;
	}
	if (r->tmp_cap < n)
		r->tmp = xgrow(r->tmp, &r->tmp_cap, n, sizeof(*r->tmp));
	if (!r->q_new_ordered)
		qsort_entries(r->q + ns, n - ns, r->tmp);
	merge(r->q, ns, r->q + ns, n - ns, r->tmp);
	for (k = 0; k < n && r->tmp[k].time <= limit; k++)
		;
	memcpy(r->q, r->tmp + k, (n - k) * sizeof(*r->q));
	r->q_n = r->q_sorted = n - k;
	r->q_new_ordered = 1;
	r->q_last_time = r->q_n ? r->q[r->q_n - 1].time : 0;
	swap_ready_tmp(r);
	r->ready_n = k;
	r->ready_pos = 0;
	if (limit > r->last_flush)
		r->last_flush = limit;
}

void pd_queue_round(struct perfdata_reader *r)
{
	pd_queue_flush(r, r->prev_round_max);
	r->prev_round_max = r->max_time;
}

/* No FINISHED_ROUND for too long: deliver the older half, as perf does when its queue is full. */
void pd_queue_half(struct perfdata_reader *r)
{
	size_t n = r->q_n;

	if (r->tmp_cap < n)
		r->tmp = xgrow(r->tmp, &r->tmp_cap, n, sizeof(*r->tmp));
	if (!r->q_new_ordered)
		qsort_entries(r->q + r->q_sorted, n - r->q_sorted, r->tmp);
	merge(r->q, r->q_sorted, r->q + r->q_sorted, n - r->q_sorted, r->tmp);
	memcpy(r->q, r->tmp, n * sizeof(*r->q));
	r->q_sorted = n;
	r->q_new_ordered = 1;
	if (!r->half_flush_warned++)
		c2c_warn("'%s': %zu records without a FINISHED_ROUND; delivering the older half early",
			 r->name, n);
	pd_queue_flush(r, r->q[n / 2].time);
}
