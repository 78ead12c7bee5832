/* Drawing (see tui/draw.h): the frame (status line, dispatch to the screen being shown) and the
 * helpers every screen uses: the row buffer, UTF-8 clipping and the banner. Each screen builds
 * full-width rows and hands them, clipped to the window and the horizontal scroll, to the screen's
 * put callback. Figures come from the model as it is. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "c2c/xalloc.h"
#include "tui/draw-int.h"

void tui_bufaddf(struct tui_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->s = xgrow(b->s, &b->cap, b->len + (size_t)n + 1, 1);
	}
}

void tui_bufreset(struct tui_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

int tui_clip(const char *text, int skip, int width, char *out, size_t size)
{
	mbstate_t st;
	size_t o = 0;
	int col = 0, w;

	memset(&st, 0, sizeof(st));
	while (*text && col < skip + width) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, text, MB_CUR_MAX, &st);
		int bad = n == (size_t)-1 || n == (size_t)-2 || n == 0;

		if (bad) {
			memset(&st, 0, sizeof(st));
			n = 1;
			w = 1;
		} else {
			w = wcwidth(wc);
			if (w < 0)
				w = 1, bad = 1;
		}
		if (col + w > skip + width)
			break;
		if (col >= skip && o + n < size) {
			if (bad)
				out[o++] = '?';
			else
				memcpy(out + o, text, n), o += n;
		} else if (col < skip && col + w > skip) {
			w = skip - col;   /* a wide character cut by the scroll: blank it */
		}
		col += w;
		text += n;
	}
	if (size)
		out[o < size ? o : size - 1] = '\0';
	return col > skip ? col - skip : 0;
}

int tui_cols(const char *text)
{
	return tui_clip(text, 0, INT_MAX / 2, NULL, 0);
}

void tui_cell(struct tui_buf *b, const char *text, int width, int keep)
{
	size_t size = strlen(text) + 1;
	char *cut = xmalloc(size);
	int n = tui_cols(text), w;

	if (n > width && keep >= 0 && width >= keep + 3) {
		/* the head it keeps, "..", then its last columns */
		w = tui_clip(text, 0, keep, cut, size);
		tui_bufaddf(b, "  %s..", cut);
		w += 2 + tui_clip(text, n - (width - keep - 2), width - keep - 2, cut, size);
	} else {
		tui_bufaddf(b, "  ");
		w = tui_clip(text, 0, width, cut, size);
	}
	tui_bufaddf(b, "%s%*s", cut, width > w ? width - w : 0, "");
	free(cut);
}

/* Put row @row from text @t scrolled by @skip columns. */
void tui_row(struct tui_ctx *c, int row, enum tui_attr a, const char *t, int skip)
{
	if (row < 0 || row >= c->s->rows)
		return;
	tui_clip(t, skip, c->s->cols, c->clip, c->clip_size);
	c->s->put(c->s->ctx, row, a, c->clip);
}

void tui_rowf(struct tui_ctx *c, int row, enum tui_attr a, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	tui_row(c, row, a, line, 0);
}

/* perf's banner: @word centred in dashes over @width columns. */
void tui_banner(struct tui_buf *b, int width, const char *word)
{
	int n = (int)strlen(word), left, right;

	if (!n || n + 2 > width) {
		tui_bufaddf(b, "%*.*s", width, width, word);
		return;
	}
	left = (width - n - 2) / 2;
	right = width - n - 2 - left;
	tui_bufaddf(b, "%.*s %s %.*s", left, "------------------------------------------------",
		    word, right, "------------------------------------------------");
}

/* --- frame ------------------------------------------------------------------------------------- */

static void tui_status(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	enum tui_screen_id s = tui_view_screen(v);
	const struct tui_list *l = s == TUI_SCR_LIST ? &v->list : s == TUI_SCR_LINE ? &v->detail
				   : s == TUI_SCR_SOURCE ? &v->source : NULL;
	char pos[48] = "";

	if (l && l->nr)
		snprintf(pos, sizeof(pos), "%zu/%zu ", l->sel + 1, l->nr);
	if (v->prompt)
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS, "/%s_", v->query);
	else if (v->msg[0])
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS, " %s%s", pos, v->msg);
	else if (s == TUI_SCR_LIST)
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS,
			 " %sd/Enter details  f findings  o order  / search  %st stats  ? help  q quit",
			 pos, c->m->kind == RM_PMU ? "m mode  c coalesce  " : "");
	else if (s == TUI_SCR_LINE)
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS,
			 " %sa/Enter source  v map  s full symbols  %s/ search  ? help  q back", pos,
			 c->m->kind == RM_PMU ? "n node info  " : "");
	else
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS, " %s/ search  ? help  q back", pos);
}

void tui_draw(struct tui_screen *s, struct tui_model *m, const struct tui_view *v)
{
	struct tui_ctx c = { .s = s, .m = m, .v = v };

	c.clip_size = (size_t)s->cols * 4 + 8;
	c.clip = xmalloc(c.clip_size);
	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST:
		tui_draw_list(&c);
		break;
	case TUI_SCR_LINE:
		tui_draw_line(&c);
		break;
	case TUI_SCR_SOURCE:
		tui_draw_source(&c);
		break;
	case TUI_SCR_STATS:
	case TUI_SCR_HELP:
	case TUI_SCR_FINDINGS:
	case TUI_SCR_SORT:
	case TUI_SCR_CALLERS:
	case TUI_SCR_CONTEND:
		tui_draw_text(&c, tui_view_screen(v));
		break;
	}
	tui_status(&c);
	free(c.clip);
	free(c.b.s);
}

