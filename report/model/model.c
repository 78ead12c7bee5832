/* The report model (see model.h): built from a finished PMU table (report/aggregate/cltable.h) or estimate
 * table (report/aggregate/estimate.h); named through names.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/cltable-view.h"
#include "report/model/model.h"
#include "report/model/names.h"
#include "report/resolve/symbols.h"


void rm_code_estim(struct rm_code *c, uint64_t ip, uint64_t al, uint8_t cpumode,
		   const struct maps_map *cmap, const struct estim_code *code)
{
	c->ip = c->sampled_ip = ip;
	c->al = al;
	c->cpumode = cpumode;
	c->dso = cmap ? cmap->dso->short_name : NULL;
	if (code) {
		c->symbol = code->symbol;
		c->sym_offset = code->sym_offset;
		c->srcfile = code->srcfile;
		c->line = code->line;
	}
}

int rm_scalar_type(const char *type)
{
	static const char *const words[] = { "unsigned", "signed", "char", "short", "int", "long",
					     "float", "double", "_Bool", "bool", "size_t",
					     "ssize_t", "uintptr_t", "intptr_t",
					     /* Rust's and Go's primitives */
					     "usize", "isize", "u8", "u16", "u32", "u64", "u128",
					     "i8", "i16", "i32", "i64", "i128", "f32", "f64",
					     "int8", "int16", "int32", "int64", "uint", "uint8",
					     "uint16", "uint32", "uint64", "uintptr", "float32",
					     "float64", "byte", "rune" };
	const char *p = type;
	size_t n, i;

	if (type[0] && type[strlen(type) - 1] == '*')
		return 1;
	while (*p) {
		n = strcspn(p, " ");
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i]) == n && !strncmp(p, words[i], n))
				break;
		if (i == sizeof(words) / sizeof(words[0]) &&
		    !(n > 4 && !strncmp(p + n - 2, "_t", 2) && (!strncmp(p, "int", 3) ||
								  !strncmp(p, "uint", 4))))
			return 0;
		p += n;
		p += strspn(p, " ");
	}
	return p != type;
}

/* The language of a source file by its name's ending; SYM_LANG_UNKNOWN when it does not say. */
static enum sym_lang lang_of_source(const char *file)
{
	static const struct { const char *ext; enum sym_lang lang; } ends[] = {
		{ ".go", SYM_LANG_GO }, { ".rs", SYM_LANG_RUST }, { ".c", SYM_LANG_C },
		{ ".cc", SYM_LANG_CXX }, { ".cpp", SYM_LANG_CXX }, { ".cxx", SYM_LANG_CXX },
		{ ".C", SYM_LANG_CXX }, { ".f90", SYM_LANG_FORTRAN }, { ".f", SYM_LANG_FORTRAN },
	};
	const char *dot = file ? strrchr(file, '.') : NULL;

	for (size_t i = 0; dot && i < sizeof(ends) / sizeof(ends[0]); i++)
		if (!strcmp(dot, ends[i].ext))
			return ends[i].lang;
	return SYM_LANG_UNKNOWN;
}
/* --- strings ----------------------------------------------------------------------------------- */

struct rm_pool {
	struct rm_pool *next;
	size_t used, cap;
	char data[];
};

static const char *pool_str(struct rm_model *m, const char *s)
{
	size_t n = strlen(s) + 1;
	struct rm_pool *p = m->pool;
	char *d;

	if (!p || p->cap - p->used < n) {
		size_t cap = n > 16384 ? n : 16384;

		p = xmalloc(sizeof(*p) + cap);
		p->next = m->pool;
		p->used = 0;
		p->cap = cap;
		m->pool = p;
	}
	d = p->data + p->used;
	memcpy(d, s, n);
	p->used += n;
	return d;
}

/* --- columns ----------------------------------------------------------------------------------- */

const char *rm_kind_name(enum rm_kind k)
{
	switch (k) {
	case RM_PMU: return "pmu";
	case RM_SOFT: return "soft";
	case RM_WATCH: return "watch";
	}
	return "?";
}

const char *rm_verdict_name(enum rm_verdict v)
{
	switch (v) {
	case RM_V_FALSE: return "FALSE SHARING";
	case RM_V_TRUE: return "TRUE SHARING";
	case RM_V_MIXED: return "TRUE+FALSE SHARING";
	case RM_V_UNCLEAR: return "UNCLEAR (no store sampled)";
	case RM_V_NONE: default: return "NOT CONTENDED";
	}
}

const char *rm_verdict_short(enum rm_verdict v)
{
	switch (v) {
	case RM_V_FALSE: return "FALSE SHARING";
	case RM_V_TRUE: return "TRUE SHARING";
	case RM_V_MIXED: return "TRUE+FALSE";
	case RM_V_UNCLEAR: return "UNCLEAR";
	case RM_V_NONE: default: return "-";
	}
}

const char *rm_verdict_key(enum rm_verdict v)
{
	switch (v) {
	case RM_V_FALSE: return "false";
	case RM_V_TRUE: return "true";
	case RM_V_MIXED: return "mixed";
	case RM_V_UNCLEAR: return "unclear";
	case RM_V_NONE: default: return "none";
	}
}

