/* Tests of the perf.data reader (report/read/perfdata*.c). A tiny writer below builds perf.data
 * images in memory (file and pipe mode, either byte order, zstd-compressed records), so every
 * field can be checked and every header field mutated: the reader must decode what perf would,
 * order records the way perf's ordered events do, and meet truncated or corrupt input with a
 * one-line error or a warning, never a crash. */
#define _GNU_SOURCE
#include <byteswap.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata.h"
#include "tests/tools/gen/perf-bytes.h"

/* --- log capture ------------------------------------------------------------------------------ */

static struct {
	int errors, warnings;
	char last[1024];
} logcap;

static void capture(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	logcap.errors += level == C2C_LOG_ERROR;
	logcap.warnings += level == C2C_LOG_WARN;
	if (level <= C2C_LOG_WARN)
		snprintf(logcap.last, sizeof(logcap.last), "%s", msg);
}

static void log_reset(void)
{
	memset(&logcap, 0, sizeof(logcap));
	c2c_log_set_hook(capture, NULL);
}

/* --- the perf.data model ------------------------------------------------------------------------ */

#define ST_BASIC (PERF_IP | PERF_TID | PERF_TIME | PERF_ADDR | PERF_CPU | PERF_PERIOD | \
		  PERF_WEIGHT_STRUCT | PERF_DATA_SRC | PERF_PHYS)
enum {
	PERF_IP = 1 << 0, PERF_TID = 1 << 1, PERF_TIME = 1 << 2, PERF_ADDR = 1 << 3,
	PERF_READ = 1 << 4, PERF_CALLCHAIN = 1 << 5, PERF_ID = 1 << 6, PERF_CPU = 1 << 7,
	PERF_PERIOD = 1 << 8, PERF_STREAM = 1 << 9, PERF_RAW = 1 << 10, PERF_BRANCH = 1 << 11,
	PERF_REGS_USER = 1 << 12, PERF_STACK_USER = 1 << 13, PERF_WEIGHT = 1 << 14,
	PERF_DATA_SRC = 1 << 15, PERF_IDENTIFIER = 1 << 16, PERF_TRANSACTION = 1 << 17,
	PERF_REGS_INTR = 1 << 18, PERF_PHYS = 1 << 19, PERF_AUX = 1 << 20, PERF_CGROUP = 1 << 21,
	PERF_DPAGE = 1 << 22, PERF_CPAGE = 1 << 23, PERF_WEIGHT_STRUCT = 1 << 24,
};
#define FLAG_SAMPLE_ID_ALL (1ull << 18)

struct tattr {
	uint32_t type;
	uint64_t config, sample_type, read_format, flags;
	uint64_t ids[4];
	int nr_ids;
	const char *name;
};

/* The fields of one sample; the attr's sample_type decides which are written. */
struct tsample {
	uint64_t id, ip, time, addr, period, weight, dsrc, phys;
	uint32_t pid, tid, cpu;
	uint16_t misc;
	uint64_t read_vals[4], read_ids[4];
	int nr_read;
};

enum feat_mask {
	F_HOSTNAME = 1 << 0, F_ARCH = 1 << 1, F_NRCPUS = 1 << 2, F_CPUID = 1 << 3,
	F_EVENT_DESC = 1 << 4, F_NUMA = 1 << 5, F_MEM = 1 << 6, F_CMDLINE = 1 << 7,
	F_BUILD_ID = 1 << 8, F_UNKNOWN = 1 << 9, F_DIR = 1 << 10,
	F_ALL = (1 << 9) - 1,
};

struct tfile {
	struct tattr attr[4];
	int nr_attr;
	int swap, pipe;
	uint32_t attr_struct;   /* bytes of perf_event_attr written (attr.size), 128 by default */
	uint64_t dir_version;   /* DIR_FORMAT feature (F_DIR) */
	unsigned int feats;
	struct buf data;        /* the records */
};

static void tfile_init(struct tfile *f, int swap, int pipe)
{
	memset(f, 0, sizeof(*f));
	f->swap = swap;
	f->pipe = pipe;
	f->attr_struct = 128;
	f->feats = F_ALL;
	f->data.swap = swap;
	f->nr_attr = 1;
	f->attr[0] = (struct tattr){ .type = 1, .config = 2, .sample_type = ST_BASIC,
				     .flags = FLAG_SAMPLE_ID_ALL, .ids = { 101, 102 }, .nr_ids = 2,
				     .name = "page-faults:u" };
}

/* A second event like the first, with ids 201 and 202; @idbits (ID or IDENTIFIER) in both. */
static void tfile_second_event(struct tfile *f, uint64_t idbits, const char *name)
{
	f->nr_attr = 2;
	f->attr[0].sample_type |= idbits;
	f->attr[1] = f->attr[0];
	f->attr[1].ids[0] = 201;
	f->attr[1].ids[1] = 202;
	f->attr[1].name = name;
}

static void put_attr(struct buf *b, const struct tattr *a, uint32_t size)
{
	size_t start = b->len;
	uint8_t flags[8];
	uint64_t fl = a->flags;
	int i, j;

	put32(b, a->type);
	put32(b, size);
	put64(b, a->config);
	put64(b, 1);
	put64(b, a->sample_type);
	put64(b, a->read_format);
	/* bit fields: each byte bit-reversed in the opposite byte order, as perf writes them */
	memcpy(flags, &fl, 8);
	if (b->swap)
		for (i = 0; i < 8; i++) {
			uint8_t o = 0;

			for (j = 0; j < 8; j++)
				if (flags[i] & (1u << j))
					o |= (uint8_t)(0x80u >> j);
			flags[i] = o;
		}
	put(b, flags, 8);
	put_zero(b, size - (b->len - start));
}

/* The sample_id trailer of non-sample records. */
static void put_trailer(struct buf *b, const struct tattr *a, uint32_t pid, uint32_t tid,
			uint64_t time, uint32_t cpu)
{
	uint64_t st = a->sample_type;

	if (!(a->flags & FLAG_SAMPLE_ID_ALL))
		return;
	if (st & PERF_TID) {
		put32(b, pid);
		put32(b, tid);
	}
	if (st & PERF_TIME)
		put64(b, time);
	if (st & PERF_ID)
		put64(b, a->ids[0]);
	if (st & PERF_STREAM)
		put64(b, 0);
	if (st & PERF_CPU) {
		put32(b, cpu);
		put32(b, 0);
	}
	if (st & PERF_IDENTIFIER)
		put64(b, a->ids[0]);
}

static void rec_sample(struct tfile *f, int ai, const struct tsample *s)
{
	const struct tattr *a = &f->attr[ai];
	struct buf *b = &f->data;
	uint64_t st = a->sample_type;
	size_t at = rec_begin(b, 9, s->misc ? s->misc : 2);
	int i;

	if (st & PERF_IDENTIFIER)
		put64(b, s->id ? s->id : a->ids[0]);
	if (st & PERF_IP)
		put64(b, s->ip);
	if (st & PERF_TID) {
		put32(b, s->pid);
		put32(b, s->tid);
	}
	if (st & PERF_TIME)
		put64(b, s->time);
	if (st & PERF_ADDR)
		put64(b, s->addr);
	if (st & PERF_ID)
		put64(b, s->id ? s->id : a->ids[0]);
	if (st & PERF_STREAM)
		put64(b, 77);
	if (st & PERF_CPU) {
		put32(b, s->cpu);
		put32(b, 0);
	}
	if (st & PERF_PERIOD)
		put64(b, s->period);
	if ((st & PERF_READ) && (a->read_format & 8)) {   /* GROUP | ID */
		put64(b, (uint64_t)s->nr_read);
		for (i = 0; i < s->nr_read; i++) {
			put64(b, s->read_vals[i]);
			put64(b, s->read_ids[i]);
		}
	} else if (st & PERF_READ) {   /* ID */
		put64(b, s->read_vals[0]);
		put64(b, s->read_ids[0]);
	}
	if (st & PERF_CALLCHAIN) {
		put64(b, 2);
		put64(b, 0xffffffff81000000ull);
		put64(b, s->ip);
	}
	if (st & PERF_RAW) {
		put32(b, 12);
		put_zero(b, 12);
	}
	if (st & PERF_BRANCH) {
		put64(b, 1);
		put_zero(b, 24);
	}
	if (st & PERF_REGS_USER) {   /* sample_regs_user is 0: abi only */
		put64(b, 0);
	}
	if (st & PERF_STACK_USER) {
		put64(b, 16);
		put_zero(b, 16);
		put64(b, 16);
	}
	if (st & (PERF_WEIGHT | PERF_WEIGHT_STRUCT))
		put64(b, s->weight);
	if (st & PERF_DATA_SRC)
		put64(b, s->dsrc);
	if (st & PERF_TRANSACTION)
		put64(b, 0);
	if (st & PERF_REGS_INTR)
		put64(b, 0);
	if (st & PERF_PHYS)
		put64(b, s->phys);
	if (st & PERF_CGROUP)
		put64(b, 1);
	if (st & PERF_DPAGE)
		put64(b, 4096);
	if (st & PERF_CPAGE)
		put64(b, 4096);
	if (st & PERF_AUX) {
		put64(b, 8);
		put_zero(b, 8);
	}
	rec_end(b, at);
}

