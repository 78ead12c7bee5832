/* TopDown counters in the sampling group.
 *
 * On Intel cores with PERF_METRICS (Ice Lake and later; the P-cores of hybrids) the load
 * sampler's group becomes {slots, [mem-loads-aux], mem-loads, topdown-*}: slots leads and
 * counts, the load event samples with PERF_SAMPLE_READ and PERF_FORMAT_GROUP, so every sample
 * carries slots and the metric counts (perf's `{slots,<sampler>,topdown-*}:S`, kernel
 * Documentation/topdown.txt).
 *
 * AMD IBS and Arm SPE are PMUs of their own and cannot share a group with the core counters, so
 * beside them the model's level-1 counters (lib/topdown.c) get a group of their own, opened like
 * the sampler (per CPU, following the task and its children, or every task with -a): the cycle
 * counter leads it and samples every TOPDOWN_READ_PERIOD cycles with PERF_SAMPLE_READ, the
 * others count. Each such sample is a reading (td_slots: cycles, td[]: the others) that report
 * attributes to the memory samples by time (include/c2c/tdreader.h,
 * report/aggregate/topdown-time.h). Where TopDown is impossible (pre-Ice Lake counter pressure,
 * Zen 3, an unknown core, POWER, software events) the reason is kept in ev_list.td_reason and
 * recording goes on without TopDown. */
#ifndef C2C_RECORD_TOPDOWN_H
#define C2C_RECORD_TOPDOWN_H

#include "c2c/topdown.h"
#include "record/events.h"
#include "record/pmu.h"

/* Counts between two readings of the TopDown group beside IBS/SPE (its leader's period). */
#define TOPDOWN_READ_PERIOD 1000000

/* Call after events_finalize(). 0 when TopDown was added or is unavailable (td_reason set);
 * -errno only for sysfs trouble that should stop recording. */
int topdown_add(struct ev_list *l, const struct events_opts *o);
/* The core PMU of a vendor (Intel: cpu_core on hybrids, else cpu; Arm: armv8_/armv9_*). 0 or
 * -ENOENT. */
int topdown_core_pmu(struct pmu *pmu, enum cpu_vendor v);
/* What identifies the core for td_model_select(): cpuinfo, plus the PMU's aliases and caps when
 * @have (the PMU was found). */
void topdown_cpu_of(struct td_cpu *t, const struct cpuinfo *ci, const struct pmu *pmu, int have);
/* Take the TopDown members out again (after the kernel refused the group); @why becomes
 * td_reason. */
void topdown_remove(struct ev_list *l, const char *why);

#endif
