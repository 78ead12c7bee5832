/* The streaming trace reader: holds at most one chunk in memory, checks each chunk's header
 * checksum, payload checksum and every size before use, and decodes records in place (strings and
 * blob data point into the chunk buffer). A file that ends inside a chunk, or without its end
 * chunk, is read up to its last complete chunk and flagged truncated; any inconsistency is
 * -EBADMSG with the file offset in the log. Errors are sticky. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "lib/trace_codec.h"

struct rip {
	uint64_t ip, last_addr;
	int32_t last_line;
	uint32_t has_addr;
};

struct rline {
	uint64_t line, phys_delta;
	uint32_t has_phys;
};

struct rshape {
	struct trace_sample tmpl;
	uint8_t enc;
};

struct trace_reader {
	char *name;
	int fd;                        /* -1: reading from memory */
	int own_fd;                    /* trace_reader_open: close fd when done */
	const uint8_t *mem;
	size_t mem_len;
	uint64_t off;                  /* file offset of the next unread byte */
	uint64_t size;                 /* of a regular file or the buffer; else UINT64_MAX */
	struct trace_info info;
	uint8_t *buf, *zbuf;           /* stored payload (file), decompressed payload */
	size_t cap, zcap;
	ZSTD_DCtx *zd;
	/* the current records chunk */
	const uint8_t *start, *p, *end;
	uint64_t chunk_off;
	uint32_t left;
	int compressed;
	uint64_t nr_records;           /* records in the chunks read so far */
	int truncated, done, err, saw_end, have_info;
	/* per-chunk decoder state */
	uint64_t prev_time, prev_ip, prev_addr, phys_ref;
	uint32_t nr_ips, nr_lines, nr_shapes;
	size_t cap_ips, cap_lines, cap_shapes;   /* dictionaries grow up to their format limits */
	struct rip *ips;
	struct rline *lines;
	struct rshape *shapes;
	/* per-chunk chain table (1.5 CHAIN records) and the chain of the next sample */
	uint32_t nr_chains, pool_len, cap_chains, cap_pool;
	uint32_t *chain_off, *chain_nr;
	uint64_t *pool;
	uint64_t lit[TRACE_CHAIN_MAX];   /* a literal chain the table had no room for */
	/* the ACCESS record (1.6) of the next sample, as read (deltas zigzagged) */
	int have_access, have_task;
	uint64_t prev_task, task;        /* TASK records (1.7): the last one's task, the next's */
	uint64_t acc_ip;
	uint8_t acc_flags, acc_nr;
	struct { uint64_t ip, addr; uint16_t detail; } acc_alt[TRACE_ALT_MAX];
	const uint64_t *pending;
	uint32_t pending_nr;
	int have_pending;
};

/* --- input ------------------------------------------------------------------------------------- */

