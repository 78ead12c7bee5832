/* Parallel tables (report -j N): samples routed by line to shards that worker threads fold,
 * the shards' sums merged at the end. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/cltable-int.h"

/* --- parallel tables -------------------------------------------------------------------------- */

static void cltab_fold_batch(struct cltab *t, struct cltab_batch *b)
{
	uint32_t i;

	for (i = 0; i < b->n; i += CLTAB_PENDING)
		cltab_flush_from(t, b->p + i, b->n - i < CLTAB_PENDING ? b->n - i : CLTAB_PENDING);
	b->n = 0;
}

/* A worker folds the batches of its shard in order, then sums the shard. */
static void *cltab_worker_main(void *arg)
{
	struct cltab_worker *w = arg;

	for (;;) {
		struct cltab_batch *b;

		pthread_mutex_lock(&w->mu);
		while (w->tail == w->head && !w->done)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->tail == w->head) {
			pthread_mutex_unlock(&w->mu);
			break;
		}
		b = w->b[w->tail % CLTAB_QDEPTH];
		pthread_mutex_unlock(&w->mu);
		cltab_fold_batch(w->t, b);
		pthread_mutex_lock(&w->mu);
		w->tail++;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
	cltab_sum(w->t);
	return NULL;
}

/* Copy @src into a batch with non-temporal stores (x86-64): a batch goes back and forth
 * between the reading thread and a worker, and ordinary stores first fetch each line from the
 * worker's cache (two a sample). Measured at -j 2 on the 2-core VM, 12 interleaved runs: a
 * 1M-sample perf.data perf wrote, 0.21 -> 0.18 s (best; medians 0.22 -> 0.19); the 1M and 10M
 * bench inputs within the noise (0.32 s best either way for 1M). */
static void cltab_pend_stream(struct cltab_pend *dst, const struct cltab_pend *src)
{
#ifdef __x86_64__
	const long long *s = (const long long *)src;
	long long *d = (long long *)dst;

	_Static_assert(sizeof(*src) % 8 == 0, "a pending sample is whole 8-byte words");
	for (size_t k = 0; k < sizeof(*src) / 8; k++)
		__builtin_ia32_movnti64(d + k, s[k]);
#else
	*dst = *src;
#endif
}

