/* witness (d) of issue 28 (tests/e2e/soft-confirm.sh): a heap array of per-thread structs, each
 * thread on its own element (the if/else puts a branch target after the store) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct percpu { long hits; long misses; };
static struct percpu *slots;

static void *worker(void *arg)
{
	struct percpu *me = &slots[(long)arg];
	for (long i = 0; i < 300000000; i++) {
		if (i & 7)
			me->hits++;
		else
			me->misses++;
		__asm__ volatile("" ::: "memory");
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	slots = calloc(4, sizeof(*slots));
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 2));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", slots[2].hits, slots[3].hits);
	free(slots);
	return 0;
}