static void rec_comm(struct tfile *f, uint32_t pid, const char *comm, uint64_t time, int exec)
{
	struct buf *b = &f->data;
	size_t at = rec_begin(b, 3, exec ? 1 << 13 : 0), n = strlen(comm) + 1;

	put32(b, pid);
	put32(b, pid);
	put(b, comm, n);
	put_zero(b, (8 - (n % 8)) % 8);
	put_trailer(b, &f->attr[0], pid, pid, time, 0);
	rec_end(b, at);
}

static void rec_mmap2(struct tfile *f, uint32_t pid, uint64_t start, const char *file,
		      uint64_t time)
{
	struct buf *b = &f->data;
	size_t at = rec_begin(b, 10, 2), n = strlen(file) + 1;

	put32(b, pid);
	put32(b, pid);
	put64(b, start);
	put64(b, 0x1000);
	put64(b, 0);
	put32(b, 8);
	put32(b, 1);
	put64(b, 1234);
	put64(b, 0);
	put32(b, 5);
	put32(b, 2);
	put(b, file, n);
	put_zero(b, (8 - (n % 8)) % 8);
	put_trailer(b, &f->attr[0], pid, pid, time, 1);
	rec_end(b, at);
}

static void rec_empty(struct tfile *f, uint32_t type)
{
	rec_end(&f->data, rec_begin(&f->data, type, 0));
}

/* LOST, THROTTLE: {u64, u64[, u64]} + trailer */
static void rec_lost(struct tfile *f, uint32_t type, uint64_t v, uint64_t time)
{
	struct buf *b = &f->data;
	size_t at = rec_begin(b, type, 0);

	if (type == 2) {
		put64(b, f->attr[0].ids[0]);
		put64(b, v);
	} else if (type == 13) {
		put64(b, v);
	} else {
		put64(b, time);
		put64(b, f->attr[0].ids[0]);
		put64(b, 0);
	}
	put_trailer(b, &f->attr[0], 1, 1, time, 0);
	rec_end(b, at);
}

/* feature sections */
static void feat_body(struct tfile *f, int bit, struct buf *b)
{
	int i, j;

	switch (bit) {
	case 2: {   /* BUILD_ID */
		size_t at = b->len;

		put32(b, 0);
		put16(b, 0x8002);
		put16(b, 0);
		put32(b, (uint32_t)-1);
		for (i = 0; i < 20; i++)
			put(b, &(uint8_t){ (uint8_t)(0xa0 + i) }, 1);
		put(b, &(uint8_t){ 20 }, 1);
		put_zero(b, 3);
		put(b, "/usr/lib/libx.so", 17);
		put_zero(b, 64 - 17);
		set16(b, at + 6, (uint16_t)(b->len - at));
		break;
	}
	case 3: put_str(b, "testhost"); break;
	case 6: put_str(b, "x86_64"); break;
	case 7: put32(b, 4); put32(b, 4); break;
	case 9: put_str(b, "GenuineIntel,6,143,8"); break;
	case 11: put32(b, 2); put_str(b, "perf"); put_str(b, "record"); break;
	case 12:
		put32(b, (uint32_t)f->nr_attr);
		put32(b, 128);
		for (i = 0; i < f->nr_attr; i++) {
			put_attr(b, &f->attr[i], 128);
			put32(b, (uint32_t)f->attr[i].nr_ids);
			put_str(b, f->attr[i].name);
			for (j = 0; j < f->attr[i].nr_ids; j++)
				put64(b, f->attr[i].ids[j]);
		}
		break;
	case 14:   /* two nodes: cpus 0-1 and 2-3 */
		put32(b, 2);
		put32(b, 0); put64(b, 1000); put64(b, 500); put_str(b, "0-1");
		put32(b, 1); put64(b, 1000); put64(b, 500); put_str(b, "2-3");
		break;
	case 22:   /* blocks of 128 MiB: node 0 has blocks 0-1, node 1 has blocks 2-3 and 5 */
		put64(b, 1); put64(b, 1ull << 27); put64(b, 2);
		put64(b, 0); put64(b, 6); put64(b, 6); put64(b, 0x3);
		put64(b, 1); put64(b, 6); put64(b, 6); put64(b, 0x2c);
		break;
	case 24: put64(b, f->dir_version); break;
	case 200: put64(b, 42); break;
	}
}

static const int feat_bits[] = { 2, 3, 6, 7, 9, 11, 12, 14, 22, 24, 200 };
static const unsigned int feat_flag[] = { F_BUILD_ID, F_HOSTNAME, F_ARCH, F_NRCPUS, F_CPUID,
					  F_CMDLINE, F_EVENT_DESC, F_NUMA, F_MEM, F_DIR, F_UNKNOWN };
#define NR_FEAT (sizeof(feat_bits) / sizeof(feat_bits[0]))

static void build_file(struct tfile *f, struct buf *o)
{
	uint64_t ids_off[4], attrs_off, data_off, table;
	size_t i, t;
	int k, a;

	memset(o, 0, sizeof(*o));
	o->swap = f->swap;
	put(o, f->swap ? "2ELIFREP" : "PERFILE2", 8);
	put64(o, 104);
	put64(o, f->attr_struct + 16);
	put_zero(o, 104 - 24);
	for (a = 0; a < f->nr_attr; a++) {
		ids_off[a] = o->len;
		for (k = 0; k < f->attr[a].nr_ids; k++)
			put64(o, f->attr[a].ids[k]);
	}
	attrs_off = o->len;
	for (a = 0; a < f->nr_attr; a++) {
		put_attr(o, &f->attr[a], f->attr_struct);
		put64(o, ids_off[a]);
		put64(o, (uint64_t)f->attr[a].nr_ids * 8);
	}
	data_off = o->len;
	put(o, f->data.p, f->data.len);
	table = o->len;
	for (i = 0; i < NR_FEAT; i++)
		if (f->feats & feat_flag[i])
			put_zero(o, 16);
	for (i = 0, t = table; i < NR_FEAT; i++) {
		size_t start = o->len;

		if (!(f->feats & feat_flag[i]))
			continue;
		feat_body(f, feat_bits[i], o);
		set64(o, t, start);
		set64(o, t + 8, o->len - start);
		t += 16;
		{
			uint64_t w;
			size_t off = 72 + 8 * (size_t)(feat_bits[i] / 64);

			memcpy(&w, o->p + off, 8);
			w = f->swap ? bswap_64(w) : w;
			set64(o, off, w | (1ull << (feat_bits[i] % 64)));
		}
	}
	set64(o, 24, attrs_off);
	set64(o, 32, (uint64_t)f->nr_attr * (f->attr_struct + 16));
	set64(o, 40, data_off);
	set64(o, 48, f->data.len);
}

static void build_pipe(struct tfile *f, struct buf *o)
{
	size_t i, at;
	int a, k;

	memset(o, 0, sizeof(*o));
	o->swap = f->swap;
	put(o, f->swap ? "2ELIFREP" : "PERFILE2", 8);
	put64(o, 16);
	for (a = 0; a < f->nr_attr; a++) {
		at = rec_begin(o, 64, 0);
		put_attr(o, &f->attr[a], f->attr_struct);
		for (k = 0; k < f->attr[a].nr_ids; k++)
			put64(o, f->attr[a].ids[k]);
		rec_end(o, at);
	}
	for (i = 0; i < NR_FEAT; i++) {
		if (!(f->feats & feat_flag[i]) || feat_bits[i] == 12)
			continue;
		at = rec_begin(o, 80, 0);
		put64(o, (uint64_t)feat_bits[i]);
		feat_body(f, feat_bits[i], o);
		rec_end(o, at);
	}
	for (a = 0; a < f->nr_attr && (f->feats & F_EVENT_DESC); a++) {   /* EVENT_UPDATE NAME */
		size_t n = strlen(f->attr[a].name) + 1;

		at = rec_begin(o, 78, 0);
		put64(o, 2);
		put64(o, f->attr[a].ids[0]);
		put(o, f->attr[a].name, n);
		put_zero(o, (8 - n % 8) % 8);
		rec_end(o, at);
	}
	rec_end(o, rec_begin(o, 82, 0));
	put(o, f->data.p, f->data.len);
}

static void build(struct tfile *f, struct buf *o)
{
	if (f->pipe)
		build_pipe(f, o);
	else
		build_file(f, o);
}

/* --- reading back ----------------------------------------------------------------------------- */

struct got {
	struct trace_event ev[64];
	char str[64][64];
	uint64_t chain[64][4];   /* a sample's first callchain entries (the reader's copy is reused) */
	int n, rc;
};

