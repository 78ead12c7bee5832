/* Instruction decoding for data-type profiling: an instruction's memory operand, branches and
 * the registers it moves, adds or writes, as DWARF register numbers (capstone). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-type-int.h"

/* --- code bytes --------------------------------------------------------------------------- */

int symt_file_machine(struct type_file *t)
{
	GElf_Addr bias;
	GElf_Ehdr eh;
	Elf *elf;

	if (t->machine < 0) {
		elf = t->f->mod ? dwfl_module_getelf(t->f->mod, &bias) : NULL;
		t->machine = elf && gelf_getehdr(elf, &eh) ? eh.e_machine : 0;
	}
	return t->machine;
}

/* Up to @cap code bytes at ELF @vaddr of @f; the count, 0 when the file holds none there. */
size_t symt_code_bytes(struct sym_file *f, uint64_t vaddr, uint8_t *buf, size_t cap)
{
	GElf_Addr bias;
	Elf *elf = f->mod ? dwfl_module_getelf(f->mod, &bias) : NULL;

	for (Elf_Scn *scn = NULL; elf && (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || vaddr - sh.sh_addr >= d->d_size)
			return 0;
		size_t n = d->d_size - (vaddr - sh.sh_addr);
		n = n < cap ? n : cap;
		memcpy(buf, (const uint8_t *)d->d_buf + (vaddr - sh.sh_addr), n);
		return n;
	}
	return 0;
}

/* --- instruction decoding ------------------------------------------------------------------- */

/* The DWARF number of an x86-64 register of any width, or -1. */
int symt_x86_dwreg(x86_reg r)
{
	static const struct { x86_reg r[4]; } low[8] = {
		{{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL }},
		{{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL }},
		{{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL }},
		{{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL }},
		{{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL }},
		{{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL }},
		{{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL }},
		{{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL }},
	};

	if (r == X86_REG_INVALID)
		return -1;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			if (low[i].r[j] == r)
				return i;
	if (r == X86_REG_AH || r == X86_REG_DH || r == X86_REG_CH || r == X86_REG_BH)
		return r == X86_REG_AH ? 0 : r == X86_REG_DH ? 1 : r == X86_REG_CH ? 2 : 3;
	if (r >= X86_REG_R8 && r <= X86_REG_R15)
		return 8 + (r - X86_REG_R8);
	if (r >= X86_REG_R8D && r <= X86_REG_R15D)
		return 8 + (r - X86_REG_R8D);
	if (r >= X86_REG_R8W && r <= X86_REG_R15W)
		return 8 + (r - X86_REG_R8W);
	if (r >= X86_REG_R8B && r <= X86_REG_R15B)
		return 8 + (r - X86_REG_R8B);
	if (r == X86_REG_RIP || r == X86_REG_EIP)
		return 16;
	return -1;
}

/* The DWARF number of an AArch64 general register (x0-x30 0-30, sp 31), or -1. */
int symt_a64_dwreg(arm64_reg r)
{
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return r - ARM64_REG_X0;
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return r - ARM64_REG_W0;
	if (r == ARM64_REG_X29)
		return 29;
	if (r == ARM64_REG_X30)
		return 30;
	if (r == ARM64_REG_SP || r == ARM64_REG_WSP)
		return 31;
	return -1;
}

/* The memory operand of an x86-64 instruction: 0, or -ENOENT with *why. */
static int x86_mem(const cs_insn *in, struct mem_op *m, const char **why)
{
	const cs_x86 *x = &in->detail->x86;
	int pick = -1;

	if (in->id == X86_INS_LEA || in->id == X86_INS_NOP) {
		*why = "no memory access (address arithmetic or nop)";
		return -ENOENT;
	}
	for (int i = 0; i < x->op_count && pick < 0; i++)
		if (x->operands[i].type == X86_OP_MEM)
			pick = i;
	if (pick < 0) {
		*why = "no memory operand";
		return -ENOENT;
	}
	const x86_op_mem *o = &x->operands[pick].mem;
	if (o->segment == X86_REG_FS || o->segment == X86_REG_GS) {
		*why = "thread-local storage (fs/gs segment)";
		return -ENOENT;
	}
	m->base = symt_x86_dwreg(o->base);
	m->index = symt_x86_dwreg(o->index);
	if ((o->base != X86_REG_INVALID && m->base < 0) || (o->index != X86_REG_INVALID && m->index < 0)) {
		*why = "vector or unusual address register";
		return -ENOENT;
	}
	m->disp = o->disp;
	m->scale = o->index != X86_REG_INVALID ? (unsigned)o->scale : 0;
	m->rip = m->base == 16;
	if (m->rip)
		m->target = in->address + in->size + (uint64_t)o->disp;
	return 0;
}

