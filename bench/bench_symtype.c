/* Data-type profiling throughput: sym_data_type() over every memory instruction of a program.
 *
 * Decodes the .text of an ELF file (default: this benchmark itself, built -O2 -g with the
 * project's flags and linked with libc2c.a, so thousands of real functions) with capstone, maps
 * it as the kernel would a PIE, then times the first lookup of each memory instruction (decode,
 * DWARF scopes, locations, register tracking) and 10 rounds of repeats (cache hits). Prints the
 * share named, lookups per second and the reasons of the rest. Then, in a fresh session, times
 * sym_data_type_back(next, 1) for each memory instruction, "next" being the instruction after
 * it (the soft backend's usual case), and counts the answers that differ from the direct
 * lookup's (expected only where the next instruction starts another function); asserts nothing.
 * Usage: bench_symtype [ELF-file]; BENCH_SYMTYPE_LIST=1 lists every lookup on stderr
 * (address relative to the first mapping, member, reason). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#define SYMTEST_NO_CMOCKA  /* only the mapping and decoding helpers, no cmocka */
#include "tests/symprogs/symtest.h"

#define BASE 0x555555554000ull

struct prog {
	struct trace_mmap map[MAX_MAPS];
	int nr_map;
	struct symtest_insns mem;  /* memory instructions, and the address after each */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Mappings and memory instructions of @path; -1 when it is no x86-64 ELF file with .text. */
static int load(struct prog *p, const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	GElf_Ehdr eh;
	size_t n, shstr;
	uint64_t base;

	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    elf_getphdrnum(elf, &n) || elf_getshdrstrndx(elf, &shstr)) {
		fprintf(stderr, "bench_symtype: '%s' is no x86-64 ELF file\n", path);
		return -1;
	}
	base = eh.e_type == ET_DYN ? BASE : 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD && p->nr_map < MAX_MAPS)
			symtest_load_map(&p->map[p->nr_map++], &ph, base, path);
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstr, sh.sh_name)) &&
		    !strcmp(name, ".text") && (d = elf_getdata(scn, NULL)) && d->d_buf)
			symtest_mem_insns(&p->mem, d->d_buf, d->d_size, sh.sh_addr, base);
	}
	elf_end(elf);
	close(fd);
	return p->mem.nr ? 0 : -1;
}

/* Counts per reason of the unnamed lookups (reasons are session strings: equal by pointer). */
struct why {
	const char *reason[64];
	size_t count[64];
	int nr;
};

static void count_why(struct why *w, const char *r)
{
	int i;

	for (i = 0; i < w->nr && w->reason[i] != r; i++)
		;
	if (i == w->nr) {
		if (w->nr == 64)
			return;
		w->reason[w->nr++] = r;
	}
	w->count[i]++;
}

static void print_why(const struct why *w)
{
	for (int i = 0; i < w->nr; i++)
		printf("    %6zu  %s\n", w->count[i], w->reason[i] ? w->reason[i] : "(no reason)");
}

static const struct trace_mmap *map_of(const struct prog *p, uint64_t ip)
{
	return symtest_find_map(p->map, p->nr_map, ip);
}

/* sym_data_type_back(next, 1) against sym_data_type(ip), each in its own fresh session. */
static void bench_back(const struct prog *p)
{
	struct sym_session *s, *ref;
	size_t differ = 0;
	double t0, t1;

	if (sym_session_new(&s, NULL) || sym_session_new(&ref, NULL))
		return;
	t0 = now();
	for (size_t i = 0; i < p->mem.nr; i++) {
		struct sym_data_info info;
		sym_data_type_back(s, map_of(p, p->mem.next[i]), p->mem.next[i], 1, 0, &info);
	}
	t1 = now();
	for (size_t i = 0; i < p->mem.nr; i++) {
		struct sym_data_info a, b;
		int ra = sym_data_type_back(s, map_of(p, p->mem.next[i]), p->mem.next[i], 1, 0, &a);
		int rb = sym_data_type(ref, map_of(p, p->mem.ip[i]), p->mem.ip[i], 0, &b);
		if (ra == rb && (ra || !strcmp(a.member, b.member)))
			continue;
		differ++;
		if (getenv("BENCH_SYMTYPE_LIST"))
			fprintf(stderr, "back %#llx: %s | direct: %s\n",
				(unsigned long long)(p->mem.next[i] - p->map[0].start),
				ra ? a.reason : a.member, rb ? b.reason : b.member);
	}
	printf("  sym_data_type_back(next instruction, 1), fresh session: %.0f/s (%.1f us each); "
	       "%zu of %zu answers differ from the direct lookup's\n", p->mem.nr / (t1 - t0),
	       (t1 - t0) * 1e6 / p->mem.nr, differ, p->mem.nr);
	sym_session_free(ref);
	sym_session_free(s);
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	const char *path = argc > 1 ? argv[1] : NULL;
	struct prog p = {0};
	struct why why = {0};
	struct sym_session *s;
	size_t named = 0;
	double t0, t1, t2;

	if (!path) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			return 1;
		self[n] = 0;
		path = self;
	}
	elf_version(EV_CURRENT);
	if (load(&p, path) || sym_session_new(&s, NULL))
		return 1;
	t0 = now();
	for (size_t i = 0; i < p.mem.nr; i++) {
		struct sym_data_info info;
		if (sym_data_type(s, map_of(&p, p.mem.ip[i]), p.mem.ip[i], 0, &info) == 0)
			named++;
		else
			count_why(&why, info.reason);
		if (getenv("BENCH_SYMTYPE_LIST"))
			fprintf(stderr, "%#llx %s | %s\n",
				(unsigned long long)(p.mem.ip[i] - p.map[0].start), info.member ? info.member : "-", info.reason ? info.reason : "-");
	}
	t1 = now();
	for (int r = 0; r < 10; r++)
		for (size_t i = 0; i < p.mem.nr; i++) {
			struct sym_data_info info;
			sym_data_type(s, map_of(&p, p.mem.ip[i]), p.mem.ip[i], 0, &info);
		}
	t2 = now();
	printf("sym_data_type over %s: %zu memory instructions, %zu named (%.1f%%)\n", path,
	       p.mem.nr, named, 100.0 * named / p.mem.nr);
	printf("  first lookups: %.0f/s (%.1f us each); cached: %.0f/s\n", p.mem.nr / (t1 - t0),
	       (t1 - t0) * 1e6 / p.mem.nr, 10.0 * p.mem.nr / (t2 - t1));
	printf("  not named, by reason:\n");
	print_why(&why);
	sym_session_free(s);
	bench_back(&p);
	free(p.mem.ip);
	free(p.mem.next);
	return 0;
}
