/* False sharing on the heap: the two counters of one malloc'ed struct are bumped by two threads
 * through a typed pointer (struct counters *c), so no symbol names the line; the instruction at
 * each sample and the DWARF location of `c` name it: c->hits at offset 0, c->misses at offset 8.
 *
 * usage: heap_sharing [SECONDS]   (default 2; prints a one-line summary to stderr)
 * EXAMPLES_ITERS=N: until each thread did N increments, instead of SECONDS (work.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pin.h"
#include "work.h"

/* Allocated once, 64-byte aligned: both members share its first line. volatile keeps one load
 * and one store per increment at -O1. */
struct counters {
	volatile long hits;
	volatile long misses;
	long pad[6];
};

struct worker {
	struct counters *c;
	int cpu;
};

/* The stop flag lives on a line of its own so that it does not join the contention. */
struct control {
	volatile int stop;
} __attribute__((aligned(64)));

struct control ctl;

/* noinline: `c` stays a parameter in a register for the whole loop */
static __attribute__((noinline)) void count_hits(struct counters *c)
{
	while (!ctl.stop)
		for (int i = 0; i < 4096; i++)
			c->hits++;
}

static __attribute__((noinline)) void count_misses(struct counters *c)
{
	while (!ctl.stop)
		for (int i = 0; i < 4096; i++)
			c->misses++;
}

static void *run_hits(void *arg)
{
	struct worker *w = arg;

	example_pin(w->cpu);
	count_hits(w->c);
	return NULL;
}

static void *run_misses(void *arg)
{
	struct worker *w = arg;

	example_pin(w->cpu);
	count_misses(w->c);
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
	struct counters *c = aligned_alloc(64, sizeof(*c));
	struct worker wa, wb;
	pthread_t ta, tb;

	if (!c) {
		fprintf(stderr, "heap_sharing: out of memory\n");
		return 1;
	}
	c->hits = c->misses = 0;
	wa = (struct worker){ .c = c, .cpu = 0 };
	wb = (struct worker){ .c = c, .cpu = 1 };
	if (pthread_create(&ta, NULL, run_hits, &wa) || pthread_create(&tb, NULL, run_misses, &wb)) {
		fprintf(stderr, "heap_sharing: cannot create threads\n");
		return 1;
	}
	if (iters)                        /* EXAMPLES_ITERS: until both threads did that many */
		while (c->hits < iters || c->misses < iters)
			example_poll();
	else
		usleep((useconds_t)(secs * 1e6));
	ctl.stop = 1;
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (iters)
		secs = example_now() - t0;
	fprintf(stderr, "heap_sharing: 2 threads, %.1f s: c->hits=%ld c->misses=%ld "
		"(%.1f M increments/s)\n", secs, c->hits, c->misses, (c->hits + c->misses) / secs / 1e6);
	free(c);
	return 0;
}
