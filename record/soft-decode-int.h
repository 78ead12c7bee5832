/* The soft decoder's private structs, shared by its files (record/soft-decode*.c); callers
 * include record/soft-decode.h. */
#ifndef C2C_RECORD_SOFT_DECODE_INT_H
#define C2C_RECORD_SOFT_DECODE_INT_H

#include "c2c/capstone.h"
#include <linux/perf_event.h>

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
				  * read-modify-write (sdec_split_rmw()) */
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

/* The arithmetic flags a cmp or test leaves, from the sampled registers. */
struct xflags {
	int cf, zf, sf, of, pf;
};

/* --- shared between the files ------------------------------------------------------------- */

/* What one file defines for the others (their comments are at the definitions). */
/* soft-decode.c */
void sdec_drop_info(struct fbounds *fb);
/* soft-decode-insn.c */
enum softdec_reason sdec_locate(struct softdec *sd, const struct softdec_func *fn, uint64_t ip,
				long *idx);
int sdec_is_stack_write(unsigned int id);
int sdec_no_fallthrough(unsigned int id);
int sdec_is_atomic_op(unsigned int id);
uint8_t sdec_mem_access(const cs_insn *in, int i);
int sdec_pick_mem_operand(const cs_insn *in);
uint64_t sdec_written_regs(csh cs, const cs_insn *in);
int sdec_reg_value(const struct softdec_regs *regs, int idx, uint64_t *val);
int sdec_plain_reg(x86_reg r);
const struct iinfo *sdec_info_at(struct softdec *sd, const struct softdec_func *fn, long idx);
void sdec_fill_insn(struct softdec_access *out, const struct iinfo *ii, uint64_t insn_addr);
void sdec_describe(const struct iinfo *ii, uint64_t insn_addr, uint64_t clobber,
		   const struct softdec_regs *regs, int with_text, struct softdec_access *out);
uint64_t sdec_insn_address(const struct softdec *sd, const struct softdec_func *fn, long idx);
/* soft-decode-rmw.c */
void sdec_split_rmw(struct softdec *sd, const struct softdec_func *fn, long idx,
		    struct softdec_access *out);
/* soft-decode-path.c */
int sdec_eval_test(const struct iinfo *t, const struct softdec_regs *regs, struct xflags *f);
int sdec_jcc_taken(unsigned int id, const struct xflags *f);
int sdec_edge_possible(struct softdec *sd, const struct softdec_func *fn, const struct edge *e,
		       uint64_t w, const struct softdec_regs *regs);
int sdec_fell_through(struct softdec *sd, const struct softdec_func *fn, long t, uint64_t w,
		      const struct softdec_regs *regs);
int sdec_blame_trap(struct softdec *sd, const struct softdec_func *fn, long idx,
		    const struct softdec_regs *regs, struct softdec_access *out);

#endif
