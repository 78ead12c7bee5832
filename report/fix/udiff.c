/* The unified diff of whole-line edits (fix.h, fix_udiff()): GNU diff's format, which patch -p1
 * and git apply read. Edits come sorted by line, one per line; the hunks around them take 3
 * lines of context and merge when their context would overlap or touch. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/fix/fix.h"

#define CONTEXT 3

void fix_buf_add(struct fix_buf *b, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		xoom(0);
	b->p = xgrow(b->p, &b->cap, b->len + (size_t)n + 1, 1);
	memcpy(b->p + b->len, s, (size_t)n + 1);
	b->len += (size_t)n;
	free(s);
}

/* The lines of @text: starts[i] is line i + 1's first byte; a last line without '\n' counts. */
struct lines {
	const char **start;
	size_t nr;
	int no_eol;              /* the last line has no newline */
};

static void split(const char *text, struct lines *l)
{
	size_t cap = 0;

	memset(l, 0, sizeof(*l));
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');

		l->start = xgrow(l->start, &cap, l->nr + 1, sizeof(*l->start));
		l->start[l->nr++] = p;
		if (!e) {
			l->no_eol = 1;
			break;
		}
		p = e + 1;
	}
}

static int line_len(const struct lines *l, size_t i)
{
	const char *e = strchr(l->start[i], '\n');

	return e ? (int)(e - l->start[i]) : (int)strlen(l->start[i]);
}

static void put_line(struct fix_buf *b, char tag, const struct lines *l, size_t i)
{
	fix_buf_add(b, "%c%.*s\n", tag, line_len(l, i), l->start[i]);
	if (i + 1 == l->nr && l->no_eol)
		fix_buf_add(b, "\\ No newline at end of file\n");
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* One hunk: old lines [lo, hi) (0-based) with edits e[0..n); *delta is new - old lines so far. */
static void hunk(struct fix_buf *b, const struct lines *l, size_t lo, size_t hi,
		 const struct fix_line_edit *e, size_t n, long *delta)
{
	size_t added = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		added += count_lines(e[i].before);
	fix_buf_add(b, "@@ -%zu,%zu +%ld,%zu @@\n", lo + 1, hi - lo, (long)lo + 1 + *delta,
		    hi - lo + added);
	for (size_t i = lo; i < hi; i++) {
		const struct fix_line_edit *x = k < n && e[k].line == i + 1 ? &e[k++] : NULL;

		if (x && x->text)
			put_line(b, '-', l, i);
		for (const char *p = x ? x->before : NULL; p && *p;) {
			const char *nl = strchr(p, '\n');

			fix_buf_add(b, "+%.*s\n", (int)(nl - p), p);
			p = nl + 1;
		}
		if (!x || !x->text) {
			put_line(b, ' ', l, i);
			continue;
		}
		fix_buf_add(b, "+%s\n", x->text);
		if (i + 1 == l->nr && l->no_eol)
			fix_buf_add(b, "\\ No newline at end of file\n");
	}
	*delta += (long)added;
}

void fix_udiff(struct fix_buf *out, const char *rel, const char *old,
	       const struct fix_line_edit *e, size_t n)
{
	struct lines l;
	long delta = 0;
	size_t i = 0;

	split(old, &l);
	while (n && e[n - 1].line > l.nr)     /* past the end: nothing to edit there */
		n--;
	if (n)
		fix_buf_add(out, "--- a/%s\n+++ b/%s\n", rel, rel);
	while (i < n) {
		size_t k = i + 1, lo, hi;

		while (k < n && e[k].line - e[k - 1].line <= 2 * CONTEXT + 1)
			k++;
		lo = e[i].line - 1 > CONTEXT ? e[i].line - 1 - CONTEXT : 0;
		hi = e[k - 1].line + CONTEXT < l.nr ? e[k - 1].line + CONTEXT : l.nr;
		hunk(out, &l, lo, hi, e + i, k - i, &delta);
		i = k;
	}
	free(l.start);
}
