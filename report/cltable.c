/* The cacheline table (see report/cltable.h). Lines and offsets live in two open-addressing hash
 * tables of pointers, entries and their bitmaps in a bump allocator, so adding a sample costs two
 * hash probes and no allocation once the entries exist. Sorting and filtering happen once, in
 * cltab_finish(); every comparator ends on a total order so the output is deterministic. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/cltable.h"

#define CLTAB_DISPLAY_LIMIT 0.001  /* perf's DISPLAY_LINE_LIMIT */

struct cltab_slab {
	struct cltab_slab *next;
	size_t used, size;
	_Alignas(16) unsigned char mem[];
};

struct cltab_slot {
	uint64_t hash;        /* compared before the keys */
	void *p;              /* NULL: empty */
};

struct cltab_hash {
	struct cltab_slot *slot;
	size_t cap, nr;
};

#define CLTAB_PENDING 32

struct cltab {
	struct cltab_opts opts;
	struct cltab_sample pending[CLTAB_PENDING];   /* resolved, not yet added */
	size_t nr_pending;
	int32_t *cpu_node;
	struct trace_mem_range *ranges;
	uint64_t cl_mask;
	uint32_t cpu_words, node_bits, node_words;
	struct cltab_slab *slab;
	struct cltab_hash lines, offs;
	struct cltab_line **all;       /* every line, creation order */
	size_t nr_all, cap_all;
	struct cltab_line **shown;
	size_t nr_shown;
	struct dsrc_stats total, shared;
	uint32_t nr_shared;
	struct cltab_counts counts;
	int co_pid, co_tid, co_iaddr, co_dso;   /* coalesce keys in use */
	int finished;
};

/* --- allocation ----------------------------------------------------------------------------- */

#define CLTAB_SLAB (4u << 20)
#define CLTAB_HUGE (2u << 20)

/* Big zeroed blocks, 2 MiB aligned and marked for transparent huge pages: the table is probed at
 * random, and on virtual machines every TLB miss is a two-dimensional page walk. madvise() is a
 * hint; its failure changes nothing but speed. */
static void *cltab_big_zalloc(size_t size)
{
	size_t rounded = (size + CLTAB_HUGE - 1) / CLTAB_HUGE * CLTAB_HUGE;
	void *p = aligned_alloc(CLTAB_HUGE, rounded);

	if (!p)
		p = xmalloc(rounded);   /* aborts when memory is really out */
	madvise(p, rounded, MADV_HUGEPAGE);
	memset(p, 0, size);
	return p;
}

static void *cltab_alloc(struct cltab *t, size_t size)
{
	struct cltab_slab *s = t->slab;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!s || s->used + size > s->size) {
		size_t cap = size + sizeof(*s) > CLTAB_SLAB ? size + sizeof(*s) : CLTAB_SLAB;

		s = aligned_alloc(CLTAB_HUGE, (cap + CLTAB_HUGE - 1) / CLTAB_HUGE * CLTAB_HUGE);
		if (!s)
			s = xmalloc(cap);
		madvise(s, cap, MADV_HUGEPAGE);
		s->size = cap - sizeof(*s);
		s->used = 0;
		s->next = t->slab;
		t->slab = s;
	}
	p = s->mem + s->used;
	s->used += size;
	memset(p, 0, size);
	return p;
}

static int cltab_cmp_range(const void *a, const void *b)
{
	const struct trace_mem_range *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
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
	t->cl_mask = opts->cl_size ? ~((uint64_t)opts->cl_size - 1) : 0;
	for (i = 0; i < (uint32_t)t->opts.nr_coalesce; i++) {
		t->co_pid |= t->opts.coalesce[i] == CLTAB_CO_PID;
		t->co_tid |= t->opts.coalesce[i] == CLTAB_CO_TID;
		t->co_iaddr |= t->opts.coalesce[i] == CLTAB_CO_IADDR;
		t->co_dso |= t->opts.coalesce[i] == CLTAB_CO_DSO;
	}
	t->cpu_words = (opts->nr_cpus + 63) / 64;
	if (!t->cpu_words)
		t->cpu_words = 1;
	t->cpu_node = xcalloc(opts->nr_cpus ? opts->nr_cpus : 1, sizeof(*t->cpu_node));
	for (i = 0; i < opts->nr_cpus; i++)
		t->cpu_node[i] = opts->cpu_node ? opts->cpu_node[i] : -1;
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
	t->lines.cap = t->offs.cap = 1024;
	t->lines.slot = cltab_big_zalloc(t->lines.cap * sizeof(*t->lines.slot));
	t->offs.slot = cltab_big_zalloc(t->offs.cap * sizeof(*t->offs.slot));
	return t;
}

