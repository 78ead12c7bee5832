/* The soft backend's confirmation hits in an estimate table: counted on their lines, replayed
 * through the watch model window by window (estimate.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/estimate-int.h"

/* --- soft: confirmation hits and windows (estimate.h) ---------------------------------------- */

struct estim_chit {
	struct watch_access a;
	size_t after;            /* window blobs read before the hit */
	ssize_t win;             /* its window (estim_finish), -1: none */
};

int estim_is_confirm(const struct estim *e, const struct trace_sample *s)
{
	return e->opts.mode == ESTIM_SOFT && e->opts.confirm_event && s->event < e->opts.nr_events &&
	       e->opts.confirm_event[s->event];
}

static struct estim_confirm *estim_cf(struct estim_line *l)
{
	if (!l->cf)
		l->cf = xcalloc(1, sizeof(*l->cf));
	return l->cf;
}

void estim_cf_free(struct estim_confirm *cf)
{
	if (!cf)
		return;
	free(cf->acc);
	free(cf->coarm);
	free(cf->hit);
	free(cf);
}

static void estim_cf_count(struct estim_confirm *cf, uint32_t offset, uint32_t size,
			   const struct estim_in *in)
{
	size_t i;

	for (i = 0; i < cf->nr_acc; i++)
		if (cf->acc[i].offset == offset && cf->acc[i].thread == in->thread)
			break;
	if (i == cf->nr_acc) {
		size_t pos = 0;

		while (pos < cf->nr_acc && cf->acc[pos].offset <= offset)
			pos++;
		cf->acc = xgrow(cf->acc, &cf->cap_acc, cf->nr_acc + 1, sizeof(*cf->acc));
		memmove(cf->acc + pos + 1, cf->acc + pos, (cf->nr_acc - pos) * sizeof(*cf->acc));
		memset(&cf->acc[pos], 0, sizeof(cf->acc[pos]));
		cf->acc[pos].offset = offset;
		cf->acc[pos].thread = in->thread;
		cf->acc[pos].ip = in->ip;
		cf->acc[pos].code_al = in->code_al;
		cf->acc[pos].cmap = in->cmap;
		cf->acc[pos].t_first = in->time;
		cf->nr_acc++;
		i = pos;
	}
	if (in->time < cf->acc[i].t_first)
		cf->acc[i].t_first = in->time;
	if (in->time > cf->acc[i].t_last)
		cf->acc[i].t_last = in->time;
	if (size > cf->acc[i].size)
		cf->acc[i].size = size;
	switch (in->kind) {
	case ESTIM_K_STORE: cf->acc[i].writes++; break;
	case ESTIM_K_ATOMIC: cf->acc[i].atomics++; break;
	default: cf->acc[i].reads++; break;
	}
}

/* A confirmation hit: counted on its line, kept for the model. */
void estim_feed_hit(struct estim *e, struct maps *maps, const struct trace_sample *ts)
{
	struct maps_thread *th = maps_findnew_thread(maps, (int32_t)ts->pid, (int32_t)ts->tid);
	struct estim_in in = { .ip = ts->ip, .time = ts->time, .tid = ts->tid,
			       .pid = (int32_t)ts->pid, .cpumode = ts->cpumode, .thread = th };
	struct estim_confirm *cf;
	struct estim_chit *h;
	struct estim_line *l;
	uint32_t offset, size;

	e->tot.confirm_hits++;
	if (!(ts->flags & TRACE_SAMPLE_HAS_ADDR) || (e->opts.phys &&
	    (!(ts->flags & TRACE_SAMPLE_HAS_PHYS) || !ts->phys_addr)))
		return;
	in.phys = ts->phys_addr;
	estim_locate(maps, th, ts, &in);
	l = estim_line_of(e, &in, 1);
	cf = estim_cf(l);
	offset = (uint32_t)(in.addr & (e->opts.cl_size - 1));
	size = (ts->flags & TRACE_SAMPLE_HAS_WEIGHT) && ts->weight && ts->weight <= 8 ?
	       (uint32_t)ts->weight : 0;
	if (size && offset + size > e->opts.cl_size)
		size = e->opts.cl_size - offset;
	cf->hits++;
	estim_cf_count(cf, offset, size, &in);
	if (in.cpu == TRACE_CPU_NONE)
		return;
	cf->hit = xgrow(cf->hit, &cf->cap_hit, cf->nr_hit + 1, sizeof(*cf->hit));
	h = &cf->hit[cf->nr_hit++];
	h->a = (struct watch_access){ .time = in.time, .cpu = in.cpu, .tid = in.tid, .ip = in.ip,
				      .addr = l->cl + offset, .size = size ? size : 1,
				      .is_write = estim_is_write(in.kind) };
	h->after = e->nr_win;
	h->win = -1;
}

