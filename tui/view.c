/* The controller (see tui/view.h): one binding table maps keys to actions, each action changes the
 * view state and says whether the screen must be redrawn. Ordering and searching work on the
 * report model (report/model/); nothing here aggregates or judges. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/attrib.h"
#include "tui/draw.h"
#include "tui/view.h"

#define TUI_HSCROLL_MAX 400   /* wider than any table row */

const struct tui_coalesce tui_coalesce_presets[] = {
	{ "iaddr", { CLTAB_CO_IADDR }, 1 },
	{ "tid,iaddr", { CLTAB_CO_TID, CLTAB_CO_IADDR }, 2 },
	{ "pid,iaddr", { CLTAB_CO_PID, CLTAB_CO_IADDR }, 2 },
	{ "dso", { CLTAB_CO_DSO }, 1 },
	{ "tid", { CLTAB_CO_TID }, 1 },
	{ "pid", { CLTAB_CO_PID }, 1 },
};
const int tui_nr_coalesce_presets = sizeof(tui_coalesce_presets) / sizeof(tui_coalesce_presets[0]);

/* --- state helpers ---------------------------------------------------------------------------- */

int tui_view_warn_rows(const struct tui_view *v)
{
	if (!v->warn_lines)
		return 0;
	if (v->rows < 20)
		return 1;
	return v->warn_lines < 6 ? v->warn_lines : 6;
}

int tui_view_body_rows(const struct tui_view *v, enum tui_screen_id s)
{
	int chrome;

	switch (s) {
	case TUI_SCR_LIST:                                 /* title, warning, 2 headers, status */
		chrome = 4 + tui_view_warn_rows(v);
		break;
	case TUI_SCR_LINE: chrome = 4 + (int)v->nr_panel; break; /* and the panel */
	case TUI_SCR_SOURCE: chrome = 3; break;
	default: chrome = 2; break;
	}
	return v->rows - chrome > 1 ? v->rows - chrome : 1;
}

static struct tui_list *tui_view_list(struct tui_view *v)
{
	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST: return &v->list;
	case TUI_SCR_LINE: return &v->detail;
	case TUI_SCR_SOURCE: return &v->source;
	case TUI_SCR_SORT: return &v->menu;
	default: return &v->text;
	}
}

static void tui_view_push(struct tui_view *v, enum tui_screen_id s)
{
	if (v->depth < TUI_STACK_MAX)
		v->stack[v->depth++] = s;
	v->hscroll = 0;
}

const struct rm_line *tui_view_line(const struct tui_view *v, const struct tui_model *m)
{
	return v->open < m->rm->nr_line ? &m->rm->line[v->open] : NULL;
}

const struct rm_row *tui_view_row(const struct tui_view *v, const struct tui_model *m)
{
	const struct rm_line *l = tui_view_line(v, m);

	if (!l || !v->nr_row_ix)
		return NULL;
	return &l->row[v->row_ix[v->detail.sel]];
}

size_t tui_sort_keys(const struct tui_model *m, int *out)
{
	size_t i, n = 0;

	out[n++] = TUI_SORT_COST;
	out[n++] = TUI_SORT_ADDRESS;
	for (i = 0; i < m->rm->nr_line_cols; i++)
		if (m->rm->line_cols[i] != RM_COL_COST &&
		    rm_model_col(m->rm, m->rm->line_cols[i])->fmt != RM_FMT_TEXT)
			out[n++] = (int)m->rm->line_cols[i];
	return n;
}

const char *tui_sort_name(const struct tui_model *m, int key)
{
	static char buf[64];
	const struct rm_col *c;

	if (key == TUI_SORT_COST)
		return m->rm->cost_name ? m->rm->cost_name : "cost";
	if (key == TUI_SORT_ADDRESS)
		return "address";
	c = rm_model_col(m->rm, (enum rm_col_id)key);
	snprintf(buf, sizeof(buf), "%s%s%s", c->group, *c->group ? " " : "", c->hdr);
	return buf;
}

struct tui_sort_arg {
	const struct rm_model *rm;
	int key;
};

static int tui_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct tui_sort_arg *s = arg;
	const struct rm_line *a = &s->rm->line[*(const uint32_t *)pa];
	const struct rm_line *b = &s->rm->line[*(const uint32_t *)pb];
	double x, y;

	if (s->key == TUI_SORT_ADDRESS) {
		if (a->addr != b->addr)
			return (a->addr > b->addr) - (a->addr < b->addr);
	} else if (s->key >= 0) {
		x = a->v[s->key];
		y = b->v[s->key];
		if (x != y)
			return (x < y) - (x > y);
	}
	return (a->index > b->index) - (a->index < b->index);
}

