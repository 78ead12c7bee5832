/* True sharing: every thread increments the same counter (counter.hits, offset 0) with an
 * atomic add, so the threads really do need the same bytes and the line moves on every add.
 *
 * usage: true_sharing [SECONDS [THREADS]]   (defaults 2 and 2; one-line summary on stderr)
 * EXAMPLES_ITERS=N: until each thread did N atomic adds, instead of SECONDS (work.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "pin.h"
#include "work.h"

#define MAX_THREADS 64

struct shared_counter {
	long hits;
} __attribute__((aligned(64)));

struct shared_counter counter;

struct control {
	volatile int stop;
} __attribute__((aligned(64)));

struct control ctl;

static void *bump(void *arg)
{
	example_pin((int)(long)arg);
	while (!ctl.stop)
		for (int i = 0; i < 4096; i++)
			__atomic_fetch_add(&counter.hits, 1, __ATOMIC_RELAXED);
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
	long n = 2;
	char *end;

	if (argc > 3)
		usage(argv[0]);
	if (argc > 1 && ((secs = strtod(argv[1], &end)), *end || secs <= 0 || secs > 3600))
		usage(argv[0]);
	if (argc > 2 && ((n = strtol(argv[2], &end, 10)), *end || n < 1 || n > MAX_THREADS))
		usage(argv[0]);
	for (long i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, bump, (void *)i)) {
			fprintf(stderr, "true_sharing: cannot create threads\n");
			return 1;
		}
	}
	if (iters)                        /* EXAMPLES_ITERS: until the threads did that many each */
		while (__atomic_load_n(&counter.hits, __ATOMIC_RELAXED) < iters * n)
			example_poll();
	else
		usleep((useconds_t)(secs * 1e6));
	ctl.stop = 1;
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (iters)
		secs = example_now() - t0;
	fprintf(stderr, "true_sharing: %ld threads, %.1f s: counter.hits=%ld (%.1f M atomic adds/s)\n",
		n, secs, counter.hits, counter.hits / secs / 1e6);
	return 0;
}
