/* The text screens: statistics (for PMU data perf's Trace Event Information and Global Shared
 * Cache Line Event Information sections, same labels and formats; for soft and watch traces
 * what the samples were and why some have no address), the findings as the text report prints
 * them, the sort menu, and the key help built from the binding table. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/soft.h"
#include "c2c/uncore.h"
#include "c2c/watch.h"
#include "c2c/xalloc.h"
#include "report/aggregate/regions.h"
#include "report/model/attrib.h"
#include "report/resolve/maps.h"
#include "report/stdio/callgraph.h"
#include "report/stdio/summary.h"
#include "tui/draw-int.h"

/* --- statistics -------------------------------------------------------------------------------- */

/* perf's run totals are the model's rows (rm_model.stats); a blank line stands before each
 * section but the first, as in the text report. Rows on screen, and the row shown at @row
 * (-1: a blank one). */
static size_t tui_stat_rows(const struct rm_model *rm)
{
	size_t n = rm->nr_stats;

	for (size_t i = 1; i < rm->nr_stats; i++)
		n += rm->stats[i].kind == RM_STAT_TITLE;
	return n;
}

static long tui_stat_at(const struct rm_model *rm, size_t row)
{
	for (size_t i = 0; i < rm->nr_stats; i++, row--) {
		if (i && rm->stats[i].kind == RM_STAT_TITLE && row-- == 0)
			return -1;
		if (row == 0)
			return (long)i;
	}
	return -1;
}

static void tui_stat_text(const struct rm_stat *st, struct tui_buf *b)
{
	if (st->kind == RM_STAT_TITLE)
		tui_bufaddf(b, "%s", st->label);
	else if (st->kind == RM_STAT_PCT)
		tui_bufaddf(b, "  %-34s: %10.1f%%", st->label, st->pct);
	else
		tui_bufaddf(b, "  %-34s: %10d", st->label, (int)st->count);
}

/* Lines above the two perf sections: where the figures come from. */
static void tui_info_row(struct tui_ctx *c, size_t row, struct tui_buf *b)
{
	struct tui_model *m = c->m;
	const struct trace_info *i = m->info;

	switch (row) {
	case 0:
		tui_bufaddf(b, "  %-34s: %s", "File", m->path ? m->path : "(in memory)");
		break;
	case 1:
		tui_bufaddf(b, "  %-34s: %s %s, %u CPUs, %u nodes, backend %s", "Machine",
			    i && i->arch ? i->arch : "?", i && i->cpu_desc ? i->cpu_desc : "",
			    i ? i->nr_cpus : 0, i ? i->nr_nodes : 0,
			    i ? trace_backend_name(i->backend) : rm_kind_name(m->kind));
		break;
	case 2:
		if (m->t) {
			const struct cltab_counts *k = cltab_counts(m->t);

			tui_bufaddf(b, "  %-34s: %llu samples, %llu lost records, %llu lost samples, "
				    "%llu throttled%s", "Records", (unsigned long long)k->samples,
				    (unsigned long long)k->lost_records,
				    (unsigned long long)k->lost_samples,
				    (unsigned long long)k->throttle, m->truncated ? " (file cut short)" : "");
		}
		break;
	case 3:
		tui_bufaddf(b, "  %-34s: %u bytes, offset,%s", "Cacheline size, data grouping",
			    m->rm->cl_size, c->v->coalesce_name);
		break;
	case 4:
		if (i && i->cmdline && *i->cmdline)
			tui_bufaddf(b, "  %-34s: %s", "Recorded with", i->cmdline);
		break;
	default:
		break;
	}
}

#define TUI_INFO_ROWS 6

/* The info rows, then the run's context (regions, AMD uncore) when the trace has any. */
static size_t tui_head_rows(struct tui_model *m)
{
	return TUI_INFO_ROWS + tui_context_text(m);
}

/* The warning's lines (attrib.h), kept for the statistics screen. */
struct warn_text {
	char line[3 + RM_ATTRIB_TOP][256];
	size_t n;
};

