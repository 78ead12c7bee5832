/* The test-only Arm SPE encoder (see spe-enc.h). Records are kept per CPU as they come and laid
 * out as bytes when the writer takes a CPU's buffer, because an alignment packet's length depends
 * on the address the buffer is read at. The packet layouts are the Arm ARM's (D10.2); the choices
 * between equivalent forms come from a seeded generator, so a file is the same for the same seed. */
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/dsrc.h"
#include "tests/tools/gen/spe-enc.h"

#define A56 ((1ull << 56) - 1)

enum { R_MEM, R_BRANCH };

struct rec {
	int kind;
	uint64_t ip, va, pa, tsc, tgt;
	uint32_t tid, lat;
	int store, op_class;      /* op_class 1 load/store, 0 other, 2 branch */
	int ds_set;
	uint8_t ds;
	uint64_t events;
};

struct cpu_stream {
	struct rec *r;
	size_t nr, cap;
	uint8_t *carry;           /* bytes of a record left for the next buffer */
	size_t nr_carry;
	uint8_t *out;
	size_t len, cap_out;
	int started;
};

struct spe_enc {
	struct spe_enc_opts o;
	uint64_t rng;
	struct cpu_stream *cpu;
	unsigned int nr_cpus;
	size_t pkt_at[32];        /* where the packets of the record being laid out begin */
	unsigned int nr_pkt;
};

static uint64_t rnd(struct spe_enc *e)
{
	e->rng ^= e->rng >> 12;
	e->rng ^= e->rng << 25;
	e->rng ^= e->rng >> 27;
	return e->rng * 2685821657736338717ULL;
}

static int chance(struct spe_enc *e, unsigned int one_in)
{
	return rnd(e) % one_in == 0;
}

struct spe_enc *spe_enc_new(const struct spe_enc_opts *o, unsigned int nr_cpus)
{
	struct spe_enc *e = xcalloc(1, sizeof(*e));

	e->o = *o;
	e->rng = o->seed * 0x9e3779b97f4a7c15ULL + 0x5be;
	e->nr_cpus = nr_cpus ? nr_cpus : 1;
	e->cpu = xcalloc(e->nr_cpus, sizeof(*e->cpu));
	return e;
}

void spe_enc_free(struct spe_enc *e)
{
	unsigned int i;

	if (!e)
		return;
	for (i = 0; i < e->nr_cpus; i++) {
		free(e->cpu[i].r);
		free(e->cpu[i].carry);
		free(e->cpu[i].out);
	}
	free(e->cpu);
	free(e);
}

static struct cpu_stream *stream(struct spe_enc *e, unsigned int cpu)
{
	return &e->cpu[cpu < e->nr_cpus ? cpu : 0];
}

static struct rec *new_rec(struct spe_enc *e, unsigned int cpu)
{
	struct cpu_stream *c = stream(e, cpu);

	c->r = xgrow(c->r, &c->cap, c->nr + 1, sizeof(*c->r));
	memset(&c->r[c->nr], 0, sizeof(c->r[0]));
	return &c->r[c->nr++];
}

/* ---- what a sample becomes ---------------------------------------------------------------- */

static uint64_t ev_bit(unsigned int b)
{
	return 1ull << b;
}

