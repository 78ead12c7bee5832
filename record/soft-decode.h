/* Soft backend decoder: from a cpu-clock sample (user IP and user registers) and the bytes of the
 * function around the IP, find the memory access the thread was most likely stalled on and the
 * data address it used. Pure: bytes and registers in, one struct softdec_access out; no I/O.
 * Capstone (detail mode) does the x86-64 decoding.
 *
 * WHICH INSTRUCTION. A cpu-clock sample is a timer interrupt. Interrupts are taken on an
 * instruction boundary, after the oldest instruction in flight retires, so the sampled IP is the
 * instruction that would execute next. The instruction that held retirement (a load missing the
 * cache, a store or atomic waiting for the line) retired just before, often together with the
 * few cheap instructions that depended on it: on this project's x86-64 test machine, the spin
 * loop `mov ring.tail(%rip),%rsi; mov %rax,%rcx; sub %rsi,%rcx; cmp $0x400,%rcx; je` is sampled
 * at the je, four instructions after the load. x86 cannot be decoded backwards, so the decoder
 * disassembles the function forward from its start to find instruction boundaries and the
 * targets of direct branches, then applies this rule:
 *   1. Walk back from the IP: first the instruction that ends exactly at the IP, then the one
 *      before it, up to max_back instructions (default SOFTDEC_MAX_BACK_DEFAULT). Stop before
 *      an instruction that cannot fall through (jmp, ret, call: after those the instruction that
 *      retired last was elsewhere). At a direct branch target (a loop head, the join after an
 *      if/else: the IP itself or one further up) control may have arrived from elsewhere: the
 *      walk goes straight on only when the sampled registers prove control fell through (the
 *      exact case): every branch to it is a conditional jump right after a cmp or test of
 *      registers that nothing wrote since, or an unconditional jump ending a block entered
 *      only by such a conditional jump, and under the sampled values each of those conditions
 *      is false (valkey's `if (i < MAX) used[i] -= n; else atomic_sub(...)`: the else branch
 *      is entered only when i > MAX). Otherwise the instruction that retired last is the one
 *      before the target or a branch to it, and nothing says which: rule 1b.
 *   2. The first instruction on that walk that accesses memory (an explicit memory operand, or
 *      push/pop/...) is blamed; softdec_access.back says how many instructions before the IP it
 *      is. Its registers are those after it and every walked-over instruction executed: if any of
 *      them wrote its base or index register (`mov (%rax),%rax`, `movsb`, `mov %rax,%rcx` after a
 *      load through %rcx), the address is lost (SOFTDEC_CLOBBERED).
 *   3. Otherwise, if the IP's own instruction accesses memory, it is blamed (SOFTDEC_F_AT_IP,
 *      back 0). Its registers are those before it executes, so its address is always recoverable.
 *   4. Otherwise there is no access: reason SOFTDEC_NO_MEM, reported on the instruction before
 *      the IP (the IP's own when there is none, or when the IP is a branch target).
 *   1b. PREDECESSORS. Where the walk meets a branch target that the registers do not prove
 *   was entered by falling through, it does not stop: every instruction that can have retired
 *   just before it is a candidate, the instruction before it (when it falls through) and every
 *   direct jump in the function to it (those the registers prove not taken left out), and the
 *   walk goes on back from each, as above, up to max_back instructions along each path (the
 *   registers written along a path clobber its access). An access in straight-line code
 *   entered only by falling through a conditional jump that the registers prove was taken is
 *   left out too. When the IP is inside a loop, candidates outside it are dropped: code before
 *   a loop runs once per entry, the loop once per iteration (a loop: the address span of a
 *   backward jump, spans that overlap it joined). When the access found is the same on every path, or all paths but
 *   one find none, it is charged (SOFTDEC_ACC_VIA_JUMP when its path went through a jump: back
 *   is then 15). When different accesses remain, the sample is INFERRED
 *   (SOFTDEC_ACC_INFERRED): the first is charged (the straight-line one when there is one,
 *   else the lowest address) and the others are listed in softdec_access.alt[] with their
 *   addresses, for the report to share the sample among them by what the thread was seen
 *   doing exactly (report/aggregate/estimate.h). A path of max_back instructions without an
 *   access counts as one without (as the straight line does, rule 4), but the sample charged
 *   beside it is INFERRED too (its thread may have come that way). More than
 *   1 + SOFTDEC_ALT_MAX different accesses, or a search too wide: nothing is blamed, as
 *   before.
 * softdec_set_max_back(sd, 1) gives the plain "instruction before the IP" rule. With
 * softdec_set_trap(sd, 1) it is the rule for hardware watchpoint hits: the debug trap is taken
 * right after the accessing instruction, so the instruction ending at the trap IP is the access
 * even at a branch target (an access by a jump, call or ret itself is the exception: its trap
 * IP is its target), and its kind tells a read-write watchpoint's loads from its stores.
 *
 * WHAT IS AN ACCESS. lea and nop have a memory operand but touch no memory (SOFTDEC_NO_MEM).
 * lock-prefixed instructions, xchg with memory, cmpxchg, cmpxchg8b/16b and xadd are atomic
 * read-modify-writes. Other instructions are stores when they write their memory operand
 * (a plain `addl $1,(%rax)` is a store with SOFTDEC_F_RMW) and loads when they only read it.
 * A load whose bytes the code stores back before any branch (the same size, at an address from
 * registers unchanged or recomputed alike) is the read of a read-modify-write split over several
 * instructions, and so a store with SOFTDEC_F_RMW too, except in trap mode: gcc writes a double's
 * `sum[id] += x` as `addsd (%rsi,%rcx,8),%xmm1; movsd %xmm1,(%rsi,%rcx,8)`, and any `x += y` at
 * -O0 as a load, arithmetic and a store through reloaded registers. Timer samples land after
 * such a load far more often than after its store (on a Zen 5 guest, after the store of OpenMP
 * pi's sum in 0-4 of 1700-2900 samples): the load is what shows that the thread writes.
 * Capstone 4 marks the memory destination of many SSE/AVX moves as read (`vmovdqa %ymm0,(%rdx)`,
 * the loops of memset and memcpy): a memory operand last in AT&T order of a move, extract,
 * down-convert or compress instruction is taken as written.
 * push, pop, call, ret, enter, leave, pushf and popf are stack accesses (SOFTDEC_STACK; a push or
 * call through an explicit memory operand is judged by that operand). fs/gs-relative operands are
 * thread-local (SOFTDEC_TLS); VSIB gathers/scatters have one address per lane (SOFTDEC_VSIB).
 *
 * Thread safety: a struct softdec is used by one thread at a time. */
