/* The trace header of a recording: host, kernel, CPU, NUMA layout, cacheline size and the
 * events opened, read from uname(2), /proc/cpuinfo and /sys/devices/system (below the sysfs
 * root). The caller owns the filled struct and frees it with trace_info_release(). */
#ifndef C2C_RECORD_MACHINE_H
#define C2C_RECORD_MACHINE_H

#include "c2c/trace.h"
#include "record/events.h"

/* NUMA node of each possible CPU (*cpu_node, caller frees) and the number of nodes. */
int machine_cpu_nodes(int32_t **cpu_node, uint32_t *nr_cpus, uint32_t *nr_nodes);
/* Coherency line size of cpu0's L1D, or 64. */
uint32_t machine_cacheline(void);
void machine_info_fill(struct trace_info *info, const struct ev_list *l, const char *cmdline,
		       const char *options);

#endif
