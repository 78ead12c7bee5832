/* Register state through one basic block for data-type profiling: what each instruction puts
 * in the registers it writes (symt_step()). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-type-int.h"

/* --- register state through a basic block -------------------------------------------------- */

/* What register @reg points to before the instruction at CU address @pc: tracked state, else a
 * pointer variable located there. */
static int reg_ptr(struct sym_session *s, struct pcscopes *ps, struct regstate *st,
		   Dwarf_Addr pc, int reg, int64_t disp, struct ptr *out)
{
	struct mem_op m = { .base = reg, .index = -1, .disp = disp < 0 ? 0 : disp };

	if (reg < 0 || reg >= NREGS)
		return -1;
	if (st->valid[reg]) {
		*out = st->p[reg];
		return 0;
	}
	return symt_find_ptr_var(s, symt_pcs_at(ps, pc), pc, &m, out);
}

/* The pointer loaded from byte @disp of register @b, named "b->member": 0, else -1. */
static int load_ptr(struct sym_session *s, const struct ptr *b, int64_t disp, struct ptr *out)
{
	struct mem_op m = { .base = 0, .index = -1, .disp = disp }, e = symt_effective(b, &m);
	struct sym_buf path = {0}, name = {0};
	struct sym_elem el;
	char elem[32];
	uint64_t off;
	Dwarf_Die t;

	memset(out, 0, sizeof(*out));
	if (e.index == -1 && e.disp < 0)
		return -1;
	sym_buf_add(&path, "%s", "");
	if (symt_place(b, &e, &path, elem, sizeof(elem), &off, &el) ||
	    sym_type_at((Dwarf_Die *)&b->pointee, off, &t) || symt_pointee_from(&t, out)) {
		free(path.p);
		return -1;
	}
	symt_compose(&name, b, elem, path.p);
	out->name = sym_str(&s->str, name.p);
	free(path.p);
	free(name.p);
	return 0;
}

/* The pointer held by the static variable (or member of one) at ELF @addr of @f, named as
 * sym_data() names that byte ("head", "gq.head"): 0, else -1. */
static int global_ptr(struct sym_session *s, struct sym_file *f, uint64_t addr, struct ptr *out)
{
	struct sym_data_info info;
	Dwarf_Die type, t;
	uint64_t off;

	memset(out, 0, sizeof(*out));
	if (sym_data_die(s, f, addr, &type, &off) || sym_type_at(&type, off, &t) ||
	    symt_pointee_from(&t, out) || sym_data_vaddr(s, f, addr, &info) || !info.member)
		return -1;
	out->name = info.member;
	return 0;
}

/* A constant address "dst = k": AArch64 adrp/adr, x86-64 lea from rip, or an immediate added
 * to a register holding one. 0 when @in is one. */
static int const_of(const cs_insn *in, int machine, const struct regstate *st, int *dst,
		    uint64_t *k)
{
	int base, index;
	int64_t disp;
	unsigned scale;

	if (machine == EM_AARCH64 && (in->id == ARM64_INS_ADRP || in->id == ARM64_INS_ADR) &&
	    in->detail->arm64.op_count == 2 && in->detail->arm64.operands[1].type == ARM64_OP_IMM) {
		*dst = symt_a64_dwreg(in->detail->arm64.operands[0].reg);
		*k = (uint64_t)in->detail->arm64.operands[1].imm;
		return *dst >= 0 && *dst < NREGS ? 0 : -1;
	}
	if (machine == EM_X86_64 && in->id == X86_INS_LEA && in->detail->x86.operands[1].mem.base == X86_REG_RIP &&
	    in->detail->x86.operands[1].mem.index == X86_REG_INVALID) {
		*dst = symt_x86_dwreg(in->detail->x86.operands[0].reg);
		*k = in->address + in->size + (uint64_t)in->detail->x86.operands[1].mem.disp;
		return *dst >= 0 && *dst < NREGS ? 0 : -1;
	}
	if (symt_arith_of(in, machine, dst, &base, &disp, &index, &scale) == 0 && !scale &&
	    st->kvalid[base]) {
		*k = st->k[base] + (uint64_t)disp;
		return 0;
	}
	return -1;
}

