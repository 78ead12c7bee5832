/* Allocation wrappers. Out-of-memory is fatal in c2c-lite: these never return NULL; on failure they
 * print one line naming the size and abort. Keep error returns for failures a user can cause. */
#ifndef C2C_XALLOC_H
#define C2C_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array to hold at least @need elements of @elem bytes; *cap is updated. */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The fatal out-of-memory exit of these wrappers, for memory got otherwise (mmap). */
void xoom(size_t size) __attribute__((noreturn));
/* Back the heap with transparent huge pages from here on, as glibc's glibc.malloc.hugetlb=1
 * tunable does (which only the environment sets): allocations up to 32 MiB come from the heap,
 * which grows by at least @pad bytes at a time and is never trimmed, and the part of it not yet
 * touched is marked for huge pages. Call again once the heap has grown: the new part is marked.
 * A hint: where it cannot be followed, only speed is lost. */
void xheap_hugepages(size_t pad);

#endif
