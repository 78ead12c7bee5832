/* Two threads on two members of the same 8-byte words: thread 0 writes A.x and B.x, thread 1
 * A.y and B.y (offset 4). B is reached through a pointer, and thread 1 loads B.y with an
 * instruction that overwrites its own base register (`movl 4(%rax),%eax`): after the watchpoint
 * trap the registers no longer give that address. tests/e2e/watch-offsets.sh watches A/8 and
 * B/8. argv[1]: iterations per thread (default 100000). */
#include <pthread.h>
#include <stdlib.h>

struct pair {
	int x;
	int y;
};

struct pair A;
struct pair B;
struct pair *volatile P = &B;
static long iters = 100000;

static int load_y_clobbering(struct pair *p)
{
#if defined(__x86_64__)
	unsigned long r = (unsigned long)p;

	__asm__ volatile("movl 4(%0), %k0" : "+r"(r) : : "memory");
	return (int)r;
#else
	return p->y;
#endif
}

static void *worker(void *arg)
{
	long id = (long)arg;

	for (long i = 0; i < iters; i++) {
		if (id == 0) {
			A.x++;
			P->x++;
		} else {
			A.y++;
			P->y = load_y_clobbering(P) + 1;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		iters = atol(argv[1]);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
