/* Watchpoint backend model: per-line MESI-like states per CPU and the counters the transitions
 * produce (the model is described in report/aggregate/watch-model.h). Invariants: a line has at most one
 * CPU in M or E, and never M/E together with S elsewhere; a CPU's dirty bytes are non-empty only
 * while it holds M. Lines are few (a watchpoint session watches a handful), so they are found
 * by a linear scan; sites are kept sorted and found by binary search. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/watch-model.h"

#define WATCH_CPU_MAX 4096

struct mline {
	struct watch_line pub;
	size_t cap_sites;
	uint32_t nr_cpus;
	uint8_t *state;          /* per CPU: enum watch_state */
	uint64_t (*dirty)[2];    /* per CPU: bytes written while it held M, one bit per byte */
};

struct watch_model {
	uint32_t line_size;
	uint64_t last_time;
	struct mline **lines;
	size_t nr, cap;
};

int watch_model_new(struct watch_model **out, uint32_t line_size)
{
	struct watch_model *m;

	if (!out)
		return -EINVAL;
	if (!line_size)
		line_size = 64;
	if (line_size < 8 || line_size > WATCH_LINE_MAX || (line_size & (line_size - 1)))
		return -EINVAL;
	m = xcalloc(1, sizeof(*m));
	m->line_size = line_size;
	*out = m;
	return 0;
}

void watch_model_free(struct watch_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr; i++) {
		free(m->lines[i]->pub.sites);
		free(m->lines[i]->state);
		free(m->lines[i]->dirty);
		free(m->lines[i]);
	}
	free(m->lines);
	free(m);
}

/* --- lines and sites --------------------------------------------------------------------------- */

static struct mline *find_line(const struct watch_model *m, uint64_t line_addr)
{
	for (size_t i = 0; i < m->nr; i++)
		if (m->lines[i]->pub.addr == line_addr)
			return m->lines[i];
	return NULL;
}

static struct mline *get_line(struct watch_model *m, uint64_t line_addr)
{
	struct mline *l = find_line(m, line_addr);

	if (l)
		return l;
	l = xcalloc(1, sizeof(*l));
	l->pub.addr = line_addr;
	m->lines = xgrow(m->lines, &m->cap, m->nr + 1, sizeof(*m->lines));
	m->lines[m->nr++] = l;
	return l;
}

static void ensure_cpu(struct mline *l, uint32_t cpu)
{
	uint32_t n = l->nr_cpus;

	if (cpu < n)
		return;
	while (n <= cpu)
		n = n ? n * 2 : 8;
	l->state = xrealloc(l->state, n * sizeof(*l->state));
	l->dirty = xrealloc(l->dirty, n * sizeof(*l->dirty));
	memset(l->state + l->nr_cpus, WATCH_I, (n - l->nr_cpus) * sizeof(*l->state));
	memset(l->dirty + l->nr_cpus, 0, (n - l->nr_cpus) * sizeof(*l->dirty));
	l->nr_cpus = n;
}

static int site_cmp(const struct watch_site *s, uint32_t offset, uint64_t ip, uint32_t tid)
{
	if (s->offset != offset)
		return (s->offset > offset) - (s->offset < offset);
	if (s->ip != ip)
		return (s->ip > ip) - (s->ip < ip);
	return (s->tid > tid) - (s->tid < tid);
}

static struct watch_site *get_site(struct mline *l, uint32_t offset, uint64_t ip, uint32_t tid)
{
	struct watch_line *p = &l->pub;
	size_t lo = 0, hi = p->nr_sites;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = site_cmp(&p->sites[mid], offset, ip, tid);

