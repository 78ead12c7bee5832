/* Pinning for the example workloads: worker N runs on the N-th CPU this process may use (modulo
 * their number), so two workers are on two CPUs whenever the machine has two. Unpinned, a loaded
 * 2-CPU machine often runs both on one CPU, where no cacheline moves between caches and there is
 * no contention to find. EXAMPLES_NO_PIN=1 leaves placement to the scheduler. */
#ifndef C2C_EXAMPLES_PIN_H
#define C2C_EXAMPLES_PIN_H

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

static inline void example_pin(int worker)
{
	cpu_set_t allowed, one;
	int n = 0, want, cpu;

	if (getenv("EXAMPLES_NO_PIN") || sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	want = worker % (CPU_COUNT(&allowed) ? CPU_COUNT(&allowed) : 1);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || n++ != want)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
		return;
	}
}

#endif
