/* The perf_event_open system call, alone in sys.c so tests can replace it with
 * -Wl,--wrap=sys_perf_event_open. Returns the fd or -1 with errno set, like the syscall. */
#ifndef C2C_RECORD_SYS_H
#define C2C_RECORD_SYS_H

#include <linux/perf_event.h>
#include <sys/types.h>

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);

#endif
