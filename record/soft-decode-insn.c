/* The soft decoder's view of a function's instructions: their boundaries, the analysis of
 * each (memory operand, access kind, registers written) and the address of its operand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/soft-decode-int.h"

/* --- instruction boundaries ------------------------------------------------------------- */

static long find_start(const struct fbounds *fb, size_t rel)
{
	size_t lo = 0, hi = fb->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fb->off[mid] == rel)
			return (long)mid;
		if (fb->off[mid] < rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Remember the target of a direct jump, conditional jump or call that stays in the function. */
static void note_target(struct softdec *sd, const struct softdec_func *fn, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (!c2c_cs_insn_group(sd->cs, in, CS_GRP_JUMP) && !c2c_cs_insn_group(sd->cs, in, CS_GRP_CALL))
		return;
	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return;
	if ((uint64_t)x->operands[0].imm < fn->start || (uint64_t)x->operands[0].imm - fn->start >= fn->len)
		return;
	sd->tgt = xgrow(sd->tgt, &sd->cap_tgt, sd->nr_tgt + 1, sizeof(*sd->tgt));
	sd->tgt_src = xgrow(sd->tgt_src, &sd->cap_tgt_src, sd->nr_tgt + 1, sizeof(*sd->tgt_src));
	sd->tgt_src[sd->nr_tgt] = (uint32_t)(sd->fb->nr - 1);
	sd->tgt[sd->nr_tgt++] = (uint32_t)((uint64_t)x->operands[0].imm - fn->start);
}

static int edge_cmp(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->dst != b->dst)
		return (a->dst > b->dst) - (a->dst < b->dst);
	return (a->src > b->src) - (a->src < b->src);
}

/* Size the per-instruction tables, mark the branch targets and clear the analyses. */
static void finish_tables(struct softdec *sd)
{
	struct fbounds *fb = sd->fb;
	size_t n = fb->nr ? fb->nr : 1;

	fb->target = xgrow(fb->target, &fb->cap_target, n, sizeof(*fb->target));
	fb->info = xgrow(fb->info, &fb->cap_info, n, sizeof(*fb->info));
	memset(fb->target, 0, n * sizeof(*fb->target));
	memset(fb->info, 0, n * sizeof(*fb->info));
	fb->nr_edge = 0;
	for (size_t i = 0; i < sd->nr_tgt; i++) {
		long idx = find_start(fb, sd->tgt[i]);

		if (idx < 0)
			continue;
		fb->target[idx] = 1;
		fb->edge = xgrow(fb->edge, &fb->cap_edge, fb->nr_edge + 1, sizeof(*fb->edge));
		fb->edge[fb->nr_edge++] = (struct edge){ .src = sd->tgt_src[i], .dst = (uint32_t)idx };
	}
	if (fb->nr_edge > 1)
		qsort(fb->edge, fb->nr_edge, sizeof(*fb->edge), edge_cmp);
}

/* The length of a VEX (C4, C5) or EVEX (62) encoded instruction at @p, after an optional
 * address-size or segment prefix, or 0. Capstone 4 does not know every one (`kmovq %rcx,%k1`,
 * C4 E1 FB 92 C9, in glibc's AVX-512 memset), and an instruction it cannot decode would end the
 * function's boundaries there. In 64-bit mode these bytes always start a VEX or EVEX prefix.
 * Every such instruction has a ModRM byte but vzeroupper and vzeroall (map 0F, opcode 77); an
 * imm8 follows in map 0F3A and for the 0F opcodes 70-73 and C2, C4-C6 (Intel SDM vol. 2,
 * sections 2.3 and 2.7). */
