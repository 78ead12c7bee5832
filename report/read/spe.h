/* Arm SPE (Statistical Profiling Extension) decoding, as perf 6.1 does it
 * (tools/perf/util/arm-spe-decoder/, tools/perf/util/arm-spe.c; facts in pmu-events.md §6 and
 * c2c-semantics.md A.4).
 *
 * Three layers, each usable alone:
 *  - packets (spe-pkt.c): one packet from a byte buffer, or why not;
 *  - records (spe-rec.c): packets up to an END or TIMESTAMP packet make a record; the record's
 *    data_src word for a CPU (the Neoverse table or the generic fallback, by MIDR);
 *  - the session (spe.c): perf's auxtrace queues (one per AUX buffer index), the heap that orders
 *    them by SPE timestamp against the other records of the file, CONTEXT packets or context
 *    switches to pid/tid, TIME_CONV to perf time; it turns AUX buffers into memory samples
 *    (struct trace_sample) in the order perf delivers them.
 *
 * Pure code: no I/O. Bad bytes are skipped the way perf skips them (one byte at a time), counted
 * and reported once per buffer through the log hook with the file offset. Nothing is allocated
 * from a size read out of the data: buffers are borrowed from the caller or copied at the size the
 * caller already holds. */
#ifndef C2C_REPORT_SPE_H
#define C2C_REPORT_SPE_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"

/* ---- packets (spe-pkt.c) ------------------------------------------------------------------ */

enum spe_pkt_type {
	SPE_PKT_BAD,
	SPE_PKT_PAD,
	SPE_PKT_END,
	SPE_PKT_TIMESTAMP,
	SPE_PKT_ADDRESS,
	SPE_PKT_COUNTER,
	SPE_PKT_CONTEXT,
	SPE_PKT_OP_TYPE,
	SPE_PKT_EVENTS,
	SPE_PKT_DATA_SOURCE,
};

/* spe_pkt_get() failures */
#define SPE_PKT_NEED_MORE  (-1)   /* the buffer ends inside the packet */
#define SPE_PKT_INVALID    (-2)   /* no packet has this header */

/* Address packet index (header bits 2:0, or 4:0 with an extended header). */
enum { SPE_ADDR_PC = 0, SPE_ADDR_BRANCH = 1, SPE_ADDR_DATA_VA = 2, SPE_ADDR_DATA_PA = 3 };
/* Counter packet index */
enum { SPE_CNT_TOTAL = 0, SPE_CNT_ISSUE = 1, SPE_CNT_XLAT = 2 };
/* Operation type packet class (header bits 1:0) */
enum { SPE_OP_CLASS_OTHER = 0, SPE_OP_CLASS_LDST = 1, SPE_OP_CLASS_BRANCH = 2 };

/* Events packet bits (Arm ARM D10.2.6) */
enum {
	SPE_EV_EXCEPTION = 0, SPE_EV_RETIRED = 1, SPE_EV_L1D_ACCESS = 2, SPE_EV_L1D_REFILL = 3,
	SPE_EV_TLB_ACCESS = 4, SPE_EV_TLB_WALK = 5, SPE_EV_NOT_TAKEN = 6, SPE_EV_MISPRED = 7,
	SPE_EV_LLC_ACCESS = 8, SPE_EV_LLC_MISS = 9, SPE_EV_REMOTE_ACCESS = 10,
	SPE_EV_ALIGNMENT = 11, SPE_EV_PARTIAL_PRED = 17, SPE_EV_EMPTY_PRED = 18,
};

struct spe_pkt {
	enum spe_pkt_type type;
	uint8_t index;           /* address/counter index, op class, context EL, events size */
	uint8_t ext;             /* 1: extended (two-byte) header */
	uint64_t payload;
};

/* The packet at @buf (@len bytes): its length in bytes, or SPE_PKT_NEED_MORE / SPE_PKT_INVALID.
 * @addr is where buf[0] lies in perf's memory (only its low 4 bits matter): an alignment packet
 * pads to the next 2/4/8/16-byte boundary of the address perf reads the AUX data at (the file
 * offset in a file, the offset in its copy from a pipe). PAD packets take the zero bytes after
 * them, up to 16 bytes in all, as perf's arm_spe_get_packet() does. */
