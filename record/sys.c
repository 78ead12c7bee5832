/* The one-line perf_event_open wrapper (see sys.h). */
#include <sys/syscall.h>
#include <unistd.h>

#include "record/sys.h"

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}
