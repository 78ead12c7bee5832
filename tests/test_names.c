/* Tests of report/model/names: the words for memory no variable names (the brk heap a soft
 * trace calls "//anon"), the data object of a line named by code (a variable reached by its
 * address is named as itself, a pointer's target "*p"), and the elements an unknown index names
 * ("sum[]"), told apart by their addresses, and one object reached through several pointers
 * named once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report/model/names.h"

/* --- elements --------------------------------------------------------------------------------- */

struct elem_row {
	int line;
	const char *object, *member;
	uint64_t addr, size, off, count;
	const char *text;     /* rm_elem_text() of the member */
};

static void check_elems(const struct elem_row *rows, size_t n)
{
	struct rm_elem e[16];
	char buf[128];

	assert_true(n <= 16);
	for (size_t i = 0; i < n; i++)
		e[i] = (struct rm_elem){ .object = rows[i].object, .member = rows[i].member,
					 .addr = rows[i].addr, .size = rows[i].size,
					 .off = rows[i].off, .count = rows[i].count };
	rm_elem_index(e, n);
	for (size_t i = 0; i < n; i++) {
		rm_elem_text(&e[i], rows[i].member, buf, sizeof(buf));
		if (strcmp(buf, rows[i].text))
			fail_msg("line %d: '%s', want '%s'", rows[i].line, buf, rows[i].text);
	}
}

/* Four threads' sum[id] (an OpenMP pi): the four elements of a double[4] seen, in any order,
 * are its elements 0-3. */
static void test_names_elems_whole_array(void **state)
{
	static const struct elem_row rows[] = {
		{ __LINE__, "stack: sum", "sum[]", 0x7ffc10, 8, 0, 4, "sum[2]" },
		{ __LINE__, "stack: sum", "sum[]", 0x7ffc00, 8, 0, 4, "sum[0]" },
		{ __LINE__, "stack: sum", "sum[]", 0x7ffc18, 8, 0, 4, "sum[3]" },
		{ __LINE__, "stack: sum", "sum[]", 0x7ffc08, 8, 0, 4, "sum[1]" },
		{ __LINE__, "stack: sum", "sum[]", 0x7ffc08, 8, 0, 4, "sum[1]" },  /* again */
	};

	(void)state;
	check_elems(rows, sizeof(rows) / sizeof(rows[0]));
}

/* Elements of an array whose start is unknown (a pointer's, or not all seen): counted from the
 * lowest seen; groups are one object, one member, one element size; the byte inside the element
 * is taken off first. */
static void test_names_elems_relative(void **state)
{
	static const struct elem_row rows[] = {
		{ __LINE__, "heap: *memory", "memory[]", 0x1008, 8, 0, 0, "memory[i+1]" },
		{ __LINE__, "heap: *memory", "memory[]", 0x1000, 8, 0, 0, "memory[i]" },
		/* another object: its own group */
		{ __LINE__, "heap: *other", "memory[]", 0x1010, 8, 0, 0, "memory[i]" },
		/* three of four elements seen: where the array starts is unknown */
		{ __LINE__, "stack: sum", "sum[]", 0x2008, 8, 0, 4, "sum[i]" },
		{ __LINE__, "stack: sum", "sum[]", 0x2018, 8, 0, 4, "sum[i+2]" },
		{ __LINE__, "stack: sum", "sum[]", 0x2010, 8, 0, 4, "sum[i+1]" },
		/* member b, 8 bytes into 16-byte elements of *p; the path after the index stays */
		{ __LINE__, "heap: *p", "p[].b", 0x3018, 16, 8, 0, "p[i+1].b" },
		{ __LINE__, "heap: *p", "p[].b", 0x3008, 16, 8, 0, "p[i].b" },
		{ __LINE__, "heap: *o", "o->y[].x (+2)", 0x4006, 4, 2, 0, "o->y[i].x (+2)" },
		/* two unknown indices: the element (of the innermost) follows */
		{ __LINE__, "stack: g", "g[][]", 0x5010, 8, 0, 32, "g[][] (element i+2)" },
		{ __LINE__, "stack: g", "g[][]", 0x5000, 8, 0, 32, "g[][] (element i)" },
		/* no object: grouped by member and size alone */
		{ __LINE__, NULL, "q[]", 0x6004, 4, 0, 0, "q[i+1]" },
		{ __LINE__, NULL, "q[]", 0x6000, 4, 0, 0, "q[i]" },
	};

	(void)state;
	check_elems(rows, sizeof(rows) / sizeof(rows[0]));
}