size_t softdec_vex_len(const uint8_t *p, size_t left)
{
	size_t n = 0, pre;
	unsigned int map, op, modrm, mod, rm;

	while (n < left && n < 4 && (p[n] == 0x67 || p[n] == 0x64 || p[n] == 0x65 ||
				     p[n] == 0x2e || p[n] == 0x3e || p[n] == 0x26 || p[n] == 0x36))
		n++;
	if (n + 2 > left)
		return 0;
	switch (p[n]) {
	case 0xc5:
		map = 1;
		pre = 2;
		break;
	case 0xc4:
		map = p[n + 1] & 0x1f;
		pre = 3;
		break;
	case 0x62:
		map = p[n + 1] & 0x07;
		pre = 4;
		if (n + 4 > left || !(p[n + 2] & 0x04))   /* P1 bit 2 is always 1 */
			return 0;
		break;
	default:
		return 0;
	}
	if (map < 1 || map > (p[n] == 0x62 ? 6u : 3u) || map == 4)
		return 0;
	n += pre;
	if (n >= left)
		return 0;
	op = p[n++];
	if (map == 1 && op == 0x77)
		return n;
	if (n >= left)
		return 0;
	modrm = p[n++];
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod != 3 && rm == 4) {
		if (n >= left)
			return 0;
		if (mod == 0 && (p[n] & 7) == 5)
			n += 4;
		n++;
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		n += 4;
	if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
				      (op >= 0xc4 && op <= 0xc6))))
		n += 1;
	return n <= left ? n : 0;
}

static void build_boundaries(struct softdec *sd, const struct softdec_func *fn)
{
	const uint8_t *p = fn->code;
	size_t left = fn->len;
	uint64_t addr = fn->start;
	struct fbounds *fb = sd->fb;

	sdec_drop_info(fb);
	fb->nr = sd->nr_tgt = 0;
	while (left) {
		size_t at = fn->len - left;

		if (!c2c_cs_disasm_iter(sd->cs, &p, &left, &addr, sd->insn)) {
			/* an encoding capstone lacks: its length keeps the boundaries going; the
			 * instruction itself stays undecoded (sdec_info_at() gives NULL: walks stop) */
			size_t n = softdec_vex_len(p, left);

			if (!n)
				break;
			fb->off = xgrow(fb->off, &fb->cap, fb->nr + 1, sizeof(*fb->off));
			fb->off[fb->nr++] = (uint32_t)at;
			p += n;
			left -= n;
			addr += n;
			continue;
		}
		fb->off = xgrow(fb->off, &fb->cap, fb->nr + 1, sizeof(*fb->off));
		fb->off[fb->nr++] = (uint32_t)at;
		note_target(sd, fn, sd->insn);
	}
	finish_tables(sd);
	fb->decoded_to = fn->len - left;
	fb->code = fn->code;
	fb->len = fn->len;
	fb->start = fn->start;
}

/* Make sd->fb the boundaries of @fn: a cached entry, or the least recently used one rebuilt. */
static void select_function(struct softdec *sd, const struct softdec_func *fn)
{
	struct fbounds *victim = &sd->cache[0];

	sd->clock++;
	for (int i = 0; i < SOFTDEC_CACHE; i++) {
		struct fbounds *fb = &sd->cache[i];

		if (fb->used && fb->code == fn->code && fb->len == fn->len && fb->start == fn->start) {
			fb->used = sd->clock;
			sd->fb = fb;
			return;
		}
		if (fb->used < victim->used)
			victim = fb;
	}
	victim->used = sd->clock;
	sd->fb = victim;
	build_boundaries(sd, fn);
}

/* Find the instruction at @ip: returns SOFTDEC_ADDR with *idx its index (fb->nr when the IP is
 * the end of the decoded bytes), or a failure reason. */
enum softdec_reason sdec_locate(struct softdec *sd, const struct softdec_func *fn, uint64_t ip,
				long *idx)
{
	size_t rel;

	if (ip < fn->start || ip - fn->start > fn->len)
		return SOFTDEC_OUTSIDE;
	select_function(sd, fn);
	rel = ip - fn->start;
	if (rel > sd->fb->decoded_to)
		return SOFTDEC_DECODE_FAILED;
	*idx = rel == sd->fb->decoded_to ? (long)sd->fb->nr : find_start(sd->fb, rel);
	if (*idx < 0)
		return SOFTDEC_MISALIGNED;
	return sd->fb->nr ? SOFTDEC_ADDR : SOFTDEC_DECODE_FAILED;
}

