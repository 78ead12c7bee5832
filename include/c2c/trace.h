/* The c2c-lite trace: format constants, the in-memory records every side exchanges, and the
 * writer and streaming reader. docs/trace-format.md is the byte-level specification.
 *
 * The records below (struct trace_sample, trace_mmap, ...) are the lingua franca of c2c-lite:
 * `record` writes them, the trace reader gives them back, the perf.data reader (report/read/perfdata.h)
 * produces the same structs, and report/ consumes them without knowing where they came from.
 *
 * On disk (all integers little-endian):
 *   file header (16 bytes): magic "C2CTRACE", u16 major, u16 minor, u32 header_flags
 *   then a sequence of chunks, each {u32 magic "CHNK", u32 kind, u32 payload_len, u32 crc32,
 *   u32 nr_records, u32 header_crc, payload}. The CRC (zlib crc32) covers kind, payload_len and
 *   the payload; header_crc covers the 20 header bytes before it. Bit 16 of kind: the payload
 *   is zstd-compressed. The first chunk holds the trace_info; later chunks hold records; an end
 *   chunk (the record count) closes the file. A chunk is self-contained (its dictionaries and
 *   delta bases start fresh), so a file cut short is readable up to its last complete chunk.
 *
 * Ownership: strings and arrays inside a struct trace_info returned by the reader belong to the
 * reader. Strings inside an event returned by trace_reader_next() stay valid until the next call.
 * The writer copies what it is given.
 *
 * Errors: functions return 0 (or 1 where stated) on success and a negative errno on failure; the
 * detail (file name, offset) goes to the log hook. -EBADMSG: corrupt data; -ENOTSUP: an unknown
 * major version or feature; -ENOSPC/-EIO: the write failed (the file stays readable up to the last
 * chunk written whole). */
#ifndef C2C_TRACE_H
#define C2C_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_MAGIC         "C2CTRACE"
#define TRACE_VERSION_MAJOR 1
#define TRACE_VERSION_MINOR 8   /* 1.1: FORK/EXIT records may carry flags; 1.2: watch samples
				 * carry the accessed address, and the duty-cycle blob; 1.3: AUX,
				 * ITRACE_START and SWITCH records, the SPE recording blob; 1.4: REGION
				 * records and the AMD uncore blob (older readers skip both); 1.5: CHAIN
				 * records, a sample's callchain (older readers skip them); 1.6: ACCESS
				 * records, a soft sample's access instruction (older readers skip them);
				 * 1.7: TASK records, the goroutine a sample ran (older readers skip them);
				 * 1.8: the RUN blob, the workload's time and exit (skipped alike) */

#define TRACE_CPU_NONE      UINT32_MAX  /* sample carried no CPU */
#define TRACE_NODE_NONE     (-1)
#define TRACE_TD_MAX        8           /* TopDown metric values per sample */
#define TRACE_BUILD_ID_MAX  20
/* Readers refuse CPU numbers and NUMA nodes at or above these: the kernel's largest NR_CPUS
 * (8192, x86 MAXSMP and powerpc) and MAX_NUMNODES (1 << CONFIG_NODES_SHIFT, at most 10). A count
 * read from a file never sizes an allocation beyond them. */
#define TRACE_CPU_MAX       8192
#define TRACE_NODE_MAX      1024
/* Callchain entries kept per sample (the kernel's perf_event_max_stack defaults to 127; a
 * longer chain read from perf.data keeps its first TRACE_CHAIN_MAX entries). */
#define TRACE_CHAIN_MAX     1024
/* perf's context markers inside a callchain (PERF_CONTEXT_KERNEL, _USER, ...): every entry at
 * or above this value is a marker, not an address. */
#define TRACE_CHAIN_CONTEXT_MIN ((uint64_t)-4095)
#define TRACE_CHAIN_CONTEXT_KERNEL ((uint64_t)-128)
#define TRACE_CHAIN_CONTEXT_USER   ((uint64_t)-512)
/* Other candidate accesses an inferred soft sample carries (trace_sample.alt[]). */
#define TRACE_ALT_MAX 3

