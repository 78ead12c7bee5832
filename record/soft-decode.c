/* Soft backend decoder: choose the instruction a cpu-clock sample blames and recover its data
 * address from the sampled registers (the rule is in record/soft-decode.h).
 *
 * HOW IT WORKS. A function is disassembled once, forward from its first byte, into a table of
 * instruction start offsets (plus which of them are targets of direct branches); SOFTDEC_CACHE
 * functions are kept, the least recently used one is rebuilt for a new function. Instructions
 * that a sample's walk visits are analysed once (capstone detail: memory operand, access kind,
 * registers written, text) and the analysis is kept beside the offsets, so a sample in a warm
 * function costs a binary search and a few table reads, not a capstone call. Invariant: offsets
 * are ascending and cover [0, decoded_to), which is the function's length unless a byte
 * sequence failed to decode.
 *
 * The decoder's files: soft-decode.c (this one: the decoder's life, the walk back from the IP
 * that picks the access, rules 1, 1b and 2, and the sample fields the answer fills),
 * soft-decode-insn.c (a function's instructions: boundaries, analysis, operand addresses),
 * soft-decode-rmw.c (split read-modify-writes, by value numbering) and soft-decode-path.c
 * (proving the path into a branch target); soft-decode-int.h their shared structs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/soft-decode-int.h"

int softdec_new(struct softdec **out)
{
	struct softdec *sd;

	if (!out)
		return -EINVAL;
	sd = xcalloc(1, sizeof(*sd));
	if (c2c_cs_open(CS_ARCH_X86, CS_MODE_64, &sd->cs) != CS_ERR_OK) {
		free(sd);
		return -ENOTSUP;
	}
	c2c_cs_option(sd->cs, CS_OPT_DETAIL, CS_OPT_ON);
	c2c_cs_option(sd->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	sd->max_back = SOFTDEC_MAX_BACK_DEFAULT;
	sd->insn = c2c_cs_malloc(sd->cs);
	if (!sd->insn) {
		softdec_free(sd);
		return -ENOMEM;
	}
	*out = sd;
	return 0;
}

void sdec_drop_info(struct fbounds *fb)
{
	for (size_t i = 0; i < fb->nr && fb->info; i++) {
		free(fb->info[i].text);
		fb->info[i].text = NULL;
	}
}

void softdec_free(struct softdec *sd)
{
	if (!sd)
		return;
	if (sd->insn)
		c2c_cs_free(sd->insn, 1);
	c2c_cs_close(&sd->cs);
	for (int i = 0; i < SOFTDEC_CACHE; i++) {
		sdec_drop_info(&sd->cache[i]);
		free(sd->cache[i].off);
		free(sd->cache[i].target);
		free(sd->cache[i].info);
		free(sd->cache[i].edge);
	}
	free(sd->tgt);
	free(sd->tgt_src);
	free(sd);
}

void softdec_forget(struct softdec *sd)
{
	if (!sd)
		return;
	for (int i = 0; i < SOFTDEC_CACHE; i++)
		sd->cache[i].used = 0;
}

void softdec_set_trap(struct softdec *sd, int on)
{
	sd->trap = on;
}

void softdec_set_max_back(struct softdec *sd, unsigned int n)
{
	if (sd)
		sd->max_back = n < 1 ? 1 : n > SOFTDEC_MAX_BACK_LIMIT ? SOFTDEC_MAX_BACK_LIMIT : n;
}

/* --- predecessors (rule 1b) -------------------------------------------------------------------- */

/* Could control have reached instruction @p along the straight line above it, given the
 * registers @w written between @p and the sample? 0 only when the block holding @p is entered
 * by falling through a conditional jump (it is no branch target) that the sampled registers
 * prove was taken. */
