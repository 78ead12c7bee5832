/* Structure-aware mutator of perf.data inputs for libFuzzer (LLVMFuzzerCustomMutator), linked
 * into fuzz_perfdata. Built without coverage instrumentation: its branches are not the reader's.
 *
 * Random byte mutations of a whole perf.data rarely keep the file header's section table (attrs,
 * data, the feature table after the data) consistent, so they mostly exercise the header checks.
 * This mutator parses the input into its parts, mutates one part with libFuzzer's own mutator
 * (LLVMFuzzerMutate) and writes the file again with every offset and size fixed:
 *   - one header feature section (the NRCPUS, NUMA_TOPOLOGY, MEM_TOPOLOGY, ... parsers), or a
 *     feature added (a copy of another one's section) or dropped;
 *   - one event attr, or its id list;
 *   - one record of the data section with its header.size fixed, or records dropped, doubled
 *     or swapped;
 * and for pipe-mode inputs (no section table: HEADER_ATTR and HEADER_FEATURE records instead)
 * the record operations, half of them on HEADER_* records. One mutation in eight, and any input
 * that does not parse, gets plain byte mutations of the whole file. What is fuzzed is unchanged:
 * fuzz_perfdata runs the reader on the bytes this produces, as on any file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define HDR      104
#define PIPE_HDR 16
#define MAX_ATTR 64
#define MAX_FEAT 256
#define MAX_REC  4096
#define REC_MAX  65535

struct part {
	uint8_t *p;
	size_t n;
};

struct model {
	int swap, pipe;
	uint64_t attr_size;
	size_t nattr, nfeat;
	struct part attr[MAX_ATTR], ids[MAX_ATTR];
	struct part data;                 /* file: the data section; pipe: all after the header */
	unsigned int feat_id[MAX_FEAT];   /* ascending */
	struct part feat[MAX_FEAT];
};

static unsigned int rnd(unsigned int *s, unsigned int n)
{
	*s = *s * 1103515245u + 12345u;
	return n ? (*s >> 8) % n : 0;
}

static uint64_t get(const struct model *m, const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[m->swap ? n - 1 - i : i] << (8 * i);
	return v;
}

static void set(const struct model *m, uint8_t *p, int n, uint64_t v)
{
	int i;

	for (i = 0; i < n; i++)
		p[m->swap ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static int dup_part(struct part *d, const uint8_t *p, size_t n)
{
	d->p = malloc(n ? n : 1);
	if (!d->p)
		return -1;
	memcpy(d->p, p, n);
	d->n = n;
	return 0;
}

static void model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nattr; i++) {
		free(m->attr[i].p);
		free(m->ids[i].p);
	}
	for (i = 0; i < m->nfeat; i++)
		free(m->feat[i].p);
	free(m->data.p);
}

/* {offset, size} at @p lies inside @n bytes. */
static int in_file(const struct model *m, const uint8_t *p, size_t n, uint64_t *off, uint64_t *sz)
{
	*off = get(m, p, 8);
	*sz = get(m, p + 8, 8);
	return *off <= n && *sz <= n - *off;
}

static int parse(struct model *m, const uint8_t *d, size_t n)
{
	uint64_t off, sz, doff, dsz, aoff, asz, table;
	unsigned int f;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (n < PIPE_HDR || (memcmp(d, "PERFILE2", 8) && memcmp(d, "2ELIFREP", 8)))
		return -1;
	m->swap = !memcmp(d, "2ELIFREP", 8);
	if (get(m, d + 8, 8) == PIPE_HDR) {
		m->pipe = 1;
		return dup_part(&m->data, d + PIPE_HDR, n - PIPE_HDR);
	}
	if (n < HDR || get(m, d + 8, 8) != HDR)
		return -1;
	m->attr_size = get(m, d + 16, 8);
	if (m->attr_size < 80 || m->attr_size > 4096 || !in_file(m, d + 24, n, &aoff, &asz) ||
	    !asz || asz % m->attr_size || asz / m->attr_size > MAX_ATTR)
		return -1;
	for (i = 0; i < asz / m->attr_size; i++) {
		const uint8_t *a = d + aoff + i * m->attr_size;

		if (!in_file(m, a + m->attr_size - 16, n, &off, &sz) || sz % 8 || sz > 65536 ||
		    dup_part(&m->attr[m->nattr], a, m->attr_size - 16) ||
		    dup_part(&m->ids[m->nattr++], d + off, sz))
			return -1;
	}
	if (!in_file(m, d + 40, n, &doff, &dsz) || !dsz || dup_part(&m->data, d + doff, dsz))
		return -1;
	table = doff + dsz;
	for (f = 0; f < MAX_FEAT; f++) {
		if (!(get(m, d + 72 + 8 * (f / 64), 8) >> (f % 64) & 1))
			continue;
		if (table > n || n - table < 16 || !in_file(m, d + table, n, &off, &sz) ||
		    dup_part(&m->feat[m->nfeat], d + off, sz))
			return -1;
		m->feat_id[m->nfeat++] = f;
		table += 16;
	}
	return 0;
}

