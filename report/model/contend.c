/* Contending functions and contention by data type (see contend.h). Both are built the same
 * way: every contended line emits (key, line, thread, cost) tuples, the tuples are sorted by key,
 * and each run of one key is folded into a row of the view. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/contend.h"

/* --- small helpers -------------------------------------------------------------------------- */

struct vec {
	void *a;
	size_t nr, cap, size;
};

static void *vec_push(struct vec *v)
{
	if (v->nr == v->cap)
		v->a = xgrow(v->a, &v->cap, v->nr + 1, v->size);
	return memset((char *)v->a + v->nr++ * v->size, 0, v->size);
}

static int tid_cmp(const void *a, const void *b)
{
	const struct maps_thread *x = *(const struct maps_thread *const *)a;
	const struct maps_thread *y = *(const struct maps_thread *const *)b;
	uintptr_t px = (uintptr_t)x, py = (uintptr_t)y;

	if (x->tid != y->tid)
		return (x->tid > y->tid) - (x->tid < y->tid);
	return (px > py) - (px < py);
}

/* Sort the threads @t[0..*n) by tid and drop repeats. */
static void uniq_threads(const struct maps_thread **t, size_t *n)
{
	size_t i, k = 0;

	qsort(t, *n, sizeof(*t), tid_cmp);
	for (i = 0; i < *n; i++)
		if (!k || t[i] != t[k - 1])
			t[k++] = t[i];
	*n = k;
}

