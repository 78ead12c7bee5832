/* Data-type profiling's private structs and helpers, shared by its files (sym-type*.c).
 *
 * sym-type.c describes the whole and holds the entry points; the stages are sym-type-decode.c
 * (instructions), sym-type-vars.c (DWARF variables at a pc), sym-type-name.c (names of
 * accesses), sym-type-block.c (registers through a basic block) and sym-type-flow.c (the
 * dataflow over a function's blocks). Callers use report/resolve/symbols.h. */
#ifndef C2C_REPORT_SYM_TYPE_INT_H
#define C2C_REPORT_SYM_TYPE_INT_H

#include "c2c/capstone.h"
#include <dwarf.h>
#include <gelf.h>

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
	/* the register state symt_track_block() last reached (at last_at, in the function range
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

struct scopes {
	Dwarf_Die die[MAX_SCOPES];  /* outermost first */
	int n;
};

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
	int chains;           /* the function has variables located through memory (symt_chain_of()):
			       * 0 not looked at, 1 yes, -1 no */
};

/* Where a variable is: its value in register @reg, or, with @mem, in memory at [reg + disp];
 * a DW_OP_fbreg slot is at [fb_reg + fb_off + its offset] (fb_reg -1: not known). */
struct where {
	int reg;
	int mem;
	int64_t disp;
	int fb_reg;
	int64_t fb_off;
};

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

static inline unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

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

#define MULT_ZERO 0xffffffffu  /* the register holds 0, a multiple of everything */
#define MULT_MAX (1u << 24)

static inline uint32_t mgcd(uint32_t a, uint32_t b)
{
	if (a == MULT_ZERO)
		return b;
	if (b == MULT_ZERO)
		return a;
	return gcd(a, b);
}

static inline uint32_t mmul(uint32_t a, uint64_t b)
{
	uint64_t r;

	if (a == MULT_ZERO || !b)
		return MULT_ZERO;
	r = (uint64_t)a * b;
	return r < MULT_MAX ? (uint32_t)r : 0;
}

/* --- shared between the files ------------------------------------------------------------- */

/* What one file of data-type profiling defines for the others, named symt_* (their comments
 * are at the definitions). */
/* sym-type.c */
csh *symt_disasm(struct sym_type_ctx *c, int machine);
/* sym-type-decode.c */
int symt_file_machine(struct type_file *t);
size_t symt_code_bytes(struct sym_file *f, uint64_t vaddr, uint8_t *buf, size_t cap);
int symt_x86_dwreg(x86_reg r);
int symt_a64_dwreg(arm64_reg r);
int symt_decode(csh *cs, int machine, const uint8_t *buf, size_t n, uint64_t vaddr,
		cs_insn *in, struct mem_op *m, const char **why);
uint64_t symt_branch_target(const cs_insn *in, int machine);
int symt_ends_block(csh cs, const cs_insn *in, int machine);
int symt_is_call(csh cs, const cs_insn *in, int machine);
void symt_written(csh cs, const cs_insn *in, int machine, int *w);
int symt_move_of(const cs_insn *in, int machine, int *dst, int *base, int64_t *disp,
		 int *copy);
int symt_arith_of(const cs_insn *in, int machine, int *dst, int *base, int64_t *disp,
		  int *index, unsigned *scale);
int symt_writes_memory(const cs_insn *in, int machine);
int symt_falls_through(csh cs, const cs_insn *in, int machine);
/* sym-type-vars.c */
void symt_collect(Dwarf_Die *parent, Dwarf_Addr pc, struct scopes *sc, int depth);
int symt_find_nested(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int depth);
struct scopes *symt_pcs_at(struct pcscopes *ps, Dwarf_Addr pc);
int symt_pointee_from(Dwarf_Die *t, struct ptr *p);
int symt_object_of(struct sym_session *s, Dwarf_Die *v, const char *name, struct ptr *p);
int symt_slot_of(Dwarf_Die *v, Dwarf_Addr pc, int fb_reg, int64_t fb_off, int *reg,
		 int64_t *off);
int symt_pcs_frame(struct pcscopes *ps, Dwarf_Addr pc, int *reg, int64_t *off);
int symt_cfa_rel(struct pcscopes *ps, Dwarf_Addr pc, int reg, int64_t off, int64_t *c);
int symt_has_chains(Dwarf_Die *die, int depth);
int symt_chain_of(Dwarf_Die *fn, Dwarf_Die *v, Dwarf_Addr pc, struct chain *ch);
const char *symt_die_name(Dwarf_Die *d);
struct mem_op symt_effective(const struct ptr *p, const struct mem_op *m);
int symt_fit(const struct ptr *p, const struct mem_op *raw);
int symt_find_var(struct sym_session *s, struct scopes *sc, Dwarf_Addr pc,
		  const struct where *w, const struct mem_op *m, struct ptr *best);
int symt_find_ptr_var(struct sym_session *s, struct scopes *sc, Dwarf_Addr pc,
		      const struct mem_op *m, struct ptr *best);
int symt_func_start(struct scopes *sc, Dwarf_Addr pc, Dwarf_Addr *lo, Dwarf_Addr *hi);
/* sym-type-name.c */
void symt_compose(struct sym_buf *b, const struct ptr *p, const char *elem, const char *path);
int symt_place(const struct ptr *p, const struct mem_op *m, struct sym_buf *path, char *elem,
	       size_t cap, uint64_t *off, struct sym_elem *el);
int symt_describe(struct sym_session *s, const struct ptr *p, const struct mem_op *m,
		  struct sym_data_info *out);
/* sym-type-block.c */
int symt_local_ptr(struct sym_session *s, struct pcscopes *ps, Dwarf_Addr pc, int reg,
		   int64_t disp, struct ptr *p);
void symt_step(struct sym_session *s, struct type_file *t, struct pcscopes *ps,
	       struct regstate *st, csh cs, const cs_insn *in, Dwarf_Addr pc);
/* sym-type-flow.c */
int symt_track_block(struct sym_session *s, struct type_file *t, struct scopes *sc,
		     uint64_t vaddr, Dwarf_Addr pc, Dwarf_Addr cubias, cs_insn *in,
		     struct regstate *st);

#endif
