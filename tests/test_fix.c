/* report/fix: plans from hand-built findings, edits of in-memory sources, and the unified diff. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/fix/fix.h"

/* The sources of a test, by absolute path. */
struct src {
	const char *path, *text;
};

static const char *read_src(void *ctx, const char *path)
{
	for (const struct src *s = ctx; s->path; s++)
		if (!strcmp(s->path, path))
			return s->text;
	return NULL;
}

static struct maps_thread t1 = { .pid = 10, .tid = 11, .comm = "w", .comm_set = 1 };
static struct maps_thread t2 = { .pid = 10, .tid = 12, .comm = "w", .comm_set = 1 };
static const struct maps_thread *w1[] = { &t1 }, *w2[] = { &t2 }, *w12[] = { &t1, &t2 };

/* A finding on one line whose members @names (objects @objs) are written by the threads
 * @writers (1: t1, 2: t2, 3: both). */
struct fake {
	struct rm_model m;
	struct rm_line l;
	const struct rm_line *lp;
	struct rm_row row[4];
	struct rm_member mem[4];
	struct rm_finding f;
};

static void fake(struct fake *k, enum rm_verdict v, int array, const char *const *names,
		 const char *const *objs, const int *writers, size_t n)
{
	memset(k, 0, sizeof(*k));
	k->m.cost_name = "sampled time";
	for (size_t i = 0; i < n; i++) {
		k->row[i] = (struct rm_row){ .offset = (uint32_t)(8 * i), .object = objs[i],
					     .member = names[i], .thread = writers[i] == 2 ? &t2 : &t1 };
		k->mem[i] = (struct rm_member){ .name = names[i], .named = &k->row[i],
						.offset = (uint32_t)(8 * i), .writes = 10,
						.cost = 10.0 - (double)i,
						.writers = writers[i] == 3 ? w12 : writers[i] == 2 ? w2 : w1,
						.nr_writers = writers[i] == 3 ? 2 : 1 };
	}
	k->l = (struct rm_line){ .row = k->row, .nr_row = n, .mem = k->mem, .nr_mem = n,
				 .verdict = v, .object = objs[0] };
	k->lp = &k->l;
	k->f = (struct rm_finding){ .object = objs[0], .verdict = v, .line = &k->lp, .nr_line = 1,
				    .array = array, .share = 97.5 };
}

/* The diff and notes of plan @k with declarations @d over @srcs. */
static char *run(struct fake *k, const struct fix_decl *d, struct src *srcs, char *notes,
		 size_t n)
{
	struct fix_set *s = fix_new(&(struct fix_opts){ .root = "/src", .align = 64,
							.read = read_src, .ctx = srcs });
	struct fix_plan p;
	size_t len = 0;
	char *diff;

	fix_plan(&k->m, &k->f, &p);
	fix_add(s, &p, d);
	notes[0] = 0;
	for (size_t i = 0; i < fix_nr_notes(s) && len < n; i++)
		len += (size_t)snprintf(notes + len, n - len, "%s\n", fix_note(s, i, NULL));
	diff = fix_diff(s);
	fix_free(s);
	return diff;
}

static const char pair_c[] =
	"#include <stdio.h>\n"
	"\n"
	"struct pair {\n"
	"\tvolatile long a;\n"
	"\tvolatile long b;\n"
	"};\n"
	"\n"
	"struct pair buf1;\n";