static const enum rm_col_id pmu_line_cols[] = {
	RM_COL_COST, RM_COL_NODE, RM_COL_PA_CNT, RM_COL_HITM, RM_COL_LCL_HITM, RM_COL_RMT_HITM,
	RM_COL_RECORDS, RM_COL_LOADS, RM_COL_STORES, RM_COL_ST_L1HIT, RM_COL_ST_L1MISS,
	RM_COL_ST_NA, RM_COL_LD_FB, RM_COL_LD_L1, RM_COL_LD_L2, RM_COL_LLC_HIT, RM_COL_LLC_HITM,
	RM_COL_RMT_HIT, RM_COL_RMT_HITM2, RM_COL_DRAM_LCL, RM_COL_DRAM_RMT,
};
static const enum rm_col_id pmu_row_cols[] = {
	RM_COL_RMT_HITM, RM_COL_LCL_HITM, RM_COL_ST_L1HIT, RM_COL_ST_L1MISS, RM_COL_ST_NA,
	RM_COL_PA_CNT, RM_COL_CYC_RMT, RM_COL_CYC_LCL, RM_COL_CYC_LOAD, RM_COL_RECORDS,
	RM_COL_CPUS,
};
static const enum rm_col_id soft_line_cols[] = {
	RM_COL_COST, RM_COL_SAMPLES, RM_COL_LOADS, RM_COL_STORES, RM_COL_ATOMICS, RM_COL_THREADS,
	RM_COL_CPUS, RM_COL_IPS,
};
static const enum rm_col_id soft_row_cols[] = {
	RM_COL_COST, RM_COL_SAMPLES, RM_COL_LOADS, RM_COL_STORES, RM_COL_ATOMICS, RM_COL_THREADS,
	RM_COL_CPUS,
};
static const enum rm_col_id watch_line_cols[] = {
	RM_COL_COST, RM_COL_SAMPLES, RM_COL_LOADS, RM_COL_STORES, RM_COL_XFERS, RM_COL_XFALSE,
	RM_COL_INVAL, RM_COL_THREADS, RM_COL_CPUS, RM_COL_IPS,
};
static const enum rm_col_id watch_row_cols[] = {
	RM_COL_COST, RM_COL_SAMPLES, RM_COL_LOADS, RM_COL_STORES, RM_COL_XFERS, RM_COL_XFALSE,
	RM_COL_INVAL, RM_COL_THREADS, RM_COL_CPUS,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct rm_model *model_new(enum rm_kind k)
{
	struct rm_model *m = xcalloc(1, sizeof(*m));

	m->kind = k;
	switch (k) {
	case RM_PMU:
		m->line_cols = pmu_line_cols;
		m->nr_line_cols = ARRAY_SIZE(pmu_line_cols);
		m->row_cols = pmu_row_cols;
		m->nr_row_cols = ARRAY_SIZE(pmu_row_cols);
		break;
	case RM_SOFT:
		m->line_cols = soft_line_cols;
		m->nr_line_cols = ARRAY_SIZE(soft_line_cols);
		m->row_cols = soft_row_cols;
		m->nr_row_cols = ARRAY_SIZE(soft_row_cols);
		m->cost_name = "sampled time";
		m->cost_unit = "ns";
		break;
	case RM_WATCH:
		m->line_cols = watch_line_cols;
		m->nr_line_cols = ARRAY_SIZE(watch_line_cols);
		m->row_cols = watch_row_cols;
		m->nr_row_cols = ARRAY_SIZE(watch_row_cols);
		m->cost_name = "transfers";
		m->cost_unit = "transfers";
		break;
	}
	return m;
}

/* --- PMU --------------------------------------------------------------------------------------- */

/* The counters of a row or line that perf's tables show, from its counter block. */
static void pmu_values(double *v, const struct dsrc_stats *s, enum cltab_display d)
{
	int peer = d == CLTAB_DISPLAY_PEER;

	v[RM_COL_HITM] = peer ? s->tot_peer : (double)s->lcl_hitm + s->rmt_hitm;
	v[RM_COL_LCL_HITM] = peer ? s->lcl_peer : s->lcl_hitm;
	v[RM_COL_RMT_HITM] = peer ? s->rmt_peer : s->rmt_hitm;
	v[RM_COL_RECORDS] = dsrc_total_records(s);
	v[RM_COL_LOADS] = dsrc_total_loads(s);
	v[RM_COL_STORES] = s->store;
	v[RM_COL_ATOMICS] = s->locks;
	v[RM_COL_ST_L1HIT] = s->st_l1hit;
	v[RM_COL_ST_L1MISS] = s->st_l1miss;
	v[RM_COL_ST_NA] = s->st_na;
	v[RM_COL_SAMPLES] = s->nr_entries;
	v[RM_COL_LD_FB] = s->ld_fbhit;
	v[RM_COL_LD_L1] = s->ld_l1hit;
	v[RM_COL_LD_L2] = s->ld_l2hit;
	v[RM_COL_LLC_HIT] = s->ld_llchit;
	v[RM_COL_LLC_HITM] = s->lcl_hitm;
	v[RM_COL_RMT_HIT] = s->rmt_hit;
	v[RM_COL_RMT_HITM2] = s->rmt_hitm;
	v[RM_COL_DRAM_LCL] = s->lcl_dram;
	v[RM_COL_DRAM_RMT] = s->rmt_dram;
}

static double touch_cost(const struct cltab_touch *t, enum cltab_display d)
{
	switch (d) {
	case CLTAB_DISPLAY_RMT: return t->n[CLTAB_T_RMT_HITM];
	case CLTAB_DISPLAY_LCL: return t->n[CLTAB_T_LCL_HITM];
	case CLTAB_DISPLAY_PEER: return (double)t->n[CLTAB_T_LCL_PEER] + t->n[CLTAB_T_RMT_PEER];
	case CLTAB_DISPLAY_TOT: default:
		return (double)t->n[CLTAB_T_LCL_HITM] + t->n[CLTAB_T_RMT_HITM];
	}
}

static double mean(const struct cltab_mean *m)
{
	return m->n ? m->mean : NAN;
}

static void pmu_row(enum cltab_display d, struct rm_row *r, const struct cltab_offset *o)
{
	int peer = d == CLTAB_DISPLAY_PEER;

	r->offset = (uint32_t)o->offset;
	r->disp_offset = (uint32_t)o->disp_offset;
	r->code.ip = r->code.sampled_ip = o->ip;
	r->code.al = o->code_al;
	r->code.cpumode = o->cpumode;
	r->code.dso = o->dso_key;
	r->code.dso_bracketed = o->cmap && o->cmap->dso->name[0] == '[';
	if (o->has_sym) {
		r->code.symbol = o->code.symbol;
		r->code.sym_offset = o->code.sym_offset;
	}
	r->code.srcfile = o->code.srcfile;
	r->code.line = o->code.line;
	r->thread = o->thread;
	r->nr_cpus = o->cpu_cnt;
	r->visible = cltv_offset_visible(o, d);
	pmu_values(r->v, &o->stats, d);
	r->v[RM_COL_COST] = cltab_metric(d, &o->stats);
	r->v[RM_COL_PA_CNT] = (double)o->paddr_cnt;
	r->v[RM_COL_CPUS] = o->cpu_cnt;
	r->v[RM_COL_CYC_RMT] = mean(&o->cycles[peer ? CLTAB_CYC_RMT_PEER : CLTAB_CYC_RMT_HITM]);
	r->v[RM_COL_CYC_LCL] = mean(&o->cycles[peer ? CLTAB_CYC_LCL_PEER : CLTAB_CYC_LCL_HITM]);
	r->v[RM_COL_CYC_LOAD] = mean(&o->cycles[CLTAB_CYC_LOAD]);
	r->nodeset = o->nodeset;
	r->cpuset = o->cpuset;
	r->node_stats = o->node_stats;
	r->src = o;
	r->callers = o->callers;
	r->nr_callers = o->nr_callers;
}

static int thread_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;

	return (x > y) - (x < y);
}

