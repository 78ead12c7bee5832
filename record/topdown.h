/* TopDown counters in the sampling group.
 *
 * On Intel cores with PERF_METRICS (Ice Lake and later; the P-cores of hybrids) the load
 * sampler's group becomes {slots, [mem-loads-aux], mem-loads, topdown-*}: slots leads and
 * counts, the load event samples with PERF_SAMPLE_READ and PERF_FORMAT_GROUP, so every sample
 * carries slots and the metric counts (perf's `{slots,<sampler>,topdown-*}:S`, kernel
 * Documentation/topdown.txt). Where the kernel forbids it (pre-Ice Lake counter pressure, IBS
 * and SPE that cannot share a group with core counters, POWER, software events) the reason is
 * kept in ev_list.td_reason and recording goes on without TopDown. */
#ifndef C2C_RECORD_TOPDOWN_H
#define C2C_RECORD_TOPDOWN_H

#include "record/events.h"

/* Call after events_finalize(). 0 when TopDown was added or is unavailable (td_reason set);
 * -errno only for sysfs trouble that should stop recording. */
int topdown_add(struct ev_list *l, const struct events_opts *o);
/* Take the TopDown members out again (after the kernel refused the group); @why becomes
 * td_reason. */
void topdown_remove(struct ev_list *l, const char *why);

#endif
