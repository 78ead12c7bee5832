/* Data-type profiling: the type and member a memory access touches, named from the code side.
 * The instruction at the sample's IP is decoded (capstone) to its memory operand; the variables
 * of the DWARF scopes around that pc (inlined ones included, concrete nesting; the function
 * found among nested ones too, as OpenMP's outlined functions) are searched for a pointer whose
 * location there is the operand's base register; the pointee type and the displacement give the
 * member path, with sym-data.c's naming rules and "->" after the pointer. The registers are
 * followed forward through the function (step()): loads of pointer members, pointer variables
 * kept in memory, static pointers, variables DWARF locates through the memory loaded (a chain
 * of derefs), copies, pointer arithmetic, the addresses of locals, and integers known to be a
 * multiple of a step (scaled indexes) type the destination. A forward dataflow over the
 * function's control-flow graph (basic blocks split at branch targets and after branches, calls
 * and returns; edges for fall-through and direct jumps) gives each block's entry state: the meet
 * of its predecessors' exit states, where a register stays typed only when every predecessor
 * gives a pointer into the same object (offsets that differ widen to a multiple of their
 * distance), so a join of disagreeing paths names nothing. The entry block starts empty. The
 * variable in the base register names the access, unless what the code put there is a larger
 * object holding it (a hoisted member pointer); else what the code put there; last, an access
 * into the stack frame is matched against the locals' slots (DW_OP_fbreg with the CFA from the
 * CFI).
 * Results are cached per (file, ELF address); per file each function's blocks and their entry
 * states are computed once, its subprogram DIE is remembered, and sym_data_type_back() keeps
 * each function's instruction boundaries. The disassemblers and caches live in the session
 * (struct sym_type_ctx). */
#include "c2c/capstone.h"
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

#define MAX_DEPTH 24
#define MAX_SCOPES 64
#define INSN_MAX 16
#define SCAN_MAX (256 << 10) /* longest function range scanned for register state */
#define NREGS 33       /* DWARF register numbers tracked: x86-64 0-16, AArch64 0-31 */

/* A CU's address range, for files without .debug_aranges (clang's default), where libdw
 * 0.188 cannot map an address to its CU. */
struct cu_range {
	Dwarf_Addr lo, hi;
	Dwarf_Off off;        /* of the CU DIE */
};

struct regslot;

/* The basic blocks of one function range, found once: block 0 starts at lo, block i > 0 at
 * lead[i - 1] (sorted ELF addresses). After the dataflow (flowed), the register state at the
 * entry of block i is slot[slot_at[i] .. slot_at[i + 1]). */
struct fn_blocks {
	uint64_t lo, hi;
	int bad;              /* does not decode, or has an indirect jump: no tracking */
	uint64_t *lead;
	size_t nr, cap;
	int flowed;
	struct regslot *slot;
	uint32_t *slot_at;    /* nr + 2 entries */
};

/* The instruction boundaries of one function (its ELF symbol, else its DWARF range), found once
 * for sym_data_type_back(): off[] ascending, from lo, up to end (hi, or the first byte that
 * does not decode). */
struct fn_insns {
	uint64_t lo, hi, end;
	uint32_t *off;
	size_t nr, cap;
};

/* A function's range (ELF addresses) and its DW_TAG_subprogram, remembered by scopes_at() so
 * that later addresses in it skip the walk over the CU's top-level DIEs. */
struct fn_die {
	uint64_t lo, hi;
	Dwarf_Die die;
	Dwarf_Addr cubias;
};

struct type_file {
	struct sym_file *f;
	int machine;          /* e_machine, -1 before it is read */
	struct sym_cache cache;
	int ranges_built;
	struct cu_range *cur;
	size_t nr_cur, cap_cur;
	struct fn_blocks *fb; /* sorted by lo */
	size_t nr_fb, cap_fb;
	struct fn_insns *fi;  /* sorted by lo */
	size_t nr_fi, cap_fi;
	struct fn_die *fd;    /* sorted by lo, disjoint */
	size_t nr_fd, cap_fd;
	/* the register state track_block() last reached (at last_at, in the function range
	 * starting at last_lo): a later address of the same block goes on from there */
	struct regstate *last;
	uint64_t last_lo, last_at;
};

struct sym_type_ctx {
	csh cs_x86, cs_a64;
	int x86_state, a64_state;  /* 0 untried, 1 open, -1 failed */
	struct type_file *tf;
	size_t nr_tf, cap_tf;
};

/* A decoded memory operand, registers as DWARF numbers (-1: none). */
struct mem_op {
	int base, index;
	int64_t disp;
	unsigned scale;
	int rip;              /* x86-64 rip-relative: target holds the ELF address */
	uint64_t target;
};

/* One candidate: a pointer variable (or a register typed by a load) and its pointee. The
 * register holds name + off bytes + an unknown multiple of scale (0: none), which pointer
 * arithmetic tracked through the block ("lea rax, [rdi + rsi*8]", "add rax, 8" in a loop)
 * adds. With obj, the register holds the address of the variable called name itself (a local
 * whose slot was taken with lea, a variable DWARF locates through memory, as OpenMP's shared
 * "sum" at *(.omp_data_i + 0)): named "sum[]", and never beyond the variable. */
struct ptr {
	const char *name;     /* "p", or "p->next" for a tracked load */
	Dwarf_Die pointee;    /* cv-qualifiers stripped, typedefs kept */
	uint64_t size;        /* sizeof pointee */
	int64_t off;
	unsigned scale;
	int ref;              /* a C++ reference: named "s.x", not "s->x" */
	int obj;              /* the address of the variable name (see above) */
	int poly;             /* the pointee is a polymorphic class: what lies past it is more
			       * likely a derived class's member than a next element */
};

/* --- session state ---------------------------------------------------------------------- */

static void type_free(struct sym_session *s)
{
	struct sym_type_ctx *c = s ? s->type : NULL;

	if (!c)
		return;
	if (c->x86_state > 0)
		c2c_cs_close(&c->cs_x86);
	if (c->a64_state > 0)
		c2c_cs_close(&c->cs_a64);
	for (size_t i = 0; i < c->nr_tf; i++) {
		sym_cache_release(&c->tf[i].cache);
		free(c->tf[i].cur);
		for (size_t j = 0; j < c->tf[i].nr_fb; j++) {
			free(c->tf[i].fb[j].lead);
			free(c->tf[i].fb[j].slot);
			free(c->tf[i].fb[j].slot_at);
		}
		free(c->tf[i].fb);
		for (size_t j = 0; j < c->tf[i].nr_fi; j++)
			free(c->tf[i].fi[j].off);
		free(c->tf[i].fi);
		free(c->tf[i].fd);
		free(c->tf[i].last);
	}
	free(c->tf);
	free(c);
	s->type = NULL;
}

static struct type_file *type_file(struct sym_session *s, struct sym_file *f)
{
	struct sym_type_ctx *c = s->type;
	struct type_file *t;

	if (!c) {
		c = s->type = xcalloc(1, sizeof(*c));
		s->type_free = type_free;
	}
	for (size_t i = 0; i < c->nr_tf; i++)
		if (c->tf[i].f == f)
			return &c->tf[i];
	c->tf = xgrow(c->tf, &c->cap_tf, c->nr_tf + 1, sizeof(*c->tf));
	t = &c->tf[c->nr_tf++];
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->machine = -1;
	return t;
}

static int open_cs(csh *h, int *state, cs_arch arch, cs_mode mode)
{
	if (!*state) {
		*state = c2c_cs_open(arch, mode, h) == CS_ERR_OK ? 1 : -1;
		if (*state > 0)
			c2c_cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	}
	return *state > 0 ? 0 : -1;
}

/* The disassembler for @machine, or NULL. */
static csh *disasm(struct sym_type_ctx *c, int machine)
{
	if (machine == EM_X86_64 && open_cs(&c->cs_x86, &c->x86_state, CS_ARCH_X86, CS_MODE_64) == 0)
		return &c->cs_x86;
	if (machine == EM_AARCH64 &&
	    open_cs(&c->cs_a64, &c->a64_state, CS_ARCH_ARM64, CS_MODE_ARM) == 0)
		return &c->cs_a64;
	return NULL;
}

/* --- code bytes --------------------------------------------------------------------------- */

static int file_machine(struct type_file *t)
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
static size_t code_bytes(struct sym_file *f, uint64_t vaddr, uint8_t *buf, size_t cap)
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
static int x86_dwreg(x86_reg r)
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
static int a64_dwreg(arm64_reg r)
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
	m->base = x86_dwreg(o->base);
	m->index = x86_dwreg(o->index);
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
		m->base = a64_dwreg(op->mem.base);
		m->index = op->mem.index != ARM64_REG_INVALID ? a64_dwreg(op->mem.index) : -1;
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
static int decode(csh *cs, int machine, const uint8_t *buf, size_t n, uint64_t vaddr,
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

/* --- DWARF: scopes and pointer variables --------------------------------------------------- */

struct scopes {
	Dwarf_Die die[MAX_SCOPES];  /* outermost first */
	int n;
};

/* Push the chain of subprogram, lexical block and inlined-subroutine DIEs under @parent that
 * contain @pc (CU-relative address), descending through namespaces. The concrete nesting is
 * followed, so an inlined function's scopes come with those of the function it was inlined
 * into (dwarf_getscopes would continue with the abstract definition's instead). */
static void collect(Dwarf_Die *parent, Dwarf_Addr pc, struct scopes *sc, int depth)
{
	Dwarf_Die child;
	int n0 = sc->n;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_namespace) {
			collect(&child, pc, sc, depth + 1);
		} else if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
			    tag == DW_TAG_inlined_subroutine) && dwarf_haspc(&child, pc) > 0 &&
			   sc->n < MAX_SCOPES) {
			sc->die[sc->n++] = child;
			collect(&child, pc, sc, depth + 1);
		}
		if (sc->n > n0)
			return;
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The DW_TAG_subprogram holding @pc nested in another function's DIE (gcc's OpenMP outlined
 * "main._omp_fn.0" is a child of main's DIE, with its own range outside main's): the functions,
 * lexical blocks, namespaces and types under @parent are searched depth first. 0, else -1. */
