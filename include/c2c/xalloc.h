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

#endif
