/* A byte buffer for writing perf.data images in tests, in either byte order: c2c-gen's writer
 * (tests/tools/gen/perf-writer.c) and the reader's unit tests (tests/test_perfdata.c). */
#ifndef C2C_GEN_PERF_BYTES_H
#define C2C_GEN_PERF_BYTES_H

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "c2c/xalloc.h"

struct buf {
	uint8_t *p;
	size_t len, cap;
	int swap;       /* write the opposite byte order */
};

static inline void put(struct buf *b, const void *d, size_t n)
{
	if (!n)
		return;
	if (b->len + n > b->cap)
		b->p = xgrow(b->p, &b->cap, b->len + n, 1);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static inline void put16(struct buf *b, uint16_t v)
{
	v = b->swap ? bswap_16(v) : v;
	put(b, &v, 2);
}

static inline void put32(struct buf *b, uint32_t v)
{
	v = b->swap ? bswap_32(v) : v;
	put(b, &v, 4);
}

static inline void put64(struct buf *b, uint64_t v)
{
	v = b->swap ? bswap_64(v) : v;
	put(b, &v, 8);
}

static inline void put_zero(struct buf *b, size_t n)
{
	static const uint8_t z[256];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		put(b, z, k);
		n -= k;
	}
}

static inline void set64(struct buf *b, size_t off, uint64_t v)
{
	v = b->swap ? bswap_64(v) : v;
	memcpy(b->p + off, &v, 8);
}

static inline void set16(struct buf *b, size_t off, uint16_t v)
{
	v = b->swap ? bswap_16(v) : v;
	memcpy(b->p + off, &v, 2);
}

/* perf's header string (do_write_string): u32 length (a multiple of 64), NUL-padded text */
static inline void put_str(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) / 64 * 64;

	put32(b, (uint32_t)len);
	put(b, s, n);
	put_zero(b, len - n);
}

/* a NUL-terminated string padded to 8 bytes (record payloads) */
static inline void put_rstr(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	put(b, s, n);
	put_zero(b, (n + 7) / 8 * 8 - n);
}

/* A record header whose size rec_end() fills in. */
static inline size_t rec_begin(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->len;

	put32(b, type);
	put16(b, misc);
	put16(b, 0);
	return at;
}

static inline void rec_end(struct buf *b, size_t at)
{
	set16(b, at + 6, (uint16_t)(b->len - at));
}

#endif
