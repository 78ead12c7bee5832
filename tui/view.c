/* The controller (see tui/view.h): one binding table maps keys to actions, each action changes the
 * view state and says whether the screen must be redrawn. Re-filtering and re-sorting go through
 * report/cltable-view.h; nothing here aggregates. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "tui/draw.h"
#include "tui/view.h"

#define TUI_HSCROLL_MAX 320   /* wider than any table row */

const struct tui_coalesce tui_coalesce_presets[] = {
	{ "iaddr", { CLTAB_CO_IADDR }, 1 },
	{ "tid,iaddr", { CLTAB_CO_TID, CLTAB_CO_IADDR }, 2 },
	{ "pid,iaddr", { CLTAB_CO_PID, CLTAB_CO_IADDR }, 2 },
	{ "dso", { CLTAB_CO_DSO }, 1 },
	{ "tid", { CLTAB_CO_TID }, 1 },
	{ "pid", { CLTAB_CO_PID }, 1 },
};
const int tui_nr_coalesce_presets = sizeof(tui_coalesce_presets) / sizeof(tui_coalesce_presets[0]);

int tui_coalesce_parse(const char *s, struct tui_coalesce *out)
{
	static const char *const names[] = {
		[CLTAB_CO_PID] = "pid", [CLTAB_CO_TID] = "tid", [CLTAB_CO_IADDR] = "iaddr",
		[CLTAB_CO_DSO] = "dso",
	};
	const char *p = s;

	memset(out, 0, sizeof(*out));
	out->name = s;
	while (*p) {
		size_t n = strcspn(p, ","), k;

		if (n == 6 && !strncmp(p, "offset", 6)) {   /* perf accepts and ignores it */
			p += n + (p[n] == ',');
			continue;
		}
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strlen(names[k]) == n && !strncmp(p, names[k], n))
				break;
		if (k == sizeof(names) / sizeof(names[0]) || out->nr == CLTAB_CO_MAX)
			return -EINVAL;
		out->key[out->nr++] = (enum cltab_coalesce)k;
		p += n + (p[n] == ',');
	}
	return out->nr ? 0 : -EINVAL;
}

/* --- state helpers ---------------------------------------------------------------------------- */

int tui_view_body_rows(const struct tui_view *v, enum tui_screen_id s)
{
	/* title + status, plus the two header lines of tables, plus the line summary */
	static const int chrome[] = {
		[TUI_SCR_LIST] = 4, [TUI_SCR_LINE] = 6, [TUI_SCR_SOURCE] = 3,
		[TUI_SCR_STATS] = 2, [TUI_SCR_HELP] = 2,
	};
	int n = v->rows - chrome[s];

	return n > 1 ? n : 1;
}

static struct tui_list *tui_view_list(struct tui_view *v)
{
	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST: return &v->list;
	case TUI_SCR_LINE: return &v->detail;
	case TUI_SCR_SOURCE: return &v->source;
	default: return &v->text;
	}
}

static void tui_view_push(struct tui_view *v, enum tui_screen_id s)
{
	if (v->depth < TUI_STACK_MAX)
		v->stack[v->depth++] = s;
	v->hscroll = 0;
}

const struct cltab_offset *tui_view_offset(const struct tui_view *v)
{
	if (!v->open || !v->nr_off)
		return NULL;
	return v->open->off[v->off[v->detail.sel]];
}

static void tui_view_order(struct tui_view *v, struct tui_model *m)
{
	cltv_sort(m->t, v->line, v->nr_line, v->sort, v->display);
}

static void tui_view_offsets(struct tui_view *v, struct tui_model *m)
{
	size_t sel = v->detail.sel;

	free(v->off);
	v->off = NULL;
	v->nr_off = 0;
	if (!v->open)
		return;
	v->off = xcalloc(v->open->nr_off + 1, sizeof(*v->off));
	v->nr_off = cltv_offsets(m->t, v->open, v->display, v->off);
	tui_list_reset(&v->detail, v->nr_off);
	tui_list_select(&v->detail, sel, tui_view_body_rows(v, TUI_SCR_LINE));
}

