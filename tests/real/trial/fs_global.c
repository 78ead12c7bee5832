/* New-user trial (issue 28): a global struct of counters, one per thread. Fixed: -DFIXED. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#ifdef FIXED
#define PAD __attribute__((aligned(64)))
#else
#define PAD
#endif
struct stats {
	PAD long rx;
	PAD long tx;
};
/* each starts a line: only the counters share one */
struct stats g_stats __attribute__((aligned(64)));
_Alignas(64) atomic_int stop;

static void *rx_worker(void *arg) {
	while (!stop) g_stats.rx++;
	return arg;
}
static void *tx_worker(void *arg) {
	while (!stop) g_stats.tx++;
	return arg;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, rx_worker, NULL);
	pthread_create(&b, NULL, tx_worker, NULL);
	sleep(1);
	stop = 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("rx %ld tx %ld\n", g_stats.rx, g_stats.tx);
	return 0;
}
