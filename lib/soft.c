/* Names and unpacking of the soft backend's per-sample detail word (include/c2c/soft.h). */
#include "c2c/soft.h"

enum softdec_reason softdec_detail_reason(uint16_t detail)
{
	return (enum softdec_reason)(detail & 0x1f);
}

enum softdec_kind softdec_detail_kind(uint16_t detail)
{
	return (enum softdec_kind)((detail >> 5) & 0x7);
}

unsigned int softdec_detail_back(uint16_t detail)
{
	return detail >> 12;
}

static const char *const reason_names[SOFTDEC_REASON__MAX] = {
	[SOFTDEC_ADDR] = "address from registers",
	[SOFTDEC_ADDR_RIP] = "rip-relative address",
	[SOFTDEC_NO_MEM] = "no memory operand",
	[SOFTDEC_STACK] = "stack push/pop/call/ret",
	[SOFTDEC_TLS] = "thread-local (fs/gs)",
	[SOFTDEC_CLOBBERED] = "base/index register overwritten",
	[SOFTDEC_VSIB] = "vector gather/scatter",
	[SOFTDEC_NO_REGS] = "register not sampled",
	[SOFTDEC_OUTSIDE] = "ip outside the function",
	[SOFTDEC_MISALIGNED] = "ip not on an instruction boundary",
	[SOFTDEC_DECODE_FAILED] = "cannot decode the function",
	[SOFTDEC_ADDR_INFERRED] = "offset from operand size and displacement",
	[SOFTDEC_ADDR_WORD] = "start of the watched word",
};

static const char *const kind_names[SOFTDEC_KIND__MAX] = {
	[SOFTDEC_KIND_NONE] = "none",
	[SOFTDEC_LOAD] = "load",
	[SOFTDEC_STORE] = "store",
	[SOFTDEC_ATOMIC] = "atomic",
	[SOFTDEC_PREFETCH] = "prefetch",
};

const char *softdec_reason_name(enum softdec_reason reason)
{
	return (unsigned)reason < SOFTDEC_REASON__MAX ? reason_names[reason] : "?";
}

const char *softdec_kind_name(enum softdec_kind kind)
{
	return (unsigned)kind < SOFTDEC_KIND__MAX ? kind_names[kind] : "?";
}

int softdec_has_addr(enum softdec_reason reason)
{
	return reason == SOFTDEC_ADDR || reason == SOFTDEC_ADDR_RIP ||
	       reason == SOFTDEC_ADDR_INFERRED || reason == SOFTDEC_ADDR_WORD;
}
