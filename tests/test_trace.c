/* Tests of the trace format (lib/trace_*.c): every field of every record and of the header round
 * trips, including extremes; dictionaries overflow cleanly; a trace cut at any byte reads as a
 * prefix; any flipped byte is detected; versions and unknown kinds follow the compatibility rules;
 * write failures (/dev/full, RLIMIT_FSIZE) leave a readable file and are sticky. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "lib/trace_codec.h"   /* trace_info_encode: header chunks the writer would refuse */

/* --- log capture ------------------------------------------------------------------------------- */

struct logcap {
	int errors, warnings;
	char last[1024];
};

static struct logcap logcap;

static void capture(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == C2C_LOG_ERROR)
		logcap.errors++;
	if (level == C2C_LOG_WARN)
		logcap.warnings++;
	if (level <= C2C_LOG_WARN)
		snprintf(logcap.last, sizeof(logcap.last), "%s", msg);
}

static void log_reset(void)
{
	memset(&logcap, 0, sizeof(logcap));
}

/* --- temporary directory ---------------------------------------------------------------------- */

static char tmpdir[256];

static int setup_tmp(void **state)
{
	const char *base = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_trace.XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(tmpdir));
	c2c_log_set_hook(capture, NULL);
	return 0;
}

static int teardown_tmp(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
	c2c_log_set_hook(NULL, NULL);
	return 0;
}

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	uint8_t *buf;

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = xmalloc(st.st_size + 1);
	assert_int_equal(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = st.st_size;
	return buf;
}

/* --- fixtures: a header and records ----------------------------------------------------------- */

static struct trace_event_desc test_events[] = {
	{ .name = (char *)"cpu/mem-loads,ldlat=30/P", .backend = TRACE_BACKEND_PEBS, .type = 4,
	  .config = 0x1cd, .config1 = 30, .config2 = 0, .sample_type = 0x1c1ef, .period = 4000,
	  .freq = 0, .precise_ip = 3, .attr_flags = 0x31800061 },
	{ .name = (char *)"", .backend = TRACE_BACKEND__MAX - 1, .type = UINT32_MAX, .config = UINT64_MAX,
	  .config1 = 1, .config2 = UINT64_MAX - 1, .sample_type = UINT64_MAX, .period = 1,
	  .freq = 1, .precise_ip = UINT32_MAX, .attr_flags = UINT64_MAX },
};

static int32_t test_nodes[] = { 0, 0, 1, 1, TRACE_NODE_NONE, TRACE_NODE_MAX - 1, 2 };

static struct trace_mem_range test_ranges[] = {
	{ 0, 0x80000000, 0 },
	{ 0x100000000ull, UINT64_MAX, TRACE_NODE_MAX - 1 },
};

static struct trace_info full_info(void)
{
	return (struct trace_info){
		.flags = TRACE_INFO_SYNTHETIC | TRACE_INFO_HAS_KSYMS | 0x80000000u,
		.created_ns = 1763776000123456789ull,
		.cmdline = (char *)"c2c-lite record -o x.trace -- ./app 'with space'",
		.hostname = (char *)"host.example",
		.kernel_release = (char *)"6.1.0-13-amd64",
		.arch = (char *)"x86_64",
		.cpu_vendor = (char *)"GenuineIntel",
		.cpu_family = 6, .cpu_model = 143, .cpu_stepping = UINT32_MAX,
		.cpu_desc = (char *)"Intel(R) Xeon(R) Platinum 8480+",
		.pmu_name = (char *)"sapphire_rapids",
		.backend = TRACE_BACKEND_PEBS,
		.options = (char *)"ldlat=30 freq=4000",
		.cacheline_size = 64,
		.nr_cpus = sizeof(test_nodes) / sizeof(test_nodes[0]), .cpu_node = test_nodes,
		.nr_nodes = 2,
		.nr_events = 2, .events = test_events,
		.nr_mem_ranges = 2, .mem_ranges = test_ranges,
	};
}

static void assert_str_eq_or_null(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_info_equal(const struct trace_info *a, const struct trace_info *b)
{
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->created_ns, b->created_ns);
	assert_str_eq_or_null(a->cmdline, b->cmdline);
	assert_str_eq_or_null(a->hostname, b->hostname);
	assert_str_eq_or_null(a->kernel_release, b->kernel_release);
	assert_str_eq_or_null(a->arch, b->arch);
	assert_str_eq_or_null(a->cpu_vendor, b->cpu_vendor);
	assert_int_equal(a->cpu_family, b->cpu_family);
	assert_int_equal(a->cpu_model, b->cpu_model);
	assert_int_equal(a->cpu_stepping, b->cpu_stepping);
	assert_str_eq_or_null(a->cpu_desc, b->cpu_desc);
	assert_str_eq_or_null(a->pmu_name, b->pmu_name);
	assert_int_equal(a->backend, b->backend);
	assert_str_eq_or_null(a->options, b->options);
	assert_int_equal(a->cacheline_size, b->cacheline_size);
	assert_int_equal(a->nr_nodes, b->nr_nodes);
	assert_int_equal(a->nr_cpus, b->nr_cpus);
	for (uint32_t i = 0; i < a->nr_cpus; i++)
		assert_int_equal(a->cpu_node[i], b->cpu_node[i]);
	assert_int_equal(a->nr_events, b->nr_events);
	for (uint32_t i = 0; i < a->nr_events; i++) {
		const struct trace_event_desc *x = &a->events[i], *y = &b->events[i];

		assert_str_eq_or_null(x->name, y->name);
		assert_int_equal(x->backend, y->backend);
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->config, y->config);
		assert_int_equal(x->config1, y->config1);
		assert_int_equal(x->config2, y->config2);
		assert_int_equal(x->sample_type, y->sample_type);
		assert_int_equal(x->period, y->period);
		assert_int_equal(x->freq, y->freq);
		assert_int_equal(x->precise_ip, y->precise_ip);
		assert_int_equal(x->attr_flags, y->attr_flags);
	}
	assert_int_equal(a->nr_mem_ranges, b->nr_mem_ranges);
	for (uint32_t i = 0; i < a->nr_mem_ranges; i++) {
		assert_int_equal(a->mem_ranges[i].start, b->mem_ranges[i].start);
		assert_int_equal(a->mem_ranges[i].end, b->mem_ranges[i].end);
		assert_int_equal(a->mem_ranges[i].node, b->mem_ranges[i].node);
	}
}

