/* The trace writer: encodes records into a chunk buffer and writes each chunk whole with one
 * write loop. Per-chunk state (dictionaries of sample shapes, code addresses and data
 * cachelines, delta bases) starts fresh at every chunk, so a chunk decodes without its
 * predecessors; docs/trace-format.md specifies the bytes. After the first failed write every call
 * returns that error, and the file keeps only whole chunks (a regular file opened by
 * trace_writer_open is cut back to the end of the last complete chunk). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "lib/trace_codec.h"

#define DEFAULT_CHUNK_BYTES  (256u << 10)
#define DICT_HASH_BITS       15          /* 32768 slots for 16384 entries */
#define SHAPE_HASH_BITS      13

struct wslot {
	uint64_t key;
	uint32_t idx, gen;
};

struct ip_ent {
	uint64_t last_addr;
	int32_t last_line;
	uint32_t has_addr;
};

struct line_ent {
	uint64_t phys_delta;
	uint32_t has_phys;
};

/* The per-sample constants a shape stands for. Zeroed before filling: compared with memcmp. */
struct shape_key {
	uint64_t data_src;
	uint32_t pid, tid, cpu;
	uint16_t event, detail;
	uint8_t flags, enc, cpumode, td_nr;
};

/* A chain table entry: its addresses are pool[off, off + nr). */
struct chain_ent {
	uint32_t off, nr;
};

struct trace_writer {
	int fd, own_fd, can_truncate, err;
	char *name;
	struct trace_writer_opts opts;
	struct tbuf raw;              /* chunk header space + payload */
	struct tbuf z;                /* chunk header space + raw length + zstd frame */
	struct tbuf tmp;              /* body of one non-sample record */
	ZSTD_CCtx *zc;
	uint32_t nrec;                /* records in the pending chunk */
	uint64_t bytes, records, good_off;
	/* per-chunk encoder state */
	uint32_t gen;
	uint64_t prev_time, prev_ip, prev_addr, phys_ref, prev_task;
	uint32_t nr_ips, nr_lines, nr_shapes;
	struct wslot *ip_hash, *line_hash, *shape_hash;
	struct ip_ent *ips;
	struct line_ent *lines;
	struct shape_key *shapes;
	/* per-chunk chain table (CHAIN records) */
	uint32_t nr_chains, pool_len;
	uint64_t chain_recs;          /* CHAIN and ACCESS records written: not records the caller
				       * gave */
	struct wslot *chain_hash;
	struct chain_ent *chains;
	uint64_t *pool;
};

void tbuf_reserve(struct tbuf *b, size_t more)
{
	if (b->cap - b->len >= more)
		return;
	b->p = xgrow(b->p, &b->cap, b->len + more, 1);
}

/* --- dictionaries ---------------------------------------------------------------------------- */

static inline uint32_t hash64(uint64_t k, unsigned bits)
{
	return (uint32_t)((k * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

/* Find @key; on a miss insert it as entry *nr when *nr < @max. Returns the entry index, or -1
 * when absent; *hit says whether it was there before. */
static int dict_lookup(struct wslot *tab, uint32_t gen, uint64_t key, uint32_t *nr, uint32_t max,
		       int *hit)
{
	uint32_t mask = (1u << DICT_HASH_BITS) - 1, i = hash64(key, DICT_HASH_BITS);

	for (;; i = (i + 1) & mask) {
		struct wslot *s = &tab[i];

		if (s->gen != gen) {
			*hit = 0;
			if (*nr >= max)
				return -1;
			s->gen = gen;
			s->key = key;
			s->idx = (*nr)++;
			return (int)s->idx;
		}
		if (s->key == key) {
			*hit = 1;
			return (int)s->idx;
		}
	}
}

static uint64_t shape_hash(const struct shape_key *k)
{
	uint64_t h = k->data_src * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)k->pid << 32 | k->tid) * 0xc2b2ae3d27d4eb4full;
	h ^= ((uint64_t)k->cpu << 32 | (uint32_t)k->event << 16 | k->detail) * 0x165667b19e3779f9ull;
	h ^= ((uint64_t)k->flags << 24 | k->enc << 16 | k->cpumode << 8 | k->td_nr) * 0x27d4eb2f165667c5ull;
	return h ^ h >> 29;
}

static int shape_lookup(struct trace_writer *w, const struct shape_key *k, int *hit)
{
	uint32_t mask = (1u << SHAPE_HASH_BITS) - 1, i = hash64(shape_hash(k), SHAPE_HASH_BITS);

	for (;; i = (i + 1) & mask) {
		struct wslot *s = &w->shape_hash[i];

		if (s->gen != w->gen) {
			*hit = 0;
			if (w->nr_shapes >= TRACE_SHAPE_MAX)
				return -1;
			s->gen = w->gen;
			s->idx = w->nr_shapes++;
			w->shapes[s->idx] = *k;
			return (int)s->idx;
		}
		if (!memcmp(&w->shapes[s->idx], k, sizeof(*k))) {
			*hit = 1;
			return (int)s->idx;
		}
	}
}

static void reset_chunk_state(struct trace_writer *w)
{
	if (++w->gen == 0) {
		memset(w->ip_hash, 0, sizeof(*w->ip_hash) << DICT_HASH_BITS);
		memset(w->line_hash, 0, sizeof(*w->line_hash) << DICT_HASH_BITS);
		memset(w->shape_hash, 0, sizeof(*w->shape_hash) << SHAPE_HASH_BITS);
		if (w->chain_hash)
			memset(w->chain_hash, 0, sizeof(*w->chain_hash) << DICT_HASH_BITS);
		w->gen = 1;
	}
	w->prev_time = w->prev_ip = w->prev_addr = w->phys_ref = w->prev_task = 0;
	w->nr_ips = w->nr_lines = w->nr_shapes = 0;
	w->nr_chains = w->pool_len = 0;
	w->nrec = 0;
	w->raw.len = TRACE_CHUNK_HEADER_SIZE;
}

/* --- chunk output ---------------------------------------------------------------------------- */

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		p += r;
		n -= r;
	}
	return 0;
}

