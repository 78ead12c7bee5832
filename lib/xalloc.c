/* Allocation wrappers that treat out-of-memory as fatal (see include/c2c/xalloc.h). */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "c2c/xalloc.h"

void xoom(size_t size)
{
	fprintf(stderr, "c2c-lite: fatal: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		xoom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xoom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		xoom(size);
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
		xoom(SIZE_MAX);
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
		xoom(0);
	va_end(ap);
	return s;
}

#define XHEAP_HUGE ((uintptr_t)2 << 20)   /* a transparent huge page on x86-64 and arm64 */

/* Fresh anonymous memory costs a page fault a page at first touch, and on a virtual machine a
 * fault is an exit to the host (about 10 us each on the 2-core guest this was measured on); a huge
 * page costs one fault for 512. The report's tables take huge pages themselves (cltable.c); this
 * gives them to what it mallocs (batches, lines shown, the model), as glibc's
 * glibc.malloc.hugetlb=1 tunable would. */
void xheap_hugepages(size_t pad)
{
	static uintptr_t done;   /* the heap below this is marked (or was touched before) */
	struct mallinfo2 mi;
	uintptr_t lo, hi, brk, at;
	void *p;

	if (!done) {
		mallopt(M_MMAP_THRESHOLD, 32 << 20);   /* glibc's maximum */
		mallopt(M_TRIM_THRESHOLD, INT32_MAX);
		mallopt(M_TOP_PAD, (int)(pad < INT32_MAX ? pad : INT32_MAX));
		mallopt(M_ARENA_MAX, 1);   /* threads too: their arenas would be small pages */
	}
	mi = mallinfo2();
	brk = (uintptr_t)sbrk(0);
	lo = brk - mi.keepcost + 4096;   /* the free top of the heap, past the page of its header */
	if (mi.keepcost < pad / 2) {
		/* a block larger than the top: the heap grows by it and @pad more. Touched: the block's
		 * header (the top's page) and, for a while, the top's after it, just past the old end */
		p = malloc(mi.keepcost + 4096);
		at = (uintptr_t)p;
		free(p);
		lo = brk + 8192;
		brk = (uintptr_t)sbrk(0);
		if (!at || at > brk)
			return;   /* not from this heap (another allocator, or it could not grow) */
	}
	lo = (lo + XHEAP_HUGE - 1) & ~(XHEAP_HUGE - 1);
	hi = brk & ~(XHEAP_HUGE - 1);
	if (lo < done)
		lo = done;
	if (hi > lo && !madvise((void *)lo, hi - lo, MADV_HUGEPAGE))
		done = hi;
}