void cltab_free(struct cltab *t)
{
	struct cltab_slab *s, *n;
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_all; i++)
		free(t->all[i]->off);
	for (s = t->slab; s; s = n) {
		n = s->next;
		free(s);
	}
	free(t->lines.slot);
	free(t->offs.slot);
	free(t->all);
	free(t->shown);
	free(t->cpu_node);
	free(t->ranges);
	free(t);
}

/* --- keys ----------------------------------------------------------------------------------- */

/* Combine and finalize (MurmurHash3's fmix64): the table index uses the low bits, so every
 * input bit must reach them (cacheline addresses have six zero low bits). */
static uint64_t cltab_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

struct cltab_lkey {
	uint8_t cpumode;
	int has_map, anon;
	uint32_t maj, min;
	uint64_t ino, gen;
	int32_t pid;
	uint64_t cl;
};

static void cltab_make_lkey(struct cltab_lkey *k, uint8_t cpumode, const struct maps_map *dmap,
			    int32_t key_pid, uint64_t cl)
{
	const struct maps_dso *d = dmap ? dmap->dso : NULL;

	k->cpumode = cpumode;
	k->has_map = d != NULL;
	k->maj = d ? d->maj : 0;
	k->min = d ? d->min : 0;
	k->ino = d ? d->ino : 0;
	k->gen = d ? d->ino_generation : 0;
	k->anon = dmap ? maps_is_anon_private(dmap, cpumode) : 0;
	k->pid = key_pid;
	k->cl = cl;
}

static void cltab_line_key(const struct cltab_line *l, struct cltab_lkey *k)
{
	cltab_make_lkey(k, l->cpumode, l->dmap, l->key_pid, l->cl);
}

static uint64_t cltab_lkey_hash(const struct cltab_lkey *k)
{
	uint64_t h = cltab_mix(k->cpumode, k->has_map);

	h = cltab_mix(h, ((uint64_t)k->maj << 32) | k->min);
	h = cltab_mix(h, k->ino);
	h = cltab_mix(h, k->gen);
	h = cltab_mix(h, (uint32_t)k->pid);
	return cltab_mix(h, k->cl);
}

/* perf's sort__dcacheline_cmp as the output shows it: ascending. */
static int cltab_lkey_cmp(const struct cltab_lkey *a, const struct cltab_lkey *b)
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
	return (a->cl > b->cl) - (a->cl < b->cl);
}

struct cltab_okey {
	const struct cltab_line *line;
	uint64_t offset, ip;
	int32_t pid, tid;
	const char *dso;
};

static void cltab_make_okey(const struct cltab *t, struct cltab_okey *k,
			    const struct cltab_line *line, uint64_t offset, uint64_t ip,
			    const struct maps_thread *th, const char *dso)
{
	k->line = line;
	k->offset = offset;
	k->pid = t->co_pid ? th->pid : 0;
	k->tid = t->co_tid ? th->tid : 0;
	k->ip = t->co_iaddr ? ip : 0;
	k->dso = t->co_dso ? dso : NULL;
}

static void cltab_off_key(const struct cltab *t, const struct cltab_offset *o,
			  struct cltab_okey *k)
{
	cltab_make_okey(t, k, o->line, o->offset, o->ip, o->thread, o->dso_key);
}

static uint64_t cltab_okey_hash(const struct cltab_okey *k)
{
	uint64_t h = cltab_mix((uintptr_t)k->line, k->offset);

	h = cltab_mix(h, k->ip);
	h = cltab_mix(h, ((uint64_t)(uint32_t)k->pid << 32) | (uint32_t)k->tid);
	return cltab_mix(h, (uintptr_t)k->dso);
}