static void tui_view_order(struct tui_view *v, struct tui_model *m)
{
	struct tui_sort_arg arg = { m->rm, v->sort };
	size_t i;

	free(v->order);
	v->nr_line = m->rm->nr_line;
	v->order = xcalloc(v->nr_line + 1, sizeof(*v->order));
	for (i = 0; i < v->nr_line; i++)
		v->order[i] = (uint32_t)i;
	qsort_r(v->order, v->nr_line, sizeof(*v->order), tui_line_cmp, &arg);
	if (v->filter) {   /* a contend row's lines only */
		size_t k = 0, j;

		for (i = 0; i < v->nr_line; i++)
			for (j = 0; j < v->nr_filter; j++)
				if (v->filter[j] == v->order[i]) {
					v->order[k++] = v->order[i];
					break;
				}
		v->nr_line = k;
	}
	tui_list_layout(m, v);
}

/* Rebuild the open line's panel (its height decides the body's). */
static void tui_view_panel(struct tui_view *v, struct tui_model *m)
{
	size_t i;

	for (i = 0; i < v->nr_panel; i++)
		free(v->panel[i]);
	free(v->panel);
	v->panel = NULL;
	v->nr_panel = 0;
	tui_line_layout(m, v);
	if (tui_view_line(v, m))
		v->nr_panel = tui_line_panel(m, v, tui_view_line(v, m), &v->panel);
	/* leave at least three rows of the table on a small screen */
	while (v->nr_panel && (int)v->nr_panel > v->rows - 7)
		free(v->panel[--v->nr_panel]);
}

/* The rows of the open line in the order shown: a PMU line shows perf's rows (stores or the
 * display metric), the others every row. */
static void tui_view_rows(struct tui_view *v, struct tui_model *m)
{
	const struct rm_line *l = tui_view_line(v, m);
	size_t sel = v->detail.sel, i;

	free(v->row_ix);
	v->row_ix = NULL;
	v->nr_row_ix = 0;
	if (!l)
		return;
	v->row_ix = xcalloc(l->nr_row + 1, sizeof(*v->row_ix));
	for (i = 0; i < l->nr_row; i++)
		if (m->kind != RM_PMU || l->row[i].visible)
			v->row_ix[v->nr_row_ix++] = (uint32_t)i;
	tui_view_panel(v, m);
	tui_list_reset(&v->detail, v->nr_row_ix);
	tui_list_select(&v->detail, sel, tui_view_body_rows(v, TUI_SCR_LINE));
}

static size_t tui_find_line(const struct tui_model *m, uint64_t addr)
{
	size_t i;

	for (i = 0; i < m->rm->nr_line; i++)
		if (m->rm->line[i].addr == addr)
			return i;
	return SIZE_MAX;
}

static void tui_select_line(struct tui_view *v, size_t line)
{
	size_t i;

	for (i = 0; i < v->nr_line; i++)
		if (v->order[i] == line)
			tui_list_select(&v->list, i, tui_view_body_rows(v, TUI_SCR_LIST));
}

void tui_view_init(struct tui_view *v, struct tui_model *m, int rows, int cols)
{
	int i;

	memset(v, 0, sizeof(*v));
	v->rows = rows;
	v->cols = cols;
	v->stack[v->depth++] = TUI_SCR_LIST;
	v->sort = TUI_SORT_COST;
	v->show_map = 1;
	v->open = SIZE_MAX;
	{
		struct rm_attrib a;

		rm_attrib_of(m->rm, &a);
		v->warn_lines = a.warn ? 3 + (int)a.nr_top : 0;
	}
	v->coalesce = -1;
	snprintf(v->coalesce_name, sizeof(v->coalesce_name), "iaddr");
	for (i = 0; i < tui_nr_coalesce_presets; i++) {
		const struct tui_coalesce *p = &tui_coalesce_presets[i];

		if (p->nr == (m->opts.nr_coalesce ? m->opts.nr_coalesce : 1) &&
		    (!m->opts.nr_coalesce ? p->key[0] == CLTAB_CO_IADDR :
		     !memcmp(p->key, m->opts.coalesce, sizeof(p->key[0]) * (size_t)p->nr))) {
			v->coalesce = i;
			snprintf(v->coalesce_name, sizeof(v->coalesce_name), "%s", p->name);
		}
	}
	tui_view_order(v, m);
	tui_list_reset(&v->list, v->nr_line);
}