/* Remember the first write error, cut a file we created back to its last whole chunk, and say
 * so in one line. */
static int fail(struct trace_writer *w, int err)
{
	w->err = err;
	if (w->can_truncate && ftruncate(w->fd, (off_t)w->good_off) == 0)
		c2c_log(C2C_LOG_ERROR, "cannot write trace '%s': %s; it keeps its first %llu bytes "
			"(whole chunks)", w->name, strerror(-err), (unsigned long long)w->good_off);
	else
		c2c_log(C2C_LOG_ERROR, "cannot write trace '%s': %s", w->name, strerror(-err));
	return err;
}

static void fill_chunk_header(uint8_t *h, uint32_t kind, uint32_t len, uint32_t nrec)
{
	uint32_t crc;

	memcpy(h, TRACE_CHUNK_MAGIC, 4);
	le32_store(h + 4, kind);
	le32_store(h + 8, len);
	crc = crc32(0, h + 4, 8);
	crc = crc32(crc, h + TRACE_CHUNK_HEADER_SIZE, len);
	le32_store(h + 12, crc);
	le32_store(h + 16, nrec);
	le32_store(h + 20, crc32(0, h, 20));
}

/* Write the chunk whose payload sits in @b after TRACE_CHUNK_HEADER_SIZE reserved bytes. */
static int emit_chunk(struct trace_writer *w, struct tbuf *b, uint32_t kind, uint32_t nrec)
{
	size_t len = b->len - TRACE_CHUNK_HEADER_SIZE;
	int err;

	fill_chunk_header(b->p, kind, (uint32_t)len, nrec);
	err = write_all(w->fd, b->p, b->len);
	if (err)
		return fail(w, err);
	if (w->opts.fsync && fsync(w->fd) && errno != EINVAL && errno != EROFS)
		return fail(w, -errno);
	w->bytes += b->len;
	w->good_off += b->len;
	return 0;
}

/* Compress the pending payload into w->z; returns 1 when that is smaller, else 0. */
static int compress_chunk(struct trace_writer *w)
{
	size_t len = w->raw.len - TRACE_CHUNK_HEADER_SIZE;
	size_t bound = ZSTD_compressBound(len), n;

	w->z.len = 0;
	tbuf_reserve(&w->z, TRACE_CHUNK_HEADER_SIZE + 4 + bound);
	n = ZSTD_compressCCtx(w->zc, w->z.p + TRACE_CHUNK_HEADER_SIZE + 4, bound,
			      w->raw.p + TRACE_CHUNK_HEADER_SIZE, len, w->opts.zstd_level);
	if (ZSTD_isError(n) || n + 4 >= len)
		return 0;
	le32_store(w->z.p + TRACE_CHUNK_HEADER_SIZE, (uint32_t)len);
	w->z.len = TRACE_CHUNK_HEADER_SIZE + 4 + n;
	return 1;
}