/* Distinct threads among the touches; fills each row's count too. The touches are grouped by
 * row first (a counting sort), so a line costs O(touches log touches), not rows x touches. */
static uint32_t count_threads(struct rm_line *l)
{
	const void **thr = xcalloc(l->nr_touch ? l->nr_touch : 1, sizeof(*thr));
	size_t *at = xcalloc(l->nr_row + 1, sizeof(*at));
	uint32_t n = 0;
	size_t i, k;

	for (i = 0; i < l->nr_touch; i++)
		if (l->touch[i].row < l->nr_row)
			at[l->touch[i].row + 1]++;
	for (k = 0; k < l->nr_row; k++)
		at[k + 1] += at[k];
	for (i = 0; i < l->nr_touch; i++)   /* at[row] runs to the end of the row's group */
		if (l->touch[i].row < l->nr_row)
			thr[at[l->touch[i].row]++] = l->touch[i].thread;
	for (k = 0; k < l->nr_row; k++) {
		size_t b = k ? at[k - 1] : 0, e = at[k];

		qsort(thr + b, e - b, sizeof(*thr), thread_cmp);
		l->row[k].nr_threads = 0;
		for (i = b; i < e; i++)
			l->row[k].nr_threads += i == b || thr[i] != thr[i - 1];
		l->row[k].v[RM_COL_THREADS] = l->row[k].nr_threads;
	}
	for (i = 0; i < l->nr_touch; i++)
		thr[i] = l->touch[i].thread;
	qsort(thr, l->nr_touch, sizeof(*thr), thread_cmp);
	for (i = 0; i < l->nr_touch; i++)
		n += !i || thr[i] != thr[i - 1];
	free(at);
	free(thr);
	return n;
}

/* The rows of @ln in mode @d: the shown ones in its order, then the others in the table's. */
static size_t *pmu_row_order(const struct cltab *t, const struct cltab_line *ln,
			     enum cltab_display d)
{
	uint32_t *shown = xcalloc(ln->nr_off ? ln->nr_off : 1, sizeof(*shown));
	size_t *order = xcalloc(ln->nr_off ? ln->nr_off : 1, sizeof(*order));
	size_t n, i, k = 0;

	if (d == cltab_opts(t)->display) {
		for (i = 0; i < ln->nr_off; i++)
			order[i] = i;
		free(shown);
		return order;
	}
	n = cltv_offsets(t, ln, d, shown);
	for (i = 0; i < n; i++)
		order[k++] = shown[i];
	for (i = 0; i < ln->nr_off; i++)
		if (!cltv_offset_visible(ln->off[i], d))
			order[k++] = i;
	free(shown);
	return order;
}

