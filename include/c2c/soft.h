/* The soft backend's per-sample encoding, shared by record (which writes it) and report (which
 * reads it). A soft sample (TRACE_BACKEND_SOFT) is a cpu-clock sample whose data access was
 * recovered by decoding the instruction the thread was stalled on (record/soft-decode.h). Its
 * trace_sample.data_src says load/store/atomic (op LOAD, STORE, or STORE with LOCK_LOCKED) with
 * every level "not available", and trace_sample.detail packs:
 *   bits 0-4   enum softdec_reason (why the address is or is not known)
 *   bits 5-7   enum softdec_kind
 *   bits 8-11  flags (record/soft-decode.h, enum softdec_flags)
 *   bits 12-15 how many instructions before the sampled IP the access was (15: 15 or more, or
 *              reached through a jump: SOFTDEC_ACC_VIA_JUMP)
 * From trace format 1.6 an ACCESS record before the sample gives the access instruction's
 * address (trace_sample.access_ip), the flags below, and for an inferred sample the other
 * candidate accesses (trace_sample.alt[], each with a detail word of this layout). */
#ifndef C2C_SOFT_H
#define C2C_SOFT_H

#include <stdint.h>

enum softdec_kind {
	SOFTDEC_KIND_NONE = 0,   /* no data access */
	SOFTDEC_LOAD,
	SOFTDEC_STORE,
	SOFTDEC_ATOMIC,          /* atomic read-modify-write */
	SOFTDEC_PREFETCH,
	SOFTDEC_KIND__MAX
};

/* Why softdec_access.addr is or is not valid. The SOFTDEC_ADDR* reasons carry one. The last two
 * are the watch backend's (record/backend-watch.h): a hit whose address the registers after the
 * trap cannot give is placed in the watched word by the instruction's operand. */
enum softdec_reason {
	SOFTDEC_ADDR = 0,        /* address computed from the sampled registers (or absolute) */
	SOFTDEC_ADDR_RIP,        /* address computed, RIP-relative: exact without registers */
	SOFTDEC_NO_MEM,          /* the chosen instruction has no data access */
	SOFTDEC_STACK,           /* push/pop/call/ret...: a stack access, usually not interesting */
	SOFTDEC_TLS,             /* fs/gs-relative: thread-local data, never shared */
	SOFTDEC_CLOBBERED,       /* it (or one walked over) wrote its base or index register */
	SOFTDEC_VSIB,            /* vector-indexed gather/scatter: one address per lane */
	SOFTDEC_NO_REGS,         /* a register the address needs was not sampled */
	SOFTDEC_OUTSIDE,         /* the IP is outside the function's bytes */
	SOFTDEC_MISALIGNED,      /* the IP is not on an instruction boundary of the function */
	SOFTDEC_DECODE_FAILED,   /* capstone cannot decode the bytes up to the IP */
	SOFTDEC_ADDR_INFERRED,   /* watch: base register overwritten; the offset in the watched
				  * word from the operand's size and displacement (an aligned base) */
	SOFTDEC_ADDR_WORD,       /* watch: no operand to go by; the start of the watched word */
	SOFTDEC_REASON__MAX
};

/* How the access instruction of a sample was chosen (trace_sample.access_flags). */
enum softdec_acc_flags {
	/* several instructions could have retired just before the IP (a branch target: the
	 * instruction before it and the jumps to it) and their walks found different accesses:
	 * the one given is a pick, trace_sample.alt[] holds the others. The report charges the
	 * sample among them (report/aggregate/estimate.h) and counts it as inferred. */
	SOFTDEC_ACC_INFERRED = 1 << 0,
	/* the access reached the IP through a direct jump: it is not the straight-line
	 * predecessor, and detail's back is 15 */
	SOFTDEC_ACC_VIA_JUMP = 1 << 1,
};
/* Candidates beside the chosen access that a sample records (trace_sample.alt[]). */
#define SOFTDEC_ALT_MAX 3

enum softdec_reason softdec_detail_reason(uint16_t detail);
enum softdec_kind softdec_detail_kind(uint16_t detail);
unsigned int softdec_detail_back(uint16_t detail);
const char *softdec_reason_name(enum softdec_reason reason);
const char *softdec_kind_name(enum softdec_kind kind);
/* True for the reasons that carry an address (SOFTDEC_ADDR, _ADDR_RIP, _ADDR_INFERRED,
 * _ADDR_WORD). */
int softdec_has_addr(enum softdec_reason reason);

#endif