static int read_all(const struct buf *o, struct got *g, struct perfdata_stats *st)
{
	struct perfdata_reader *r;
	int rc;

	memset(g, 0, sizeof(*g));
	rc = perfdata_reader_open_mem(&r, o->p, o->len, "t.data");
	if (rc < 0)
		return g->rc = rc;
	while ((rc = perfdata_reader_next(r, &g->ev[g->n < 63 ? g->n : 63])) == 1) {
		struct trace_event *e = &g->ev[g->n < 63 ? g->n : 63];

		if (e->type == TRACE_REC_MMAP)
			snprintf(g->str[g->n & 63], 64, "%s", e->mmap.filename);
		if (e->type == TRACE_REC_COMM)
			snprintf(g->str[g->n & 63], 64, "%s", e->comm.comm);
		if (e->type == TRACE_REC_SAMPLE && e->sample.chain_nr) {
			memcpy(g->chain[g->n & 63], e->sample.chain,
			       8 * (e->sample.chain_nr < 4 ? e->sample.chain_nr : 4));
			e->sample.chain = g->chain[g->n & 63];
		}
		g->n++;
	}
	if (st)
		*st = *perfdata_reader_stats(r);
	perfdata_reader_free(r);
	g->rc = rc;
	return rc;
}

static void basic_records(struct tfile *f)
{
	struct tsample s = { .ip = 0x401000, .pid = 7, .tid = 8, .time = 1000, .addr = 0x7f0040,
			     .cpu = 3, .period = 1, .weight = (5ull << 32) | 300,
			     .dsrc = 0x68100142, .phys = 0x10000040 };

	rec_comm(f, 7, "app", 10, 1);
	rec_mmap2(f, 7, 0x400000, "/usr/bin/app", 20);
	rec_sample(f, 0, &s);
	rec_empty(f, 68);
	s.time = 2000;
	s.addr = 0x7f0080;
	s.misc = 1 | (1 << 14);
	rec_sample(f, 0, &s);
	rec_empty(f, 68);
}

/* --- tests ------------------------------------------------------------------------------------ */

static void check_basic(const struct got *g, int line)
{
	const struct trace_sample *s;

	assert_int_equal(g->rc, 0);
	if (g->n != 4)
		fail_msg("line %d: %d records", line, g->n);
	assert_int_equal(g->ev[0].type, TRACE_REC_COMM);
	assert_string_equal(g->str[0], "app");
	assert_int_equal(g->ev[0].comm.exec, 1);
	assert_int_equal(g->ev[0].comm.time, 10);
	assert_int_equal(g->ev[1].type, TRACE_REC_MMAP);
	assert_string_equal(g->str[1], "/usr/bin/app");
	assert_int_equal(g->ev[1].mmap.start, 0x400000);
	assert_int_equal(g->ev[1].mmap.ino, 1234);
	assert_int_equal(g->ev[1].mmap.prot, 5);
	assert_int_equal(g->ev[1].mmap.maj, 8);
	s = &g->ev[2].sample;
	assert_int_equal(g->ev[2].type, TRACE_REC_SAMPLE);
	assert_int_equal(s->ip, 0x401000);
	assert_int_equal(s->pid, 7);
	assert_int_equal(s->tid, 8);
	assert_int_equal(s->time, 1000);
	assert_int_equal(s->addr, 0x7f0040);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->weight, 300);   /* WEIGHT_STRUCT: low 32 bits only */
	assert_int_equal(s->data_src, 0x68100142);
	assert_int_equal(s->phys_addr, 0x10000040);
	assert_int_equal(s->cpumode, 2);
	assert_int_equal(s->flags, TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR |
				   TRACE_SAMPLE_HAS_PHYS | TRACE_SAMPLE_HAS_WEIGHT |
				   TRACE_SAMPLE_HAS_DSRC);
	assert_int_equal(g->ev[3].sample.cpumode, 1);
	assert_true(g->ev[3].sample.flags & TRACE_SAMPLE_EXACT_IP);
}

static void check_info(const struct trace_info *in)
{
	assert_string_equal(in->hostname, "testhost");
	assert_string_equal(in->arch, "x86_64");
	assert_string_equal(in->cpu_vendor, "GenuineIntel");
	assert_int_equal(in->cpu_family, 6);
	assert_int_equal(in->cpu_model, 143);
	assert_int_equal(in->cpu_stepping, 8);
	assert_int_equal(in->nr_cpus, 4);
	assert_int_equal(in->nr_nodes, 2);
	assert_int_equal(in->cpu_node[1], 0);
	assert_int_equal(in->cpu_node[2], 1);
	assert_int_equal(in->nr_events, 1);
	assert_string_equal(in->events[0].name, "page-faults:u");   /* EVENT_DESC or EVENT_UPDATE */
	assert_int_equal(in->events[0].sample_type, ST_BASIC);
	assert_int_equal(in->backend, TRACE_BACKEND_SWEVENT);
	assert_string_equal(in->cmdline, "perf record");
	assert_int_equal(in->cacheline_size, 64);
	assert_int_equal(in->nr_mem_ranges, 3);
	assert_int_equal(in->mem_ranges[0].start, 0);
	assert_int_equal(in->mem_ranges[0].end, 2ull << 27);
	assert_int_equal(in->mem_ranges[1].start, 2ull << 27);
	assert_int_equal(in->mem_ranges[1].end, 4ull << 27);
	assert_int_equal(in->mem_ranges[1].node, 1);
	assert_int_equal(in->mem_ranges[2].start, 5ull << 27);
}

static void test_perfdata_modes(void **state)
{
	static const struct { int line, swap, pipe; uint32_t attr_struct; } rows[] = {
		{ __LINE__, 0, 0, 128 }, { __LINE__, 1, 0, 128 }, { __LINE__, 0, 1, 128 },
		{ __LINE__, 1, 1, 128 }, { __LINE__, 0, 0, 64 }, { __LINE__, 0, 0, 112 },
		{ __LINE__, 0, 0, 136 }, { __LINE__, 0, 0, 152 }, { __LINE__, 1, 0, 152 },
		{ __LINE__, 0, 1, 136 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		struct perfdata_reader *r;

		log_reset();
		tfile_init(&f, rows[i].swap, rows[i].pipe);
		f.attr_struct = rows[i].attr_struct;
		basic_records(&f);
		build(&f, &o);
		assert_true(perfdata_is_perfdata(o.p, o.len));
		read_all(&o, &g, NULL);
		check_basic(&g, rows[i].line);
		assert_int_equal(perfdata_reader_open_mem(&r, o.p, o.len, "t.data"), 0);
		check_info(perfdata_reader_info(r));
		perfdata_reader_free(r);
		if (logcap.warnings || logcap.errors)
			fail_msg("line %d: %s", rows[i].line, logcap.last);
		free(o.p);
		free(f.data.p);
	}
}

/* An attr larger than this reader knows is fine when the extra bytes are zero (as perf rules);
 * a nonzero extra byte is refused. */
static void test_perfdata_attr_extra_bytes(void **state)
{
	struct tfile f;
	struct buf o;
	struct got g;
	size_t at;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	f.attr_struct = 160;
	basic_records(&f);
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), 0);
	at = 104 + 16 + 150;   /* byte 150 of the first attr */
	o.p[at] = 1;
	log_reset();
	assert_int_equal(read_all(&o, &g, NULL), -ENOTSUP);
	assert_int_equal(logcap.errors, 1);
	assert_non_null(strstr(logcap.last, "t.data"));
	free(o.p);
	free(f.data.p);
}

/* perf's rule: at the end of round n, records up to the highest time seen by the end of
 * round n-1 are delivered; equal times keep file order. */
static void test_perfdata_ordering(void **state)
{
	/* round 1 ends: nothing is final yet; round 2 ends: up to 50 (round 1's maximum) */
	static const uint64_t times[] = { 50, 10, 30, 0 /* round */, 20, 30, 5, 0, 40, 45, 0 };
	static const uint64_t want[] = { 5, 10, 20, 30, 30, 50, 40, 45 };
	struct tfile f;
	struct buf o;
	struct got g;
	struct perfdata_stats st;
	size_t i;
	int k = 0;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		struct tsample s = { .time = times[i], .pid = 1, .tid = 1, .ip = 100 + i };

		if (times[i])
			rec_sample(&f, 0, &s);
		else
			rec_empty(&f, 68);
	}
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, &st), 0);
	assert_int_equal(g.n, 8);
	for (k = 0; k < g.n; k++)
		if (g.ev[k].sample.time != want[k])
			fail_msg("record %d: time %llu, want %llu", k,
				 (unsigned long long)g.ev[k].sample.time, (unsigned long long)want[k]);
	/* the two 30s keep file order: ip 102 (round 1) before ip 105 (round 2) */
	assert_int_equal(g.ev[3].sample.ip, 102);
	assert_int_equal(g.ev[4].sample.ip, 105);
	/* 40 and 45 arrived after everything up to 50 had been delivered */
	assert_int_equal(st.nr_unordered, 2);
	free(o.p);
	free(f.data.p);
}