static void pmu_line(struct rm_model *m, const struct cltab *t, struct rm_line *l,
		     const struct cltab_line *ln)
{
	enum cltab_display d = m->display;
	size_t *order = pmu_row_order(t, ln, d);
	size_t i, k, nt = 0;

	l->addr = ln->addr;
	l->vaddr = ln->vaddr;
	l->cost = cltab_metric(d, &ln->stats);
	pmu_values(l->v, &ln->stats, d);
	l->v[RM_COL_PA_CNT] = (double)ln->paddr_cnt;
	l->nodeset = ln->nodeset;
	l->v[RM_COL_COST] = m->total_cost ? 100.0 * l->cost / m->total_cost : 0;
	l->row = xcalloc(ln->nr_off ? ln->nr_off : 1, sizeof(*l->row));
	l->nr_row = ln->nr_off;
	for (i = 0; i < ln->nr_off; i++) {
		pmu_row(d, &l->row[i], ln->off[order[i]]);
		nt += ln->off[i]->nr_touch;
	}
	l->touch = xcalloc(nt ? nt : 1, sizeof(*l->touch));
	for (i = 0; i < ln->nr_off; i++) {
		const struct cltab_offset *o = ln->off[order[i]];

		for (k = 0; k < o->nr_touch; k++) {
			const struct cltab_touch *ct = &o->touch[k];
			struct rm_touch *tt = &l->touch[l->nr_touch];

			if (!ct->n[CLTAB_T_LD] && !ct->n[CLTAB_T_ST])
				continue;   /* samples of neither kind (unparsable data_src) */
			tt->thread = ct->thread;
			tt->row = (uint32_t)i;
			tt->offset = (uint32_t)o->offset;
			tt->reads = ct->n[CLTAB_T_LD];
			tt->writes = ct->n[CLTAB_T_ST];
			tt->atomics = ct->n[CLTAB_T_LOCK];
			tt->cost = touch_cost(ct, d);
			tt->cpu = TRACE_CPU_NONE;
			l->nr_touch++;
		}
	}
	l->nr_threads = count_threads(l);
	l->v[RM_COL_THREADS] = l->nr_threads;
	l->src = ln;
	free(order);
}

struct rm_model *rm_from_cltab(const struct cltab *t, enum cltab_display d,
			       struct cltab_line *const *ln, size_t nr)
{
	struct rm_model *m = model_new(RM_PMU);
	size_t i;

	m->t = t;
	m->callers = cltab_callers(t);
	m->display = d;
	m->cl_size = cltab_opts(t)->cl_size;
	m->cost_name = rm_display_title(m->display);
	memcpy(m->coalesce, cltab_opts(t)->coalesce, sizeof(m->coalesce));
	m->nr_coalesce = cltab_opts(t)->nr_coalesce;
	m->nr_cpus = cltab_opts(t)->nr_cpus;
	m->nr_nodes = cltab_opts(t)->nr_nodes;
	m->nr_node_bits = cltab_nr_node_bits(t);
	m->cpu_node = cltab_opts(t)->cpu_node;
	m->cost_unit = m->display == CLTAB_DISPLAY_PEER ? "peer snoops" : "HITMs";
	m->total_cost = cltab_metric(m->display, cltab_total(t));
	m->total_samples = (uint64_t)m->total_cost;
	m->nr_all_lines = cltab_nr_lines(t);
	rm_stats_build(m, cltab_total(t), cltab_shared(t), cltab_nr_shared(t));
	m->line = xcalloc(nr ? nr : 1, sizeof(*m->line));
	m->nr_line = nr;
	for (i = 0; i < nr; i++) {
		m->line[i].index = (uint32_t)i;
		pmu_line(m, t, &m->line[i], ln[i]);
	}
	return m;
}

/* --- soft and watch ---------------------------------------------------------------------------- */

static void counts_values(double *v, const struct estim_counts *c)
{
	v[RM_COL_SAMPLES] = (double)c->samples;
	v[RM_COL_LOADS] = (double)(c->loads + c->unknown);
	v[RM_COL_STORES] = (double)c->stores;
	v[RM_COL_ATOMICS] = (double)c->atomics;
}

static void watch_values(double *v, const struct watch_stats *ws)
{
	v[RM_COL_XFERS] = (double)ws->hitm;
	v[RM_COL_XFALSE] = (double)ws->hitm_false;
	v[RM_COL_INVAL] = (double)ws->inval;
}

static double estim_cost(const struct rm_model *m, const struct estim_counts *c,
			 const struct watch_stats *ws)
{
	return m->kind == RM_WATCH ? (double)ws->hitm : (double)c->weight;
}