/* Field-by-field equality; returns 0 when equal (usable outside assertions). */
static int sample_cmp(const struct trace_sample *a, const struct trace_sample *b)
{
	if (a->time != b->time || a->ip != b->ip || a->addr != b->addr ||
	    a->phys_addr != b->phys_addr || a->weight != b->weight || a->data_src != b->data_src ||
	    a->pid != b->pid || a->tid != b->tid || a->cpu != b->cpu || a->event != b->event ||
	    a->cpumode != b->cpumode || a->flags != b->flags || a->detail != b->detail ||
	    a->td_nr != b->td_nr || a->td_slots != b->td_slots)
		return 1;
	for (unsigned i = 0; i < a->td_nr && i < TRACE_TD_MAX; i++)
		if (a->td[i] != b->td[i])
			return 1;
	if (a->chain_nr != b->chain_nr ||
	    (a->chain_nr && memcmp(a->chain, b->chain, a->chain_nr * sizeof(*a->chain))))
		return 1;
	/* an access at the ip itself with nothing else to say is not stored: it reads as 0 */
	if (a->access_ip != (b->access_ip == b->ip && !b->access_flags && !b->nr_alt ? 0 :
			     b->access_ip) || a->access_flags != b->access_flags || a->nr_alt != b->nr_alt)
		return 1;
	for (unsigned i = 0; i < a->nr_alt && i < TRACE_ALT_MAX; i++)
		if (a->alt[i].ip != b->alt[i].ip || a->alt[i].addr != b->alt[i].addr ||
		    a->alt_detail[i] != b->alt_detail[i])
			return 1;
	return a->task != b->task;
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int mmap_cmp(const struct trace_mmap *a, const struct trace_mmap *b)
{
	return a->time != b->time || a->pid != b->pid || a->tid != b->tid ||
	       a->start != b->start || a->len != b->len || a->pgoff != b->pgoff ||
	       a->prot != b->prot || a->flags != b->flags || a->maj != b->maj || a->min != b->min ||
	       a->ino != b->ino || a->ino_generation != b->ino_generation ||
	       a->cpumode != b->cpumode || a->build_id_size != b->build_id_size ||
	       memcmp(a->build_id, b->build_id, a->build_id_size) || str_cmp(a->filename, b->filename);
}

static int event_cmp(const struct trace_event *a, const struct trace_event *b)
{
	if (a->type != b->type)
		return 1;
	switch (a->type) {
	case TRACE_REC_SAMPLE:
		return sample_cmp(&a->sample, &b->sample);
	case TRACE_REC_MMAP:
		return mmap_cmp(&a->mmap, &b->mmap);
	case TRACE_REC_COMM:
		return a->comm.time != b->comm.time || a->comm.pid != b->comm.pid ||
		       a->comm.tid != b->comm.tid || a->comm.exec != b->comm.exec ||
		       str_cmp(a->comm.comm, b->comm.comm);
	case TRACE_REC_FORK:
	case TRACE_REC_EXIT:
		return a->task.time != b->task.time || a->task.pid != b->task.pid ||
		       a->task.ppid != b->task.ppid || a->task.tid != b->task.tid ||
		       a->task.ptid != b->task.ptid || a->task.flags != b->task.flags;
	case TRACE_REC_LOST:
		return a->lost.time != b->lost.time || a->lost.kind != b->lost.kind ||
		       a->lost.cpu != b->lost.cpu || a->lost.event != b->lost.event ||
		       a->lost.count != b->lost.count;
	case TRACE_REC_AUX:
		return a->aux.time != b->aux.time || a->aux.cpu != b->aux.cpu ||
		       a->aux.pid != b->aux.pid || a->aux.tid != b->aux.tid ||
		       a->aux.offset != b->aux.offset || a->aux.size != b->aux.size ||
		       a->aux.flags != b->aux.flags;
	case TRACE_REC_ITRACE_START:
		return a->itrace.time != b->itrace.time || a->itrace.cpu != b->itrace.cpu ||
		       a->itrace.pid != b->itrace.pid || a->itrace.tid != b->itrace.tid;
	case TRACE_REC_SWITCH:
		return a->sw.time != b->sw.time || a->sw.cpu != b->sw.cpu || a->sw.pid != b->sw.pid ||
		       a->sw.tid != b->sw.tid || a->sw.flags != b->sw.flags ||
		       a->sw.next_prev_pid != b->sw.next_prev_pid ||
		       a->sw.next_prev_tid != b->sw.next_prev_tid;
	case TRACE_REC_BLOB:
		return a->blob.time != b->blob.time || a->blob.kind != b->blob.kind ||
		       a->blob.cpu != b->blob.cpu || a->blob.offset != b->blob.offset ||
		       a->blob.size != b->blob.size ||
		       (a->blob.size && memcmp(a->blob.data, b->blob.data, a->blob.size));
	case TRACE_REC_REGION:
		return a->region.time != b->region.time || a->region.pid != b->region.pid ||
		       a->region.tid != b->region.tid || a->region.kind != b->region.kind ||
		       a->region.depth != b->region.depth || str_cmp(a->region.name, b->region.name);
	}
	return 1;
}

#define KADDR 0xffffffff81000000ull
#define ALL_SFLAGS (TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_PHYS | \
		    TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC | TRACE_SAMPLE_EXACT_IP)

static const char kallsyms_text[] = "ffffffff81000000 T _stext\nffffffff81001000 t x\n";
static const uint8_t spe_bytes[] = { 0x00, 0xff, 0xb0, 0x42, 0x00 };

struct ev_row {
	int line;
	struct trace_event ev;
};

/* Every record type, every field at extremes, and repeats that hit each dictionary path. */
static const uint64_t chain_a[] = { TRACE_CHAIN_CONTEXT_USER, 0x401234, 0x401100, 0x400800 };
static const uint64_t chain_k[] = { TRACE_CHAIN_CONTEXT_KERNEL, KADDR + 0x99, KADDR + 0x5000,
				    TRACE_CHAIN_CONTEXT_USER, 0x401000, 0, UINT64_MAX };