static int find_nested(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return -1;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram && dwarf_haspc(&child, pc) > 0) {
			*out = child;
			return 0;
		}
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		     tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		     tag == DW_TAG_structure_type) && find_nested(&child, pc, out, depth + 1) == 0)
			return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return -1;
}

/* The scopes at CU addresses inside one function, recomputed only when the address changes:
 * register tracking asks at the pc of each instruction it steps, whose scopes (an inlined call,
 * a lexical block) need not be those of the access it names. */
struct pcscopes {
	Dwarf_Die fn;         /* the DW_TAG_subprogram */
	Dwarf_Addr pc;
	int have;
	struct scopes sc;
	struct sym_file *f;
	int64_t delta;        /* ELF vaddr - CU address */
	Dwarf_Addr fb_pc;     /* the frame base (register + offset) at fb_pc, fb_have */
	int fb_have, fb_reg;
	int64_t fb_off;
	Dwarf_Addr cfa_pc;    /* the CFA (register + offset) at cfa_pc: cfa_have 1, -1 none */
	int cfa_have, cfa_reg;
	int64_t cfa_off;
	int chains;           /* the function has variables located through memory (chain_of()):
			       * 0 not looked at, 1 yes, -1 no */
};

static struct scopes *pcs_at(struct pcscopes *ps, Dwarf_Addr pc)
{
	if (!ps->have || ps->pc != pc) {
		ps->sc.die[0] = ps->fn;
		ps->sc.n = 1;
		collect(&ps->fn, pc, &ps->sc, 1);
		ps->pc = pc;
		ps->have = 1;
	}
	return &ps->sc;
}

/* 1 when class @t (peeled) has a vtable: a "_vptr" member or a virtual function, its own or
 * a base class's. */
static int polymorphic(Dwarf_Die *t, int depth)
{
	Dwarf_Die c, bt;
	int tag = dwarf_tag(t);

	if (depth > MAX_DEPTH || (tag != DW_TAG_structure_type && tag != DW_TAG_class_type) ||
	    dwarf_child(t, &c))
		return 0;
	do {
		const char *name = dwarf_diename(&c);
		switch (dwarf_tag(&c)) {
		case DW_TAG_member:
			if (name && !strncmp(name, "_vptr", 5))
				return 1;
			break;
		case DW_TAG_subprogram:
			if (dwarf_hasattr(&c, DW_AT_virtuality))
				return 1;
			break;
		case DW_TAG_inheritance:
			if (sym_die_type(&c, &bt) == 0 && sym_type_peel(&bt) == 0 &&
			    polymorphic(&bt, depth + 1))
				return 1;
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* p->pointee without cv-qualifiers, and its size: 0, else -1 (unsized, a function). */
static int sized(struct ptr *p)
{
	Dwarf_Die u;

	for (int i = 0; i < MAX_DEPTH; i++) {
		int tag = dwarf_tag(&p->pointee);
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			break;
		if (sym_die_type(&p->pointee, &p->pointee))
			return -1;
	}
	u = p->pointee;
	if (sym_type_peel(&u) || dwarf_tag(&u) == DW_TAG_subroutine_type)
		return -1;
	p->size = sym_type_size(&u);
	p->poly = polymorphic(&u, 0);
	return p->size ? 0 : -1;
}

/* The pointee of pointer or reference type @t (peeled): 0, else -1 (void *, unsized). */
static int pointee_from(Dwarf_Die *t, struct ptr *p)
{
	int tag = dwarf_tag(t);

	if (tag != DW_TAG_pointer_type && tag != DW_TAG_reference_type &&
	    tag != DW_TAG_rvalue_reference_type)
		return -1;
	p->ref = tag != DW_TAG_pointer_type;
	if (sym_die_type(t, &p->pointee))
		return -1;  /* void * */
	return sized(p);
}

/* Variable @v named @name as an object reached by its address (ptr.obj): 0, else -1. */
static int object_of(struct sym_session *s, Dwarf_Die *v, const char *name, struct ptr *p)
{
	memset(p, 0, sizeof(*p));
	if (sym_die_type(v, &p->pointee) || sized(p))
		return -1;
	p->obj = 1;
	p->name = sym_str(&s->str, name);
	return 0;
}

/* The one member of struct @t that holds all its bytes, the others empty (Rust's NonNull, Box,
 * Arc and Vec's pointer, C++'s unique_ptr): its type, peeled, in @out: 0, else -1. */
static int whole_member(Dwarf_Die *t, Dwarf_Die *out)
{
	uint64_t size = sym_type_size(t);
	Dwarf_Die m, mt;
	int found = 0;

	if ((dwarf_tag(t) != DW_TAG_structure_type && dwarf_tag(t) != DW_TAG_class_type) || !size ||
	    dwarf_child(t, &m))
		return -1;
	do {
		Dwarf_Attribute at;
		Dwarf_Word off = 0;
		uint64_t ms;
		int tag = dwarf_tag(&m);
		if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
			continue;
		if (dwarf_hasattr(&m, DW_AT_declaration) || sym_die_type(&m, &mt))
			continue;
		if (!(ms = sym_type_size(&mt)))
			continue;  /* empty: PhantomData, an allocator */
		if (found++ || (dwarf_attr(&m, DW_AT_data_member_location, &at) &&
				dwarf_formudata(&at, &off)) || off || ms != size)
			return -1;
		*out = mt;
	} while (dwarf_siblingof(&m, &m) == 0);
	return found == 1 && sym_type_peel(out) == 0 ? 0 : -1;
}

/* The pointee of the pointer or reference type of @typed (a variable), or of a struct that only
 * wraps one (whole_member(), up to 4 deep: Rust's Arc { ptr: NonNull { pointer } }): 0, else
 * -1. */
static int pointee_of(Dwarf_Die *typed, struct ptr *p)
{
	Dwarf_Die t;

	if (sym_die_type(typed, &t) || sym_type_peel(&t))
		return -1;
	for (int i = 0; i < 4 && pointee_from(&t, p); i++)
		if (whole_member(&t, &t))
			return -1;
	return pointee_from(&t, p);
}

/* Where a variable is: its value in register @reg, or, with @mem, in memory at [reg + disp];
 * a DW_OP_fbreg slot is at [fb_reg + fb_off + its offset] (fb_reg -1: not known). */
struct where {
	int reg;
	int mem;
	int64_t disp;
	int fb_reg;
	int64_t fb_off;
};

/* The register and offset of "DW_OP_breg<N> c" / "DW_OP_bregx N c": 0, else -1. */
static int breg_of(const Dwarf_Op *op, int *reg, int64_t *c)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*c = (int64_t)op->number;
		return 0;
	}
	if (op->atom == DW_OP_bregx && op->number < NREGS) {
		*reg = (int)op->number;
		*c = (int64_t)op->number2;
		return 0;
	}
	return -1;
}

/* The CFA at @vaddr as register + offset, from .eh_frame or .debug_frame: 0, else -1. */
static int cfa_at(struct sym_file *f, uint64_t vaddr, int *reg, int64_t *off)
{
	Dwarf_CFI *cfi[2];
	Dwarf_Addr bias[2];
	int rc = -1;

	cfi[0] = dwfl_module_eh_cfi(f->mod, &bias[0]);
	cfi[1] = dwfl_module_dwarf_cfi(f->mod, &bias[1]);
	for (int i = 0; i < 2 && rc; i++) {
		Dwarf_Frame *fr;
		Dwarf_Op *ops;
		size_t n;
		if (!cfi[i] || dwarf_cfi_addrframe(cfi[i], vaddr + f->bias - bias[i], &fr))
			continue;
		if (dwarf_frame_cfa(fr, &ops, &n) == 0 && n == 1 && breg_of(&ops[0], reg, off) == 0)
			rc = 0;
		free(fr);
	}
	return rc;
}

/* Where the frame base of function @fn is at @pc, as register + offset: 0, else -1. */
static int frame_base(struct sym_file *f, Dwarf_Die *fn, Dwarf_Addr pc, uint64_t vaddr,
		      int *reg, int64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len != 1)
		return -1;
	if (expr[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(f, vaddr, reg, off);
	if (expr[0].atom >= DW_OP_reg0 && expr[0].atom <= DW_OP_reg31) {
		*reg = expr[0].atom - DW_OP_reg0;  /* the frame base is the register's value */
		*off = 0;
		return 0;
	}
	return breg_of(&expr[0], reg, off);
}

/* The memory slot of variable @v at @pc as register + offset (DW_OP_fbreg from the frame base
 * @fb_reg + @fb_off, or DW_OP_breg<N>, alone or with a DW_OP_plus_uconst: gcc places a
 * variable an OpenMP outlined function shares by copy at "DW_OP_breg12 0; DW_OP_plus_uconst
 * 8", inside the block its caller passed): 0, else -1. */
static int slot_of(Dwarf_Die *v, Dwarf_Addr pc, int fb_reg, int64_t fb_off, int *reg,
		   int64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(v, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len < 1 || len > 2 ||
	    (len == 2 && expr[1].atom != DW_OP_plus_uconst))
		return -1;
	if (expr[0].atom == DW_OP_fbreg && fb_reg >= 0) {
		*reg = fb_reg;
		*off = fb_off + (int64_t)expr[0].number;
	} else if (breg_of(&expr[0], reg, off)) {
		return -1;
	}
	if (len == 2)
		*off += (int64_t)expr[1].number;
	return 0;
}

/* The frame base of the function of @ps at @pc as register + offset, cached per pc: 0, else
 * -1. */
static int pcs_frame(struct pcscopes *ps, Dwarf_Addr pc, int *reg, int64_t *off)
{
	if (!ps->fb_have || ps->fb_pc != pc) {
		ps->fb_have = 1;
		ps->fb_pc = pc;
		if (frame_base(ps->f, &ps->fn, pc, pc + ps->delta, &ps->fb_reg, &ps->fb_off))
			ps->fb_reg = -1;
	}
	*reg = ps->fb_reg;
	*off = ps->fb_off;
	return *reg >= 0 ? 0 : -1;
}

/* The address @reg + @off at @pc as an offset from the CFA (stable through the function, where
 * the registers that address the frame move): 0 and *c, else -1. */
static int cfa_rel(struct pcscopes *ps, Dwarf_Addr pc, int reg, int64_t off, int64_t *c)
{
	if (!ps->cfa_have || ps->cfa_pc != pc) {
		ps->cfa_pc = pc;
		ps->cfa_have = cfa_at(ps->f, pc + ps->delta, &ps->cfa_reg, &ps->cfa_off) ? -1 : 1;
	}
	if (ps->cfa_have < 0 || ps->cfa_reg != reg)
		return -1;
	*c = off - ps->cfa_off;  /* CFA = cfa_reg + cfa_off */
	return 0;
}

/* A variable DWARF locates through memory at one pc: its address is *(B + c[0]) + c[1] (n 1)
 * or *(*(B + c[0]) + c[1]) + c[2] (n 2), B the CFA (cfa) or register reg. gcc describes the
 * variables an OpenMP outlined function shares with its caller so: "sum" at "DW_OP_breg12 0;
 * DW_OP_deref" (.omp_data_i->sum in r12 at -O1), "DW_OP_fbreg -56; DW_OP_deref;
 * DW_OP_plus_uconst 8; DW_OP_deref" at -O0 and in gfortran; Fortran dummy arguments, passed by
 * reference, are "DW_OP_fbreg d; DW_OP_deref" at -O0. */
struct chain {
	int cfa, reg, n;
	int64_t c[3];
};

/* 1 when a variable or parameter under @die has a location with a DW_OP_deref somewhere in
 * its function (chain_of() may find something there). */
static int has_chains(Dwarf_Die *die, int depth)
{
	Dwarf_Die c;

	if (depth > MAX_DEPTH || dwarf_child(die, &c))
		return 0;
	do {
		int tag = dwarf_tag(&c);
		Dwarf_Attribute at;
		Dwarf_Addr base, lo, hi;
		Dwarf_Op *expr;
		size_t len;
		ptrdiff_t off = 0;
		if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) &&
		    dwarf_attr(&c, DW_AT_location, &at))
			while ((off = dwarf_getlocations(&at, off, &base, &lo, &hi, &expr, &len)) > 0)
				for (size_t i = 1; i < len; i++)
					if (expr[i].atom == DW_OP_deref)
						return 1;
		if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
		    has_chains(&c, depth + 1))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static int chain_of(Dwarf_Die *fn, Dwarf_Die *v, Dwarf_Addr pc, struct chain *ch)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr, *fb;
	size_t len, nfb;

	memset(ch, 0, sizeof(*ch));
	if (!dwarf_attr(v, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len < 2)
		return -1;
	if (expr[0].atom == DW_OP_fbreg) {
		if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &at) ||
		    dwarf_getlocation_addr(&at, pc, &fb, &nfb, 1) != 1 || nfb != 1)
			return -1;
		ch->c[0] = (int64_t)expr[0].number;
		if (fb[0].atom == DW_OP_call_frame_cfa) {
			ch->cfa = 1;
		} else if (fb[0].atom >= DW_OP_reg0 && fb[0].atom <= DW_OP_reg31) {
			ch->reg = fb[0].atom - DW_OP_reg0;
		} else {
			int64_t k;
			if (breg_of(&fb[0], &ch->reg, &k))
				return -1;
			ch->c[0] += k;
		}
	} else if (breg_of(&expr[0], &ch->reg, &ch->c[0])) {
		return -1;
	}
	for (size_t i = 1; i < len; i++) {
		if (expr[i].atom == DW_OP_deref && ch->n < 2)
			ch->c[++ch->n] = 0;
		else if (expr[i].atom == DW_OP_plus_uconst)
			ch->c[ch->n] += (int64_t)expr[i].number;
		else
			return -1;
	}
	return ch->n ? 0 : -1;
}

