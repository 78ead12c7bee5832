/* The report's sections from the aggregates (see sections-build.h). Column widths, precisions
 * and wording are those the text report has always printed: its output is checked byte for
 * byte. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/soft.h"
#include "report/model/attrib.h"
#include "report/model/session.h"
#include "report/model/sections-build.h"

/* --- TopDown ---------------------------------------------------------------------------------- */

static int metric_width(const char *name)
{
	int w = (int)strlen(name);

	return w > 8 ? w : 8;
}

/* A ranked row's "where": "func NAME" or "line 0xADDR". */
static const char *where_of(char *buf, size_t n, int funcs, const char *name, uint64_t line)
{
	if (funcs)
		snprintf(buf, n, "func %s", name);
	else
		snprintf(buf, n, "line %#llx", (unsigned long long)line);
	return buf;
}

static void td_cells(struct rm_section *sec, const struct td_agg *a, const char *where,
		     const struct td_sum *s, uint32_t rank)
{
	struct rm_scell *c = rm_section_cells(sec, 1, rank);
	size_t k = 2;

	rm_scell_text(&c[0], "%s", where);
	rm_scell_u64(&c[1], s->slots);
	for (int m = 0; m < TD_NR; m++)
		if (td_agg_has(a, (enum td_metric)m))
			rm_scell_num(&c[k++], td_pct(s, (enum td_metric)m));
}

static void td_ranked(struct rm_section *sec, const struct td_agg *a, int funcs,
		      td_agg_sym_fn fn, void *ctx)
{
	size_t nr;
	struct td_row *v = td_agg_rows(a, funcs, fn, ctx, &nr);
	char where[64];

	for (size_t i = 0; i < nr; i++)
		td_cells(sec, a, where_of(where, sizeof(where), funcs, v[i].name, v[i].line),
			 &v[i].sum, (uint32_t)(i + 1));
	free(v);
}

void rm_sec_topdown(struct rm_sections *ss, const struct td_agg *a, td_agg_sym_fn fn, void *ctx)
{
	struct rm_section *sec;

	if (!a || !td_agg_nr_samples(a))
		return;
	sec = rm_section_add(ss, RM_SEC_TOPDOWN, "TopDown: %% of pipeline slots between consecutive "
			     "samples of a CPU and thread, charged to the later sample (%llu samples, "
			     "%llu intervals)", (unsigned long long)td_agg_nr_samples(a),
			     (unsigned long long)td_agg_intervals(a));
	sec->blank_after = 1;
	rm_section_col(sec, "where", 32, 0, RM_SCOL_LEFT | RM_SCOL_CUT);
	rm_section_col(sec, "slots", 14, 0, 0);
	for (int m = 0; m < TD_NR; m++)
		if (td_agg_has(a, (enum td_metric)m))
			rm_section_col(sec, td_metric_name((enum td_metric)m),
				       metric_width(td_metric_name((enum td_metric)m)), 1, 0);
	rm_section_head(sec, 1);
	if (!td_agg_intervals(a)) {
		rm_section_text(sec, 1, 0, "no two samples of one CPU and thread: nothing to "
				"attribute");
		return;
	}
	td_cells(sec, a, "all", td_agg_total(a), 0);
	td_ranked(sec, a, 0, fn, ctx);
	td_ranked(sec, a, 1, fn, ctx);
}

static void tdt_cells(struct rm_section *sec, const char *where, uint64_t samples,
		      const struct td_result *r, uint32_t have, uint32_t rank)
{
	struct rm_scell *c = rm_section_cells(sec, 1, rank);
	size_t k = 3;

	rm_scell_text(&c[0], "%s", where);
	rm_scell_u64(&c[1], samples);
	rm_scell_num(&c[2], r->slots);
	for (int o = 0; o < TDO_NR; o++)
		if (have & (1u << o))
			rm_scell_num(&c[k++], 100.0 * r->v[o]);
}

static void tdt_ranked(struct rm_section *sec, const struct tdt *a, int funcs, uint32_t have,
		       td_agg_sym_fn fn, void *ctx)
{
	size_t nr;
	struct tdt_row *rows = tdt_rows(a, funcs, SIZE_MAX, fn, ctx, &nr);
	char where[64];

	for (size_t i = 0; i < nr; i++)
		tdt_cells(sec, where_of(where, sizeof(where), funcs, rows[i].name, rows[i].line),
			  rows[i].samples, &rows[i].r, have, (uint32_t)(i + 1));
	free(rows);
}

