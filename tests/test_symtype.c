/* Tests of sym_data_type() (report/resolve/symbols.h): data-type profiling. tests/symprogs/prog_heap.c is
 * compiled at run time (-O2 and -O1, PIE, loaded at a random base); every instruction of each
 * test function that has a memory operand is decoded here with capstone (function bounds from
 * the ELF symbol table) and looked up, and the set of member names found per function must be
 * exactly the expected one. Instructions without a memory operand or without a pointer variable
 * must give -ENOENT with a "[type unknown]" reason. Register state carried across basic blocks
 * is checked by functions whose pointer is copied before a branch or loop (named) and by joins
 * and loops where the paths disagree (unnamed). sym_data_type_back() must agree with
 * sym_data_type() on the instruction it counts back to, and answers must not depend on the
 * order of lookups. The suite also prints the lookup rate. */
#include <errno.h>

#include "c2c/xalloc.h"
#include "tests/symprogs/symtest.h"

#define MAX_NAMES 16

struct fix {
	char tmp[PATH_MAX / 2];
	struct bin o2, o1, o2nodebug, nopie;
	struct bin a64;  /* AArch64 cross build with clang, when clang and lld are there */
	struct bin cxx;  /* prog_heap_ref.cc, when c++ is there */
	struct bin cxx2; /* prog_cxx.cc, likewise */
	struct bin hoist[3];  /* prog_hoist.c at -O0, -O1, -O2 */
	struct bin omp[3];    /* prog_omp.c at -O0, -O1, -O2, when cc has -fopenmp */
	struct bin fortran[2]; /* prog_omp.f90 at -O0 and -O2, when gfortran is there */
};

static struct fix *F;

static void log_hook(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level <= C2C_LOG_WARN)
		fprintf(stderr, "log: %s\n", msg);
}

/* The code of function @name: its ELF address, size and a copy of its bytes. */
struct func {
	uint64_t addr, size;
	uint8_t *code;
};

static void read_func(const char *path, const char *name, struct func *fn)
{
	GElf_Sym sym = {0};
	int fd;
	Elf *elf = open_elf(path, &fd);

	memset(fn, 0, sizeof(*fn));
	if (!find_sym(elf, name, 1, &sym))
		fail_msg("no function '%s' in %s", name, path);
	fn->addr = sym.st_value;
	fn->size = sym.st_size;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		gelf_getshdr(scn, &sh);
		/* a code section (not a debug section, at address 0, that happens to be as long) */
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
		    fn->addr < sh.sh_addr || fn->addr + fn->size > sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		fn->code = xmalloc(fn->size);
		memcpy(fn->code, (uint8_t *)d->d_buf + (fn->addr - sh.sh_addr), fn->size);
	}
	elf_end(elf);
	close(fd);
	assert_non_null(fn->code);
}

/* --- fixture ---------------------------------------------------------------------------------- */

static int build_src(struct fix *f, struct bin *b, const char *name, const char *cc,
		     const char *flags, const char *src)
{
	snprintf(b->path, sizeof(b->path), "%s/%s", f->tmp, name);
	if (run("%s -fPIE -pie %s -o '%s' %s/%s", cc, flags, b->path, SRCDIR, src))
		return -1;
	make_maps(b, random_base());
	b->ok = 1;
	return 0;
}

static int build(struct fix *f, struct bin *b, const char *name, const char *cc,
		 const char *flags)
{
	return build_src(f, b, name, cc, flags, "prog_heap.c");
}

/* The AArch64 build: clang and lld without a C library; skipped quietly when they are missing. */
static void build_a64(struct fix *f)
{
	if (system("clang --version >/dev/null 2>&1 && ld.lld --version >/dev/null 2>&1"))
		return;
	build(f, &f->a64, "heap-a64", "clang --target=aarch64-linux-gnu",
	      "-DPROG_HEAP_NOLIBC -g -O2 -nostdlib -fuse-ld=lld 2>/dev/null");
	f->a64.machine = EM_AARCH64;
}

