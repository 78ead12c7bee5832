/* Table mechanics of perf's stdio output (see report/stdio/columns.h): header spans, dots, padding of
 * cells, the unpadded last cell and the row length cap of perf's fixed-size line buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/stdio/columns.h"

#define COL_ROW_SLACK 227   /* perf: sum + 2*(n-1) + 3 + 1 + 224 bytes, one for the NUL */

void col_line_reset(struct col_line *l)
{
	l->len = 0;
	if (l->s)
		l->s[0] = '\0';
}

void col_line_release(struct col_line *l)
{
	free(l->s);
	l->s = NULL;
	l->len = l->cap = 0;
}

void col_line_add(struct col_line *l, const char *s, size_t n)
{
	l->s = xgrow(l->s, &l->cap, l->len + n + 1, 1);
	memcpy(l->s + l->len, s, n);
	l->len += n;
	l->s[l->len] = '\0';
}

void col_line_addf(struct col_line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	l->s = xgrow(l->s, &l->cap, l->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(l->s + l->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	l->len += (size_t)n;
}

static void col_pad(struct col_line *l, char ch, int n)
{
	while (n-- > 0)
		col_line_add(l, &ch, 1);
}

void col_banner(char *out, size_t size, int width, const char *word)
{
	int wlen = (int)strlen(word), j = width / 2 - wlen / 2, pos = 0, i;

	if (size == 0)
		return;
	for (i = 0; i < j - 1 && pos + 1 < (int)size; i++)
		out[pos++] = '-';
	pos += snprintf(out + pos, size - (size_t)pos, " %s ", word);
	if (pos > (int)size - 1)
		pos = (int)size - 1;
	while (pos < width && pos + 1 < (int)size)
		out[pos++] = '-';
	out[pos] = '\0';
}

void col_header0(struct col_line *l, const struct col *c, int n)
{
	int i;

	col_line_add(l, "# ", 2);
	for (i = 0; i < n; i++) {
		if (i)
			col_line_add(l, "  ", 2);
		col_line_addf(l, "%*s", c[i].width, c[i].hdr0 ? c[i].hdr0 : "");
		i += c[i].span;
	}
}

void col_header1(struct col_line *l, const struct col *c, int n)
{
	int i;

	col_line_add(l, "# ", 2);
	for (i = 0; i < n; i++) {
		if (i)
			col_line_add(l, "  ", 2);
		col_line_addf(l, "%*s", c[i].width, c[i].hdr1 ? c[i].hdr1 : "");
	}
}

void col_dots(struct col_line *l, const struct col *c, int n)
{
	int i;

	col_line_add(l, "# ", 2);
	for (i = 0; i < n; i++) {
		if (i)
			col_line_add(l, "  ", 2);
		col_pad(l, '.', c[i].width);
	}
}

void col_row(struct col_line *l, const struct col *c, int n, const char *const *cell)
{
	size_t start = l->len, limit = COL_ROW_SLACK;
	int i;

	for (i = 0; i < n; i++) {
		int len = (int)strlen(cell[i]), pad = c[i].width - len;

		limit += (size_t)c[i].width + (i ? 2 : 0);
		col_line_add(l, "  ", 2);
		if (c[i].align == COL_RIGHT)
			col_pad(l, ' ', pad);
		col_line_add(l, cell[i], (size_t)len);
		if (c[i].align == COL_LEFT && i < n - 1)
			col_pad(l, ' ', pad);
	}
	if (l->len - start > limit) {
		l->len = start + limit;
		l->s[l->len] = '\0';
	}
}
