/* A workload for tests/e2e/record-callchain.sh and report-callchain.sh: main -> outer ->
 * middle -> inner, where inner loads and stores a shared counter for about @1 seconds (default
 * 0.3), or with a second argument 'pages' writes one byte in each page of 32 MiB (a page fault
 * each). Built with frame pointers, the kernel's walk (record -g) reaches outer from every
 * sample in inner; built without, only a DWARF unwind (--call-graph dwarf) does. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile long counter;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *pages;

__attribute__((noinline)) void inner(double end)
{
	if (pages) {
		for (size_t i = 0; i < (32u << 20); i += 4096)
			pages[i] = 1;
		return;
	}
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
	if (argc > 2 && !strcmp(argv[2], "pages") && !(pages = malloc(32u << 20)))
		return 1;
	outer(now() + (argc > 1 ? atof(argv[1]) : 0.3));
	return 0;
}
