/* The dataflow over a function's basic blocks for data-type profiling: the register state at
 * an address (symt_track_block()). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-type-int.h"

/* --- basic blocks ---------------------------------------------------------------------------- */

static void add_leader(struct fn_blocks *b, uint64_t a)
{
	if (a <= b->lo || a >= b->hi)
		return;
	b->lead = xgrow(b->lead, &b->cap, b->nr + 1, sizeof(*b->lead));
	b->lead[b->nr++] = a;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The leaders of code @buf at b->lo: direct-branch targets and the instructions after
 * branches, calls and returns; b->bad when the code does not decode or has an indirect jump
 * (whose targets are unknown). */
static void find_leaders(csh cs, int machine, const uint8_t *buf, size_t n, struct fn_blocks *b,
			 cs_insn *in)
{
	const uint8_t *p = buf;
	uint64_t a = b->lo;

	while (n && !b->bad) {
		if (!c2c_cs_disasm_iter(cs, &p, &n, &a, in)) {
			b->bad = 1;
			break;
		}
		if (!symt_ends_block(cs, in, machine))
			continue;
		uint64_t t = symt_branch_target(in, machine);
		if (!t && !c2c_cs_insn_group(cs, in, CS_GRP_RET) && !symt_is_call(cs, in, machine) &&
		    !(machine == EM_AARCH64 && in->id == ARM64_INS_RET))
			b->bad = 1;  /* indirect jump */
		if (t && !symt_is_call(cs, in, machine))
			add_leader(b, t);
		add_leader(b, a);
	}
	if (!b->nr)
		return;
	qsort(b->lead, b->nr, sizeof(*b->lead), u64_cmp);
	size_t k = 1;
	for (size_t i = 1; i < b->nr; i++)
		if (b->lead[i] != b->lead[k - 1])
			b->lead[k++] = b->lead[i];
	b->nr = k;
}

/* The leaders of the function range [lo, hi) (ELF addresses) of @t, found once. */
static struct fn_blocks *fn_blocks(struct sym_type_ctx *c, struct type_file *t, uint64_t lo,
				   uint64_t hi, cs_insn *in)
{
	size_t i = 0, j = t->nr_fb;
	struct fn_blocks *b;
	uint8_t *buf;

	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (t->fb[mid].lo < lo)
			i = mid + 1;
		else
			j = mid;
	}
	if (i < t->nr_fb && t->fb[i].lo == lo)
		return &t->fb[i];
	t->fb = xgrow(t->fb, &t->cap_fb, t->nr_fb + 1, sizeof(*t->fb));
	memmove(&t->fb[i + 1], &t->fb[i], (t->nr_fb++ - i) * sizeof(*t->fb));
	b = &t->fb[i];
	memset(b, 0, sizeof(*b));
	b->lo = lo;
	b->hi = hi;
	buf = xmalloc(hi - lo);
	if (symt_code_bytes(t->f, lo, buf, hi - lo) != hi - lo)
		b->bad = 1;
	else
		find_leaders(*symt_disasm(c, t->machine), t->machine, buf, hi - lo, b, in);
	free(buf);
	return b;
}

/* The index of the basic block of @b holding @a. */
static size_t block_index(const struct fn_blocks *b, uint64_t a)
{
	size_t i = 0, j = b->nr;

	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (b->lead[mid] <= a)
			i = mid + 1;
		else
			j = mid;
	}
	return i;
}

static uint64_t block_start(const struct fn_blocks *b, size_t i)
{
	return i ? b->lead[i - 1] : b->lo;
}

static uint64_t block_end(const struct fn_blocks *b, size_t i)
{
	return i < b->nr ? b->lead[i] : b->hi;
}

/* --- register state across basic blocks ---------------------------------------------------- */

#define FLOW_PASSES 32      /* passes over a function before its dataflow is given up */
#define FLOW_BLOCKS 8192    /* more blocks: no dataflow (its working set is ~2.6 KiB a block) */

/* One register of a block's entry state: a typed pointer, a constant address (k), a known
 * multiple (k) or a stack slot's value (k, the slot's offset from the CFA). */
enum { SLOT_PTR, SLOT_CONST, SLOT_MULT, SLOT_STACK };

struct regslot {
	int reg;
	int kind;
	struct ptr p;
	uint64_t k;
};

/* 1 when @a and @b point into the same object the same way: name (a session string), pointee
 * DIE, size, reference or object. */
static int same_base(const struct ptr *a, const struct ptr *b)
{
	return a->name == b->name && a->pointee.addr == b->pointee.addr && a->size == b->size &&
	       a->ref == b->ref && a->obj == b->obj;
}

/* The join of two pointers into the same object at offsets a->off + i * a->scale and
 * b->off + j * b->scale: @acc keeps its offset and takes the gcd of both scales and of the
 * offsets' distance, which holds both (a pointer advanced by 8 in a loop: p + 8k). 0 when @acc
 * holds @b unchanged, 1 when it widened, -1 when they point into different objects. */
