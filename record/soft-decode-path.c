/* Proving the path into a branch target for the soft decoder: which branches the sampled
 * registers show could have been taken on the way to the sample. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/soft-decode-int.h"

/* --- proving the path into a branch target ------------------------------------------------------ */

int sdec_eval_test(const struct iinfo *t, const struct softdec_regs *regs, struct xflags *f)
{
	unsigned int bits = t->width * 8u;
	uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1, sign = 1ULL << (bits - 1);
	uint64_t a, b, r;

	if (sdec_reg_value(regs, t->ra, &a) || (t->rb >= 0 && sdec_reg_value(regs, t->rb, &b)))
		return -1;
	if (t->rb < 0)
		b = (uint64_t)t->imm;
	a &= mask;
	b &= mask;
	if (t->test == 2) {
		r = a & b;
		f->cf = f->of = 0;
	} else {
		r = (a - b) & mask;
		f->cf = a < b;
		f->of = !!((a ^ b) & (a ^ r) & sign);
	}
	f->zf = r == 0;
	f->sf = !!(r & sign);
	f->pf = !(__builtin_popcount((unsigned int)(r & 0xff)) & 1);
	return 0;
}

/* Does conditional jump @id jump under @f? -1: not a flags condition this knows. */
int sdec_jcc_taken(unsigned int id, const struct xflags *f)
{
	switch (id) {
	case X86_INS_JO: return f->of;
	case X86_INS_JNO: return !f->of;
	case X86_INS_JB: return f->cf;
	case X86_INS_JAE: return !f->cf;
	case X86_INS_JE: return f->zf;
	case X86_INS_JNE: return !f->zf;
	case X86_INS_JBE: return f->cf || f->zf;
	case X86_INS_JA: return !f->cf && !f->zf;
	case X86_INS_JS: return f->sf;
	case X86_INS_JNS: return !f->sf;
	case X86_INS_JP: return f->pf;
	case X86_INS_JNP: return !f->pf;
	case X86_INS_JL: return f->sf != f->of;
	case X86_INS_JGE: return f->sf == f->of;
	case X86_INS_JLE: return f->zf || f->sf != f->of;
	case X86_INS_JG: return !f->zf && f->sf == f->of;
	default: return -1;
	}
}

/* Could the conditional jump at @c have been taken on a path to the sample, along which the
 * registers in @w were written after it? 0 only when the sampled registers prove it was not:
 * the cmp or test right before it reads registers nobody wrote since, and under their sampled
 * values its condition is false. */
static int jcc_possible(struct softdec *sd, const struct softdec_func *fn, long c, uint64_t w,
			const struct softdec_regs *regs)
{
	const struct iinfo *j = sdec_info_at(sd, fn, c), *t;
	struct xflags f;
	int taken;

	if (!j || c < 1 || sd->fb->target[c])
		return 1;                /* the jump can be reached with other flags */
	t = sdec_info_at(sd, fn, c - 1);
	if (!t || !t->test || (w & (1ULL << t->ra)) || (t->rb >= 0 && (w & (1ULL << t->rb))) ||
	    sdec_eval_test(t, regs, &f))
		return 1;
	taken = sdec_jcc_taken(j->id, &f);
	return taken != 0;
}

/* Is there a way into instruction @b other than its branches: falling through from the
 * instruction before it (padding nops after a jump or ret do not count), or entering the
 * function there? */
static int entered_otherwise(struct softdec *sd, const struct softdec_func *fn, long b)
{
	for (long k = b - 1; k >= 0; k--) {
		const struct iinfo *ii = sdec_info_at(sd, fn, k);

		if (!ii)
			return 1;
		if (ii->nofall)
			return 0;
		if (ii->id != X86_INS_NOP || sd->fb->target[k])
			return 1;
	}
	return 1;                    /* the function's entry */
}

/* Could control have come into instruction @t (a branch target) by its edge @e, given the
 * registers @w written between @t and the sample? Direct conditional jumps are judged by their
 * condition; an unconditional jump by the one conditional jump its block is entered by. */
int sdec_edge_possible(struct softdec *sd, const struct softdec_func *fn, const struct edge *e,
		       uint64_t w, const struct softdec_regs *regs)
{
	const struct iinfo *j = sdec_info_at(sd, fn, e->src), *ii;
	const struct edge *in = NULL;
	long b;

	if (!j)
		return 1;
	if (j->id != X86_INS_JMP)
		return sdec_jcc_taken(j->id, &(struct xflags){ 0 }) < 0 ? 1
		       : jcc_possible(sd, fn, e->src, w, regs);
	/* the jump's block: from the branch target or the instruction after a jump above it */
	for (b = e->src; b > 0 && !sd->fb->target[b]; b--) {
		if (!(ii = sdec_info_at(sd, fn, b - 1)) || ii->nofall)
			break;
		w |= ii->written;
	}
	if (!sd->fb->target[b] || entered_otherwise(sd, fn, b))
		return 1;
	for (size_t i = 0; i < sd->fb->nr_edge; i++)
		if (sd->fb->edge[i].dst == (uint32_t)b) {
			if (in)
				return 1;        /* several ways in */
			in = &sd->fb->edge[i];
		}
	if (!in || !(ii = sdec_info_at(sd, fn, in->src)) || ii->id == X86_INS_JMP ||
	    sdec_jcc_taken(ii->id, &(struct xflags){ 0 }) < 0)
		return 1;
	return jcc_possible(sd, fn, in->src, w, regs);
}

/* The sample at or after branch target @t came by falling through into it: every branch to it
 * is proven impossible by the sampled registers (@w: written between @t and the sample). */
int sdec_fell_through(struct softdec *sd, const struct softdec_func *fn, long t, uint64_t w,
		      const struct softdec_regs *regs)
{
	int any = 0;

	for (size_t i = 0; i < sd->fb->nr_edge; i++) {
		const struct edge *e = &sd->fb->edge[i];

		if (e->dst != (uint32_t)t)
			continue;
		any = 1;
		if (sdec_edge_possible(sd, fn, e, w, regs))
			return 0;
	}
	return any;
}

/* Trap mode (rules 1 and 2 for watchpoints): the instruction ending at the IP, then the ones
 * before it, at most max_back of them, stopping at one that cannot fall through and before a
 * branch target the registers do not prove was fallen into; at a branch target only the
 * instruction ending at it (the trap is taken right after the access). Registers written by
 * every instruction walked over count as clobbered. Returns 1 and fills @out when an access
 * was found. */
int sdec_blame_trap(struct softdec *sd, const struct softdec_func *fn, long idx,
		    const struct softdec_regs *regs, struct softdec_access *out)
{
	uint64_t clobber = 0;
	long max = sd->max_back;

	if ((size_t)idx < sd->fb->nr && sd->fb->target[idx])
		max = 1;
	for (long k = 1; k <= max && idx - k >= 0; k++) {
		long j = idx - k;
		const struct iinfo *ii;

		if (k > 1 && sd->fb->target[j + 1] && !sdec_fell_through(sd, fn, j + 1, clobber, regs))
			break;
		ii = sdec_info_at(sd, fn, j);
		if (!ii || ii->nofall)
			break;
		clobber |= ii->written;
		if (ii->access) {
			sdec_describe(ii, sdec_insn_address(sd, fn, j), clobber, regs, 1, out);
			out->back = (uint8_t)k;
			return 1;
		}
	}
	return 0;
}