/* perf's ordered_events__queue takes only records with a time: one without (no sample_id_all,
 * no TIME) or with time 0 (what perf synthesizes) is delivered the moment it is read, ahead of
 * the samples still queued. A file (not a pipe) whose first event lacks sample_id_all is not
 * ordered at all (perf_session__new turns ordered_events off): file order. Regressions: untimed
 * records were queued after everything read before them; then delivered at once in files that
 * perf reads in file order. */
static void test_perfdata_untimed_now(void **state)
{
	static const struct { int line, pipe, idall, first_ip; } rows[] = {
		{ __LINE__, 0, 0, 0x401010 },   /* file order: the sample of time 10 first */
		{ __LINE__, 1, 0, 0 },          /* untimed MMAP first */
		{ __LINE__, 0, 1, 0 },          /* MMAP of time 0 first */
		{ __LINE__, 1, 1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		struct perfdata_stats st;

		log_reset();
		tfile_init(&f, 0, rows[i].pipe);
		if (!rows[i].idall)
			f.attr[0].flags &= ~FLAG_SAMPLE_ID_ALL;
		rec_sample(&f, 0, &(struct tsample){ .time = 10, .pid = 7, .tid = 7, .ip = 0x401010 });
		rec_empty(&f, 68);
		rec_sample(&f, 0, &(struct tsample){ .time = 20, .pid = 7, .tid = 7, .ip = 0x401020 });
		/* untimed (no sample_id_all) or time 0: before the queued samples 10 and 20 */
		rec_mmap2(&f, 7, 0x400000, "/usr/bin/late", 0);
		rec_sample(&f, 0, &(struct tsample){ .time = 30, .pid = 7, .tid = 7, .ip = 0x401030 });
		rec_empty(&f, 68);
		build(&f, &o);
		assert_int_equal(read_all(&o, &g, &st), 0);
		assert_int_equal(g.n, 4);
		if (rows[i].first_ip ? g.ev[0].type != TRACE_REC_SAMPLE ||
		    g.ev[0].sample.ip != (uint64_t)rows[i].first_ip || g.ev[2].type != TRACE_REC_MMAP :
		    g.ev[0].type != TRACE_REC_MMAP)
			fail_msg("line %d: record 0 has type %u, record 2 type %u", rows[i].line,
				 g.ev[0].type, g.ev[2].type);
		assert_int_equal(g.ev[3].sample.time, 30);
		assert_int_equal(st.nr_unordered, 0);
		free(o.p);
		free(f.data.p);
	}
}

/* Two events with different sample_type, told apart by IDENTIFIER; or both with ID. */
static void test_perfdata_multi_event(void **state)
{
	static const struct { int line; uint64_t idbits; } rows[] = {
		{ __LINE__, PERF_IDENTIFIER }, { __LINE__, PERF_ID },
	};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		struct tsample s = { .time = 5, .pid = 1, .tid = 1, .addr = 0x1000, .dsrc = 9 };

		log_reset();
		tfile_init(&f, 0, 0);
		tfile_second_event(&f, rows[i].idbits, "cpu/mem-stores/P");
		f.attr[1].type = 4;
		if (rows[i].idbits == PERF_IDENTIFIER)
			f.attr[1].sample_type &= ~(uint64_t)PERF_PHYS;
		rec_comm(&f, 1, "x", 1, 0);
		rec_sample(&f, 0, &s);
		s.id = 202;
		s.time = 6;
		rec_sample(&f, 1, &s);
		s.id = 999;   /* unknown id: skipped */
		s.time = 7;
		rec_sample(&f, 1, &s);
		build(&f, &o);
		assert_int_equal(read_all(&o, &g, NULL), 0);
		if (g.n != 3)
			fail_msg("line %d: %d records", rows[i].line, g.n);
		assert_int_equal(g.ev[1].sample.event, 0);
		assert_int_equal(g.ev[2].sample.event, 1);
		assert_int_equal(g.ev[2].sample.data_src, 9);
		{
			struct perfdata_reader *r;

			assert_int_equal(perfdata_reader_open_mem(&r, o.p, o.len, "t"), 0);
			assert_string_equal(perfdata_reader_info(r)->events[1].name, "cpu/mem-stores/P");
			assert_int_equal(perfdata_reader_info(r)->backend, TRACE_BACKEND_PEBS);
			perfdata_reader_free(r);
		}
		free(o.p);
		free(f.data.p);
	}
}

/* perf synthesizes COMM/MMAP2/FORK records for processes that already run (-a, -p) with a
 * sample_id trailer whose id is 0; perf's evlist__event2evsel gives them, and samples of id 0,
 * to the first event. Regression: they were counted as unattributable and dropped, so every
 * sample of such a process lost its maps. */
static void test_perfdata_synthesized_id0(void **state)
{
	static const uint64_t idbits[] = { PERF_IDENTIFIER, PERF_ID };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		struct perfdata_stats st;
		struct tsample s = { .time = 50, .pid = 7, .tid = 7, .addr = 0x1000, .dsrc = 9,
				     .ip = 0x401000 };
		uint64_t keep0;

		log_reset();
		tfile_init(&f, 0, 0);
		tfile_second_event(&f, idbits[i], "minor-faults");
		/* synthesized side-band: trailer id 0 (the first event's ids are written intact) */
		keep0 = f.attr[0].ids[0];
		f.attr[0].ids[0] = 0;
		rec_comm(&f, 7, "already-running", 1, 0);
		rec_mmap2(&f, 7, 0x400000, "/usr/bin/already", 2);
		rec_empty(&f, 82);   /* FINISHED_INIT */
		rec_sample(&f, 0, &s);   /* a sample of id 0 belongs to the first event too */
		f.attr[0].ids[0] = keep0;
		rec_sample(&f, 1, &(struct tsample){ .id = 202, .time = 60, .pid = 7, .tid = 7,
						     .addr = 0x2000, .ip = 0x401010 });
		build(&f, &o);
		assert_int_equal(read_all(&o, &g, &st), 0);
		if (g.n != 4)
			fail_msg("id bits %#llx: %d records", (unsigned long long)idbits[i], g.n);
		assert_int_equal(g.ev[0].type, TRACE_REC_COMM);
		assert_string_equal(g.str[0], "already-running");
		assert_int_equal(g.ev[1].type, TRACE_REC_MMAP);
		assert_string_equal(g.str[1], "/usr/bin/already");
		assert_int_equal(g.ev[2].sample.event, 0);   /* time 50: id 0 */
		assert_int_equal(g.ev[3].sample.event, 1);   /* time 60: id 202 */
		assert_int_equal(logcap.warnings, 0);
		free(o.p);
		free(f.data.p);
	}
}

/* perf 6.1 writes an ID_INDEX record into every file (perf_event__synthesize_id_index): one
 * entry {id, idx, cpu, tid} per id, where idx is the id's ring-buffer (mmap) index, not its event:
 * the two events of a two-CPU recording get idx 0, 1, 0, 1. perf reads it only to fill in each
 * known id's idx, cpu and tid; the attrs alone say which event an id is. Regression: the reader
 * took idx for the event and gave the first event's CPU 1 samples to the second event. */
static void test_perfdata_id_index(void **state)
{
	static const uint64_t idbits[] = { PERF_IDENTIFIER, PERF_ID };

	(void)state;
	for (size_t i = 0; i < 2 * 2; i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		size_t at;
		int a, k;

		log_reset();
		tfile_init(&f, 0, i >= 2);
		f.nr_attr = 2;
		f.attr[0].sample_type |= idbits[i % 2];
		f.attr[1] = f.attr[0];
		f.attr[1].ids[0] = 201;
		f.attr[1].ids[1] = 202;
		f.attr[1].name = "minor-faults";
		at = rec_begin(&f.data, 69, 0);
		put64(&f.data, 5);
		for (a = 0; a < 2; a++)
			for (k = 0; k < 2; k++) {
				put64(&f.data, f.attr[a].ids[k]);
				put64(&f.data, (uint64_t)k);       /* idx: the CPU's mmap */
				put64(&f.data, (uint64_t)k);       /* cpu */
				put64(&f.data, UINT64_MAX);        /* tid -1 */
			}
		/* an id no attr has: perf 6.1 stops with -ENOENT, this reader ignores it */
		put64(&f.data, 777);
		put64(&f.data, 0);
		put64(&f.data, 0);
		put64(&f.data, UINT64_MAX);
		rec_end(&f.data, at);
		rec_sample(&f, 0, &(struct tsample){ .id = 102, .time = 10, .pid = 1, .tid = 1,
						     .cpu = 1 });
		rec_sample(&f, 1, &(struct tsample){ .id = 201, .time = 20, .pid = 1, .tid = 1 });
		rec_sample(&f, 1, &(struct tsample){ .id = 202, .time = 30, .pid = 1, .tid = 1,
						     .cpu = 1 });
		build(&f, &o);
		assert_int_equal(read_all(&o, &g, NULL), 0);
		if (g.n != 3)
			fail_msg("case %zu: %d records", i, g.n);
		if (g.ev[0].sample.event != 0 || g.ev[1].sample.event != 1 ||
		    g.ev[2].sample.event != 1)
			fail_msg("case %zu: events %u %u %u, want 0 1 1", i, g.ev[0].sample.event,
				 g.ev[1].sample.event, g.ev[2].sample.event);
		assert_int_equal(logcap.warnings + logcap.errors, 0);
		free(o.p);
		free(f.data.p);
	}
}