/* Neoverse data source and events for a perf data_src (the level the sample says it hit). */
static void from_data_src(struct spe_enc *e, uint64_t dsrc, struct rec *r)
{
	unsigned int lvl = dsrc_field(dsrc, DSRC_LVL_SHIFT, 14);
	unsigned int snoop = dsrc_field(dsrc, DSRC_SNOOP_SHIFT, 5);
	uint64_t l1 = ev_bit(2), l1m = ev_bit(3), llc = ev_bit(8), llcm = ev_bit(9), rem = ev_bit(10);

	r->ds_set = 1;
	if (lvl & (DSRC_LVL_L1 | DSRC_LVL_LFB)) {
		r->ds = 0x0;
		r->events |= l1 | (lvl & DSRC_LVL_MISS ? l1m : 0);
	} else if (lvl & DSRC_LVL_L2) {
		r->ds = chance(e, 3) ? 0x9 : 0x8;
		r->events |= l1 | l1m;
	} else if (lvl & DSRC_LVL_L3) {
		r->ds = snoop & DSRC_SNOOP_HITM ? (chance(e, 2) ? 0x9 : 0xa) :
			snoop & DSRC_SNOOP_HIT ? 0xb : 0xa;
		r->events |= l1 | l1m | llc;
	} else if (lvl & (DSRC_LVL_REM_CCE1 | DSRC_LVL_REM_CCE2)) {
		r->ds = chance(e, 2) ? 0xd : 0xc;
		r->events |= l1 | l1m | llc | llcm | (r->ds == 0xd ? rem : 0);
	} else if (lvl & (DSRC_LVL_LOC_RAM | DSRC_LVL_REM_RAM1 | DSRC_LVL_REM_RAM2)) {
		r->ds = 0xe;
		r->events |= l1 | l1m | llc | llcm | (lvl & DSRC_LVL_LOC_RAM ? 0 : rem);
	} else {
		r->ds = (uint8_t)(rnd(e) % 16);   /* values no table names too */
		r->events |= rnd(e) & (l1 | l1m | llc | llcm | rem);
	}
}

static void from_detail(uint16_t d, struct rec *r)
{
	static const struct { uint16_t bit; unsigned int ev; } map[] = {
		{ SPE_ENC_EV_L1D, 2 }, { SPE_ENC_EV_L1D_MISS, 3 }, { SPE_ENC_EV_LLC, 8 },
		{ SPE_ENC_EV_LLC_MISS, 9 }, { SPE_ENC_EV_TLB, 4 }, { SPE_ENC_EV_TLB_MISS, 5 },
		{ SPE_ENC_EV_REMOTE, 10 },
	};
	size_t i;

	r->ds_set = 1;
	r->ds = (uint8_t)(d & 0xff);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (d & map[i].bit)
			r->events |= ev_bit(map[i].ev);
}

void spe_enc_sample(struct spe_enc *e, const struct trace_sample *s, uint64_t tsc)
{
	struct rec *r = new_rec(e, s->cpu);
	unsigned int op = dsrc_field(s->data_src, DSRC_OP_SHIFT, 5);

	r->kind = R_MEM;
	r->ip = s->ip;
	r->va = s->addr;
	r->pa = s->phys_addr;
	r->tsc = tsc;
	r->tid = s->tid;
	r->lat = (uint32_t)(s->weight & 0xffff);
	r->events = ev_bit(1);   /* retired */
	r->op_class = (op & (DSRC_OP_LOAD | DSRC_OP_STORE)) ? 1 : 0;
	r->store = !!(op & DSRC_OP_STORE);
	if (s->detail & SPE_ENC_DS)
		from_detail(s->detail, r);
	else
		from_data_src(e, s->data_src, r);
	if (!(s->detail & SPE_ENC_DS) && chance(e, 2))
		r->events |= ev_bit(4) | (chance(e, 4) ? ev_bit(5) : 0);   /* TLB access, walk */
	if (chance(e, 16))
		r->events |= ev_bit(11) | ev_bit(17);   /* misaligned, partial predicate */
	if (chance(e, 6))   /* a branch sampled just after (r is not used from here on) */
		spe_enc_branch(e, s->cpu, s->ip + 0x10, tsc + 1);
}

void spe_enc_branch(struct spe_enc *e, unsigned int cpu, uint64_t ip, uint64_t tsc)
{
	struct rec *r = new_rec(e, cpu);

	r->kind = R_BRANCH;
	r->ip = ip;
	r->tgt = ip + 0x40 + 4 * (rnd(e) % 16);
	r->tsc = tsc;
	r->op_class = chance(e, 4) ? 0 : 2;
	r->events = ev_bit(1) | (chance(e, 3) ? ev_bit(7) : 0) | (chance(e, 2) ? ev_bit(6) : 0);
	r->lat = (uint32_t)(rnd(e) % 30);
}

/* ---- bytes --------------------------------------------------------------------------------- */

