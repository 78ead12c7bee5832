/* Runs a command and appends one line to FILE: its wall seconds, then the user and system CPU
 * seconds of the command and every child it waited for (wait4's rusage), in microseconds'
 * resolution. hyperfine exports the wall time of each run but only the mean CPU time, so
 * bench/bench_soft_overhead.sh runs its commands under this to get the CPU time of each run.
 * Exits with the command's status (128+N when signal N ended it; 127 when it could not start).
 *
 *   run-rusage FILE CMD [ARGS...] */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double t0;
	FILE *f;
	pid_t pid;
	int st;

	if (argc < 3) {
		fprintf(stderr, "usage: run-rusage FILE CMD [ARGS...]\n");
		return 2;
	}
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("run-rusage: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "run-rusage: cannot run '%s': %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("run-rusage: wait4");
			return 1;
		}
	f = fopen(argv[1], "a");
	if (!f) {
		fprintf(stderr, "run-rusage: cannot open '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	fprintf(f, "%.6f %.6f %.6f\n", now() - t0, seconds(ru.ru_utime), seconds(ru.ru_stime));
	fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