static void put_warn_text(void *ctx, const char *text)
{
	struct warn_text *w = ctx;

	if (w->n < sizeof(w->line) / sizeof(w->line[0]))
		snprintf(w->line[w->n++], sizeof(w->line[0]), "%s", text);
}

/* The statistics of a soft or watch trace, one line each. */
static size_t tui_estim_stats(const struct tui_model *m, size_t row, struct tui_buf *b)
{
	const struct estim_totals *t = m->e ? estim_totals(m->e) : NULL;
	int soft = m->kind == RM_SOFT;
	size_t n = 0, i;
	struct warn_text wt = { .n = 0 };
	struct rm_attrib a;
	char inf[512];

	if (!t)
		return 0;
	rm_attrib_of(m->rm, &a);
	rm_attrib_warning(&a, put_warn_text, &wt);
	rm_attrib_inferred_text(&a, inf, sizeof(inf));
#define LINE(...) do { if (row == n) tui_bufaddf(b, __VA_ARGS__); n++; } while (0)
	for (i = 0; i < wt.n; i++)
		LINE("%s", wt.line[i]);
	if (wt.n)
		LINE("%s", "");
	LINE("%s", soft ? "Soft backend: timer samples charged to the access each thread was stalled "
	     "on (estimates)" : "Watch backend: every access to the watched words (counts)");
	LINE("  %-34s: %llu", soft ? "Samples" : "Watchpoint hits", (unsigned long long)t->samples);
	if (soft)
		LINE("  %-34s: %.3f ms", "Sampled CPU time", (double)t->weight / 1e6);
	LINE("  %-34s: %llu (%.2f%%)", "Data address recovered", (unsigned long long)t->recovered,
	     estim_pct(t->recovered, t->samples));
	if (*inf)
		LINE("  %-34s: %s", "Access inferred", inf);
	if (!soft && m->duty) {
		char text[1024];

		c2c_watch_duty_describe(m->duty, text, sizeof(text));
		LINE("  %s", text);
	}
	if (!soft)
		LINE("  %-34s: %llu exact, %llu inferred, %llu unknown", "Offset in the watched word",
		     (unsigned long long)t->placed[ESTIM_PLACED_EXACT],
		     (unsigned long long)t->placed[ESTIM_PLACED_INFERRED],
		     (unsigned long long)t->placed[ESTIM_PLACED_WORD]);
	LINE("  %-34s: %zu (%zu contended)", "Cachelines touched", m->rm->nr_all_lines,
	     m->fs->nr_contended_lines);
	if (soft && t->have_confirm && t->confirm.status == C2C_CONFIRM_ON)
		LINE("  %-34s: %llu accesses in %llu windows over %llu lines", "Confirmed by watchpoints",
		     (unsigned long long)t->confirm_hits, (unsigned long long)t->confirm_windows,
		     (unsigned long long)t->confirm_lines);
	else if (soft && t->have_confirm)
		LINE("  %-34s: %s%s%s (every verdict is the samples')", "Confirmation",
		     c2c_confirm_status_name(t->confirm.status), t->confirm.reason[0] ? ", " : "",
		     t->confirm.reason);
	if (m->fs->nr_one_cpu_lines)
		LINE("  %-34s: %zu (several threads, one CPU: nothing could be seen)",
		     "Lines shared on one CPU", m->fs->nr_one_cpu_lines);
	LINE("  %-34s: %llu records, %llu samples, %llu throttled", "Lost",
	     (unsigned long long)t->lost_records, (unsigned long long)t->lost_samples,
	     (unsigned long long)t->throttle);
	LINE("%s", "");
	/* the reasons under their heading, or one line saying there are none */
	for (i = 0; i < ESTIM_NR_REASONS && !t->reason[i]; i++)
		;
	LINE("%s%s", soft ? "Address not recovered" : "No data address",
	     i < ESTIM_NR_REASONS ? ", by reason" : ": none");
	for (i = 0; i < ESTIM_NR_REASONS; i++) {
		if (!t->reason[i])
			continue;
		LINE("  %-34s: %llu (%.2f%%)", i == ESTIM_NO_ADDR ? "no data address in the sample" :
		     softdec_reason_name((enum softdec_reason)i), (unsigned long long)t->reason[i],
		     estim_pct(t->reason[i], t->samples));
	}
#undef LINE
	return n;
}

