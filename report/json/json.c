/* JSON and CSV over the report model (see json.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/soft.h"
#include "c2c/xalloc.h"
#include "report/json/json.h"
#include "report/json/jw.h"
#include "report/model/attrib.h"

/* --- shared pieces ------------------------------------------------------------------------------ */

static void thread_obj(struct jw *w, const char *key, const struct maps_thread *t)
{
	jw_obj(w, key);
	jw_num(w, "tid", t && !t->task ? t->tid : -1);
	jw_num(w, "pid", t ? t->pid : -1);
	jw_str(w, "comm", t && t->comm_set ? t->comm : NULL);
	if (t && t->task)     /* a goroutine (report/resolve/tasks.h): no one OS thread */
		jw_num(w, "goroutine", (double)t->task);
	jw_end(w);
}

static void threads_arr(struct jw *w, const char *key, const struct maps_thread *const *t,
			size_t nr)
{
	size_t i;

	jw_arr(w, key);
	for (i = 0; i < nr; i++)
		thread_obj(w, NULL, t[i]);
	jw_aend(w);
}

static const char *display_key(const struct report_session *s)
{
	return s->kind == RM_PMU ? rm_display_key(s->display) : NULL;
}

/* --- JSON --------------------------------------------------------------------------------------- */

/* The program's regions (REGION markers) and the samples inside each; absent without markers. */
static void regions(struct jw *w, const struct report_session *s)
{
	if (!rg_nr(s->rg))
		return;
	jw_obj(w, "regions");
	jw_str(w, "filter", s->opts.region);
	jw_u64(w, "outside", rg_outside(s->rg));
	jw_u64(w, "ignored_markers", rg_dropped(s->rg));
	jw_arr(w, "list");
	for (size_t i = 0; i < rg_nr(s->rg); i++) {
		const struct rg_region *r = rg_get(s->rg, i);

		jw_obj(w, NULL);
		jw_str(w, "name", r->name);
		jw_u64(w, "entries", r->entries);
		jw_u64(w, "ns", r->ns);
		jw_u64(w, "samples", r->self);
		jw_u64(w, "samples_incl", r->incl);
		jw_end(w);
	}
	jw_aend(w);
	jw_end(w);
}

static void uncore_count(struct jw *w, const char *key, uint64_t v)
{
	if (v == C2C_UNCORE_NONE)
		jw_str(w, key, NULL);
	else
		jw_u64(w, key, v);
}

/* AMD L3/DF counts of the run (include/c2c/uncore.h). */
static void uncore(struct jw *w, const struct c2c_uncore *u)
{
	static const char *const arr[] = { "l3", "dram", "links" };

	jw_obj(w, "amd_uncore");
	jw_num(w, "seconds", u->seconds);
	for (int k = 0; k < 3; k++) {
		jw_arr(w, arr[k]);
		for (size_t i = 0; i < u->nr; i++) {
			const struct c2c_uncore_row *r = &u->row[i];

			if ((int)r->kind != k)
				continue;
			jw_obj(w, NULL);
			jw_u64(w, "unit", r->unit);
			jw_u64(w, "cpu", r->cpu);
			uncore_count(w, k == C2C_UNCORE_L3 ? "accesses" : "count", r->a);
			uncore_count(w, k == C2C_UNCORE_L3 ? "misses" : "bytes", r->b);
			if (k != C2C_UNCORE_L3) {
				uncore_count(w, k == C2C_UNCORE_DRAM ? "read_bytes" : "in_bytes", r->in);
				uncore_count(w, k == C2C_UNCORE_DRAM ? "write_bytes" : "out_bytes",
					     r->out);
			}
			jw_end(w);
		}
		jw_aend(w);
	}
	jw_arr(w, "notes");
	for (size_t i = 0; i < u->nr_notes; i++)
		jw_str(w, NULL, u->note[i]);
	jw_aend(w);
	jw_end(w);
}

/* A TopDown breakdown: slots and the share (0..1) of every computed row. */
static void td_shares(struct jw *w, const char *key, const struct td_result *r)
{
	jw_obj(w, key);
	jw_num(w, "slots", r->slots);
	for (int o = 0; o < TDO_NR; o++)
		if (r->have & (1u << o))
			jw_num(w, td_out_name((enum td_out)o), r->v[o]);
	jw_end(w);
}

static void tdt_rows_json(struct jw *w, const struct report_session *s, int funcs)
{
	struct td_agg_sym_ctx tctx = { .maps = s->maps, .sym = s->sym };
	size_t nr;
	struct tdt_row *rows = tdt_rows(s->tdt, funcs, SIZE_MAX, s->sym ? td_agg_sym : NULL, &tctx,
					&nr);

	jw_arr(w, funcs ? "functions" : "lines");
	for (size_t i = 0; i < nr; i++) {
		jw_obj(w, NULL);
		if (funcs)
			jw_str(w, "function", rows[i].name);
		else
			jw_hex(w, "address", rows[i].line);
		jw_u64(w, "samples", rows[i].samples);
		td_shares(w, "topdown", &rows[i].r);
		jw_end(w);
	}
	jw_aend(w);
	free(rows);
}

