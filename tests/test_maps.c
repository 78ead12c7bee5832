/* Tests of report/resolve/maps: perf's thread and map semantics (lookup by cpumode, map-relative
 * addresses, overlap trimming, fork sharing/copying, comm inheritance, anonymous detection). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/resolve/maps.h"

static struct trace_mmap mm(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
			    uint32_t flags, uint64_t ino, const char *file, uint8_t mode)
{
	struct trace_mmap m = { .pid = pid, .tid = pid, .start = start, .len = len, .pgoff = pgoff,
				.prot = 3, .flags = flags, .maj = ino ? 8 : 0, .min = ino ? 1 : 0,
				.ino = ino, .cpumode = mode, .filename = file };
	return m;
}

static int setup(void **state)
{
	struct maps *m = maps_new();
	struct trace_mmap a = mm(100, 0x400000, 0x10000, 0x2000, 2, 77, "/usr/bin/app", 2);
	struct trace_mmap h = mm(100, 0x1000000, 0x100000, 0, 2, 0, "[heap]", 2);
	struct trace_mmap k = mm(UINT32_MAX, 0xffffffff81000000ULL, 0x1000000,
				 0xffffffff81000000ULL, 0, 0, "[kernel.kallsyms]_text", 1);
	struct trace_comm c = { .pid = 100, .tid = 100, .comm = "app" };

	maps_mmap(m, &a);
	maps_mmap(m, &h);
	maps_mmap(m, &k);
	maps_comm(m, &c);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	maps_free(*state);
	return 0;
}

struct lookup_row {
	int line;
	int32_t pid, tid;
	uint8_t mode;
	uint64_t addr;
	const char *dso;       /* NULL: no map */
	uint64_t al;
};

static void test_maps_lookup_by_mode(void **state)
{
	static const struct lookup_row rows[] = {
		{ __LINE__, 100, 100, 2, 0x400123, "app", 0x2123 },
		{ __LINE__, 100, 101, 2, 0x1000040, "[heap]", 0x1000040 },   /* thread shares */
		{ __LINE__, 100, 100, 1, 0x1000040, NULL, 0x1000040 },       /* kernel mode: no */
		{ __LINE__, 100, 100, 1, 0xffffffff81000100ULL, "[kernel.kallsyms]",
		  0xffffffff81000100ULL },
		{ __LINE__, 100, 100, 2, 0xffffffff81000100ULL, NULL, 0xffffffff81000100ULL },
		{ __LINE__, 100, 100, 3, 0x400123, NULL, 0x400123 },         /* hypervisor */
		{ __LINE__, 200, 200, 2, 0x400123, NULL, 0x400123 },         /* other process */
		{ __LINE__, 100, 100, 2, 0x410000, NULL, 0x410000 },         /* end is exclusive */
	};
	struct maps *m = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct lookup_row *r = &rows[i];
		struct maps_thread *t = maps_findnew_thread(m, r->pid, r->tid);
		struct maps_loc loc;
		int found = maps_find(m, t, r->mode, r->addr, &loc);

		if (found != (r->dso != NULL) || loc.al_addr != r->al ||
		    (r->dso && strcmp(loc.map->dso->short_name, r->dso)))
			fail_msg("row at line %d: found %d al %#llx", r->line, found,
				 (unsigned long long)loc.al_addr);
	}
}

static void test_maps_find_any_tries_kernel(void **state)
{
	struct maps *m = *state;
	struct maps_thread *t = maps_findnew_thread(m, 100, 100);
	struct maps_loc loc;

	assert_int_equal(maps_find_any(m, t, 0xffffffff81000100ULL, &loc), 1);
	assert_string_equal(loc.map->dso->name, "[kernel.kallsyms]");
	assert_int_equal(maps_find_any(m, t, 0x9000000, &loc), 0);
}

/* A goroutine stands as a thread of its process: one per (pid, goid), with a pseudo tid above
 * any pid_max, the process's address space and comm. */
static void test_maps_task_threads(void **state)
{
	struct maps *m = *state;
	struct trace_comm c = { .pid = 100, .tid = 100, .comm = "pool" };
	struct maps_thread *t = maps_findnew_thread(m, 100, 101), *a, *b, *o;
	struct maps_loc loc;

	maps_comm(m, &c);
	a = maps_task_thread(m, 100, 17);
	b = maps_task_thread(m, 100, 18);
	o = maps_task_thread(m, 200, 17);
	assert_ptr_equal(maps_task_thread(m, 100, 17), a);
	assert_ptr_not_equal(a, b);
	assert_ptr_not_equal(a, o);
	assert_true(a->tid >= MAPS_TASK_TID_BASE && b->tid != a->tid && o->tid != a->tid);
	assert_int_equal(a->pid, 100);
	assert_int_equal(a->task, 17);
	assert_int_equal(t->task, 0);
	assert_string_equal(a->comm, "pool");
	assert_ptr_equal(a->space, t->space);
	/* the tid finds it again, and its maps are the process's */
	assert_ptr_equal(maps_findnew_thread(m, 100, a->tid), a);
	assert_int_equal(maps_find(m, a, 2, 0x401000, &loc), maps_find(m, t, 2, 0x401000, &loc));
	for (uint64_t g = 1; g <= 1000; g++)    /* the table grows */
		assert_int_equal(maps_task_thread(m, 300, g)->task, g);
	assert_int_equal(maps_task_thread(m, 300, 7)->tid, maps_task_thread(m, 300, 7)->tid);
	assert_ptr_not_equal(maps_task_thread(m, 300, 7), maps_task_thread(m, 300, 8));
}

