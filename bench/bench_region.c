/* Cost of a region marker (c2c_region_begin or c2c_region_end) on this machine: N begin/end
 * pairs on one region, minus the same loop without markers, per marker, in CPU time of the
 * thread (time spent waiting for a CPU on a loaded machine is not the marker's). Prints how the
 * counters were read: rdpmc through the mmap page where the PMU allows it (target: under 50 ns),
 * else one read() of the group (the fallback, the only one that runs in a VM without a virtual
 * PMU).
 *
 *   bench_region           200000 pairs
 *   bench_region N         N pairs */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "c2c/region.h"

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);   /* CPU time: the machine is shared */
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static volatile uint64_t sink;

static double loop_ns(struct c2c_region *r, long n)
{
	double t0 = now_ns();

	for (long i = 0; i < n; i++) {
		if (r)
			c2c_region_begin(r);
		sink += (uint64_t)i;
		if (r)
			c2c_region_end(r);
	}
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	static const char *const how[] = { "no counters", "rdpmc", "read() of the group" };
	long n = argc > 1 ? atol(argv[1]) : 200000;
	struct c2c_region *r = c2c_region_new("bench");
	struct c2c_region_stats st;
	double base, with, best = 1e300;

	if (!r || n <= 0)
		return 1;
	loop_ns(r, 1000);                    /* open the counters, warm the caches */
	base = loop_ns(NULL, n);
	for (int rep = 0; rep < 3; rep++) {  /* the best of three: the machine is shared */
		with = loop_ns(r, n);
		if (with < best)
			best = with;
	}
	c2c_region_stats(r, &st);
	printf("region markers: %.0f ns per marker (%ld begin/end pairs, best of 3), counters by %s\n",
	       (best - base) / (2.0 * (double)n), n, how[st.how]);
	for (unsigned i = 0; i < st.nr; i++)
		printf("  %s over all pairs: %llu\n", st.counter[i], (unsigned long long)st.value[i]);
	c2c_region_free(r);
	return 0;
}
