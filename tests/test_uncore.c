/* Tests of the AMD uncore context: the fake trees' format files against the kernel's, the counters
 * record/uncore.c plans on the fake machines
 * (Zen 2 with amd_l3 and amd_df: every attr against seed 004's register values; Zen 4: L3 only,
 * DF left out with a note; other machines: nothing), opening and reading them through a fake
 * perf_event_open, and the text summary (lib/uncore.c) written, parsed and printed. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/uncore.h"
#include "record/sys.h"
#include "record/uncore.h"
#include "tests/fake-machine.h"

static int fail_open;           /* errno every open fails with, 0: none */
static uint64_t fail_config;    /* a config whose open fails (EBUSY), 0: none */
static uint64_t enabled = 1000, running = 1000;   /* the times every counter reads */

/* A counter whose count is its config: a pipe holding the read_format value, time enabled and
 * time running. */
int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	uint64_t v[3] = { attr->config, enabled, running };
	int p[2];

	(void)flags;
	if (fail_open || (fail_config && attr->config == fail_config)) {
		errno = fail_open ? fail_open : EBUSY;
		return -1;
	}
	if (pid != -1 || cpu < 0 || group_fd != -1 || attr->sample_period ||
	    attr->read_format != (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING) ||
	    pipe(p))
		return -1;
	if (write(p[1], v, sizeof(v)) != sizeof(v))
		return -1;
	close(p[1]);
	return p[0];
}

/* Seed 004's DF_PERF_CTL values (family 17h PPR) without the enable bit 22 the kernel sets. */
static const uint64_t dram_ctl[8] = {
	0x000403807, 0x000403847, 0x000403887, 0x0004038C7,
	0x100403807, 0x100403847, 0x100403887, 0x1004038C7,
};
static const uint64_t link_ctl[4] = {
	0x00000007004002C7ull, 0x0000000800400207ull, 0x0000000800400247ull, 0x0000000800400287ull,
};
#define ENABLE (1ull << 22)

/* The format files the kernel's amd uncore driver (arch/x86/events/amd/uncore.c) gives amd_df and
 * amd_l3, by what decides them: PerfMonV2 (Zen 4 and later) or family 17h+ for the DF; family 17h
 * or 19h+ for the L3 (its threadmask and the slice or core fields the driver adds). */
struct fmt {
	const char *field, *bits;
};
static const struct fmt df_f17[] = {                          /* event14, umask8 */
	{ "event", "config:0-7,32-35,59-60" }, { "umask", "config:8-15" }, { NULL, NULL } };
static const struct fmt df_v2[] = {                           /* event14v2, umask12 */
	{ "event", "config:0-7,32-37" }, { "umask", "config:8-15,24-27" }, { NULL, NULL } };
static const struct fmt l3_f17[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "threadmask", "config:56-63" },
	{ "slicemask", "config:48-51" }, { NULL, NULL } };
static const struct fmt l3_f19[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "threadmask", "config:56-57" },
	{ "coreid", "config:42-44" }, { "enallslices", "config:46" }, { "enallcores", "config:47" },
	{ "sliceid", "config:48-50" }, { NULL, NULL } };

static const struct {
	int line;
	const char *machine, *pmu;
	const struct fmt *want;
} tree_formats[] = {
	{ __LINE__, "zen2", "amd_df", df_f17 },
	{ __LINE__, "zen2", "amd_l3", l3_f17 },
	{ __LINE__, "zen4", "amd_df", df_v2 },
	{ __LINE__, "zen4", "amd_l3", l3_f19 },
};

/* Every format file of the trees' uncore PMUs reads as the kernel writes it, and no other. */
static void test_trees_kernel_formats(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(tree_formats) / sizeof(tree_formats[0]); i++) {
		char dir[256], path[512], line[128];
		size_t nr = 0, files = 0;
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "data/sysfs/%s/sys/bus/event_source/devices/%s/format",
			 tree_formats[i].machine, tree_formats[i].pmu);
		for (const struct fmt *f = tree_formats[i].want; f->field; f++, nr++) {
			FILE *fp;

			snprintf(path, sizeof(path), "%s/%s", dir, f->field);
			if (!(fp = fopen(path, "r")) || !fgets(line, sizeof(line), fp))
				fail_msg("line %d: no %s", tree_formats[i].line, path);
			fclose(fp);
			line[strcspn(line, "\n")] = 0;
			if (strcmp(line, f->bits))
				fail_msg("line %d: %s is '%s', the kernel's '%s'", tree_formats[i].line,
					 path, line, f->bits);
		}
		assert_non_null(d = opendir(dir));
		while ((e = readdir(d)))
			files += e->d_name[0] != '.';
		closedir(d);
		if (files != nr)
			fail_msg("line %d: %s has %zu files, the kernel %zu", tree_formats[i].line, dir,
				 files, nr);
	}
}