/* Split @buf (freed) into owned lines. */
static size_t tui_split_lines(char *buf, char ***out)
{
	char *p, *nl, **lines = NULL;
	size_t n = 0, cap = 0;

	for (p = buf; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		lines = xgrow(lines, &cap, n + 1, sizeof(*lines));
		lines[n++] = xstrndup(p, (size_t)(nl - p));
		if (!*nl)
			break;
	}
	free(buf);
	*out = lines;
	return n;
}

size_t tui_context_text(struct tui_model *m)
{
	char *buf = NULL, **lines;
	size_t len = 0, n;
	FILE *f;

	if (m->context_done)
		return m->nr_context;
	m->context_done = 1;
	if (!(f = open_memstream(&buf, &len)))
		return 0;
	if (m->rg)
		rg_print(f, m->rg);
	if (m->unc)
		c2c_uncore_print(f, m->unc);
	/* the TopDown blocks of the report's summary, with its ten rows */
	if (m->td)
		td_agg_print(f, m->td, 10, m->tdsym.sym ? td_agg_sym : NULL, &m->tdsym);
	if (m->tdt)
		tdt_print(f, m->tdt, 10, m->tdsym.sym ? td_agg_sym : NULL, &m->tdsym);
	fclose(f);
	n = tui_split_lines(buf, &lines);
	/* the text report's "# " comment marks do not belong on a screen */
	for (size_t i = 0; i < n; i++)
		if (lines[i][0] == '#')
			memmove(lines[i], lines[i] + (lines[i][1] == ' ' ? 2 : 1),
				strlen(lines[i]) - (lines[i][1] == ' ' ? 1 : 0));
	m->context = lines;
	m->nr_context = n;
	return n;
}

size_t tui_findings_text(struct tui_model *m, char ***out)
{
	struct summary_opts o = { .top = 1000, .prefix = "", .say_none = 1, .map = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f) {
		summary_print(f, m->rm, m->fs, &o);
		fclose(f);
	}
	return tui_split_lines(buf, out);
}

size_t tui_callers_text(const struct tui_model *m, const struct rm_line *l, const struct rm_row *r,
			char ***out)
{
	uint64_t total = callgraph_line_samples(l), own = callgraph_row_samples(r);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f) {
		fprintf(f, "offset 0x%x, code 0x%llx %s: %llu samples with callchains, %.2f%% of "
			"the line's\n", r->disp_offset, (unsigned long long)r->code.ip,
			r->code.symbol ? r->code.symbol : "", (unsigned long long)own,
			total ? own * 100.0 / total : 0.0);
		callgraph_fprint_row(f, m->rm, l, r, CALLERS_CALLEE);
		fclose(f);
	}
	return tui_split_lines(buf, out);
}

static size_t tui_help_rows(void)
{
	const struct tui_binding *b;
	size_t n = 0;

	for (b = tui_bindings; b->key; b++)
		n += b->keys != NULL;
	return n + 2;
}

size_t tui_text_rows(struct tui_model *m, const struct tui_view *v, enum tui_screen_id s)
{
	int keys[RM_COL__NR + 2];
	struct tui_buf b = { 0 };
	size_t n;

	switch (s) {
	case TUI_SCR_STATS:
		if (m->t)
			return tui_head_rows(m) + tui_stat_rows(m->rm);
		n = tui_estim_stats(m, SIZE_MAX, &b);
		free(b.s);
		return tui_head_rows(m) + n;
	case TUI_SCR_FINDINGS:
	case TUI_SCR_CALLERS:
		return v->nr_text;
	case TUI_SCR_SORT:
		return tui_sort_keys(m, keys);
	default:
		return tui_help_rows();
	}
}

/* Row @row of the statistics screen into @b; returns its attribute. */
static enum tui_attr tui_stats_row(struct tui_ctx *c, size_t row, struct tui_buf *b)
{
	size_t i;
	long k;

