/* c2c-gen: builds synthetic memory-sample scenarios and writes them as a c2c-lite trace and/or as a
 * perf.data file that perf 6.1 reads, from the same events, so `perf c2c report` can serve as the
 * oracle for `c2c-lite report` (tests/e2e/report-diff.sh). Test-only: nothing here is measured.
 *
 *   c2c-gen -s SCENARIO [-n SAMPLES] [--seed N] [--arch ARCH] [-t OUT.c2c] [-p OUT.perf.data]
 *           [--perf TRAITS]
 *   c2c-gen -s spec --spec FILE ...  mappings of real files and sample IPs from FILE (sc_spec())
 *   c2c-gen -l                      list the scenarios
 *
 * Regenerating the demo trace without make (from the repository root):
 *   cc -std=gnu11 -O2 -Iinclude -I. tests/tools/c2c-gen.c tests/tools/gen/perf-writer.c \
 *      lib/[a-z]*.c -lzstd -lz -o /tmp/c2c-gen &&
 *   /tmp/c2c-gen -s falseshare -t data/demo.c2c
 * (or, after `make`, simply: build/tests/tools/c2c-gen -s falseshare -t data/demo.c2c).
 *
 * The perf.data writer is tests/tools/gen/perf-writer.c: without --perf it writes the plain file
 * (one attr carrying loads and stores, as AMD's ibs_op does; no preamble); --perf TRAITS adds what
 * real perf 6.1 recordings hold: two or three events with distinct ids, the mem-loads-aux leader,
 * hybrid PMUs, a dummy tracking event, the side-band perf synthesizes for -a and -p, ID/IDENTIFIER,
 * ID_INDEX, missing CPU/PERIOD/TIME, WEIGHT_STRUCT, old attr sizes, pipe mode and zstd; that
 * file's header names, per trait, the perf writer function it imitates.
 *
 * Earlier versions wrote one attr only: perf 6.1 failed to attribute samples of a second attr
 * ("Can't parse sample, err = -14"). The cause was this writer's file header: 88 bytes reserved
 * for the attrs, data and event_types sections and the feature bitmap, which take 80, so the id
 * arrays began at offset 112 while each attr pointed at 104 + 8 * i: the first attr read id 0 and
 * every other attr the id of the one before it. With two, perf's evlist__event2evsel found no
 * evsel for the second attr's id and evlist__parse_sample returned -EFAULT. */
#include <errno.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "report/aggregate/dsrc.h"
#include "tests/tools/gen/perf-writer.h"
#include "tests/tools/gen/spe-enc.h"

/* --- data_src builders ---------------------------------------------------------------------- */

static uint64_t ds(unsigned op, unsigned lvl, unsigned snoop)
{
	return (uint64_t)op << DSRC_OP_SHIFT | (uint64_t)lvl << DSRC_LVL_SHIFT |
	       (uint64_t)snoop << DSRC_SNOOP_SHIFT | (uint64_t)DSRC_LOCK_NA << DSRC_LOCK_SHIFT |
	       (uint64_t)0x1 << DSRC_TLB_SHIFT;
}

static uint64_t ds_x(uint64_t v, unsigned snoopx, unsigned remote, unsigned hops, unsigned lvlnum)
{
	return v | (uint64_t)snoopx << DSRC_SNOOPX_SHIFT | (uint64_t)remote << DSRC_REMOTE_SHIFT |
	       (uint64_t)hops << DSRC_HOPS_SHIFT | (uint64_t)lvlnum << DSRC_LVLNUM_SHIFT;
}

#define LH (DSRC_LVL_HIT)
static uint64_t DS_L1(void) { return ds(DSRC_OP_LOAD, LH | DSRC_LVL_L1, DSRC_SNOOP_NONE); }
static uint64_t DS_LCL_HITM(void) { return ds(DSRC_OP_LOAD, LH | DSRC_LVL_L3, DSRC_SNOOP_HITM); }
static uint64_t DS_RMT_HITM(void)
{
	return ds_x(ds(DSRC_OP_LOAD, LH | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM), 0, 1, 0, 0);
}
static uint64_t DS_ST_L1HIT(void) { return ds(DSRC_OP_STORE, LH | DSRC_LVL_L1, DSRC_SNOOP_NA); }
static uint64_t DS_ST_L1MISS(void)
{
	return ds(DSRC_OP_STORE, DSRC_LVL_MISS | DSRC_LVL_L1, DSRC_SNOOP_NA);
}