static void out_bytes(struct cpu_stream *c, const void *p, size_t n)
{
	if (!n)
		return;
	if (c->len + n > c->cap_out)
		c->out = xgrow(c->out, &c->cap_out, c->len + n, 1);
	memcpy(c->out + c->len, p, n);
	c->len += n;
}

static void out_byte(struct cpu_stream *c, uint8_t b)
{
	out_bytes(c, &b, 1);
}

static void out_le(struct cpu_stream *c, uint64_t v, unsigned int n)
{
	while (n--) {
		out_byte(c, (uint8_t)v);
		v >>= 8;
	}
}

static void pkt_begin(struct spe_enc *e, struct cpu_stream *c)
{
	if (e->nr_pkt < sizeof(e->pkt_at) / sizeof(e->pkt_at[0]))
		e->pkt_at[e->nr_pkt++] = c->len;
}

/* An address or counter packet, short or extended header. */
static void put_indexed(struct spe_enc *e, struct cpu_stream *c, uint8_t base, unsigned int idx,
			uint64_t v)
{
	pkt_begin(e, c);
	if (idx >= 8 || chance(e, 4)) {
		out_byte(c, (uint8_t)(0x20 | ((idx >> 3) & 3)));
		out_byte(c, (uint8_t)(base | (idx & 7)));
	} else {
		out_byte(c, (uint8_t)(base | idx));
	}
	out_le(c, v, base == 0xb0 ? 8 : 2);
}

/* The smallest payload size (as the header's size field) that holds @v, sometimes a larger one. */
static unsigned int size_field(struct spe_enc *e, uint64_t v, unsigned int min)
{
	unsigned int sz = min;

	while (sz < 3 && (v >> (8u << sz)))
		sz++;
	if (sz < 3 && chance(e, 5))
		sz++;
	return sz;
}

static void put_sized(struct spe_enc *e, struct cpu_stream *c, uint8_t hdr, uint64_t v,
		      unsigned int min)
{
	unsigned int sz = size_field(e, v, min);

	pkt_begin(e, c);
	out_byte(c, (uint8_t)(hdr | sz << 4));
	out_le(c, v, 1u << sz);
}

static uint64_t pc_payload(uint64_t ip)
{
	int kernel = ip >> 63;

	return (ip & A56) | 1ull << 63 /* NS */ | (uint64_t)(kernel ? 1 : 0) << 61 /* EL */;
}

/* A byte no packet starts with (perf skips it), now and then inside a record. */
static void maybe_bad(struct spe_enc *e, struct cpu_stream *c)
{
	static const uint8_t bad[] = { 0x02, 0x03, 0x05, 0x0f, 0x80, 0xfe };

	if (!e->o.bad || !chance(e, 40))
		return;
	if (chance(e, 3)) {   /* an extended header naming nothing */
		out_byte(c, 0x21);
		out_byte(c, 0x07);
	} else {
		out_byte(c, bad[rnd(e) % sizeof(bad)]);
	}
}

static void put_mem_body(struct spe_enc *e, struct cpu_stream *c, const struct rec *r)
{
	put_indexed(e, c, 0xb0, 0, pc_payload(r->ip));
	maybe_bad(e, c);
	pkt_begin(e, c);
	out_byte(c, (uint8_t)(0x48 | r->op_class));
	out_byte(c, (uint8_t)((rnd(e) & 0xfe) | r->store));
	put_sized(e, c, 0x42, r->events, 0);
	if (e->o.bad && chance(e, 30)) {   /* a second operation (the other way), or class 3 */
		pkt_begin(e, c);
		out_byte(c, (uint8_t)(chance(e, 2) ? 0x4b : 0x49));
		out_byte(c, (uint8_t)(!r->store));
	}
	if (r->va || chance(e, 2))   /* a tag in the top byte of user addresses */
		put_indexed(e, c, 0xb0, 2, (r->va & A56) | (r->va >> 63 ? 0 : (rnd(e) & 0xf) << 56));
	if (r->pa)
		put_indexed(e, c, 0xb0, 3, (r->pa & A56) | (rnd(e) & 0xcf) << 56);
	put_indexed(e, c, 0x98, 0, r->lat);
	if (chance(e, 2))
		put_indexed(e, c, 0x98, 1, r->lat / 3);
	if (chance(e, 3))
		put_indexed(e, c, 0x98, 2, rnd(e) % 40);
	if (chance(e, 25))   /* indices no table names: address 4 (previous branch), counter 9 */
		put_indexed(e, c, chance(e, 2) ? 0xb0 : 0x98, chance(e, 2) ? 4 : 9, rnd(e) & A56);
	maybe_bad(e, c);
	if (r->ds_set)
		put_sized(e, c, 0x43, r->ds, 0);
}