static void estim_line_model(struct rm_model *m, struct rm_line *l, const struct estim_line *el)
{
	size_t i, k, nt = 0;

	l->addr = el->addr;
	l->vaddr = el->vaddr;
	l->cost = estim_cost(m, &el->c, &el->ws);
	counts_values(l->v, &el->c);
	watch_values(l->v, &el->ws);
	l->v[RM_COL_CPUS] = (double)el->cpus.nr;
	l->v[RM_COL_IPS] = el->nr_ips;
	l->nr_cpus = (uint32_t)el->cpus.nr;
	l->row = xcalloc(el->nr_site ? el->nr_site : 1, sizeof(*l->row));
	l->nr_row = el->nr_site;
	for (i = 0; i < el->nr_site; i++) {
		const struct estim_site *s = &el->site[i];
		struct rm_row *r = &l->row[i];

		r->offset = r->disp_offset = s->offset;
		rm_code_estim(&r->code, s->ip, s->code_al, el->cpumode, s->cmap,
			      s->has_code ? &s->code : NULL);
		r->code.sampled_ip = s->nr_sip ? s->sip[0].ip : s->ip;
		r->thread = s->nr_tc ? s->tc[0].thread : NULL;
		r->nr_cpus = (uint32_t)s->cpus.nr;
		r->inferred = s->c.inferred;
		r->visible = 1;
		counts_values(r->v, &s->c);
		watch_values(r->v, &s->ws);
		r->v[RM_COL_COST] = estim_cost(m, &s->c, &s->ws);
		r->v[RM_COL_CPUS] = (double)s->cpus.nr;
		r->src = s;
		r->callers = s->callers;
		r->nr_callers = s->nr_callers;
		nt += s->nr_tc;
	}
	l->touch = xcalloc(nt ? nt : 1, sizeof(*l->touch));
	for (i = 0; i < el->nr_site; i++) {
		const struct estim_site *s = &el->site[i];

		for (k = 0; k < s->nr_tc; k++) {
			const struct estim_tc *tc = &s->tc[k];
			struct rm_touch *tt = &l->touch[l->nr_touch++];

			tt->thread = tc->thread;
			tt->row = (uint32_t)i;
			tt->offset = s->offset;
			tt->reads = tc->c.loads + tc->c.unknown;
			tt->writes = tc->c.stores;
			tt->atomics = tc->c.atomics;
			tt->cost = estim_cost(m, &tc->c, &tc->ws);
			tt->cpu = tc->cpu;
			tt->t_first = tc->t_first;
			tt->t_last = tc->t_last;
			tt->span = tc->span;
			tt->nr_span = tc->nr_span;
			for (uint32_t w = 0; w < tc->nr_span; w++)
				tt->span_bits += (uint32_t)__builtin_popcountll(tc->span[w]);
		}
	}
	l->nr_threads = count_threads(l);
	l->v[RM_COL_THREADS] = l->nr_threads;
	l->src = el;
	rm_confirm_build(m, l, el);
}

static int line_cost_cmp(const void *pa, const void *pb)
{
	const struct rm_line *a = pa, *b = pb;

	if (a->cost != b->cost)
		return (a->cost < b->cost) - (a->cost > b->cost);
	if (a->v[RM_COL_SAMPLES] != b->v[RM_COL_SAMPLES])
		return (a->v[RM_COL_SAMPLES] < b->v[RM_COL_SAMPLES]) -
		       (a->v[RM_COL_SAMPLES] > b->v[RM_COL_SAMPLES]);
	return (a->index > b->index) - (a->index < b->index);
}

static void renumber(struct rm_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_line; i++)
		m->line[i].index = (uint32_t)i;
}

struct rm_model *rm_from_estim(const struct estim *e)
{
	const struct estim_totals *tot = estim_totals(e);
	struct rm_model *m = model_new(estim_opts(e)->mode == ESTIM_WATCH ? RM_WATCH : RM_SOFT);
	size_t nr = estim_nr_lines(e), i;

	m->e = e;
	m->callers = estim_callers(e);
	m->confirm_run = tot->have_confirm ? &tot->confirm : NULL;
	m->cl_size = estim_opts(e)->cl_size;
	m->nr_all_lines = nr;
	m->line = xcalloc(nr ? nr : 1, sizeof(*m->line));
	m->nr_line = nr;
	for (i = 0; i < nr; i++) {
		m->line[i].index = (uint32_t)i;   /* the estimate's order: the last tie-break */
		estim_line_model(m, &m->line[i], estim_line(e, i));
		m->total_cost += m->kind == RM_WATCH ? m->line[i].cost : 0;
	}
	if (m->kind == RM_SOFT)
		m->total_cost = (double)tot->weight;   /* every sample's time, recovered or not */
	m->total_samples = m->kind == RM_SOFT ? tot->samples : (uint64_t)m->total_cost;
	for (i = 0; i < nr; i++) {
		struct rm_line *l = &m->line[i];
		size_t k;

		l->v[RM_COL_COST] = m->total_cost ? 100.0 * l->cost / m->total_cost : 0;
		for (k = 0; k < l->nr_row; k++)
			l->row[k].v[RM_COL_COST] = m->total_cost ?
				100.0 * l->row[k].v[RM_COL_COST] / m->total_cost : 0;
	}
	if (nr)
		qsort(m->line, nr, sizeof(*m->line), line_cost_cmp);
	renumber(m);
	return m;
}

/* --- keeping, naming ----------------------------------------------------------------------------- */

static void line_release(struct rm_line *l)
{
	size_t i;

	for (i = 0; i < l->nr_mem; i++) {
		free(l->mem[i].writers);
		free(l->mem[i].readers);
	}
	free(l->mem);
	free(l->row);
	free(l->touch);
	rm_confirm_free(l->confirm);
}

static int contended_cmp(const void *pa, const void *pb)
{
	const struct rm_line *a = pa, *b = pb;
	int ca = a->verdict != RM_V_NONE, cb = b->verdict != RM_V_NONE;

	if (ca != cb)
		return cb - ca;
	return line_cost_cmp(pa, pb);
}

