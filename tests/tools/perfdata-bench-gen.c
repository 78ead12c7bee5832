/* perfdata-bench-gen: writes a large synthetic perf.data for bench/bench_perf.sh, streaming (the
 * memory used does not grow with the sample count).
 *
 *   perfdata-bench-gen -n SAMPLES [-l LINES] [--seed N] [-R] -o OUT.data
 *
 * -R writes no FINISHED_ROUND records (as a perf.data that must be sorted whole).
 *
 * One ibs_op-style event carries loads and stores (sample_type IP|TID|TIME|ADDR|CPU|PERIOD|
 * WEIGHT_STRUCT|DATA_SRC|PHYS_ADDR, sample_id_all); LINES distinct cachelines (default 100000)
 * drawn with a skew (line = LINES * u^3: a few hot lines, a long tail); 8 threads on 4 CPUs in two
 * NUMA nodes; records of two CPUs interleaved with overlapping times inside each round, as ring
 * buffers deliver them, with FINISHED_ROUND every 4096 samples. Features: HOSTNAME, OSRELEASE,
 * VERSION, ARCH, NRCPUS, CPUID, EVENT_DESC, NUMA_TOPOLOGY, MEM_TOPOLOGY (what perf c2c needs). */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST  (0x1 | 0x2 | 0x4 | 0x8 | 0x80 | 0x100 | 0x8000 | 0x80000 | 0x1000000)
#define ID0 4001

static FILE *out;
static uint64_t written;
static int no_rounds;

static void put(const void *p, size_t n)
{
	if (fwrite(p, 1, n, out) != n) {
		perror("perfdata-bench-gen: write");
		exit(1);
	}
	written += n;
}

static void p32(uint32_t v) { put(&v, 4); }
static void p64(uint64_t v) { put(&v, 8); }

static void pzero(size_t n)
{
	static const uint8_t z[128];

	for (; n > sizeof(z); n -= sizeof(z))
		put(z, sizeof(z));
	put(z, n);
}

static void pstr(const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) / 64 * 64;

	p32((uint32_t)len);
	put(s, n);
	pzero(len - n);
}

static void hdr(uint32_t type, uint16_t misc, uint16_t size)
{
	p32(type);
	put(&misc, 2);
	put(&size, 2);
}

static void attr(void)
{
	p32(4);           /* type: a raw PMU, as ibs_op */
	p32(128);
	p64(0);           /* config */
	p64(4000);        /* period */
	p64(ST);
	p64(0);
	p64((1ull << 18) | (1ull << 23) | (2ull << 15));   /* sample_id_all, mmap2, precise 2 */
	pzero(128 - 48);
}

