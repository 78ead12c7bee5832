/* The cacheline table's storage, from cltab_new() to cltab_free(): huge-page arrays,
 * open-addressing hashes, pointer numbers (the records: cltable-int.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/cltable-int.h"

/* --- allocation ----------------------------------------------------------------------------- */

/* Zeroed anonymous memory for @len bytes (a multiple of 2 MiB) after @head bytes in small pages:
 * the @len bytes start at a 2 MiB boundary and are marked for huge pages, the @head bytes end
 * there. Returns the start of the head; the mapping is @head + @len bytes (munmap() it whole). */
static void *cltab_map(size_t head, size_t len)
{
	size_t span = head + len + CLTAB_HUGE;   /* room to align */
	uintptr_t p, a;
	void *m;

	m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		xoom(span);
	p = (uintptr_t)m;
	a = (p + head + CLTAB_HUGE - 1) & ~(uintptr_t)(CLTAB_HUGE - 1);
	if (a - head > p)
		munmap(m, a - head - p);
	if (p + span > a + len)
		munmap((void *)(a + len), p + span - (a + len));
	madvise((void *)a, len, MADV_HUGEPAGE);   /* a hint: its failure only costs speed */
	return (void *)(a - head);
}

static size_t cltab_huge_len(size_t size)
{
	return (size + CLTAB_HUGE - 1) / CLTAB_HUGE * CLTAB_HUGE;
}

/* A zeroed block of @size bytes. From 1 MiB on, fresh anonymous memory (zero without being
 * touched: pages cost only when used), 2 MiB aligned and marked for huge pages. */
void *cltab_zalloc(size_t size)
{
	return size < CLTAB_HUGE / 2 ? xcalloc(1, size) : cltab_map(0, cltab_huge_len(size));
}

/* Bytes at the start of an array's first chunk that take small pages (struct cltab_arr). */
#define CLTAB_ARR_HEAD ((size_t)512 << 10)

/* Release a block of cltab_zalloc(@size). */
void cltab_zfree(void *p, size_t size)
{
	if (!p)
		return;
	if (size < CLTAB_HUGE / 2)
		free(p);
	else
		munmap(p, cltab_huge_len(size));
}

/* Elements of @esize bytes, rounded up to 32 when over 48 (two cache lines at most for 64),
 * else to 8. A chunk holds 2^(21 - ctz(esize)) of them: esize / 2^ctz huge pages. */
static void cltab_arr_init(struct cltab_arr *a, size_t esize)
{
	a->esize = esize > 48 ? (esize + 15) & ~(size_t)15 : (esize + 7) & ~(size_t)7;
	a->shift = CLTAB_HUGE_SHIFT - (uint32_t)__builtin_ctzll(a->esize);
	a->mask = (1u << a->shift) - 1;
}

/* A new zeroed element; its index in *idx. The first chunk starts in small pages (a huge page
 * would be resident whole: up to 2 MiB for a handful of elements), for CLTAB_ARR_HEAD bytes; the
 * rest of it and the next chunks take huge pages (a fault costs microseconds on a virtual
 * machine: one per 2 MiB, not 512). A chunk is a whole number of huge pages. */
void *cltab_arr_new(struct cltab_arr *a, uint32_t *idx)
{
	size_t clen = ((size_t)a->mask + 1) * a->esize;

	if ((a->nr >> a->shift) == a->nr_chunk) {
		a->chunk = xgrow(a->chunk, &a->cap_chunk, a->nr_chunk + 1, sizeof(*a->chunk));
		a->chunk[a->nr_chunk] = cltab_map(a->nr_chunk ? 0 : CLTAB_ARR_HEAD, clen);
		a->nr_chunk++;
	}
	*idx = a->nr++;
	return cltab_at(a, *idx);
}

static void cltab_arr_free(struct cltab_arr *a)
{
	size_t clen = ((size_t)a->mask + 1) * a->esize, i;

	for (i = 0; i < a->nr_chunk; i++)
		munmap(a->chunk[i], (i ? 0 : CLTAB_ARR_HEAD) + clen);
	free(a->chunk);
}

static void cltab_hash_init(struct cltab_hash *h, size_t cap)
{
	h->cap = cap;
	h->slot = cltab_zalloc(cap * sizeof(*h->slot));
}