static const struct ev_row ev_rows[] = {
	/* callchains: a literal, the same chain again (a table reference), another literal */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 10, .ip = 0x401234, .pid = 5, .tid = 5, .chain_nr = 4, .chain = chain_a } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 11, .ip = 0x401234, .pid = 5, .tid = 6, .chain_nr = 4, .chain = chain_a } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 12, .ip = KADDR + 0x99, .pid = 5, .tid = 6, .cpumode = 1, .chain_nr = 7,
		.chain = chain_k } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 13, .ip = 0x401234, .pid = 5, .tid = 5, .chain_nr = 2, .chain = chain_a } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = { 0 } } },
	/* access instructions (1.6): before the ip, after it with a callchain, at the ip
	 * (nothing stored), inferred with candidates at the extremes */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 14, .ip = 0x401238, .addr = 0x7f001000, .pid = 5, .tid = 5, .detail = 0x1060,
		.access_ip = 0x401234 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 15, .ip = 0x401200, .pid = 5, .tid = 5, .chain_nr = 4, .chain = chain_a,
		.access_ip = 0x401240, .access_flags = 2 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 16, .ip = 0x401200, .pid = 5, .tid = 5, .access_ip = 0x401200 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 17, .ip = 0x401220, .addr = 0x7f001000, .pid = 5, .tid = 6,
		.access_ip = 0x401214, .access_flags = 1, .nr_alt = 3,
		.alt_detail = { 0xf060, 0, UINT16_MAX },
		.alt = { { 0x401228, 0x7f001008 }, { 0, 0 }, { UINT64_MAX, UINT64_MAX } } } } },
	/* tasks (1.7): goroutines, with an access and a callchain, none, a lower and the
	 * highest address */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 18, .ip = 0x401220, .addr = 0xc000010008, .pid = 5, .tid = 6,
		.access_ip = 0x401214, .chain_nr = 4, .chain = chain_a, .task = 0xc000102000 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 19, .ip = 0x401220, .pid = 5, .tid = 5 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 20, .ip = 0x401220, .pid = 5, .tid = 5, .task = 0xc000007340 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 21, .ip = 0x401220, .pid = 5, .tid = 6, .task = UINT64_MAX } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = UINT64_MAX, .ip = UINT64_MAX, .addr = UINT64_MAX, .phys_addr = UINT64_MAX,
		.weight = UINT64_MAX, .data_src = UINT64_MAX, .pid = UINT32_MAX, .tid = UINT32_MAX,
		.cpu = UINT32_MAX, .event = UINT16_MAX, .cpumode = UINT8_MAX, .flags = UINT8_MAX,
		.detail = UINT16_MAX, .td_nr = TRACE_TD_MAX, .td_slots = UINT64_MAX,
		.td = { UINT64_MAX, 0, 1, UINT64_MAX - 1, 1ull << 63, 127, 128, 16383 } } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 1000, .ip = KADDR + 0x1234, .addr = 0xffff888100001040ull,
		.phys_addr = 0x100001040ull, .weight = 312, .data_src = 0x68100142ull, .pid = 7,
		.tid = 8, .cpu = 1, .cpumode = 1, .flags = ALL_SFLAGS } } },
	/* same ip and address: the "address as last time" path, phys predicted */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 1500, .ip = KADDR + 0x1234, .addr = 0xffff888100001040ull,
		.phys_addr = 0x100001040ull, .weight = 30, .data_src = 0x68100142ull, .pid = 7,
		.tid = 8, .cpu = 1, .cpumode = 1, .flags = ALL_SFLAGS } } },
	/* a known line through another ip: the line dictionary path */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 900, .ip = KADDR + 0x99, .addr = 0xffff888100001078ull,
		.phys_addr = 0x100001078ull, .weight = 1, .data_src = 0x68100142ull, .pid = 7,
		.tid = 8, .cpu = 1, .cpumode = 1, .flags = ALL_SFLAGS } } },
	/* same line, a different physical page: phys not predictable */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 901, .ip = KADDR + 0x99, .addr = 0xffff888100001079ull,
		.phys_addr = 0x7000, .data_src = 0x68100142ull, .pid = 9, .tid = 9, .cpu = 0,
		.cpumode = 2, .flags = ALL_SFLAGS & ~TRACE_SAMPLE_HAS_WEIGHT } } },
	/* values without their HAS flag survive too */
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 0, .ip = 1, .addr = 2, .phys_addr = 3, .weight = 4, .cpu = TRACE_CPU_NONE } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 5, .ip = 0x401000, .cpu = 3, .flags = TRACE_SAMPLE_TOPDOWN | TRACE_SAMPLE_HAS_CPU,
		.td_nr = 4, .td_slots = 123456789, .td = { 1, 2, 3, 4 }, .detail = 7 } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 6, .ip = 0x401000, .flags = TRACE_SAMPLE_TOPDOWN, .td_nr = 0, .td_slots = 9 } } },
	{ __LINE__, { .type = TRACE_REC_MMAP, .mmap = { 0 } } },
	{ __LINE__, { .type = TRACE_REC_MMAP, .mmap = {
		.time = 77, .pid = UINT32_MAX, .tid = UINT32_MAX, .start = KADDR, .len = UINT64_MAX,
		.pgoff = UINT64_MAX, .prot = 5, .flags = 2, .maj = UINT32_MAX, .min = 0,
		.ino = UINT64_MAX, .ino_generation = 1, .cpumode = UINT8_MAX, .build_id_size = 20,
		.build_id = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 0xff },
		.filename = "[kernel.kallsyms]_text" } } },
	{ __LINE__, { .type = TRACE_REC_MMAP, .mmap = {
		.time = 78, .pid = 42, .tid = 42, .start = 0x400000, .len = 0x1000, .build_id_size = 1,
		.build_id = { 0xab }, .filename = "/usr/bin/app with spaces" } } },
	{ __LINE__, { .type = TRACE_REC_COMM, .comm = { .time = 1, .pid = 1, .tid = 2, .exec = 1,
						       .comm = "app" } } },
	{ __LINE__, { .type = TRACE_REC_COMM, .comm = { .time = UINT64_MAX, .pid = UINT32_MAX,
						       .tid = 0, .exec = 0, .comm = "" } } },
	{ __LINE__, { .type = TRACE_REC_COMM, .comm = { .time = 3, .pid = 5, .tid = UINT32_MAX,
						       .exec = UINT8_MAX, .comm = NULL } } },
	{ __LINE__, { .type = TRACE_REC_FORK, .task = { 10, 100, 1, 101, 1 } } },
	{ __LINE__, { .type = TRACE_REC_FORK, .task = { 10, 100, 1, 100, 1,
						       TRACE_TASK_SYNTHESIZED } } },
	{ __LINE__, { .type = TRACE_REC_FORK, .task = { 9, 7, 7, 8, 7, UINT32_MAX } } },
	{ __LINE__, { .type = TRACE_REC_FORK, .task = { UINT64_MAX, UINT32_MAX, UINT32_MAX,
						       UINT32_MAX, UINT32_MAX } } },
	{ __LINE__, { .type = TRACE_REC_EXIT, .task = { 0, 0, 0, 0, 0 } } },
	{ __LINE__, { .type = TRACE_REC_EXIT, .task = { 11, 100, 1, 101, 1 } } },
	{ __LINE__, { .type = TRACE_REC_LOST, .lost = { 12, TRACE_LOST_RECORDS, 3, 0, 1000 } } },
	{ __LINE__, { .type = TRACE_REC_LOST, .lost = { 13, TRACE_LOST_SAMPLES, TRACE_CPU_NONE,
						       UINT16_MAX, UINT64_MAX } } },
	{ __LINE__, { .type = TRACE_REC_LOST, .lost = { 14, TRACE_LOST_THROTTLE, 0, 1, 1 } } },
	{ __LINE__, { .type = TRACE_REC_LOST, .lost = { 15, TRACE_LOST_UNTHROTTLE, 0, 1, 1 } } },
	{ __LINE__, { .type = TRACE_REC_BLOB, .blob = { 16, TRACE_BLOB_KALLSYMS, 0, 0,
						       sizeof(kallsyms_text) - 1, kallsyms_text } } },
	{ __LINE__, { .type = TRACE_REC_BLOB, .blob = { 17, TRACE_BLOB_SPE_AUX, 5, UINT64_MAX,
						       sizeof(spe_bytes), spe_bytes } } },
	{ __LINE__, { .type = TRACE_REC_BLOB, .blob = { 18, TRACE_BLOB_SPE_AUX, 0, 0, 0, NULL } } },
	{ __LINE__, { .type = TRACE_REC_REGION, .region = { 19, 7, 8, TRACE_REGION_BEGIN, 1,
							   "queue-push" } } },
	{ __LINE__, { .type = TRACE_REC_REGION, .region = { UINT64_MAX, UINT32_MAX, UINT32_MAX,
							   TRACE_REGION_END, UINT32_MAX, "" } } },
	{ __LINE__, { .type = TRACE_REC_AUX, .aux = { 19, 2, 100, 101, 4096, 512,
						     TRACE_AUX_TRUNCATED | TRACE_AUX_PARTIAL } } },
	{ __LINE__, { .type = TRACE_REC_AUX, .aux = { UINT64_MAX, TRACE_CPU_NONE, UINT32_MAX,
						     UINT32_MAX, UINT64_MAX, UINT64_MAX,
						     UINT64_MAX } } },
	{ __LINE__, { .type = TRACE_REC_AUX, .aux = { 0, 0, 0, 0, 0, 0, 0 } } },
	{ __LINE__, { .type = TRACE_REC_ITRACE_START, .itrace = { 20, 3, 100, 102 } } },
	{ __LINE__, { .type = TRACE_REC_ITRACE_START, .itrace = { 0, UINT32_MAX, UINT32_MAX,
								 UINT32_MAX } } },
	{ __LINE__, { .type = TRACE_REC_SWITCH, .sw = { 21, 1, 100, 101, TRACE_SWITCH_OUT |
						       TRACE_SWITCH_PREEMPT, UINT32_MAX,
						       UINT32_MAX } } },
	{ __LINE__, { .type = TRACE_REC_SWITCH, .sw = { 22, 1, 0, 0, TRACE_SWITCH_CPU_WIDE, 100,
						       101 } } },
	{ __LINE__, { .type = TRACE_REC_SWITCH, .sw = { UINT64_MAX, UINT32_MAX, UINT32_MAX,
						       UINT32_MAX, UINT32_MAX, UINT32_MAX,
						       UINT32_MAX } } },
	{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = {
		.time = 2000, .ip = KADDR + 0x1234, .addr = 0xffff888100001040ull,
		.phys_addr = 0x100001040ull, .weight = 30, .data_src = 0x68100142ull, .pid = 7,
		.tid = 8, .cpu = 1, .cpumode = 1, .flags = ALL_SFLAGS } } },
};

