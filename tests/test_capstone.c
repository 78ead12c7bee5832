/* lib/capstone.c when capstone cannot be loaded: this test builds it with the soname of a
 * library that does not exist, so its c2c_cs_* replace the archive's. Opening fails with
 * CS_ERR_ARCH and says why, naming the library; every other call answers as capstone does
 * without a handle; the soft backend's decoder refuses to open (-ENOTSUP), which record and
 * doctor turn into a one-line error. The loaded library is exercised by test_symtype and
 * test_softdecode. */
#define C2C_CAPSTONE_SONAME "libcapstone-c2c-test-missing.so.0"
#include "lib/capstone.c"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "record/soft-decode.h"

static void test_capstone_missing(void **state)
{
	static const uint8_t code[] = { 0x90 };   /* nop */
	const uint8_t *p = code;
	size_t size = sizeof(code);
	uint64_t addr = 0x1000;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	csh h = 0;

	(void)state;
	assert_null(c2c_cs_missing());   /* not tried yet */
	assert_int_equal(c2c_cs_open(CS_ARCH_X86, CS_MODE_64, &h), CS_ERR_ARCH);
	assert_non_null(c2c_cs_missing());
	assert_non_null(strstr(c2c_cs_missing(), C2C_CAPSTONE_SONAME));
	/* a second open does not retry, and says the same */
	assert_int_equal(c2c_cs_open(CS_ARCH_X86, CS_MODE_64, &h), CS_ERR_ARCH);
	assert_int_equal(c2c_cs_close(&h), CS_ERR_CSH);
	assert_int_equal(c2c_cs_option(h, CS_OPT_DETAIL, CS_OPT_ON), CS_ERR_CSH);
	assert_null(c2c_cs_malloc(h));
	c2c_cs_free(NULL, 0);
	assert_false(c2c_cs_disasm_iter(h, &p, &size, &addr, NULL));
	assert_ptr_equal(p, code);
	assert_false(c2c_cs_insn_group(h, NULL, 0));
	assert_null(c2c_cs_reg_name(h, 1));
	assert_int_equal(c2c_cs_regs_access(h, NULL, rd, &nrd, wr, &nwr), CS_ERR_CSH);
}

static void test_capstone_missing_softdec(void **state)
{
	struct softdec *sd = NULL;

	(void)state;
	assert_int_equal(softdec_new(&sd), -ENOTSUP);
	assert_null(sd);
	assert_non_null(c2c_cs_missing());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capstone_missing),
		cmocka_unit_test(test_capstone_missing_softdec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
