/* draw: every screen of the browser as a function of (model, view state) into an abstract screen.
 *
 * The screen is a size and one callback that sets a whole row: text already clipped to the width
 * (UTF-8 aware, see tui_clip()) and one attribute for the row. term.c implements it with curses;
 * tests implement it with a character grid. tui_draw() sets every row once per call. */
#ifndef C2C_TUI_DRAW_H
#define C2C_TUI_DRAW_H

#include <stddef.h>

#include "tui/model.h"
#include "tui/view.h"

enum tui_attr {
	TUI_ATTR_NORMAL,
	TUI_ATTR_TITLE,     /* first line */
	TUI_ATTR_HEADER,    /* column headers */
	TUI_ATTR_SELECT,    /* selected row */
	TUI_ATTR_HOT,       /* a heavy line or the sampled source line */
	TUI_ATTR_STATUS,    /* last line */
	TUI_ATTR__NR
};

struct tui_screen {
	int rows, cols;
	void (*put)(void *ctx, int row, enum tui_attr attr, const char *text);
	void *ctx;
};

/* A growable row of text. */
struct tui_buf {
	char *s;
	size_t len, cap;
};

void tui_bufaddf(struct tui_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tui_bufreset(struct tui_buf *b);

void tui_draw(struct tui_screen *s, struct tui_model *m, const struct tui_view *v);

/* Rows of the text screens (stats, help, findings, sort menu) for scrolling. */
size_t tui_text_rows(struct tui_model *m, const struct tui_view *v, enum tui_screen_id s);
/* The text of row @row of the cacheline list, and of row @row of the open line, as drawn
 * (before clipping): what the search looks in. */
void tui_list_row_text(struct tui_model *m, const struct tui_view *v, size_t row,
		       struct tui_buf *b);
void tui_line_row_text(struct tui_model *m, const struct tui_view *v, size_t row,
		       struct tui_buf *b);
/* Fit the columns of the cacheline list (v->list_w) and of the open line's rows (v->line_w) to
 * v->cols. What a row or line is comes first, sized to its text (up to a cap): the list's
 * address, data and verdict; a line row's offset, data, symbol, Source:Line and code address.
 * On a screen too narrow for them the list's data shrinks to leave the first figure column on
 * it; a row's Source:Line, then symbol, then data shrink, first (to a cap) to leave the first
 * figure on it, then (to a floor) to stay on it themselves, each keeping its end after "..".
 * The figures follow; sideways scrolling reaches those past the edge. With v->full_symbols a
 * row's texts are never cut. */
void tui_list_layout(struct tui_model *m, struct tui_view *v);
void tui_line_layout(struct tui_model *m, struct tui_view *v);
/* The panel above a line's rows: its heading, verdict, advice, predicted gain and threads, and
 * its line map (when v->show_map), wrapped to v->cols. Returns the number of lines in *out
 * (owned by the caller). */
size_t tui_line_panel(struct tui_model *m, const struct tui_view *v, const struct rm_line *l,
		      char ***out);
/* The findings as the text report prints them, one string per line (owned by the caller). */
size_t tui_findings_text(struct tui_model *m, char ***out);
/* The contend screen's lines (report/model/contend-text.h): the pairs of functions from row
 * *pair0, the type lines from *type0 (SIZE_MAX: none). */
size_t tui_contend_text(const struct tui_model *m, char ***out, size_t *pair0, size_t *type0);
/* The callers of row @r of line @l as perf's graph (callee first), percentages of the line's
 * samples with callchains, one string per screen row (owned by the caller). */
size_t tui_callers_text(const struct tui_model *m, const struct rm_line *l, const struct rm_row *r,
			char ***out);

/* Copy the part of UTF-8 @text from display column @skip on, at most @width columns wide, into
 * @out. Invalid bytes count one column and show as '?'; tabs are not expanded. Returns the columns
 * written. */
int tui_clip(const char *text, int skip, int width, char *out, size_t size);

#endif
