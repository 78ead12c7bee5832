/* The cacheline table (see report/aggregate/cltable.h).
 *
 * Aggregation keeps compact records, not the public structs: lines and offset entries live in
 * chunked arrays (indices stay valid, nothing moves) found through open-addressing hash tables of
 * 8-byte slots. A sample's decoded counter block depends only on its data_src word and three
 * flags, so decoded blocks are interned as "classes" and an offset entry keeps only small
 * (class, node) -> count cells; line, node and total counters are sums of those, computed once
 * in cltab_finish(). Counters are u32 like perf's: n * vector wraps exactly as n additions do.
 * Cycles means keep perf's running-mean arithmetic per entry, in sample order. An entry with
 * one sample (most of them) keeps just that sample's class, node and weight; its cells and
 * means move to an extension record when a second sample comes.
 *
 * cltab_finish() sums the lines, sorts them, applies the display filter and builds the public
 * cltab_line / cltab_offset structs only for the displayed lines. Every comparator ends on a
 * total order (creation order), so the output is deterministic. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/cltable.h"

#define CLTAB_DISPLAY_LIMIT 0.001  /* perf's DISPLAY_LINE_LIMIT */

/* --- compact records ------------------------------------------------------------------------ */

#define CLTAB_CLS_BITS 17
#define CLTAB_MAX_CLS ((1u << CLTAB_CLS_BITS) - 1)
#define CLTAB_CYC_SHIFT CLTAB_CLS_BITS          /* 3 bits: the class's CLTAB_CYC_* + 1, 0: none */
#define CLTAB_NODE_SHIFT (CLTAB_CLS_BITS + 3)
#define CLTAB_NO_NODE 0xfffu    /* 12 bits: nodes 0..4094 get per-node counters */
#define CLTAB_CELLS 4           /* cells inside an entry */
#define CLTAB_BLK_CELLS 7       /* cells per overflow block */

/* A cell key: class | (its cycles mean + 1) << CLTAB_CYC_SHIFT | node << CLTAB_NODE_SHIFT. The
 * mean follows from the class: keys are equal when (class, node) are, and one pass over the
 * cells both finds the sample's cell and counts the samples of its mean. At most 0xfffbffff:
 * key + 1 fits 32 bits. */
struct cltab_cell {
	uint32_t key;
	uint32_t n;             /* 0: free (a wrapped count is 0 mod 2^32 too) */
};

static inline uint32_t cltab_key_cls(uint32_t key)
{
	return key & CLTAB_MAX_CLS;
}

static inline uint32_t cltab_key_cyc1(uint32_t key)
{
	return (key >> CLTAB_CYC_SHIFT) & 7;
}

static inline uint32_t cltab_key_node(uint32_t key)
{
	return key >> CLTAB_NODE_SHIFT;
}

struct cltab_cellblk {
	struct cltab_cell c[CLTAB_BLK_CELLS];
	uint32_t next;          /* block index + 1, 0: none */
};

/* The fields of a line key other than its cacheline (perf's dcacheline sort: cpumode, data map
 * presence, the DSO's identity, the pid of anonymous private memory), interned once per table:
 * a line record keeps the number. */
struct cltab_space {
	uint64_t ino, gen;
	uint32_t maj, min;
	int32_t pid;
	uint8_t cpumode, has_map, anon;
};

/* One line: what every sample touches (the key, the PA state); followed by nodeset[node_words],
 * 40 bytes in all with one node word. */
struct cltab_lrec {
	uint64_t cl;
	uint64_t paddr, paddr_cnt;
	uint32_t space;               /* cltab_space number */
};

/* The rest of a line, in a parallel array. */
struct cltab_lcold {
	const struct maps_map *dmap;
	uint64_t addr;
	uint64_t seq;                  /* the first sample's number in the input: the last sort key */
	uint8_t cpumode;             /* of the first sample (--phys keys lines without it) */
};

/* One offset entry: 48 bytes (most traces have about one entry per sample or two: the entries
 * are most of the table's memory). Most entries see one sample: that sample's class, node,
 * weight, CPU and memory node are kept inline (key0, w0, cm0; its PA count is 1 when it has a
 * memory node), and the counter cells, cycles means, PA count and CPU and node sets move to an
 * extension (struct cltab_ext) at the second sample, so that an entry costs the same on 2 CPUs
 * as on 8192 (or at the first, when its CPU or memory node does not fit cm0 or its weight does
 * not fit w0). The thread and the code map are numbers of the table (cltab_thread(),
 * cltab_cmap()). The cpumode is the line's (part of its key); the map-relative code address
 * follows from cmap and ip. */
struct cltab_ent {
	uint32_t line;
	uint32_t ext;                  /* extension index + 1; 0: the inline fields hold it all */
	uint16_t offset, disp_offset;  /* in the line: below the line size (at most 32768) */
	uint32_t thread;               /* the first sample's thread (cltab_thread()) */
	uint32_t cmap;                 /* the first sample's code map (cltab_cmap()) */
	union {
		struct {               /* !ext: the only sample */
			uint32_t key0; /* its cell key + 1; 0: no sample yet */
			uint32_t cm0;  /* its CPU + 1 (CLTAB_CM0_CPU bits) and memory node + 1
					* (the bits above); 0 in a field: none */
		};
		struct {               /* ext: the touches of threads other than the first */
			uint32_t tblk; /* their block (index + 1 in tblks[tcls]); 0: none yet */
			uint8_t tcls;  /* the block's size class: 1 << tcls records */
			uint8_t tnr;   /* records in use; at CLTAB_TB_MAX more go to the hash */
			uint16_t tpad;
		};
	};
	uint32_t w0;                   /* weight of the only sample (!ext) */
	uint64_t ip;
	uint64_t paddr;
};
_Static_assert(sizeof(struct cltab_ent) == 48, "an offset entry is 48 bytes");

#define CLTAB_CM0_CPU 20
#define CLTAB_CM0_CPU_MAX ((1u << CLTAB_CM0_CPU) - 1)          /* CPU + 1 at most */
#define CLTAB_CM0_NODE_MAX ((1u << (32 - CLTAB_CM0_CPU)) - 1)  /* memory node + 1 at most */

static inline uint32_t cltab_cpu0(const struct cltab_ent *e)
{
	return e->cm0 & CLTAB_CM0_CPU_MAX;
}

static inline uint32_t cltab_mnode0(const struct cltab_ent *e)
{
	return e->cm0 >> CLTAB_CM0_CPU;
}

/* Counters of an entry with two samples or more; followed by cpuset[cpu_words],
 * nodeset[node_words] (96 bytes with one word each). The sample count of each cycles mean is
 * the sum of the cells of its classes (cltab_cyc_n()). */
struct cltab_ext {
	struct cltab_cell cell[CLTAB_CELLS];
	uint32_t more;                 /* overflow cell block (index + 1) */
	uint32_t paddr_cnt;
	double mean[CLTAB_CYC_NR];
};

typedef uint32_t cltab_v8 __attribute__((vector_size(32)));

#define CLTAB_TN 8   /* CLTAB_T_NR touch counters and a pad: one cltab_v8 */
_Static_assert(CLTAB_T_NR < CLTAB_TN, "the touch counters fit one vector");

/* One thread's samples in one offset entry: who loads and stores what (the findings' and the
 * line map's input). Only threads other than the entry's first get a record: most entries are
 * one thread's, and the first thread's counts are the entry's minus the others'. The first
 * CLTAB_TB_MAX of them keep it in the entry's touch block (struct cltab_trow, below); the rest
 * here, found through a hash on (entry, thread). Touches are gathered only for the displayed
 * lines, by one pass in cltab_finish(). The counters are added as one cltab_v8. */
struct cltab_trec {
	uint32_t ent;
	uint32_t thread;               /* cltab_thread() */
	uint32_t n[CLTAB_TN];          /* the last is 0 */
};

/* The first CLTAB_TB_MAX other threads of an entry (with an extension: a second sample came)
 * keep their touches in a block of the entry's own, which the entry names (tblk), so that the
 * fold reaches them from the entry it has found, prefetched with its extension, without a hash
 * slot and a record at random: those two lines were a third of the fold on 100k lines, and
 * without any touches bench_aggregate ran 26% faster at 1000 lines and 50% at 100k. A record is
 * one cltab_v8: lane 0 the thread number + 1, lanes 1.. the CLTAB_T_* counters (a class's tv[]
 * adds 0 to lane 0). Blocks hold 1, 2 and 4 records (32, 64, 128 bytes, aligned: one or two
 * cache lines) and move to the next size when full; a freed block goes to its size's free list
 * (the next one's index + 1 in lane 0). Threads past CLTAB_TB_MAX take the hash of (entry,
 * thread) as before. */
#define CLTAB_TB_CLASSES 3
#define CLTAB_TB_MAX (1u << (CLTAB_TB_CLASSES - 1))

struct cltab_trow {
	uint32_t v[CLTAB_TN];
};

#define CLTAB_HUGE_SHIFT 21
#define CLTAB_HUGE (1u << CLTAB_HUGE_SHIFT)   /* a transparent huge page */

/* Growable array of fixed-size elements in chunks: elements never move. The table is probed at
 * random, and on virtual machines every TLB miss is a two-dimensional page walk, so chunks are
 * huge-page aligned and marked for transparent huge pages (a hint: its failure only costs
 * speed). */
struct cltab_arr {
	unsigned char **chunk;
	size_t nr_chunk, cap_chunk, esize;
	uint32_t shift, mask, nr;  /* chunks of 1 << shift elements: a whole number of huge pages */
};

struct cltab_slot {
	uint32_t h;             /* low 32 bits of the hash */
	uint32_t idx;           /* element index + 1, 0: empty */
};

struct cltab_hash {
	struct cltab_slot *slot;
	size_t cap, nr;
};

struct cltab_class {
	struct dsrc_stats st;
	int cyc;                /* CLTAB_CYC_* or -1 */
	uint32_t tn[CLTAB_TN];     /* what a sample adds to a thread's touch counters (the
				    * last: 0) */
	uint32_t tv[CLTAB_TN];     /* the same for a block's record: lane 0 (the thread) 0 */
};

#define CLTAB_DCACHE 4096   /* decode cache: (data_src, flags) -> class, direct mapped */
_Static_assert(CLTAB_DCACHE == 1 << 12, "cltab_class() indexes the decode cache by 12 bits");

struct cltab_dcache {
	uint64_t ds;
	uint32_t flags;         /* bit 3 set: valid */
	uint32_t cls;
};

