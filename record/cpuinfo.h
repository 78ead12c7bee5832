/* The CPU of the recording machine as /proc/cpuinfo (below the sysfs root) describes it.
 * x86 gives vendor_id/cpu family/model/stepping; arm64 gives CPU implementer/part; POWER gives
 * "cpu : POWER9 ...". The result is a plain value filled by cpuinfo_read(). */
#ifndef C2C_RECORD_CPUINFO_H
#define C2C_RECORD_CPUINFO_H

#include <stdint.h>

enum cpu_vendor {
	CPU_VENDOR_UNKNOWN = 0,
	CPU_VENDOR_INTEL,
	CPU_VENDOR_AMD,
	CPU_VENDOR_ARM,      /* any arm64 implementer */
	CPU_VENDOR_IBM,      /* POWER */
};

struct cpuinfo {
	enum cpu_vendor vendor;
	char vendor_str[32];     /* GenuineIntel, AuthenticAMD, ARM, IBM */
	uint32_t family, model, stepping;
	uint32_t arm_implementer, arm_part, arm_variant, arm_revision;
	char model_name[128];
	uint32_t nr_cpus;        /* processors listed */
};

/* Parse cpuinfo text (pure). */
void cpuinfo_parse(const char *text, struct cpuinfo *ci);
/* Read /proc/cpuinfo below the sysfs root; -errno when it cannot be read. */
int cpuinfo_read(struct cpuinfo *ci);
const char *cpuinfo_vendor_name(enum cpu_vendor v);

#endif