#define NR_ROWS (sizeof(ev_rows) / sizeof(ev_rows[0]))

/* Write @n events to @path; every @flush_every records (0: never) force a chunk boundary. */
static void write_events(const char *path, const struct trace_info *info,
			 const struct trace_writer_opts *opts, const struct trace_event *ev, size_t n)
{
	struct trace_writer *w;

	unlink(path);  /* a fresh file: ext4 flushes files truncated and rewritten */
	assert_int_equal(trace_writer_open(&w, path, info, opts), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(trace_write(w, &ev[i]), 0);
	assert_int_equal(trace_writer_records(w), n);
	assert_int_equal(trace_writer_close(w), 0);
}

/* Read every record of @r and compare with @want; returns the count read, 0-terminated. */
static size_t read_compare(struct trace_reader *r, const struct trace_event *want, size_t n,
			   const int *lines)
{
	struct trace_event ev;
	size_t i = 0;
	int rc;

	while ((rc = trace_reader_next(r, &ev)) == 1) {
		assert_true(i < n);
		if (event_cmp(&ev, &want[i]))
			fail_msg("record %zu differs (table line %d)", i, lines ? lines[i] : 0);
		i++;
	}
	assert_int_equal(rc, 0);
	return i;
}

/* --- tests ----------------------------------------------------------------------------------- */

static void test_trace_info_roundtrip(void **state)
{
	struct trace_info in = full_info(), empty = { 0 };
	const struct trace_info *rows[] = { &in, &empty };
	char *path = tmp_path("info.trace");

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct trace_reader *r;
		struct trace_info copy;

		write_events(path, rows[k], NULL, NULL, 0);
		assert_int_equal(trace_reader_open(&r, path), 0);
		assert_info_equal(trace_reader_info(r), rows[k]);
		assert_int_equal(trace_reader_info(r)->version_major, TRACE_VERSION_MAJOR);
		assert_int_equal(trace_reader_info(r)->version_minor, TRACE_VERSION_MINOR);
		trace_info_copy(&copy, trace_reader_info(r));
		trace_reader_free(r);
		assert_info_equal(&copy, rows[k]);
		trace_info_release(&copy);
		trace_info_release(&copy);  /* released twice: a no-op */
	}
	free(path);
}

/* A CPU count without a node map (perf.data without NUMA topology) keeps the count. */
/* Topology beyond the kernel's NR_CPUS and MAX_NUMNODES is corrupt: the reader refuses it (so
 * that no count sizes an allocation: a node number of 2^32 once asked for 50 GB) and the writer
 * never writes it. */
static void test_trace_info_bounds(void **state)
{
	int32_t nodes[2] = { 0, 1 };
	struct trace_mem_range range = { 0, 4096, 0 };
	const struct {
		int line;
		uint32_t nr_cpus, nr_nodes;
		int32_t node;
		uint32_t range_node;
		int ok;
	} rows[] = {
		{ __LINE__, 2, TRACE_NODE_MAX, TRACE_NODE_MAX - 1, TRACE_NODE_MAX - 1, 1 },
		{ __LINE__, 2, TRACE_NODE_MAX + 1, 0, 0, 0 },
		{ __LINE__, 2, 2, TRACE_NODE_MAX, 0, 0 },
		{ __LINE__, 2, 2, -2, 0, 0 },
		{ __LINE__, 2, 2, 0, TRACE_NODE_MAX, 0 },
		{ __LINE__, 2, 2, 0, UINT32_MAX, 0 },
	};
	char path[] = "/tmp/c2c-test-bounds-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct trace_info in = full_info(), out;
		struct trace_writer *w = NULL;
		struct tbuf b = { 0 };
		int rc;

		nodes[1] = rows[i].node;
		range.node = rows[i].range_node;
		in.nr_cpus = rows[i].nr_cpus;
		in.cpu_node = nodes;
		in.nr_nodes = rows[i].nr_nodes;
		in.nr_mem_ranges = 1;
		in.mem_ranges = &range;
		trace_info_encode(&b, &in);
		rc = trace_info_decode(&out, b.p, b.len);
		if ((rc == 0) != rows[i].ok)
			fail_msg("row at line %d: decode %d", rows[i].line, rc);
		if (!rc)
			trace_info_release(&out);
		free(b.p);
		log_reset();
		rc = trace_writer_fdopen(&w, fd, "bounds", &in, NULL);
		if ((rc == 0) != rows[i].ok)
			fail_msg("row at line %d: writer %d", rows[i].line, rc);
		trace_writer_close(w);
	}
	close(fd);
	unlink(path);
}