void rm_sec_topdown_time(struct rm_sections *ss, const struct tdt *a, td_agg_sym_fn fn,
			 void *ctx)
{
	const struct tdt_stats *st = a ? tdt_stats(a) : NULL;
	struct td_result all, ch;
	struct rm_section *sec;
	char how[400];

	if (!st || !st->readings)
		return;
	tdt_describe(a, how, sizeof(how));
	sec = rm_section_add(ss, RM_SEC_TOPDOWN_TIME, "TopDown by time: %s", how);
	sec->blank_after = 1;
	rm_section_text(sec, 1, 0, "%llu readings, %llu intervals (%llu with memory samples), %llu "
			"samples charged, %llu after their stream's last reading not charged",
			(unsigned long long)st->readings, (unsigned long long)st->intervals,
			(unsigned long long)st->intervals_charged,
			(unsigned long long)st->samples_charged,
			(unsigned long long)st->samples_uncharged);
	if (tdt_total(a, 1, &all)) {
		rm_section_text(sec, 1, 0, "no slots counted: nothing to attribute");
		return;
	}
	rm_section_col(sec, "where", 32, 0, RM_SCOL_LEFT | RM_SCOL_CUT);
	rm_section_col(sec, "samples", 8, 0, 0);
	rm_section_col(sec, "slots", 14, 0, 0);
	for (int o = 0; o < TDO_NR; o++)
		if (all.have & (1u << o))
			rm_section_col(sec, td_out_name((enum td_out)o),
				       metric_width(td_out_name((enum td_out)o)), 1, 0);
	rm_section_head(sec, 1);
	tdt_cells(sec, "all (counted)", st->samples_charged + st->samples_uncharged, &all,
		  all.have, 0);
	if (!tdt_total(a, 0, &ch))
		tdt_cells(sec, "charged to samples", st->samples_charged, &ch, all.have, 0);
	tdt_ranked(sec, a, 0, all.have, fn, ctx);
	tdt_ranked(sec, a, 1, all.have, fn, ctx);
}

/* --- regions, uncore -------------------------------------------------------------------------- */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void rm_sec_regions(struct rm_sections *ss, const struct rg_table *t)
{
	uint64_t all = t ? rg_outside(t) : 0;
	struct rm_section *sec;
	struct rm_scell *c;

	if (!t || !rg_markers(t))
		return;
	for (size_t i = 0; i < rg_nr(t); i++)
		all += rg_get(t, i)->self;
	sec = rm_section_add(ss, RM_SEC_REGIONS, "Regions (the workload's c2c-region markers): "
			     "samples taken inside each, per thread and time%s%s",
			     rg_filter(t) ? "; the report below covers region " : "",
			     rg_filter(t) ? rg_filter(t) : "");
	sec->blank_after = 1;
	rm_section_col(sec, "region", 24, 0, RM_SCOL_LEFT);
	rm_section_col(sec, "entries", 10, 0, 0);
	rm_section_col(sec, "time (ms)", 12, 3, 0);
	rm_section_col(sec, "samples", 12, 0, 0);
	rm_section_col(sec, "incl. inner", 12, 0, 0);
	rm_section_col(sec, "share", 7, 1, RM_SCOL_PCT);
	rm_section_head(sec, 1);
	for (size_t i = 0; i < rg_nr(t); i++) {
		const struct rg_region *r = rg_get(t, i);

		c = rm_section_cells(sec, 1, 0);
		rm_scell_text(&c[0], "%s", r->name);
		rm_scell_u64(&c[1], r->entries);
		rm_scell_num(&c[2], (double)r->ns / 1e6);
		rm_scell_u64(&c[3], r->self);
		rm_scell_u64(&c[4], r->incl);
		rm_scell_num(&c[5], pct(r->self, all));
	}
	c = rm_section_cells(sec, 1, 0);
	rm_scell_text(&c[0], "(outside any region)");
	rm_scell_text(&c[1], "%s", "");
	rm_scell_text(&c[2], "%s", "");
	rm_scell_u64(&c[3], rg_outside(t));
	rm_scell_text(&c[4], "%s", "");
	rm_scell_num(&c[5], pct(rg_outside(t), all));
	if (rg_dropped(t))
		rm_section_text(sec, 1, 0, "%llu markers ignored (unmatched ends, over %d deep or %d "
				"names)", (unsigned long long)rg_dropped(t), RG_DEPTH, RG_MAX);
}