/* TopDown beside IBS/SPE samples, attributed by time (report/aggregate/topdown-time.h). */
static void topdown_time(struct jw *w, const struct report_session *s)
{
	const struct td_reader *r = tdt_reader(s->tdt);
	const struct tdt_stats *st = tdt_stats(s->tdt);
	struct td_result res;
	char how[400];

	tdt_describe(s->tdt, how, sizeof(how));
	jw_obj(w, "topdown_by_time");
	jw_str(w, "attribution", how);
	jw_str(w, "model", r->model.cpu);
	jw_str(w, "scope", r->scope_cpu ? "cpu" : "thread");
	jw_u64(w, "period", r->period);
	jw_u64(w, "readings", st->readings);
	jw_u64(w, "intervals", st->intervals);
	jw_u64(w, "intervals_charged", st->intervals_charged);
	jw_u64(w, "samples_charged", st->samples_charged);
	jw_u64(w, "samples_uncharged", st->samples_uncharged);
	if (!tdt_total(s->tdt, 1, &res))
		td_shares(w, "all", &res);
	if (!tdt_total(s->tdt, 0, &res))
		td_shares(w, "charged", &res);
	tdt_rows_json(w, s, 0);
	tdt_rows_json(w, s, 1);
	jw_end(w);
}

static void header(struct jw *w, const struct report_session *s)
{
	const struct trace_info *in = s->info;
	uint32_t i;

	jw_obj(w, "header");
	jw_str(w, "input", source_path(s->src));
	jw_str(w, "host", in->hostname);
	jw_str(w, "arch", in->arch);
	jw_str(w, "kernel", in->kernel_release);
	jw_str(w, "cmdline", in->cmdline && *in->cmdline ? in->cmdline : NULL);
	jw_str(w, "backend", trace_backend_name(in->backend));
	jw_str(w, "kind", rm_kind_name(s->kind));
	jw_arr(w, "events");
	for (i = 0; i < in->nr_events; i++)
		jw_str(w, NULL, in->events[i].name);
	jw_aend(w);
	jw_num(w, "cacheline_size", s->cl_size);
	jw_str(w, "display", display_key(s));
	jw_str(w, "cost", s->m->cost_name);
	jw_str(w, "cost_unit", s->m->cost_unit);
	jw_num(w, "total_cost", s->m->total_cost);
	jw_u64(w, "records", s->records);
	jw_bool(w, "synthetic", !!(in->flags & TRACE_INFO_SYNTHETIC));
	jw_bool(w, "truncated", s->truncated);
	jw_bool(w, "estimated", s->kind == RM_SOFT);
	jw_bool(w, "phys", s->opts.phys);
	if (s->have_run) {
		jw_obj(w, "run");
		jw_u64(w, "wall_ns", s->run.wall_ns);
		jw_u64(w, "user_ns", s->run.user_ns);
		jw_u64(w, "sys_ns", s->run.sys_ns);
		jw_u64(w, "maxrss_kb", s->run.maxrss_kb);
		jw_str(w, "exit", s->run.signaled ? "signaled" : "exited");
		jw_num(w, "status", s->run.status);
		jw_end(w);
	}
	if (s->have_duty) {
		char text[1024];

		c2c_watch_duty_describe(&s->duty, text, sizeof(text));
		jw_obj(w, "watch_duty");
		jw_num(w, "budget", s->duty.budget);
		jw_num(w, "seen", c2c_watch_duty_seen(&s->duty));
		jw_bool(w, "seen_is_bound", c2c_watch_duty_bound(&s->duty));
		jw_num(w, "ns_per_hit", s->duty.ns_per_hit);
		jw_u64(w, "hits", s->duty.hits);
		jw_u64(w, "cpu_ns", s->duty.cpu_ns);
		jw_u64(w, "trap_ns", s->duty.trap_ns);
		jw_u64(w, "switches", s->duty.switches);
		jw_str(w, "text", text);
		jw_end(w);
	}
	regions(w, s);
	if (s->unc)
		uncore(w, s->unc);
	if (s->tdt)
		topdown_time(w, s);
	jw_end(w);
}

/* perf's c2c_stats counters, in struct dsrc_stats order. */
static const char *const dsrc_names[] = {
	"nr_entries", "locks", "store", "st_uncache", "st_noadrs", "st_l1hit", "st_l1miss",
	"st_na", "load", "ld_excl", "ld_shared", "ld_uncache", "ld_io", "ld_miss", "ld_noadrs",
	"ld_fbhit", "ld_l1hit", "ld_l2hit", "ld_llchit", "lcl_hitm", "rmt_hitm", "tot_hitm",
	"lcl_peer", "rmt_peer", "tot_peer", "rmt_hit", "lcl_dram", "rmt_dram", "blk_data",
	"blk_addr", "nomap", "noparse",
};