/* Filter for the display mode, order by the sort column, keep @keep selected when it is listed. */
static void tui_view_refilter(struct tui_view *v, struct tui_model *m, const struct cltab_line *keep)
{
	size_t i, nr_all = cltab_nr_lines(m->t);

	free(v->line);
	free(v->rank);
	v->line = xcalloc(nr_all + 1, sizeof(*v->line));
	v->rank = xcalloc(nr_all + 1, sizeof(*v->rank));
	v->nr_line = cltv_filter(m->t, v->display, v->line);
	for (i = 0; i < v->nr_line; i++)
		if (v->line[i]->index <= nr_all)
			v->rank[v->line[i]->index] = (uint32_t)i;
	tui_view_order(v, m);
	tui_list_reset(&v->list, v->nr_line);
	for (i = 0; keep && i < v->nr_line; i++)
		if (v->line[i] == keep)
			tui_list_select(&v->list, i, tui_view_body_rows(v, TUI_SCR_LIST));
}

void tui_view_init(struct tui_view *v, struct tui_model *m, int rows, int cols)
{
	int i;

	memset(v, 0, sizeof(*v));
	v->rows = rows;
	v->cols = cols;
	v->stack[v->depth++] = TUI_SCR_LIST;
	v->display = m->display;
	v->sort = CLTV_COL_SHARE;
	v->coalesce = -1;
	snprintf(v->coalesce_name, sizeof(v->coalesce_name), "iaddr");
	for (i = 0; i < tui_nr_coalesce_presets; i++) {
		const struct tui_coalesce *p = &tui_coalesce_presets[i];
		const struct cltab_opts *o = cltab_opts(m->t);

		if (p->nr == o->nr_coalesce && !memcmp(p->key, o->coalesce, sizeof(p->key[0]) * p->nr)) {
			v->coalesce = i;
			snprintf(v->coalesce_name, sizeof(v->coalesce_name), "%s", p->name);
		}
	}
	tui_view_refilter(v, m, NULL);
}

void tui_view_release(struct tui_view *v)
{
	size_t i;

	free(v->line);
	free(v->rank);
	free(v->off);
	for (i = 0; i < v->nr_src; i++)
		free(v->src_text[i]);
	free(v->src_text);
	free(v->src_file);
	memset(v, 0, sizeof(*v));
}

void tui_view_resize(struct tui_view *v, int rows, int cols)
{
	v->rows = rows;
	v->cols = cols;
	tui_list_fit(&v->list, tui_view_body_rows(v, TUI_SCR_LIST));
	tui_list_fit(&v->detail, tui_view_body_rows(v, TUI_SCR_LINE));
	tui_list_fit(&v->source, tui_view_body_rows(v, TUI_SCR_SOURCE));
	tui_list_fit(&v->text, tui_view_body_rows(v, TUI_SCR_STATS));
}

/* The table was rebuilt (new coalescing): line pointers changed, find the lines by address. */
static int tui_same_line(const struct cltab_line *a, const struct cltab_line *b)
{
	return a && b && a->addr == b->addr && a->key_pid == b->key_pid && a->cpumode == b->cpumode;
}

void tui_view_rebuild(struct tui_view *v, struct tui_model *m)
{
	const struct cltab_line *sel = v->nr_line ? v->line[v->list.sel] : NULL, *keep = NULL;
	const struct cltab_line *open = v->open;
	size_t i, nr;
	struct cltab_line *const *all = cltab_lines(m->t, &nr);

	/* the old table is still alive: compare keys, then forget its pointers */
	v->open = NULL;
	for (i = 0; i < nr; i++) {
		if (!keep && tui_same_line(all[i], sel))
			keep = all[i];
		if (!v->open && tui_same_line(all[i], open))
			v->open = all[i];
	}
	tui_view_refilter(v, m, keep);
	v->detail.sel = 0;
	tui_view_offsets(v, m);
	/* drop the screens that showed the old table's offsets (the source view, a vanished line) */
	{
		int i, n = 0;

		for (i = 0; i < v->depth; i++)
			if (v->stack[i] != TUI_SCR_SOURCE && (v->stack[i] != TUI_SCR_LINE || v->open))
				v->stack[n++] = v->stack[i];
		v->depth = n;
	}
}

