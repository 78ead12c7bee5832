/* Helpers shared by the symbolization suites (tests/test_symbols.c, tests/test_symtype.c) and,
 * for the part above SYMTEST_NO_CMOCKA, by bench/bench_symtype.c: kernel-style mappings of a
 * binary's PT_LOAD segments, the mapping holding an address, memory operands of a decoded
 * instruction, and, for the suites, running commands, opening ELF files, symbol and section
 * look-ups, and the group fixture's start and end. Every suite is one translation unit: the
 * functions are static inline, so a suite that does not use one gets no warning.
 *
 * A file that must not depend on cmocka defines SYMTEST_NO_CMOCKA before including this. */
#ifndef SYMTEST_H
#define SYMTEST_H

#include "c2c/capstone.h"
#include <gelf.h>
#include <stdint.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/symbols.h"

#define PAGE 4096ull
#define MAX_MAPS 8

/* The mapping the kernel reports for PT_LOAD @ph of @path loaded at @base (0 for ET_EXEC):
 * page-aligned start and file offset, up to the end of the segment's file bytes, private. */
static inline void symtest_load_map(struct trace_mmap *m, const GElf_Phdr *ph, uint64_t base,
				    const char *path)
{
	uint64_t lo = ph->p_vaddr & ~(PAGE - 1);

	memset(m, 0, sizeof(*m));
	m->start = base + lo;
	m->len = ((ph->p_vaddr + ph->p_filesz + PAGE - 1) & ~(PAGE - 1)) - lo;
	m->pgoff = ph->p_offset & ~(PAGE - 1);
	m->prot = (ph->p_flags & PF_R ? 1 : 0) | (ph->p_flags & PF_W ? 2 : 0) |
		  (ph->p_flags & PF_X ? 4 : 0);
	m->flags = 2;  /* MAP_PRIVATE */
	m->filename = path;
}

/* The one of @nr mappings @map that holds run-time @addr; NULL when none does. */
static inline const struct trace_mmap *symtest_find_map(const struct trace_mmap *map, int nr,
							uint64_t addr)
{
	for (int i = 0; i < nr; i++)
		if (addr >= map[i].start && addr - map[i].start < map[i].len)
			return &map[i];
	return NULL;
}

/* Whether decoded instruction @in (capstone with details on) of an EM_X86_64 or EM_AARCH64
 * (@machine) program accesses memory; x86 lea and nop only compute an address. */
static inline int has_mem_operand(const cs_insn *in, int machine)
{
	if (machine == EM_AARCH64) {
		const cs_arm64 *a = &in->detail->arm64;
		for (int i = 0; i < a->op_count; i++)
			if (a->operands[i].type == ARM64_OP_MEM)
				return 1;
		return 0;
	}
	const cs_x86 *x = &in->detail->x86;
	if (in->id == X86_INS_LEA || in->id == X86_INS_NOP)
		return 0;
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM)
			return 1;
	return 0;
}

/* Run-time addresses of memory instructions, and of the instruction after each. */
struct symtest_insns {
	uint64_t *ip, *next;
	size_t nr, cap_ip, cap_next;
};

/* Append to @v the x86-64 memory instructions of the @n bytes of @code at ELF address @addr, as
 * run-time addresses (@base + ELF address); a byte that does not decode is stepped over. 0, or -1
 * when capstone cannot be opened. */
static inline int symtest_mem_insns(struct symtest_insns *v, const uint8_t *code, size_t n,
				    uint64_t addr, uint64_t base)
{
	csh cs;
	cs_insn *in;

	if (c2c_cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -1;
	c2c_cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	in = c2c_cs_malloc(cs);
	while (n) {
		if (!c2c_cs_disasm_iter(cs, &code, &n, &addr, in)) {
			code++, n--, addr++;
			continue;
		}
		if (!has_mem_operand(in, EM_X86_64))
			continue;
		v->ip = xgrow(v->ip, &v->cap_ip, v->nr + 1, sizeof(*v->ip));
		v->next = xgrow(v->next, &v->cap_next, v->nr + 1, sizeof(*v->next));
		v->next[v->nr] = base + in->address + in->size;
		v->ip[v->nr++] = base + in->address;
	}
	c2c_cs_free(in, 1);
	c2c_cs_close(&cs);
	return 0;
}

#ifndef SYMTEST_NO_CMOCKA

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "c2c/log.h"

#define SRCDIR "tests/symprogs"
#define SYMTEST_PID 1234  /* pid and tid of every mapping make_maps() builds */

/* A test program built into the suite's temporary directory, as a process mapped it. */
struct bin {
	char path[PATH_MAX];
	int ok;          /* built (when building it may fail quietly) */
	int machine;     /* EM_X86_64, EM_AARCH64 */
	int e_type;      /* ET_EXEC, ET_DYN */
	uint8_t id[TRACE_BUILD_ID_MAX];  /* its build-id */
	int id_len;
	struct trace_mmap map[MAX_MAPS];
	int nr_map;
	uint64_t base;   /* load address: 0 for ET_EXEC */
	uint64_t relro_vaddr, relro_memsz;  /* PT_GNU_RELRO, 0 when none */
};

static inline int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int rc = system(cmd);
	if (rc)
		fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
	return rc;
}

static inline Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY);
	assert_true(*fd >= 0);
	Elf *elf = elf_begin(*fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	return elf;
}

