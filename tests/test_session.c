/* The recording session (record/session.c) end to end on a fake Intel machine: this test
 * defines sys_perf_event_open itself (so record/sys.o is not linked), records every attr the
 * session asks for, refuses what a test row says the kernel would refuse, and opens a software
 * stand-in for each hardware event so rings, ids, groups and TopDown reads are real. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/tdreader.h"
#include "record/session.h"
#include "report/model/session.h"
#include "record/sys.h"

struct call {
	struct perf_event_attr attr;
	int pid, cpu, group_fd, ret;
};

static struct call calls[512];
static int ncalls;
static unsigned int max_precise = 3;   /* the fake PMU refuses precise_ip above this */
static int refuse_slots;                /* the fake kernel refuses the TopDown group */

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	struct perf_event_attr a = *attr;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct call *c = &calls[ncalls < 511 ? ncalls++ : 511];
	int fd;

	c->attr = *attr;
	c->pid = pid;
	c->cpu = cpu;
	c->group_fd = group_fd;
	c->ret = -1;
	if (attr->type == 4 && attr->precise_ip > max_precise) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (refuse_slots && attr->type == 4 && attr->config == 0x400) {
		errno = EINVAL;
		return -1;
	}
	if (a.type != PERF_TYPE_SOFTWARE) {
		int sampling = a.sample_period != 0;

		a.type = PERF_TYPE_SOFTWARE;
		a.config = sampling ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
		a.config1 = a.config2 = 0;
		a.precise_ip = 0;
	}
	fd = (int)syscall(__NR_perf_event_open, &a, pid, cpu % ncpu, group_fd, flags);
	c->ret = fd;
	return fd;
}

