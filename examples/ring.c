/* A single-producer single-consumer ring whose indexes share a line: the producer writes
 * ring.head (offset 0) and reads ring.tail, the consumer writes ring.tail (offset 8) and reads
 * ring.head. Each index is truly shared (written by one thread, read by the other) and the two
 * indexes falsely share their line. The slots (ring_data) are on lines of their own.
 *
 * usage: ring [SECONDS]   (default 2; prints a one-line summary to stderr)
 * EXAMPLES_ITERS=N: until the consumer took N items, instead of SECONDS (work.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "work.h"

#define RING_SIZE 1024           /* a power of two */

struct ring_index {
	volatile unsigned long head; /* next slot the producer fills */
	volatile unsigned long tail; /* next slot the consumer empties */
} __attribute__((aligned(64)));

struct ring_index ring;
long ring_data[RING_SIZE] __attribute__((aligned(64)));

struct control {
	volatile int stop;
} __attribute__((aligned(64)));

struct control ctl;
static long consumed_sum;

static void *produce(void *arg)
{
	unsigned long head = 0;

	(void)arg;
	while (!ctl.stop) {
		for (int i = 0; i < 4096; i++) {
			if (head - __atomic_load_n(&ring.tail, __ATOMIC_ACQUIRE) == RING_SIZE)
				continue;   /* full */
			ring_data[head % RING_SIZE] = (long)head;
			__atomic_store_n(&ring.head, ++head, __ATOMIC_RELEASE);
		}
	}
	return NULL;
}

static void *consume(void *arg)
{
	unsigned long tail = 0;
	long sum = 0;

	(void)arg;
	while (!ctl.stop) {
		for (int i = 0; i < 4096; i++) {
			if (__atomic_load_n(&ring.head, __ATOMIC_ACQUIRE) == tail)
				continue;   /* empty */
			sum += ring_data[tail % RING_SIZE];
			__atomic_store_n(&ring.tail, ++tail, __ATOMIC_RELEASE);
		}
	}
	consumed_sum = sum;
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
	pthread_t tp, tc;
	unsigned long n;

	if (pthread_create(&tp, NULL, produce, NULL) || pthread_create(&tc, NULL, consume, NULL)) {
		fprintf(stderr, "ring: cannot create threads\n");
		return 1;
	}
	if (iters)                        /* EXAMPLES_ITERS: until the consumer took that many */
		while (__atomic_load_n(&ring.tail, __ATOMIC_RELAXED) < (unsigned long)iters)
			example_poll();
	else
		usleep((useconds_t)(secs * 1e6));
	ctl.stop = 1;
	pthread_join(tp, NULL);
	pthread_join(tc, NULL);
	if (iters)
		secs = example_now() - t0;
	n = ring.tail;
	/* the items are 0, 1, 2, ...: their sum checks that every item arrived once, in order */
	if ((unsigned long)consumed_sum != n * (n - 1) / 2 && n) {
		fprintf(stderr, "ring: lost items: %lu consumed, sum %ld\n", n, consumed_sum);
		return 1;
	}
	fprintf(stderr, "ring: producer+consumer, %.1f s: ring.head=%lu ring.tail=%lu (%.1f M items/s)\n",
		secs, ring.head, n, n / secs / 1e6);
	return 0;
}