static void tui_free_lines(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

void tui_view_release(struct tui_view *v)
{
	free(v->order);
	free(v->row_ix);
	tui_free_lines(v->panel, v->nr_panel);
	tui_free_lines(v->src_text, v->nr_src);
	tui_free_lines(v->text_lines, v->nr_text);
	free(v->src_file);
	free(v->filter);
	memset(v, 0, sizeof(*v));
}

void tui_view_resize(struct tui_view *v, struct tui_model *m, int rows, int cols)
{
	v->rows = rows;
	v->cols = cols;
	tui_list_layout(m, v);
	if (tui_view_line(v, m))
		tui_view_panel(v, m);
	tui_list_fit(&v->list, tui_view_body_rows(v, TUI_SCR_LIST));
	tui_list_fit(&v->detail, tui_view_body_rows(v, TUI_SCR_LINE));
	tui_list_fit(&v->source, tui_view_body_rows(v, TUI_SCR_SOURCE));
	tui_list_fit(&v->text, tui_view_body_rows(v, TUI_SCR_STATS));
	tui_list_fit(&v->menu, tui_view_body_rows(v, TUI_SCR_SORT));
}

static void tui_view_reorder(struct tui_view *v, struct tui_model *m)
{
	int i, n = 0;

	/* another model (display mode, coalescing): its line indexes are not the filter's */
	free(v->filter);
	v->filter = NULL;
	v->nr_filter = 0;
	tui_view_order(v, m);
	tui_list_reset(&v->list, v->nr_line);
	v->detail.sel = 0;
	tui_view_rows(v, m);
	/* drop the screens that showed the old model's rows (the source view, a vanished line) */
	for (i = 0; i < v->depth; i++)
		if (v->stack[i] != TUI_SCR_SOURCE && (v->stack[i] != TUI_SCR_LINE || v->open != SIZE_MAX))
			v->stack[n++] = v->stack[i];
	v->depth = n;
}

/* Keep the selected and the open line by address across a new model. */
static void tui_view_refresh(struct tui_view *v, struct tui_model *m, uint64_t sel_addr,
			     uint64_t open_addr)
{
	v->open = open_addr ? tui_find_line(m, open_addr) : SIZE_MAX;
	tui_view_reorder(v, m);
	if (sel_addr)
		tui_select_line(v, tui_find_line(m, sel_addr));
}

void tui_view_rebuild(struct tui_view *v, struct tui_model *old, struct tui_model *m)
{
	uint64_t sel = v->nr_line && v->order[v->list.sel] < old->rm->nr_line ?
		       old->rm->line[v->order[v->list.sel]].addr : 0;
	const struct rm_line *open = tui_view_line(v, old);

	tui_view_refresh(v, m, sel, open ? open->addr : 0);
}

void tui_view_set_source(struct tui_view *v, char **text, size_t nr)
{
	tui_free_lines(v->src_text, v->nr_src);
	v->src_text = text;
	v->nr_src = text ? nr : 0;
	if (!text) {
		snprintf(v->msg, sizeof(v->msg), "cannot read '%s'", v->src_file);
		return;
	}
	tui_view_push(v, TUI_SCR_SOURCE);
	tui_list_reset(&v->source, v->nr_src);
	/* centre the sampled line */
	tui_list_select(&v->source, v->src_line ? v->src_line - 1 : 0,
			tui_view_body_rows(v, TUI_SCR_SOURCE));
	{
		int h = tui_view_body_rows(v, TUI_SCR_SOURCE);

		v->source.top = v->source.sel > (size_t)h / 2 ? v->source.sel - (size_t)h / 2 : 0;
		tui_list_fit(&v->source, h);
	}
}

/* --- search ------------------------------------------------------------------------------------ */

/* A row matches when the text drawn for it holds the query (case-insensitive). */
static int tui_match_row(struct tui_view *v, struct tui_model *m, size_t row)
{
	struct tui_buf b = { 0 };
	int hit = 0;

	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST:
		tui_list_row_text(m, v, row, &b);
		break;
	case TUI_SCR_LINE:
		tui_line_row_text(m, v, row, &b);
		break;
	case TUI_SCR_SOURCE:
		return v->src_text[row] && strcasestr(v->src_text[row], v->last);
	case TUI_SCR_FINDINGS:
	case TUI_SCR_CALLERS:
	case TUI_SCR_CONTEND:
		return v->text_lines[row] && strcasestr(v->text_lines[row], v->last);
	default:
		return 0;
	}
	hit = b.s && strcasestr(b.s, v->last);
	free(b.s);
	return hit;
}

static int tui_searchable(const struct tui_view *v)
{
	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST: case TUI_SCR_LINE: case TUI_SCR_SOURCE: case TUI_SCR_FINDINGS:
	case TUI_SCR_CALLERS: case TUI_SCR_CONTEND:
		return 1;
	default:
		return 0;
	}
}

/* Select the next row (@dir 1) or previous one (-1) matching the last query, wrapping around. */
static enum tui_result tui_search_step(struct tui_view *v, struct tui_model *m, int dir)
{
	struct tui_list *l = tui_view_list(v);
	size_t i, row;