/* The constant address a load "dst = [base + disp]" reads, when it is one: 0 and *addr. */
static int load_addr(const cs_insn *in, int machine, const struct regstate *st, int base,
		     int64_t disp, uint64_t *addr)
{
	if (machine == EM_X86_64 && base == 16) {
		*addr = in->address + in->size + (uint64_t)disp;
		return 0;
	}
	if (base < 0 || base >= NREGS || !st->kvalid[base] || disp < 0)
		return -1;
	*addr = st->k[base] + (uint64_t)disp;
	return 0;
}

/* 1 when @reg is the stack pointer or the frame pointer (x86-64 rsp, rbp; AArch64 sp, x29). */
static int frame_reg(int machine, int reg)
{
	return machine == EM_X86_64 ? reg == 6 || reg == 7 : reg == 29 || reg == 31;
}

/* The variable DWARF locates at the address the load [@base + @disp] at @pc reads (a struct
 * chain of one or two derefs, the last one this load's), as an object: 0 and *p (the register
 * then holds its address), else -1. */
static int deref_var(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
		     const struct regstate *st, Dwarf_Addr pc, int base, int64_t disp, struct ptr *p)
{
	struct scopes *sc;
	int64_t slot = 0;
	int have_slot;

	if (!ps->chains)
		ps->chains = symt_has_chains(&ps->fn, 0) ? 1 : -1;
	if (ps->chains < 0)
		return -1;
	sc = symt_pcs_at(ps, pc);
	have_slot = frame_reg(t->machine, base) && symt_cfa_rel(ps, pc, base, disp, &slot) == 0;
	for (int i = sc->n - 1; i >= 0; i--) {
		Dwarf_Die v;
		if (dwarf_child(&sc->die[i], &v))
			continue;
		do {
			int tag = dwarf_tag(&v), hit = 0;
			struct chain ch;
			const char *name;
			int64_t c;
			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    symt_chain_of(&ps->fn, &v, pc, &ch) || !(name = symt_die_name(&v)))
				continue;
			if (ch.n == 1 && ch.cfa)
				hit = have_slot && slot == ch.c[0];
			else if (ch.n == 1)
				hit = ch.reg == base && ch.c[0] == disp;
			else if (st->svalid[base] && ch.c[1] == disp)
				hit = ch.cfa ? st->slot[base] == ch.c[0] :
				      symt_cfa_rel(ps, pc, ch.reg, ch.c[0], &c) == 0 && st->slot[base] == c;
			if (hit && symt_object_of(s, &v, name, p) == 0) {
				p->off = -ch.c[ch.n];
				return 0;
			}
		} while (dwarf_siblingof(&v, &v) == 0);
	}
	return -1;
}

/* The typed pointer the 64-bit load [@base + @disp] at @pc reads: a static pointer, a pointer
 * variable kept in memory there, the address of a variable DWARF locates through that memory,
 * or a pointer member of what @base points to. 0 and *p, else -1. */
static int loaded_ptr(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
		      struct regstate *st, const cs_insn *in, Dwarf_Addr pc, int base,
		      int64_t disp, struct ptr *p)
{
	uint64_t addr;
	struct ptr b;

	if (load_addr(in, t->machine, st, base, disp, &addr) == 0)
		return global_ptr(s, t->f, addr, p);
	if (base < 0 || base >= NREGS)
		return -1;
	struct where wm = { .reg = base, .mem = 1, .disp = disp, .fb_reg = -1 };
	struct mem_op any = { .index = -1 };
	if (!st->valid[base]) {
		if (symt_pcs_frame(ps, pc, &wm.fb_reg, &wm.fb_off))
			wm.fb_reg = -1;
		if (symt_find_var(s, symt_pcs_at(ps, pc), pc, &wm, &any, p) == 0)
			return 0;  /* a pointer variable kept in memory at [base + disp] */
	}
	if (deref_var(s, t, ps, st, pc, base, disp, p) == 0)
		return 0;
	if (disp < 0 || reg_ptr(s, ps, st, pc, base, disp, &b))
		return -1;
	return load_ptr(s, &b, disp, p);
}

/* A local variable whose stack slot holds the address [@reg + @disp] at @pc (DW_OP_fbreg from
 * the frame base, or DW_OP_breg<N>, the slot's register @reg), as an object whose address is
 * @reg's value plus p->off: 0, else -1. */
