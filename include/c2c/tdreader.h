/* TopDown counted beside a sampler that cannot carry it (AMD IBS, Arm SPE).
 *
 * IBS and SPE are PMUs of their own: the kernel does not let their events share a group with
 * the core PMU's counters, so a sample cannot carry the TopDown counts (PERF_SAMPLE_READ reads
 * the sampler's own group only). `record` then opens the model's level-1 counters as a group of
 * their own per CPU (and per thread when it follows a task), led by the model's cycle counter,
 * which samples every `period` cycles with PERF_SAMPLE_READ: each such reading is a
 * trace_sample of the leader's event with the running totals in td_slots (the leader) and td[]
 * (the members), and no data address. report/aggregate/topdown-time.h splits the counts
 * between two readings over the memory samples that fall between them.
 *
 * This text blob (TRACE_BLOB_TOPDOWN) tells the report how to read those samples:
 *     c2c-topdown 1
 *     model amd-slots|arm-slots|arm-cycles|intel-metrics
 *     cpu Zen 4                      (the model's name, td_model.cpu)
 *     width 6                        (slots per cycle; 0 when SLOTS is counted)
 *     n2-erratum 0|1
 *     scope thread|cpu               (thread: per CPU and thread; cpu: per CPU, every task)
 *     period 1000000                 (leader events between two readings)
 *     reader 3                       (trace_info event index of the reading leader)
 *     lead cycles                    (the input td_slots holds: td_in_name())
 *     value 0 amd-dispatched         (the input td[0] holds; one line per value)
 * Unknown keys are skipped. Pure code: no I/O. */
#ifndef C2C_TDREADER_H
#define C2C_TDREADER_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/topdown.h"
#include "c2c/trace.h"

struct td_reader {
	struct td_model model;
	int scope_cpu;                  /* 1: per-CPU counters of every task (-a) */
	uint64_t period;
	uint32_t event;                 /* trace_info event index of the leader */
	int lead;                       /* enum td_in of td_slots */
	int in[TRACE_TD_MAX];           /* enum td_in of td[i], -1 none */
	uint32_t nr;                    /* values after the leader */
};

/* The short name of an input ("cycles", "amd-dispatched", ...), NULL when out of range. */
const char *td_in_name(enum td_in i);
/* The input called @name, or -1. */
int td_in_by_name(const char *name);

/* Text into @buf; the length, or -1 when it does not fit. */
int td_reader_format(const struct td_reader *r, char *buf, size_t len);
/* Parse @len bytes (not NUL-terminated). 0, or -EBADMSG for a bad header, key, number or input,
 * a model without a leader, or a value index beyond TRACE_TD_MAX. */
int td_reader_parse(const void *text, size_t len, struct td_reader *r);
/* The running totals a reading sample carries, as model inputs. */
void td_reader_counts(const struct td_reader *r, const struct trace_sample *s, struct td_counts *c);

#endif
