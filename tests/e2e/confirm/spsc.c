/* witness (b) of issue 28 (tests/e2e/soft-confirm.sh): a single-producer single-consumer ring
 * whose head and tail indexes are truly shared: each written by one side, read by the other */
#include <pthread.h>
#include <stdio.h>

#define N 1024
struct ring { volatile unsigned long head, tail; long buf[N]; };
static struct ring g_ring __attribute__((aligned(64)));
#define ITERS 20000000UL

static void *producer(void *a)
{
	(void)a;
	for (unsigned long i = 0; i < ITERS; i++) {
		while (g_ring.tail - __atomic_load_n(&g_ring.head, __ATOMIC_ACQUIRE) == N)
			;
		g_ring.buf[g_ring.tail % N] = (long)i;
		__atomic_store_n(&g_ring.tail, g_ring.tail + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void *consumer(void *a)
{
	long sum = 0;
	(void)a;
	for (unsigned long i = 0; i < ITERS; i++) {
		while (__atomic_load_n(&g_ring.tail, __ATOMIC_ACQUIRE) == g_ring.head)
			;
		sum += g_ring.buf[g_ring.head % N];
		__atomic_store_n(&g_ring.head, g_ring.head + 1, __ATOMIC_RELEASE);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t p, c;
	void *r;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, &r);
	printf("%ld\n", (long)r);
	return 0;
}
