/* Symbolization test program, built -O2 -g by tests/test_symbols.c: threads hammer a counter
 * through an always-inlined helper. Lines tagged MARK:<name> are looked up by the test. */
#include <pthread.h>
#include <stdio.h>

#include "symprog.h"

#ifndef LOOPS
#define LOOPS 100000
#endif

struct stat_s stats[4];

static inline __attribute__((always_inline)) void bump(struct stat_s *s, int v)
{
	__atomic_fetch_add(&s->hits, v, __ATOMIC_RELAXED); /* MARK:bump_body */
}

__attribute__((noinline)) void *worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < LOOPS; i++)
		bump(&stats[id & 3], i & 7); /* MARK:bump_call */
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", stats[0].hits + stats[1].hits);
	return 0;
}