#define CLTAB_PENDING 32
#define CLTAB_TMEMO 16     /* threads memoized by cltab_feed_sample() */
/* Data maps and their line spaces memoized: threads that touch regions of their own (their
 * stacks, their arenas) take turns in the input; one memo missed every other sample of a
 * perf.data perf wrote of four such threads */
#define CLTAB_DMEMO 4
/* Up to these many entries and lines (about 2 MiB of records) a table stays in the caches: with
 * jobs, it is aggregated by the feeding thread alone (cltab_flush_own()). */
#define CLTAB_SMALL_ENTS 32768
#define CLTAB_SMALL_LINES 8192

/* A resolved sample on its way into a table: its number in the input and its thread's pid and
 * tid as they were when it was read (the feeding thread may change a thread's pid later). */
struct cltab_pend {
	struct cltab_sample s;
	uint64_t seq;
	int32_t pid, tid;
};

#define CLTAB_BATCH 1024   /* samples handed to a shard at a time */
/* A filter of the lines the feeding thread keeps (those it made before the workers started, at
 * most about CLTAB_SMALL_LINES): 8 KiB, which stays in L1, so that a sample of another line (one
 * in 8 a false positive at 8192 lines) is routed without probing the table's line hash. On the
 * 1M-sample perf.data perf wrote, that probe missed the caches: a third of cltab_route(). */
#define CLTAB_OWN_BITS 65536
#define CLTAB_QDEPTH 4     /* batches in flight per shard: bounds the memory of the hand-over */

struct cltab_batch {
	struct cltab_pend p[CLTAB_BATCH];
	uint32_t n;
};

/* A shard of a parallel table and the thread that aggregates it. The feeding thread fills
 * b[head % CLTAB_QDEPTH] and publishes it by head++; the worker folds b[tail % CLTAB_QDEPTH]
 * and frees it by tail++. */
struct cltab_worker {
	struct cltab *t;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct cltab_batch *b[CLTAB_QDEPTH];
	uint64_t head, tail;
	int done, started;
	int filling;                   /* the feeding thread holds b[head % CLTAB_QDEPTH] */
};

struct cltab {
	struct cltab_opts opts;
	struct cltab_pend pending[CLTAB_PENDING];   /* resolved, not yet added */
	size_t nr_pending;
	struct cltab_pend stage[CLTAB_PENDING];     /* with workers: resolved, not yet routed */
	size_t nr_stage;
	uint64_t next_seq;                /* number of the next sample fed */
	/* parallel table (opts.jobs > 1): samples go by line to shards aggregated by workers */
	struct cltab_worker *work;
	uint32_t nr_work;
	uint64_t *own;                    /* [CLTAB_OWN_BITS / 64]: bit cltab_own_bit() of each line
					   * this table held when the workers started */
	uint32_t want_work;               /* opts.jobs, or 0 when this table folds everything */
	/* cltab_sum() results of this table (or shard), for cltab_finish() */
	struct dsrc_stats *lst;           /* [nr_lsum], followed by lcnt[nr_lsum] */
	uint32_t *lcnt;
	size_t nr_lsum;
	int32_t *cpu_node;
	uint16_t *cpu_nd;                 /* [nr_cpus]: the node a CPU's samples count under in the
					   * cells (CLTAB_NO_NODE: none, or no per-node counters) */
	struct trace_mem_range *ranges;   /* [nr_mem_ranges + 1]: the last is empty */
	uint32_t mr_last;                 /* the range cltab_mem_node() found last */
	uint64_t cl_mask;
	uint32_t cpu_words, node_words, node_bits;
	struct cltab_arr lines, lcold, ents, exts, blks, touches, spaces;
	struct cltab_arr tblks[CLTAB_TB_CLASSES];   /* touch blocks of 1 << class records */
	uint32_t tfree[CLTAB_TB_CLASSES];           /* freed blocks by size: index + 1, 0: none */
	struct cltab_hash lhash, ehash, thash, shash;
	/* the threads and code maps the entries name, by number (cltab_ptr_id()) */
	struct cltab_ptrs {
		const void **p;
		size_t nr, cap;
		struct cltab_hash h;
		const void *memo_p[16];
		uint32_t memo_id[16];
		uint32_t memo_set;            /* bit m: memo m holds a pointer */
	} thr, cmaps;
	struct cltab_class *cls;
	uint32_t nr_cls, cap_cls;
	uint32_t *cls_n;                  /* samples per class */
	struct cltab_hash chash;          /* classes by content */
	struct cltab_dcache *dcache;
	struct cltab_line **shown;
	size_t nr_shown;
	struct dsrc_stats total, shared;
	uint32_t nr_shared;
	struct cltab_counts counts;
	int co_pid, co_tid, co_iaddr, co_dso;   /* coalesce keys in use */
	uint64_t ip_mask, pt_mask;        /* what of the code address and of pid << 32 | tid the
					   * coalesce keys hash: all ones or zero */
	int finished;
	struct callers *callers;          /* with opts.callchains */
	/* lookups memoized for the next sample: the last thread and the maps of the last data and
	 * code addresses (reset by every side-band record), the key fields of the last data map */
	struct {
		struct maps_thread *th;   /* NULL: none */
		int32_t pid, tid;
	} tmemo[CLTAB_TMEMO];             /* by tid */
	struct maps_memo dmemo[CLTAB_DMEMO], cmemo;
	uint32_t dmemo_next, cmemo_next;  /* maps_find_memo()'s replacement counters */
	struct cltab_kmemo {
		const struct maps_map *dmap;
		int32_t pid;
		uint8_t cpumode, valid;
		uint32_t space;
	} kmemo[CLTAB_DMEMO];             /* the line spaces of the last data maps (--phys: [0]) */
	uint32_t kmemo_next;
};

static void cltab_start_workers(struct cltab *t, uint32_t n);
static void cltab_join(struct cltab *t);
static void cltab_free_shown(struct cltab *t);

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
static void *cltab_zalloc(size_t size)
{
	return size < CLTAB_HUGE / 2 ? xcalloc(1, size) : cltab_map(0, cltab_huge_len(size));
}

/* Bytes at the start of an array's first chunk that take small pages (struct cltab_arr). */
#define CLTAB_ARR_HEAD ((size_t)512 << 10)

/* Bytes of a table's line sums (struct cltab::lst and lcnt). */
#define cltab_lsum_size(t) ((t)->nr_lsum * (sizeof(struct dsrc_stats) + sizeof(uint32_t)))

/* Release a block of cltab_zalloc(@size). */
static void cltab_zfree(void *p, size_t size)
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

static inline void *cltab_at(const struct cltab_arr *a, uint32_t i)
{
	return a->chunk[i >> a->shift] + (size_t)(i & a->mask) * a->esize;
}

/* A new zeroed element; its index in *idx. The first chunk starts in small pages (a huge page
 * would be resident whole: up to 2 MiB for a handful of elements), for CLTAB_ARR_HEAD bytes; the
 * rest of it and the next chunks take huge pages (a fault costs microseconds on a virtual
 * machine: one per 2 MiB, not 512). A chunk is a whole number of huge pages. */
static void *cltab_arr_new(struct cltab_arr *a, uint32_t *idx)
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

/* Open addressing with linear probing over any number of slots: a key's home is its hash's
 * high 32 bits scaled to the table (the slot keeps those bits to compare and to move them), and
 * the table grows by half at 70% load, so that it holds 1.4 to 2.1 slots per key instead of the
 * 2 to 4 of doubling at half load (the entries' table is the largest of a report). */
static inline uint32_t cltab_hkey(uint64_t hv)
{
	return (uint32_t)(hv >> 32);
}

static inline size_t cltab_home_h(const struct cltab_hash *h, uint32_t k)
{
	return (size_t)(((uint64_t)k * h->cap) >> 32);
}

static inline size_t cltab_home(const struct cltab_hash *h, uint64_t hv)
{
	return cltab_home_h(h, cltab_hkey(hv));
}

