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
 * sequence failed to decode. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/capstone.h"
#include <linux/perf_event.h>

#include "c2c/xalloc.h"
#include "record/soft-decode.h"

#define REG_NONE (-1)            /* iinfo.base/index: no register */
#define REG_BAD (-2)             /* a register the sample does not carry (segment, vector...) */

/* The analysis of one instruction. */
struct iinfo {
	uint8_t ready;           /* analysed */
	uint8_t len;
	uint8_t nofall;          /* cannot fall through to the next instruction */
	uint8_t access;          /* 0 none, 1 explicit memory operand, 2 implicit stack access */
	uint8_t kind;            /* enum softdec_kind */
	uint8_t flags;           /* SOFTDEC_F_RMW, SOFTDEC_F_ADDR32 */
	uint8_t size;
	uint8_t special;         /* SOFTDEC_TLS or SOFTDEC_VSIB when registers cannot help, else 0 */
	uint8_t split;           /* a load: 0 not asked yet, 1 a plain load, 2 the read of a split
				  * read-modify-write (split_rmw()) */
	int8_t base, index;      /* enum regs_x86, REG_NONE or REG_BAD */
	int32_t scale;
	int64_t disp;
	uint64_t written;        /* bit set of the enum regs_x86 registers it writes */
	uint16_t id;             /* capstone instruction id */
	/* cmp and test of registers and immediates (the branch-path proof) */
	uint8_t test;            /* 0: none, 1: cmp a - b, 2: test a & b */
	uint8_t width;           /* operand bytes */
	int8_t ra, rb;           /* enum regs_x86; rb -1: b is @imm */
	int64_t imm;
	char *text;
};

/* A direct branch in the function: instruction @src goes to instruction @dst. */
struct edge {
	uint32_t src, dst;
};

/* The instruction boundaries of one function, and the analysis of the instructions seen. */
struct fbounds {
	const uint8_t *code;     /* the key: code pointer, length and start address */
	size_t len;
	uint64_t start;
	uint64_t used;           /* softdec.clock at the last use; 0: empty slot */
	uint32_t *off;           /* instruction start offsets */
	uint8_t *target;         /* per instruction: a direct branch or call in the function goes there */
	struct iinfo *info;      /* per instruction */
	struct edge *edge;       /* sorted by dst */
	size_t nr, cap, cap_target, cap_info, nr_edge, cap_edge;
	size_t decoded_to;       /* end offset of the last decoded instruction */
};

/* Samples of a few hot functions interleave (one per thread), so several are cached. */
#define SOFTDEC_CACHE 16

struct softdec {
	csh cs;
	cs_insn *insn;
	struct fbounds cache[SOFTDEC_CACHE];
	struct fbounds *fb;      /* the function being decoded */
	uint64_t clock;
	uint32_t *tgt;           /* scratch: branch target offsets found while decoding */
	uint32_t *tgt_src;       /* ... and the index of the branch */
	size_t nr_tgt, cap_tgt, cap_tgt_src;
	unsigned int max_back;
	int trap;                /* softdec_set_trap(): a synchronous trap after the access */
};

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

