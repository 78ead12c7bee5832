/* DWARF unwinding of a sampled user stack (perf record --call-graph dwarf, record --call-graph
 * dwarf): the registers and a copy of the stack at the sample are walked with the call-frame
 * information of the mapped ELF files (libdwfl's dwfl_getthread_frames()), giving the return
 * addresses a frame-pointer walk cannot find in code built without frame pointers.
 *
 * The caller says where each address is mapped (a callback, from its own maps model or from
 * /proc); the unwinder keeps one libdwfl session per process, with the files reported as the
 * walk meets them, and starts a process afresh when a file is no longer where it was reported.
 * x86-64 only: registers in perf's order (PERF_REG_X86_*), the values of the bits of @mask.
 * Not thread-safe. */
#ifndef C2C_UNWIND_H
#define C2C_UNWIND_H

#include <stddef.h>
#include <stdint.h>

/* perf's x86-64 user registers (arch/x86/include/uapi/asm/perf_regs.h) */
enum {
	C2C_REG_X86_AX = 0, C2C_REG_X86_BX, C2C_REG_X86_CX, C2C_REG_X86_DX, C2C_REG_X86_SI,
	C2C_REG_X86_DI, C2C_REG_X86_BP, C2C_REG_X86_SP, C2C_REG_X86_IP, C2C_REG_X86_FLAGS,
	C2C_REG_X86_CS, C2C_REG_X86_SS, C2C_REG_X86_DS, C2C_REG_X86_ES, C2C_REG_X86_FS,
	C2C_REG_X86_GS, C2C_REG_X86_R8, C2C_REG_X86_R15 = C2C_REG_X86_R8 + 7,
};
/* The registers a DWARF unwind uses: the general ones, SP and IP (perf's mask without the
 * segment registers and flags). */
#define C2C_UNWIND_REGS_X86_64 \
	(((1ull << 9) - 1) | (((1ull << 8) - 1) << C2C_REG_X86_R8))
/* Bytes of stack copied per sample by default (perf's --call-graph dwarf), and at most. */
#define C2C_UNWIND_STACK_DEFAULT 8192
#define C2C_UNWIND_STACK_MAX     65528

struct c2c_unwind_map {
	const char *path;             /* the mapped file, as mapped */
	uint64_t start, end, pgoff;
};

/* Where @addr of process @pid is mapped: 0 and *out filled, or non-zero (not in a file). */
typedef int (*c2c_unwind_find_fn)(void *ctx, uint32_t pid, uint64_t addr,
				  struct c2c_unwind_map *out);

struct c2c_unwind;

struct c2c_unwind *c2c_unwind_new(c2c_unwind_find_fn find, void *ctx);
void c2c_unwind_free(struct c2c_unwind *u);

/* Unwind one sample of @pid: registers @regs (the values of @mask's bits, in bit order), the
 * stack copy @stack of @size bytes taken at regs[SP]. Writes at most @max addresses to @out,
 * callee first: the sampled ip, then each caller's return address minus one (the call
 * instruction, as perf gives them). Returns how many (0 when nothing could be walked). */
uint32_t c2c_unwind_x86_64(struct c2c_unwind *u, uint32_t pid, const uint64_t *regs,
			   uint64_t mask, const uint8_t *stack, uint64_t size, uint64_t *out,
			   uint32_t max);

struct trace_sample;
/* A sample's whole chain, as perf joins them for --call-graph dwarf: the kernel part recorded
 * in @s->chain (everything before its user marker), the user marker, then the frames unwound
 * from @s's user registers and stack. Writes @out (room for TRACE_CHAIN_MAX); returns its
 * length, 0 when @s has no user registers and stack. */
uint32_t c2c_unwind_sample(struct c2c_unwind *u, const struct trace_sample *s, uint64_t *out);

/* Forget what was reported for @pid (it exec'd or exited). */
void c2c_unwind_forget(struct c2c_unwind *u, uint32_t pid);

#endif
