/* Allocation wrappers that treat out-of-memory as fatal (see include/c2c/xalloc.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"

static void oom(size_t size)
{
	fprintf(stderr, "c2c-lite: fatal: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xgrow(void *ptr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return ptr;
	while (n < need)
		n *= 2;
	if (elem && n > SIZE_MAX / elem)
		oom(SIZE_MAX);
	*cap = n;
	return xrealloc(ptr, n * elem);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(0);
	va_end(ap);
	return s;
}