/* 1 when the location of @v at @pc is @w, *c the constant its value exceeds the register by.
 * Register values are DW_OP_reg<N>/DW_OP_regx N (c = 0) and "DW_OP_breg<N> c,
 * DW_OP_stack_value" (the variable's value is reg + c: a pointer in disguise, the register
 * holding p - c); memory is "DW_OP_breg<N> disp"/"DW_OP_bregx N disp" or "DW_OP_fbreg d"
 * alone (a location: gcc -O0 keeps every variable in its frame so). */
static int lives_in(Dwarf_Die *v, Dwarf_Addr pc, const struct where *w, int64_t *c)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;
	unsigned atom;
	int reg;

	*c = 0;
	if (!dwarf_attr(v, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || !len)
		return 0;
	atom = expr[0].atom;
	if (w->mem)
		return len == 1 && slot_of(v, pc, w->fb_reg, w->fb_off, &reg, c) == 0 &&
		       reg == w->reg && *c == w->disp;
	if (len == 1 && atom >= DW_OP_reg0 && atom <= DW_OP_reg31)
		return (int)(atom - DW_OP_reg0) == w->reg;
	if (len == 1 && atom == DW_OP_regx)
		return expr[0].number == (Dwarf_Word)w->reg;
	return len == 2 && expr[1].atom == DW_OP_stack_value && breg_of(&expr[0], &reg, c) == 0 &&
	       reg == w->reg;
}

static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute at;

	return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &at));
}

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The access @m through register @p as an access relative to the pointer itself: p's offset
 * added to the displacement, p's unknown multiple folded into the index (-2: no register). */
static struct mem_op effective(const struct ptr *p, const struct mem_op *m)
{
	struct mem_op e = *m;

	e.disp += p->off;
	if (p->scale) {
		e.scale = e.index >= 0 ? gcd(e.scale, p->scale) : p->scale;
		if (e.index < 0)
			e.index = -2;
	}
	return e;
}

/* How well pointer @p explains displacement @disp: 2 inside *p (or indexed), 1 past it (p[k]),
 * 0 before it, or past the one object a variable, a reference or a pointer to a polymorphic
 * class designates. */
static int fit(const struct ptr *p, const struct mem_op *raw)
{
	struct mem_op e = effective(p, raw), *m = &e;

	if (m->index != -1 || (m->disp >= 0 && (uint64_t)m->disp < p->size))
		return 2;
	return m->disp >= 0 && !p->obj && !p->ref && !p->poly;
}

/* A name reserved to the implementation ("__lll_lock", "_M_x"): a C library's own function. */
static int reserved(const char *name)
{
	return name && name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'));
}

/* The best pointer variable at @w at @pc for access @m, innermost scope first: 0, else
 * -ENOENT. A variable of a standard library function inlined there (Rust's atomic_add "dst",
 * std::atomic's "this"), or one with a reserved name (glibc's lll_lock macro's "__futex"), is
 * not the user's name for the data: one of the code around it that fits as well is preferred. */
static int find_var(struct sym_session *s, struct scopes *sc, Dwarf_Addr pc,
		    const struct where *w, const struct mem_op *m, struct ptr *best)
{
	int best_fit = -1, best_lib = 0;

	for (int i = sc->n - 1; i >= 0 && (best_fit < 2 || best_lib); i--) {
		Dwarf_Die v;
		int lib_scope = dwarf_tag(&sc->die[i]) == DW_TAG_inlined_subroutine &&
				(sym_die_library(&sc->die[i]) || reserved(die_name(&sc->die[i])));
		if (dwarf_child(&sc->die[i], &v))
			continue;
		do {
			int tag = dwarf_tag(&v);
			struct ptr p = {0};
			const char *name;
			int64_t c;
			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    !lives_in(&v, pc, w, &c) || !(name = die_name(&v)) || pointee_of(&v, &p))
				continue;
			if (!w->mem)
				p.off = -c;
			int f = fit(&p, m), lib = lib_scope || reserved(name);
			if (f > best_fit || (f == best_fit && f > 0 && best_lib && !lib)) {
				best_fit = f;
				best_lib = lib;
				*best = p;
				best->name = sym_str(&s->str, name);
			}
		} while ((best_fit < 2 || best_lib) && dwarf_siblingof(&v, &v) == 0);
	}
	return best_fit > 0 ? 0 : -ENOENT;
}

