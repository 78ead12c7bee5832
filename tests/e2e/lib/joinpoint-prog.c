/* The join point: one worker function in which thread 0 runs `A.x++` and thread 1 runs
 * `A.y++` behind `if (id == 0)`. Both branches end at the same loop latch, so a timer sample at
 * the latch could come from either branch; blaming the other branch's store would make A.y look
 * written by both threads (true sharing). tests/e2e/soft-joinpoint.sh builds it at -O0 and -O2.
 * argv[1]: seconds (default 2). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct pair {
	long x;
	long y;
};

volatile struct pair A;
static volatile int stop;

static void *worker(void *arg)
{
	long id = (long)arg;

	while (!stop) {
		for (int i = 0; i < 100000; i++) {
			if (id == 0)
				A.x++;
			else
				A.y++;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec ts = { .tv_sec = argc > 1 ? atoi(argv[1]) : 2 };
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	nanosleep(&ts, NULL);
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