static void test_maps_overlap_trims(void **state)
{
	struct maps *m = *state;
	struct trace_mmap o = mm(100, 0x1000800, 0x1000, 0, 2, 99, "/lib/over.so", 2);
	struct maps_thread *t = maps_findnew_thread(m, 100, 100);
	struct maps_loc loc;

	maps_mmap(m, &o);
	assert_int_equal(maps_find(m, t, 2, 0x1000100, &loc), 1);
	assert_string_equal(loc.map->dso->short_name, "[heap]");
	assert_int_equal(maps_find(m, t, 2, 0x1000900, &loc), 1);
	assert_string_equal(loc.map->dso->short_name, "over.so");
	assert_int_equal(loc.al_addr, 0x100);
	assert_int_equal(maps_find(m, t, 2, 0x1001800, &loc), 1);
	assert_string_equal(loc.map->dso->short_name, "[heap]");
	assert_int_equal(maps_find(m, t, 2, 0x400000, &loc), 1);
}

static void test_maps_fork_copies_and_shares(void **state)
{
	struct maps *m = *state;
	struct trace_task child = { .pid = 300, .ppid = 100, .tid = 300, .ptid = 100 };
	struct trace_task thr = { .pid = 100, .ppid = 100, .tid = 105, .ptid = 100 };
	struct trace_mmap late = mm(100, 0x7f0000000000ULL, 0x1000, 0, 2, 0, "//anon", 2);
	struct maps_thread *c, *t;
	struct maps_loc loc;

	maps_fork(m, &child);
	maps_fork(m, &thr);
	maps_mmap(m, &late);
	c = maps_findnew_thread(m, 300, 300);
	t = maps_findnew_thread(m, 100, 105);
	assert_string_equal(c->comm, "app");
	assert_string_equal(t->comm, "app");
	assert_int_equal(maps_find(m, c, 2, 0x400000, &loc), 1);         /* copied */
	assert_int_equal(maps_find(m, c, 2, 0x7f0000000000ULL, &loc), 0); /* after the fork */
	assert_int_equal(maps_find(m, t, 2, 0x7f0000000000ULL, &loc), 1); /* shared */
}

/* perf synthesizes a FORK (misc FORK_EXEC) for each task that already ran when it started: the
 * task's own MMAPs follow, and perf's machine__process_fork_event copies nothing from the
 * parent. Regression: the parent's maps were copied, so a sample at an address only the parent
 * (the shell that started the workload, say) maps was resolved to the parent's file. */
static void test_maps_synthesized_fork_copies_nothing(void **state)
{
	struct maps *m = *state;
	struct trace_task child = { .pid = 300, .ppid = 100, .tid = 300, .ptid = 100,
				    .flags = TRACE_TASK_SYNTHESIZED };
	struct trace_task thr = { .pid = 300, .ppid = 300, .tid = 301, .ptid = 300,
				  .flags = TRACE_TASK_SYNTHESIZED };
	struct trace_mmap own = mm(300, 0x7f0000000000ULL, 0x1000, 0, 2, 0, "//anon", 2);
	struct maps_thread *c, *t;
	struct maps_loc loc;

	maps_fork(m, &child);
	maps_mmap(m, &own);
	maps_fork(m, &thr);
	c = maps_findnew_thread(m, 300, 300);
	t = maps_findnew_thread(m, 300, 301);
	assert_string_equal(c->comm, "app");                              /* the comm is inherited */
	assert_int_equal(maps_find(m, c, 2, 0x400000, &loc), 0);          /* the parent's: not copied */
	assert_int_equal(maps_find(m, c, 2, 0x7f0000000000ULL, &loc), 1); /* its own */
	assert_int_equal(maps_find(m, t, 2, 0x7f0000000000ULL, &loc), 1); /* a thread shares them */
}

