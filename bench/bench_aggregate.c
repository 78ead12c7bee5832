/* bench_aggregate: how fast the cacheline table folds samples, and how much memory it needs.
 *
 *   build/bench/bench_aggregate [-N] [-j N] [-l LINES] [SAMPLES...]
 *
 * Without SAMPLES: 1M and 10M samples over 100000 lines, then 10M over 1000 lines (a table that
 * stays in the caches), each against the target of 20M samples/s on one core.
 *
 * Without -N the table is set up as `c2c-lite report` sets it without -N (no per-node counters);
 * -N keeps per-node counters as `report -N` and the TUI do.
 *
 * Each run feeds synthetic samples through cltab_feed() (map lookups, data_src decoding, line and
 * offset hashing) on one core: about 100k distinct cachelines of a heap, chosen with a skew (u^3:
 * a few hot lines, a long tail), 4 fields per line each touched from 2 code addresses, HITMs, L1 hits and
 * stores, 4 CPUs on 2 nodes. Only the cltab_feed() calls are timed (sample generation is not);
 * cltab_finish() is timed separately. Times are CPU seconds of this process (every thread's,
 * page faults included): the machine may be shared, and CPU time is what a busy neighbour
 * disturbs least; with -j N the wall time of the feed and finish is printed too. Peak RSS is the process's (getrusage), so later runs
 * include earlier ones' high-water mark; run one size per process for exact figures.
 *
 * Without SAMPLES it ends with the two ceilings of one core that bound the rate (the design
 * limit): the same feed over 10 lines, whose table stays in L1 (what the instructions cost
 * alone), and how many random 64-byte lines a second this core updates in a buffer the size of
 * the 100k-line table, prefetched in batches as the table's passes do (what the memory allows:
 * a sample of a large table touches several such lines, each in its own record). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "report/aggregate/cltable.h"
#include "report/resolve/maps.h"

static uint64_t nr_lines = 100000;
/* Samples generated at a time, then fed: 200 KB of events, which stay in the caches as the one
 * event the report's reader decodes into does (read_all()); 64k of them (13 MB) made the bench
 * time reads of its own input from memory (15-20% of the feed's time). */
#define BATCH 1024

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t ds(unsigned op, unsigned lvl, unsigned snoop, unsigned remote)
{
	return (uint64_t)op << DSRC_OP_SHIFT | (uint64_t)lvl << DSRC_LVL_SHIFT |
	       (uint64_t)snoop << DSRC_SNOOP_SHIFT | (uint64_t)remote << DSRC_REMOTE_SHIFT;
}

/* store L1 hit, load L1 hit, local HITM, remote HITM */
static uint64_t encoding(uint64_t r)
{
	switch (r % 4) {
	case 0:
		return ds(DSRC_OP_STORE, DSRC_LVL_HIT | DSRC_LVL_L1, DSRC_SNOOP_NA, 0);
	case 1:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L1, DSRC_SNOOP_NONE, 0);
	case 2:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_L3, DSRC_SNOOP_HITM, 0);
	default:
		return ds(DSRC_OP_LOAD, DSRC_LVL_HIT | DSRC_LVL_REM_CCE1, DSRC_SNOOP_HITM, 1);
	}
}

static void fill(struct trace_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double u = (double)(rnd() >> 11) / 9007199254740992.0;
		uint64_t line = (uint64_t)((double)nr_lines * u * u * u), r = rnd();
		struct trace_sample *s = &ev[i].sample;

		ev[i].type = TRACE_REC_SAMPLE;
		s->addr = 0x10000000ULL + line * 64 + (r % 4) * 16;
		/* each field is touched by two code sites of a handful per line */
		s->ip = 0x401000 + ((line * 7 + r % 4) % 64) * 16 + ((r >> 8) & 1) * 4;
		s->data_src = encoding(r >> 16);
		s->weight = 50 + (r >> 24) % 400;
		s->phys_addr = 0x100000 + line * 64;
		s->pid = 1000;
		s->tid = 1000 + (uint32_t)((r >> 40) % 4);
		s->cpu = (uint32_t)((r >> 44) % 4);
		s->cpumode = 2;
		s->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_PHYS |
			   TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC;
	}
}