static void put_branch_body(struct spe_enc *e, struct cpu_stream *c, const struct rec *r)
{
	put_indexed(e, c, 0xb0, 0, pc_payload(r->ip));
	pkt_begin(e, c);
	out_byte(c, (uint8_t)(0x48 | r->op_class));
	out_byte(c, (uint8_t)(rnd(e) & 0x3));
	put_sized(e, c, 0x42, r->events, 0);
	put_indexed(e, c, 0xb0, 1, pc_payload(r->tgt));
	put_indexed(e, c, 0x98, 0, r->lat);
}

/* One record: CONTEXT, the body, then TIMESTAMP (or, one in twenty, END without a time). */
static void put_record(struct spe_enc *e, struct cpu_stream *c, const struct rec *r)
{
	e->nr_pkt = 0;
	if (!e->o.no_context) {
		pkt_begin(e, c);
		out_byte(c, (uint8_t)(0x64 | (chance(e, 8) ? 1 : 0)));   /* EL1, or EL2 (VHE) */
		out_le(c, r->tid, 4);
	}
	if (r->kind == R_MEM)
		put_mem_body(e, c, r);
	else
		put_branch_body(e, c, r);
	pkt_begin(e, c);
	if (chance(e, 20)) {
		out_byte(c, 0x01);
	} else {
		out_byte(c, 0x71);
		out_le(c, r->tsc, 8);
	}
}

/* Padding between records: PAD bytes, or an alignment packet to a 2..16-byte boundary of the
 * address perf reads the buffer at. */
static void put_padding(struct spe_enc *e, struct cpu_stream *c, uint64_t addr)
{
	unsigned int k, align, n;
	uint64_t at;

	if (chance(e, 12)) {
		for (n = 1 + (unsigned int)(rnd(e) % 20); n; n--)
			out_byte(c, 0x00);
	} else if (chance(e, 12)) {
		k = (unsigned int)(rnd(e) % 4);
		align = 2u << k;
		at = addr + c->len;
		n = align - (unsigned int)(at & (align - 1));   /* what perf passes over */
		out_byte(c, (uint8_t)(0x20 | k));
		out_byte(c, 0x00);
		for (; n > 2; n--)
			out_byte(c, 0x00);
	}
	if (e->o.bad && chance(e, 30))
		out_byte(c, (uint8_t)(0x02 + rnd(e) % 2));
}

size_t spe_enc_take(struct spe_enc *e, unsigned int cpu, uint64_t addr, int last,
		    const uint8_t **out)
{
	struct cpu_stream *c = stream(e, cpu);
	size_t i, rec_at = 0, cut;

	c->len = 0;
	out_bytes(c, c->carry, c->nr_carry);
	c->nr_carry = 0;
	e->nr_pkt = 0;
	for (i = 0; i < c->nr; i++) {
		put_padding(e, c, addr);
		rec_at = c->len;
		put_record(e, c, &c->r[i]);
	}
	if (c->nr && !last && e->nr_pkt > 1 && chance(e, 3)) {
		/* the last record goes on in the next buffer, from one of its packets on */
		cut = e->pkt_at[1 + rnd(e) % (e->nr_pkt - 1)];
		c->carry = xrealloc(c->carry, c->len - cut);
		c->nr_carry = c->len - cut;
		memcpy(c->carry, c->out + cut, c->nr_carry);
		c->len = cut;
	} else if (last && e->o.cut && c->len > rec_at + 2) {
		c->len -= 1 + rnd(e) % 3;   /* inside the TIMESTAMP (or before the END) */
	}
	c->nr = 0;
	*out = c->out;
	return c->len;
}
