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
#include "c2c/watch.h"
#include "c2c/xalloc.h"
#include "report/model/attrib.h"
#include "report/model/callgraph-text.h"
#include "report/model/sections.h"
#include "report/model/contend-text.h"
#include "report/model/summary-text.h"
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
/* Rows of each ranked list (TopDown's costliest lines and functions) the screen shows. */
#define TUI_SECTION_TOP 10

/* The sections of the run's context, in the text report's order. */
static const enum rm_section_id tui_context_ids[] = {
	RM_SEC_REGIONS, RM_SEC_UNCORE, RM_SEC_TOPDOWN, RM_SEC_TOPDOWN_TIME,
};

/* One row of a section: prose and table rows under their title, a label and its value as the
 * statistics screen shows them; the title and headings at the left stand out. */
static enum tui_attr tui_section_row(const struct rm_section *sec, const struct rm_srow *r,
				     struct tui_buf *b)
{
	char small[512], *buf = small;
	int n;

	switch (r->kind) {
	case RM_SROW_BLANK:
		return TUI_ATTR_NORMAL;
	case RM_SROW_TEXT:
		if (r->indent || (r->flags & RM_SROW_WRAP)) {
			tui_bufaddf(b, "  %s", r->text);
			return TUI_ATTR_NORMAL;
		}
		tui_bufaddf(b, "%s", r->text);
		return TUI_ATTR_HEADER;
	case RM_SROW_PAIR:
		tui_bufaddf(b, "  %-34s: %s", r->label, r->text);
		return TUI_ATTR_NORMAL;
	default:
		n = rm_srow_cells_text(sec, r, small, sizeof(small));
		if (n >= (int)sizeof(small)) {
			buf = xmalloc((size_t)n + 1);
			rm_srow_cells_text(sec, r, buf, (size_t)n + 1);
		}
		tui_bufaddf(b, "  %s", buf);
		if (buf != small)
			free(buf);
		return TUI_ATTR_NORMAL;
	}
}

/* The rows @sec takes on screen (title, the rows shown, a blank one after it); row @row drawn
 * into @b (SIZE_MAX: none) with its attribute in *attr. */
static size_t tui_section_rows(const struct rm_section *sec, size_t row, struct tui_buf *b,
			       enum tui_attr *attr)
{
	size_t n = 0;

	if (!sec)
		return 0;
	if (sec->title && row == n++) {
		tui_bufaddf(b, "%s", sec->title);
		*attr = TUI_ATTR_HEADER;
	}
	for (size_t i = 0; i < sec->nr_row; i++) {
		if (!rm_srow_shown(&sec->row[i], TUI_SECTION_TOP))
			continue;
		if (row == n++)
			*attr = tui_section_row(sec, &sec->row[i], b);
	}
	return n + (sec->blank_after != 0);
}

/* The run's context (regions, AMD uncore, TopDown) when the trace has any: its rows, and row
 * @row into @b as tui_section_rows(). */
static size_t tui_context_rows(const struct tui_model *m, size_t row, struct tui_buf *b,
			       enum tui_attr *attr)
{
	size_t n = 0, k;

	for (size_t i = 0; i < sizeof(tui_context_ids) / sizeof(tui_context_ids[0]); i++) {
		const struct rm_section *sec = rm_sections_get(m->sections, tui_context_ids[i]);

		k = tui_section_rows(sec, row >= n ? row - n : SIZE_MAX, b, attr);
		n += k;
	}
	return n;
}