static void drop_info(struct fbounds *fb)
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
		drop_info(&sd->cache[i]);
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

	drop_info(fb);
	fb->nr = sd->nr_tgt = 0;
	while (left) {
		size_t at = fn->len - left;

		if (!c2c_cs_disasm_iter(sd->cs, &p, &left, &addr, sd->insn)) {
			/* an encoding capstone lacks: its length keeps the boundaries going; the
			 * instruction itself stays undecoded (info_at() gives NULL: walks stop) */
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
static enum softdec_reason locate(struct softdec *sd, const struct softdec_func *fn, uint64_t ip,
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
static int is_stack_write(unsigned int id)
{
	return id == X86_INS_PUSH || id == X86_INS_CALL || id == X86_INS_LCALL ||
	       id == X86_INS_ENTER || id == X86_INS_PUSHF || id == X86_INS_PUSHFQ;
}

/* After these, the next instruction to retire is not the one that follows in memory. */
static int no_fallthrough(unsigned int id)
{
	switch (id) {
	case X86_INS_JMP: case X86_INS_LJMP: case X86_INS_RET: case X86_INS_RETF:
	case X86_INS_RETFQ: case X86_INS_CALL: case X86_INS_LCALL: case X86_INS_UD2:
	case X86_INS_UD2B: case X86_INS_HLT:
		return 1;
	}
	return 0;
}

static int is_atomic_op(unsigned int id)
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
static uint8_t mem_access(const cs_insn *in, int i)
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
static int pick_mem_operand(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	int first = -1;

	for (int i = 0; i < x->op_count; i++) {
		if (x->operands[i].type != X86_OP_MEM)
			continue;
		if (mem_access(in, i) & CS_AC_WRITE)
			return i;
		if (first < 0)
			first = i;
	}
	return first;
}

static enum softdec_kind mem_kind(const cs_insn *in, int i, uint32_t *flags)
{
	const cs_x86 *x = &in->detail->x86;
	uint8_t access = mem_access(in, i);

	if (x->prefix[0] == X86_PREFIX_LOCK || is_atomic_op(in->id))
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
static uint64_t written_regs(csh cs, const cs_insn *in)
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

static int reg_value(const struct softdec_regs *regs, int idx, uint64_t *val)
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
static int plain_reg(x86_reg r)
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
	    a->size != 4 && a->size != 8) || (ii->ra = (int8_t)plain_reg(a->reg)) < 0)
		return;
	if (b->type == X86_OP_REG && (ii->rb = (int8_t)plain_reg(b->reg)) < 0)
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
	ii->nofall = (uint8_t)no_fallthrough(in->id);
	ii->written = written_regs(sd->cs, in);
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
	mem = pick_mem_operand(in);
	if (mem >= 0) {
		analyse_mem(in, mem, ii);
	} else if (is_stack_op(in->id)) {
		ii->access = 2;
		ii->kind = is_stack_write(in->id) ? SOFTDEC_STORE : SOFTDEC_LOAD;
		ii->size = 8;
	}
}

/* The analysis of instruction @idx of the current function, or NULL if it does not decode. */
static const struct iinfo *info_at(struct softdec *sd, const struct softdec_func *fn, long idx)
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
	} else if (ii->base >= 0 && reg_value(regs, ii->base, &base) < 0) {
		return SOFTDEC_NO_REGS;
	}
	if (ii->index >= 0 && reg_value(regs, ii->index, &index) < 0)
		return SOFTDEC_NO_REGS;
	*addr = base + index * (uint64_t)(int64_t)ii->scale + (uint64_t)ii->disp;
	if (ii->flags & SOFTDEC_F_ADDR32)
		*addr &= 0xffffffffULL;
	if (ii->base == REGS_X86_SP)
		*flags |= SOFTDEC_F_STACK_BASE;
	return ok;
}

static void fill_insn(struct softdec_access *out, const struct iinfo *ii, uint64_t insn_addr)
{
	out->insn_addr = insn_addr;
	out->insn_len = ii->len;
	snprintf(out->text, sizeof(out->text), "%s", ii->text);
}