void estim_feed_blob(struct estim *e, const struct trace_blob *b)
{
	struct c2c_confirm_window w;

	if (e->opts.mode != ESTIM_SOFT)
		return;
	if (b->kind == TRACE_BLOB_CONFIRM_RUN) {
		if (c2c_confirm_run_parse(b->data, b->size, &e->tot.confirm))
			e->tot.confirm_bad++;
		else
			e->tot.have_confirm = 1;
		return;
	}
	if (b->kind != TRACE_BLOB_CONFIRM_WINDOW)
		return;
	if (c2c_confirm_window_parse(b->data, b->size, &w)) {
		e->tot.confirm_bad++;
		return;
	}
	e->win = xgrow(e->win, &e->cap_win, e->nr_win + 1, sizeof(*e->win));
	e->win[e->nr_win++] = w;
	e->tot.confirm_windows++;
}

/* Bit of the 8-byte word holding line offset @off. */
static uint32_t estim_word_bit(uint32_t off)
{
	return off / 8 < 32 ? 1u << (off / 8) : 0;
}

/* The words window @w armed on the line at @vaddr (0: none). */
static uint32_t estim_win_words(const struct c2c_confirm_window *w, uint64_t vaddr, uint32_t cl)
{
	uint32_t bits = 0;

	for (uint32_t i = 0; i < w->nr_words; i++)
		if ((w->word[i].addr & ~(uint64_t)(cl - 1)) == vaddr)
			bits |= estim_word_bit((uint32_t)(w->word[i].addr & (cl - 1)));
	return bits;
}

static int estim_chit_cmp(const void *pa, const void *pb)
{
	const struct estim_chit *a = pa, *b = pb;

	if (a->win != b->win)
		return (a->win > b->win) - (a->win < b->win);
	if (a->a.time != b->a.time)
		return (a->a.time > b->a.time) - (a->a.time < b->a.time);
	return (a->a.cpu > b->a.cpu) - (a->a.cpu < b->a.cpu);
}

static void estim_cf_model(struct estim *e, struct estim_line *l, struct watch_access *acc,
			   size_t n)
{
	struct estim_confirm *cf = l->cf;
	struct watch_model *m;

	if (!n || watch_model_new(&m, e->opts.cl_size))
		return;
	if (!watch_model_add_all(m, acc, n) && watch_model_nr_lines(m) == 1) {
		const struct watch_line *wl = watch_model_line(m, 0);

		watch_stats_add(&cf->ws, &wl->total);
		for (size_t i = 0; i < wl->nr_sites; i++)
			for (size_t k = 0; k < cf->nr_acc; k++)
				if (cf->acc[k].offset == wl->sites[i].offset &&
				    (uint32_t)cf->acc[k].thread->tid == wl->sites[i].tid) {
					watch_stats_add(&cf->acc[k].ws, &wl->sites[i].st);
					break;
				}
	}
	watch_model_free(m);
}

