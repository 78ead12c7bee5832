/* estimate: folds soft and watch samples into cachelines, offsets and (offset, code address)
 * sites, counts unrecovered soft samples by reason, then judges each line (true, false or no
 * sharing) from which threads read and write which offsets. Invariant: every sample fed lands
 * either in exactly one line, offset and site, or in exactly one unrecovered bucket. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/dsrc.h"
#include "report/aggregate/estimate.h"

enum estim_kind { ESTIM_K_LOAD, ESTIM_K_STORE, ESTIM_K_ATOMIC, ESTIM_K_UNKNOWN };

enum { ESTIM_READ = 1, ESTIM_WRITE = 2 };

struct estim {
	struct estim_opts opts;
	struct estim_totals tot;
	struct estim_line **lines;       /* creation order, display order after finish */
	size_t nr_lines, cap_lines;
	struct estim_line **hash;        /* open addressing, power-of-two size */
	size_t hash_size;
	int finished;
	struct callers *callers;         /* with opts.callchains */
	uint32_t nr_site_ids;
	struct estim_pend *pend;         /* inferred samples, charged by estim_finish() */
	size_t nr_pend, cap_pend;
	struct estim_unattr *ua;         /* samples without a data address, by (ip, reason) */
	size_t nr_ua, cap_ua;
	uint32_t *ua_hash;               /* index + 1 into ua, open addressing */
	size_t ua_hash_size;
	struct c2c_confirm_window *win;  /* soft: the confirmation windows, in trace order */
	size_t nr_win, cap_win;
	uint8_t *confirm_event;          /* opts.confirm_event, copied */
	uint64_t t0;                     /* the first sample's time (buckets, estimate.h) */
	int have_t0;
};

/* What one sample contributes, after decoding and map lookup. */
struct estim_in {
	uint64_t addr, al_addr, phys, ip, code_al, weight, time;
	uint64_t sip;                    /* the sampled IP (ip: the access instruction) */
	uint32_t span;                   /* its time bucket (ESTIM_SPAN_NS since the first) */
	int inferred;                    /* one of several candidate accesses */
	unsigned int back;
	uint32_t tid, cpu;
	int32_t pid;
	uint8_t cpumode;
	enum estim_kind kind;
	const struct maps_map *dmap, *cmap;
	const struct maps_thread *thread;
	uint32_t chain;                  /* callers id, 0: none */
};

/* One candidate access of an inferred soft sample: what differs from the sample's estim_in. */
struct estim_cand {
	uint64_t addr, al_addr, ip, code_al;
	enum estim_kind kind;
	const struct maps_map *dmap, *cmap;
};

#define ESTIM_CAND_MAX (1 + TRACE_ALT_MAX)

/* An inferred sample waiting for estim_finish() to charge it to one of its candidates. */
struct estim_pend {
	struct estim_in in;
	struct estim_cand c[ESTIM_CAND_MAX];
	uint8_t n, one_line;
};

double estim_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* --- sets and counters ---------------------------------------------------------------------- */

