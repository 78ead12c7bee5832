/* The source around a sampled code address, each line with the HITMs (peer snoops) and records of
 * the open cacheline's offset rows sampled there. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/dsrc.h"
#include "report/maps.h"
#include "tui/draw-int.h"

/* --- source ------------------------------------------------------------------------------------ */

/* Records and HITMs (peer snoops) of the open line's offset rows sampled at @file:@line. */
static void tui_src_counts(const struct tui_view *v, uint32_t line, uint64_t *rec, uint64_t *hot)
{
	size_t i;

	*rec = *hot = 0;
	for (i = 0; v->open && i < v->open->nr_off; i++) {
		const struct cltab_offset *o = v->open->off[i];

		if (o->code.line != line || !o->code.srcfile || strcmp(o->code.srcfile, v->src_file))
			continue;
		*rec += dsrc_total_records(&o->stats);
		*hot += cltab_metric(v->display, &o->stats);
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
	int h = tui_view_body_rows(v, TUI_SCR_SOURCE), r;
	int peer = v->display == CLTAB_DISPLAY_PEER;

	tui_rowf(c, 0, TUI_ATTR_TITLE, " %s:%u  (cacheline %#llx)", v->src_file, v->src_line,
		 v->open ? (unsigned long long)v->open->addr : 0ULL);
	tui_rowf(c, 1, TUI_ATTR_HEADER, "  %7s  %7s  %6s  source", peer ? "Peer" : "HITM",
		 "records", "line");
	for (r = 0; r < h; r++) {
		size_t idx = v->source.top + (size_t)r;
		uint64_t rec, hot;

		if (idx >= v->nr_src) {
			tui_row(c, 2 + r, TUI_ATTR_NORMAL, "", 0);
			continue;
		}
		tui_src_counts(v, (uint32_t)idx + 1, &rec, &hot);
		tui_bufreset(&c->b);
		if (rec || hot)
			tui_bufaddf(&c->b, "  %7llu  %7llu  %6zu  ", (unsigned long long)hot,
				    (unsigned long long)rec, idx + 1);
		else
			tui_bufaddf(&c->b, "  %7s  %7s  %6zu  ", "", "", idx + 1);
		tui_expand_tabs(v->src_text[idx], &c->b);
		tui_row(c, 2 + r, idx == v->source.sel ? TUI_ATTR_SELECT
				   : rec || hot ? TUI_ATTR_HOT : TUI_ATTR_NORMAL, c->b.s, v->hscroll);
	}
}