int spe_pkt_get(const uint8_t *buf, size_t len, uint64_t addr, struct spe_pkt *p);
/* The packet as perf report -D describes it (arm_spe_pkt_desc()); 0, or -1 when the description
 * does not fit in @len bytes (its raw form is written then, cut to fit). */
int spe_pkt_desc(const struct spe_pkt *p, char *buf, size_t len);

/* ---- records (spe-rec.c) ------------------------------------------------------------------ */

/* spe_record.op: every OP TYPE packet of the record OR-ed in, as perf 6.1.192 keeps it (its
 * enum arm_spe_op_type, backported to 6.1.157 from 6.4): a class bit, and second-level bits whose
 * meaning depends on the class. An SVE "other" operation sets the bit of a load
 * (ARM_SPE_OP_SVE_OTHER == ARM_SPE_OP_LD): perf 6.1.192 takes it for one. */
enum {
	SPE_OP_OTHER = 1 << 0, SPE_OP_LDST = 1 << 1, SPE_OP_BRANCH = 1 << 2,
	SPE_OP_LD = 1 << 16, SPE_OP_SVE_OTHER = 1 << 16, SPE_OP_ST = 1 << 17,
	SPE_OP_SVE_LDST = 1 << 25,
};
/* spe_record.type: the events perf 6.1 keeps (enum arm_spe_sample_type) */
enum {
	SPE_T_L1D_ACCESS = 1 << 0, SPE_T_L1D_MISS = 1 << 1, SPE_T_LLC_ACCESS = 1 << 2,
	SPE_T_LLC_MISS = 1 << 3, SPE_T_TLB_ACCESS = 1 << 4, SPE_T_TLB_MISS = 1 << 5,
	SPE_T_BRANCH_MISS = 1 << 6, SPE_T_REMOTE_ACCESS = 1 << 7, SPE_T_SVE_PARTIAL_PRED = 1 << 8,
	SPE_T_SVE_EMPTY_PRED = 1 << 9,
};
/* Neoverse data source packet values (arm_spe_neoverse_data_source) */
enum {
	SPE_NV_L1D = 0x0, SPE_NV_L2 = 0x8, SPE_NV_PEER_CORE = 0x9, SPE_NV_LOCAL_CLUSTER = 0xa,
	SPE_NV_SYS_CACHE = 0xb, SPE_NV_PEER_CLUSTER = 0xc, SPE_NV_REMOTE = 0xd, SPE_NV_DRAM = 0xe,
};

struct spe_record {
	uint64_t from_ip, to_ip, virt_addr, phys_addr;
	uint64_t timestamp;       /* 0: the record ended with END, or was cut */
	uint64_t context_id;      /* UINT64_MAX: no CONTEXT packet */
	uint64_t source;          /* DATA SOURCE payload */
	uint64_t events;          /* every EVENTS payload OR-ed */
	uint64_t lat_total, lat_issue, lat_xlat;
	uint32_t type;            /* SPE_T_* */
	uint32_t op;              /* SPE_OP_*, 0 none */
};

/* A record's packets are fed one by one: spe_rec_start() clears it, spe_rec_add() takes a packet
 * and returns 1 when the packet ends the record (END, TIMESTAMP), -1 for an OP TYPE packet of
 * class 3 (perf: "Get packet error!", the record ends there as at a bad byte), else 0. */
void spe_rec_start(struct spe_record *r);
int spe_rec_add(struct spe_record *r, const struct spe_pkt *p);

/* The MIDR perf 6.1 uses: strtol(CPUID feature, NULL, 16) ("0x00000000410fd0c0"); 0 without. */
uint64_t spe_midr_from_cpuid(const char *cpuid);
/* 1 when perf 6.1 decodes this CPU's data source packets with its Neoverse table (N1, N2, V1). */
int spe_midr_is_neoverse(uint64_t midr);
/* The union perf_mem_data_src of a record (arm_spe__synth_data_source()); 0 for what is no load
 * or store (perf synthesizes no memory sample then). */
uint64_t spe_data_src(const struct spe_record *r, uint64_t midr);