static int group_setup(void **state)
{
	struct fix *f = xcalloc(1, sizeof(*f));

	if (symtest_begin("test_symtype", "prog_heap.c", f->tmp, sizeof(f->tmp)) ||
	    build(f, &f->o2, "heap-O2", "cc", "-g -O2") ||
	    build(f, &f->o1, "heap-O1", "cc", "-g -O1") ||
	    build(f, &f->o2nodebug, "heap-nodebug", "cc", "-g0 -O2") ||
	    build(f, &f->nopie, "heap-nopie", "cc", "-g -O2 -fno-pie -no-pie")) {
		free(f);
		return -1;
	}
	f->o2.machine = f->o1.machine = f->o2nodebug.machine = f->nopie.machine = EM_X86_64;
	build_a64(f);
	f->cxx.machine = EM_X86_64;
	if (!system("c++ --version >/dev/null 2>&1"))
		build_src(f, &f->cxx, "heap-cxx", "c++", "-g -O2", "prog_heap_ref.cc");
	f->cxx2.machine = EM_X86_64;
	if (f->cxx.ok)
		build_src(f, &f->cxx2, "cxx", "c++", "-g -O2 -pthread", "prog_cxx.cc");
	for (int i = 0; i < 3; i++) {
		char name[32], flags[64];
		snprintf(name, sizeof(name), "hoist-O%d", i);
		snprintf(flags, sizeof(flags), "-g -O%d", i);
		if (build_src(f, &f->hoist[i], name, "cc", flags, "prog_hoist.c")) {
			free(f);
			return -1;
		}
		f->hoist[i].machine = EM_X86_64;
		/* OpenMP needs libgomp's header and library: without them, skipped */
		snprintf(name, sizeof(name), "omp-O%d", i);
		snprintf(flags, sizeof(flags), "-g -O%d -fopenmp 2>/dev/null", i);
		if (!system("echo 'int main(void){return 0;}' | cc -fopenmp -x c -o /dev/null - "
			    "2>/dev/null") &&
		    build_src(f, &f->omp[i], name, "cc", flags, "prog_omp.c") == 0)
			f->omp[i].machine = EM_X86_64;
	}
	for (int i = 0; i < 2 && !system("gfortran --version >/dev/null 2>&1"); i++) {
		char name[32], flags[64];
		snprintf(name, sizeof(name), "omp-f90-O%d", 2 * i);
		snprintf(flags, sizeof(flags), "-g -O%d -fopenmp 2>/dev/null", 2 * i);
		f->fortran[i].machine = EM_X86_64;
		build_src(f, &f->fortran[i], name, "gfortran", flags, "prog_omp.f90");
	}
	c2c_log_set_hook(log_hook, NULL);
	F = f;
	*state = f;
	return 0;
}

static int group_teardown(void **state)
{
	struct fix *f = *state;

	return symtest_end(f, f ? f->tmp : NULL);
}

/* --- walking a function --------------------------------------------------------------------- */

struct found {
	const char *name[MAX_NAMES];  /* distinct members named, session strings */
	int nr;
	int nr_mem, nr_named, nr_unknown;
	int nr_member_at;               /* answers sym_member_at() was checked against */
	const char *last_reason;      /* of the last -ENOENT */
	const char *type_of[MAX_NAMES];
	struct sym_data_info info[MAX_NAMES];  /* the first answer of each */
};

static void open_cs(csh *cs, int machine)
{
	if (machine == EM_AARCH64)
		assert_int_equal(c2c_cs_open(CS_ARCH_ARM64, CS_MODE_ARM, cs), CS_ERR_OK);
	else
		assert_int_equal(c2c_cs_open(CS_ARCH_X86, CS_MODE_64, cs), CS_ERR_OK);
	c2c_cs_option(*cs, CS_OPT_DETAIL, CS_OPT_ON);
}

static void note(struct found *fd, const struct sym_data_info *info)
{
	for (int i = 0; i < fd->nr; i++)
		if (!strcmp(fd->name[i], info->member))
			return;
	assert_true(fd->nr < MAX_NAMES);
	fd->type_of[fd->nr] = info->type;
	fd->info[fd->nr] = *info;
	fd->name[fd->nr++] = info->member;
}

/* Look up every instruction of @func in @b; memory ones are collected in @fd, the others must
 * give -ENOENT with a reason. */
static void walk_func(struct sym_session *s, const struct bin *b, const char *func,
		      struct found *fd)
{
	struct func fn;
	csh cs;
	cs_insn *in;
	const uint8_t *p;
	size_t left;
	uint64_t a;

	memset(fd, 0, sizeof(*fd));
	read_func(b->path, func, &fn);
	open_cs(&cs, b->machine);
	in = c2c_cs_malloc(cs);
	p = fn.code, left = fn.size, a = fn.addr;
	while (c2c_cs_disasm_iter(cs, &p, &left, &a, in)) {
		struct sym_data_info info;
		uint64_t ip = b->base + in->address;
		int rc = sym_data_type(s, map_of(b, ip), ip, 0, &info);
		if (getenv("SYMTYPE_DEBUG"))
			fprintf(stderr, "%s %#llx %s %s: %d %s | %s | %s\n", func,
				(unsigned long long)in->address, in->mnemonic, in->op_str, rc,
				info.member ? info.member : "-", info.type ? info.type : "-",
				info.reason ? info.reason : "-");
		if (!has_mem_operand(in, b->machine)) {
			assert_int_equal(rc, -ENOENT);
			assert_non_null(info.reason);
			assert_non_null(strstr(info.reason, "[type unknown]"));
			continue;
		}
		fd->nr_mem++;
		if (rc == 0) {
			assert_non_null(info.member);
			assert_non_null(info.var);
			/* sym_member_at() names the byte as the access's own name does (plain member
			 * paths through a pointer) */
			if (info.var[0] == '*' && !strpbrk(info.member, "[( ") && info.type_ref.dwarf) {
				const char *at = sym_member_at(s, &info, info.var_offset);

				if (!at || strcmp(at, info.member))
					fail_msg("%s %#llx: member %s, sym_member_at %s", func,
						 (unsigned long long)in->address, info.member,
						 at ? at : "NULL");
				fd->nr_member_at++;
			}
			fd->nr_named++;
			note(fd, &info);
		} else {
			assert_int_equal(rc, -ENOENT);
			assert_non_null(info.reason);
			fd->nr_unknown++;
			fd->last_reason = info.reason;
		}
	}
	c2c_cs_free(in, 1);
	c2c_cs_close(&cs);
	free(fn.code);
}

static int in_set(const char *name, const char *const *want)
{
	for (int i = 0; want[i]; i++)
		if (!strcmp(want[i], name))
			return 1;
	return 0;
}

