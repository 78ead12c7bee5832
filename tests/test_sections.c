/* Tests of the report's sections (report/model/sections.h): the layout of a table row, the
 * builders over regions, TopDown, AMD uncore and the run header, and the one text printer
 * (report/stdio/sections.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/model/sections-build.h"
#include "report/stdio/sections.h"

static char *print_of(const struct rm_section *sec, size_t top)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(stdio_section_print(f, sec, top), 0);
	fclose(f);
	return buf;
}

/* Cells at their columns' widths: cut text, a '%' inside the width, a blank cell in the middle
 * as spaces and none at the end of the row. */
static void test_sections_cells_text(void **state)
{
	struct rm_sections *ss = rm_sections_new();
	struct rm_section *sec = rm_section_add(ss, RM_SEC_RUN, NULL);
	struct rm_scell *c;
	char buf[128];

	(void)state;
	rm_section_col(sec, "name", 6, 0, RM_SCOL_LEFT | RM_SCOL_CUT);
	rm_section_col(sec, "n", 4, 0, 0);
	rm_section_col(sec, "share", 7, 1, RM_SCOL_PCT);
	rm_section_col(sec, "", 5, 2, 0);
	rm_section_head(sec, 1);
	c = rm_section_cells(sec, 1, 0);
	rm_scell_text(&c[0], "longname");
	rm_scell_num(&c[2], 12.34);
	assert_int_equal(rm_srow_cells_text(sec, &sec->row[0], buf, sizeof(buf)), 25);
	assert_string_equal(buf, "name      n   share      ");
	rm_srow_cells_text(sec, &sec->row[1], buf, sizeof(buf));
	assert_string_equal(buf, "longna        12.3%");
	/* cut at the buffer, with the length it needed */
	assert_int_equal(rm_srow_cells_text(sec, &sec->row[1], buf, 4), 19);
	assert_string_equal(buf, "lon");
	rm_sections_free(ss);
}

/* Ranked rows are numbered from 1 in each list; the printer shows the top N of each. */
static void test_sections_ranked(void **state)
{
	struct rm_sections *ss = rm_sections_new();
	struct rm_section *sec = rm_section_add(ss, RM_SEC_TOPDOWN, "T %d", 1);
	char *out;

	(void)state;
	rm_section_col(sec, "where", 2, 0, RM_SCOL_LEFT);
	rm_scell_text(&rm_section_cells(sec, 1, 0)[0], "all");
	for (uint32_t list = 0; list < 2; list++)
		for (uint32_t i = 1; i <= 3; i++)
			rm_scell_text(&rm_section_cells(sec, 1, i)[0], "%c%u", list ? 'f' : 'l', i);
	sec->blank_after = 1;
	out = print_of(sec, 2);
	assert_string_equal(out, "# T 1\n#   all\n#   l1\n#   l2\n#   f1\n#   f2\n\n");
	free(out);
	out = print_of(sec, SIZE_MAX);
	assert_non_null(strstr(out, "#   l3\n#   f1"));
	free(out);
	out = print_of(NULL, 5);     /* not built: nothing */
	assert_string_equal(out, "");
	free(out);
	rm_sections_free(ss);
}

/* A label and its value at the section's label width; long values wrapped under the value's
 * column at 90. */
static void test_sections_pairs(void **state)
{
	struct rm_sections *ss = rm_sections_new();
	struct rm_section *sec = rm_section_add(ss, RM_SEC_RUN, NULL);
	char long_text[200], *out, *nl;

	(void)state;
	memset(long_text, 'x', sizeof(long_text));
	memcpy(long_text + 50, " ", 1);
	long_text[80] = '\0';
	sec->label_width = 28;
	rm_section_blank(sec);
	rm_section_pair(sec, 0, "Samples", "%d", 70);
	rm_section_pair(sec, RM_SROW_WRAP, "Access inferred", "%s", long_text);
	out = print_of(sec, SIZE_MAX);
	assert_non_null(strstr(out, "#\n# Samples:                     70\n"));
	nl = strstr(out, "# Access inferred:             xxx");
	assert_non_null(nl);
	/* cut at the space: the second part starts under the first */
	assert_non_null(strstr(nl, "\n#                              xxx"));
	free(out);
	rm_sections_free(ss);
}

static void mark(struct rg_table *t, uint64_t time, uint32_t tid, int kind, const char *name)
{
	struct trace_region m = { .time = time, .pid = 1, .tid = tid, .kind = (uint32_t)kind,
				  .depth = 1, .name = name };

	rg_marker(t, &m);
}

