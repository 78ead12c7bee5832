/* x86-64 user registers as perf_event_open samples them (PERF_SAMPLE_REGS_USER).
 *
 * The index of a register is its bit in perf_event_attr.sample_regs_user and its place in the
 * sample: the kernel writes the registers whose bits are set, lowest bit first, after a u64 ABI
 * word. The order is the kernel's enum perf_event_x86_regs (arch/x86/include/uapi/asm/
 * perf_regs.h); it is repeated here so that record/ builds on any host architecture. */
#ifndef C2C_RECORD_REGS_X86_H
#define C2C_RECORD_REGS_X86_H

enum regs_x86 {
	REGS_X86_AX,
	REGS_X86_BX,
	REGS_X86_CX,
	REGS_X86_DX,
	REGS_X86_SI,
	REGS_X86_DI,
	REGS_X86_BP,
	REGS_X86_SP,
	REGS_X86_IP,
	REGS_X86_FLAGS,
	REGS_X86_CS,
	REGS_X86_SS,
	REGS_X86_DS,
	REGS_X86_ES,
	REGS_X86_FS,
	REGS_X86_GS,
	REGS_X86_R8,
	REGS_X86_R9,
	REGS_X86_R10,
	REGS_X86_R11,
	REGS_X86_R12,
	REGS_X86_R13,
	REGS_X86_R14,
	REGS_X86_R15,
	REGS_X86_64_MAX,
};

/* The sample_regs_user mask the soft backend asks for: the 16 general-purpose registers and IP.
 * A 64-bit kernel rejects the DS, ES, FS and GS bits (perf_reg_validate() returns -EINVAL), and
 * the soft decoder needs neither FLAGS nor the segment selectors. */
#define REGS_X86_GPR_MASK  ((1ULL << REGS_X86_AX) | (1ULL << REGS_X86_BX) | (1ULL << REGS_X86_CX) | \
			    (1ULL << REGS_X86_DX) | (1ULL << REGS_X86_SI) | (1ULL << REGS_X86_DI) | \
			    (1ULL << REGS_X86_BP) | (1ULL << REGS_X86_SP) | (1ULL << REGS_X86_IP) | \
			    (0xffULL << REGS_X86_R8))
#define REGS_X86_SOFT_MASK REGS_X86_GPR_MASK

#endif