/* The info rows, then the run's context. */
static size_t tui_head_rows(const struct tui_model *m)
{
	enum tui_attr a;

	return TUI_INFO_ROWS + tui_context_rows(m, SIZE_MAX, NULL, &a);
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

/* The statistics of a soft or watch trace: the warning, what the figures are, then the run's
 * totals (the report's section); rows, and row @row into @b with its attribute in *attr. */
static size_t tui_estim_stats(const struct tui_model *m, size_t row, struct tui_buf *b,
			      enum tui_attr *attr)
{
	const struct rm_section *run = rm_sections_get(m->sections, RM_SEC_RUN);
	struct warn_text wt = { .n = 0 };
	struct rm_attrib a;
	size_t n = 0, i;

	if (!run)
		return 0;
	rm_attrib_of(m->rm, &a);
	rm_attrib_warning(&a, put_warn_text, &wt);
	*attr = row == 0 ? TUI_ATTR_HEADER : TUI_ATTR_NORMAL;
	for (i = 0; i < wt.n; i++)
		if (row == n++)
			tui_bufaddf(b, "%s", wt.line[i]);
	if (wt.n)
		n++;
	if (row == n++)
		tui_bufaddf(b, "%s", m->kind == RM_SOFT ? "Soft backend: timer samples charged to "
			    "the access each thread was stalled on (estimates)" :
			    "Watch backend: every access to the watched words (counts)");
	return n + tui_section_rows(run, row >= n ? row - n : SIZE_MAX, b, attr);
}

/* The lines of a text builder (report/model/text.h), owned by the screen. */
struct tui_lines {
	char **line;
	size_t n, cap;
};

static void tui_put_line(void *ctx, const char *text)
{
	struct tui_lines *l = ctx;

	l->line = xgrow(l->line, &l->cap, l->n + 1, sizeof(*l->line));
	l->line[l->n++] = xstrdup(text);
}

size_t tui_findings_text(struct tui_model *m, char ***out)
{
	struct rm_summary_opts o = { .top = 1000, .prefix = "", .say_none = 1, .map = 1 };
	struct tui_lines l = { 0 };

	rm_summary_text(m->rm, m->fs, &o, tui_put_line, &l);
	*out = l.line;
	return l.n;
}

size_t tui_contend_text(const struct tui_model *m, char ***out, size_t *pair0, size_t *type0)
{
	const struct rm_contend *c = m->contend;
	struct tui_lines l = { 0 };

	*pair0 = *type0 = SIZE_MAX;
	if (c && c->nr_pair) {
		*pair0 = 2;                              /* after the title and the header */
		rm_contend_pairs_text(m->rm, c, 0, tui_put_line, &l);
	}
	if (c && c->nr_type) {
		if (l.n)
			tui_put_line(&l, "");
		*type0 = l.n + 2;
		rm_contend_types_text(m->rm, c, 0, tui_put_line, &l);
	}
	if (!l.n)
		tui_put_line(&l, "no contended line is touched from two functions' threads or by "
			     "a typed instance");
	*out = l.line;
	return l.n;
}

size_t tui_callers_text(const struct tui_model *m, const struct rm_line *l, const struct rm_row *r,
			char ***out)
{
	uint64_t total = rm_callgraph_line_samples(l), own = rm_callgraph_row_samples(r);
	struct tui_lines tl = { 0 };
	char *head = xasprintf("offset 0x%x, code 0x%llx %s: %llu samples with callchains, %.2f%% "
			       "of the line's", r->disp_offset, (unsigned long long)r->code.ip,
			       r->code.symbol ? r->code.symbol : "", (unsigned long long)own,
			       total ? own * 100.0 / total : 0.0);

	tui_put_line(&tl, head);
	free(head);
	rm_callgraph_row_text(m->rm, l, r, RM_CALLERS_CALLEE, tui_put_line, &tl);
	*out = tl.line;
	return tl.n;
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
	enum tui_attr a;
	size_t n;

	switch (s) {
	case TUI_SCR_STATS:
		if (m->t)
			return tui_head_rows(m) + tui_stat_rows(m->rm);
		n = tui_estim_stats(m, SIZE_MAX, &b, &a);
		free(b.s);
		return tui_head_rows(m) + n;
	case TUI_SCR_FINDINGS:
	case TUI_SCR_CALLERS:
	case TUI_SCR_CONTEND:
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
	enum tui_attr a = TUI_ATTR_NORMAL;
	size_t i;
	long k;

	if (row < TUI_INFO_ROWS) {
		tui_info_row(c, row, b);
		return TUI_ATTR_NORMAL;
	}
	if (row < tui_head_rows(c->m)) {
		tui_context_rows(c->m, row - TUI_INFO_ROWS, b, &a);
		return a;
	}
	i = row - tui_head_rows(c->m);
	if (!c->m->t) {
		tui_estim_stats(c->m, i, b, &a);
		return a;
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
	case TUI_SCR_CONTEND: return " Contending functions and data types (Enter: the row's lines "
				    "in the list)";
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
			case TUI_SCR_CONTEND:
				tui_bufaddf(&c->b, " %s", v->text_lines[row]);
				a = row == l->sel ? TUI_ATTR_SELECT : TUI_ATTR_NORMAL;
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