static void trailer(uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	p32(pid);
	p32(tid);
	p64(time);
	p32(cpu);
	p32(0);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void mmap2(uint64_t start, uint64_t len, uint32_t prot)
{
	hdr(10, 2, 8 + 64 + 8 + 24);
	p32(1000);
	p32(1000);
	p64(start);
	p64(len);
	p64(0);
	p32(0);
	p32(0);
	p64(0);
	p64(0);
	p32(prot);
	p32(2 | 0x20);   /* MAP_PRIVATE | MAP_ANONYMOUS */
	put("//anon\0\0", 8);
	trailer(1000, 1000, 0, 0);
}

static void side_band(void)
{
	int t;

	mmap2(0x7f0000000000ull, 1ull << 30, 3);   /* the data */
	mmap2(0x400000, 0x10000, 5);               /* the code: anonymous too, so nothing to read */
	for (t = 0; t < 8; t++) {
		hdr(3, 0, 8 + 8 + 8 + 24);   /* COMM */
		p32(1000);
		p32(1000 + (uint32_t)t);
		put("bench\0\0\0", 8);
		trailer(1000, 1000 + (uint32_t)t, 0, 0);
	}
}

/* One sample; loads hit in L1, LFB, L3 or HITM, stores hit or miss L1. */
static void sample(uint64_t *seed, uint64_t lines, uint64_t time, uint32_t cpu)
{
	static const uint64_t dsrc[] = {
		0x2 | (0x0aull << 5) | (0x02ull << 19) | (1ull << 33),     /* load L1 hit */
		0x2 | (0x12ull << 5) | (0x02ull << 19) | (1ull << 33),     /* load LFB */
		0x2 | (0x42ull << 5) | (0x04ull << 19) | (3ull << 33),     /* load L3 hit, snoop hit */
		0x2 | (0x42ull << 5) | (0x10ull << 19) | (3ull << 33),     /* load L3 HITM */
		0x4 | (0x0aull << 5) | (1ull << 33),                       /* store L1 hit */
		0x4 | (0x0cull << 5) | (1ull << 33),                       /* store L1 miss */
	};
	uint64_t r = rnd(seed), u = r & 0xffffff;
	uint64_t line = lines * (u * u / 0x1000000 * u / 0x1000000) / 0x1000000;
	uint64_t addr = 0x7f0000000000ull + line * 64 + ((r >> 24) & 7) * 8;
	uint32_t tid = 1000 + (uint32_t)((r >> 27) & 7);

	hdr(9, 2, 8 + 72);
	p64(0x401000 + ((r >> 30) & 63) * 16);
	p32(1000);
	p32(tid);
	p64(time);
	p64(addr);
	p32(cpu);
	p32(0);
	p64(4000);
	p64(30 + ((r >> 36) & 255));
	p64(dsrc[(r >> 44) % 6]);
	p64(0x100000000ull + line * 64);
}

static void data(uint64_t n, uint64_t lines, uint64_t seed)
{
	uint64_t i = 0, t = 1000000, round = 4096;

	side_band();
	if (!no_rounds)
		hdr(68, 0, 8);
	while (i < n) {
		uint64_t k, m = n - i < round ? n - i : round;

		/* two CPU buffers, each in order, written one after the other */
		for (k = 0; k < m; k += 2)
			sample(&seed, lines, t + k * 10, (uint32_t)(k / 2 % 2));
		for (k = 1; k < m; k += 2)
			sample(&seed, lines, t + k * 10, 2 + (uint32_t)(k / 2 % 2));
		t += m * 10;
		i += m;
		if (!no_rounds)
			hdr(68, 0, 8);
	}
}

static void features(uint64_t table)
{
	static const int bits[] = { 3, 4, 5, 6, 7, 9, 12, 14, 22 };
	uint64_t off[9], size[9];
	int i;

	pzero(16 * 9);
	for (i = 0; i < 9; i++) {
		off[i] = written;
		switch (bits[i]) {
		case 3: pstr("bench-host"); break;
		case 4: pstr("6.1.0-bench"); break;
		case 5: pstr("6.1.0"); break;
		case 6: pstr("x86_64"); break;
		case 7: p32(4); p32(4); break;
		case 9: pstr("AuthenticAMD,25,1,1"); break;
		case 12:
			p32(1); p32(128); attr(); p32(1); pstr("ibs_op//"); p64(ID0);
			break;
		case 14:
			p32(2);
			p32(0); p64(1 << 20); p64(1 << 19); pstr("0-1");
			p32(1); p64(1 << 20); p64(1 << 19); pstr("2-3");
			break;
		case 22:   /* 2 nodes of 8 GiB in 128 MiB blocks */
			p64(1); p64(1 << 27); p64(2);
			p64(0); p64(128); p64(128); p64(~0ull); p64(0);
			p64(1); p64(128); p64(128); p64(0); p64(~0ull);
			break;
		}
		size[i] = written - off[i];
	}
	if (fseek(out, (long)table, SEEK_SET))
		exit(1);
	for (i = 0; i < 9; i++) {
		p64(off[i]);
		p64(size[i]);
	}
}

int main(int argc, char **argv)
{
	static const struct option lo[] = { { "seed", required_argument, NULL, 's' }, { 0 } };
	uint64_t n = 1000000, lines = 100000, seed = 88172645463325252ull, data_off, table;
	const char *path = NULL;
	uint64_t fbits = (1ull << 3) | (1ull << 4) | (1ull << 5) | (1ull << 6) | (1ull << 7) |
			 (1ull << 9) | (1ull << 12) | (1ull << 14) | (1ull << 22);
	int c;

	while ((c = getopt_long(argc, argv, "n:l:o:R", lo, NULL)) != -1) {
		switch (c) {
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'l': lines = strtoull(optarg, NULL, 0); break;
		case 'o': path = optarg; break;
		case 'R': no_rounds = 1; break;
		case 's': seed = strtoull(optarg, NULL, 0) | 1; break;
		default: path = NULL; optind = argc;
		}
	}
	if (!path || !lines) {
		fprintf(stderr, "usage: perfdata-bench-gen -n SAMPLES [-l LINES] [--seed N] -o OUT\n");
		return 2;
	}
	out = fopen(path, "wb");
	if (!out) {
		perror(path);
		return 1;
	}
	put("PERFILE2", 8);
	p64(104);
	p64(144);
	p64(104 + 8);    /* attrs after the one id */
	p64(144);
	data_off = 104 + 8 + 144;
	p64(data_off);
	p64(0);          /* data size: patched below */
	p64(0);
	p64(0);
	p64(fbits);
	pzero(24);
	p64(ID0);
	attr();
	p64(104);
	p64(8);
	data(n, lines, seed);
	table = written;
	features(table);
	if (fseek(out, 48, SEEK_SET))
		return 1;
	p64(table - data_off);
	if (fclose(out)) {
		perror(path);
		return 1;
	}
	return 0;
}
