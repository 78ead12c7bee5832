/* Finishing an estimate table (estim_finish()): the watch model's verdicts, inferred samples
 * charged to one candidate each, lines ordered, symbols resolved. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/estimate-int.h"

/* --- watch model ---------------------------------------------------------------------------- */

static void estim_watch_sites(struct estim_line *l, const struct watch_line *wl)
{
	size_t i, pos;
	int found;

	l->ws = wl->total;
	for (i = 0; i < l->nr_off; i++)
		if (l->off[i].offset < WATCH_LINE_MAX)
			l->off[i].ws = wl->by_offset[l->off[i].offset];
	for (i = 0; i < wl->nr_sites; i++) {
		struct estim_site *s;
		size_t k;

		pos = estim_site_pos(l, wl->sites[i].offset, wl->sites[i].ip, &found);
		if (!found)
			continue;
		s = &l->site[pos];
		watch_stats_add(&s->ws, &wl->sites[i].st);
		for (k = 0; k < s->nr_tc; k++)
			if ((uint32_t)s->tc[k].thread->tid == wl->sites[i].tid)
				watch_stats_add(&s->tc[k].ws, &wl->sites[i].st);
	}
}

static void estim_watch_line(struct estim *e, struct estim_line *l)
{
	struct watch_model *m;
	size_t i, n = 0;

	if (!l->nr_acc)
		return;
	if (watch_model_new(&m, e->opts.cl_size)) {
		e->tot.model_errors += l->nr_acc;
		return;
	}
	for (i = 0; i < l->nr_acc; i++) {
		if (l->acc[i].cpu > 4095)
			e->tot.model_errors++;
		else
			l->acc[n++] = l->acc[i];
	}
	if (watch_model_add_all(m, l->acc, n))
		e->tot.model_errors += n;
	else if (watch_model_nr_lines(m) == 1)
		estim_watch_sites(l, watch_model_line(m, 0));
	watch_model_free(m);
	free(l->acc);
	l->acc = NULL;
	l->nr_acc = l->cap_acc = 0;
}

/* --- ordering and symbols ------------------------------------------------------------------- */

static int estim_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

static int estim_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct estim_line *a = *(struct estim_line *const *)pa;
	const struct estim_line *b = *(struct estim_line *const *)pb;
	const struct estim *e = arg;
	struct estim_key ka, kb;
	int c;

	if (e->opts.mode == ESTIM_WATCH) {
		if ((c = estim_desc(a->ws.hitm, b->ws.hitm)) ||
		    (c = estim_desc(a->ws.inval, b->ws.inval)))
			return c;
	} else if ((c = estim_desc(a->c.weight, b->c.weight))) {
		return c;
	}
	if ((c = estim_desc(a->c.samples, b->c.samples)))
		return c;
	estim_line_key(a, &ka);
	estim_line_key(b, &kb);
	if ((c = estim_key_cmp(&ka, &kb)))
		return c;
	return estim_u64_cmp(a->seq, b->seq);
}

static int estim_frame_sym(void *ctx, const struct callers_frame *f, const char **symbol,
			   uint64_t *start)
{
	const struct estim *e = ctx;
	struct estim_code code = { 0 };

	if (!f->map || e->opts.code_sym(e->opts.sym_ctx, f->map, f->ip, f->al, &code) ||
	    !code.symbol)
		return -1;
	*symbol = code.symbol;
	*start = f->ip - code.sym_offset;
	return 0;
}

static void estim_resolve(struct estim *e, struct estim_line *l)
{
	size_t i, k;

	for (i = 0; i < l->nr_site && e->opts.code_sym; i++) {
		struct estim_site *s = &l->site[i];

		s->has_code = !e->opts.code_sym(e->opts.sym_ctx, s->cmap, s->ip, s->code_al,
						&s->code);
	}
	for (i = 0; i < l->nr_site && e->callers; i++) {
		struct estim_site *s = &l->site[i];

		s->nr_callers = callers_of_row(e->callers, s->id, &s->callers);
		for (k = 0; k < s->nr_callers; k++)
			callers_resolve(e->callers, s->callers[k].chain,
					e->opts.code_sym ? estim_frame_sym : NULL, e);
	}
}

const struct callers *estim_callers(const struct estim *e)
{
	return e->callers;
}

static int estim_u64_sort(const void *a, const void *b)
{
	return estim_u64_cmp(*(const uint64_t *)a, *(const uint64_t *)b);
}

static uint32_t estim_count_ips(const struct estim_line *l)
{
	uint64_t *ip;
	uint32_t n = 0;
	size_t i;

	if (!l->nr_site)
		return 0;
	ip = xmalloc(l->nr_site * sizeof(*ip));
	for (i = 0; i < l->nr_site; i++)
		ip[i] = l->site[i].ip;
	qsort(ip, l->nr_site, sizeof(*ip), estim_u64_sort);
	for (i = 0; i < l->nr_site; i++)
		n += !i || ip[i] != ip[i - 1];
	free(ip);
	return n;
}