static int fall_possible(struct softdec *sd, const struct softdec_func *fn, long p, uint64_t w,
			 const struct softdec_regs *regs)
{
	for (long b = p; b > 0 && p - b < 16 && !sd->fb->target[b]; b--) {
		const struct iinfo *ii = sdec_info_at(sd, fn, b - 1), *t;
		struct xflags f;

		if (!ii || ii->nofall)
			return 1;
		if (sdec_jcc_taken(ii->id, &(struct xflags){ 0 }) >= 0) {
			if (b - 1 < 1 || sd->fb->target[b - 1] || !(t = sdec_info_at(sd, fn, b - 2)) ||
			    !t->test || (w & (1ULL << t->ra)) || (t->rb >= 0 && (w & (1ULL << t->rb))) ||
			    sdec_eval_test(t, regs, &f))
				return 1;
			return sdec_jcc_taken(ii->id, &f) != 1;
		}
		w |= ii->written;
	}
	return 1;
}

#define CAND_MAX (1 + SOFTDEC_ALT_MAX)
#define WALK_VISITS 64           /* instructions one search may visit: a bound on the paths */

/* One access found on a path back from the IP. */
struct cand {
	long idx;                /* the accessing instruction */
	uint64_t clobber;        /* registers written after it on the paths that reach it (union) */
	uint8_t back;            /* instructions on its shortest straight-line path; 0: none */
	uint8_t via_jump;        /* every path to it goes through a jump */
};

struct walk {
	struct cand c[CAND_MAX];
	int nr;
	int overflow;            /* too many distinct accesses or visits: give up */
	int cut;                 /* a path reached max_back without an access */
	int crossed;             /* a path went back over a branch target */
	int visits;
	long loop_lo, loop_hi;   /* the loop holding the IP (instruction indexes), lo > hi: none */
};

static void add_cand(struct walk *w, long idx, uint64_t clobber, int depth, int jumped)
{
	for (int i = 0; i < w->nr; i++)
		if (w->c[i].idx == idx) {
			w->c[i].clobber |= clobber;
			if (!jumped && (!w->c[i].back || depth < w->c[i].back))
				w->c[i].back = (uint8_t)depth;
			w->c[i].via_jump &= (uint8_t)jumped;
			return;
		}
	if (w->nr == CAND_MAX) {
		w->overflow = 1;
		return;
	}
	w->c[w->nr++] = (struct cand){ .idx = idx, .clobber = clobber,
				       .back = jumped ? 0 : (uint8_t)depth, .via_jump = (uint8_t)jumped };
}

/* Walk back from instruction @x (the one after those still to visit: @depth instructions have
 * been walked, writing @clobber, through a jump when @jumped). */
static void walk_from(struct softdec *sd, const struct softdec_func *fn, long x, int depth,
		      uint64_t clobber, int jumped, const struct softdec_regs *regs, struct walk *w)
{
	const struct iinfo *ii;
	long pred[1 + 16];
	int np = 0, jump[1 + 16];

	if (w->overflow)
		return;
	if (depth >= (int)sd->max_back) {
		w->cut = 1;              /* this path's access, if any, is further up: unknown */
		return;
	}
	if (++w->visits > WALK_VISITS) {
		w->overflow = 1;
		return;
	}
	if (x > 0 && (ii = sdec_info_at(sd, fn, x - 1)) && !ii->nofall) {
		pred[np] = x - 1;
		jump[np++] = 0;
	}
	if ((size_t)x < sd->fb->nr && sd->fb->target[x])
		w->crossed = 1;
	if ((size_t)x < sd->fb->nr && sd->fb->target[x] && !sdec_fell_through(sd, fn, x, clobber, regs)) {
		for (size_t i = 0; i < sd->fb->nr_edge; i++) {
			const struct edge *e = &sd->fb->edge[i];

			if (e->dst != (uint32_t)x || (long)e->src == x - 1 ||
			    !sdec_edge_possible(sd, fn, e, clobber, regs))
				continue;
			if (np == (int)(sizeof(pred) / sizeof(pred[0]))) {
				w->overflow = 1;
				return;
			}
			pred[np] = e->src;
			jump[np++] = 1;
		}
	}
	for (int i = 0; i < np; i++) {
		long p = pred[i];
		uint64_t c;

		if (!(ii = sdec_info_at(sd, fn, p)))
			continue;
		c = clobber | ii->written;
		if (ii->access) {
			if (fall_possible(sd, fn, p, c, regs))
				add_cand(w, p, c, depth + 1, jumped | jump[i]);
		}
		else
			walk_from(sd, fn, p, depth + 1, c, jumped | jump[i], regs, w);
	}
}