/* The memory operand of an AArch64 instruction: 0, or -ENOENT with *why. Post-indexed forms
 * access [base] and carry the increment in a separate operand, which is ignored here. */
static int a64_mem(const cs_insn *in, struct mem_op *m, const char **why)
{
	const cs_arm64 *a = &in->detail->arm64;

	for (int i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];
		if (op->type != ARM64_OP_MEM)
			continue;
		m->base = symt_a64_dwreg(op->mem.base);
		m->index = op->mem.index != ARM64_REG_INVALID ? symt_a64_dwreg(op->mem.index) : -1;
		if (m->base < 0 || (op->mem.index != ARM64_REG_INVALID && m->index < 0)) {
			*why = "unusual address register";
			return -ENOENT;
		}
		m->disp = op->mem.disp;
		m->scale = m->index < 0 ? 0 :
			   op->shift.type == ARM64_SFT_LSL ? 1u << (op->shift.value & 7) : 1;
		return 0;
	}
	*why = in->id == ARM64_INS_ADR || in->id == ARM64_INS_ADRP ? "no memory access (address arithmetic)" :
									  "no memory operand";
	return -ENOENT;
}

/* Decode the instruction at @vaddr (bytes in @buf) and its memory operand. */
int symt_decode(csh *cs, int machine, const uint8_t *buf, size_t n, uint64_t vaddr,
		cs_insn *in, struct mem_op *m, const char **why)
{
	const uint8_t *p = buf;

	memset(m, 0, sizeof(*m));
	m->base = m->index = -1;
	if (!c2c_cs_disasm_iter(*cs, &p, &n, &vaddr, in)) {
		*why = "instruction not decodable";
		return -ENOENT;
	}
	return machine == EM_X86_64 ? x86_mem(in, m, why) : a64_mem(in, m, why);
}

/* --- branches, register writes, moves and arithmetic ----------------------------------------- */

/* The immediate target of a direct branch, or 0 when @in has none. */
uint64_t symt_branch_target(const cs_insn *in, int machine)
{
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		for (int i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_IMM)
				return (uint64_t)x->operands[i].imm;
	} else {
		const cs_arm64 *a = &in->detail->arm64;
		for (int i = 0; i < a->op_count; i++)
			if (a->operands[i].type == ARM64_OP_IMM)
				return (uint64_t)a->operands[i].imm;
	}
	return 0;
}

/* 1 for a branch, call or return: it ends a basic block. */
int symt_ends_block(csh cs, const cs_insn *in, int machine)
{
	if (c2c_cs_insn_group(cs, in, CS_GRP_JUMP) || c2c_cs_insn_group(cs, in, CS_GRP_CALL) ||
	    c2c_cs_insn_group(cs, in, CS_GRP_RET) || c2c_cs_insn_group(cs, in, CS_GRP_IRET) ||
	    c2c_cs_insn_group(cs, in, CS_GRP_INT))
		return 1;
	return machine == EM_AARCH64 && (in->id == ARM64_INS_RET || in->id == ARM64_INS_BR ||
					 in->id == ARM64_INS_BLR || in->id == ARM64_INS_B ||
					 in->id == ARM64_INS_BL || in->id == ARM64_INS_CBZ ||
					 in->id == ARM64_INS_CBNZ || in->id == ARM64_INS_TBZ ||
					 in->id == ARM64_INS_TBNZ);
}

int symt_is_call(csh cs, const cs_insn *in, int machine)
{
	return c2c_cs_insn_group(cs, in, CS_GRP_CALL) ||
	       (machine == EM_AARCH64 && (in->id == ARM64_INS_BL || in->id == ARM64_INS_BLR));
}