/* Where the samples came from (trace_info.backend and trace_event_desc.backend). */
enum trace_backend {
	TRACE_BACKEND_UNKNOWN = 0,
	TRACE_BACKEND_PEBS,       /* Intel mem-loads / mem-stores */
	TRACE_BACKEND_IBS,        /* AMD ibs_op */
	TRACE_BACKEND_SPE,        /* Arm SPE (AUX data) */
	TRACE_BACKEND_POWER,      /* PowerPC mem-loads / mem-stores (thresholding) */
	TRACE_BACKEND_SOFT,       /* cpu-clock samples + instruction decoding: estimates */
	TRACE_BACKEND_WATCH,      /* hardware watchpoints */
	TRACE_BACKEND_SWEVENT,    /* other software events (page-faults, cpu-clock, ...) */
	TRACE_BACKEND_PERFDATA,   /* converted from perf.data */
	TRACE_BACKEND_SYNTHETIC,  /* made by a test generator, not measured */
	TRACE_BACKEND__MAX
};

const char *trace_backend_name(enum trace_backend b);

/* trace_info.flags */
enum trace_info_flags {
	TRACE_INFO_SYNTHETIC = 1 << 0,   /* samples were generated, not measured */
	TRACE_INFO_ESTIMATE = 1 << 1,    /* figures are estimates (soft backend) */
	TRACE_INFO_HAS_KSYMS = 1 << 2,   /* a kallsyms snapshot is in the trace */
	TRACE_INFO_SPE_RAW = 1 << 3,     /* holds undecoded Arm SPE AUX data */
};

/* One recorded event (a perf_event_attr opened by the recorder). */
struct trace_event_desc {
	char *name;              /* perf-style name, e.g. "cpu/mem-loads,ldlat=30/P" */
	uint32_t backend;        /* enum trace_backend */
	uint32_t type;           /* attr.type */
	uint64_t config, config1, config2;
	uint64_t sample_type;
	uint64_t period;         /* sample_period, or sample_freq when freq is set */
	uint32_t freq;           /* 1: period is a frequency */
	uint32_t precise_ip;
	uint64_t attr_flags;     /* the flag word at attr offset 40 */
};

/* A physical memory range of a NUMA node (from sysfs memory blocks or perf's MEM_TOPOLOGY). */
struct trace_mem_range {
	uint64_t start, end;     /* [start, end) */
	uint32_t node;
};

/* The header chunk. */
struct trace_info {
	uint16_t version_major, version_minor;   /* filled by the reader */
	uint32_t flags;                          /* enum trace_info_flags */
	uint64_t created_ns;                     /* wall clock, ns since the epoch */
	char *cmdline;                           /* the recorded command line */
	char *hostname, *kernel_release, *arch;  /* arch as uname -m: x86_64, aarch64, ppc64le */
	char *cpu_vendor;                        /* GenuineIntel, AuthenticAMD, ARM, IBM */
	uint32_t cpu_family, cpu_model, cpu_stepping;
	char *cpu_desc;                          /* model name */
	char *pmu_name;                          /* e.g. "sapphire_rapids", "ibs_op", "arm_spe_0" */
	uint32_t backend;                        /* enum trace_backend of the sampling events */
	char *options;                           /* recording options as text */
	uint32_t cacheline_size;                 /* bytes, of the recording machine */
	uint32_t nr_cpus;                        /* entries in cpu_node */
	int32_t *cpu_node;                       /* NUMA node of each CPU, TRACE_NODE_NONE unknown */
	uint32_t nr_nodes;
	uint32_t nr_events;
	struct trace_event_desc *events;
	uint32_t nr_mem_ranges;
	struct trace_mem_range *mem_ranges;
};

/* trace_sample.flags */
enum trace_sample_flags {
	TRACE_SAMPLE_HAS_CPU = 1 << 0,
	TRACE_SAMPLE_HAS_ADDR = 1 << 1,
	TRACE_SAMPLE_HAS_PHYS = 1 << 2,
	TRACE_SAMPLE_HAS_WEIGHT = 1 << 3,
	TRACE_SAMPLE_HAS_DSRC = 1 << 4,
	TRACE_SAMPLE_TOPDOWN = 1 << 5,  /* td_slots and td[0..td_nr) are valid */
	TRACE_SAMPLE_EXACT_IP = 1 << 6,
};

