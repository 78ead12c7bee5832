/* The workload's run as `c2c-lite record -- cmd` saw it, shared by record (which writes it) and
 * report and diff (which read it): what a fix's before and after are compared on.
 *
 * TRACE_BLOB_RUN, written once at the end of a recording that started its workload and reaped
 * it:
 *   c2c-run 1
 *   wall_ns N       from the workload's release to exec to its exit (CLOCK_MONOTONIC)
 *   user_ns N       CPU time of the workload and the children it waited for (wait4's rusage)
 *   sys_ns N
 *   maxrss_kb N     its peak resident set
 *   exit exited|signaled
 *   status N        the exit code, or the signal number
 * Unknown keys are skipped, so later versions may add lines. */
#ifndef C2C_RUN_H
#define C2C_RUN_H

#include <stddef.h>
#include <stdint.h>

struct c2c_run {
	uint64_t wall_ns, user_ns, sys_ns, maxrss_kb;
	int signaled;            /* it died of signal @status (else it exited with @status) */
	int status;
};

/* The text form into @buf; its length, or -ENOSPC. */
int c2c_run_format(const struct c2c_run *r, char *buf, size_t size);
/* Parse a blob; -EBADMSG when the magic line is wrong or a known key has a bad value. */
int c2c_run_parse(const void *buf, size_t len, struct c2c_run *out);
/* "exit 0", "killed by signal 9 (SIGKILL)" */
void c2c_run_exit_text(const struct c2c_run *r, char *buf, size_t size);

#endif