/* A name without an unknown index, or without an element size, is left as it is. */
static void test_names_elems_untouched(void **state)
{
	struct rm_elem e = { .member = "buf1.a", .addr = 0x10, .size = 8 };
	char buf[64];

	(void)state;
	rm_elem_index(&e, 1);
	rm_elem_text(&e, "buf1.a", buf, sizeof(buf));
	assert_string_equal(buf, "buf1.a");
	e = (struct rm_elem){ .member = "x[]", .addr = 0x10 };
	rm_elem_index(&e, 1);
	rm_elem_text(&e, "x[]", buf, sizeof(buf));
	assert_string_equal(buf, "x[]");
	rm_elem_index(NULL, 0);
}

/* --- memory and objects ------------------------------------------------------------------------ */

static struct maps_dso anon = { .name = "//anon", .short_name = "//anon" };
static struct maps_dso stack = { .name = "[stack]", .short_name = "[stack]" };

/* The brk heap is "heap" however the recorder named it; other anonymous memory stays "anon". */
static void test_names_brk_heap(void **state)
{
	struct maps_map map = { .start = 0x1000, .end = 0x2000, .dso = &anon };
	struct rm_where w = { .cpumode = 2, .dmap = &map, .key_pid = 12 };
	char buf[64];

	(void)state;
	rm_memory_text(&w, NULL, 0, buf, sizeof(buf));
	assert_string_equal(buf, "anon of pid 12");
	w.brk_heap = 1;
	rm_memory_text(&w, NULL, 0, buf, sizeof(buf));
	assert_string_equal(buf, "heap of pid 12");
	w.key_pid = 0;
	rm_memory_text(&w, NULL, 0, buf, sizeof(buf));
	assert_string_equal(buf, "heap");
}

/* The object of a line named by code: a pointer's target "*c", a variable reached by its
 * address (an OpenMP shared variable, a local) as itself, after what the memory is. */