/* One memory sample. Absent fields are 0 and their HAS flag is clear. */
struct trace_sample {
	uint64_t time;           /* perf clock, ns */
	uint64_t ip;             /* code address */
	uint64_t addr;           /* virtual data address */
	uint64_t phys_addr;
	uint64_t weight;         /* latency in cycles (PEBS/IBS/SPE) or time share (soft) */
	uint64_t data_src;       /* union perf_mem_data_src */
	uint32_t pid, tid;
	uint32_t cpu;            /* TRACE_CPU_NONE when absent */
	uint16_t event;          /* index into trace_info.events */
	uint8_t cpumode;         /* PERF_RECORD_MISC_CPUMODE: 1 kernel, 2 user, 3 hv, 4/5 guest */
	uint8_t flags;           /* enum trace_sample_flags */
	uint16_t detail;         /* backend-specific: soft backend's access kind or failure reason */
	uint8_t td_nr;
	uint32_t chain_nr;       /* entries of @chain (below; here, where it fills a hole) */
	uint64_t td_slots;
	uint64_t td[TRACE_TD_MAX];  /* TopDown metric values, in the order of the event's group */
	/* PERF_SAMPLE_CALLCHAIN as the kernel gives it: the sampled ip first, then its callers,
	 * with perf's context markers (TRACE_CHAIN_CONTEXT_*) kept. chain_nr 0: none recorded.
	 * Like strings, @chain stays valid until the reader's next call; writers copy it. */
	const uint64_t *chain;
	/* PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER of a perf.data file (perf record
	 * --call-graph dwarf), valid like @chain, for the report to unwind (report/resolve/
	 * unwind-sample.h). Traces never store them: c2c-lite's recorder unwinds first. */
	uint64_t regs_mask;      /* 0: no user registers; else the bits (perf's order) of @regs */
	const uint64_t *regs;
	uint64_t stack_size;     /* bytes of @stack that were filled (the dynamic size) */
	const uint8_t *stack;
	/* The ACCESS record (1.6, soft samples): the instruction whose access the sample is
	 * charged to, when the recorder found one (0: none recorded; in a 1.6 soft trace the
	 * access is then @ip's own or there is none), how it was chosen (enum softdec_acc_flags,
	 * include/c2c/soft.h) and, for an inferred sample, the other candidate accesses: their
	 * instruction, data address (0 when none) and a detail word like @detail. */
	uint64_t access_ip;
	uint8_t access_flags;
	uint8_t nr_alt;
	uint16_t alt_detail[TRACE_ALT_MAX];
	struct trace_alt {
		uint64_t ip, addr;
	} alt[TRACE_ALT_MAX];
	/* The TASK record (1.7): the user-level task the thread was running, a goroutine's id
	 * (the recorder reads runtime.g's goid through Go's g register, r14, in a Go 1.18+ amd64
	 * binary); 0: none known. A goroutine moves between OS threads: the report judges by it. */
	uint64_t task;
};

/* trace_mmap.flags: the mmap(2) flags the kernel reports (MAP_SHARED = 1, MAP_PRIVATE = 2). */
struct trace_mmap {
	uint64_t time;
	uint32_t pid, tid;       /* pid UINT32_MAX (-1): kernel map */
	uint64_t start, len, pgoff;
	uint32_t prot, flags;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t cpumode;
	uint8_t build_id_size;   /* 0: none */
	uint8_t build_id[TRACE_BUILD_ID_MAX];
	const char *filename;
};

struct trace_comm {
	uint64_t time;
	uint32_t pid, tid;
	uint8_t exec;            /* the comm changed because of exec */
	const char *comm;
};

/* trace_task.flags */
enum trace_task_flags {
	/* a FORK perf synthesized for a task that was already running (perf.data's
	 * PERF_RECORD_MISC_FORK_EXEC): the child's maps are the MMAP records that follow, so a new
	 * process copies none from its parent */
	TRACE_TASK_SYNTHESIZED = 1 << 0,
};

/* FORK and EXIT records. */
struct trace_task {
	uint64_t time;
	uint32_t pid, ppid, tid, ptid;
	uint32_t flags;          /* enum trace_task_flags */
};

enum trace_lost_kind {
	TRACE_LOST_RECORDS = 1,  /* PERF_RECORD_LOST: ring buffer overflow */
	TRACE_LOST_SAMPLES,      /* PERF_RECORD_LOST_SAMPLES: dropped by the PMU/kernel */
	TRACE_LOST_THROTTLE,     /* PERF_RECORD_THROTTLE */
	TRACE_LOST_UNTHROTTLE,
};

struct trace_lost {
	uint64_t time;
	uint32_t kind;           /* enum trace_lost_kind */
	uint32_t cpu;            /* TRACE_CPU_NONE when unknown */
	uint16_t event;
	uint64_t count;          /* records or samples lost; 1 for throttle events */
};