static void test_trace_info_cpus_without_nodes(void **state)
{
	struct trace_info in = { .nr_cpus = 3 };
	char *path = tmp_path("nonodes.trace");
	const struct trace_info *got;
	struct trace_reader *r;

	(void)state;
	write_events(path, &in, NULL, NULL, 0);
	assert_int_equal(trace_reader_open(&r, path), 0);
	got = trace_reader_info(r);
	assert_int_equal(got->nr_cpus, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(got->cpu_node[i], TRACE_NODE_NONE);
	trace_reader_free(r);
	free(path);
}

static const struct trace_writer_opts opt_rows[] = {
	{ 0 },
	{ .chunk_bytes = 1 },          /* one record per chunk */
	{ .chunk_bytes = 64 },
	{ .zstd_level = 3 },
	{ .zstd_level = 19, .chunk_bytes = 100, .fsync = 1 },
};

static void test_trace_records_roundtrip(void **state)
{
	struct trace_event ev[NR_ROWS];
	int lines[NR_ROWS];
	char *path = tmp_path("records.trace");
	struct trace_info info = full_info();

	(void)state;
	for (size_t i = 0; i < NR_ROWS; i++) {
		ev[i] = ev_rows[i].ev;
		lines[i] = ev_rows[i].line;
	}
	for (size_t k = 0; k < sizeof(opt_rows) / sizeof(opt_rows[0]); k++) {
		struct trace_reader *r;
		uint8_t *buf;
		size_t len;

		write_events(path, &info, &opt_rows[k], ev, NR_ROWS);
		assert_int_equal(trace_reader_open(&r, path), 0);
		assert_int_equal(read_compare(r, ev, NR_ROWS, lines), NR_ROWS);
		assert_false(trace_reader_truncated(r));
		trace_reader_free(r);
		buf = slurp(path, &len);
		assert_true(trace_is_trace(buf, len));
		assert_int_equal(trace_reader_open_mem(&r, buf, len, "mem"), 0);
		assert_int_equal(read_compare(r, ev, NR_ROWS, lines), NR_ROWS);
		assert_int_equal(trace_reader_next(r, &ev[0]), 0);  /* stays at the end */
		trace_reader_free(r);
		free(buf);
	}
	free(path);
}

/* xorshift64*: a fixed-seed generator, so failures reproduce. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* A c2c-like sample stream mixed with extremes; @wide spreads values to overflow every
 * dictionary (shapes, code addresses, lines). */
static uint64_t *gen_chains;   /* 16 addresses per sample, for gen_samples() */

static void gen_samples(struct trace_event *ev, size_t n, uint64_t seed, int wide)
{
	uint64_t s = seed, t = 1000000;

	for (size_t i = 0; i < n; i++) {
		struct trace_sample *x = &ev[i].sample;
		uint64_t r = rnd(&s);

		ev[i].type = TRACE_REC_SAMPLE;
		memset(x, 0, sizeof(*x));
		t += r % 5000;
		x->time = (r & 0xff) == 0 ? t - 3000 : t;  /* sometimes out of order */
		x->ip = 0x401000 + (wide ? rnd(&s) % 40000 : r % 300) * 4;
		x->tid = 100 + (r >> 20) % (wide ? 3000 : 4);
		x->pid = 100;
		x->cpu = (r >> 24) % 4;
		x->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_WEIGHT |
			   TRACE_SAMPLE_HAS_DSRC;
		x->addr = 0x7f0000001000ull + ((r >> 28) % (wide ? 50000 : 300)) * 64 + (r >> 40) % 64;
		x->weight = 20 + (r >> 48) % 200;
		x->data_src = 0x68100142ull + ((r >> 56) % 5) * 0x1000;
		if (r & 0x100) {
			x->flags |= TRACE_SAMPLE_HAS_PHYS;
			x->phys_addr = 0x2000000000ull + (x->addr & 0xfffffff);
		}
		if (gen_chains && (r & 0x600)) {   /* 3 in 4 have a callchain: few distinct, or unique */
			uint64_t *c = gen_chains + 16 * i, pick = wide ? rnd(&s) : (r >> 12) % 40;

			x->chain_nr = 1 + (uint32_t)(pick % 16);
			c[0] = TRACE_CHAIN_CONTEXT_USER;
			for (uint32_t k = 1; k < x->chain_nr; k++)
				c[k] = 0x401000 + (pick * 31 + k * 977) % 65536;
			x->chain = c;
		}
		if ((r & 0xfff) == 7) {  /* a rare extreme */
			x->ip = UINT64_MAX - (r >> 32);
			x->addr = KADDR + (r >> 40);
			x->time = 0;
		}
	}
}

static void test_trace_random_roundtrip(void **state)
{
	const size_t n = 60000;
	struct trace_event *ev = xmalloc(n * sizeof(*ev));
	char *path = tmp_path("random.trace");
	static const struct { int line, wide; struct trace_writer_opts o; } rows[] = {
		{ __LINE__, 0, { 0 } },
		{ __LINE__, 0, { .zstd_level = 1 } },
		{ __LINE__, 0, { .chunk_bytes = 4096 } },
		{ __LINE__, 1, { .chunk_bytes = 8 << 20 } },   /* every dictionary overflows */
		{ __LINE__, 1, { .chunk_bytes = 8 << 20, .zstd_level = 3 } },
	};

	(void)state;
	gen_chains = xmalloc(n * 16 * sizeof(*gen_chains));
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct trace_reader *r;

		gen_samples(ev, n, 0x5eed + k, rows[k].wide);
		write_events(path, &(struct trace_info){ 0 }, &rows[k].o, ev, n);
		assert_int_equal(trace_reader_open(&r, path), 0);
		if (read_compare(r, ev, n, NULL) != n)
			fail_msg("row at line %d: short read", rows[k].line);
		trace_reader_free(r);
	}
	free(ev);
	free(gen_chains);
	gen_chains = NULL;
	free(path);
}

static void test_trace_many_mmaps(void **state)
{
	const size_t n = 10000;
	struct trace_event *ev = xcalloc(n, sizeof(*ev));
	char **names = xcalloc(n, sizeof(*names));
	char *path = tmp_path("mmaps.trace");
	struct trace_reader *r;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		names[i] = xasprintf("/usr/lib/x86_64-linux-gnu/lib%zu.so.%zu", i, i % 7);
		ev[i].type = TRACE_REC_MMAP;
		ev[i].mmap = (struct trace_mmap){
			.time = i * 1000, .pid = 1000 + i % 50, .tid = 1000 + i % 50,
			.start = 0x7f0000000000ull + i * 0x200000, .len = 0x1000 * (i % 9 + 1),
			.pgoff = i * 4096, .prot = 5, .flags = 2, .maj = 259, .min = i % 3,
			.ino = 1000000 + i, .ino_generation = i, .cpumode = 2,
			.build_id_size = i % 21, .filename = names[i] };
		for (unsigned b = 0; b < ev[i].mmap.build_id_size; b++)
			ev[i].mmap.build_id[b] = (uint8_t)(i * 31 + b);
	}
	write_events(path, &(struct trace_info){ .arch = (char *)"x86_64" }, NULL, ev, n);
	assert_int_equal(trace_reader_open(&r, path), 0);
	assert_int_equal(read_compare(r, ev, n, NULL), n);
	trace_reader_free(r);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(ev);
	free(path);
}

/* A small trace with known chunk boundaries: a chunk every 3 records. */
struct small_trace {
	uint8_t *buf;
	size_t len;
	size_t nr_chunks;
	uint64_t chunk_end[16];     /* file offset just past each records chunk */
	size_t chunk_recs[16];      /* records up to and including that chunk */
	uint64_t info_end;
	struct trace_event ev[NR_ROWS];
};

static void make_small_trace(struct small_trace *st, int zstd)
{
	struct trace_writer_opts o = { .zstd_level = zstd, .chunk_bytes = 1 << 20 };
	char *path = tmp_path("small.trace");
	struct trace_info info = full_info();
	struct trace_writer *w;
	size_t n = 13;

	memset(st, 0, sizeof(*st));
	assert_int_equal(trace_writer_open(&w, path, &info, &o), 0);
	st->info_end = trace_writer_bytes(w);
	for (size_t i = 0; i < n; i++) {
		st->ev[i] = ev_rows[i + 1].ev;
		assert_int_equal(trace_write(w, &st->ev[i]), 0);
		if (i % 3 == 2 || i == n - 1) {
			assert_int_equal(trace_writer_flush(w), 0);
			st->chunk_end[st->nr_chunks] = trace_writer_bytes(w);
			st->chunk_recs[st->nr_chunks++] = i + 1;
		}
	}
	assert_int_equal(trace_writer_close(w), 0);
	st->buf = slurp(path, &st->len);
	assert_true(st->len > st->chunk_end[st->nr_chunks - 1]);  /* the end chunk */
	free(path);
}

