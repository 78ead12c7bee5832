/* record/pagemap.c: a pagemap entry to a physical address (present bit, frame number hidden from
 * the unprivileged), and a lookup of this process's own page. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_lookup_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
