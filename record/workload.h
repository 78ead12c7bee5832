/* The workload of `c2c-lite record -- cmd args`: forked first and held on a pipe until every
 * event is open (so enable_on_exec catches its exec), then released to exec. An exec failure
 * comes back through a close-on-exec pipe as the errno. */
#ifndef C2C_RECORD_WORKLOAD_H
#define C2C_RECORD_WORKLOAD_H

#include <errno.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "c2c/run.h"

struct workload {
	pid_t pid;               /* 0: none */
	int go_fd, err_fd;       /* -1 when closed */
	int started;             /* released to exec */
	int done;                /* reaped; status valid */
	int status;              /* wait status */
	int exec_errno;          /* its exec failed with this errno (0: it did not fail) */
	int stdout_to_stderr;    /* the child's standard output goes to standard error (record
				  * -o -: standard output carries the trace) */
	uint64_t start_ns, end_ns;   /* CLOCK_MONOTONIC: released to exec, seen reaped */
	struct rusage ru;        /* of the reaped child and the children it waited for */
};

void workload_init(struct workload *w);
/* Fork the child; it waits for workload_start() before exec'ing @argv. */
int workload_fork(struct workload *w, char **argv);
/* The exit status of a command whose workload could not start, as the shell's: 127 when its exec
 * failed with ENOENT (not found), 126 otherwise (found but not runnable). */
#define WORKLOAD_EXEC_STATUS(e) ((e) == ENOENT ? 127 : 126)
/* Release the child; -errno (logged, and kept in exec_errno) when its exec failed. */
int workload_start(struct workload *w, const char *name);
/* Reap the child if it ended (@block: wait for it); 1 when it is done. */
int workload_reap(struct workload *w, int block);
/* End a child still running: never started ones exit on EOF, started ones get SIGTERM (not one
 * whose exec failed: it is exiting on its own); then wait for it. */
void workload_stop(struct workload *w);
void workload_release(struct workload *w);
/* The run of a workload that was started and reaped: 0 and @out filled, else -ENOENT. */
int workload_run(const struct workload *w, struct c2c_run *out);

#endif