static int read_full(int fd, uint8_t *p, size_t n, size_t *got)
{
	*got = 0;
	while (*got < n) {
		ssize_t r = read(fd, p + *got, n - *got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		*got += r;
	}
	return 0;
}

/* Make the next @n input bytes available at *out (into @dst for a file). Returns how many are
 * available (fewer at the end of the input) or a negative errno. */
static ssize_t fetch(struct trace_reader *r, size_t n, uint8_t *dst, const uint8_t **out)
{
	size_t got = 0;
	int err;

	if (r->fd < 0) {
		got = r->off < r->mem_len ? r->mem_len - r->off : 0;
		*out = r->mem + r->off;
		got = got < n ? got : n;
	} else {
		err = n ? read_full(r->fd, dst, n, &got) : 0;
		if (err)
			return c2c_err(err, "cannot read trace '%s': %s", r->name, strerror(-err));
		*out = n ? dst : (const uint8_t *)"";  /* zlib's crc32() treats NULL specially */
	}
	r->off += got;
	return (ssize_t)got;
}

static int fail(struct trace_reader *r, int err)
{
	r->err = err;
	return err;
}

static int bad(struct trace_reader *r, uint64_t off, const char *what)
{
	c2c_log(C2C_LOG_ERROR, "trace '%s' is corrupt at offset %llu: %s", r->name,
		(unsigned long long)off, what);
	return fail(r, -EBADMSG);
}

static int cut_short(struct trace_reader *r, uint64_t chunk_off)
{
	r->truncated = 1;
	r->done = 1;
	if (!r->have_info)
		return 0;  /* read_info reports it */
	c2c_log(C2C_LOG_WARN, "trace '%s' is truncated: the chunk at offset %llu is incomplete; "
		"reading the %llu records before it", r->name, (unsigned long long)chunk_off,
		(unsigned long long)r->nr_records);
	return 0;
}

/* --- chunks ------------------------------------------------------------------------------------ */

struct chunk {
	uint64_t off;
	uint32_t kind, len, crc, nrec;
	const uint8_t *payload;
};

static int check_chunk_header(struct trace_reader *r, struct chunk *c, const uint8_t *h)
{
	if (memcmp(h, TRACE_CHUNK_MAGIC, 4))
		return bad(r, c->off, "no chunk magic");
	if (le32_load(h + 20) != crc32(0, h, 20))
		return bad(r, c->off, "chunk header checksum mismatch");
	c->kind = le32_load(h + 4);
	c->len = le32_load(h + 8);
	c->crc = le32_load(h + 12);
	c->nrec = le32_load(h + 16);
	if (c->len > TRACE_CHUNK_MAX)
		return bad(r, c->off, "chunk payload larger than the format allows");
	return 0;
}

/* Read the next chunk: 1 and *c filled, 0 at a clean or truncated end, or a negative errno. */
static int read_chunk(struct trace_reader *r, struct chunk *c)
{
	uint8_t hbuf[TRACE_CHUNK_HEADER_SIZE];
	const uint8_t *h;
	ssize_t n;
	int err;

	c->off = r->off;
	n = fetch(r, sizeof(hbuf), hbuf, &h);
	if (n < 0)
		return fail(r, (int)n);
	if (n == 0) {
		r->done = 1;
		return 0;
	}
	if (n < TRACE_CHUNK_HEADER_SIZE)
		return cut_short(r, c->off);
	err = check_chunk_header(r, c, h);
	if (err)
		return err;
	if (c->len > r->size - r->off)
		return cut_short(r, c->off);  /* allocate nothing for a payload that is not there */
	if (r->fd >= 0 && c->len > r->cap)
		r->buf = xgrow(r->buf, &r->cap, c->len, 1);
	n = fetch(r, c->len, r->buf, &c->payload);
	if (n < 0)
		return fail(r, (int)n);
	if ((size_t)n < c->len)
		return cut_short(r, c->off);
	if (crc32(crc32(0, h + 4, 8), c->payload, c->len) != c->crc)
		return bad(r, c->off, "chunk checksum mismatch");
	return 1;
}

static int check_flags(struct trace_reader *r, const struct chunk *c)
{
	if (c->kind & ~(TRACE_CHUNK_KIND_MASK | TRACE_CHUNK_F_KNOWN)) {
		c2c_log(C2C_LOG_ERROR, "trace '%s': chunk at offset %llu uses unknown flags 0x%x; "
			"a newer c2c-lite wrote it", r->name, (unsigned long long)c->off,
			(unsigned)(c->kind >> 16));
		return fail(r, -ENOTSUP);
	}
	return 0;
}

static int decompress(struct trace_reader *r, const struct chunk *c)
{
	uint32_t raw_len;
	size_t n;

	if (c->len < 4)
		return bad(r, c->off, "compressed chunk too short");
	raw_len = le32_load(c->payload);
	if (raw_len > TRACE_CHUNK_MAX)
		return bad(r, c->off, "decompressed size larger than the format allows");
	if (!r->zd && !(r->zd = ZSTD_createDCtx()))
		return c2c_err(fail(r, -ENOMEM), "trace '%s': cannot create a zstd context", r->name);
	if (raw_len >= r->zcap)
		r->zbuf = xgrow(r->zbuf, &r->zcap, raw_len + 1, 1);
	n = ZSTD_decompressDCtx(r->zd, r->zbuf, raw_len, c->payload + 4, c->len - 4);
	if (ZSTD_isError(n) || n != raw_len)
		return bad(r, c->off, "zstd data does not decompress to the stated size");
	r->start = r->zbuf;
	r->end = r->zbuf + raw_len;
	return 0;
}

static void reset_chunk_state(struct trace_reader *r)
{
	r->prev_time = r->prev_ip = r->prev_addr = r->phys_ref = 0;
	r->nr_ips = r->nr_lines = r->nr_shapes = 0;
	r->nr_chains = r->pool_len = 0;
	r->have_pending = r->have_access = r->have_task = 0;
	r->prev_task = 0;
}

static int start_records(struct trace_reader *r, const struct chunk *c)
{
	int err;

	r->compressed = !!(c->kind & TRACE_CHUNK_F_ZSTD);
	if (r->compressed) {
		err = decompress(r, c);
		if (err)
			return err;
	} else {
		r->start = c->payload;
		r->end = c->payload + c->len;
	}
	r->p = r->start;
	r->chunk_off = c->off;
	r->left = c->nrec;
	r->nr_records += c->nrec;
	reset_chunk_state(r);
	return 0;
}

static int finish_end(struct trace_reader *r, const struct chunk *c)
{
	struct tcur cur = { c->payload, c->payload + c->len, 0 };
	uint64_t total = get_varint(&cur);
	const uint8_t *extra;
	uint8_t byte;

	if (cur.bad || total != r->nr_records)
		return bad(r, c->off, "end chunk does not match the records read");
	r->saw_end = 1;
	r->done = 1;
	if (fetch(r, 1, &byte, &extra) > 0)
		return bad(r, r->off - 1, "data after the end chunk");
	return 0;
}

/* Advance to the next records chunk: 1 when one is loaded, 0 at the end, or an error. */
static int next_chunk(struct trace_reader *r)
{
	struct chunk c;
	int rc;

	for (;;) {
		if (r->done)
			return 0;
		rc = read_chunk(r, &c);
		if (rc <= 0) {
			if (rc == 0 && !r->truncated && !r->saw_end) {
				r->truncated = 1;
				c2c_log(C2C_LOG_WARN, "trace '%s' ends at offset %llu without its end "
					"chunk: it was cut short; read %llu records", r->name,
					(unsigned long long)r->off, (unsigned long long)r->nr_records);
			}
			return rc;
		}
		if ((c.kind & TRACE_CHUNK_KIND_MASK) == TRACE_CHUNK_END)
			return c.kind >> 16 ? bad(r, c.off, "flags on the end chunk") : finish_end(r, &c);
		if ((c.kind & TRACE_CHUNK_KIND_MASK) == TRACE_CHUNK_INFO)
			return bad(r, c.off, "a second header chunk");
		if ((c.kind & TRACE_CHUNK_KIND_MASK) != TRACE_CHUNK_RECORDS) {
			r->nr_records += c.nrec;
			continue;  /* a kind from a later minor version: skip it */
		}
		rc = check_flags(r, &c);
		if (rc)
			return rc;
		rc = start_records(r, &c);
		return rc ? rc : 1;
	}
}

/* --- samples ----------------------------------------------------------------------------------- */

static uint64_t get_max(struct tcur *c, uint64_t max)
{
	uint64_t v = get_varint(c);

	if (v > max)
		c->bad = 1;
	return v;
}

static int read_shape_literal(struct tcur *c, struct rshape *sh)
{
	struct trace_sample *t = &sh->tmpl;

	memset(sh, 0, sizeof(*sh));
	t->flags = (uint8_t)get_max(c, UINT8_MAX);
	sh->enc = (uint8_t)get_max(c, TRACE_ENC_KNOWN);
	t->event = (uint16_t)get_max(c, UINT16_MAX);
	t->cpumode = get_u8(c);
	t->detail = (uint16_t)get_max(c, UINT16_MAX);
	t->pid = get_u32v(c);
	t->tid = get_u32v(c);
	t->cpu = get_u32v(c);
	t->data_src = get_varint(c);
	if (sh->enc & TRACE_ENC_TD)
		t->td_nr = get_u8(c);
	if (t->td_nr > TRACE_TD_MAX ||
	    ((sh->enc & TRACE_ENC_PHYS_PRED) && !(sh->enc & TRACE_ENC_PHYS)))
		c->bad = 1;
	return c->bad ? -1 : 0;
}

/* Called through a copy of the cursor so that the caller's cursor never has its address taken
 * by an out-of-line call and can live in registers on the hot path. */
static int read_shape_literal_copy(struct tcur *c, struct rshape *sh)
{
	struct tcur t = *c;
	int rc = read_shape_literal(&t, sh);

	*c = t;
	return rc;
}

static const struct rshape *read_shape(struct trace_reader *r, struct tcur *c, uint8_t tag,
				       struct rshape *scratch)
{
	uint64_t v;

	if ((tag & 0x7f) != TRACE_TAG_SHAPE_ESC) {
		if ((tag & 0x7f) >= r->nr_shapes)
			return NULL;
		return &r->shapes[tag & 0x7f];
	}
	v = get_varint(c);
	if (v) {
		if (c->bad || v > r->nr_shapes || v + TRACE_SHAPE_INLINE - 1 >= r->nr_shapes)
			return NULL;
		return &r->shapes[v + TRACE_SHAPE_INLINE - 1];
	}
	if (read_shape_literal_copy(c, scratch))
		return NULL;
	if (r->nr_shapes < TRACE_SHAPE_MAX) {
		if (r->nr_shapes == r->cap_shapes)
			r->shapes = xgrow(r->shapes, &r->cap_shapes, r->nr_shapes + 1,
					  sizeof(*r->shapes));
		r->shapes[r->nr_shapes] = *scratch;
		return &r->shapes[r->nr_shapes++];
	}
	return scratch;
}

static struct rip *read_ip(struct trace_reader *r, struct tcur *c, uint64_t *ip)
{
	uint64_t v = get_varint(c);
	struct rip *e = NULL;

	if (v) {
		if (v > r->nr_ips) {
			c->bad = 1;
			return NULL;
		}
		e = &r->ips[v - 1];
		*ip = e->ip;
	} else {
		*ip = r->prev_ip + (uint64_t)unzigzag(get_varint(c));
		if (r->nr_ips < TRACE_IP_DICT_MAX) {
			if (r->nr_ips == r->cap_ips)
				r->ips = xgrow(r->ips, &r->cap_ips, r->nr_ips + 1, sizeof(*r->ips));
			e = &r->ips[r->nr_ips++];
			*e = (struct rip){ .ip = *ip, .last_line = -1 };
		}
	}
	r->prev_ip = *ip;
	return e;
}

static int read_addr(struct trace_reader *r, struct tcur *c, struct rip *e, uint64_t *addr)
{
	uint64_t v = get_varint(c), idx;
	int line;

	if (v == 1) {
		if (!e || !e->has_addr) {
			c->bad = 1;
			return -1;
		}
		*addr = e->last_addr;
		line = e->last_line;
	} else if (v >= 2) {
		idx = (v - 2) >> TRACE_LINE_SHIFT;
		if (idx >= r->nr_lines) {
			c->bad = 1;
			return -1;
		}
		*addr = r->lines[idx].line << TRACE_LINE_SHIFT | ((v - 2) & 63);
		line = (int)idx;
	} else {
		*addr = r->prev_addr + (uint64_t)unzigzag(get_varint(c));
		line = -1;
		if (r->nr_lines < TRACE_LINE_DICT_MAX) {
			if (r->nr_lines == r->cap_lines)
				r->lines = xgrow(r->lines, &r->cap_lines, r->nr_lines + 1,
						 sizeof(*r->lines));
			line = (int)r->nr_lines++;
			r->lines[line] = (struct rline){ .line = *addr >> TRACE_LINE_SHIFT };
		}
	}
	r->prev_addr = *addr;
	if (e) {
		e->last_addr = *addr;
		e->has_addr = 1;
		e->last_line = line;
	}
	return line;
}

static uint64_t read_phys(struct trace_reader *r, struct tcur *c, uint8_t enc, uint64_t addr,
			  int line)
{
	struct rline *le = line >= 0 ? &r->lines[line] : NULL;
	uint64_t ref = le && le->has_phys ? le->phys_delta : r->phys_ref, phys;

	if (enc & TRACE_ENC_PHYS_PRED) {
		if (!le || !le->has_phys)
			c->bad = 1;
		phys = addr + ref;
	} else {
		phys = addr + ref + (uint64_t)unzigzag(get_varint(c));
	}
	if (le) {
		le->phys_delta = phys - addr;
		le->has_phys = 1;
	}
	r->phys_ref = phys - addr;
	return phys;
}

/* Copy the shape's constants and the decoded fields into @s. Written field by field (not a
 * struct copy of the template) because stores to @s may alias the reader's state. */
static void fill_sample(struct trace_sample *s, const struct rshape *sh, const uint64_t v[5])
{
	const struct trace_sample *t = &sh->tmpl;

	s->time = v[0];
	s->ip = v[1];
	s->addr = v[2];
	s->phys_addr = v[3];
	s->weight = v[4];
	s->data_src = t->data_src;
	s->pid = t->pid;
	s->tid = t->tid;
	s->cpu = t->cpu;
	s->event = t->event;
	s->cpumode = t->cpumode;
	s->flags = t->flags;
	s->detail = t->detail;
	s->td_nr = t->td_nr;
	if (!(sh->enc & TRACE_ENC_TD)) {
		s->td_slots = 0;
		memset(s->td, 0, sizeof(s->td));
	}
}

static int read_sample(struct trace_reader *r, struct tcur *c, struct trace_sample *s)
{
	struct rshape scratch;
	const struct rshape *sh;
	uint8_t tag = *c->p++;

	sh = read_shape(r, c, tag, &scratch);
	uint64_t v[5] = { 0 };  /* time, ip, addr, phys, weight */
	struct rip *e;
	int line = -1;

	if (!sh)
		return -1;
	v[0] = r->prev_time + (uint64_t)unzigzag(get_varint(c));
	r->prev_time = v[0];
	e = read_ip(r, c, &v[1]);
	if (sh->enc & TRACE_ENC_ADDR)
		line = read_addr(r, c, e, &v[2]);
	if (sh->enc & TRACE_ENC_PHYS)
		v[3] = read_phys(r, c, sh->enc, v[2], line);
	if (sh->enc & TRACE_ENC_WEIGHT)
		v[4] = get_varint(c);
	fill_sample(s, sh, v);
	if (sh->enc & TRACE_ENC_TD) {
		memset(s->td, 0, sizeof(s->td));
		s->td_slots = get_varint(c);
		for (unsigned i = 0; i < s->td_nr; i++)
			s->td[i] = get_varint(c);
	}
	return c->bad ? -1 : 0;
}

/* --- access instructions (1.6) ----------------------------------------------------------------- */

/* An ACCESS record body, kept as deltas until its sample comes. 0, or -1 on bad data. */
static int read_access(struct trace_reader *r, struct tcur *c)
{
	uint64_t flags, nr;

	r->acc_ip = get_varint(c);
	flags = get_varint(c);
	nr = get_varint(c);
	if (c->bad || flags > UINT8_MAX || nr > TRACE_ALT_MAX)
		return -1;
	r->acc_flags = (uint8_t)flags;
	r->acc_nr = (uint8_t)nr;
	for (unsigned int i = 0; i < r->acc_nr; i++) {
		uint64_t d;

		r->acc_alt[i].ip = get_varint(c);
		r->acc_alt[i].addr = get_varint(c);
		d = get_varint(c);
		if (c->bad || d > UINT16_MAX)
			return -1;
		r->acc_alt[i].detail = (uint16_t)d;
	}
	return 0;
}

/* Give sample @s the pending ACCESS record, if any. */
static void attach_access(struct trace_reader *r, struct trace_sample *s)
{
	s->access_ip = 0;
	s->access_flags = s->nr_alt = 0;
	if (!r->have_access)
		return;
	s->access_ip = s->ip + (uint64_t)unzigzag(r->acc_ip);
	s->access_flags = r->acc_flags;
	s->nr_alt = r->acc_nr;
	for (unsigned int i = 0; i < r->acc_nr; i++) {
		s->alt[i].ip = s->ip + (uint64_t)unzigzag(r->acc_alt[i].ip);
		s->alt[i].addr = s->addr + (uint64_t)unzigzag(r->acc_alt[i].addr);
		s->alt_detail[i] = r->acc_alt[i].detail;
	}
	r->have_access = 0;
}

/* --- callchains ------------------------------------------------------------------------------- */

/* A CHAIN record body: the callchain of the sample that follows. 0, or -1 on bad data. */
static int read_chain(struct trace_reader *r, struct tcur *c)
{
	uint64_t ref = get_varint(c), nr, prev = 0;
	uint64_t *dst;
	int keep;

	if (c->bad)
		return -1;
	if (ref) {
		if (ref > r->nr_chains)
			return -1;
		r->pending = r->pool + r->chain_off[ref - 1];
		r->pending_nr = r->chain_nr[ref - 1];
		return 0;
	}
	nr = get_varint(c);
	/* each address takes at least one byte: a count beyond the body is corruption */
	if (c->bad || nr == 0 || nr > TRACE_CHAIN_MAX || nr > (uint64_t)(c->end - c->p))
		return -1;
	keep = r->nr_chains < TRACE_CHAIN_DICT_MAX && r->pool_len + nr <= TRACE_CHAIN_POOL_MAX;
	if (keep) {
		if (r->nr_chains == r->cap_chains) {
			size_t cap = r->cap_chains;

			r->chain_off = xgrow(r->chain_off, &cap, r->nr_chains + 1, sizeof(*r->chain_off));
			cap = r->cap_chains;
			r->chain_nr = xgrow(r->chain_nr, &cap, r->nr_chains + 1, sizeof(*r->chain_nr));
			r->cap_chains = (uint32_t)cap;
		}
		if (r->pool_len + nr > r->cap_pool) {
			size_t cap = r->cap_pool;

			r->pool = xgrow(r->pool, &cap, r->pool_len + nr, sizeof(*r->pool));
			r->cap_pool = (uint32_t)cap;
		}
		dst = r->pool + r->pool_len;
	} else {
		dst = r->lit;
	}
	for (uint64_t i = 0; i < nr; i++) {
		prev += (uint64_t)unzigzag(get_varint(c));
		dst[i] = prev;
	}
	if (c->bad)
		return -1;
	if (keep) {
		r->chain_off[r->nr_chains] = r->pool_len;
		r->chain_nr[r->nr_chains++] = (uint32_t)nr;
		r->pool_len += (uint32_t)nr;
	}
	r->pending = dst;
	r->pending_nr = (uint32_t)nr;
	return 0;
}

/* --- other records ----------------------------------------------------------------------------- */

static uint64_t get_time(struct trace_reader *r, struct tcur *c)
{
	r->prev_time += (uint64_t)unzigzag(get_varint(c));
	return r->prev_time;
}

static const char *get_rec_str(struct tcur *c)
{
	int absent;
	const char *s = get_str(c, &absent);

	return absent ? "" : s;
}

static void read_mmap(struct trace_reader *r, struct tcur *c, struct trace_mmap *m)
{
	const uint8_t *id;

	m->time = get_time(r, c);
	m->pid = get_u32v(c);
	m->tid = get_u32v(c);
	m->start = get_varint(c);
	m->len = get_varint(c);
	m->pgoff = get_varint(c);
	m->prot = get_u32v(c);
	m->flags = get_u32v(c);
	m->maj = get_u32v(c);
	m->min = get_u32v(c);
	m->ino = get_varint(c);
	m->ino_generation = get_varint(c);
	m->cpumode = get_u8(c);
	m->build_id_size = get_u8(c);
	memset(m->build_id, 0, sizeof(m->build_id));
	if (m->build_id_size > TRACE_BUILD_ID_MAX) {
		c->bad = 1;
		return;
	}
	id = get_bytes(c, m->build_id_size);
	if (id)
		memcpy(m->build_id, id, m->build_id_size);
	m->filename = get_rec_str(c);
}

static void read_comm(struct trace_reader *r, struct tcur *c, struct trace_comm *cm)
{
	cm->time = get_time(r, c);
	cm->pid = get_u32v(c);
	cm->tid = get_u32v(c);
	cm->exec = get_u8(c);
	cm->comm = get_rec_str(c);
}

static void read_task(struct trace_reader *r, struct tcur *c, struct trace_task *t)
{
	t->time = get_time(r, c);
	t->pid = get_u32v(c);
	t->ppid = get_u32v(c);
	t->tid = get_u32v(c);
	t->ptid = get_u32v(c);
	t->flags = c->p < c->end ? get_u32v(c) : 0;   /* 1.1 */
}

static void read_lost(struct trace_reader *r, struct tcur *c, struct trace_lost *l)
{
	l->time = get_time(r, c);
	l->kind = get_u32v(c);
	l->cpu = get_u32v(c);
	l->event = (uint16_t)get_max(c, UINT16_MAX);
	l->count = get_varint(c);
}

static void read_blob(struct trace_reader *r, struct tcur *c, struct trace_blob *b)
{
	b->time = get_time(r, c);
	b->kind = get_u32v(c);
	b->cpu = get_u32v(c);
	b->offset = get_varint(c);
	b->size = get_varint(c);
	b->data = get_bytes(c, b->size);
}

static void read_region(struct trace_reader *r, struct tcur *c, struct trace_region *g)
{
	g->time = get_time(r, c);
	g->pid = get_u32v(c);
	g->tid = get_u32v(c);
	g->kind = get_u32v(c);
	g->depth = get_u32v(c);
	g->name = get_rec_str(c);
}

static void read_aux(struct trace_reader *r, struct tcur *c, struct trace_aux *a)
{
	a->time = get_time(r, c);
	a->cpu = get_u32v(c);
	a->pid = get_u32v(c);
	a->tid = get_u32v(c);
	a->offset = get_varint(c);
	a->size = get_varint(c);
	a->flags = get_varint(c);
}

static void read_itrace(struct trace_reader *r, struct tcur *c, struct trace_itrace_start *t)
{
	t->time = get_time(r, c);
	t->cpu = get_u32v(c);
	t->pid = get_u32v(c);
	t->tid = get_u32v(c);
}

static void read_switch(struct trace_reader *r, struct tcur *c, struct trace_switch *sw)
{
	sw->time = get_time(r, c);
	sw->cpu = get_u32v(c);
	sw->pid = get_u32v(c);
	sw->tid = get_u32v(c);
	sw->flags = get_u32v(c);
	sw->next_prev_pid = get_u32v(c);
	sw->next_prev_tid = get_u32v(c);
}

/* Decode one length-prefixed record. Returns 1 when *ev was filled, 0 for a skipped record of an
 * unknown type, -1 on bad data. */
static int read_other(struct trace_reader *r, struct tcur *c, struct trace_event *ev)
{
	uint8_t type = *c->p++;
	uint64_t len = get_varint(c);
	const uint8_t *body = get_bytes(c, len);
	struct tcur b = { body, body ? body + len : NULL, body == NULL };

	if (c->bad || type == 0 || type == TRACE_REC_SAMPLE)
		return -1;
	if (type == TRACE_TAG_CHAIN) {
		if (r->have_pending || read_chain(r, &b))
			return -1;
		r->have_pending = 1;
		return 0;
	}
	if (type == TRACE_TAG_TASK) {
		if (r->have_task || r->have_access || r->have_pending)
			return -1;   /* it comes first, once */
		r->task = r->prev_task + (uint64_t)unzigzag(get_varint(&b));
		if (b.bad || !r->task)
			return -1;
		r->prev_task = r->task;
		r->have_task = 1;
		return 0;
	}
	if (type == TRACE_TAG_ACCESS) {
		if (r->have_access || read_access(r, &b))
			return -1;
		r->have_access = 1;
		return 0;
	}
	if (r->have_pending || r->have_access || r->have_task)
		return -1;   /* a CHAIN, ACCESS or TASK record must be followed by its sample */
	ev->type = (enum trace_rec_type)type;
	switch (type) {
	case TRACE_REC_MMAP: read_mmap(r, &b, &ev->mmap); break;
	case TRACE_REC_COMM: read_comm(r, &b, &ev->comm); break;
	case TRACE_REC_FORK:
	case TRACE_REC_EXIT: read_task(r, &b, &ev->task); break;
	case TRACE_REC_LOST: read_lost(r, &b, &ev->lost); break;
	case TRACE_REC_BLOB: read_blob(r, &b, &ev->blob); break;
	case TRACE_REC_REGION: read_region(r, &b, &ev->region); break;
	case TRACE_REC_AUX: read_aux(r, &b, &ev->aux); break;
	case TRACE_REC_ITRACE_START: read_itrace(r, &b, &ev->itrace); break;
	case TRACE_REC_SWITCH: read_switch(r, &b, &ev->sw); break;
	default: return 0;
	}
	return b.bad ? -1 : 1;
}

static int record_error(struct trace_reader *r, const uint8_t *rec)
{
	size_t pos = (size_t)(rec - r->start);

	if (r->compressed) {
		c2c_log(C2C_LOG_ERROR, "trace '%s' is corrupt: bad record at byte %zu of the "
			"decompressed payload of the chunk at offset %llu", r->name, pos,
			(unsigned long long)r->chunk_off);
		return fail(r, -EBADMSG);
	}
	return bad(r, r->chunk_off + TRACE_CHUNK_HEADER_SIZE + pos, "bad record");
}

int trace_reader_next(struct trace_reader *r, struct trace_event *ev)
{
	for (;;) {
		struct tcur c;
		const uint8_t *rec;
		int rc;

		if (r->err)
			return r->err;
		while (r->left == 0) {
			if (r->p != r->end || r->have_pending || r->have_access || r->have_task)
				return record_error(r, r->p);
			rc = next_chunk(r);
			if (rc <= 0)
				return rc;
		}
		if (r->p >= r->end)
			return record_error(r, r->p);
		c = (struct tcur){ r->p, r->end, 0 };
		rec = r->p;
		if (*rec & TRACE_TAG_SAMPLE) {
			ev->type = TRACE_REC_SAMPLE;
			rc = read_sample(r, &c, &ev->sample) ? -1 : 1;
			ev->sample.chain_nr = r->have_pending ? r->pending_nr : 0;
			ev->sample.chain = r->have_pending ? r->pending : NULL;
			attach_access(r, &ev->sample);
			ev->sample.task = r->have_task ? r->task : 0;
			r->have_task = 0;
			ev->sample.regs_mask = ev->sample.stack_size = 0;   /* never in a trace */
			ev->sample.regs = NULL;
			ev->sample.stack = NULL;
			r->have_pending = 0;
		} else {
			rc = read_other(r, &c, ev);
		}
		if (rc < 0)
			return record_error(r, rec);
		r->p = c.p;
		r->left--;
		if (rc)
			return 1;
	}
}

/* --- open -------------------------------------------------------------------------------------- */

static int check_file_header(struct trace_reader *r, const uint8_t *h, size_t n)
{
	uint16_t major = le16_load(h + 8), minor = le16_load(h + 10);
	uint32_t flags = le32_load(h + 12);

	if (n < 8 || memcmp(h, TRACE_MAGIC, 8))
		return c2c_err(-EBADMSG, "'%s' is not a c2c-lite trace (bad magic)", r->name);
	if (n < TRACE_FILE_HEADER_SIZE)
		return c2c_err(-EBADMSG, "trace '%s' is truncated inside its file header", r->name);
	if (major != TRACE_VERSION_MAJOR)
		return c2c_err(-ENOTSUP, "trace '%s' has format version %u.%u; this c2c-lite reads "
			       "version %u.x", r->name, major, minor, TRACE_VERSION_MAJOR);
	if (flags & TRACE_HDR_REQUIRED_MASK)
		return c2c_err(-ENOTSUP, "trace '%s' requires features 0x%x unknown to this "
			       "c2c-lite", r->name, flags & TRACE_HDR_REQUIRED_MASK);
	r->info.version_major = major;
	r->info.version_minor = minor;
	return 0;
}

static int read_info(struct trace_reader *r)
{
	struct chunk c;
	uint16_t major = r->info.version_major, minor = r->info.version_minor;
	int rc = read_chunk(r, &c);

	if (rc == 0)
		return c2c_err(fail(r, -EBADMSG), "trace '%s' is truncated: its header chunk is "
			       "incomplete", r->name);
	if (rc < 0)
		return rc;
	if (c.kind != TRACE_CHUNK_INFO)
		return bad(r, c.off, "the first chunk is not the header chunk");
	if (trace_info_decode(&r->info, c.payload, c.len))
		return bad(r, c.off, "malformed header chunk");
	r->info.version_major = major;
	r->info.version_minor = minor;
	r->have_info = 1;
	return 0;
}

static int reader_start(struct trace_reader *r)
{
	uint8_t hbuf[TRACE_FILE_HEADER_SIZE] = { 0 };
	const uint8_t *h;
	ssize_t n = fetch(r, sizeof(hbuf), hbuf, &h);
	int err;

	if (n < 0)
		return (int)n;
	if (n < TRACE_FILE_HEADER_SIZE) {
		if (n > 0 && h != hbuf)
			memcpy(hbuf, h, n);
		h = hbuf;
	}
	err = check_file_header(r, h, (size_t)n);
	if (err)
		return err;
	return read_info(r);
}

static struct trace_reader *reader_new(const char *name, int fd)
{
	struct trace_reader *r = xcalloc(1, sizeof(*r));

	r->name = xstrdup(name ? name : "(memory)");
	r->fd = fd;
	r->size = UINT64_MAX;
	return r;
}

int trace_reader_open(struct trace_reader **out, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct trace_reader *r;
	struct stat st;
	int err;

	if (fd < 0)
		return c2c_err(-errno, "cannot open trace '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return c2c_err(-EISDIR, "'%s' is a directory, not a trace", path);
	}
	r = reader_new(path, fd);
	r->own_fd = 1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		r->size = (uint64_t)st.st_size;
		/* read front to back: a larger readahead window (a hint; failure costs nothing) */
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	err = reader_start(r);
	if (err) {
		trace_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

int trace_reader_fdopen(struct trace_reader **out, int fd, const char *name)
{
	struct trace_reader *r = reader_new(name, fd);
	struct stat st;
	off_t pos;
	int err;

	/* a regular file read from where it stands: its size bounds the chunks as for a path */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (pos = lseek(fd, 0, SEEK_CUR)) >= 0 &&
	    pos <= st.st_size)
		r->size = (uint64_t)(st.st_size - pos);
	err = reader_start(r);
	if (err) {
		trace_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

int trace_reader_open_mem(struct trace_reader **out, const void *buf, size_t len, const char *name)
{
	struct trace_reader *r = reader_new(name, -1);
	int err;

	r->mem = buf ? buf : "";
	r->mem_len = buf ? len : 0;
	r->size = r->mem_len;
	err = reader_start(r);
	if (err) {
		trace_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

const struct trace_info *trace_reader_info(const struct trace_reader *r)
{
	return &r->info;
}

int trace_reader_truncated(const struct trace_reader *r)
{
	return r->truncated;
}

void trace_reader_free(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0 && r->own_fd)
		close(r->fd);
	trace_info_release(&r->info);
	ZSTD_freeDCtx(r->zd);
	free(r->buf);
	free(r->zbuf);
	free(r->ips);
	free(r->lines);
	free(r->shapes);
	free(r->chain_off);
	free(r->chain_nr);
	free(r->pool);
	free(r->name);
	free(r);
}