/* Every encoding of c2c-semantics.md Appendix A plus odd cases (used by dsrcall and random). */
static uint64_t enc_table(size_t i)
{
	const uint64_t L = DSRC_OP_LOAD, S = DSRC_OP_STORE;
	uint64_t t[] = {
		ds_x(ds(L, DSRC_LVL_MISS, DSRC_SNOOP_NA), 0, 0, 0, DSRC_LVLNUM_L3),
		ds(L, LH | DSRC_LVL_L1, DSRC_SNOOP_NONE),
		ds(L, LH | DSRC_LVL_LFB, DSRC_SNOOP_NA),
		ds(L, LH | DSRC_LVL_L2, DSRC_SNOOP_NA),
		ds(L, LH | DSRC_LVL_L3, DSRC_SNOOP_NONE),
		ds(L, LH | DSRC_LVL_L3, DSRC_SNOOP_MISS),
		ds(L, LH | DSRC_LVL_L3, DSRC_SNOOP_HIT),
		ds(L, LH | DSRC_LVL_L3, DSRC_SNOOP_HITM),
		ds_x(ds(L, LH | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HIT), 0, 1, 0, 0),
		ds_x(ds(L, LH | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM), 0, 1, 0, 0),
		ds(L, LH | DSRC_LVL_LOC_RAM, DSRC_SNOOP_HIT),
		ds_x(ds(L, LH | DSRC_LVL_REM_RAM1, DSRC_SNOOP_HIT), 0, 1, 0, 0),
		ds(L, LH | DSRC_LVL_LOC_RAM, DSRC_SNOOP_NONE | DSRC_SNOOP_MISS),
		ds_x(ds(L, LH | DSRC_LVL_REM_RAM1, DSRC_SNOOP_NONE | DSRC_SNOOP_MISS), 0, 1, 0, 0),
		ds(L, LH | DSRC_LVL_IO, DSRC_SNOOP_NA),
		ds(L, LH | DSRC_LVL_UNC, DSRC_SNOOP_NA),
		/* Skylake+ */
		ds_x(ds(L, LH, DSRC_SNOOP_HIT), 0, 0, 0, DSRC_LVLNUM_L4),
		ds_x(ds(L, LH, DSRC_SNOOP_HIT), 0, 1, 0, DSRC_LVLNUM_L4),
		ds_x(ds(L, LH, DSRC_SNOOP_NONE), 0, 1, 0, DSRC_LVLNUM_RAM),
		ds_x(ds(L, LH, 0), DSRC_SNOOPX_FWD, 1, 0, DSRC_LVLNUM_ANY_CACHE),
		ds_x(ds(L, LH, DSRC_SNOOP_HITM), 0, 1, 0, DSRC_LVLNUM_ANY_CACHE),
		/* AMD pre-Zen4 local cache, with and without HITM */
		ds(L, LH | DSRC_LVL_L3 | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM),
		ds(L, LH | DSRC_LVL_L3 | DSRC_LVL_REM_CCE1, DSRC_SNOOP_NA),
		ds(L, LH | DSRC_LVL_REM_CCE2, DSRC_SNOOP_NA),
		/* POWER: another core same node (hops 1), remote with hops */
		ds_x(ds(L, LH | DSRC_LVL_L2, DSRC_SNOOP_HITM), 0, 1, 1, 0),
		ds_x(ds(L, LH | DSRC_LVL_L3, DSRC_SNOOP_HITM), 0, 1, 1, 0),
		ds_x(ds(L, LH | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM), 0, 1, 2, 0),
		ds_x(ds(L, LH | DSRC_LVL_REM_RAM2, DSRC_SNOOP_HIT), 0, 1, 3, 0),
		ds(L, DSRC_LVL_MISS | DSRC_LVL_L1, DSRC_SNOOP_NA),
		/* Arm SPE (common) */
		ds_x(ds(L, LH | DSRC_LVL_L2, DSRC_SNOOP_NA), DSRC_SNOOPX_PEER, 0, 0, 0),
		ds_x(ds(L, LH | DSRC_LVL_L3, DSRC_SNOOP_NA), DSRC_SNOOPX_PEER, 0, 0, 0),
		ds_x(ds(L, DSRC_LVL_NA, DSRC_SNOOP_NA), DSRC_SNOOPX_PEER, 1, 0, 0),
		ds(S, DSRC_LVL_NA, DSRC_SNOOP_NA),
		/* stores */
		ds(S, LH | DSRC_LVL_L1, DSRC_SNOOP_NA),
		ds(S, DSRC_LVL_MISS | DSRC_LVL_L1, DSRC_SNOOP_NA),
		ds(S, LH | DSRC_LVL_UNC, DSRC_SNOOP_NA),
		ds(S, LH | DSRC_LVL_L3, DSRC_SNOOP_HITM),
		/* locks, blocks, odd ops */
		ds(L, LH | DSRC_LVL_L1, DSRC_SNOOP_NONE) | (uint64_t)DSRC_LOCK_LOCKED << DSRC_LOCK_SHIFT,
		ds(S, LH | DSRC_LVL_L1, DSRC_SNOOP_NA) | (uint64_t)DSRC_LOCK_LOCKED << DSRC_LOCK_SHIFT,
		ds(L, LH | DSRC_LVL_L2, 0) | (uint64_t)(DSRC_BLK_DATA | DSRC_BLK_ADDR) << DSRC_BLK_SHIFT,
		ds(L | S, LH | DSRC_LVL_L1, DSRC_SNOOP_NONE),
		ds(DSRC_OP_PFETCH, LH | DSRC_LVL_L1, 0),
		ds(DSRC_OP_EXEC, LH | DSRC_LVL_L1, 0),
		DSRC_NONE,
		0,
	};
	return t[i % (sizeof(t) / sizeof(t[0]))];
}
#define ENC_NR 45

/* --- the event list ------------------------------------------------------------------------- */

struct gen {
	struct trace_event *ev;
	size_t nr, cap;
	uint64_t now;
	uint64_t rng;
	struct trace_info info;
	int32_t cpu_node[8];
	struct trace_mem_range ranges[2];
	struct trace_event_desc events[2];
};

static uint64_t rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 2685821657736338717ULL;
}

static struct trace_event *push(struct gen *g, enum trace_rec_type type)
{
	struct trace_event *e;