/* perf_event__synthesize_fork() sets PERF_RECORD_MISC_FORK_EXEC on the FORKs it writes for
 * tasks that already ran; a kernel FORK has misc 0. The reader passes the mark on, so the maps of
 * a synthesized child are not copied from its parent (report/resolve/maps.c). */
static void test_perfdata_fork_exec(void **state)
{
	(void)state;
	for (int pipe = 0; pipe < 2; pipe++) {
		struct tfile f;
		struct buf o;
		struct got g;
		size_t at;
		int k;

		log_reset();
		tfile_init(&f, 0, pipe);
		for (k = 0; k < 3; k++) {   /* synthesized FORK, kernel FORK, EXIT with misc set */
			at = rec_begin(&f.data, k == 2 ? 4 : 7, k == 1 ? 0 : 1 << 13);
			put32(&f.data, 300);
			put32(&f.data, 100);
			put32(&f.data, 300);
			put32(&f.data, 100);
			put64(&f.data, 0);
			put_trailer(&f.data, &f.attr[0], 0, 0, 0, 0);
			rec_end(&f.data, at);
		}
		build(&f, &o);
		assert_int_equal(read_all(&o, &g, NULL), 0);
		assert_int_equal(g.n, 3);
		assert_int_equal(g.ev[0].type, TRACE_REC_FORK);
		assert_int_equal(g.ev[0].task.flags, TRACE_TASK_SYNTHESIZED);
		assert_int_equal(g.ev[1].task.flags, 0);
		assert_int_equal(g.ev[2].type, TRACE_REC_EXIT);
		assert_int_equal(g.ev[2].task.flags, 0);
		free(o.p);
		free(f.data.p);
	}
}

/* PERF_SAMPLE_READ (perf record -e '{a,b}:S'): perf delivers a sample once per value of its
 * read whose count grew since that id's previous sample, to that value's event, and never for
 * an unknown id (perf's deliver_sample_group / deliver_sample_value). Regression: the sample
 * went to its record's event once, so perf script showed 135 samples where we had 68. */
static void test_perfdata_sample_read(void **state)
{
	static const struct {
		uint64_t a, b, x;   /* values of ids 101 (event 0), 201 (event 1), 999 (unknown) */
		int want[2];        /* events delivered, -1: none */
	} group[] = {
		{ 10, 3, 1, { 0, 1 } }, { 20, 3, 2, { 0, -1 } }, { 20, 5, 3, { 1, -1 } },
		{ 20, 5, 4, { -1, -1 } }, { 30, 6, 5, { 0, 1 } },
	};
	static const uint64_t one[] = { 5, 5, 9 };   /* non-group read: delivered 1st and 3rd */
	struct tfile f;
	struct buf o;
	struct got g;
	struct perfdata_stats st;
	size_t i;
	int k, n = 0;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	tfile_second_event(&f, PERF_IDENTIFIER, "minor-faults");
	for (k = 0; k < 2; k++) {
		f.attr[k].sample_type |= PERF_READ;
		f.attr[k].read_format = 8 | 4;   /* GROUP | ID */
	}
	for (i = 0; i < sizeof(group) / sizeof(group[0]); i++)
		rec_sample(&f, 0, &(struct tsample){ .time = 10 + i, .pid = 1, .tid = 1,
						     .nr_read = 3,
						     .read_vals = { group[i].a, group[i].b, group[i].x },
						     .read_ids = { 101, 201, 999 } });
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, &st), 0);
	for (i = 0; i < sizeof(group) / sizeof(group[0]); i++)
		for (k = 0; k < 2; k++)
			if (group[i].want[k] >= 0) {
				if (n >= g.n || g.ev[n].sample.event != group[i].want[k] ||
				    g.ev[n].sample.time != 10 + i)
					fail_msg("sample %zu: delivery %d wrong", i, k);
				n++;
			}
	assert_int_equal(g.n, n);
	assert_int_equal(st.nr_samples, n);
	assert_int_equal(logcap.warnings, 0);
	free(o.p);
	free(f.data.p);

	tfile_init(&f, 0, 0);
	f.attr[0].sample_type |= PERF_READ;
	f.attr[0].read_format = 4;   /* ID */
	for (i = 0; i < 3; i++)
		rec_sample(&f, 0, &(struct tsample){ .time = 10 + i, .pid = 1, .tid = 1, .nr_read = 1,
						     .read_vals = { one[i] }, .read_ids = { 102 } });
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].sample.time, 10);
	assert_int_equal(g.ev[1].sample.time, 12);
	assert_int_equal(logcap.warnings, 0);
	free(o.p);
	free(f.data.p);
}

/* --- files written by the real perf (data/perf/README.md) ------------------------------------ */

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long n;

	if (!f)
		fail_msg("cannot open %s (tests run from the repository root)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = xmalloc((size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

struct counts {
	uint64_t rec[8];
	uint64_t events;
	uint64_t per_event[4];   /* samples of the first four events */
};

/* Read @len bytes as a perf.data file; the info must respect the readers' bounds whatever the
 * bytes were. 1 when the file opened, 0 when it was refused. */
static int read_bounded(const uint8_t *p, size_t len, struct counts *c)
{
	struct perfdata_reader *r;
	const struct trace_info *in;
	struct trace_event ev;
	int rc;

	memset(c, 0, sizeof(*c));
	if (perfdata_reader_open_mem(&r, p, len, "real.data") < 0)
		return 0;
	in = perfdata_reader_info(r);
	assert_true(in->nr_cpus <= TRACE_CPU_MAX);
	assert_true(in->nr_nodes <= TRACE_NODE_MAX);
	for (uint32_t i = 0; i < in->nr_cpus; i++)
		assert_true(in->cpu_node[i] >= TRACE_NODE_NONE && in->cpu_node[i] < TRACE_NODE_MAX);
	assert_true(in->nr_mem_ranges <= len * 4);
	for (uint32_t i = 0; i < in->nr_mem_ranges; i++)
		assert_true(in->mem_ranges[i].node < TRACE_NODE_MAX);
	c->events = in->nr_events;
	while ((rc = perfdata_reader_next(r, &ev)) == 1) {
		c->rec[ev.type & 7]++;
		if (ev.type == TRACE_REC_MMAP)
			assert_true(strlen(ev.mmap.filename) < len);
		if (ev.type == TRACE_REC_COMM)
			assert_true(strlen(ev.comm.comm) < len);
		if (ev.type == TRACE_REC_SAMPLE) {
			assert_true(ev.sample.event < in->nr_events);
			c->per_event[ev.sample.event & 3] += ev.sample.event < 4;
		}
	}
	perfdata_reader_free(r);
	return 1;
}

/* What perf report -D counts in each file (data/perf/README.md), and that nothing is skipped:
 * the side-band perf synthesizes with id 0 included. */
static void test_perfdata_real_files(void **state)
{
	static const struct {
		const char *path;
		uint64_t samples, mmaps, comms, forks, events;
	} files[] = {
		{ "data/perf/sys-2ev.data", 18, 544, 71, 70, 3 },
		{ "data/perf/z-phys.data", 50, 24, 2, 0, 1 },
		{ "data/perf/pipe.data", 49, 24, 2, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct counts c;
		size_t len;
		uint8_t *p = slurp(files[i].path, &len);

		log_reset();
		assert_int_equal(read_bounded(p, len, &c), 1);
		if (c.rec[TRACE_REC_SAMPLE] != files[i].samples || c.rec[TRACE_REC_MMAP] !=
		    files[i].mmaps || c.rec[TRACE_REC_COMM] != files[i].comms ||
		    c.rec[TRACE_REC_FORK] != files[i].forks || c.events != files[i].events)
			fail_msg("%s: %llu samples %llu mmaps %llu comms %llu forks %llu events",
				 files[i].path, (unsigned long long)c.rec[TRACE_REC_SAMPLE],
				 (unsigned long long)c.rec[TRACE_REC_MMAP],
				 (unsigned long long)c.rec[TRACE_REC_COMM],
				 (unsigned long long)c.rec[TRACE_REC_FORK],
				 (unsigned long long)c.events);
		if (strstr(logcap.last, "skipped"))
			fail_msg("%s: %s", files[i].path, logcap.last);
		/* perf script -F event: 9 page-faults, 9 minor-faults (ID_INDEX regression) */
		if (i == 0 && (c.per_event[0] != 9 || c.per_event[1] != 9 || c.per_event[2]))
			fail_msg("%s: %llu %llu %llu samples per event", files[i].path,
				 (unsigned long long)c.per_event[0], (unsigned long long)c.per_event[1],
				 (unsigned long long)c.per_event[2]);
		free(p);
	}
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Every byte of the file header, the attrs and every header feature section of a real file set
 * to 0xff, 0x00 and flipped in its top bit: the file opens or is refused, never crashes or
 * allocates by a corrupt count (run under ASan by make check), and what comes out stays in
 * bounds. Regression: one byte of MEM_TOPOLOGY made a node number of 2^32 and a 50 GB
 * allocation. Pipe mode: the first 4 KiB (attr, feature and event-update records). */
static void test_perfdata_real_mutations(void **state)
{
	static const char *const paths[] = { "data/perf/sys-2ev.data", "data/perf/pipe.data" };

	(void)state;
	c2c_log_set_hook(capture, NULL);
	for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]); k++) {
		size_t len, nr = 0, opened = 0, sec[64][2], nsec = 0;
		uint8_t *p = slurp(paths[k], &len);

		if (le64(p + 8) == 104) {
			uint64_t doff = le64(p + 40), dsz = le64(p + 48), table = doff + dsz;

			sec[nsec][0] = 0;
			sec[nsec++][1] = 104;
			sec[nsec][0] = le64(p + 24);
			sec[nsec++][1] = le64(p + 32);
			for (unsigned int f = 0; f < 256 && nsec < 64; f++)
				if (le64(p + 72 + 8 * (f / 64)) >> (f % 64) & 1) {
					assert_true(table + 16 <= len);
					sec[nsec][0] = le64(p + table);
					sec[nsec++][1] = le64(p + table + 8);
					table += 16;
				}
		} else {
			sec[nsec][0] = 0;
			sec[nsec++][1] = len < 4096 ? len : 4096;
		}
		for (size_t s = 0; s < nsec; s++)
			for (size_t b = sec[s][0]; b < sec[s][0] + sec[s][1] && b < len; b++) {
				const uint8_t vals[3] = { 0xff, 0x00, (uint8_t)(p[b] ^ 0x80) };
				uint8_t keep = p[b];

				for (int v = 0; v < 3; v++) {
					struct counts c;

					if (v < 2 && vals[v] == keep)
						continue;
					p[b] = vals[v];
					opened += (size_t)read_bounded(p, len, &c);
					nr++;
				}
				p[b] = keep;
			}
		print_message("%s: %zu mutations, %zu opened\n", paths[k], nr, opened);
		assert_true(nr > 1000);
		free(p);
	}
}