static void quiet(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

struct run {
	struct record_result res;
	struct td_reader td;         /* TopDown beside IBS: the reader blob, td.nr 0 when none */
	uint64_t readings;           /* samples of the reader's event */
	struct tdt_stats tdt;        /* what the report attributed */
	int tdt_total;               /* tdt_total(all) of the report */
	char uncore[4096];           /* the AMD uncore blob's text, "" when none */
	struct trace_info info;
	uint64_t samples, td_samples, max_td_nr;
	int err;
};

static void record_on(struct run *out, int topdown, const char *machine)
{
	char out_path[] = "/tmp/c2c-test-session-XXXXXX", wl[512];
	const char *build = getenv("BUILD");
	char *argv[] = { wl, (char *)"spin", (char *)"0.3", NULL };
	struct record_opts o = { .topdown = topdown, .argv = argv, .cmdline = "test",
				 .options = "", .rate = { .freq = 1000 } };
	struct trace_reader *r;
	struct trace_event ev;
	int fd = mkstemp(out_path);

	assert_true(fd >= 0);
	close(fd);
	snprintf(wl, sizeof(wl), "%s/tests/tools/rec-workload", build ? build : "build");
	if (access(wl, X_OK))
		skip();
	memset(out, 0, sizeof(*out));
	ncalls = 0;
	o.output = out_path;
	setenv("C2C_SYSFS_ROOT", machine, 1);
	out->err = record_run(&o, &out->res);
	unsetenv("C2C_SYSFS_ROOT");
	if (out->err) {
		unlink(out_path);
		return;
	}
	assert_int_equal(trace_reader_open(&r, out_path), 0);
	trace_info_copy(&out->info, trace_reader_info(r));
	while (trace_reader_next(r, &ev) == 1) {
		if (ev.type == TRACE_REC_BLOB && ev.blob.kind == TRACE_BLOB_TOPDOWN)
			assert_int_equal(td_reader_parse(ev.blob.data, ev.blob.size, &out->td), 0);
		if (ev.type == TRACE_REC_SAMPLE && out->td.nr && ev.sample.event == out->td.event) {
			out->readings++;
			continue;
		}
		if (ev.type == TRACE_REC_BLOB && ev.blob.kind == TRACE_BLOB_UNCORE &&
		    ev.blob.size < sizeof(out->uncore))
			memcpy(out->uncore, ev.blob.data, ev.blob.size);
		if (ev.type != TRACE_REC_SAMPLE)
			continue;
		out->samples++;
		if (ev.sample.flags & TRACE_SAMPLE_TOPDOWN)
			out->td_samples++;
		if (ev.sample.td_nr > out->max_td_nr)
			out->max_td_nr = ev.sample.td_nr;
	}
	trace_reader_free(r);
	if (out->td.nr) {
		struct rs_opts ro = { .input = out_path, .display = -1 };
		struct report_session *rs;
		struct td_result res;

		assert_int_equal(rs_open(&rs, &ro), 0);
		assert_non_null(rs->tdt);
		out->tdt = *tdt_stats(rs->tdt);
		out->tdt_total = tdt_total(rs->tdt, 1, &res);
		rs_free(rs);
	}
	unlink(out_path);
}

static void record_once(struct run *out, int topdown)
{
	record_on(out, topdown, "data/sysfs/icelake-sp");
}

static int probe_software(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .exclude_kernel = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* TopDown group accepted: {slots, mem-loads (READ), topdown-*} plus mem-stores; samples of the
 * load event carry slots and 4 metric values; precise_ip probing settles on the fake's 2. */
static void test_session_topdown_group(void **state)
{
	struct run run;
	int slots_fd = -2;

	(void)state;
	if (!probe_software())
		skip();
	max_precise = 2;
	refuse_slots = 0;
	record_once(&run, 1);
	assert_int_equal(run.err, 0);
	assert_int_equal(run.info.nr_events, 7);
	assert_string_equal(run.info.events[0].name, "cpu/slots/");
	assert_int_equal(run.info.events[1].precise_ip, 2);
	assert_true(run.info.events[1].sample_type & PERF_SAMPLE_READ);
	assert_string_equal(run.res.td_reason, "");
	for (int i = 0; i < ncalls; i++) {
		const struct call *c = &calls[i];

		if (c->attr.config == 0x400 && c->ret >= 0)
			slots_fd = c->ret;
		else if ((c->attr.config & 0xff) == 0 && c->attr.config >= 0x8000 &&
			 c->attr.config <= 0x8700 && c->ret >= 0)
			assert_int_equal(c->group_fd, slots_fd);
		if (c->attr.config == 0x1cd && c->ret >= 0)
			assert_int_equal(c->group_fd, slots_fd);
	}
	assert_true(run.samples > 20);
	assert_true(run.td_samples > 0);
	assert_int_equal(run.max_td_nr, 4);
	trace_info_release(&run.info);
}

/* The kernel refuses slots: recording goes on without TopDown and says why. */
static void test_session_topdown_refused(void **state)
{
	struct run run;

	(void)state;
	if (!probe_software())
		skip();
	max_precise = 3;
	refuse_slots = 1;
	c2c_log_set_hook(quiet, NULL);
	record_once(&run, 1);
	c2c_log_set_hook(NULL, NULL);
	refuse_slots = 0;
	assert_int_equal(run.err, 0);
	assert_non_null(strstr(run.res.td_reason, "refused the TopDown group"));
	assert_int_equal(run.info.nr_events, 2);
	assert_int_equal(run.info.events[0].config, 0x1cd);
	assert_int_equal(run.info.events[0].precise_ip, 3);
	assert_false(run.info.events[0].sample_type & PERF_SAMPLE_READ);
	assert_true(run.samples > 20);
	assert_int_equal(run.td_samples, 0);
	trace_info_release(&run.info);
}

/* AMD with amd_l3 and amd_df (family 17h): the run's L3, DRAM and link counts end the trace as
 * one blob: 2 CCX, 8 channels, 4 links; counted (the fake turns them into CPU-wide task-clock
 * counters) or, where CPU-wide counting is refused, each row "-" with the reason. Intel: none. */
static void test_session_uncore(void **state)
{
	struct run run;

	(void)state;
	if (!probe_software())
		skip();
	c2c_log_set_hook(quiet, NULL);
	record_on(&run, 0, "data/sysfs/zen2");
	c2c_log_set_hook(NULL, NULL);
	assert_int_equal(run.err, 0);
	assert_int_equal(run.res.uncore, 2 + 8 + 4);
	assert_non_null(strstr(run.uncore, "c2c-uncore 1\nseconds "));
	assert_non_null(strstr(run.uncore, "\nl3 1 2 "));
	assert_non_null(strstr(run.uncore, "\ndram 7 0 "));
	assert_non_null(strstr(run.uncore, "\nlink 3 0 "));
	trace_info_release(&run.info);
	record_once(&run, 0);
	assert_int_equal(run.err, 0);
	assert_string_equal(run.uncore, "");
	trace_info_release(&run.info);
}

/* Zen 4 with --topdown: the level-1 group beside the IBS sampler, each counter a software
 * stand-in, opened by this kernel for real: per thread (PERF_SAMPLE_READ with inherit) a kernel
 * before 6.12 refuses it and recording goes on without it; a newer one takes it, its leader
 * samples with the group read, and report splits the readings over the IBS stand-in's samples. */
static void test_session_topdown_beside_ibs(void **state)
{
	struct run run;
	int leaders = 0;

	(void)state;
	if (!probe_software())
		skip();
	max_precise = 3;
	c2c_log_set_hook(quiet, NULL);
	record_on(&run, 1, "data/sysfs/zen4");
	c2c_log_set_hook(NULL, NULL);
	assert_int_equal(run.err, 0);
	for (int i = 0; i < ncalls; i++)
		leaders += calls[i].attr.type == 4 && calls[i].attr.config == 0x76 &&
			   calls[i].attr.sample_period == 1000000 &&
			   (calls[i].attr.sample_type & PERF_SAMPLE_READ) && calls[i].attr.inherit;
	assert_true(leaders > 0);
	if (run.res.td_reason[0]) {
		assert_non_null(strstr(run.res.td_reason, "PERF_SAMPLE_READ with inherit, kernel 6.12+"));
		assert_int_equal(run.td.nr, 0);
		assert_int_equal(run.readings, 0);
		print_message("this kernel refused PERF_SAMPLE_READ with inherit\n");
	} else {
		assert_string_equal(run.td.model.cpu, "Zen 4");
		assert_int_equal(run.td.nr, 4);
		assert_int_equal(run.res.td_readings, run.readings);
		assert_true(run.readings > 10);      /* 0.3 s of spinning, a reading a ms */
		assert_int_equal(run.tdt.readings, run.readings);
		assert_true(run.tdt.intervals_charged > 0);
		assert_true(run.tdt.samples_charged > 0);
		assert_int_equal(run.tdt_total, 0);
		print_message("beside IBS: %llu readings, %llu intervals (%llu with samples), %llu of "
			      "%llu samples charged\n", (unsigned long long)run.readings,
			      (unsigned long long)run.tdt.intervals,
			      (unsigned long long)run.tdt.intervals_charged,
			      (unsigned long long)run.tdt.samples_charged,
			      (unsigned long long)run.samples);
	}
	assert_true(run.samples > 20);              /* the IBS stand-in's samples, readings apart */
	trace_info_release(&run.info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_topdown_beside_ibs),
		cmocka_unit_test(test_session_uncore),
		cmocka_unit_test(test_session_topdown_group),
		cmocka_unit_test(test_session_topdown_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