static double uncore_pct(uint64_t part, uint64_t whole)
{
	return whole && whole != C2C_UNCORE_NONE ? 100.0 * (double)part / (double)whole : 0;
}

/* " (read 1.2 MB, write 0.3 MB)": the parts counted apart, nothing when none was. */
static size_t uncore_parts(const struct c2c_uncore_row *r, char *buf, size_t n)
{
	const char *name[2] = { "read", "write" };
	uint64_t v[2] = { r->in, r->out };
	size_t off = 0;

	buf[0] = '\0';
	if (r->kind == C2C_UNCORE_LINK)
		name[0] = "in", name[1] = "out";
	for (int i = 0; i < 2; i++)
		if (v[i] != C2C_UNCORE_NONE && off < n)
			off += (size_t)snprintf(buf + off, n - off, "%s%s %.1f MB", off ? ", " : " (",
						name[i], (double)v[i] / 1e6);
	if (off && off < n)
		off += (size_t)snprintf(buf + off, n - off, ")");
	return off;
}

static void uncore_bytes(struct rm_section *sec, const char *what, const struct c2c_uncore_row *r,
			 double s)
{
	char amount[64] = "not counted", rate[64] = "", parts[128];

	if (r->b != C2C_UNCORE_NONE)
		snprintf(amount, sizeof(amount), "%.1f MB", (double)r->b / 1e6);
	if (r->b != C2C_UNCORE_NONE && s > 0)
		snprintf(rate, sizeof(rate), ", %.1f MB/s", (double)r->b / 1e6 / s);
	uncore_parts(r, parts, sizeof(parts));
	rm_section_text(sec, 1, 0, "%s %u (CPU %u): %s%s%s", what, r->unit, r->cpu, amount, rate,
			parts);
}

void rm_sec_uncore(struct rm_sections *ss, const struct c2c_uncore *u)
{
	struct rm_section *sec;

	if (!u || (!u->nr && !u->nr_notes))
		return;
	sec = rm_section_add(ss, RM_SEC_UNCORE, "AMD uncore over the run (%.3f s):", u->seconds);
	sec->blank_after = 1;
	for (size_t i = 0; i < u->nr; i++) {
		const struct c2c_uncore_row *r = &u->row[i];

		if (r->kind == C2C_UNCORE_L3 && (r->a == C2C_UNCORE_NONE || r->b == C2C_UNCORE_NONE))
			rm_section_text(sec, 1, 0, "L3 of CCX %u (CPU %u): not counted", r->unit,
					r->cpu);
		else if (r->kind == C2C_UNCORE_L3)
			rm_section_text(sec, 1, 0, "L3 of CCX %u (CPU %u): %" PRIu64 " accesses, %"
					PRIu64 " misses (%.1f%%)", r->unit, r->cpu, r->a, r->b,
					uncore_pct(r->b, r->a));
		else
			uncore_bytes(sec, r->kind == C2C_UNCORE_DRAM ? "DRAM channel" : "remote link",
				     r, u->seconds);
	}
	for (size_t i = 0; i < u->nr_notes; i++)
		rm_section_text(sec, 1, 0, "%s", u->note[i]);
}

/* --- the run header --------------------------------------------------------------------------- */