	if (!v->last[0]) {
		snprintf(v->msg, sizeof(v->msg), "no search yet: type / and any text on the screen");
		return TUI_RES_REDRAW;
	}
	if (!tui_searchable(v) || !l->nr)
		return TUI_RES_NONE;
	for (i = 1; i <= l->nr; i++) {
		row = dir > 0 ? (l->sel + i) % l->nr : (l->sel + l->nr * 2 - i) % l->nr;
		if (tui_match_row(v, m, row)) {
			if (tui_view_screen(v) == TUI_SCR_FINDINGS ||
			    tui_view_screen(v) == TUI_SCR_CALLERS) {
				l->sel = row;
				l->top = row;
				tui_list_fit(l, tui_view_body_rows(v, tui_view_screen(v)));
			} else {
				tui_list_select(l, row, tui_view_body_rows(v, tui_view_screen(v)));
			}
			snprintf(v->msg, sizeof(v->msg), "/%s", v->last);
			return TUI_RES_REDRAW;
		}
	}
	snprintf(v->msg, sizeof(v->msg), "not found: %s", v->last);
	return TUI_RES_REDRAW;
}

/* A key while the search prompt is open. */
static enum tui_result tui_prompt_key(struct tui_view *v, struct tui_model *m, int key)
{
	if (key == TUI_KEY_ESC) {
		v->prompt = 0;
		v->msg[0] = '\0';
	} else if (key == TUI_KEY_ENTER || key == '\r') {
		struct tui_list *l = tui_view_list(v);

		v->prompt = 0;
		if (!v->qlen)
			return TUI_RES_REDRAW;
		memcpy(v->last, v->query, v->qlen + 1);
		/* the current row counts as the first candidate */
		if (l->nr && tui_searchable(v) && tui_match_row(v, m, l->sel)) {
			snprintf(v->msg, sizeof(v->msg), "/%s", v->last);
			return TUI_RES_REDRAW;
		}
		return tui_search_step(v, m, 1);
	} else if (key == TUI_KEY_BACKSPACE || key == 127 || key == 8) {
		if (v->qlen)
			v->query[--v->qlen] = '\0';
	} else if (key >= 0x20 && key < 0x10000 && key != 127 && v->qlen + 1 < TUI_QUERY_MAX) {
		/* bytes of a UTF-8 sequence arrive one by one and are kept as they come */
		v->query[v->qlen++] = (char)key;
		v->query[v->qlen] = '\0';
	}
	return TUI_RES_REDRAW;
}

/* --- actions ----------------------------------------------------------------------------------- */

enum tui_action {
	TUI_ACT_UP, TUI_ACT_DOWN, TUI_ACT_PGUP, TUI_ACT_PGDN, TUI_ACT_HOME, TUI_ACT_END,
	TUI_ACT_SCROLL_LEFT, TUI_ACT_SCROLL_RIGHT, TUI_ACT_OPEN, TUI_ACT_DETAILS, TUI_ACT_SOURCE,
	TUI_ACT_BACK, TUI_ACT_QUIT_OR_BACK, TUI_ACT_SEARCH, TUI_ACT_NEXT, TUI_ACT_PREV,
	TUI_ACT_SORT_MENU, TUI_ACT_DISPLAY, TUI_ACT_COALESCE, TUI_ACT_NODE, TUI_ACT_FULL,
	TUI_ACT_MAP, TUI_ACT_HELP, TUI_ACT_STATS, TUI_ACT_FINDINGS, TUI_ACT_REDRAW, TUI_ACT_CALLERS,
	TUI_ACT_CONTEND,
};