static void dsrc_obj(struct jw *w, const char *key, const struct dsrc_stats *st)
{
	const uint32_t *v = (const uint32_t *)st;
	size_t i;

	_Static_assert(sizeof(dsrc_names) / sizeof(dsrc_names[0]) * sizeof(uint32_t) ==
		       sizeof(struct dsrc_stats), "dsrc_names follows struct dsrc_stats");
	jw_obj(w, key);
	for (i = 0; i < sizeof(dsrc_names) / sizeof(dsrc_names[0]); i++)
		jw_u64(w, dsrc_names[i], v[i]);
	jw_end(w);
}

static void code_obj(struct jw *w, const struct rm_code *c)
{
	jw_obj(w, "code");
	jw_hex(w, "ip", c->ip);
	jw_hex(w, "sampled_ip", c->sampled_ip);
	jw_hex(w, "address", c->al);
	jw_str(w, "symbol", c->symbol);
	jw_u64(w, "symbol_offset", c->sym_offset);
	jw_str(w, "file", c->srcfile);
	jw_num(w, "line", c->line);
	jw_str(w, "object", c->dso);
	jw_end(w);
}

/* Soft: the share without a data address, where it went, and the inferred share (attrib.h). */
static void attribution(struct jw *w, const struct rm_model *m)
{
	struct rm_attrib a;

	rm_attrib_of(m, &a);
	jw_obj(w, "attribution");
	jw_u64(w, "no_address_samples", a.unattr_samples);
	jw_num(w, "no_address_pct", a.unattr_pct);
	jw_num(w, "warn_above_pct", RM_ATTRIB_WARN);
	jw_bool(w, "warning", a.warn);
	jw_arr(w, "top");
	for (size_t i = 0; i < a.nr_top; i++) {
		const struct rm_attrib_site *t = &a.top[i];

		jw_obj(w, NULL);
		code_obj(w, &t->code);
		jw_str(w, "reason", t->reason);
		jw_u64(w, "samples", t->samples);
		jw_num(w, "time_pct", t->pct);
		jw_end(w);
	}
	jw_aend(w);
	jw_obj(w, "inferred");
	jw_u64(w, "samples", a.inferred);
	jw_num(w, "time_pct", a.inferred_pct);
	jw_u64(w, "one_line", a.inferred_one_line);
	jw_u64(w, "unseen", a.inferred_unseen);
	jw_end(w);
	jw_end(w);
}

static void statistics(struct jw *w, const struct report_session *s)
{
	jw_obj(w, "statistics");
	if (s->t) {
		const struct cltab_counts *n = cltab_counts(s->t);

		jw_u64(w, "samples", n->samples);
		jw_u64(w, "lost_records", n->lost_records);
		jw_u64(w, "lost_samples", n->lost_samples);
		jw_u64(w, "throttled", n->throttle);
		jw_u64(w, "lines", cltab_nr_lines(s->t));
		jw_u64(w, "shared_lines", cltab_nr_shared(s->t));
		dsrc_obj(w, "events", cltab_total(s->t));
		dsrc_obj(w, "shared", cltab_shared(s->t));
	} else {
		const struct estim_totals *t = estim_totals(s->e);
		int i;

		jw_u64(w, "samples", t->samples);
		jw_u64(w, "weight", t->weight);
		jw_u64(w, "recovered", t->recovered);
		jw_u64(w, "recovered_weight", t->recovered_weight);
		jw_u64(w, "lost_records", t->lost_records);
		jw_u64(w, "lost_samples", t->lost_samples);
		jw_u64(w, "throttled", t->throttle);
		jw_u64(w, "unknown_kind", t->unknown_kind);
		jw_u64(w, "lines", estim_nr_lines(s->e));
		if (s->kind == RM_WATCH) {
			jw_obj(w, "offsets");
			jw_u64(w, "exact", t->placed[ESTIM_PLACED_EXACT]);
			jw_u64(w, "inferred", t->placed[ESTIM_PLACED_INFERRED]);
			jw_u64(w, "word_start", t->placed[ESTIM_PLACED_WORD]);
			jw_end(w);
		}
		jw_arr(w, "not_recovered");
		for (i = 0; i < ESTIM_NR_REASONS; i++) {
			if (!t->reason[i])
				continue;
			jw_obj(w, NULL);
			jw_str(w, "reason", i == ESTIM_NO_ADDR ? "no data address in the sample"
				   : softdec_reason_name((enum softdec_reason)i));
			jw_u64(w, "samples", t->reason[i]);
			jw_u64(w, "weight", t->reason_weight[i]);
			jw_end(w);
		}
		jw_aend(w);
		if (s->kind == RM_SOFT)
			attribution(w, s->m);
		if (s->kind == RM_SOFT && t->have_confirm) {
			const struct c2c_confirm_run *r = &t->confirm;

			jw_obj(w, "confirmation");
			jw_str(w, "status", c2c_confirm_status_name(r->status));
			jw_str(w, "reason", r->reason[0] ? r->reason : NULL);
			jw_u64(w, "hits", t->confirm_hits);
			jw_u64(w, "windows", t->confirm_windows);
			jw_u64(w, "lines", t->confirm_lines);
			jw_u64(w, "armed_ns", r->armed_ns);
			jw_u64(w, "cpu_ns", r->cpu_ns);
			jw_u64(w, "trap_ns", r->trap_ns);
			jw_num(w, "budget", r->budget);
			jw_num(w, "ns_per_hit", r->ns_per_hit);
			jw_end(w);
		}
	}
	jw_u64(w, "contended_lines", s->fs->nr_contended_lines);
	if (s->kind == RM_WATCH)
		jw_u64(w, "one_cpu_lines", s->fs->nr_one_cpu_lines);
	jw_end(w);
}

