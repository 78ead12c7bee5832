/* Internal helpers of the trace format shared by lib/trace_write.c, lib/trace_read.c and
 * lib/trace_info.c: little-endian fixed-width fields, LEB128 varints, zigzag, the chunk header
 * layout and the sample-encoding constants. docs/trace-format.md is the specification; every
 * constant here is named there. Nothing outside lib/trace_*.c includes this file. */
#ifndef C2C_TRACE_CODEC_H
#define C2C_TRACE_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "c2c/trace.h"

#define TRACE_FILE_HEADER_SIZE   16
#define TRACE_CHUNK_MAGIC        "CHNK"
#define TRACE_CHUNK_HEADER_SIZE  24
#define TRACE_CHUNK_MAX          (256u << 20)  /* largest payload, stored or decompressed */

/* Chunk kinds (low 16 bits of the kind word) and chunk flags (high 16 bits). */
enum trace_chunk_kind {
	TRACE_CHUNK_INFO = 1,
	TRACE_CHUNK_RECORDS = 2,
	TRACE_CHUNK_END = 3,
};
#define TRACE_CHUNK_KIND_MASK    0xffffu
#define TRACE_CHUNK_F_ZSTD       (1u << 16)
#define TRACE_CHUNK_F_KNOWN      TRACE_CHUNK_F_ZSTD

/* File header flags: the low 16 bits name features a reader must understand. */
#define TRACE_HDR_REQUIRED_MASK  0xffffu

/* Sample encoding (docs/trace-format.md, "Sample records"). */
#define TRACE_TAG_SAMPLE         0x80   /* tags 0x80..0xff are compact samples */
#define TRACE_TAG_SHAPE_ESC      0x7f   /* tag 0xff: a varint shape reference follows */
#define TRACE_SHAPE_INLINE       127    /* shapes 0..126 fit in the tag */
#define TRACE_SHAPE_MAX          4096
#define TRACE_IP_DICT_MAX        16384
#define TRACE_LINE_DICT_MAX      16384
#define TRACE_LINE_SHIFT         6

/* Callchains (1.5): a CHAIN record gives the callchain of the sample record that follows it,
 * as a reference into the per-chunk chain table or as a literal appended to it. */
#define TRACE_TAG_CHAIN          17     /* beside TRACE_REC_REGION, apart from 2-10 */
#define TRACE_CHAIN_DICT_MAX     16384          /* chain table entries per chunk */
#define TRACE_CHAIN_POOL_MAX     (1u << 20)     /* addresses held by the chain table per chunk */

/* Access instructions (1.6): an ACCESS record gives the access instruction of the soft sample
 * record that follows it, as svarint (access_ip - ip), varint flags, varint nr_alt and per
 * other candidate svarint (ip_k - ip), svarint (addr_k - addr), varint detail_k. */
#define TRACE_TAG_ACCESS         18

/* User-level tasks (1.7): a TASK record gives the task the sample record that follows ran (a
 * goroutine's id), as svarint (task - the previous TASK record's task in the chunk, 0 at its
 * start). A sample without one ran no task the recorder knew. */
#define TRACE_TAG_TASK           19

/* Shape "enc" bits: which per-sample fields follow and how. */
enum trace_shape_enc {
	TRACE_ENC_ADDR = 1 << 0,
	TRACE_ENC_PHYS = 1 << 1,
	TRACE_ENC_PHYS_PRED = 1 << 2,  /* phys = addr + the line's phys delta; no bytes */
	TRACE_ENC_WEIGHT = 1 << 3,
	TRACE_ENC_TD = 1 << 4,
	TRACE_ENC_KNOWN = (1 << 5) - 1,
};

/* A growable byte buffer (writer side). */
struct tbuf {
	uint8_t *p;
	size_t len, cap;
};

void tbuf_reserve(struct tbuf *b, size_t more);

static inline void put_u8(struct tbuf *b, uint8_t v)
{
	b->p[b->len++] = v;
}

static inline void le32_store(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static inline uint32_t le32_load(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void le16_store(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static inline uint16_t le16_load(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Append a varint; the caller reserved 10 bytes. */
static inline void put_varint(struct tbuf *b, uint64_t v)
{
	uint8_t *p = b->p + b->len;

	while (v >= 0x80) {
		*p++ = (uint8_t)v | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	b->len = p - b->p;
}

static inline void put_bytes(struct tbuf *b, const void *src, size_t n)
{
	tbuf_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, src, n);
	b->len += n;
}

/* A string: varint (length + 1), the bytes, a NUL. NULL is written as varint 0 alone. */
static inline void put_str(struct tbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	tbuf_reserve(b, n + 11);
	put_varint(b, s ? n + 1 : 0);
	if (s) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
		put_u8(b, 0);
	}
}

/* A bounded cursor over input bytes (reader side). Any overrun sets bad and yields zeros, so
 * decoders check bad once per record instead of after every field. */
struct tcur {
	const uint8_t *p, *end;
	int bad;
};

static inline uint64_t get_varint_slow(struct tcur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end && shift < 64) {
		uint8_t b = *c->p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (shift == 63 && b > 1)
				break;
			return v;
		}
		shift += 7;
	}
	c->bad = 1;
	return 0;
}

/* Varints of up to 4 bytes (28 bits: times, indexes, weights) decode without branches on their
 * length, which real streams make unpredictable; longer ones take the loop. */
static inline uint64_t get_varint(struct tcur *c)
{
	const uint8_t *p = c->p;

	if (c->end - p >= 4) {
		uint32_t x = le32_load(p), stop = ~x & 0x80808080u, len, v;

		if (stop) {
			len = (unsigned)__builtin_ctz(stop) / 8 + 1;
			v = (x & 0x7f) | (x >> 1 & 0x3f80) | (x >> 2 & 0x1fc000) | (x >> 3 & 0xfe00000);
			c->p = p + len;
			return v & ((1u << (7 * len)) - 1);
		}
	}
	return get_varint_slow(c);
}

static inline uint8_t get_u8(struct tcur *c)
{
	if (c->p >= c->end) {
		c->bad = 1;
		return 0;
	}
	return *c->p++;
}

static inline uint32_t get_u32v(struct tcur *c)
{
	uint64_t v = get_varint(c);

	if (v > UINT32_MAX)
		c->bad = 1;
	return (uint32_t)v;
}

static inline const uint8_t *get_bytes(struct tcur *c, uint64_t n)
{
	const uint8_t *p = c->p;

	if ((uint64_t)(c->end - p) < n) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return p;
}

/* A string in the input; *absent is set for the NULL encoding. Returns a pointer into the input
 * (NUL-terminated there) or NULL on an error or absent string. */
static inline const char *get_str(struct tcur *c, int *absent)
{
	uint64_t n = get_varint(c);
	const uint8_t *s;

	*absent = n == 0;
	if (n == 0)
		return NULL;
	s = get_bytes(c, n);
	if (!s || s[n - 1] != 0 || memchr(s, 0, n - 1)) {
		c->bad = 1;
		return NULL;
	}
	return (const char *)s;
}

/* Header chunk payload codec (lib/trace_info.c). decode returns 0 or -EBADMSG and leaves
 * @info released on failure. */
void trace_info_encode(struct tbuf *b, const struct trace_info *info);
/* NULL when @info is within the readers' bounds (TRACE_CPU_MAX, TRACE_NODE_MAX), else why not. */
const char *trace_info_check(const struct trace_info *info);
int trace_info_decode(struct trace_info *info, const uint8_t *p, size_t len);

#endif
