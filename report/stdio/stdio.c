/* The perf-identical stdio report (see report/stdio/stdio.h): the model's run totals, then its
 * two PMU tables as the model declares their columns (rm_pmu_table()), fitted per line, filled
 * with the model's cells (rm_cell_col()) and laid out by report/stdio/columns.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/columns.h"
#include "report/stdio/callgraph.h"
#include "report/stdio/stdio.h"

#define RULE "================================================="
#define CELL 512

/* --- summary blocks ------------------------------------------------------------------------- */

static void print_title(FILE *f, const char *title)
{
	fprintf(f, "%s\n%s\n%s\n", RULE, title, RULE);
}

/* perf's run totals, from the model's rows: a blank line before each section but the first. */
static void print_stats(FILE *f, const struct rm_stat *st, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (st[i].kind == RM_STAT_TITLE) {
			if (i)
				fprintf(f, "\n");
			print_title(f, st[i].banner);
		} else if (st[i].kind == RM_STAT_PCT) {
			fprintf(f, "  %-34s: %10.1f%%\n", st[i].label, st[i].pct);
		} else {
			fprintf(f, "  %-34s: %10d\n", st[i].label, (int)st[i].count);
		}
	}
}

static void print_details(FILE *f, const struct rm_model *m, const struct stdio_opts *o)
{
	int i;

	print_title(f, "                 c2c details                     ");
	for (i = 0; i < o->nr_events; i++)
		fprintf(f, "%-36s: %s\n", i ? "" : "  Events", o->events[i]);
	fprintf(f, "%-36s: %s\n", "  Cachelines sort on", rm_display_title(m->display));
	fprintf(f, "%-36s: offset,%s\n", "  Cacheline data grouping", o->coalesce);
}

/* --- tables of model columns ---------------------------------------------------------------- */

/* A table of perf's: the model's columns (rm_pmu_table()) with their widths for the line being
 * printed and their banners. */
struct table {
	struct rm_col rc[RM_TBL_MAX];
	struct col c[RM_TBL_MAX];
	int model_w[RM_TBL_MAX];     /* RM_FIT_MODEL columns: the width over the whole model */
	char banner[RM_TBL_MAX][96];
	int n;
	int full;                    /* --full-symbols: no cap */
};

static int widest(int w, int claim)
{
	return claim > w ? claim : w;
}

static void table_setup(struct table *tb, const struct rm_model *m, enum rm_table which,
			const struct stdio_opts *o)
{
	struct rm_layout lo = { .node_info = o->node_info, .no_source = o->no_source,
				.double_cl = o->double_cl };
	size_t i, j;
	int k;

	memset(tb, 0, sizeof(*tb));
	tb->n = (int)rm_pmu_table(m, which, &lo, tb->rc);
	tb->full = o->full_symbols;
	for (k = 0; k < tb->n; k++) {
		const struct rm_col *c = &tb->rc[k];

		tb->model_w[k] = c->width;
		if (c->fit != RM_FIT_MODEL)
			continue;
		for (i = 0; i < m->nr_line; i++) {
			const struct rm_line *l = &m->line[i];

			tb->model_w[k] = widest(tb->model_w[k], rm_cell_claim(m, l, NULL, c));
			for (j = 0; j < l->nr_row; j++)
				tb->model_w[k] = widest(tb->model_w[k],
							rm_cell_claim(m, l, &l->row[j], c));
		}
	}
}

/* The widths for line @l (RM_FIT_LINE columns: over all its rows, hidden ones too: perf's
 * hists__calc_col_len), the banners, and the layout columns. */
static void table_fit(struct table *tb, const struct rm_model *m, const struct rm_line *l)
{
	int k, i;

	for (k = 0; k < tb->n; k++) {
		const struct rm_col *c = &tb->rc[k];
		int w = tb->model_w[k];
		size_t j;

		for (j = 0; l && c->fit == RM_FIT_LINE && j < l->nr_row; j++)
			w = widest(w, rm_cell_claim(m, l, &l->row[j], c));
		if (c->cap && !tb->full && w > c->cap)
			w = c->cap;
		tb->c[k] = (struct col){ .hdr0 = c->hdr0, .span = c->span, .hdr1 = c->hdr,
					 .width = w,
					 .align = c->align == RM_LEFT ? COL_LEFT : COL_RIGHT };
	}
	for (k = 0; k < tb->n; k++) {
		int w = 0;

		if (!tb->rc[k].banner)
			continue;
		for (i = k; i <= k + tb->rc[k].span && i < tb->n; i++)
			w += tb->c[i].width + (i > k ? 2 : 0);
		col_banner(tb->banner[k], sizeof(tb->banner[k]), w, tb->rc[k].hdr0);
		tb->c[k].hdr0 = tb->banner[k];
	}
}

/* Row @r of line @l (the line itself when @r is NULL) into @out. */
static void table_row(struct col_line *out, const struct table *tb, const struct rm_model *m,
		      const struct rm_line *l, const struct rm_row *r)
{
	static char cell[RM_TBL_MAX][CELL];
	const char *p[RM_TBL_MAX];
	int k;

	for (k = 0; k < tb->n; k++) {
		rm_cell_col(m, l, r, &tb->rc[k], cell[k], CELL);
		if (tb->rc[k].cap && tb->c[k].width < CELL)
			cell[k][tb->c[k].width] = '\0';
		p[k] = cell[k];
	}
	col_row(out, tb->c, tb->n, p);
}

