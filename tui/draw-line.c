/* One line: the findings panel (what the line holds, its verdict, the advice, the false sharing's share,
 * who writes and reads which member), its line map, then its offset rows: the columns the
 * backend declares (for PMU data perf's Pareto: HITM and store shares of the line's totals,
 * cycles, records, CPUs), the code address, symbol, source line, the data touched, and for PMU
 * data the object and perf's node info. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/summary-text.h"
#include "tui/draw-int.h"

/* The data, symbol and Source:Line columns: as wide as their text, cut down to the first
 * widths (the MAX) to leave the first figure column on the screen, then to the second (the MIN)
 * to stay on it themselves. */
#define DATA_MAX 40
#define SYM_MAX 34
#define SRC_MAX 24
#define DATA_MIN 16
#define SYM_MIN 16
#define SRC_MIN 11
#define PANEL_MEMBERS 4
#define PANEL_MAP_ROWS 8
#define PANEL_ACCESSES 4             /* soft: the watched accesses shown */

/* --- the panel ------------------------------------------------------------------------------------ */

struct panel {
	char **line;
	size_t nr, cap;
};

static void panel_add(struct panel *p, const char *s)
{
	p->line = xgrow(p->line, &p->cap, p->nr + 1, sizeof(*p->line));
	p->line[p->nr++] = xstrdup(s);
}

static void panel_map_line(void *ctx, const char *text)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "  %s", text);
	panel_add(ctx, buf);
}

/* @text after @lead, wrapped at @width columns (words kept whole), at most @max lines. */
static void panel_wrap(struct panel *p, const char *lead, const char *text, int width, int max)
{
	size_t ind = strlen(lead), n = strlen(text);
	char buf[1024];
	int lines = 0;

	if (width < (int)ind + 20)
		width = (int)ind + 20;
	while (n && lines < max) {
		size_t room = (size_t)width - ind, take = n;

		if (take > room) {
			take = room;
			while (take > room / 2 && text[take] != ' ')
				take--;
			if (text[take] != ' ')
				take = room;
		}
		if (lines == max - 1 && take < n && take > 3) {
			snprintf(buf, sizeof(buf), "%*s%.*s...", (int)ind, lines ? "" : lead,
				 (int)(take - 3), text);
			panel_add(p, buf);
			return;
		}
		snprintf(buf, sizeof(buf), "%*s%.*s", lines ? (int)ind : 0, lines ? "" : lead,
			 (int)take, text);
		panel_add(p, buf);
		text += take;
		n -= take;
		while (*text == ' ')
			text++, n--;
		lines++;
	}
}

size_t tui_line_panel(struct tui_model *m, const struct tui_view *v, const struct rm_line *l,
		      char ***out)
{
	const struct rm_finding *f = l->finding;
	struct panel p = { 0 };
	char buf[1024], w[256], r[256];
	size_t i;

	snprintf(buf, sizeof(buf), "  %s: %s, %.2f%% of %s, %u thread%s", l->what ? l->what : "-",
		 rm_verdict_name(l->verdict), l->v[RM_COL_COST], m->rm->cost_name,
		 l->nr_threads, l->nr_threads == 1 ? "" : "s");
	panel_add(&p, buf);
	if (f) {
		rm_evidence_text(m->rm, f, w, sizeof(w));
		if (f->ev.low) {
			rm_verdict_text(m->rm, f, r, sizeof(r));
			snprintf(buf, sizeof(buf), "  %s", r);
			panel_add(&p, buf);
		}
		panel_wrap(&p, "  evidence: ", w, v->cols - 1, 2);
		panel_wrap(&p, "  advice: ", f->advice, v->cols - 1, 3);
		if (f->verdict == RM_V_FALSE || f->verdict == RM_V_MIXED) {
			rm_gain_text(m->rm, f, w, sizeof(w));
			panel_wrap(&p, "  ", w, v->cols - 1, 2);
		}
	} else {
		panel_add(&p, "  advice: nothing to fix on this line");
	}
	for (i = 0; i < l->nr_mem && i < PANEL_MEMBERS; i++) {
		const struct rm_member *mb = &l->mem[i];
		char name[160];

		rm_threads_text(mb->writers, mb->nr_writers, w, sizeof(w));
		rm_threads_text(mb->readers, mb->nr_readers, r, sizeof(r));
		if (mb->name)
			snprintf(name, sizeof(name), "%s", mb->name);
		else
			snprintf(name, sizeof(name), "offset 0x%x", mb->offset);
		snprintf(buf, sizeof(buf), "  %-24s written by %s%s%s", name,
			 mb->nr_writers ? w : "nobody sampled", mb->nr_readers ? ", read by " : "",
			 mb->nr_readers ? r : "");
		panel_add(&p, buf);
	}
	if (l->nr_mem > PANEL_MEMBERS) {
		snprintf(buf, sizeof(buf), "  (%zu more members; press f for the findings)",
			 l->nr_mem - PANEL_MEMBERS);
		panel_add(&p, buf);
	}
	if (l->confirm) {               /* soft: what the confirmation watchpoints saw */
		char text[2048];

		rm_confirm_text(l, text, sizeof(text));
		panel_wrap(&p, "  watchpoints: ", text, v->cols - 1, 3);
		for (i = 0; i < l->confirm->nr_acc && i < PANEL_ACCESSES; i++) {
			char one[512];

			rm_confirm_access_text(&l->confirm->acc[i], one, sizeof(one));
			snprintf(buf, sizeof(buf), "    %s, %llu transfer%s", one,
				 (unsigned long long)(l->confirm->acc[i].xfers + l->confirm->acc[i].inval),
				 l->confirm->acc[i].xfers + l->confirm->acc[i].inval == 1 ? "" : "s");
			panel_add(&p, buf);
		}
	}
	if (v->show_map) {
		struct rm_linemap map;

		rm_linemap_build(m->rm, l, &map);
		rm_linemap_text(&map, PANEL_MAP_ROWS, panel_map_line, &p);
		rm_linemap_release(&map);
	}
	*out = p.line;
	return p.nr;
}