/* --- classification ----------------------------------------------------------------------- */

static int is_stack_op(unsigned int id)
{
	switch (id) {
	case X86_INS_PUSH: case X86_INS_POP: case X86_INS_CALL: case X86_INS_LCALL:
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ: case X86_INS_ENTER:
	case X86_INS_LEAVE: case X86_INS_PUSHF: case X86_INS_PUSHFQ: case X86_INS_POPF:
	case X86_INS_POPFQ:
		return 1;
	}
	return 0;
}

/* Stack ops that write the stack (the rest read it). */
int sdec_is_stack_write(unsigned int id)
{
	return id == X86_INS_PUSH || id == X86_INS_CALL || id == X86_INS_LCALL ||
	       id == X86_INS_ENTER || id == X86_INS_PUSHF || id == X86_INS_PUSHFQ;
}

/* After these, the next instruction to retire is not the one that follows in memory. */
int sdec_no_fallthrough(unsigned int id)
{
	switch (id) {
	case X86_INS_JMP: case X86_INS_LJMP: case X86_INS_RET: case X86_INS_RETF:
	case X86_INS_RETFQ: case X86_INS_CALL: case X86_INS_LCALL: case X86_INS_UD2:
	case X86_INS_UD2B: case X86_INS_HLT:
		return 1;
	}
	return 0;
}

int sdec_is_atomic_op(unsigned int id)
{
	return id == X86_INS_XCHG || id == X86_INS_CMPXCHG || id == X86_INS_CMPXCHG8B ||
	       id == X86_INS_CMPXCHG16B || id == X86_INS_XADD;
}

static int is_prefetch(unsigned int id)
{
	return id == X86_INS_PREFETCH || id == X86_INS_PREFETCHNTA || id == X86_INS_PREFETCHT0 ||
	       id == X86_INS_PREFETCHT1 || id == X86_INS_PREFETCHT2 || id == X86_INS_PREFETCHW;
}

/* The access flags of operand @i. Capstone 4 marks the memory operand of many SSE and AVX
 * stores as read only (movups, movq, movlps, movnt*, and every VEX or EVEX vmov*: `vmovdqa
 * %ymm0, 0x60(%rdx)`, memset's loop). In AT&T order the destination is the last operand, so a
 * memory operand there, in a move, extract, down-convert or compress instruction, is written
 * (none of them reads the bytes it stores to). An AVX-512 write mask comes after it (`vmovdqu8
 * %zmm16,(%rax){%k1}`, the tail of glibc's AVX-512 memset on Zen 4 and 5): it is skipped. */
uint8_t sdec_mem_access(const cs_insn *in, int i)
{
	static const char *const stores[] = {
		"mov", "vmov", "vpmaskmov", "vmaskmov", "pextr", "vpextr", "extractps", "vextract",
		"vcvtps2ph", "vpmov", "vcompress", "vpcompress",
	};
	const cs_x86 *x = &in->detail->x86;
	uint8_t a = x->operands[i].access;
	int last = x->op_count - 1;

	/* an AVX-512 write mask ({%k1}) follows its destination in capstone's operand list */
	while (last > 0 && x->operands[last].type == X86_OP_REG &&
	       x->operands[last].reg >= X86_REG_K0 && x->operands[last].reg <= X86_REG_K7)
		last--;
	if ((a & CS_AC_WRITE) || i == 0 || i != last)
		return a;
	for (size_t k = 0; k < sizeof(stores) / sizeof(stores[0]); k++)
		if (!strncmp(in->mnemonic, stores[k], strlen(stores[k])))
			return CS_AC_WRITE;
	return a;
}

/* The memory operand the access is about: the first written one, else the first one. */
int sdec_pick_mem_operand(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	int first = -1;

	for (int i = 0; i < x->op_count; i++) {
		if (x->operands[i].type != X86_OP_MEM)
			continue;
		if (sdec_mem_access(in, i) & CS_AC_WRITE)
			return i;
		if (first < 0)
			first = i;
	}
	return first;
}

