/* Accumulation: resolved samples folded into a cacheline table's line, entry and touch
 * records (cltab_flush()). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/cltable-int.h"

/* --- keys ----------------------------------------------------------------------------------- */

static uint64_t cltab_space_hash(const struct cltab_space *k)
{
	uint64_t h = k->ino * 0xc2b2ae3d27d4eb4fULL;

	h += (((uint64_t)k->maj << 32) | k->min) * 0x165667b19e3779f9ULL;
	h += k->gen * 0x27d4eb2f165667c5ULL;
	h += ((uint64_t)(uint32_t)k->pid | (uint64_t)k->cpumode << 32 | (uint64_t)k->has_map << 40 |
	      (uint64_t)k->anon << 48) * 0x85ebca77c2b2ae63ULL;
	return cltab_fmix(h);
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

uint32_t cltab_sample_space_slow(struct cltab *t, const struct cltab_pend *p, uint64_t *cl)
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
void cltab_flush_from(struct cltab *t, const struct cltab_pend *pd, size_t n);

/* Add the pending samples (routing the staged ones first). */
void cltab_flush(struct cltab *t)
{
	size_t n;

	if (t->nr_stage)
		cltab_route_stage(t);
	n = t->nr_pending;

	t->nr_pending = 0;
	cltab_flush_from(t, t->pending, n);
}

/* Add @n (at most CLTAB_PENDING) resolved samples @pd. */
void cltab_flush_from(struct cltab *t, const struct cltab_pend *pd, size_t n)
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
