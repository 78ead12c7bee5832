/* Split read-modify-writes for the soft decoder: value numbering over the straight-line code
 * around a load finds the store that writes its bytes back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/soft-decode-int.h"

/* --- split read-modify-writes ------------------------------------------------------------------ */

/* HOW IT WORKS. Value numbering over the straight-line code around the load: each general
 * register holds a number, and two equal numbers hold equal values. The code is replayed from
 * the start of the load's block (a branch target, or the instruction after one that cannot fall
 * through, at most SPLIT_BEFORE instructions up) with every register an unknown input; a move
 * copies a number, a load from a given address and size gives the same number each time until
 * the code stores to memory (any store starts a new memory generation), sign and zero
 * extensions, lea and constants are numbered by what they compute, and any other write makes a
 * fresh number. After the load, up to SPLIT_AFTER instructions and before any jump, call or
 * return, a store whose address numbers the same as the load's, with the same size, writes the
 * bytes the load read. Another thread changing a reloaded pointer between two loads of this
 * straight-line code would be a data race: the compiler reloads it only because it assumes
 * nobody does. */
#define SPLIT_BEFORE 32
#define SPLIT_AFTER 32
#define VN_MAX 384

enum vn_op { VN_INPUT = 1, VN_FRESH, VN_CONST, VN_ADDR, VN_LOAD, VN_ZX, VN_SX };

struct vnode {
	uint8_t op, size;
	int32_t scale;
	uint32_t a, b;           /* VN_ADDR: base and index (0: none); VN_LOAD: address and memory
				  * generation; VN_ZX, VN_SX: the value extended */
	int64_t imm;             /* constant, displacement, input register, fresh serial */
};

struct vnstate {
	struct vnode node[VN_MAX];
	uint32_t nr, fresh, epoch;
	uint32_t reg[REGS_X86_64_MAX];   /* 0: no number (the table was full) */
};

/* The number of @n: an equal node's, or a new one; 0 when the table is full. */
static uint32_t vn_get(struct vnstate *x, struct vnode n)
{
	for (uint32_t i = 0; i < x->nr; i++) {
		const struct vnode *o = &x->node[i];

		if (o->op == n.op && o->size == n.size && o->scale == n.scale && o->a == n.a &&
		    o->b == n.b && o->imm == n.imm)
			return i + 1;
	}
	if (x->nr == VN_MAX)
		return 0;
	x->node[x->nr++] = n;
	return x->nr;
}

static uint32_t vn_fresh(struct vnstate *x)
{
	return vn_get(x, (struct vnode){ .op = VN_FRESH, .imm = ++x->fresh });
}

/* The low @size bytes of @v, zero- or sign-extended to 64 bits. */
static uint32_t vn_ext(struct vnstate *x, uint8_t op, unsigned int size, uint32_t v)
{
	if (!v)
		return 0;
	if (size >= 8)
		return v;
	if (op == VN_ZX && (x->node[v - 1].op == VN_LOAD || x->node[v - 1].op == VN_ZX) &&
	    x->node[v - 1].size <= size)
		return v;                /* already zero above @size bytes */
	return vn_get(x, (struct vnode){ .op = op, .size = (uint8_t)size, .a = v });
}

/* The number of the address of memory operand @m of @in; 0 when it cannot be numbered. */
static uint32_t vn_addr(struct vnstate *x, const cs_insn *in, const x86_op_mem *m)
{
	int64_t disp = m->disp;
	uint32_t base = 0, index = 0;
	int b = m->base == X86_REG_INVALID ? -1 : sdec_plain_reg(m->base);
	int i = m->index == X86_REG_INVALID ? -1 : sdec_plain_reg(m->index);

	if (m->segment != X86_REG_INVALID || in->detail->x86.addr_size != 8)
		return 0;
	if (m->base == X86_REG_RIP)
		disp += (int64_t)(in->address + in->size);
	else if (m->base != X86_REG_INVALID && (b < 0 || !(base = x->reg[b])))
		return 0;
	if (m->index != X86_REG_INVALID && (i < 0 || !(index = x->reg[i])))
		return 0;
	return vn_get(x, (struct vnode){ .op = VN_ADDR, .scale = m->scale, .a = base, .b = index,
					 .imm = disp });
}

/* The value operand @op reads (all of its register; a load of its size). */
static uint32_t vn_src(struct vnstate *x, const cs_insn *in, const cs_x86_op *op)
{
	uint32_t a;
	int r;

	if (op->type == X86_OP_REG)
		return (r = sdec_plain_reg(op->reg)) < 0 ? 0 : x->reg[r];
	if (op->type != X86_OP_MEM || !(a = vn_addr(x, in, &op->mem)))
		return 0;
	return vn_get(x, (struct vnode){ .op = VN_LOAD, .size = op->size, .a = a, .b = x->epoch });
}

/* The number @in gives its destination register @dst when it is a move, extension or lea;
 * 0 for anything else (AT&T order: the destination is the last operand). */
static uint32_t vn_move(struct vnstate *x, const cs_insn *in, const cs_x86_op *src,
			const cs_x86_op *dst)
{
	uint32_t v;

	if (dst->size != 8 && dst->size != 4)
		return 0;                /* a byte or word write merges with the old value */
	switch (in->id) {
	case X86_INS_MOV:
	case X86_INS_MOVABS:
		if (src->type == X86_OP_IMM)
			return vn_get(x, (struct vnode){ .op = VN_CONST, .imm = dst->size == 4 ?
							 (int64_t)(uint32_t)src->imm : src->imm });
		return vn_ext(x, VN_ZX, dst->size, vn_src(x, in, src));
	case X86_INS_MOVSXD:
	case X86_INS_MOVSX:
	case X86_INS_MOVZX:
		v = vn_ext(x, in->id == X86_INS_MOVZX ? VN_ZX : VN_SX, src->size, vn_src(x, in, src));
		return vn_ext(x, VN_ZX, dst->size, v);
	case X86_INS_LEA:
		return src->type == X86_OP_MEM ? vn_ext(x, VN_ZX, dst->size, vn_addr(x, in, &src->mem))
					       : 0;
	default:
		return 0;
	}
}