int trace_writer_flush(struct trace_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	if (w->nrec == 0)
		return 0;
	if (w->zc && compress_chunk(w))
		err = emit_chunk(w, &w->z, TRACE_CHUNK_RECORDS | TRACE_CHUNK_F_ZSTD, w->nrec);
	else
		err = emit_chunk(w, &w->raw, TRACE_CHUNK_RECORDS, w->nrec);
	reset_chunk_state(w);
	return err;
}

/* --- samples ----------------------------------------------------------------------------------- */

struct sample_code {
	uint64_t ipv, ip_lit, addrv, addr_lit, phys_lit;
	struct shape_key k;
	int shape, shape_hit;
};

static void code_ip(struct trace_writer *w, uint64_t ip, struct sample_code *sc, struct ip_ent **ent)
{
	int hit, i = dict_lookup(w->ip_hash, w->gen, ip, &w->nr_ips, TRACE_IP_DICT_MAX, &hit);

	*ent = i >= 0 ? &w->ips[i] : NULL;
	if (hit) {
		sc->ipv = (uint64_t)i + 1;
	} else {
		sc->ipv = 0;
		sc->ip_lit = zigzag((int64_t)(ip - w->prev_ip));
		if (*ent)
			**ent = (struct ip_ent){ .last_line = -1 };
	}
	w->prev_ip = ip;
}

/* Returns the line dictionary index of @addr, or -1. */
static int code_addr(struct trace_writer *w, uint64_t addr, struct sample_code *sc,
		     struct ip_ent *ent)
{
	int hit, line;

	if (ent && ent->has_addr && ent->last_addr == addr) {
		sc->addrv = 1;
		line = ent->last_line;
	} else {
		line = dict_lookup(w->line_hash, w->gen, addr >> TRACE_LINE_SHIFT, &w->nr_lines,
				   TRACE_LINE_DICT_MAX, &hit);
		if (hit) {
			sc->addrv = 2 + ((uint64_t)line << TRACE_LINE_SHIFT | (addr & 63));
		} else {
			sc->addrv = 0;
			sc->addr_lit = zigzag((int64_t)(addr - w->prev_addr));
			if (line >= 0)
				w->lines[line] = (struct line_ent){ 0 };
		}
	}
	w->prev_addr = addr;
	if (ent) {
		ent->last_addr = addr;
		ent->has_addr = 1;
		ent->last_line = line;
	}
	return line;
}

static void code_phys(struct trace_writer *w, uint64_t addr, uint64_t phys, int line,
		      struct sample_code *sc)
{
	struct line_ent *le = line >= 0 ? &w->lines[line] : NULL;
	uint64_t ref = le && le->has_phys ? le->phys_delta : w->phys_ref;

	if (le && le->has_phys && phys == addr + ref)
		sc->k.enc |= TRACE_ENC_PHYS_PRED;
	else
		sc->phys_lit = zigzag((int64_t)(phys - addr - ref));
	if (le) {
		le->phys_delta = phys - addr;
		le->has_phys = 1;
	}
	w->phys_ref = phys - addr;
}

static void fill_shape_key(struct shape_key *k, const struct trace_sample *s)
{
	memset(k, 0, sizeof(*k));
	k->data_src = s->data_src;
	k->pid = s->pid;
	k->tid = s->tid;
	k->cpu = s->cpu;
	k->event = s->event;
	k->detail = s->detail;
	k->flags = s->flags;
	k->cpumode = s->cpumode;
	if ((s->flags & TRACE_SAMPLE_HAS_ADDR) || s->addr)
		k->enc |= TRACE_ENC_ADDR;
	if ((s->flags & TRACE_SAMPLE_HAS_PHYS) || s->phys_addr)
		k->enc |= TRACE_ENC_PHYS;
	if ((s->flags & TRACE_SAMPLE_HAS_WEIGHT) || s->weight)
		k->enc |= TRACE_ENC_WEIGHT;
	if ((s->flags & TRACE_SAMPLE_TOPDOWN) || s->td_nr || s->td_slots) {
		k->enc |= TRACE_ENC_TD;
		k->td_nr = s->td_nr;
	}
}

static void put_shape_literal(struct tbuf *b, const struct shape_key *k)
{
	put_varint(b, k->flags);
	put_varint(b, k->enc);
	put_varint(b, k->event);
	put_u8(b, k->cpumode);
	put_varint(b, k->detail);
	put_varint(b, k->pid);
	put_varint(b, k->tid);
	put_varint(b, k->cpu);
	put_varint(b, k->data_src);
	if (k->enc & TRACE_ENC_TD)
		put_u8(b, k->td_nr);
}