void rm_keep(struct rm_model *m, int (*keep)(const struct rm_line *l, void *ctx), void *ctx,
	     int contended_first)
{
	size_t i, n = 0;

	for (i = 0; i < m->nr_line; i++) {
		if (keep && !keep(&m->line[i], ctx)) {
			line_release(&m->line[i]);
			continue;
		}
		m->line[n++] = m->line[i];
	}
	m->nr_line = n;
	if (contended_first && n)
		qsort(m->line, n, sizeof(*m->line), contended_cmp);
	renumber(m);
}

/* Where line @l's memory is, seen from its row @r (NULL: the line's start). */
static void where_of(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
		     struct rm_where *w)
{
	memset(w, 0, sizeof(*w));
	if (m->kind == RM_PMU) {
		const struct cltab_line *ln = l->src;
		const struct cltab_offset *o = r ? r->src : NULL;

		w->cpumode = ln->cpumode;
		w->dmap = ln->dmap;
		w->key_pid = ln->key_pid;
		w->thread = ln->nr_off ? ln->off[0]->thread : NULL;
		if (o) {
			w->cmap = o->cmap;
			w->ip = o->ip;
			w->code_cpumode = o->cpumode;
		}
	} else {
		const struct estim_line *el = l->src;
		const struct estim_site *s = r ? r->src : NULL;

		w->cpumode = el->cpumode;
		w->dmap = el->dmap;
		w->key_pid = el->key_pid;
		w->thread = el->thread;
		if (s) {
			w->cmap = s->cmap;
			w->ip = s->ip;
			w->back = s->back;
			w->code_cpumode = el->cpumode;
		}
	}
	w->brk_heap = w->dmap && w->cpumode != MAPS_CPUMODE_KERNEL &&
		      maps_is_brk_heap(w->thread, w->dmap);
}

/* A row whose member has an unknown index, to be told apart from the other elements. */
struct elem_row {
	struct rm_row *row;
	struct rm_line *line;
};

/* Give the rows named with an unknown index ("sum[]") their element (names.h, ELEMENTS). */
static void index_elems(struct rm_model *m, struct rm_elem *e, struct elem_row *er, size_t n)
{
	char buf[512];

	for (size_t i = 0; i < n; i++)
		e[i].object = er[i].line->object;
	rm_elem_index(e, n);
	for (size_t i = 0; i < n; i++) {
		struct rm_row *r = er[i].row;
		rm_elem_text(&e[i], r->data, buf, sizeof(buf));
		r->data = pool_str(m, buf);
		rm_elem_text(&e[i], r->member, buf, sizeof(buf));
		r->member = pool_str(m, buf);
	}
}

/* A row named from its code ("e->hits" of "*e"), with the object instance it is relative to. */
static int inst_row_cmp(const void *pa, const void *pb)
{
	const struct rm_row *a = *(const struct rm_row *const *)pa;
	const struct rm_row *b = *(const struct rm_row *const *)pb;
	int c = strcmp(a->object, b->object);

	if (!c)
		c = strcmp(a->type, b->type);
	if (!c)
		c = (a->inst_size > b->inst_size) - (a->inst_size < b->inst_size);
	if (!c)
		c = (a->inst > b->inst) - (a->inst < b->inst);
	return c;
}

static int same_inst_group(const struct rm_row *a, const struct rm_row *b)
{
	return !strcmp(a->object, b->object) && !strcmp(a->type, b->type) &&
	       a->inst_size == b->inst_size;
}

/* "e->hits" -> "e->hits (element i+1)", keeping a " (+N)" suffix last. */
static const char *inst_text(struct rm_model *m, const char *text, const char *tag)
{
	const char *p = strstr(text, " (+");
	char buf[512];

	snprintf(buf, sizeof(buf), "%.*s %s%s", p ? (int)(p - text) : (int)strlen(text), text,
		 tag, p ? p : "");
	return pool_str(m, buf);
}

/* INSTANCES. Memory typed by code is named by the pointer the code goes through, and every
 * thread's "me" may point at an element of its own: rows "me->hits" of different instances
 * (the same object name, type and size at different first bytes) are different data. Where a
 * group has more than one instance, each row says which: "me->hits (element i)", "(element
 * i+1)" from the lowest instance seen when they are whole elements apart (an array), else
 * "(instance 2)" in address order. One instance keeps the code's name. */
static void index_instances(struct rm_model *m, struct rm_row **r, size_t n)
{
	char tag[48];
	size_t i, k, j;

	if (n)
		qsort(r, n, sizeof(*r), inst_row_cmp);
	for (i = 0; i < n; i = k) {
		int array = 1;
		size_t distinct = 1;

		for (k = i + 1; k < n && same_inst_group(r[i], r[k]); k++) {
			distinct += r[k]->inst != r[k - 1]->inst;
			array &= (r[k]->inst - r[i]->inst) % r[i]->inst_size == 0 &&
				 (r[k]->inst - r[i]->inst) / r[i]->inst_size < 1u << 20;
		}
		if (distinct < 2)
			continue;
		for (j = i, distinct = 1; j < k; j++) {
			uint64_t d = (r[j]->inst - r[i]->inst) / r[i]->inst_size;

			distinct += j > i && r[j]->inst != r[j - 1]->inst;
			if (array && d)
				snprintf(tag, sizeof(tag), "(element i+%llu)", (unsigned long long)d);
			else if (array)
				snprintf(tag, sizeof(tag), "(element i)");
			else
				snprintf(tag, sizeof(tag), "(instance %zu)", distinct);
			r[j]->member = inst_text(m, r[j]->member, tag);
			r[j]->data = inst_text(m, r[j]->data, tag);
		}
	}
}