static size_t complete_records(const struct small_trace *st, size_t len)
{
	size_t recs = 0;

	for (size_t c = 0; c < st->nr_chunks; c++)
		if (st->chunk_end[c] <= len)
			recs = st->chunk_recs[c];
	return recs;
}

/* The same cut read from a file, where the reader streams instead of seeing all bytes. */
static void check_cut_file(const struct small_trace *st, const uint8_t *cut, size_t len)
{
	char *path = tmp_path("cut.trace");
	struct trace_reader *r;
	FILE *f;

	unlink(path);  /* a fresh file: ext4 flushes files truncated and rewritten */
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(cut, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	log_reset();
	assert_int_equal(trace_reader_open(&r, path), 0);
	assert_int_equal(read_compare(r, st->ev, NR_ROWS, NULL), complete_records(st, len));
	assert_int_equal(trace_reader_truncated(r), len < st->len);
	assert_int_equal(logcap.errors, 0);
	assert_int_equal(logcap.warnings, len < st->len);
	trace_reader_free(r);
	free(path);
}

static void test_trace_truncated_everywhere(void **state)
{
	(void)state;
	for (int zstd = 0; zstd <= 3; zstd += 3) {
		struct small_trace st;

		make_small_trace(&st, zstd);
		for (size_t len = 0; len <= st.len; len++) {
			uint8_t *cut = xmalloc(len + 1);  /* exact size: ASan sees any overread */
			struct trace_reader *r;
			int rc;

			memcpy(cut, st.buf, len);
			log_reset();
			rc = trace_reader_open_mem(&r, cut, len, "cut");
			if (len < st.info_end) {
				assert_int_equal(rc, -EBADMSG);
				assert_int_equal(logcap.errors, 1);
				assert_non_null(strstr(logcap.last, "'cut'"));
				free(cut);
				continue;
			}
			assert_int_equal(rc, 0);
			assert_int_equal(read_compare(r, st.ev, NR_ROWS, NULL), complete_records(&st, len));
			assert_int_equal(trace_reader_truncated(r), len < st.len);
			assert_int_equal(logcap.errors, 0);
			assert_int_equal(logcap.warnings, len < st.len);
			trace_reader_free(r);
			check_cut_file(&st, cut, len);
			free(cut);
		}
		free(st.buf);
	}
}

static int is_offset_message(const char *msg)
{
	return strstr(msg, "offset") != NULL;
}

static void check_flipped(const struct small_trace *st, const uint8_t *buf, size_t pos)
{
	struct trace_reader *r;
	struct trace_event ev;
	size_t i = 0;
	int rc;

	log_reset();
	rc = trace_reader_open_mem(&r, buf, st->len, "flip");
	if (rc) {
		assert_true(rc == -EBADMSG || rc == -ENOTSUP);
		assert_int_equal(logcap.errors, 1);
		if (pos < 16)
			assert_true(strstr(logcap.last, "magic") || strstr(logcap.last, "version") ||
				    strstr(logcap.last, "features"));
		else
			assert_true(is_offset_message(logcap.last));
		return;
	}
	while ((rc = trace_reader_next(r, &ev)) == 1) {
		if (event_cmp(&ev, &st->ev[i]))
			fail_msg("byte %zu flipped: record %zu silently differs", pos, i);
		i++;
	}
	if (rc == 0) {
		/* only the minor version and optional header flags may change unnoticed */
		assert_true(pos == 10 || pos == 11 || pos == 14 || pos == 15);
		assert_int_equal(i, st->chunk_recs[st->nr_chunks - 1]);
	} else {
		assert_int_equal(rc, -EBADMSG);
		assert_int_equal(logcap.errors, 1);
		assert_true(is_offset_message(logcap.last));
		assert_non_null(strstr(logcap.last, "'flip'"));
		assert_int_equal(trace_reader_next(r, &ev), rc);  /* sticky */
	}
	trace_reader_free(r);
}

static void test_trace_flipped_everywhere(void **state)
{
	static const uint8_t masks[] = { 0x01, 0x80, 0xff };

	(void)state;
	for (int zstd = 0; zstd <= 3; zstd += 3) {
		struct small_trace st;
		uint8_t *buf;

		make_small_trace(&st, zstd);
		buf = xmalloc(st.len);
		for (size_t pos = 0; pos < st.len; pos++)
			for (size_t m = 0; m < sizeof(masks); m++) {
				memcpy(buf, st.buf, st.len);
				buf[pos] ^= masks[m];
				check_flipped(&st, buf, pos);
			}
		free(buf);
		free(st.buf);
	}
}

static void test_trace_bad_magic_and_version(void **state)
{
	struct small_trace st;
	struct trace_reader *r;
	static const struct { int line, pos; uint8_t val; int err; const char *msg; } rows[] = {
		{ __LINE__, 0, 'X', -EBADMSG, "not a c2c-lite trace" },
		{ __LINE__, 7, 'x', -EBADMSG, "not a c2c-lite trace" },
		{ __LINE__, 8, 2, -ENOTSUP, "version 2." },
		{ __LINE__, 9, 1, -ENOTSUP, "version 257." },
		{ __LINE__, 12, 1, -ENOTSUP, "features 0x1" },
	};

	(void)state;
	make_small_trace(&st, 0);
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		uint8_t *buf = xmalloc(st.len);

		memcpy(buf, st.buf, st.len);
		buf[rows[k].pos] = rows[k].val;
		log_reset();
		if (trace_reader_open_mem(&r, buf, st.len, "m") != rows[k].err ||
		    !strstr(logcap.last, rows[k].msg))
			fail_msg("row at line %d: got '%s'", rows[k].line, logcap.last);
		free(buf);
	}
	log_reset();
	assert_int_equal(trace_reader_open_mem(&r, "hello", 5, "short"), -EBADMSG);
	assert_int_equal(trace_reader_open_mem(&r, NULL, 0, "empty"), -EBADMSG);
	assert_int_equal(trace_reader_open(&r, "/nonexistent/x.trace"), -ENOENT);
	assert_non_null(strstr(logcap.last, "/nonexistent/x.trace"));
	assert_false(trace_is_trace("C2CTRAC", 7));
	assert_false(trace_is_trace("PERFILE2", 8));
	assert_true(trace_is_trace(st.buf, 8));
	free(st.buf);
}

/* A chunk built by hand: header, CRCs, payload. */
static size_t put_chunk(uint8_t *out, uint32_t kind, const uint8_t *payload, uint32_t len,
			uint32_t nrec)
{
	uint8_t *h = out;
	uint32_t crc;

	memcpy(h, "CHNK", 4);
	memcpy(h + 4, &kind, 4);  /* the test host is little-endian (x86-64) */
	memcpy(h + 8, &len, 4);
	memcpy(h + 24, payload, len);
	crc = crc32(crc32(0, h + 4, 8), h + 24, len);
	memcpy(h + 12, &crc, 4);
	memcpy(h + 16, &nrec, 4);
	crc = crc32(0, h, 20);
	memcpy(h + 20, &crc, 4);
	return 24 + len;
}

