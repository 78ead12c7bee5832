/* A small JSON writer (see jw.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "report/json/jw.h"

/* A string with JSON escapes; bytes that are not UTF-8 become U+FFFD. */
void jw_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	while (*p) {
		unsigned c = *p;
		int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 :
			(c & 0xf8) == 0xf0 ? 3 : -1;
		int k;

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			p++;
			continue;
		}
		if (c < 0x20) {
			fprintf(f, "\\u%04x", c);
			p++;
			continue;
		}
		for (k = 1; n > 0 && k <= n; k++)
			if ((p[k] & 0xc0) != 0x80)
				n = -1;
		if (n < 0 || (n == 1 && c < 0xc2)) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n + 1, f);
		p += n + 1;
	}
	fputc('"', f);
}

void jw_key(struct jw *w, const char *key)
{
	if (w->count[w->depth]++)
		fputc(',', w->f);
	fprintf(w->f, "\n%*s", 2 * w->depth, "");
	if (key) {
		jw_string(w->f, key);
		fputs(": ", w->f);
	}
}

void jw_open(struct jw *w, const char *key, char c)
{
	jw_key(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < JW_DEPTH)
		w->count[++w->depth] = 0;
}

void jw_close(struct jw *w, char c)
{
	int empty = !w->count[w->depth];

	if (w->depth)
		w->depth--;
	if (!empty)
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	fputc(c, w->f);
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	if (s)
		jw_string(w->f, s);
	else
		fputs("null", w->f);
}

void jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	if (isnan(v) || isinf(v))
		fputs("null", w->f);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(w->f, "%.0f", v);
	else
		fprintf(w->f, "%.6g", v);
}

void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_bool(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_hex(struct jw *w, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	jw_str(w, key, buf);
}