enum trace_blob_kind {
	TRACE_BLOB_KALLSYMS = 1, /* /proc/kallsyms text */
	TRACE_BLOB_SPE_AUX,      /* raw Arm SPE AUX data of one CPU (aux.cpu, aux.offset) */
	TRACE_BLOB_WATCH_DUTY,   /* the watch backend's duty cycle, text (include/c2c/watch.h) */
	TRACE_BLOB_SPE_INFO,     /* 1.3: what decoding SPE needs (PMU, MIDRs, time conversion),
				  * text (include/c2c/spe.h) */
	/* numbered apart so that kinds added beside the ones above do not collide */
	TRACE_BLOB_UNCORE = 16,  /* AMD L3/DF counts over the run, text (include/c2c/uncore.h) */
	TRACE_BLOB_TOPDOWN = 17, /* how to read the TopDown readings beside IBS/SPE samples, text
				  * (include/c2c/tdreader.h) */
	TRACE_BLOB_CONFIRM_WINDOW = 18, /* soft: one window of confirmation watchpoints, text
					 * (include/c2c/confirm.h) */
	TRACE_BLOB_CONFIRM_RUN = 19,    /* soft: the confirmation of the run, text (ditto) */
	TRACE_BLOB_RUN = 20,     /* the workload's wall and CPU time and exit, text
				  * (include/c2c/run.h) */
};

struct trace_blob {
	uint64_t time;
	uint32_t kind;           /* enum trace_blob_kind */
	uint32_t cpu;
	uint64_t offset;         /* AUX: offset in the AUX stream */
	uint64_t size;
	const void *data;
};

enum trace_region_kind {
	TRACE_REGION_BEGIN = 1,
	TRACE_REGION_END = 2,
};

/* A region marker of the program (include/c2c/region.h) that record copied into the trace: a
 * thread entered or left the named region at @time (perf clock, like samples). */
struct trace_region {
	uint64_t time;
	uint32_t pid, tid;
	uint32_t kind;           /* enum trace_region_kind */
	uint32_t depth;          /* nesting depth of this instance, from 1 */
	const char *name;
};

/* PERF_RECORD_AUX (1.3): the kernel published the AUX bytes [offset, offset + size) of one
 * CPU's AUX area; their data is the TRACE_BLOB_SPE_AUX blob with the same cpu and offset (none
 * when size is 0). */
enum trace_aux_flags {             /* the kernel's PERF_AUX_FLAG_* values */
	TRACE_AUX_TRUNCATED = 0x01,    /* the AUX area was full: data after this was lost */
	TRACE_AUX_OVERWRITE = 0x02,    /* snapshot mode */
	TRACE_AUX_PARTIAL = 0x04,      /* the last record of the span is incomplete */
	TRACE_AUX_COLLISION = 0x08,    /* the PMU dropped samples (SPE: sample collisions) */
	TRACE_AUX_PMU_FORMAT = 0xff00, /* PMU-specific format bits */
};

struct trace_aux {
	uint64_t time;
	uint32_t cpu;            /* TRACE_CPU_NONE when unknown */
	uint32_t pid, tid;       /* the task running when the span was published */
	uint64_t offset, size;   /* free-running offsets in the CPU's AUX stream */
	uint64_t flags;          /* enum trace_aux_flags */
};

/* PERF_RECORD_ITRACE_START (1.3): AUX tracing began for a task on a CPU. */
struct trace_itrace_start {
	uint64_t time;
	uint32_t cpu;
	uint32_t pid, tid;
};

/* PERF_RECORD_SWITCH and PERF_RECORD_SWITCH_CPU_WIDE (1.3). */
enum trace_switch_flags {
	TRACE_SWITCH_OUT = 1 << 0,       /* switched out (else in): PERF_RECORD_MISC_SWITCH_OUT */
	TRACE_SWITCH_PREEMPT = 1 << 1,   /* switched out while runnable (MISC_SWITCH_OUT_PREEMPT) */
	TRACE_SWITCH_CPU_WIDE = 1 << 2,  /* a CPU-wide record: next_prev_pid/tid are valid */
};

struct trace_switch {
	uint64_t time;
	uint32_t cpu;            /* TRACE_CPU_NONE when unknown */
	uint32_t pid, tid;       /* the record's sample_id: the task switching out or in */
	uint32_t flags;          /* enum trace_switch_flags */
	uint32_t next_prev_pid, next_prev_tid;  /* CPU-wide: the task switched to (out) or from (in);
						 * UINT32_MAX otherwise */
};

