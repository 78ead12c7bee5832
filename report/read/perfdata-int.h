/* Internals of the perf.data reader shared by report/read/perfdata*.c (not a public header).
 *
 * perfdata.c owns the input (mmap, memory or a pipe), the record stream (with the zstd
 * decompressor of COMPRESSED records) and the ordered-events queue; perfdata-rec.c decodes one
 * queued record into a struct trace_event; perfdata-feat.c parses the header feature sections
 * into the struct trace_info. Every load goes through pd_u16/pd_u32/pd_u64, which handle
 * unaligned data and an opposite-endian file. */
#ifndef C2C_REPORT_PERFDATA_INT_H
#define C2C_REPORT_PERFDATA_INT_H

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "report/read/perfdata.h"
#include "report/read/spe.h"

/* perf_event_attr.sample_type bits */
enum {
	PD_S_IP = 1 << 0, PD_S_TID = 1 << 1, PD_S_TIME = 1 << 2, PD_S_ADDR = 1 << 3,
	PD_S_READ = 1 << 4, PD_S_CALLCHAIN = 1 << 5, PD_S_ID = 1 << 6, PD_S_CPU = 1 << 7,
	PD_S_PERIOD = 1 << 8, PD_S_STREAM_ID = 1 << 9, PD_S_RAW = 1 << 10,
	PD_S_BRANCH_STACK = 1 << 11, PD_S_REGS_USER = 1 << 12, PD_S_STACK_USER = 1 << 13,
	PD_S_WEIGHT = 1 << 14, PD_S_DATA_SRC = 1 << 15, PD_S_IDENTIFIER = 1 << 16,
	PD_S_TRANSACTION = 1 << 17, PD_S_REGS_INTR = 1 << 18, PD_S_PHYS_ADDR = 1 << 19,
	PD_S_AUX = 1 << 20, PD_S_CGROUP = 1 << 21, PD_S_DATA_PAGE_SIZE = 1 << 22,
	PD_S_CODE_PAGE_SIZE = 1 << 23, PD_S_WEIGHT_STRUCT = 1 << 24,
};

/* read_format bits */
enum { PD_R_ENABLED = 1, PD_R_RUNNING = 2, PD_R_ID = 4, PD_R_GROUP = 8, PD_R_LOST = 16 };

/* Record types: kernel (1..22) and perf's user-space ones (64..). */
enum {
	PD_MMAP = 1, PD_LOST = 2, PD_COMM = 3, PD_EXIT = 4, PD_THROTTLE = 5, PD_UNTHROTTLE = 6,
	PD_FORK = 7, PD_READ = 8, PD_SAMPLE = 9, PD_MMAP2 = 10, PD_AUX = 11, PD_ITRACE_START = 12,
	PD_LOST_SAMPLES = 13, PD_SWITCH = 14, PD_SWITCH_CPU_WIDE = 15, PD_KERNEL_LAST = 21,
	PD_KERNEL_MAX = 31,
	PD_HEADER_ATTR = 64, PD_HEADER_EVENT_TYPE = 65, PD_HEADER_TRACING_DATA = 66,
	PD_HEADER_BUILD_ID = 67, PD_FINISHED_ROUND = 68, PD_ID_INDEX = 69, PD_AUXTRACE_INFO = 70,
	PD_AUXTRACE = 71, PD_AUXTRACE_ERROR = 72, PD_THREAD_MAP = 73, PD_CPU_MAP = 74,
	PD_STAT_CONFIG = 75, PD_STAT = 76, PD_STAT_ROUND = 77, PD_EVENT_UPDATE = 78,
	PD_TIME_CONV = 79, PD_HEADER_FEATURE = 80, PD_COMPRESSED = 81, PD_FINISHED_INIT = 82,
	PD_COMPRESSED2 = 83, PD_USER_MAX = 86,
};