static void columns(struct jw *w, const char *key, const struct rm_model *m,
		    const enum rm_col_id *ids, size_t n)
{
	static const char *const fmt[] = {
		[RM_FMT_COUNT] = "count", [RM_FMT_PCT] = "percent", [RM_FMT_MEAN] = "mean",
		[RM_FMT_TEXT] = "text", [RM_FMT_LINE_PCT] = "percent", [RM_FMT_CYCLES] = "mean",
	};
	size_t i;

	jw_arr(w, key);
	for (i = 0; i < n; i++) {
		const struct rm_col *c = rm_model_col(m, ids[i]);

		jw_obj(w, NULL);
		jw_str(w, "key", c->key);
		jw_str(w, "group", c->group);
		jw_str(w, "header", c->hdr);
		jw_str(w, "format", fmt[c->fmt]);
		jw_end(w);
	}
	jw_aend(w);
}

static void values(struct jw *w, const struct rm_model *m, const struct rm_line *l,
		   const struct rm_row *r)
{
	const enum rm_col_id *ids = r ? m->row_cols : m->line_cols;
	size_t i, n = r ? m->nr_row_cols : m->nr_line_cols;

	jw_obj(w, "values");
	for (i = 0; i < n; i++) {
		const struct rm_col *c = rm_model_col(m, ids[i]);

		if (c->fmt == RM_FMT_TEXT) {
			char buf[128];

			rm_cell(m, l, r, ids[i], buf, sizeof(buf));
			jw_str(w, c->key, buf);
		} else {
			jw_num(w, c->key, r ? r->v[ids[i]] : l->v[ids[i]]);
		}
	}
	jw_end(w);
}

static void map_obj(struct jw *w, const struct rm_model *m, const struct rm_line *l)
{
	struct rm_linemap map;
	char *cells;
	size_t i;
	uint32_t b;

	rm_linemap_build(m, l, &map);
	cells = xmalloc(map.size + 1);
	jw_obj(w, "map");
	jw_num(w, "size", map.size);
	jw_arr(w, "members");
	for (b = 0; b < map.size; b++)
		jw_str(w, NULL, map.member[b]);
	jw_aend(w);
	jw_arr(w, "rows");
	for (i = 0; i < map.nr_row; i++) {
		const struct rm_map_row *r = &map.row[i];

		for (b = 0; b < map.size; b++)
			cells[b] = rm_map_char(r->cell[b]);
		cells[map.size] = 0;
		jw_obj(w, NULL);
		thread_obj(w, "thread", r->thread);
		jw_str(w, "cells", cells);
		jw_u64(w, "reads", r->reads);
		jw_u64(w, "writes", r->writes);
		jw_u64(w, "atomics", r->atomics);
		jw_num(w, "cost", r->cost);
		jw_end(w);
	}
	jw_aend(w);
	jw_end(w);
	free(cells);
	rm_linemap_release(&map);
}

static int use_cmp(const void *a, const void *b)
{
	const struct callers_use *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return (x->chain > y->chain) - (x->chain < y->chain);
}

/* The row's callchains, the most frequent first, each from the sampled function outwards. */
static void callers_arr(struct jw *w, const struct rm_model *m, const struct rm_row *r)
{
	struct callers_use *u;

	if (!m->callers || !r->nr_callers)
		return;
	u = xmalloc(r->nr_callers * sizeof(*u));
	memcpy(u, r->callers, r->nr_callers * sizeof(*u));
	qsort(u, r->nr_callers, sizeof(*u), use_cmp);
	jw_arr(w, "callers");
	for (size_t k = 0; k < r->nr_callers; k++) {
		uint32_t nr;
		const struct callers_frame *f = callers_chain(m->callers, u[k].chain, &nr);

		jw_obj(w, NULL);
		jw_u64(w, "samples", u[k].n);
		jw_arr(w, "frames");
		for (uint32_t i = 0; i < nr; i++) {
			jw_obj(w, NULL);
			jw_hex(w, "ip", f[i].ip);
			jw_str(w, "symbol", f[i].symbol);
			jw_str(w, "object", f[i].map ? f[i].map->dso->short_name : NULL);
			jw_end(w);
		}
		jw_aend(w);
		jw_end(w);
	}
	jw_aend(w);
	free(u);
}