/* Fill b->e_type, b->base (@base for ET_DYN, else 0), the build-id (it must have one), the
 * PT_GNU_RELRO range and the kernel-style mappings of b->path, one per PT_LOAD, each with the
 * build-id as the kernel reports it. */
static inline void make_maps(struct bin *b, uint64_t base)
{
	GElf_Ehdr eh;
	size_t n;
	int fd;
	Elf *elf = open_elf(b->path, &fd);
	const void *bits;

	assert_non_null(gelf_getehdr(elf, &eh));
	b->e_type = eh.e_type;
	b->base = eh.e_type == ET_DYN ? base : 0;
	b->id_len = dwelf_elf_gnu_build_id(elf, &bits);
	assert_true(b->id_len > 0 && b->id_len <= TRACE_BUILD_ID_MAX);
	memcpy(b->id, bits, b->id_len);
	assert_int_equal(elf_getphdrnum(elf, &n), 0);
	b->nr_map = 0;
	b->relro_vaddr = b->relro_memsz = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		assert_non_null(gelf_getphdr(elf, i, &ph));
		if (ph.p_type == PT_GNU_RELRO) {
			b->relro_vaddr = ph.p_vaddr;
			b->relro_memsz = ph.p_memsz;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		assert_true(b->nr_map < MAX_MAPS);
		struct trace_mmap *m = &b->map[b->nr_map++];
		symtest_load_map(m, &ph, b->base, b->path);
		m->pid = m->tid = SYMTEST_PID;
		m->cpumode = 2;
		m->build_id_size = b->id_len;
		memcpy(m->build_id, b->id, b->id_len);
	}
	elf_end(elf);
	close(fd);
}

/* The mapping of @b holding run-time @addr; fails the test when none does. */
static inline const struct trace_mmap *map_of(const struct bin *b, uint64_t addr)
{
	const struct trace_mmap *m = symtest_find_map(b->map, b->nr_map, addr);

	if (!m)
		fail_msg("no mapping holds %#llx", (unsigned long long)addr);
	return m;
}

/* The mapping of @b holding run-time @addr; a .bss address past the file-backed pages gets the
 * last (data) mapping, as a caller would after sym_map_covers(). */
static inline const struct trace_mmap *map_or_last(const struct bin *b, uint64_t addr)
{
	const struct trace_mmap *m = symtest_find_map(b->map, b->nr_map, addr);

	return m ? m : &b->map[b->nr_map - 1];
}

/* The first symbol @name of @elf's symbol table of section type @type (SHT_SYMTAB,
 * SHT_DYNSYM) that is defined (@func 0) or is a function with a size (@func 1): 1 and *@out,
 * or 0. */
static inline int find_sym_in(Elf *elf, GElf_Word type, const char *name, int func,
			      GElf_Sym *out)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!s || strcmp(s, name))
				continue;
			if (func ? GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size
				 : sym.st_shndx != SHN_UNDEF) {
				*out = sym;
				return 1;
			}
		}
	}
	return 0;
}

/* find_sym_in() of .symtab. */
static inline int find_sym(Elf *elf, const char *name, int func, GElf_Sym *out)
{
	return find_sym_in(elf, SHT_SYMTAB, name, func, out);
}

/* The section of @elf named @name, its header in *@sh; NULL when there is none. */
static inline Elf_Scn *find_scn(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstr;

	assert_int_equal(elf_getshdrstrndx(elf, &shstr), 0);
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		const char *s;
		if (gelf_getshdr(scn, sh) && (s = elf_strptr(elf, shstr, sh->sh_name)) &&
		    !strcmp(s, name))
			return scn;
	}
	return NULL;
}

/* Like a PIE load address: 0x55xxxxxxx000. */
static inline uint64_t random_base(void)
{
	return 0x550000000000ull + (((uint64_t)rand() << 12) & 0xffffffff000ull);
}

/* The common start of a suite's group setup: no debuginfod server asked about the test
 * programs' build-ids, a random seed (printed), SRCDIR/@src and cc present, libelf ready, and
 * a new temporary directory @tmp (@cap bytes) under $TMPDIR or /tmp. 0 or -1. */
static inline int symtest_begin(const char *suite, const char *src, char *tmp, size_t cap)
{
	const char *tmpdir = getenv("TMPDIR");
	unsigned seed = (unsigned)time(NULL);
	char path[PATH_MAX];

	unsetenv("DEBUGINFOD_URLS");
	srand(seed);
	fprintf(stderr, "%s: seed %u\n", suite, seed);
	snprintf(path, sizeof(path), "%s/%s", SRCDIR, src);
	if (access(path, R_OK) || run("cc --version >/dev/null 2>&1")) {
		fprintf(stderr, "%s: needs %s and cc (run from the repo root)\n", suite, SRCDIR);
		return -1;
	}
	elf_version(EV_CURRENT);
	if ((size_t)snprintf(tmp, cap, "%s/c2c-%s-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp",
			     suite) >= cap || !mkdtemp(tmp)) {
		fprintf(stderr, "%s: cannot make a temporary directory\n", suite);
		return -1;
	}
	return 0;
}

/* The common group teardown: remove @tmp (when @fix is set), free @fix, unhook the log. */
static inline int symtest_end(void *fix, const char *tmp)
{
	if (fix) {
		run("rm -rf '%s'", tmp);
		free(fix);
	}
	c2c_log_set_hook(NULL, NULL);
	return 0;
}

#endif /* SYMTEST_NO_CMOCKA */
#endif /* SYMTEST_H */
