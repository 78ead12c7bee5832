/* witness (c) of issue 28 (tests/e2e/soft-confirm.sh): two threads increment their own members of
 * one global struct */
#include <pthread.h>
#include <stdio.h>

struct stats { long a_count; long b_count; };
static struct stats g_stats;

static void *work_a(void *x)
{
	(void)x;
	for (long i = 0; i < 150000000; i++)
		__atomic_fetch_add(&g_stats.a_count, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *work_b(void *x)
{
	(void)x;
	for (long i = 0; i < 150000000; i++)
		{ g_stats.b_count++; __asm__ volatile("" ::: "memory"); }
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, work_a, NULL);
	pthread_create(&t2, NULL, work_b, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	printf("%ld %ld\n", g_stats.a_count, g_stats.b_count);
	return 0;
}