static int cltab_okey_eq(const struct cltab_okey *a, const struct cltab_okey *b)
{
	return a->line == b->line && a->offset == b->offset && a->ip == b->ip &&
	       a->pid == b->pid && a->tid == b->tid && a->dso == b->dso;
}

/* --- hash tables ---------------------------------------------------------------------------- */

static void cltab_hash_grow(struct cltab_hash *h)
{
	struct cltab_slot *old = h->slot;
	size_t i, j, cap = h->cap;

	h->cap *= 2;
	h->slot = cltab_big_zalloc(h->cap * sizeof(*h->slot));
	for (i = 0; i < cap; i++) {
		if (!old[i].p)
			continue;
		for (j = old[i].hash & (h->cap - 1); h->slot[j].p; j = (j + 1) & (h->cap - 1))
			;
		h->slot[j] = old[i];
	}
	free(old);
}

static void cltab_sample_lkey(const struct cltab *t, const struct cltab_sample *s,
			      struct cltab_lkey *k)
{
	int32_t pid = s->dmap && maps_is_anon_private(s->dmap, s->cpumode) ? s->thread->pid : 0;

	cltab_make_lkey(k, s->cpumode, s->dmap, pid, s->al_addr & t->cl_mask);
}

static struct cltab_line *cltab_findnew_line(struct cltab *t, const struct cltab_sample *s,
					     const struct cltab_lkey *k, uint64_t hv)
{
	struct cltab_lkey k2;
	struct cltab_line *l;
	size_t j;

	for (j = hv & (t->lines.cap - 1); t->lines.slot[j].p; j = (j + 1) & (t->lines.cap - 1)) {
		if (t->lines.slot[j].hash != hv)
			continue;
		cltab_line_key(t->lines.slot[j].p, &k2);
		if (!cltab_lkey_cmp(k, &k2) && k->anon == k2.anon)
			return t->lines.slot[j].p;
	}
	l = cltab_alloc(t, sizeof(*l) + t->node_words * sizeof(uint64_t));
	l->cpumode = s->cpumode;
	l->dmap = s->dmap;
	l->key_pid = k->pid;
	l->cl = k->cl;
	l->nodeset = (uint64_t *)(l + 1);
	l->addr = s->addr & t->cl_mask;
	t->lines.slot[j].p = l;
	t->lines.slot[j].hash = hv;
	t->all = xgrow(t->all, &t->cap_all, t->nr_all + 1, sizeof(*t->all));
	t->all[t->nr_all++] = l;
	if (++t->lines.nr * 2 > t->lines.cap)
		cltab_hash_grow(&t->lines);
	return l;
}

static void cltab_sample_okey(const struct cltab *t, const struct cltab_line *l,
			      const struct cltab_sample *s, struct cltab_okey *k)
{
	cltab_make_okey(t, k, l, s->addr & ~t->cl_mask, s->ip, s->thread,
			s->cmap ? s->cmap->dso->short_name : NULL);
}

static struct cltab_offset *cltab_findnew_off(struct cltab *t, struct cltab_line *l,
					      const struct cltab_sample *s, uint64_t hv)
{
	struct cltab_okey k, k2;
	struct cltab_offset *o;
	size_t j, sz;

	cltab_sample_okey(t, l, s, &k);
	for (j = hv & (t->offs.cap - 1); t->offs.slot[j].p; j = (j + 1) & (t->offs.cap - 1)) {
		if (t->offs.slot[j].hash != hv)
			continue;
		cltab_off_key(t, t->offs.slot[j].p, &k2);
		if (cltab_okey_eq(&k, &k2))
			return t->offs.slot[j].p;
	}
	sz = sizeof(*o) + t->opts.nr_nodes * sizeof(struct dsrc_stats) +
	     (t->cpu_words + t->node_words) * sizeof(uint64_t);
	o = cltab_alloc(t, sz);
	o->line = l;
	o->offset = k.offset;
	o->ip = s->ip;
	o->thread = s->thread;
	o->cmap = s->cmap;
	o->dso_key = s->cmap ? s->cmap->dso->short_name : NULL;
	o->disp_offset = s->al_addr & ~t->cl_mask;
	o->cpumode = s->cpumode;
	o->code_al = s->code_al;
	o->node_stats = (struct dsrc_stats *)(o + 1);
	o->cpuset = (uint64_t *)(o->node_stats + t->opts.nr_nodes);
	o->nodeset = o->cpuset + t->cpu_words;
	t->offs.slot[j].p = o;
	t->offs.slot[j].hash = hv;
	l->off = xgrow(l->off, &l->cap_off, l->nr_off + 1, sizeof(*l->off));
	l->off[l->nr_off++] = o;
	if (++t->offs.nr * 2 > t->offs.cap)
		cltab_hash_grow(&t->offs);
	return o;
}