/* ---- the session (spe.c) ----------------------------------------------------------------- */

/* perf's struct perf_tsc_conversion, from PERF_RECORD_TIME_CONV */
struct spe_tc {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero, time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

uint64_t spe_tsc_to_perf(uint64_t cyc, const struct spe_tc *tc);
/* Requires time_mult != 0. */
uint64_t spe_perf_to_tsc(uint64_t ns, const struct spe_tc *tc);

struct spe_opts {
	const char *name;         /* the file, for messages */
	uint64_t midr;
	struct spe_tc tc;         /* time_mult 0: no TIME_CONV */
	int timeless;             /* no event has PERF_SAMPLE_TIME: decode at EXIT and at the end */
	/* a queue that ran out of data takes up buffers added later (c2c-lite traces); perf 6.1
	 * leaves such a queue off its heap for good, and so do we without it */
	int revive;
	/* buffers are read in place at file offsets (perf maps the file): alignment packets pad to
	 * the file offset; without it, to the offset in the buffer (perf's copy from a pipe) */
	int in_place;
	uint64_t kernel_start;    /* code addresses from here on are kernel (cpumode 1), else user */
	uint8_t sample_flags;     /* TRACE_SAMPLE_HAS_* the samples carry (CPU, PHYS, ...) */
};

struct spe;

struct spe *spe_new(const struct spe_opts *o);
void spe_free(struct spe *s);

/* Append @size bytes at @data to queue @idx (perf's AUXTRACE idx), recorded on @cpu by @tid.
 * @copy 0: @data is borrowed and must stay valid until spe_free(); 1: it is copied (and freed
 * once decoded). @file_off is where @data lies in the file (messages, alignment). A buffer
 * whose cpu/tid differ from its queue's is refused (-EINVAL) with a warning, as perf refuses it. */
int spe_add_buffer(struct spe *s, uint32_t idx, int32_t cpu, int32_t tid, const void *data,
		   uint64_t size, uint64_t file_off, int copy);

/* The threads perf knows (machine__findnew_thread / remove_thread): the pid a tid is given. */
void spe_thread_findnew(struct spe *s, int32_t pid, int32_t tid);
void spe_thread_remove(struct spe *s, int32_t tid);
/* machine__find_thread() with a pid: an existing thread without one takes it. */
void spe_thread_find(struct spe *s, int32_t pid, int32_t tid);
/* The parent of a FORK (machine__process_fork_event()): a thread of @tid with another pid is
 * replaced. */
void spe_thread_parent(struct spe *s, int32_t pid, int32_t tid);

/* A record of the file is about to be delivered: decode the AUX data that comes before it (perf's
 * arm_spe_process_event()). @time is its perf time (0 or UINT64_MAX: none). @type its record
 * type; @pid/@tid the next task of a PERF_RECORD_SWITCH(_CPU_WIDE) switch-out on @cpu, and the
 * exiting tid of an EXIT (timeless decoding). Samples wait for spe_next(). */
void spe_event(struct spe *s, uint64_t time, uint32_t type, int switch_out, int32_t cpu,
	       int32_t pid, int32_t tid);
/* The end of the file: decode what is left (arm_spe_flush()). */
void spe_flush(struct spe *s);
/* The next sample: 1 and *out filled, 0 when none is due now. */
int spe_next(struct spe *s, struct trace_sample *out);

/* A record was delivered to the report: the threads perf's tools know after it
 * (machine__process_*_event, machine__resolve() of a sample). */
void spe_post(struct spe *s, const struct trace_event *ev);

/* The "memory" event perf synthesizes for SPE samples (arm_spe_synth_events()), from the SPE
 * event's sample_type and attr flag word; @timeless: no event of the file samples the time. */
void spe_memory_desc(uint64_t sample_type, uint64_t attr_flags, int timeless,
		     struct trace_event_desc *e);

/* Counters for the report header and warnings. */
struct spe_stats {
	uint64_t records, samples, bad_bytes, buffers, bytes, ctx_records;
	int used_context;         /* a CONTEXT packet gave the tid (else switch events did) */
};
const struct spe_stats *spe_stats(const struct spe *s);

#endif
