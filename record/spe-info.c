/* MIDRs of the recording machine for the SPE decoder (see spe-info.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/events.h"
#include "record/spe-info.h"
#include "record/sysfs.h"

int spe_midr_sysfs(uint32_t cpu, uint64_t *midr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/regs/identification/midr_el1",
		 cpu);
	return sysfs_read_u64(path, midr);
}

/* "key<tabs>: value" of one cpuinfo line, the value as a number. */
static int field(const char *line, const char *key, unsigned long *v)
{
	size_t n = strlen(key);
	const char *p;
	char *end;

	if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
		return 0;
	if (!(p = strchr(line + n, ':')))
		return 0;
	*v = strtoul(p + 1, &end, 0);
	return end != p + 1;
}

static int flush(struct c2c_spe_info *in, unsigned long cpu, int have, const unsigned long *f)
{
	if (cpu >= TRACE_CPU_MAX || have != 15)
		return 0;
	c2c_spe_info_set_midr(in, (uint32_t)cpu, (uint64_t)(f[0] & 0xff) << 24 |
			      (f[1] & 0xf) << 20 | 0xfu << 16 | (f[2] & 0xfff) << 4 | (f[3] & 0xf));
	return 1;
}

int spe_midr_cpuinfo(const char *text, struct c2c_spe_info *in)
{
	static const char *const keys[] = { "CPU implementer", "CPU variant", "CPU part",
					    "CPU revision" };
	unsigned long cpu = ULONG_MAX, f[4] = { 0 }, v;
	int have = 0, set = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[256];

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 p);
		p += n + (nl != NULL);
		if (field(line, "processor", &v)) {
			set += flush(in, cpu, have, f);
			cpu = v;
			have = 0;
			continue;
		}
		for (int k = 0; k < 4; k++)
			if (field(line, keys[k], &f[k]))
				have |= 1 << k;
	}
	return set + flush(in, cpu, have, f);
}

void spe_info_midrs(struct c2c_spe_info *in, const int *cpus, int ncpu)
{
	struct c2c_spe_info proc;
	uint8_t *online = xcalloc(EV_CPUS_MAX / 8, 1);
	char line[4096], *text;
	uint64_t midr;

	c2c_spe_info_init(&proc);
	if (!sysfs_read_all("/proc/cpuinfo", &text, NULL, 16 << 20)) {
		spe_midr_cpuinfo(text, &proc);
		free(text);
	}
	for (int i = 0; i < ncpu; i++) {
		if (cpus[i] < 0)
			continue;
		if (spe_midr_sysfs((uint32_t)cpus[i], &midr) &&
		    !(midr = c2c_spe_info_midr(&proc, (uint32_t)cpus[i])))
			continue;
		c2c_spe_info_set_midr(in, (uint32_t)cpus[i], midr);
	}
	/* perf 6.1 (arch/arm64/util/header.c): the first online CPU whose midr_el1 reads */
	if (!sysfs_read_line("/sys/devices/system/cpu/online", line, sizeof(line)) &&
	    sysfs_parse_cpulist(line, online, EV_CPUS_MAX) > 0)
		for (uint32_t c = 0; c < EV_CPUS_MAX && !in->cpuid_midr; c++)
			if ((online[c / 8] >> (c % 8) & 1) && !spe_midr_sysfs(c, &midr))
				in->cpuid_midr = midr;
	free(online);
	c2c_spe_info_release(&proc);
}