/* --- accumulation --------------------------------------------------------------------------- */

static int cltab_mem_node(const struct cltab *t, uint64_t pa)
{
	size_t lo = 0, hi = t->opts.nr_mem_ranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ranges[mid].end <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->opts.nr_mem_ranges && t->ranges[lo].start <= pa && pa < t->ranges[lo].end)
		return (int)t->ranges[lo].node;
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

static void cltab_mean_add(struct cltab_mean *m, uint64_t w)
{
	double delta;

	m->n += 1;
	delta = (double)w - m->mean;
	m->mean += delta / m->n;
}

static void cltab_cycles(struct cltab_offset *o, const struct dsrc_stats *st, uint64_t w)
{
	if (st->rmt_hitm)
		cltab_mean_add(&o->cycles[CLTAB_CYC_RMT_HITM], w);
	else if (st->lcl_hitm)
		cltab_mean_add(&o->cycles[CLTAB_CYC_LCL_HITM], w);
	else if (st->rmt_peer)
		cltab_mean_add(&o->cycles[CLTAB_CYC_RMT_PEER], w);
	else if (st->lcl_peer)
		cltab_mean_add(&o->cycles[CLTAB_CYC_LCL_PEER], w);
	else if (st->load)
		cltab_mean_add(&o->cycles[CLTAB_CYC_LOAD], w);
}

/* Fold one resolved sample into its line and offset entries (found or created already). */
static void cltab_account(struct cltab *t, const struct cltab_sample *s, struct cltab_line *l,
			  struct cltab_offset *o)
{
	struct dsrc_input in = { .data_src = s->data_src, .daddr = s->addr,
				 .has_data_map = s->dmap != NULL, .has_code_map = s->has_code_map };
	struct dsrc_stats st;
	uint32_t cpu = s->cpu == TRACE_CPU_NONE ? 0 : s->cpu;
	int node = -1, mnode = -1;

	dsrc_decode(&st, &in);
	t->counts.samples++;
	dsrc_add(&t->total, &st);
	dsrc_add(&l->stats, &st);
	dsrc_add(&o->stats, &st);
	if (cpu < t->opts.nr_cpus)
		node = t->cpu_node[cpu];
	if (node >= 0 && (uint32_t)node < t->opts.nr_nodes)
		dsrc_add(&o->node_stats[node], &st);
	cltab_cycles(o, &st, s->weight);
	if (s->cpu == TRACE_CPU_NONE)
		t->counts.no_cpu++;
	else if (s->cpu >= t->opts.nr_cpus)
		t->counts.bad_cpu++;
	else
		o->cpuset[s->cpu / 64] |= 1ULL << (s->cpu % 64);
	if (s->phys_addr) {
		mnode = cltab_mem_node(t, s->phys_addr);
		if (mnode < 0)
			t->counts.no_node++;
	}
	cltab_set_node(l->nodeset, &l->paddr, &l->paddr_cnt, mnode, s->phys_addr);
	cltab_set_node(o->nodeset, &o->paddr, &o->paddr_cnt, mnode, s->phys_addr);
}

/* Add the pending samples in order, in four passes so that the cache misses of different
 * samples overlap: hash and prefetch the line slots, find the lines and prefetch the offset
 * slots, find the offsets and prefetch their counters, then account. Entries are still created and updated in sample
 * order, so "first sample" properties and PA counts are those of one-by-one processing. */