/* header.misc */
enum {
	PD_MISC_CPUMODE = 7,
	PD_MISC_MMAP_DATA = 1 << 13,   /* = COMM_EXEC */
	PD_MISC_FORK_EXEC = 1 << 13,
	PD_MISC_SWITCH_OUT = 1 << 13,
	PD_MISC_SWITCH_PREEMPT = 1 << 14,
	PD_MISC_EXACT_IP = 1 << 14,    /* = MMAP_BUILD_ID */
	PD_MISC_BUILD_ID_SIZE = 1 << 15,
};

/* Header features this reader looks at. */
enum {
	PD_F_BUILD_ID = 2, PD_F_HOSTNAME = 3, PD_F_OSRELEASE = 4, PD_F_VERSION = 5, PD_F_ARCH = 6,
	PD_F_NRCPUS = 7, PD_F_CPUDESC = 8, PD_F_CPUID = 9, PD_F_CMDLINE = 11, PD_F_EVENT_DESC = 12,
	PD_F_CPU_TOPOLOGY = 13, PD_F_NUMA_TOPOLOGY = 14, PD_F_PMU_MAPPINGS = 16, PD_F_AUXTRACE = 18,
	PD_F_CACHE = 20,
	PD_F_MEM_TOPOLOGY = 22, PD_F_DIR_FORMAT = 24, PD_F_COMPRESSED = 27, PD_F_CLOCK_DATA = 29,
	PD_F_MAX = 256,
};

#define PD_ATTR_MAX_SIZE 136    /* sizeof(struct perf_event_attr) with config3 (ATTR_SIZE_VER8) */
#define PD_AUX_ARM_SPE   4      /* AUXTRACE_INFO type */
#define PD_READ_MAX      4096   /* values of a group read; a 64 KiB record holds fewer */

/* TopDown role of an attr, derived from its name. */
enum { PD_TD_NONE, PD_TD_SLOTS, PD_TD_METRIC };

struct pd_attr {
	uint32_t type, size;
	uint64_t config, period, sample_type, read_format, flags;
	uint64_t config1, config2, branch_sample_type, regs_user, regs_intr;
	uint32_t stack_user;
	char *name;
	int td_role;
	/* derived */
	int sample_id_all;
	int time_pos;    /* byte offset of TIME in a SAMPLE body, -1 none */
	int id_pos;      /* byte offset of the id in a SAMPLE body, -1 none */
	int trailer;     /* bytes of the sample_id trailer of other records (0 without sample_id_all) */
	int tr_time;     /* offset of TIME inside the trailer, -1 none */
	int tr_id;       /* offset of the id inside the trailer, -1 none */
	int tr_cpu;      /* offset of CPU inside the trailer, -1 none */
	int tr_tid;
};

/* One queued record. @rec points into the mapping, or into a copy held by @chunk. */
struct pd_qent {
	uint64_t time, seq;
	const uint8_t *rec;
	struct pd_chunk *chunk;
	uint32_t attr;
	uint32_t pad;
};

struct pd_chunk {
	struct pd_chunk *next;
	size_t cap, used, live;
	uint8_t data[];
};

struct pd_buildid {
	char *name;
	uint8_t size;
	uint8_t id[TRACE_BUILD_ID_MAX];
};

struct pd_pmu {
	uint32_t type;
	char *name;
};

struct pd_numa_node {
	uint32_t node;
	char *cpus;
};

struct pd_stream;  /* pipe input (perfdata.c) */

/* One file of a directory-format perf.data (perf record --threads): DIR/data (the header file,
 * slot 0) or a DIR/data.N stream of records. */
struct pd_dirfile {
	char *name;
	void *map;                /* NULL for slot 0: the reader's own mapping */
	const uint8_t *base;
	uint64_t pos, end;
	int done;
	/* its zstd stream (perf compresses each thread's buffers as one stream) while another
	 * file is current: decompressor, decompressed bytes not yet taken */
	void *zds;
	uint8_t *zout;
	size_t zout_cap, zout_start, zout_end;
	int zfailed;
};