static void put_tag(struct trace_writer *w, const struct sample_code *sc)
{
	struct tbuf *b = &w->raw;

	if (sc->shape_hit && sc->shape < TRACE_SHAPE_INLINE) {
		put_u8(b, TRACE_TAG_SAMPLE | sc->shape);
		return;
	}
	put_u8(b, TRACE_TAG_SAMPLE | TRACE_TAG_SHAPE_ESC);
	if (sc->shape_hit) {
		put_varint(b, (uint64_t)sc->shape - TRACE_SHAPE_INLINE + 1);
		return;
	}
	put_varint(b, 0);
	put_shape_literal(b, &sc->k);
}

static void put_sample(struct trace_writer *w, const struct trace_sample *s,
		       const struct sample_code *sc)
{
	struct tbuf *b = &w->raw;

	put_tag(w, sc);
	put_varint(b, zigzag((int64_t)(s->time - w->prev_time)));
	w->prev_time = s->time;
	put_varint(b, sc->ipv);
	if (!sc->ipv)
		put_varint(b, sc->ip_lit);
	if (sc->k.enc & TRACE_ENC_ADDR) {
		put_varint(b, sc->addrv);
		if (!sc->addrv)
			put_varint(b, sc->addr_lit);
	}
	if ((sc->k.enc & (TRACE_ENC_PHYS | TRACE_ENC_PHYS_PRED)) == TRACE_ENC_PHYS)
		put_varint(b, sc->phys_lit);
	if (sc->k.enc & TRACE_ENC_WEIGHT)
		put_varint(b, s->weight);
	if (sc->k.enc & TRACE_ENC_TD) {
		put_varint(b, s->td_slots);
		for (unsigned i = 0; i < s->td_nr; i++)
			put_varint(b, s->td[i]);
	}
}

static int encode_sample(struct trace_writer *w, const struct trace_sample *s)
{
	struct sample_code sc;
	struct ip_ent *ent;
	int line = -1;

	if (s->td_nr > TRACE_TD_MAX)
		return c2c_err(-EINVAL, "trace '%s': sample with %u TopDown values (at most %u)",
			       w->name, s->td_nr, TRACE_TD_MAX);
	fill_shape_key(&sc.k, s);
	code_ip(w, s->ip, &sc, &ent);
	if (sc.k.enc & TRACE_ENC_ADDR)
		line = code_addr(w, s->addr, &sc, ent);
	if (sc.k.enc & TRACE_ENC_PHYS)
		code_phys(w, (sc.k.enc & TRACE_ENC_ADDR) ? s->addr : 0, s->phys_addr, line, &sc);
	sc.shape = shape_lookup(w, &sc.k, &sc.shape_hit);
	/* tag + shape literal (<= 62) + time, ip, addr, phys, weight, slots, td: 16 varints */
	tbuf_reserve(&w->raw, 1 + 62 + 16 * 10);
	put_sample(w, s, &sc);
	return 0;
}

static void put_v(struct tbuf *b, uint64_t v);

/* --- callchains ------------------------------------------------------------------------------ */

static uint64_t chain_hash(const uint64_t *ip, uint32_t nr)
{
	uint64_t h = nr;

	for (uint32_t i = 0; i < nr; i++)
		h = (h ^ ip[i]) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 31;
}

/* The chain table index of @ip[0..nr), appending it when it is new and fits (*hit says whether
 * it was there); -1 when it is neither there nor added. */
static int chain_lookup(struct trace_writer *w, const uint64_t *ip, uint32_t nr, int *hit)
{
	uint32_t mask = (1u << DICT_HASH_BITS) - 1;
	uint64_t h = chain_hash(ip, nr);
	uint32_t i = hash64(h, DICT_HASH_BITS);

	*hit = 0;
	for (;; i = (i + 1) & mask) {
		struct wslot *s = &w->chain_hash[i];
		const struct chain_ent *e;

		if (s->gen != w->gen) {
			if (w->nr_chains >= TRACE_CHAIN_DICT_MAX || w->pool_len + nr > TRACE_CHAIN_POOL_MAX)
				return -1;
			s->gen = w->gen;
			s->key = h;
			s->idx = w->nr_chains++;
			w->chains[s->idx] = (struct chain_ent){ w->pool_len, nr };
			memcpy(w->pool + w->pool_len, ip, nr * sizeof(*ip));
			w->pool_len += nr;
			return (int)s->idx;
		}
		e = &w->chains[s->idx];
		if (s->key == h && e->nr == nr && !memcmp(w->pool + e->off, ip, nr * sizeof(*ip))) {
			*hit = 1;
			return (int)s->idx;
		}
	}
}