/* Write the model as a file into @out (room for @max bytes): its size, or 0 when it does not
 * fit. Layout: header, attrs, their id arrays, data, feature table, feature sections. */
static size_t serialize(const struct model *m, uint8_t *out, size_t max)
{
	size_t need, pos, i, idpos, fpos;
	uint8_t *slot;

	if (m->pipe) {
		need = PIPE_HDR + m->data.n;
		if (need > max)
			return 0;
		memcpy(out, m->swap ? "2ELIFREP" : "PERFILE2", 8);
		set(m, out + 8, 8, PIPE_HDR);
		memcpy(out + PIPE_HDR, m->data.p, m->data.n);
		return need;
	}
	need = HDR + m->nattr * m->attr_size + m->data.n + 16 * m->nfeat;
	for (i = 0; i < m->nattr; i++)
		need += m->ids[i].n;
	for (i = 0; i < m->nfeat; i++)
		need += m->feat[i].n;
	if (need > max)
		return 0;
	memset(out, 0, HDR);
	memcpy(out, m->swap ? "2ELIFREP" : "PERFILE2", 8);
	set(m, out + 8, 8, HDR);
	set(m, out + 16, 8, m->attr_size);
	set(m, out + 24, 8, HDR);
	set(m, out + 32, 8, m->nattr * m->attr_size);
	idpos = HDR + m->nattr * m->attr_size;
	for (i = 0; i < m->nattr; i++) {
		slot = out + HDR + i * m->attr_size;
		memset(slot, 0, m->attr_size);
		memcpy(slot, m->attr[i].p, m->attr[i].n);
		set(m, slot + m->attr_size - 16, 8, idpos);
		set(m, slot + m->attr_size - 8, 8, m->ids[i].n);
		memcpy(out + idpos, m->ids[i].p, m->ids[i].n);
		idpos += m->ids[i].n;
	}
	set(m, out + 40, 8, idpos);
	set(m, out + 48, 8, m->data.n);
	memcpy(out + idpos, m->data.p, m->data.n);
	pos = idpos + m->data.n;
	fpos = pos + 16 * m->nfeat;
	for (i = 0; i < m->nfeat; i++) {
		uint8_t *bits = out + 72 + 8 * (m->feat_id[i] / 64);

		set(m, bits, 8, get(m, bits, 8) | 1ull << (m->feat_id[i] % 64));
		set(m, out + pos + 16 * i, 8, fpos);
		set(m, out + pos + 16 * i + 8, 8, m->feat[i].n);
		memcpy(out + fpos, m->feat[i].p, m->feat[i].n);
		fpos += m->feat[i].n;
	}
	return need;
}

/* LLVMFuzzerMutate on a part, which may grow to @max bytes. */
static int mutate_part(struct part *pt, size_t max, size_t min)
{
	uint8_t *p = malloc(max ? max : 1);
	size_t n;

	if (!p)
		return -1;
	n = pt->n < max ? pt->n : max;
	memcpy(p, pt->p, n);
	n = LLVMFuzzerMutate(p, n, max);
	if (n < min) {
		memset(p + n, 0, min - n);
		n = min;
	}
	free(pt->p);
	pt->p = p;
	pt->n = n;
	return 0;
}

/* The records of the data: offsets of those whose header.size fits, in order. */
static size_t records(const struct model *m, size_t *off, size_t max)
{
	size_t pos = 0, nr = 0, sz;

	while (nr < max && m->data.n - pos >= 8) {
		sz = (size_t)get(m, m->data.p + pos + 6, 2);
		if (sz < 8 || sz > m->data.n - pos)
			break;
		off[nr++] = pos;
		pos += sz;
	}
	return nr;
}

/* Replace bytes [at, at + old) of the data with @n bytes at @p. */
static int splice(struct model *m, size_t at, size_t old, const uint8_t *p, size_t n)
{
	uint8_t *d = malloc(m->data.n - old + n + 1);

	if (!d)
		return -1;
	memcpy(d, m->data.p, at);
	if (n)
		memcpy(d + at, p, n);
	memcpy(d + at + n, m->data.p + at + old, m->data.n - at - old);
	free(m->data.p);
	m->data.p = d;
	m->data.n = m->data.n - old + n;
	return 0;
}

