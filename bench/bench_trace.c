/* Trace format benchmark: size per sample and write/read throughput on a synthetic stream shaped
 * like a typical c2c recording (a few threads on a few CPUs, microsecond time deltas, a few hundred
 * code addresses, data addresses in a few hundred cachelines, a handful of data_src values, small
 * weights, phys_addr on half the samples). The stream comes from a fixed seed, so figures compare
 * across builds. Fields are drawn independently (no ip/address correlation), which is the harder
 * case for the encoder than real traces.
 *
 *   bench_trace            1M samples
 *   bench_trace 10000000   10M samples */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "c2c/trace.h"
#include "c2c/xalloc.h"

#define NR_IPS    300
#define NR_LINES  300
#define NR_DSRC   5
#define NR_TIDS   4
#define NR_CPUS   4

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* CPU time of this process: the machine running the benchmark may be shared, and throughput
 * per CPU-second is what the format costs. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct model {
	uint64_t ip[NR_IPS], line[NR_LINES], dsrc[NR_DSRC];
	uint32_t tid_cpu[NR_TIDS];
};

static void model_init(struct model *m, uint64_t *s)
{
	static const uint64_t dsrc[NR_DSRC] = {
		0x68100142ull, 0x68100242ull, 0x68100842ull, 0x6a100142ull, 0x29080144ull,
	};

	for (int i = 0; i < NR_IPS; i++)
		m->ip[i] = 0x401000 + rnd(s) % 0x40000;
	for (int i = 0; i < NR_LINES; i++)  /* a few heap regions */
		m->line[i] = 0x55d0c0a00000ull + (rnd(s) % 4) * 0x100000 + (rnd(s) % 4096) * 64;
	memcpy(m->dsrc, dsrc, sizeof(dsrc));
	for (int i = 0; i < NR_TIDS; i++)
		m->tid_cpu[i] = i % NR_CPUS;
}

static void gen_sample(struct model *m, uint64_t *s, uint64_t *t, struct trace_sample *x)
{
	uint64_t r = rnd(s), r2 = rnd(s);
	unsigned th = r % NR_TIDS;

	memset(x, 0, sizeof(*x));
	*t += 200 + r2 % 4800;                         /* 0.2 to 5 us */
	if ((r2 >> 20) % 1000 == 0)                    /* rare migration */
		m->tid_cpu[th] = (r2 >> 32) % NR_CPUS;
	x->time = *t;
	x->pid = 4242;
	x->tid = 4242 + th;
	x->cpu = m->tid_cpu[th];
	x->ip = m->ip[(r >> 8) % NR_IPS];
	x->addr = m->line[(r >> 20) % NR_LINES] + ((r >> 32) % 8) * 8;
	x->weight = 30 + (r >> 40) % 90;               /* mostly L1/L2/LFB latencies */
	if ((r >> 48) % 8 == 0)
		x->weight += 100 + (r >> 52) % 300;    /* some misses */
	x->data_src = m->dsrc[(r >> 56) % NR_DSRC];
	x->cpumode = 2;
	x->flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_WEIGHT |
		   TRACE_SAMPLE_HAS_DSRC;
	if (r2 & (1ull << 63)) {
		x->flags |= TRACE_SAMPLE_HAS_PHYS;
		x->phys_addr = 0x1c0000000ull + ((x->addr >> 12) * 0x9e37 % 0x100000) * 4096 +
			       (x->addr & 4095);
	}
}

static int write_trace(const char *path, size_t n, int level, double *secs, uint64_t *bytes)
{
	struct trace_info info = { .arch = (char *)"x86_64", .backend = TRACE_BACKEND_SYNTHETIC,
				   .flags = TRACE_INFO_SYNTHETIC, .cacheline_size = 64 };
	struct trace_writer_opts o = { .zstd_level = level };
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_writer *w;
	uint64_t s = 0x5eed, t = 1000000000;
	struct model m;
	double t0;
	int err;

	model_init(&m, &s);
	t0 = now();
	err = trace_writer_open(&w, path, &info, &o);
	for (size_t i = 0; i < n && !err; i++) {
		gen_sample(&m, &s, &t, &ev.sample);
		err = trace_write(w, &ev);
	}
	*bytes = w ? trace_writer_bytes(w) : 0;
	err = err ? err : trace_writer_close(w);
	*secs = now() - t0;
	return err;
}

static int read_trace(const char *path, size_t want, double *secs)
{
	struct trace_reader *r;
	struct trace_event ev;
	uint64_t sum = 0, n = 0;
	double t0 = now();
	int rc = trace_reader_open(&r, path);

	if (rc)
		return rc;
	while ((rc = trace_reader_next(r, &ev)) == 1) {
		sum += ev.sample.addr ^ ev.sample.ip;
		n++;
	}
	trace_reader_free(r);
	*secs = now() - t0;
	if (rc == 0 && n != want)
		rc = -EBADMSG;
	return rc < 0 ? rc : (int)(sum & 0);
}

static double gen_only(size_t n)
{
	struct trace_sample x;
	uint64_t s = 0x5eed, t = 0, sink = 0;
	struct model m;
	double t0 = now();

	model_init(&m, &s);
	for (size_t i = 0; i < n; i++) {
		gen_sample(&m, &s, &t, &x);
		sink += x.addr;
	}
	return now() - t0 + (double)(sink & 0);
}

static int run(const char *dir, size_t n, int level)
{
	char *path = xasprintf("%s/bench%d.trace", dir, level);
	double ws, rs, gs = gen_only(n);
	uint64_t bytes;
	struct stat st;
	int err = write_trace(path, n, level, &ws, &bytes);

	if (!err)
		err = read_trace(path, n, &rs);
	if (!err && stat(path, &st))
		err = -errno;
	if (!err) {
		printf("trace: %zu samples, %lld bytes, %.2f bytes/sample (%s%.0d)\n", n,
		       (long long)st.st_size, (double)st.st_size / n,
		       level ? "zstd level " : "uncompressed", level);
		printf("trace: write %.1fM samples/s (%.2f CPU s, generation excluded), "
		       "read %.1fM samples/s (%.2f CPU s)\n", n / (ws - gs) / 1e6, ws - gs,
		       n / rs / 1e6, rs);
	}
	unlink(path);
	free(path);
	return err;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000;
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/bench_trace.XXXXXX", base && *base ? base : "/tmp");
	int err;

	if (!n || !mkdtemp(dir)) {
		fprintf(stderr, "usage: bench_trace [SAMPLES] (and a writable TMPDIR)\n");
		return 2;
	}
	err = run(dir, n, 0);
	if (!err)
		err = run(dir, n, 3);
	rmdir(dir);
	free(dir);
	if (err)
		fprintf(stderr, "bench_trace: %s\n", strerror(-err));
	return err ? 1 : 0;
}