	g->ev = xgrow(g->ev, &g->cap, g->nr + 1, sizeof(*g->ev));
	e = &g->ev[g->nr++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	g->now += 1000;
	return e;
}

static void g_mmap(struct gen *g, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		   uint32_t prot, uint32_t flags, uint32_t maj, uint32_t min, uint64_t ino,
		   const char *file, uint8_t cpumode)
{
	struct trace_event *e = push(g, TRACE_REC_MMAP);

	e->mmap = (struct trace_mmap){ .time = g->now, .pid = pid, .tid = pid, .start = start,
		.len = len, .pgoff = pgoff, .prot = prot, .flags = flags, .maj = maj, .min = min,
		.ino = ino, .cpumode = cpumode, .filename = file };
}

static void g_comm(struct gen *g, uint32_t pid, uint32_t tid, const char *comm, int exec)
{
	struct trace_event *e = push(g, TRACE_REC_COMM);

	e->comm = (struct trace_comm){ .time = g->now, .pid = pid, .tid = tid, .exec = exec,
				       .comm = comm };
}

static void g_task(struct gen *g, enum trace_rec_type type, uint32_t pid, uint32_t ppid,
		   uint32_t tid, uint32_t ptid)
{
	struct trace_event *e = push(g, type);

	e->task = (struct trace_task){ .time = g->now, .pid = pid, .ppid = ppid, .tid = tid,
				       .ptid = ptid };
}

static void g_lost(struct gen *g, uint32_t kind, uint64_t count)
{
	struct trace_event *e = push(g, TRACE_REC_LOST);

	e->lost = (struct trace_lost){ .time = g->now, .kind = kind, .cpu = 0, .count = count };
}

/* Physical address of a virtual one: node 0 for even pages of the first GB, node 1 above. */
static uint64_t g_phys(uint64_t vaddr, int node)
{
	return (node ? 0x40000000ULL : 0x1000000ULL) + (vaddr & 0xfffffffULL) % 0x30000000ULL;
}

static void g_sample(struct gen *g, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t ip,
		     uint64_t addr, uint64_t dsrc, uint64_t weight, uint8_t cpumode, uint64_t phys)
{
	struct trace_event *e = push(g, TRACE_REC_SAMPLE);
	struct trace_sample *s = &e->sample;
	unsigned op = dsrc_field(dsrc, DSRC_OP_SHIFT, 5);

	s->time = g->now;
	s->ip = ip;
	s->addr = addr;
	s->phys_addr = phys;
	s->weight = weight;
	s->data_src = dsrc;
	s->pid = pid;
	s->tid = tid;
	s->cpu = cpu;
	s->cpumode = cpumode;
	(void)op;
	s->event = 0;   /* the trace has one event; the perf.data writer picks its own */
	s->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_PHYS |
		   TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC;
}

/* --- scenarios ------------------------------------------------------------------------------ */

#define EXE   gen_exe
static const char *gen_exe = "/nonexistent/c2c-gen/bin/fs_demo";   /* --exe replaces it */
#define LIB   "/nonexistent/c2c-gen/lib/libfake.so.1"
#define TEXT  0x400000ULL
#define DATA  0x610000ULL
#define HEAP  0x2000000ULL
#define ANON  0x7f0000000000ULL
#define LIBT  0x7f1000000000ULL
#define SHM   0x7f2000000000ULL
#define KTEXT 0xffffffff81000000ULL

static void g_process(struct gen *g, uint32_t pid, const char *comm)
{
	g_comm(g, pid, pid, comm, 1);
	g_mmap(g, pid, TEXT, 0x10000, 0, 5, 2, 8, 1, 1001, EXE, 2);
	g_mmap(g, pid, DATA, 0x2000, 0x10000, 3, 2, 8, 1, 1001, EXE, 2);
	g_mmap(g, pid, HEAP, 0x100000, 0, 3, 2 | 0x20, 0, 0, 0, "[heap]", 2);
	g_mmap(g, pid, ANON, 0x100000, 0, 3, 2 | 0x20, 0, 0, 0, "//anon", 2);
	g_mmap(g, pid, LIBT, 0x20000, 0, 5, 2, 8, 1, 2002, LIB, 2);
}

static void g_thread(struct gen *g, uint32_t pid, uint32_t tid, const char *comm)
{
	g_task(g, TRACE_REC_FORK, pid, pid, tid, pid);
	g_comm(g, pid, tid, comm, 0);
}

/* Two threads on two nodes write neighbouring counters of one heap line; readers hit it too. */
static void sc_falseshare(struct gen *g, size_t n)
{
	uint64_t line = HEAP + 0x1040, other = HEAP + 0x2000;
	size_t i;

	g_process(g, 4242, "fs_demo");
	g_thread(g, 4242, 4243, "worker-a");
	g_thread(g, 4242, 4244, "worker-b");
	for (i = 0; i < n; i++) {
		uint64_t r = rnd(g) % 100;
		int b = (int)(i & 1);
		uint32_t tid = b ? 4244 : 4243, cpu = b ? 2 + (uint32_t)(rnd(g) & 1) : (uint32_t)(rnd(g) & 1);
		uint64_t addr = line + (b ? 8 : 0), ip = TEXT + 0x1150 + (b ? 0x20 : 0);
		uint64_t w = 80 + rnd(g) % 400;

		if (r < 35)
			g_sample(g, 4242, tid, cpu, ip + 4, addr, DS_ST_L1HIT(), 0, 2, g_phys(addr, 0));
		else if (r < 45)
			g_sample(g, 4242, tid, cpu, ip + 4, addr, DS_ST_L1MISS(), 0, 2, g_phys(addr, 0));
		else if (r < 65)
			g_sample(g, 4242, tid, cpu, ip, addr, DS_LCL_HITM(), w, 2, g_phys(addr, 0));
		else if (r < 80)
			g_sample(g, 4242, tid, cpu, ip, addr, DS_RMT_HITM(), w + 200, 2, g_phys(addr, 0));
		else if (r < 95)
			g_sample(g, 4242, tid, cpu, TEXT + 0x1300, other + (rnd(g) % 8) * 8, DS_L1(),
				 5 + rnd(g) % 10, 2, g_phys(other, 1));
		else
			g_sample(g, 4242, 4242, (uint32_t)(rnd(g) % 4), LIBT + 0x4a0,
				 DATA + 0x100 + (rnd(g) % 4) * 16, DS_LCL_HITM(), 60 + rnd(g) % 40, 2,
				 g_phys(DATA, 0));
	}
}

/* Both threads update the same counter: one offset, HITMs from both nodes. */
static void sc_trueshare(struct gen *g, size_t n)
{
	uint64_t addr = ANON + 0x3000;
	size_t i;

	g_process(g, 5000, "ts_demo");
	g_thread(g, 5000, 5001, "inc-0");
	g_thread(g, 5000, 5002, "inc-1");
	for (i = 0; i < n; i++) {
		int b = (int)(i & 1);
		uint32_t tid = b ? 5002 : 5001, cpu = b ? 3 : 0;
		uint64_t r = rnd(g) % 10;

		if (r < 4)
			g_sample(g, 5000, tid, cpu, TEXT + 0x2010, addr, DS_ST_L1HIT(), 0, 2,
				 g_phys(addr, 1));
		else
			g_sample(g, 5000, tid, cpu, TEXT + 0x200c, addr,
				 b ? DS_RMT_HITM() : DS_LCL_HITM(), 100 + rnd(g) % 300, 2,
				 g_phys(addr, 1));
	}
}

/* The padded control: each counter on its own line, only L1 hits and stores: nothing shared. */
static void sc_padded(struct gen *g, size_t n)
{
	size_t i;

	g_process(g, 6000, "padded");
	g_thread(g, 6000, 6001, "pad-0");
	g_thread(g, 6000, 6002, "pad-1");
	for (i = 0; i < n; i++) {
		int b = (int)(i & 1);
		uint64_t addr = HEAP + 0x4000 + (b ? 64 : 0);

		g_sample(g, 6000, b ? 6002 : 6001, b ? 2 : 0, TEXT + 0x3000 + (uint64_t)b * 8, addr,
			 (rnd(g) & 1) ? DS_ST_L1HIT() : DS_L1(), 3 + rnd(g) % 5, 2, g_phys(addr, 0));
	}
}

/* Every encoding, with addresses, without, unmapped, in kernel mode. */
static void sc_dsrcall(struct gen *g, size_t n)
{
	size_t i;

	g_process(g, 7000, "dsrc");
	for (i = 0; i < n; i++) {
		uint64_t enc = enc_table(i), addr = HEAP + 0x100 * (i % 7) + 8 * (i % 5);
		uint64_t ip = TEXT + 0x100 + 4 * (i % 9);

		if (i % 13 == 5)
			addr = 0;
		else if (i % 17 == 3)
			addr = 0x5000000 + 64 * (i % 3);   /* no map */
		if (i % 19 == 7)
			ip = 0x9000000;                    /* code not mapped */
		g_sample(g, 7000, 7000, (uint32_t)(i % 4), ip, addr, enc, i % 500, 2,
			 addr ? g_phys(addr, (int)(i & 1)) : 0);
	}
}

/* Kernel mode: kernel data in the kernel map, slab addresses outside it, user addresses. */
static void sc_kernel(struct gen *g, size_t n)
{
	size_t i;

	g_mmap(g, UINT32_MAX, KTEXT, 0x2000000, KTEXT, 7, 0, 0, 0, 0, "[kernel.kallsyms]_text", 1);
	g_process(g, 8000, "kwork");
	g_thread(g, 8000, 8001, "kwork-1");
	for (i = 0; i < n; i++) {
		uint64_t r = i % 6, kip = KTEXT + 0x10000 + 0x40 * (i % 3);
		uint32_t tid = (i & 1) ? 8001 : 8000, cpu = (uint32_t)(i % 4);
		uint64_t enc = (i % 3) ? DS_LCL_HITM() : ((i % 5) ? DS_RMT_HITM() : DS_ST_L1HIT());

		if (r == 0)
			g_sample(g, 8000, tid, cpu, kip, KTEXT + 0x1800000 + 8 * (i % 4), enc, 200, 1, 0);
		else if (r == 1)
			g_sample(g, 8000, tid, cpu, kip, 0xffff888012345600ULL + 16 * (i % 3), enc, 150,
				 1, 0x12345600);
		else if (r == 2)
			g_sample(g, 8000, tid, cpu, kip, HEAP + 0x500, enc, 90, 1, g_phys(HEAP, 0));
		else if (r == 3)
			g_sample(g, 8000, tid, cpu, TEXT + 0x500, HEAP + 0x500, enc, 90, 1,
				 g_phys(HEAP, 0));
		else
			g_sample(g, 8000, tid, cpu, TEXT + 0x600, HEAP + 0x500 + 8 * (i % 2), enc, 70,
				 2, g_phys(HEAP, 0));
	}
}

/* Several processes: anon memory (never merged), a private file page (merged by file offset),
 * MAP_SHARED memory (merged), fork/exit and comm changes. */
static void sc_multiproc(struct gen *g, size_t n)
{
	uint32_t pids[3] = { 9000, 9100, 9200 };
	size_t i, p;

	for (p = 0; p < 3; p++) {
		g_process(g, pids[p], p ? "child" : "parent");
		g_mmap(g, pids[p], SHM + p * 0x100000, 0x10000, 0, 3, 1, 0, 0x17, 555,
		       "/dev/shm/c2c-gen-shared", 2);
	}
	/* The data page of the executable sits at another address in process 3. */
	g_mmap(g, pids[2], DATA + 0x100000, 0x2000, 0x10000, 3, 2, 8, 1, 1001, EXE, 2);
	g_task(g, TRACE_REC_FORK, 9300, 9000, 9300, 9000);
	g_comm(g, 9300, 9300, "forked", 0);
	for (i = 0; i < n; i++) {
		size_t k = i % 4;
		uint32_t pid = k == 3 ? 9300 : pids[k], cpu = (uint32_t)(rnd(g) % 4);
		uint64_t base, enc = (rnd(g) % 3) ? DS_LCL_HITM() : DS_RMT_HITM();

		switch (rnd(g) % 4) {
		case 0:
			base = HEAP + 0x800;
			break;
		case 1:
			base = SHM + (k < 3 ? k : 0) * 0x100000 + 0x40;
			break;
		case 2:
			base = (k == 2 ? DATA + 0x100000 : DATA) + 0x80;
			break;
		default:
			base = ANON + 0x40 * (rnd(g) % 3);
			enc = (rnd(g) & 1) ? DS_ST_L1HIT() : enc;
			break;
		}
		g_sample(g, pid, pid, cpu, TEXT + 0x700 + 8 * (rnd(g) % 3), base + 8 * (rnd(g) % 8),
			 enc, 50 + rnd(g) % 500, 2, g_phys(base, (int)(cpu >= 2)));
		if (i == n / 2) {
			g_comm(g, 9100, 9100, "renamed", 1);
			g_task(g, TRACE_REC_EXIT, 9200, 9200, 9200, 9200);
		}
	}
}

/* One physical line seen through three addresses (report --phys): the user thread of process
 * 9500 writes its head at offset 0 of a ring in anonymous memory at ANON, process 9600 writes
 * the tail at offset 32 of its own anonymous mapping at ANON + 0x10000 (the pages are the same:
 * virtually they are two lines of two processes, never merged), and the kernel reads both
 * through its direct map. Every tenth sample carries no physical address. */
#define PHYS_RING 0x5a0000040ULL
static void sc_physshare(struct gen *g, size_t n)
{
	g_process(g, 9500, "producer");
	g_process(g, 9600, "consumer");
	for (size_t i = 0; i < n; i++) {
		uint32_t cpu = (uint32_t)(i % 4);
		uint64_t phys = i % 10 == 9 ? 0 : PHYS_RING;

		switch (i % 3) {
		case 0:
			g_sample(g, 9500, 9500, cpu, TEXT + 0x700, ANON + 0x40, (i % 2) ?
				 DS_ST_L1MISS() : DS_LCL_HITM(), 300, 2, phys);
			break;
		case 1:
			g_sample(g, 9600, 9600, cpu, TEXT + 0x740, ANON + 0x10040 + 32, (i % 2) ?
				 DS_ST_L1MISS() : DS_RMT_HITM(), 400, 2, phys ? phys + 32 : 0);
			break;
		default:
			g_sample(g, 9500, 9500, cpu, KTEXT + 0x2000, 0xffff8885a0000040ULL + 8 *
				 (i % 2), DS_LCL_HITM(), 200, 1, phys ? phys + 8 * (i % 2) : 0);
			break;
		}
	}
}

/* Lost records and throttling around a small false-sharing workload. */
static void sc_lost(struct gen *g, size_t n)
{
	g_lost(g, TRACE_LOST_RECORDS, 17);
	sc_falseshare(g, n / 2);
	g_lost(g, TRACE_LOST_THROTTLE, 1);
	g_lost(g, TRACE_LOST_UNTHROTTLE, 1);
	g_lost(g, TRACE_LOST_SAMPLES, 5);
	sc_trueshare(g, n / 2);
}

/* Random stress: many lines, threads, CPUs and encodings. */
static void sc_random(struct gen *g, size_t n)
{
	uint32_t pids[2] = { 3000, 3100 };
	size_t i, p;

	for (p = 0; p < 2; p++) {
		g_process(g, pids[p], p ? "rnd-b" : "rnd-a");
		g_thread(g, pids[p], pids[p] + 1, "rnd-t1");
		g_thread(g, pids[p], pids[p] + 2, "rnd-t2");
	}
	for (i = 0; i < n; i++) {
		uint32_t pid = pids[rnd(g) & 1], tid = pid + (uint32_t)(rnd(g) % 3);
		uint64_t lines = 40, base = (rnd(g) & 1) ? HEAP : ANON;
		uint64_t addr = base + 64 * (rnd(g) % lines) + (rnd(g) % 64);
		uint64_t enc = (rnd(g) % 3) ? enc_table(rnd(g) % 12 + 1) : enc_table(rnd(g));
		uint64_t ip = (rnd(g) % 10) ? TEXT + 0x100 + 4 * (rnd(g) % 16) : LIBT + 0x40;

		if (rnd(g) % 3 == 0)
			enc = (rnd(g) & 1) ? DS_LCL_HITM() : DS_RMT_HITM();
		if (rnd(g) % 50 == 0)
			addr = 0;
		g_sample(g, pid, tid, (uint32_t)(rnd(g) % 4), ip, addr, enc, rnd(g) % 1000, 2,
			 (rnd(g) % 5) ? g_phys(addr & ~63ULL, (int)(rnd(g) & 1)) : 0);
	}
}

/* Chaos: random data_src bit patterns, cpumodes, kernel/unmapped/zero addresses, huge weights,
 * physical addresses outside every node, and side-band records in the middle of the samples
 * (overlapping mmaps, forks into new processes, thread exits, comm changes). */
static void sc_chaos(struct gen *g, size_t n)
{
	uint32_t pids[4] = { 2000, 2100, 2200, 2300 };
	size_t i, p;

	g_mmap(g, UINT32_MAX, KTEXT, 0x2000000, KTEXT, 7, 0, 0, 0, 0, "[kernel.kallsyms]_text", 1);
	for (p = 0; p < 2; p++) {
		g_process(g, pids[p], p ? "chaos-b" : "chaos-a");
		g_thread(g, pids[p], pids[p] + 1, "chaos-t");
	}
	for (i = 0; i < n; i++) {
		uint64_t r = rnd(g), addr, ip, enc, w, phys;
		uint32_t pid = pids[rnd(g) % 4], tid = pid + (uint32_t)(rnd(g) % 3);
		uint8_t mode = (r % 10) < 7 ? 2 : (r % 10) < 9 ? 1 : 3;

		switch (rnd(g) % 8) {
		case 0: addr = 0; break;
		case 1: addr = KTEXT + 0x1000000 + (rnd(g) % 512) * 8; break;
		case 2: addr = 0x5000000 + (rnd(g) % 256) * 8; break;
		case 3: addr = DATA + (rnd(g) % 0x2000); break;
		case 4: addr = ANON + (rnd(g) % 0x800); break;
		default: addr = HEAP + (rnd(g) % 0x1000); break;
		}
		switch (rnd(g) % 5) {
		case 0: ip = KTEXT + (rnd(g) % 0x100) * 4; break;
		case 1: ip = 0x9000000 + (rnd(g) % 4) * 4; break;
		case 2: ip = LIBT + (rnd(g) % 0x40) * 4; break;
		default: ip = TEXT + (rnd(g) % 0x80) * 4; break;
		}
		enc = (rnd(g) & 1) ? enc_table(rnd(g)) : rnd(g) & 0x3fffffffffffULL;
		w = (rnd(g) % 20 == 0) ? rnd(g) % 4000000000ULL : rnd(g) % 2000;
		phys = (rnd(g) % 6 == 0) ? 0x90000000ULL + (rnd(g) % 64) * 64
		       : (rnd(g) % 4) ? g_phys(addr & ~7ULL, (int)(rnd(g) & 1)) : 0;
		g_sample(g, pid, tid, (uint32_t)(rnd(g) % 4), ip, addr, enc, w, mode, phys);
		switch (rnd(g) % 300) {
		case 0:
			g_mmap(g, pid, HEAP + 0x800, 0x1000, 0, 3, 2, 8, 3, 3003,
			       "/nonexistent/c2c-gen/lib/over.so", 2);
			break;
		case 1: {
			/* A new process (re-)forked from another one; real kernels never fork a
			 * thread into itself or put a child tid in a foreign pid, so neither do we. */
			uint32_t child = pids[2 + (rnd(g) & 1)];

			if (child != pid)
				g_task(g, TRACE_REC_FORK, child, pid, child, pid);
			break;
		}
		case 2:
			g_task(g, TRACE_REC_EXIT, pid, pid, tid, tid);
			break;
		case 3:
			g_comm(g, pid, tid, (rnd(g) & 1) ? "renamed-x" : "y", (int)(rnd(g) & 1));
			break;
		case 4:
			g_task(g, TRACE_REC_FORK, pid, pid, pid + 7, pid);
			break;
		}
	}
}


/* --- scenario from a spec file (--spec): real binaries ------------------------------------- */

/* The spec names mappings of real files and the addresses to sample, so `perf c2c report` and
 * c2c-lite resolve real symbols (tests/e2e/report-diff-symbols.sh). One item a line:
 *   map START LEN PGOFF PROT MAJ MIN INO BUILDID PATH   (numbers in hex; BUILDID hex or "-")
 *   code ADDR [OFF]                                     a sample IP [touching heap line
 *                                                       HEAP+0x1000 at byte OFF]
 *   data ADDR                                           a sampled data address
 * '#' starts a comment. A code line with OFF always samples that heap byte; the others sample
 * the data lines, or without data lines three heap lines. */
#define SPEC_MAX 4096
#define SPEC_MAPS 64

struct spec {
	struct trace_mmap maps[SPEC_MAPS];
	char *paths[SPEC_MAPS];
	size_t nr_maps;
	uint64_t code[SPEC_MAX], data[SPEC_MAX];
	int64_t code_off[SPEC_MAX];      /* heap byte the code line touches, -1: none given */
	size_t nr_code, nr_data;
};

static struct spec gen_spec;
static const char *gen_spec_path;

static int hexbytes(const char *hex, uint8_t *out, size_t max, uint8_t *n)
{
	size_t len = strlen(hex), i;

	*n = 0;
	if (!strcmp(hex, "-"))
		return 0;
	if (len % 2 || len / 2 > max)
		return -EINVAL;
	for (i = 0; i < len / 2; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -EINVAL;
		out[i] = (uint8_t)v;
	}
	*n = (uint8_t)(len / 2);
	return 0;
}

static int spec_line(struct spec *sp, char *line)
{
	unsigned long long a[8];
	char bid[128];
	int pos = 0;
	struct trace_mmap *m;

	if (sscanf(line, "code %llx", &a[0]) == 1) {
		if (sp->nr_code >= SPEC_MAX)
			return -E2BIG;
		sp->code_off[sp->nr_code] = sscanf(line, "code %llx %llx", &a[0], &a[1]) == 2 &&
					    a[1] < 0x100000 - 0x1000 ? (int64_t)a[1] : -1;
		sp->code[sp->nr_code++] = a[0];
		return 0;
	}
	if (sscanf(line, "data %llx", &a[0]) == 1) {
		if (sp->nr_data >= SPEC_MAX)
			return -E2BIG;
		sp->data[sp->nr_data++] = a[0];
		return 0;
	}
	if (sscanf(line, "map %llx %llx %llx %llx %llx %llx %llx %127s %n", &a[0], &a[1], &a[2],
		   &a[3], &a[4], &a[5], &a[6], bid, &pos) != 8 || !pos || !line[pos] ||
	    sp->nr_maps >= SPEC_MAPS)
		return -EINVAL;
	m = &sp->maps[sp->nr_maps];
	*m = (struct trace_mmap){ .start = a[0], .len = a[1], .pgoff = a[2], .prot = (uint32_t)a[3],
		.flags = 2, .maj = (uint32_t)a[4], .min = (uint32_t)a[5], .ino = a[6], .cpumode = 2 };
	if (hexbytes(bid, m->build_id, TRACE_BUILD_ID_MAX, &m->build_id_size))
		return -EINVAL;
	line[strcspn(line, "\n")] = 0;
	sp->paths[sp->nr_maps++] = xstrdup(line + pos);
	return 0;
}

static void spec_free(struct spec *sp)
{
	size_t i;

	for (i = 0; i < sp->nr_maps; i++)
		free(sp->paths[i]);
	sp->nr_maps = 0;
}

static int spec_read(struct spec *sp, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4352];
	int err = 0, no = 0;

	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		no++;
		if (line[strspn(line, " \t")] == '#' || line[strspn(line, " \t\n")] == 0)
			continue;
		err = spec_line(sp, line);
		if (err == -E2BIG)
			fprintf(stderr, "c2c-gen: %s:%d: more than %d code or data lines\n", path, no,
				SPEC_MAX);
		else if (err)
			fprintf(stderr, "c2c-gen: %s:%d: bad spec line (want map/code/data)\n", path,
				no);
		if (err)
			err = -EINVAL;
	}
	fclose(f);
	if (!err && (!sp->nr_maps || !sp->nr_code)) {
		fprintf(stderr, "c2c-gen: %s: needs at least one map and one code line\n", path);
		err = -EINVAL;
	}
	return err;
}