/* Samples of thread @th that a candidate's site saw exactly (not inferred). */
static uint64_t estim_exact(struct estim *e, const struct estim_in *in)
{
	struct estim_line *l = estim_line_of(e, in, 0);
	uint32_t offset = (uint32_t)(in->addr & (e->opts.cl_size - 1));
	size_t pos;
	int found;

	if (!l)
		return 0;
	pos = estim_site_pos(l, offset, in->ip, &found);
	if (!found)
		return 0;
	for (size_t i = 0; i < l->site[pos].nr_tc; i++)
		if (l->site[pos].tc[i].thread == in->thread)
			return l->site[pos].tc[i].c.samples - l->site[pos].tc[i].c.inferred;
	return 0;
}

/* The samples of one thread with one set of candidates share a credit per candidate. */
struct estim_group {
	const struct maps_thread *thread;
	uint64_t ip[ESTIM_CAND_MAX], addr[ESTIM_CAND_MAX];
	uint8_t n;
	double credit[ESTIM_CAND_MAX];
};

static struct estim_group *estim_group_of(struct estim_group **g, size_t *nr, size_t *cap,
					  const struct estim_pend *p)
{
	for (size_t i = 0; i < *nr; i++) {
		struct estim_group *x = &(*g)[i];
		int same = x->thread == p->in.thread && x->n == p->n;

		for (int k = 0; same && k < p->n; k++)
			same = x->ip[k] == p->c[k].ip && x->addr[k] == p->c[k].addr;
		if (same)
			return x;
	}
	*g = xgrow(*g, cap, *nr + 1, sizeof(**g));
	memset(&(*g)[*nr], 0, sizeof(**g));
	(*g)[*nr].thread = p->in.thread;
	(*g)[*nr].n = p->n;
	for (int k = 0; k < p->n; k++) {
		(*g)[*nr].ip[k] = p->c[k].ip;
		(*g)[*nr].addr[k] = p->c[k].addr;
	}
	return &(*g)[(*nr)++];
}

/* Charge each inferred sample to one of its candidates, in proportion to the samples its
 * thread was seen taking at each exactly: the samples of one thread and one set of candidates
 * share a credit per candidate, each sample adds its shares and goes to the largest credit,
 * which pays one. A thread seen at none of them exactly: the recorder's pick (the first). */
static void estim_charge_inferred(struct estim *e)
{
	struct estim_group *g = NULL;
	size_t nr_g = 0, cap_g = 0;

	for (size_t i = 0; i < e->nr_pend; i++) {
		struct estim_pend *p = &e->pend[i];
		struct estim_group *x = estim_group_of(&g, &nr_g, &cap_g, p);
		double sum = 0, seen[ESTIM_CAND_MAX];
		int pick = 0;

		for (int k = 0; k < p->n; k++) {
			struct estim_in in = p->in;

			estim_use_cand(&in, &p->c[k]);
			sum += seen[k] = (double)estim_exact(e, &in);
		}
		if (sum > 0) {
			for (int k = 0; k < p->n; k++) {
				x->credit[k] += seen[k] / sum;
				if (x->credit[k] > x->credit[pick])
					pick = k;
			}
			x->credit[pick] -= 1;
		} else {
			e->tot.inferred_unseen++;
		}
		e->tot.inferred++;
		e->tot.inferred_weight += p->in.weight;
		e->tot.inferred_one_line += p->one_line;
		estim_use_cand(&p->in, &p->c[pick]);
		estim_add(e, &p->in);
	}
	free(g);
	free(e->pend);
	e->pend = NULL;
	e->nr_pend = e->cap_pend = 0;
}

static int estim_unattr_cmp(const void *pa, const void *pb)
{
	const struct estim_unattr *a = pa, *b = pb;
	int c;

	if ((c = estim_desc(a->weight, b->weight)) || (c = estim_desc(a->samples, b->samples)) ||
	    (c = estim_u64_cmp(a->ip, b->ip)))
		return c;
	return (a->reason > b->reason) - (a->reason < b->reason);
}

/* Sort the code addresses without a data address and resolve the heaviest. */
static void estim_finish_unattr(struct estim *e)
{
	free(e->ua_hash);
	e->ua_hash = NULL;
	e->ua_hash_size = 0;
	if (e->nr_ua > 1)
		qsort(e->ua, e->nr_ua, sizeof(*e->ua), estim_unattr_cmp);
	for (size_t i = 0; i < e->nr_ua && i < ESTIM_UNATTR_RESOLVE && e->opts.code_sym; i++)
		e->ua[i].has_code = !e->opts.code_sym(e->opts.sym_ctx, e->ua[i].cmap, e->ua[i].ip,
						      e->ua[i].code_al, &e->ua[i].code);
}

size_t estim_unattr(const struct estim *e, const struct estim_unattr **out)
{
	*out = e->ua;
	return e->nr_ua;
}

void estim_finish(struct estim *e)
{
	size_t i;

	if (e->finished)
		return;
	e->finished = 1;
	estim_charge_inferred(e);
	estim_finish_unattr(e);
	estim_cf_finish(e);
	for (i = 0; i < e->nr_lines; i++) {
		struct estim_line *l = e->lines[i];

		estim_watch_line(e, l);
		l->nr_ips = estim_count_ips(l);
		e->tot.unknown_kind += l->c.unknown;
		estim_resolve(e, l);
	}
	if (e->nr_lines)
		qsort_r(e->lines, e->nr_lines, sizeof(*e->lines), estim_line_cmp, e);
}