static inline size_t cltab_next(const struct cltab_hash *h, size_t j)
{
	return j + 1 == h->cap ? 0 : j + 1;
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
static void cltab_hash_put(struct cltab_hash *h, size_t j, uint32_t hv, uint32_t idx)
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

static uint32_t cltab_ptr_id_slow(struct cltab_ptrs *s, const void *p, unsigned int m)
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

/* The number of pointer @p in @s (threads, code maps), given on first use; a memo by address
 * bits answers most samples. */
static inline uint32_t cltab_ptr_id(struct cltab_ptrs *s, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	unsigned int m = (unsigned int)(((uint64_t)a * 0x9e3779b97f4a7c15ULL) >> 60);

	if (s->memo_p[m] == p && (s->memo_set & (1u << m)))
		return s->memo_id[m];
	return cltab_ptr_id_slow(s, p, m);
}

static inline const struct maps_thread *cltab_thread(const struct cltab *t, uint32_t id)
{
	return t->thr.p[id];
}

static inline const struct maps_map *cltab_cmap(const struct cltab *t, uint32_t id)
{
	return t->cmaps.p[id];
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

/* --- keys ----------------------------------------------------------------------------------- */

/* MurmurHash3's fmix64 alone. */
static inline uint64_t cltab_fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* Combine and finalize (MurmurHash3's fmix64): the table index uses the low bits, so every
 * input bit must reach them (cacheline addresses have six zero low bits). */
static inline uint64_t cltab_mix(uint64_t h, uint64_t v)
{
	return cltab_fmix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

static uint64_t cltab_space_hash(const struct cltab_space *k)
{
	uint64_t h = k->ino * 0xc2b2ae3d27d4eb4fULL;

	h += (((uint64_t)k->maj << 32) | k->min) * 0x165667b19e3779f9ULL;
	h += k->gen * 0x27d4eb2f165667c5ULL;
	h += ((uint64_t)(uint32_t)k->pid | (uint64_t)k->cpumode << 32 | (uint64_t)k->has_map << 40 |
	      (uint64_t)k->anon << 48) * 0x85ebca77c2b2ae63ULL;
	return cltab_fmix(h);
}

static inline const struct cltab_space *cltab_space_at(const struct cltab *t, uint32_t i)
{
	return cltab_at(&t->spaces, i);
}

/* The number of line space @k in this table, interned on first use. */
static uint32_t cltab_space_intern(struct cltab *t, const struct cltab_space *k)
{
	uint64_t hv = cltab_space_hash(k);
	struct cltab_space *sp;
	uint32_t idx;
	size_t j;

	for (j = cltab_home(&t->shash, hv); t->shash.slot[j].idx; j = cltab_next(&t->shash, j)) {
		idx = t->shash.slot[j].idx - 1;
		if (t->shash.slot[j].h == cltab_hkey(hv) && !memcmp(cltab_space_at(t, idx), k, sizeof(*k)))
			return idx;
	}
	sp = cltab_arr_new(&t->spaces, &idx);
	*sp = *k;
	cltab_hash_put(&t->shash, j, cltab_hkey(hv), idx);
	return idx;
}

static uint32_t cltab_sample_space_slow(struct cltab *t, const struct cltab_pend *p, uint64_t *cl);

/* A sample's line key: its line space (memoized for the next sample of the same data map, mode
 * and pid) and its cacheline in *cl. */
static inline uint32_t cltab_sample_space(struct cltab *t, const struct cltab_pend *p,
					  uint64_t *cl)
{
	const struct cltab_kmemo *k = t->kmemo;

	for (; !t->opts.phys && k < t->kmemo + CLTAB_DMEMO; k++) {
		if (k->valid && k->dmap == p->s.dmap && k->cpumode == p->s.cpumode &&
		    k->pid == p->pid) {
			*cl = p->s.al_addr & t->cl_mask;
			return k->space;
		}
	}
	return cltab_sample_space_slow(t, p, cl);
}

static uint32_t cltab_sample_space_slow(struct cltab *t, const struct cltab_pend *p, uint64_t *cl)
{
	const struct cltab_sample *s = &p->s;
	struct cltab_kmemo *km = &t->kmemo[0];
	const struct maps_dso *d;
	struct cltab_space k;

	if (t->opts.phys) {          /* the physical line alone, whoever maps it where */
		*cl = s->phys_addr & t->cl_mask;
		if (!km->valid) {
			memset(&k, 0, sizeof(k));
			km->space = cltab_space_intern(t, &k);
			km->valid = 1;
		}
		return km->space;
	}
	*cl = s->al_addr & t->cl_mask;   /* (the memo missed: cltab_sample_space()) */
	memset(&k, 0, sizeof(k));   /* padding too: spaces are compared with memcmp */
	d = s->dmap ? s->dmap->dso : NULL;
	k.cpumode = s->cpumode;
	k.has_map = d != NULL;
	k.maj = d ? d->maj : 0;
	k.min = d ? d->min : 0;
	k.ino = d ? d->ino : 0;
	k.gen = d ? d->ino_generation : 0;
	k.anon = s->dmap ? (uint8_t)!!maps_is_anon_private(s->dmap, s->cpumode) : 0;
	k.pid = k.anon ? p->pid : 0;
	km = &t->kmemo[t->kmemo_next++ % CLTAB_DMEMO];
	km->space = cltab_space_intern(t, &k);
	km->dmap = s->dmap;
	km->cpumode = s->cpumode;
	km->pid = p->pid;
	km->valid = 1;
	return km->space;
}

/* The hash of line key (space, cl). */
static inline uint64_t cltab_lkey_hash(uint32_t space, uint64_t cl)
{
	return cltab_fmix(cl * 0x9e3779b97f4a7c15ULL + (uint64_t)space * 0xd6e8feb86659fd93ULL);
}

/* perf's sort__dcacheline_cmp as the output shows it: ascending. */
static int cltab_lkey_cmp(const struct cltab_space *a, uint64_t acl, const struct cltab_space *b,
			  uint64_t bcl)
{
	if (a->cpumode != b->cpumode)
		return (a->cpumode > b->cpumode) - (a->cpumode < b->cpumode);
	if (a->has_map != b->has_map)
		return a->has_map ? -1 : 1;
	if (a->has_map) {
		if (a->maj != b->maj)
			return (a->maj > b->maj) - (a->maj < b->maj);
		if (a->min != b->min)
			return (a->min > b->min) - (a->min < b->min);
		if (a->ino != b->ino)
			return (a->ino > b->ino) - (a->ino < b->ino);
		if (a->gen != b->gen)
			return (a->gen > b->gen) - (a->gen < b->gen);
		if (a->anon && a->pid != b->pid)
			return (a->pid > b->pid) - (a->pid < b->pid);
	}
	return (acl > bcl) - (acl < bcl);
}

static inline const char *cltab_dso_key(const struct maps_map *cmap)
{
	return cmap ? cmap->dso->short_name : NULL;
}

/* A thread's pid or tid as read now (the feeding thread may set a pid while a worker reads). */
static inline int32_t cltab_tid_of(const int32_t *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

/* The hash of an offset entry's key: its line's (@lh, of the line key, not the line's number:
 * the entry's slot can be fetched before the line is found) with the offset and coalesce keys. */
static uint64_t cltab_okey_hash(const struct cltab *t, uint64_t lh, const struct cltab_pend *p)
{
	const struct cltab_sample *s = &p->s;
	uint64_t h = lh + (s->addr & ~t->cl_mask) * 0x9e3779b97f4a7c15ULL;

	h += (s->ip & t->ip_mask) * 0xc2b2ae3d27d4eb4fULL;
	h += (((uint64_t)(uint32_t)p->pid << 32 | (uint32_t)p->tid) & t->pt_mask) *
	     0x165667b19e3779f9ULL;
	if (t->co_dso)
		h += (uintptr_t)cltab_dso_key(s->cmap) * 0x27d4eb2f165667c5ULL;
	return cltab_fmix(h);
}

static int cltab_okey_eq(const struct cltab *t, const struct cltab_ent *e, uint32_t line,
			 const struct cltab_pend *p)
{
	const struct cltab_sample *s = &p->s;

	return e->line == line && e->offset == (uint16_t)(s->addr & ~t->cl_mask) &&
	       (!t->co_iaddr || e->ip == s->ip) &&
	       (!t->co_pid || cltab_tid_of(&cltab_thread(t, e->thread)->pid) == p->pid) &&
	       (!t->co_tid || cltab_tid_of(&cltab_thread(t, e->thread)->tid) == p->tid) &&
	       (!t->co_dso || cltab_dso_key(cltab_cmap(t, e->cmap)) == cltab_dso_key(s->cmap));
}

/* --- decoded classes ------------------------------------------------------------------------ */

static int cltab_class_cyc(const struct dsrc_stats *st)
{
	if (st->rmt_hitm)
		return CLTAB_CYC_RMT_HITM;
	if (st->lcl_hitm)
		return CLTAB_CYC_LCL_HITM;
	if (st->rmt_peer)
		return CLTAB_CYC_RMT_PEER;
	if (st->lcl_peer)
		return CLTAB_CYC_LCL_PEER;
	if (st->load)
		return CLTAB_CYC_LOAD;
	return -1;
}

static uint64_t cltab_stats_hash(const struct dsrc_stats *st)
{
	const uint32_t *w = (const uint32_t *)st;
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < 32; i += 2)
		h = cltab_mix(h, (uint64_t)w[i] << 32 | w[i + 1]);
	return h;
}

/* The class of a decoded block, interned by content. Only the bits the decoder tests matter
 * (op: load, store or neither; the 14 level bits; snoop HIT and HITM; snoopx PEER; LOCKED; the
 * two blk bits; remote-without-hops; address zero; both maps found): enumerating all of them
 * gives 84728 distinct blocks, well below CLTAB_MAX_CLS. Real traces have a handful. */
static uint32_t cltab_intern(struct cltab *t, const struct dsrc_stats *st)
{
	uint64_t hv = cltab_stats_hash(st);
	size_t j;
	uint32_t c;

	for (j = cltab_home(&t->chash, hv); t->chash.slot[j].idx; j = cltab_next(&t->chash, j)) {
		c = t->chash.slot[j].idx - 1;
		if (!memcmp(&t->cls[c].st, st, sizeof(*st)))
			return c;
	}
	if (t->nr_cls == CLTAB_MAX_CLS)
		abort();   /* cannot happen: see above */
	if (t->nr_cls == t->cap_cls) {
		size_t cap = t->cap_cls;

		t->cls = xgrow(t->cls, &cap, t->nr_cls + 1, sizeof(*t->cls));
		cap = t->cap_cls;
		t->cls_n = xgrow(t->cls_n, &cap, t->nr_cls + 1, sizeof(*t->cls_n));
		t->cap_cls = (uint32_t)cap;
	}
	c = t->nr_cls++;
	t->cls[c].st = *st;
	t->cls[c].cyc = cltab_class_cyc(st);
	t->cls[c].tn[CLTAB_T_LD] = st->load;
	t->cls[c].tn[CLTAB_T_ST] = st->store;
	t->cls[c].tn[CLTAB_T_LOCK] = st->locks;
	t->cls[c].tn[CLTAB_T_LCL_HITM] = st->lcl_hitm;
	t->cls[c].tn[CLTAB_T_RMT_HITM] = st->rmt_hitm;
	t->cls[c].tn[CLTAB_T_LCL_PEER] = st->lcl_peer;
	t->cls[c].tn[CLTAB_T_RMT_PEER] = st->rmt_peer;
	t->cls[c].tn[CLTAB_TN - 1] = 0;
	t->cls[c].tv[0] = 0;
	memcpy(&t->cls[c].tv[1], t->cls[c].tn, (CLTAB_TN - 1) * sizeof(uint32_t));
	t->cls_n[c] = 0;
	cltab_hash_put(&t->chash, j, cltab_hkey(hv), c);
	return c;
}

static uint32_t cltab_class_slow(struct cltab *t, const struct cltab_sample *s,
				 struct cltab_dcache *d, uint32_t flags)
{
	struct dsrc_input in = { .data_src = s->data_src, .daddr = s->addr,
				 .has_data_map = s->dmap != NULL, .has_code_map = s->has_code_map };
	struct dsrc_stats st;
	uint32_t c;

	dsrc_decode(&st, &in);
	c = cltab_intern(t, &st);
	d->ds = s->data_src;
	d->flags = flags;
	d->cls = c | (uint32_t)(t->cls[c].cyc + 1) << CLTAB_CYC_SHIFT;
	return d->cls;
}

/* The class of sample @s with its cycles mean (a cell key without node). */
static inline uint32_t cltab_class(struct cltab *t, const struct cltab_sample *s)
{
	uint32_t flags = (s->addr != 0) | (s->dmap != NULL) << 1 | (s->has_code_map != 0) << 2 | 8;
	struct cltab_dcache *d = &t->dcache[((s->data_src ^ (uint64_t)flags << 60) *
					     0x9e3779b97f4a7c15ULL) >> (64 - 12)];

	if (d->flags == flags && d->ds == s->data_src)
		return d->cls;
	return cltab_class_slow(t, s, d, flags);
}

/* --- lines and entries ---------------------------------------------------------------------- */

static inline struct cltab_lrec *cltab_lrec(const struct cltab *t, uint32_t i)
{
	return cltab_at(&t->lines, i);
}

static inline struct cltab_ent *cltab_ent(const struct cltab *t, uint32_t i)
{
	return cltab_at(&t->ents, i);
}

static inline struct cltab_lcold *cltab_lcold(const struct cltab *t, uint32_t i)
{
	return cltab_at(&t->lcold, i);
}

static inline uint64_t *cltab_lrec_nodeset(struct cltab_lrec *l)
{
	return (uint64_t *)(l + 1);
}

static inline uint64_t *cltab_ext_cpuset(struct cltab_ext *x)
{
	return (uint64_t *)(x + 1);
}

static inline uint64_t *cltab_ext_nodeset(const struct cltab *t, struct cltab_ext *x)
{
	return (uint64_t *)(x + 1) + t->cpu_words;
}

static void cltab_set_bit(uint64_t *set, uint32_t bit)
{
	set[bit / 64] |= 1ULL << (bit % 64);
}

/* The entry's CPU and memory-node sets into @cpuset and @nodeset (zeroed by the caller). */
static void cltab_ent_sets(const struct cltab *t, const struct cltab_ent *e, uint64_t *cpuset,
			   uint64_t *nodeset)
{
	if (e->ext) {
		struct cltab_ext *x = cltab_at(&t->exts, e->ext - 1);

		memcpy(cpuset, cltab_ext_cpuset(x), t->cpu_words * sizeof(uint64_t));
		memcpy(nodeset, cltab_ext_nodeset(t, x), t->node_words * sizeof(uint64_t));
		return;
	}
	if (cltab_cpu0(e))
		cltab_set_bit(cpuset, cltab_cpu0(e) - 1);
	if (cltab_mnode0(e))
		cltab_set_bit(nodeset, cltab_mnode0(e) - 1);
}

/* Line (space, cl) of hash @hv: its index + 1, or 0 with *@j the free slot it would take. */
static inline uint32_t cltab_probe_line(const struct cltab *t, uint32_t space, uint64_t cl,
					uint64_t hv, size_t *j)
{
	const struct cltab_slot *sl = t->lhash.slot;
	uint32_t k = cltab_hkey(hv);

	for (*j = cltab_home_h(&t->lhash, k); sl[*j].idx; *j = cltab_next(&t->lhash, *j)) {
		const struct cltab_lrec *l;

		if (sl[*j].h != k)
			continue;
		l = cltab_lrec(t, sl[*j].idx - 1);
		if (l->cl == cl && l->space == space)
			return sl[*j].idx;
	}
	return 0;
}

/* A new line (space, cl) of hash @hv at free slot @j of the lines' hash. */
static uint32_t cltab_new_lrec(struct cltab *t, const struct cltab_pend *p, uint32_t space,
			       uint64_t cl, uint64_t hv, size_t j)
{
	struct cltab_lrec *l;
	struct cltab_lcold *lc;
	uint32_t idx;

	l = cltab_arr_new(&t->lines, &idx);
	l->cl = cl;
	l->space = space;
	lc = cltab_arr_new(&t->lcold, &idx);
	lc->dmap = p->s.dmap;
	lc->addr = p->s.addr & t->cl_mask;
	lc->seq = p->seq;
	lc->cpumode = p->s.cpumode;
	cltab_hash_put(&t->lhash, j, cltab_hkey(hv), idx);
	return idx;
}

static inline uint32_t cltab_findnew_line(struct cltab *t, const struct cltab_pend *p,
					  uint32_t space, uint64_t cl, uint64_t hv)
{
	size_t j;
	uint32_t idx1 = cltab_probe_line(t, space, cl, hv, &j);

	return idx1 ? idx1 - 1 : cltab_new_lrec(t, p, space, cl, hv, j);
}

/* A new entry of @line for @p, of hash @hv at free slot @j of the entries' hash. */
static struct cltab_ent *cltab_new_ent(struct cltab *t, uint32_t line, const struct cltab_pend *p,
				       uint64_t hv, size_t j, uint32_t *eidx)
{
	const struct cltab_sample *s = &p->s;
	struct cltab_ent *e;
	uint32_t idx;

	e = cltab_arr_new(&t->ents, &idx);
	*eidx = idx;
	e->line = line;
	e->offset = (uint16_t)(s->addr & ~t->cl_mask);
	e->ip = s->ip;
	e->thread = cltab_ptr_id(&t->thr, s->thread);
	e->cmap = cltab_ptr_id(&t->cmaps, s->cmap);
	e->disp_offset = (uint16_t)(s->al_addr & ~t->cl_mask);
	cltab_hash_put(&t->ehash, j, cltab_hkey(hv), idx);
	return e;
}

static inline struct cltab_ent *cltab_findnew_ent(struct cltab *t, uint32_t line,
						  const struct cltab_pend *p, uint64_t hv,
						  uint32_t *eidx)
{
	const struct cltab_slot *sl = t->ehash.slot;
	uint32_t k = cltab_hkey(hv);
	size_t j;

	for (j = cltab_home_h(&t->ehash, k); sl[j].idx; j = cltab_next(&t->ehash, j)) {
		struct cltab_ent *e;

		if (sl[j].h != k)
			continue;
		e = cltab_ent(t, sl[j].idx - 1);
		if (cltab_okey_eq(t, e, line, p)) {
			*eidx = sl[j].idx - 1;
			return e;
		}
	}
	return cltab_new_ent(t, line, p, hv, j, eidx);
}

/* --- accumulation --------------------------------------------------------------------------- */

static int cltab_mem_node(struct cltab *t, uint64_t pa)
{
	size_t lo = 0, hi = t->opts.nr_mem_ranges;
	const struct trace_mem_range *m = &t->ranges[t->mr_last];

	if (m->start <= pa && pa < m->end)     /* the last one found, most often */
		return (int)m->node;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ranges[mid].end <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->opts.nr_mem_ranges && t->ranges[lo].start <= pa && pa < t->ranges[lo].end) {
		t->mr_last = (uint32_t)lo;
		return (int)t->ranges[lo].node;
	}
	return -1;
}

/* perf's c2c_he__set_node: the memory node set and the count of physical address changes. */
static void cltab_set_node(uint64_t *nodeset, uint64_t *paddr, uint64_t *cnt, int node,
			   uint64_t pa)
{
	if (!pa || node < 0)
		return;
	nodeset[node / 64] |= 1ULL << (node % 64);
	if (*paddr != pa) {
		(*cnt)++;
		*paddr = pa;
	}
}

/* One sample of cell key @key and weight @w into extension @x: one pass over the cells in use
 * finds the key's cell (or the free one after them) and sums the cells of its cycles mean. */
static void cltab_ext_add(struct cltab *t, struct cltab_ext *x, uint32_t key, uint64_t w)
{
	uint32_t cyc1 = cltab_key_cyc1(key), n = 0, *next = &x->more;
	struct cltab_cell *c = x->cell, *end = c + CLTAB_CELLS;
	int found = 0;

	for (;;) {
		for (; c < end && c->n; c++) {
			if (c->key == key) {
				c->n++;
				found = 1;
				if (!cyc1)
					return;
			}
			if (cltab_key_cyc1(c->key) == cyc1)
				n += c->n;
		}
		if (c < end || !*next)
			break;
		{
			struct cltab_cellblk *b = cltab_at(&t->blks, *next - 1);

			c = b->c;
			end = c + CLTAB_BLK_CELLS;
			next = &b->next;
		}
	}
	if (!found) {
		if (c == end) {       /* every cell in use: a new block */
			uint32_t idx;

			c = ((struct cltab_cellblk *)cltab_arr_new(&t->blks, &idx))->c;
			*next = idx + 1;
		}
		c->key = key;
		c->n = 1;
		n++;
	}
	/* perf's update_stats(): n += 1; delta = w - mean; mean += delta / n */
	if (cyc1)
		x->mean[cyc1 - 1] += ((double)w - x->mean[cyc1 - 1]) / (double)n;
}

/* The extension of entry @e, made at first use: it takes over the inline sample exactly. */
static struct cltab_ext *cltab_ent_ext_new(struct cltab *t, struct cltab_ent *e)
{
	struct cltab_ext *x;
	uint32_t idx;

	x = cltab_arr_new(&t->exts, &idx);
	e->ext = idx + 1;
	if (cltab_cpu0(e))
		cltab_set_bit(cltab_ext_cpuset(x), cltab_cpu0(e) - 1);
	if (cltab_mnode0(e))
		cltab_set_bit(cltab_ext_nodeset(t, x), cltab_mnode0(e) - 1);
	x->paddr_cnt = cltab_mnode0(e) != 0;   /* an inline sample with a node changed the PA */
	if (e->key0)
		cltab_ext_add(t, x, e->key0 - 1, e->w0);
	e->key0 = e->cm0 = 0;                  /* now: no touch block (tblk, tcls, tnr) */
	return x;
}

static inline struct cltab_ext *cltab_ent_ext(struct cltab *t, struct cltab_ent *e)
{
	return e->ext ? cltab_at(&t->exts, e->ext - 1) : cltab_ent_ext_new(t, e);
}

/* The hash of (entry, thread) from the entry key's hash @eh (cltab_okey_hash(), known before
 * the entry is found): @eh's high bits, which the table indexes by, are already mixed. */
static inline uint64_t cltab_tkey_hash(uint64_t eh, const struct maps_thread *th)
{
	return eh ^ (uintptr_t)th * 0xc2b2ae3d27d4eb4fULL;
}

/* The touch record of (entry @ent, thread number @thr) of hash @hv, created on first use. */
static struct cltab_trec *cltab_findnew_touch(struct cltab *t, uint32_t ent, uint64_t hv,
					      uint32_t thr)
{
	struct cltab_trec *r;
	uint32_t idx;
	size_t j;

	for (j = cltab_home(&t->thash, hv); t->thash.slot[j].idx; j = cltab_next(&t->thash, j)) {
		if (t->thash.slot[j].h != cltab_hkey(hv))
			continue;
		r = cltab_at(&t->touches, t->thash.slot[j].idx - 1);
		if (r->ent == ent && r->thread == thr)
			return r;
	}
	r = cltab_arr_new(&t->touches, &idx);
	r->ent = ent;
	r->thread = thr;
	cltab_hash_put(&t->thash, j, cltab_hkey(hv), idx);
	return r;
}

/* @dst[0..7] += @src[0..7], as one cltab_v8. */
static inline void cltab_v8_add(uint32_t *dst, const uint32_t *src)
{
	cltab_v8 a, b;

	memcpy(&a, dst, sizeof(a));
	memcpy(&b, src, sizeof(b));
	a += b;
	memcpy(dst, &a, sizeof(a));
}

static void cltab_touch_add(struct cltab_trec *r, const struct cltab_class *c)
{
	cltab_v8_add(r->n, c->tn);
}

static inline struct cltab_trow *cltab_tblk(const struct cltab *t, uint32_t cls, uint32_t blk)
{
	return cltab_at(&t->tblks[cls], blk - 1);
}

/* A touch block of size class @cls: a freed one, or a new one. */
static uint32_t cltab_tblk_new(struct cltab *t, uint32_t cls)
{
	uint32_t idx;

	if (t->tfree[cls]) {
		idx = t->tfree[cls];
		t->tfree[cls] = cltab_tblk(t, cls, idx)->v[0];
		return idx;
	}
	cltab_arr_new(&t->tblks[cls], &idx);
	return idx + 1;
}

/* A sample of class @c by thread number @thr (not the entry's first) into entry @e (number
 * @eidx, with its extension; @th: the touch hash, cltab_tkey_hash()). */
static void cltab_touch(struct cltab *t, struct cltab_ent *e, uint32_t eidx, uint32_t thr,
			uint64_t th, const struct cltab_class *c)
{
	struct cltab_trow *r = e->tblk ? cltab_tblk(t, e->tcls, e->tblk) : NULL;
	uint32_t i, j;

	/* which record is the thread's is as random as the threads' turns: no branch on it */
	for (j = 0, i = e->tnr; j < e->tnr; j++)
		i = r[j].v[0] == thr + 1 ? j : i;
	if (i == e->tnr) {
		if (i == CLTAB_TB_MAX) {
			cltab_touch_add(cltab_findnew_touch(t, eidx, th, thr), c);
			return;
		}
		if (!e->tblk || i == 1u << e->tcls) {   /* none yet, or full: the next size */
			uint32_t cls = e->tblk ? e->tcls + 1u : 0, blk = cltab_tblk_new(t, cls);
			struct cltab_trow *n = cltab_tblk(t, cls, blk);

			if (e->tblk) {
				memcpy(n, r, i * sizeof(*r));
				r->v[0] = t->tfree[e->tcls];
				t->tfree[e->tcls] = e->tblk;
			}
			e->tblk = blk;
			e->tcls = (uint8_t)cls;
			r = n;
		}
		memset(&r[i], 0, sizeof(r[i]));
		r[i].v[0] = thr + 1;
		e->tnr++;
	}
	cltab_v8_add(r[i].v, c->tv);
}

/* Fold one resolved sample into its line and offset entries (found or created already). */
static void cltab_account(struct cltab *t, const struct cltab_sample *s, struct cltab_lrec *l,
			  struct cltab_ent *e, uint32_t eidx, uint32_t thr, uint64_t th)
{
	uint32_t ck = cltab_class(t, s), cls = cltab_key_cls(ck);
	uint32_t cpu = s->cpu == TRACE_CPU_NONE ? 0 : s->cpu;
	uint32_t key = ck | (cpu < t->opts.nr_cpus ? t->cpu_nd[cpu] : CLTAB_NO_NODE) << CLTAB_NODE_SHIFT;
	int mnode = -1;
	struct cltab_ext *x = NULL;   /* e's extension once looked up */

	t->counts.samples++;
	t->cls_n[cls]++;
	if (s->chain)
		callers_count(t->callers, eidx, s->chain);
	/* the first sample is kept inline; the second moves both into an extension, replaying the
	 * first exactly (a weight that does not fit w0 goes there at once) */
	if (!e->ext && !e->key0 && s->weight <= UINT32_MAX) {
		e->key0 = key + 1;
		e->w0 = (uint32_t)s->weight;
	} else {
		x = cltab_ent_ext(t, e);
		cltab_ext_add(t, x, key, s->weight);
	}
	if (thr != e->thread)   /* never the entry's first sample: the extension exists */
		cltab_touch(t, e, eidx, thr, th, &t->cls[cls]);
	if (s->cpu == TRACE_CPU_NONE)
		t->counts.no_cpu++;
	else if (s->cpu >= t->opts.nr_cpus)
		t->counts.bad_cpu++;
	else if (!e->ext && s->cpu < CLTAB_CM0_CPU_MAX)
		e->cm0 = (e->cm0 & ~CLTAB_CM0_CPU_MAX) | (s->cpu + 1);
	else
		cltab_set_bit(cltab_ext_cpuset(x ? x : (x = cltab_ent_ext(t, e))), s->cpu);
	if (s->phys_addr) {
		mnode = cltab_mem_node(t, s->phys_addr);
		if (mnode < 0)
			t->counts.no_node++;
	}
	cltab_set_node(cltab_lrec_nodeset(l), &l->paddr, &l->paddr_cnt, mnode, s->phys_addr);
	if (s->phys_addr && mnode >= 0) {   /* cltab_set_node() with a u32 count */
		if (!e->ext && (uint32_t)mnode < CLTAB_CM0_NODE_MAX)
			e->cm0 = (e->cm0 & CLTAB_CM0_CPU_MAX) | ((uint32_t)mnode + 1) << CLTAB_CM0_CPU;
		else
			cltab_set_bit(cltab_ext_nodeset(t, x ? x : (x = cltab_ent_ext(t, e))),
				      (uint32_t)mnode);
		if (e->paddr != s->phys_addr) {
			if (e->ext)   /* inline: the one sample with a node, a count of 1 */
				(x ? x : (x = cltab_ent_ext(t, e)))->paddr_cnt++;
			e->paddr = s->phys_addr;
		}
	}
}

/* Prefetch the element a probe of @h for @hv would find (looking at the first slots only). */
static inline void cltab_prefetch_home(const struct cltab_hash *h, const struct cltab_arr *a,
				       uint64_t hv)
{
	size_t j = cltab_home(h, hv), k;

	for (k = 0; k < 4 && h->slot[j].idx; k++, j = cltab_next(h, j)) {
		if (h->slot[j].h == cltab_hkey(hv)) {
			const char *p = cltab_at(a, h->slot[j].idx - 1);

			__builtin_prefetch(p, 1);
			__builtin_prefetch(p + a->esize - 1, 1);
			return;
		}
	}
}

/* Add the pending samples in order, in passes so that the cache misses of different samples
 * overlap: hash the keys of line, entry and touch record (an entry's hash is its line key's
 * with its own, a touch record's its entry's with the thread: none needs the line or entry
 * found first) and prefetch the line and entry slots; prefetch the line and entry the slots
 * name; find the lines and entries and prefetch their extensions and touch blocks (and the touch
 * hash's slot for an entry whose block is full); account (lookups never depend on what
 * accounting changes). Lines, entries and touches are still created and updated in
 * sample order, so "first sample" properties and PA counts are those of one-by-one processing.
 * Small tables too: with nothing to wait for, the passes are loops of independent work (faster
 * than one pass a sample at 10 lines as at 100k). */
static void cltab_flush_from(struct cltab *t, const struct cltab_pend *pd, size_t n);

static void cltab_route_stage(struct cltab *t);

/* Add the pending samples (routing the staged ones first). */
static void cltab_flush(struct cltab *t)
{
	size_t n;

	if (t->nr_stage)
		cltab_route_stage(t);
	n = t->nr_pending;

	t->nr_pending = 0;
	cltab_flush_from(t, t->pending, n);
}

/* Add @n (at most CLTAB_PENDING) resolved samples @pd. */
static void cltab_flush_from(struct cltab *t, const struct cltab_pend *pd, size_t n)
{
	uint32_t line[CLTAB_PENDING], eidx[CLTAB_PENDING], lsp[CLTAB_PENDING], thr[CLTAB_PENDING];
	struct cltab_ent *ent[CLTAB_PENDING];
	uint64_t lcl[CLTAB_PENDING], hl[CLTAB_PENDING], he[CLTAB_PENDING], ht[CLTAB_PENDING];
	size_t i;

	for (i = 0; i < n; i++) {
		lsp[i] = cltab_sample_space(t, &pd[i], &lcl[i]);
		hl[i] = cltab_lkey_hash(lsp[i], lcl[i]);
		he[i] = cltab_okey_hash(t, hl[i], &pd[i]);
		ht[i] = cltab_tkey_hash(he[i], pd[i].s.thread);
		thr[i] = cltab_ptr_id(&t->thr, pd[i].s.thread);
		__builtin_prefetch(&t->lhash.slot[cltab_home(&t->lhash, hl[i])]);
		__builtin_prefetch(&t->ehash.slot[cltab_home(&t->ehash, he[i])]);
	}
	for (i = 0; i < n; i++) {
		cltab_prefetch_home(&t->lhash, &t->lines, hl[i]);
		cltab_prefetch_home(&t->ehash, &t->ents, he[i]);
	}
	for (i = 0; i < n; i++) {
		line[i] = cltab_findnew_line(t, &pd[i], lsp[i], lcl[i], hl[i]);
		ent[i] = cltab_findnew_ent(t, line[i], &pd[i], he[i], &eidx[i]);
		if (ent[i]->ext) {
			const char *x = cltab_at(&t->exts, ent[i]->ext - 1);

			__builtin_prefetch(x, 1);
			__builtin_prefetch(x + t->exts.esize - 1, 1);
			if (ent[i]->tblk) {
				const char *b = (const char *)cltab_tblk(t, ent[i]->tcls,
									 ent[i]->tblk);

				__builtin_prefetch(b, 1);
				__builtin_prefetch(b + t->tblks[ent[i]->tcls].esize - 1, 1);
			}
			if (ent[i]->tnr == CLTAB_TB_MAX)
				__builtin_prefetch(&t->thash.slot[cltab_home(&t->thash, ht[i])]);
		}
	}
	for (i = 0; i < n; i++)
		cltab_account(t, &pd[i].s, cltab_lrec(t, line[i]), ent[i], eidx[i], thr[i], ht[i]);
}

/* --- parallel tables -------------------------------------------------------------------------- */

static void cltab_sum(struct cltab *t);

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
static void cltab_route_stage(struct cltab *t)
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

/* Stage the sample resolved in place at t->stage[t->nr_stage] for routing. */
static inline void cltab_stage(struct cltab *t)
{
	if (++t->nr_stage == CLTAB_PENDING)
		cltab_route_stage(t);
}

static void cltab_start_workers(struct cltab *t, uint32_t n)
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
static void cltab_join(struct cltab *t)
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

/* --- finishing ------------------------------------------------------------------------------ */

uint32_t cltab_metric(enum cltab_display d, const struct dsrc_stats *st)
{
	switch (d) {
	case CLTAB_DISPLAY_RMT:
		return st->rmt_hitm;
	case CLTAB_DISPLAY_LCL:
		return st->lcl_hitm;
	case CLTAB_DISPLAY_PEER:
		return st->tot_peer;
	case CLTAB_DISPLAY_TOT:
	default:
		return st->tot_hitm;
	}
}

static int cltab_u32_desc(uint32_t a, uint32_t b)
{
	return (a < b) - (a > b);
}

/* perf's iaddr comparator subtracts: (int64_t)(a - b) decides, so far-apart addresses wrap. */
static int cltab_ip_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return (d > 0) - (d < 0);
}

static int cltab_off_token_cmp(const struct cltab_opts *op, const struct cltab_offset *a,
			       const struct cltab_offset *b)
{
	int i, c = 0;

	for (i = 0; i < op->nr_coalesce && !c; i++) {
		switch (op->coalesce[i]) {
		case CLTAB_CO_IADDR:
			c = cltab_ip_cmp(a->ip, b->ip);
			break;
		case CLTAB_CO_PID:  /* perf's pid comparator is reversed (c2c-semantics.md §5.3) */
			c = (a->thread->pid < b->thread->pid) - (a->thread->pid > b->thread->pid);
			break;
		case CLTAB_CO_TID:
			c = (a->thread->tid > b->thread->tid) - (a->thread->tid < b->thread->tid);
			break;
		case CLTAB_CO_DSO:
			if (!a->dso_key || !b->dso_key)
				c = (a->dso_key == NULL) - (b->dso_key == NULL);
			else
				c = strcmp(a->dso_key, b->dso_key);
			break;
		}
	}
	return c;
}

int cltab_offset_order(const struct cltab_opts *op, enum cltab_display d,
		       const struct cltab_offset *a, const struct cltab_offset *b)
{
	int c = (a->offset > b->offset) - (a->offset < b->offset);

	if (c)
		return c;
	switch (d) {
	case CLTAB_DISPLAY_RMT:
		c = cltab_u32_desc(a->stats.rmt_hitm, b->stats.rmt_hitm);
		if (!c)
			c = cltab_u32_desc(a->stats.lcl_hitm, b->stats.lcl_hitm);
		break;
	case CLTAB_DISPLAY_LCL:
		c = cltab_u32_desc(a->stats.lcl_hitm, b->stats.lcl_hitm);
		if (!c)
			c = cltab_u32_desc(a->stats.rmt_hitm, b->stats.rmt_hitm);
		break;
	case CLTAB_DISPLAY_PEER:
		c = cltab_u32_desc(a->stats.tot_peer, b->stats.tot_peer);
		break;
	case CLTAB_DISPLAY_TOT:
	default:
		c = cltab_u32_desc(a->stats.tot_hitm, b->stats.tot_hitm);
		break;
	}
	return c ? c : cltab_off_token_cmp(op, a, b);
}

static int cltab_off_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltab_offset *a = *(struct cltab_offset *const *)pa;
	const struct cltab_offset *b = *(struct cltab_offset *const *)pb;
	const struct cltab *t = arg;
	int c = cltab_offset_order(&t->opts, t->opts.display, a, b);

	if (c)
		return c;
	/* Only entries differing in fields outside the key reach here: creation order is stable. */
	return (a < b) ? -1 : (a > b);
}

static int cltab_is_shared(const struct dsrc_stats *st)
{
	return st->lcl_hitm || st->rmt_hitm || st->lcl_peer || st->rmt_peer;
}

uint32_t cltab_set_count(const struct cltab *t, const uint64_t *set, uint32_t nbits)
{
	uint32_t i, n = 0, words = (nbits + 63) / 64;

	(void)t;
	for (i = 0; i < words; i++) {
		uint64_t w = set[i];

		if (i == words - 1 && nbits % 64)
			w &= (1ULL << (nbits % 64)) - 1;
		n += (uint32_t)__builtin_popcountll(w);
	}
	return n;
}


/* --- finishing ------------------------------------------------------------------------------ */

/* *dst += n * *src, field by field (u32 arithmetic: the same as n additions). */
static void cltab_stats_madd(struct dsrc_stats *dst, const struct dsrc_stats *src, uint32_t n)
{
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	size_t i;

	for (i = 0; i < sizeof(*dst); i += sizeof(cltab_v8)) {
		cltab_v8 a, b;

		memcpy(&a, d + i, sizeof(a));
		memcpy(&b, s + i, sizeof(b));
		a += b * n;
		memcpy(d + i, &a, sizeof(a));
	}
}

/* Run @body with @c pointing to every cell in use of extension @e. */
#define CLTAB_FOR_CELLS(t, e, c, body)                                                      \
	do {                                                                                \
		const struct cltab_cell *c_ = (e)->cell, *end_ = c_ + CLTAB_CELLS;           \
		uint32_t next_ = (e)->more;                                                 \
		for (;;) {                                                                  \
			for (; c_ < end_; c_++) {                                           \
				const struct cltab_cell *c = c_;                            \
				if (c->n) { body; }                                         \
			}                                                                   \
			if (!next_)                                                         \
				break;                                                      \
			{                                                                   \
				const struct cltab_cellblk *b_ = cltab_at(&(t)->blks, next_ - 1); \
				c_ = b_->c;                                                 \
				end_ = c_ + CLTAB_BLK_CELLS;                                \
				next_ = b_->next;                                           \
			}                                                                   \
		}                                                                           \
	} while (0)

/* The samples of extension @x whose class has cycles mean @cyc: the sum of those cells (u32
 * arithmetic, as a u32 count of each sample would wrap). */
static uint32_t cltab_cyc_n(const struct cltab *t, const struct cltab_ext *x, int cyc)
{
	uint32_t n = 0;

	CLTAB_FOR_CELLS(t, x, c, if (cltab_key_cyc1(c->key) == (uint32_t)cyc + 1) n += c->n);
	return n;
}

/* Add entry @e's counters to *st and, when @node_stats, to its node blocks. */
static void cltab_ent_stats(const struct cltab *t, const struct cltab_ent *e,
			    struct dsrc_stats *st, struct dsrc_stats *node_stats)
{
	const struct cltab_ext *x;

	if (!e->ext) {
		uint32_t cls = cltab_key_cls(e->key0 - 1), node = cltab_key_node(e->key0 - 1);

		if (!e->key0)
			return;
		dsrc_add(st, &t->cls[cls].st);
		if (node_stats && node != CLTAB_NO_NODE)
			dsrc_add(&node_stats[node], &t->cls[cls].st);
		return;
	}
	x = cltab_at(&t->exts, e->ext - 1);
	CLTAB_FOR_CELLS(t, x, c, {
		const struct dsrc_stats *cst = &t->cls[cltab_key_cls(c->key)].st;

		cltab_stats_madd(st, cst, c->n);
		if (node_stats && cltab_key_node(c->key) != CLTAB_NO_NODE)
			cltab_stats_madd(&node_stats[cltab_key_node(c->key)], cst, c->n);
	});
}

static void cltab_class_total(const struct cltab *t, struct dsrc_stats *st)
{
	uint32_t c;

	memset(st, 0, sizeof(*st));
	for (c = 0; c < t->nr_cls; c++)
		cltab_stats_madd(st, &t->cls[c].st, t->cls_n[c]);
}

/* A line of one shard (the table itself when it has no shards). */
struct cltab_lref {
	struct cltab *sh;
	uint32_t idx;
};

static int cltab_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltab_lref *a = pa, *b = pb;
	const struct cltab *t = arg;
	uint64_t sa, sb;
	int c = cltab_u32_desc(cltab_metric(t->opts.display, &a->sh->lst[a->idx]),
			       cltab_metric(t->opts.display, &b->sh->lst[b->idx]));

	if (c)
		return c;
	{
		const struct cltab_lrec *la = cltab_lrec(a->sh, a->idx), *lb = cltab_lrec(b->sh, b->idx);

		c = cltab_lkey_cmp(cltab_space_at(a->sh, la->space), la->cl,
				   cltab_space_at(b->sh, lb->space), lb->cl);
	}
	if (c)
		return c;
	/* Equal perf keys (a private anon line against a shared one): input order. */
	sa = cltab_lcold(a->sh, a->idx)->seq;
	sb = cltab_lcold(b->sh, b->idx)->seq;
	return (sa > sb) - (sa < sb);
}

