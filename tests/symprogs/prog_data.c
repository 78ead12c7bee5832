/* Symbolization test program with global data of several shapes; tests/test_symbols.c builds it
 * PIE, non-PIE, stripped with separate debug info, and with -DSHIFT (a different build whose
 * addresses move) to check build-id handling. */
#include <pthread.h>
#include <stdio.h>

#include "symprog.h"

#ifdef SHIFT
char shift_pad[4096] = { 1 };
long shift_fn(long x)
{
	return x * 3 + 1;
}
#endif

struct _buf buf1 = { .lock0 = 1 };
struct stat_s stats[4];
struct queue q;
struct nest nest_v = { .id = 7 };
int grid[3][5];
char big_bss[3 * 4096];  /* reaches past the file-backed pages: anonymous memory at run time */
/* an absolute object symbol, as glibc's version names (GLIBC_2.3 in ld.so's .symtab): perf
 * loads none, so it names nothing at 0x40, inside the ELF header */
__asm__(".globl abs_object\n.type abs_object, @object\n.set abs_object, 0x40\n");

__attribute__((noinline)) long count_calls(void)
{
	static long counter;

	return ++counter;
}

__attribute__((noinline)) void *worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < 10000; i++) {
		__atomic_fetch_add(id ? &buf1.lock1 : &buf1.lock0, 1, __ATOMIC_RELAXED);
		stats[id & 3].hits++; /* MARK:hits_store */
		grid[id][i % 5] += q.tag + nest_v.grp.inner[1].misses + (int)nest_v.word;
		big_bss[(id * 4096 + i) % sizeof(big_bss)]++;
	}
	count_calls();
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %d\n", buf1.lock0 + (long)q.head, stats[0].hits);
	return 0;
}
