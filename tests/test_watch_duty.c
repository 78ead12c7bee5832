/* The watch backend's duty-cycle summary (include/c2c/watch.h): text form, parser, the share of
 * the work watched and the sentence reports print. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/watch.h"

static struct c2c_watch_duty sample(void)
{
	struct c2c_watch_duty d = {
		.budget = 0.8, .ns_per_hit = 2500, .cpu_ns = 9000000, .trap_ns = 4000000,
		.armed_ns = 1000000, .armed_cpu_ns = 5000000, .hits = 1600, .switches = 12,
		.nr_words = 2,
		.word = { { 0x601040, 8, 1000000 }, { 0x601048, 4, 500000 } },
	};

	return d;
}

static void test_duty_roundtrip(void **state)
{
	struct c2c_watch_duty d = sample(), e;
	char buf[4096];
	int n;

	(void)state;
	n = c2c_watch_duty_format(&d, buf, sizeof(buf));
	assert_true(n > 0 && (size_t)n == strlen(buf));
	assert_int_equal(c2c_watch_duty_parse(buf, (size_t)n, &e), 0);
	assert_true(e.budget == 0.8 && e.ns_per_hit == 2500);
	assert_int_equal(e.cpu_ns, d.cpu_ns);
	assert_int_equal(e.trap_ns, d.trap_ns);
	assert_int_equal(e.armed_ns, d.armed_ns);
	assert_int_equal(e.armed_cpu_ns, d.armed_cpu_ns);
	assert_int_equal(e.hits, d.hits);
	assert_int_equal(e.switches, d.switches);
	assert_int_equal(e.nr_words, 2);
	assert_int_equal(e.word[1].addr, 0x601048);
	assert_int_equal(e.word[1].len, 4);
	assert_int_equal(e.word[1].armed_ns, 500000);
	/* too small a buffer */
	assert_int_equal(c2c_watch_duty_format(&d, buf, 20), -ENOSPC);
	/* a key of a later version is skipped; no trailing newline is fine */
	{
		static const char later[] = "c2c-watch-duty 1\nbudget 0.5\nfuture 1 2 3\ncpu_ns 10";

		assert_int_equal(c2c_watch_duty_parse(later, strlen(later), &e), 0);
		assert_int_equal(e.cpu_ns, 10);
	}
}

static void test_duty_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"c2c-watch-duty 2\n",
		"c2c-watch-duty 1\nbudget x\n",
		"c2c-watch-duty 1\nbudget -1\n",
		"c2c-watch-duty 1\nbudget nan\n",
		"c2c-watch-duty 1\ncpu_ns 12x\n",
		"c2c-watch-duty 1\ncpu_ns -3\n",
		"c2c-watch-duty 1\ncpu_ns 99999999999999999999999\n",
		"c2c-watch-duty 1\nnospace\n",
		"c2c-watch-duty 1\nword 0x10 3 5\n",
		"c2c-watch-duty 1\nword 0x10 8\n",
		"c2c-watch-duty 1\ncpu_ns 1\ntrap_ns 2\n",
	};
	struct c2c_watch_duty e;
	char big[8192];
	size_t off;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (c2c_watch_duty_parse(bad[i], strlen(bad[i]), &e) != -EBADMSG)
			fail_msg("accepted: '%s'", bad[i]);
	/* a line longer than any the writer makes */
	memset(big, 'a', sizeof(big));
	memcpy(big, "c2c-watch-duty 1\nbudget ", 24);
	assert_int_equal(c2c_watch_duty_parse(big, sizeof(big), &e), -EBADMSG);
	/* more words than C2C_WATCH_WORDS_MAX */
	off = (size_t)snprintf(big, sizeof(big), "c2c-watch-duty 1\n");
	for (int i = 0; i <= C2C_WATCH_WORDS_MAX; i++)
		off += (size_t)snprintf(big + off, sizeof(big) - off, "word 0x%x 8 1\n", i * 8);
	assert_int_equal(c2c_watch_duty_parse(big, off, &e), -EBADMSG);
}

static void test_duty_seen(void **state)
{
	struct c2c_watch_duty d = sample();
	char text[1024];

	(void)state;
	/* 1 ms watched of 5 ms useful; traps were 80% of the armed time: an estimate */
	assert_true(c2c_watch_duty_seen(&d) > 0.1999 && c2c_watch_duty_seen(&d) < 0.2001);
	assert_true(c2c_watch_word_seen(&d, 1) > 0.0999 && c2c_watch_word_seen(&d, 1) < 0.1001);
	assert_true(c2c_watch_word_seen(&d, 2) == 0);
	assert_false(c2c_watch_duty_bound(&d));
	c2c_watch_duty_describe(&d, text, sizeof(text));
	assert_non_null(strstr(text, "more than 80% of the workload's CPU time"));
	assert_non_null(strstr(text, "about 20% of its work"));
	assert_non_null(strstr(text, "multiply by about 5 "));
	/* traps took 95% of the armed time: only a bound */
	d.armed_cpu_ns = 4200000;
	assert_true(c2c_watch_duty_bound(&d));
	c2c_watch_duty_describe(&d, text, sizeof(text));
	assert_non_null(strstr(text, "at most 20% of its work"));
	assert_non_null(strstr(text, "multiply by at least 5 "));
	/* never paused */
	d.armed_ns = d.cpu_ns - d.trap_ns;
	c2c_watch_duty_describe(&d, text, sizeof(text));
	assert_non_null(strstr(text, "armed for the whole run"));
	assert_non_null(strstr(text, "added about 80%"));
	/* traps took all of the armed time */
	d.armed_ns = 0;
	c2c_watch_duty_describe(&d, text, sizeof(text));
	assert_non_null(strstr(text, "too small a share of its work to measure (under 0.1%)"));
	/* nothing measured */
	memset(&d, 0, sizeof(d));
	assert_true(c2c_watch_duty_seen(&d) == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duty_roundtrip),
		cmocka_unit_test(test_duty_bad),
		cmocka_unit_test(test_duty_seen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