static int cltab_line_shown(const struct cltab *t, const struct dsrc_stats *st)
{
	uint32_t tot = cltab_metric(t->opts.display, &t->shared);

	if (t->opts.show_all)
		return 1;
	return tot && (double)cltab_metric(t->opts.display, st) / tot >= CLTAB_DISPLAY_LIMIT;
}

static size_t cltab_off_size(const struct cltab *t)
{
	return sizeof(struct cltab_offset) + t->opts.nr_nodes * sizeof(struct dsrc_stats) +
	       (t->cpu_words + t->node_words) * sizeof(uint64_t);
}

static void cltab_fill_offset(const struct cltab *t, struct cltab_offset *o,
			      const struct cltab_line *l, struct cltab_ent *e)
{
	int i;

	o->line = l;
	o->offset = e->offset;
	o->disp_offset = e->disp_offset;
	o->ip = e->ip;
	o->cpumode = l->cpumode;   /* part of the line key: every sample of the entry has it */
	if (t->opts.phys)          /* not of a physical line's: the kernel half of a 64-bit space */
		o->cpumode = e->ip >> 63 ? MAPS_CPUMODE_KERNEL : MAPS_CPUMODE_USER;
	o->thread = cltab_thread(t, e->thread);
	o->cmap = cltab_cmap(t, e->cmap);
	o->code_al = maps_rel_addr(o->cmap, e->ip);
	o->dso_key = cltab_dso_key(o->cmap);
	o->node_stats = (struct dsrc_stats *)(o + 1);
	o->cpuset = (uint64_t *)(o->node_stats + t->opts.nr_nodes);
	o->nodeset = o->cpuset + t->cpu_words;
	cltab_ent_stats(t, e, &o->stats, o->node_stats);
	if (e->ext) {
		const struct cltab_ext *x = cltab_at(&t->exts, e->ext - 1);

		for (i = 0; i < CLTAB_CYC_NR; i++) {
			o->cycles[i].n = (double)cltab_cyc_n(t, x, i);
			o->cycles[i].mean = x->mean[i];
		}
	} else if (e->key0 && cltab_key_cyc1(e->key0 - 1)) {
		i = (int)cltab_key_cyc1(e->key0 - 1) - 1;
		o->cycles[i].n = 1;
		o->cycles[i].mean = (double)e->w0;   /* 0 + (w - 0) / 1 */
	}
	memset(o->cpuset, 0, (t->cpu_words + t->node_words) * sizeof(uint64_t));
	cltab_ent_sets(t, e, o->cpuset, o->nodeset);
	o->paddr = e->paddr;
	o->paddr_cnt = e->ext ? ((const struct cltab_ext *)cltab_at(&t->exts, e->ext - 1))->paddr_cnt
			      : cltab_mnode0(e) != 0;
}