static void test_fix_members_of_two_threads(void **state)
{
	static const char *const names[] = { "buf1.a", "buf1.b" }, *objs[] = { "buf1", "buf1" };
	static const int wr[] = { 1, 2 };
	struct src srcs[] = { { "/src/pair.c", pair_c }, { NULL, NULL } };
	struct fix_decl d = { .lang = FIX_LANG_C, .var = { "/src/pair.c", 8 },
			      .type = { "/src/pair.c", 3 }, .type_name = "struct pair",
			      .grp = { { "/src/pair.c", 4 }, { "/src/pair.c", 5 } } };
	struct fake k;
	char notes[1024], *diff;

	(void)state;
	fake(&k, RM_V_FALSE, 0, names, objs, wr, 2);
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_non_null(strstr(diff, "--- a/pair.c\n+++ b/pair.c\n@@ -1,8 +1,10 @@\n"));
	assert_non_null(strstr(diff, "-\tvolatile long a;\n+\t/* c2c-lite: FALSE SHARING of buf1 "
				     "by w/11 (buf1.a), w/12 (buf1.b): 97.50% of sampled time */\n"
				     "+\t_Alignas(64) volatile long a;\n"));
	assert_non_null(strstr(diff, "+\t_Alignas(64) volatile long b;\n"));
	assert_non_null(strstr(notes, "pair.c:5: align b to 64 bytes (_Alignas(64))"));
	free(diff);
	/* C++ and the old language levels */
	d.lang = FIX_LANG_CXX;
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_non_null(strstr(diff, "+\talignas(64) volatile long b;\n"));
	free(diff);
	d.old_std = 1;
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_non_null(strstr(diff, "+\t__attribute__((aligned(64))) volatile long b;\n"));
	free(diff);
}

/* Arrays of 8-, 16-, 24- and 40-byte elements: the element type is aligned. */
static void test_fix_array_elements(void **state)
{
	static const char *const texts[] = {
		"struct s8 {\n\tlong v;\n};\nstruct s8 arr[8];\n",
		"struct s16 {\n\tlong v;\n\tlong w;\n};\nstruct s16 arr[8];\n",
		"struct s24 {\n\tlong v;\n\tlong w, x;\n};\nstruct s24 arr[8];\n",
		"struct s40 {\n\tint v;\n\tint pad[9];\n};\nstruct s40 arr[8];\n",
	};
	static const char *const tn[] = { "struct s8", "struct s16", "struct s24", "struct s40" };
	static const char *const names[] = { "arr[0].v", "arr[1].v" }, *objs[] = { "arr", "arr" };
	static const int wr[] = { 1, 2 };
	char notes[1024], *diff;
	struct fake k;

	(void)state;
	fake(&k, RM_V_FALSE, 1, names, objs, wr, 2);
	for (int i = 0; i < 4; i++) {
		struct src srcs[] = { { "/src/a.c", texts[i] }, { NULL, NULL } };
		struct fix_decl d = { .lang = FIX_LANG_C, .var = { "/src/a.c", i ? 5u : 4u },
				      .type = { "/src/a.c", 1 }, .first = { "/src/a.c", 2 },
				      .first_name = "v", .type_name = tn[i] };

		diff = run(&k, &d, srcs, notes, sizeof(notes));
		assert_non_null(strstr(diff, "_Alignas(64) long v;\n") ?
				strstr(diff, "_Alignas(64) long v;\n") :
				strstr(diff, "_Alignas(64) int v;\n"));
		free(diff);
		d.lang = FIX_LANG_CXX;
		diff = run(&k, &d, srcs, notes, sizeof(notes));
		assert_non_null(strstr(diff, "struct alignas(64) s"));
		free(diff);
	}
}

static void test_fix_heap_array_alloc(void **state)
{
	static const char text[] =
		"#include <stdlib.h>\nstruct slot {\n\tlong v;\n};\n\nint main(void)\n{\n"
		"\tstruct slot *p = malloc(8 * sizeof(struct slot));\n\treturn !p;\n}\n";
	static const char *const names[] = { "p[].v", "p[].v (element i+1)" };
	static const char *const objs[] = { "heap: *p", "heap: *p" };
	static const int wr[] = { 1, 2 };
	struct src srcs[] = { { "/src/h.c", text }, { NULL, NULL } };
	struct fix_decl d = { .lang = FIX_LANG_C, .type = { "/src/h.c", 2 },
			      .first = { "/src/h.c", 3 }, .first_name = "v",
			      .type_name = "struct slot" };
	char notes[1024], *diff;
	struct fake k;

	(void)state;
	fake(&k, RM_V_FALSE, 1, names, objs, wr, 2);
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_non_null(strstr(diff, "+\tstruct slot *p = aligned_alloc(64, 8 * sizeof(struct slot));"));
	assert_non_null(strstr(diff, "+\t_Alignas(64) long v;\n"));
	free(diff);
}