/* The DWARF registers @in writes into @w (1 each). */
void symt_written(csh cs, const cs_insn *in, int machine, int *w)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;

	memset(w, 0, NREGS * sizeof(*w));
	if (c2c_cs_regs_access(cs, in, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (int i = 0; i < nwr; i++) {
			int r = machine == EM_X86_64 ? symt_x86_dwreg((x86_reg)wr[i]) :
						       symt_a64_dwreg((arm64_reg)wr[i]);
			if (r >= 0 && r < NREGS)
				w[r] = 1;
		}
		return;
	}
	for (int r = 0; r < NREGS; r++)
		w[r] = 1;  /* unknown: assume everything changed */
}

/* A 64-bit general register load "dst = [base + disp]" or copy "dst = src" (src in *base,
 * *copy 1); 0 when @in is one. */
int symt_move_of(const cs_insn *in, int machine, int *dst, int *base, int64_t *disp,
		 int *copy)
{
	*disp = 0;
	*copy = 0;
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		if (in->id != X86_INS_MOV || x->op_count != 2 || x->operands[0].type != X86_OP_REG ||
		    x->operands[0].size != 8)
			return -1;
		*dst = symt_x86_dwreg(x->operands[0].reg);
		if (x->operands[1].type == X86_OP_REG) {
			*base = symt_x86_dwreg(x->operands[1].reg);
			*copy = 1;
		} else if (x->operands[1].type == X86_OP_MEM && x->operands[1].mem.index == X86_REG_INVALID &&
			   x->operands[1].mem.segment == X86_REG_INVALID) {
			*base = symt_x86_dwreg(x->operands[1].mem.base);
			*disp = x->operands[1].mem.disp;
		} else {
			return -1;
		}
	} else {
		const cs_arm64 *a = &in->detail->arm64;
		if ((in->id != ARM64_INS_LDR && in->id != ARM64_INS_MOV) || a->op_count != 2 ||
		    a->operands[0].type != ARM64_OP_REG || a->operands[0].reg < ARM64_REG_X0 ||
		    a->operands[0].reg > ARM64_REG_X28)
			return -1;
		*dst = symt_a64_dwreg(a->operands[0].reg);
		if (in->id == ARM64_INS_MOV && a->operands[1].type == ARM64_OP_REG) {
			*base = symt_a64_dwreg(a->operands[1].reg);
			*copy = 1;
		} else if (in->id == ARM64_INS_LDR && a->operands[1].type == ARM64_OP_MEM &&
			   a->operands[1].mem.index == ARM64_REG_INVALID && !a->writeback) {
			*base = symt_a64_dwreg(a->operands[1].mem.base);
			*disp = a->operands[1].mem.disp;
		} else {
			return -1;
		}
	}
	return *dst >= 0 && *dst < NREGS && *base >= 0 && *base < NREGS ? 0 : -1;
}

/* Pointer arithmetic "dst = base + disp + index * scale": x86 lea, add and sub of an immediate,
 * add of a register (index, scale 1); AArch64 add and sub of an immediate, add of a shifted
 * register. 0 when @in is one (*index -1 and *scale 0: no index). */