/* Soft: what the confirmation watchpoints saw on the line (model.h, struct rm_confirm). */
static void confirm_obj(struct jw *w, const struct rm_line *l)
{
	static const char *const states[] = { "samples", "watched", "seen" };
	const struct rm_confirm *c = l->confirm;
	char text[2048];

	if (!c)
		return;
	jw_obj(w, "confirmation");
	jw_str(w, "state", states[c->state]);
	jw_bool(w, "judged", c->judged);
	jw_str(w, "basis", !c->judged ? NULL : c->by_bytes ? "bytes" : "transfers");
	jw_str(w, "why", c->why);
	jw_str(w, "sampled_verdict", rm_verdict_key(c->sampled));
	rm_confirm_text(l, text, sizeof(text));
	jw_str(w, "text", text);
	jw_u64(w, "hits", c->hits);
	jw_u64(w, "unplaced", c->unplaced);
	jw_u64(w, "windows", c->windows);
	jw_u64(w, "armed_ns", c->armed_ns);
	jw_u64(w, "transfers", c->xfers);
	jw_u64(w, "transfers_true", c->xfers_true);
	jw_u64(w, "transfers_false", c->xfers_false);
	jw_u64(w, "invalidations", c->inval);
	jw_num(w, "threads", c->nr_threads);
	jw_num(w, "readers", c->nr_readers);
	jw_num(w, "writers", c->nr_writers);
	jw_arr(w, "accesses");
	for (size_t i = 0; i < c->nr_acc; i++) {
		const struct rm_cf_access *a = &c->acc[i];

		jw_obj(w, NULL);
		jw_num(w, "offset", a->offset);
		jw_num(w, "size", a->size);
		thread_obj(w, "thread", a->thread);
		jw_str(w, "member", a->member[0] ? a->member : NULL);
		jw_u64(w, "reads", a->reads);
		jw_u64(w, "writes", a->writes);
		jw_u64(w, "atomics", a->atomics);
		jw_u64(w, "transfers", a->xfers);
		jw_u64(w, "transfers_true", a->xfers_true);
		jw_u64(w, "transfers_false", a->xfers_false);
		jw_u64(w, "invalidations", a->inval);
		code_obj(w, &a->code);
		jw_end(w);
	}
	jw_aend(w);
	jw_arr(w, "armed_together");
	for (size_t i = 0; i < c->nr_coarm; i++) {
		jw_obj(w, NULL);
		jw_arr(w, "words");
		for (uint32_t b = 0; b < 32; b++)
			if (c->coarm[i].words & (1u << b))
				jw_num(w, NULL, b * 8);
		jw_aend(w);
		jw_u64(w, "windows", c->coarm[i].windows);
		jw_u64(w, "armed_ns", c->coarm[i].armed_ns);
		jw_u64(w, "hits", c->coarm[i].hits);
		jw_end(w);
	}
	jw_aend(w);
	jw_end(w);
}

static void line_obj(struct jw *w, const struct rm_model *m, const struct rm_line *l)
{
	size_t i;

	jw_obj(w, NULL);
	jw_num(w, "index", l->index + 1);
	jw_hex(w, "address", l->addr);
	jw_str(w, "what", l->what);
	jw_str(w, "object", l->object);
	jw_str(w, "verdict", rm_verdict_key(l->verdict));
	jw_num(w, "cost", l->cost);
	jw_num(w, "true_cost", l->true_cost);
	jw_num(w, "false_cost", l->false_cost);
	jw_num(w, "threads", l->nr_threads);
	values(w, m, l, NULL);
	jw_arr(w, "rows");
	for (i = 0; i < l->nr_row; i++) {
		const struct rm_row *r = &l->row[i];

		jw_obj(w, NULL);
		jw_num(w, "offset", r->offset);
		jw_num(w, "display_offset", r->disp_offset);
		jw_str(w, "data", r->data);
		jw_str(w, "member", r->member);
		jw_num(w, "size", r->size);
		jw_bool(w, "visible", r->visible);
		jw_num(w, "threads", r->nr_threads);
		thread_obj(w, "thread", r->thread);
		code_obj(w, &r->code);
		if (m->kind == RM_SOFT)   /* charged by inference (attrib.h) */
			jw_u64(w, "inferred", r->inferred);
		values(w, m, l, r);
		callers_arr(w, m, r);
		jw_end(w);
	}
	jw_aend(w);
	jw_arr(w, "members");
	for (i = 0; i < l->nr_mem; i++) {
		const struct rm_member *mb = &l->mem[i];

		jw_obj(w, NULL);
		jw_num(w, "offset", mb->offset);
		jw_str(w, "name", mb->name);
		jw_u64(w, "reads", mb->reads);
		jw_u64(w, "writes", mb->writes);
		jw_u64(w, "atomics", mb->atomics);
		jw_num(w, "cost", mb->cost);
		jw_num(w, "true_cost", mb->true_cost);
		jw_num(w, "false_cost", mb->false_cost);
		threads_arr(w, "writers", mb->writers, mb->nr_writers);
		threads_arr(w, "readers", mb->readers, mb->nr_readers);
		jw_end(w);
	}
	jw_aend(w);
	map_obj(w, m, l);
	confirm_obj(w, l);
	jw_end(w);
}

