/* Streaming reader of perf.data (file mode PERFILE2, both byte orders, and pipe mode).
 *
 * It yields the same records as the c2c-lite trace reader (struct trace_event, include/c2c/trace.h)
 * in timestamp order, the way perf's ordered-events queue delivers them (records are queued and
 * flushed at FINISHED_ROUND boundaries, so memory stays bounded by a round, never by the file).
 * Arm SPE AUX data is decoded into memory samples where perf 6.1 delivers them (report/read/spe.h),
 * event "memory" appended to the info's events.
 * The header features become a struct trace_info (NRCPUS, NUMA_TOPOLOGY -> cpu_node, MEM_TOPOLOGY
 * -> mem_ranges, ARCH, HOSTNAME, OSRELEASE, CPUID, CPUDESC, EVENT_DESC -> events, CMDLINE).
 *
 * Ownership and errors follow trace.h: the info belongs to the reader, strings inside an event
 * stay valid until the next call; functions return 0/1 or a negative errno with the detail (file
 * name and offset) sent to the log hook. */
#ifndef C2C_REPORT_PERFDATA_H
#define C2C_REPORT_PERFDATA_H

#include <stddef.h>

#include "c2c/trace.h"

struct perfdata_reader;

/* Counters of what the file held besides memory samples (shown in the report header). */
struct perfdata_stats {
	uint64_t nr_samples, nr_lost_records, nr_lost_samples, nr_throttle, nr_unthrottle;
	uint64_t nr_aux_bytes;        /* AUXTRACE payload kept aside or skipped */
	uint64_t nr_unknown_records;  /* skipped record types */
	uint64_t nr_unordered;        /* records that arrived after their round was flushed */
	uint64_t nr_aux_truncated;    /* PERF_RECORD_AUX flagged TRUNCATED (AUX data was lost) */
	uint64_t nr_aux_partial, nr_aux_collision;
	uint64_t nr_spe_records;      /* Arm SPE records decoded (samples: loads and stores) */
	uint64_t nr_spe_bad_bytes;    /* Arm SPE bytes skipped as invalid or cut short */
};

/* perfdata_reader_open_opts() flags */
enum perfdata_flags {
	/* Arm SPE: deliver the AUX data raw (TRACE_BLOB_SPE_AUX, TRACE_INFO_SPE_RAW set) with the
	 * AUX, ITRACE_START and SWITCH records, decode nothing: what record writes */
	PERFDATA_SPE_RAW = 1 << 0,
	/* Arm SPE: deliver the AUX data raw besides the decoded samples (the info does not say
	 * TRACE_INFO_SPE_RAW: the blobs are not the samples) */
	PERFDATA_KEEP_AUX = 1 << 1,
};

/* True when @buf (at least 8 bytes) starts with a perf.data magic (PERFILE2 either byte order). */
int perfdata_is_perfdata(const void *buf, size_t len);

/* Open @path ("-" reads a pipe-mode stream from standard input). */
int perfdata_reader_open(struct perfdata_reader **out, const char *path);
/* The same with enum perfdata_flags. */
int perfdata_reader_open_opts(struct perfdata_reader **out, const char *path, unsigned int flags);
/* Read @fd (a pipe-mode stream, or a file at its start), named @name; it is not closed. */
int perfdata_reader_fdopen(struct perfdata_reader **out, int fd, const char *name);
/* Open from memory (fuzzing, tests); @buf must outlive the reader. */
int perfdata_reader_open_mem(struct perfdata_reader **out, const void *buf, size_t len,
			     const char *name);
const struct trace_info *perfdata_reader_info(const struct perfdata_reader *r);
/* 1 and *ev filled, 0 at the end, or a negative errno. */
int perfdata_reader_next(struct perfdata_reader *r, struct trace_event *ev);
const struct perfdata_stats *perfdata_reader_stats(const struct perfdata_reader *r);
struct c2c_spe_info;
/* PERFDATA_SPE_RAW: what record writes as the SPE facts blob (include/c2c/spe.h), from the
 * AUXTRACE_INFO, CPUID and TIME_CONV read so far; -ENOENT without an Arm SPE AUXTRACE_INFO. */
int perfdata_reader_spe_facts(const struct perfdata_reader *r, struct c2c_spe_info *out);

enum perfdata_missing {
	PERFDATA_NO_NRCPUS = 1 << 0,
	PERFDATA_NO_NUMA = 1 << 1,
	PERFDATA_NO_MEM_TOPOLOGY = 1 << 2,
};
/* Header features perf c2c needs that the file lacks (enum perfdata_missing bits). */
unsigned int perfdata_reader_missing(const struct perfdata_reader *r);
/* The data ended inside a record (what came before was delivered). */
int perfdata_reader_truncated(const struct perfdata_reader *r);
void perfdata_reader_free(struct perfdata_reader *r);

#endif