/* Append w->tmp as the body of a record of @tag that belongs to the sample after it (CHAIN,
 * ACCESS): it counts in the chunk, not among the records the caller gave. */
static int put_sample_aux(struct trace_writer *w, uint8_t tag)
{
	tbuf_reserve(&w->raw, 11 + w->tmp.len);
	put_u8(&w->raw, tag);
	put_varint(&w->raw, w->tmp.len);
	put_bytes(&w->raw, w->tmp.p, w->tmp.len);
	w->nrec++;
	w->records++;
	w->chain_recs++;
	return 0;
}

/* The CHAIN record before a sample that has a callchain (docs/trace-format.md 6). */
static int encode_chain(struct trace_writer *w, const struct trace_sample *s)
{
	uint64_t prev = 0;
	int hit, k;

	if (s->chain_nr > TRACE_CHAIN_MAX || !s->chain)
		return c2c_err(-EINVAL, "trace '%s': callchain of %u entries (at most %u)", w->name,
			       s->chain_nr, TRACE_CHAIN_MAX);
	if (!w->pool) {   /* the chain table is allocated by the first callchain */
		w->chain_hash = xcalloc(1u << DICT_HASH_BITS, sizeof(*w->chain_hash));
		w->chains = xcalloc(TRACE_CHAIN_DICT_MAX, sizeof(*w->chains));
		w->pool = xcalloc(TRACE_CHAIN_POOL_MAX, sizeof(*w->pool));
	}
	k = chain_lookup(w, s->chain, s->chain_nr, &hit);
	w->tmp.len = 0;
	if (hit) {
		put_v(&w->tmp, (uint64_t)k + 1);
	} else {
		put_v(&w->tmp, 0);
		put_v(&w->tmp, s->chain_nr);
		for (uint32_t i = 0; i < s->chain_nr; i++) {
			put_v(&w->tmp, zigzag((int64_t)(s->chain[i] - prev)));
			prev = s->chain[i];
		}
	}
	return put_sample_aux(w, TRACE_TAG_CHAIN);
}

/* The ACCESS record before a soft sample whose access instruction is not its ip, or that was
 * inferred (docs/trace-format.md 6). */
static int encode_access(struct trace_writer *w, const struct trace_sample *s)
{
	if (s->nr_alt > TRACE_ALT_MAX)
		return c2c_err(-EINVAL, "trace '%s': %u other candidate accesses (at most %u)", w->name,
			       s->nr_alt, TRACE_ALT_MAX);
	w->tmp.len = 0;
	put_v(&w->tmp, zigzag((int64_t)(s->access_ip - s->ip)));
	put_v(&w->tmp, s->access_flags);
	put_v(&w->tmp, s->nr_alt);
	for (unsigned int i = 0; i < s->nr_alt; i++) {
		put_v(&w->tmp, zigzag((int64_t)(s->alt[i].ip - s->ip)));
		put_v(&w->tmp, zigzag((int64_t)(s->alt[i].addr - s->addr)));
		put_v(&w->tmp, s->alt_detail[i]);
	}
	return put_sample_aux(w, TRACE_TAG_ACCESS);
}

/* The TASK record before a sample that ran a known task (docs/trace-format.md 6). */
static int encode_task(struct trace_writer *w, const struct trace_sample *s)
{
	w->tmp.len = 0;
	put_v(&w->tmp, zigzag((int64_t)(s->task - w->prev_task)));
	w->prev_task = s->task;
	return put_sample_aux(w, TRACE_TAG_TASK);
}

/* --- other records ----------------------------------------------------------------------------- */

static void put_v(struct tbuf *b, uint64_t v)
{
	tbuf_reserve(b, 10);
	put_varint(b, v);
}

static void put_time(struct trace_writer *w, struct tbuf *b, uint64_t t)
{
	put_v(b, zigzag((int64_t)(t - w->prev_time)));
	w->prev_time = t;
}

