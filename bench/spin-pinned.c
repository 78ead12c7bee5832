/* spin-pinned: a workload for bench/bench_soft_overhead.sh, not a benchmark of its own. Fixed
 * work on one thread pinned to one CPU: what a recorder's samples cost a thread, without lines
 * that threads contend for (a recorder's interruptions change how often such lines move, and so
 * the examples' times, either way) and without a second workload thread competing with the
 * recorder for the CPUs. It pins itself to the highest CPU it may run on (the bench gives it and
 * the recorder the same taskset: the recorder keeps the others) and runs EXAMPLES_ITERS
 * iterations (default 10^9) of an add on a volatile word. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long word;

int main(void)
{
	const char *s = getenv("EXAMPLES_ITERS");
	unsigned long n = s ? strtoul(s, NULL, 10) : 0, i;
	cpu_set_t set;
	int cpu = -1, c;

	if (!n)
		n = 1000000000ul;
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpu = c;
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("spin-pinned: sched_setaffinity");
	}
	for (i = 0; i < n; i++)
		word = word + 1;
	return 0;
}
