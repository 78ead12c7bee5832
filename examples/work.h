/* Fixed work instead of fixed time, for benchmarks (bench/bench_soft_overhead.sh). With
 * EXAMPLES_ITERS=N in the environment an example runs until each worker has done N iterations
 * of its loop (the main thread polls the workers' counters every millisecond, then stops them as
 * SECONDS would), so its wall and CPU time measure the cost of the same work with or without a
 * recorder; the summary line then gives the seconds the run took. Unset, a run lasts SECONDS.
 * The workers' code is left as it was: the README lists their hot instructions (the soft backend
 * must recover their data addresses) and tests place addresses in their .text. These helpers are
 * always inlined so that no function of this header lands before the workers. */
#ifndef C2C_EXAMPLES_WORK_H
#define C2C_EXAMPLES_WORK_H

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define EXAMPLE_INLINE static inline __attribute__((always_inline))

/* N of EXAMPLES_ITERS=N, or 0 (run for SECONDS). */
EXAMPLE_INLINE long example_iters(void)
{
	const char *s = getenv("EXAMPLES_ITERS");
	long n = s ? atol(s) : 0;

	return n > 0 ? n : 0;
}

EXAMPLE_INLINE double example_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One poll of the workers' progress. */
EXAMPLE_INLINE void example_poll(void)
{
	usleep(1000);
}

#endif
