/* Privileges as perf judges them, from files below the sysfs root (so fake trees can stand for
 * unprivileged users): the effective capabilities in /proc/self/status (root has them all) and
 * kernel.perf_event_paranoid. */
#ifndef C2C_RECORD_PRIV_H
#define C2C_RECORD_PRIV_H

#define PRIV_CAP_SYS_ADMIN 21
#define PRIV_CAP_PERFMON   38

/* Bit @cap of CapEff in /proc/self/status; 0 when unreadable. */
int priv_cap_effective(int cap);
/* CAP_PERFMON or CAP_SYS_ADMIN (the kernel's perfmon_capable()). */
int priv_perfmon(void);
/* kernel.perf_event_paranoid; @dflt when it cannot be read. */
int priv_paranoid(int dflt);
/* perf's perf_event_paranoid_check(-1): perfmon-capable, or perf_event_paranoid -1. It picks
 * perf record's AUX buffer size (4 MiB privileged, 128 KiB otherwise). */
int priv_perf_privileged(void);

#endif