/* The key bindings; tui/draw-text.c prints the help screen from the same table. */
const struct tui_binding tui_bindings[] = {
	{ TUI_KEY_UP, "Up, k", TUI_ON_ALL, "move up", TUI_ACT_UP },
	{ 'k', NULL, TUI_ON_ALL, NULL, TUI_ACT_UP },
	{ TUI_KEY_WHEEL_UP, NULL, TUI_ON_ALL, NULL, TUI_ACT_UP },
	{ TUI_KEY_DOWN, "Down, j", TUI_ON_ALL, "move down", TUI_ACT_DOWN },
	{ 'j', NULL, TUI_ON_ALL, NULL, TUI_ACT_DOWN },
	{ TUI_KEY_WHEEL_DOWN, NULL, TUI_ON_ALL, NULL, TUI_ACT_DOWN },
	{ TUI_KEY_PGUP, "PgUp", TUI_ON_ALL, "page up", TUI_ACT_PGUP },
	{ TUI_KEY_PGDN, "PgDn, Space", TUI_ON_ALL, "page down", TUI_ACT_PGDN },
	{ ' ', NULL, TUI_ON_ALL, NULL, TUI_ACT_PGDN },
	{ TUI_KEY_HOME, "Home, g", TUI_ON_ALL, "first row", TUI_ACT_HOME },
	{ 'g', NULL, TUI_ON_ALL, NULL, TUI_ACT_HOME },
	{ TUI_KEY_END, "End, G", TUI_ON_ALL, "last row", TUI_ACT_END },
	{ 'G', NULL, TUI_ON_ALL, NULL, TUI_ACT_END },
	{ '<', "<, >", TUI_ON_ALL, "scroll wide tables sideways (Right too)", TUI_ACT_SCROLL_LEFT },
	{ '>', NULL, TUI_ON_ALL, NULL, TUI_ACT_SCROLL_RIGHT },
	{ TUI_KEY_RIGHT, NULL, TUI_ON_ALL, NULL, TUI_ACT_SCROLL_RIGHT },
	{ 'd', "d, Enter", TUI_ON_LIST, "cacheline details: findings, line map, offset rows",
	  TUI_ACT_DETAILS },
	{ TUI_KEY_ENTER, NULL, TUI_ON_ALL, NULL, TUI_ACT_OPEN },
	{ '\r', NULL, TUI_ON_ALL, NULL, TUI_ACT_OPEN },
	{ 'C', "C, Enter", TUI_ON_LINE, "callers of the selected row (record -g): perf's call "
	  "graph, callee first", TUI_ACT_CALLERS },
	{ 'a', "a, Enter", TUI_ON_LINE, "source of the selected row's code (perf's annotate; Enter "
	  "when the row has no callers)", TUI_ACT_SOURCE },
	{ 'n', "n", TUI_ON_LINE, "node info of the rows: nodes, shares, CPU lists", TUI_ACT_NODE },
	{ 's', "s", TUI_ON_LINE, "full length of data, symbol and source line columns", TUI_ACT_FULL },
	{ 'v', "v", TUI_ON_LINE, "line map on or off", TUI_ACT_MAP },
	{ TUI_KEY_ESC, "Esc, Left, Bksp", TUI_ON_ALL, "back", TUI_ACT_BACK },
	{ TUI_KEY_LEFT, NULL, TUI_ON_ALL, NULL, TUI_ACT_BACK },
	{ TUI_KEY_BACKSPACE, NULL, TUI_ON_ALL, NULL, TUI_ACT_BACK },
	{ 127, NULL, TUI_ON_ALL, NULL, TUI_ACT_BACK },
	{ 'q', "q", TUI_ON_ALL, "back; quit from the cacheline list", TUI_ACT_QUIT_OR_BACK },
	{ '/', "/", TUI_ON_ALL, "search any text on the screen", TUI_ACT_SEARCH },
	{ TUI_KEY_F3, "F3, Ctrl-N", TUI_ON_ALL, "next match", TUI_ACT_NEXT },
	{ TUI_KEY_CTRL_N, NULL, TUI_ON_ALL, NULL, TUI_ACT_NEXT },
	{ TUI_KEY_SHIFT_F3, "Shift-F3, Ctrl-P", TUI_ON_ALL, "previous match", TUI_ACT_PREV },
	{ TUI_KEY_CTRL_P, NULL, TUI_ON_ALL, NULL, TUI_ACT_PREV },
	{ 'o', "o", TUI_ON_LIST, "order the list: choose a column", TUI_ACT_SORT_MENU },
	{ 'm', "m", TUI_ON_LIST | TUI_ON_LINE, "display mode (PMU data): tot, lcl, rmt, peer",
	  TUI_ACT_DISPLAY },
	{ 'c', "c", TUI_ON_LIST | TUI_ON_LINE, "coalescing of offset rows (PMU data; re-reads "
	  "the file)", TUI_ACT_COALESCE },
	{ 'f', "f", TUI_ON_ALL, "the findings: what to fix, as the text report says it",
	  TUI_ACT_FINDINGS },
	{ 'F', "F", TUI_ON_LIST | TUI_ON_LINE, "contending functions and data types (Enter lists "
	  "a row's lines; q all lines again)", TUI_ACT_CONTEND },
	{ 't', "t", TUI_ON_ALL, "statistics", TUI_ACT_STATS },
	{ '?', "?, h", TUI_ON_ALL, "this help", TUI_ACT_HELP },
	{ 'h', NULL, TUI_ON_ALL, NULL, TUI_ACT_HELP },
	{ TUI_KEY_CTRL_L, "Ctrl-L", TUI_ON_ALL, "redraw", TUI_ACT_REDRAW },
	{ 0, NULL, 0, NULL, 0 },
};

static enum tui_result tui_move(struct tui_view *v, long delta)
{
	struct tui_list *l = tui_view_list(v);
	size_t sel = l->sel, top = l->top;
	int h = tui_view_body_rows(v, tui_view_screen(v));

	if (tui_view_screen(v) == TUI_SCR_STATS || tui_view_screen(v) == TUI_SCR_HELP ||
	    tui_view_screen(v) == TUI_SCR_FINDINGS || tui_view_screen(v) == TUI_SCR_CALLERS) {
		/* text screens scroll their top row */
		long t = (long)l->top + delta;
		long max = (long)l->nr - h;

		l->top = (size_t)(t < 0 ? 0 : t > max ? (max > 0 ? max : 0) : t);
		return l->top != top ? TUI_RES_REDRAW : TUI_RES_NONE;
	}
	tui_list_move(l, delta, h);
	return l->sel != sel || l->top != top ? TUI_RES_REDRAW : TUI_RES_NONE;
}

