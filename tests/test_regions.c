/* Tests of program regions: the record side's wire decoding and clock offset
 * (record/regions.c) and the report side's per-thread attribution and filter
 * (report/aggregate/regions.c). */
#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record/regions.h"
#include "report/aggregate/regions.h"
#include "report/model/sections-build.h"
#include "report/stdio/sections.h"

static void mark(struct rg_table *t, uint64_t time, uint32_t tid, int kind, const char *name)
{
	struct trace_region m = { .time = time, .pid = 1, .tid = tid, .kind = (uint32_t)kind,
				  .depth = 1, .name = name };

	rg_marker(t, &m);
}

static int sample(struct rg_table *t, uint64_t time, uint32_t tid)
{
	struct trace_sample s = { .time = time, .pid = 1, .tid = tid };

	return rg_sample(t, &s);
}

static const struct rg_region *find(const struct rg_table *t, const char *name)
{
	for (size_t i = 0; i < rg_nr(t); i++)
		if (!strcmp(rg_get(t, i)->name, name))
			return rg_get(t, i);
	fail_msg("no region %s", name);
	return NULL;
}

/* Two threads, nested regions, samples inside and outside. */
static void test_attribution(void **state)
{
	struct rg_table *t = rg_new(NULL);
	const struct rg_region *outer, *inner;

	(void)state;
	assert_true(sample(t, 5, 10));                  /* before any marker: outside */
	mark(t, 10, 10, TRACE_REGION_BEGIN, "outer");
	assert_true(sample(t, 11, 10));
	mark(t, 12, 10, TRACE_REGION_BEGIN, "inner");
	mark(t, 13, 20, TRACE_REGION_BEGIN, "inner");   /* another thread */
	assert_true(sample(t, 14, 10));                 /* inner, in outer */
	assert_true(sample(t, 15, 20));                 /* inner alone */
	assert_true(sample(t, 16, 30));                 /* a thread without markers */
	mark(t, 17, 10, TRACE_REGION_END, "inner");
	assert_true(sample(t, 18, 10));                 /* back in outer */
	mark(t, 20, 10, TRACE_REGION_END, "outer");
	mark(t, 25, 20, TRACE_REGION_END, "inner");
	assert_true(sample(t, 26, 20));                 /* outside */
	outer = find(t, "outer");
	inner = find(t, "inner");
	assert_int_equal(outer->entries, 1);
	assert_int_equal(outer->ns, 10);
	assert_int_equal(outer->self, 2);
	assert_int_equal(outer->incl, 3);
	assert_int_equal(inner->entries, 2);
	assert_int_equal(inner->ns, 5 + 12);
	assert_int_equal(inner->self, 2);
	assert_int_equal(inner->incl, 2);
	assert_int_equal(rg_outside(t), 3);
	assert_int_equal(rg_dropped(t), 0);
	assert_true(rg_has(t, "inner") && !rg_has(t, "none"));
	rg_free(t);
}

/* An end closes the innermost open instance of its region; what was opened inside goes too;
 * an end without a begin and begins past RG_DEPTH are counted, not trusted. */
static void test_unbalanced(void **state)
{
	struct rg_table *t = rg_new(NULL);

	(void)state;
	mark(t, 1, 1, TRACE_REGION_END, "a");           /* recording started inside a */
	mark(t, 2, 1, TRACE_REGION_BEGIN, "a");
	mark(t, 3, 1, TRACE_REGION_BEGIN, "b");         /* never ended */
	mark(t, 4, 1, TRACE_REGION_END, "a");
	sample(t, 5, 1);
	assert_int_equal(rg_outside(t), 1);
	assert_int_equal(find(t, "a")->entries, 1);
	assert_int_equal(find(t, "b")->entries, 0);
	for (int i = 0; i < RG_DEPTH + 2; i++)
		mark(t, 10, 2, TRACE_REGION_BEGIN, "deep");
	mark(t, 11, 2, 7, "deep");                      /* unknown kind */
	mark(t, 11, 2, TRACE_REGION_BEGIN, "");         /* no name */
	assert_int_equal(rg_dropped(t), 1 + 2 + 1 + 1);
	sample(t, 12, 2);
	assert_int_equal(find(t, "deep")->self, 1);
	assert_int_equal(find(t, "deep")->incl, 1);     /* once, however deep */
	rg_free(t);
}

