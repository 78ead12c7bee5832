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

void tui_draw(struct tui_screen *s, struct tui_model *m, const struct tui_view *v);

/* Rows of the text screens (stats, help) for scrolling. */
size_t tui_text_rows(struct tui_model *m, const struct tui_view *v, enum tui_screen_id s);

/* Copy the part of UTF-8 @text from display column @skip on, at most @width columns wide, into
 * @out. Invalid bytes count one column and show as '?'; tabs are not expanded. Returns the columns
 * written. */
int tui_clip(const char *text, int skip, int width, char *out, size_t size);

#endif