#ifndef C2C_RECORD_SOFT_DECODE_H
#define C2C_RECORD_SOFT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/soft.h"
#include "c2c/trace.h"
#include "record/regs-x86.h"



enum softdec_flags {
	SOFTDEC_F_AT_IP = 1 << 0,      /* the access is the IP's own instruction (rule 3) */
	SOFTDEC_F_RMW = 1 << 1,        /* a non-atomic read-modify-write, classified as a store */
	SOFTDEC_F_STACK_BASE = 1 << 2, /* the address is %rsp-based: most likely a local variable */
	SOFTDEC_F_ADDR32 = 1 << 3,     /* 32-bit address size (0x67 prefix): address truncated */
};

/* The sampled user registers, indexed by enum regs_x86; only registers in @mask are valid. */
struct softdec_regs {
	uint64_t mask;
	uint64_t val[REGS_X86_64_MAX];
};

/* The code of the function holding the IP: @len bytes at virtual address @start. */
struct softdec_func {
	const uint8_t *code;
	size_t len;
	uint64_t start;
};

#define SOFTDEC_TEXT_MAX 96

/* One decoded sample. */
struct softdec_access {
	uint64_t addr;           /* data address; valid when reason is SOFTDEC_ADDR or _ADDR_RIP */
	uint64_t insn_addr;      /* address of the chosen instruction (0 when none was decoded) */
	uint32_t size;           /* bytes of the memory operand, 0 when unknown or no access */
	int64_t disp;            /* its displacement (explicit memory operands) */
	uint8_t insn_len;
	uint8_t back;            /* its place before the IP: 0 the IP's own, 1 the one ending at
				  * the IP, 2 the one before that... */
	enum softdec_kind kind;
	enum softdec_reason reason;
	uint32_t flags;          /* enum softdec_flags */
	char text[SOFTDEC_TEXT_MAX]; /* "movq (%rax), %rax" (AT&T), empty when none was decoded */
	uint32_t acc_flags;      /* enum softdec_acc_flags (include/c2c/soft.h) */
	/* SOFTDEC_ACC_INFERRED: the other candidate accesses (the chosen one is the fields above) */
	uint8_t nr_alt;
	struct softdec_alt {
		uint64_t insn_addr, addr;   /* addr valid when reason carries one */
		enum softdec_kind kind;
		enum softdec_reason reason;
		uint32_t flags;             /* enum softdec_flags */
		uint8_t back;               /* 15 when reached through a jump */
	} alt[SOFTDEC_ALT_MAX];
};