static void test_plan_zen2(void **state)
{
	struct uncore u;

	(void)state;
	set_machine("zen2");
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 2 * 2 + 8 + 4);            /* 2 CCX x 2 L3 events, 1 node */
	assert_int_equal(u.nr_notes, 0);
	for (int i = 0; i < 4; i++) {
		const struct uncore_ev *e = &u.ev[i];

		assert_int_equal(e->attr.type, 12);
		assert_int_equal(e->attr.config, i % 2 ? 0x0104 : 0xff04);   /* misses, lookups */
		assert_int_equal(e->cpu, i < 2 ? 0 : 2);                     /* amd_l3 cpumask 0,2 */
		assert_int_equal(e->unit, i / 2);
		assert_int_equal(e->row, i / 2);
		assert_int_equal(e->part, i % 2 ? UNCORE_L3_MISSES : UNCORE_L3_LOOKUPS);
	}
	for (int ch = 0; ch < 8; ch++) {
		const struct uncore_ev *e = &u.ev[4 + ch];

		assert_int_equal(e->attr.type, 13);
		assert_int_equal(e->attr.config, dram_ctl[ch] & ~ENABLE);
		assert_int_equal(e->kind, C2C_UNCORE_DRAM);
		assert_int_equal(e->part, UNCORE_TOTAL);              /* reads and writes together */
		assert_int_equal(e->row, 2 + ch);
		assert_int_equal(e->bytes_per, 64);
	}
	for (int l = 0; l < 4; l++) {
		const struct uncore_ev *e = &u.ev[12 + l];

		assert_int_equal(e->attr.config, link_ctl[l] & ~ENABLE);
		assert_int_equal(e->kind, C2C_UNCORE_LINK);
		assert_int_equal(e->part, UNCORE_OUT);                /* outbound data */
		assert_int_equal(e->row, 10 + l);
		assert_int_equal(e->bytes_per, 32);
	}
	assert_int_equal(u.nr_rows, 2 + 8 + 4);
	for (size_t i = 0; i < u.nr; i++)
		assert_true(!u.ev[i].attr.sample_period && !u.ev[i].attr.sample_type &&
			    !u.ev[i].attr.disabled && !u.ev[i].attr.inherit &&
			    u.ev[i].attr.read_format == (PERF_FORMAT_TOTAL_TIME_ENABLED |
							 PERF_FORMAT_TOTAL_TIME_RUNNING) &&
			    u.ev[i].attr.size == sizeof(u.ev[i].attr));
	uncore_release(&u);
}

static void test_plan_others(void **state)
{
	struct uncore u;

	(void)state;
	set_machine("zen4");
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 4);                          /* L3 only */
	assert_int_equal(u.nr_notes, 1);
	assert_non_null(strstr(u.note[0], "Zen 3 and later name other events"));
	uncore_release(&u);
	set_machine("zen3");                                /* AMD without uncore PMUs */
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr, 0);
	assert_non_null(strstr(u.note[0], "no amd_l3 PMU"));
	assert_non_null(strstr(u.note[1], "no amd_df PMU"));
	uncore_release(&u);
	set_machine("sapphire-rapids");                     /* not AMD: nothing at all */
	assert_int_equal(uncore_plan(&u), 0);
	assert_int_equal(u.nr + u.nr_notes, 0);
	uncore_release(&u);
}