static int join_ptr(struct ptr *acc, const struct ptr *b)
{
	uint64_t d = acc->off > b->off ? (uint64_t)(acc->off - b->off) : (uint64_t)(b->off - acc->off);
	unsigned g;

	if (!same_base(acc, b))
		return -1;
	if (d >= MULT_MAX)
		return -1;
	g = gcd(gcd(acc->scale, b->scale), (unsigned)d);
	if (g == acc->scale)
		return 0;
	acc->scale = g;
	return 1;
}

/* The meet of @acc and @in into @acc: a register stays typed (or constant, or a stack slot's
 * value) only when both agree, a pointer into one object at two offsets widens (join_ptr()), a
 * multiple becomes the gcd of both. 1 when @acc changed. */
static int meet(struct regstate *acc, const struct regstate *in)
{
	int lost = 0;

	for (int r = 0; r < NREGS; r++) {
		int j = acc->valid[r] && in->valid[r] ? join_ptr(&acc->p[r], &in->p[r]) : -1;
		if (acc->valid[r] && j) {
			acc->valid[r] = j > 0;
			lost = 1;
		}
		if (acc->kvalid[r] && (!in->kvalid[r] || acc->k[r] != in->k[r])) {
			acc->kvalid[r] = 0;
			lost = 1;
		}
		if (acc->mult[r]) {
			uint32_t m = in->mult[r] ? mgcd(acc->mult[r], in->mult[r]) : 0;
			if (m == 1)
				m = 0;
			lost |= m != acc->mult[r];
			acc->mult[r] = m;
		}
		if (acc->svalid[r] && (!in->svalid[r] || acc->slot[r] != in->slot[r])) {
			acc->svalid[r] = 0;
			lost = 1;
		}
	}
	return lost;
}

/* Step block @i of @b (code bytes @code, from b->lo) from state @st, updated in place; its
 * successors in succ[] (-1: none): the next block when the last instruction falls through, the
 * block a direct jump inside the range goes to (never block 0, whose entry state is empty).
 * 0, else -1 when the block does not decode. */
static int run_block(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
		     const struct fn_blocks *b, const uint8_t *code, size_t i, int64_t delta,
		     cs_insn *in, struct regstate *st, long succ[2])
{
	csh cs = *symt_disasm(s->type, t->machine);
	uint64_t a = block_start(b, i), tgt;
	const uint8_t *p = code + (a - b->lo);
	size_t n = block_end(b, i) - a;

	succ[0] = succ[1] = -1;
	while (n) {
		if (!c2c_cs_disasm_iter(cs, &p, &n, &a, in))
			return -1;
		symt_step(s, t, ps, st, cs, in, in->address - delta);
	}
	if (i < b->nr && symt_falls_through(cs, in, t->machine))
		succ[0] = (long)i + 1;
	if (symt_ends_block(cs, in, t->machine) && !symt_is_call(cs, in, t->machine) &&
	    (tgt = symt_branch_target(in, t->machine)) > b->lo && tgt < b->hi)
		succ[1] = (long)block_index(b, tgt);
	return 0;
}

/* Keep the entry states @ent of the @nb blocks of @b, as slots. */
static void pack(struct fn_blocks *b, const struct regstate *ent, size_t nb)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < nb; i++)
		for (int r = 0; r < NREGS; r++)
			n += ent[i].valid[r] + ent[i].kvalid[r] + !!ent[i].mult[r] + ent[i].svalid[r];
	b->slot = n ? xmalloc(n * sizeof(*b->slot)) : NULL;
	b->slot_at = xmalloc((nb + 1) * sizeof(*b->slot_at));
	for (size_t i = 0; i < nb; i++) {
		b->slot_at[i] = (uint32_t)k;
		for (int r = 0; r < NREGS; r++) {
			const struct regstate *e = &ent[i];
			if (e->valid[r])
				b->slot[k++] = (struct regslot){ .reg = r, .p = e->p[r] };
			if (e->kvalid[r])
				b->slot[k++] = (struct regslot){ r, SLOT_CONST, .k = e->k[r] };
			if (e->mult[r])
				b->slot[k++] = (struct regslot){ r, SLOT_MULT, .k = e->mult[r] };
			if (e->svalid[r])
				b->slot[k++] = (struct regslot){ r, SLOT_STACK, .k = (uint64_t)e->slot[r] };
		}
	}
	b->slot_at[nb] = (uint32_t)k;
}