int symt_arith_of(const cs_insn *in, int machine, int *dst, int *base, int64_t *disp,
		  int *index, unsigned *scale)
{
	*disp = 0;
	*scale = 0;
	*index = -1;
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		if (x->op_count != 2 || x->operands[0].type != X86_OP_REG || x->operands[0].size != 8)
			return -1;
		*dst = symt_x86_dwreg(x->operands[0].reg);
		if (in->id == X86_INS_LEA) {
			const x86_op_mem *o = &x->operands[1].mem;
			if (x->operands[1].type != X86_OP_MEM || o->segment != X86_REG_INVALID)
				return -1;
			*base = symt_x86_dwreg(o->base);
			*disp = o->disp;
			if (o->index != X86_REG_INVALID) {
				*index = symt_x86_dwreg(o->index);
				*scale = (unsigned)o->scale;
			}
		} else if ((in->id == X86_INS_ADD || in->id == X86_INS_SUB) &&
			   x->operands[1].type == X86_OP_IMM) {
			*base = *dst;
			*disp = in->id == X86_INS_ADD ? x->operands[1].imm : -x->operands[1].imm;
		} else if (in->id == X86_INS_ADD && x->operands[1].type == X86_OP_REG &&
			   x->operands[1].size == 8) {
			*base = *dst;
			*index = symt_x86_dwreg(x->operands[1].reg);
			*scale = 1;
		} else {
			return -1;
		}
	} else {
		const cs_arm64 *a = &in->detail->arm64;
		if ((in->id != ARM64_INS_ADD && in->id != ARM64_INS_SUB) || a->op_count != 3 ||
		    a->operands[0].type != ARM64_OP_REG || a->operands[1].type != ARM64_OP_REG ||
		    a->operands[0].reg < ARM64_REG_X0 || a->operands[0].reg > ARM64_REG_X28 ||
		    a->operands[2].ext != ARM64_EXT_INVALID)
			return -1;
		const cs_arm64_op *o = &a->operands[2];
		unsigned sh = o->shift.type == ARM64_SFT_LSL ? o->shift.value & 63 : 0;
		if (o->shift.type != ARM64_SFT_INVALID && o->shift.type != ARM64_SFT_LSL)
			return -1;
		*dst = symt_a64_dwreg(a->operands[0].reg);
		*base = symt_a64_dwreg(a->operands[1].reg);
		if (o->type == ARM64_OP_IMM) {
			*disp = (int64_t)((uint64_t)o->imm << sh);
			if (in->id == ARM64_INS_SUB)
				*disp = -*disp;
		} else if (o->type == ARM64_OP_REG && sh < 32 && in->id == ARM64_INS_ADD) {
			*index = symt_a64_dwreg(o->reg);
			*scale = 1u << sh;
		} else {
			return -1;
		}
	}
	if (*scale && (*index < 0 || *index >= NREGS))
		return -1;
	return *dst >= 0 && *dst < NREGS && *base >= 0 && *base < 16 + (machine != EM_X86_64) * 16 ? 0 : -1;
}

/* 1 when @in may write memory (a store, a read-modify-write, a push; x86 instructions whose
 * first operand is in memory, AArch64 memory instructions other than plain loads). */
int symt_writes_memory(const cs_insn *in, int machine)
{
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		if (in->id == X86_INS_PUSH || in->id == X86_INS_PUSHF || in->id == X86_INS_PUSHFQ)
			return 1;
		if (in->id == X86_INS_LEA || in->id == X86_INS_NOP)
			return 0;
		for (int i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_MEM &&
			    (i == 0 || in->id == X86_INS_XCHG || in->id == X86_INS_XADD ||
			     in->id == X86_INS_CMPXCHG))
				return 1;
		return 0;
	}
	static const char *const atomics[] = { "ldadd", "ldclr", "ldeor", "ldset", "ldsmax",
					       "ldsmin", "ldumax", "ldumin" };
	const cs_arm64 *a = &in->detail->arm64;
	int mem = 0;
	for (int i = 0; i < a->op_count; i++)
		mem |= a->operands[i].type == ARM64_OP_MEM;
	if (!mem)
		return 0;
	if (strncmp(in->mnemonic, "ld", 2))
		return 1;
	for (size_t i = 0; i < sizeof(atomics) / sizeof(atomics[0]); i++)
		if (!strncmp(in->mnemonic, atomics[i], strlen(atomics[i])))
			return 1;
	return 0;
}

/* 1 when execution may continue after @in: not a return or an unconditional jump. */
int symt_falls_through(csh cs, const cs_insn *in, int machine)
{
	if (c2c_cs_insn_group(cs, in, CS_GRP_RET) || c2c_cs_insn_group(cs, in, CS_GRP_IRET))
		return 0;
	if (machine == EM_X86_64)
		return in->id != X86_INS_JMP && in->id != X86_INS_LJMP;
	if (in->id == ARM64_INS_B)
		return in->detail->arm64.cc != ARM64_CC_INVALID && in->detail->arm64.cc != ARM64_CC_AL;
	return in->id != ARM64_INS_BR && in->id != ARM64_INS_RET;
}
