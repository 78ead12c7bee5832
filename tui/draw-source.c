/* The source around a sampled code address, each line with the cost (HITMs, peer snoops, time,
 * transfers) and the samples of the open cacheline's offset rows sampled there. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw-int.h"

/* --- source ------------------------------------------------------------------------------------ */

/* Samples and cost of the open line's offset rows sampled at @file:@line. */
static void tui_src_counts(const struct tui_model *m, const struct tui_view *v, uint32_t line,
			   double *rec, double *hot)
{
	const struct rm_line *l = tui_view_line(v, m);
	size_t i;

	*rec = *hot = 0;
	for (i = 0; l && i < l->nr_row; i++) {
		const struct rm_row *r = &l->row[i];

		if (r->code.line != line || !r->code.srcfile || strcmp(r->code.srcfile, v->src_file))
			continue;
		*rec += m->kind == RM_PMU ? r->v[RM_COL_RECORDS] : r->v[RM_COL_SAMPLES];
		*hot += m->kind == RM_PMU ? r->v[RM_COL_LCL_HITM] + r->v[RM_COL_RMT_HITM] :
			m->kind == RM_WATCH ? r->v[RM_COL_XFERS] : r->v[RM_COL_COST];
	}
}

static void tui_expand_tabs(const char *in, struct tui_buf *b)
{
	size_t col = 0;

	for (; *in; in++) {
		if (*in == '\t') {
			do
				tui_bufaddf(b, " ");
			while (++col % 8);
		} else {
			tui_bufaddf(b, "%c", *in);
			col++;
		}
	}
}

void tui_draw_source(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	const struct tui_model *m = c->m;
	const struct rm_line *l = tui_view_line(v, m);
	int h = tui_view_body_rows(v, TUI_SCR_SOURCE), r;
	const char *cost = m->kind == RM_SOFT ? "Time%" : m->kind == RM_WATCH ? "Xfers" :
			   m->rm->display == CLTAB_DISPLAY_PEER ? "Peer" : "HITM";

	tui_rowf(c, 0, TUI_ATTR_TITLE, " %s:%u  (cacheline %#llx)", v->src_file, v->src_line,
		 l ? (unsigned long long)l->addr : 0ULL);
	tui_rowf(c, 1, TUI_ATTR_HEADER, "  %7s  %7s  %6s  source", cost,
		 m->kind == RM_PMU ? "records" : "samples", "line");
	for (r = 0; r < h; r++) {
		size_t idx = v->source.top + (size_t)r;
		double rec, hot;

		if (idx >= v->nr_src) {
			tui_row(c, 2 + r, TUI_ATTR_NORMAL, "", 0);
			continue;
		}
		tui_src_counts(m, v, (uint32_t)idx + 1, &rec, &hot);
		tui_bufreset(&c->b);
		if ((rec || hot) && m->kind == RM_SOFT)
			tui_bufaddf(&c->b, "  %6.2f%%  %7.0f  %6zu  ", hot, rec, idx + 1);
		else if (rec || hot)
			tui_bufaddf(&c->b, "  %7.0f  %7.0f  %6zu  ", hot, rec, idx + 1);
		else
			tui_bufaddf(&c->b, "  %7s  %7s  %6zu  ", "", "", idx + 1);
		tui_expand_tabs(v->src_text[idx], &c->b);
		tui_row(c, 2 + r, idx == v->source.sel ? TUI_ATTR_SELECT
				   : rec || hot ? TUI_ATTR_HOT : TUI_ATTR_NORMAL, c->b.s, v->hscroll);
	}
}