enum trace_rec_type {
	TRACE_REC_SAMPLE = 1,
	TRACE_REC_MMAP,
	TRACE_REC_COMM,
	TRACE_REC_FORK,
	TRACE_REC_EXIT,
	TRACE_REC_LOST,
	TRACE_REC_BLOB,
	TRACE_REC_AUX,           /* 1.3 */
	TRACE_REC_ITRACE_START,  /* 1.3 */
	TRACE_REC_SWITCH,        /* 1.3 */
	/* numbered apart from the kinds above so that kinds added beside it do not collide */
	TRACE_REC_REGION = 16,
	/* 17 is taken by the CHAIN record (1.5, lib/trace_codec.h's TRACE_TAG_CHAIN), 18 by the
	 * ACCESS record (1.6, TRACE_TAG_ACCESS), 19 by the TASK record (1.7, TRACE_TAG_TASK): the
	 * reader attaches them to the sample that follows (trace_sample.chain, .access_ip,
	 * .task), never returns them alone */
};

struct trace_event {
	enum trace_rec_type type;
	union {
		struct trace_sample sample;
		struct trace_mmap mmap;
		struct trace_comm comm;
		struct trace_task task;   /* FORK and EXIT */
		struct trace_lost lost;
		struct trace_blob blob;
		struct trace_region region;
		struct trace_aux aux;
		struct trace_itrace_start itrace;
		struct trace_switch sw;
	};
};

/* --- writer ------------------------------------------------------------------------------ */

struct trace_writer;

struct trace_writer_opts {
	int zstd_level;          /* 0: no compression; otherwise the zstd level of each chunk */
	size_t chunk_bytes;      /* target encoded size of a chunk (0: default, 256 KiB) */
	int fsync;               /* fsync after every chunk */
};

/* Create @path (truncating it) and write the header chunk from @info. @opts may be NULL. */
int trace_writer_open(struct trace_writer **out, const char *path, const struct trace_info *info,
		      const struct trace_writer_opts *opts);
/* The same on an open descriptor; the writer does not close @fd. @name is used in messages. */
int trace_writer_fdopen(struct trace_writer **out, int fd, const char *name,
			const struct trace_info *info, const struct trace_writer_opts *opts);
/* Append one record. Records are buffered and written as chunks. Once a write failed, every
 * later call returns the same error without writing. */
int trace_write(struct trace_writer *w, const struct trace_event *ev);
/* Write the pending chunk now (a chunk boundary: what is written survives a crash). */
int trace_writer_flush(struct trace_writer *w);
/* Bytes written to the file so far, and records accepted. */
uint64_t trace_writer_bytes(const struct trace_writer *w);
uint64_t trace_writer_records(const struct trace_writer *w);
/* Flush, close (trace_writer_open only) and free; returns the first error seen. NULL is a no-op. */
int trace_writer_close(struct trace_writer *w);

/* --- reader ------------------------------------------------------------------------------ */

struct trace_reader;

/* Open @path and read the header chunk. */
int trace_reader_open(struct trace_reader **out, const char *path);
/* Read from @fd (a pipe, a FIFO, a file at its start), named @name in messages; the reader
 * reads it in sequence, never seeks, and does not close it. */
int trace_reader_fdopen(struct trace_reader **out, int fd, const char *name);
/* Open from a memory buffer (fuzzing, tests); @buf must outlive the reader. */
int trace_reader_open_mem(struct trace_reader **out, const void *buf, size_t len, const char *name);
const struct trace_info *trace_reader_info(const struct trace_reader *r);
/* The next record: 1 and *ev filled, 0 at the end, or a negative errno. A file cut short inside
 * a chunk ends at the last complete chunk with a warning (trace_reader_truncated() says so);
 * a checksum or encoding error returns -EBADMSG and names the offset. */
int trace_reader_next(struct trace_reader *r, struct trace_event *ev);
int trace_reader_truncated(const struct trace_reader *r);
void trace_reader_free(struct trace_reader *r);

/* True when the first bytes of a file (at least 8) are a c2c-lite trace. */
int trace_is_trace(const void *buf, size_t len);

/* Deep copy and release of a trace_info (convert and record build one, the reader owns its own). */
void trace_info_copy(struct trace_info *dst, const struct trace_info *src);
void trace_info_release(struct trace_info *info);

#endif
