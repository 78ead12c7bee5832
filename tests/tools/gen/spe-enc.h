/* A test-only Arm SPE packet encoder (tests/tools/gen/spe-enc.c): turns c2c-gen's samples into the
 * SPE records a Neoverse or other Armv8.2 core writes into its AUX buffer, per CPU, for c2c-gen's
 * perf.data writer (trait "spe", tests/tools/gen/perf-writer.c). Every header form of the Arm ARM
 * D10 appears: short and extended (two-byte) address and counter headers, events and data source
 * payloads of 1 to 8 bytes, CONTEXT at EL1 and EL2, OP TYPE of every class, records ended by a
 * TIMESTAMP or by END, PAD bytes and alignment packets, branch records between the memory ones.
 * Options add what goes wrong in real data: invalid bytes between and inside records, and a last
 * buffer cut inside a packet. Nothing here is measured; the oracle is perf 6.1 decoding the file. */
#ifndef C2C_GEN_SPE_ENC_H
#define C2C_GEN_SPE_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"

/* trace_sample.detail of a sample meant for SPE (c2c-gen's SPE scenarios): the data source packet
 * value in bits 0-7, SPE_ENC_DS when it is set (else it is derived from data_src), and the events
 * the record carries besides the derived ones in bits 8-14 (SPE_ENC_EV_*) */
#define SPE_ENC_DS          0x8000
enum {
	SPE_ENC_EV_L1D = 1 << 8, SPE_ENC_EV_L1D_MISS = 1 << 9, SPE_ENC_EV_LLC = 1 << 10,
	SPE_ENC_EV_LLC_MISS = 1 << 11, SPE_ENC_EV_TLB = 1 << 12, SPE_ENC_EV_TLB_MISS = 1 << 13,
	SPE_ENC_EV_REMOTE = 1 << 14,
};

/* The Neoverse data source packet values (Neoverse N1/N2/V1 TRMs; perf's
 * arm_spe_neoverse_data_source), for SPE_ENC_DS details */
enum {
	SPE_ENC_NV_L1D = 0x0, SPE_ENC_NV_L2 = 0x8, SPE_ENC_NV_PEER_CORE = 0x9,
	SPE_ENC_NV_LOCAL_CLUSTER = 0xa, SPE_ENC_NV_SYS_CACHE = 0xb, SPE_ENC_NV_PEER_CLUSTER = 0xc,
	SPE_ENC_NV_REMOTE = 0xd, SPE_ENC_NV_DRAM = 0xe,
};

struct spe_enc_opts {
	uint64_t seed;
	int no_context;         /* no CONTEXT packets (a kernel without CONFIG_PID_IN_CONTEXTIDR) */
	int bad;                /* invalid bytes between and inside some records */
	int cut;                /* the last buffer of each CPU ends inside a packet */
	int neoverse;           /* data source values from the Neoverse table (else only events) */
};

struct spe_enc;

struct spe_enc *spe_enc_new(const struct spe_enc_opts *o, unsigned int nr_cpus);
void spe_enc_free(struct spe_enc *e);
/* One record for the sample's CPU, stamped @tsc (generic timer ticks). */
void spe_enc_sample(struct spe_enc *e, const struct trace_sample *s, uint64_t tsc);
/* A branch record (no load or store) on @cpu: perf synthesizes no memory sample from it. */
void spe_enc_branch(struct spe_enc *e, unsigned int cpu, uint64_t ip, uint64_t tsc);
/* The bytes of @cpu's records since the last call, laid out for a buffer whose first byte perf
 * reads at an address of @addr (mod 16: the file offset, or 0 for a pipe's copy): *out (valid
 * until the next call) and the length. A record may be left partly for the next buffer; @last
 * gives everything (and, with opts.cut, ends inside a packet). */
size_t spe_enc_take(struct spe_enc *e, unsigned int cpu, uint64_t addr, int last,
		    const uint8_t **out);

#endif
