/* columns: perf's stdio table mechanics, independent of what the columns hold.
 *
 * A table is an array of struct col. Header line 0 may span columns: a column with span k prints
 * its text right-aligned in its own width and covers the next k columns (no separators inside the
 * group, the text overflows over it). Header line 1 and the dots line have one cell per column.
 * Rows put two spaces before every cell; a cell shorter than its width is right-aligned or
 * left-aligned and padded, except the last cell, which is never padded; longer cells overflow.
 * Like perf's hpp buffer, a row is cut at sum(widths) + 2*(n-1) + 227 characters.
 *
 * Pure: the functions write into a caller-owned struct col_line (a growable string). */
#ifndef C2C_REPORT_COLUMNS_H
#define C2C_REPORT_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

enum col_align {
	COL_RIGHT,
	COL_LEFT,
};

struct col {
	const char *hdr0;   /* header line 0 text, NULL for none */
	int span;           /* number of following columns hdr0 covers */
	const char *hdr1;   /* header line 1 text */
	int width;
	enum col_align align;
};

struct col_line {
	char *s;            /* NUL-terminated */
	size_t len, cap;
};

void col_line_reset(struct col_line *l);
void col_line_release(struct col_line *l);
void col_line_add(struct col_line *l, const char *s, size_t n);
void col_line_addf(struct col_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* perf's fill_line(): a banner of @width characters with @word centred in dashes. */
void col_banner(char *out, size_t size, int width, const char *word);

/* The three header lines, each starting with "# " (no newline). */
void col_header0(struct col_line *l, const struct col *c, int n);
void col_header1(struct col_line *l, const struct col *c, int n);
void col_dots(struct col_line *l, const struct col *c, int n);
/* One row from @cell[0..n) (no newline). */
void col_row(struct col_line *l, const struct col *c, int n, const char *const *cell);

#endif