/* Two threads on two nodes run the spec's code addresses against a few lines (the spec's data
 * addresses or heap lines): HITMs, stores and L1 hits, so every line shows up in the report. */
static void sc_spec(struct gen *g, size_t n)
{
	const struct spec *sp = &gen_spec;
	const uint32_t pid = 4400;
	size_t i;

	g_comm(g, pid, pid, "symprog", 1);
	for (i = 0; i < sp->nr_maps; i++) {
		struct trace_event *e = push(g, TRACE_REC_MMAP);

		e->mmap = sp->maps[i];
		e->mmap.time = g->now;
		e->mmap.pid = e->mmap.tid = pid;
		e->mmap.filename = sp->paths[i];
	}
	g_mmap(g, pid, HEAP, 0x100000, 0, 3, 2 | 0x20, 0, 0, 0, "[heap]", 2);
	g_thread(g, pid, pid + 1, "sym-a");
	g_thread(g, pid, pid + 2, "sym-b");
	for (i = 0; i < n; i++) {
		size_t k = (size_t)(rnd(g) % sp->nr_code);
		int b = (int)(i & 1);
		uint32_t tid = pid + 1 + (uint32_t)b, cpu = b ? 2 + (uint32_t)(rnd(g) & 1) : 0;
		uint64_t addr = sp->code_off[k] >= 0 ? HEAP + 0x1000 + (uint64_t)sp->code_off[k]
			       : sp->nr_data ? sp->data[k % sp->nr_data]
			       : HEAP + 0x1000 + 0x40 * (k % 3) + 8 * (uint64_t)b;
		uint64_t r = rnd(g) % 10, w = 50 + rnd(g) % 400, enc;

		enc = r < 3 ? DS_ST_L1HIT() : r < 6 ? DS_LCL_HITM() : r < 8 ? DS_RMT_HITM() : DS_L1();
		g_sample(g, pid, tid, cpu, sp->code[k], addr, enc, r < 3 ? 0 : w, 2,
			 g_phys(addr, b));
	}
}