static int body_mmap(struct trace_writer *w, struct tbuf *b, const struct trace_mmap *m)
{
	if (m->build_id_size > TRACE_BUILD_ID_MAX)
		return c2c_err(-EINVAL, "trace '%s': build-id of %u bytes (at most %u)", w->name,
			       m->build_id_size, TRACE_BUILD_ID_MAX);
	put_time(w, b, m->time);
	put_v(b, m->pid);
	put_v(b, m->tid);
	put_v(b, m->start);
	put_v(b, m->len);
	put_v(b, m->pgoff);
	put_v(b, m->prot);
	put_v(b, m->flags);
	put_v(b, m->maj);
	put_v(b, m->min);
	put_v(b, m->ino);
	put_v(b, m->ino_generation);
	tbuf_reserve(b, 2);
	put_u8(b, m->cpumode);
	put_u8(b, m->build_id_size);
	put_bytes(b, m->build_id, m->build_id_size);
	put_str(b, m->filename ? m->filename : "");
	return 0;
}

static void body_comm(struct trace_writer *w, struct tbuf *b, const struct trace_comm *c)
{
	put_time(w, b, c->time);
	put_v(b, c->pid);
	put_v(b, c->tid);
	tbuf_reserve(b, 1);
	put_u8(b, c->exec);
	put_str(b, c->comm ? c->comm : "");
}

static void body_task(struct trace_writer *w, struct tbuf *b, const struct trace_task *t)
{
	put_time(w, b, t->time);
	put_v(b, t->pid);
	put_v(b, t->ppid);
	put_v(b, t->tid);
	put_v(b, t->ptid);
	if (t->flags)   /* 1.1: only when set, so 1.0 readers see 1.0 bodies otherwise */
		put_v(b, t->flags);
}

static void body_lost(struct trace_writer *w, struct tbuf *b, const struct trace_lost *l)
{
	put_time(w, b, l->time);
	put_v(b, l->kind);
	put_v(b, l->cpu);
	put_v(b, l->event);
	put_v(b, l->count);
}

static int body_blob(struct trace_writer *w, struct tbuf *b, const struct trace_blob *bl)
{
	if (bl->size > TRACE_CHUNK_MAX - 64 || (bl->size && !bl->data))
		return c2c_err(-EINVAL, "trace '%s': blob of %llu bytes (at most %u, data required)",
			       w->name, (unsigned long long)bl->size, TRACE_CHUNK_MAX - 64);
	put_time(w, b, bl->time);
	put_v(b, bl->kind);
	put_v(b, bl->cpu);
	put_v(b, bl->offset);
	put_v(b, bl->size);
	put_bytes(b, bl->data, bl->size);
	return 0;
}

static void body_region(struct trace_writer *w, struct tbuf *b, const struct trace_region *r)
{
	put_time(w, b, r->time);
	put_v(b, r->pid);
	put_v(b, r->tid);
	put_v(b, r->kind);
	put_v(b, r->depth);
	put_str(b, r->name ? r->name : "");
}

static void body_aux(struct trace_writer *w, struct tbuf *b, const struct trace_aux *a)
{
	put_time(w, b, a->time);
	put_v(b, a->cpu);
	put_v(b, a->pid);
	put_v(b, a->tid);
	put_v(b, a->offset);
	put_v(b, a->size);
	put_v(b, a->flags);
}

static void body_itrace(struct trace_writer *w, struct tbuf *b, const struct trace_itrace_start *t)
{
	put_time(w, b, t->time);
	put_v(b, t->cpu);
	put_v(b, t->pid);
	put_v(b, t->tid);
}

static void body_switch(struct trace_writer *w, struct tbuf *b, const struct trace_switch *sw)
{
	put_time(w, b, sw->time);
	put_v(b, sw->cpu);
	put_v(b, sw->pid);
	put_v(b, sw->tid);
	put_v(b, sw->flags);
	put_v(b, sw->next_prev_pid);
	put_v(b, sw->next_prev_tid);
}

static int encode_body(struct trace_writer *w, struct tbuf *b, const struct trace_event *ev)
{
	switch (ev->type) {
	case TRACE_REC_MMAP:
		return body_mmap(w, b, &ev->mmap);
	case TRACE_REC_COMM:
		body_comm(w, b, &ev->comm);
		return 0;
	case TRACE_REC_FORK:
	case TRACE_REC_EXIT:
		body_task(w, b, &ev->task);
		return 0;
	case TRACE_REC_LOST:
		body_lost(w, b, &ev->lost);
		return 0;
	case TRACE_REC_BLOB:
		return body_blob(w, b, &ev->blob);
	case TRACE_REC_REGION:
		body_region(w, b, &ev->region);
		return 0;
	case TRACE_REC_AUX:
		body_aux(w, b, &ev->aux);
		return 0;
	case TRACE_REC_ITRACE_START:
		body_itrace(w, b, &ev->itrace);
		return 0;
	case TRACE_REC_SWITCH:
		body_switch(w, b, &ev->sw);
		return 0;
	default:
		return c2c_err(-EINVAL, "trace '%s': unknown record type %d", w->name, (int)ev->type);
	}
}