struct softdec;

/* Open a decoder (a capstone handle plus a cache of the instruction boundaries and analyses of
 * the last functions seen). -ENOTSUP when capstone cannot open an x86-64 handle. */
int softdec_new(struct softdec **out);
/* NULL is a no-op. */
void softdec_free(struct softdec *sd);

/* Decode the sample at @ip. Returns 0 and fills *out, whose reason says whether an address was
 * found; -EINVAL when an argument is NULL. The decoder caches the boundaries of the last
 * functions (keyed by code pointer, start and length): call softdec_forget() if the bytes behind
 * the same pointer change. */
int softdec_decode(struct softdec *sd, const struct softdec_func *fn, uint64_t ip,
		   const struct softdec_regs *regs, struct softdec_access *out);
void softdec_forget(struct softdec *sd);
/* The length of the VEX or EVEX encoded instruction at @p (@left bytes there), 0 when @p does
 * not start one. The decoder steps over those capstone cannot decode with it. */
size_t softdec_vex_len(const uint8_t *p, size_t left);

#define SOFTDEC_MAX_BACK_DEFAULT 8
#define SOFTDEC_MAX_BACK_LIMIT 15
/* How many instructions before the IP rule 1 may walk: 1..SOFTDEC_MAX_BACK_LIMIT (clamped). */
void softdec_set_max_back(struct softdec *sd, unsigned int n);
/* Trap mode (watchpoints): the sample was taken right after the access, so the instruction
 * ending at the IP is blamed even when the IP is a branch target. Off by default. */
void softdec_set_trap(struct softdec *sd, int on);

/* Fill @regs from a PERF_SAMPLE_REGS_USER block: @mask is attr.sample_regs_user, @vals the
 * @nr values that follow the ABI word. -EINVAL when @nr differs from the bits in @mask or the
 * mask has bits beyond the x86-64 registers. */
int softdec_regs_unpack(struct softdec_regs *regs, uint64_t mask, const uint64_t *vals, size_t nr);

/* The data_src of a soft sample: op LOAD (loads), STORE (stores and atomics: an atomic needs the
 * line exclusive, like a store) or PFETCH, lock LOCKED for atomics and NA otherwise, level, snoop
 * and TLB NA. SOFTDEC_KIND_NONE gives the kernel's "not available" value 0x05080021. */
uint64_t softdec_data_src(enum softdec_kind kind);

/* Fill the soft-backend fields of @s from @acc: addr (with TRACE_SAMPLE_HAS_ADDR when the
 * reason carries one), data_src (softdec_data_src(), TRACE_SAMPLE_HAS_DSRC), detail, and the
 * access instruction: access_ip (when an access was found: kind not NONE), access_flags and
 * alt[]. @s->ip must already be the sampled IP. The
 * caller fills time, ip, pid/tid, cpu, cpumode and weight (the sampling period's time share). */
void softdec_fill_sample(struct trace_sample *s, const struct softdec_access *acc);

/* trace_sample.detail of a soft sample: bits 0-4 the reason, 5-7 the kind, 8-11 the flags,
 * 12-15 back (capped at 15; 15 when reached through a jump). */
uint16_t softdec_detail(const struct softdec_access *acc);

/* Short names for reports ("base/index register overwritten", "load"); "?" when out of range. */
/* True when the reason carries an address. */

#endif