static void test_maps_anon_and_names(void **state)
{
	struct maps *m = *state;
	struct maps_thread *t = maps_findnew_thread(m, 100, 100);
	struct trace_mmap shm = mm(100, 0x5000000, 0x1000, 0, 1, 0, "/dev/shm/x", 2);
	struct trace_mmap jit = mm(100, 0x6000000, 0x1000, 0, 2, 0, "//anon", 2);
	struct maps_loc loc;

	jit.prot = 7;
	maps_mmap(m, &shm);
	maps_mmap(m, &jit);
	assert_int_equal(maps_find(m, t, 2, 0x1000000, &loc), 1);
	assert_true(maps_is_anon_private(loc.map, 2));
	assert_false(maps_is_anon_private(loc.map, 1));
	assert_int_equal(maps_find(m, t, 2, 0x5000000, &loc), 1);
	assert_false(maps_is_anon_private(loc.map, 2));
	assert_int_equal(maps_find(m, t, 2, 0x6000010, &loc), 1);
	assert_string_equal(loc.map->dso->short_name, "[JIT] tid 100");
	assert_int_equal(loc.al_addr, 0x6000010);
	assert_string_equal(maps_findnew_thread(m, 555, 556)->comm, ":556");
	/* the idle task is "swapper" from the start, as perf registers it (perf script shows
	 * "swapper 0/0" for the idle samples of a system-wide tracepoint; regression: ":0") */
	assert_string_equal(maps_findnew_thread(m, 0, 0)->comm, "swapper");
	assert_string_equal(maps_findnew_thread(m, -1, 0)->comm, "swapper");
	assert_int_equal(maps_level_char(1), 'k');
	assert_int_equal(maps_level_char(2), '.');
	assert_int_equal(maps_level_char(3), 'H');
}

/* The brk heap: the kernel names it "//anon" when brk() first makes it (test_maps: a soft
 * trace's layout), "[heap]" only when it grows. */
static void test_maps_brk_heap(void **state)
{
	static const struct {
		int line;
		uint64_t start, len;
		uint32_t flags, prot;
		const char *file;
		int heap;
	} rows[] = {
		/* the executable, PIE, and what follows it */
		{ __LINE__, 0x55cc75bc1000ULL, 0x2000, 2, 1, "/tmp/prog", 0 },
		{ __LINE__, 0x55cc75bc3000ULL, 0x1000, 2, 5, "/tmp/prog", 0 },
		{ __LINE__, 0x55cc75bc5000ULL, 0x2000, 2, 3, "/tmp/prog", 0 },
		/* right after it: the heap without ASLR, or the .bss tail, whose variables
		 * report/model/names.c names before it asks what the memory is */
		{ __LINE__, 0x55cc75bc7000ULL, 0x1000, 2, 3, "//anon", 1 },
		{ __LINE__, 0x55ccb26ec000ULL, 0x21000, 2, 3, "//anon", 1 },  /* 970 MB after it */
		{ __LINE__, 0x55cd00000000ULL, 0x1000, 2, 7, "//anon", 0 },   /* executable: JIT */
		{ __LINE__, 0x55cd10000000ULL, 0x1000, 1, 3, "//anon", 0 },   /* shared */
		/* the libraries, top down below the stack: their anonymous memory is no heap */
		{ __LINE__, 0x7f7024e1e000ULL, 0x1e2000, 2, 5, "/usr/lib/libc.so.6", 0 },
		{ __LINE__, 0x7f7025000000ULL, 0x1000, 2, 3, "//anon", 0 },
		{ __LINE__, 0x7f702461e000ULL, 0x800000, 2, 3, "//anon", 0 },  /* a thread's stack */
	};
	struct maps *m = maps_new();
	struct maps_thread *t = maps_findnew_thread(m, 100, 101);
	struct maps_loc loc;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct trace_mmap a = mm(100, rows[i].start, rows[i].len, 0, rows[i].flags,
					 rows[i].file[0] == '/' && rows[i].file[1] != '/' ? 9 : 0,
					 rows[i].file, 2);
		a.prot = rows[i].prot;
		maps_mmap(m, &a);
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(maps_find(m, t, 2, rows[i].start, &loc), 1);
		if (maps_is_brk_heap(t, loc.map) != rows[i].heap)
			fail_msg("line %d: brk heap %d", rows[i].line, !rows[i].heap);
	}
	/* beyond the 1 GiB the kernel randomizes the heap's start in (2 GiB allowed): no heap */
	struct trace_mmap far = mm(100, 0x55cd75bc8000ULL, 0x1000, 0, 2, 0, "//anon", 2);
	maps_mmap(m, &far);
	assert_int_equal(maps_find(m, t, 2, far.start, &loc), 1);
	assert_false(maps_is_brk_heap(t, loc.map));
	/* another file mapped between the executable and the memory: not the heap */
	struct trace_mmap file = mm(100, 0x55cc90000000ULL, 0x1000, 0, 2, 5, "/tmp/data", 2);
	maps_mmap(m, &file);
	assert_int_equal(maps_find(m, t, 2, 0x55ccb26ec000ULL, &loc), 1);
	assert_false(maps_is_brk_heap(t, loc.map));
	/* no thread, no file: nothing to tell it by */
	assert_false(maps_is_brk_heap(NULL, loc.map));
	t = maps_findnew_thread(m, 200, 200);
	struct trace_mmap lone = mm(200, 0x1000000, 0x1000, 0, 2, 0, "//anon", 2);
	maps_mmap(m, &lone);
	assert_int_equal(maps_find(m, t, 2, lone.start, &loc), 1);
	assert_false(maps_is_brk_heap(t, loc.map));
	maps_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_maps_lookup_by_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps_find_any_tries_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps_overlap_trims, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps_task_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps_fork_copies_and_shares, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maps_synthesized_fork_copies_nothing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_maps_anon_and_names, setup, teardown),
		cmocka_unit_test(test_maps_brk_heap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