static void check_set(int line, const char *func, const struct found *fd, const char *const *want)
{
	int nw = 0;

	for (; want[nw]; nw++) {
		int hit = 0;
		for (int i = 0; i < fd->nr; i++)
			hit |= !strcmp(fd->name[i], want[nw]);
		if (!hit)
			fail_msg("line %d: %s: '%s' not found", line, func, want[nw]);
	}
	for (int i = 0; i < fd->nr; i++)
		if (!in_set(fd->name[i], want))
			fail_msg("line %d: %s: unexpected '%s'", line, func, fd->name[i]);
	assert_int_equal(fd->nr, nw);
}

/* --- tests ------------------------------------------------------------------------------------ */

#define SET(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NONE ((const char *const[]){ NULL })

struct row {
	int line;
	const char *func;
	const char *const *want;
	const char *type;       /* the type of every named access, or NULL: not checked */
	int all_named;          /* every memory instruction must be named */
};

/* Functions whose code is the same shape at -O1 and -O2 with gcc 12. */
static const struct row common_rows[] = {
	{ __LINE__, "sum", SET("st->hits", "st->misses"), "struct stats", 1 },
	{ __LINE__, "bump", SET("s->total"), "stats_t", 1 },
	{ __LINE__, "walk", SET("n->key", "n->next"), "struct node", 1 },
	{ __LINE__, "item_count", SET("it[].count"), "struct item", 1 },
	{ __LINE__, "outer_get", SET("o->in.y[2]", "o->st[1].misses", "o->name[3]"), "struct outer", 1 },
	{ __LINE__, "array_get", SET("o->in.y[]"), "struct outer", 1 },
	{ __LINE__, "elem2", SET("st[2].total"), "struct stats", 1 },
	{ __LINE__, "no_mem", NONE, NULL, 1 },
	{ __LINE__, "from_long", NONE, NULL, 0 },
	{ __LINE__, "deref2", SET("n->next", "n->next->key"), "struct node", 1 },
	{ __LINE__, "via_inline", SET("h->sp", "local->hits"), NULL, 1 },
	{ __LINE__, "gload", SET("gstats.misses"), "struct stats", 1 },
	{ __LINE__, "inner_ptr", SET("s2->hits", "s2->total"), "struct stats", 1 },
	{ __LINE__, "ghead_key", SET("ghead", "ghead->key"), NULL, 1 },
	{ __LINE__, "join", SET("n->next"), NULL, 0 },  /* not "n->next->key" after the join */
	/* register state across blocks: both paths copy n; a copy made in the entry block */
	{ __LINE__, "agree", SET("n->key"), "struct node", 1 },
	{ __LINE__, "chase", SET("n->key"), "struct node", 0 },  /* r = r->next: loop unnamed */
	{ __LINE__, "count_hits", SET("c->hits", "gstop"), NULL, 1 },  /* -O1: rcx = rdi */
	{ __LINE__, "count_misses", SET("c->misses", "gstop"), NULL, 1 },
	{ __LINE__, "on_stack", SET("local.misses", "arr[2]"), NULL, 1 },
};

/* Returns how many answers sym_member_at() was checked against. */
static int run_rows(struct sym_session *s, const struct bin *b, const struct row *rows, size_t n)
{
	int member_at = 0;

	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct found fd;
		walk_func(s, b, r->func, &fd);
		check_set(r->line, r->func, &fd, r->want);
		if (r->all_named && fd.nr_unknown)
			fail_msg("line %d: %s: %d memory instruction(s) not named (%s)", r->line,
				 r->func, fd.nr_unknown, fd.last_reason);
		for (int k = 0; r->type && k < fd.nr; k++)
			if (strcmp(fd.type_of[k], r->type))
				fail_msg("line %d: %s: type '%s', want '%s'", r->line, r->func,
					 fd.type_of[k], r->type);
		member_at += fd.nr_member_at;
	}
	return member_at;
}

static void test_symtype_o2(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;

	assert_int_equal(sym_session_new(&s, NULL), 0);
	assert_true(run_rows(s, &f->o2, common_rows, sizeof(common_rows) / sizeof(common_rows[0])) > 0);
	sym_session_free(s);
}

/* A non-PIE build (its flags come after build()'s -fPIE -pie): ELF addresses are run-time
 * addresses. */
static void test_symtype_nopie(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;

	assert_int_equal(sym_session_new(&s, NULL), 0);
	run_rows(s, &f->nopie, common_rows, sizeof(common_rows) / sizeof(common_rows[0]));
	sym_session_free(s);
}

static void test_symtype_o1(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;

	assert_int_equal(sym_session_new(&s, NULL), 0);
	run_rows(s, &f->o1, common_rows, sizeof(common_rows) / sizeof(common_rows[0]));
	sym_session_free(s);
}

/* The address of the @nth instruction (0-based) of @func in @b, at run time. */
static uint64_t insn_ip(const struct bin *b, const char *func, int nth)
{
	struct func fn;
	csh cs;
	cs_insn *in;
	const uint8_t *p;
	size_t left;
	uint64_t a, ip = 0;

	read_func(b->path, func, &fn);
	open_cs(&cs, b->machine);
	in = c2c_cs_malloc(cs);
	p = fn.code, left = fn.size, a = fn.addr;
	for (int i = 0; c2c_cs_disasm_iter(cs, &p, &left, &a, in); i++)
		if (i == nth) {
			ip = b->base + in->address;
			break;
		}
	c2c_cs_free(in, 1);
	c2c_cs_close(&cs);
	free(fn.code);
	if (!ip)
		fail_msg("%s has no instruction %d", func, nth);
	return ip;
}