static int line_cost_desc(const void *a, const void *b, void *ctx)
{
	const struct rm_model *m = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (m->line[x].cost != m->line[y].cost)
		return m->line[x].cost < m->line[y].cost ? 1 : -1;
	return (x > y) - (x < y);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Lines @l[0..*n), distinct, costliest first. */
static void order_lines(const struct rm_model *m, uint32_t *l, size_t *n)
{
	size_t i, k = 0;

	qsort(l, *n, sizeof(*l), u32_cmp);
	for (i = 0; i < *n; i++)
		if (!k || l[i] != l[k - 1])
			l[k++] = l[i];
	*n = k;
	qsort_r(l, k, sizeof(*l), line_cost_desc, (void *)m);
}

static int str_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* --- contending functions ------------------------------------------------------------------- */

static struct rm_fn fn_of(const struct rm_row *r)
{
	struct rm_fn f = { .name = r->code.symbol, .dso = r->code.dso };

	if (!f.name)
		f.addr = r->code.dso ? r->code.al : r->code.ip;
	return f;
}

static int fn_cmp(const struct rm_fn *a, const struct rm_fn *b)
{
	int c = str_cmp(a->name, b->name);

	if (c || a->name)
		return c;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

void rm_fn_text(const struct rm_fn *f, char *buf, size_t n)
{
	if (f->name)
		snprintf(buf, n, "%s", f->name);
	else if (f->dso)
		snprintf(buf, n, "%#llx (%s)", (unsigned long long)f->addr, f->dso);
	else
		snprintf(buf, n, "%#llx", (unsigned long long)f->addr);
}

/* What one function did on one line from one thread. */
struct use {
	struct rm_fn fn;
	const struct maps_thread *thread;
	uint64_t writes;
	double cost;
};

static int use_cmp(const void *pa, const void *pb)
{
	const struct use *a = pa, *b = pb;
	int c = fn_cmp(&a->fn, &b->fn);

	return c ? c : tid_cmp(&a->thread, &b->thread);
}

/* A pair seen on a line: its cost there is both functions' (once), its threads the two. */
struct pair_hit {
	struct rm_fn fn[2];
	uint32_t line;
	double cost;                 /* the pair's cost on the line (on its first hit only) */
	const struct maps_thread *thread[2];
};

static int hit_cmp(const void *pa, const void *pb)
{
	const struct pair_hit *a = pa, *b = pb;
	int c = fn_cmp(&a->fn[0], &b->fn[0]);

	if (!c)
		c = fn_cmp(&a->fn[1], &b->fn[1]);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* The uses of line @l, one per (function, thread), with each function's cost on the line. */
static size_t line_uses(const struct rm_line *l, struct vec *uses)
{
	struct use *u;
	size_t i, k = 0;

	uses->nr = 0;
	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];

		if (t->row >= l->nr_row || !t->thread)
			continue;
		u = vec_push(uses);
		u->fn = fn_of(&l->row[t->row]);
		u->thread = t->thread;
		u->writes = t->writes + t->atomics;
		u->cost = t->cost;
	}
	u = uses->a;
	if (!uses->nr)
		return 0;
	qsort(u, uses->nr, sizeof(*u), use_cmp);
	for (i = 0; i < uses->nr; i++) {
		if (k && !use_cmp(&u[i], &u[k - 1])) {
			u[k - 1].writes += u[i].writes;
			u[k - 1].cost += u[i].cost;
		} else {
			u[k++] = u[i];
		}
	}
	return uses->nr = k;
}

static double fn_cost(const struct use *u, size_t n, const struct rm_fn *f)
{
	double c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (!fn_cmp(&u[i].fn, f))
			c += u[i].cost;
	return c;
}

/* Every pair of uses on line @li by two threads, one writing. */
static void line_pairs(const struct rm_model *m, uint32_t li, struct vec *uses, struct vec *hits)
{
	size_t n = line_uses(&m->line[li], uses), i, j, first = hits->nr;
	const struct use *u = uses->a;
	struct pair_hit *h;

	for (i = 0; i < n; i++) {
		for (j = i; j < n; j++) {
			if (u[i].thread == u[j].thread || (!u[i].writes && !u[j].writes))
				continue;
			h = vec_push(hits);
			h->fn[0] = u[i].fn;      /* uses are sorted by function: fn[0] <= fn[1] */
			h->fn[1] = u[j].fn;
			h->line = li;
			h->thread[0] = u[i].thread;
			h->thread[1] = u[j].thread;
		}
	}
	/* the pair's cost on this line, on the first of its hits */
	h = hits->a;
	if (hits->nr == first)
		return;   /* no pair here (and no array yet: qsort takes no NULL) */
	qsort(h + first, hits->nr - first, sizeof(*h), hit_cmp);
	for (i = first; i < hits->nr; i++) {
		if (i > first && !hit_cmp(&h[i], &h[i - 1]))
			continue;
		h[i].cost = fn_cost(u, n, &h[i].fn[0]);
		if (fn_cmp(&h[i].fn[0], &h[i].fn[1]))
			h[i].cost += fn_cost(u, n, &h[i].fn[1]);
	}
}

static int same_pair(const struct pair_hit *a, const struct pair_hit *b)
{
	return !fn_cmp(&a->fn[0], &b->fn[0]) && !fn_cmp(&a->fn[1], &b->fn[1]);
}

/* The run of hits @h[0..n) of one pair folded into @p. */
static void fold_pair(const struct rm_model *m, struct rm_fn_pair *p, const struct pair_hit *h,
		      size_t n)
{
	size_t i;

	p->fn[0] = h[0].fn[0];
	p->fn[1] = h[0].fn[1];
	p->self = !fn_cmp(&p->fn[0], &p->fn[1]);
	p->line = xcalloc(n, sizeof(*p->line));
	p->thread = xcalloc(2 * n, sizeof(*p->thread));
	for (i = 0; i < n; i++) {
		p->cost += h[i].cost;
		p->line[p->nr_line++] = h[i].line;
		p->thread[p->nr_thread++] = h[i].thread[0];
		p->thread[p->nr_thread++] = h[i].thread[1];
	}
	order_lines(m, p->line, &p->nr_line);
	uniq_threads(p->thread, &p->nr_thread);
	p->verdict = m->line[p->line[0]].verdict;
	p->share = m->total_cost ? 100.0 * p->cost / m->total_cost : 0;
}

static int pair_cost_desc(const void *pa, const void *pb)
{
	const struct rm_fn_pair *a = pa, *b = pb;
	int c;

	if (a->cost != b->cost)
		return a->cost < b->cost ? 1 : -1;
	c = fn_cmp(&a->fn[0], &b->fn[0]);
	return c ? c : fn_cmp(&a->fn[1], &b->fn[1]);
}

static void build_pairs(const struct rm_model *m, struct rm_contend *c)
{
	struct vec uses = { .size = sizeof(struct use) };
	struct vec hits = { .size = sizeof(struct pair_hit) };
	struct vec pairs = { .size = sizeof(struct rm_fn_pair) };
	const struct pair_hit *h;
	size_t i, j;

	for (i = 0; i < m->nr_line; i++)
		if (m->line[i].verdict != RM_V_NONE)
			line_pairs(m, (uint32_t)i, &uses, &hits);
	h = hits.a;
	if (hits.nr)
		qsort(hits.a, hits.nr, sizeof(*h), hit_cmp);
	for (i = 0; i < hits.nr; i = j) {
		for (j = i + 1; j < hits.nr && same_pair(&h[i], &h[j]); j++)
			;
		fold_pair(m, vec_push(&pairs), h + i, j - i);
		/* a pair whose touches cost nothing (two PMU stores: HITMs are loads') says
		 * nothing a reader can weigh */
		if (m->total_cost > 0 && ((struct rm_fn_pair *)pairs.a)[pairs.nr - 1].cost <= 0) {
			free(((struct rm_fn_pair *)pairs.a)[pairs.nr - 1].line);
			free(((struct rm_fn_pair *)pairs.a)[pairs.nr - 1].thread);
			pairs.nr--;
		}
	}
	if (pairs.nr)
		qsort(pairs.a, pairs.nr, sizeof(struct rm_fn_pair), pair_cost_desc);
	c->pair = pairs.a;
	c->nr_pair = pairs.nr;
	free(uses.a);
	free(hits.a);
}

/* --- contention by data type ---------------------------------------------------------------- */

/* A row of a contended line in an instance of a named type: one per touch. */
struct type_hit {
	const char *type;
	uint32_t index;              /* the type's line */
	uint64_t inst;
	uint32_t line;
	const char *member;
	const struct maps_thread *thread;
	double cost;
};

static int type_hit_cmp(const void *pa, const void *pb)
{
	const struct type_hit *a = pa, *b = pb;
	int c = strcmp(a->type, b->type);

	if (c)
		return c;
	return (a->index > b->index) - (a->index < b->index);
}

static void line_types(const struct rm_model *m, uint32_t li, struct vec *hits)
{
	const struct rm_line *l = &m->line[li];
	uint32_t cl = m->cl_size ? m->cl_size : 64;
	size_t i;

	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];
		const struct rm_row *r;
		uint64_t addr, off;
		struct type_hit *h;

		if (t->row >= l->nr_row)
			continue;
		r = &l->row[t->row];
		addr = l->vaddr + r->offset;
		if (!r->type || !r->has_inst || addr < r->inst)
			continue;
		off = addr - r->inst;
		if (r->inst_size && off >= r->inst_size)
			continue;
		h = vec_push(hits);
		h->type = r->type;
		h->index = (uint32_t)(off / cl);
		h->inst = r->inst;
		h->line = li;
		h->member = r->member;
		h->thread = t->thread;
		h->cost = t->cost;
	}
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int member_cmp(const void *a, const void *b)
{
	return str_cmp(*(const char *const *)a, *(const char *const *)b);
}