static void evidence_obj(struct jw *w, const struct rm_finding *f)
{
	const struct rm_evidence *ev = &f->ev;
	size_t i;

	jw_obj(w, "evidence");
	jw_num(w, "samples", (double)ev->samples);
	jw_num(w, "second_thread", (double)ev->second);
	jw_num(w, "threads", (double)ev->nr_threads);
	jw_num(w, "writers", (double)ev->nr_writers);
	jw_num(w, "readers", (double)ev->nr_readers);
	jw_arr(w, "share_95");
	jw_num(w, NULL, ev->share_lo);
	jw_num(w, NULL, ev->share_hi);
	jw_aend(w);
	jw_bool(w, "low_confidence", ev->low);
	if (ev->unseen && ev->unseen->name) {
		jw_str(w, "unseen_writer", ev->unseen->name);
	} else if (ev->unseen) {
		char off[32];

		snprintf(off, sizeof(off), "offset 0x%x", ev->unseen->offset);
		jw_str(w, "unseen_writer", off);
	} else {
		jw_str(w, "unseen_writer", NULL);
	}
	jw_arr(w, "top_threads");
	for (i = 0; i < 4 && ev->thr[i]; i++) {
		jw_obj(w, NULL);
		jw_num(w, "tid", ev->thr[i]->task ? -1 : (double)ev->thr[i]->tid);
		jw_str(w, "comm", ev->thr[i]->comm);
		if (ev->thr[i]->task)
			jw_num(w, "goroutine", (double)ev->thr[i]->task);
		jw_num(w, "samples", (double)ev->thr_samples[i]);
		jw_end(w);
	}
	jw_aend(w);
	jw_end(w);
}

/* The findings @f[0..nr) as array @key. */
static void finding_arr(struct jw *w, const char *key, const struct rm_finding *fa, size_t nr)
{
	size_t i, k;

	jw_arr(w, key);
	for (i = 0; i < nr; i++) {
		const struct rm_finding *f = &fa[i];

		jw_obj(w, NULL);
		jw_num(w, "rank", (double)i + 1);
		jw_str(w, "object", f->object);
		jw_str(w, "what", f->what);
		jw_str(w, "verdict", rm_verdict_key(f->verdict));
		jw_num(w, "cost", f->cost);
		jw_num(w, "true_cost", f->true_cost);
		jw_num(w, "false_cost", f->false_cost);
		jw_num(w, "share", f->share);
		jw_num(w, "gain", f->gain);
		jw_bool(w, "array", f->array);
		evidence_obj(w, f);
		jw_arr(w, "lines");
		for (k = 0; k < f->nr_line; k++)
			jw_hex(w, NULL, f->line[k]->addr);
		jw_aend(w);
		jw_str(w, "advice", f->advice);
		if (f->line[0]->confirm) {
			char text[2048];

			jw_bool(w, "confirmed", f->line[0]->confirm->judged);
			rm_confirm_text(f->line[0], text, sizeof(text));
			jw_str(w, "confirmation", text);
		}
		jw_end(w);
	}
	jw_aend(w);
}

static void findings(struct jw *w, const struct rm_findings *fs)
{
	finding_arr(w, "findings", fs->f, fs->nr);
	finding_arr(w, "runtime_findings", fs->rt, fs->nr_rt);
}

static void lines_arr(struct jw *w, const struct rm_model *m, const uint32_t *line, size_t nr)
{
	size_t i;

	jw_arr(w, "lines");
	for (i = 0; i < nr; i++)
		jw_num(w, NULL, m->line[line[i]].index + 1);
	jw_aend(w);
}