/* The register state at the entry of block @i of @b (empty when the dataflow gave up). */
static void entry_state(const struct fn_blocks *b, size_t i, struct regstate *st)
{
	memset(st, 0, sizeof(*st));
	for (uint32_t k = b->slot_at ? b->slot_at[i] : 0; b->slot_at && k < b->slot_at[i + 1]; k++) {
		const struct regslot *r = &b->slot[k];
		if (r->kind == SLOT_CONST) {
			st->kvalid[r->reg] = 1;
			st->k[r->reg] = r->k;
		} else if (r->kind == SLOT_MULT) {
			st->mult[r->reg] = (uint32_t)r->k;
		} else if (r->kind == SLOT_STACK) {
			st->svalid[r->reg] = 1;
			st->slot[r->reg] = (int64_t)r->k;
		} else {
			st->valid[r->reg] = 1;
			st->p[r->reg] = r->p;
		}
	}
}

/* The forward dataflow over the blocks of @b: a block's entry state is the meet of the exit
 * states of its predecessors reached so far (block 0 starts empty), iterated in address-order
 * passes until nothing changes. Entry states only lose registers once set, so it converges;
 * after FLOW_PASSES passes, over FLOW_BLOCKS blocks, or code that does not decode, every entry
 * state stays empty (each block is then followed on its own). */
static void flow(struct sym_session *s, struct type_file *t, struct fn_blocks *b,
		 struct pcscopes *ps, int64_t delta, cs_insn *in)
{
	size_t nb = b->nr + 1, len = b->hi - b->lo;
	struct regstate *ent, *st;
	uint8_t *seen, *todo, *code;
	int ok, more = 1;

	b->flowed = 1;
	if (nb > FLOW_BLOCKS)
		return;
	ent = xcalloc(nb, sizeof(*ent));
	st = xmalloc(sizeof(*st));
	seen = xcalloc(nb, 2);
	todo = seen + nb;
	code = xmalloc(len);
	ok = symt_code_bytes(t->f, b->lo, code, len) == len;
	seen[0] = todo[0] = 1;
	for (int pass = 0; ok && more; pass++) {
		more = 0;
		ok = pass < FLOW_PASSES;
		for (size_t i = 0; ok && i < nb; i++) {
			long succ[2];
			if (!todo[i])
				continue;
			todo[i] = 0;
			*st = ent[i];
			ok = run_block(s, t, ps, b, code, i, delta, in, st, succ) == 0;
			for (int k = 0; ok && k < 2; k++) {
				size_t j = (size_t)succ[k];
				if (succ[k] < 0 || (seen[j] && !meet(&ent[j], st)))
					continue;
				if (!seen[j])
					ent[j] = *st;
				seen[j] = todo[j] = 1;
				more |= j <= i;
			}
		}
	}
	if (ok)
		pack(b, ent, nb);
	free(code);
	free(seen);
	free(st);
	free(ent);
}

/* The register state at @vaddr: the entry state of its basic block from the function's
 * dataflow (computed once per function), then the block's instructions before @vaddr. 0 and
 * *st, else -ENOENT (function too long, indirect jumps, undecodable code). */
int symt_track_block(struct sym_session *s, struct type_file *t, struct scopes *sc,
		     uint64_t vaddr, Dwarf_Addr pc, Dwarf_Addr cubias, cs_insn *in,
		     struct regstate *st)
{
	csh cs = *symt_disasm(s->type, t->machine);
	int64_t delta = (int64_t)(cubias - t->f->bias);  /* ELF vaddr - CU address */
	struct pcscopes *ps;
	struct fn_blocks *b;
	Dwarf_Addr lo, hi;
	uint64_t a;
	uint8_t *buf;
	const uint8_t *p;
	size_t n, i;

	if (symt_func_start(sc, pc, &lo, &hi) || hi - lo > SCAN_MAX)
		return -ENOENT;
	b = fn_blocks(s->type, t, lo + delta, hi + delta, in);
	if (b->bad)
		return -ENOENT;
	ps = xcalloc(1, sizeof(*ps));
	ps->fn = sc->die[0];
	ps->f = t->f;
	ps->delta = delta;
	if (!b->flowed)
		flow(s, t, b, ps, delta, in);
	i = block_index(b, vaddr);
	a = block_start(b, i);
	if (t->last && t->last_lo == b->lo && t->last_at >= a && t->last_at <= vaddr) {
		*st = *t->last;  /* go on from the last lookup in this block */
		a = t->last_at;
	} else {
		entry_state(b, i, st);
	}
	n = vaddr - a;
	p = buf = xmalloc(n + 1);
	if (symt_code_bytes(t->f, a, buf, n) != n)
		n = 1;
	while (n && c2c_cs_disasm_iter(cs, &p, &n, &a, in))
		symt_step(s, t, ps, st, cs, in, in->address - delta);
	free(buf);
	free(ps);
	if (n)
		return -ENOENT;
	if (!t->last)
		t->last = xmalloc(sizeof(*t->last));
	*t->last = *st;
	t->last_lo = b->lo;
	t->last_at = vaddr;
	return 0;
}