/* The public struct of displayed line @idx with room for its @n offsets (filled later, nr_off
 * counts them); one allocation. */
static struct cltab_line *cltab_new_line(struct cltab *t, uint32_t idx,
					 const struct dsrc_stats *st, size_t n)
{
	struct cltab_lrec *r = cltab_lrec(t, idx);
	const struct cltab_space *sp = cltab_space_at(t, r->space);
	struct cltab_lcold *rc = cltab_lcold(t, idx);
	size_t lsz = (sizeof(struct cltab_line) + t->node_words * sizeof(uint64_t) + 7) & ~(size_t)7;
	unsigned char *mem = xcalloc(1, lsz + n * (sizeof(struct cltab_offset *) +
						  cltab_off_size(t)));
	struct cltab_line *l = (struct cltab_line *)mem;

	l->cpumode = t->opts.phys ? rc->cpumode : sp->cpumode;
	l->dmap = rc->dmap;
	l->key_pid = sp->pid;
	l->cl = r->cl;
	l->addr = t->opts.phys ? r->cl : rc->addr;
	l->vaddr = rc->addr;
	l->stats = *st;
	l->nodeset = (uint64_t *)(l + 1);
	memcpy(l->nodeset, cltab_lrec_nodeset(r), t->node_words * sizeof(uint64_t));
	l->paddr = r->paddr;
	l->paddr_cnt = r->paddr_cnt;
	l->off = (struct cltab_offset **)(mem + lsz);
	l->cap_off = n;
	l->shared = cltab_is_shared(st);
	return l;
}

