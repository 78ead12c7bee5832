/* Region markers (include/c2c/region.h) around two phases of the same work: two threads first
 * increment neighbouring counters of one cacheline (region "shared": false sharing), then
 * counters 64 bytes apart (region "padded": none). Alone it prints each region's counters (read
 * with rdpmc where the PMU allows it, else with read()); under `c2c-lite record` the markers go
 * into the trace and `c2c-lite report --regions` splits the samples per region.
 *
 * usage: region [SECONDS]   (default 2, half per phase; the regions' counts go to stderr)
 * EXAMPLES_ITERS=N: each thread does N increments in each phase instead (work.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "c2c/region.h"
#include "pin.h"
#include "work.h"

struct pair {
	volatile long a;
	volatile long b;
} __attribute__((aligned(64)));

struct apart {
	volatile long a;
	char pad[56];
	volatile long b;
} __attribute__((aligned(64)));

struct pair shared;
struct apart padded;

static struct c2c_region *r_shared, *r_padded;
static double phase_s;
static pthread_barrier_t barrier;

/* Increment *p in a region until the phase is over (its time, or its EXAMPLES_ITERS). */
static void phase(struct c2c_region *r, volatile long *p)
{
	long iters = example_iters();
	double end;

	pthread_barrier_wait(&barrier);
	end = example_now() + phase_s;
	c2c_region_begin(r);
	while (iters ? *p < iters : example_now() < end)
		for (int i = 0; i < 4096; i++)
			(*p)++;
	c2c_region_end(r);
}

static void *worker(void *arg)
{
	long w = (long)arg;

	example_pin((int)w);
	phase(r_shared, w ? &shared.b : &shared.a);
	phase(r_padded, w ? &padded.b : &padded.a);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	phase_s = (argc > 1 ? atof(argv[1]) : 2.0) / 2;
	r_shared = c2c_region_new("shared");
	r_padded = c2c_region_new("padded");
	if (!r_shared || !r_padded || phase_s <= 0)
		return 1;
	pthread_barrier_init(&barrier, NULL, 2);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	fprintf(stderr, "region: shared.a=%ld shared.b=%ld padded.a=%ld padded.b=%ld\n", shared.a,
		shared.b, padded.a, padded.b);
	c2c_region_print_all(stderr);
	c2c_region_free(r_shared);
	c2c_region_free(r_padded);
	return 0;
}