static void estim_set_add(struct estim_set *s, uint32_t v)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid] == v)
			return;
		if (s->v[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	s->v = xgrow(s->v, &s->cap, s->nr + 1, sizeof(*s->v));
	memmove(s->v + lo + 1, s->v + lo, (s->nr - lo) * sizeof(*s->v));
	s->v[lo] = v;
	s->nr++;
}

static void estim_set_release(struct estim_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void estim_counts_add(struct estim_counts *c, const struct estim_in *in)
{
	c->weight += in->weight;
	c->samples++;
	c->inferred += (uint64_t)in->inferred;
	switch (in->kind) {
	case ESTIM_K_LOAD: c->loads++; break;
	case ESTIM_K_STORE: c->stores++; break;
	case ESTIM_K_ATOMIC: c->atomics++; break;
	case ESTIM_K_UNKNOWN:
	default: c->unknown++; break;
	}
}

static int estim_is_write(enum estim_kind k)
{
	return k == ESTIM_K_STORE || k == ESTIM_K_ATOMIC;
}

/* --- lifecycle ------------------------------------------------------------------------------ */

struct estim *estim_new(const struct estim_opts *opts)
{
	struct estim *e = xcalloc(1, sizeof(*e));

	e->opts = *opts;
	if (opts->confirm_event && opts->nr_events) {
		e->confirm_event = xmalloc(opts->nr_events);
		memcpy(e->confirm_event, opts->confirm_event, opts->nr_events);
		e->opts.confirm_event = e->confirm_event;
	} else {
		e->opts.confirm_event = NULL;
		e->opts.nr_events = 0;
	}
	if (!e->opts.cl_size || (e->opts.cl_size & (e->opts.cl_size - 1)))
		e->opts.cl_size = 64;
	e->hash_size = 256;
	e->hash = xcalloc(e->hash_size, sizeof(*e->hash));
	if (opts->callchains)
		e->callers = callers_new();
	return e;
}

static void estim_cf_free(struct estim_confirm *cf);

static void estim_line_free(struct estim_line *l)
{
	size_t i;

	for (i = 0; i < l->nr_off; i++) {
		estim_set_release(&l->off[i].tids);
		estim_set_release(&l->off[i].writers);
		estim_set_release(&l->off[i].readers);
		estim_set_release(&l->off[i].cpus);
	}
	for (i = 0; i < l->nr_site; i++) {
		estim_set_release(&l->site[i].tids);
		estim_set_release(&l->site[i].cpus);
		for (size_t k = 0; k < l->site[i].nr_tc; k++)
			free(l->site[i].tc[k].span);
		free(l->site[i].tc);
	}
	estim_set_release(&l->tids);
	estim_set_release(&l->cpus);
	free(l->off);
	free(l->site);
	free(l->acc);
	estim_cf_free(l->cf);
	free(l);
}

void estim_free(struct estim *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nr_lines; i++)
		estim_line_free(e->lines[i]);
	free(e->lines);
	free(e->hash);
	callers_free(e->callers);
	free(e->pend);
	free(e->ua);
	free(e->ua_hash);
	free(e->win);
	free(e->confirm_event);
	free(e);
}

/* --- line keys (report/aggregate/cltable.h's dcacheline key) ------------------------------------------ */

struct estim_key {
	uint8_t cpumode;
	int has_map, anon;
	uint32_t maj, min;
	uint64_t ino, gen;
	int32_t pid;
	uint64_t cl;
};

static void estim_key_of(struct estim_key *k, uint8_t cpumode, const struct maps_map *dmap,
			 int32_t pid, uint64_t cl)
{
	memset(k, 0, sizeof(*k));
	k->cpumode = cpumode;
	k->has_map = dmap != NULL;
	if (dmap) {
		k->maj = dmap->dso->maj;
		k->min = dmap->dso->min;
		k->ino = dmap->dso->ino;
		k->gen = dmap->dso->ino_generation;
		k->anon = maps_is_anon_private(dmap, cpumode);
	}
	k->pid = k->anon ? pid : 0;
	k->cl = cl;
}

static void estim_line_key(const struct estim_line *l, struct estim_key *k)
{
	if (l->phys)
		estim_key_of(k, 0, NULL, 0, l->cl);
	else
		estim_key_of(k, l->cpumode, l->dmap, l->key_pid, l->cl);
}

static int estim_u64_cmp(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int estim_key_cmp(const struct estim_key *a, const struct estim_key *b)
{
	int c;

	if ((c = estim_u64_cmp(a->cpumode, b->cpumode)))
		return c;
	if (a->has_map != b->has_map)
		return a->has_map ? -1 : 1;
	if ((c = estim_u64_cmp(a->maj, b->maj)) || (c = estim_u64_cmp(a->min, b->min)) ||
	    (c = estim_u64_cmp(a->ino, b->ino)) || (c = estim_u64_cmp(a->gen, b->gen)))
		return c;
	if (a->anon != b->anon)
		return a->anon ? 1 : -1;
	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	return estim_u64_cmp(a->cl, b->cl);
}

static uint64_t estim_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static uint64_t estim_key_hash(const struct estim_key *k)
{
	uint64_t h = estim_mix(k->cpumode, (uint64_t)k->has_map << 1 | (uint64_t)k->anon);

	h = estim_mix(h, ((uint64_t)k->maj << 32) | k->min);
	h = estim_mix(h, k->ino);
	h = estim_mix(h, k->gen);
	h = estim_mix(h, (uint32_t)k->pid);
	return estim_mix(h, k->cl);
}

static void estim_hash_put(struct estim_line **hash, size_t size, struct estim_line *l)
{
	struct estim_key k;
	size_t i;

	estim_line_key(l, &k);
	for (i = estim_key_hash(&k) & (size - 1); hash[i]; i = (i + 1) & (size - 1))
		;
	hash[i] = l;
}

static void estim_hash_grow(struct estim *e)
{
	size_t i, size = e->hash_size * 2;
	struct estim_line **h = xcalloc(size, sizeof(*h));

	for (i = 0; i < e->nr_lines; i++)
		estim_hash_put(h, size, e->lines[i]);
	free(e->hash);
	e->hash = h;
	e->hash_size = size;
}

/* The line of @in, created when @create and new (NULL when not found otherwise). */
static struct estim_line *estim_line_of(struct estim *e, const struct estim_in *in, int create)
{
	uint64_t mask = ~(uint64_t)(e->opts.cl_size - 1);
	struct estim_key k, lk;
	struct estim_line *l;
	size_t i;

	if (e->opts.phys)            /* the physical line alone, whoever maps it where */
		estim_key_of(&k, 0, NULL, 0, in->phys & mask);
	else
		estim_key_of(&k, in->cpumode, in->dmap, in->pid, in->al_addr & mask);
	for (i = estim_key_hash(&k) & (e->hash_size - 1); (l = e->hash[i]);
	     i = (i + 1) & (e->hash_size - 1)) {
		estim_line_key(l, &lk);
		if (!estim_key_cmp(&k, &lk))
			return l;
	}
	if (!create)
		return NULL;
	l = xcalloc(1, sizeof(*l));
	l->cpumode = in->cpumode;
	l->dmap = in->dmap;
	l->thread = in->thread;
	l->key_pid = k.pid;
	l->cl = k.cl;
	l->vaddr = in->addr & mask;
	l->addr = e->opts.phys ? k.cl : l->vaddr;
	l->phys = e->opts.phys;
	l->seq = (uint32_t)e->nr_lines;
	e->lines = xgrow(e->lines, &e->cap_lines, e->nr_lines + 1, sizeof(*e->lines));
	e->lines[e->nr_lines++] = l;
	if (e->nr_lines * 2 > e->hash_size)
		estim_hash_grow(e);
	else
		e->hash[i] = l;
	return l;
}

/* --- folding one sample --------------------------------------------------------------------- */

static struct estim_offset *estim_findnew_off(struct estim_line *l, uint32_t offset)
{
	size_t lo = 0, hi = l->nr_off;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (l->off[mid].offset == offset)
			return &l->off[mid];
		if (l->off[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	l->off = xgrow(l->off, &l->cap_off, l->nr_off + 1, sizeof(*l->off));
	memmove(l->off + lo + 1, l->off + lo, (l->nr_off - lo) * sizeof(*l->off));
	memset(&l->off[lo], 0, sizeof(l->off[lo]));
	l->off[lo].offset = offset;
	l->nr_off++;
	return &l->off[lo];
}

static int estim_site_cmp(uint32_t off_a, uint64_t ip_a, uint32_t off_b, uint64_t ip_b)
{
	if (off_a != off_b)
		return (off_a > off_b) - (off_a < off_b);
	return estim_u64_cmp(ip_a, ip_b);
}

static size_t estim_site_pos(const struct estim_line *l, uint32_t offset, uint64_t ip, int *found)
{
	size_t lo = 0, hi = l->nr_site;

	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = estim_site_cmp(l->site[mid].offset, l->site[mid].ip, offset, ip);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct estim_site *estim_findnew_site(struct estim *e, struct estim_line *l,
					     uint32_t offset, const struct estim_in *in)
{
	int found;
	size_t pos = estim_site_pos(l, offset, in->ip, &found);
	struct estim_site *s;

	if (found)
		return &l->site[pos];
	l->site = xgrow(l->site, &l->cap_site, l->nr_site + 1, sizeof(*l->site));
	memmove(l->site + pos + 1, l->site + pos, (l->nr_site - pos) * sizeof(*l->site));
	s = &l->site[pos];
	memset(s, 0, sizeof(*s));
	s->offset = offset;
	s->ip = in->ip;
	s->code_al = in->code_al;
	s->cmap = in->cmap;
	s->back = in->back;
	s->id = e->nr_site_ids++;
	l->nr_site++;
	return s;
}

static void estim_add_access(struct estim *e, struct estim_line *l, uint32_t offset,
			     const struct estim_in *in)
{
	struct watch_access a = {
		.time = in->time, .cpu = in->cpu, .tid = in->tid, .ip = in->ip,
		.addr = l->cl + offset, .size = 1, .is_write = estim_is_write(in->kind),
	};

	if (e->opts.mode != ESTIM_WATCH)
		return;
	if (in->cpu == TRACE_CPU_NONE) {
		e->tot.no_cpu++;
		return;
	}
	l->acc = xgrow(l->acc, &l->cap_acc, l->nr_acc + 1, sizeof(*l->acc));
	l->acc[l->nr_acc++] = a;
}

static void estim_tc_add(struct estim_site *s, const struct estim_in *in)
{
	size_t i;

	for (i = 0; i < s->nr_tc && s->tc[i].thread != in->thread; i++)
		;
	if (i == s->nr_tc) {
		s->tc = xgrow(s->tc, &s->cap_tc, s->nr_tc + 1, sizeof(*s->tc));
		memset(&s->tc[i], 0, sizeof(s->tc[i]));
		s->tc[i].thread = in->thread;
		s->tc[i].cpu = in->cpu;
		s->tc[i].t_first = in->time;
		s->nr_tc++;
	}
	if (in->time < s->tc[i].t_first)
		s->tc[i].t_first = in->time;
	if (in->time > s->tc[i].t_last)
		s->tc[i].t_last = in->time;
	if (in->span / 64 >= s->tc[i].nr_span) {
		uint32_t n = in->span / 64 + 1;

		s->tc[i].span = xrealloc(s->tc[i].span, n * sizeof(*s->tc[i].span));
		memset(s->tc[i].span + s->tc[i].nr_span, 0,
		       (n - s->tc[i].nr_span) * sizeof(*s->tc[i].span));
		s->tc[i].nr_span = n;
	}
	s->tc[i].span[in->span / 64] |= 1ULL << (in->span % 64);
	estim_counts_add(&s->tc[i].c, in);
}

/* The time bucket of a sample at @time (estimate.h, ESTIM_SPAN_NS); runs longer than an hour
 * share the last bucket. */
static uint32_t estim_span(struct estim *e, uint64_t time)
{
	uint64_t b;

	if (!e->have_t0) {
		e->t0 = time;
		e->have_t0 = 1;
	}
	b = time > e->t0 ? (time - e->t0) / ESTIM_SPAN_NS : 0;
	return b < 900000 ? (uint32_t)b : 900000;
}

/* Count sampled IP @ip at @s (kept by samples, the most frequent first). */
static void estim_site_sip(struct estim_site *s, uint64_t ip)
{
	uint32_t i;

	for (i = 0; i < s->nr_sip && s->sip[i].ip != ip; i++)
		;
	if (i == s->nr_sip) {
		if (s->nr_sip == ESTIM_SIP_MAX) {
			s->sip_other++;
			return;
		}
		s->sip[s->nr_sip++].ip = ip;
	}
	s->sip[i].samples++;
	for (; i > 0 && s->sip[i].samples > s->sip[i - 1].samples; i--) {
		uint64_t t_ip = s->sip[i].ip, t_n = s->sip[i].samples;

		s->sip[i] = s->sip[i - 1];
		s->sip[i - 1].ip = t_ip;
		s->sip[i - 1].samples = t_n;
	}
}

static void estim_add(struct estim *e, const struct estim_in *in)
{
	struct estim_line *l = estim_line_of(e, in, 1);
	uint32_t offset = (uint32_t)(in->addr & (e->opts.cl_size - 1));
	struct estim_offset *o = estim_findnew_off(l, offset);
	struct estim_site *s = estim_findnew_site(e, l, offset, in);
	int w = estim_is_write(in->kind);

	estim_counts_add(&l->c, in);
	estim_counts_add(&o->c, in);
	estim_counts_add(&s->c, in);
	estim_site_sip(s, in->sip);
	estim_tc_add(s, in);
	if (in->chain)
		callers_count(e->callers, s->id, in->chain);
	estim_set_add(&l->tids, in->tid);
	estim_set_add(&o->tids, in->tid);
	estim_set_add(&s->tids, in->tid);
	estim_set_add(w ? &o->writers : &o->readers, in->tid);
	if (in->cpu != TRACE_CPU_NONE) {
		estim_set_add(&l->cpus, in->cpu);
		estim_set_add(&o->cpus, in->cpu);
		estim_set_add(&s->cpus, in->cpu);
	}
	estim_add_access(e, l, offset, in);
}

static enum estim_kind estim_kind_soft(enum softdec_kind k)
{
	switch (k) {
	case SOFTDEC_LOAD:
	case SOFTDEC_PREFETCH: return ESTIM_K_LOAD;
	case SOFTDEC_STORE: return ESTIM_K_STORE;
	case SOFTDEC_ATOMIC: return ESTIM_K_ATOMIC;
	default: return ESTIM_K_UNKNOWN;
	}
}

/* The access kind: data_src first (op LOAD/STORE, STORE+LOCKED for atomics), else detail. */
static enum estim_kind estim_kind_of(const struct trace_sample *s)
{
	if (s->flags & TRACE_SAMPLE_HAS_DSRC) {
		unsigned op = dsrc_field(s->data_src, DSRC_OP_SHIFT, 5);
		unsigned lock = dsrc_field(s->data_src, DSRC_LOCK_SHIFT, 2);

		if (op & DSRC_OP_STORE)
			return (lock & DSRC_LOCK_LOCKED) ? ESTIM_K_ATOMIC : ESTIM_K_STORE;
		if (op & (DSRC_OP_LOAD | DSRC_OP_PFETCH))
			return ESTIM_K_LOAD;
	}
	return estim_kind_soft(softdec_detail_kind(s->detail));
}

/* The unrecovered bucket of a sample, or -1 when its address is usable. */
static int estim_bucket(const struct estim *e, const struct trace_sample *s)
{
	enum softdec_reason r = softdec_detail_reason(s->detail);

	if (e->opts.mode == ESTIM_SOFT && !softdec_has_addr(r))
		return r < SOFTDEC_REASON__MAX ? (int)r : ESTIM_NO_ADDR;
	if (!(s->flags & TRACE_SAMPLE_HAS_ADDR))
		return ESTIM_NO_ADDR;
	return -1;
}

static int estim_placed(const struct estim *e, const struct trace_sample *s)
{
	switch (e->opts.watch_word_only ? SOFTDEC_ADDR_WORD : softdec_detail_reason(s->detail)) {
	case SOFTDEC_ADDR:
	case SOFTDEC_ADDR_RIP: return ESTIM_PLACED_EXACT;
	case SOFTDEC_ADDR_INFERRED: return ESTIM_PLACED_INFERRED;
	default: return ESTIM_PLACED_WORD;
	}
}

const char *estim_placed_name(int placed)
{
	static const char *const names[] = {
		[ESTIM_PLACED_EXACT] = "exact (from the registers at the trap)",
		[ESTIM_PLACED_INFERRED] = "inferred (operand size and displacement)",
		[ESTIM_PLACED_WORD] = "unknown (start of the watched word)",
	};

	return placed >= 0 && placed <= ESTIM_PLACED_WORD ? names[placed] : "?";
}

/* The code address a sample is charged to (its access instruction, soft), with the map holding
 * it and the instructions left between them (estim_in.back). */
static void estim_code_ip(struct estim *e, struct maps *maps, struct maps_thread *th,
			  const struct trace_sample *ts, struct estim_in *in)
{
	unsigned int back = e->opts.mode == ESTIM_SOFT ? softdec_detail_back(ts->detail) : 0;
	struct maps_loc loc;
	uint64_t ip = ts->ip, at;

	if (!maps_find(maps, th, ts->cpumode, ts->ip, &loc))
		maps_find_any(maps, th, ts->ip, &loc);
	if (e->opts.mode == ESTIM_SOFT && ts->access_ip) {
		ip = ts->access_ip;
		back = 0;
	} else if (back && back < 15 && softdec_detail_kind(ts->detail) != SOFTDEC_KIND_NONE &&
		   e->opts.insn_back && loc.map &&
		   !e->opts.insn_back(e->opts.sym_ctx, loc.map, ts->ip, back, &at)) {
		ip = at;             /* a trace before 1.6: the access found in the binary */
		back = 0;
	}
	in->ip = ip;
	in->sip = ts->ip;
	in->back = back;
	in->cmap = loc.map;
	in->code_al = loc.al_addr + (ip - ts->ip);
}

/* Count a sample without a data address at its code address. */
static void estim_unattr_add(struct estim *e, const struct estim_in *in, int reason)
{
	size_t i, mask;
	uint32_t k;

	if (e->nr_ua * 2 >= e->ua_hash_size) {
		size_t size = e->ua_hash_size ? e->ua_hash_size * 2 : 256;

		free(e->ua_hash);
		e->ua_hash = xcalloc(size, sizeof(*e->ua_hash));
		e->ua_hash_size = size;
		for (k = 0; k < e->nr_ua; k++) {
			for (i = estim_mix(e->ua[k].ip, (uint64_t)e->ua[k].reason) & (size - 1);
			     e->ua_hash[i]; i = (i + 1) & (size - 1))
				;
			e->ua_hash[i] = k + 1;
		}
	}
	mask = e->ua_hash_size - 1;
	for (i = estim_mix(in->ip, (uint64_t)reason) & mask; (k = e->ua_hash[i]); i = (i + 1) & mask)
		if (e->ua[k - 1].ip == in->ip && e->ua[k - 1].reason == reason)
			break;
	if (!k) {
		e->ua = xgrow(e->ua, &e->cap_ua, e->nr_ua + 1, sizeof(*e->ua));
		e->ua[e->nr_ua] = (struct estim_unattr){ .ip = in->ip, .code_al = in->code_al,
							  .cmap = in->cmap, .reason = reason };
		e->ua_hash[i] = k = (uint32_t)++e->nr_ua;
	}
	e->ua[k - 1].samples++;
	e->ua[k - 1].weight += in->weight;
}

/* The candidate accesses of soft sample @ts that carry a data address: its own (when @own) and,
 * when it was inferred, the others the recorder listed. Returns how many. */
static int estim_cands(struct estim *e, struct maps *maps, struct maps_thread *th,
		       const struct trace_sample *ts, const struct estim_in *in, int own,
		       struct estim_cand *c)
{
	int n = 0;

	if (own)
		c[n++] = (struct estim_cand){ .addr = ts->addr, .ip = in->ip, .code_al = in->code_al,
					      .kind = estim_kind_of(ts), .cmap = in->cmap };
	if (e->opts.mode == ESTIM_SOFT && !e->opts.phys && (ts->access_flags & SOFTDEC_ACC_INFERRED))
		for (unsigned int i = 0; i < ts->nr_alt && i < TRACE_ALT_MAX; i++) {
			uint16_t d = ts->alt_detail[i];

			if (!softdec_has_addr(softdec_detail_reason(d)))
				continue;
			c[n++] = (struct estim_cand){ .addr = ts->alt[i].addr, .ip = ts->alt[i].ip,
						      .code_al = in->code_al + (ts->alt[i].ip - in->ip),
						      .kind = estim_kind_soft(softdec_detail_kind(d)),
						      .cmap = in->cmap };
		}
	for (int i = 0; i < n; i++) {
		struct maps_loc loc;

		maps_find(maps, th, ts->cpumode, c[i].addr, &loc);
		c[i].dmap = loc.map;
		c[i].al_addr = loc.al_addr;
	}
	return n;
}

static void estim_use_cand(struct estim_in *in, const struct estim_cand *c)
{
	in->addr = c->addr;
	in->al_addr = c->al_addr;
	in->dmap = c->dmap;
	in->ip = c->ip;
	in->code_al = c->code_al;
	in->cmap = c->cmap;
	in->kind = c->kind;
}

/* The CPU, kind and addresses of a sample with a data address, and their maps. */
static void estim_locate(struct maps *maps, struct maps_thread *th, const struct trace_sample *ts,
			 struct estim_in *in)
{
	struct maps_loc loc;

	in->cpu = (ts->flags & TRACE_SAMPLE_HAS_CPU) ? ts->cpu : TRACE_CPU_NONE;
	in->kind = estim_kind_of(ts);
	in->addr = ts->addr;
	maps_find(maps, th, ts->cpumode, ts->addr, &loc);
	in->dmap = loc.map;
	in->al_addr = loc.al_addr;
	if (!maps_find(maps, th, ts->cpumode, ts->ip, &loc))
		maps_find_any(maps, th, ts->ip, &loc);
	in->cmap = loc.map;
	in->code_al = loc.al_addr;
}

static void estim_feed_sample(struct estim *e, struct maps *maps, const struct trace_sample *ts)
{
	struct maps_thread *th = maps_findnew_thread(maps, (int32_t)ts->pid, (int32_t)ts->tid);
	struct estim_in in = { .time = ts->time, .tid = ts->tid, .pid = (int32_t)ts->pid,
			       .cpumode = ts->cpumode, .span = estim_span(e, ts->time) };
	struct estim_cand c[ESTIM_CAND_MAX];
	int b = estim_bucket(e, ts), n;

	in.thread = th;
	in.weight = e->opts.mode == ESTIM_WATCH ? 1
		    : (ts->flags & TRACE_SAMPLE_HAS_WEIGHT) ? ts->weight : 1;
	e->tot.samples++;
	e->tot.weight += in.weight;
	estim_code_ip(e, maps, th, ts, &in);
	if (e->opts.phys && b < 0 && (!(ts->flags & TRACE_SAMPLE_HAS_PHYS) || !ts->phys_addr)) {
		e->tot.no_phys++;
		return;
	}
	n = estim_cands(e, maps, th, ts, &in, b < 0, c);
	if (!n) {
		e->tot.reason[b]++;
		e->tot.reason_weight[b] += in.weight;
		estim_unattr_add(e, &in, b);
		return;
	}
	in.phys = ts->phys_addr;
	e->tot.recovered++;
	e->tot.recovered_weight += in.weight;
	if (e->opts.mode == ESTIM_WATCH)
		e->tot.placed[estim_placed(e, ts)]++;
	in.cpu = (ts->flags & TRACE_SAMPLE_HAS_CPU) ? ts->cpu : TRACE_CPU_NONE;
	if (e->callers && ts->chain_nr)
		in.chain = callers_intern_sample(e->callers, maps, th, ts->chain, ts->chain_nr);
	in.inferred = e->opts.mode == ESTIM_SOFT && (ts->access_flags & SOFTDEC_ACC_INFERRED);
	estim_use_cand(&in, &c[0]);
	if (n == 1) {
		if (in.inferred) {
			e->tot.inferred++;
			e->tot.inferred_weight += in.weight;
		}
		estim_add(e, &in);
		return;
	}
	e->pend = xgrow(e->pend, &e->cap_pend, e->nr_pend + 1, sizeof(*e->pend));
	e->pend[e->nr_pend] = (struct estim_pend){ .in = in, .n = (uint8_t)n, .one_line = 1 };
	memcpy(e->pend[e->nr_pend].c, c, (size_t)n * sizeof(*c));
	for (int i = 1; i < n; i++)
		if (c[i].dmap != c[0].dmap ||
		    (c[i].al_addr ^ c[0].al_addr) & ~(uint64_t)(e->opts.cl_size - 1))
			e->pend[e->nr_pend].one_line = 0;
	e->nr_pend++;
}

/* --- soft: confirmation hits and windows (estimate.h) ---------------------------------------- */

struct estim_chit {
	struct watch_access a;
	size_t after;            /* window blobs read before the hit */
	ssize_t win;             /* its window (estim_finish), -1: none */
};

static int estim_is_confirm(const struct estim *e, const struct trace_sample *s)
{
	return e->opts.mode == ESTIM_SOFT && e->opts.confirm_event && s->event < e->opts.nr_events &&
	       e->opts.confirm_event[s->event];
}

static struct estim_confirm *estim_cf(struct estim_line *l)
{
	if (!l->cf)
		l->cf = xcalloc(1, sizeof(*l->cf));
	return l->cf;
}

static void estim_cf_free(struct estim_confirm *cf)
{
	if (!cf)
		return;
	free(cf->acc);
	free(cf->coarm);
	free(cf->hit);
	free(cf);
}

static void estim_cf_count(struct estim_confirm *cf, uint32_t offset, uint32_t size,
			   const struct estim_in *in)
{
	size_t i;

	for (i = 0; i < cf->nr_acc; i++)
		if (cf->acc[i].offset == offset && cf->acc[i].thread == in->thread)
			break;
	if (i == cf->nr_acc) {
		size_t pos = 0;

		while (pos < cf->nr_acc && cf->acc[pos].offset <= offset)
			pos++;
		cf->acc = xgrow(cf->acc, &cf->cap_acc, cf->nr_acc + 1, sizeof(*cf->acc));
		memmove(cf->acc + pos + 1, cf->acc + pos, (cf->nr_acc - pos) * sizeof(*cf->acc));
		memset(&cf->acc[pos], 0, sizeof(cf->acc[pos]));
		cf->acc[pos].offset = offset;
		cf->acc[pos].thread = in->thread;
		cf->acc[pos].ip = in->ip;
		cf->acc[pos].code_al = in->code_al;
		cf->acc[pos].cmap = in->cmap;
		cf->acc[pos].t_first = in->time;
		cf->nr_acc++;
		i = pos;
	}
	if (in->time < cf->acc[i].t_first)
		cf->acc[i].t_first = in->time;
	if (in->time > cf->acc[i].t_last)
		cf->acc[i].t_last = in->time;
	if (size > cf->acc[i].size)
		cf->acc[i].size = size;
	switch (in->kind) {
	case ESTIM_K_STORE: cf->acc[i].writes++; break;
	case ESTIM_K_ATOMIC: cf->acc[i].atomics++; break;
	default: cf->acc[i].reads++; break;
	}
}

/* A confirmation hit: counted on its line, kept for the model. */
static void estim_feed_hit(struct estim *e, struct maps *maps, const struct trace_sample *ts)
{
	struct maps_thread *th = maps_findnew_thread(maps, (int32_t)ts->pid, (int32_t)ts->tid);
	struct estim_in in = { .ip = ts->ip, .time = ts->time, .tid = ts->tid,
			       .pid = (int32_t)ts->pid, .cpumode = ts->cpumode, .thread = th };
	struct estim_confirm *cf;
	struct estim_chit *h;
	struct estim_line *l;
	uint32_t offset, size;

	e->tot.confirm_hits++;
	if (!(ts->flags & TRACE_SAMPLE_HAS_ADDR) || (e->opts.phys &&
	    (!(ts->flags & TRACE_SAMPLE_HAS_PHYS) || !ts->phys_addr)))
		return;
	in.phys = ts->phys_addr;
	estim_locate(maps, th, ts, &in);
	l = estim_line_of(e, &in, 1);
	cf = estim_cf(l);
	offset = (uint32_t)(in.addr & (e->opts.cl_size - 1));
	size = (ts->flags & TRACE_SAMPLE_HAS_WEIGHT) && ts->weight && ts->weight <= 8 ?
	       (uint32_t)ts->weight : 0;
	if (size && offset + size > e->opts.cl_size)
		size = e->opts.cl_size - offset;
	cf->hits++;
	estim_cf_count(cf, offset, size, &in);
	if (in.cpu == TRACE_CPU_NONE)
		return;
	cf->hit = xgrow(cf->hit, &cf->cap_hit, cf->nr_hit + 1, sizeof(*cf->hit));
	h = &cf->hit[cf->nr_hit++];
	h->a = (struct watch_access){ .time = in.time, .cpu = in.cpu, .tid = in.tid, .ip = in.ip,
				      .addr = l->cl + offset, .size = size ? size : 1,
				      .is_write = estim_is_write(in.kind) };
	h->after = e->nr_win;
	h->win = -1;
}

static void estim_feed_blob(struct estim *e, const struct trace_blob *b)
{
	struct c2c_confirm_window w;

	if (e->opts.mode != ESTIM_SOFT)
		return;
	if (b->kind == TRACE_BLOB_CONFIRM_RUN) {
		if (c2c_confirm_run_parse(b->data, b->size, &e->tot.confirm))
			e->tot.confirm_bad++;
		else
			e->tot.have_confirm = 1;
		return;
	}
	if (b->kind != TRACE_BLOB_CONFIRM_WINDOW)
		return;
	if (c2c_confirm_window_parse(b->data, b->size, &w)) {
		e->tot.confirm_bad++;
		return;
	}
	e->win = xgrow(e->win, &e->cap_win, e->nr_win + 1, sizeof(*e->win));
	e->win[e->nr_win++] = w;
	e->tot.confirm_windows++;
}

/* Bit of the 8-byte word holding line offset @off. */
static uint32_t estim_word_bit(uint32_t off)
{
	return off / 8 < 32 ? 1u << (off / 8) : 0;
}

/* The words window @w armed on the line at @vaddr (0: none). */
static uint32_t estim_win_words(const struct c2c_confirm_window *w, uint64_t vaddr, uint32_t cl)
{
	uint32_t bits = 0;

	for (uint32_t i = 0; i < w->nr_words; i++)
		if ((w->word[i].addr & ~(uint64_t)(cl - 1)) == vaddr)
			bits |= estim_word_bit((uint32_t)(w->word[i].addr & (cl - 1)));
	return bits;
}

static int estim_chit_cmp(const void *pa, const void *pb)
{
	const struct estim_chit *a = pa, *b = pb;

	if (a->win != b->win)
		return (a->win > b->win) - (a->win < b->win);
	if (a->a.time != b->a.time)
		return (a->a.time > b->a.time) - (a->a.time < b->a.time);
	return (a->a.cpu > b->a.cpu) - (a->a.cpu < b->a.cpu);
}

static void estim_cf_model(struct estim *e, struct estim_line *l, struct watch_access *acc,
			   size_t n)
{
	struct estim_confirm *cf = l->cf;
	struct watch_model *m;

	if (!n || watch_model_new(&m, e->opts.cl_size))
		return;
	if (!watch_model_add_all(m, acc, n) && watch_model_nr_lines(m) == 1) {
		const struct watch_line *wl = watch_model_line(m, 0);

		watch_stats_add(&cf->ws, &wl->total);
		for (size_t i = 0; i < wl->nr_sites; i++)
			for (size_t k = 0; k < cf->nr_acc; k++)
				if (cf->acc[k].offset == wl->sites[i].offset &&
				    (uint32_t)cf->acc[k].thread->tid == wl->sites[i].tid) {
					watch_stats_add(&cf->acc[k].ws, &wl->sites[i].st);
					break;
				}
	}
	watch_model_free(m);
}

static int estim_vaddr_cmp(const void *pa, const void *pb)
{
	const struct estim_line *a = *(struct estim_line *const *)pa;
	const struct estim_line *b = *(struct estim_line *const *)pb;

	if (a->vaddr != b->vaddr)
		return (a->vaddr > b->vaddr) - (a->vaddr < b->vaddr);
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The windows of every line, then each line's hits replayed window by window. */
static void estim_cf_finish(struct estim *e)
{
	struct estim_line **by = xmalloc((e->nr_lines ? e->nr_lines : 1) * sizeof(*by));
	size_t i, k;

	if (e->nr_lines) {
		memcpy(by, e->lines, e->nr_lines * sizeof(*by));
		qsort(by, e->nr_lines, sizeof(*by), estim_vaddr_cmp);
	}
	for (k = 0; k < e->nr_win && e->nr_lines; k++) {
		const struct c2c_confirm_window *w = &e->win[k];
		uint64_t vaddr = w->line & ~(uint64_t)(e->opts.cl_size - 1);
		size_t lo = 0, hi = e->nr_lines;

		while (lo < hi) {        /* the first line at vaddr or above */
			size_t mid = (lo + hi) / 2;

			if (by[mid]->vaddr < vaddr)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < e->nr_lines && by[i]->vaddr == vaddr; i++) {
			struct estim_line *l = by[i];
			uint32_t bits = l->phys ? 0 : estim_win_words(w, l->vaddr, e->opts.cl_size);
			struct estim_confirm *cf;
			size_t c;

			if (!bits)
				continue;
			cf = estim_cf(l);
			if (!cf->windows++)
				e->tot.confirm_lines++;
			cf->armed_ns += w->armed_ns;
			for (c = 0; c < cf->nr_coarm && cf->coarm[c].words != bits; c++)
				;
			if (c == cf->nr_coarm) {
				cf->coarm = xgrow(cf->coarm, &cf->cap_coarm, c + 1, sizeof(*cf->coarm));
				memset(&cf->coarm[c], 0, sizeof(cf->coarm[c]));
				cf->coarm[c].words = bits;
				cf->nr_coarm++;
			}
			cf->coarm[c].windows++;
			cf->coarm[c].armed_ns += w->armed_ns;
		}
	}
	free(by);
	for (i = 0; i < e->nr_lines; i++) {
		struct estim_line *l = e->lines[i];
		struct estim_confirm *cf = l->cf;
		struct watch_access *acc;
		size_t n = 0, start;

		if (!cf)
			continue;
		for (k = 0; k < cf->nr_hit; k++) {
			struct estim_chit *h = &cf->hit[k];
			uint32_t bit = estim_word_bit((uint32_t)(h->a.addr & (e->opts.cl_size - 1)));

			if (h->after < e->nr_win &&
			    (estim_win_words(&e->win[h->after], l->vaddr, e->opts.cl_size) & bit))
				h->win = (ssize_t)h->after;
			else if (h->after > 0 && (estim_win_words(&e->win[h->after - 1], l->vaddr,
								  e->opts.cl_size) & bit))
				h->win = (ssize_t)h->after - 1;
			if (h->win < 0)
				cf->unplaced++;
			else
				for (size_t c = 0; c < cf->nr_coarm; c++)
					if (cf->coarm[c].words == estim_win_words(&e->win[h->win],
										   l->vaddr, e->opts.cl_size))
						cf->coarm[c].hits++;
		}
		if (cf->nr_hit)
			qsort(cf->hit, cf->nr_hit, sizeof(*cf->hit), estim_chit_cmp);
		acc = xmalloc((cf->nr_hit ? cf->nr_hit : 1) * sizeof(*acc));
		for (k = 0; k <= cf->nr_hit; k++) {
			if (k < cf->nr_hit && cf->hit[k].win < 0)
				continue;
			if (n && (k == cf->nr_hit || cf->hit[k].win != cf->hit[start].win)) {
				estim_cf_model(e, l, acc, n);
				n = 0;
			}
			if (k == cf->nr_hit)
				break;
			if (!n)
				start = k;
			acc[n++] = cf->hit[k].a;
		}
		free(acc);
		free(cf->hit);
		cf->hit = NULL;
		cf->nr_hit = cf->cap_hit = 0;
		for (k = 0; k < cf->nr_acc && e->opts.code_sym; k++)
			cf->acc[k].has_code = !e->opts.code_sym(e->opts.sym_ctx, cf->acc[k].cmap,
								cf->acc[k].ip, cf->acc[k].code_al,
								&cf->acc[k].code);
		/* the co-armed sets by armed time */
		for (k = 1; k < cf->nr_coarm; k++)
			for (size_t j = k; j > 0 && cf->coarm[j].armed_ns > cf->coarm[j - 1].armed_ns;
			     j--) {
				struct estim_coarm t = cf->coarm[j];

				cf->coarm[j] = cf->coarm[j - 1];
				cf->coarm[j - 1] = t;
			}
	}
}

static void estim_feed_lost(struct estim *e, const struct trace_lost *lo)
{
	if (lo->kind == TRACE_LOST_RECORDS)
		e->tot.lost_records += lo->count;
	else if (lo->kind == TRACE_LOST_SAMPLES)
		e->tot.lost_samples += lo->count;
	else if (lo->kind == TRACE_LOST_THROTTLE)
		e->tot.throttle++;
}

void estim_feed(struct estim *e, struct maps *maps, const struct trace_event *ev)
{
	switch (ev->type) {
	case TRACE_REC_SAMPLE:
		if (estim_is_confirm(e, &ev->sample))
			estim_feed_hit(e, maps, &ev->sample);
		else
			estim_feed_sample(e, maps, &ev->sample);
		break;
	case TRACE_REC_BLOB: estim_feed_blob(e, &ev->blob); break;
	case TRACE_REC_MMAP: maps_mmap(maps, &ev->mmap); break;
	case TRACE_REC_COMM: maps_comm(maps, &ev->comm); break;
	case TRACE_REC_FORK: maps_fork(maps, &ev->task); break;
	case TRACE_REC_EXIT: maps_exit(maps, &ev->task); break;
	case TRACE_REC_LOST: estim_feed_lost(e, &ev->lost); break;
	default: break;
	}
}

/* --- watch model ---------------------------------------------------------------------------- */

static void estim_watch_sites(struct estim_line *l, const struct watch_line *wl)
{
	size_t i, pos;
	int found;

	l->ws = wl->total;
	for (i = 0; i < l->nr_off; i++)
		if (l->off[i].offset < WATCH_LINE_MAX)
			l->off[i].ws = wl->by_offset[l->off[i].offset];
	for (i = 0; i < wl->nr_sites; i++) {
		struct estim_site *s;
		size_t k;

		pos = estim_site_pos(l, wl->sites[i].offset, wl->sites[i].ip, &found);
		if (!found)
			continue;
		s = &l->site[pos];
		watch_stats_add(&s->ws, &wl->sites[i].st);
		for (k = 0; k < s->nr_tc; k++)
			if ((uint32_t)s->tc[k].thread->tid == wl->sites[i].tid)
				watch_stats_add(&s->tc[k].ws, &wl->sites[i].st);
	}
}

static void estim_watch_line(struct estim *e, struct estim_line *l)
{
	struct watch_model *m;
	size_t i, n = 0;

	if (!l->nr_acc)
		return;
	if (watch_model_new(&m, e->opts.cl_size)) {
		e->tot.model_errors += l->nr_acc;
		return;
	}
	for (i = 0; i < l->nr_acc; i++) {
		if (l->acc[i].cpu > 4095)
			e->tot.model_errors++;
		else
			l->acc[n++] = l->acc[i];
	}
	if (watch_model_add_all(m, l->acc, n))
		e->tot.model_errors += n;
	else if (watch_model_nr_lines(m) == 1)
		estim_watch_sites(l, watch_model_line(m, 0));
	watch_model_free(m);
	free(l->acc);
	l->acc = NULL;
	l->nr_acc = l->cap_acc = 0;
}

/* --- ordering and symbols ------------------------------------------------------------------- */

static int estim_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

static int estim_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct estim_line *a = *(struct estim_line *const *)pa;
	const struct estim_line *b = *(struct estim_line *const *)pb;
	const struct estim *e = arg;
	struct estim_key ka, kb;
	int c;

	if (e->opts.mode == ESTIM_WATCH) {
		if ((c = estim_desc(a->ws.hitm, b->ws.hitm)) ||
		    (c = estim_desc(a->ws.inval, b->ws.inval)))
			return c;
	} else if ((c = estim_desc(a->c.weight, b->c.weight))) {
		return c;
	}
	if ((c = estim_desc(a->c.samples, b->c.samples)))
		return c;
	estim_line_key(a, &ka);
	estim_line_key(b, &kb);
	if ((c = estim_key_cmp(&ka, &kb)))
		return c;
	return estim_u64_cmp(a->seq, b->seq);
}

static int estim_frame_sym(void *ctx, const struct callers_frame *f, const char **symbol,
			   uint64_t *start)
{
	const struct estim *e = ctx;
	struct estim_code code = { 0 };

	if (!f->map || e->opts.code_sym(e->opts.sym_ctx, f->map, f->ip, f->al, &code) ||
	    !code.symbol)
		return -1;
	*symbol = code.symbol;
	*start = f->ip - code.sym_offset;
	return 0;
}

static void estim_resolve(struct estim *e, struct estim_line *l)
{
	size_t i, k;

	for (i = 0; i < l->nr_site && e->opts.code_sym; i++) {
		struct estim_site *s = &l->site[i];

		s->has_code = !e->opts.code_sym(e->opts.sym_ctx, s->cmap, s->ip, s->code_al,
						&s->code);
	}
	for (i = 0; i < l->nr_site && e->callers; i++) {
		struct estim_site *s = &l->site[i];

		s->nr_callers = callers_of_row(e->callers, s->id, &s->callers);
		for (k = 0; k < s->nr_callers; k++)
			callers_resolve(e->callers, s->callers[k].chain,
					e->opts.code_sym ? estim_frame_sym : NULL, e);
	}
}

const struct callers *estim_callers(const struct estim *e)
{
	return e->callers;
}

static int estim_u64_sort(const void *a, const void *b)
{
	return estim_u64_cmp(*(const uint64_t *)a, *(const uint64_t *)b);
}

static uint32_t estim_count_ips(const struct estim_line *l)
{
	uint64_t *ip;
	uint32_t n = 0;
	size_t i;

	if (!l->nr_site)
		return 0;
	ip = xmalloc(l->nr_site * sizeof(*ip));
	for (i = 0; i < l->nr_site; i++)
		ip[i] = l->site[i].ip;
	qsort(ip, l->nr_site, sizeof(*ip), estim_u64_sort);
	for (i = 0; i < l->nr_site; i++)
		n += !i || ip[i] != ip[i - 1];
	free(ip);
	return n;
}

/* Samples of thread @th that a candidate's site saw exactly (not inferred). */
static uint64_t estim_exact(struct estim *e, const struct estim_in *in)
{
	struct estim_line *l = estim_line_of(e, in, 0);
	uint32_t offset = (uint32_t)(in->addr & (e->opts.cl_size - 1));
	size_t pos;
	int found;

	if (!l)
		return 0;
	pos = estim_site_pos(l, offset, in->ip, &found);
	if (!found)
		return 0;
	for (size_t i = 0; i < l->site[pos].nr_tc; i++)
		if (l->site[pos].tc[i].thread == in->thread)
			return l->site[pos].tc[i].c.samples - l->site[pos].tc[i].c.inferred;
	return 0;
}

/* The samples of one thread with one set of candidates share a credit per candidate. */
struct estim_group {
	const struct maps_thread *thread;
	uint64_t ip[ESTIM_CAND_MAX], addr[ESTIM_CAND_MAX];
	uint8_t n;
	double credit[ESTIM_CAND_MAX];
};

static struct estim_group *estim_group_of(struct estim_group **g, size_t *nr, size_t *cap,
					  const struct estim_pend *p)
{
	for (size_t i = 0; i < *nr; i++) {
		struct estim_group *x = &(*g)[i];
		int same = x->thread == p->in.thread && x->n == p->n;

		for (int k = 0; same && k < p->n; k++)
			same = x->ip[k] == p->c[k].ip && x->addr[k] == p->c[k].addr;
		if (same)
			return x;
	}
	*g = xgrow(*g, cap, *nr + 1, sizeof(**g));
	memset(&(*g)[*nr], 0, sizeof(**g));
	(*g)[*nr].thread = p->in.thread;
	(*g)[*nr].n = p->n;
	for (int k = 0; k < p->n; k++) {
		(*g)[*nr].ip[k] = p->c[k].ip;
		(*g)[*nr].addr[k] = p->c[k].addr;
	}
	return &(*g)[(*nr)++];
}

/* Charge each inferred sample to one of its candidates, in proportion to the samples its
 * thread was seen taking at each exactly: the samples of one thread and one set of candidates
 * share a credit per candidate, each sample adds its shares and goes to the largest credit,
 * which pays one. A thread seen at none of them exactly: the recorder's pick (the first). */
static void estim_charge_inferred(struct estim *e)
{
	struct estim_group *g = NULL;
	size_t nr_g = 0, cap_g = 0;

	for (size_t i = 0; i < e->nr_pend; i++) {
		struct estim_pend *p = &e->pend[i];
		struct estim_group *x = estim_group_of(&g, &nr_g, &cap_g, p);
		double sum = 0, seen[ESTIM_CAND_MAX];
		int pick = 0;

		for (int k = 0; k < p->n; k++) {
			struct estim_in in = p->in;

			estim_use_cand(&in, &p->c[k]);
			sum += seen[k] = (double)estim_exact(e, &in);
		}
		if (sum > 0) {
			for (int k = 0; k < p->n; k++) {
				x->credit[k] += seen[k] / sum;
				if (x->credit[k] > x->credit[pick])
					pick = k;
			}
			x->credit[pick] -= 1;
		} else {
			e->tot.inferred_unseen++;
		}
		e->tot.inferred++;
		e->tot.inferred_weight += p->in.weight;
		e->tot.inferred_one_line += p->one_line;
		estim_use_cand(&p->in, &p->c[pick]);
		estim_add(e, &p->in);
	}
	free(g);
	free(e->pend);
	e->pend = NULL;
	e->nr_pend = e->cap_pend = 0;
}

static int estim_unattr_cmp(const void *pa, const void *pb)
{
	const struct estim_unattr *a = pa, *b = pb;
	int c;

	if ((c = estim_desc(a->weight, b->weight)) || (c = estim_desc(a->samples, b->samples)) ||
	    (c = estim_u64_cmp(a->ip, b->ip)))
		return c;
	return (a->reason > b->reason) - (a->reason < b->reason);
}

/* Sort the code addresses without a data address and resolve the heaviest. */
static void estim_finish_unattr(struct estim *e)
{
	free(e->ua_hash);
	e->ua_hash = NULL;
	e->ua_hash_size = 0;
	if (e->nr_ua > 1)
		qsort(e->ua, e->nr_ua, sizeof(*e->ua), estim_unattr_cmp);
	for (size_t i = 0; i < e->nr_ua && i < ESTIM_UNATTR_RESOLVE && e->opts.code_sym; i++)
		e->ua[i].has_code = !e->opts.code_sym(e->opts.sym_ctx, e->ua[i].cmap, e->ua[i].ip,
						      e->ua[i].code_al, &e->ua[i].code);
}

size_t estim_unattr(const struct estim *e, const struct estim_unattr **out)
{
	*out = e->ua;
	return e->nr_ua;
}

void estim_finish(struct estim *e)
{
	size_t i;

	if (e->finished)
		return;
	e->finished = 1;
	estim_charge_inferred(e);
	estim_finish_unattr(e);
	estim_cf_finish(e);
	for (i = 0; i < e->nr_lines; i++) {
		struct estim_line *l = e->lines[i];

		estim_watch_line(e, l);
		l->nr_ips = estim_count_ips(l);
		e->tot.unknown_kind += l->c.unknown;
		estim_resolve(e, l);
	}
	if (e->nr_lines)
		qsort_r(e->lines, e->nr_lines, sizeof(*e->lines), estim_line_cmp, e);
}

/* --- results -------------------------------------------------------------------------------- */

const struct estim_opts *estim_opts(const struct estim *e)
{
	return &e->opts;
}

const struct estim_totals *estim_totals(const struct estim *e)
{
	return &e->tot;
}

size_t estim_nr_lines(const struct estim *e)
{
	return e->nr_lines;
}

const struct estim_line *estim_line(const struct estim *e, size_t i)
{
	return i < e->nr_lines ? e->lines[i] : NULL;
}

static int estim_counts_eq(const struct estim_counts *a, const struct estim_counts *b)
{
	return a->weight == b->weight && a->samples == b->samples && a->loads == b->loads &&
	       a->stores == b->stores && a->atomics == b->atomics && a->unknown == b->unknown &&
	       a->inferred == b->inferred;
}

static void estim_counts_sum(struct estim_counts *d, const struct estim_counts *s)
{
	d->weight += s->weight;
	d->samples += s->samples;
	d->loads += s->loads;
	d->stores += s->stores;
	d->atomics += s->atomics;
	d->unknown += s->unknown;
	d->inferred += s->inferred;
}

static int estim_check_line(const struct estim_line *l)
{
	struct estim_counts off = { 0 }, site = { 0 };
	size_t i;

	for (i = 0; i < l->nr_off; i++)
		estim_counts_sum(&off, &l->off[i].c);
	for (i = 0; i < l->nr_site; i++)
		estim_counts_sum(&site, &l->site[i].c);
	if (!estim_counts_eq(&off, &l->c) || !estim_counts_eq(&site, &l->c))
		return c2c_err(-EBADMSG, "estimate: line %#llx: offsets or sites do not add up",
			       (unsigned long long)l->addr);
	if (l->c.samples != l->c.loads + l->c.stores + l->c.atomics + l->c.unknown)
		return c2c_err(-EBADMSG, "estimate: line %#llx: kinds do not add up",
			       (unsigned long long)l->addr);
	return 0;
}

int estim_check(const struct estim *e)
{
	uint64_t samples = 0, weight = 0, unrec = 0, unrec_w = 0;
	size_t i;
	int err;

	for (i = 0; i < e->nr_lines; i++) {
		if ((err = estim_check_line(e->lines[i])))
			return err;
		samples += e->lines[i]->c.samples;
		weight += e->lines[i]->c.weight;
	}
	for (i = 0; i < ESTIM_NR_REASONS; i++) {
		unrec += e->tot.reason[i];
		unrec_w += e->tot.reason_weight[i];
	}
	if (samples != e->tot.recovered || weight != e->tot.recovered_weight ||
	    samples + unrec != e->tot.samples || weight + unrec_w != e->tot.weight)
		return c2c_err(-EBADMSG, "estimate: totals do not equal the lines plus the "
			       "unrecovered samples");
	return 0;
}
