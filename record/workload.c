/* Forking, releasing and reaping the recorded workload (see workload.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "c2c/log.h"
#include "record/workload.h"

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

void workload_init(struct workload *w)
{
	memset(w, 0, sizeof(*w));
	w->go_fd = w->err_fd = -1;
}

static void child(int go, int ep, char **argv, int stdout_to_stderr)
{
	char c;
	int e;

	if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (read(go, &c, 1) != 1)
		_exit(127);              /* the recorder gave up before starting us */
	execvp(argv[0], argv);
	e = errno;
	if (write(ep, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int workload_fork(struct workload *w, char **argv)
{
	int go[2], ep[2];

	if (pipe2(go, O_CLOEXEC))
		return c2c_err(-errno, "cannot create a pipe: %s", strerror(errno));
	if (pipe2(ep, O_CLOEXEC)) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		return c2c_err(err, "cannot create a pipe: %s", strerror(-err));
	}
	w->pid = fork();
	if (w->pid < 0) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		w->pid = 0;
		return c2c_err(err, "cannot fork: %s", strerror(-err));
	}
	if (w->pid == 0) {
		close(go[1]);
		close(ep[0]);
		child(go[0], ep[1], argv, w->stdout_to_stderr);
	}
	close(go[0]);
	close(ep[1]);
	w->go_fd = go[1];
	w->err_fd = ep[0];
	return 0;
}

int workload_start(struct workload *w, const char *name)
{
	int e = 0;
	ssize_t n;

	w->start_ns = mono_ns();
	if (write(w->go_fd, "g", 1) != 1)
		return c2c_err(-errno, "cannot start the workload: %s", strerror(errno));
	w->started = 1;
	close(w->go_fd);
	w->go_fd = -1;
	n = read(w->err_fd, &e, sizeof(e));   /* EOF when exec succeeded (close-on-exec) */
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		w->exec_errno = e;
		return c2c_err(-e, "cannot run '%s': %s", name, strerror(e));
	}
	return 0;
}

int workload_reap(struct workload *w, int block)
{
	if (w->pid <= 0 || w->done)
		return w->done;
	if (wait4(w->pid, &w->status, block ? 0 : WNOHANG, &w->ru) == w->pid) {
		w->done = 1;
		w->end_ns = mono_ns();
	}
	return w->done;
}

static uint64_t tv_ns(const struct timeval *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_usec * 1000ULL;
}

int workload_run(const struct workload *w, struct c2c_run *out)
{
	memset(out, 0, sizeof(*out));
	if (!w->started || !w->done || w->exec_errno || w->end_ns < w->start_ns)
		return -ENOENT;
	out->wall_ns = w->end_ns - w->start_ns;
	out->user_ns = tv_ns(&w->ru.ru_utime);
	out->sys_ns = tv_ns(&w->ru.ru_stime);
	out->maxrss_kb = (uint64_t)w->ru.ru_maxrss;
	out->signaled = WIFSIGNALED(w->status);
	out->status = out->signaled ? WTERMSIG(w->status) : WEXITSTATUS(w->status);
	return 0;
}

void workload_stop(struct workload *w)
{
	if (w->pid <= 0 || w->done)
		return;
	if (w->go_fd >= 0) {
		close(w->go_fd);
		w->go_fd = -1;
	} else if (!w->exec_errno) {
		kill(w->pid, SIGTERM);
	}
	workload_reap(w, 1);
}

void workload_release(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
}