static void cltab_flush(struct cltab *t)
{
	struct cltab_line *line[CLTAB_PENDING];
	struct cltab_offset *off[CLTAB_PENDING];
	struct cltab_lkey lk[CLTAB_PENDING];
	struct cltab_okey ok;
	uint64_t hv[CLTAB_PENDING];
	size_t i, n = t->nr_pending;

	t->nr_pending = 0;
	for (i = 0; i < n; i++) {
		cltab_sample_lkey(t, &t->pending[i], &lk[i]);
		hv[i] = cltab_lkey_hash(&lk[i]);
		__builtin_prefetch(&t->lines.slot[hv[i] & (t->lines.cap - 1)]);
	}
	for (i = 0; i < n; i++) {
		line[i] = cltab_findnew_line(t, &t->pending[i], &lk[i], hv[i]);
		cltab_sample_okey(t, line[i], &t->pending[i], &ok);
		hv[i] = cltab_okey_hash(&ok);
		__builtin_prefetch(&t->offs.slot[hv[i] & (t->offs.cap - 1)]);
	}
	for (i = 0; i < n; i++) {
		off[i] = cltab_findnew_off(t, line[i], &t->pending[i], hv[i]);
		__builtin_prefetch(&off[i]->stats, 1);
		__builtin_prefetch(&off[i]->cycles, 1);
		__builtin_prefetch(off[i]->node_stats, 1);
		__builtin_prefetch(&line[i]->stats, 1);
	}
	for (i = 0; i < n; i++)
		cltab_account(t, &t->pending[i], line[i], off[i]);
}

void cltab_add(struct cltab *t, const struct cltab_sample *s)
{
	cltab_flush(t);
	t->pending[t->nr_pending++] = *s;
	cltab_flush(t);
}

static void cltab_feed_sample(struct cltab *t, struct maps *maps, const struct trace_sample *ts)
{
	struct cltab_sample s = { .ip = ts->ip, .cpu = ts->cpu, .cpumode = ts->cpumode };
	struct maps_loc loc;
	struct maps_thread *th = maps_findnew_thread(maps, (int32_t)ts->pid, (int32_t)ts->tid);

	s.thread = th;
	s.addr = (ts->flags & TRACE_SAMPLE_HAS_ADDR) ? ts->addr : 0;
	s.phys_addr = (ts->flags & TRACE_SAMPLE_HAS_PHYS) ? ts->phys_addr : 0;
	s.weight = (ts->flags & TRACE_SAMPLE_HAS_WEIGHT) ? ts->weight : 0;
	s.data_src = (ts->flags & TRACE_SAMPLE_HAS_DSRC) ? ts->data_src : DSRC_NONE;
	if (!(ts->flags & TRACE_SAMPLE_HAS_CPU))
		s.cpu = TRACE_CPU_NONE;
	maps_find(maps, th, ts->cpumode, s.addr, &loc);
	s.dmap = loc.map;
	s.al_addr = loc.al_addr;
	maps_find(maps, th, ts->cpumode, ts->ip, &loc);
	s.cmap = loc.map;
	s.code_al = loc.al_addr;
	s.has_code_map = maps_find_any(maps, th, ts->ip, &loc);
	t->pending[t->nr_pending++] = s;
	if (t->nr_pending == CLTAB_PENDING)
		cltab_flush(t);
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
	if (ev->type != TRACE_REC_SAMPLE)
		cltab_flush(t);   /* samples before a side-band record are resolved already */
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

static int cltab_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltab_line *a = *(struct cltab_line *const *)pa;
	const struct cltab_line *b = *(struct cltab_line *const *)pb;
	const struct cltab *t = arg;
	struct cltab_lkey ka, kb;
	int c = cltab_u32_desc(cltab_metric(t->opts.display, &a->stats),
			       cltab_metric(t->opts.display, &b->stats));

	if (c)
		return c;
	cltab_line_key(a, &ka);
	cltab_line_key(b, &kb);
	c = cltab_lkey_cmp(&ka, &kb);
	if (c)
		return c;
	/* Equal perf keys (a private anon line against a shared one): creation order. */
	return (a->index > b->index) - (a->index < b->index);
}