/* Plan, open, read, format, parse, print: counts are the configs (the fake's rule). */
static void test_counts_roundtrip(void **state)
{
	struct uncore u;
	struct c2c_uncore *sum = malloc(sizeof(*sum)), *back = malloc(sizeof(*back));
	char buf[65536], *out = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	(void)state;
	set_machine("zen2");
	assert_int_equal(uncore_plan(&u), 0);
	fail_open = 0;
	assert_int_equal(uncore_open(&u), 0);
	uncore_read(&u, 2.0, sum);
	assert_int_equal(sum->nr, 2 + 8 + 4);
	assert_int_equal(sum->row[0].a, 0xff04);
	assert_int_equal(sum->row[0].b, 0x0104);
	assert_int_equal(sum->row[2 + 7].a, 0x1000038c7ull);
	assert_int_equal(sum->row[2 + 7].b, 0x1000038c7ull * 64);
	assert_int_equal(sum->row[2 + 7].in, C2C_UNCORE_NONE);   /* family 17h: one DRAM figure */
	assert_int_equal(sum->row[2 + 7].out, C2C_UNCORE_NONE);
	assert_int_equal(sum->row[2 + 8].b, 0x7000002c7ull * 32);
	assert_int_equal(sum->row[2 + 8].out, 0x7000002c7ull * 32);   /* links: outbound */
	assert_int_equal(sum->row[2 + 8].in, C2C_UNCORE_NONE);
	assert_int_equal(sum->nr_notes, 0);
	n = c2c_uncore_format(sum, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(c2c_uncore_parse(buf, (size_t)n, back), 0);
	assert_int_equal(back->nr, sum->nr);
	assert_memory_equal(back->row, sum->row, sum->nr * sizeof(sum->row[0]));
	f = open_memstream(&out, &len);
	c2c_uncore_print(f, back);
	fclose(f);
	assert_non_null(strstr(out, "# AMD uncore over the run (2.000 s):\n"));
	assert_non_null(strstr(out, "#   L3 of CCX 0 (CPU 0): 65284 accesses, 260 misses (0.4%)\n"));
	assert_non_null(strstr(out, "#   DRAM channel 0 (CPU 0): 0.9 MB, 0.5 MB/s\n"));
	assert_non_null(strstr(out, "#   remote link 0 (CPU 0): 962072.7 MB, 481036.3 MB/s (out 962072.7 MB)\n"));
	free(out);
	uncore_release(&u);

	/* multiplexed: each counter ran a quarter of the time, so each count is 4 times its config */
	assert_int_equal(uncore_plan(&u), 0);
	running = 250;   /* the kernel scales nothing: read_format gives both times */
	assert_int_equal(uncore_open(&u), 0);
	running = 1000;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->row[0].a, 4 * 0xff04);
	assert_int_equal(sum->row[2].b, 4 * 0x3807ull * 64);
	assert_int_equal(sum->nr_notes, 1);
	assert_string_equal(sum->note[0], "16 of 16 uncore counters shared the PMU's counters (one "
			    "ran 25% of the run): their counts are scaled by time enabled / running, "
			    "estimates");
	uncore_release(&u);
	/* one that never ran is not counted, not zero */
	assert_int_equal(uncore_plan(&u), 0);
	running = 0;
	assert_int_equal(uncore_open(&u), 0);
	running = 1000;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->row[0].a, C2C_UNCORE_NONE);
	assert_int_equal(sum->row[13].b, C2C_UNCORE_NONE);
	assert_int_equal(sum->row[13].out, C2C_UNCORE_NONE);
	uncore_release(&u);

	/* nothing opens (paranoid): the rows say not counted and a note says why */
	assert_int_equal(uncore_plan(&u), 0);
	fail_open = EACCES;
	assert_int_equal(uncore_open(&u), -EACCES);
	fail_open = 0;
	uncore_read(&u, 1.0, sum);
	assert_int_equal(sum->row[0].a, C2C_UNCORE_NONE);
	assert_non_null(strstr(sum->note[0], "16 of 16 uncore counters did not open"));
	assert_non_null(strstr(sum->note[0], "perf_event_paranoid <= 0"));
	n = c2c_uncore_format(sum, buf, sizeof(buf));
	assert_int_equal(c2c_uncore_parse(buf, (size_t)n, back), 0);
	f = open_memstream(&out, &len);
	c2c_uncore_print(f, back);
	fclose(f);
	assert_non_null(strstr(out, "#   L3 of CCX 1 (CPU 2): not counted\n"));
	assert_non_null(strstr(out, "#   remote link 3 (CPU 0): not counted\n"));
	free(out);
	uncore_release(&u);
	free(sum);
	free(back);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"", "c2c-uncore 2\n", "seconds 1\n", "c2c-uncore 1\nseconds x\n",
		"c2c-uncore 1\nl3 0 0 12x 4\n", "c2c-uncore 1\ndram 0 0 -1 4\n",
		"c2c-uncore 1\ndram 0 0 1 64 64x 0\n", "c2c-uncore 1\nlink 0 0 1 64 - -5\n",
	};
	struct c2c_uncore *u = malloc(sizeof(*u));
	const char ok[] = "c2c-uncore 1\nseconds 0.5\nfuture 1 2 3 4\nlink 1 0 - -\nnote why";
	const char split[] = "c2c-uncore 1\ndram 0 0 10 640 512 - later\nl3 0 0 5 1 7 8\n";

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (c2c_uncore_parse(bad[i], strlen(bad[i]), u) != -EBADMSG)
			fail_msg("accepted: '%s'", bad[i]);
	assert_int_equal(c2c_uncore_parse(ok, sizeof(ok) - 1, u), 0);   /* unknown keys skipped */
	assert_int_equal(u->nr, 1);
	assert_int_equal(u->row[0].b, C2C_UNCORE_NONE);
	assert_int_equal(u->row[0].in, C2C_UNCORE_NONE);   /* a trace before the split */
	assert_int_equal(u->row[0].out, C2C_UNCORE_NONE);
	assert_string_equal(u->note[0], "why");
	/* read and write bytes; an L3 row has none, whatever follows; later fields skipped */
	assert_int_equal(c2c_uncore_parse(split, sizeof(split) - 1, u), 0);
	assert_int_equal(u->nr, 2);
	assert_int_equal(u->row[0].in, 512);
	assert_int_equal(u->row[0].out, C2C_UNCORE_NONE);
	assert_int_equal(u->row[1].a, 5);
	assert_int_equal(u->row[1].in, C2C_UNCORE_NONE);
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees_kernel_formats),
		cmocka_unit_test(test_plan_zen2),
		cmocka_unit_test(test_plan_others),
		cmocka_unit_test(test_counts_roundtrip),
		cmocka_unit_test(test_parse_bad),
	};

	c2c_log_set_hook(quiet, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