static enum softdec_kind mem_kind(const cs_insn *in, int i, uint32_t *flags)
{
	const cs_x86 *x = &in->detail->x86;
	uint8_t access = sdec_mem_access(in, i);

	if (x->prefix[0] == X86_PREFIX_LOCK || sdec_is_atomic_op(in->id))
		return SOFTDEC_ATOMIC;
	if (is_prefetch(in->id))
		return SOFTDEC_PREFETCH;
	if (access & CS_AC_WRITE) {
		if (access & CS_AC_READ)
			*flags |= SOFTDEC_F_RMW;
		return SOFTDEC_STORE;
	}
	/* reads, and the few operands capstone 4 gives no access flags: treat as loads */
	return SOFTDEC_LOAD;
}

/* --- registers ------------------------------------------------------------------------------ */

/* The perf register holding capstone register @r (any width), or -1. */
static int reg_index(x86_reg r)
{
	switch (r) {
	case X86_REG_RAX: case X86_REG_EAX: case X86_REG_AX: case X86_REG_AL: case X86_REG_AH:
		return REGS_X86_AX;
	case X86_REG_RBX: case X86_REG_EBX: case X86_REG_BX: case X86_REG_BL: case X86_REG_BH:
		return REGS_X86_BX;
	case X86_REG_RCX: case X86_REG_ECX: case X86_REG_CX: case X86_REG_CL: case X86_REG_CH:
		return REGS_X86_CX;
	case X86_REG_RDX: case X86_REG_EDX: case X86_REG_DX: case X86_REG_DL: case X86_REG_DH:
		return REGS_X86_DX;
	case X86_REG_RSI: case X86_REG_ESI: case X86_REG_SI: case X86_REG_SIL:
		return REGS_X86_SI;
	case X86_REG_RDI: case X86_REG_EDI: case X86_REG_DI: case X86_REG_DIL:
		return REGS_X86_DI;
	case X86_REG_RBP: case X86_REG_EBP: case X86_REG_BP: case X86_REG_BPL:
		return REGS_X86_BP;
	case X86_REG_RSP: case X86_REG_ESP: case X86_REG_SP: case X86_REG_SPL:
		return REGS_X86_SP;
	case X86_REG_RIP: case X86_REG_EIP:
		return REGS_X86_IP;
	default:
		break;
	}
	if (r >= X86_REG_R8 && r <= X86_REG_R15)
		return REGS_X86_R8 + (r - X86_REG_R8);
	if (r >= X86_REG_R8D && r <= X86_REG_R15D)
		return REGS_X86_R8 + (r - X86_REG_R8D);
	if (r >= X86_REG_R8W && r <= X86_REG_R15W)
		return REGS_X86_R8 + (r - X86_REG_R8W);
	if (r >= X86_REG_R8B && r <= X86_REG_R15B)
		return REGS_X86_R8 + (r - X86_REG_R8B);
	return -1;
}

static int is_vector_reg(x86_reg r)
{
	return (r >= X86_REG_XMM0 && r <= X86_REG_XMM31) || (r >= X86_REG_YMM0 && r <= X86_REG_YMM31) ||
	       (r >= X86_REG_ZMM0 && r <= X86_REG_ZMM31);
}

/* Bit set of the perf registers @in writes, explicitly or implicitly. */
uint64_t sdec_written_regs(csh cs, const cs_insn *in)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	uint64_t set = 0;

	if (c2c_cs_regs_access(cs, in, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (int i = 0; i < nwr; i++) {
			int idx = reg_index((x86_reg)wr[i]);

			if (idx >= 0)
				set |= 1ULL << idx;
		}
	}
	/* capstone 4 omits the accumulator cmpxchg loads on failure */
	if (in->id == X86_INS_CMPXCHG)
		set |= 1ULL << REGS_X86_AX;
	if (in->id == X86_INS_CMPXCHG8B || in->id == X86_INS_CMPXCHG16B)
		set |= (1ULL << REGS_X86_AX) | (1ULL << REGS_X86_DX);
	return set;
}