/* Instructions that name nothing say why, through the cache too. */
static void test_symtype_reasons(void **state)
{
	static const struct {
		int line;
		const char *func;
		int nth;            /* instruction index in the -O2 build */
		const char *reason; /* exact */
	} rows[] = {
		{ __LINE__, "no_mem", 0, "[type unknown]: no memory operand" },      /* imul */
		{ __LINE__, "no_mem", 1, "[type unknown]: no memory access (address arithmetic or nop)" },
		{ __LINE__, "from_long", 0,
		  "[type unknown]: no pointer variable in the base register at this pc" },
		{ __LINE__, "sum", 2, "[type unknown]: no memory operand" },         /* ret */
	};
	struct fix *f = *state;
	struct sym_session *s;

	assert_int_equal(sym_session_new(&s, NULL), 0);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			struct sym_data_info info;
			uint64_t ip = insn_ip(&f->o2, rows[i].func, rows[i].nth);
			int rc = sym_data_type(s, map_of(&f->o2, ip), ip, 0, &info);
			if (rc != -ENOENT || !info.reason || strcmp(info.reason, rows[i].reason))
				fail_msg("line %d: rc %d reason '%s'", rows[i].line, rc,
					 info.reason ? info.reason : "(null)");
			assert_null(info.member);
			assert_null(info.type);
		}
	}
	sym_session_free(s);
}

/* No debug info, a code address in no file, misuse. */
static void test_symtype_no_info(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;
	struct sym_data_info info;
	struct trace_mmap heap = f->o2.map[0];
	uint64_t ip = insn_ip(&f->o2nodebug, "sum", 0);

	assert_int_equal(sym_session_new(&s, NULL), 0);
	assert_int_equal(sym_data_type(s, map_of(&f->o2nodebug, ip), ip, 0, &info), -ENOENT);
	assert_string_equal(info.reason, "[type unknown]: no debug info");
	heap.filename = "[heap]";
	assert_int_equal(sym_data_type(s, &heap, heap.start, 0, &info), -ENOENT);
	assert_string_equal(info.reason, "heap");
	assert_int_equal(sym_data_type(s, NULL, ip, 0, &info), -ENOENT);
	assert_string_equal(info.reason, "no mapping");
	/* an address past the mapping's file */
	ip = f->o2.map[f->o2.nr_map - 1].start + (1ull << 30);
	assert_int_equal(sym_data_type(s, &f->o2.map[0], ip, 0, &info), -ENOENT);
	assert_int_equal(sym_data_type(NULL, &f->o2.map[0], ip, 0, &info), -EINVAL);
	assert_int_equal(sym_data_type(s, &f->o2.map[0], ip, 0, NULL), -EINVAL);
	sym_session_free(s);
}