/* Hand the batch being filled to the worker (or fold it here when the worker never started). */
static void cltab_publish(struct cltab_worker *w)
{
	if (!w->started) {
		cltab_fold_batch(w->t, w->b[0]);
		return;
	}
#ifdef __x86_64__
	__builtin_ia32_sfence();   /* the batch's non-temporal stores, before the hand-over */
#endif
	w->filling = 0;
	pthread_mutex_lock(&w->mu);
	w->head++;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* The batch to fill for worker @w: waits while all of them are in the worker's hands. */
static struct cltab_batch *cltab_filling(struct cltab_worker *w)
{
	if (!w->started)
		return w->b[0];
	if (!w->filling) {
		pthread_mutex_lock(&w->mu);
		while (w->head - w->tail == CLTAB_QDEPTH)
			pthread_cond_wait(&w->cv, &w->mu);
		pthread_mutex_unlock(&w->mu);
		w->filling = 1;
	}
	return w->b[w->head % CLTAB_QDEPTH];
}

/* A line's bit in the filter of the lines the feeding thread keeps: hash bits that neither the
 * choice of a shard (the low ones) nor a table's index (the high ones) uses. */
static inline uint32_t cltab_own_bit(uint64_t hv)
{
	return (uint32_t)(hv >> 16) % CLTAB_OWN_BITS;
}

/* Queue @p, of line (@space, @cl) and line hash @hv, for the shard of its line: every sample of
 * a line goes to the same shard, in input order, so each shard sees what a single table would
 * see of its lines. The lines this table made before the workers started stay here: @mine says
 * whether the line may be one of them (cltab_own_bit()'s filter; the probe decides). */
static void cltab_route(struct cltab *t, const struct cltab_pend *p, uint32_t space, uint64_t cl,
			uint64_t hv, int mine)
{
	struct cltab_worker *w;
	struct cltab_batch *b;
	size_t j;

	if (mine && cltab_probe_line(t, space, cl, hv, &j)) {
		t->pending[t->nr_pending] = *p;
		if (++t->nr_pending == CLTAB_PENDING)
			cltab_flush(t);
		return;
	}
	/* low hash bits: the shard's own table indexes by the high ones */
	w = &t->work[(uint32_t)hv % t->nr_work];
	b = cltab_filling(w);
	cltab_pend_stream(&b->p[b->n++], p);
	if (b->n == CLTAB_BATCH)
		cltab_publish(w);
}

/* Route the staged samples in order, in two passes as cltab_flush_from() adds: hash the line
 * keys and prefetch the line-hash slots the filter sends to a probe, then route. One at a time,
 * the probe missed the caches (the reading thread streams the input and folds its own lines):
 * a third of the routing of the 1M-sample perf.data perf wrote. */
void cltab_route_stage(struct cltab *t)
{
	uint64_t cl[CLTAB_PENDING], hv[CLTAB_PENDING];
	uint32_t space[CLTAB_PENDING];
	uint8_t mine[CLTAB_PENDING];
	size_t i, n = t->nr_stage;

	t->nr_stage = 0;
	for (i = 0; i < n; i++) {
		uint32_t b;

		space[i] = cltab_sample_space(t, &t->stage[i], &cl[i]);
		hv[i] = cltab_lkey_hash(space[i], cl[i]);
		b = cltab_own_bit(hv[i]);
		mine[i] = t->own[b / 64] >> (b % 64) & 1;
		if (mine[i])
			__builtin_prefetch(&t->lhash.slot[cltab_home(&t->lhash, hv[i])]);
	}
	for (i = 0; i < n; i++)
		cltab_route(t, &t->stage[i], space[i], cl[i], hv[i], mine[i]);
}

void cltab_start_workers(struct cltab *t, uint32_t n)
{
	struct cltab_opts so = t->opts;
	uint32_t i, k;

	t->own = xcalloc(CLTAB_OWN_BITS / 64, sizeof(*t->own));
	for (i = 0; i < t->lines.nr; i++) {
		const struct cltab_lrec *l = cltab_lrec(t, i);
		uint32_t b = cltab_own_bit(cltab_lkey_hash(l->space, l->cl));

		t->own[b / 64] |= 1ULL << (b % 64);
	}
	so.jobs = 1;
	t->work = xcalloc(n, sizeof(*t->work));
	t->nr_work = n;
	for (i = 0; i < n; i++) {
		struct cltab_worker *w = &t->work[i];

		w->t = cltab_new(&so);
		for (k = 0; k < CLTAB_QDEPTH; k++)
			w->b[k] = xcalloc(1, sizeof(*w->b[k]));
		pthread_mutex_init(&w->mu, NULL);
		pthread_cond_init(&w->cv, NULL);
		w->started = !pthread_create(&w->th, NULL, cltab_worker_main, w);
		if (!w->started)
			c2c_debug("aggregation thread %u not started: shard folded by the reader", i);
	}
}

/* Hand over what is left, wait for the workers (they sum their shards); idempotent. */
void cltab_join(struct cltab *t)
{
	uint32_t i;

	for (i = 0; i < t->nr_work; i++) {
		struct cltab_worker *w = &t->work[i];

		if (!w->started) {
			if (!w->done) {
				cltab_fold_batch(w->t, w->b[0]);
				cltab_sum(w->t);
			}
			w->done = 1;
			continue;
		}
		if (w->done)
			continue;
		if (w->filling)
			cltab_publish(w);
		pthread_mutex_lock(&w->mu);
		w->done = 1;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
	}
}

/* The shards' sums into the table (u32 sums: the order of addition does not matter). */
void cltab_merge(struct cltab *t)
{
	uint32_t k;

	cltab_join(t);
	for (k = 0; k < t->nr_work; k++) {
		const struct cltab *sh = t->work[k].t;

		dsrc_add(&t->total, &sh->total);
		dsrc_add(&t->shared, &sh->shared);
		t->nr_shared += sh->nr_shared;
		t->counts.samples += sh->counts.samples;
		t->counts.no_cpu += sh->counts.no_cpu;
		t->counts.bad_cpu += sh->counts.bad_cpu;
		t->counts.no_node += sh->counts.no_node;
	}
}