int sdec_reg_value(const struct softdec_regs *regs, int idx, uint64_t *val)
{
	if (idx < 0 || !(regs->mask & (1ULL << idx)))
		return -1;
	*val = regs->val[idx];
	return 0;
}


/* --- analysis of one instruction -------------------------------------------------------------- */

/* An address register as an enum regs_x86 index, REG_NONE or REG_BAD. */
static int8_t addr_reg(x86_reg r)
{
	int idx;

	if (r == X86_REG_INVALID)
		return REG_NONE;
	idx = reg_index(r);
	return idx < 0 ? REG_BAD : (int8_t)idx;
}

static void analyse_mem(const cs_insn *in, int i, struct iinfo *ii)
{
	const cs_x86_op *op = &in->detail->x86.operands[i];
	const x86_op_mem *m = &op->mem;
	uint32_t flags = 0;

	ii->access = 1;
	ii->kind = (uint8_t)mem_kind(in, i, &flags);
	ii->size = op->size;
	if (m->segment == X86_REG_FS || m->segment == X86_REG_GS)
		ii->special = SOFTDEC_TLS;
	else if (m->index != X86_REG_INVALID && is_vector_reg(m->index))
		ii->special = SOFTDEC_VSIB;
	ii->base = addr_reg(m->base);
	ii->index = addr_reg(m->index);
	ii->scale = m->scale;
	ii->disp = m->disp;
	if (in->detail->x86.addr_size == 4)
		flags |= SOFTDEC_F_ADDR32;
	ii->flags = (uint8_t)flags;
}

/* A general register capstone names, as an enum regs_x86 index; -1 for the high-byte registers
 * (ah...) and anything else. */
int sdec_plain_reg(x86_reg r)
{
	if (r == X86_REG_AH || r == X86_REG_BH || r == X86_REG_CH || r == X86_REG_DH ||
	    r == X86_REG_RIP || r == X86_REG_EIP)
		return -1;
	return reg_index(r);
}

/* cmp and test between registers, or a register and an immediate (AT&T order: the second
 * operand is the one the first is subtracted from or and-ed with). */
static void analyse_test(const cs_insn *in, struct iinfo *ii)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *b = &x->operands[0], *a = &x->operands[1];

	if (x->op_count != 2 || a->type != X86_OP_REG || (a->size != 1 && a->size != 2 &&
	    a->size != 4 && a->size != 8) || (ii->ra = (int8_t)sdec_plain_reg(a->reg)) < 0)
		return;
	if (b->type == X86_OP_REG && (ii->rb = (int8_t)sdec_plain_reg(b->reg)) < 0)
		return;
	if (b->type != X86_OP_REG && b->type != X86_OP_IMM)
		return;
	ii->imm = b->type == X86_OP_IMM ? b->imm : 0;
	ii->width = a->size;
	ii->test = in->id == X86_INS_CMP ? 1 : 2;
}

static void analyse(struct softdec *sd, const cs_insn *in, struct iinfo *ii)
{
	int mem = -1;

	ii->len = (uint8_t)in->size;
	ii->nofall = (uint8_t)sdec_no_fallthrough(in->id);
	ii->written = sdec_written_regs(sd->cs, in);
	ii->base = ii->index = REG_NONE;
	if (in->op_str[0])
		ii->text = xasprintf("%s %s", in->mnemonic, in->op_str);
	else
		ii->text = xstrdup(in->mnemonic);
	ii->id = (uint16_t)in->id;
	ii->ra = ii->rb = -1;
	if (in->id == X86_INS_CMP || in->id == X86_INS_TEST)
		analyse_test(in, ii);
	if (in->id == X86_INS_LEA || in->id == X86_INS_NOP)   /* address arithmetic, hints */
		return;
	mem = sdec_pick_mem_operand(in);
	if (mem >= 0) {
		analyse_mem(in, mem, ii);
	} else if (is_stack_op(in->id)) {
		ii->access = 2;
		ii->kind = sdec_is_stack_write(in->id) ? SOFTDEC_STORE : SOFTDEC_LOAD;
		ii->size = 8;
	}
}