static enum tui_result tui_details(struct tui_view *v, struct tui_model *m)
{
	if (!v->nr_line)
		return TUI_RES_NONE;
	v->open = v->order[v->list.sel];
	v->detail.sel = 0;
	v->detail.top = 0;
	v->full_symbols = 0;   /* perf shows the compact columns first */
	tui_view_push(v, TUI_SCR_LINE);
	tui_view_rows(v, m);
	return TUI_RES_REDRAW;
}

static enum tui_result tui_source(struct tui_view *v, struct tui_model *m)
{
	const struct rm_row *r = tui_view_row(v, m);

	if (!r)
		return TUI_RES_NONE;
	if (!r->code.srcfile || !r->code.line) {
		snprintf(v->msg, sizeof(v->msg), "no source line for 0x%llx",
			 (unsigned long long)r->code.ip);
		return TUI_RES_REDRAW;
	}
	free(v->src_file);
	v->src_file = xstrdup(r->code.srcfile);
	v->src_line = r->code.line;
	return TUI_RES_SOURCE;
}

static enum tui_result tui_back(struct tui_view *v)
{
	if (v->depth <= 1)
		return TUI_RES_NONE;
	v->depth--;
	v->hscroll = 0;
	v->msg[0] = '\0';
	return TUI_RES_REDRAW;
}

static enum tui_result tui_sort_menu(struct tui_view *v, struct tui_model *m)
{
	int keys[RM_COL__NR + 2];
	size_t n = tui_sort_keys(m, keys), i;

	tui_view_push(v, TUI_SCR_SORT);
	tui_list_reset(&v->menu, n);
	for (i = 0; i < n; i++)
		if (keys[i] == v->sort)
			tui_list_select(&v->menu, i, tui_view_body_rows(v, TUI_SCR_SORT));
	return TUI_RES_REDRAW;
}

static enum tui_result tui_sort_pick(struct tui_view *v, struct tui_model *m)
{
	int keys[RM_COL__NR + 2];
	size_t n = tui_sort_keys(m, keys);
	size_t keep = v->nr_line ? v->order[v->list.sel] : SIZE_MAX;

	if (v->menu.sel >= n)
		return TUI_RES_NONE;
	v->sort = keys[v->menu.sel];
	tui_view_order(v, m);
	tui_select_line(v, keep);
	tui_back(v);
	snprintf(v->msg, sizeof(v->msg), "ordered by %s", tui_sort_name(m, v->sort));
	return TUI_RES_REDRAW;
}

/* The selected row's callers (perf expands a row's callchain on Enter). */
static enum tui_result tui_callers(struct tui_view *v, struct tui_model *m)
{
	const struct rm_row *r = tui_view_row(v, m);

	if (!r)
		return TUI_RES_NONE;
	if (!r->nr_callers) {
		snprintf(v->msg, sizeof(v->msg), "no callchains for 0x%llx: record with -g",
			 (unsigned long long)r->code.ip);
		return TUI_RES_REDRAW;
	}
	tui_free_lines(v->text_lines, v->nr_text);
	v->nr_text = tui_callers_text(m, tui_view_line(v, m), r, &v->text_lines);
	tui_view_push(v, TUI_SCR_CALLERS);
	tui_list_reset(&v->text, v->nr_text);
	return TUI_RES_REDRAW;
}

/* The contend screen: its lines, the selection on its first pair (or type line). */
static enum tui_result tui_contend(struct tui_view *v, struct tui_model *m)
{
	tui_free_lines(v->text_lines, v->nr_text);
	v->nr_text = tui_contend_text(m, &v->text_lines, &v->pair0, &v->type0);
	tui_view_push(v, TUI_SCR_CONTEND);
	tui_list_reset(&v->text, v->nr_text);
	v->text.sel = v->pair0 != SIZE_MAX ? v->pair0 : v->type0 != SIZE_MAX ? v->type0 : 0;
	tui_list_fit(&v->text, tui_view_body_rows(v, TUI_SCR_CONTEND));
	return TUI_RES_REDRAW;
}

static void tui_filter_set(struct tui_view *v, const uint32_t *line, size_t nr, const char *what)
{
	free(v->filter);
	v->filter = xcalloc(nr ? nr : 1, sizeof(*v->filter));
	memcpy(v->filter, line, nr * sizeof(*line));
	v->nr_filter = nr;
	snprintf(v->filter_name, sizeof(v->filter_name), "%s", what);
}

/* Enter on a pair of functions or a type line: the list shows its lines alone. */
static enum tui_result tui_contend_pick(struct tui_view *v, struct tui_model *m)
{
	const struct rm_contend *c = m->contend;
	size_t r = v->text.sel;
	char a[128], b[128], what[256];