static void test_fix_adjacent_variables(void **state)
{
	static const char text[] = "static long count_a;\nstatic long count_b;\n";
	static const char *const names[] = { "count_a", "count_b" };
	static const char *const objs[] = { "count_a", "count_b" };
	static const int wr[] = { 1, 2 };
	struct src srcs[] = { { "/src/v.c", text }, { NULL, NULL } };
	struct fix_decl d = { .lang = FIX_LANG_C, .var = { "/src/v.c", 1 },
			      .grp = { { "/src/v.c", 1 }, { "/src/v.c", 2 } } };
	char notes[1024], *diff;
	struct fake k;

	(void)state;
	fake(&k, RM_V_FALSE, 0, names, objs, wr, 2);
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_non_null(strstr(diff, "+static _Alignas(64) long count_a;\n"));
	assert_non_null(strstr(diff, "+static _Alignas(64) long count_b;\n"));
	free(diff);
}

static void test_fix_true_sharing_gets_none(void **state)
{
	static const char *const names[] = { "g.n", "g.n" }, *objs[] = { "g", "g" };
	static const int wr[] = { 3, 3 };
	struct src srcs[] = { { NULL, NULL } };
	char notes[1024], *diff;
	struct fake k;

	(void)state;
	fake(&k, RM_V_TRUE, 0, names, objs, wr, 2);
	diff = run(&k, NULL, srcs, notes, sizeof(notes));
	assert_string_equal(diff, "");
	assert_non_null(strstr(notes, "g: no patch: true sharing"));
	free(diff);
}

static void test_fix_system_header_gets_reason(void **state)
{
	static const char *const names[] = { "lk.a", "lk.b" }, *objs[] = { "lk", "lk" };
	static const int wr[] = { 1, 2 };
	struct src srcs[] = { { NULL, NULL } };
	struct fix_decl d = { .lang = FIX_LANG_C, .type = { "/usr/include/bits/x.h", 3 },
			      .grp = { { "/usr/include/bits/x.h", 4 },
				       { "/usr/include/bits/x.h", 5 } } };
	char notes[1024], *diff;
	struct fake k;

	(void)state;
	fake(&k, RM_V_FALSE, 0, names, objs, wr, 2);
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_string_equal(diff, "");
	assert_non_null(strstr(notes, "lk: no patch: declared outside the source root, in "
				      "/usr/include/bits/x.h"));
	free(diff);
	d.lang = FIX_LANG_OTHER;
	d.lang_name = "Go";
	diff = run(&k, &d, srcs, notes, sizeof(notes));
	assert_non_null(strstr(notes, "lk: no patch: no patch for Go code"));
	free(diff);
}

/* Hunks: 3 lines of context; edits 7 lines apart share one hunk, 8 apart do not. */
static void test_fix_udiff_hunks(void **state)
{
	char text[512] = "", line[16];
	char two[] = "two", nine[] = "nine", nl[] = "new\n";
	struct fix_line_edit e[3] = { { .line = 2, .text = two }, { .line = 9, .text = nine },
				      { .line = 17, .before = nl } };
	struct fix_buf b = {0};

	(void)state;
	for (int i = 1; i <= 20; i++) {
		snprintf(line, sizeof(line), "%d\n", i);
		strcat(text, line);
	}
	fix_udiff(&b, "f.c", text, e, 3);
	assert_non_null(strstr(b.p, "@@ -1,12 +1,12 @@\n 1\n-2\n+two\n 3\n"));
	assert_non_null(strstr(b.p, "@@ -14,7 +14,8 @@\n 14\n 15\n 16\n+new\n 17\n"));
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fix_members_of_two_threads),
		cmocka_unit_test(test_fix_array_elements),
		cmocka_unit_test(test_fix_heap_array_alloc),
		cmocka_unit_test(test_fix_adjacent_variables),
		cmocka_unit_test(test_fix_true_sharing_gets_none),
		cmocka_unit_test(test_fix_system_header_gets_reason),
		cmocka_unit_test(test_fix_udiff_hunks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
