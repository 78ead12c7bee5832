/* `key value` text blobs (see textkv.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textkv.h"

int textkv_u64(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 0);
	if (errno || e == s)
		return -1;
	*end = e;
	return 0;
}

int textkv_parse(const void *buf, size_t len, const char *magic, size_t max_line,
		 int (*fn)(const char *key, const char *val, void *ctx), void *ctx)
{
	const char *p = buf, *end = p + len;
	char line[256], *sp;
	int first = 1;

	if (max_line > sizeof(line))
		max_line = sizeof(line);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= max_line || memchr(p, '\0', n))
			return -EBADMSG;
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl != NULL);
		if (first) {
			if (strcmp(line, magic))
				return -EBADMSG;
			first = 0;
			continue;
		}
		if (!n)
			continue;
		if (!(sp = strchr(line, ' ')))
			return -EBADMSG;
		*sp = '\0';
		if (fn(line, sp + 1, ctx))
			return -EBADMSG;
	}
	return first ? -EBADMSG : 0;
}

int textkv_put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off)
		return -1;
	*off += (size_t)n;
	return 0;
}

int textkv_double(const char *s, double max, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(x) || x < 0 || x > max)
		return -EBADMSG;
	*v = x;
	return 0;
}