		if (!c)
			return &p->sites[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	p->sites = xgrow(p->sites, &l->cap_sites, p->nr_sites + 1, sizeof(*p->sites));
	memmove(&p->sites[lo + 1], &p->sites[lo], (p->nr_sites - lo) * sizeof(*p->sites));
	memset(&p->sites[lo], 0, sizeof(*p->sites));
	p->sites[lo].offset = offset;
	p->sites[lo].ip = ip;
	p->sites[lo].tid = tid;
	p->nr_sites++;
	return &p->sites[lo];
}

/* --- the coherence model ----------------------------------------------------------------------- */

static void byte_mask(uint32_t offset, uint32_t size, uint64_t mask[2])
{
	mask[0] = mask[1] = 0;
	for (uint32_t b = offset; b < offset + size; b++)
		mask[b / 64] |= 1ULL << (b % 64);
}

/* The other CPU holding @state, or -1. */
static long holder(const struct mline *l, uint32_t cpu, enum watch_state state)
{
	for (uint32_t i = 0; i < l->nr_cpus; i++)
		if (i != cpu && l->state[i] == state)
			return i;
	return -1;
}

static int others_valid(const struct mline *l, uint32_t cpu)
{
	for (uint32_t i = 0; i < l->nr_cpus; i++)
		if (i != cpu && l->state[i] != WATCH_I)
			return 1;
	return 0;
}

static void count_hitm(struct watch_stats *d, const uint64_t owner_dirty[2], const uint64_t bytes[2])
{
	d->hitm++;
	if ((owner_dirty[0] & bytes[0]) || (owner_dirty[1] & bytes[1]))
		d->hitm_true++;
	else
		d->hitm_false++;
}

static void set_others(struct mline *l, uint32_t cpu, enum watch_state from, enum watch_state to)
{
	for (uint32_t i = 0; i < l->nr_cpus; i++) {
		if (i == cpu || l->state[i] != from)
			continue;
		l->state[i] = to;
		l->dirty[i][0] = l->dirty[i][1] = 0;
	}
}

static void apply_read(struct mline *l, uint32_t cpu, const uint64_t bytes[2], struct watch_stats *d)
{
	long owner;

	if (l->state[cpu] != WATCH_I)
		return;
	owner = holder(l, cpu, WATCH_M);
	if (owner >= 0) {
		count_hitm(d, l->dirty[owner], bytes);
		set_others(l, cpu, WATCH_M, WATCH_S);
		l->state[cpu] = WATCH_S;
	} else if (others_valid(l, cpu)) {
		d->shared++;
		set_others(l, cpu, WATCH_E, WATCH_S);
		l->state[cpu] = WATCH_S;
	} else {
		l->state[cpu] = WATCH_E;
	}
}

static void apply_write(struct mline *l, uint32_t cpu, const uint64_t bytes[2], struct watch_stats *d)
{
	uint8_t st = l->state[cpu];

	if (st == WATCH_S || st == WATCH_I) {
		long owner = holder(l, cpu, WATCH_M);

		if (owner >= 0)
			count_hitm(d, l->dirty[owner], bytes);
		else if (others_valid(l, cpu))
			d->inval++;
		set_others(l, cpu, WATCH_M, WATCH_I);
		set_others(l, cpu, WATCH_E, WATCH_I);
		set_others(l, cpu, WATCH_S, WATCH_I);
	}
	if (st != WATCH_M)
		l->dirty[cpu][0] = l->dirty[cpu][1] = 0;
	l->state[cpu] = WATCH_M;
	l->dirty[cpu][0] |= bytes[0];
	l->dirty[cpu][1] |= bytes[1];
}

int watch_model_add(struct watch_model *m, const struct watch_access *a)
{
	uint64_t line_addr, bytes[2];
	struct watch_stats d = { .accesses = 1 };
	struct mline *l;
	uint32_t off;

	if (!m || !a || a->time < m->last_time || a->size == 0 || a->size > 8)
		return -EINVAL;
	if (a->cpu >= WATCH_CPU_MAX)
		return -ERANGE;
	line_addr = a->addr & ~(uint64_t)(m->line_size - 1);
	off = (uint32_t)(a->addr - line_addr);
	if (off + a->size > m->line_size)
		return -EINVAL;
	m->last_time = a->time;
	l = get_line(m, line_addr);
	ensure_cpu(l, a->cpu);
	byte_mask(off, a->size, bytes);
	if (a->is_write) {
		d.writes = 1;
		apply_write(l, a->cpu, bytes, &d);
	} else {
		d.reads = 1;
		apply_read(l, a->cpu, bytes, &d);
	}
	watch_stats_add(&l->pub.total, &d);
	watch_stats_add(&l->pub.by_offset[off], &d);
	watch_stats_add(&get_site(l, off, a->ip, a->tid)->st, &d);
	return 0;
}

static int access_cmp(const void *pa, const void *pb)
{
	const struct watch_access *a = pa, *b = pb;

	if (a->time != b->time)
		return (a->time > b->time) - (a->time < b->time);
	if (a->cpu != b->cpu)
		return (a->cpu > b->cpu) - (a->cpu < b->cpu);
	if (a->addr != b->addr)
		return (a->addr > b->addr) - (a->addr < b->addr);
	return (a->ip > b->ip) - (a->ip < b->ip);
}

int watch_model_add_all(struct watch_model *m, struct watch_access *acc, size_t n)
{
	if (!m || (n && !acc))
		return -EINVAL;
	if (n)
		qsort(acc, n, sizeof(*acc), access_cmp);
	for (size_t i = 0; i < n; i++) {
		int err = watch_model_add(m, &acc[i]);

		if (err)
			return err;
	}
	return 0;
}

size_t watch_model_nr_lines(const struct watch_model *m)
{
	return m ? m->nr : 0;
}

const struct watch_line *watch_model_line(const struct watch_model *m, size_t i)
{
	return m && i < m->nr ? &m->lines[i]->pub : NULL;
}

enum watch_state watch_model_state(const struct watch_model *m, uint64_t addr, uint32_t cpu)
{
	const struct mline *l;

