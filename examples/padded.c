/* The control for false_sharing: the same two counters, but each on its own 64-byte line
 * (buf1.a at offset 0, buf1.b at offset 64), so the threads never share a line.
 *
 * usage: padded [SECONDS]   (default 2; prints a one-line summary to stderr)
 * EXAMPLES_ITERS=N: until each thread did N increments, instead of SECONDS (work.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pin.h"
#include "work.h"

struct padded_pair {
	volatile long a __attribute__((aligned(64)));
	volatile long b __attribute__((aligned(64)));
} __attribute__((aligned(64)));

struct padded_pair buf1;

struct control {
	volatile int stop;
} __attribute__((aligned(64)));

struct control ctl;

static void *bump_a(void *arg)
{
	(void)arg;
	example_pin(0);
	while (!ctl.stop)
		for (int i = 0; i < 4096; i++)
			buf1.a++;
	return NULL;
}

static void *bump_b(void *arg)
{
	(void)arg;
	example_pin(1);
	while (!ctl.stop)
		for (int i = 0; i < 4096; i++)
			buf1.b++;
	return NULL;
}

static double parse_seconds(int argc, char **argv)
{
	char *end;
	double s = argc > 1 ? strtod(argv[1], &end) : 2.0;

	if (argc > 2 || (argc > 1 && (*end || s <= 0 || s > 3600))) {
		fprintf(stderr, "usage: %s [SECONDS]  (0 < SECONDS <= 3600)\n", argv[0]);
		exit(2);
	}
	return s;
}

int main(int argc, char **argv)
{
	double secs = parse_seconds(argc, argv), t0 = example_now();
	long iters = example_iters();
	pthread_t ta, tb;

	if (pthread_create(&ta, NULL, bump_a, NULL) || pthread_create(&tb, NULL, bump_b, NULL)) {
		fprintf(stderr, "padded: cannot create threads\n");
		return 1;
	}
	if (iters)                        /* EXAMPLES_ITERS: until both threads did that many */
		while (buf1.a < iters || buf1.b < iters)
			example_poll();
	else
		usleep((useconds_t)(secs * 1e6));
	ctl.stop = 1;
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (iters)
		secs = example_now() - t0;
	fprintf(stderr, "padded: 2 threads, %.1f s: buf1.a=%ld buf1.b=%ld (%.1f M increments/s)\n",
		secs, buf1.a, buf1.b, (buf1.a + buf1.b) / secs / 1e6);
	return 0;
}