/* Fill @out from the instruction @ii at @insn_addr (its text only @with_text). */
static void describe(const struct iinfo *ii, uint64_t insn_addr, uint64_t clobber,
		     const struct softdec_regs *regs, int with_text, struct softdec_access *out)
{
	if (with_text) {
		fill_insn(out, ii, insn_addr);
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

static uint64_t insn_address(const struct softdec *sd, const struct softdec_func *fn, long idx)
{
	return fn->start + sd->fb->off[idx];
}

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
	int b = m->base == X86_REG_INVALID ? -1 : plain_reg(m->base);
	int i = m->index == X86_REG_INVALID ? -1 : plain_reg(m->index);

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
		return (r = plain_reg(op->reg)) < 0 ? 0 : x->reg[r];
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

	if (is_stack_write(in->id) || d->prefix[0] == X86_PREFIX_LOCK || is_atomic_op(in->id))
		return 1;
	for (int i = 0; i < d->op_count; i++)
		if (d->operands[i].type == X86_OP_MEM &&
		    (!d->operands[i].access || (mem_access(in, i) & CS_AC_WRITE)))
			return 1;
	return 0;
}

/* Replay @in: new numbers for the registers it writes, a new memory generation if it stores. */
static void vn_step(struct vnstate *x, csh cs, const cs_insn *in)
{
	const cs_x86 *d = &in->detail->x86;
	uint64_t w = written_regs(cs, in) & ~(1ULL << REGS_X86_IP);
	uint32_t v = 0;
	int dst = -1;

	if (d->op_count == 2 && d->operands[1].type == X86_OP_REG &&
	    (dst = plain_reg(d->operands[1].reg)) >= 0 && w == 1ULL << dst)
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
	return no_fallthrough(in->id) || c2c_cs_insn_group(cs, in, CS_GRP_JUMP) ||
	       c2c_cs_insn_group(cs, in, CS_GRP_CALL) || c2c_cs_insn_group(cs, in, CS_GRP_RET) ||
	       c2c_cs_insn_group(cs, in, CS_GRP_INT) || c2c_cs_insn_group(cs, in, CS_GRP_IRET) ||
	       in->id == X86_INS_SYSCALL || in->id == X86_INS_SYSENTER;
}

/* The first instruction of the straight-line code that ends at the load @idx. */
static long split_start(struct softdec *sd, const struct softdec_func *fn, long idx)
{
	long s = idx;

	while (s > 0 && idx - s < SPLIT_BEFORE && !sd->fb->target[s]) {
		const struct iinfo *ii = info_at(sd, fn, s - 1);

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
		uint64_t addr = insn_address(sd, fn, k);
		const cs_insn *in = sd->insn;
		int m;

		if (!c2c_cs_disasm_iter(sd->cs, &p, &left, &addr, sd->insn))
			return 0;
		m = pick_mem_operand(in);
		if (k == idx) {
			if (m < 0 || !(key = vn_addr(&x, in, &in->detail->x86.operands[m].mem)))
				return 0;
			size = in->detail->x86.operands[m].size;
		} else if (k > idx && m >= 0 && (mem_access(in, m) & CS_AC_WRITE) &&
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
static void split_rmw(struct softdec *sd, const struct softdec_func *fn, long idx,
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

/* --- proving the path into a branch target ------------------------------------------------------ */

/* The arithmetic flags a cmp or test leaves, from the sampled registers. */
struct xflags {
	int cf, zf, sf, of, pf;
};

static int eval_test(const struct iinfo *t, const struct softdec_regs *regs, struct xflags *f)
{
	unsigned int bits = t->width * 8u;
	uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1, sign = 1ULL << (bits - 1);
	uint64_t a, b, r;

	if (reg_value(regs, t->ra, &a) || (t->rb >= 0 && reg_value(regs, t->rb, &b)))
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
static int jcc_taken(unsigned int id, const struct xflags *f)
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
	const struct iinfo *j = info_at(sd, fn, c), *t;
	struct xflags f;
	int taken;

	if (!j || c < 1 || sd->fb->target[c])
		return 1;                /* the jump can be reached with other flags */
	t = info_at(sd, fn, c - 1);
	if (!t || !t->test || (w & (1ULL << t->ra)) || (t->rb >= 0 && (w & (1ULL << t->rb))) ||
	    eval_test(t, regs, &f))
		return 1;
	taken = jcc_taken(j->id, &f);
	return taken != 0;
}

/* Is there a way into instruction @b other than its branches: falling through from the
 * instruction before it (padding nops after a jump or ret do not count), or entering the
 * function there? */
static int entered_otherwise(struct softdec *sd, const struct softdec_func *fn, long b)
{
	for (long k = b - 1; k >= 0; k--) {
		const struct iinfo *ii = info_at(sd, fn, k);

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
static int edge_possible(struct softdec *sd, const struct softdec_func *fn, const struct edge *e,
			 uint64_t w, const struct softdec_regs *regs)
{
	const struct iinfo *j = info_at(sd, fn, e->src), *ii;
	const struct edge *in = NULL;
	long b;

	if (!j)
		return 1;
	if (j->id != X86_INS_JMP)
		return jcc_taken(j->id, &(struct xflags){ 0 }) < 0 ? 1
		       : jcc_possible(sd, fn, e->src, w, regs);
	/* the jump's block: from the branch target or the instruction after a jump above it */
	for (b = e->src; b > 0 && !sd->fb->target[b]; b--) {
		if (!(ii = info_at(sd, fn, b - 1)) || ii->nofall)
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
	if (!in || !(ii = info_at(sd, fn, in->src)) || ii->id == X86_INS_JMP ||
	    jcc_taken(ii->id, &(struct xflags){ 0 }) < 0)
		return 1;
	return jcc_possible(sd, fn, in->src, w, regs);
}

/* The sample at or after branch target @t came by falling through into it: every branch to it
 * is proven impossible by the sampled registers (@w: written between @t and the sample). */
static int fell_through(struct softdec *sd, const struct softdec_func *fn, long t, uint64_t w,
			const struct softdec_regs *regs)
{
	int any = 0;

	for (size_t i = 0; i < sd->fb->nr_edge; i++) {
		const struct edge *e = &sd->fb->edge[i];

		if (e->dst != (uint32_t)t)
			continue;
		any = 1;
		if (edge_possible(sd, fn, e, w, regs))
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
static int blame_trap(struct softdec *sd, const struct softdec_func *fn, long idx,
		      const struct softdec_regs *regs, struct softdec_access *out)
{
	uint64_t clobber = 0;
	long max = sd->max_back;

	if ((size_t)idx < sd->fb->nr && sd->fb->target[idx])
		max = 1;
	for (long k = 1; k <= max && idx - k >= 0; k++) {
		long j = idx - k;
		const struct iinfo *ii;

		if (k > 1 && sd->fb->target[j + 1] && !fell_through(sd, fn, j + 1, clobber, regs))
			break;
		ii = info_at(sd, fn, j);
		if (!ii || ii->nofall)
			break;
		clobber |= ii->written;
		if (ii->access) {
			describe(ii, insn_address(sd, fn, j), clobber, regs, 1, out);
			out->back = (uint8_t)k;
			return 1;
		}
	}
	return 0;
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
		const struct iinfo *ii = info_at(sd, fn, b - 1), *t;
		struct xflags f;

		if (!ii || ii->nofall)
			return 1;
		if (jcc_taken(ii->id, &(struct xflags){ 0 }) >= 0) {
			if (b - 1 < 1 || sd->fb->target[b - 1] || !(t = info_at(sd, fn, b - 2)) ||
			    !t->test || (w & (1ULL << t->ra)) || (t->rb >= 0 && (w & (1ULL << t->rb))) ||
			    eval_test(t, regs, &f))
				return 1;
			return jcc_taken(ii->id, &f) != 1;
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
	if (x > 0 && (ii = info_at(sd, fn, x - 1)) && !ii->nofall) {
		pred[np] = x - 1;
		jump[np++] = 0;
	}
	if ((size_t)x < sd->fb->nr && sd->fb->target[x])
		w->crossed = 1;
	if ((size_t)x < sd->fb->nr && sd->fb->target[x] && !fell_through(sd, fn, x, clobber, regs)) {
		for (size_t i = 0; i < sd->fb->nr_edge; i++) {
			const struct edge *e = &sd->fb->edge[i];

			if (e->dst != (uint32_t)x || (long)e->src == x - 1 ||
			    !edge_possible(sd, fn, e, clobber, regs))
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

		if (!(ii = info_at(sd, fn, p)))
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
		return blame_trap(sd, fn, idx, regs, out);
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
		const struct iinfo *ii = info_at(sd, fn, c->idx);
		struct softdec_access a = { .reason = SOFTDEC_NO_MEM };

		describe(ii, insn_address(sd, fn, c->idx), c->clobber, regs, !i, &a);
		split_rmw(sd, fn, c->idx, &a);
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
	out->reason = locate(sd, fn, ip, &idx);
	if (out->reason != SOFTDEC_ADDR || blame_before(sd, fn, idx, regs, out))
		return 0;
	if ((size_t)idx < sd->fb->nr)
		cur = info_at(sd, fn, idx);
	if (cur && cur->access) {          /* rule 3 */
		out->flags |= SOFTDEC_F_AT_IP;
		describe(cur, ip, 0, regs, 1, out);
		split_rmw(sd, fn, idx, out);
		return 0;
	}
	/* rule 4; at a join (a branch target) the instruction before may not be what ran */
	if (idx > 0 && !((size_t)idx < sd->fb->nr && sd->fb->target[idx] && cur))
		prev = info_at(sd, fn, idx - 1);
	if (prev) {
		fill_insn(out, prev, insn_address(sd, fn, idx - 1));
		out->back = 1;
	} else if (cur) {
		fill_insn(out, cur, ip);
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