/* PMU rows at the same offset are named once: their data address is the same, and the first
 * row's instruction decides a heap object's type as the Pareto's first row would. */
/* The bytes a row's name covers, when it is an instance of known bytes: [*lo, *lo + size). */
static int inst_of(const struct sym_data_info *d, int rc, uint64_t addr, uint64_t *lo)
{
	if (rc < 0 || !d->var || !d->type || !d->var_size || d->var_offset > addr ||
	    (d->member && strstr(d->member, " (+?)")))
		return 0;
	*lo = addr - d->var_offset;
	return 1;
}

/* A scalar named through a pointer to it (Rust's AtomicUsize::fetch_add reaches the counter as
 * atomic_add's "*dst", a usize) inside an instance another row of the line names as a struct
 * ("*b", an ArcData<u64>) by code of the same file: the scalar is that struct's member
 * ("b->ref_count"), and the object is the struct, not a library function's parameter. */
static void contained_scalars(struct sym_session *sym, const struct rm_line *l,
			      struct sym_data_info *nd, const int *nrc)
{
	for (size_t k = 0; k < l->nr_row; k++) {
		uint64_t a = l->vaddr + l->row[k].offset, lo, olo;
		const char *mem;

		if (nrc[k] != RM_NAME_BY_CODE || !nd[k].var || nd[k].var[0] != '*' ||
		    !inst_of(&nd[k], nrc[k], a, &lo) || !rm_scalar_type(nd[k].type))
			continue;
		for (size_t j = 0; j < l->nr_row; j++) {
			const struct sym_data_info *q = &nd[j];
			uint64_t qa = l->vaddr + l->row[j].offset;

			/* the struct as the same program's code sees it: not the allocator's view
			 * of the same bytes (a freed object is glibc's tcache_entry) */
			if (j == k || !l->row[j].code.dso || !l->row[k].code.dso ||
			    strcmp(l->row[j].code.dso, l->row[k].code.dso) ||
			    !inst_of(q, nrc[j], qa, &olo) || rm_scalar_type(q->type) ||
			    q->var_size <= nd[k].var_size || lo < olo ||
			    lo + nd[k].var_size > olo + q->var_size || !q->type_ref.dwarf ||
			    !(mem = sym_member_at(sym, q, a - olo)))
				continue;
			nd[k].var = q->var;
			nd[k].type = q->type;
			nd[k].var_size = q->var_size;
			nd[k].var_offset = a - olo;
			nd[k].member = mem;
			nd[k].lang = q->lang;
			nd[k].type_ref = q->type_ref;
			nd[k].elem_size = nd[k].elem_off = nd[k].elem_count = 0;
			break;
		}
	}
}