static void cltab_hash_grow(struct cltab_hash *h)
{
	struct cltab_slot *old = h->slot;
	size_t i, j, cap = h->cap;

	cltab_hash_init(h, cap + cap / 2);
	for (i = 0; i < cap; i++) {
		if (!old[i].idx)
			continue;
		for (j = cltab_home_h(h, old[i].h); h->slot[j].idx; j = cltab_next(h, j))
			;
		h->slot[j] = old[i];
	}
	cltab_zfree(old, cap * sizeof(*old));
}

/* Insert at free slot @j found by a failed probe; grows at half load. */
void cltab_hash_put(struct cltab_hash *h, size_t j, uint32_t hv, uint32_t idx)
{
	h->slot[j].h = hv;
	h->slot[j].idx = idx + 1;
	if (++h->nr * 10 > h->cap * 7)
		cltab_hash_grow(h);
}

static int cltab_cmp_range(const void *a, const void *b)
{
	const struct trace_mem_range *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

uint32_t cltab_ptr_id_slow(struct cltab_ptrs *s, const void *p, unsigned int m)
{
	uintptr_t a = (uintptr_t)p;
	uint64_t hv;
	size_t j;

	hv = (uint64_t)a * 0x9e3779b97f4a7c15ULL;
	hv ^= hv >> 29;
	for (j = cltab_home(&s->h, hv); s->h.slot[j].idx; j = cltab_next(&s->h, j))
		if (s->h.slot[j].h == cltab_hkey(hv) && s->p[s->h.slot[j].idx - 1] == p)
			break;
	s->memo_p[m] = p;
	s->memo_set |= 1u << m;
	if (s->h.slot[j].idx) {
		s->memo_id[m] = s->h.slot[j].idx - 1;
	} else {
		s->p = xgrow(s->p, &s->cap, s->nr + 1, sizeof(*s->p));
		s->p[s->nr] = p;
		s->memo_id[m] = (uint32_t)s->nr;
		cltab_hash_put(&s->h, j, cltab_hkey(hv), (uint32_t)s->nr++);
	}
	return s->memo_id[m];
}

struct cltab *cltab_new(const struct cltab_opts *opts)
{
	struct cltab *t = xcalloc(1, sizeof(*t));
	uint32_t i;

	t->opts = *opts;
	if (!t->opts.nr_coalesce) {
		t->opts.coalesce[0] = CLTAB_CO_IADDR;
		t->opts.nr_coalesce = 1;
	}
	if (!opts->cl_size || opts->cl_size > 32768 || (opts->cl_size & (opts->cl_size - 1))) {
		c2c_log(C2C_LOG_ERROR, "cacheline table: a cacheline of %u bytes (a power of two "
			"up to 32768)", opts->cl_size);
		abort();             /* the callers pass a line size of this machine or the trace */
	}
	t->cl_mask = ~((uint64_t)opts->cl_size - 1);
	for (i = 0; i < (uint32_t)t->opts.nr_coalesce; i++) {
		t->co_pid |= t->opts.coalesce[i] == CLTAB_CO_PID;
		t->co_tid |= t->opts.coalesce[i] == CLTAB_CO_TID;
		t->co_iaddr |= t->opts.coalesce[i] == CLTAB_CO_IADDR;
		t->co_dso |= t->opts.coalesce[i] == CLTAB_CO_DSO;
	}
	t->ip_mask = t->co_iaddr ? ~0ULL : 0;
	t->pt_mask = (t->co_pid ? 0xffffffff00000000ULL : 0) | (t->co_tid ? 0xffffffffULL : 0);
	t->cpu_words = (opts->nr_cpus + 63) / 64;
	if (!t->cpu_words)
		t->cpu_words = 1;
	t->cpu_node = xcalloc(opts->nr_cpus ? opts->nr_cpus : 1, sizeof(*t->cpu_node));
	t->cpu_nd = xcalloc(opts->nr_cpus ? opts->nr_cpus : 1, sizeof(*t->cpu_nd));
	for (i = 0; i < opts->nr_cpus; i++) {
		int32_t node = opts->cpu_node ? opts->cpu_node[i] : -1;

		t->cpu_node[i] = node;
		t->cpu_nd[i] = !opts->no_node_stats && node >= 0 && (uint32_t)node < opts->nr_nodes &&
			       (uint32_t)node < CLTAB_NO_NODE ? (uint16_t)node : CLTAB_NO_NODE;
	}
	t->opts.cpu_node = t->cpu_node;
	t->node_bits = opts->nr_nodes;
	t->ranges = xcalloc(opts->nr_mem_ranges + 1, sizeof(*t->ranges));
	if (opts->nr_mem_ranges)
		memcpy(t->ranges, opts->mem_ranges, opts->nr_mem_ranges * sizeof(*t->ranges));
	qsort(t->ranges, opts->nr_mem_ranges, sizeof(*t->ranges), cltab_cmp_range);
	t->opts.mem_ranges = t->ranges;
	for (i = 0; i < opts->nr_mem_ranges; i++)
		if (t->ranges[i].node + 1 > t->node_bits)
			t->node_bits = t->ranges[i].node + 1;
	if (!t->node_bits)
		t->node_bits = 1;
	t->node_words = (t->node_bits + 63) / 64;
	cltab_arr_init(&t->lines, sizeof(struct cltab_lrec) + t->node_words * sizeof(uint64_t));
	cltab_arr_init(&t->lcold, sizeof(struct cltab_lcold));
	cltab_arr_init(&t->ents, sizeof(struct cltab_ent));
	cltab_arr_init(&t->exts, sizeof(struct cltab_ext) +
				 (t->cpu_words + t->node_words) * sizeof(uint64_t));
	cltab_arr_init(&t->blks, sizeof(struct cltab_cellblk));
	cltab_arr_init(&t->touches, sizeof(struct cltab_trec));
	for (i = 0; i < CLTAB_TB_CLASSES; i++)
		cltab_arr_init(&t->tblks[i], sizeof(struct cltab_trow) << i);
	cltab_arr_init(&t->spaces, sizeof(struct cltab_space));
	cltab_hash_init(&t->shash, 64);
	cltab_hash_init(&t->lhash, 1024);
	cltab_hash_init(&t->ehash, 1024);
	cltab_hash_init(&t->thash, 1024);
	cltab_hash_init(&t->chash, 64);
	cltab_hash_init(&t->thr.h, 64);
	cltab_hash_init(&t->cmaps.h, 64);
	cltab_ptr_id(&t->cmaps, NULL);   /* number 0: no code map */
	t->dcache = xcalloc(CLTAB_DCACHE, sizeof(*t->dcache));
	if (opts->callchains)
		t->callers = callers_new();
	/* callers are counted by one thread; the aggregation threads start when the table has
	 * grown past what one thread folds in the caches (cltab_maybe_shard()) */
	t->want_work = opts->jobs > 1 && !opts->callchains ? opts->jobs : 0;
	return t;
}

void cltab_free(struct cltab *t)
{
	size_t i;

	if (!t)
		return;
	cltab_join(t);
	for (i = 0; i < t->nr_work; i++) {
		struct cltab_worker *w = &t->work[i];

		for (uint32_t k = 0; k < CLTAB_QDEPTH; k++)
			free(w->b[k]);
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->cv);
		cltab_free(w->t);
	}
	free(t->work);
	free(t->own);
	cltab_zfree(t->lst, cltab_lsum_size(t));
	cltab_free_shown(t);
	cltab_arr_free(&t->touches);
	for (i = 0; i < CLTAB_TB_CLASSES; i++)
		cltab_arr_free(&t->tblks[i]);
	cltab_zfree(t->thash.slot, t->thash.cap * sizeof(*t->thash.slot));
	cltab_arr_free(&t->lines);
	cltab_arr_free(&t->lcold);
	cltab_arr_free(&t->ents);
	cltab_arr_free(&t->exts);
	cltab_arr_free(&t->blks);
	cltab_arr_free(&t->spaces);
	cltab_zfree(t->shash.slot, t->shash.cap * sizeof(*t->shash.slot));
	cltab_zfree(t->lhash.slot, t->lhash.cap * sizeof(*t->lhash.slot));
	cltab_zfree(t->ehash.slot, t->ehash.cap * sizeof(*t->ehash.slot));
	cltab_zfree(t->chash.slot, t->chash.cap * sizeof(*t->chash.slot));
	cltab_zfree(t->thr.h.slot, t->thr.h.cap * sizeof(*t->thr.h.slot));
	cltab_zfree(t->cmaps.h.slot, t->cmaps.h.cap * sizeof(*t->cmaps.h.slot));
	free(t->thr.p);
	free(t->cmaps.p);
	free(t->cls);
	free(t->cls_n);
	free(t->dcache);
	free(t->cpu_node);
	free(t->cpu_nd);
	free(t->ranges);
	callers_free(t->callers);
	free(t);
}