	if (c && v->pair0 != SIZE_MAX && r >= v->pair0 && r < v->pair0 + c->nr_pair) {
		const struct rm_fn_pair *p = &c->pair[r - v->pair0];

		rm_fn_text(&p->fn[0], a, sizeof(a));
		rm_fn_text(&p->fn[1], b, sizeof(b));
		snprintf(what, sizeof(what), p->self ? "%s across threads" : "%s <-> %s", a, b);
		tui_filter_set(v, p->line, p->nr_line, what);
	} else if (c && v->type0 != SIZE_MAX && r >= v->type0 && r < v->type0 + c->nr_type) {
		const struct rm_type_line *t = &c->type[r - v->type0];

		snprintf(what, sizeof(what), "%s, line %u", t->type, t->index);
		tui_filter_set(v, t->line, t->nr_line, what);
	} else {
		return TUI_RES_NONE;
	}
	v->depth = 1;                 /* back to the list, showing the row's lines */
	v->hscroll = 0;
	tui_view_order(v, m);
	tui_list_reset(&v->list, v->nr_line);
	snprintf(v->msg, sizeof(v->msg), "%zu line%s of %.200s (q: all lines)", v->nr_line,
		 v->nr_line == 1 ? "" : "s", v->filter_name);
	return TUI_RES_REDRAW;
}

/* q on a list that shows a contend row's lines: all lines again. */
static enum tui_result tui_filter_clear(struct tui_view *v, struct tui_model *m)
{
	free(v->filter);
	v->filter = NULL;
	v->nr_filter = 0;
	v->filter_name[0] = '\0';
	tui_view_order(v, m);
	tui_list_reset(&v->list, v->nr_line);
	snprintf(v->msg, sizeof(v->msg), "all %zu lines", v->nr_line);
	return TUI_RES_REDRAW;
}

static enum tui_result tui_open(struct tui_view *v, struct tui_model *m)
{
	const struct rm_row *r;

	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST: return tui_details(v, m);
	case TUI_SCR_LINE:   /* perf: the row's callchain; the source when it has none */
		r = tui_view_row(v, m);
		return r && r->nr_callers ? tui_callers(v, m) : tui_source(v, m);
	case TUI_SCR_SORT: return tui_sort_pick(v, m);
	case TUI_SCR_CONTEND: return tui_contend_pick(v, m);
	default: return TUI_RES_NONE;
	}
}

static enum tui_result tui_display(struct tui_view *v, struct tui_model *m)
{
	static const enum cltab_display next[] = {
		[CLTAB_DISPLAY_TOT] = CLTAB_DISPLAY_LCL, [CLTAB_DISPLAY_LCL] = CLTAB_DISPLAY_RMT,
		[CLTAB_DISPLAY_RMT] = CLTAB_DISPLAY_PEER, [CLTAB_DISPLAY_PEER] = CLTAB_DISPLAY_TOT,
	};
	uint64_t sel = v->nr_line ? m->rm->line[v->order[v->list.sel]].addr : 0;
	const struct rm_line *open = tui_view_line(v, m);
	uint64_t open_addr = open ? open->addr : 0;

	if (m->kind != RM_PMU) {
		snprintf(v->msg, sizeof(v->msg), "display modes are HITM and peer views of PMU data; "
			 "%s traces rank lines by %s", rm_kind_name(m->kind), m->rm->cost_name);
		return TUI_RES_REDRAW;
	}
	if (tui_model_display(m, next[m->rm->display]))
		return TUI_RES_NONE;
	tui_view_refresh(v, m, sel, open_addr);
	snprintf(v->msg, sizeof(v->msg), "display %s: %zu lines sorted on %s",
		 rm_display_key(m->rm->display), v->nr_line,
		 rm_display_title(m->rm->display));
	return TUI_RES_REDRAW;
}

static enum tui_result tui_coalesce_next(struct tui_view *v, struct tui_model *m)
{
	if (m->kind != RM_PMU) {
		snprintf(v->msg, sizeof(v->msg), "%s rows are per offset and code address; the line "
			 "map shows each thread", rm_kind_name(m->kind));
		return TUI_RES_REDRAW;
	}
	v->coalesce = (v->coalesce + 1) % tui_nr_coalesce_presets;
	snprintf(v->coalesce_name, sizeof(v->coalesce_name), "%s",
		 tui_coalesce_presets[v->coalesce].name);
	return TUI_RES_RELOAD;
}

static enum tui_result tui_text_screen(struct tui_view *v, struct tui_model *m,
				       enum tui_screen_id s)
{
	if (tui_view_screen(v) == s)
		return TUI_RES_NONE;
	if (s == TUI_SCR_FINDINGS) {
		tui_free_lines(v->text_lines, v->nr_text);
		v->nr_text = tui_findings_text(m, &v->text_lines);
	}
	tui_view_push(v, s);
	tui_list_reset(&v->text, tui_text_rows(m, v, s));
	return TUI_RES_REDRAW;
}