/* --- Arm SPE scenarios: each sample names the data source packet and events its record carries
 * (trace_sample.detail, SPE_ENC_*), for c2c-gen --perf spe; data_src keeps only load or store. */

static void g_spe(struct gen *g, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t ip,
		  uint64_t addr, int store, uint16_t detail, uint64_t lat)
{
	g_sample(g, pid, tid, cpu, ip, addr, ds(store ? DSRC_OP_STORE : DSRC_OP_LOAD, 0, 0), lat, 2,
		 g_phys(addr, cpu >= 2));
	g->ev[g->nr - 1].sample.detail = (uint16_t)(SPE_ENC_DS | detail);
}

/* False sharing across two clusters (CPUs 0-1 and 2-3): a writer in each writes its own counter
 * of one heap line; its loads find the line in the other cluster (peer cluster), in the other
 * core of its own (peer core), in another socket's cache (remote) or DRAM; a reader on every CPU
 * loads a third field; a well padded control line sees L1 and L2 hits only. */
static void sc_speclusters(struct gen *g, size_t n)
{
	uint64_t line = HEAP + 0x3040, pad = HEAP + 0x5000;
	size_t i;

	g_process(g, 8100, "clusters");
	g_thread(g, 8100, 8101, "writer-0");
	g_thread(g, 8100, 8102, "writer-1");
	g_thread(g, 8100, 8103, "reader");
	for (i = 0; i < n; i++) {
		uint64_t r = rnd(g) % 100, lat = 40 + rnd(g) % 300;
		int w = (int)(i & 1);
		uint32_t tid = w ? 8102 : 8101, cpu = (w ? 2 : 0) + (uint32_t)(rnd(g) & 1);
		uint64_t addr = line + (w ? 8 : 0), ip = TEXT + 0x1400 + (w ? 0x40 : 0);
		uint16_t l1 = SPE_ENC_EV_L1D, miss = SPE_ENC_EV_L1D | SPE_ENC_EV_L1D_MISS;

		if (r < 30)
			g_spe(g, 8100, tid, cpu, ip + 8, addr, 1, l1 | (r & 1 ? SPE_ENC_EV_L1D_MISS : 0),
			      5 + rnd(g) % 20);
		else if (r < 55)
			g_spe(g, 8100, tid, cpu, ip, addr, 0, SPE_ENC_NV_PEER_CLUSTER | miss | SPE_ENC_EV_LLC,
			      lat + 100);
		else if (r < 65)
			g_spe(g, 8100, tid, cpu, ip, addr, 0, SPE_ENC_NV_LOCAL_CLUSTER | miss, lat);
		else if (r < 75)
			g_spe(g, 8100, tid, cpu, ip, addr, 0, SPE_ENC_NV_PEER_CORE | miss, lat / 2);
		else if (r < 80)
			g_spe(g, 8100, tid, cpu, ip, addr, 0, SPE_ENC_NV_REMOTE | miss | SPE_ENC_EV_LLC |
			      SPE_ENC_EV_LLC_MISS | SPE_ENC_EV_REMOTE, lat + 400);
		else if (r < 90)
			g_spe(g, 8100, 8103, (uint32_t)(rnd(g) % 4), TEXT + 0x1500, line + 0x20, 0,
			      (r & 1 ? SPE_ENC_NV_PEER_CLUSTER : SPE_ENC_NV_SYS_CACHE) | miss | SPE_ENC_EV_LLC,
			      lat);
		else
			g_spe(g, 8100, tid, cpu, TEXT + 0x1600, pad + (w ? 64 : 0), (int)(r & 1),
			      (r % 3 ? SPE_ENC_NV_L1D | l1 : SPE_ENC_NV_L2 | miss) |
			      (r % 4 ? SPE_ENC_EV_TLB : SPE_ENC_EV_TLB | SPE_ENC_EV_TLB_MISS), 3 + r % 7);
	}
}