void tui_view_set_source(struct tui_view *v, char **text, size_t nr)
{
	size_t i;

	for (i = 0; i < v->nr_src; i++)
		free(v->src_text[i]);
	free(v->src_text);
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

static int tui_has(const char *hay, const char *q)
{
	return hay && strcasestr(hay, q);
}

static int tui_match_hex(uint64_t x, const char *q)
{
	char b[24];

	snprintf(b, sizeof(b), "0x%llx", (unsigned long long)x);
	return strcasestr(b, q) != NULL;
}

static int tui_match_offset(struct tui_model *m, const struct cltab_line *l,
			    const struct cltab_offset *o, const char *q)
{
	char buf[256];

	return tui_has(o->code.symbol, q) || tui_match_hex(o->ip, q) || tui_has(o->code.srcfile, q) ||
	       tui_has(o->dso_key, q) ||
	       tui_has(tui_model_data_name(m, l, o, buf, sizeof(buf)), q);
}

static int tui_match_line(struct tui_model *m, const struct cltab_line *l, const char *q)
{
	char buf[256];
	size_t i;

	if (tui_match_hex(l->addr, q) ||
	    tui_has(tui_model_line_name(m, l, buf, sizeof(buf)), q))
		return 1;
	for (i = 0; i < l->nr_off; i++)
		if (tui_has(l->off[i]->code.symbol, q))
			return 1;
	return 0;
}

static int tui_match_row(struct tui_view *v, struct tui_model *m, size_t row)
{
	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST:
		return tui_match_line(m, v->line[row], v->last);
	case TUI_SCR_LINE:
		return tui_match_offset(m, v->open, v->open->off[v->off[row]], v->last);
	case TUI_SCR_SOURCE:
		return tui_has(v->src_text[row], v->last);
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
		snprintf(v->msg, sizeof(v->msg), "no search yet: type / and a symbol, address or name");
		return TUI_RES_REDRAW;
	}
	if (tui_view_screen(v) > TUI_SCR_SOURCE || !l->nr)
		return TUI_RES_NONE;
	for (i = 1; i <= l->nr; i++) {
		row = dir > 0 ? (l->sel + i) % l->nr : (l->sel + l->nr * 2 - i) % l->nr;
		if (tui_match_row(v, m, row)) {
			tui_list_select(l, row, tui_view_body_rows(v, tui_view_screen(v)));
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
		v->prompt = 0;
		if (!v->qlen)
			return TUI_RES_REDRAW;
		memcpy(v->last, v->query, v->qlen + 1);
		/* the current row counts as the first candidate */
		{
			struct tui_list *l = tui_view_list(v);

			if (l->nr && tui_view_screen(v) <= TUI_SCR_SOURCE && tui_match_row(v, m, l->sel)) {
				snprintf(v->msg, sizeof(v->msg), "/%s", v->last);
				return TUI_RES_REDRAW;
			}
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
	TUI_ACT_LEFT, TUI_ACT_RIGHT, TUI_ACT_OPEN, TUI_ACT_BACK, TUI_ACT_QUIT_OR_BACK,
	TUI_ACT_SEARCH, TUI_ACT_NEXT, TUI_ACT_PREV, TUI_ACT_PREV_OR_NODE, TUI_ACT_SORT,
	TUI_ACT_SORT_BACK, TUI_ACT_DISPLAY, TUI_ACT_COALESCE, TUI_ACT_NODE, TUI_ACT_HELP,
	TUI_ACT_STATS, TUI_ACT_REDRAW,
};

/* The key bindings; tui/draw.c prints the help screen from the same table. */
const struct tui_binding tui_bindings[] = {
	{ TUI_KEY_UP, "Up, k", "move up", TUI_ACT_UP },
	{ 'k', NULL, NULL, TUI_ACT_UP },
	{ TUI_KEY_WHEEL_UP, NULL, NULL, TUI_ACT_UP },
	{ TUI_KEY_DOWN, "Down, j", "move down", TUI_ACT_DOWN },
	{ 'j', NULL, NULL, TUI_ACT_DOWN },
	{ TUI_KEY_WHEEL_DOWN, NULL, NULL, TUI_ACT_DOWN },
	{ TUI_KEY_PGUP, "PgUp", "page up", TUI_ACT_PGUP },
	{ TUI_KEY_PGDN, "PgDn, Space", "page down", TUI_ACT_PGDN },
	{ ' ', NULL, NULL, TUI_ACT_PGDN },
	{ TUI_KEY_HOME, "Home, g", "first row", TUI_ACT_HOME },
	{ 'g', NULL, NULL, TUI_ACT_HOME },
	{ TUI_KEY_END, "End, G", "last row", TUI_ACT_END },
	{ 'G', NULL, NULL, TUI_ACT_END },
	{ TUI_KEY_LEFT, "Left, Right", "scroll wide tables sideways", TUI_ACT_LEFT },
	{ TUI_KEY_RIGHT, NULL, NULL, TUI_ACT_RIGHT },
	{ TUI_KEY_ENTER, "Enter", "open: line -> offsets -> source of the code address",
	  TUI_ACT_OPEN },
	{ '\r', NULL, NULL, TUI_ACT_OPEN },
	{ TUI_KEY_ESC, "Esc, Backspace", "back", TUI_ACT_BACK },
	{ TUI_KEY_BACKSPACE, NULL, NULL, TUI_ACT_BACK },
	{ 127, NULL, NULL, TUI_ACT_BACK },
	{ 'q', "q", "back; quit from the cacheline list", TUI_ACT_QUIT_OR_BACK },
	{ '/', "/", "search a symbol, an address or a data name", TUI_ACT_SEARCH },
	{ 'n', "n", "next match", TUI_ACT_NEXT },
	{ 'N', "N", "previous match after a search, else node info", TUI_ACT_PREV_OR_NODE },
	{ 'p', "p", "previous match", TUI_ACT_PREV },
	{ 's', "s, S", "sort the list on the next (previous) column", TUI_ACT_SORT },
	{ 'S', NULL, NULL, TUI_ACT_SORT_BACK },
	{ 'd', "d", "display mode: tot, lcl, rmt, peer", TUI_ACT_DISPLAY },
	{ 'c', "c", "coalescing of offset rows (re-reads the file)", TUI_ACT_COALESCE },
	{ 'i', "i", "node info in the Pareto: nodes, shares, CPU lists", TUI_ACT_NODE },
	{ 't', "t", "trace and shared-line statistics", TUI_ACT_STATS },
	{ '?', "?, h", "this help", TUI_ACT_HELP },
	{ 'h', NULL, NULL, TUI_ACT_HELP },
	{ 12, "Ctrl-L", "redraw", TUI_ACT_REDRAW },
	{ 0, NULL, NULL, 0 },
};

static enum tui_result tui_move(struct tui_view *v, long delta)
{
	struct tui_list *l = tui_view_list(v);
	size_t sel = l->sel, top = l->top;
	int h = tui_view_body_rows(v, tui_view_screen(v));

	if (tui_view_screen(v) >= TUI_SCR_STATS) {
		/* text screens scroll their top row */
		long t = (long)l->top + delta;
		long max = (long)l->nr - h;

		l->top = (size_t)(t < 0 ? 0 : t > max ? (max > 0 ? max : 0) : t);
		return l->top != top ? TUI_RES_REDRAW : TUI_RES_NONE;
	}
	tui_list_move(l, delta, h);
	return l->sel != sel || l->top != top ? TUI_RES_REDRAW : TUI_RES_NONE;
}

static enum tui_result tui_open(struct tui_view *v, struct tui_model *m)
{
	const struct cltab_offset *o;

	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST:
		if (!v->nr_line)
			return TUI_RES_NONE;
		v->open = v->line[v->list.sel];
		v->detail.sel = 0;
		tui_view_offsets(v, m);
		tui_view_push(v, TUI_SCR_LINE);
		return TUI_RES_REDRAW;
	case TUI_SCR_LINE:
		o = tui_view_offset(v);
		if (!o)
			return TUI_RES_NONE;
		if (!o->code.srcfile || !o->code.line) {
			snprintf(v->msg, sizeof(v->msg), "no source line for 0x%llx",
				 (unsigned long long)o->ip);
			return TUI_RES_REDRAW;
		}
		free(v->src_file);
		v->src_file = xstrdup(o->code.srcfile);
		v->src_line = o->code.line;
		return TUI_RES_SOURCE;
	default:
		return TUI_RES_NONE;
	}
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

/* The columns 's' steps through, in the table's order starting at the display metric. */
static enum tui_result tui_sort(struct tui_view *v, struct tui_model *m, int dir)
{
	const struct cltab_line *keep;
	size_t i;

	if (tui_view_screen(v) == TUI_SCR_LINE) {
		snprintf(v->msg, sizeof(v->msg), "offset rows keep perf's order: offset, then %s",
			 cltv_display_title(v->display));
		return TUI_RES_REDRAW;
	}
	if (tui_view_screen(v) != TUI_SCR_LIST)
		return TUI_RES_NONE;
	keep = v->nr_line ? v->line[v->list.sel] : NULL;
	do {
		v->sort = (enum cltv_col)(((int)v->sort + dir + CLTV_COL__NR) % CLTV_COL__NR);
	} while (v->sort == CLTV_COL_INDEX);
	tui_view_order(v, m);
	for (i = 0; keep && i < v->nr_line; i++)
		if (v->line[i] == keep)
			tui_list_select(&v->list, i, tui_view_body_rows(v, TUI_SCR_LIST));
	snprintf(v->msg, sizeof(v->msg), "sorted on %s %s", cltv_col(v->sort, v->display)->group,
		 cltv_col(v->sort, v->display)->name);
	return TUI_RES_REDRAW;
}

static enum tui_result tui_display(struct tui_view *v, struct tui_model *m)
{
	static const enum cltab_display next[] = {
		[CLTAB_DISPLAY_TOT] = CLTAB_DISPLAY_LCL, [CLTAB_DISPLAY_LCL] = CLTAB_DISPLAY_RMT,
		[CLTAB_DISPLAY_RMT] = CLTAB_DISPLAY_PEER, [CLTAB_DISPLAY_PEER] = CLTAB_DISPLAY_TOT,
	};
	const struct cltab_line *keep = v->nr_line ? v->line[v->list.sel] : NULL;

	v->display = next[v->display];
	tui_view_refilter(v, m, keep);
	tui_view_offsets(v, m);
	snprintf(v->msg, sizeof(v->msg), "display %s: %zu lines sorted on %s",
		 cltv_display_name(v->display), v->nr_line, cltv_display_title(v->display));
	return TUI_RES_REDRAW;
}

static enum tui_result tui_coalesce_next(struct tui_view *v)
{
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
	case TUI_ACT_LEFT:
		if (!v->hscroll)
			return TUI_RES_NONE;
		v->hscroll = v->hscroll > 8 ? v->hscroll - 8 : 0;
		return TUI_RES_REDRAW;
	case TUI_ACT_RIGHT:
		if (v->hscroll >= TUI_HSCROLL_MAX)
			return TUI_RES_NONE;
		v->hscroll += 8;
		return TUI_RES_REDRAW;
	case TUI_ACT_OPEN: return tui_open(v, m);
	case TUI_ACT_BACK: return tui_back(v);
	case TUI_ACT_QUIT_OR_BACK: return v->depth > 1 ? tui_back(v) : TUI_RES_QUIT;
	case TUI_ACT_SEARCH:
		v->prompt = 1;
		v->qlen = 0;
		v->query[0] = '\0';
		return TUI_RES_REDRAW;
	case TUI_ACT_NEXT: return tui_search_step(v, m, 1);
	case TUI_ACT_PREV: return tui_search_step(v, m, -1);
	case TUI_ACT_PREV_OR_NODE:
		return v->last[0] ? tui_search_step(v, m, -1) : tui_act(v, m, TUI_ACT_NODE);
	case TUI_ACT_SORT: return tui_sort(v, m, 1);
	case TUI_ACT_SORT_BACK: return tui_sort(v, m, -1);
	case TUI_ACT_DISPLAY: return tui_display(v, m);
	case TUI_ACT_COALESCE: return tui_coalesce_next(v);
	case TUI_ACT_NODE:
		v->node_info = (v->node_info + 1) % 3;
		snprintf(v->msg, sizeof(v->msg), "node info level %d", v->node_info);
		return TUI_RES_REDRAW;
	case TUI_ACT_HELP: return tui_text_screen(v, m, TUI_SCR_HELP);
	case TUI_ACT_STATS: return tui_text_screen(v, m, TUI_SCR_STATS);
	case TUI_ACT_REDRAW: return TUI_RES_REDRAW;
	}
	return TUI_RES_NONE;
}

enum tui_result tui_view_key(struct tui_view *v, struct tui_model *m, int key)
{
	const struct tui_binding *b;

	if (key == TUI_KEY_RESIZE)
		return TUI_RES_REDRAW;
	if (v->prompt)
		return tui_prompt_key(v, m, key);
	for (b = tui_bindings; b->key; b++)
		if (b->key == key) {
			if (b->action != TUI_ACT_NEXT && b->action != TUI_ACT_PREV &&
			    b->action != TUI_ACT_PREV_OR_NODE && b->action != TUI_ACT_SORT &&
			    b->action != TUI_ACT_SORT_BACK && b->action != TUI_ACT_DISPLAY &&
			    b->action != TUI_ACT_NODE)
				v->msg[0] = '\0';
			return tui_act(v, m, (enum tui_action)b->action);
		}
	return TUI_RES_NONE;
}