int symt_local_ptr(struct sym_session *s, struct pcscopes *ps, Dwarf_Addr pc, int reg,
		   int64_t disp, struct ptr *p)
{
	struct scopes *sc = symt_pcs_at(ps, pc);
	int fb_reg, vreg;
	int64_t fb_off, off;

	if (symt_pcs_frame(ps, pc, &fb_reg, &fb_off))
		fb_reg = -1;
	for (int i = sc->n - 1; i >= 0; i--) {
		Dwarf_Die v;
		if (dwarf_child(&sc->die[i], &v))
			continue;
		do {
			int tag = dwarf_tag(&v);
			const char *name;
			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    symt_slot_of(&v, pc, fb_reg, fb_off, &vreg, &off) || vreg != reg || disp < off ||
			    !(name = symt_die_name(&v)) || symt_object_of(s, &v, name, p) ||
			    (uint64_t)(disp - off) >= p->size)
				continue;
			p->off = -off;
			return 0;
		} while (dwarf_siblingof(&v, &v) == 0);
	}
	return -1;
}

/* What the load or copy @in puts in its destination: 0 and *p when a typed pointer. */
static int moved_ptr(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
		     struct regstate *st, const cs_insn *in, Dwarf_Addr pc, int *dst, struct ptr *p)
{
	int base, copy;
	int64_t disp;

	if (symt_move_of(in, t->machine, dst, &base, &disp, &copy))
		return -1;
	if (!copy)
		return loaded_ptr(s, t, ps, st, in, pc, base, disp, p);
	if (reg_ptr(s, ps, st, pc, base, 0, p) == 0)
		return 0;
	/* "mov rax, rsp": the address of the local at the stack pointer */
	if (frame_reg(t->machine, base) && !frame_reg(t->machine, *dst))
		return symt_local_ptr(s, ps, pc, base, 0, p);
	return -1;
}

/* --- integers: multiples of a known step ------------------------------------------------------ */

/* What the register holds a multiple of (1 when nothing is known, MULT_ZERO for 0). */
static uint32_t mult_of(const struct regstate *st, int reg)
{
	return reg >= 0 && reg < NREGS && st->mult[reg] ? st->mult[reg] : 1;
}

static uint32_t imm_mult(int64_t v)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;

	return !a ? MULT_ZERO : a < MULT_MAX ? (uint32_t)a : 1;
}

/* The step the integer @in puts in its destination register is a multiple of (x86-64: shl, imul,
 * lea, mov and the sign and zero extensions, add, sub, xor of itself; AArch64: lsl, mov, add):
 * 0 and *dst, *mult (1: nothing known), else -1. */