/* --- rows ----------------------------------------------------------------------------------------- */

void tui_symbol(const struct rm_row *r, char *buf, size_t size)
{
	char lvl = rm_code_level(&r->code);

	if (r->code.symbol)
		snprintf(buf, size, "[%c] %s", lvl, r->code.symbol);
	else
		snprintf(buf, size, "[%c] 0x%016llx", lvl,
			 (unsigned long long)(r->code.dso ? r->code.al : r->code.ip));
}

void tui_srcline(const struct rm_row *r, char *buf, size_t size)
{
	const char *base;

	if (!r->code.srcfile) {
		snprintf(buf, size, "%s", r->code.dso ? r->code.dso : "-");
		return;
	}
	base = strrchr(r->code.srcfile, '/');
	snprintf(buf, size, "%s:%u", base ? base + 1 : r->code.srcfile, r->code.line);
}

static int widen(int w, const char *text)
{
	int n = tui_cols(text);

	return n > w ? n : w;
}

static int shrink(int *w, int floor, int excess)
{
	int cut = *w - floor;

	if (cut <= 0 || excess <= 0)
		return excess;
	cut = cut < excess ? cut : excess;
	*w -= cut;
	return excess - cut;
}

static void tui_code_text(const struct rm_row *r, char *buf, size_t size)
{
	snprintf(buf, size, "0x%llx", (unsigned long long)(r->code.dso ? r->code.al : r->code.ip));
}

void tui_line_layout(struct tui_model *m, struct tui_view *v)
{
	const struct rm_line *l = tui_view_line(v, m);
	struct tui_widths w = { .data = 4, .sym = 6, .src = 11, .code = 12 };
	char tmp[512];
	int excess;
	size_t i;

	for (i = 0; l && i < v->nr_row_ix; i++) {
		const struct rm_row *r = &l->row[v->row_ix[i]];

		w.data = widen(w.data, r->data ? r->data : "-");
		tui_symbol(r, tmp, sizeof(tmp));
		w.sym = widen(w.sym, tmp);
		tui_srcline(r, tmp, sizeof(tmp));
		w.src = widen(w.src, tmp);
		tui_code_text(r, tmp, sizeof(tmp));
		w.code = widen(w.code, tmp);
	}
	if (!v->full_symbols) {
		int first = m->rm->nr_row_cols ?
			    2 + rm_model_row_col(m->rm, m->rm->row_cols[0])->width : 0;

		/* the offset, these four and the first figure on the screen ... */
		excess = 2 + 8 + 2 + w.data + 2 + w.sym + 2 + w.src + 2 + w.code + first - v->cols;
		excess = shrink(&w.src, SRC_MAX, excess);
		excess = shrink(&w.sym, SYM_MAX, excess);
		shrink(&w.data, DATA_MAX, excess);
		/* ... or at least the offset and these four */
		excess = 2 + 8 + 2 + w.data + 2 + w.sym + 2 + w.src + 2 + w.code - v->cols;
		excess = shrink(&w.src, SRC_MIN, excess);
		excess = shrink(&w.sym, SYM_MIN, excess);
		shrink(&w.data, DATA_MIN, excess);
	}
	v->line_w = w;
}

void tui_line_row_text(struct tui_model *m, const struct tui_view *v, size_t row,
		       struct tui_buf *b)
{
	const struct rm_line *l = tui_view_line(v, m);
	const struct rm_row *r;
	char tmp[512];
	size_t i;