/* Every data source packet value (the eight Neoverse ones and the eight others) with every set
 * of the events perf's generic decoding reads (L1D access/refill, LLC access/miss, remote, TLB
 * access/walk), loads and stores, on a few lines of two threads: run it with --perf
 * spe,midr=... for each MIDR. */
static void sc_spedsrc(struct gen *g, size_t n)
{
	static const uint16_t evs[] = {
		0, SPE_ENC_EV_L1D, SPE_ENC_EV_L1D | SPE_ENC_EV_L1D_MISS,
		SPE_ENC_EV_L1D | SPE_ENC_EV_L1D_MISS | SPE_ENC_EV_LLC,
		SPE_ENC_EV_L1D | SPE_ENC_EV_L1D_MISS | SPE_ENC_EV_LLC | SPE_ENC_EV_LLC_MISS,
		SPE_ENC_EV_LLC_MISS | SPE_ENC_EV_REMOTE, SPE_ENC_EV_L1D | SPE_ENC_EV_REMOTE,
		SPE_ENC_EV_TLB, SPE_ENC_EV_TLB | SPE_ENC_EV_TLB_MISS | SPE_ENC_EV_LLC,
	};
	const size_t nr_ev = sizeof(evs) / sizeof(evs[0]);
	size_t i;

	g_process(g, 8200, "dsrc-spe");
	g_thread(g, 8200, 8201, "dsrc-t");
	for (i = 0; i < n; i++) {
		size_t k = i % (16 * nr_ev * 2);
		uint16_t src = (uint16_t)(k % 16), ev = evs[k / 16 % nr_ev];
		int store = (int)(k / (16 * nr_ev)), t = (int)(i / 7 % 2);
		uint64_t addr = HEAP + 0x6000 + 0x40 * (i % 5) + 8 * (i % 3);

		g_spe(g, 8200, t ? 8201 : 8200, (uint32_t)(i % 4), TEXT + 0x1700 + 4 * (i % 6), addr,
		      store, (uint16_t)(src | ev), 10 + i % 200);
	}
}

