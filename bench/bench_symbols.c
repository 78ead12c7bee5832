/* Symbolization throughput: 1M code lookups over 50k distinct addresses.
 *
 * Generates and compiles (with cc, -O1 -g) a program of 6000 functions with inlined helpers,
 * maps it as a PIE would be, then times: the first lookup of each distinct address (symbol, line
 * and inline frame through libdwfl), and 1M lookups drawn at random from the same set (cache
 * hits). Also times the same against the libc this program runs with (ELF symbols only). Prints
 * figures; asserts nothing. Usage: bench_symbols [distinct [lookups]] */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/resolve/symbols.h"

#define NFUNC 6000
#define PAGE 4096ull

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int gen_program(const char *dir, char *bin, size_t cap)
{
	char src[PATH_MAX], cmd[3 * PATH_MAX];
	FILE *fp;

	snprintf(src, sizeof(src), "%s/many.c", dir);
	snprintf(bin, cap, "%s/many", dir);
	fp = fopen(src, "w");
	if (!fp)
		return -1;
	fprintf(fp, "static inline __attribute__((always_inline)) void mix(volatile long *p, long v)\n"
		    "{\n\tp[0] += v;\n\tp[1] ^= p[0] * 3;\n}\n");
	for (int i = 0; i < NFUNC; i++)
		fprintf(fp, "__attribute__((noinline)) long f%d(volatile long *p)\n{\n"
			    "\tmix(p, %d);\n\tp[2] += p[1] >> %d;\n\tmix(p + 1, p[2]);\n"
			    "\treturn p[0] + %d;\n}\n", i, i, i % 7, i);
	fprintf(fp, "int main(void)\n{\n\tstatic volatile long v[8];\n\tlong s = 0;\n");
	for (int i = 0; i < NFUNC; i++)
		fprintf(fp, "\ts += f%d(v);\n", i);
	fprintf(fp, "\treturn (int)s;\n}\n");
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -O1 -g -fPIE -pie -o '%s' '%s'", bin, src);
	return system(cmd) ? -1 : 0;
}

/* The executable mapping of @path at @base, as the kernel reports it. */
static int exec_map(const char *path, uint64_t base, struct trace_mmap *m, uint64_t *lo,
		    uint64_t *hi)
{
	int fd = open(path, O_RDONLY), rc = -1;
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n))
		goto out;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		memset(m, 0, sizeof(*m));
		m->start = base + (ph.p_vaddr & ~(PAGE - 1));
		m->len = ((ph.p_vaddr + ph.p_filesz + PAGE - 1) & ~(PAGE - 1)) - (ph.p_vaddr & ~(PAGE - 1));
		m->pgoff = ph.p_offset & ~(PAGE - 1);
		m->prot = 5;
		m->filename = path;
		*lo = base + ph.p_vaddr;
		*hi = base + ph.p_vaddr + ph.p_filesz;
		rc = 0;
		break;
	}
out:
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void run(const char *label, const struct trace_mmap *m, uint64_t lo, uint64_t hi,
		size_t distinct, size_t lookups)
{
	struct sym_session *s;
	struct sym_opts o = {0};
	uint64_t *addr = malloc(distinct * sizeof(*addr)), stride = (hi - lo) / distinct;
	size_t found = 0, lines = 0, inl = 0;
	double t0, t1, t2;

	if (!addr || !stride) {
		free(addr);
		return;
	}
	for (size_t i = 0; i < distinct; i++)
		addr[i] = lo + i * stride;
	sym_session_new(&s, &o);
	t0 = now();
	for (size_t i = 0; i < distinct; i++) {
		struct sym_code_info ci;
		if (sym_code(s, m, addr[i], &ci) == 0) {
			found++;
			lines += ci.srcfile != NULL;
			inl += ci.inline_fn != NULL;
		}
	}
	t1 = now();
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < lookups; i++) {
		struct sym_code_info ci;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		sym_code(s, m, addr[x % distinct], &ci);
	}
	t2 = now();
	printf("%-6s %zu distinct addresses (%zu named, %zu with line, %zu inlined): first "
	       "resolution %.0f ms (%.1f us each); %zu cached lookups %.0f ms (%.0f ns each); "
	       "total %.0f ms\n", label, distinct, found, lines, inl, (t1 - t0) * 1e3,
	       (t1 - t0) * 1e6 / distinct, lookups, (t2 - t1) * 1e3, (t2 - t1) * 1e9 / lookups,
	       (t2 - t0) * 1e3);
	sym_session_free(s);
	free(addr);
}

/* The r-x mapping of libc in this process. */
static int libc_map(struct trace_mmap *m, char *name, size_t cap, uint64_t *lo, uint64_t *hi)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	int rc = -1;

	while (fp && rc && fgets(line, sizeof(line), fp)) {
		unsigned long long a, b, off;
		char perms[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &a, &b, perms, &off, &pos) < 4 ||
		    !strstr(line, "/libc.so") || perms[2] != 'x')
			continue;
		snprintf(name, cap, "%s", line + pos);
		name[strcspn(name, "\n")] = 0;
		memset(m, 0, sizeof(*m));
		m->start = a;
		m->len = b - a;
		m->pgoff = off;
		m->prot = 5;
		m->filename = name;
		*lo = a;
		*hi = b;
		rc = 0;
	}
	if (fp)
		fclose(fp);
	return rc;
}

int main(int argc, char **argv)
{
	size_t distinct = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000;
	size_t lookups = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000;
	const char *base = getenv("TMPDIR");
	char tmpl[PATH_MAX / 2], bin[PATH_MAX], name[PATH_MAX], cmd[PATH_MAX + 16];
	struct trace_mmap m;
	uint64_t lo, hi;

	if (!distinct)
		distinct = 1;
	elf_version(EV_CURRENT);
	snprintf(tmpl, sizeof(tmpl), "%s/c2c-symbench-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		return 1;
	}
	double t = now();
	if (gen_program(tmpl, bin, sizeof(bin)) == 0 &&
	    exec_map(bin, 0x555555554000ull, &m, &lo, &hi) == 0) {
		printf("generated %d functions, text %llu KiB, compiled in %.1f s\n", NFUNC,
		       (unsigned long long)(hi - lo) >> 10, now() - t);
		run("many", &m, lo, hi, distinct, lookups);
	} else {
		fprintf(stderr, "bench_symbols: cannot build the generated program (cc)\n");
	}
	if (libc_map(&m, name, sizeof(name), &lo, &hi) == 0)
		run("libc", &m, lo, hi, distinct, lookups);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	return system(cmd) ? 1 : 0;
}
