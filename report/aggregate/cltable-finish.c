/* Finishing a cacheline table: its folded records summed, filtered and sorted into the
 * displayed lines, the public structs (cltab_finish()). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/cltable-int.h"

#define CLTAB_DISPLAY_LIMIT 0.001  /* perf's DISPLAY_LINE_LIMIT */

/* --- display metric, orders ----------------------------------------------------------------- */

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

/* --- sums, displayed lines ------------------------------------------------------------------ */

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
void cltab_ent_stats(const struct cltab *t, const struct cltab_ent *e,
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

void cltab_class_total(const struct cltab *t, struct dsrc_stats *st)
{
	uint32_t c;

	memset(st, 0, sizeof(*st));
	for (c = 0; c < t->nr_cls; c++)
		cltab_stats_madd(st, &t->cls[c].st, t->cls_n[c]);
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
void cltab_sum(struct cltab *t)
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

void cltab_free_shown(struct cltab *t)
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