/* A record whose body may be large: start a new chunk first if the body would push the pending
 * chunk past TRACE_CHUNK_MAX. The body is encoded before the chunk decision, with the time delta
 * taken against the current chunk; re-encode it if the chunk changed. */
static int encode_other(struct trace_writer *w, const struct trace_event *ev)
{
	uint64_t saved_time = w->prev_time;
	int err;

	w->tmp.len = 0;
	err = encode_body(w, &w->tmp, ev);
	if (err) {
		w->prev_time = saved_time;
		return err;
	}
	if (w->nrec && w->raw.len - TRACE_CHUNK_HEADER_SIZE + w->tmp.len + 16 > TRACE_CHUNK_MAX) {
		w->prev_time = saved_time;
		err = trace_writer_flush(w);
		if (err)
			return err;
		w->tmp.len = 0;
		encode_body(w, &w->tmp, ev);
	}
	tbuf_reserve(&w->raw, 11 + w->tmp.len);
	put_u8(&w->raw, (uint8_t)ev->type);
	put_varint(&w->raw, w->tmp.len);
	put_bytes(&w->raw, w->tmp.p, w->tmp.len);
	return 0;
}

int trace_write(struct trace_writer *w, const struct trace_event *ev)
{
	int err;

	if (w->err)
		return w->err;
	if (ev->type == TRACE_REC_SAMPLE && ev->sample.task && ev->sample.td_nr <= TRACE_TD_MAX &&
	    (!ev->sample.chain_nr || (ev->sample.chain && ev->sample.chain_nr <= TRACE_CHAIN_MAX)) &&
	    ev->sample.nr_alt <= TRACE_ALT_MAX) {
		/* first: a 1.6 reader skips it as an unknown record, which it refuses between an
		 * ACCESS or CHAIN record and its sample */
		err = encode_task(w, &ev->sample);
		if (err)
			return err;
	}
	if (ev->type == TRACE_REC_SAMPLE && ev->sample.access_ip && ev->sample.td_nr <= TRACE_TD_MAX &&
	    (ev->sample.access_ip != ev->sample.ip || ev->sample.access_flags || ev->sample.nr_alt) &&
	    (!ev->sample.chain_nr || (ev->sample.chain && ev->sample.chain_nr <= TRACE_CHAIN_MAX))) {
		/* (a bad callchain is refused below before anything is written) before the CHAIN record: a 1.5 reader skips it as an unknown record, which it
		 * refuses between a CHAIN record and its sample */
		err = encode_access(w, &ev->sample);
		if (err)
			return err;
	}
	if (ev->type == TRACE_REC_SAMPLE && ev->sample.chain_nr && ev->sample.td_nr <= TRACE_TD_MAX) {
		/* the CHAIN record and its sample go into the same chunk: flushes come after both */
		err = encode_chain(w, &ev->sample);
		if (err)
			return err;
	}
	if (ev->type == TRACE_REC_SAMPLE)
		err = encode_sample(w, &ev->sample);
	else
		err = encode_other(w, ev);
	if (err)
		return err;
	w->nrec++;
	w->records++;
	if (w->raw.len - TRACE_CHUNK_HEADER_SIZE >= w->opts.chunk_bytes || w->nrec == UINT32_MAX)
		return trace_writer_flush(w);
	return 0;
}

/* --- open and close ---------------------------------------------------------------------------- */

static int write_preamble(struct trace_writer *w, const struct trace_info *info)
{
	static const struct trace_info empty;
	uint8_t hdr[TRACE_FILE_HEADER_SIZE];
	int err;

	if (!info)
		info = &empty;
	/* what the reader refuses is never written */
	if (trace_info_check(info))
		return c2c_err(-EINVAL, "cannot write trace '%s': %s", w->name, trace_info_check(info));
	memcpy(hdr, TRACE_MAGIC, 8);
	le16_store(hdr + 8, TRACE_VERSION_MAJOR);
	le16_store(hdr + 10, TRACE_VERSION_MINOR);
	le32_store(hdr + 12, 0);
	err = write_all(w->fd, hdr, sizeof(hdr));
	if (err)
		return fail(w, err);
	w->bytes += sizeof(hdr);
	w->good_off += sizeof(hdr);
	w->tmp.len = 0;
	tbuf_reserve(&w->tmp, TRACE_CHUNK_HEADER_SIZE);
	w->tmp.len = TRACE_CHUNK_HEADER_SIZE;
	trace_info_encode(&w->tmp, info);
	return emit_chunk(w, &w->tmp, TRACE_CHUNK_INFO, 0);
}

