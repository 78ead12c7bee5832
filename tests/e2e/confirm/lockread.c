/* witness (a) of issue 28 (tests/e2e/soft-confirm.sh): one thread xchg/stores a lock word, another
 * loads a word 32 bytes further on the same line, dominated by divisions on its locals (built -O0:
 * its samples land on its stack, rarely on the shared line) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct shared { volatile long lock; long pad[3]; volatile long seen; long pad2[3]; };
static struct shared g_line __attribute__((aligned(64)));
static volatile int stop;

static void *locker(void *a)
{
	(void)a;
	for (long i = 0; !stop; i++) {
		while (__atomic_exchange_n(&g_line.lock, 1, __ATOMIC_ACQUIRE))
			;
		g_line.lock = 0;
	}
	return NULL;
}

static void *reader(void *a)
{
	long sum = 0, d = (long)(size_t)a + 7, x = 1;
	for (long i = 0; i < 4000000; i++) {
		sum += g_line.seen;          /* the shared line: one light load */
		for (int j = 0; j < 64; j++) /* the work: divisions on locals */
			x = x / d + i + j;
	}
	sum += x;
	stop = 1;
	return (void *)sum;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, locker, NULL);
	pthread_create(&t2, NULL, reader, (void *)3);
	pthread_join(t2, NULL);
	pthread_join(t1, NULL);
	printf("%ld\n", g_line.seen);
	return 0;
}
