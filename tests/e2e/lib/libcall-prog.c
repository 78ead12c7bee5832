/* A workload that spends its time in the C library (tests/e2e/soft-libcode.sh): two threads,
 * each clearing its own half of one 64-byte line with memset (false sharing that only the
 * library's code touches) and taking one shared mutex to bump a shared counter (true sharing),
 * for the seconds given (default 2). In glibc the time goes to code no dynamic symbol bounds:
 * memset's implementation (an IFUNC picks __memset_avx2_unaligned_erms or the like, whose
 * stores are SSE/AVX moves), the unlock behind pthread_mutex_unlock's 10-byte wrapper, and
 * __lll_lock_wait when the mutex is taken. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct halves {
	char h[2][32];
} __attribute__((aligned(64)));

struct halves line;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
unsigned long counter;
static double seconds = 2.0;
static volatile size_t len = 32;   /* not a constant: memset is called, not inlined */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	char *half = arg;
	double end = now() + seconds;
	unsigned long n = 0;

	do {
		for (int i = 0; i < 4096; i++, n++) {
			for (int k = 0; k < 8; k++) {
				memset(half, (int)(n + k), len);
				__asm__ volatile("" : : "r"(half) : "memory");
			}
			pthread_mutex_lock(&lock);
			counter++;
			pthread_mutex_unlock(&lock);
		}
	} while (now() < end);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		seconds = atof(argv[1]);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, line.h[i]))
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("libcall-prog: %lu locked increments\n", counter);
	return 0;
}