/* Contending functions and contention by type (report/model/contend.h). */
static void contend(struct jw *w, const struct rm_model *m, const struct rm_contend *c)
{
	char fn[256];
	size_t i, k;

	jw_arr(w, "contending_functions");
	for (i = 0; c && i < c->nr_pair; i++) {
		const struct rm_fn_pair *p = &c->pair[i];

		jw_obj(w, NULL);
		jw_arr(w, "functions");
		for (k = 0; k < 2; k++) {
			rm_fn_text(&p->fn[k], fn, sizeof(fn));
			jw_str(w, NULL, fn);
		}
		jw_aend(w);
		jw_bool(w, "self", p->self);
		jw_num(w, "cost", p->cost);
		jw_num(w, "share", p->share);
		jw_str(w, "verdict", rm_verdict_key(p->verdict));
		lines_arr(w, m, p->line, p->nr_line);
		threads_arr(w, "threads", p->thread, p->nr_thread);
		jw_end(w);
	}
	jw_aend(w);
	jw_arr(w, "types");
	for (i = 0; c && i < c->nr_type; i++) {
		const struct rm_type_line *t = &c->type[i];

		jw_obj(w, NULL);
		jw_str(w, "type", t->type);
		jw_num(w, "type_line", t->index);
		jw_num(w, "first_byte", (double)t->index * m->cl_size);
		jw_num(w, "instances", (double)t->nr_inst);
		jw_arr(w, "members");
		for (k = 0; k < t->nr_member; k++)
			jw_str(w, NULL, t->member[k]);
		jw_aend(w);
		jw_num(w, "cost", t->cost);
		jw_num(w, "share", t->share);
		jw_str(w, "verdict", rm_verdict_key(t->verdict));
		lines_arr(w, m, t->line, t->nr_line);
		threads_arr(w, "threads", t->thread, t->nr_thread);
		jw_end(w);
	}
	jw_aend(w);
}

/* The report's sections (report/model/sections.h) as the text report and the TUI show them:
 * rows of text, labels and values, or cells under the section's columns (null: blank). */
static void section_cells(struct jw *w, const struct rm_section *sec, const struct rm_srow *r)
{
	jw_arr(w, "cells");
	for (size_t i = 0; i < sec->nr_col; i++) {
		const struct rm_scell *c = &r->cell[i];

		if (c->kind == RM_CELL_TEXT)
			jw_str(w, NULL, c->text);
		else if (c->kind == RM_CELL_U64)
			jw_u64(w, NULL, c->u);
		else if (c->kind == RM_CELL_NUM)
			jw_num(w, NULL, c->num);
		else
			jw_str(w, NULL, NULL);
	}
	jw_aend(w);
}

static void section_obj(struct jw *w, const struct rm_section *sec)
{
	static const char *const kinds[] = { "text", "blank", "pair", "head", "cells" };

	jw_obj(w, NULL);
	jw_str(w, "id", rm_section_name(sec->id));
	jw_str(w, "title", sec->title);
	jw_arr(w, "columns");
	for (size_t i = 0; i < sec->nr_col; i++)
		jw_str(w, NULL, sec->col[i].name);
	jw_aend(w);
	jw_arr(w, "rows");
	for (size_t i = 0; i < sec->nr_row; i++) {
		const struct rm_srow *r = &sec->row[i];

		if (r->kind == RM_SROW_HEAD)        /* the columns say it */
			continue;
		jw_obj(w, NULL);
		jw_str(w, "kind", kinds[r->kind]);
		if (r->kind == RM_SROW_PAIR)
			jw_str(w, "label", r->label);
		if (r->kind == RM_SROW_TEXT || r->kind == RM_SROW_PAIR)
			jw_str(w, "text", r->text);
		if (r->kind == RM_SROW_CELLS) {
			jw_u64(w, "rank", r->rank);
			section_cells(w, sec, r);
		}
		jw_end(w);
	}
	jw_aend(w);
	jw_end(w);
}

static void sections(struct jw *w, const struct report_session *s)
{
	jw_arr(w, "sections");
	for (int id = 0; id < RM_SEC__NR; id++) {
		const struct rm_section *sec = rm_sections_get(s->sections, (enum rm_section_id)id);

		if (sec)
			section_obj(w, sec);
	}
	jw_aend(w);
}

int json_print(FILE *f, const struct report_session *s)
{
	struct jw w = { .f = f };
	const struct rm_model *m = s->m;
	size_t i;

	fputc('{', f);
	w.count[0] = 0;
	jw_str(&w, "schema", "c2c-lite-report");
	jw_num(&w, "version", REPORT_JSON_VERSION);
	header(&w, s);
	statistics(&w, s);
	jw_obj(&w, "columns");
	columns(&w, "line", m, m->line_cols, m->nr_line_cols);
	columns(&w, "row", m, m->row_cols, m->nr_row_cols);
	jw_end(&w);
	jw_arr(&w, "lines");
	for (i = 0; i < m->nr_line; i++)
		line_obj(&w, m, &m->line[i]);
	jw_aend(&w);
	findings(&w, s->fs);
	contend(&w, m, s->contend);
	sections(&w, s);
	fputs("\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* --- CSV ---------------------------------------------------------------------------------------- */

int csv_table_parse(const char *s)
{
	if (!strcmp(s, "lines"))
		return CSV_LINES;
	if (!strcmp(s, "rows"))
		return CSV_ROWS;
	if (!strcmp(s, "members"))
		return CSV_MEMBERS;
	return -1;
}

/* A field, quoted when it holds a separator, a quote or a line break. */
static void csv_field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isnan(v))
		return;
	if (v == floor(v) && fabs(v) < 9e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.6g", v);
}

static void csv_hex(FILE *f, uint64_t v, int first)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	csv_field(f, buf, first);
}