/* A repeat lookup gives the same answer, strings by pointer; the info is complete. */
static void test_symtype_cache(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;
	struct sym_data_info a, b;
	uint64_t ip = insn_ip(&f->o2, "outer_get", 2);

	assert_int_equal(sym_session_new(&s, NULL), 0);
	assert_int_equal(sym_data_type(s, map_of(&f->o2, ip), ip, 0x1234, &a), 0);
	assert_int_equal(sym_data_type(s, map_of(&f->o2, ip), ip, 0x5678, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_string_equal(a.var, "*o");
	assert_string_equal(a.type, "struct outer");
	assert_int_equal(a.var_size, 88);  /* tag 8, in 20, pad 4, st 48, name 8 */
	assert_int_equal(a.var_offset, 0x40);
	assert_string_equal(a.member, "o->st[1].misses");
	assert_null(a.reason);
	sym_session_free(s);
}

/* The bytes of the .text section of @path. */
static void read_text(const char *path, struct func *text)
{
	int fd;
	GElf_Shdr sh;
	Elf *elf = open_elf(path, &fd);
	Elf_Scn *scn = find_scn(elf, ".text", &sh);

	if (scn) {
		Elf_Data *d = elf_getdata(scn, NULL);
		text->addr = sh.sh_addr;
		text->size = sh.sh_size;
		text->code = xmalloc(sh.sh_size);
		memcpy(text->code, d->d_buf, sh.sh_size);
	}
	elf_end(elf);
	close(fd);
}

/* Every memory instruction of the -O2 program's .text, looked up twice: prints lookups per
 * second for first and repeated lookups; fails if too few are named for the test to mean much. */
static void test_symtype_rate(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;
	struct func text = {0};
	struct symtest_insns mem = {0};
	size_t named = 0;
	struct timespec t0, t1, t2;

	read_text(f->o2.path, &text);
	assert_non_null(text.code);
	assert_int_equal(symtest_mem_insns(&mem, text.code, text.size, text.addr, f->o2.base), 0);
	free(text.code);
	const uint64_t *ips = mem.ip;
	size_t nr = mem.nr;
	assert_true(nr > 20);
	assert_int_equal(sym_session_new(&s, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < nr; i++) {
		struct sym_data_info info;
		named += sym_data_type(s, map_of(&f->o2, ips[i]), ips[i], 0, &info) == 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int rep = 0; rep < 100; rep++)
		for (size_t i = 0; i < nr; i++) {
			struct sym_data_info info;
			sym_data_type(s, map_of(&f->o2, ips[i]), ips[i], 0, &info);
		}
	clock_gettime(CLOCK_MONOTONIC, &t2);
	double first = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	double rep = (t2.tv_sec - t1.tv_sec) + (t2.tv_nsec - t1.tv_nsec) / 1e9;
	fprintf(stderr, "test_symtype: %zu memory instructions, %zu named; first lookups %.0f/s "
		"(%.1f us each), cached %.0f/s\n", nr, named, nr / first, first * 1e6 / nr,
		100.0 * nr / rep);
	assert_true(named >= 20);
	sym_session_free(s);
	free(mem.ip);
	free(mem.next);
}

/* The answers do not depend on the order of the lookups (per-function caches, the register state
 * kept between lookups of one block): every instruction of .text looked up forward in one
 * session and backward in another gives the same rc, member and type. */
static void test_symtype_order(void **state)
{
	struct fix *f = *state;
	const struct bin *bins[] = { &f->o1, &f->o2 };

	for (size_t k = 0; k < sizeof(bins) / sizeof(bins[0]); k++) {
		const struct bin *b = bins[k];
		struct sym_session *fw, *bw;
		struct func text = {0};
		csh cs;
		cs_insn *in;
		const uint8_t *p;
		size_t left, nr = 0, cap = 0, named = 0;
		uint64_t a, *ips = NULL;

		read_text(b->path, &text);
		open_cs(&cs, EM_X86_64);
		in = c2c_cs_malloc(cs);
		p = text.code, left = text.size, a = text.addr;
		while (c2c_cs_disasm_iter(cs, &p, &left, &a, in)) {
			ips = xgrow(ips, &cap, nr + 1, sizeof(*ips));
			ips[nr++] = b->base + in->address;
		}
		c2c_cs_free(in, 1);
		c2c_cs_close(&cs);
		assert_int_equal(sym_session_new(&fw, NULL), 0);
		assert_int_equal(sym_session_new(&bw, NULL), 0);
		int *rc = xcalloc(nr, sizeof(*rc));
		struct sym_data_info *want = xcalloc(nr, sizeof(*want));
		for (size_t i = 0; i < nr; i++)
			rc[i] = sym_data_type(fw, map_of(b, ips[i]), ips[i], 0, &want[i]);
		for (size_t i = nr; i-- > 0;) {
			struct sym_data_info got;
			int r = sym_data_type(bw, map_of(b, ips[i]), ips[i], 0, &got);
			named += r == 0;
			/* session strings: equal text is not the same pointer across sessions */
			if (r != rc[i] || (!r && (strcmp(got.member, want[i].member) ||
						  !got.type != !want[i].type ||
						  (got.type && strcmp(got.type, want[i].type)))))
				fail_msg("%#llx: backward %d '%s', forward %d '%s'",
					 (unsigned long long)(ips[i] - b->base), r,
					 r ? got.reason : got.member, rc[i],
					 rc[i] ? want[i].reason : want[i].member);
		}
		assert_true(named >= 20);
		free(want);
		free(rc);
		free(ips);
		free(text.code);
		sym_session_free(fw);
		sym_session_free(bw);
	}
}

/* What one function's accesses must be named: @member with its variable, type and element
 * (sym_data_info.elem_size, elem_count; 0, 0: no unknown index), and no name containing
 * @never. */
struct want {
	int line;
	const char *func;
	const char *member, *var, *type;
	uint64_t elem_size, elem_count;
	const char *never;
};

static void check_wants(struct sym_session *s, const struct bin *b, const struct want *w,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct sym_data_info *got = NULL;
		struct found fd;
		walk_func(s, b, w[i].func, &fd);
		for (int k = 0; k < fd.nr; k++) {
			if (!strcmp(fd.name[k], w[i].member))
				got = &fd.info[k];
			if (w[i].never && strstr(fd.name[k], w[i].never))
				fail_msg("line %d: %s: %s named '%s'", w[i].line, b->path, w[i].func,
					 fd.name[k]);
		}
		if (!got)
			fail_msg("line %d: %s: %s: '%s' not named (%d named, last reason %s)",
				 w[i].line, b->path, w[i].func, w[i].member, fd.nr,
				 fd.last_reason ? fd.last_reason : "-");
		if (strcmp(got->var, w[i].var) || strcmp(got->type, w[i].type) ||
		    got->elem_size != w[i].elem_size || got->elem_count != w[i].elem_count)
			fail_msg("line %d: %s: %s: '%s' is var '%s' type '%s' element %llu of %llu",
				 w[i].line, b->path, w[i].func, w[i].member, got->var, got->type,
				 (unsigned long long)got->elem_size,
				 (unsigned long long)got->elem_count);
	}
}

/* C++ references are named with ".", pointers with "->" (g++ 12 -O2); base classes are not
 * named, and an empty base does not hide the member at its offset. */
static const struct row cxx_rows[] = {
	{ __LINE__, "byref", SET("s.b[2]", "s.next", "s.next->a"), "struct S", 1 },
	{ __LINE__, "byptr", SET("p->a"), "struct S", 1 },
	{ __LINE__, "ebo", SET("s.h.p", "s.len", "*s.h.p"), NULL, 1 },
	{ __LINE__, "based", SET("d[1].v", "d->w"), "struct Der", 1 },
};

/* prog_cxx.cc: past the object a reference to a polymorphic class designates lies a derived
 * class's member, not a next element: g++ devirtualized churn's w.step(i) into Adder's, whose
 * sum is 8 bytes past the Worker (not "(&w)[1]._vptr.Worker"); std::string's pointer shares
 * its offset with the empty allocator base (not the allocator's padding; _Alloc_hider's _M_p,
 * the whole of its _M_dataplus, is a library wrapper the path does not name); a class whose base
 * is only declared here names that base ("this->_State (+0)": its vtable pointer). */
static const struct row cxx2_rows[] = {
	{ __LINE__, "_ZL5churnRN5shard6WorkerEl.constprop.0", NONE, NULL, 0 },
};

static const struct want cxx2_wants[] = {
	{ __LINE__, "cxx_c_entry", "s._M_dataplus", "s", "string", 0, 0, "padding" },
};

static void test_symtype_cxx_ref(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;

	if (!f->cxx.ok)
		skip();
	assert_int_equal(sym_session_new(&s, NULL), 0);
	run_rows(s, &f->cxx, cxx_rows, sizeof(cxx_rows) / sizeof(cxx_rows[0]));
	if (f->cxx2.ok) {
		run_rows(s, &f->cxx2, cxx2_rows, sizeof(cxx2_rows) / sizeof(cxx2_rows[0]));
		check_wants(s, &f->cxx2, cxx2_wants, sizeof(cxx2_wants) / sizeof(cxx2_wants[0]));
	}
	sym_session_free(s);
}

/* -O1 and -O2: nothing else is named in these (test_symtype_hoisted()). */
static const struct row hoist_rows[] = {
	{ __LINE__, "thread_fn", SET("memory[]"), "size_t", 1 },
	{ __LINE__, "calc_hist", SET("thread_arg->data", "thread_arg->data_pos", "thread_arg->data_len",
				     "thread_arg->red[]", "thread_arg->green[]", "thread_arg->blue[]",
				     "thread_arg->data[]"), NULL, 1 },
};

/* Pointers computed before the loop (prog_hoist.c), at every level: the pointer arithmetic and
 * copies that made the base register are followed back to a variable DWARF names, through
 * "add rax, 8" in a loop (the pointer then moves by a multiple of 8: memory[] at -O2), the
 * member address a hoisted "int *blue" holds (the object is *thread_arg, not an int), and an
 * index register that carries an array's offset (G->ints[t].i as (t + 1) << 4 at -O0, shl and
 * an add of G at -O2: not G[].sp). -O0 keeps the pointer variables in the frame. */
static void test_symtype_hoisted(void **state)
{
	static const struct want all[] = {
		{ __LINE__, "thread_fn", "memory[]", "*memory", "size_t", 8, 0, NULL },
		{ __LINE__, "bump_ints", "G->ints[].i", "*G", "struct glob", 16, 8, "G[]" },
		{ __LINE__, "calc_hist", "thread_arg->data", "*thread_arg", "thread_arg_t", 0, 0, NULL },
	};
	static const struct want opt[] = {  /* -O1 and -O2: the hoisted member pointers */
		{ __LINE__, "calc_hist", "thread_arg->blue[]", "*thread_arg", "thread_arg_t", 4, 256,
		  "->sp" },
		{ __LINE__, "calc_hist", "thread_arg->green[]", "*thread_arg", "thread_arg_t", 4, 256,
		  NULL },
		{ __LINE__, "calc_hist", "thread_arg->red[]", "*thread_arg", "thread_arg_t", 4, 256,
		  NULL },
	};
	struct fix *f = *state;
	struct sym_session *s;

	for (int i = 0; i < 3; i++) {
		assert_int_equal(sym_session_new(&s, NULL), 0);
		check_wants(s, &f->hoist[i], all, sizeof(all) / sizeof(all[0]));
		if (i) {
			check_wants(s, &f->hoist[i], opt, sizeof(opt) / sizeof(opt[0]));
			run_rows(s, &f->hoist[i], hoist_rows, sizeof(hoist_rows) / sizeof(hoist_rows[0]));
		}
		sym_session_free(s);
	}
}

/* OpenMP (prog_omp.c, gcc -fopenmp -O0): the outlined main._omp_fn.0 is a DW_TAG_subprogram
 * nested in main's DIE, outside main's range: it is found, and its locals are named. */
static void test_symtype_omp_nested(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;
	struct found fd;
	int id = 0;

	if (!f->omp[0].ok)
		skip();
	assert_int_equal(sym_session_new(&s, NULL), 0);
	walk_func(s, &f->omp[0], "main._omp_fn.0", &fd);
	for (int i = 0; i < fd.nr; i++)
		id |= !strcmp(fd.name[i], "id") && !strcmp(fd.type_of[i], "int");
	if (!id)
		fail_msg("main._omp_fn.0: 'id' not named (%d named, last reason %s)", fd.nr,
			 fd.last_reason ? fd.last_reason : "-");
	sym_session_free(s);
}

/* check_wants() on each of the @nb builds @b the compiler could make (one session each): the
 * test is skipped when it made none. */
static void check_built(const struct bin *b, int nb, const struct want *w, size_t n)
{
	struct sym_session *s;
	int ran = 0;

	for (int i = 0; i < nb; i++) {
		if (!b[i].ok)
			continue;
		assert_int_equal(sym_session_new(&s, NULL), 0);
		check_wants(s, &b[i], w, n);
		sym_session_free(s);
		ran++;
	}
	if (!ran)
		skip();
}

/* OpenMP (prog_omp.c, gcc -fopenmp at -O0, -O1, -O2): the outlined main._omp_fn.0 is found
 * though its DIE is nested in main's, and its sum[id] names main's sum, which DWARF locates at
 * *(.omp_data_i->sum); main's own loop over sum, through a copy of rsp advanced by 8, too. */
static void test_symtype_openmp(void **state)
{
	static const struct want fn[] = {
		{ __LINE__, "main._omp_fn.0", "sum[]", "sum", "double[4]", 8, 4, NULL },
		{ __LINE__, "main._omp_fn.0", "actual_nthreads", "actual_nthreads", "int", 0, 0, NULL },
		{ __LINE__, "main", "sum[]", "sum", "double[4]", 8, 4, NULL },
	};
	struct fix *f = *state;

	check_built(f->omp, 3, fn, sizeof(fn) / sizeof(fn[0]));
}

/* gfortran -fopenmp (prog_omp.f90): the outlined function reaches sum(0:3) at
 * *(*(frame - 56) + 8) at -O0, at *(*rdi) at -O2 (the block pointer copied to rbp before the
 * calls), as DWARF says; a column-major array with bounds from 1 is indexed in
 * source order from 0 (grid(2,3), 72 bytes into grid(4,8), is grid[1][2]). */
static void test_symtype_fortran(void **state)
{
	static const struct want fn[] = {
		{ __LINE__, "MAIN__._omp_fn.0", "sum[]", "sum", "real(kind=8)[4]", 8, 4, NULL },
		{ __LINE__, "MAIN__", "grid[1][2]", "grid", "real(kind=8)[4][8]", 0, 0, NULL },
	};
	struct fix *f = *state;

	check_built(f->fortran, 2, fn, sizeof(fn) / sizeof(fn[0]));
}

/* Every byte of .text as an IP (mid-instruction ones decode to anything): each lookup returns 0
 * with a member or -ENOENT with a reason; under ASan/UBSan nothing else happens. */
static void test_symtype_every_byte(void **state)
{
	struct fix *f = *state;
	const struct bin *bins[] = { &f->o2, &f->o1, &f->a64, &f->hoist[0], &f->hoist[2],
				     &f->omp[0], &f->omp[1], &f->fortran[0],
				     &f->fortran[1] };

	for (size_t k = 0; k < sizeof(bins) / sizeof(bins[0]); k++) {
		const struct bin *b = bins[k];
		struct sym_session *s;
		struct func text = {0};
		size_t named = 0;

		if (!b->ok)
			continue;
		read_text(b->path, &text);
		assert_non_null(text.code);
		assert_int_equal(sym_session_new(&s, NULL), 0);
		for (uint64_t a = text.addr; a < text.addr + text.size; a++) {
			struct sym_data_info info;
			int rc = sym_data_type(s, map_of(b, b->base + a), b->base + a, 0, &info);
			if (rc == 0) {
				assert_non_null(info.member);
				named++;
			} else {
				assert_int_equal(rc, -ENOENT);
				assert_non_null(info.reason);
			}
		}
		assert_true(named > 0);
		sym_session_free(s);
		free(text.code);
	}
}

/* clang 14 -O2 for AArch64: ldp reads two members through one operand (named by its first). */
static const struct row a64_rows[] = {
	{ __LINE__, "sum", SET("st->hits"), "struct stats", 1 },
	{ __LINE__, "bump", SET("s->total"), "stats_t", 1 },
	{ __LINE__, "walk", SET("n->next"), "struct node", 1 },
	{ __LINE__, "item_count", SET("it[].count"), "struct item", 1 },
	{ __LINE__, "outer_get", SET("o->in.y[2]", "o->st[1].misses", "o->name[3]"), "struct outer", 1 },
	{ __LINE__, "elem2", SET("st[2].total"), "struct stats", 1 },
	{ __LINE__, "no_mem", NONE, NULL, 1 },
	{ __LINE__, "from_long", NONE, NULL, 0 },
	{ __LINE__, "deref2", SET("n->next", "n->next->key"), "struct node", 1 },
	{ __LINE__, "gload", SET("gstats.misses"), "struct stats", 1 },  /* adrp + ldr */
	{ __LINE__, "inner_ptr", SET("s2->hits", "s2->total"), "struct stats", 1 },
	{ __LINE__, "ghead_key", SET("ghead", "ghead->key"), NULL, 1 },
	{ __LINE__, "on_stack", SET("local.misses", "arr[2]"), NULL, 0 },
	{ __LINE__, "via_inline", SET("h->sp", "p->hits"), NULL, 1 },
	{ __LINE__, "array_get", SET("o->in.y[]"), "struct outer", 1 },  /* add x8, x0, x1, lsl #2 */
	{ __LINE__, "count_hits", SET("c->hits", "gstop"), NULL, 1 },
	{ __LINE__, "count_misses", SET("c->misses", "gstop"), NULL, 1 },
};

static void test_symtype_a64(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;

	if (!f->a64.ok)
		skip();
	assert_int_equal(sym_session_new(&s, NULL), 0);
	run_rows(s, &f->a64, a64_rows, sizeof(a64_rows) / sizeof(a64_rows[0]));
	sym_session_free(s);
}

/* sym_data_type_back(Y, k) is sym_data_type() of the instruction k before Y, for every
 * instruction Y of the listed functions and k = 0..3; past the function's start, 15 or more
 * back, and mid-instruction IPs give -ENOENT with their reasons. */
static void check_back(struct sym_session *s, const struct bin *b, const char *func)
{
	uint64_t ip[4] = {0};
	struct func fn;
	csh cs;
	cs_insn *in;
	const uint8_t *p;
	size_t left;
	uint64_t a;
	int nth = 0;

	read_func(b->path, func, &fn);
	open_cs(&cs, b->machine);
	in = c2c_cs_malloc(cs);
	p = fn.code, left = fn.size, a = fn.addr;
	for (; c2c_cs_disasm_iter(cs, &p, &left, &a, in); nth++) {
		struct sym_data_info want, got;
		uint64_t y = b->base + in->address;
		const struct trace_mmap *m = map_of(b, y);
		memmove(&ip[1], &ip[0], 3 * sizeof(ip[0]));
		ip[0] = y;
		for (int k = 0; k < 4 && k <= nth; k++) {
			int rw = sym_data_type(s, map_of(b, ip[k]), ip[k], 0, &want);
			int rg = sym_data_type_back(s, m, y, (unsigned)k, 0, &got);
			if (rw != rg || memcmp(&want, &got, sizeof(want)))
				fail_msg("%s+%#llx back %d: %d '%s' | want %d '%s'", func,
					 (unsigned long long)(in->address - fn.addr), k, rg,
					 got.member ? got.member : got.reason, rw,
					 want.member ? want.member : want.reason);
		}
		if (nth + 1 < 15) {
			assert_int_equal(sym_data_type_back(s, m, y, (unsigned)nth + 1, 0, &got),
					 -ENOENT);
			assert_string_equal(got.reason, "[type unknown]: the access would be "
							"before the start of the function");
			assert_null(got.member);
		}
		assert_int_equal(sym_data_type_back(s, m, y, 15, 0, &got), -ENOENT);
		assert_string_equal(got.reason, "[type unknown]: the access is 15 or more "
						"instructions before the sample");
		if (in->size > 1) {
			assert_int_equal(sym_data_type_back(s, m, y + 1, 1, 0, &got), -ENOENT);
			assert_string_equal(got.reason,
					    "[type unknown]: not an instruction boundary of its function");
		}
	}
	assert_true(nth > 1);
	c2c_cs_free(in, 1);
	c2c_cs_close(&cs);
	free(fn.code);
}

static void test_symtype_back(void **state)
{
	static const char *const funcs[] = { "sum", "walk", "outer_get", "via_inline", "gload",
					     "inner_ptr", "on_stack", "count_misses", "deref2" };
	struct fix *f = *state;
	const struct bin *bins[] = { &f->o2, &f->o1, &f->nopie, &f->a64 };
	struct sym_data_info info;
	struct trace_mmap heap = f->o2.map[0];
	struct sym_session *s;

	for (size_t k = 0; k < sizeof(bins) / sizeof(bins[0]); k++) {
		if (!bins[k]->ok)
			continue;
		assert_int_equal(sym_session_new(&s, NULL), 0);
		for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
			check_back(s, bins[k], funcs[i]);
		sym_session_free(s);
	}
	assert_int_equal(sym_session_new(&s, NULL), 0);
	heap.filename = "[heap]";
	assert_int_equal(sym_data_type_back(s, &heap, heap.start, 2, 0, &info), -ENOENT);
	assert_string_equal(info.reason, "heap");
	uint64_t ip = insn_ip(&f->o2, "sum", 1);
	assert_int_equal(sym_data_type_back(NULL, map_of(&f->o2, ip), ip, 1, 0, &info), -EINVAL);
	assert_int_equal(sym_data_type_back(s, map_of(&f->o2, ip), ip, 1, 0, NULL), -EINVAL);
	assert_int_equal(sym_data_type_back(s, map_of(&f->o2, ip), ip, 1, 0, &info), 0);
	assert_string_equal(info.member, "st->hits");
	sym_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symtype_o2),
		cmocka_unit_test(test_symtype_o1),
		cmocka_unit_test(test_symtype_nopie),
		cmocka_unit_test(test_symtype_a64),
		cmocka_unit_test(test_symtype_cxx_ref),
		cmocka_unit_test(test_symtype_omp_nested),
		cmocka_unit_test(test_symtype_hoisted),
		cmocka_unit_test(test_symtype_openmp),
		cmocka_unit_test(test_symtype_fortran),
		cmocka_unit_test(test_symtype_reasons),
		cmocka_unit_test(test_symtype_no_info),
		cmocka_unit_test(test_symtype_cache),
		cmocka_unit_test(test_symtype_back),
		cmocka_unit_test(test_symtype_order),
		cmocka_unit_test(test_symtype_rate),
		cmocka_unit_test(test_symtype_every_byte),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
