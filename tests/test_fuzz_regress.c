/* Replay of the fuzzing corpora: every file under fuzz/regress/<target>/ (inputs that once
 * crashed, leaked, overran a limit or broke an invariant) and fuzz/seeds/<target>/ (a small
 * minimized corpus) goes through the body of its libFuzzer target, fuzz/targets.h, exactly as
 * the fuzzer ran it; so do the recordings the other suites read (perf.data, traces) and, for the
 * function bounds, the shared libraries this process has loaded. A file fails the suite when its target reports a broken invariant; under
 * `make check` the sanitizers fail it on any crash, overread, undefined behaviour or leak.
 *
 * As under libFuzzer's -malloc_limit_mb, an allocation larger than 2 GiB is a failure: under ASan
 * through max_allocation_size_mb, otherwise through an address-space limit, so that memory sized
 * by untrusted bytes cannot pass unnoticed (xmalloc aborts when the allocation fails). Runs from
 * the repository root. */
#define _GNU_SOURCE
#include <dirent.h>
#include <link.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "fuzz/targets.h"

#define LIMIT_MB 2048

#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "max_allocation_size_mb=2048:allocator_may_return_null=0";
}
#endif

typedef int (*target_fn)(const uint8_t *data, size_t size);

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n;

	assert_non_null(f);
	*len = 0;
	do {
		if (*len == cap)
			buf = realloc(buf, cap = cap ? 2 * cap : 65536);
		assert_non_null(buf);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	assert_false(ferror(f));
	fclose(f);
	return buf;
}

/* Run file @path through @fn; fail the suite when it breaks an invariant. */
static void replay_file(const char *path, target_fn fn)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);

	if (fn(buf, len))
		fail_msg("%s breaks an invariant of its fuzz target (message above)", path);
	free(buf);
}

/* Run every file of @dir whose name ends in @suffix through @fn, in name order; the number of
 * files. */
static size_t replay_dir(const char *dir, const char *suffix, target_fn fn)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, i;

	if (!d) {
		assert_int_equal(errno, ENOENT);
		return 0;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < strlen(suffix) ||
		    strcmp(de->d_name + len - strlen(suffix), suffix))
			continue;
		names = realloc(names, (nr + 1) * sizeof(*names));
		assert_non_null(names);
		assert_true(asprintf(&names[nr++], "%s/%s", dir, de->d_name) > 0);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr; i++) {
		replay_file(names[i], fn);
		free(names[i]);
	}
	free(names);
	return nr;
}

/* @target's regression inputs and seeds; their count, asserted non-zero (the corpus is where
 * this suite expects it: run from the root). */
static size_t replay_corpus(const char *target, target_fn fn)
{
	char regress[256], seeds[256];
	size_t n, m;

	snprintf(regress, sizeof(regress), "fuzz/regress/%s", target);
	snprintf(seeds, sizeof(seeds), "fuzz/seeds/%s", target);
	n = replay_dir(regress, "", fn);
	m = replay_dir(seeds, "", fn);
	print_message("%s: %zu regression inputs, %zu seeds\n", target, n, m);
	assert_true(n + m > 0);
	return n + m;
}

/* @target's corpus, and the files of @data ending in @suffix (the recordings the other suites
 * read). */
static void replay(const char *target, target_fn fn, const char *data, const char *suffix)
{
	size_t k;

	replay_corpus(target, fn);
	k = replay_dir(data, suffix, fn);
	print_message("%s: %zu files of %s\n", target, k, data);
	assert_true(k > 0);
}

static void test_regress_perfdata(void **state)
{
	(void)state;
	replay("perfdata", fuzz_perfdata_input, "data/perf", ".data");
}

static void test_regress_trace(void **state)
{
	(void)state;
	replay("trace", fuzz_trace_input, "data", ".c2c");
}

/* Raw Arm SPE AUX data: the corpus only (no recording here has any). */
static void test_regress_spe(void **state)
{
	(void)state;
	replay_corpus("spe", fuzz_spe_input);
}

/* dl_iterate_phdr(): the file of every loaded shared object with a path. */
static int replay_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
	size_t *nr = data;

	(void)size;
	if (!info->dlpi_name || info->dlpi_name[0] != '/')
		return 0;                /* the executable, the vDSO */
	replay_file(info->dlpi_name, fuzz_fnbounds_input);
	++*nr;
	return 0;
}

static void test_regress_fnbounds(void **state)
{
	size_t k = 0;

	(void)state;
	replay_corpus("fnbounds", fuzz_fnbounds_input);
	dl_iterate_phdr(replay_loaded, &k);
	print_message("fnbounds: %zu loaded shared libraries\n", k);
	assert_true(k > 0);              /* at least the C library */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regress_perfdata),
		cmocka_unit_test(test_regress_trace),
		cmocka_unit_test(test_regress_spe),
		cmocka_unit_test(test_regress_fnbounds),
	};
#if !defined(__SANITIZE_ADDRESS__)
	struct rlimit rl;

	/* the inputs' allocations plus this process (code, libraries, stack) */
	if (!getrlimit(RLIMIT_AS, &rl) && (rl.rlim_cur == RLIM_INFINITY ||
					   rl.rlim_cur > ((rlim_t)LIMIT_MB + 1024) << 20)) {
		rl.rlim_cur = ((rlim_t)LIMIT_MB + 1024) << 20;
		setrlimit(RLIMIT_AS, &rl);
	}
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