struct scenario {
	const char *name;
	void (*fn)(struct gen *g, size_t n);
	size_t n;
	const char *help;
};

static const struct scenario scenarios[] = {
	{ "falseshare", sc_falseshare, 2000, "two threads on two nodes, neighbouring counters" },
	{ "trueshare", sc_trueshare, 1000, "two threads, one counter" },
	{ "padded", sc_padded, 1000, "counters on separate lines: no shared line" },
	{ "dsrcall", sc_dsrcall, 900, "every data_src encoding, no-address and unmapped samples" },
	{ "kernel", sc_kernel, 600, "kernel-mode samples, kernel and slab addresses" },
	{ "multiproc", sc_multiproc, 1600, "processes, anon/private/shared memory, fork, exit" },
	{ "physshare", sc_physshare, 900, "one physical line at two processes' and the kernel's "
	  "addresses (--phys)" },
	{ "lost", sc_lost, 1000, "lost and throttle records around sharing" },
	{ "random", sc_random, 3000, "random stress (use --seed)" },
	{ "chaos", sc_chaos, 3000, "random bits, modes, addresses, mid-stream side-band (--seed)" },
	{ "speclusters", sc_speclusters, 2000, "Arm SPE: false sharing across two clusters "
	  "(--perf spe)" },
	{ "spedsrc", sc_spedsrc, 1152, "Arm SPE: every data source value and event set "
	  "(--perf spe,midr=...)" },
	{ "spec", sc_spec, 2000, "mappings of real files and sample addresses from --spec FILE" },
	{ NULL, NULL, 0, NULL },
};

/* --- callchains (--callchain) -------------------------------------------------------------- */

/* Give every sample a callchain as perf record -g would: the context marker, the sampled ip,
 * then one to three callers that depend on the thread and the sample's place in the run, so
 * each Pareto row has several caller paths with different shares. Kernel samples return into
 * user code: KERNEL, ip, a kernel caller, USER, a user caller. The user callers lie in
 * [TEXT + 0x1120, TEXT + 0x16ec), the .text of a small program (build/examples/false_sharing
 * with --exe, gcc 12 -O1): there the first callers are different addresses of one function
 * (main, from 0x1456), which perf merges, and the others spread over its neighbours. */
static uint64_t *g_callchains(struct gen *g)
{
	uint64_t *all = xcalloc(g->nr * 8, sizeof(*all));

	for (size_t i = 0; i < g->nr; i++) {
		struct trace_sample *s = &g->ev[i].sample;
		uint64_t *c = all + 8 * i, path = (s->tid * 7 + (i / 3) % 5) % 6;
		uint32_t n = 0;

		if (g->ev[i].type != TRACE_REC_SAMPLE)
			continue;
		if (s->cpumode == 1) {
			c[n++] = TRACE_CHAIN_CONTEXT_KERNEL;
			c[n++] = s->ip;
			c[n++] = KTEXT + 0x20000 + path % 2 * 0x100 + 0x18;
			c[n++] = TRACE_CHAIN_CONTEXT_USER;
			c[n++] = TEXT + 0x1460 + path * 0x20 + 0xc;
		} else {
			c[n++] = TRACE_CHAIN_CONTEXT_USER;
			c[n++] = s->ip;
			c[n++] = TEXT + 0x1460 + path * 0x20 + 0xc;
			for (uint64_t k = 0; k < path % 3; k++)
				c[n++] = TEXT + 0x1150 + (path + k) % 4 * 0x58 + 0x11;
		}
		s->chain_nr = n;
		s->chain = c;
	}
	return all;
}

/* --- trace info ----------------------------------------------------------------------------- */

static void g_info(struct gen *g, const char *arch)
{
	int i;

	for (i = 0; i < 4; i++)
		g->cpu_node[i] = i / 2;
	g->ranges[0] = (struct trace_mem_range){ 0, 0x40000000ULL, 0 };
	g->ranges[1] = (struct trace_mem_range){ 0x40000000ULL, 0x80000000ULL, 1 };
	g->events[0] = (struct trace_event_desc){ .name = (char *)"ibs_op//",
		.backend = TRACE_BACKEND_SYNTHETIC, .type = 4, .config = 0, .period = 4000,
		.precise_ip = 0, .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
		PERF_SAMPLE_WEIGHT };
	g->info = (struct trace_info){ .flags = TRACE_INFO_SYNTHETIC, .created_ns = 0,
		.cmdline = (char *)"c2c-gen", .hostname = (char *)"c2c-gen-host",
		.kernel_release = (char *)"6.1.0-synthetic", .arch = (char *)arch,
		.cpu_vendor = (char *)"GenuineIntel", .cpu_family = 6, .cpu_model = 85,
		.cpu_stepping = 4, .cpu_desc = (char *)"Synthetic CPU @ 2.00GHz",
		.pmu_name = (char *)"synthetic", .backend = TRACE_BACKEND_SYNTHETIC,
		.options = (char *)"", .cacheline_size = 64, .nr_cpus = 4, .cpu_node = g->cpu_node,
		.nr_nodes = 2, .nr_events = 1, .events = g->events, .nr_mem_ranges = 2,
		.mem_ranges = g->ranges };
}

/* --region NAME: every thread of the samples enters NAME before its first sample and leaves it
 * after its last; --blob KIND:FILE: FILE's bytes as a blob of KIND at the end (e.g. 16, an AMD
 * uncore summary). Test-only decorations of a scenario's trace. */