/* Every sample field perf can write, in one sample: the ones after the skipped ones still
 * decode right. */
static void test_perfdata_all_fields(void **state)
{
	struct tfile f;
	struct buf o;
	struct got g;
	struct tsample s = { .ip = 1, .pid = 2, .tid = 3, .time = 4, .addr = 5, .cpu = 1,
			     .period = 7, .weight = 8, .dsrc = 9, .phys = 10 };

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	f.attr[0].sample_type = PERF_IP | PERF_TID | PERF_TIME | PERF_ADDR | PERF_ID | PERF_STREAM |
		PERF_CPU | PERF_PERIOD | PERF_CALLCHAIN | PERF_RAW | PERF_BRANCH | PERF_REGS_USER |
		PERF_STACK_USER | PERF_WEIGHT | PERF_DATA_SRC | PERF_TRANSACTION | PERF_REGS_INTR |
		PERF_PHYS | PERF_CGROUP | PERF_DPAGE | PERF_CPAGE | PERF_AUX | PERF_IDENTIFIER;
	rec_sample(&f, 0, &s);
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.ev[0].sample.weight, 8);   /* WEIGHT: the whole u64 */
	assert_int_equal(g.ev[0].sample.data_src, 9);
	assert_int_equal(g.ev[0].sample.phys_addr, 10);
	assert_int_equal(g.ev[0].sample.cpu, 1);
	/* the callchain is read, context marker kept */
	assert_int_equal(g.ev[0].sample.chain_nr, 2);
	assert_true(g.ev[0].sample.chain[0] == 0xffffffff81000000ull);
	assert_int_equal(g.ev[0].sample.chain[1], 1);
	assert_int_equal(logcap.warnings, 0);
	free(o.p);
	free(f.data.p);
}

/* A sampling group {slots, sampler, topdown-retiring, topdown-be-bound}:S with READ. */
static void test_perfdata_topdown(void **state)
{
	static const char *const names[] = { "slots", "cpu/mem-loads/P", "topdown-retiring",
					     "topdown-be-bound" };
	struct tfile f;
	struct buf o;
	struct got g;
	struct tsample s = { .time = 9, .nr_read = 4, .read_vals = { 1000, 5, 400, 300 },
			     .read_ids = { 11, 21, 31, 41 } };
	int a;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	f.nr_attr = 4;
	for (a = 0; a < 4; a++) {
		f.attr[a] = f.attr[0];
		f.attr[a].type = 4;
		f.attr[a].sample_type = PERF_IDENTIFIER | PERF_TIME | PERF_READ | PERF_ADDR;
		f.attr[a].read_format = 8 | 4;
		f.attr[a].ids[0] = (uint64_t)(a + 1) * 10 + 1;
		f.attr[a].nr_ids = 1;
		f.attr[a].name = names[a];
	}
	s.id = 21;
	rec_sample(&f, 1, &s);
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), 0);
	/* delivered to every event of the group, as perf does; the TopDown values go with the
	 * sampling event's delivery only */
	assert_int_equal(g.n, 4);
	for (a = 0; a < 4; a++) {
		assert_int_equal(g.ev[a].sample.event, a);
		assert_int_equal(!!(g.ev[a].sample.flags & TRACE_SAMPLE_TOPDOWN), a == 1);
	}
	assert_int_equal(g.ev[1].sample.td_slots, 1000);
	assert_int_equal(g.ev[1].sample.td_nr, 2);
	assert_int_equal(g.ev[1].sample.td[0], 400);
	assert_int_equal(g.ev[1].sample.td[1], 300);
	free(o.p);
	free(f.data.p);
}

static void test_perfdata_lost_and_unknown(void **state)
{
	struct tfile f;
	struct buf o;
	struct got g;
	struct perfdata_stats st;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	rec_lost(&f, 2, 17, 1);
	rec_lost(&f, 13, 4, 2);
	rec_lost(&f, 5, 0, 3);
	rec_lost(&f, 6, 0, 4);
	rec_empty(&f, 30);     /* unknown kernel type */
	rec_empty(&f, 200);    /* unknown user type */
	rec_empty(&f, 73);     /* THREAD_MAP: known, nothing to deliver */
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, &st), 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.ev[0].lost.kind, TRACE_LOST_RECORDS);
	assert_int_equal(g.ev[0].lost.count, 17);
	assert_int_equal(g.ev[1].lost.kind, TRACE_LOST_SAMPLES);
	assert_int_equal(g.ev[1].lost.count, 4);
	assert_int_equal(g.ev[2].lost.kind, TRACE_LOST_THROTTLE);
	assert_int_equal(g.ev[3].lost.kind, TRACE_LOST_UNTHROTTLE);
	assert_int_equal(st.nr_lost_records, 17);
	assert_int_equal(st.nr_lost_samples, 4);
	assert_int_equal(st.nr_throttle, 1);
	assert_int_equal(st.nr_unknown_records, 2);
	free(o.p);
	free(f.data.p);
}

/* COMPRESSED records: one zstd stream cut into records at arbitrary points. */
/* @src's bytes as one zstd stream, flushed and its frame never ended as perf writes it, cut into
 * @pieces COMPRESSED records appended to @dst. */
static void put_compressed(struct buf *dst, const struct buf *src, size_t pieces)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t cap = ZSTD_compressBound(src->len) + 4096, pos = 0, i;
	uint8_t *out = xmalloc(cap);
	ZSTD_inBuffer in = { src->p, src->len, 0 };
	ZSTD_outBuffer ob = { out, cap, 0 };

	ZSTD_initCStream(cs, 3);
	while (in.pos < in.size)
		ZSTD_compressStream(cs, &ob, &in);
	ZSTD_flushStream(cs, &ob);
	for (i = 1; i <= pieces; i++) {
		size_t cut = ob.pos * i / pieces, at = rec_begin(dst, 81, 0);

		put(dst, out + pos, cut - pos);
		rec_end(dst, at);
		pos = cut;
	}
	ZSTD_freeCStream(cs);
	free(out);
}

static void test_perfdata_compressed(void **state)
{
	struct tfile f, z;
	struct buf o;
	struct got g;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	basic_records(&f);
	tfile_init(&z, 0, 0);
	put_compressed(&z.data, &f.data, 3);
	build(&z, &o);
	read_all(&o, &g, NULL);
	check_basic(&g, __LINE__);
	assert_int_equal(logcap.warnings, 0);
	free(o.p);
	free(f.data.p);
	free(z.data.p);
}

/* --- directory format (perf record --threads) ------------------------------------------------ */

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
	char path[PATH_MAX + 64];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(p, 1, n, fp), n);
	fclose(fp);
}

static void remove_files(const char *dir, const char *const *names)
{
	char path[PATH_MAX + 64];

	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *names);
		unlink(path);
	}
}

/* DIR/data: the header, the attrs, the side-band (COMM at 1, MMAP2 at 2); DIR_FORMAT @version
 * (0: no such feature, as perf record --kcore writes). */
