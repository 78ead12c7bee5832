/* What decoding an Arm SPE recording needs besides the AUX bytes, shared by record (which writes
 * it) and report (which reads it).
 *
 * perf keeps these facts in perf.data as the AUXTRACE_INFO record (the SPE PMU type), the CPUID
 * header feature (the MIDR that selects the data-source table) and the TIME_CONV record (the
 * perf_event_mmap_page clock parameters that turn SPE timestamps, generic-timer counts, into perf
 * time). c2c-lite record writes them once, before any AUX data, as a trace blob of kind
 * TRACE_BLOB_SPE_INFO holding text lines (docs/trace-format.md, section 6):
 *     c2c-spe-info 1
 *     pmu arm_spe_0
 *     pmu_type 8                 attr.type of the SPE events (AUXTRACE_INFO priv[0])
 *     per_cpu 1                  one AUX area per CPU (AUXTRACE_INFO priv[1])
 *     switch_events 1            context-switch records were requested (tid attribution when
 *                                the SPE records carry no CONTEXT packets)
 *     min_interval 1024          caps/min_interval; count_size, arch_inst, ernd likewise when
 *                                the kernel publishes them
 *     aux_bytes 4194304          size of each CPU's AUX area
 *     cpuid 0x00000000410fd0c0   perf's CPUID header on arm64: the MIDR of the first online CPU
 *                                (perf 6.1 decodes the data source of every CPU with it)
 *     midr 3 0x00000000410fd0c0  one line per CPU whose MIDR is known (CPU number, MIDR_EL1)
 *     time_shift 31, time_mult N, time_zero N, time_cycles N, time_mask N,
 *     cap_user_time_zero 1, cap_user_time_short 1   (one per line: TIME_CONV's fields)
 * Unknown keys are skipped, so later versions may add lines. Numbers are decimal or 0x-hex. */
#ifndef C2C_SPE_H
#define C2C_SPE_H

#include <stddef.h>
#include <stdint.h>

/* perf's struct perf_tsc_conversion (the TIME_CONV record). */
struct c2c_time_conv {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t cap_user_time_zero;   /* 0: the kernel gave no conversion; perf then writes no
				       * TIME_CONV record and converts with all fields zero */
	uint8_t cap_user_time_short;
};

struct c2c_spe_midr {
	uint32_t cpu;
	uint64_t midr;
};

struct c2c_spe_info {
	char pmu[64];
	uint32_t pmu_type;
	uint8_t per_cpu;
	uint8_t switch_events;
	uint64_t min_interval, count_size, arch_inst, ernd;   /* caps; UINT64_MAX: absent */
	uint64_t aux_bytes;
	uint64_t cpuid_midr;          /* 0: unknown */
	uint32_t nr_midr;
	struct c2c_spe_midr *midr;    /* sorted by cpu; owned (c2c_spe_info_release) */
	struct c2c_time_conv tc;
};

void c2c_spe_info_init(struct c2c_spe_info *in);
void c2c_spe_info_release(struct c2c_spe_info *in);
/* Set the MIDR of @cpu (kept sorted, replacing an earlier value). */
void c2c_spe_info_set_midr(struct c2c_spe_info *in, uint32_t cpu, uint64_t midr);
/* The MIDR of @cpu; 0 when unknown. */
uint64_t c2c_spe_info_midr(const struct c2c_spe_info *in, uint32_t cpu);

/* The text form into a new buffer (*out, caller frees; NUL-terminated); returns its length. */
size_t c2c_spe_info_format(const struct c2c_spe_info *in, char **out);
/* Parse a blob into @out (initialised here; release it). -EBADMSG when the first line is not
 * `c2c-spe-info 1`, a known key has a bad value, or a CPU number is at or above TRACE_CPU_MAX. */
int c2c_spe_info_parse(const void *buf, size_t len, struct c2c_spe_info *out);

/* perf's tsc_to_perf_time(): a generic-timer count (an SPE TIMESTAMP packet) to perf time in ns. */
uint64_t c2c_time_conv_to_ns(const struct c2c_time_conv *tc, uint64_t cyc);

#endif