/* Append entry @e to its displayed line @l (entries come in creation order). */
static struct cltab_offset *cltab_line_append(struct cltab *t, struct cltab_line *l,
					      struct cltab_ent *e)
{
	unsigned char *obase = (unsigned char *)(l->off + l->cap_off);
	struct cltab_offset *o = (struct cltab_offset *)(obase + l->nr_off * cltab_off_size(t));

	l->off[l->nr_off++] = o;
	cltab_fill_offset(t, o, l, e);
	return o;
}

/* Sort a displayed line's offsets and resolve their symbols. */
static void cltab_finish_offsets(struct cltab *t, struct cltab_line *l)
{
	size_t i;

	/* creation order is address order: the comparator's last tie-break keeps it */
	qsort_r(l->off, l->nr_off, sizeof(*l->off), cltab_off_cmp, t);
	for (i = 0; i < l->nr_off; i++) {
		struct cltab_offset *o = l->off[i];

		o->visible = o->stats.store || cltab_metric(t->opts.display, &o->stats);
		o->cpu_cnt = cltab_set_count(t, o->cpuset, t->opts.nr_cpus);
		if (t->opts.sym)
			o->has_sym = !t->opts.sym(t->opts.sym_ctx, o->cmap, o->cpumode, o->ip,
						  o->code_al, &o->code) && o->code.symbol;
	}
}