/* --region NAME: only samples with NAME on their thread's stack are kept, inner regions too. */
/* The regions section as the text report prints it. */
static int print_regions(FILE *f, const struct rg_table *t)
{
	struct rm_sections *ss = rm_sections_new();
	int rc;

	rm_sec_regions(ss, t);
	rc = stdio_section_print(f, rm_sections_get(ss, RM_SEC_REGIONS), SIZE_MAX);
	rm_sections_free(ss);
	return rc;
}

static void test_filter(void **state)
{
	struct rg_table *t = rg_new("outer");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_false(sample(t, 1, 1));
	mark(t, 2, 1, TRACE_REGION_BEGIN, "outer");
	mark(t, 3, 1, TRACE_REGION_BEGIN, "inner");
	assert_true(sample(t, 4, 1));
	assert_false(sample(t, 4, 2));                  /* another thread, outside */
	mark(t, 5, 1, TRACE_REGION_END, "inner");
	mark(t, 6, 1, TRACE_REGION_END, "outer");
	assert_false(sample(t, 7, 1));
	assert_int_equal(print_regions(f, t), 0);
	fclose(f);
	assert_non_null(strstr(out, "the report below covers region outer"));
	assert_non_null(strstr(out, "#   inner                             1        0.000            1            1   25.0%"));
	assert_non_null(strstr(out, "(outside any region)"));
	free(out);
	rg_free(t);
	/* no markers: no block */
	t = rg_new(NULL);
	f = open_memstream(&out, &len);
	assert_int_equal(print_regions(f, t), 0);
	fclose(f);
	assert_int_equal(len, 0);
	free(out);
	rg_free(t);
}

/* The library's wire records become trace records, shifted to the perf clock; bad ones are
 * refused. */
static void test_wire(void **state)
{
	struct c2c_region_wire w = { .magic = C2C_REGION_WIRE_MAGIC, .kind = C2C_REGION_WIRE_END,
				     .depth = 2, .pid = 5, .tid = 6, .time = 1000 };
	struct trace_region r;

	(void)state;
	assert_int_equal(sizeof(w), 64);
	strcpy(w.name, "push");
	assert_int_equal(regions_from_wire(&w, 250, &r), 0);
	assert_int_equal(r.time, 1250);
	assert_int_equal(r.kind, TRACE_REGION_END);
	assert_int_equal(r.depth, 2);
	assert_int_equal(r.tid, 6);
	assert_string_equal(r.name, "push");
	assert_int_equal(regions_from_wire(&w, -5000, &r), 0);
	assert_int_equal(r.time, 0);                    /* never before the clock's start */
	memset(w.name, 'x', sizeof(w.name));            /* no terminator */
	assert_int_equal(regions_from_wire(&w, 0, &r), -EINVAL);
	strcpy(w.name, "push");
	w.kind = 3;
	assert_int_equal(regions_from_wire(&w, 0, &r), -EINVAL);
	w.kind = C2C_REGION_WIRE_BEGIN;
	w.magic = 0;
	assert_int_equal(regions_from_wire(&w, 0, &r), -EINVAL);
}

/* The time of a COMM record (pid, tid, comm, then sample_id: pid, tid, time). */
static void test_comm_time(void **state)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		uint32_t spid, stid;
		uint64_t time;
	} rec = { { PERF_RECORD_COMM, 0, sizeof(rec) }, 1, 1, "c2c-lite", 1, 1, 123456789 };
	uint64_t t = 0;

	(void)state;
	assert_int_equal(regions_comm_time(&rec, sizeof(rec), &t), 0);
	assert_int_equal(t, 123456789);
	rec.h.type = PERF_RECORD_MMAP;
	assert_int_equal(regions_comm_time(&rec, sizeof(rec), &t), -EINVAL);
	rec.h.type = PERF_RECORD_COMM;
	assert_int_equal(regions_comm_time(&rec, sizeof(rec) - 8, &t), -EINVAL);   /* size differs */
	assert_int_equal(regions_comm_time(&rec, 16, &t), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_comm_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