static void write_dir_header(const char *dir, uint64_t version)
{
	struct tfile h;
	struct buf o;

	tfile_init(&h, 0, 0);
	if (version)
		h.feats |= F_DIR;
	h.dir_version = version;
	rec_comm(&h, 7, "app", 1, 0);
	rec_mmap2(&h, 7, 0x400000, "/usr/bin/app", 2);
	build(&h, &o);
	write_file(dir, "data", o.p, o.len);
	free(o.p);
	free(h.data.p);
}

/* @n samples of @tid0 + i at @time0 + i * @step, as raw records, compressed in @pieces records
 * of one zstd stream unless 0. */
static void write_dir_stream(const char *dir, const char *name, uint32_t tid0, uint64_t time0,
			     uint64_t step, int n, size_t pieces)
{
	struct tfile f;
	struct buf z = { 0 };

	tfile_init(&f, 0, 0);
	for (int i = 0; i < n; i++)
		rec_sample(&f, 0, &(struct tsample){ .pid = 7, .tid = tid0 + (uint32_t)i,
						     .time = time0 + (uint64_t)i * step,
						     .ip = 0x401000, .addr = 0x1000 });
	if (pieces)
		put_compressed(&z, &f.data, pieces);
	write_file(dir, name, pieces ? z.p : f.data.p, pieces ? z.len : f.data.len);
	free(z.p);
	free(f.data.p);
}

/* Every record of @path: samples' tids in *tids (up to @cap), the count returned; -1 when the
 * file does not open. */
static int read_dir(const char *path, uint32_t *tids, int cap, int *nr_side)
{
	struct perfdata_reader *r;
	struct trace_event ev;
	int n = 0;

	*nr_side = 0;
	if (perfdata_reader_open(&r, path) < 0)
		return -1;
	while (perfdata_reader_next(r, &ev) == 1) {
		if (ev.type != TRACE_REC_SAMPLE) {
			*nr_side += !n;   /* side-band before the samples */
			continue;
		}
		if (n < cap)
			tids[n] = ev.sample.tid;
		n++;
	}
	perfdata_reader_free(r);
	return n;
}

/* perf record --threads writes a directory: DIR/data with the header, attrs, features and the
 * synthesized side-band, DIR/data.N with the records of each thread's buffers, compressed (-z)
 * as one zstd stream per file. perf reads them all, in turns of 2 MiB per file, and sorts by
 * time; records of equal time keep that reading order. Regression: the directory was refused
 * ("is a directory"). */
static void test_perfdata_directory(void **state)
{
	static const char *const names[] = { "data", "data.0", "data.1", "data.9", "notdata", NULL };
	const char *base = getenv("TMPDIR");
	char dir[PATH_MAX];
	uint32_t tids[8], *big;
	int n, side, z;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_perfdata.XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(dir));
	log_reset();
	/* a directory that is no perf.data */
	assert_int_equal(read_dir(dir, tids, 8, &side), -1);
	assert_non_null(strstr(logcap.last, "is a directory"));

	for (z = 0; z < 2; z++) {
		log_reset();
		write_dir_header(dir, 1);
		write_dir_stream(dir, "data.0", 100, 10, 20, 3, z ? 2 : 0);   /* 10, 30, 50 */
		write_dir_stream(dir, "data.1", 200, 20, 20, 2, z ? 2 : 0);   /* 20, 40 */
		write_file(dir, "data.9", "", 0);
		write_file(dir, "notdata", "x", 1);
		n = read_dir(dir, tids, 8, &side);
		assert_int_equal(n, 5);
		assert_int_equal(side, 2);
		assert_int_equal(tids[0], 100);
		assert_int_equal(tids[1], 200);
		assert_int_equal(tids[2], 101);
		assert_int_equal(tids[3], 201);
		assert_int_equal(tids[4], 102);
		if (logcap.warnings + logcap.errors)
			fail_msg("compressed %d: %s", z, logcap.last);
	}
	/* without DIR_FORMAT (perf record --kcore) DIR/data alone holds the records */
	write_dir_header(dir, 0);
	assert_int_equal(read_dir(dir, tids, 8, &side), 0);
	assert_int_equal(side, 2);
	/* an unknown layout version is refused */
	write_dir_header(dir, 2);
	assert_int_equal(read_dir(dir, tids, 8, &side), -1);
	assert_non_null(strstr(logcap.last, "version 2"));

	/* equal times: 2 MiB of records from one file, then from the other, then the rests */
	enum { N = 30000 };
	write_dir_header(dir, 1);
	write_dir_stream(dir, "data.0", 0, 100, 0, N, 0);
	write_dir_stream(dir, "data.1", 1000000, 100, 0, N, 0);
	unlink(strcat(strcpy((char[PATH_MAX + 16]){ 0 }, dir), "/data.9"));
	big = xmalloc(2 * N * sizeof(*big));
	assert_int_equal(read_dir(dir, big, 2 * N, &side), 2 * N);
	{
		struct tfile f;
		size_t rec;
		int turn, first = big[0] >= 1000000, i;

		tfile_init(&f, 0, 0);
		rec_sample(&f, 0, &(struct tsample){ .time = 1 });
		rec = f.data.len;
		free(f.data.p);
		turn = (int)(((2u << 20) + rec - 1) / rec);
		for (i = 0; i < 2 * N; i++) {
			int from, idx;

			if (i < turn)
				from = first, idx = i;
			else if (i < 2 * turn)
				from = !first, idx = i - turn;
			else if (i < N + turn)
				from = first, idx = i - turn;
			else
				from = !first, idx = i - N;
			if (big[i] != (uint32_t)from * 1000000 + (uint32_t)idx)
				fail_msg("sample %d: tid %u, want %d", i, big[i], from * 1000000 + idx);
		}
	}
	free(big);
	remove_files(dir, names);
	rmdir(dir);
}

static void test_perfdata_missing_features(void **state)
{
	struct tfile f;
	struct buf o;
	struct perfdata_reader *r;
	const struct trace_info *in;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	f.feats = F_NRCPUS | F_UNKNOWN;
	basic_records(&f);
	build(&f, &o);
	assert_int_equal(perfdata_reader_open_mem(&r, o.p, o.len, "t.data"), 0);
	in = perfdata_reader_info(r);
	assert_int_equal(in->nr_nodes, 1);
	assert_int_equal(in->cpu_node[3], 0);
	assert_int_equal(in->nr_mem_ranges, 0);
	assert_string_equal(in->events[0].name, "page-faults");   /* the default name */
	assert_true(logcap.warnings >= 2);
	perfdata_reader_free(r);
	free(o.p);
	free(f.data.p);
}

static void test_perfdata_build_id(void **state)
{
	struct tfile f;
	struct buf o;
	struct got g;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	rec_mmap2(&f, 1, 0x1000, "/usr/lib/libx.so", 5);
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), 0);
	assert_int_equal(g.ev[0].mmap.build_id_size, 20);
	assert_int_equal(g.ev[0].mmap.build_id[19], 0xa0 + 19);
	free(o.p);
	free(f.data.p);
}

/* AUXTRACE of Arm SPE is passed on as a blob, with one warning. */
static void test_perfdata_spe_aux(void **state)
{
	struct tfile f;
	struct buf o;
	struct got g;
	size_t at;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	at = rec_begin(&f.data, 70, 0);
	put32(&f.data, 4);
	put32(&f.data, 0);
	put64(&f.data, 0);
	rec_end(&f.data, at);
	for (int k = 0; k < 2; k++) {
		at = rec_begin(&f.data, 71, 0);
		put64(&f.data, 16);
		put64(&f.data, 4096 * (uint64_t)k);
		put64(&f.data, 0);
		put32(&f.data, 0);
		put32(&f.data, 1);
		put32(&f.data, 3);
		put32(&f.data, 0);
		rec_end(&f.data, at);
		put(&f.data, "0123456789abcdef", 16);
	}
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[1].type, TRACE_REC_BLOB);
	assert_int_equal(g.ev[1].blob.kind, TRACE_BLOB_SPE_AUX);
	assert_int_equal(g.ev[1].blob.size, 16);
	assert_int_equal(g.ev[1].blob.offset, 4096);
	assert_int_equal(g.ev[1].blob.cpu, 3);
	assert_int_equal(logcap.warnings, 1);
	free(o.p);
	free(f.data.p);
}