static void fold_type(const struct rm_model *m, struct rm_type_line *tl, const struct type_hit *h,
		      size_t n)
{
	uint64_t *inst = xcalloc(n, sizeof(*inst));
	size_t i, k;

	tl->type = h[0].type;
	tl->index = h[0].index;
	tl->line = xcalloc(n, sizeof(*tl->line));
	tl->thread = xcalloc(n, sizeof(*tl->thread));
	tl->member = xcalloc(n, sizeof(*tl->member));
	for (i = 0; i < n; i++) {
		tl->cost += h[i].cost;
		inst[i] = h[i].inst;
		tl->line[tl->nr_line++] = h[i].line;
		if (h[i].thread)
			tl->thread[tl->nr_thread++] = h[i].thread;
		tl->member[tl->nr_member++] = h[i].member;
	}
	qsort(inst, n, sizeof(*inst), u64_cmp);
	for (i = 0; i < n; i++)
		tl->nr_inst += !i || inst[i] != inst[i - 1];
	free(inst);
	order_lines(m, tl->line, &tl->nr_line);
	uniq_threads(tl->thread, &tl->nr_thread);
	qsort(tl->member, tl->nr_member, sizeof(*tl->member), member_cmp);
	for (i = k = 0; i < tl->nr_member; i++)
		if (!k || member_cmp(&tl->member[i], &tl->member[k - 1]))
			tl->member[k++] = tl->member[i];
	tl->nr_member = k;
	tl->verdict = m->line[tl->line[0]].verdict;
	tl->share = m->total_cost ? 100.0 * tl->cost / m->total_cost : 0;
}

static int type_cost_desc(const void *pa, const void *pb)
{
	const struct rm_type_line *a = pa, *b = pb;
	int c;

	if (a->cost != b->cost)
		return a->cost < b->cost ? 1 : -1;
	c = strcmp(a->type, b->type);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

static void build_types(const struct rm_model *m, struct rm_contend *c)
{
	struct vec hits = { .size = sizeof(struct type_hit) };
	struct vec types = { .size = sizeof(struct rm_type_line) };
	const struct type_hit *h;
	size_t i, j;

	for (i = 0; i < m->nr_line; i++)
		if (m->line[i].verdict != RM_V_NONE)
			line_types(m, (uint32_t)i, &hits);
	h = hits.a;
	if (hits.nr)
		qsort(hits.a, hits.nr, sizeof(*h), type_hit_cmp);
	for (i = 0; i < hits.nr; i = j) {
		for (j = i + 1; j < hits.nr && !type_hit_cmp(&h[i], &h[j]); j++)
			;
		fold_type(m, vec_push(&types), h + i, j - i);
	}
	if (types.nr)
		qsort(types.a, types.nr, sizeof(struct rm_type_line), type_cost_desc);
	c->type = types.a;
	c->nr_type = types.nr;
	free(hits.a);
}

struct rm_contend *rm_contend_build(const struct rm_model *m)
{
	struct rm_contend *c = xcalloc(1, sizeof(*c));

	build_pairs(m, c);
	build_types(m, c);
	return c;
}

void rm_contend_free(struct rm_contend *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_pair; i++) {
		free(c->pair[i].line);
		free(c->pair[i].thread);
	}
	for (i = 0; i < c->nr_type; i++) {
		free(c->type[i].line);
		free(c->type[i].thread);
		free(c->type[i].member);
	}
	free(c->pair);
	free(c->type);
	free(c);
}