	tui_bufreset(b);
	if (!l || row >= v->nr_row_ix)
		return;
	r = &l->row[v->row_ix[row]];
	snprintf(tmp, sizeof(tmp), "0x%x", r->disp_offset);
	tui_bufaddf(b, "  %8s", tmp);
	tui_cell(b, r->data ? r->data : "-", v->line_w.data, 0);
	tui_symbol(r, tmp, sizeof(tmp));
	tui_cell(b, tmp, v->line_w.sym, 4);   /* "[.] " */
	tui_srcline(r, tmp, sizeof(tmp));
	tui_cell(b, tmp, v->line_w.src, 0);
	tui_code_text(r, tmp, sizeof(tmp));
	tui_bufaddf(b, "  %*s", v->line_w.code, tmp);
	for (i = 0; i < m->rm->nr_row_cols; i++) {
		enum rm_col_id id = m->rm->row_cols[i];
		const struct rm_col *c = rm_model_row_col(m->rm, id);

		rm_cell_col(m->rm, l, r, c, tmp, sizeof(tmp));
		tui_bufaddf(b, "  %*s", c->width, tmp);
	}
	if (m->kind == RM_PMU) {
		tui_bufaddf(b, "  %-18.18s  ", r->code.dso ? r->code.dso : "[unknown]");
		rm_cell(m->rm, l, r, RM_COL_CPUNODE0 + (v->node_info < 0 ? 0 : v->node_info > 2 ?
							2 : v->node_info), tmp, sizeof(tmp));
		tui_bufaddf(b, "%s", tmp);
	}
}

static void tui_line_header(struct tui_ctx *c, int row)
{
	const struct tui_model *m = c->m;
	const struct tui_view *v = c->v;
	const struct tui_widths *lw = &v->line_w;
	size_t i, j;

	tui_bufreset(&c->b);
	tui_bufaddf(&c->b, "  %8s  %*s  %*s  %*s  %*s", "", lw->data, "", lw->sym, "", lw->src, "",
		    lw->code, "");
	for (i = 0; i < m->rm->nr_row_cols; i = j) {
		const struct rm_col *ci = rm_model_row_col(m->rm, m->rm->row_cols[i]);
		int w = 0;

		for (j = i; j < m->rm->nr_row_cols &&
			    !strcmp(ci->group, rm_model_row_col(m->rm, m->rm->row_cols[j])->group) &&
			    (j == i || *ci->group); j++)
			w += 2 + rm_model_row_col(m->rm, m->rm->row_cols[j])->width;
		tui_bufaddf(&c->b, "  ");
		if (j == i + 1)
			tui_bufaddf(&c->b, "%*s", w - 2, ci->group);
		else
			tui_banner(&c->b, w - 2, ci->group);
	}
	tui_row(c, row, TUI_ATTR_HEADER, c->b.s, v->hscroll);
	tui_bufreset(&c->b);
	tui_bufaddf(&c->b, "  %8s", "Offset");
	tui_cell(&c->b, "Data", lw->data, -1);
	tui_cell(&c->b, "Symbol", lw->sym, -1);
	tui_cell(&c->b, "Source:Line", lw->src, -1);
	tui_bufaddf(&c->b, "  %*s", lw->code, "Code address");
	for (i = 0; i < m->rm->nr_row_cols; i++) {
		const struct rm_col *ci = rm_model_row_col(m->rm, m->rm->row_cols[i]);

		tui_bufaddf(&c->b, "  %*s", ci->width, ci->hdr);
	}
	if (m->kind == RM_PMU)
		tui_bufaddf(&c->b, "  %-18s  %s", "Object", v->node_info == 1 ?
			    "Node{cpus %share %stores}" : v->node_info == 2 ? "Node{cpu list}" :
			    "Node");
	tui_row(c, row + 1, TUI_ATTR_HEADER, c->b.s, v->hscroll);
}

void tui_draw_line(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	const struct tui_model *m = c->m;
	const struct rm_line *l = tui_view_line(v, m);
	int h = tui_view_body_rows(v, TUI_SCR_LINE), r, top;
	size_t i;

	if (!l)
		return;
	tui_rowf(c, 0, TUI_ATTR_TITLE, " Cacheline 0x%llx  (line %u of %zu, %zu of %zu offset rows "
		 "shown)%s%s", (unsigned long long)l->addr, l->index + 1, m->rm->nr_line, v->nr_row_ix,
		 l->nr_row, m->kind == RM_PMU ? "  display " : "",
		 m->kind == RM_PMU ? rm_display_key(m->rm->display) : "");
	for (i = 0; i < v->nr_panel; i++)
		tui_row(c, 1 + (int)i, i == 0 ? TUI_ATTR_HOT : TUI_ATTR_NORMAL, v->panel[i], 0);
	top = 1 + (int)v->nr_panel;
	tui_line_header(c, top);
	for (r = 0; r < h; r++) {
		size_t idx = v->detail.top + (size_t)r;

		if (idx >= v->nr_row_ix) {
			tui_row(c, top + 2 + r, TUI_ATTR_NORMAL, r == 0 && !v->nr_row_ix ?
				"  (no offset row has stores or the display metric)" : "", 0);
			continue;
		}
		tui_line_row_text(c->m, v, idx, &c->b);
		tui_row(c, top + 2 + r, idx == v->detail.sel ? TUI_ATTR_SELECT : TUI_ATTR_NORMAL,
			c->b.s, v->hscroll);
	}
}
