/* The facts an SPE recording carries for its decoder (include/c2c/spe.h), gathered on the
 * recording machine: the MIDR of each CPU (sysfs regs/identification/midr_el1, else
 * /proc/cpuinfo, both below the sysfs root) and perf's CPUID choice among them. */
#ifndef C2C_RECORD_SPE_INFO_H
#define C2C_RECORD_SPE_INFO_H

#include <stdint.h>

#include "c2c/spe.h"

/* MIDR_EL1 of @cpu from /sys/devices/system/cpu/cpuN/regs/identification/midr_el1; -errno. */
int spe_midr_sysfs(uint32_t cpu, uint64_t *midr);
/* MIDRs of every processor in cpuinfo text (implementer, variant, part, revision; architecture
 * 0xf as on every AArch64 CPU) into @in. Pure. Returns how many were set. */
int spe_midr_cpuinfo(const char *text, struct c2c_spe_info *in);
/* Fill in->midr for @cpus (sysfs first, /proc/cpuinfo for the rest) and in->cpuid_midr as perf
 * 6.1 picks its arm64 CPUID: the MIDR of the first online CPU that has one. */
void spe_info_midrs(struct c2c_spe_info *in, const int *cpus, int ncpu);

#endif
