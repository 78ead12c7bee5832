/* cmocka suite of report/aggregate/callers.c and report/model/callgraph-text.c (printed by
 * report/stdio/callgraph.c): callchains interned once, counted per row, and perf's callchain
 * tree and graph (the same lines printed and listed) built from hand-made chains (the
 * layouts checked here are the ones perf 6.1 printed for c2c-gen's chains in
 * tests/e2e/report-callchain.sh). No maps: frames without a map compare by address. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/trace.h"
#include "report/aggregate/callers.h"
#include "report/stdio/callgraph.h"
#include "tests/text-lines.h"

#define U TRACE_CHAIN_CONTEXT_USER
#define K TRACE_CHAIN_CONTEXT_KERNEL

static uint32_t add(struct callers *c, const uint64_t *chain, uint32_t nr)
{
	struct callers_frame f[CALLERS_MAX_STACK];

	return callers_intern(c, f, callers_frames(chain, nr, NULL, NULL, f));
}

static void test_callers_frames(void **state)
{
	struct callers_frame f[CALLERS_MAX_STACK];
	const uint64_t mixed[] = { K, 0xffffffff81000010ull, U, 0x401000, 0x402000 };
	const uint64_t guest[] = { U, 0x401000, (uint64_t)-2048, 0x1234 };
	uint64_t deep[200];

	(void)state;
	assert_int_equal(callers_frames(mixed, 5, NULL, NULL, f), 3);
	assert_int_equal(f[0].cpumode, 1);
	assert_int_equal(f[1].cpumode, 2);
	assert_true(f[2].ip == 0x402000);
	/* an unknown marker (PERF_CONTEXT_GUEST): perf drops the whole chain */
	assert_int_equal(callers_frames(guest, 4, NULL, NULL, f), 0);
	for (int i = 0; i < 200; i++)
		deep[i] = 0x400000 + (uint64_t)i;
	assert_int_equal(callers_frames(deep, 200, NULL, NULL, f), CALLERS_MAX_STACK);
}

static void test_callers_intern_and_rows(void **state)
{
	struct callers *c = callers_new();
	const uint64_t a[] = { U, 0x10, 0x20 }, b[] = { U, 0x10, 0x30 };
	const struct callers_use *u;
	uint32_t ia, ib;

	(void)state;
	ia = add(c, a, 3);
	ib = add(c, b, 3);
	assert_true(ia && ib && ia != ib);
	assert_int_equal(add(c, a, 3), ia);          /* one copy per distinct chain */
	assert_int_equal(add(c, (const uint64_t[]){ U }, 1), 0);
	for (int i = 0; i < 5; i++)
		callers_count(c, 7, ia);
	callers_count(c, 7, ib);
	callers_count(c, 3, ib);
	callers_count(c, 7, 0);                      /* no chain: not counted */
	assert_int_equal(callers_of_row(c, 7, &u), 2);
	assert_int_equal(u[0].chain, ia);
	assert_int_equal(u[0].n, 5);
	assert_int_equal(u[1].n, 1);
	assert_int_equal(callers_of_row(c, 3, &u), 1);
	assert_int_equal(callers_of_row(c, 5, &u), 0);
	callers_free(c);
}

/* The TUI lists the graph's lines as the text report prints them: the same text, a list row per
 * printed line (the closing blank one too). */
static void graph_lines(const struct callers *c, const struct callers_use *u, size_t k,
			enum rm_callers_order order, uint64_t total, uint64_t parent,
			const char *printed)
{
	struct text_lines j = { 0 };

	rm_callgraph_text(c, u, k, order, total, parent, text_lines_put, &j);
	assert_true(j.n > 1);
	text_lines_check(&j, printed);
}

/* Rows of the graph printed for @chains (counts in @n), as text. */
static char *graph(const uint64_t (*chains)[4], const uint32_t *n, size_t k,
		   enum rm_callers_order order, uint64_t total, uint64_t parent)
{
	struct callers *c = callers_new();
	struct callers_use u[8];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < k; i++) {
		uint32_t nr = 0;

		while (nr < 4 && chains[i][nr])
			nr++;
		u[i] = (struct callers_use){ add(c, chains[i], nr), n[i] };
	}
	callgraph_fprint(f, c, u, k, order, total, parent);
	fclose(f);
	graph_lines(c, u, k, order, total, parent, buf);
	callers_free(c);
	return buf;
}

static void test_callers_graph_callee(void **state)
{
	/* one sampled address, three caller paths: 0x30 under 0x20 twice, 0x40 under 0x20, 0x50 */
	const uint64_t ch[][4] = {
		{ U, 0x10, 0x20, 0x30 }, { U, 0x10, 0x20, 0x40 }, { U, 0x10, 0x50, 0 },
	};
	const uint32_t n[] = { 2, 1, 1 };
	char *g = graph(ch, n, 3, RM_CALLERS_CALLEE, 8, 4);

	(void)state;
	assert_string_equal(g,
		"            |\n"
		"            ---0x10\n"
		"               |          \n"
		"               |--37.50%--0x20\n"
		"               |          |          \n"
		"               |          |--25.00%--0x30\n"
		"               |          |          \n"
		"               |           --12.50%--0x40\n"
		"               |          \n"
		"                --12.50%--0x50\n"
		"\n");
	free(g);
}

static void test_callers_graph_caller(void **state)
{
	/* caller order: the outermost callers are the roots; equal hits keep perf's key order
	 * (address descending) */
	const uint64_t ch[][4] = { { U, 0x10, 0x20, 0 }, { U, 0x10, 0x30, 0 } };
	const uint32_t n[] = { 1, 1 };
	char *g = graph(ch, n, 2, RM_CALLERS_CALLER, 4, 3);

	(void)state;
	assert_string_equal(g,
		"            |          \n"
		"            |--25.00%--0x30\n"
		"            |          0x10\n"
		"            |          \n"
		"             --25.00%--0x20\n"
		"                       0x10\n"
		"\n");
	free(g);
}

static void test_callers_split(void **state)
{
	/* a chain that ends inside another's run splits it; hits stay with the right node */
	struct callers *c = callers_new();
	const uint64_t a[] = { U, 1, 2, 3 }, b[] = { U, 1, 2 };
	struct callers_use u[2] = { { add(c, a, 4), 3 }, { add(c, b, 3), 2 } };
	struct callers_node *root = callers_tree(c, u, 2, CALLERS_CALLEE);
	const struct callers_node *top;

	(void)state;
	assert_int_equal(root->nr_child, 1);
	top = root->child[0];
	assert_int_equal(top->nr_val, 2);
	assert_int_equal(top->hit, 2);
	assert_int_equal(top->children_hit, 3);
	assert_int_equal(top->nr_child, 1);
	assert_int_equal(top->child[0]->nr_val, 1);
	assert_true(top->child[0]->val[0]->ip == 3);
	callers_tree_free(root);
	callers_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callers_frames),
		cmocka_unit_test(test_callers_intern_and_rows),
		cmocka_unit_test(test_callers_graph_callee),
		cmocka_unit_test(test_callers_graph_caller),
		cmocka_unit_test(test_callers_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
