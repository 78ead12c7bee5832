/* The report-side options (report/cmdline.h): the option policy (which options apply to which
 * output and input, refused in one line naming the option, where and why), the -c parser the
 * report and the TUI share, and the TUI's share of the options main() opens the TUI for. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "report/cmdline.h"

static char said[1024];
static int nr_said;

static void hook(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == C2C_LOG_ERROR) {
		snprintf(said, sizeof(said), "%s", msg);
		nr_said++;
	}
}

static int setup(void **state)
{
	(void)state;
	c2c_log_set_hook(hook, NULL);
	c2c_log_set_command("report");
	return 0;
}

/* @u refused in exactly one line that holds every one of @want (NULL-terminated). */
static void assert_refused(int rc, const struct cmdline_use *u, const char *const *want)
{
	assert_int_equal(rc, -EINVAL);
	assert_true(u->refused);
	assert_int_equal(nr_said, 1);
	assert_null(strchr(said, '\n'));
	for (; *want; want++)
		if (!strstr(said, *want))
			fail_msg("'%s' not in: %s", *want, said);
	assert_non_null(strstr(said, "(see 'c2c-lite report --help')"));
}

static void give(struct cmdline_use *u, int c, const char *arg)
{
	cmdline_give(u, c, arg);
}

static void test_outputs(void **state)
{
	static const char *const stats[] = { "--stats does not apply to --json", "text report",
					     NULL };
	static const char *const node[] = { "-N/--node-info does not apply to --csv", NULL };
	static const char *const csv[] = { "--csv=rows does not apply to --json", NULL };
	static const char *const stdio[] = { "--stdio does not apply to --csv", NULL };
	struct cmdline_use u = { .out = CMDLINE_OUT_TEXT };

	(void)state;
	nr_said = 0;
	/* the text report takes them all */
	give(&u, CMDLINE_VAL(CMDLINE_STATS), NULL);
	give(&u, 'N', NULL);
	give(&u, CMDLINE_VAL(CMDLINE_STDIO), NULL);
	give(&u, 'h', NULL);                       /* not a policy option: not noted */
	assert_int_equal(cmdline_check_output(&u), 0);
	assert_int_equal(nr_said, 0);

	u = (struct cmdline_use){ .out = CMDLINE_OUT_JSON };
	give(&u, CMDLINE_VAL(CMDLINE_STATS), NULL);
	assert_refused(cmdline_check_output(&u), &u, stats);
	nr_said = 0;
	u = (struct cmdline_use){ .out = CMDLINE_OUT_CSV };
	give(&u, 'N', NULL);
	assert_refused(cmdline_check_output(&u), &u, node);
	nr_said = 0;
	u = (struct cmdline_use){ .out = CMDLINE_OUT_JSON };
	give(&u, CMDLINE_VAL(CMDLINE_JSON), NULL);
	give(&u, CMDLINE_VAL(CMDLINE_CSV), "rows");
	assert_refused(cmdline_check_output(&u), &u, csv);
	nr_said = 0;
	u = (struct cmdline_use){ .out = CMDLINE_OUT_CSV };
	give(&u, CMDLINE_VAL(CMDLINE_STDIO), NULL);
	assert_refused(cmdline_check_output(&u), &u, stdio);
	nr_said = 0;
	/* -d and -c shape every output's rows */
	u = (struct cmdline_use){ .out = CMDLINE_OUT_JSON };
	give(&u, 'd', "rmt");
	give(&u, 'c', "tid,iaddr");
	assert_int_equal(cmdline_check_output(&u), 0);
	u.out = CMDLINE_OUT_TUI;
	assert_int_equal(cmdline_check_output(&u), 0);
	u.out = CMDLINE_OUT_DIFF;
	give(&u, 'c', "tid,iaddr");
	assert_int_not_equal(cmdline_check_output(&u), 0);   /* diff has no -c */
	nr_said = 0;
}

