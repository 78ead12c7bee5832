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
#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "report/symbols.h"

#define PAGE 4096ull
#define BASE 0x555555554000ull
#define MAX_MAPS 8

struct prog {
	struct trace_mmap map[MAX_MAPS];
	int nr_map;
	uint64_t *ip, *next;  /* memory instructions, and the address after each */
	size_t nr_ip, cap_ip, cap_next;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void add_map(struct prog *p, const GElf_Phdr *ph, uint64_t base, const char *path)
{
	struct trace_mmap *m;
	uint64_t lo = ph->p_vaddr & ~(PAGE - 1);

	if (p->nr_map == MAX_MAPS)
		return;
	m = &p->map[p->nr_map++];
	memset(m, 0, sizeof(*m));
	m->start = base + lo;
	m->len = ((ph->p_vaddr + ph->p_filesz + PAGE - 1) & ~(PAGE - 1)) - lo;
	m->pgoff = ph->p_offset & ~(PAGE - 1);
	m->prot = (ph->p_flags & PF_R ? 1 : 0) | (ph->p_flags & PF_W ? 2 : 0) |
		  (ph->p_flags & PF_X ? 4 : 0);
	m->flags = 2;
	m->filename = path;
}

static int has_mem(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (in->id == X86_INS_LEA || in->id == X86_INS_NOP)
		return 0;
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM)
			return 1;
	return 0;
}

static void scan_text(struct prog *p, const uint8_t *code, size_t n, uint64_t addr, uint64_t base)
{
	csh cs;
	cs_insn *in;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(cs);
	while (n) {
		if (!cs_disasm_iter(cs, &code, &n, &addr, in)) {
			code++, n--, addr++;
			continue;
		}
		if (!has_mem(in))
			continue;
		p->ip = xgrow(p->ip, &p->cap_ip, p->nr_ip + 1, sizeof(*p->ip));
		p->next = xgrow(p->next, &p->cap_next, p->nr_ip + 1, sizeof(*p->next));
		p->next[p->nr_ip] = base + in->address + in->size;
		p->ip[p->nr_ip++] = base + in->address;
	}
	cs_free(in, 1);
	cs_close(&cs);
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
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			add_map(p, &ph, base, path);
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstr, sh.sh_name)) &&
		    !strcmp(name, ".text") && (d = elf_getdata(scn, NULL)) && d->d_buf)
			scan_text(p, d->d_buf, d->d_size, sh.sh_addr, base);
	}
	elf_end(elf);
	close(fd);
	return p->nr_ip ? 0 : -1;
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
	for (int i = 0; i < p->nr_map; i++)
		if (ip >= p->map[i].start && ip - p->map[i].start < p->map[i].len)
			return &p->map[i];
	return NULL;
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
	for (size_t i = 0; i < p->nr_ip; i++) {
		struct sym_data_info info;
		sym_data_type_back(s, map_of(p, p->next[i]), p->next[i], 1, 0, &info);
	}
	t1 = now();
	for (size_t i = 0; i < p->nr_ip; i++) {
		struct sym_data_info a, b;
		int ra = sym_data_type_back(s, map_of(p, p->next[i]), p->next[i], 1, 0, &a);
		int rb = sym_data_type(ref, map_of(p, p->ip[i]), p->ip[i], 0, &b);
		if (ra == rb && (ra || !strcmp(a.member, b.member)))
			continue;
		differ++;
		if (getenv("BENCH_SYMTYPE_LIST"))
			fprintf(stderr, "back %#llx: %s | direct: %s\n",
				(unsigned long long)(p->next[i] - p->map[0].start),
				ra ? a.reason : a.member, rb ? b.reason : b.member);
	}
	printf("  sym_data_type_back(next instruction, 1), fresh session: %.0f/s (%.1f us each); "
	       "%zu of %zu answers differ from the direct lookup's\n", p->nr_ip / (t1 - t0),
	       (t1 - t0) * 1e6 / p->nr_ip, differ, p->nr_ip);
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
	for (size_t i = 0; i < p.nr_ip; i++) {
		struct sym_data_info info;
		if (sym_data_type(s, map_of(&p, p.ip[i]), p.ip[i], 0, &info) == 0)
			named++;
		else
			count_why(&why, info.reason);
		if (getenv("BENCH_SYMTYPE_LIST"))
			fprintf(stderr, "%#llx %s | %s\n", (unsigned long long)(p.ip[i] - p.map[0].start),
				info.member ? info.member : "-", info.reason ? info.reason : "-");
	}
	t1 = now();
	for (int r = 0; r < 10; r++)
		for (size_t i = 0; i < p.nr_ip; i++) {
			struct sym_data_info info;
			sym_data_type(s, map_of(&p, p.ip[i]), p.ip[i], 0, &info);
		}
	t2 = now();
	printf("sym_data_type over %s: %zu memory instructions, %zu named (%.1f%%)\n", path, p.nr_ip,
	       named, 100.0 * named / p.nr_ip);
	printf("  first lookups: %.0f/s (%.1f us each); cached: %.0f/s\n", p.nr_ip / (t1 - t0),
	       (t1 - t0) * 1e6 / p.nr_ip, 10.0 * p.nr_ip / (t2 - t1));
	printf("  not named, by reason:\n");
	print_why(&why);
	sym_session_free(s);
	bench_back(&p);
	free(p.ip);
	free(p.next);
	return 0;
}
