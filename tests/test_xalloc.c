/* xheap_hugepages(): after it, what the heap hands out lies in memory marked for transparent huge
 * pages (the kernel's own account: the "hg" flag of the mapping in /proc/self/smaps), before and
 * after the heap grows, and the memory stays usable. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/xalloc.h"

/* 1: the mapping holding @p is marked for huge pages, 0: not, -1: not found. */
static int marked(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, r = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perm[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3) {   /* a mapping's first line */
			in = lo <= (uintptr_t)p && (uintptr_t)p < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			r = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return r;
}

static int heap_is_glibc(void)
{
	void *p = malloc(64);
	int r = p && (uintptr_t)p < (uintptr_t)sbrk(0);

	free(p);
	return r;
}

static void *thread_alloc(void *arg)
{
	(void)arg;
	return malloc(1 << 20);
}

static void test_heap_marked(void **state)
{
	unsigned char *a, *b[3], *c;
	size_t i;

	(void)state;
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK))
		skip();   /* a kernel without transparent huge pages */
	if (!heap_is_glibc())
		skip();   /* another allocator (the sanitizers'): nothing to mark */
	a = malloc(4 << 20);
	assert_non_null(a);
	assert_int_equal(marked(a + (2 << 20)), 0);   /* glibc's default: not marked */
	free(a);

	xheap_hugepages(64 << 20);
	a = malloc(8 << 20);            /* below the new mmap threshold: from the heap */
	assert_non_null(a);
	assert_true((uintptr_t)a < (uintptr_t)sbrk(0));
	assert_int_equal(marked(a + (4 << 20)), 1);
	for (i = 0; i < (8 << 20); i += 4096)
		a[i] = (unsigned char)i;

	/* the heap grows past what was marked; the next call marks the new part */
	for (i = 0; i < 3; i++) {
		b[i] = malloc(30 << 20);   /* from the heap too (glibc would map each on its own) */
		assert_true(b[i] && (uintptr_t)b[i] < (uintptr_t)sbrk(0));
	}
	xheap_hugepages(64 << 20);
	c = malloc(16 << 20);
	assert_non_null(c);
	assert_true((uintptr_t)c > (uintptr_t)b[2]);
	assert_int_equal(marked(c + (8 << 20)), 1);
	for (i = 0; i < (8 << 20); i += 4096)
		assert_int_equal(a[i], (unsigned char)i);

	/* another thread allocates from the same heap (its own arena would be small pages) */
	{
		pthread_t th;
		void *t = NULL;

		assert_int_equal(pthread_create(&th, NULL, thread_alloc, NULL), 0);
		assert_int_equal(pthread_join(th, &t), 0);
		assert_non_null(t);
		assert_true((uintptr_t)t < (uintptr_t)sbrk(0));
		assert_int_equal(marked((char *)t + (512 << 10)), 1);
		free(t);
	}
	for (i = 0; i < 3; i++)
		free(b[i]);
	free(c);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_marked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