static void csv_header(FILE *f, const struct rm_model *m, const char *const *lead, size_t nl,
		       const enum rm_col_id *ids, size_t n, const char *const *tail, size_t nt)
{
	size_t i;

	for (i = 0; i < nl; i++)
		csv_field(f, lead[i], !i);
	for (i = 0; i < n; i++)
		csv_field(f, rm_model_col(m, ids[i])->key, 0);
	for (i = 0; i < nt; i++)
		csv_field(f, tail[i], 0);
	fputs("\r\n", f);
}

static void csv_values(FILE *f, const struct rm_model *m, const struct rm_line *l,
		       const struct rm_row *r)
{
	const enum rm_col_id *ids = r ? m->row_cols : m->line_cols;
	size_t i, n = r ? m->nr_row_cols : m->nr_line_cols;
	char buf[128];

	for (i = 0; i < n; i++) {
		if (rm_model_col(m, ids[i])->fmt == RM_FMT_TEXT) {
			rm_cell(m, l, r, ids[i], buf, sizeof(buf));
			csv_field(f, buf, 0);
		} else {
			csv_num(f, r ? r->v[ids[i]] : l->v[ids[i]]);
		}
	}
}

int csv_print(FILE *f, const struct report_session *s, enum csv_table t)
{
	static const char *const line_lead[] = { "index", "address", "what", "object" };
	static const char *const line_tail[] = { "verdict", "cost", "true_cost", "false_cost" };
	static const char *const row_lead[] = { "line", "line_address", "offset", "code_address",
						"symbol", "source", "object", "data", "size" };
	static const char *const mem_lead[] = { "line", "line_address", "offset", "member", "reads",
						"writes", "atomics", "cost", "true_cost",
						"false_cost", "writers", "readers" };
	const struct rm_model *m = s->m;
	char buf[512], thr[256];
	size_t i, k;

	if (t == CSV_LINES)
		csv_header(f, m, line_lead, 4, m->line_cols, m->nr_line_cols, line_tail, 4);
	else if (t == CSV_ROWS)
		csv_header(f, m, row_lead, 9, m->row_cols, m->nr_row_cols, NULL, 0);
	else
		csv_header(f, m, mem_lead, 12, NULL, 0, NULL, 0);
	for (i = 0; i < m->nr_line; i++) {
		const struct rm_line *l = &m->line[i];

		if (t == CSV_LINES) {
			snprintf(buf, sizeof(buf), "%u", l->index + 1);
			csv_field(f, buf, 1);
			csv_hex(f, l->addr, 0);
			csv_field(f, l->what, 0);
			csv_field(f, l->object, 0);
			csv_values(f, m, l, NULL);
			csv_field(f, rm_verdict_key(l->verdict), 0);
			csv_num(f, l->cost);
			csv_num(f, l->true_cost);
			csv_num(f, l->false_cost);
			fputs("\r\n", f);
			continue;
		}
		for (k = 0; t == CSV_ROWS && k < l->nr_row; k++) {
			const struct rm_row *r = &l->row[k];

			snprintf(buf, sizeof(buf), "%u", l->index + 1);
			csv_field(f, buf, 1);
			csv_hex(f, l->addr, 0);
			csv_num(f, r->offset);
			csv_hex(f, r->code.al, 0);
			csv_field(f, r->code.symbol, 0);
			if (r->code.srcfile)
				snprintf(buf, sizeof(buf), "%s:%u", r->code.srcfile, r->code.line);
			csv_field(f, r->code.srcfile ? buf : NULL, 0);
			csv_field(f, r->code.dso, 0);
			csv_field(f, r->data, 0);
			csv_num(f, r->size);
			csv_values(f, m, l, r);
			fputs("\r\n", f);
		}
		for (k = 0; t == CSV_MEMBERS && k < l->nr_mem; k++) {
			const struct rm_member *mb = &l->mem[k];

			snprintf(buf, sizeof(buf), "%u", l->index + 1);
			csv_field(f, buf, 1);
			csv_hex(f, l->addr, 0);
			csv_num(f, mb->offset);
			csv_field(f, mb->name, 0);
			csv_num(f, (double)mb->reads);
			csv_num(f, (double)mb->writes);
			csv_num(f, (double)mb->atomics);
			csv_num(f, mb->cost);
			csv_num(f, mb->true_cost);
			csv_num(f, mb->false_cost);
			rm_threads_text(mb->writers, mb->nr_writers, thr, sizeof(thr));
			csv_field(f, mb->nr_writers ? thr : NULL, 0);
			rm_threads_text(mb->readers, mb->nr_readers, thr, sizeof(thr));
			csv_field(f, mb->nr_readers ? thr : NULL, 0);
			fputs("\r\n", f);
		}
	}
	return ferror(f) ? -EIO : 0;
}