struct perfdata_reader {
	char *name;
	int swap;                 /* opposite-endian file */
	int pipe;                 /* pipe-mode stream */
	/* input: @base/@len is the whole file (mmap or memory) unless @stream is set */
	const uint8_t *base;
	size_t len;
	void *map;
	size_t map_len;
	struct pd_stream *stream;
	uint64_t data_off, data_end, pos, dropped, drop_checked;
	uint64_t populated;        /* the mapping is populated up to here (populate_ahead()) */
	int eof, truncated_warned;
	/* directory format: the files read in turn (base/pos/data_end above are the current one's),
	 * and the bytes of records taken from the current one since it got its turn */
	struct pd_dirfile *dir;
	size_t nr_dir, dir_cur;
	uint64_t dir_turn;
	uint64_t dir_version;     /* DIR_FORMAT feature, 0 without */

	/* compressed records */
	void *zds;
	uint8_t *zin;             /* copy of the current COMPRESSED payload (stream input) */
	const uint8_t *zsrc;
	size_t zsrc_len, zsrc_pos, zin_cap;
	uint8_t *zout;
	size_t zout_cap, zout_start, zout_end;
	int zfailed;

	/* attrs */
	struct pd_attr *attr;
	uint32_t nr_attr;
	uint64_t *id_key;         /* open addressing: id -> attr index */
	uint32_t *id_val;
	uint64_t *id_prev;        /* the id's last PERF_SAMPLE_READ value (perf's sid->period) */
	size_t id_cap, id_n;
	int one_attr_ids_ok;

	/* features */
	struct trace_info info;
	uint8_t have_feat[PD_F_MAX / 8];
	char *perf_version;
	struct pd_buildid *bid;
	size_t nr_bid;
	struct pd_pmu *pmu;
	size_t nr_pmu;
	struct pd_numa_node *numa;
	size_t nr_numa;
	uint32_t nr_cpus_online;
	uint32_t aux_type;
	int spe_warned;
	unsigned int opts;        /* enum perfdata_flags */
	char *cpuid;              /* the CPUID feature as written */

	/* Arm SPE (perfdata-spe.c): the session, what starts it, where its samples stand */
	struct spe *spe;
	struct spe_tc spe_tc;     /* the last TIME_CONV */
	const uint8_t *aux_index; /* HEADER_AUXTRACE feature in the mapping */
	size_t aux_index_len;
	int spe_seen;             /* an SPE AUXTRACE_INFO is in the file */
	uint64_t spe_pmu;         /* its PMU type */
	uint32_t spe_attr;        /* the SPE event */
	int spe_event;            /* trace_info event of the samples, -1: none announced */
	int spe_queued;           /* the index queued every buffer */
	int spe_pre_done;         /* the session saw the ready record at ready_pos */
	int spe_pending;          /* spe_next() may have samples */
	int spe_flushed;

	/* ordered events */
	struct pd_qent *q, *tmp, *ready;
	size_t q_n, q_sorted, q_cap, tmp_cap, ready_n, ready_pos, ready_cap;
	int q_new_ordered;
	uint64_t q_last_time, seq, max_time, prev_round_max, last_flush;
	struct pd_chunk *chunks, *cur_chunk, *free_chunks;
	struct pd_chunk *held;    /* chunk of the record delivered last */
	int half_flush_warned;
	uint64_t last_timed;
	uint64_t chain[TRACE_CHAIN_MAX];   /* the callchain of the sample decoded last */
	uint64_t regs[64];                 /* its user registers */

	/* a PERF_SAMPLE_READ sample is delivered once per event of its read values that counted
	 * since its previous one (perf's deliver_sample_group): the sample, the events, which one
	 * carries the TopDown values, and the next to deliver */
	struct trace_sample split;
	uint16_t split_attr[PD_READ_MAX];
	uint32_t split_n, split_pos, split_td;

