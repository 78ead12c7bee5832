/* record/pagemap.c: a pagemap entry to a physical address (present bit, frame number hidden from
 * the unprivileged), a lookup of this process's own page, and the entries kept for a round. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "record/pagemap.h"

static void test_entry(void **state)
{
	uint64_t phys = 0;

	(void)state;
	assert_int_equal(pagemap_entry_phys((1ULL << 63) | 0x1234, 0x7f0000000abcULL, 4096, &phys), 0);
	assert_int_equal(phys, 0x1234abcULL);
	/* flags above the frame number (soft-dirty bit 55, exclusive 56, file 61) are not part of it */
	assert_int_equal(pagemap_entry_phys((1ULL << 63) | (1ULL << 61) | (1ULL << 55) | 7, 0x10,
					    4096, &phys), 0);
	assert_int_equal(phys, 0x7010ULL);
	assert_int_equal(pagemap_entry_phys(0x1234, 0x1000, 4096, &phys), -ENOENT);
	assert_int_equal(pagemap_entry_phys(1ULL << 63, 0x1000, 4096, &phys), -EPERM);
}

static void test_lookup_self(void **state)
{
	static volatile uint64_t word = 1;
	struct pagemap *pm = pagemap_new();
	uint64_t phys = 0;
	int rc = pagemap_lookup(pm, getpid(), (uintptr_t)&word, &phys);

	(void)state;
	if (geteuid() == 0) {
		assert_int_equal(rc, 0);
		assert_int_equal(phys & 4095, (uintptr_t)&word & 4095);
	} else {
		assert_int_equal(rc, -EPERM);
	}
	assert_int_equal(pagemap_lookup(pm, 0x7ffffff0, 0x1000, &phys), -ESRCH);
	pagemap_free(pm);
}

/* A present page's entry is read once a round: the page unmapped, the lookups of this round
 * still give it, the next round's do not. A page not present is read again each time. */
static void test_lookup_round(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct pagemap *pm = pagemap_new();
	char *p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a = (uintptr_t)p;
	int want = geteuid() == 0 ? 0 : -EPERM;   /* the frame number is root's to see */
	uint64_t phys = 0, again = 0;

	(void)state;
	assert_true(p != MAP_FAILED);
	assert_int_equal(pagemap_lookup(pm, getpid(), a, &phys), -ENOENT);   /* not touched yet */
	p[0] = 1;
	assert_int_equal(pagemap_lookup(pm, getpid(), a, &phys), want);
	assert_int_equal(munmap(p, (size_t)pg), 0);
	assert_int_equal(pagemap_lookup(pm, getpid(), a + 8, &again), want);
	if (!want)
		assert_int_equal(again, phys + 8);
	pagemap_round(pm);
	assert_int_equal(pagemap_lookup(pm, getpid(), a, &again), -ENOENT);
	pagemap_free(pm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_lookup_self),
		cmocka_unit_test(test_lookup_round),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