/* Does @in write memory (or might it: an operand capstone gives no access flags)? */
static int vn_stores(const cs_insn *in)
{
	const cs_x86 *d = &in->detail->x86;

	if (sdec_is_stack_write(in->id) || d->prefix[0] == X86_PREFIX_LOCK || sdec_is_atomic_op(in->id))
		return 1;
	for (int i = 0; i < d->op_count; i++)
		if (d->operands[i].type == X86_OP_MEM &&
		    (!d->operands[i].access || (sdec_mem_access(in, i) & CS_AC_WRITE)))
			return 1;
	return 0;
}

/* Replay @in: new numbers for the registers it writes, a new memory generation if it stores. */
static void vn_step(struct vnstate *x, csh cs, const cs_insn *in)
{
	const cs_x86 *d = &in->detail->x86;
	uint64_t w = sdec_written_regs(cs, in) & ~(1ULL << REGS_X86_IP);
	uint32_t v = 0;
	int dst = -1;

	if (d->op_count == 2 && d->operands[1].type == X86_OP_REG &&
	    (dst = sdec_plain_reg(d->operands[1].reg)) >= 0 && w == 1ULL << dst)
		v = vn_move(x, in, &d->operands[0], &d->operands[1]);
	for (int r = 0; r < REGS_X86_64_MAX; r++)
		if (w & (1ULL << r))
			x->reg[r] = vn_fresh(x);
	if (v)
		x->reg[dst] = v;
	if (vn_stores(in))
		x->epoch++;
}

/* Control may leave the straight line after @in (or never come back to the next instruction
 * with the registers intact). */
static int vn_leaves(csh cs, const cs_insn *in)
{
	return sdec_no_fallthrough(in->id) || c2c_cs_insn_group(cs, in, CS_GRP_JUMP) ||
	       c2c_cs_insn_group(cs, in, CS_GRP_CALL) || c2c_cs_insn_group(cs, in, CS_GRP_RET) ||
	       c2c_cs_insn_group(cs, in, CS_GRP_INT) || c2c_cs_insn_group(cs, in, CS_GRP_IRET) ||
	       in->id == X86_INS_SYSCALL || in->id == X86_INS_SYSENTER;
}

/* The first instruction of the straight-line code that ends at the load @idx. */
static long split_start(struct softdec *sd, const struct softdec_func *fn, long idx)
{
	long s = idx;

	while (s > 0 && idx - s < SPLIT_BEFORE && !sd->fb->target[s]) {
		const struct iinfo *ii = sdec_info_at(sd, fn, s - 1);

		if (!ii || ii->nofall || ii->id == X86_INS_CALL)
			break;
		s--;
	}
	return s;
}

/* Is the load @idx the read of a split read-modify-write: does the code store to its bytes
 * before any branch (HOW IT WORKS above)? */
static int split_rmw_find(struct softdec *sd, const struct softdec_func *fn, long idx)
{
	struct vnstate x = { .nr = 0 };
	uint32_t key = 0;
	uint16_t size = 0;
	long end = idx + SPLIT_AFTER < (long)sd->fb->nr ? idx + SPLIT_AFTER : (long)sd->fb->nr - 1;

	for (int r = 0; r < REGS_X86_64_MAX; r++)
		x.reg[r] = vn_get(&x, (struct vnode){ .op = VN_INPUT, .imm = r });
	for (long k = split_start(sd, fn, idx); k <= end; k++) {
		const uint8_t *p = fn->code + sd->fb->off[k];
		size_t left = fn->len - sd->fb->off[k];
		uint64_t addr = sdec_insn_address(sd, fn, k);
		const cs_insn *in = sd->insn;
		int m;

		if (!c2c_cs_disasm_iter(sd->cs, &p, &left, &addr, sd->insn))
			return 0;
		m = sdec_pick_mem_operand(in);
		if (k == idx) {
			if (m < 0 || !(key = vn_addr(&x, in, &in->detail->x86.operands[m].mem)))
				return 0;
			size = in->detail->x86.operands[m].size;
		} else if (k > idx && m >= 0 && (sdec_mem_access(in, m) & CS_AC_WRITE) &&
			   in->detail->x86.operands[m].size == size &&
			   vn_addr(&x, in, &in->detail->x86.operands[m].mem) == key) {
			return 1;
		}
		if (k >= idx && vn_leaves(sd->cs, in))
			return 0;
		vn_step(&x, sd->cs, in);
	}
	return 0;
}

/* A load the code stores back to is a read-modify-write, as `addl $1,(%rax)` is: classified as a
 * store with SOFTDEC_F_RMW. Not in trap mode: there the store traps on its own. */
void sdec_split_rmw(struct softdec *sd, const struct softdec_func *fn, long idx,
		    struct softdec_access *out)
{
	struct iinfo *ii = &sd->fb->info[idx];

	if (sd->trap || ii->access != 1 || ii->kind != SOFTDEC_LOAD || ii->special)
		return;
	if (!ii->split)
		ii->split = split_rmw_find(sd, fn, idx) ? 2 : 1;
	if (ii->split == 2) {
		out->kind = SOFTDEC_STORE;
		out->flags |= SOFTDEC_F_RMW;
	}
}