/* An empty trace's file header and INFO chunk, without its END chunk, in a buffer with room for
 * @extra more bytes; *n: the bytes used. */
static uint8_t *trace_head(size_t extra, size_t *n)
{
	char *path = tmp_path("empty.trace");
	struct trace_info info = full_info();
	uint8_t *buf, *file;
	size_t len;

	write_events(path, &info, NULL, NULL, 0);
	buf = slurp(path, &len);
	file = xmalloc(len + extra);
	*n = len - 25;  /* drop the end chunk (24-byte header + 1-byte count) */
	memcpy(file, buf, *n);
	free(buf);
	free(path);
	return file;
}

static void test_trace_forward_compat(void **state)
{
	/* an unknown record type 0x42 (3 bytes), then FORK{time 10, pid 1, ppid 2, tid 3, ptid 4,
	 * flags 1 (1.1)} with one trailing byte a later minor version might have added */
	static const uint8_t recs[] = { 0x42, 3, 9, 9, 9, TRACE_REC_FORK, 7, 20, 1, 2, 3, 4, 1, 0x55 };
	static const uint8_t unknown[] = { 1, 2, 3, 4 }, end[] = { 2 };
	size_t head, n;
	uint8_t *file = trace_head(200, &head);
	struct trace_reader *r;
	struct trace_event ev;

	(void)state;
	n = head;
	n += put_chunk(file + n, 77, unknown, sizeof(unknown), 0);
	n += put_chunk(file + n, 2, recs, sizeof(recs), 2);
	n += put_chunk(file + n, 3, end, sizeof(end), 0);
	log_reset();
	assert_int_equal(trace_reader_open_mem(&r, file, n, "compat"), 0);
	assert_int_equal(trace_reader_next(r, &ev), 1);
	assert_int_equal(ev.type, TRACE_REC_FORK);
	assert_int_equal(ev.task.time, 10);
	assert_int_equal(ev.task.pid, 1);
	assert_int_equal(ev.task.ppid, 2);
	assert_int_equal(ev.task.tid, 3);
	assert_int_equal(ev.task.ptid, 4);
	assert_int_equal(ev.task.flags, TRACE_TASK_SYNTHESIZED);
	assert_int_equal(trace_reader_next(r, &ev), 0);
	assert_false(trace_reader_truncated(r));
	assert_int_equal(logcap.errors + logcap.warnings, 0);
	trace_reader_free(r);
	/* an unknown flag on a records chunk is a feature this reader lacks */
	n = head;
	n += put_chunk(file + n, 2 | 1u << 20, recs, sizeof(recs), 2);
	assert_int_equal(trace_reader_open_mem(&r, file, n, "flags"), 0);
	assert_int_equal(trace_reader_next(r, &ev), -ENOTSUP);
	trace_reader_free(r);
	free(file);
}

/* A 1.4 trace as main's writer made it: AUX keeps tag 8 and REGION tag 16, and CHAIN (1.5)
 * took 17, so a 1.3 or 1.4 file's AUX record is not read as a callchain. */
static void test_trace_reads_1_4(void **state)
{
	/* AUX{time 19, cpu 2, pid 100, tid 101, offset 4096, size 512, flags 5}, then
	 * REGION{time 20, pid 7, tid 8, begin, depth 1, "q"} */
	static const uint8_t recs[] = { TRACE_REC_AUX, 9, 38, 2, 100, 101, 0x80, 0x20, 0x80, 0x04, 5,
					TRACE_REC_REGION, 8, 2, 7, 8, 1, 1, 2, 'q', 0 };
	static const uint8_t end[] = { 2 };
	size_t n;
	uint8_t *file = trace_head(200, &n);
	struct trace_reader *r;
	struct trace_event ev;

	(void)state;
	file[10] = 4;  /* minor version 4 */
	n += put_chunk(file + n, 2, recs, sizeof(recs), 2);
	n += put_chunk(file + n, 3, end, sizeof(end), 0);
	log_reset();
	assert_int_equal(trace_reader_open_mem(&r, file, n, "v1.4"), 0);
	assert_int_equal(trace_reader_info(r)->version_minor, 4);
	assert_int_equal(trace_reader_next(r, &ev), 1);
	assert_int_equal(ev.type, TRACE_REC_AUX);
	assert_int_equal(ev.aux.time, 19);
	assert_int_equal(ev.aux.cpu, 2);
	assert_int_equal(ev.aux.offset, 4096);
	assert_int_equal(ev.aux.size, 512);
	assert_int_equal(ev.aux.flags, 5);
	assert_int_equal(trace_reader_next(r, &ev), 1);
	assert_int_equal(ev.type, TRACE_REC_REGION);
	assert_int_equal(ev.region.time, 20);
	assert_string_equal(ev.region.name, "q");
	assert_int_equal(trace_reader_next(r, &ev), 0);
	assert_false(trace_reader_truncated(r));
	assert_int_equal(logcap.errors + logcap.warnings, 0);
	trace_reader_free(r);
	free(file);
}

static void test_trace_zstd_smaller(void **state)
{
	const size_t n = 50000;
	struct trace_event *ev = xmalloc(n * sizeof(*ev));
	char *a = tmp_path("plain.trace"), *b = tmp_path("zstd.trace");
	struct stat sa, sb;

	(void)state;
	gen_samples(ev, n, 42, 0);
	write_events(a, &(struct trace_info){ 0 }, NULL, ev, n);
	write_events(b, &(struct trace_info){ 0 }, &(struct trace_writer_opts){ .zstd_level = 3 }, ev, n);
	assert_int_equal(stat(a, &sa), 0);
	assert_int_equal(stat(b, &sb), 0);
	assert_true(sb.st_size < sa.st_size);
	assert_true(sa.st_size < (off_t)n * 16);  /* the size target, before compression */
	free(a);
	free(b);
	free(ev);
}

static void test_trace_dev_full(void **state)
{
	struct trace_writer *w;
	int fd;

	(void)state;
	log_reset();
	assert_int_equal(trace_writer_open(&w, "/dev/full", &(struct trace_info){ 0 }, NULL), -ENOSPC);
	assert_int_equal(logcap.errors, 1);
	assert_non_null(strstr(logcap.last, "'/dev/full'"));
	fd = open("/dev/full", O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(trace_writer_fdopen(&w, fd, "full", &(struct trace_info){ 0 }, NULL), -ENOSPC);
	assert_true(fcntl(fd, F_GETFD) >= 0);  /* not closed */
	close(fd);
}

/* In a child limited by RLIMIT_FSIZE: write until the limit; the error must be -EFBIG, sticky,
 * and returned by close. Exit status 0 when all held. */
static int fsize_child(const char *path, const struct trace_event *ev, size_t n)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	struct trace_writer_opts o = { .chunk_bytes = 4000 };
	struct trace_writer *w;
	size_t i;
	int err = 0;

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &rl))
		return 10;
	if (trace_writer_open(&w, path, &(struct trace_info){ .arch = (char *)"x86_64" }, &o))
		return 11;
	for (i = 0; i < n && !err; i++)
		err = trace_write(w, &ev[i]);
	if (err != -EFBIG)
		return 12;
	if (trace_write(w, &ev[0]) != -EFBIG || trace_writer_flush(w) != -EFBIG)
		return 13;
	if (trace_writer_bytes(w) > (64 << 10))
		return 14;
	return trace_writer_close(w) == -EFBIG ? 0 : 15;
}