static void test_names_object_by_code(void **state)
{
	struct maps_thread t = { .pid = 40, .tid = 40 };
	struct maps_map heap = { .start = 0x1000, .end = 0x2000, .dso = &anon };
	struct maps_map stk = { .start = 0x7000, .end = 0x8000, .dso = &stack };
	struct rm_where w = { .cpumode = 2, .dmap = &stk, .thread = &t };
	struct sym_data_info sum = { .var = "sum", .type = "double[4]", .var_size = 32,
				     .member = "sum[]" };
	struct sym_data_info c = { .var = "*c", .type = "struct counters", .var_size = 64,
				   .member = "c->hits" };
	struct rm_what what;
	char buf[256];

	(void)state;
	rm_what_init(&what);
	rm_what_add(&what, RM_NAME_BY_CODE, &sum);
	assert_int_equal(rm_what_object(&what, &w, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "stack of tid 40: sum");
	rm_what_text(&what, &w, 0, buf, sizeof(buf));
	assert_string_equal(buf, "stack of tid 40: sum (double[4], 32 bytes)");
	rm_what_init(&what);
	w.dmap = &heap;
	w.key_pid = 40;
	w.brk_heap = 1;
	rm_what_add(&what, RM_NAME_BY_CODE, &c);
	assert_int_equal(rm_what_object(&what, &w, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "heap of pid 40: *c");
}

/* Folly's queue: main's "*test" and the method's "*this" reach one ThroughputTest; the line
 * lists it once, under the first name seen, whichever member each reaches. Other bytes, another
 * size or another type at the same start are other objects; an access at an unknown offset
 * ("*p (+?)") says nothing about where its object starts. */
#define NR_OBJ 3000

/* A lock's bytes are one member, the lock (issue 28: a contended pthread_mutex_t, whose __kind
 * one thread reads while another writes __lock, is not two members falsely shared). */
static void test_names_lock_member(void **state)
{
	struct sym_data_info d = { .var = "*mutex", .member = "mutex->__kind", .lock = "*mutex" };
	struct sym_data_info q = { .var = "g_q", .member = "g_q.lock.__owner (+4)", .lock = "g_q.lock" };
	struct sym_data_info h = { .var = "g_q", .member = "g_q.head (+4)" };
	char buf[64];

	(void)state;
	rm_member_name(&d, buf, sizeof(buf));
	assert_string_equal(buf, "*mutex");
	rm_member_name(&q, buf, sizeof(buf));
	assert_string_equal(buf, "g_q.lock");
	rm_member_name(&h, buf, sizeof(buf));
	assert_string_equal(buf, "g_q.head");
}

static void test_names_aliases(void **state)
{
	struct sym_data_info test = { .var = "*test", .type = "struct ThroughputTest", .var_size = 40,
				      .var_offset = 0, .member = "test->queue_.readIndex_" };
	struct sym_data_info self = { .var = "*this", .type = "struct ThroughputTest", .var_size = 40,
				      .var_offset = 12, .member = "this->iters_" };
	struct sym_data_info inner = { .var = "*q", .type = "struct Queue", .var_size = 12,
				       .var_offset = 0, .member = "q->readIndex_" };
	struct sym_data_info unknown = { .var = "*p", .type = "struct ThroughputTest",
					 .var_size = 40, .member = "*p (+?)" };
	static char names[NR_OBJ][16];
	struct rm_aliases al = {0};
	struct rm_what what;
	char buf[256];

	(void)state;
	assert_string_equal(rm_alias_var(&al, 0x1000, &test), "*test");
	assert_string_equal(rm_alias_var(&al, 0x100c, &self), "*test");
	assert_string_equal(rm_alias_var(&al, 0x1000, &inner), "*q");      /* another type */
	assert_string_equal(rm_alias_var(&al, 0x1034, &self), "*this");     /* the next one */
	assert_string_equal(rm_alias_var(&al, 0x1028, &test), "*this");
	assert_string_equal(rm_alias_var(&al, 0x1004, &unknown), "*p");
	self.var_size = 640;                                                /* another size */
	assert_string_equal(rm_alias_var(&al, 0x100c, &self), "*this");
	/* many objects (the table grows): each keeps its own name, an alias of each finds it */
	for (unsigned i = 0; i < NR_OBJ; i++) {
		struct sym_data_info d = test;
		snprintf(names[i], sizeof(names[i]), "*o%u", i);
		d.var = names[i];
		assert_ptr_equal(rm_alias_var(&al, 0x100000 + 64 * i, &d), names[i]);
	}
	self.var_size = 40;
	for (unsigned i = 0; i < NR_OBJ; i++)
		assert_ptr_equal(rm_alias_var(&al, 0x100000 + 64 * i + 12, &self), names[i]);
	rm_aliases_free(&al);

	/* the line's heading with the aliases resolved */
	al = (struct rm_aliases){0};
	rm_what_init(&what);
	test.var = rm_alias_var(&al, 0x1000, &test);
	rm_what_add(&what, RM_NAME_BY_CODE, &test);
	self.var = rm_alias_var(&al, 0x100c, &self);
	rm_what_add(&what, RM_NAME_BY_CODE, &self);
	rm_what_text(&what, &(struct rm_where){ 0 }, 0, buf, sizeof(buf));
	assert_string_equal(buf, "[unknown]: *test (struct ThroughputTest, 40 bytes)");
	rm_aliases_free(&al);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_elems_whole_array),
		cmocka_unit_test(test_names_elems_relative),
		cmocka_unit_test(test_names_elems_untouched),
		cmocka_unit_test(test_names_brk_heap),
		cmocka_unit_test(test_names_object_by_code),
		cmocka_unit_test(test_names_aliases),
		cmocka_unit_test(test_names_lock_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