/* The entry's first thread gets all its counts; the other threads' are taken off later. */
static void cltab_first_touch(struct cltab_offset *o)
{
	const struct dsrc_stats *st = &o->stats;

	o->touch = xcalloc(1, sizeof(*o->touch));
	o->nr_touch = 1;
	o->touch[0].thread = o->thread;
	o->touch[0].n[CLTAB_T_LD] = st->load;
	o->touch[0].n[CLTAB_T_ST] = st->store;
	o->touch[0].n[CLTAB_T_LOCK] = st->locks;
	o->touch[0].n[CLTAB_T_LCL_HITM] = st->lcl_hitm;
	o->touch[0].n[CLTAB_T_RMT_HITM] = st->rmt_hitm;
	o->touch[0].n[CLTAB_T_LCL_PEER] = st->lcl_peer;
	o->touch[0].n[CLTAB_T_RMT_PEER] = st->rmt_peer;
}

static int cltab_frame_sym(void *ctx, const struct callers_frame *f, const char **symbol,
			   uint64_t *start)
{
	const struct cltab *t = ctx;
	struct cltab_code code = { 0 };

	if (!f->map || t->opts.sym(t->opts.sym_ctx, f->map, f->cpumode, f->ip, f->al, &code) ||
	    !code.symbol)
		return -1;
	*symbol = code.symbol;
	*start = f->ip - code.sym_offset;
	return 0;
}

/* The chains of entry @idx, their frames resolved to symbols. */
static void cltab_offset_callers(struct cltab *t, struct cltab_offset *o, uint32_t idx)
{
	o->nr_callers = callers_of_row(t->callers, idx, &o->callers);
	for (size_t k = 0; k < o->nr_callers; k++)
		callers_resolve(t->callers, o->callers[k].chain,
				t->opts.sym ? cltab_frame_sym : NULL, t);
}

/* The displayed lines' offsets and touches from shard @sh (@pos: its lines' display index + 1). */
/* A displayed entry's offset struct, by entry number. */
struct cltab_eoff {
	uint32_t ent;
	struct cltab_offset *o;
};

static int cltab_eoff_cmp(const void *key, const void *elem)
{
	uint32_t a = *(const uint32_t *)key, b = ((const struct cltab_eoff *)elem)->ent;

	return (a > b) - (a < b);
}

static struct cltab_offset *cltab_eoff_find(const struct cltab_eoff *v, size_t n, uint32_t ent)
{
	const struct cltab_eoff *e = n ? bsearch(&ent, v, n, sizeof(*v), cltab_eoff_cmp) : NULL;

	return e ? e->o : NULL;
}

/* Append thread number @thr's counters @n to @o's touches (taking them from the first thread's,
 * touch[0]). */
static void cltab_other_touch(const struct cltab *sh, struct cltab_offset *o, uint32_t thr,
			      const uint32_t *n)
{
	struct cltab_touch *ot;
	int k;

	if (!(o->nr_touch & (o->nr_touch + 1)))   /* full at 1, 3, 7, ... */
		o->touch = xrealloc(o->touch, (o->nr_touch * 2 + 1) * sizeof(*o->touch));
	ot = &o->touch[o->nr_touch++];
	ot->thread = cltab_thread(sh, thr);
	memcpy(ot->n, n, sizeof(ot->n));
	for (k = 0; k < CLTAB_T_NR; k++)
		o->touch[0].n[k] -= n[k];
}

static void cltab_block_touches(const struct cltab *sh, struct cltab_offset *o,
				const struct cltab_trow *r, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		cltab_other_touch(sh, o, r[i].v[0] - 1, &r[i].v[1]);
}

static void cltab_build_shard(struct cltab *t, struct cltab *sh, const uint32_t *pos)
{
	struct cltab_eoff *eoff = NULL;   /* by entry number: a table of every entry would be
					   * read at random by the touches, faulting it all in */
	size_t i, nr_eoff = 0, cap_eoff = 0;

	for (i = 0; i < sh->ents.nr; i++) {
		struct cltab_ent *e = cltab_ent(sh, (uint32_t)i);
		struct cltab_offset *o;

		if (!pos[e->line])
			continue;
		o = cltab_line_append(sh, t->shown[pos[e->line] - 1], e);
		cltab_first_touch(o);
		if (e->ext && e->tblk)
			cltab_block_touches(sh, o, cltab_tblk(sh, e->tcls, e->tblk), e->tnr);
		if (t->callers)
			cltab_offset_callers(t, o, (uint32_t)i);
		eoff = xgrow(eoff, &cap_eoff, nr_eoff + 1, sizeof(*eoff));
		eoff[nr_eoff++] = (struct cltab_eoff){ (uint32_t)i, o };
	}
	/* the other threads' touches of the displayed entries, in creation order */
	for (i = 0; i < sh->touches.nr; i++) {
		const struct cltab_trec *r = cltab_at(&sh->touches, (uint32_t)i);
		struct cltab_offset *o;

		if (!pos[cltab_ent(sh, r->ent)->line] ||
		    !(o = cltab_eoff_find(eoff, nr_eoff, r->ent)))
			continue;
		cltab_other_touch(sh, o, r->thread, r->n);
	}
	free(eoff);
}

/* The tables of a sharded table: its workers' and, last, its own (the lines it held when the
 * workers started). */
static uint32_t cltab_nr_shards(const struct cltab *t)
{
	return t->nr_work + 1;
}

static struct cltab *cltab_shard(const struct cltab *t, uint32_t k)
{
	return k < t->nr_work ? t->work[k].t : (struct cltab *)t;
}

/* Build the displayed lines (@order: in display order) and their offsets. */
static void cltab_build_shown(struct cltab *t, const struct cltab_lref *order, size_t nr)
{
	uint32_t k;
	size_t i;

	t->shown = xcalloc(nr + 1, sizeof(*t->shown));
	for (i = 0; i < nr; i++) {
		struct cltab *sh = order[i].sh;
		struct cltab_line *l = cltab_new_line(sh, order[i].idx, &sh->lst[order[i].idx],
						      sh->lcnt[order[i].idx]);

		l->index = (uint32_t)i;
		t->shown[i] = l;
	}
	t->nr_shown = nr;
	for (k = 0; nr && k < cltab_nr_shards(t); k++) {
		struct cltab *sh = cltab_shard(t, k);
		uint32_t *pos = xcalloc(sh->lines.nr ? sh->lines.nr : 1, sizeof(*pos));

		for (i = 0; i < nr; i++)
			if (order[i].sh == sh)
				pos[order[i].idx] = (uint32_t)i + 1;
		cltab_build_shard(t, sh, pos);
		free(pos);
	}
	for (i = 0; i < nr; i++)
		cltab_finish_offsets(t, t->shown[i]);
}