	/* decoding */
	char *scratch;            /* NUL-terminated copy of a string that was not */
	size_t scratch_cap;
	uint64_t nr_bad;
	struct perfdata_stats stats;
	int init_done;            /* pipe mode: FINISHED_INIT or the first sample was seen */
	int unordered;            /* no sample_id_all: records are delivered in file order */
	int info_done;            /* pd_info_finish() ran: the info no longer changes */
	int late_warned;
	uint8_t *scratch_hdr;      /* pipe input: the header of a record whose payload is skipped */
};

static inline uint16_t pd_u16(const struct perfdata_reader *r, const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return r->swap ? bswap_16(v) : v;
}

static inline uint32_t pd_u32(const struct perfdata_reader *r, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swap ? bswap_32(v) : v;
}

static inline uint64_t pd_u64(const struct perfdata_reader *r, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swap ? bswap_64(v) : v;
}

/* perfdata-attr.c */
uint32_t pd_attr_append(struct perfdata_reader *r, const struct pd_attr *a);
int pd_attrs_check(struct perfdata_reader *r);
int pd_attr_add_id(struct perfdata_reader *r, uint64_t id, uint32_t attr);
int pd_attr_of_id(const struct perfdata_reader *r, uint64_t id);
/* The attr of @id as pd_attr_of_id(), and *@delta = @value - the id's previous value, which
 * @value becomes. */
int pd_id_value(struct perfdata_reader *r, uint64_t id, uint64_t value, uint64_t *delta);
int pd_attr_parse(struct perfdata_reader *r, const uint8_t *p, size_t avail, struct pd_attr *a,
		  uint64_t off);
void pd_attr_derive(struct pd_attr *a);

/* perfdata-queue.c */
void pd_queue_push(struct perfdata_reader *r, const uint8_t *rec, uint64_t n, int vol,
		   uint32_t attr, uint64_t time);
void pd_queue_now(struct perfdata_reader *r, const uint8_t *rec, uint64_t n, int vol,
		  uint32_t attr);
void pd_queue_flush(struct perfdata_reader *r, uint64_t limit);
void pd_queue_round(struct perfdata_reader *r);
void pd_queue_half(struct perfdata_reader *r);
void pd_chunk_put(struct perfdata_reader *r, struct pd_chunk *c);

/* perfdata-rec.c: decode @rec (of attr @attr) into @ev; 1 filled, 0 skipped. A PERF_SAMPLE_READ
 * sample may have more deliveries: pd_split_next() gives them while split_pos < split_n. */
int pd_decode(struct perfdata_reader *r, const uint8_t *rec, uint32_t attr, struct trace_event *ev);
void pd_split_next(struct perfdata_reader *r, struct trace_sample *s);
/* Time, and attr of a kernel record for queueing: 1 timed, 0 untimed. */
int pd_record_time(const struct perfdata_reader *r, const uint8_t *rec, uint32_t *attr,
		   uint64_t *time);

/* perfdata-spe.c */
void pd_spe_prescan(struct perfdata_reader *r);
int pd_spe_event_desc(const struct perfdata_reader *r, struct trace_event_desc *e);
void pd_spe_time_conv(struct perfdata_reader *r, const uint8_t *rec, uint16_t size);
void pd_spe_info(struct perfdata_reader *r, const uint8_t *rec, uint16_t size, uint64_t off);
int pd_spe_auxtrace(struct perfdata_reader *r, const uint8_t *rec, uint64_t total, int vol,
		    uint64_t off);
void pd_spe_pre(struct perfdata_reader *r, const struct pd_qent *e);

/* perfdata-feat.c */
void pd_feature(struct perfdata_reader *r, unsigned int feat, const uint8_t *p, size_t size);
void pd_info_finish(struct perfdata_reader *r);
void pd_info_release(struct perfdata_reader *r);
int pd_event_update(struct perfdata_reader *r, const uint8_t *p, size_t size);

#endif