/* The best pointer variable held in register @m->base at @pc. */
static int find_ptr_var(struct sym_session *s, struct scopes *sc, Dwarf_Addr pc,
			const struct mem_op *m, struct ptr *best)
{
	struct where w = { .reg = m->base, .fb_reg = -1 };

	return find_var(s, sc, pc, &w, m, best);
}

/* --- naming ------------------------------------------------------------------------------- */

/* "p->a.b", "(*p)[2]", "*p (+4)" for byte @off of *p, "s.a.b", "s[2]", "s (+4)" when p is a
 * reference s or the object s itself; @elem "" (inside *p), "[]" or "[k]". */
static void compose(struct sym_buf *b, const struct ptr *p, const char *elem, const char *path)
{
	const char *name = p->name;

	if (p->ref || p->obj)
		sym_buf_add(b, *elem ? "(&%s)%s%s" : "%s%s%s", name, elem, path);
	else if (*elem)
		sym_buf_add(b, "%s%s%s", name, elem, path);
	else if (path[0] == '.')
		sym_buf_add(b, "%s->%s", name, path + 1);
	else if (path[0] == '[')
		sym_buf_add(b, "(*%s)%s", name, path);
	else
		sym_buf_add(b, "*%s%s", name, path);
}

#define SHIFT_TRIES 4096  /* offsets tried by shifted() */

/* An indexed access whose displacement @d lands in no array of *p that could take the index:
 * the compiler may have folded the offset of the array into the index register ((t + 1) << 4
 * for G->ints[t], ints 16 bytes into *G). The offsets d + k * @step inside *p that lie in an
 * array taking the index must all give one path ("ints[].i"), put in @path, the first such
 * offset in *off: 0, else -1 (none, or several arrays: which one is unknown). */
static int shifted(const struct ptr *p, int64_t d, unsigned step, struct sym_buf *path,
		   uint64_t *off, struct sym_elem *el)
{
	struct sym_elem el1;
	struct sym_buf one = {0};
	int64_t k0 = d >= 0 ? -(d / (int64_t)step) : (-d + step - 1) / (int64_t)step;
	int found = 0, rc = 0;

	if ((p->size - 1) / step > SHIFT_TRIES)
		return -1;
	for (int64_t e = d + k0 * (int64_t)step; e < (int64_t)p->size && rc == 0; e += step) {
		if (e == d)
			continue;
		one.len = 0;
		sym_buf_add(&one, "%s", "");
		if (!sym_type_path((Dwarf_Die *)&p->pointee, (uint64_t)e, step, &one, &el1))
			continue;
		if (!found) {
			sym_buf_add(path, "%s", one.p);
			*off = (uint64_t)e;
			*el = el1;
			found = 1;
		} else if (strcmp(one.p, path->p)) {
			rc = -1;
		}
	}
	free(one.p);
	return found && !rc ? 0 : -1;
}

/* The element of *p an access lands in and the offset inside it: without an index register
 * @m->disp is exact ("" or "[k]"; an object, p->obj, only inside itself). With one, the bytes
 * accessed are disp + k * scale (scale: the index's step, what the code shows it a multiple
 * of): the first array on the path whose stride divides the step takes the index ("p->a[]"),
 * else whole elements of *p when the step is a multiple of sizeof(*p) ("p[]", not for an
 * object), else one array at another offset of that step (shifted()); otherwise the byte is
 * unknown (returns -1). */
static int place(const struct ptr *p, const struct mem_op *m, struct sym_buf *path, char *elem,
		 size_t cap, uint64_t *off, struct sym_elem *el)
{
	uint64_t d = (uint64_t)m->disp;

	elem[0] = 0;
	memset(el, 0, sizeof(*el));
	if (m->index == -1) {
		if (m->disp < 0 || (p->obj && d >= p->size))
			return -1;  /* callers check fit() first */
		*off = d % p->size;
		if (d >= p->size)
			snprintf(elem, cap, "[%llu]", (unsigned long long)(d / p->size));
		sym_type_path((Dwarf_Die *)&p->pointee, *off, 0, path, NULL);
		return 0;
	}
	if (m->disp >= 0 && d < p->size &&
	    sym_type_path((Dwarf_Die *)&p->pointee, d, m->scale, path, el)) {
		*off = d;
		return 0;
	}
	path->len = 0;
	if (path->p)
		path->p[0] = 0;
	if (!p->obj && !p->ref && m->scale % p->size == 0) {
		*off = (uint64_t)(m->disp % (int64_t)p->size + (int64_t)p->size) % p->size;
		snprintf(elem, cap, "[]");
		sym_type_path((Dwarf_Die *)&p->pointee, *off, 0, path, NULL);
		*el = (struct sym_elem){ .stride = p->size, .off = *off, .dims = 1 };
		return 0;
	}
	memset(el, 0, sizeof(*el));
	return shifted(p, m->disp, m->scale, path, off, el);
}

/* Name the access @m (relative to p itself: effective()) through @p: 0, else -1 when p is an
 * object the access may leave (an index no array of it takes). A pointer whose pointee's byte
 * is unknown still names the object: "*p (+?)", with a reason. */
static int describe(struct sym_session *s, const struct ptr *p, const struct mem_op *m,
		    struct sym_data_info *out)
{
	struct sym_buf b = {0}, path = {0};
	char elem[32];
	uint64_t off = 0;
	int named = p->ref || p->obj;
	struct sym_elem el;

	out->elem_size = out->elem_off = out->elem_count = 0;
	out->lock = NULL;
	sym_buf_add(&path, "%s", "");
	if (place(p, m, &path, elem, sizeof(elem), &off, &el)) {
		free(path.p);
		if (p->obj)
			return -1;
		sym_buf_add(&b, named ? "%s (+?)" : "*%s (+?)", p->name);
		out->reason = "indexed access: offset inside the object unknown";
	} else {
		int cut = sym_path_lock(path.p);
		if (cut >= 0) {
			char c = path.p[cut];
			path.p[cut] = 0;
			compose(&b, p, elem, path.p);
			out->lock = sym_str(&s->str, b.p);
			path.p[cut] = c;
			b.len = 0;
			b.p[0] = 0;
		}
		compose(&b, p, elem, path.p);
		free(path.p);
		if (el.dims) {
			out->elem_size = el.stride;
			out->elem_off = el.off;
			out->elem_count = el.count;
		}
	}
	out->member = sym_str(&s->str, b.p);
	out->var_offset = off;
	out->var_size = p->size;
	b.len = 0;
	sym_buf_add(&b, named ? "%s" : "*%s", p->name);
	out->var = sym_str(&s->str, b.p);
	b.len = 0;
	sym_type_name((Dwarf_Die *)&p->pointee, &b);
	out->type = sym_str(&s->str, b.p);
	out->lang = sym_die_lang((Dwarf_Die *)&p->pointee);
	out->type_ref = (struct sym_type_ref){ dwarf_cu_getdwarf(p->pointee.cu),
					       dwarf_dieoffset((Dwarf_Die *)&p->pointee) };
	free(b.p);
	return 0;
}

/* --- register state through a basic block -------------------------------------------------- */

/* What the block has put in each register: a typed pointer (valid), a constant address
 * (kvalid: adrp/adr, lea from rip, and additions to those), an integer known to be a multiple
 * of mult (an index scaled by shl, imul or lea: 0 when nothing is known), or (svalid) the value
 * loaded from the stack slot at CFA + slot, while no store may have changed it. */
struct regstate {
	int valid[NREGS];
	struct ptr p[NREGS];
	int kvalid[NREGS];
	uint64_t k[NREGS];
	uint32_t mult[NREGS];
	int svalid[NREGS];
	int64_t slot[NREGS];
};

/* The immediate target of a direct branch, or 0 when @in has none. */
static uint64_t branch_target(const cs_insn *in, int machine)
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
static int ends_block(csh cs, const cs_insn *in, int machine)
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

static int is_call(csh cs, const cs_insn *in, int machine)
{
	return c2c_cs_insn_group(cs, in, CS_GRP_CALL) ||
	       (machine == EM_AARCH64 && (in->id == ARM64_INS_BL || in->id == ARM64_INS_BLR));
}

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
		if (!ends_block(cs, in, machine))
			continue;
		uint64_t t = branch_target(in, machine);
		if (!t && !c2c_cs_insn_group(cs, in, CS_GRP_RET) && !is_call(cs, in, machine) &&
		    !(machine == EM_AARCH64 && in->id == ARM64_INS_RET))
			b->bad = 1;  /* indirect jump */
		if (t && !is_call(cs, in, machine))
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
	if (code_bytes(t->f, lo, buf, hi - lo) != hi - lo)
		b->bad = 1;
	else
		find_leaders(*disasm(c, t->machine), t->machine, buf, hi - lo, b, in);
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