static int int_mult(const cs_insn *in, int machine, const struct regstate *st, int *dst,
		    uint32_t *mult)
{
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		const cs_x86_op *o = x->operands;
		if (!x->op_count || o[0].type != X86_OP_REG)
			return -1;
		*dst = symt_x86_dwreg(o[0].reg);
		if (*dst < 0 || *dst >= NREGS)
			return -1;
		switch (in->id) {
		case X86_INS_SHL:
		case X86_INS_SAL:
			if (x->op_count != 2 || o[1].type != X86_OP_IMM || o[1].imm < 0 || o[1].imm > 24)
				return -1;
			*mult = mmul(mult_of(st, *dst), 1ull << o[1].imm);
			return 0;
		case X86_INS_IMUL:
			if (x->op_count == 3 && o[2].type == X86_OP_IMM)
				*mult = mmul(o[1].type == X86_OP_REG ? mult_of(st, symt_x86_dwreg(o[1].reg)) : 1,
					     imm_mult(o[2].imm) == MULT_ZERO ? 0 : imm_mult(o[2].imm));
			else if (x->op_count == 2 && o[1].type == X86_OP_REG)
				*mult = mmul(mult_of(st, *dst), mult_of(st, symt_x86_dwreg(o[1].reg)));
			else
				return -1;
			return 0;
		case X86_INS_LEA: {
			const x86_op_mem *m = &o[1].mem;
			int b = symt_x86_dwreg(m->base), i = symt_x86_dwreg(m->index);
			if (m->base == X86_REG_RIP || m->segment != X86_REG_INVALID)
				return -1;
			*mult = m->disp ? imm_mult(m->disp) : MULT_ZERO;
			if (b >= 0 && b == i)
				*mult = mgcd(*mult, mmul(mult_of(st, b), (uint64_t)m->scale + 1));
			else {
				if (b >= 0)
					*mult = mgcd(*mult, mult_of(st, b));
				if (i >= 0)
					*mult = mgcd(*mult, mmul(mult_of(st, i), (uint64_t)m->scale));
			}
			return 0;
		}
		case X86_INS_MOV:
		case X86_INS_MOVSXD:
		case X86_INS_MOVSX:
			if (x->op_count == 2 && o[1].type == X86_OP_REG && o[0].size >= 4)
				*mult = mult_of(st, symt_x86_dwreg(o[1].reg));
			else if (x->op_count == 2 && o[1].type == X86_OP_IMM)
				*mult = imm_mult(o[1].imm);
			else
				return -1;
			return 0;
		case X86_INS_CDQE:
			*mult = mult_of(st, 0);
			return 0;
		case X86_INS_ADD:
		case X86_INS_SUB:
			if (x->op_count != 2)
				return -1;
			if (in->id == X86_INS_SUB && o[1].type == X86_OP_REG && o[1].reg == o[0].reg)
				*mult = MULT_ZERO;
			else if (o[1].type == X86_OP_IMM)
				*mult = mgcd(mult_of(st, *dst), imm_mult(o[1].imm));
			else if (o[1].type == X86_OP_REG)
				*mult = mgcd(mult_of(st, *dst), mult_of(st, symt_x86_dwreg(o[1].reg)));
			else
				return -1;
			return 0;
		case X86_INS_XOR:
			if (x->op_count != 2 || o[1].type != X86_OP_REG || o[1].reg != o[0].reg)
				return -1;
			*mult = MULT_ZERO;
			return 0;
		}
		return -1;
	}
	const cs_arm64 *a = &in->detail->arm64;
	const cs_arm64_op *o = a->operands;
	if (a->op_count < 2 || o[0].type != ARM64_OP_REG || o[1].type != ARM64_OP_REG)
		return -1;
	*dst = symt_a64_dwreg(o[0].reg);
	if (*dst < 0 || *dst >= NREGS)
		return -1;
	if (in->id == ARM64_INS_LSL && a->op_count == 3 && o[2].type == ARM64_OP_IMM &&
	    o[2].imm >= 0 && o[2].imm <= 24)
		*mult = mmul(mult_of(st, symt_a64_dwreg(o[1].reg)), 1ull << o[2].imm);
	else if (in->id == ARM64_INS_MOV && a->op_count == 2)
		*mult = mult_of(st, symt_a64_dwreg(o[1].reg));
	else if (in->id == ARM64_INS_ADD && a->op_count == 3 && o[2].type == ARM64_OP_IMM &&
		 o[2].shift.type == ARM64_SFT_INVALID)
		*mult = mgcd(mult_of(st, symt_a64_dwreg(o[1].reg)), imm_mult(o[2].imm));
	else
		return -1;
	return 0;
}

/* What pointer arithmetic @in puts in its destination: 0 and *p when a typed pointer. The
 * pointer plus an integer known to be a multiple of m (index * scale * m) moves by an unknown
 * multiple of scale * m; x86 "add reg, [mem]" adds to an integer a pointer loaded from memory;
 * "lea" of a local's stack slot points into that local. */
static int added_ptr(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
		     struct regstate *st, const cs_insn *in, Dwarf_Addr pc, int *dst, struct ptr *p)
{
	int base, index, machine = t->machine;
	int64_t disp;
	unsigned scale;