static void test_trace_fsize_limit(void **state)
{
	const size_t n = 100000;
	struct trace_event *ev = xmalloc(n * sizeof(*ev));
	char *path = tmp_path("limited.trace");
	struct trace_reader *r;
	struct stat st;
	size_t got;
	int status;
	pid_t pid;

	(void)state;
	gen_samples(ev, n, 7, 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fsize_child(path, ev, n));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 64 << 10);
	log_reset();
	assert_int_equal(trace_reader_open(&r, path), 0);
	got = read_compare(r, ev, n, NULL);
	assert_true(got > 1000);
	assert_true(trace_reader_truncated(r));
	assert_int_equal(logcap.errors, 0);
	assert_int_equal(logcap.warnings, 1);
	trace_reader_free(r);
	free(ev);
	free(path);
}

static void test_trace_writer_rejects_bad_records(void **state)
{
	char *path = tmp_path("bad.trace");
	struct trace_writer *w;
	struct trace_reader *r;
	static const struct { int line; struct trace_event ev; } rows[] = {
		{ __LINE__, { .type = TRACE_REC_SAMPLE, .sample = { .td_nr = TRACE_TD_MAX + 1 } } },
		{ __LINE__, { .type = TRACE_REC_MMAP, .mmap = { .build_id_size = 21 } } },
		{ __LINE__, { .type = (enum trace_rec_type)99 } },
		{ __LINE__, { .type = TRACE_REC_BLOB, .blob = { .size = 10, .data = NULL } } },
	};
	struct trace_event good = { .type = TRACE_REC_COMM, .comm = { .comm = "ok" } };

	(void)state;
	assert_int_equal(trace_writer_open(&w, path, &(struct trace_info){ 0 }, NULL), 0);
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		if (trace_write(w, &rows[k].ev) != -EINVAL)
			fail_msg("row at line %d accepted", rows[k].line);
	assert_int_equal(trace_write(w, &good), 0);  /* a caller error is not sticky */
	assert_int_equal(trace_writer_records(w), 1);
	assert_int_equal(trace_writer_close(w), 0);
	assert_int_equal(trace_writer_close(NULL), 0);
	assert_int_equal(trace_reader_open(&r, path), 0);
	assert_int_equal(read_compare(r, &good, 1, NULL), 1);
	trace_reader_free(r);
	trace_reader_free(NULL);
	free(path);
}

/* A stream that is not a regular file: the reader cannot know its size and reads in pieces. */
static void test_trace_from_pipe(void **state)
{
	struct small_trace st;
	struct trace_reader *r;
	int fds[2];

	(void)state;
	make_small_trace(&st, 0);
	for (int cut = 0; cut <= 1; cut++) {
		size_t len = cut ? st.chunk_end[1] + 10 : st.len;
		char *path;

		assert_int_equal(pipe(fds), 0);
		assert_true(len < 65536);  /* fits in the pipe buffer */
		assert_int_equal(write(fds[1], st.buf, len), (ssize_t)len);
		close(fds[1]);
		path = xasprintf("/proc/self/fd/%d", fds[0]);
		log_reset();
		assert_int_equal(trace_reader_open(&r, path), 0);
		assert_int_equal(read_compare(r, st.ev, NR_ROWS, NULL), complete_records(&st, len));
		assert_int_equal(trace_reader_truncated(r), cut);
		assert_int_equal(logcap.warnings, cut);
		trace_reader_free(r);
		close(fds[0]);
		free(path);
	}
	free(st.buf);
}

/* Blobs larger than the chunk target (a kallsyms snapshot) between samples. */
static void test_trace_big_blobs(void **state)
{
	const size_t big = 3 << 20, n = 2000;
	char *text = xmalloc(big), *path = tmp_path("blobs.trace");
	struct trace_event *ev = xcalloc(n, sizeof(*ev));
	struct trace_reader *r;

	(void)state;
	for (size_t i = 0; i < big; i++)
		text[i] = "0123456789abcdef T sym\n"[i % 23];
	gen_samples(ev, n, 99, 0);
	for (size_t i = 0; i < n; i += 500)
		ev[i] = (struct trace_event){ .type = TRACE_REC_BLOB, .blob = {
			.time = i, .kind = TRACE_BLOB_KALLSYMS, .size = big - i, .data = text } };
	for (int z = 0; z <= 1; z++) {
		write_events(path, &(struct trace_info){ .flags = TRACE_INFO_HAS_KSYMS },
			     &(struct trace_writer_opts){ .chunk_bytes = 4096, .zstd_level = z }, ev, n);
		assert_int_equal(trace_reader_open(&r, path), 0);
		assert_int_equal(read_compare(r, ev, n, NULL), n);
		trace_reader_free(r);
	}
	free(ev);
	free(text);
	free(path);
}

static void test_trace_backend_names(void **state)
{
	static const struct { int line; enum trace_backend b; const char *name; } rows[] = {
		{ __LINE__, TRACE_BACKEND_UNKNOWN, "unknown" },
		{ __LINE__, TRACE_BACKEND_PEBS, "pebs" },
		{ __LINE__, TRACE_BACKEND_IBS, "ibs" },
		{ __LINE__, TRACE_BACKEND_SPE, "spe" },
		{ __LINE__, TRACE_BACKEND_POWER, "power" },
		{ __LINE__, TRACE_BACKEND_SOFT, "soft" },
		{ __LINE__, TRACE_BACKEND_WATCH, "watch" },
		{ __LINE__, TRACE_BACKEND_SWEVENT, "swevent" },
		{ __LINE__, TRACE_BACKEND_PERFDATA, "perf.data" },
		{ __LINE__, TRACE_BACKEND_SYNTHETIC, "synthetic" },
		{ __LINE__, TRACE_BACKEND__MAX, "unknown" },
		{ __LINE__, (enum trace_backend)-1, "unknown" },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		if (strcmp(trace_backend_name(rows[k].b), rows[k].name))
			fail_msg("row at line %d: '%s'", rows[k].line, trace_backend_name(rows[k].b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_info_roundtrip),
		cmocka_unit_test(test_trace_info_bounds),
		cmocka_unit_test(test_trace_info_cpus_without_nodes),
		cmocka_unit_test(test_trace_records_roundtrip),
		cmocka_unit_test(test_trace_random_roundtrip),
		cmocka_unit_test(test_trace_many_mmaps),
		cmocka_unit_test(test_trace_truncated_everywhere),
		cmocka_unit_test(test_trace_flipped_everywhere),
		cmocka_unit_test(test_trace_bad_magic_and_version),
		cmocka_unit_test(test_trace_forward_compat),
		cmocka_unit_test(test_trace_reads_1_4),
		cmocka_unit_test(test_trace_zstd_smaller),
		cmocka_unit_test(test_trace_dev_full),
		cmocka_unit_test(test_trace_fsize_limit),
		cmocka_unit_test(test_trace_writer_rejects_bad_records),
		cmocka_unit_test(test_trace_from_pipe),
		cmocka_unit_test(test_trace_big_blobs),
		cmocka_unit_test(test_trace_backend_names),
	};

	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
