/* A workload for tests/e2e/record-callchain.sh: main -> outer -> middle -> inner, where inner
 * loads and stores a shared counter for about @1 seconds (default 0.3). Built with frame
 * pointers, so the kernel's walk (record -g) reaches outer from every sample in inner. */
#include <stdlib.h>
#include <time.h>

volatile long counter;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void inner(double end)
{
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			counter++;
}

__attribute__((noinline)) void middle(double end)
{
	inner(end);
	counter += 2;
}

__attribute__((noinline)) void outer(double end)
{
	middle(end);
	counter += 3;
}

int main(int argc, char **argv)
{
	outer(now() + (argc > 1 ? atof(argv[1]) : 0.3));
	return 0;
}
