/* list: the one scrolling-list widget, used for the cacheline list, a line's offsets, the source
 * and the text screens. It knows only counts: the selected row and the first row shown. */
#ifndef C2C_TUI_LIST_H
#define C2C_TUI_LIST_H

#include <stddef.h>

struct tui_list {
	size_t nr;    /* rows */
	size_t sel;   /* selected row (< nr, or 0 when empty) */
	size_t top;   /* first row on screen */
};

void tui_list_reset(struct tui_list *l, size_t nr);
/* Move the selection by @delta rows (clamped) and keep it inside a window of @height rows. */
void tui_list_move(struct tui_list *l, long delta, int height);
void tui_list_select(struct tui_list *l, size_t sel, int height);
/* Keep the selection visible in a window of @height rows (after a resize). */
void tui_list_fit(struct tui_list *l, int height);

#endif