static enum tui_result tui_act(struct tui_view *v, struct tui_model *m, enum tui_action a)
{
	long page = tui_view_body_rows(v, tui_view_screen(v));

	switch (a) {
	case TUI_ACT_UP: return tui_move(v, -1);
	case TUI_ACT_DOWN: return tui_move(v, 1);
	case TUI_ACT_PGUP: return tui_move(v, -page);
	case TUI_ACT_PGDN: return tui_move(v, page);
	case TUI_ACT_HOME: return tui_move(v, -(long)tui_view_list(v)->nr - 1);
	case TUI_ACT_END: return tui_move(v, (long)tui_view_list(v)->nr + 1);
	case TUI_ACT_SCROLL_LEFT:
		if (!v->hscroll)
			return TUI_RES_NONE;
		v->hscroll = v->hscroll > 8 ? v->hscroll - 8 : 0;
		return TUI_RES_REDRAW;
	case TUI_ACT_SCROLL_RIGHT:
		if (v->hscroll >= TUI_HSCROLL_MAX)
			return TUI_RES_NONE;
		v->hscroll += 8;
		return TUI_RES_REDRAW;
	case TUI_ACT_OPEN: return tui_open(v, m);
	case TUI_ACT_DETAILS: return tui_details(v, m);
	case TUI_ACT_SOURCE: return tui_source(v, m);
	case TUI_ACT_CALLERS: return tui_callers(v, m);
	case TUI_ACT_BACK: return tui_back(v);
	case TUI_ACT_QUIT_OR_BACK:
		if (v->depth > 1)
			return tui_back(v);
		return v->filter ? tui_filter_clear(v, m) : TUI_RES_QUIT;
	case TUI_ACT_SEARCH:
		v->prompt = 1;
		v->qlen = 0;
		v->query[0] = '\0';
		return TUI_RES_REDRAW;
	case TUI_ACT_NEXT: return tui_search_step(v, m, 1);
	case TUI_ACT_PREV: return tui_search_step(v, m, -1);
	case TUI_ACT_SORT_MENU: return tui_sort_menu(v, m);
	case TUI_ACT_DISPLAY: return tui_display(v, m);
	case TUI_ACT_COALESCE: return tui_coalesce_next(v, m);
	case TUI_ACT_NODE:
		if (m->kind != RM_PMU) {
			snprintf(v->msg, sizeof(v->msg), "node info needs PMU data");
			return TUI_RES_REDRAW;
		}
		v->node_info = (v->node_info + 1) % 3;
		snprintf(v->msg, sizeof(v->msg), "node info level %d", v->node_info);
		return TUI_RES_REDRAW;
	case TUI_ACT_FULL:
		v->full_symbols = !v->full_symbols;
		tui_line_layout(m, v);
		snprintf(v->msg, sizeof(v->msg), "%s data, symbol and source line columns",
			 v->full_symbols ? "full" : "compact");
		return TUI_RES_REDRAW;
	case TUI_ACT_MAP:
		v->show_map = !v->show_map;
		tui_view_panel(v, m);
		tui_list_fit(&v->detail, tui_view_body_rows(v, TUI_SCR_LINE));
		snprintf(v->msg, sizeof(v->msg), "line map %s", v->show_map ? "on" : "off");
		return TUI_RES_REDRAW;
	case TUI_ACT_HELP: return tui_text_screen(v, m, TUI_SCR_HELP);
	case TUI_ACT_STATS: return tui_text_screen(v, m, TUI_SCR_STATS);
	case TUI_ACT_FINDINGS: return tui_text_screen(v, m, TUI_SCR_FINDINGS);
	case TUI_ACT_CONTEND: return tui_contend(v, m);
	case TUI_ACT_REDRAW: return TUI_RES_REDRAW;
	}
	return TUI_RES_NONE;
}

static int tui_on(enum tui_screen_id s)
{
	switch (s) {
	case TUI_SCR_LIST: return TUI_ON_LIST;
	case TUI_SCR_LINE: return TUI_ON_LINE;
	default: return TUI_ON_OTHER;
	}
}

enum tui_result tui_view_key(struct tui_view *v, struct tui_model *m, int key)
{
	const struct tui_binding *b;

	if (key == TUI_KEY_RESIZE)
		return TUI_RES_REDRAW;
	if (v->prompt)
		return tui_prompt_key(v, m, key);
	for (b = tui_bindings; b->key; b++)
		if (b->key == key && (b->on & tui_on(tui_view_screen(v)))) {
			if (b->action != TUI_ACT_NEXT && b->action != TUI_ACT_PREV)
				v->msg[0] = '\0';
			return tui_act(v, m, (enum tui_action)b->action);
		}
	return TUI_RES_NONE;
}