/* The DWARF registers @in writes into @w (1 each). */
static void written(csh cs, const cs_insn *in, int machine, int *w)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;

	memset(w, 0, NREGS * sizeof(*w));
	if (c2c_cs_regs_access(cs, in, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (int i = 0; i < nwr; i++) {
			int r = machine == EM_X86_64 ? x86_dwreg((x86_reg)wr[i]) :
						       a64_dwreg((arm64_reg)wr[i]);
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
static int move_of(const cs_insn *in, int machine, int *dst, int *base, int64_t *disp,
		   int *copy)
{
	*disp = 0;
	*copy = 0;
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		if (in->id != X86_INS_MOV || x->op_count != 2 || x->operands[0].type != X86_OP_REG ||
		    x->operands[0].size != 8)
			return -1;
		*dst = x86_dwreg(x->operands[0].reg);
		if (x->operands[1].type == X86_OP_REG) {
			*base = x86_dwreg(x->operands[1].reg);
			*copy = 1;
		} else if (x->operands[1].type == X86_OP_MEM && x->operands[1].mem.index == X86_REG_INVALID &&
			   x->operands[1].mem.segment == X86_REG_INVALID) {
			*base = x86_dwreg(x->operands[1].mem.base);
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
		*dst = a64_dwreg(a->operands[0].reg);
		if (in->id == ARM64_INS_MOV && a->operands[1].type == ARM64_OP_REG) {
			*base = a64_dwreg(a->operands[1].reg);
			*copy = 1;
		} else if (in->id == ARM64_INS_LDR && a->operands[1].type == ARM64_OP_MEM &&
			   a->operands[1].mem.index == ARM64_REG_INVALID && !a->writeback) {
			*base = a64_dwreg(a->operands[1].mem.base);
			*disp = a->operands[1].mem.disp;
		} else {
			return -1;
		}
	}
	return *dst >= 0 && *dst < NREGS && *base >= 0 && *base < NREGS ? 0 : -1;
}

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
	return find_ptr_var(s, pcs_at(ps, pc), pc, &m, out);
}

/* The pointer loaded from byte @disp of register @b, named "b->member": 0, else -1. */
static int load_ptr(struct sym_session *s, const struct ptr *b, int64_t disp, struct ptr *out)
{
	struct mem_op m = { .base = 0, .index = -1, .disp = disp }, e = effective(b, &m);
	struct sym_buf path = {0}, name = {0};
	struct sym_elem el;
	char elem[32];
	uint64_t off;
	Dwarf_Die t;

	memset(out, 0, sizeof(*out));
	if (e.index == -1 && e.disp < 0)
		return -1;
	sym_buf_add(&path, "%s", "");
	if (place(b, &e, &path, elem, sizeof(elem), &off, &el) ||
	    sym_type_at((Dwarf_Die *)&b->pointee, off, &t) || pointee_from(&t, out)) {
		free(path.p);
		return -1;
	}
	compose(&name, b, elem, path.p);
	out->name = sym_str(&s->str, name.p);
	free(path.p);
	free(name.p);
	return 0;
}

/* Pointer arithmetic "dst = base + disp + index * scale": x86 lea, add and sub of an immediate,
 * add of a register (index, scale 1); AArch64 add and sub of an immediate, add of a shifted
 * register. 0 when @in is one (*index -1 and *scale 0: no index). */
static int arith_of(const cs_insn *in, int machine, int *dst, int *base, int64_t *disp,
		    int *index, unsigned *scale)
{
	*disp = 0;
	*scale = 0;
	*index = -1;
	if (machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		if (x->op_count != 2 || x->operands[0].type != X86_OP_REG || x->operands[0].size != 8)
			return -1;
		*dst = x86_dwreg(x->operands[0].reg);
		if (in->id == X86_INS_LEA) {
			const x86_op_mem *o = &x->operands[1].mem;
			if (x->operands[1].type != X86_OP_MEM || o->segment != X86_REG_INVALID)
				return -1;
			*base = x86_dwreg(o->base);
			*disp = o->disp;
			if (o->index != X86_REG_INVALID) {
				*index = x86_dwreg(o->index);
				*scale = (unsigned)o->scale;
			}
		} else if ((in->id == X86_INS_ADD || in->id == X86_INS_SUB) &&
			   x->operands[1].type == X86_OP_IMM) {
			*base = *dst;
			*disp = in->id == X86_INS_ADD ? x->operands[1].imm : -x->operands[1].imm;
		} else if (in->id == X86_INS_ADD && x->operands[1].type == X86_OP_REG &&
			   x->operands[1].size == 8) {
			*base = *dst;
			*index = x86_dwreg(x->operands[1].reg);
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
		*dst = a64_dwreg(a->operands[0].reg);
		*base = a64_dwreg(a->operands[1].reg);
		if (o->type == ARM64_OP_IMM) {
			*disp = (int64_t)((uint64_t)o->imm << sh);
			if (in->id == ARM64_INS_SUB)
				*disp = -*disp;
		} else if (o->type == ARM64_OP_REG && sh < 32 && in->id == ARM64_INS_ADD) {
			*index = a64_dwreg(o->reg);
			*scale = 1u << sh;
		} else {
			return -1;
		}
	}
	if (*scale && (*index < 0 || *index >= NREGS))
		return -1;
	return *dst >= 0 && *dst < NREGS && *base >= 0 && *base < 16 + (machine != EM_X86_64) * 16 ? 0 : -1;
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
	    pointee_from(&t, out) || sym_data_vaddr(s, f, addr, &info) || !info.member)
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
		*dst = a64_dwreg(in->detail->arm64.operands[0].reg);
		*k = (uint64_t)in->detail->arm64.operands[1].imm;
		return *dst >= 0 && *dst < NREGS ? 0 : -1;
	}
	if (machine == EM_X86_64 && in->id == X86_INS_LEA && in->detail->x86.operands[1].mem.base == X86_REG_RIP &&
	    in->detail->x86.operands[1].mem.index == X86_REG_INVALID) {
		*dst = x86_dwreg(in->detail->x86.operands[0].reg);
		*k = in->address + in->size + (uint64_t)in->detail->x86.operands[1].mem.disp;
		return *dst >= 0 && *dst < NREGS ? 0 : -1;
	}
	if (arith_of(in, machine, dst, &base, &disp, &index, &scale) == 0 && !scale &&
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
		ps->chains = has_chains(&ps->fn, 0) ? 1 : -1;
	if (ps->chains < 0)
		return -1;
	sc = pcs_at(ps, pc);
	have_slot = frame_reg(t->machine, base) && cfa_rel(ps, pc, base, disp, &slot) == 0;
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
			    chain_of(&ps->fn, &v, pc, &ch) || !(name = die_name(&v)))
				continue;
			if (ch.n == 1 && ch.cfa)
				hit = have_slot && slot == ch.c[0];
			else if (ch.n == 1)
				hit = ch.reg == base && ch.c[0] == disp;
			else if (st->svalid[base] && ch.c[1] == disp)
				hit = ch.cfa ? st->slot[base] == ch.c[0] :
				      cfa_rel(ps, pc, ch.reg, ch.c[0], &c) == 0 && st->slot[base] == c;
			if (hit && object_of(s, &v, name, p) == 0) {
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
		if (pcs_frame(ps, pc, &wm.fb_reg, &wm.fb_off))
			wm.fb_reg = -1;
		if (find_var(s, pcs_at(ps, pc), pc, &wm, &any, p) == 0)
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
static int local_ptr(struct sym_session *s, struct pcscopes *ps, Dwarf_Addr pc, int reg,
		     int64_t disp, struct ptr *p)
{
	struct scopes *sc = pcs_at(ps, pc);
	int fb_reg, vreg;
	int64_t fb_off, off;

	if (pcs_frame(ps, pc, &fb_reg, &fb_off))
		fb_reg = -1;
	for (int i = sc->n - 1; i >= 0; i--) {
		Dwarf_Die v;
		if (dwarf_child(&sc->die[i], &v))
			continue;
		do {
			int tag = dwarf_tag(&v);
			const char *name;
			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    slot_of(&v, pc, fb_reg, fb_off, &vreg, &off) || vreg != reg || disp < off ||
			    !(name = die_name(&v)) || object_of(s, &v, name, p) ||
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

	if (move_of(in, t->machine, dst, &base, &disp, &copy))
		return -1;
	if (!copy)
		return loaded_ptr(s, t, ps, st, in, pc, base, disp, p);
	if (reg_ptr(s, ps, st, pc, base, 0, p) == 0)
		return 0;
	/* "mov rax, rsp": the address of the local at the stack pointer */
	if (frame_reg(t->machine, base) && !frame_reg(t->machine, *dst))
		return local_ptr(s, ps, pc, base, 0, p);
	return -1;
}

/* --- integers: multiples of a known step ------------------------------------------------------ */

#define MULT_ZERO 0xffffffffu  /* the register holds 0, a multiple of everything */
#define MULT_MAX (1u << 24)

static uint32_t mgcd(uint32_t a, uint32_t b)
{
	if (a == MULT_ZERO)
		return b;
	if (b == MULT_ZERO)
		return a;
	return gcd(a, b);
}

static uint32_t mmul(uint32_t a, uint64_t b)
{
	uint64_t r;

	if (a == MULT_ZERO || !b)
		return MULT_ZERO;
	r = (uint64_t)a * b;
	return r < MULT_MAX ? (uint32_t)r : 0;
}

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
		*dst = x86_dwreg(o[0].reg);
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
				*mult = mmul(o[1].type == X86_OP_REG ? mult_of(st, x86_dwreg(o[1].reg)) : 1,
					     imm_mult(o[2].imm) == MULT_ZERO ? 0 : imm_mult(o[2].imm));
			else if (x->op_count == 2 && o[1].type == X86_OP_REG)
				*mult = mmul(mult_of(st, *dst), mult_of(st, x86_dwreg(o[1].reg)));
			else
				return -1;
			return 0;
		case X86_INS_LEA: {
			const x86_op_mem *m = &o[1].mem;
			int b = x86_dwreg(m->base), i = x86_dwreg(m->index);
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
				*mult = mult_of(st, x86_dwreg(o[1].reg));
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
				*mult = mgcd(mult_of(st, *dst), mult_of(st, x86_dwreg(o[1].reg)));
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
	*dst = a64_dwreg(o[0].reg);
	if (*dst < 0 || *dst >= NREGS)
		return -1;
	if (in->id == ARM64_INS_LSL && a->op_count == 3 && o[2].type == ARM64_OP_IMM &&
	    o[2].imm >= 0 && o[2].imm <= 24)
		*mult = mmul(mult_of(st, a64_dwreg(o[1].reg)), 1ull << o[2].imm);
	else if (in->id == ARM64_INS_MOV && a->op_count == 2)
		*mult = mult_of(st, a64_dwreg(o[1].reg));
	else if (in->id == ARM64_INS_ADD && a->op_count == 3 && o[2].type == ARM64_OP_IMM &&
		 o[2].shift.type == ARM64_SFT_INVALID)
		*mult = mgcd(mult_of(st, a64_dwreg(o[1].reg)), imm_mult(o[2].imm));
	else
		return -1;
	return 0;
}

/* 1 when @in may write memory (a store, a read-modify-write, a push; x86 instructions whose
 * first operand is in memory, AArch64 memory instructions other than plain loads). */
static int writes_memory(const cs_insn *in, int machine)
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
		*dst = x86_dwreg(in->detail->x86.operands[0].reg);
		if (*dst < 0 || *dst >= NREGS || st->valid[*dst] || o->index != X86_REG_INVALID ||
		    o->segment != X86_REG_INVALID ||
		    loaded_ptr(s, t, ps, st, in, pc, x86_dwreg(o->base), o->disp, p))
			return -1;
		scale = mult_of(st, *dst);
		if (scale == MULT_ZERO)
			return 0;
		p->scale = p->scale ? gcd(p->scale, scale) : scale;
		return 0;
	}
	if (arith_of(in, machine, dst, &base, &disp, &index, &scale))
		return -1;
	if (reg_ptr(s, ps, st, pc, base, 0, p)) {
		/* "lea rax, [rsp + 16]": into a local; "add rdx, rax", rax the pointer */
		if (!scale && frame_reg(machine, base) && !frame_reg(machine, *dst) &&
		    (machine != EM_X86_64 || in->id == X86_INS_LEA) &&
		    local_ptr(s, ps, pc, base, disp, p) == 0) {
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
static void step(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
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
	if (move_of(in, t->machine, &sdst, &base, &disp, &copy) || copy ||
	    !frame_reg(t->machine, base) || cfa_rel(ps, pc, base, disp, &slot))
		sdst = -1;
	if (is_call(cs, in, t->machine))
		for (int r = 0; r < NREGS; r++)
			if (!callee_saved(t->machine, r))
				st->valid[r] = st->kvalid[r] = 0, st->mult[r] = 0;
	if (is_call(cs, in, t->machine) || writes_memory(in, t->machine))
		memset(st->svalid, 0, sizeof(st->svalid));
	written(cs, in, t->machine, w);
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

/* The low end of the range of the function scope sc->die[0] holding @pc. */
static int func_start(struct scopes *sc, Dwarf_Addr pc, Dwarf_Addr *lo, Dwarf_Addr *hi)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(&sc->die[0], off, &base, &start, &end)) > 0) {
		if (pc >= start && pc < end) {
			*lo = start;
			*hi = end;
			return 0;
		}
	}
	return -1;
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

/* 1 when execution may continue after @in: not a return or an unconditional jump. */
static int falls_through(csh cs, const cs_insn *in, int machine)
{
	if (c2c_cs_insn_group(cs, in, CS_GRP_RET) || c2c_cs_insn_group(cs, in, CS_GRP_IRET))
		return 0;
	if (machine == EM_X86_64)
		return in->id != X86_INS_JMP && in->id != X86_INS_LJMP;
	if (in->id == ARM64_INS_B)
		return in->detail->arm64.cc != ARM64_CC_INVALID && in->detail->arm64.cc != ARM64_CC_AL;
	return in->id != ARM64_INS_BR && in->id != ARM64_INS_RET;
}

/* Step block @i of @b (code bytes @code, from b->lo) from state @st, updated in place; its
 * successors in succ[] (-1: none): the next block when the last instruction falls through, the
 * block a direct jump inside the range goes to (never block 0, whose entry state is empty).
 * 0, else -1 when the block does not decode. */
static int run_block(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
		     const struct fn_blocks *b, const uint8_t *code, size_t i, int64_t delta,
		     cs_insn *in, struct regstate *st, long succ[2])
{
	csh cs = *disasm(s->type, t->machine);
	uint64_t a = block_start(b, i), tgt;
	const uint8_t *p = code + (a - b->lo);
	size_t n = block_end(b, i) - a;

	succ[0] = succ[1] = -1;
	while (n) {
		if (!c2c_cs_disasm_iter(cs, &p, &n, &a, in))
			return -1;
		step(s, t, ps, st, cs, in, in->address - delta);
	}
	if (i < b->nr && falls_through(cs, in, t->machine))
		succ[0] = (long)i + 1;
	if (ends_block(cs, in, t->machine) && !is_call(cs, in, t->machine) &&
	    (tgt = branch_target(in, t->machine)) > b->lo && tgt < b->hi)
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
	ok = code_bytes(t->f, b->lo, code, len) == len;
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
static int track_block(struct sym_session *s, struct type_file *t, struct scopes *sc,
		       uint64_t vaddr, Dwarf_Addr pc, Dwarf_Addr cubias, cs_insn *in,
		       struct regstate *st)
{
	csh cs = *disasm(s->type, t->machine);
	int64_t delta = (int64_t)(cubias - t->f->bias);  /* ELF vaddr - CU address */
	struct pcscopes *ps;
	struct fn_blocks *b;
	Dwarf_Addr lo, hi;
	uint64_t a;
	uint8_t *buf;
	const uint8_t *p;
	size_t n, i;

	if (func_start(sc, pc, &lo, &hi) || hi - lo > SCAN_MAX)
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
	if (code_bytes(t->f, a, buf, n) != n)
		n = 1;
	while (n && c2c_cs_disasm_iter(cs, &p, &n, &a, in))
		step(s, t, ps, st, cs, in, in->address - delta);
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

/* --- entry ---------------------------------------------------------------------------------- */

/* The stack pointer (x86-64 rsp, AArch64 sp). */
static int is_sp(int machine, int reg)
{
	return reg == (machine == EM_X86_64 ? 7 : 31);
}

/* "[type unknown]: why", a pool string. */
static const char *unknown(struct sym_session *s, const char *why)
{
	struct sym_buf b = {0};
	const char *r;

	sym_buf_add(&b, "[type unknown]: %s", why);
	r = sym_str(&s->str, b.p);
	free(b.p);
	return r;
}

static void build_cu_ranges(struct type_file *t)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	t->ranges_built = 1;
	while (dwarf_nextcu(t->f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;
		Dwarf_Die cu;
		if (dwarf_offdie(t->f->dw, off + hsize, &cu)) {
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0) {
				t->cur = xgrow(t->cur, &t->cap_cur, t->nr_cur + 1, sizeof(*t->cur));
				t->cur[t->nr_cur++] = (struct cu_range){ lo, hi, off + hsize };
			}
		}
		off = next;
	}
}

/* The CU holding @vaddr when libdwfl finds none (no .debug_aranges): from the CUs' ranges. */
static Dwarf_Die *cu_by_ranges(struct type_file *t, uint64_t vaddr, Dwarf_Die *cu,
			       Dwarf_Addr *cubias)
{
	Dwarf_Addr a = vaddr + t->f->bias - t->f->dw_bias;

	if (!t->ranges_built)
		build_cu_ranges(t);
	for (size_t i = 0; i < t->nr_cur; i++) {
		if (a >= t->cur[i].lo && a < t->cur[i].hi && dwarf_offdie(t->f->dw, t->cur[i].off, cu)) {
			*cubias = t->f->dw_bias;
			return cu;
		}
	}
	return NULL;
}

/* The index of the first entry of @t->fd starting past @vaddr. */
static size_t fn_die_after(const struct type_file *t, uint64_t vaddr)
{
	size_t i = 0, j = t->nr_fd;

	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (t->fd[mid].lo <= vaddr)
			i = mid + 1;
		else
			j = mid;
	}
	return i;
}

/* Remember the range of the function scope sc->die[0] holding CU address @pc. */
static void fn_die_add(struct type_file *t, struct scopes *sc, Dwarf_Addr pc, Dwarf_Addr cubias)
{
	int64_t delta = (int64_t)(cubias - t->f->bias);
	Dwarf_Addr lo, hi;
	size_t i;

	if (func_start(sc, pc, &lo, &hi) || lo >= hi)
		return;
	lo += delta;
	hi += delta;
	i = fn_die_after(t, lo);
	if ((i && t->fd[i - 1].hi > lo) || (i < t->nr_fd && t->fd[i].lo < hi))
		return;  /* overlaps a known one: keep the walk for it */
	t->fd = xgrow(t->fd, &t->cap_fd, t->nr_fd + 1, sizeof(*t->fd));
	memmove(&t->fd[i + 1], &t->fd[i], (t->nr_fd++ - i) * sizeof(*t->fd));
	t->fd[i] = (struct fn_die){ .lo = lo, .hi = hi, .die = sc->die[0], .cubias = cubias };
}

/* The DWARF scopes at @vaddr: CU-relative *pc, 0, or -ENOENT with *why. */
static int scopes_at(struct type_file *t, uint64_t vaddr, struct scopes *sc, Dwarf_Addr *pc,
		     Dwarf_Addr *cubias, const char **why)
{
	struct sym_file *f = t->f;
	Dwarf_Die *cu, cu_mem;
	size_t i;

	if (sym_file_dwarf(f)) {
		*why = "no debug info";
		return -ENOENT;
	}
	i = fn_die_after(t, vaddr);
	if (i && vaddr < t->fd[i - 1].hi) {
		Dwarf_Die fn = t->fd[i - 1].die;
		*cubias = t->fd[i - 1].cubias;
		*pc = vaddr + f->bias - *cubias;
		sc->die[0] = fn;
		sc->n = 1;
		collect(&fn, *pc, sc, 1);
		return 0;
	}
	cu = dwfl_module_addrdie(f->mod, vaddr + f->bias, cubias);
	if (!cu)
		cu = cu_by_ranges(t, vaddr, &cu_mem, cubias);
	if (!cu) {
		*why = "no debug info at this pc";
		return -ENOENT;
	}
	*pc = vaddr + f->bias - *cubias;
	sc->n = 0;
	collect(cu, *pc, sc, 0);
	if (!sc->n && find_nested(cu, *pc, &sc->die[0], 0) == 0) {
		sc->n = 1;
		collect(&sc->die[0], *pc, sc, 1);
	}
	if (!sc->n) {
		*why = "no function in the debug info at this pc";
		return -ENOENT;
	}
	fn_die_add(t, sc, *pc, *cubias);
	return 0;
}

/* 1 when the tracked pointer @tr explains access @m better than the pointer variable @var in
 * its base register: it points into a larger object holding the variable's pointee ("blue",
 * an int *, computed as &thread_arg->blue[0] before the loop: the object is *thread_arg), and
 * names the access inside it. */
static int encloses(const struct ptr *tr, const struct ptr *var, const struct mem_op *m)
{
	struct mem_op e = effective(tr, m);
	struct sym_buf path = {0};
	struct sym_elem el;
	char elem[32];
	uint64_t off;
	int ok;

	if (tr->size <= var->size || fit(tr, m) < 2 || tr->name == var->name)
		return 0;
	ok = place(tr, &e, &path, elem, sizeof(elem), &off, &el) == 0 && !elem[0];
	free(path.p);
	return ok;
}

/* Name the access @m at @vaddr through the DWARF variables: a pointer variable in the base
 * register, or what the code before put there when that is a larger object holding it (the
 * register state of its block), a constant address, a local's stack slot. The index
 * register's step is what the code shows it a multiple of. 0, or -ENOENT with *why. */
static int name_access(struct sym_session *s, struct type_file *t, uint64_t vaddr,
		       const struct mem_op *m, cs_insn *in, struct sym_data_info *out,
		       const char **why)
{
	struct scopes *sc = xmalloc(sizeof(*sc));
	struct regstate *st = xmalloc(sizeof(*st));
	struct mem_op mm = *m, e;
	struct pcscopes *ps = NULL;
	Dwarf_Addr pc, cubias;
	struct ptr var, *tr = NULL;
	int rc = -ENOENT, have_var, have_st;

	if (scopes_at(t, vaddr, sc, &pc, &cubias, why))
		goto out;
	have_st = track_block(s, t, sc, vaddr, pc, cubias, in, st) == 0;
	if (have_st && m->index >= 0 && st->mult[m->index]) {
		uint32_t k = mmul(st->mult[m->index], m->scale);
		if (k == MULT_ZERO)
			mm.index = -1, mm.scale = 0;  /* the index register holds 0 */
		else if (k)
			mm.scale = k;
	}
	have_var = find_ptr_var(s, sc, pc, &mm, &var) == 0;
	if (have_st && st->valid[m->base] && fit(&st->p[m->base], &mm) > 0)
		tr = &st->p[m->base];
	if (tr && have_var && !encloses(tr, &var, &mm))
		tr = NULL;
	if (tr || have_var) {
		e = effective(tr ? tr : &var, &mm);
		if (describe(s, tr ? tr : &var, &e, out) == 0) {
			rc = 0;
			goto out;
		}
	}
	if (have_st && st->kvalid[m->base] && mm.index < 0) {
		/* a constant address (adrp + ldr): static data */
		if (sym_data_vaddr(s, t->f, st->k[m->base] + (uint64_t)mm.disp, out) == 0) {
			rc = 0;
			goto out;
		}
	}
	memset(out, 0, sizeof(*out));  /* a failed static-data lookup may have filled it */
	ps = xcalloc(1, sizeof(*ps));
	ps->fn = sc->die[0];
	ps->f = t->f;
	ps->delta = (int64_t)(cubias - t->f->bias);
	if (local_ptr(s, ps, pc, m->base, m->disp, &var) == 0 && fit(&var, &mm) == 2) {
		e = effective(&var, &mm);
		if (describe(s, &var, &e, out) == 0) {
			rc = 0;
			goto out;
		}
		memset(out, 0, sizeof(*out));
	}
	*why = is_sp(t->machine, m->base) ? "stack access, no local variable there" :
	       "no pointer variable in the base register at this pc";
out:
	free(ps);
	free(st);
	free(sc);
	return rc;
}

static int resolve(struct sym_session *s, struct type_file *t, uint64_t vaddr,
		   struct sym_data_info *out)
{
	uint8_t buf[INSN_MAX];
	const char *why = NULL;
	struct mem_op m;
	cs_insn *in;
	csh *cs;
	size_t n;
	int rc;

	if (!(cs = disasm(s->type, file_machine(t)))) {
		out->reason = unknown(s, c2c_cs_missing() ? "capstone cannot be loaded"
							  : "unsupported architecture");
		return -ENOENT;
	}
	if (!(n = code_bytes(t->f, vaddr, buf, sizeof(buf)))) {
		out->reason = unknown(s, "no code bytes at this address in the file");
		return -ENOENT;
	}
	in = c2c_cs_malloc(*cs);
	if (!in)
		return -ENOMEM;  /* capstone's allocation failed */
	rc = decode(cs, t->machine, buf, n, vaddr, in, &m, &why);
	if (rc == 0 && (m.rip || (m.base < 0 && m.index < 0))) {
		/* a fixed address: static data, named by the ELF/DWARF data path */
		rc = sym_data_vaddr(s, t->f, m.rip ? m.target : (uint64_t)m.disp, out);
		why = NULL;
	} else if (rc == 0 && m.base < 0) {
		why = "no base register (absolute address with an index)";
		rc = -ENOENT;
	} else if (rc == 0) {
		rc = name_access(s, t, vaddr, &m, in, out, &why);
	}
	if (rc && why)
		out->reason = unknown(s, why);
	c2c_cs_free(in, 1);
	return rc;
}

static int type_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		      struct sym_data_info *out)
{
	struct type_file *t = type_file(s, f);
	struct sym_cache_ent *e = sym_cache_slot(&t->cache, vaddr);

	if (!e->used) {
		/* resolve() never touches t->cache, so @e stays valid */
		e->rc = resolve(s, t, vaddr, &e->data);
		e->used = 1;
		sym_cache_added(&t->cache);
	}
	*out = e->data;
	return e->rc;
}

const char *sym_member_at(struct sym_session *s, const struct sym_data_info *d, uint64_t off)
{
	struct sym_buf b = {0}, path = {0};
	const char *v = d ? d->var : NULL, *out = NULL;
	Dwarf_Die t;

	if (!s || !v || !d->type_ref.dwarf || off >= d->var_size ||
	    !dwarf_offdie(d->type_ref.dwarf, d->type_ref.die, &t))
		return NULL;
	sym_buf_add(&path, "%s", "");
	sym_type_path(&t, off, 0, &path, NULL);
	if (v[0] != '*')
		sym_buf_add(&b, "%s%s", v, path.p);
	else if (path.p[0] == '.')
		sym_buf_add(&b, "%s->%s", v + 1, path.p + 1);
	else if (path.p[0] == '[')
		sym_buf_add(&b, "(%s)%s", v, path.p);
	else
		sym_buf_add(&b, "%s%s", v, path.p);
	out = sym_str(&s->str, b.p);
	free(path.p);
	free(b.p);
	return out;
}

int sym_data_type(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		  uint64_t addr, struct sym_data_info *out)
{
	struct sym_file *f = NULL;
	uint64_t vaddr;
	const char *reason;
	int rc;

	(void)addr;  /* the answer depends on the instruction only, so it is cached per ip */
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!s || (code_map && !code_map->filename))
		return -EINVAL;
	rc = sym_locate(s, code_map, ip, &f, &vaddr, &reason);
	if (rc) {
		out->reason = reason;
		return rc;
	}
	return type_vaddr(s, f, vaddr, out);
}

/* --- the access some instructions before the sample ------------------------------------------ */

#define BACK_MAX 15            /* the soft backend's count saturates here: "15 or more" */
#define FUNC_BYTES_MAX (1u << 20)

/* The function holding ELF @vaddr of @t as [lo, hi): its ELF function symbol, else its DWARF
 * range. 0, else -ENOENT. */
static int func_range(struct type_file *t, uint64_t vaddr, uint64_t *lo, uint64_t *hi)
{
	struct sym_file *f = t->f;
	struct scopes *sc;
	Dwarf_Addr pc, cubias, dlo, dhi;
	const char *why;
	GElf_Off off;
	GElf_Sym sym;
	int rc = -ENOENT;

	if (f->mod && dwfl_module_addrinfo(f->mod, vaddr + f->bias, &off, &sym, NULL, NULL, NULL) &&
	    (GELF_ST_TYPE(sym.st_info) == STT_FUNC || GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) &&
	    off < sym.st_size) {
		*lo = vaddr - off;
		*hi = *lo + sym.st_size;
		return 0;
	}
	sc = xmalloc(sizeof(*sc));
	if (scopes_at(t, vaddr, sc, &pc, &cubias, &why) == 0 && func_start(sc, pc, &dlo, &dhi) == 0) {
		*lo = dlo + cubias - f->bias;
		*hi = dhi + cubias - f->bias;
		rc = 0;
	}
	free(sc);
	return rc;
}

/* The instruction boundaries of the function of @t holding @vaddr, decoded once: the cached
 * entry, else NULL with *why. */
static const struct fn_insns *fn_insns(struct sym_session *s, struct type_file *t,
				       uint64_t vaddr, const char **why)
{
	size_t i = 0, j = t->nr_fi;
	struct fn_insns *fi;
	uint64_t lo, hi, a;
	uint8_t *buf;
	const uint8_t *p;
	size_t n;
	csh *cs;
	cs_insn *in;

	while (i < j) {  /* the first function starting past @vaddr */
		size_t mid = i + (j - i) / 2;
		if (t->fi[mid].lo <= vaddr)
			i = mid + 1;
		else
			j = mid;
	}
	if (i && vaddr < t->fi[i - 1].hi)
		return &t->fi[i - 1];
	if (!(cs = disasm(s->type, file_machine(t)))) {
		*why = "unsupported architecture";
		return NULL;
	}
	if (func_range(t, vaddr, &lo, &hi) || hi - lo > FUNC_BYTES_MAX) {
		*why = "no function (symbol or debug info) holds this address";
		return NULL;
	}
	for (i = 0, j = t->nr_fi; i < j;) {  /* the first function starting at or past lo */
		size_t mid = i + (j - i) / 2;
		if (t->fi[mid].lo < lo)
			i = mid + 1;
		else
			j = mid;
	}
	for (j = i; j < t->nr_fi && t->fi[j].lo == lo; j++)
		if (t->fi[j].hi == hi)
			return &t->fi[j];  /* overlapping symbols: found under another address */
	buf = xmalloc(hi - lo);
	n = code_bytes(t->f, lo, buf, hi - lo);
	if (!(in = c2c_cs_malloc(*cs))) {
		free(buf);
		*why = "out of memory in the disassembler";
		return NULL;
	}
	t->fi = xgrow(t->fi, &t->cap_fi, t->nr_fi + 1, sizeof(*t->fi));
	memmove(&t->fi[i + 1], &t->fi[i], (t->nr_fi++ - i) * sizeof(*t->fi));
	fi = &t->fi[i];
	memset(fi, 0, sizeof(*fi));
	fi->lo = lo;
	fi->hi = hi;
	p = buf;
	a = lo;
	while (n && a < hi) {
		uint64_t at = a;
		if (!c2c_cs_disasm_iter(*cs, &p, &n, &a, in))
			break;
		fi->off = xgrow(fi->off, &fi->cap, fi->nr + 1, sizeof(*fi->off));
		fi->off[fi->nr++] = (uint32_t)(at - lo);
	}
	fi->end = a;
	c2c_cs_free(in, 1);
	free(buf);
	return fi;
}

/* The ELF address of the instruction @back before @vaddr in its function: 0, or -ENOENT with
 * *why. */
static int insn_back(struct sym_session *s, struct type_file *t, uint64_t vaddr,
		     unsigned int back, uint64_t *at, const char **why)
{
	const struct fn_insns *fi = fn_insns(s, t, vaddr, why);
	size_t i = 0, j;
	uint32_t off;

	if (!fi)
		return -ENOENT;
	off = (uint32_t)(vaddr - fi->lo);
	j = fi->nr;
	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (fi->off[mid] < off)
			i = mid + 1;
		else
			j = mid;
	}
	if (i == fi->nr || fi->off[i] != off) {
		*why = vaddr >= fi->end ? "the function does not decode up to this address" :
					  "not an instruction boundary of its function";
		return -ENOENT;
	}
	if (back > i) {
		*why = "the access would be before the start of the function";
		return -ENOENT;
	}
	*at = fi->lo + fi->off[i - back];
	return 0;
}

int sym_data_type_back(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		       unsigned int back, uint64_t addr, struct sym_data_info *out)
{
	struct sym_file *f = NULL;
	uint64_t vaddr, at;
	const char *why;
	int rc;

	if (!back)
		return sym_data_type(s, code_map, ip, addr, out);
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!s || (code_map && !code_map->filename))
		return -EINVAL;
	rc = sym_locate(s, code_map, ip, &f, &vaddr, &why);
	if (rc) {
		out->reason = why;
		return rc;
	}
	if (back >= BACK_MAX) {
		out->reason = unknown(s, "the access is 15 or more instructions before the sample");
		return -ENOENT;
	}
	if (insn_back(s, type_file(s, f), vaddr, back, &at, &why)) {
		out->reason = unknown(s, why);
		return -ENOENT;
	}
	return type_vaddr(s, f, at, out);
}

int sym_insn_back(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		  unsigned int back, uint64_t *at)
{
	struct sym_file *f = NULL;
	uint64_t vaddr, a;
	const char *why;

	if (!s || !code_map || !code_map->filename || !at)
		return -EINVAL;
	if (back >= BACK_MAX || sym_locate(s, code_map, ip, &f, &vaddr, &why) ||
	    insn_back(s, type_file(s, f), vaddr, back, &a, &why))
		return -ENOENT;
	*at = ip - vaddr + a;
	return 0;
}

/* --- the size of an access ----------------------------------------------------------------- */

/* Bytes an AArch64 load or store moves, from its opcode and its first register. */
static uint32_t a64_size(csh cs, const cs_insn *in)
{
	const cs_arm64 *a = &in->detail->arm64;
	const char *r;

	switch (in->id) {
	case ARM64_INS_LDRB: case ARM64_INS_STRB: case ARM64_INS_LDRSB: case ARM64_INS_LDURB:
	case ARM64_INS_STURB: case ARM64_INS_LDURSB: case ARM64_INS_LDARB: case ARM64_INS_STLRB:
	case ARM64_INS_LDXRB: case ARM64_INS_STXRB: case ARM64_INS_LDAXRB: case ARM64_INS_STLXRB:
		return 1;
	case ARM64_INS_LDRH: case ARM64_INS_STRH: case ARM64_INS_LDRSH: case ARM64_INS_LDURH:
	case ARM64_INS_STURH: case ARM64_INS_LDURSH: case ARM64_INS_LDARH: case ARM64_INS_STLRH:
	case ARM64_INS_LDXRH: case ARM64_INS_STXRH: case ARM64_INS_LDAXRH: case ARM64_INS_STLXRH:
		return 2;
	case ARM64_INS_LDRSW: case ARM64_INS_LDURSW:
		return 4;
	default:
		break;
	}
	if (!a->op_count || a->operands[0].type != ARM64_OP_REG)
		return 0;
	r = c2c_cs_reg_name(cs, a->operands[0].reg);
	if (!r)
		return 0;
	switch (r[0]) {
	case 'w': case 's': return (in->id == ARM64_INS_LDP || in->id == ARM64_INS_STP) ? 8 : 4;
	case 'x': case 'd': return (in->id == ARM64_INS_LDP || in->id == ARM64_INS_STP) ? 16 : 8;
	case 'q': return 16;
	case 'h': return 2;
	case 'b': return 1;
	}
	return 0;
}

int sym_access_size(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		    unsigned int back, uint32_t *size)
{
	struct sym_file *f = NULL;
	struct type_file *t;
	uint64_t vaddr, at;
	const char *why;
	uint8_t buf[16];
	const uint8_t *p = buf;
	size_t n;
	cs_insn *in;
	csh *cs;
	int rc = -ENOENT;

	*size = 0;
	if (!s || !code_map || !code_map->filename || back >= BACK_MAX)
		return -EINVAL;
	if (sym_locate(s, code_map, ip, &f, &vaddr, &why))
		return -ENOENT;
	t = type_file(s, f);
	at = vaddr;
	if (back && insn_back(s, t, vaddr, back, &at, &why))
		return -ENOENT;
	cs = disasm(s->type, file_machine(t));
	n = cs ? code_bytes(f, at, buf, sizeof(buf)) : 0;
	if (!n || !(in = c2c_cs_malloc(*cs)))
		return -ENOENT;
	if (c2c_cs_disasm_iter(*cs, &p, &n, &at, in)) {
		if (file_machine(t) == EM_X86_64) {
			const cs_x86 *x = &in->detail->x86;

			/* an AVX-512 write-masked access ("vmovdqu8 %zmm16,(%rax){%k1}", memset's
			 * tail) touches the bytes its mask register selects, which no sample
			 * carries: its size is unknown, not the operand's */
			const char *k = strstr(in->op_str, "{%k") ? strstr(in->op_str, "{%k") + 3
					: strstr(in->op_str, "{k") ? strstr(in->op_str, "{k") + 2 : NULL;

			for (int i = 0; !(k && *k != '0') && i < x->op_count; i++)
				if (x->operands[i].type == X86_OP_MEM && in->id != X86_INS_LEA &&
				    in->id != X86_INS_NOP) {
					*size = x->operands[i].size;
					break;
				}
		} else {
			*size = a64_size(*cs, in);
		}
		rc = *size ? 0 : -ENOENT;
	}
	c2c_cs_free(in, 1);
	return rc;
}
