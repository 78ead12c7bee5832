/* Capabilities and perf_event_paranoid below the sysfs root (see priv.h). */
#include <stdlib.h>
#include <string.h>

#include "record/priv.h"
#include "record/sysfs.h"

int priv_cap_effective(int cap)
{
	unsigned long long caps = 0;
	char *st, *p;

	if (sysfs_read_all("/proc/self/status", &st, NULL, 1 << 20))
		return 0;
	if ((p = strstr(st, "CapEff:")))
		caps = strtoull(p + 7, NULL, 16);
	free(st);
	return (int)((caps >> cap) & 1);
}

int priv_perfmon(void)
{
	return priv_cap_effective(PRIV_CAP_PERFMON) || priv_cap_effective(PRIV_CAP_SYS_ADMIN);
}

int priv_paranoid(int dflt)
{
	char line[32], *end;
	long v;

	if (sysfs_read_line("/proc/sys/kernel/perf_event_paranoid", line, sizeof(line)))
		return dflt;
	v = strtol(line, &end, 10);
	return end == line ? dflt : (int)v;
}

int priv_perf_privileged(void)
{
	return priv_perfmon() || priv_paranoid(2) <= -1;
}
