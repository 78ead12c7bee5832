/* estimate: folds soft and watch samples into cachelines, offsets and (offset, code address)
 * sites, counts unrecovered soft samples by reason, then judges each line (true, false or no
 * sharing) from which threads read and write which offsets. Invariant: every sample fed lands
 * either in exactly one line, offset and site, or in exactly one unrecovered bucket.
 *
 * The table's files: estimate.c (this one: samples folded into lines, offsets and sites),
 * estimate-confirm.c (the soft backend's confirmation hits, replayed window by window),
 * estimate-finish.c (estim_finish(): the watch model, inferred samples charged, order, symbols)
 * and estimate-results.c (the public view of a finished table); estimate-int.h their shared
 * structs. Callers include report/aggregate/estimate.h only. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/estimate-int.h"

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

int estim_is_write(enum estim_kind k)
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

void estim_line_key(const struct estim_line *l, struct estim_key *k)
{
	if (l->phys)
		estim_key_of(k, 0, NULL, 0, l->cl);
	else
		estim_key_of(k, l->cpumode, l->dmap, l->key_pid, l->cl);
}

int estim_u64_cmp(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

int estim_key_cmp(const struct estim_key *a, const struct estim_key *b)
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
struct estim_line *estim_line_of(struct estim *e, const struct estim_in *in, int create)
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

size_t estim_site_pos(const struct estim_line *l, uint32_t offset, uint64_t ip, int *found)
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

void estim_add(struct estim *e, const struct estim_in *in)
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

void estim_use_cand(struct estim_in *in, const struct estim_cand *c)
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
void estim_locate(struct maps *maps, struct maps_thread *th, const struct trace_sample *ts,
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
