/* New-user trial (issue 28): a malloc'ed array of per-thread structs, each thread counting hits
 * in its own (-DBRANCH: hits, and misses every 8th time). Fixed: -DFIXED. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct percpu {
	long hits;
	long misses;
#ifdef FIXED
} __attribute__((aligned(64)));
#else
};
#endif
struct percpu *slots;
atomic_int stop;

static void *worker(void *arg) {
	struct percpu *me = &slots[(long)arg];
#ifndef BRANCH
	while (!stop) me->hits++;
#else
	for (long i = 0; !stop; i++) if (i & 7) me->hits++; else me->misses++;
#endif
	return NULL;
}
int main(void) {
	pthread_t t[2];
#ifdef FIXED
	slots = aligned_alloc(64, 2 * sizeof(struct percpu));
#else
	slots = malloc(2 * sizeof(struct percpu));
#endif
	for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, (void *)i);
	sleep(1);
	stop = 1;
	for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
	printf("%ld %ld\n", slots[0].hits, slots[1].hits);
	return 0;
}