/* Regions: a row per region and one outside; no section without markers. */
static void test_sections_regions(void **state)
{
	struct rg_table *t = rg_new(NULL);
	struct rm_sections *ss = rm_sections_new();
	struct trace_sample s = { .time = 3, .pid = 1, .tid = 1 };
	const struct rm_section *sec;

	(void)state;
	rm_sec_regions(ss, t);
	assert_null(rm_sections_get(ss, RM_SEC_REGIONS));
	mark(t, 2, 1, TRACE_REGION_BEGIN, "work");
	rg_sample(t, &s);
	mark(t, 2000002, 1, TRACE_REGION_END, "work");
	s.time = 2000003;
	rg_sample(t, &s);
	rm_sec_regions(ss, t);
	sec = rm_sections_get(ss, RM_SEC_REGIONS);
	assert_non_null(sec);
	assert_int_equal(sec->nr_col, 6);
	assert_int_equal(sec->nr_row, 3);          /* head, work, outside */
	assert_int_equal(sec->row[0].kind, RM_SROW_HEAD);
	assert_string_equal(sec->row[1].cell[0].text, "work");
	assert_int_equal(sec->row[1].cell[1].u, 1);            /* entries */
	assert_true(sec->row[1].cell[2].num == 2.0);           /* ms */
	assert_true(sec->row[1].cell[5].num == 50.0);          /* share */
	assert_int_equal(sec->row[2].cell[1].kind, RM_CELL_TEXT);
	assert_true(sec->blank_after);
	rm_sections_free(ss);
	rg_free(t);
}

/* AMD uncore: nothing for an empty summary; a line per row. */
static void test_sections_uncore(void **state)
{
	struct c2c_uncore *u = calloc(1, sizeof(*u));
	struct rm_sections *ss = rm_sections_new();
	char *out;

	(void)state;
	assert_non_null(u);
	rm_sec_uncore(ss, u);
	assert_null(rm_sections_get(ss, RM_SEC_UNCORE));
	u->seconds = 2;
	u->row[u->nr++] = (struct c2c_uncore_row){ C2C_UNCORE_DRAM, 1, 4, 10, 2000000, 1500000,
						   C2C_UNCORE_NONE };
	rm_sec_uncore(ss, u);
	out = print_of(rm_sections_get(ss, RM_SEC_UNCORE), SIZE_MAX);
	assert_string_equal(out, "# AMD uncore over the run (2.000 s):\n"
			    "#   DRAM channel 1 (CPU 4): 2.0 MB, 1.0 MB/s (read 1.5 MB)\n\n");
	free(out);
	rm_sections_free(ss);
	free(u);
}

/* The run header: events and counts for PMU data only; the --phys wording of each table. */
static void test_sections_header(void **state)
{
	static char name[] = "cpu/mem-loads/", host[] = "h", arch[] = "x86_64", rel[] = "6.1";
	struct trace_event_desc ev[1] = { { .name = name } };
	struct trace_info info = { .hostname = host, .arch = arch, .kernel_release = rel,
				   .backend = TRACE_BACKEND_PEBS, .events = ev, .nr_events = 1 };
	struct cltab_counts n = { .samples = 5, .lost_records = 1 };
	struct rm_header_in in = { .path = "p.data", .info = &info, .kind = RM_PMU, .counts = &n,
				   .phys = 1 };
	struct rm_sections *ss = rm_sections_new();
	char *out;

	(void)state;
	rm_sec_header(ss, &in);
	out = print_of(rm_sections_get(ss, RM_SEC_HEADER), SIZE_MAX);
	assert_string_equal(out, "# c2c-lite report of 'p.data'\n"
			    "# host h, arch x86_64, kernel 6.1, backend pebs\n"
			    "# event cpu/mem-loads/\n"
			    "# 5 samples, 1 lost records, 0 lost samples, 0 throttled\n"
			    "# lines by physical address (--phys): the Cacheline column is physical, "
			    "names are those of the first process seen there\n\n");
	free(out);
	in.kind = RM_SOFT;
	in.counts = NULL;
	in.truncated = 1;
	rm_sec_header(ss, &in);
	out = print_of(rm_sections_get(ss, RM_SEC_HEADER), SIZE_MAX);
	assert_null(strstr(out, "event"));
	assert_non_null(strstr(out, "the Line column is physical"));
	assert_non_null(strstr(out, "# TRUNCATED: the file ends early"));
	assert_int_not_equal(out[strlen(out) - 2], '\n');   /* no blank line after it */
	free(out);
	rm_sections_free(ss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_cells_text),
		cmocka_unit_test(test_sections_ranked),
		cmocka_unit_test(test_sections_pairs),
		cmocka_unit_test(test_sections_regions),
		cmocka_unit_test(test_sections_uncore),
		cmocka_unit_test(test_sections_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