/* The loop holding instruction @idx: the span of every backward jump around it, joined with
 * the spans that overlap it, as instruction indexes in *lo..*hi (lo > hi: none). */
static void loop_of(const struct softdec *sd, long idx, long *lo, long *hi)
{
	int grown = 1;

	*lo = 1;
	*hi = 0;
	while (grown) {
		grown = 0;
		for (size_t i = 0; i < sd->fb->nr_edge; i++) {
			long s = sd->fb->edge[i].src, d = sd->fb->edge[i].dst;

			if (d > s)
				continue;
			if (*lo > *hi ? (d <= idx && idx <= s) : (d <= *hi && s >= *lo)) {
				if (*lo > *hi || d < *lo || s > *hi) {
					*lo = *lo > *hi || d < *lo ? d : *lo;
					*hi = *hi < s ? s : *hi;
					grown = 1;
				}
			}
		}
	}
}

static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->via_jump != b->via_jump)       /* the straight-line access first */
		return a->via_jump - b->via_jump;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Rules 1, 1b and 2 (softdec.h): the candidates before the IP, combined. Returns 1 and fills
 * @out when an access is charged. */
static int blame_before(struct softdec *sd, const struct softdec_func *fn, long idx,
			const struct softdec_regs *regs, struct softdec_access *out)
{
	struct walk w = { .nr = 0 };
	int n = 0;

	if (sd->trap)
		return sdec_blame_trap(sd, fn, idx, regs, out);
	walk_from(sd, fn, idx, 0, 0, 0, regs, &w);
	w.loop_lo = 1;
	w.loop_hi = 0;
	if (w.crossed && w.nr)
		loop_of(sd, idx < (long)sd->fb->nr ? idx : idx - 1, &w.loop_lo, &w.loop_hi);
	if (w.loop_lo <= w.loop_hi) {    /* keep the candidates inside the loop */
		for (int i = 0; i < w.nr; i++)
			if (w.c[i].idx >= w.loop_lo && w.c[i].idx <= w.loop_hi)
				w.c[n++] = w.c[i];
		w.nr = n;
	}
	/* a path of max_back instructions without an access has none near enough to have held
	 * the sample, as a straight line has (rule 4), but the sample is then only inferred */
	if (w.overflow || !w.nr)
		return 0;
	if (w.nr > 1)
		qsort(w.c, (size_t)w.nr, sizeof(w.c[0]), cand_cmp);
	for (int i = 0; i < w.nr; i++) {
		const struct cand *c = &w.c[i];
		const struct iinfo *ii = sdec_info_at(sd, fn, c->idx);
		struct softdec_access a = { .reason = SOFTDEC_NO_MEM };

		sdec_describe(ii, sdec_insn_address(sd, fn, c->idx), c->clobber, regs, !i, &a);
		sdec_split_rmw(sd, fn, c->idx, &a);
		a.back = c->via_jump ? 15 : c->back;
		if (c->via_jump)
			a.acc_flags |= SOFTDEC_ACC_VIA_JUMP;
		if (!i) {
			*out = a;
			if (w.cut)   /* another path found nothing near enough */
				out->acc_flags |= SOFTDEC_ACC_INFERRED;
			continue;
		}
		out->acc_flags |= SOFTDEC_ACC_INFERRED;
		out->alt[out->nr_alt++] = (struct softdec_alt){
			.insn_addr = a.insn_addr, .addr = a.addr, .kind = a.kind, .reason = a.reason,
			.flags = a.flags, .back = a.back };
	}
	return 1;
}