static const char *gen_region;
static const char *gen_blob;

static int write_region(struct trace_writer *w, const struct gen *g, uint32_t kind)
{
	int err = 0;

	for (size_t i = 0; i < g->nr && !err; i++) {
		const struct trace_sample *s = &g->ev[i].sample;
		struct trace_event ev = { .type = TRACE_REC_REGION };
		size_t j;

		if (g->ev[i].type != TRACE_REC_SAMPLE)
			continue;
		for (j = 0; j < i; j++)   /* one marker per thread */
			if (g->ev[j].type == TRACE_REC_SAMPLE && g->ev[j].sample.tid == s->tid)
				break;
		if (j < i)
			continue;
		ev.region = (struct trace_region){ .time = s->time ? s->time - 1 : 0, .pid = s->pid,
			.tid = s->tid, .kind = kind, .depth = 1, .name = gen_region };
		for (j = i; kind == TRACE_REGION_END && j < g->nr; j++)   /* after its last */
			if (g->ev[j].type == TRACE_REC_SAMPLE && g->ev[j].sample.tid == s->tid)
				ev.region.time = g->ev[j].sample.time + 1;
		err = trace_write(w, &ev);
	}
	return err;
}

static int write_blob(struct trace_writer *w)
{
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	char *colon = strchr(gen_blob, ':'), *data = NULL;
	size_t len = 0;
	FILE *f = colon ? fopen(colon + 1, "r") : NULL;
	int err;

	if (!f)
		return -EINVAL;
	err = getdelim(&data, &len, 0, f) < 0 ? -EIO : 0;
	fclose(f);
	if (!err) {
		ev.blob = (struct trace_blob){ .kind = (uint32_t)strtoul(gen_blob, NULL, 0),
			.cpu = TRACE_CPU_NONE, .size = strlen(data), .data = data };
		err = trace_write(w, &ev);
	}
	free(data);
	return err;
}

static int write_trace(const struct gen *g, const char *path)
{
	struct trace_writer *w;
	size_t i;
	int err = trace_writer_open(&w, path, &g->info, NULL);

	if (err)
		return err;
	if (gen_region)
		err = write_region(w, g, TRACE_REGION_BEGIN);
	for (i = 0; i < g->nr && !err; i++)
		err = trace_write(w, &g->ev[i]);
	if (!err && gen_region)
		err = write_region(w, g, TRACE_REGION_END);
	if (!err && gen_blob)
		err = write_blob(w);
	if (err) {
		trace_writer_close(w);
		return err;
	}
	return trace_writer_close(w);
}

/* --- main ----------------------------------------------------------------------------------- */

static void usage(FILE *f)
{
	const struct scenario *s;

	fprintf(f, "usage: c2c-gen -s SCENARIO [-n SAMPLES] [--seed N] [--arch ARCH] "
		   "[-t OUT.c2c] [-p OUT.perf.data] [--perf TRAITS] [--exe PATH] [--spec FILE]\n"
		   "       [--callchain] [--region NAME] [--blob KIND:FILE]\n"
		   "(--region: every thread inside region NAME; --blob: FILE as a blob of KIND;\n"
		   " both in the trace only)\n"
		   "(--callchain: samples carry callchains, as perf record -g writes them;\n"
		   " --exe: map this file as the workload's executable instead of a missing one;\n"
		   " --spec: mappings and sample addresses for scenario 'spec', see sc_spec();\n"
		   " --perf: traits of real perf.data files, comma-separated: ls aux hybrid dummy\n"
		   "   init system pids id=identifier|id|none nocpu noperiod weight=plain|struct|none\n"
		   "   attr=N noidall perthread noindex pipe zstd (tests/tools/gen/perf-writer.c))\n"
		   "scenarios:\n");
	for (s = scenarios; s->name; s++)
		fprintf(f, "  %-11s %s (default %zu samples)\n", s->name, s->help, s->n);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "seed", required_argument, NULL, 'S' }, { "arch", required_argument, NULL, 'a' },
		{ "exe", required_argument, NULL, 'e' }, { "spec", required_argument, NULL, 'P' },
		{ "perf", required_argument, NULL, 'F' }, { "help", no_argument, NULL, 'h' },
		{ "callchain", no_argument, NULL, 'g' },
		{ "region", required_argument, NULL, 'R' }, { "blob", required_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *tpath = NULL, *ppath = NULL, *arch = "x86_64";
	const struct scenario *s;
	struct gen g = { .rng = 0x9e3779b97f4a7c15ULL };
	struct pw_opts popts = { 0 };
	long n = -1;
	int c, err = 0, callchain = 0;
	uint64_t *chains = NULL;

	while ((c = getopt_long(argc, argv, "s:n:t:p:lh", lopts, NULL)) != -1) {
		switch (c) {
		case 's': name = optarg; break;
		case 'n': n = strtol(optarg, NULL, 0); break;
		case 't': tpath = optarg; break;
		case 'p': ppath = optarg; break;
		case 'S': g.rng = strtoull(optarg, NULL, 0) * 0x9e3779b97f4a7c15ULL + 1; break;
		case 'a': arch = optarg; break;
		case 'e': gen_exe = optarg; break;
		case 'P': gen_spec_path = optarg; break;
		case 'F':
			if (pw_parse(&popts, optarg))
				return 2;
			break;
		case 'g': callchain = 1; break;
		case 'R': gen_region = optarg; break;
		case 'B': gen_blob = optarg; break;
		case 'l': usage(stdout); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	for (s = scenarios; name && s->name; s++)
		if (!strcmp(s->name, name))
			break;
	if (!name || !s->name || (!tpath && !ppath)) {
		usage(stderr);
		return 2;
	}
	if (s->fn == sc_spec) {
		if (!gen_spec_path) {
			fprintf(stderr, "c2c-gen: scenario 'spec' needs --spec FILE\n");
			return 2;
		}
		err = spec_read(&gen_spec, gen_spec_path);
		if (err) {
			if (err != -EINVAL)
				fprintf(stderr, "c2c-gen: cannot read '%s': %s\n", gen_spec_path,
					strerror(-err));
			spec_free(&gen_spec);
			return 1;
		}
	}
	g_info(&g, arch);
	s->fn(&g, n >= 0 ? (size_t)n : s->n);
	if (callchain) {
		chains = g_callchains(&g);
		popts.callchain = 1;
		g.events[0].sample_type |= PERF_SAMPLE_CALLCHAIN;   /* as record -g describes it */
	}
	if (tpath && (err = write_trace(&g, tpath)))
		fprintf(stderr, "c2c-gen: cannot write '%s': %s\n", tpath, strerror(-err));
	else if (ppath && (err = pw_write(ppath, &g.info, g.ev, g.nr, &popts)))
		fprintf(stderr, "c2c-gen: cannot write '%s': %s\n", ppath, strerror(-err));
	free(g.ev);
	free(chains);
	spec_free(&gen_spec);
	return err ? 1 : 0;
}
