/* A spinlock next to read-mostly data: hot.lock (offset 0) is taken and released over and over
 * by a locker thread, while reader threads only read hot.config[] (offsets 8-63), which nobody
 * writes. Every lock operation steals the line, so the readers miss on data that never changes:
 * false sharing between the lock and the configuration. The counter the lock protects
 * (stats.updates) is on its own line.
 *
 * usage: lock_hot [SECONDS [THREADS]]   (defaults 2 and 2: one locker, THREADS-1 readers;
 * one-line summary on stderr). EXAMPLES_ITERS=N: until the locker took the lock N times, instead
 * of SECONDS (work.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "pin.h"
#include "work.h"

#define MAX_THREADS 64
#define NR_CONFIG 7

struct hot_line {
	volatile long lock;               /* 0 free, 1 held */
	volatile long config[NR_CONFIG];  /* read-mostly: set once at start */
} __attribute__((aligned(64)));

struct hot_line hot;

struct lock_stats {
	long updates;                     /* protected by hot.lock */
} __attribute__((aligned(64)));

struct lock_stats stats;

struct control {
	volatile int stop;
} __attribute__((aligned(64)));

struct control ctl;

static void lock(void)
{
	while (__atomic_exchange_n(&hot.lock, 1, __ATOMIC_ACQUIRE))
		while (hot.lock)
			__builtin_ia32_pause();
}

static void unlock(void)
{
	__atomic_store_n(&hot.lock, 0, __ATOMIC_RELEASE);
}

static void *locker(void *arg)
{
	(void)arg;
	example_pin(0);
	while (!ctl.stop) {
		for (int i = 0; i < 4096; i++) {
			lock();
			stats.updates++;
			unlock();
		}
	}
	return NULL;
}

/* What each reader did, one line per reader so that the tallies share nothing. */
struct reader_tally {
	long reads, sum;
} __attribute__((aligned(64)));

static struct reader_tally tally[MAX_THREADS];

static void *reader(void *arg)
{
	struct reader_tally *me = arg;
	long sum = 0;

	example_pin((int)(me - tally));

	/* spelled out so that each read is one rip-relative load (an indexed loop at -O1 reuses
	 * the index register as the destination, and the soft backend then loses the address) */
	while (!ctl.stop) {
		for (int i = 0; i < 4096; i++)
			sum += hot.config[0] + hot.config[1] + hot.config[2] + hot.config[3] +
			       hot.config[4] + hot.config[5] + hot.config[6];
		me->reads += 4096 * NR_CONFIG;
	}
	me->sum = sum;
	return NULL;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [SECONDS [THREADS]]  (0 < SECONDS <= 3600, 2 <= THREADS <= %d)\n",
		prog, MAX_THREADS);
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	double secs = 2.0, t0 = example_now();
	long iters = example_iters();
	long n = 2, total = 0;
	char *end;

	if (argc > 3)
		usage(argv[0]);
	if (argc > 1 && ((secs = strtod(argv[1], &end)), *end || secs <= 0 || secs > 3600))
		usage(argv[0]);
	if (argc > 2 && ((n = strtol(argv[2], &end, 10)), *end || n < 2 || n > MAX_THREADS))
		usage(argv[0]);
	for (int j = 0; j < NR_CONFIG; j++)
		hot.config[j] = j + 1;
	for (long i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, i ? reader : locker, &tally[i])) {
			fprintf(stderr, "lock_hot: cannot create threads\n");
			return 1;
		}
	}
	if (iters)                        /* EXAMPLES_ITERS: until the locker did that many */
		while (__atomic_load_n(&stats.updates, __ATOMIC_RELAXED) < iters)
			example_poll();
	else
		usleep((useconds_t)(secs * 1e6));
	ctl.stop = 1;
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (iters)
		secs = example_now() - t0;
	for (long i = 1; i < n; i++)
		total += tally[i].reads;
	fprintf(stderr, "lock_hot: 1 locker + %ld reader(s), %.1f s: stats.updates=%ld, %ld reads of "
		"hot.config (%.1f M lock/unlock/s)\n", n - 1, secs, stats.updates, total,
		stats.updates / secs / 1e6);
	return 0;
}