/* Header fields set to bad values: a one-line error naming the file, or a warning. */
static void test_perfdata_header_mutations(void **state)
{
	static const struct { int line; size_t off; uint64_t val; int rc; int warn; } rows[] = {
		{ __LINE__, 8, 99, -EBADMSG, 0 },                     /* header size */
		{ __LINE__, 16, 0, -EBADMSG, 0 },                     /* attr_size */
		{ __LINE__, 16, 1ull << 40, -EBADMSG, 0 },
		{ __LINE__, 16, 100, -EBADMSG, 0 },                   /* not dividing the section */
		{ __LINE__, 24, 1ull << 62, -EBADMSG, 0 },            /* attrs offset */
		{ __LINE__, 32, 1ull << 62, -EBADMSG, 0 },            /* attrs size */
		{ __LINE__, 32, 0, -EBADMSG, 0 },
		{ __LINE__, 40, 1ull << 62, -EBADMSG, 0 },            /* data offset */
		{ __LINE__, 40, 3, -EBADMSG, 0 },
		/* data size past the end: a warning, then the feature sections are read as records
		 * and the first impossible one stops the reader with an error naming its offset */
		{ __LINE__, 48, 1ull << 40, -EBADMSG, 1 },
		{ __LINE__, 48, 0, -EBADMSG, 1 },                     /* data size 0: the same */
		{ __LINE__, 72, ~0ull, 0, 1 },                        /* every feature bit */
		{ __LINE__, 104, 1ull << 62, -EBADMSG, 0 },           /* ids offset (attr at 120) */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		size_t off = rows[i].off;

		log_reset();
		tfile_init(&f, 0, 0);
		f.attr[0].nr_ids = 0;   /* the attr starts right after the header */
		basic_records(&f);
		build(&f, &o);
		if (off == 104)
			off = 104 + 128;   /* ids section of attr 0 */
		set64(&o, off, rows[i].val);
		read_all(&o, &g, NULL);
		if (g.rc != rows[i].rc)
			fail_msg("line %d: rc %d, want %d", rows[i].line, g.rc, rows[i].rc);
		if (rows[i].rc && (logcap.errors < 1 || !strstr(logcap.last, "'t.data'")))
			fail_msg("line %d: errors %d, last '%s'", rows[i].line, logcap.errors,
				 logcap.last);
		if (rows[i].warn && !logcap.warnings)
			fail_msg("line %d: no warning", rows[i].line);
		free(o.p);
		free(f.data.p);
	}
}

static void test_perfdata_bad_records(void **state)
{
	struct tfile f;
	struct buf o;
	struct got g;

	(void)state;
	log_reset();
	tfile_init(&f, 0, 0);
	basic_records(&f);
	rec_empty(&f, 68);
	set16(&f.data, f.data.len - 2, 0);   /* the last record claims size 0 */
	build(&f, &o);
	assert_int_equal(read_all(&o, &g, NULL), -EBADMSG);
	assert_non_null(strstr(logcap.last, "offset"));
	free(o.p);
	free(f.data.p);
	/* a sample shorter than its sample_type says: skipped with a warning */
	log_reset();
	tfile_init(&f, 0, 0);
	basic_records(&f);
	set16(&f.data, 96 + 4 + 6 - 0, 40);
	build(&f, &o);
	read_all(&o, &g, NULL);
	assert_true(g.rc == 0 || g.rc == -EBADMSG);
	free(o.p);
	free(f.data.p);
}

/* Every prefix of a file (or stream) reads without a crash, as a prefix of the full result. */
static void test_perfdata_truncation(void **state)
{
	static const struct { int swap, pipe; } rows[] = { { 0, 0 }, { 1, 1 }, { 0, 1 } };
	size_t i, cut;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct tfile f;
		struct buf o;
		struct got full, g;

		log_reset();
		tfile_init(&f, rows[i].swap, rows[i].pipe);
		basic_records(&f);
		build(&f, &o);
		read_all(&o, &full, NULL);
		for (cut = 0; cut < o.len; cut++) {
			struct buf p = o;

			p.len = cut;
			read_all(&p, &g, NULL);
			assert_true(g.n <= full.n);
			if (g.rc == 0 && g.n && g.ev[g.n - 1].type == TRACE_REC_SAMPLE)
				assert_int_equal(g.ev[g.n - 1].sample.time,
						 full.ev[g.n - 1].sample.time);
		}
		free(o.p);
		free(f.data.p);
	}
}

/* Every byte set to 0x00, 0xff and 0x80 in turn: no crash, no leak (run under ASan). */
static void test_perfdata_corruption(void **state)
{
	static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x07 };
	struct tfile f;
	struct buf o;
	struct got g;
	size_t i, v;
	int pipe;

	(void)state;
	for (pipe = 0; pipe < 2; pipe++) {
		log_reset();
		tfile_init(&f, 0, pipe);
		f.nr_attr = 2;
		f.attr[0].sample_type |= PERF_IDENTIFIER;
		f.attr[1] = f.attr[0];
		f.attr[1].ids[0] = 5;
		f.attr[1].name = "other";
		basic_records(&f);
		rec_lost(&f, 2, 3, 1);
		build(&f, &o);
		for (i = 0; i < o.len; i++)
			for (v = 0; v < sizeof(vals); v++) {
				uint8_t keep = o.p[i];

				o.p[i] = vals[v];
				read_all(&o, &g, NULL);
				o.p[i] = keep;
			}
		free(o.p);
		free(f.data.p);
	}
}

/* A pipe-mode stream read through a FIFO (the streaming input, as from `perf record -o - |`);
 * a file-mode image through a FIFO is refused with a hint. */
static void test_perfdata_fifo(void **state)
{
	static const struct { int line, swap, pipe, rc; } rows[] = {
		{ __LINE__, 0, 1, 0 }, { __LINE__, 1, 1, 0 }, { __LINE__, 0, 0, -ENOTSUP },
	};
	const char *base = getenv("TMPDIR");
	char dir[PATH_MAX], path[PATH_MAX + 8];
	size_t i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_perfdata.XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tfile f;
		struct buf o;
		struct got g;
		struct perfdata_reader *r;
		pid_t pid;
		int rc, n = 0, st;

		log_reset();
		tfile_init(&f, rows[i].swap, rows[i].pipe);
		basic_records(&f);
		build(&f, &o);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			FILE *w = fopen(path, "wb");

			fwrite(o.p, 1, o.len, w);
			_exit(fclose(w) ? 1 : 0);
		}
		rc = perfdata_reader_open(&r, path);
		if (rc != rows[i].rc)
			fail_msg("line %d: rc %d (%s)", rows[i].line, rc, logcap.last);
		memset(&g, 0, sizeof(g));
		while (rows[i].rc == 0 && (rc = perfdata_reader_next(r, &g.ev[n])) == 1) {
			if (g.ev[n].type == TRACE_REC_MMAP)
				snprintf(g.str[n], 64, "%s", g.ev[n].mmap.filename);
			if (g.ev[n].type == TRACE_REC_COMM)
				snprintf(g.str[n], 64, "%s", g.ev[n].comm.comm);
			n++;
		}
		if (rows[i].rc == 0) {
			g.n = n;
			g.rc = rc;
			check_basic(&g, rows[i].line);
			perfdata_reader_free(r);
		}
		waitpid(pid, &st, 0);
		free(o.p);
		free(f.data.p);
	}
	unlink(path);
	rmdir(dir);
}

static void test_perfdata_not_perfdata(void **state)
{
	static const char junk[] = "C2CTRACE........................";
	struct perfdata_reader *r;

	(void)state;
	log_reset();
	assert_false(perfdata_is_perfdata(junk, sizeof(junk)));
	assert_int_equal(perfdata_reader_open_mem(&r, junk, sizeof(junk), "x.c2c"), -EINVAL);
	assert_non_null(strstr(logcap.last, "'x.c2c'"));
	assert_int_equal(perfdata_reader_open_mem(&r, "PERFFILE12345678", 16, "old"), -ENOTSUP);
	assert_int_equal(perfdata_reader_open_mem(&r, "PERFILE2", 8, "short"), -EBADMSG);
	assert_int_equal(perfdata_reader_open(&r, "/nonexistent/perf.data"), -ENOENT);
	perfdata_reader_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perfdata_modes),
		cmocka_unit_test(test_perfdata_attr_extra_bytes),
		cmocka_unit_test(test_perfdata_ordering),
		cmocka_unit_test(test_perfdata_untimed_now),
		cmocka_unit_test(test_perfdata_multi_event),
		cmocka_unit_test(test_perfdata_synthesized_id0),
		cmocka_unit_test(test_perfdata_id_index),
		cmocka_unit_test(test_perfdata_fork_exec),
		cmocka_unit_test(test_perfdata_sample_read),
		cmocka_unit_test(test_perfdata_real_files),
		cmocka_unit_test(test_perfdata_real_mutations),
		cmocka_unit_test(test_perfdata_all_fields),
		cmocka_unit_test(test_perfdata_topdown),
		cmocka_unit_test(test_perfdata_lost_and_unknown),
		cmocka_unit_test(test_perfdata_compressed),
		cmocka_unit_test(test_perfdata_directory),
		cmocka_unit_test(test_perfdata_missing_features),
		cmocka_unit_test(test_perfdata_build_id),
		cmocka_unit_test(test_perfdata_spe_aux),
		cmocka_unit_test(test_perfdata_header_mutations),
		cmocka_unit_test(test_perfdata_bad_records),
		cmocka_unit_test(test_perfdata_truncation),
		cmocka_unit_test(test_perfdata_corruption),
		cmocka_unit_test(test_perfdata_fifo),
		cmocka_unit_test(test_perfdata_not_perfdata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