static struct trace_writer *writer_new(int fd, const char *name, const struct trace_writer_opts *opts)
{
	struct trace_writer *w = xcalloc(1, sizeof(*w));

	w->fd = fd;
	w->name = xstrdup(name ? name : "(trace)");
	if (opts)
		w->opts = *opts;
	if (!w->opts.chunk_bytes)
		w->opts.chunk_bytes = DEFAULT_CHUNK_BYTES;
	if (w->opts.chunk_bytes > TRACE_CHUNK_MAX / 2)
		w->opts.chunk_bytes = TRACE_CHUNK_MAX / 2;
	if (w->opts.zstd_level > 0) {
		w->zc = ZSTD_createCCtx();
		if (!w->zc) {
			c2c_log(C2C_LOG_ERROR, "out of memory creating a zstd context");
			abort();  /* out of memory is fatal (see c2c/xalloc.h) */
		}
	}
	w->ip_hash = xcalloc(1u << DICT_HASH_BITS, sizeof(*w->ip_hash));
	w->line_hash = xcalloc(1u << DICT_HASH_BITS, sizeof(*w->line_hash));
	w->shape_hash = xcalloc(1u << SHAPE_HASH_BITS, sizeof(*w->shape_hash));
	w->ips = xcalloc(TRACE_IP_DICT_MAX, sizeof(*w->ips));
	w->lines = xcalloc(TRACE_LINE_DICT_MAX, sizeof(*w->lines));
	w->shapes = xcalloc(TRACE_SHAPE_MAX, sizeof(*w->shapes));
	tbuf_reserve(&w->raw, w->opts.chunk_bytes + 1024);
	reset_chunk_state(w);
	return w;
}

static void writer_free(struct trace_writer *w)
{
	if (w->own_fd)
		close(w->fd);
	ZSTD_freeCCtx(w->zc);
	free(w->ip_hash);
	free(w->line_hash);
	free(w->shape_hash);
	free(w->ips);
	free(w->lines);
	free(w->shapes);
	free(w->chain_hash);
	free(w->chains);
	free(w->pool);
	free(w->raw.p);
	free(w->z.p);
	free(w->tmp.p);
	free(w->name);
	free(w);
}

int trace_writer_fdopen(struct trace_writer **out, int fd, const char *name,
			const struct trace_info *info, const struct trace_writer_opts *opts)
{
	struct trace_writer *w = writer_new(fd, name, opts);
	int err = write_preamble(w, info);

	if (err) {
		writer_free(w);
		return err;
	}
	*out = w;
	return 0;
}

int trace_writer_open(struct trace_writer **out, const char *path, const struct trace_info *info,
		      const struct trace_writer_opts *opts)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct trace_writer *w;
	int err;

	if (fd < 0)
		return c2c_err(-errno, "cannot create trace '%s': %s", path, strerror(errno));
	w = writer_new(fd, path, opts);
	w->own_fd = 1;
	w->can_truncate = 1;
	err = write_preamble(w, info);
	if (err) {
		writer_free(w);
		return err;
	}
	*out = w;
	return 0;
}

uint64_t trace_writer_bytes(const struct trace_writer *w)
{
	return w->bytes;
}

uint64_t trace_writer_records(const struct trace_writer *w)
{
	return w->records - w->chain_recs;
}

static int write_end(struct trace_writer *w)
{
	int err = trace_writer_flush(w);

	if (err)
		return err;
	w->tmp.len = 0;
	tbuf_reserve(&w->tmp, TRACE_CHUNK_HEADER_SIZE);
	w->tmp.len = TRACE_CHUNK_HEADER_SIZE;
	put_v(&w->tmp, w->records);
	return emit_chunk(w, &w->tmp, TRACE_CHUNK_END, 0);
}

int trace_writer_close(struct trace_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = w->err ? w->err : write_end(w);
	if (w->own_fd) {
		w->own_fd = 0;
		if (close(w->fd) && !err) {
			err = -errno;
			c2c_log(C2C_LOG_ERROR, "cannot close trace '%s': %s", w->name, strerror(errno));
		}
	}
	writer_free(w);
	return err;
}