void rm_name(struct rm_model *m, const struct rm_name_opts *o)
{
	struct sym_data_info d;
	struct rm_where w;
	struct rm_what what;
	struct rm_aliases al = {0};
	struct rm_elem *el = NULL;
	struct elem_row *er = NULL;
	struct rm_row **ir = NULL;
	struct sym_data_info *nd = NULL;
	int *nrc = NULL;
	size_t nel = 0, cap_el = 0, cap_er = 0, nir = 0, cap_ir = 0, cap_nd = 0, cap_nrc = 0;
	char buf[512];
	size_t i, k;
	int rc;

	for (i = 0; i < m->nr_line; i++) {
		struct rm_line *l = &m->line[i];

		rm_what_init(&what);
		where_of(m, l, NULL, &w);
		rc = rm_name_data(o->sym, o->maps, &w, l->vaddr, &d);
		if (rc >= 0)
			d.var = rm_alias_var(&al, l->vaddr, &d);
		rm_what_add(&what, rc, &d);
		nd = xgrow(nd, &cap_nd, l->nr_row, sizeof(*nd));
		nrc = xgrow(nrc, &cap_nrc, l->nr_row, sizeof(*nrc));
		for (k = 0; k < l->nr_row; k++) {
			where_of(m, l, &l->row[k], &w);
			nrc[k] = rm_name_data(o->sym, o->maps, &w, l->vaddr + l->row[k].offset, &nd[k]);
		}
		contained_scalars(o->sym, l, nd, nrc);
		for (k = 0; k < l->nr_row; k++) {
			struct rm_row *r = &l->row[k];

			where_of(m, l, r, &w);
			rc = nrc[k];
			d = nd[k];
			if (rc >= 0)
				d.var = rm_alias_var(&al, l->vaddr + r->offset, &d);
			if (r->visible)
				rm_what_add(&what, rc, &d);
			rm_row_text(rc, &d, &w, o->verbose, buf, sizeof(buf));
			r->data = pool_str(m, buf);
			r->member = r->object = r->object_what = r->type = NULL;
			r->has_inst = r->lock = r->lang = 0;
			if (rc >= 0) {
				struct rm_what one;

				rm_member_name(&d, buf, sizeof(buf));
				r->member = pool_str(m, buf);
				r->lock = d.lock != NULL;
				rm_what_init(&one);
				rm_what_add(&one, rc, &d);
				if (!rm_what_object(&one, &w, buf, sizeof(buf)))
					r->object = pool_str(m, buf);
				rm_what_text(&one, &w, o->verbose, buf, sizeof(buf));
				r->object_what = pool_str(m, buf);
				r->type = d.type;
				r->lang = (uint8_t)d.lang;
				/* the instance: its bytes are known (no "(+?)" offset, a size) */
				if (d.var_size && d.var_offset <= l->vaddr + r->offset &&
				    !(d.member && strstr(d.member, " (+?)"))) {
					r->inst = l->vaddr + r->offset - d.var_offset;
					r->inst_size = d.var_size;
					r->has_inst = 1;
				}
			}
			if (!r->lang)    /* memory nobody typed: the advice speaks the code's language */
				r->lang = (uint8_t)lang_of_source(r->code.srcfile);
			if (rc == RM_NAME_BY_CODE && r->has_inst && r->object && r->type &&
			    !strstr(r->member, "[]")) {
				ir = xgrow(ir, &cap_ir, nir + 1, sizeof(*ir));
				ir[nir++] = r;
			}
			if (rc >= 0 && d.elem_size && strstr(r->member, "[]")) {
				el = xgrow(el, &cap_el, nel + 1, sizeof(*el));
				er = xgrow(er, &cap_er, nel + 1, sizeof(*er));
				el[nel] = (struct rm_elem){ .member = r->member,
							    .addr = l->vaddr + r->offset,
							    .size = d.elem_size, .off = d.elem_off,
							    .count = d.elem_count };
				er[nel++] = (struct elem_row){ r, l };
			}
			if (o->sym && w.cmap && !w.cmap->dso->kernel &&
			    sym_access_size(o->sym, &w.cmap->mmap, w.ip, w.back, &r->size))
				r->size = 0;
		}
		for (k = 0; k < l->nr_touch; k++)
			l->touch[k].size = l->row[l->touch[k].row].size;
		where_of(m, l, NULL, &w);
		rm_what_text(&what, &w, o->verbose, buf, sizeof(buf));
		l->what = pool_str(m, buf);
		l->object = rm_what_object(&what, &w, buf, sizeof(buf)) ? NULL : pool_str(m, buf);
		l->object_what = NULL;
	}
	index_elems(m, el, er, nel);
	index_instances(m, ir, nir);
	free(ir);
	free(nd);
	free(nrc);
	rm_aliases_free(&al);
	free(el);
	free(er);
	rm_confirm_name(m, o);
}

/* --- lookups and text ---------------------------------------------------------------------------- */

const struct rm_row *rm_row_of(const struct rm_line *l, const void *src)
{
	size_t i;

	for (i = 0; i < l->nr_row; i++)
		if (l->row[i].src == src)
			return &l->row[i];
	return NULL;
}

const struct rm_line *rm_line_of(const struct rm_model *m, const void *src)
{
	size_t i;

	for (i = 0; i < m->nr_line; i++)
		if (m->line[i].src == src)
			return &m->line[i];
	return NULL;
}

const char *rm_object_short(const struct rm_line *l)
{
	const char *p;

	if (!l->object)
		return "-";
	p = strstr(l->object, ": ");
	return p ? p + 2 : l->object;
}

void rm_thread_name(const struct maps_thread *t, char *buf, size_t n)
{
	if (!t)
		snprintf(buf, n, "-");
	else if (t->task)
		snprintf(buf, n, "%s/G%llu", t->comm_set && t->comm ? t->comm : "goroutine",
			 (unsigned long long)t->task);
	else if (!t->comm_set || !t->comm)
		snprintf(buf, n, "tid %d", t->tid);
	else
		snprintf(buf, n, "%s/%d", t->comm, t->tid);
}

void rm_free(struct rm_model *m)
{
	struct rm_pool *p, *next;
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_line; i++)
		line_release(&m->line[i]);
	free(m->line);
	for (p = m->pool; p; p = next) {
		next = p->next;
		free(p);
	}
	free((void *)m->stats);
	free(m);
}

int rm_check(const struct rm_model *m)
{
	size_t i, k;

	for (i = 0; i < m->nr_line; i++) {
		const struct rm_line *l = &m->line[i];
		double rd = 0, wr = 0, rows_ld = 0, rows_st = 0;

		for (k = 0; k < l->nr_touch; k++) {
			if (l->touch[k].row >= l->nr_row)
				return c2c_err(-EBADMSG, "line %zu: touch %zu of row %u of %zu", i, k,
					       l->touch[k].row, l->nr_row);
			rd += (double)l->touch[k].reads;
			wr += (double)l->touch[k].writes;
		}
		for (k = 0; k < l->nr_row; k++) {
			rows_ld += l->row[k].v[RM_COL_LOADS];
			rows_st += l->row[k].v[RM_COL_STORES];
		}
		if (m->kind != RM_PMU && (rd != rows_ld || wr != rows_st))
			return c2c_err(-EBADMSG, "line %zu: touches %g/%g, rows %g/%g", i, rd, wr,
				       rows_ld, rows_st);
		if (m->kind == RM_PMU && wr != rows_st)
			return c2c_err(-EBADMSG, "line %zu: touches write %g, rows store %g", i, wr,
				       rows_st);
	}
	return 0;
}