static void setup(struct maps *m)
{
	struct trace_mmap text = { .pid = 1000, .tid = 1000, .start = 0x400000, .len = 0x10000,
				   .prot = 5, .flags = 2, .maj = 8, .min = 1, .ino = 42,
				   .cpumode = 2, .filename = "/usr/bin/bench" };
	struct trace_mmap heap = { .pid = 1000, .tid = 1000, .start = 0x10000000,
				   .len = 0x10000000, .prot = 3, .flags = 2, .cpumode = 2,
				   .filename = "[heap]" };

	maps_mmap(m, &text);
	maps_mmap(m, &heap);
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static int node_stats;
static unsigned jobs = 1;
static size_t last_rss;   /* peak RSS after the last run(), bytes */

static void run(size_t nr)
{
	static const int32_t cpu_node[4] = { 0, 0, 1, 1 };
	static const struct trace_mem_range ranges[2] = { { 0, 1ULL << 32, 0 },
							  { 1ULL << 32, 1ULL << 33, 1 } };
	struct cltab_opts o = { .cl_size = 64, .nr_cpus = 4, .cpu_node = cpu_node, .nr_nodes = 2,
				.mem_ranges = ranges, .nr_mem_ranges = 2,
				.no_node_stats = !node_stats, .jobs = jobs };
	struct trace_event *ev = calloc(BATCH, sizeof(*ev));
	struct cltab *t = cltab_new(&o);
	struct maps *m = maps_new();
	double feed = 0, wfeed = 0, t0, w0, fin, wfin;
	struct rusage ru;
	size_t done = 0, i, n, shown;

	if (!ev)
		abort();
	setup(m);
	while (done < nr) {
		n = nr - done < BATCH ? nr - done : BATCH;
		fill(ev, n);
		t0 = cpu();
		w0 = now();
		for (i = 0; i < n; i++)
			cltab_feed(t, m, &ev[i]);
		feed += cpu() - t0;
		wfeed += now() - w0;
		done += n;
	}
	t0 = cpu();
	w0 = now();
	cltab_finish(t);
	fin = cpu() - t0;
	wfin = now() - w0;
	cltab_lines(t, &shown);
	getrusage(RUSAGE_SELF, &ru);
	last_rss = (size_t)ru.ru_maxrss * 1024;
	printf("%10zu samples over %llu lines%s, -j %u: aggregate %.3f cpu s (%.2f M samples/s of "
	       "cpu, %.2fx the target of 20; wall %.3f s), finish %.3f cpu s (wall %.3f s), %zu lines "
	       "(%zu shown), %zu offset entries, peak RSS %.1f MiB\n", nr,
	       (unsigned long long)nr_lines, node_stats ? " (-N)" : "", jobs, feed,
	       (double)nr / feed / 1e6, (double)nr / feed / 20e6, wfeed, fin, wfin,
	       cltab_nr_lines(t), shown, cltab_nr_offsets(t), (double)ru.ru_maxrss / 1024.0);
	cltab_free(t);
	maps_free(m);
	free(ev);
}

/* Random 64-byte line updates a second in @bytes of huge-page-backed memory, in batches of 32
 * prefetched before they are updated (cltab_flush_from()'s passes). */
static void mem_rate(size_t bytes)
{
	const size_t huge = (size_t)2 << 20, nr = 20000000;
	size_t len = (bytes + huge - 1) / huge * huge, lines = len / 64, i, k, at[32];
	const size_t batch = sizeof(at) / sizeof(at[0]);
	unsigned char *m = mmap(NULL, len + huge, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p;
	double t0, dt;

	if (m == MAP_FAILED) {
		perror("bench_aggregate: mmap");
		return;
	}
	p = (unsigned char *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
	madvise(p, len, MADV_HUGEPAGE);
	memset(p, 1, len);
	t0 = cpu();
	for (k = 0; k < nr; k += batch) {
		for (i = 0; i < batch; i++) {
			at[i] = (size_t)(rnd() % lines) * 64;
			__builtin_prefetch(p + at[i], 1);
		}
		for (i = 0; i < batch; i++)
			p[at[i]]++;
	}
	dt = cpu() - t0;
	printf("%10zu random 64-byte line updates in %.0f MiB (the 100k-line table's peak RSS): "
	       "%.1f M lines/s of cpu, %.1f ns each; 20M samples/s leaves %.1f of them a sample\n",
	       nr, (double)len / (1 << 20), (double)nr / dt / 1e6, dt / (double)nr * 1e9,
	       50.0 / (dt / (double)nr * 1e9));
	munmap(m, len + huge);
}

int main(int argc, char **argv)
{
	int i;

	for (;;) {
		if (argc > 1 && !strcmp(argv[1], "-N")) {
			node_stats = 1;
			argc--;
			argv++;
		} else if (argc > 2 && !strcmp(argv[1], "-l")) {
			nr_lines = strtoull(argv[2], NULL, 0);
			if (nr_lines < 1 || nr_lines > 1ULL << 32) {
				fprintf(stderr, "bench_aggregate: -l takes 1 to 2^32\n");
				return 2;
			}
			argc -= 2;
			argv += 2;
		} else if (argc > 2 && !strcmp(argv[1], "-j")) {
			jobs = (unsigned)strtoul(argv[2], NULL, 0);
			if (jobs < 1 || jobs > 256) {
				fprintf(stderr, "bench_aggregate: -j takes 1 to 256\n");
				return 2;
			}
			argc -= 2;
			argv += 2;
		} else {
			break;
		}
	}
	if (argc < 2) {
		size_t big;

		run(1000000);
		run(10000000);
		big = last_rss;
		nr_lines = 1000;
		run(10000000);
		printf("ceilings of this core (the design limit of one thread):\n");
		nr_lines = 10;
		run(10000000);
		mem_rate(big);
		return 0;
	}
	for (i = 1; i < argc; i++)
		run((size_t)strtoull(argv[i], NULL, 0));
	return 0;
}
