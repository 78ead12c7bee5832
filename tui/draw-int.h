/* Internal interface between the drawing files: the row buffer, the drawing context and one
 * function per screen. Only tui/draw*.c include it. */
#ifndef C2C_TUI_DRAW_INT_H
#define C2C_TUI_DRAW_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tui/draw.h"

/* What one tui_draw() call draws with. */
struct tui_ctx {
	struct tui_screen *s;
	struct tui_model *m;
	const struct tui_view *v;
	struct tui_buf b;
	char *clip;
	size_t clip_size;
};

/* Put row @row from text @t scrolled by @skip columns. */
void tui_row(struct tui_ctx *c, int row, enum tui_attr a, const char *t, int skip);
void tui_rowf(struct tui_ctx *c, int row, enum tui_attr a, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The display columns of UTF-8 @text (as tui_clip() counts them). */
int tui_cols(const char *text);
/* Two spaces, then @text in exactly @width columns, padded with spaces. Text too wide is cut at
 * the right when @keep < 0, else it keeps its first @keep columns, then "..", then its last
 * ones: the line number of a source line, the function of a qualified symbol ("[.] ..::run"),
 * the member of a long data path. */
void tui_cell(struct tui_buf *b, const char *text, int width, int keep);
/* perf's banner: @word centred in dashes over @width columns. */
void tui_banner(struct tui_buf *b, int width, const char *word);

/* "[.] symbol" or "[.] 0x<address>", and the Source:Line text of an offset row. */
void tui_symbol(const struct rm_row *r, char *buf, size_t size);
void tui_srcline(const struct rm_row *r, char *buf, size_t size);

void tui_draw_list(struct tui_ctx *c);     /* draw-list.c */
void tui_draw_line(struct tui_ctx *c);     /* draw-line.c */
void tui_draw_source(struct tui_ctx *c);   /* draw-source.c */
void tui_draw_text(struct tui_ctx *c, enum tui_screen_id s);   /* draw-text.c: stats, help,
								 * findings, sort menu */

#endif