	if (!m)
		return WATCH_I;
	l = find_line(m, addr & ~(uint64_t)(m->line_size - 1));
	if (!l || cpu >= l->nr_cpus)
		return WATCH_I;
	return (enum watch_state)l->state[cpu];
}

/* --- counters and rotation --------------------------------------------------------------------- */

static const size_t stat_fields[] = {
	offsetof(struct watch_stats, accesses), offsetof(struct watch_stats, reads),
	offsetof(struct watch_stats, writes), offsetof(struct watch_stats, hitm),
	offsetof(struct watch_stats, hitm_true), offsetof(struct watch_stats, hitm_false),
	offsetof(struct watch_stats, shared), offsetof(struct watch_stats, inval),
};

_Static_assert(sizeof(stat_fields) / sizeof(stat_fields[0]) * sizeof(uint64_t) ==
	       sizeof(struct watch_stats), "stat_fields must list every counter");

static uint64_t *field(struct watch_stats *s, size_t i)
{
	return (uint64_t *)((char *)s + stat_fields[i]);
}

static uint64_t cfield(const struct watch_stats *s, size_t i)
{
	return *(const uint64_t *)((const char *)s + stat_fields[i]);
}

void watch_stats_add(struct watch_stats *a, const struct watch_stats *b)
{
	for (size_t i = 0; i < sizeof(stat_fields) / sizeof(stat_fields[0]); i++)
		*field(a, i) += cfield(b, i);
}

void watch_stats_scale(struct watch_stats *dst, const struct watch_stats *src, double factor)
{
	struct watch_stats tmp;

	for (size_t i = 0; i < sizeof(stat_fields) / sizeof(stat_fields[0]); i++)
		*field(&tmp, i) = (uint64_t)llround((double)cfield(src, i) * factor);
	*dst = tmp;
}

double watch_scale(uint64_t watched_ns, uint64_t total_ns)
{
	if (!watched_ns)
		return 0.0;
	if (watched_ns >= total_ns)
		return 1.0;
	return (double)total_ns / (double)watched_ns;
}

size_t watch_rotation_words(uint32_t nr_words, uint32_t nr_slots, uint64_t step, uint32_t *out)
{
	uint32_t n = nr_slots < nr_words ? nr_slots : nr_words;
	uint64_t start;

	if (!n)
		return 0;
	start = n == nr_words ? 0 : (step % nr_words) * (uint64_t)nr_slots % nr_words;
	for (uint32_t j = 0; j < n; j++)
		out[j] = (uint32_t)((start + j) % nr_words);
	return n;
}