/* With this many classes at most, the lines are summed by class counts. */
#define CLTAB_SUM_CLS 32

/* The line sums (lst, lcnt) from a count of each line's samples by class: the entries add a
 * u32 each to a block of rows that mostly stays in the caches (nr_cls u32s a line), not 128
 * bytes each to the sums, which do not; then each line's sum is its counts times the classes'
 * blocks (u32 arithmetic: the same as one addition per sample). */
static void cltab_sum_by_class(struct cltab *t)
{
	uint32_t nc = t->nr_cls ? t->nr_cls : 1, i, k;
	size_t size = (size_t)t->nr_lsum * nc * sizeof(uint32_t);
	uint32_t *cnt = cltab_zalloc(size);

	for (i = 0; i < t->ents.nr; i++) {
		const struct cltab_ent *e = cltab_ent(t, i);
		uint32_t *row = cnt + (size_t)e->line * nc;

		t->lcnt[e->line]++;
		if (!e->ext) {
			if (e->key0)
				row[cltab_key_cls(e->key0 - 1)]++;
			continue;
		}
		CLTAB_FOR_CELLS(t, (const struct cltab_ext *)cltab_at(&t->exts, e->ext - 1), c,
				row[cltab_key_cls(c->key)] += c->n);
	}
	for (i = 0; i < t->lines.nr; i++)
		for (k = 0; k < t->nr_cls; k++)
			if (cnt[(size_t)i * nc + k])
				cltab_stats_madd(&t->lst[i], &t->cls[k].st, cnt[(size_t)i * nc + k]);
	cltab_zfree(cnt, size);
}

/* The line sums (lst, lcnt) by adding each entry's counter blocks to its line's. */
static void cltab_sum_by_entry(struct cltab *t)
{
	uint32_t i;

	for (i = 0; i < t->ents.nr; i++) {
		struct cltab_ent *e = cltab_ent(t, i);

		if (i + 16 < t->ents.nr) {
			const struct dsrc_stats *p = &t->lst[cltab_ent(t, i + 16)->line];

			__builtin_prefetch(p, 1);
			__builtin_prefetch((const char *)p + 64, 1);
		}
		cltab_ent_stats(t, e, &t->lst[e->line], NULL);
		t->lcnt[e->line]++;
	}
}

/* Fold what is pending, drop the key tables, and sum the lines (lst, lcnt), the total and the
 * shared lines of this table or shard. */
static void cltab_sum(struct cltab *t)
{
	uint32_t nr, i;

	cltab_flush(t);
	t->finished = 1;
	/* no sample comes any more: the key lookups go before the summing allocates */
	cltab_zfree(t->lhash.slot, t->lhash.cap * sizeof(*t->lhash.slot));
	cltab_zfree(t->ehash.slot, t->ehash.cap * sizeof(*t->ehash.slot));
	t->lhash.slot = t->ehash.slot = NULL;
	t->lhash.cap = t->ehash.cap = 0;
	nr = t->lines.nr;
	cltab_class_total(t, &t->total);
	/* one block, in huge pages when large: the entries add to their lines in random order */
	t->nr_lsum = nr ? nr : 1;
	t->lst = cltab_zalloc(cltab_lsum_size(t));
	t->lcnt = (uint32_t *)(t->lst + t->nr_lsum);
	if (t->nr_cls <= CLTAB_SUM_CLS)
		cltab_sum_by_class(t);
	else
		cltab_sum_by_entry(t);
	for (i = 0; i < nr; i++) {
		if (cltab_is_shared(&t->lst[i])) {
			t->nr_shared++;
			dsrc_add(&t->shared, &t->lst[i]);
		}
	}
}

/* The shards' sums into the table (u32 sums: the order of addition does not matter). */
static void cltab_merge(struct cltab *t)
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

/* Filter the summed lines for the display mode, sort and build them (t->shown). */
static void cltab_show(struct cltab *t)
{
	struct cltab_lref *order;
	size_t nr_order = 0, nr;
	uint32_t k, i;

	nr = cltab_nr_lines(t);
	/* the filter needs the shared total only: filter first, sort the displayed lines */
	order = xcalloc(nr ? nr : 1, sizeof(*order));
	for (k = 0; k < cltab_nr_shards(t); k++) {
		struct cltab *sh = cltab_shard(t, k);

		for (i = 0; i < sh->lines.nr; i++)
			if (cltab_line_shown(t, &sh->lst[i]))
				order[nr_order++] = (struct cltab_lref){ sh, i };
	}
	if (nr_order)
		qsort_r(order, nr_order, sizeof(*order), cltab_line_cmp, t);
	cltab_build_shown(t, order, nr_order);
	free(order);
}

static void cltab_free_shown(struct cltab *t)
{
	for (size_t i = 0; i < t->nr_shown; i++) {
		for (size_t k = 0; k < t->shown[i]->nr_off; k++)
			free(t->shown[i]->off[k]->touch);
		free(t->shown[i]);
	}
	free(t->shown);
	t->shown = NULL;
	t->nr_shown = 0;
}

void cltab_redisplay(struct cltab *t, enum cltab_display d)
{
	if (!t->finished || !t->opts.keep_sums || d == t->opts.display)
		return;
	cltab_free_shown(t);
	t->opts.display = d;
	cltab_show(t);
}

void cltab_finish(struct cltab *t)
{
	uint32_t k;

	if (t->finished)
		return;
	cltab_sum(t);                /* this thread's own lines */
	if (t->nr_work)
		cltab_merge(t);
	t->finished = 1;
	cltab_show(t);
	for (k = 0; !t->opts.keep_sums && k < cltab_nr_shards(t); k++) {
		struct cltab *sh = cltab_shard(t, k);

		cltab_zfree(sh->lst, cltab_lsum_size(sh));
		sh->lst = NULL;
		sh->lcnt = NULL;
	}
	for (k = 0; k < cltab_nr_shards(t); k++) {
		const struct cltab *sh = cltab_shard(t, k);

		c2c_debug("cacheline table%s: %u lines, %u lcold, %u entries, %u extensions, %u cell "
			  "blocks, %u touches (elements; bytes each %zu %zu %zu %zu %zu %zu); hash "
			  "slots %zu %zu %zu", t->nr_work ? " shard" : "", sh->lines.nr, sh->lcold.nr,
			  sh->ents.nr, sh->exts.nr, sh->blks.nr, sh->touches.nr, sh->lines.esize,
			  sh->lcold.esize, sh->ents.esize, sh->exts.esize, sh->blks.esize,
			  sh->touches.esize, sh->lhash.cap, sh->ehash.cap, sh->thash.cap);
	}
	if (t->counts.no_cpu)
		c2c_warn("no sample cpu value");
	if (t->counts.no_node)
		c2c_warn("failed to find node");
}

/* --- results -------------------------------------------------------------------------------- */

const struct cltab_opts *cltab_opts(const struct cltab *t)
{
	return &t->opts;
}

const struct dsrc_stats *cltab_total(const struct cltab *t)
{
	return &t->total;
}

const struct dsrc_stats *cltab_shared(const struct cltab *t)
{
	return &t->shared;
}

uint32_t cltab_nr_shared(const struct cltab *t)
{
	return t->nr_shared;
}

size_t cltab_nr_lines(const struct cltab *t)
{
	size_t n = 0;
	uint32_t k;

	for (k = 0; k < cltab_nr_shards(t); k++)
		n += cltab_shard(t, k)->lines.nr;
	return n;
}

size_t cltab_nr_offsets(const struct cltab *t)
{
	size_t n = 0;
	uint32_t k;

	for (k = 0; k < cltab_nr_shards(t); k++)
		n += cltab_shard(t, k)->ents.nr;
	return n;
}

struct cltab_line *const *cltab_lines(const struct cltab *t, size_t *nr)
{
	*nr = t->nr_shown;
	return t->shown;
}

const struct callers *cltab_callers(const struct cltab *t)
{
	return t->callers;
}

const struct cltab_counts *cltab_counts(const struct cltab *t)
{
	return &t->counts;
}

uint32_t cltab_node_words(const struct cltab *t)
{
	return t->node_words;
}

uint32_t cltab_nr_node_bits(const struct cltab *t)
{
	return t->node_bits;
}

static int cltab_stats_eq(const struct dsrc_stats *a, const struct dsrc_stats *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Every entry belongs to an existing line; all entries add up to the per-class totals;
 * displayed lines equal the sum of their offsets. */
static int cltab_check_lines(const struct cltab *t)
{
	uint32_t i;

	for (i = 0; i < t->ents.nr; i++)
		if (cltab_ent(t, i)->line >= t->lines.nr)
			return c2c_err(-EBADMSG, "entry %u belongs to line %u of %u", i,
				       cltab_ent(t, i)->line, t->lines.nr);
	return 0;
}

int cltab_check(const struct cltab *t)
{
	struct dsrc_stats sum = { 0 }, total = { 0 }, lsum;
	size_t i, j;
	uint32_t k;
	int rc;

	for (k = 0; k < cltab_nr_shards(t); k++) {
		const struct cltab *sh = cltab_shard(t, k);
		struct dsrc_stats part;

		rc = cltab_check_lines(sh);
		if (rc)
			return rc;
		for (i = 0; i < sh->ents.nr; i++)
			cltab_ent_stats(sh, cltab_ent(sh, (uint32_t)i), &sum, NULL);
		cltab_class_total(sh, &part);
		dsrc_add(&total, &part);
	}
	if (!cltab_stats_eq(&sum, &total))
		return c2c_err(-EBADMSG, "entries do not add up to the total");
	if (t->finished && !cltab_stats_eq(&total, &t->total))
		return c2c_err(-EBADMSG, "the total changed after finishing");
	for (i = 0; i < t->nr_shown; i++) {
		const struct cltab_line *l = t->shown[i];

		memset(&lsum, 0, sizeof(lsum));
		for (j = 0; j < l->nr_off; j++) {
			if (l->off[j]->line != l)
				return c2c_err(-EBADMSG, "offset %zu of line %zu belongs elsewhere", j, i);
			dsrc_add(&lsum, &l->off[j]->stats);
		}
		if (!cltab_stats_eq(&lsum, &l->stats))
			return c2c_err(-EBADMSG, "line %zu: offsets do not add up to the line", i);
	}
	if (sum.nr_entries != (uint32_t)t->counts.samples)
		return c2c_err(-EBADMSG, "%u entries for %llu samples", sum.nr_entries,
			       (unsigned long long)t->counts.samples);
	return 0;
}