void rm_sec_header(struct rm_sections *ss, const struct rm_header_in *in)
{
	const struct trace_info *i = in->info;
	int pmu = in->kind == RM_PMU;
	struct rm_section *sec = rm_section_add(ss, RM_SEC_HEADER, "c2c-lite report of '%s'",
						in->path ? in->path : "?");

	if (i)
		rm_section_text(sec, 0, 0, "host %s, arch %s, kernel %s, backend %s",
				i->hostname ? i->hostname : "?", i->arch ? i->arch : "?",
				i->kernel_release ? i->kernel_release : "?",
				trace_backend_name(i->backend));
	if (i && i->cmdline && *i->cmdline)
		rm_section_text(sec, 0, 0, "cmdline: %s", i->cmdline);
	for (uint32_t k = 0; pmu && i && k < i->nr_events; k++)
		rm_section_text(sec, 0, 0, "event %s", i->events[k].name ? i->events[k].name : "?");
	if (pmu && in->counts)
		rm_section_text(sec, 0, 0, "%llu samples, %llu lost records, %llu lost samples, %llu "
				"throttled", (unsigned long long)in->counts->samples,
				(unsigned long long)in->counts->lost_records,
				(unsigned long long)in->counts->lost_samples,
				(unsigned long long)in->counts->throttle);
	if (pmu && in->tdt) {
		char how[400];

		tdt_describe(in->tdt, how, sizeof(how));
		rm_section_text(sec, 0, 0, "TopDown by time: %s (%llu readings)", how,
				(unsigned long long)tdt_stats(in->tdt)->readings);
	}
	if (in->run) {
		char ex[64];

		c2c_run_exit_text(in->run, ex, sizeof(ex));
		rm_section_text(sec, 0, 0, "workload: %.3f s wall, %.3f s CPU (%.3f user, %.3f "
				"system), %s", (double)in->run->wall_ns / 1e9,
				(double)(in->run->user_ns + in->run->sys_ns) / 1e9,
				(double)in->run->user_ns / 1e9, (double)in->run->sys_ns / 1e9, ex);
	}
	if (in->phys)
		rm_section_text(sec, 0, 0, "lines by physical address (--phys): the %s column is "
				"physical, names are those of the first process seen there",
				pmu ? "Cacheline" : "Line");
	if (i && (i->flags & TRACE_INFO_SYNTHETIC))
		rm_section_text(sec, 0, 0, "SYNTHETIC: this trace was generated by a test tool, not "
				"measured");
	if (in->truncated)
		rm_section_text(sec, 0, 0, "TRUNCATED: the file ends early; the report covers what "
				"was read");
	sec->blank_after = pmu && in->counts;
}

/* --- soft and watch run totals ---------------------------------------------------------------- */

static void run_confirm(struct rm_section *sec, const struct estim_totals *t)
{
	const struct c2c_confirm_run *r = &t->confirm;

	if (r->status == C2C_CONFIRM_ON)
		rm_section_pair(sec, 0, "Confirmed by watchpoints", "%llu accesses in %llu windows "
				"over %llu lines (armed for %.3g%% of the work; traps bounded to "
				"%.2g%% of it)", (unsigned long long)t->confirm_hits,
				(unsigned long long)t->confirm_windows,
				(unsigned long long)t->confirm_lines, r->cpu_ns > r->trap_ns ?
				100.0 * (double)r->armed_ns / (double)(r->cpu_ns - r->trap_ns) : 0,
				r->budget * 100);
	else
		rm_section_pair(sec, 0, "Confirmation", "%s%s%s: every verdict is the samples'",
				c2c_confirm_status_name(r->status), r->reason[0] ? ", " : "",
				r->reason);
}

static void run_losses(struct rm_section *sec, const struct estim_totals *t)
{
	if (t->no_phys)
		rm_section_pair(sec, 0, "No physical address", "%llu (left out by --phys)",
				(unsigned long long)t->no_phys);
	if (t->unknown_kind)
		rm_section_pair(sec, 0, "Access kind unknown", "%llu (counted as loads)",
				(unsigned long long)t->unknown_kind);
	if (t->lost_records || t->lost_samples || t->throttle)
		rm_section_pair(sec, 0, "Lost", "%llu records, %llu samples, %llu throttled",
				(unsigned long long)t->lost_records,
				(unsigned long long)t->lost_samples, (unsigned long long)t->throttle);
	if (t->no_cpu || t->model_errors)
		rm_section_pair(sec, 0, "Left out of the model", "%llu without a CPU, %llu refused "
				"by the model", (unsigned long long)t->no_cpu,
				(unsigned long long)t->model_errors);
}