/* The analysis of instruction @idx of the current function, or NULL if it does not decode. */
const struct iinfo *sdec_info_at(struct softdec *sd, const struct softdec_func *fn, long idx)
{
	struct iinfo *ii = &sd->fb->info[idx];
	const uint8_t *p = fn->code + sd->fb->off[idx];
	size_t left = fn->len - sd->fb->off[idx];
	uint64_t addr = fn->start + sd->fb->off[idx];

	if (ii->ready)
		return ii;
	if (!c2c_cs_disasm_iter(sd->cs, &p, &left, &addr, sd->insn))
		return NULL;
	analyse(sd, sd->insn, ii);
	ii->ready = 1;
	return ii;
}

/* --- addresses and the rule ----------------------------------------------------------------- */

/* The address of the memory operand of @ii at @insn_addr; @clobber holds the registers written
 * between its start and the sample (0 when it is the IP's own instruction). */
static enum softdec_reason mem_address(const struct iinfo *ii, uint64_t insn_addr, uint64_t clobber,
				       const struct softdec_regs *regs, uint64_t *addr, uint32_t *flags)
{
	uint64_t base = 0, index = 0;
	enum softdec_reason ok = SOFTDEC_ADDR;

	if (ii->special)
		return (enum softdec_reason)ii->special;
	if (ii->base == REG_BAD || ii->index == REG_BAD)
		return SOFTDEC_NO_REGS;
	if ((ii->base >= 0 && ii->base != REGS_X86_IP && (clobber & (1ULL << ii->base))) ||
	    (ii->index >= 0 && (clobber & (1ULL << ii->index))))
		return SOFTDEC_CLOBBERED;
	if (ii->base == REGS_X86_IP) {
		base = insn_addr + ii->len;
		ok = SOFTDEC_ADDR_RIP;
	} else if (ii->base >= 0 && sdec_reg_value(regs, ii->base, &base) < 0) {
		return SOFTDEC_NO_REGS;
	}
	if (ii->index >= 0 && sdec_reg_value(regs, ii->index, &index) < 0)
		return SOFTDEC_NO_REGS;
	*addr = base + index * (uint64_t)(int64_t)ii->scale + (uint64_t)ii->disp;
	if (ii->flags & SOFTDEC_F_ADDR32)
		*addr &= 0xffffffffULL;
	if (ii->base == REGS_X86_SP)
		*flags |= SOFTDEC_F_STACK_BASE;
	return ok;
}

void sdec_fill_insn(struct softdec_access *out, const struct iinfo *ii, uint64_t insn_addr)
{
	out->insn_addr = insn_addr;
	out->insn_len = ii->len;
	snprintf(out->text, sizeof(out->text), "%s", ii->text);
}

/* Fill @out from the instruction @ii at @insn_addr (its text only @with_text). */
void sdec_describe(const struct iinfo *ii, uint64_t insn_addr, uint64_t clobber,
		   const struct softdec_regs *regs, int with_text, struct softdec_access *out)
{
	if (with_text) {
		sdec_fill_insn(out, ii, insn_addr);
	} else {
		out->insn_addr = insn_addr;
		out->insn_len = ii->len;
	}
	out->kind = (enum softdec_kind)ii->kind;
	out->flags |= ii->flags;
	out->size = ii->size;
	if (ii->access == 1) {
		out->disp = ii->disp;
		out->reason = mem_address(ii, insn_addr, clobber, regs, &out->addr, &out->flags);
	} else {
		out->reason = ii->access == 2 ? SOFTDEC_STACK : SOFTDEC_NO_MEM;
	}
	if (!softdec_has_addr(out->reason))
		out->addr = 0;
}

uint64_t sdec_insn_address(const struct softdec *sd, const struct softdec_func *fn, long idx)
{
	return fn->start + sd->fb->off[idx];
}
