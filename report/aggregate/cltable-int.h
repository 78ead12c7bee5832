/* The cacheline table's private records and helpers, shared by its files (cltable*.c).
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
 * total order (creation order), so the output is deterministic.
 *
 * The table's files, one stage each: cltable.c (storage: arrays, hashes, cltab_new(),
 * cltab_free()), cltable-feed.c (trace events into resolved samples), cltable-accum.c (samples
 * folded into the records), cltable-shard.c (parallel tables: routing, workers, the merge),
 * cltable-finish.c (sums, filter, order: the displayed lines) and cltable-results.c (the public
 * view of a finished table). Callers include report/aggregate/cltable.h only. */
#ifndef C2C_REPORT_CLTABLE_INT_H
#define C2C_REPORT_CLTABLE_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "report/aggregate/cltable.h"

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

/* --- shared between the files ------------------------------------------------------------- */

/* What one file of the table defines for the others (their comments are at the definitions). */
/* cltable.c */
void *cltab_zalloc(size_t size);
void cltab_zfree(void *p, size_t size);
void *cltab_arr_new(struct cltab_arr *a, uint32_t *idx);
void cltab_hash_put(struct cltab_hash *h, size_t j, uint32_t hv, uint32_t idx);
uint32_t cltab_ptr_id_slow(struct cltab_ptrs *s, const void *p, unsigned int m);
/* cltable-accum.c */
uint32_t cltab_sample_space_slow(struct cltab *t, const struct cltab_pend *p, uint64_t *cl);
void cltab_flush(struct cltab *t);
void cltab_flush_from(struct cltab *t, const struct cltab_pend *pd, size_t n);
/* cltable-shard.c */
void cltab_route_stage(struct cltab *t);
void cltab_start_workers(struct cltab *t, uint32_t n);
void cltab_join(struct cltab *t);
void cltab_merge(struct cltab *t);
/* cltable-finish.c */
void cltab_sum(struct cltab *t);
void cltab_free_shown(struct cltab *t);
void cltab_ent_stats(const struct cltab *t, const struct cltab_ent *e, struct dsrc_stats *st,
		     struct dsrc_stats *node_stats);
void cltab_class_total(const struct cltab *t, struct dsrc_stats *st);

static inline void *cltab_at(const struct cltab_arr *a, uint32_t i)
{
	return a->chunk[i >> a->shift] + (size_t)(i & a->mask) * a->esize;
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

/* Bytes of a table's line sums (struct cltab::lst and lcnt). */
#define cltab_lsum_size(t) ((t)->nr_lsum * (sizeof(struct dsrc_stats) + sizeof(uint32_t)))

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

static inline const struct cltab_space *cltab_space_at(const struct cltab *t, uint32_t i)
{
	return cltab_at(&t->spaces, i);
}

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

/* The hash of line key (space, cl). */
static inline uint64_t cltab_lkey_hash(uint32_t space, uint64_t cl)
{
	return cltab_fmix(cl * 0x9e3779b97f4a7c15ULL + (uint64_t)space * 0xd6e8feb86659fd93ULL);
}

static inline const char *cltab_dso_key(const struct maps_map *cmap)
{
	return cmap ? cmap->dso->short_name : NULL;
}

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

static inline void cltab_set_bit(uint64_t *set, uint32_t bit)
{
	set[bit / 64] |= 1ULL << (bit % 64);
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

static inline struct cltab_trow *cltab_tblk(const struct cltab *t, uint32_t cls, uint32_t blk)
{
	return cltab_at(&t->tblks[cls], blk - 1);
}

/* The tables of a sharded table: its workers' and, last, its own (the lines it held when the
 * workers started). */
static inline uint32_t cltab_nr_shards(const struct cltab *t)
{
	return t->nr_work + 1;
}

static inline struct cltab *cltab_shard(const struct cltab *t, uint32_t k)
{
	return k < t->nr_work ? t->work[k].t : (struct cltab *)t;
}

#endif
