/* Text blobs of `key value` lines under a magic first line (the watch duty cycle, the SPE
 * recording facts): the line splitter and number parser they share. Internal to lib/. */
#ifndef C2C_TEXTKV_H
#define C2C_TEXTKV_H

#include <stddef.h>
#include <stdint.h>

/* A decimal or 0x-hex unsigned number at @s (no sign, no blanks); *end after it. 0 or -1. */
int textkv_u64(const char *s, uint64_t *v, const char **end);

/* A finite number from 0 to @max, the whole of @s (strtod's syntax). 0 or -EBADMSG. */
int textkv_double(const char *s, double max, double *v);

/* Call @fn(key, value, ctx) for each non-empty line after the first, split at its first space.
 * -EBADMSG when the text is empty, the first line is not @magic, a line is @max_line bytes or
 * longer or holds a NUL, a line has no space, or @fn fails. */
int textkv_parse(const void *buf, size_t len, const char *magic, size_t max_line,
		 int (*fn)(const char *key, const char *val, void *ctx), void *ctx);

/* Append printf output at buf + *off; -1 (and *off unchanged) when it does not fit. */
int textkv_put(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