/* perf's iaddr comparator subtracts: (int64_t)(a - b) decides, so far-apart addresses wrap. */
static int cltab_ip_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return (d > 0) - (d < 0);
}

static int cltab_off_token_cmp(const struct cltab *t, const struct cltab_offset *a,
			       const struct cltab_offset *b)
{
	int i, c = 0;

	for (i = 0; i < t->opts.nr_coalesce && !c; i++) {
		switch (t->opts.coalesce[i]) {
		case CLTAB_CO_IADDR:
			c = cltab_ip_cmp(a->ip, b->ip);
			break;
		case CLTAB_CO_PID:
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

static int cltab_off_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltab_offset *a = *(struct cltab_offset *const *)pa;
	const struct cltab_offset *b = *(struct cltab_offset *const *)pb;
	const struct cltab *t = arg;
	int c = (a->offset > b->offset) - (a->offset < b->offset);

	if (c)
		return c;
	switch (t->opts.display) {
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
	if (c)
		return c;
	c = cltab_off_token_cmp(t, a, b);
	if (c)
		return c;
	/* Only entries differing in fields outside the key reach here: creation order is stable. */
	return (a < b) ? -1 : (a > b);
}

static int cltab_is_shared(const struct dsrc_stats *st)
{
	return st->lcl_hitm || st->rmt_hitm || st->lcl_peer || st->rmt_peer;
}

static int cltab_line_shown(const struct cltab *t, const struct cltab_line *l)
{
	uint32_t tot = cltab_metric(t->opts.display, &t->shared);

	if (t->opts.show_all)
		return 1;
	return tot && (double)cltab_metric(t->opts.display, &l->stats) / tot >= CLTAB_DISPLAY_LIMIT;
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

static void cltab_finish_offsets(struct cltab *t, struct cltab_line *l)
{
	size_t i;

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

void cltab_finish(struct cltab *t)
{
	size_t i;

	if (t->finished)
		return;
	cltab_flush(t);
	t->finished = 1;
	for (i = 0; i < t->nr_all; i++) {
		struct cltab_line *l = t->all[i];

		l->index = (uint32_t)i;
		l->shared = cltab_is_shared(&l->stats);
		if (l->shared) {
			t->nr_shared++;
			dsrc_add(&t->shared, &l->stats);
		}
	}
	if (t->nr_all)
		qsort_r(t->all, t->nr_all, sizeof(*t->all), cltab_line_cmp, t);
	t->shown = xcalloc(t->nr_all + 1, sizeof(*t->shown));
	for (i = 0; i < t->nr_all; i++) {
		struct cltab_line *l = t->all[i];

		if (!cltab_line_shown(t, l))
			continue;
		l->index = (uint32_t)t->nr_shown;
		t->shown[t->nr_shown++] = l;
		cltab_finish_offsets(t, l);
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
	return t->nr_all;
}

size_t cltab_nr_offsets(const struct cltab *t)
{
	return t->offs.nr;
}

struct cltab_line *const *cltab_lines(const struct cltab *t, size_t *nr)
{
	*nr = t->nr_shown;
	return t->shown;
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

int cltab_check(const struct cltab *t)
{
	struct dsrc_stats sum = { 0 }, lsum;
	size_t i, j;

	for (i = 0; i < t->nr_all; i++) {
		const struct cltab_line *l = t->all[i];

		memset(&lsum, 0, sizeof(lsum));
		for (j = 0; j < l->nr_off; j++) {
			if (l->off[j]->line != l)
				return c2c_err(-EBADMSG, "offset %zu of line %zu belongs elsewhere", j, i);
			dsrc_add(&lsum, &l->off[j]->stats);
		}
		if (!cltab_stats_eq(&lsum, &l->stats))
			return c2c_err(-EBADMSG, "line %zu: offsets do not add up to the line", i);
		dsrc_add(&sum, &l->stats);
	}
	if (!cltab_stats_eq(&sum, &t->total))
		return c2c_err(-EBADMSG, "lines do not add up to the total");
	if (sum.nr_entries != t->counts.samples)
		return c2c_err(-EBADMSG, "%u entries for %llu samples", sum.nr_entries,
			       (unsigned long long)t->counts.samples);
	return 0;
}
