/* Per-thread slots: thread i increments slots[i].count. The slots are 8 bytes each and packed,
 * so 8 threads' slots share one 64-byte line: false sharing between neighbouring slots (with 2
 * threads: offsets 0 and 8 of the first line of slots).
 *
 * usage: slots [SECONDS [THREADS]]   (defaults 2 and 2; one-line summary on stderr)
 * EXAMPLES_ITERS=N: until each thread did N increments, instead of SECONDS (work.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "pin.h"
#include "work.h"

#define MAX_THREADS 64

struct slot {
	volatile long count;
};

struct slot slots[MAX_THREADS] __attribute__((aligned(64)));

struct control {
	volatile int stop;
} __attribute__((aligned(64)));

struct control ctl;

static void *bump(void *arg)
{
	struct slot *mine = arg;

	example_pin((int)(mine - slots));
	while (!ctl.stop)
		for (int i = 0; i < 4096; i++)
			mine->count++;
	return NULL;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [SECONDS [THREADS]]  (0 < SECONDS <= 3600, 1 <= THREADS <= %d)\n",
		prog, MAX_THREADS);
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	double secs = 2.0, t0 = example_now();
	long iters = example_iters();
	long n = 2, total = 0;
	char *end;

	if (argc > 3)
		usage(argv[0]);
	if (argc > 1 && ((secs = strtod(argv[1], &end)), *end || secs <= 0 || secs > 3600))
		usage(argv[0]);
	if (argc > 2 && ((n = strtol(argv[2], &end, 10)), *end || n < 1 || n > MAX_THREADS))
		usage(argv[0]);
	for (long i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, bump, &slots[i])) {
			fprintf(stderr, "slots: cannot create threads\n");
			return 1;
		}
	}
	for (long i = 0; iters && i < n; i++)  /* EXAMPLES_ITERS: until every thread did that many */
		while (slots[i].count < iters)
			example_poll();
	if (!iters)
		usleep((useconds_t)(secs * 1e6));
	ctl.stop = 1;
	for (long i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += slots[i].count;
	}
	if (iters)
		secs = example_now() - t0;
	fprintf(stderr, "slots: %ld threads, %.1f s: sum of slots[].count=%ld (%.1f M increments/s)\n",
		n, secs, total, total / secs / 1e6);
	return 0;
}
