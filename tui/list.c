/* The scrolling list (see tui/list.h). Invariant after every call: sel < nr (or 0 when empty) and
 * top <= sel < top + height. */
#include "tui/list.h"

void tui_list_reset(struct tui_list *l, size_t nr)
{
	l->nr = nr;
	l->sel = 0;
	l->top = 0;
}

void tui_list_fit(struct tui_list *l, int height)
{
	size_t h = height > 0 ? (size_t)height : 1;

	if (!l->nr) {
		l->sel = l->top = 0;
		return;
	}
	if (l->sel >= l->nr)
		l->sel = l->nr - 1;
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + h)
		l->top = l->sel - h + 1;
	/* no empty space below the last row: a list that fits starts at its first row */
	if (l->nr <= h)
		l->top = 0;
	else if (l->top > l->nr - h)
		l->top = l->nr - h;
}

void tui_list_select(struct tui_list *l, size_t sel, int height)
{
	l->sel = sel;
	tui_list_fit(l, height);
}

void tui_list_move(struct tui_list *l, long delta, int height)
{
	size_t sel = l->sel;

	if (!l->nr)
		return;
	if (delta < 0)
		sel = (size_t)-delta > sel ? 0 : sel - (size_t)-delta;
	else
		sel = (size_t)delta >= l->nr - sel ? l->nr - 1 : sel + (size_t)delta;
	tui_list_select(l, sel, height);
}