int softdec_decode(struct softdec *sd, const struct softdec_func *fn, uint64_t ip,
		   const struct softdec_regs *regs, struct softdec_access *out)
{
	const struct iinfo *cur = NULL, *prev = NULL;
	long idx;

	if (!sd || !fn || !regs || !out || (!fn->code && fn->len))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->reason = sdec_locate(sd, fn, ip, &idx);
	if (out->reason != SOFTDEC_ADDR || blame_before(sd, fn, idx, regs, out))
		return 0;
	if ((size_t)idx < sd->fb->nr)
		cur = sdec_info_at(sd, fn, idx);
	if (cur && cur->access) {          /* rule 3 */
		out->flags |= SOFTDEC_F_AT_IP;
		sdec_describe(cur, ip, 0, regs, 1, out);
		sdec_split_rmw(sd, fn, idx, out);
		return 0;
	}
	/* rule 4; at a join (a branch target) the instruction before may not be what ran */
	if (idx > 0 && !((size_t)idx < sd->fb->nr && sd->fb->target[idx] && cur))
		prev = sdec_info_at(sd, fn, idx - 1);
	if (prev) {
		sdec_fill_insn(out, prev, sdec_insn_address(sd, fn, idx - 1));
		out->back = 1;
	} else if (cur) {
		sdec_fill_insn(out, cur, ip);
	}
	out->reason = prev || cur ? SOFTDEC_NO_MEM : SOFTDEC_DECODE_FAILED;
	return 0;
}

/* --- helpers -------------------------------------------------------------------------------- */

int softdec_regs_unpack(struct softdec_regs *regs, uint64_t mask, const uint64_t *vals, size_t nr)
{
	size_t n = 0;

	if (!regs || (nr && !vals) || (mask >> REGS_X86_64_MAX))
		return -EINVAL;
	if ((size_t)__builtin_popcountll(mask) != nr)
		return -EINVAL;
	memset(regs, 0, sizeof(*regs));
	regs->mask = mask;
	for (int i = 0; i < REGS_X86_64_MAX; i++)
		if (mask & (1ULL << i))
			regs->val[i] = vals[n++];
	return 0;
}

uint64_t softdec_data_src(enum softdec_kind kind)
{
	uint64_t common = PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(TLB, NA);

	switch (kind) {
	case SOFTDEC_LOAD:
		return common | PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LOCK, NA);
	case SOFTDEC_STORE:
		return common | PERF_MEM_S(OP, STORE) | PERF_MEM_S(LOCK, NA);
	case SOFTDEC_ATOMIC:
		return common | PERF_MEM_S(OP, STORE) | PERF_MEM_S(LOCK, LOCKED);
	case SOFTDEC_PREFETCH:
		return common | PERF_MEM_S(OP, PFETCH) | PERF_MEM_S(LOCK, NA);
	default:
		return common | PERF_MEM_S(OP, NA) | PERF_MEM_S(LOCK, NA);
	}
}

void softdec_fill_sample(struct trace_sample *s, const struct softdec_access *acc)
{
	s->flags &= (uint8_t)~TRACE_SAMPLE_HAS_ADDR;
	s->addr = 0;
	if (softdec_has_addr(acc->reason)) {
		s->addr = acc->addr;
		s->flags |= TRACE_SAMPLE_HAS_ADDR;
	}
	s->data_src = softdec_data_src(acc->kind);
	s->flags |= TRACE_SAMPLE_HAS_DSRC;
	s->detail = softdec_detail(acc);
	s->access_ip = acc->kind != SOFTDEC_KIND_NONE ? acc->insn_addr : 0;
	s->access_flags = (uint8_t)acc->acc_flags;
	s->nr_alt = acc->nr_alt > TRACE_ALT_MAX ? TRACE_ALT_MAX : acc->nr_alt;
	for (unsigned int i = 0; i < s->nr_alt; i++) {
		struct softdec_access a = { .reason = acc->alt[i].reason, .kind = acc->alt[i].kind,
					    .flags = acc->alt[i].flags, .back = acc->alt[i].back };

		s->alt[i].ip = acc->alt[i].insn_addr;
		s->alt[i].addr = softdec_has_addr(a.reason) ? acc->alt[i].addr : 0;
		s->alt_detail[i] = softdec_detail(&a);
	}
}

uint16_t softdec_detail(const struct softdec_access *acc)
{
	unsigned int back = acc->back > 15 ? 15 : acc->back;

	return (uint16_t)((acc->reason & 0x1f) | (acc->kind & 0x7) << 5 | (acc->flags & 0xf) << 8 |
			  back << 12);
}