static int estim_vaddr_cmp(const void *pa, const void *pb)
{
	const struct estim_line *a = *(struct estim_line *const *)pa;
	const struct estim_line *b = *(struct estim_line *const *)pb;

	if (a->vaddr != b->vaddr)
		return (a->vaddr > b->vaddr) - (a->vaddr < b->vaddr);
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The windows of every line, then each line's hits replayed window by window. */
void estim_cf_finish(struct estim *e)
{
	struct estim_line **by = xmalloc((e->nr_lines ? e->nr_lines : 1) * sizeof(*by));
	size_t i, k;

	if (e->nr_lines) {
		memcpy(by, e->lines, e->nr_lines * sizeof(*by));
		qsort(by, e->nr_lines, sizeof(*by), estim_vaddr_cmp);
	}
	for (k = 0; k < e->nr_win && e->nr_lines; k++) {
		const struct c2c_confirm_window *w = &e->win[k];
		uint64_t vaddr = w->line & ~(uint64_t)(e->opts.cl_size - 1);
		size_t lo = 0, hi = e->nr_lines;

		while (lo < hi) {        /* the first line at vaddr or above */
			size_t mid = (lo + hi) / 2;

			if (by[mid]->vaddr < vaddr)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < e->nr_lines && by[i]->vaddr == vaddr; i++) {
			struct estim_line *l = by[i];
			uint32_t bits = l->phys ? 0 : estim_win_words(w, l->vaddr, e->opts.cl_size);
			struct estim_confirm *cf;
			size_t c;

			if (!bits)
				continue;
			cf = estim_cf(l);
			if (!cf->windows++)
				e->tot.confirm_lines++;
			cf->armed_ns += w->armed_ns;
			for (c = 0; c < cf->nr_coarm && cf->coarm[c].words != bits; c++)
				;
			if (c == cf->nr_coarm) {
				cf->coarm = xgrow(cf->coarm, &cf->cap_coarm, c + 1, sizeof(*cf->coarm));
				memset(&cf->coarm[c], 0, sizeof(cf->coarm[c]));
				cf->coarm[c].words = bits;
				cf->nr_coarm++;
			}
			cf->coarm[c].windows++;
			cf->coarm[c].armed_ns += w->armed_ns;
		}
	}
	free(by);
	for (i = 0; i < e->nr_lines; i++) {
		struct estim_line *l = e->lines[i];
		struct estim_confirm *cf = l->cf;
		struct watch_access *acc;
		size_t n = 0, start;

		if (!cf)
			continue;
		for (k = 0; k < cf->nr_hit; k++) {
			struct estim_chit *h = &cf->hit[k];
			uint32_t bit = estim_word_bit((uint32_t)(h->a.addr & (e->opts.cl_size - 1)));

			if (h->after < e->nr_win &&
			    (estim_win_words(&e->win[h->after], l->vaddr, e->opts.cl_size) & bit))
				h->win = (ssize_t)h->after;
			else if (h->after > 0 && (estim_win_words(&e->win[h->after - 1], l->vaddr,
								  e->opts.cl_size) & bit))
				h->win = (ssize_t)h->after - 1;
			if (h->win < 0)
				cf->unplaced++;
			else
				for (size_t c = 0; c < cf->nr_coarm; c++)
					if (cf->coarm[c].words == estim_win_words(&e->win[h->win],
										   l->vaddr, e->opts.cl_size))
						cf->coarm[c].hits++;
		}
		if (cf->nr_hit)
			qsort(cf->hit, cf->nr_hit, sizeof(*cf->hit), estim_chit_cmp);
		acc = xmalloc((cf->nr_hit ? cf->nr_hit : 1) * sizeof(*acc));
		for (k = 0; k <= cf->nr_hit; k++) {
			if (k < cf->nr_hit && cf->hit[k].win < 0)
				continue;
			if (n && (k == cf->nr_hit || cf->hit[k].win != cf->hit[start].win)) {
				estim_cf_model(e, l, acc, n);
				n = 0;
			}
			if (k == cf->nr_hit)
				break;
			if (!n)
				start = k;
			acc[n++] = cf->hit[k].a;
		}
		free(acc);
		free(cf->hit);
		cf->hit = NULL;
		cf->nr_hit = cf->cap_hit = 0;
		for (k = 0; k < cf->nr_acc && e->opts.code_sym; k++)
			cf->acc[k].has_code = !e->opts.code_sym(e->opts.sym_ctx, cf->acc[k].cmap,
								cf->acc[k].ip, cf->acc[k].code_al,
								&cf->acc[k].code);
		/* the co-armed sets by armed time */
		for (k = 1; k < cf->nr_coarm; k++)
			for (size_t j = k; j > 0 && cf->coarm[j].armed_ns > cf->coarm[j - 1].armed_ns;
			     j--) {
				struct estim_coarm t = cf->coarm[j];

				cf->coarm[j] = cf->coarm[j - 1];
				cf->coarm[j - 1] = t;
			}
	}
}
