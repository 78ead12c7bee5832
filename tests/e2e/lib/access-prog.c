/* tests/e2e/soft-access.sh: per-thread heap elements updated in a loop. Mode "ifelse": `if (i & 7)
 * me->hits++; else me->misses++;` (at -O2 the IP after either store is a branch target or
 * follows one). Mode "div": a chain of divisions with a store every 1024 iterations: most
 * samples land where no memory is touched. Argument 2: seconds (default 1). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct percpu {
	long hits;
	long misses;
};

static struct percpu *slots;
static int mode_div;
static volatile int stop;

static void *work(void *arg)
{
	struct percpu *me = &slots[(long)arg];
	unsigned long x = 12345 + (unsigned long)arg;

	for (long i = 0; !stop; i++) {
		if (mode_div) {
			x = x / 3 + (unsigned long)i * 7 + 1;
			if ((i & 1023) == 0)
				me->hits = (long)x;
		} else if (i & 7) {
			me->hits++;
		} else {
			me->misses++;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	struct timespec d = { .tv_sec = argc > 2 ? atoi(argv[2]) : 1 };

	mode_div = argc > 1 && !strcmp(argv[1], "div");
	slots = calloc(4, sizeof(*slots));
	if (!slots)
		return 1;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	nanosleep(&d, NULL);
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", slots[0].hits, slots[1].misses);
	return 0;
}