static int mutate_records(struct model *m, unsigned int *s)
{
	static size_t off[MAX_REC];
	size_t nr = records(m, off, MAX_REC), i, j, len, lj;
	struct part rec;
	int rc;

	if (!nr)
		return -1;
	i = rnd(s, (unsigned int)nr);
	if (m->pipe && rnd(s, 2)) {   /* prefer HEADER_ATTR, HEADER_FEATURE, EVENT_UPDATE, ... */
		for (j = 0; j < nr; j++) {
			uint32_t type = (uint32_t)get(m, m->data.p + off[(i + j) % nr], 4);

			if (type == 64 || type == 78 || type == 80 || type == 67 || type == 69 ||
			    type == 70)
				break;
		}
		if (j < nr)
			i = (i + j) % nr;
	}
	len = (size_t)get(m, m->data.p + off[i] + 6, 2);
	switch (rnd(s, 8)) {
	case 0:                                   /* drop it */
		return splice(m, off[i], len, NULL, 0);
	case 1:                                   /* double it */
		if (dup_part(&rec, m->data.p + off[i], len))
			return -1;
		rc = splice(m, off[i], 0, rec.p, rec.n);
		free(rec.p);
		return rc;
	case 2:                                   /* swap it with another one */
		j = rnd(s, (unsigned int)nr);
		if (j == i)
			return 0;
		if (j < i) {
			size_t t = i;

			i = j;
			j = t;
			len = (size_t)get(m, m->data.p + off[i] + 6, 2);
		}
		lj = (size_t)get(m, m->data.p + off[j] + 6, 2);
		rec.n = off[j] + lj - off[i];
		rec.p = malloc(rec.n);
		if (!rec.p)
			return -1;
		memcpy(rec.p, m->data.p + off[j], lj);
		memcpy(rec.p + lj, m->data.p + off[i] + len, off[j] - off[i] - len);
		memcpy(rec.p + lj + off[j] - off[i] - len, m->data.p + off[i], len);
		rc = splice(m, off[i], rec.n, rec.p, rec.n);
		free(rec.p);
		return rc;
	default:                                  /* mutate it, keep header.size right */
		if (dup_part(&rec, m->data.p + off[i], len))
			return -1;
		if (rnd(s, 4)) {                  /* the body only */
			struct part body = { NULL, 0 };

			if (dup_part(&body, rec.p + 8, rec.n - 8) ||
			    mutate_part(&body, rec.n - 8 + 64 < REC_MAX - 8 ? rec.n - 8 + 64 :
					REC_MAX - 8, 0)) {
				free(body.p);
				free(rec.p);
				return -1;
			}
			rec.p = realloc(rec.p, 8 + body.n);
			if (!rec.p) {
				free(body.p);
				return -1;
			}
			memcpy(rec.p + 8, body.p, body.n);
			rec.n = 8 + body.n;
			free(body.p);
		} else if (mutate_part(&rec, rec.n + 64 < REC_MAX ? rec.n + 64 : REC_MAX, 8)) {
			free(rec.p);
			return -1;
		}
		set(m, rec.p + 6, 2, rec.n);
		rc = splice(m, off[i], len, rec.p, rec.n);
		free(rec.p);
		return rc;
	}
}

static int toggle_feature(struct model *m, unsigned int *s)
{
	unsigned int f = rnd(s, 8) ? rnd(s, 32) : rnd(s, MAX_FEAT);
	size_t i, k;

	for (i = 0; i < m->nfeat && m->feat_id[i] < f; i++)
		;
	if (i < m->nfeat && m->feat_id[i] == f) {    /* drop it */
		free(m->feat[i].p);
		memmove(m->feat + i, m->feat + i + 1, (m->nfeat - i - 1) * sizeof(*m->feat));
		memmove(m->feat_id + i, m->feat_id + i + 1, (m->nfeat - i - 1) * sizeof(*m->feat_id));
		m->nfeat--;
		return 0;
	}
	if (m->nfeat == MAX_FEAT)
		return -1;
	memmove(m->feat + i + 1, m->feat + i, (m->nfeat - i) * sizeof(*m->feat));
	memmove(m->feat_id + i + 1, m->feat_id + i, (m->nfeat - i) * sizeof(*m->feat_id));
	m->nfeat++;
	m->feat_id[i] = f;
	m->feat[i] = (struct part){ NULL, 0 };
	k = m->nfeat > 1 ? rnd(s, (unsigned int)m->nfeat - 1) : 0;
	k += k >= i;
	if (m->nfeat > 1 && rnd(s, 2))           /* another feature's section */
		return dup_part(&m->feat[i], m->feat[k].p, m->feat[k].n);
	if (dup_part(&m->feat[i], (const uint8_t *)"\0\0\0\0\0\0\0\0", 8))
		return -1;
	return mutate_part(&m->feat[i], 256, 0);
}

static int mutate_model(struct model *m, unsigned int *s)
{
	unsigned int op = rnd(s, 100);
	size_t i;

	if (m->pipe || op < 35)
		return mutate_records(m, s);
	if (op < 70 && m->nfeat) {
		i = rnd(s, (unsigned int)m->nfeat);
		return mutate_part(&m->feat[i], m->feat[i].n * 2 + 64, 0);
	}
	if (op < 80)
		return toggle_feature(m, s);
	i = rnd(s, (unsigned int)m->nattr);
	if (op < 92)
		return mutate_part(&m->attr[i], m->attr[i].n, m->attr[i].n);
	if (mutate_part(&m->ids[i], m->ids[i].n + 32, 0))
		return -1;
	m->ids[i].n &= ~(size_t)7;
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	struct model m;
	size_t n = 0;

	if (rnd(&seed, 8)) {
		if (!parse(&m, data, size) && !mutate_model(&m, &seed))
			n = serialize(&m, data, max_size);
		model_free(&m);
		if (n)
			return n;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
