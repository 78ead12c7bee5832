/* The cacheline list: index, address, what the line holds and its verdict (so that the first
 * screen says them on 80 columns), then the columns the backend declares (perf's Shared Data
 * Cache Line Table for PMU data); the sort column marked in the header. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/attrib.h"
#include "tui/draw-int.h"

#define TUI_VERDICT_W 13
#define TUI_DATA_MIN 24      /* the narrowest the data column shrinks to on a narrow screen */

static const struct rm_col *tui_col(const struct tui_model *m, size_t i)
{
	return rm_model_col(m->rm, m->rm->line_cols[i]);
}

/* The address as wide as the widest, the data as wide as what the lines hold, narrowed (not
 * below TUI_DATA_MIN) when that would push the first figure column off the screen. */
void tui_list_layout(struct tui_model *m, struct tui_view *v)
{
	int addr = 8, data = 4, fixed, first = 0, room;
	char tmp[32];
	size_t i;

	for (i = 0; i < m->rm->nr_line; i++) {
		const struct rm_line *l = &m->rm->line[i];
		int n = snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)l->addr);

		addr = n > addr ? n : addr;
		n = tui_cols(l->what ? l->what : "-");
		data = n > data ? n : data;
	}
	if (m->rm->nr_line_cols)
		first = 2 + tui_col(m, 0)->width;
	fixed = 2 + 5 + 2 + addr + 2 + 2 + TUI_VERDICT_W;
	room = v->cols - fixed - first;
	if (data > room)
		data = room > TUI_DATA_MIN ? room : data < TUI_DATA_MIN ? data : TUI_DATA_MIN;
	v->list_w.addr = addr;
	v->list_w.data = data;
}

static void tui_list_header(struct tui_ctx *c, int row)
{
	const struct tui_model *m = c->m;
	size_t i, j;

	tui_bufreset(&c->b);
	tui_bufaddf(&c->b, "  %5s  %*s  %-*s  %-*s", "", c->v->list_w.addr, "", c->v->list_w.data,
		    "", TUI_VERDICT_W, "");
	for (i = 0; i < m->rm->nr_line_cols; i = j) {
		const char *g = tui_col(m, i)->group;
		int w = 0;

		for (j = i; j < m->rm->nr_line_cols && !strcmp(g, tui_col(m, j)->group) &&
			    (j == i || *g); j++)
			w += 2 + tui_col(m, j)->width;
		tui_bufaddf(&c->b, "  ");
		if (j == i + 1)   /* a one-column group: the word alone, right-aligned */
			tui_bufaddf(&c->b, "%*s", w - 2, g);
		else
			tui_banner(&c->b, w - 2, g);
	}
	tui_row(c, row, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
	tui_bufreset(&c->b);
	tui_bufaddf(&c->b, "  %5s  %*s  %-*s  %-*s", "Index", c->v->list_w.addr,
		    c->v->sort == TUI_SORT_ADDRESS ? "*Address" : "Address", c->v->list_w.data, "Data",
		    TUI_VERDICT_W, "Verdict");
	for (i = 0; i < m->rm->nr_line_cols; i++) {
		char name[32];
		int id = (int)m->rm->line_cols[i];

		snprintf(name, sizeof(name), "%s%s", id == c->v->sort ||
			 (id == RM_COL_COST && c->v->sort == TUI_SORT_COST) ? "*" : "",
			 tui_col(m, i)->hdr);
		tui_bufaddf(&c->b, "  %*s", tui_col(m, i)->width, name);
	}
	tui_row(c, row + 1, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
}

void tui_list_row_text(struct tui_model *m, const struct tui_view *v, size_t row,
		       struct tui_buf *b)
{
	const struct rm_line *l = &m->rm->line[v->order[row]];
	char tmp[256];
	size_t i;

	tui_bufreset(b);
	snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)l->addr);
	tui_bufaddf(b, "  %5zu  %*s", row + 1, v->list_w.addr, tmp);
	tui_cell(b, l->what ? l->what : "-", v->list_w.data, -1);
	tui_bufaddf(b, "  %-*s", TUI_VERDICT_W, rm_verdict_short(l->verdict));
	for (i = 0; i < m->rm->nr_line_cols; i++) {
		rm_cell(m->rm, l, NULL, m->rm->line_cols[i], tmp, sizeof(tmp));
		tui_bufaddf(b, "  %*s", tui_col(m, i)->width, tmp);
	}
}

static const char *tui_list_title(const struct tui_model *m)
{
	switch (m->kind) {
	case RM_SOFT: return "Estimated Cache Line Table (soft backend: timer samples)";
	case RM_WATCH: return "Cache Line Table (watch backend: watchpoint hits)";
	case RM_PMU: default: return "Shared Data Cache Line Table";
	}
}

/* The warning's lines, one screen row each, while rows are left for it. */
struct warn_rows {
	struct tui_ctx *c;
	int row, end;
};

static void put_warn_row(void *ctx, const char *text)
{
	struct warn_rows *w = ctx;

	if (w->row < w->end)
		tui_row(w->c, w->row++, TUI_ATTR_HOT, text, 0);
}

void tui_draw_list(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	const struct tui_model *m = c->m;
	int h = tui_view_body_rows(v, TUI_SCR_LIST), r, w;

	if (m->kind == RM_PMU)
		tui_rowf(c, 0, TUI_ATTR_TITLE, " %s (%zu entries, sorted on %s)%s%s  display %s  "
			 "coalesce %s  %s", tui_list_title(m), v->nr_line,
			 tui_sort_name(m, v->sort), v->filter ? ", lines of " : "",
			 v->filter ? v->filter_name : "", rm_display_key(m->rm->display),
			 v->coalesce_name, m->path ? m->path : "");
	else
		tui_rowf(c, 0, TUI_ATTR_TITLE, " %s (%zu %sline%s, sorted on %s)%s%s  %s",
			 tui_list_title(m), v->nr_line, m->rm->nr_line < m->rm->nr_all_lines ?
			 "contended " : "", v->nr_line == 1 ? "" : "s", tui_sort_name(m, v->sort),
			 v->filter ? ", lines of " : "", v->filter ? v->filter_name : "",
			 m->path ? m->path : "");
	w = tui_view_warn_rows(v);
	if (w) {
		struct warn_rows wr = { .c = c, .row = 1, .end = 1 + w };
		struct rm_attrib a;

		rm_attrib_of(m->rm, &a);
		rm_attrib_warning(&a, put_warn_row, &wr);
	}
	tui_list_header(c, 1 + w);
	for (r = 0; r < h; r++) {
		size_t idx = v->list.top + (size_t)r;
		enum tui_attr a = TUI_ATTR_NORMAL;
		const struct rm_line *l;

		if (idx >= v->nr_line) {
			tui_row(c, 3 + w + r, a, r == 0 ? (m->kind == RM_PMU ?
				"  (no shared cachelines in this display mode; press m to switch)" :
				"  (no contended cacheline: nothing to fix)") : "", 0);
			continue;
		}
		l = &m->rm->line[v->order[idx]];
		tui_list_row_text(c->m, v, idx, &c->b);
		if (idx == v->list.sel)
			a = TUI_ATTR_SELECT;
		else if (m->rm->total_cost > 0 && l->cost * 10 >= m->rm->total_cost)
			a = TUI_ATTR_HOT;   /* a tenth of all contention or more */
		tui_row(c, 3 + w + r, a, c->b.s, v->hscroll);
	}
}