/* The three header lines, each written with @put's suffix; returns header 1's length. */
static size_t table_header(FILE *f, const struct table *tb, size_t data_col, int data)
{
	struct col_line l = { 0 };
	size_t len;

	col_header0(&l, tb->c, tb->n);
	fprintf(f, "%s\n", l.s);
	col_line_reset(&l);
	col_header1(&l, tb->c, tb->n);
	len = l.len > data_col ? l.len : data_col;
	if (data)
		fprintf(f, "%-*s  Data\n", (int)len, l.s);
	else
		fprintf(f, "%s\n", l.s);
	col_line_reset(&l);
	col_dots(&l, tb->c, tb->n);
	if (data)
		fprintf(f, "%-*s  ....\n#\n", (int)len, l.s);
	else
		fprintf(f, "%s\n#\n", l.s);
	col_line_release(&l);
	return len;
}

/* --- the main table ------------------------------------------------------------------------- */

static void print_main_table(FILE *f, const struct rm_model *m, const struct stdio_opts *o)
{
	struct table tb;
	struct col_line l = { 0 };
	size_t i;

	table_setup(&tb, m, RM_TBL_LINES, o);
	table_fit(&tb, m, NULL);
	print_title(f, "           Shared Data Cache Line Table          ");
	fprintf(f, "#\n");
	table_header(f, &tb, 0, 0);
	for (i = 0; i < m->nr_line; i++) {
		col_line_reset(&l);
		table_row(&l, &tb, m, &m->line[i], NULL);
		fprintf(f, "%s\n", l.s);
	}
	col_line_release(&l);
}

/* --- the Pareto section --------------------------------------------------------------------- */

/* perf's rows of the visible rows of a line, rendered once into @rows ("\n" after each);
 * returns the length of the longest. */
static size_t render_rows(struct col_line *rows, const struct table *tb, const struct rm_model *m,
			  const struct rm_line *l)
{
	size_t j, start, width = 0;

	col_line_reset(rows);
	for (j = 0; j < l->nr_row; j++) {
		if (!l->row[j].visible)
			continue;
		start = rows->len;
		table_row(rows, tb, m, l, &l->row[j]);
		if (rows->len - start > width)
			width = rows->len - start;
		col_line_add(rows, "\n", 1);
	}
	return width;
}

/* The rows of render_rows(); with data names, each visible row's name in a column two spaces
 * after @width characters; the callers under each row with callchains. */
static void print_rows(FILE *f, const struct rm_model *m, const struct rm_line *l,
		       const struct stdio_opts *o, const struct col_line *rows, size_t width)
{
	const char *r = rows->len ? rows->s : "";
	size_t j;

	if (!o->data_names && (!o->call_graph || !m->callers)) {
		fputs(r, f);
		return;
	}
	for (j = 0; j < l->nr_row; j++) {
		const struct rm_row *row = &l->row[j];
		const char *e = strchr(r, '\n');

		if (!row->visible || !e)
			continue;
		if (o->data_names)
			fprintf(f, "%-*.*s  %s\n", (int)width, (int)(e - r), r,
				row->data ? row->data : "[unknown]");
		else
			fprintf(f, "%.*s\n", (int)(e - r), r);
		r = e + 1;
		if (o->call_graph && m->callers)
			callgraph_fprint(f, m->callers, row->callers, row->nr_callers,
					 (enum rm_callers_order)(o->call_graph - 1),
					 (uint64_t)l->v[RM_COL_SAMPLES],
					 (uint64_t)row->v[RM_COL_SAMPLES]);
	}
}

/* The line's heading: its index, HITM (peer) and store counts, address and name. */
static void print_line_heading(FILE *f, const struct rm_line *l, const struct stdio_opts *o)
{
	const double *v = l->v;
	char addr[32];

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)l->addr);
	fprintf(f, "  ----------------------------------------------------------------------\n");
	fprintf(f, "  %5u  %7u  %7u  %7u  %7u  %7u  %18s%s%s\n", l->index,
		(uint32_t)v[RM_COL_RMT_HITM], (uint32_t)v[RM_COL_LCL_HITM],
		(uint32_t)v[RM_COL_ST_L1HIT], (uint32_t)v[RM_COL_ST_L1MISS],
		(uint32_t)v[RM_COL_ST_NA], addr, o->data_names ? "  " : "",
		o->data_names ? (l->what ? l->what : "[unknown]") : "");
	fprintf(f, "  ----------------------------------------------------------------------\n");
}

static void print_pareto(FILE *f, const struct rm_model *m, const struct stdio_opts *o)
{
	struct table tb;
	struct col_line rows = { 0 };
	size_t i;

	print_title(f, "      Shared Cache Line Distribution Pareto      ");
	fprintf(f, "#\n");
	if (!m->nr_line)
		return;
	table_setup(&tb, m, RM_TBL_ROWS, o);
	for (i = 0; i < m->nr_line; i++) {
		const struct rm_line *l = &m->line[i];
		size_t data_col;

		table_fit(&tb, m, l);
		data_col = render_rows(&rows, &tb, m, l);
		if (i == 0)
			data_col = table_header(f, &tb, data_col, o->data_names);
		else
			fprintf(f, "\n");
		print_line_heading(f, l, o);
		print_rows(f, m, l, o, &rows, data_col);
	}
	col_line_release(&rows);
}

int stdio_print(FILE *f, const struct rm_model *m, const struct stdio_opts *o)
{
	print_stats(f, m->stats, m->nr_stats);
	fprintf(f, "\n");
	print_details(f, m, o);
	if (!o->stats_only) {
		fprintf(f, "\n");
		print_main_table(f, m, o);
		fprintf(f, "\n");
		print_pareto(f, m, o);
	}
	return ferror(f) ? -EIO : 0;
}
