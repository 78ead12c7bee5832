/* The cacheline list: the stdio table's columns (report/cltable-view.h describes them) with the
 * data name after the share, the sort column marked in the header. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/dsrc.h"
#include "report/maps.h"
#include "tui/draw-int.h"

/* --- the cacheline list ------------------------------------------------------------------------ */

#define TUI_DATA_W 24

/* Display order of the list's columns: the stdio table with the data name after the share. */
static const enum cltv_col tui_list_cols[] = {
	CLTV_COL_INDEX, CLTV_COL_ADDRESS, CLTV_COL_NODE, CLTV_COL_PA_CNT, CLTV_COL_SHARE,
	CLTV_COL__NR /* data name */, CLTV_COL_LD_TOTAL, CLTV_COL_LD_LCL, CLTV_COL_LD_RMT,
	CLTV_COL_RECORDS, CLTV_COL_LOADS, CLTV_COL_STORES, CLTV_COL_ST_L1HIT, CLTV_COL_ST_L1MISS,
	CLTV_COL_ST_NA, CLTV_COL_FB, CLTV_COL_L1, CLTV_COL_L2, CLTV_COL_LLC_HIT, CLTV_COL_LLC_HITM,
	CLTV_COL_RMT_HIT, CLTV_COL_RMT_HITM, CLTV_COL_DRAM_LCL, CLTV_COL_DRAM_RMT,
};
#define TUI_NR_LIST_COLS (int)(sizeof(tui_list_cols) / sizeof(tui_list_cols[0]))

static const char *tui_group(enum cltv_col c, enum cltab_display d)
{
	return c == CLTV_COL__NR ? "" : cltv_col(c, d)->group;
}

static void tui_list_header(struct tui_ctx *c, int row)
{
	enum cltab_display d = c->v->display;
	int i, j;

	tui_bufreset(&c->b);
	for (i = 0; i < TUI_NR_LIST_COLS; i = j) {
		const char *g = tui_group(tui_list_cols[i], d);
		int w = 0;

		for (j = i; j < TUI_NR_LIST_COLS && !strcmp(g, tui_group(tui_list_cols[j], d)) &&
			    (j == i || *g); j++)
			w += 2 + (tui_list_cols[j] == CLTV_COL__NR ? TUI_DATA_W
								 : cltv_col(tui_list_cols[j], d)->width);
		tui_bufaddf(&c->b, "  ");
		if (j == i + 1)   /* a one-column group: the word alone, right-aligned */
			tui_bufaddf(&c->b, "%*s", w - 2, g);
		else
			tui_banner(&c->b, w - 2, g);
	}
	tui_row(c, row, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
	tui_bufreset(&c->b);
	for (i = 0; i < TUI_NR_LIST_COLS; i++) {
		enum cltv_col col = tui_list_cols[i];
		char name[32];

		if (col == CLTV_COL__NR) {
			tui_bufaddf(&c->b, "  %-*s", TUI_DATA_W, "Data");
			continue;
		}
		snprintf(name, sizeof(name), "%s%s", col == c->v->sort ? "*" : "",
			 cltv_col(col, d)->name);
		tui_bufaddf(&c->b, "  %*s", cltv_col(col, d)->width, name);
	}
	tui_row(c, row + 1, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
}

static void tui_list_cell(struct tui_ctx *c, const struct cltab_line *l, enum cltv_col col)
{
	const struct cltv_col_desc *cd = cltv_col(col, c->v->display);
	enum cltab_display d = c->v->display;
	char tmp[256];

	switch (col) {
	case CLTV_COL__NR: {
		const char *n = tui_model_line_name(c->m, l, tmp, sizeof(tmp));

		/* no variable: say what memory it is, and whose when lines are per process */
		if (!n && l->dmap) {
			if (l->key_pid)
				snprintf(tmp, sizeof(tmp), "%s pid %d", l->dmap->dso->short_name,
					 l->key_pid);
			else
				snprintf(tmp, sizeof(tmp), "%s", l->dmap->dso->short_name);
			n = tmp;
		}
		char cut[TUI_DATA_W * 4 + 1];
		int w = tui_clip(n ? n : "", 0, TUI_DATA_W, cut, sizeof(cut));

		tui_bufaddf(&c->b, "  %s%*s", cut, TUI_DATA_W - w, "");
		return;
	}
	case CLTV_COL_INDEX:
		tui_bufaddf(&c->b, "  %*u", cd->width, c->v->rank[l->index]);
		return;
	case CLTV_COL_ADDRESS:
		snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)l->addr);
		tui_bufaddf(&c->b, "  %*s", cd->width, tmp);
		return;
	case CLTV_COL_NODE:
		cltv_nodes_str(c->m->t, l->nodeset, tmp, sizeof(tmp));
		tui_bufaddf(&c->b, "  %*s", cd->width, tmp);
		return;
	case CLTV_COL_SHARE:
		tui_bufaddf(&c->b, "  %*.2f%%", cd->width - 1,
			    cltv_pct(cltab_metric(d, &l->stats), cltab_metric(d, cltab_total(c->m->t))));
		return;
	default:
		tui_bufaddf(&c->b, "  %*llu", cd->width,
			    (unsigned long long)cltv_line_value(c->m->t, l, col, d));
		return;
	}
}

void tui_draw_list(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	int h = tui_view_body_rows(v, TUI_SCR_LIST), r, i;
	uint64_t tot = cltab_metric(v->display, cltab_total(c->m->t));

	tui_rowf(c, 0, TUI_ATTR_TITLE,
		 " Shared Data Cache Line Table (%zu entries, sorted on %s%s%s)  display %s  "
		 "coalesce %s  %s", v->nr_line, cltv_display_title(v->display),
		 v->sort == CLTV_COL_SHARE ? "" : ", ordered by ",
		 v->sort == CLTV_COL_SHARE ? "" : cltv_col(v->sort, v->display)->name,
		 cltv_display_name(v->display), v->coalesce_name, c->m->path ? c->m->path : "");
	tui_list_header(c, 1);
	for (r = 0; r < h; r++) {
		size_t idx = v->list.top + (size_t)r;
		enum tui_attr a = TUI_ATTR_NORMAL;
		const struct cltab_line *l;

		if (idx >= v->nr_line) {
			tui_row(c, 3 + r, a, r == 0 ? "  (no shared cachelines in this display mode; "
						      "press d to switch)" : "", 0);
			continue;
		}
		l = v->line[idx];
		tui_bufreset(&c->b);
		for (i = 0; i < TUI_NR_LIST_COLS; i++)
			tui_list_cell(c, l, tui_list_cols[i]);
		if (idx == v->list.sel)
			a = TUI_ATTR_SELECT;
		else if (tot && cltab_metric(v->display, &l->stats) * 10 >= tot)
			a = TUI_ATTR_HOT;   /* a tenth of all contention or more */
		tui_row(c, 3 + r, a, c->b.s, v->hscroll);
	}
}