static void run_reasons(struct rm_section *sec, const struct estim_totals *t, int soft)
{
	if (t->recovered == t->samples)
		return;
	rm_section_blank(sec);
	rm_section_text(sec, 0, 0, "%s, by reason:", soft ? "Address not recovered" :
			"No data address");
	rm_section_col(sec, "reason", 36, 0, RM_SCOL_LEFT);
	rm_section_col(sec, "samples", 10, 0, 0);
	rm_section_col(sec, "samples%", 8, 2, RM_SCOL_PCT);
	rm_section_col(sec, soft ? "time%" : "", 8, 2, RM_SCOL_PCT);
	rm_section_head(sec, 1);
	for (int i = 0; i < ESTIM_NR_REASONS; i++) {
		struct rm_scell *c;

		if (!t->reason[i])
			continue;
		c = rm_section_cells(sec, 1, 0);
		rm_scell_text(&c[0], "%s", i == ESTIM_NO_ADDR ? "no data address in the sample" :
			      softdec_reason_name((enum softdec_reason)i));
		rm_scell_u64(&c[1], t->reason[i]);
		rm_scell_num(&c[2], estim_pct(t->reason[i], t->samples));
		if (soft)
			rm_scell_num(&c[3], estim_pct(t->reason_weight[i], t->weight));
	}
}

void rm_sec_run(struct rm_sections *ss, const struct rm_run_in *in)
{
	const struct estim_totals *t = estim_totals(in->e);
	int soft = estim_opts(in->e)->mode == ESTIM_SOFT;
	struct rm_section *sec = rm_section_add(ss, RM_SEC_RUN, NULL);
	struct rm_attrib a;
	char buf[1024];

	sec->label_width = 28;
	if (!soft && in->duty) {
		c2c_watch_duty_describe(in->duty, buf, sizeof(buf));
		rm_section_text(sec, 0, RM_SROW_WRAP, "%s", buf);
	}
	rm_section_blank(sec);
	rm_section_pair(sec, 0, soft ? "Samples" : "Watchpoint hits", "%llu",
			(unsigned long long)t->samples);
	if (soft)
		rm_section_pair(sec, 0, "Sampled CPU time", "%.3f ms", (double)t->weight / 1e6);
	snprintf(buf, sizeof(buf), ", %.2f%% of time", estim_pct(t->recovered_weight, t->weight));
	rm_section_pair(sec, 0, "Data address recovered", "%llu (%.2f%% of samples%s)",
			(unsigned long long)t->recovered, estim_pct(t->recovered, t->samples),
			soft ? buf : "");
	rm_attrib_of(in->m, &a);
	rm_attrib_inferred_text(&a, buf, sizeof(buf));
	if (*buf)
		rm_section_pair(sec, RM_SROW_WRAP, "Access inferred", "%s", buf);
	if (!soft)
		rm_section_pair(sec, 0, "Offset in the watched word", "%llu exact, %llu inferred, "
				"%llu unknown (the word's start)",
				(unsigned long long)t->placed[ESTIM_PLACED_EXACT],
				(unsigned long long)t->placed[ESTIM_PLACED_INFERRED],
				(unsigned long long)t->placed[ESTIM_PLACED_WORD]);
	rm_section_pair(sec, 0, "Cachelines touched", "%zu (%zu contended)", in->m->nr_all_lines,
			in->fs->nr_contended_lines);
	if (soft && t->have_confirm)
		run_confirm(sec, t);
	run_losses(sec, t);
	run_reasons(sec, t, soft);
}

/* --- the session's ---------------------------------------------------------------------------- */

struct rm_sections *rs_sections_build(const struct report_session *s)
{
	struct rm_sections *ss = rm_sections_new();
	struct td_agg_sym_ctx tctx = { .maps = s->maps, .sym = s->sym };
	struct rm_header_in h = { .path = source_path(s->src), .info = s->info, .kind = s->kind,
				  .counts = s->t ? cltab_counts(s->t) : NULL, .tdt = s->tdt,
				  .phys = s->opts.phys, .truncated = s->truncated,
				  .run = s->have_run ? &s->run : NULL };

	rm_sec_header(ss, &h);
	rm_sec_regions(ss, s->rg);
	rm_sec_uncore(ss, s->unc);
	rm_sec_topdown(ss, s->td, s->sym ? td_agg_sym : NULL, &tctx);
	rm_sec_topdown_time(ss, s->tdt, s->sym ? td_agg_sym : NULL, &tctx);
	if (s->e) {
		struct rm_run_in r = { .e = s->e, .m = s->m, .fs = s->fs,
				       .duty = s->have_duty ? &s->duty : NULL };

		rm_sec_run(ss, &r);
	}
	return ss;
}