	if (row < TUI_INFO_ROWS) {
		tui_info_row(c, row, b);
		return TUI_ATTR_NORMAL;
	}
	if (row < tui_head_rows(c->m)) {
		i = row - TUI_INFO_ROWS;
		if (i < c->m->nr_context)
			tui_bufaddf(b, "%s", c->m->context[i]);
		return i < c->m->nr_context && c->m->context[i][0] != ' ' ? TUI_ATTR_HEADER :
		       TUI_ATTR_NORMAL;
	}
	i = row - tui_head_rows(c->m);
	if (!c->m->t) {
		tui_estim_stats(c->m, i, b);
		return i == 0 ? TUI_ATTR_HEADER : TUI_ATTR_NORMAL;
	}
	k = tui_stat_at(c->m->rm, i);
	if (k < 0)
		return TUI_ATTR_NORMAL;
	tui_stat_text(&c->m->rm->stats[k], b);
	return c->m->rm->stats[k].kind == RM_STAT_TITLE ? TUI_ATTR_HEADER : TUI_ATTR_NORMAL;
}

static void tui_help_row(size_t row, struct tui_buf *b)
{
	const struct tui_binding *k;
	size_t n;

	if (row == 0) {
		tui_bufaddf(b, "  c2c-lite tui: the contended cachelines of a trace; perf c2c's keys "
			    "where it has them");
		return;
	}
	if (row < 2)
		return;
	n = row - 2;
	for (k = tui_bindings; k->key; k++)
		if (k->keys && !n--)
			break;
	if (k->key)
		tui_bufaddf(b, "  %-18s %-8s %s", k->keys, k->on == TUI_ON_LIST ? "list" :
			    k->on == TUI_ON_LINE ? "line" : k->on == (TUI_ON_LIST | TUI_ON_LINE) ?
			    "list,line" : "", k->help);
}

static const char *tui_text_title(enum tui_screen_id s)
{
	switch (s) {
	case TUI_SCR_STATS: return " Statistics";
	case TUI_SCR_FINDINGS: return " Findings: what to fix";
	case TUI_SCR_CALLERS: return " Callers of the row, callee first (Esc back)";
	case TUI_SCR_SORT: return " Order the cacheline list by (Enter picks, Esc keeps the order)";
	default: return " Keys";
	}
}

void tui_draw_text(struct tui_ctx *c, enum tui_screen_id s)
{
	const struct tui_view *v = c->v;
	int h = v->rows - 2, r, keys[RM_COL__NR + 2];
	size_t nr = tui_text_rows(c->m, v, s), nk = 0;
	const struct tui_list *l = s == TUI_SCR_SORT ? &v->menu : &v->text;

	if (s == TUI_SCR_SORT)
		nk = tui_sort_keys(c->m, keys);
	tui_rowf(c, 0, TUI_ATTR_TITLE, "%s", tui_text_title(s));
	for (r = 0; r < h; r++) {
		size_t row = l->top + (size_t)r;
		enum tui_attr a = TUI_ATTR_NORMAL;

		tui_bufreset(&c->b);
		tui_bufaddf(&c->b, "%s", "");
		if (row < nr) {
			switch (s) {
			case TUI_SCR_STATS:
				a = tui_stats_row(c, row, &c->b);
				break;
			case TUI_SCR_FINDINGS:
			case TUI_SCR_CALLERS:
				tui_bufaddf(&c->b, " %s", v->text_lines[row]);
				break;
			case TUI_SCR_SORT:
				if (row < nk)
					tui_bufaddf(&c->b, "  %s%s", tui_sort_name(c->m, keys[row]),
						    keys[row] == v->sort ? "  (now)" : "");
				a = row == l->sel ? TUI_ATTR_SELECT : TUI_ATTR_NORMAL;
				break;
			default:
				tui_help_row(row, &c->b);
			}
		}
		tui_row(c, 1 + r, a, c->b.s, s == TUI_SCR_SORT ? 0 : v->hscroll);
	}
}