static void test_inputs(void **state)
{
	static const char *const d_soft[] = { "-d/--display rmt does not apply to soft-backend "
					      "traces", "sampled time", NULL };
	static const char *const d_watch[] = { "-d/--display tot does not apply to watch-backend "
					       "traces", "transfers", NULL };
	static const char *const c_soft[] = { "-c/--coalesce tid,iaddr does not apply to "
					      "soft-backend traces", NULL };
	static const char *const j_watch[] = { "-j/--jobs 4 does not apply to watch-backend "
					       "traces", "one thread", NULL };
	static const char *const regions[] = { "--regions does not apply to perf.data files",
					       "c2c-region markers", NULL };
	struct cmdline_use u = { .out = CMDLINE_OUT_TEXT };

	(void)state;
	nr_said = 0;
	give(&u, 'd', "rmt");
	give(&u, 'c', "tid,iaddr");
	give(&u, 'N', NULL);
	give(&u, 'j', "4");
	assert_int_equal(cmdline_check_in(&u, CMDLINE_IN_PMU), 0);
	assert_int_equal(cmdline_check_in(&u, CMDLINE_IN_PERFDATA), 0);
	assert_int_equal(nr_said, 0);
	assert_refused(cmdline_check_in(&u, CMDLINE_IN_SOFT), &u, d_soft);
	nr_said = 0;

	u = (struct cmdline_use){ .out = CMDLINE_OUT_TUI };
	give(&u, 'd', "tot");
	assert_refused(cmdline_check_in(&u, CMDLINE_IN_WATCH), &u, d_watch);
	nr_said = 0;
	u = (struct cmdline_use){ .out = CMDLINE_OUT_TEXT };
	give(&u, 'c', "tid,iaddr");
	assert_refused(cmdline_check_in(&u, CMDLINE_IN_SOFT), &u, c_soft);
	nr_said = 0;
	/* what a soft or watch trace does anyway is no refusal: -c iaddr (however written), -j 1 */
	u = (struct cmdline_use){ .out = CMDLINE_OUT_TEXT };
	give(&u, 'c', "offset,iaddr");
	give(&u, 'j', "1");
	assert_int_equal(cmdline_check_in(&u, CMDLINE_IN_SOFT), 0);
	assert_int_equal(cmdline_check_in(&u, CMDLINE_IN_WATCH), 0);
	give(&u, 'j', "4");                          /* the last value counts */
	assert_refused(cmdline_check_in(&u, CMDLINE_IN_WATCH), &u, j_watch);
	nr_said = 0;
	/* perf.data holds no region markers; a c2c-lite trace may */
	u = (struct cmdline_use){ .out = CMDLINE_OUT_TEXT };
	give(&u, CMDLINE_VAL(CMDLINE_REGIONS), NULL);
	assert_int_equal(cmdline_check_in(&u, CMDLINE_IN_SOFT), 0);
	assert_refused(cmdline_check_in(&u, CMDLINE_IN_PERFDATA), &u, regions);
	nr_said = 0;
}

static void test_coalesce(void **state)
{
	static const struct {
		int line;
		const char *s;
		int rc, nr;
	} rows[] = {
		{ __LINE__, "iaddr", 0, 1 }, { __LINE__, "tid,iaddr", 0, 2 },
		{ __LINE__, "offset,pid,dso", 0, 2 }, { __LINE__, "offset", 0, 0 },
		{ __LINE__, "bogus", -1, 0 }, { __LINE__, "pid,", 0, 1 }, { __LINE__, "", -1, 0 },
		{ __LINE__, "pid,pid,pid,pid,pid,pid,pid,pid", 0, 8 },
		{ __LINE__, "pid,pid,pid,pid,pid,pid,pid,pid,pid", -1, 0 },
	};
	enum cltab_coalesce k[CLTAB_CO_MAX];
	int nr;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int rc = cmdline_coalesce(rows[i].s, k, &nr);

		if ((rc < 0 ? -1 : 0) != rows[i].rc || (!rc && nr != rows[i].nr))
			fail_msg("row at line %d: rc %d nr %d", rows[i].line, rc, nr);
	}
	assert_int_equal(cmdline_coalesce("dso,tid", k, &nr), 0);
	assert_int_equal(k[0], CLTAB_CO_DSO);
	assert_int_equal(k[1], CLTAB_CO_TID);
	nr_said = 0;
}

/* main() opens the TUI for `report` when every option is one the TUI takes. */
static void test_tui_words(void **state)
{
	(void)state;
	assert_int_equal(cmdline_tui_words("-i"), 2);
	assert_int_equal(cmdline_tui_words("-ifile"), 1);
	assert_int_equal(cmdline_tui_words("--input"), 2);
	assert_int_equal(cmdline_tui_words("--input=x"), 1);
	assert_int_equal(cmdline_tui_words("-d"), 2);
	assert_int_equal(cmdline_tui_words("--coalesce=tid"), 1);
	assert_int_equal(cmdline_tui_words("--cacheline-size"), 2);
	assert_int_equal(cmdline_tui_words("-q"), 1);
	assert_int_equal(cmdline_tui_words("--symfs"), 2);
	assert_int_equal(cmdline_tui_words("--stdio"), 0);
	assert_int_equal(cmdline_tui_words("--stats"), 0);
	assert_int_equal(cmdline_tui_words("--json"), 0);
	assert_int_equal(cmdline_tui_words("-N"), 0);
	assert_int_equal(cmdline_tui_words("-v"), 0);
	assert_int_equal(cmdline_tui_words("--inputs"), 0);
	assert_int_equal(cmdline_tui_words("file"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_coalesce),
		cmocka_unit_test(test_tui_words),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