	if (machine == EM_X86_64 && in->id == X86_INS_ADD && in->detail->x86.op_count == 2 &&
	    in->detail->x86.operands[0].type == X86_OP_REG && in->detail->x86.operands[0].size == 8 &&
	    in->detail->x86.operands[1].type == X86_OP_MEM) {
		const x86_op_mem *o = &in->detail->x86.operands[1].mem;
		*dst = symt_x86_dwreg(in->detail->x86.operands[0].reg);
		if (*dst < 0 || *dst >= NREGS || st->valid[*dst] || o->index != X86_REG_INVALID ||
		    o->segment != X86_REG_INVALID ||
		    loaded_ptr(s, t, ps, st, in, pc, symt_x86_dwreg(o->base), o->disp, p))
			return -1;
		scale = mult_of(st, *dst);
		if (scale == MULT_ZERO)
			return 0;
		p->scale = p->scale ? gcd(p->scale, scale) : scale;
		return 0;
	}
	if (symt_arith_of(in, machine, dst, &base, &disp, &index, &scale))
		return -1;
	if (reg_ptr(s, ps, st, pc, base, 0, p)) {
		/* "lea rax, [rsp + 16]": into a local; "add rdx, rax", rax the pointer */
		if (!scale && frame_reg(machine, base) && !frame_reg(machine, *dst) &&
		    (machine != EM_X86_64 || in->id == X86_INS_LEA) &&
		    symt_local_ptr(s, ps, pc, base, disp, p) == 0) {
			p->off += disp;
			return 0;
		}
		if (scale != 1 || reg_ptr(s, ps, st, pc, index, 0, p))
			return -1;
		index = base;
	}
	p->off += disp;
	if (scale) {
		uint32_t m = mmul(mult_of(st, index), scale);
		if (m == MULT_ZERO)
			return 0;
		if (!m)
			m = scale;
		p->scale = p->scale ? gcd(p->scale, m) : m;
	}
	return 0;
}

/* 1 when register @reg keeps its value across a call (the SysV x86-64 ABI: rbx, rbp, rsp,
 * r12-r15; AAPCS64: x19-x29, sp). */
static int callee_saved(int machine, int reg)
{
	if (machine == EM_X86_64)
		return reg == 3 || reg == 6 || reg == 7 || (reg >= 12 && reg <= 15);
	return (reg >= 19 && reg <= 29) || reg == 31;
}

/* One instruction of the block: the registers it writes lose what they held, except the
 * destination of a pointer load, copy or arithmetic from a typed register or a constant, of
 * integer arithmetic whose step is known, and of a load from a stack slot. */
void symt_step(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
	       struct regstate *st, csh cs, const cs_insn *in, Dwarf_Addr pc)
{
	int w[NREGS], dst = -1, kdst = -1, mdst = -1, sdst = -1, base, copy;
	struct ptr p;
	uint64_t k = 0;
	uint32_t mult = 0;
	int64_t disp, slot = 0;
	int typed;

	typed = moved_ptr(s, t, ps, st, in, pc, &dst, &p) == 0 ||
		added_ptr(s, t, ps, st, in, pc, &dst, &p) == 0;
	if (const_of(in, t->machine, st, &kdst, &k))
		kdst = -1;
	if (int_mult(in, t->machine, st, &mdst, &mult) || mult == 1)
		mdst = -1;
	if (symt_move_of(in, t->machine, &sdst, &base, &disp, &copy) || copy ||
	    !frame_reg(t->machine, base) || symt_cfa_rel(ps, pc, base, disp, &slot))
		sdst = -1;
	if (symt_is_call(cs, in, t->machine))
		for (int r = 0; r < NREGS; r++)
			if (!callee_saved(t->machine, r))
				st->valid[r] = st->kvalid[r] = 0, st->mult[r] = 0;
	if (symt_is_call(cs, in, t->machine) || symt_writes_memory(in, t->machine))
		memset(st->svalid, 0, sizeof(st->svalid));
	symt_written(cs, in, t->machine, w);
	for (int r = 0; r < NREGS; r++)
		if (w[r]) {
			st->valid[r] = st->kvalid[r] = st->svalid[r] = 0;
			st->mult[r] = 0;
		}
	if (typed) {
		st->valid[dst] = 1;
		st->p[dst] = p;
	}
	if (kdst >= 0) {
		st->kvalid[kdst] = 1;
		st->k[kdst] = k;
	}
	if (mdst >= 0 && !typed)
		st->mult[mdst] = mult;
	if (sdst >= 0) {
		st->svalid[sdst] = 1;
		st->slot[sdst] = slot;
	}
}
