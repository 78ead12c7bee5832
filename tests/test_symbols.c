/* Tests of report/resolve/symbols.h. The programs under tests/symprogs/ are compiled at run time into a
 * temporary directory; expected addresses come from the binaries' own symbol and line tables
 * (read here with libelf/libdw), and mappings are built the way the kernel reports them for a
 * process that mapped the binary (PIE at a random page-aligned base, non-PIE at its link
 * address, one mapping per PT_LOAD with its page-aligned file offset). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"  /* sym_demangle_available() */
#include "tests/symprogs/symprog.h"
#include "tests/symprogs/symtest.h"

struct fix {
	char tmp[512];
	struct bin inl;        /* prog_inline.c -O2 PIE */
	struct bin pie;        /* prog_data.c -O1 PIE */
	struct bin nopie;      /* prog_data.c -O1 -no-pie */
	struct bin shifted;    /* prog_data.c -DSHIFT: another build of the same program */
	struct bin nodebug;    /* prog_data.c without -g */
	char symfs[1024];  /* holds /opt/app/prog (stripped) and prog.debug */
	char orig_debug[1024]; /* .build-id tree holding pie's debug file */
	int line_body, line_call, line_hits;
};

static struct fix *F;

/* --- log capture -------------------------------------------------------------------------- */

static int nr_warn;
static char last_warn[1024];

static void log_hook(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == C2C_LOG_DEBUG)
		fprintf(stderr, "debug: %s\n", msg);
	if (level == C2C_LOG_WARN) {
		nr_warn++;
		snprintf(last_warn, sizeof(last_warn), "%s", msg);
	}
}

/* --- helpers ------------------------------------------------------------------------------ */

static int marker_line(const char *src, const char *tag)
{
	char path[PATH_MAX], line[512];
	int n = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", SRCDIR, src);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (strstr(line, tag)) {
			fclose(fp);
			return n;
		}
	}
	fclose(fp);
	return -1;
}

static uint64_t elf_sym(const char *path, const char *name)
{
	GElf_Sym sym;
	int fd;
	Elf *elf = open_elf(path, &fd);
	uint64_t val = find_sym(elf, name, 0, &sym) ? sym.st_value : 0;

	elf_end(elf);
	close(fd);
	if (!val)
		fail_msg("no symbol '%s' in %s", name, path);
	return val;
}

static uint64_t elf_section(const char *path, const char *name)
{
	GElf_Shdr sh;
	int fd;
	Elf *elf = open_elf(path, &fd);
	uint64_t addr = find_scn(elf, name, &sh) ? sh.sh_addr : 0;

	elf_end(elf);
	close(fd);
	if (!addr)
		fail_msg("no section '%s' in %s", name, path);
	return addr;
}

static int row_unique(Dwarf_Lines *lines, size_t n, size_t i, Dwarf_Addr a, int line)
{
	for (size_t j = 0; j < n; j++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, j);
		Dwarf_Addr b;
		int ln;
		bool end;
		dwarf_lineaddr(l, &b);
		dwarf_lineno(l, &ln);
		dwarf_lineendsequence(l, &end);
		if (j != i && b == a && (ln != line || end))
			return 0;
	}
	return 1;
}

/* An address whose line-table row is @line of @src, alone at its address. */
static uint64_t line_addr(const char *path, const char *src, int line)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint64_t found = 0;
	int fd = open(path, O_RDONLY);
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);

	assert_non_null(dw);
	while (!found && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t n;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &n) == 0) {
			for (size_t i = 0; i < n && !found; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				const char *f = dwarf_linesrc(l, NULL, NULL);
				Dwarf_Addr a;
				int ln;
				dwarf_lineno(l, &ln);
				dwarf_lineaddr(l, &a);
				if (ln == line && f && strstr(f, src) &&
				    row_unique(lines, n, i, a, line))
					found = a;
			}
		}
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	if (!found)
		fail_msg("no row for %s:%d in %s", src, line, path);
	return found;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

/* What addr2line (the srcline source of perf 6.1 without libbfd) prints first for @vaddr. */
static int addr2line_first(const char *bin, uint64_t vaddr, char *out, size_t cap)
{
	char cmd[PATH_MAX + 64];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "addr2line -i -e '%s' 0x%llx 2>/dev/null", bin,
		 (unsigned long long)vaddr);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(out, cap, p))
		out[0] = 0;
	pclose(p);
	out[strcspn(out, "\n")] = 0;
	return out[0] ? 0 : -1;
}

static int build(struct fix *f, struct bin *b, const char *name, const char *src,
		 const char *flags)
{
	snprintf(b->path, sizeof(b->path), "%s/%s", f->tmp, name);
	return run("cc %s -pthread -I%s -o '%s' %s/%s", flags, SRCDIR, b->path, SRCDIR, src);
}

static int group_setup(void **state)
{
	struct fix *f = xcalloc(1, sizeof(*f));
	char app[PATH_MAX + 32], hex[64];
	struct bin stripped;

	if (symtest_begin("test_symbols", "prog_data.c", f->tmp, sizeof(f->tmp))) {
		free(f);
		return -1;
	}
	if (build(f, &f->inl, "inl", "prog_inline.c", "-g -O2") ||
	    build(f, &f->pie, "pie", "prog_data.c", "-g -O1 -fPIE -pie") ||
	    build(f, &f->nopie, "nopie", "prog_data.c", "-g -O1 -fno-pie -no-pie") ||
	    build(f, &f->shifted, "shifted", "prog_data.c", "-g -O1 -fPIE -pie -DSHIFT") ||
	    build(f, &f->nodebug, "nodebug", "prog_data.c", "-g0 -O1 -fPIE -pie"))
		return -1;
	/* symfs tree: /opt/app/prog stripped, prog.debug next to it via .gnu_debuglink */
	snprintf(f->symfs, sizeof(f->symfs), "%s/symfs", f->tmp);
	snprintf(app, sizeof(app), "%s/opt/app", f->symfs);
	if (run("mkdir -p '%s' && objcopy --only-keep-debug '%s' '%s/prog.debug' && "
		"objcopy --strip-all --add-gnu-debuglink='%s/prog.debug' '%s' '%s/prog'",
		app, f->pie.path, app, app, f->pie.path, app))
		return -1;
	/* a .build-id tree with the debug file of pie */
	snprintf(stripped.path, sizeof(stripped.path), "%s", f->pie.path);
	make_maps(&stripped, 0);
	for (int i = 0; i < stripped.id_len; i++)
		sprintf(hex + 2 * i, "%02x", stripped.id[i]);
	snprintf(f->orig_debug, sizeof(f->orig_debug), "%s/debug", f->tmp);
	if (run("mkdir -p '%s/.build-id/%.2s' && cp '%s/prog.debug' '%s/.build-id/%.2s/%s.debug'",
		f->orig_debug, hex, app, f->orig_debug, hex, hex + 2))
		return -1;
	f->line_body = marker_line("prog_inline.c", "MARK:bump_body");
	f->line_call = marker_line("prog_inline.c", "MARK:bump_call");
	f->line_hits = marker_line("prog_data.c", "MARK:hits_store");
	c2c_log_set_hook(log_hook, NULL);
	if (getenv("SYMTEST_DEBUG"))
		c2c_log_set_level(C2C_LOG_DEBUG);
	F = f;
	*state = f;
	return 0;
}

static int group_teardown(void **state)
{
	struct fix *f = *state;

	return symtest_end(f, f ? f->tmp : NULL);
}

static struct sym_session *session(const struct sym_opts *o)
{
	struct sym_session *s = NULL;
	struct sym_opts def = {0};

	assert_int_equal(sym_session_new(&s, o ? o : &def), 0);
	return s;
}

/* --- code --------------------------------------------------------------------------------- */

static void check_code_inline(struct sym_session *s, struct bin *b)
{
	uint64_t v = line_addr(b->path, "prog_inline.c", F->line_body);
	struct sym_code_info ci;
	char a2l[PATH_MAX + 32], ours[PATH_MAX + 32];

	assert_int_equal(sym_code(s, map_or_last(b, b->base + v), b->base + v, &ci), 0);
	assert_string_equal(ci.symbol, "worker");
	assert_int_equal(ci.sym_offset, v - elf_sym(b->path, "worker"));
	assert_string_equal(base_name(ci.srcfile), "prog_inline.c");
	assert_int_equal(ci.line, F->line_body);
	assert_string_equal(ci.inline_fn, "bump");
	assert_string_equal(base_name(ci.call_file), "prog_inline.c");
	assert_int_equal(ci.call_line, F->line_call);
	/* perf prints addr2line's first (innermost) location: ours must equal it */
	if (addr2line_first(b->path, v, a2l, sizeof(a2l)) == 0) {
		snprintf(ours, sizeof(ours), "%s:%u", ci.srcfile, ci.line);
		char *disc = strstr(a2l, " (discriminator");
		if (disc)
			*disc = 0;
		assert_string_equal(ours, a2l);
	}
}

static void test_symbols_code_inline_pie(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);
	struct sym_code_info ci;
	uint64_t w;

	make_maps(&f->inl, random_base());
	check_code_inline(s, &f->inl);
	w = elf_sym(f->inl.path, "worker");
	for (uint64_t off = 0; off < 4; off += 3) {
		uint64_t a = f->inl.base + w + off;
		assert_int_equal(sym_code(s, map_or_last(&f->inl, a), a, &ci), 0);
		assert_string_equal(ci.symbol, "worker");
		assert_int_equal(ci.sym_offset, off);
	}
	sym_session_free(s);

	struct sym_opts o = { .no_inline = 1 };
	s = session(&o);
	uint64_t v = line_addr(f->inl.path, "prog_inline.c", f->line_body);
	assert_int_equal(sym_code(s, map_or_last(&f->inl, f->inl.base + v), f->inl.base + v, &ci),
			 0);
	assert_string_equal(ci.symbol, "worker");
	assert_null(ci.inline_fn);
	assert_int_equal(ci.line, f->line_body);
	sym_session_free(s);
}

static void check_code_data_prog(struct sym_session *s, struct bin *b)
{
	uint64_t v = line_addr(b->path, "prog_data.c", F->line_hits);
	uint64_t a = b->base + v;
	struct sym_code_info ci;

	assert_int_equal(sym_code(s, map_or_last(b, a), a, &ci), 0);
	assert_string_equal(ci.symbol, "worker");
	assert_int_equal(ci.sym_offset, v - elf_sym(b->path, "worker"));
	assert_string_equal(base_name(ci.srcfile), "prog_data.c");
	assert_int_equal(ci.line, F->line_hits);
	assert_null(ci.inline_fn);
	assert_null(ci.reason);
	/* main, at its entry */
	a = b->base + elf_sym(b->path, "main");
	assert_int_equal(sym_code(s, map_or_last(b, a), a, &ci), 0);
	assert_string_equal(ci.symbol, "main");
	assert_int_equal(ci.sym_offset, 0);
}

static void test_symbols_code_pie_and_nopie(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);

	make_maps(&f->pie, random_base());
	make_maps(&f->nopie, 0);
	assert_int_equal(f->nopie.e_type, ET_EXEC);
	assert_int_equal(f->pie.e_type, ET_DYN);
	check_code_data_prog(s, &f->pie);
	check_code_data_prog(s, &f->nopie);
	sym_session_free(s);
}

/* --- PLT ---------------------------------------------------------------------------------- */

/* The .dynsym name of relocation @k of .rela.plt in @path, "" past the end. */
static void rela_plt_name(const char *path, size_t k, char *out, size_t len)
{
	Elf_Scn *scn = NULL;
	size_t shstr;
	int fd;
	Elf *elf = open_elf(path, &fd);

	out[0] = 0;
	assert_int_equal(elf_getshdrstrndx(elf, &shstr), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh, dsh;
		GElf_Rela r;
		GElf_Sym sym;
		gelf_getshdr(scn, &sh);
		const char *n = elf_strptr(elf, shstr, sh.sh_name);
		if (!n || strcmp(n, ".rela.plt") || k >= sh.sh_size / sh.sh_entsize)
			continue;
		Elf_Scn *dyn = elf_getscn(elf, sh.sh_link);
		assert_non_null(gelf_getrela(elf_getdata(scn, NULL), (int)k, &r));
		assert_non_null(gelf_getshdr(dyn, &dsh));
		assert_non_null(gelf_getsym(elf_getdata(dyn, NULL), (int)GELF_R_SYM(r.r_info), &sym));
		snprintf(out, len, "%s", elf_strptr(elf, dsh.sh_link, sym.st_name));
	}
	elf_end(elf);
	close(fd);
}

enum plt_where { PLT_ENTRY, PLT_HEADER };

/* prog_data.c PIE; prog_plt.c -nostartfiles (no _init); the same stripped of .symtab, with
 * plt_sink exported (.dynsym holds one defined object), or bare (.dynsym defines nothing) */
enum plt_bin { PLT_PIE, PLT_NOSTART, PLT_STRIPPED, PLT_BARE, PLT_NR };

struct plt_row {
	int line;
	enum plt_bin bin;
	enum plt_where where;
	int k;                /* entry index (-1: the last one) */
	uint64_t off;         /* byte inside the entry or header */
	const char *want;     /* NULL: "<k-th .rela.plt symbol>@plt"; "!": no symbol */
};

static const struct plt_row plt_rows[] = {
	/* perf names entry k after .rela.plt's k-th relocation; x86-64 entries and header are 16 */
	{ __LINE__, PLT_NOSTART, PLT_ENTRY, 0, 0, NULL },
	{ __LINE__, PLT_NOSTART, PLT_ENTRY, 1, 11, NULL },
	{ __LINE__, PLT_NOSTART, PLT_ENTRY, -1, 15, NULL },
	/* the lazy-binding header: nothing without _init ... */
	{ __LINE__, PLT_NOSTART, PLT_HEADER, 0, 6, "!" },
	/* ... and _init, stretched to the next symbol, where .init comes before .plt */
	{ __LINE__, PLT_PIE, PLT_HEADER, 0, 6, "_init" },
	{ __LINE__, PLT_PIE, PLT_HEADER, 0, 0, "_init" },
	/* no function symbol at all: the entries are named as soon as perf loaded one symbol (the
	 * object plt_sink; regression: nothing was named), not when it loaded none */
	{ __LINE__, PLT_STRIPPED, PLT_ENTRY, 0, 0, NULL },
	{ __LINE__, PLT_STRIPPED, PLT_ENTRY, -1, 15, NULL },
	{ __LINE__, PLT_BARE, PLT_ENTRY, 0, 0, "!" },
};

static size_t nr_rela_plt(const char *path)
{
	char name[256];
	size_t n = 0;

	for (rela_plt_name(path, 0, name, sizeof(name)); name[0];
	     rela_plt_name(path, ++n, name, sizeof(name)))
		;
	return n;
}

static void test_symbols_plt(void **state)
{
	static const char *const flags = "-O2 -g -fno-builtin -nostartfiles -DNOSTART -Wl,-z,lazy";
	struct fix *f = *state;
	struct bin bins[PLT_NR], *nostart = &bins[PLT_NOSTART];
	char fl[256];

	assert_int_equal(build(f, nostart, "plt_nostart", "prog_plt.c", flags), 0);
	snprintf(fl, sizeof(fl), "%s -Wl,--export-dynamic-symbol=plt_sink", flags);
	assert_int_equal(build(f, &bins[PLT_STRIPPED], "plt_export", "prog_plt.c", fl), 0);
	snprintf(bins[PLT_BARE].path, sizeof(bins[PLT_BARE].path), "%s/plt_bare", f->tmp);
	assert_int_equal(run("objcopy --strip-all '%s' '%s' && objcopy --strip-all '%s'",
			     nostart->path, bins[PLT_BARE].path, bins[PLT_STRIPPED].path), 0);
	bins[PLT_PIE] = f->pie;
	for (int i = 0; i < PLT_NR; i++)
		make_maps(&bins[i], random_base());
	for (size_t i = 0; i < sizeof(plt_rows) / sizeof(plt_rows[0]); i++) {
		const struct plt_row *r = &plt_rows[i];
		struct bin *b = &bins[r->bin];
		struct sym_session *s = session(NULL);
		struct sym_code_info ci;
		char want[300], name[256];
		size_t n = nr_rela_plt(b->path);
		int k = r->k < 0 ? (int)n - 1 : r->k;
		uint64_t plt = elf_section(b->path, ".plt");
		uint64_t v = r->where == PLT_HEADER ? plt + r->off : plt + 16 + 16 * (uint64_t)k + r->off;

		fprintf(stderr, "row at line %d\n", r->line);
		assert_true(n >= 3);
		int rc = sym_code(s, map_or_last(b, b->base + v), b->base + v, &ci);
		if (r->want && !strcmp(r->want, "!")) {
			assert_int_equal(rc, -ENOENT);
			assert_null(ci.symbol);
			sym_session_free(s);
			continue;
		}
		assert_int_equal(rc, 0);
		if (r->want) {
			assert_string_equal(ci.symbol, r->want);
			assert_int_equal(ci.sym_offset, v - elf_sym(b->path, r->want));
		} else {
			rela_plt_name(b->path, (size_t)k, name, sizeof(name));
			snprintf(want, sizeof(want), "%s@plt", name);
			assert_string_equal(ci.symbol, want);
			assert_int_equal(ci.sym_offset, r->off);
		}
		sym_session_free(s);
	}
	/* the object of the stripped file names its data (perf script names /usr/bin/true's
	 * __progname so) */
	struct bin *b = &bins[PLT_STRIPPED];
	struct sym_session *s = session(NULL);
	struct sym_code_info ci;
	GElf_Sym sym = {0};
	int fd;
	Elf *elf = open_elf(b->path, &fd);
	assert_true(find_sym_in(elf, SHT_DYNSYM, "plt_sink", 0, &sym));
	elf_end(elf);
	close(fd);
	uint64_t a = b->base + sym.st_value + 3;
	assert_int_equal(sym_symbol(s, map_or_last(b, a), a, &ci), 0);
	assert_string_equal(ci.symbol, "plt_sink");
	assert_int_equal(ci.sym_offset, 3);
	sym_session_free(s);
}

/* Where the line table has no row, perf 6.1 still asks addr2line, which falls back to the symbol
 * table: the function closest below the address in its section and the STT_FILE name before it
 * (for local symbols, or before any other symbol was seen). srcfile is what addr2line names then
 * ("??" for no file), with line 0; NULL when addr2line finds no function in the section (the
 * PLT). */
enum a2l_bin { A2L_INL, A2L_NODEBUG, A2L_PIE };

struct a2l_row {
	int line;
	enum a2l_bin bin;
	const char *at;       /* ELF symbol, or ".plt" for the PLT section */
	uint64_t off;
	const char *symbol;   /* what sym_code() names */
	const char *srcfile;  /* NULL: addr2line finds nothing */
};

static const struct a2l_row a2l_rows[] = {
	/* crtstuff.c's size-0 local functions: the STT_FILE symbol before them */
	{ __LINE__, A2L_INL, "deregister_tm_clones", 0, "deregister_tm_clones", "crtstuff.c" },
	{ __LINE__, A2L_INL, "frame_dummy", 4, "frame_dummy", "crtstuff.c" },
	{ __LINE__, A2L_NODEBUG, "register_tm_clones", 1, "register_tm_clones", "crtstuff.c" },
	{ __LINE__, A2L_NODEBUG, "__do_global_dtors_aux", 0, "__do_global_dtors_aux", "crtstuff.c" },
	/* global symbols after a STT_FILE that followed other symbols: no file */
	{ __LINE__, A2L_INL, "_start", 0, "_start", "??" },
	{ __LINE__, A2L_INL, "_init", 0, "_init", "??" },
	{ __LINE__, A2L_NODEBUG, "worker", 5, "worker", "??" },
	/* the PLT: perf's Symbol is the _init it stretched, addr2line finds nothing in .plt */
	{ __LINE__, A2L_PIE, ".plt", 6, "_init", NULL },
};

static void test_symbols_a2l_fallback(void **state)
{
	struct fix *f = *state;
	struct bin *bins[] = { [A2L_INL] = &f->inl, [A2L_NODEBUG] = &f->nodebug, [A2L_PIE] = &f->pie };

	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++)
		make_maps(bins[i], random_base());
	for (size_t i = 0; i < sizeof(a2l_rows) / sizeof(a2l_rows[0]); i++) {
		const struct a2l_row *r = &a2l_rows[i];
		struct bin *b = bins[r->bin];
		struct sym_session *s = session(NULL);
		struct sym_code_info ci;
		char a2l[PATH_MAX + 32], ours[PATH_MAX + 32];
		uint64_t v = (!strcmp(r->at, ".plt") ? elf_section(b->path, r->at)
						     : elf_sym(b->path, r->at)) + r->off;
		int rc = sym_code(s, map_or_last(b, b->base + v), b->base + v, &ci);

		if (rc || !ci.symbol || strcmp(ci.symbol, r->symbol) || ci.line ||
		    (r->srcfile ? !ci.srcfile || strcmp(ci.srcfile, r->srcfile) : !!ci.srcfile))
			fail_msg("row at line %d: rc %d symbol '%s' srcfile '%s' line %u", r->line, rc,
				 ci.symbol ? ci.symbol : "(null)", ci.srcfile ? ci.srcfile : "(null)",
				 ci.line);
		/* and addr2line itself agrees: "FILE:?" with a function, "??:0" without */
		if (addr2line_first(b->path, v, a2l, sizeof(a2l)) == 0) {
			snprintf(ours, sizeof(ours), "%s:%s", ci.srcfile ? ci.srcfile : "??",
				 ci.srcfile ? "?" : "0");
			if (strcmp(ours, a2l))
				fail_msg("row at line %d: ours %s, addr2line %s", r->line, ours, a2l);
		}
		sym_session_free(s);
	}
}

/* C++ names as perf 6.1 shows them: libiberty's cplus_demangle() without parameter lists, for
 * functions and for the PLT entries perf names. */
struct cxx_row {
	int line;
	const char *mangled;  /* ELF symbol, or the .rela.plt target for "@plt" rows */
	int plt;
	const char *want;
	int alias;            /* another mangled name at the address (D1/D2): mangled one unknown */
};

static const struct cxx_row cxx_rows[] = {
	{ __LINE__, "_ZN5shard5Adder4stepEl", 0, "shard::Adder::step" },
	{ __LINE__, "_ZN5shard4spinINS_7CounterIlEEEEvRT_l", 0, "shard::spin<shard::Counter<long> >" },
	{ __LINE__, "_ZN5shard7CounterIiED2Ev", 0, "shard::Counter<int>::~Counter", 1 },
	{ __LINE__, "_ZL5churnRN5shard6WorkerEl.constprop.0", 0, "churn" },
	{ __LINE__, "cxx_c_entry", 0, "cxx_c_entry" },
	{ __LINE__, "_GLOBAL__sub_I_cxx_c_entry", 0, "_GLOBAL__sub_I_cxx_c_entry" },
	{ __LINE__, "_ZNSt6thread4joinEv", 1, "std::thread::join@plt" },
};

static int plt_index(const char *path, const char *name)
{
	char got[256];
	size_t n = nr_rela_plt(path);

	for (size_t k = 0; k < n; k++) {
		rela_plt_name(path, k, got, sizeof(got));
		if (!strcmp(got, name))
			return (int)k;
	}
	return -1;
}

static void test_symbols_cxx_demangle(void **state)
{
	struct fix *f = *state;
	struct bin cxx;

	if (run("g++ --version >/dev/null 2>&1")) {
		skip();
		return;
	}
	if (!sym_demangle_available())
		fprintf(stderr, "test_symbols: built without libiberty, C++ names stay mangled\n");
	snprintf(cxx.path, sizeof(cxx.path), "%s/prog_cxx", f->tmp);
	assert_int_equal(run("g++ -O2 -g -pthread -Wl,-z,lazy -o '%s' %s/prog_cxx.cc", cxx.path,
			     SRCDIR), 0);
	make_maps(&cxx, random_base());
	struct sym_session *s = session(NULL);
	for (size_t i = 0; i < sizeof(cxx_rows) / sizeof(cxx_rows[0]); i++) {
		const struct cxx_row *r = &cxx_rows[i];
		struct sym_code_info ci;
		char want[512];
		int k = r->plt ? plt_index(cxx.path, r->mangled) : 0;
		uint64_t v = r->plt ? elf_section(cxx.path, ".plt") + 16 + 16 * (uint64_t)k + 4
				    : elf_sym(cxx.path, r->mangled) + 1;

		if (k < 0)
			fail_msg("row at line %d: no PLT entry for %s", r->line, r->mangled);
		if (sym_demangle_available())
			snprintf(want, sizeof(want), "%s", r->want);
		else
			snprintf(want, sizeof(want), "%s%s", r->mangled, r->plt ? "@plt" : "");
		int rc = sym_code(s, map_or_last(&cxx, cxx.base + v), cxx.base + v, &ci);
		if (!sym_demangle_available() && r->alias && ci.symbol)
			snprintf(want, sizeof(want), "%s", ci.symbol);
		if (rc || !ci.symbol || strcmp(ci.symbol, want) || ci.sym_offset != (r->plt ? 4 : 1))
			fail_msg("row at line %d: rc %d symbol '%s' want '%s'", r->line, rc,
				 ci.symbol ? ci.symbol : "(null)", want);
	}
	sym_session_free(s);
}

/* C++ globals known only to the ELF symbol table (no DWARF): demangled as perf names them. */
static void test_symbols_cxx_data_elf(void **state)
{
	struct fix *f = *state;
	struct bin cxx;
	struct sym_data_info di;
	uint64_t v;

	if (run("g++ --version >/dev/null 2>&1") || !sym_demangle_available()) {
		skip();
		return;
	}
	snprintf(cxx.path, sizeof(cxx.path), "%s/prog_cxx_nodbg", f->tmp);
	assert_int_equal(run("g++ -O2 -g0 -pthread -o '%s' %s/prog_cxx.cc", cxx.path, SRCDIR), 0);
	make_maps(&cxx, random_base());
	struct sym_session *s = session(NULL);
	v = elf_sym(cxx.path, "_ZL3hot");   /* static shard::Counter<long> hot */
	assert_true(v != 0);
	assert_int_equal(sym_data(s, map_or_last(&cxx, cxx.base + v + 8), cxx.base + v + 8, &di),
			 0);
	assert_string_equal(di.var, "hot");
	assert_int_equal(di.var_offset, 8);
	assert_null(di.type);
	sym_session_free(s);
}

/* Names that are not the user's data (issue 28, item 7): crtstuff's and the linker's symbols
 * name nothing, the C++ standard library's own variables neither, and a library wrapper of the
 * whole value is not in the path: the variable and its type, "g_refcount (std::atomic<long
 * int>)", not "g_refcount._M_i". */
struct lib_row {
	int line;
	const char *var;       /* the ELF symbol (mangled) */
	uint64_t off;
	const char *name, *member, *type;   /* NULL name: nothing may be named there */
	const char *lock;                   /* the lock holding the byte, NULL: none */
};

static const struct lib_row lib_rows[] = {
	{ __LINE__, "g_refcount", 0, "g_refcount", "g_refcount", "std::atomic<long int>" },
	{ __LINE__, "g_refcount", 4, "g_refcount", "g_refcount (+4)", "std::atomic<long int>" },
	{ __LINE__, "g_ready", 0, "g_ready", "g_ready", "std::atomic<bool>" },
	{ __LINE__, "g_ptr", 0, "g_ptr", "g_ptr", "std::atomic<int*>" },
	{ __LINE__, "g_stats", 0, "g_stats", "g_stats.hits", "struct stats" },
	{ __LINE__, "g_stats", 8, "g_stats", "g_stats.misses", "struct stats" },
	{ __LINE__, "g_mu", 0, "g_mu", "g_mu.__lock", "std::mutex", "g_mu" },
	{ __LINE__, "g_mu", 16, "g_mu", "g_mu.__kind", "std::mutex", "g_mu" },
	{ __LINE__, "g_q", 0, "g_q", "g_q.head", "struct queue" },
	{ __LINE__, "g_q", 8 + 12, "g_q", "g_q.lock.__nusers", "struct queue", "g_q.lock" },
	{ __LINE__, "g_q", 8 + 40, "g_q", "g_q.tail", "struct queue" },
	{ __LINE__, "completed.0", 0, NULL, NULL, NULL },
	{ __LINE__, "__dso_handle", 0, NULL, NULL, NULL },
	{ __LINE__, "_ZStL8__ioinit", 0, NULL, NULL, NULL },
};

static void test_symbols_library_names(void **state)
{
	struct fix *f = *state;
	struct bin b;

	if (run("g++ --version >/dev/null 2>&1")) {
		skip();
		return;
	}
	snprintf(b.path, sizeof(b.path), "%s/prog_atomic", f->tmp);
	assert_int_equal(run("g++ -O1 -g -o '%s' %s/prog_atomic.cc", b.path, SRCDIR), 0);
	make_maps(&b, random_base());
	struct sym_session *s = session(NULL);
	for (size_t i = 0; i < sizeof(lib_rows) / sizeof(lib_rows[0]); i++) {
		const struct lib_row *r = &lib_rows[i];
		uint64_t a = b.base + elf_sym(b.path, r->var) + r->off;
		struct sym_data_info di;
		int rc = sym_data(s, map_or_last(&b, a), a, &di);

		if (r->name ? rc || !di.var || strcmp(di.var, r->name) || !di.member ||
			      strcmp(di.member, r->member) || !di.type || strcmp(di.type, r->type) ||
			      !r->lock != !di.lock || (r->lock && strcmp(di.lock, r->lock))
			    : rc != -ENOENT || di.var)
			fail_msg("row at line %d: rc %d var '%s' member '%s' type '%s' lock '%s'", r->line,
				 rc, di.var ? di.var : "(null)", di.member ? di.member : "(null)",
				 di.type ? di.type : "(null)", di.lock ? di.lock : "(null)");
	}
	sym_session_free(s);
}

/* Code of a library's header inlined into the user's (std::atomic's fetch_add and load, from
 * atomic_base.h, in main): the user's line is the call site in prog_atomic.cc; the user's own
 * code is its own line. */
static void test_symbols_user_line(void **state)
{
	struct fix *f = *state;
	struct sym_session *s;
	size_t header = 0, own = 0;
	struct bin b;
	uint64_t v;

	if (run("g++ --version >/dev/null 2>&1")) {
		skip();
		return;
	}
	snprintf(b.path, sizeof(b.path), "%s/prog_atomic_u", f->tmp);
	assert_int_equal(run("g++ -O1 -g -o '%s' %s/prog_atomic.cc", b.path, SRCDIR), 0);
	make_maps(&b, random_base());
	s = session(NULL);
	v = elf_sym(b.path, "main");
	for (uint64_t a = b.base + v; a < b.base + v + 0x400; a++) {
		struct sym_code_info ci;

		if (sym_code(s, map_or_last(&b, a), a, &ci) || !ci.symbol || strcmp(ci.symbol, "main"))
			break;
		if (!ci.srcfile || !ci.line)
			continue;
		if (sym_system_file(ci.srcfile)) {
			header++;
			if (!ci.user_file || strcmp(base_name(ci.user_file), "prog_atomic.cc") ||
			    ci.user_line < 29 || ci.user_line > 45)
				fail_msg("%#llx: %s:%u -> user %s:%u", (unsigned long long)(a - b.base),
					 ci.srcfile, ci.line, ci.user_file ? ci.user_file : "(null)",
					 ci.user_line);
		} else if (!strcmp(base_name(ci.srcfile), "prog_atomic.cc")) {
			own++;
			assert_ptr_equal(ci.user_file, ci.srcfile);
			assert_int_equal(ci.user_line, ci.line);
		}
	}
	assert_true(header > 0);
	assert_true(own > 0);
	assert_true(sym_system_file("/usr/include/c++/12/bits/atomic_base.h"));
	assert_true(sym_system_file("/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/sync/atomic.rs"));
	assert_false(sym_system_file("/home/me/src/app.cpp"));
	sym_session_free(s);
}

/* The same in C: crtstuff's completed.0 and __dso_handle name nothing. */
static void test_symbols_toolchain_data(void **state)
{
	struct fix *f = *state;
	const char *names[] = { "completed.0", "__dso_handle" };
	struct sym_session *s = session(NULL);

	make_maps(&f->pie, random_base());
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint64_t a = f->pie.base + elf_sym(f->pie.path, names[i]);
		struct sym_data_info di;
		int rc = sym_data(s, map_or_last(&f->pie, a), a, &di);
		if (rc != -ENOENT || di.var)
			fail_msg("%s: rc %d var '%s'", names[i], rc, di.var ? di.var : "(null)");
	}
	sym_session_free(s);
}

/* A static of another language's program: its ELF symbol (@sym) + @off named @member, typed
 * @type. */
struct lang_row {
	int line;
	const char *var;   /* Rust: the name inside the mangled symbol; Go: the symbol */
	uint64_t off;
	const char *member, *type;
	const char *lock;  /* the lock holding the byte, NULL: none */
};

static void check_lang_row(struct sym_session *s, struct bin *b, const char *sym,
			   const struct lang_row *r)
{
	uint64_t a = b->base + elf_sym(b->path, sym) + r->off;
	struct sym_data_info di;
	int rc = sym_data(s, map_or_last(b, a), a, &di);

	if (rc || !di.member || strcmp(di.member, r->member) || !di.type ||
	    strcmp(di.type, r->type) || !r->lock != !di.lock || (r->lock && strcmp(di.lock, r->lock)))
		fail_msg("row at line %d: rc %d member '%s' type '%s' lock '%s' (%s)", r->line, rc,
			 di.member ? di.member : "(null)", di.type ? di.type : "(null)",
			 di.lock ? di.lock : "(null)", di.reason ? di.reason : "");
}

/* Rust statics (issue 28): named through the segment whose mapping holds them (rustc's lld
 * layout, prog_rust.rs), the wrappers of an AtomicU64 not in the path, the type by its path. */
static void test_symbols_rust_data(void **state)
{
	struct fix *f = *state;
	static const struct lang_row rows[] = {
		{ __LINE__, "5STATS", 0, "STATS.hits", "prog_rust::Counters" },
		{ __LINE__, "5STATS", 8, "STATS.misses", "prog_rust::Counters" },
		{ __LINE__, "5TOTAL", 0, "TOTAL", "core::sync::atomic::AtomicU64" },
	};
	struct bin b;
	char cmd[PATH_MAX * 2 + 128], sym[256];

	if (run("rustc --version >/dev/null 2>&1")) {
		skip();
		return;
	}
	snprintf(b.path, sizeof(b.path), "%s/prog_rust", f->tmp);
	assert_int_equal(run("rustc --edition 2021 -C opt-level=1 -g -o '%s' %s/prog_rust.rs", b.path,
			     SRCDIR), 0);
	make_maps(&b, random_base());
	struct sym_session *s = session(NULL);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		FILE *p;
		snprintf(cmd, sizeof(cmd), "nm '%s' | sed -n 's/.* \\(_ZN9prog_rust%s17h[0-9a-f]*E\\)$/\\1/p'",
			 b.path, rows[i].var);
		assert_non_null(p = popen(cmd, "r"));
		assert_non_null(fgets(sym, sizeof(sym), p));
		pclose(p);
		sym[strcspn(sym, "\n")] = 0;
		check_lang_row(s, &b, sym, &rows[i]);
	}
	sym_session_free(s);
}

/* Go package variables (issue 28, prog_go.go): Go writes DW_OP_addr in a DW_FORM_block1, which
 * libdw's dwarf_getlocation() refuses in a DWARF 4 unit; the type is Go's name for it, and
 * atomic.Int64's v is not in the path. The build-id is ours: Go writes only its own note. */
static void test_symbols_go_data(void **state)
{
	struct fix *f = *state;
	static const struct lang_row rows[] = {
		{ __LINE__, "main.counters", 0, "main.counters.hits", "main.stats" },
		{ __LINE__, "main.counters", 8, "main.counters.misses", "main.stats" },
		{ __LINE__, "main.total", 0, "main.total", "sync/atomic.Int64" },
		{ __LINE__, "main.guard", 4, "main.guard.mu.sema", "main.guarded", "main.guard.mu" },
		{ __LINE__, "main.guard", 8, "main.guard.n", "main.guarded" },
	};
	struct bin b;

	if (run("go version >/dev/null 2>&1")) {
		skip();
		return;
	}
	snprintf(b.path, sizeof(b.path), "%s/prog_go", f->tmp);
	assert_int_equal(run("GOCACHE='%s/gocache' GOPATH='%s/gopath' GO111MODULE=off GOPROXY=off "
			     "GOTOOLCHAIN=local go build -ldflags=-B=0x60d1a7a0c2c11e0000000000000000000000c2c1 "
			     "-o '%s' %s/prog_go.go", f->tmp, f->tmp, b.path, SRCDIR), 0);
	make_maps(&b, 0);
	struct sym_session *s = session(NULL);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_lang_row(s, &b, rows[i].var, &rows[i]);
	sym_session_free(s);
}

/* The segments of a Rust binary linked by rustc's lld (rust-counters of tests/real/lang, rustc
 * 1.95): the RELRO segment ends in the file page where .data/.bss start, its memory padded to
 * the page; a static in .bss at 0x63f48 (after .data's file bytes), through the mapping of the
 * second segment, is at 0x63f48, not at 0x62f48 inside the first. */
static void test_symbols_lld_segments(void **state)
{
	struct sym_seg seg[] = {
		{ 0x0, 0x191cc, 0x0, 0x191cc, PF_R },
		{ 0x1a140, 0x44630, 0x19140, 0x44630, PF_R | PF_X },
		{ 0x5f770, 0x3890, 0x5d770, 0x2de0, PF_R | PF_W },
		{ 0x63550, 0xb7a, 0x60550, 0x9c8, PF_R | PF_W },
	};
	struct sym_file f = { .seg = seg, .nr_seg = 4 };
	struct trace_mmap m = { .start = 0x55dc3e943000, .len = 0x1000, .pgoff = 0x60000,
				.prot = 3 };
	uint64_t v = 0;

	(void)state;
	assert_int_equal(sym_file_vaddr(&f, &m, 0x55dc3e943f48, &v), 0);
	assert_int_equal(v, 0x63f48);
	/* the first segment's own mapping still reaches its last page */
	m = (struct trace_mmap){ .start = 0x55dc3e93f000, .len = 0x4000, .pgoff = 0x5d000,
				 .prot = 1 };
	assert_int_equal(sym_file_vaddr(&f, &m, 0x55dc3e942f48, &v), 0);
	assert_int_equal(v, 0x62f48);
}

/* --- data --------------------------------------------------------------------------------- */

struct data_row {
	int line;
	const char *var;       /* ELF symbol of the variable */
	uint64_t off;          /* byte inside it */
	const char *member, *type;
	uint64_t size;
};

static const struct data_row data_rows[] = {
	{ __LINE__, "buf1", offsetof(struct _buf, lock0), "buf1.lock0", "struct _buf", 64 },
	{ __LINE__, "buf1", offsetof(struct _buf, lock1), "buf1.lock1", "struct _buf", 64 },
	{ __LINE__, "buf1", offsetof(struct _buf, lock1) + 4, "buf1.lock1 (+4)", "struct _buf", 64 },
	{ __LINE__, "buf1", offsetof(struct _buf, pad[3]), "buf1.pad[3]", "struct _buf", 64 },
	{ __LINE__, "stats", 3 * sizeof(struct stat_s) + offsetof(struct stat_s, hits),
	  "stats[3].hits", "struct stat_s[4]", 4 * sizeof(struct stat_s) },
	{ __LINE__, "stats", 2 * sizeof(struct stat_s) + offsetof(struct stat_s, total) + 1,
	  "stats[2].total (+1)", "struct stat_s[4]", 4 * sizeof(struct stat_s) },
	{ __LINE__, "q", offsetof(struct queue, head) + 8, "q.head (+8)", "struct queue",
	  sizeof(struct queue) },
	{ __LINE__, "q", offsetof(struct queue, tail.b), "q.tail.b", "struct queue",
	  sizeof(struct queue) },
	{ __LINE__, "q", offsetof(struct queue, tag) + 1, "q (padding +33)", "struct queue",
	  sizeof(struct queue) },
	{ __LINE__, "nest_v", offsetof(struct nest, grp.inner[1].misses),
	  "nest_v.grp.inner[1].misses", "struct nest", sizeof(struct nest) },
	{ __LINE__, "nest_v", offsetof(struct nest, bytes[5]), "nest_v.word (+5)", "struct nest",
	  sizeof(struct nest) },
	{ __LINE__, "nest_v", offsetof(struct nest, id) + 4, "nest_v (padding +4)",
	  "struct nest", sizeof(struct nest) },
	{ __LINE__, "grid", (2 * 5 + 4) * sizeof(int), "grid[2][4]", "int[3][5]", 60 },
	{ __LINE__, "grid", (1 * 5 + 0) * sizeof(int) + 2, "grid[1][0] (+2)", "int[3][5]", 60 },
	{ __LINE__, "counter.0", 0, "counter", "long int", 8 },
	{ __LINE__, "big_bss", 2 * 4096 + 5, "big_bss[8197]", "char[12288]", 3 * 4096 },
};

static void check_data(struct sym_session *s, struct bin *b)
{
	for (size_t i = 0; i < sizeof(data_rows) / sizeof(data_rows[0]); i++) {
		const struct data_row *r = &data_rows[i];
		uint64_t a = b->base + elf_sym(b->path, r->var) + r->off;
		const struct trace_mmap *m = map_or_last(b, a);
		struct sym_data_info di;
		int rc = sym_data(s, m, a, &di);

		if (rc || !di.member || strcmp(di.member, r->member) || !di.type ||
		    strcmp(di.type, r->type) || di.var_size != r->size || di.var_offset != r->off)
			fail_msg("row at line %d (%s): rc %d member '%s' type '%s' size %llu off %llu",
				 r->line, b->path, rc, di.member ? di.member : "(null)",
				 di.type ? di.type : "(null)", (unsigned long long)di.var_size,
				 (unsigned long long)di.var_offset);
		assert_true(sym_map_covers(s, m, a));
	}
}

static void test_symbols_data_pie_and_nopie(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);

	make_maps(&f->pie, random_base());
	make_maps(&f->nopie, 0);
	check_data(s, &f->pie);
	check_data(s, &f->nopie);
	/* past the image: nothing */
	const struct trace_mmap *m = &f->pie.map[f->pie.nr_map - 1];
	struct sym_data_info di;
	assert_false(sym_map_covers(s, m, m->start + (64ull << 20)));
	assert_int_equal(sym_data(s, m, m->start + (64ull << 20), &di), -ENOENT);
	assert_non_null(di.reason);
	sym_session_free(s);
}

/* sym_symbol(): what perf's map__find_symbol() finds at any address of a file, as perf script
 * names a page fault's data address: objects and functions alike, with the offset into them;
 * nothing for an absolute symbol (perf loads none; regression: ld.so's GLIBC_2.3 at 0 named the
 * ELF header and the start of .text as GLIBC_2.3+0xd40), nor where no symbol reaches. */
static void test_symbols_any_kind(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);
	struct bin *b = &f->pie;
	const struct { int line; const char *sym; uint64_t off; int rc, object; } rows[] = {
		{ __LINE__, "stats", 12, 0, 1 },
		{ __LINE__, "nest_v", 0, 0, 1 },
		{ __LINE__, "worker", 5, 0, 0 },
		{ __LINE__, "count_calls", 0, 0, 0 },
		{ __LINE__, "abs_object", 8, -ENOENT, 0 },
	};

	make_maps(b, random_base());
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t a = b->base + elf_sym(b->path, rows[i].sym) + rows[i].off;
		struct sym_code_info ci;
		int rc = sym_symbol(s, map_or_last(b, a), a, &ci);

		if (rc != rows[i].rc || (rc ? ci.symbol != NULL :
			!ci.symbol || strcmp(ci.symbol, rows[i].sym) || ci.sym_offset != rows[i].off ||
			ci.object != rows[i].object))
			fail_msg("row at line %d: rc %d symbol %s+%llu", rows[i].line, rc,
				 ci.symbol ? ci.symbol : "-", (unsigned long long)ci.sym_offset);
	}
	sym_session_free(s);
}

/* The data mapping as /proc/PID/maps shows it once ld.so applied RELRO: an r-- part at the
 * start of the data segment (whose first file page it may share with .rodata, also r--), then
 * the rw- rest. Addresses past either (the .bss, reached through sym_map_covers()) must still
 * translate through the data segment. */
static void test_symbols_relro_split(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);
	struct bin *b = &f->pie;
	struct sym_data_info di;

	make_maps(b, random_base());
	assert_true(b->relro_memsz > 0);
	struct trace_mmap data = b->map[b->nr_map - 1], ro = data, rw = data;
	uint64_t cut = b->base + ((b->relro_vaddr + b->relro_memsz + PAGE - 1) & ~(PAGE - 1));
	assert_true(cut > data.start && cut <= data.start + data.len);
	ro.len = cut - data.start;
	ro.prot = 1;
	rw.start = cut;
	rw.len = data.start + data.len - cut;
	rw.pgoff = data.pgoff + ro.len;
	const struct { int line; const char *var; uint64_t off; const char *member; } rows[] = {
		{ __LINE__, "stats", 3 * sizeof(struct stat_s), "stats[3].hits" },
		{ __LINE__, "buf1", offsetof(struct _buf, lock1), "buf1.lock1" },
		{ __LINE__, "big_bss", 3 * 4096 - 1, "big_bss[12287]" },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t a = b->base + elf_sym(b->path, rows[i].var) + rows[i].off;
		const struct trace_mmap *maps[] = { &ro, &rw };
		for (int k = 0; k < 2; k++) {
			if (maps[k]->len == 0)
				continue;
			int rc = sym_data(s, maps[k], a, &di);
			if (rc || strcmp(di.member, rows[i].member) || !sym_map_covers(s, maps[k], a))
				fail_msg("row at line %d via the %s mapping: rc %d member '%s'",
					 rows[i].line, k ? "rw-" : "r--", rc,
					 di.member ? di.member : "(null)");
		}
	}
	sym_session_free(s);
}

/* --- separate debug info, build-ids, failures --------------------------------------------- */

static void test_symbols_stripped_debuglink(void **state)
{
	struct fix *f = *state;
	struct sym_opts o = { .symfs = f->symfs };
	struct sym_session *s = session(&o);
	char path[PATH_MAX + 16];
	struct bin b;
	struct sym_code_info ci;
	struct sym_data_info di;

	/* the mapping names /opt/app/prog; the stripped file lives under symfs */
	snprintf(b.path, sizeof(b.path), "%s/opt/app/prog", f->symfs);
	make_maps(&b, random_base());
	for (int i = 0; i < b.nr_map; i++)
		b.map[i].filename = "/opt/app/prog";
	uint64_t v = line_addr(f->pie.path, "prog_data.c", f->line_hits);
	assert_int_equal(sym_code(s, map_or_last(&b, b.base + v), b.base + v, &ci), 0);
	assert_string_equal(ci.symbol, "worker");
	assert_int_equal(ci.line, f->line_hits);
	uint64_t a = b.base + elf_sym(f->pie.path, "stats") + 3 * sizeof(struct stat_s);
	assert_int_equal(sym_data(s, map_or_last(&b, a), a, &di), 0);
	assert_string_equal(di.member, "stats[3].hits");
	sym_session_free(s);

	/* without symfs the file is missing */
	s = session(NULL);
	assert_int_equal(sym_code(s, map_or_last(&b, b.base + v), b.base + v, &ci), -ENOENT);
	assert_string_equal(ci.reason, "file not found");
	sym_session_free(s);

	/* the stripped file alone (debug file moved away): no silently wrong name */
	snprintf(path, sizeof(path), "%s/opt/app/prog.debug", f->symfs);
	char moved[PATH_MAX + 32];
	snprintf(moved, sizeof(moved), "%s.away", path);
	assert_int_equal(rename(path, moved), 0);
	s = session(&o);
	assert_int_equal(sym_code(s, map_or_last(&b, b.base + v), b.base + v, &ci), -ENOENT);
	assert_string_equal(ci.reason, "no symbol table");
	assert_int_equal(sym_data(s, map_or_last(&b, a), a, &di), -ENOENT);
	assert_null(di.var);
	sym_session_free(s);
	assert_int_equal(rename(moved, path), 0);
}

static void test_symbols_build_id_mismatch(void **state)
{
	struct fix *f = *state;
	struct bin b = f->pie;
	struct sym_code_info ci;
	struct sym_data_info di;

	/* the mapping recorded pie's build-id, but the file at that path is another build */
	make_maps(&b, random_base());
	make_maps(&f->shifted, 0);
	for (int i = 0; i < b.nr_map; i++)
		b.map[i].filename = f->shifted.path;
	uint64_t v = line_addr(f->pie.path, "prog_data.c", f->line_hits);
	uint64_t a = b.base + elf_sym(f->pie.path, "q") + offsetof(struct queue, head);

	nr_warn = 0;
	struct sym_session *s = session(NULL);
	assert_int_equal(sym_code(s, map_or_last(&b, b.base + v), b.base + v, &ci), -ENOENT);
	assert_string_equal(ci.reason, "build-id mismatch");
	assert_int_equal(sym_data(s, map_or_last(&b, a), a, &di), -ENOENT);
	assert_string_equal(di.reason, "build-id mismatch");
	assert_int_equal(nr_warn, 1);
	assert_non_null(strstr(last_warn, "build-id mismatch"));
	assert_non_null(strstr(last_warn, f->shifted.path));
	sym_session_free(s);

	/* with a debug root holding the right build-id: correct names, one warning */
	nr_warn = 0;
	struct sym_opts o = { .debuginfo_dirs = f->orig_debug };
	s = session(&o);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(sym_code(s, map_or_last(&b, b.base + v), b.base + v, &ci), 0);
		assert_string_equal(ci.symbol, "worker");
		assert_int_equal(ci.line, f->line_hits);
		assert_int_equal(sym_data(s, map_or_last(&b, a), a, &di), 0);
		assert_string_equal(di.member, "q.head");
	}
	assert_int_equal(nr_warn, 1);
	sym_session_free(s);
}

/* perf's dso__build_id_equal. Regression: trailing zero bytes were stripped from the recorded
 * id and the result compared with the full id on disk, so every binary whose 20-byte build-id
 * ends in 0x00 (1 in 256) lost its symbols. */
static void test_symbols_build_id_equal(void **state)
{
	static const uint8_t sha[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					 17, 18, 0x45, 0x00 };
	static const uint8_t sha_pad[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					     17, 18, 0x45, 0x00 };
	static const uint8_t md5_pad[20] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 8, 7, 6, 5, 4, 0x33 };
	static const uint8_t md5[16] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 8, 7, 6, 5, 4, 0x33 };
	static const uint8_t other[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					   17, 18, 0x45, 0x01 };
	const struct {
		int line;
		const uint8_t *rec;
		size_t nrec;
		const uint8_t *file;
		size_t nfile;
		int equal;
	} rows[] = {
		{ __LINE__, sha, 20, sha_pad, 20, 1 },   /* 20 bytes ending in 00: exact */
		{ __LINE__, sha, 19, sha_pad, 20, 0 },   /* the old stripped form is not the id */
		{ __LINE__, sha, 20, other, 20, 0 },
		{ __LINE__, md5_pad, 20, md5, 16, 1 },   /* old perf: padded to 20 */
		{ __LINE__, md5_pad, 20, md5, 15, 0 },   /* the file's id is not shorter than it is */
		{ __LINE__, md5, 16, md5, 16, 1 },       /* MMAP2 build-id: exact size */
		{ __LINE__, md5, 16, md5_pad, 20, 0 },   /* only the recorded side may be padded */
		{ __LINE__, other, 20, sha, 19, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (sym_build_id_equal(rows[i].rec, rows[i].nrec, rows[i].file, rows[i].nfile) !=
		    rows[i].equal)
			fail_msg("row at line %d", rows[i].line);
}

struct fail_row {
	int line;
	const char *name;
	int with_id;
	const char *reason;
};

static void test_symbols_failures(void **state)
{
	struct fix *f = *state;
	char deleted[PATH_MAX + 16];
	struct sym_session *s = session(NULL);

	snprintf(deleted, sizeof(deleted), "%s (deleted)", f->pie.path);
	const struct fail_row rows[] = {
		{ __LINE__, "/nonexistent-c2c-dir/prog", 1, "file not found" },
		{ __LINE__, "//anon", 0, "anonymous memory" },
		{ __LINE__, "[anon:jit]", 0, "anonymous memory" },
		{ __LINE__, "/memfd:jit (deleted)", 0, "anonymous memory" },
		{ __LINE__, "[stack]", 0, "thread stack" },
		{ __LINE__, "[heap]", 0, "heap" },
		{ __LINE__, "[vdso]", 0, "vdso (not on disk)" },
		{ __LINE__, deleted, 0, "deleted file" },
		{ __LINE__, "/proc/self/status", 0, "not an ELF file" },
	};

	make_maps(&f->pie, random_base());
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct trace_mmap m = f->pie.map[1];
		struct sym_code_info ci;
		struct sym_data_info di;
		m.filename = rows[i].name;
		if (!rows[i].with_id)
			m.build_id_size = 0;
		int rc = sym_code(s, &m, m.start + 16, &ci);
		if (rc != -ENOENT || !ci.reason || strcmp(ci.reason, rows[i].reason) || ci.symbol)
			fail_msg("row at line %d: rc %d reason '%s'", rows[i].line, rc,
				 ci.reason ? ci.reason : "(null)");
		rc = sym_data(s, &m, m.start + 16, &di);
		if (rc != -ENOENT || !di.reason || strcmp(di.reason, rows[i].reason) || di.var)
			fail_msg("data row at line %d: rc %d", rows[i].line, rc);
	}
	/* a deleted file whose recorded build-id matches the file still on disk is used */
	struct trace_mmap m = *map_or_last(&f->pie, f->pie.base + elf_sym(f->pie.path, "main"));
	struct sym_code_info ci;
	m.filename = deleted;
	assert_int_equal(sym_code(s, &m, f->pie.base + elf_sym(f->pie.path, "main"), &ci), 0);
	assert_string_equal(ci.symbol, "main");
	sym_session_free(s);
}

/* The mapping of this process's vdso ([vdso] in /proc/self/maps) and the run-time address of
 * __vdso_clock_gettime in it; 0 when there is no vdso. */
static uint64_t own_vdso(struct trace_mmap *m)
{
	uint64_t image = getauxval(AT_SYSINFO_EHDR), lo, hi, fn = 0, base = UINT64_MAX;
	char line[512];
	FILE *fp = fopen("/proc/self/maps", "r");

	memset(m, 0, sizeof(*m));
	while (fp && fgets(line, sizeof(line), fp))
		if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2 &&
		    lo == image) {
			m->start = lo;
			m->len = hi - lo;
		}
	if (fp)
		fclose(fp);
	Elf *elf = m->len ? elf_memory((char *)(uintptr_t)image, m->len) : NULL;
	size_t nph = 0;
	for (size_t i = 0; elf && !elf_getphdrnum(elf, &nph) && i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < base)
			base = ph.p_vaddr;
	}
	GElf_Sym sym;
	if (elf && find_sym_in(elf, SHT_DYNSYM, "__vdso_clock_gettime", 0, &sym))
		fn = image + sym.st_value - base;
	if (elf)
		elf_end(elf);
	m->prot = 5;
	m->flags = 2;
	m->filename = "[vdso]";
	return fn;
}

/* A vdso mapped without a build-id (perf record -z writes no BUILD_ID feature) is this
 * process's vdso when the trace was recorded on this kernel, as perf assumes; not when it comes
 * from another kernel, nor when the caller does not say. Regression: it was never named. */
static void test_symbols_vdso_without_build_id(void **state)
{
	struct utsname u;
	struct trace_mmap m;
	uint64_t fn = own_vdso(&m);

	(void)state;
	if (!fn)
		skip();
	assert_int_equal(uname(&u), 0);
	const struct { int line; const char *release; int found; } rows[] = {
		{ __LINE__, u.release, 1 },
		{ __LINE__, "0.0.0-another-kernel", 0 },
		{ __LINE__, NULL, 0 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct sym_session *s = session(&(struct sym_opts){ .kernel_release = rows[i].release });
		struct sym_code_info ci;
		int rc = sym_code(s, &m, fn + 1, &ci);

		if (rows[i].found ? rc || !ci.symbol || !strstr(ci.symbol, "clock_gettime") ||
				    ci.sym_offset != 1 :
				    rc != -ENOENT || strcmp(ci.reason, "vdso (not on disk)"))
			fail_msg("row at line %d: rc %d symbol %s reason %s", rows[i].line, rc,
				 ci.symbol ? ci.symbol : "-", ci.reason ? ci.reason : "-");
		sym_session_free(s);
	}
}

/* A binary without debug info: ELF names only, and the reason says why there is no more. */
static void test_symbols_no_debug_info(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);
	struct bin *b = &f->nodebug;
	struct sym_code_info ci;
	struct sym_data_info di;

	make_maps(b, random_base());
	uint64_t a = b->base + elf_sym(b->path, "worker") + 5;
	assert_int_equal(sym_code(s, map_or_last(b, a), a, &ci), 0);
	assert_string_equal(ci.symbol, "worker");
	assert_int_equal(ci.sym_offset, 5);
	assert_string_equal(ci.srcfile, "??");  /* addr2line: the function, no file, no line */
	assert_int_equal(ci.line, 0);
	assert_string_equal(ci.reason, "no debug info");
	a = b->base + elf_sym(b->path, "stats") + 3 * sizeof(struct stat_s) + 4;
	assert_int_equal(sym_data(s, map_or_last(b, a), a, &di), 0);
	assert_string_equal(di.var, "stats");
	assert_string_equal(di.member, "stats (+52)");
	assert_null(di.type);
	assert_int_equal(di.var_size, 4 * sizeof(struct stat_s));
	assert_string_equal(di.reason, "no debug info");
	sym_session_free(s);
}

/* -k FILE: a non-PIE ELF with debug info stands in for a vmlinux (kernel addresses are its
 * link-time addresses when no kallsyms gives a KASLR offset). */
static void test_symbols_vmlinux(void **state)
{
	struct fix *f = *state;
	struct sym_opts o = { .vmlinux = f->nopie.path };
	struct sym_session *s = session(&o);
	struct sym_code_info ci;
	struct sym_data_info di;
	uint64_t v = line_addr(f->nopie.path, "prog_data.c", f->line_hits);

	assert_int_equal(sym_kernel_code(s, v, &ci), 0);
	assert_string_equal(ci.symbol, "worker");
	assert_int_equal(ci.line, f->line_hits);
	uint64_t a = elf_sym(f->nopie.path, "buf1") + offsetof(struct _buf, lock1);
	assert_int_equal(sym_kernel_data(s, a, &di), 0);
	assert_string_equal(di.member, "buf1.lock1");
	assert_string_equal(di.type, "struct _buf");
	sym_session_free(s);

	/* a missing vmlinux: one warning, then kallsyms */
	o.vmlinux = "/nonexistent-c2c-dir/vmlinux";
	s = session(&o);
	nr_warn = 0;
	sym_session_add_kallsyms(s, "ffffffff81000000 T _stext\n", 26);
	assert_int_equal(sym_kernel_code(s, 0xffffffff81000004ull, &ci), 0);
	assert_string_equal(ci.symbol, "_stext");
	assert_int_equal(sym_kernel_code(s, 0xffffffff81000008ull, &ci), 0);
	assert_int_equal(nr_warn, 1);
	sym_session_free(s);
}

struct kind_row {
	int line;
	const char *name;
	enum sym_map_kind kind;
	const char *kname;
};

static void test_symbols_map_kind(void **state)
{
	static const struct kind_row rows[] = {
		{ __LINE__, "/usr/lib/x86_64-linux-gnu/libc.so.6", SYM_MAP_FILE, "file" },
		{ __LINE__, "[stack]", SYM_MAP_STACK, "stack" },
		{ __LINE__, "[stack:4242]", SYM_MAP_STACK, "stack" },
		{ __LINE__, "[heap]", SYM_MAP_HEAP, "heap" },
		{ __LINE__, "//anon", SYM_MAP_ANON, "anon" },
		{ __LINE__, "", SYM_MAP_ANON, "anon" },
		{ __LINE__, "/anon_hugepage (deleted)", SYM_MAP_ANON, "anon" },
		{ __LINE__, "/dev/zero (deleted)", SYM_MAP_ANON, "anon" },
		{ __LINE__, "[vdso]", SYM_MAP_VDSO, "[vdso]" },
		{ __LINE__, "[vsyscall]", SYM_MAP_VDSO, "[vdso]" },
		{ __LINE__, "/tmp/a.out (deleted)", SYM_MAP_DELETED, "deleted" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum sym_map_kind k = sym_map_kind(rows[i].name);
		if (k != rows[i].kind || strcmp(sym_map_kind_name(k), rows[i].kname))
			fail_msg("row at line %d: kind %d", rows[i].line, k);
	}
	assert_int_equal(sym_map_kind(NULL), SYM_MAP_ANON);
}

/* --- shared library: the libc mapped into this test process ------------------------------- */

static int self_map(uint64_t addr, struct trace_mmap *m, char *name, size_t cap)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	int found = 0;

	assert_non_null(fp);
	while (!found && fgets(line, sizeof(line), fp)) {
		unsigned long long lo, hi, off;
		char perms[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off, &pos) < 4)
			continue;
		if (addr < lo || addr >= hi)
			continue;
		snprintf(name, cap, "%s", line + pos);
		name[strcspn(name, "\n")] = 0;
		memset(m, 0, sizeof(*m));
		m->start = lo;
		m->len = hi - lo;
		m->pgoff = off;
		m->prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) |
			  (perms[2] == 'x' ? 4 : 0);
		m->filename = name;
		found = 1;
	}
	fclose(fp);
	return found ? 0 : -1;
}

static void test_symbols_shared_library(void **state)
{
	struct sym_session *s = session(NULL);
	struct trace_mmap m;
	struct sym_code_info ci;
	char name[PATH_MAX];
	uint64_t a = (uint64_t)(uintptr_t)&getpgrp;

	(void)state;
	assert_int_equal(self_map(a, &m, name, sizeof(name)), 0);
	assert_non_null(strstr(name, "libc"));
	assert_true(m.pgoff != 0);  /* libc's text is not at file offset 0 */
	assert_int_equal(sym_code(s, &m, a, &ci), 0);
	assert_non_null(ci.symbol);
	assert_non_null(strstr(ci.symbol, "getpgrp"));
	assert_int_equal(ci.sym_offset, 0);
	assert_int_equal(sym_code(s, &m, a + 1, &ci), 0);
	assert_non_null(strstr(ci.symbol, "getpgrp"));
	assert_int_equal(ci.sym_offset, 1);
	sym_session_free(s);
}

/* --- kernel ------------------------------------------------------------------------------- */

static const char ktext[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T do_one\n"
	"ffffffff81001000 t do_one_alias\n"
	"ffffffff81001080 t helper_two\n"
	"ffffffff81002000 T _etext\n"
	"ffffffff82000000 D jiffies_64\n"
	"ffffffff82000040 d runqueues_lock\n"
	"ffffffff82000100 B bss_thing\n"
	"ffffffff82000200 r rodata_thing\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n"
	"garbage line\n"
	"ffffffffc0002000 b mod_var\t[mymod]\n";

struct kern_row {
	int line;
	int data;              /* 0: code lookup, 1: data lookup */
	uint64_t addr;
	int rc;
	const char *name;
	uint64_t off;
};

static void test_symbols_kallsyms(void **state)
{
	static const struct kern_row rows[] = {
		/* aliases: the last one in the file, as perf (__pi_memcpy over memcpy, __memcpy) */
		{ __LINE__, 0, 0xffffffff81001000ull, 0, "do_one_alias", 0 },
		{ __LINE__, 0, 0xffffffff81001010ull, 0, "do_one_alias", 0x10 },
		{ __LINE__, 0, 0xffffffff81001090ull, 0, "helper_two", 0x10 },
		{ __LINE__, 0, 0xffffffffc0001004ull, 0, "mod_fn", 4 },
		{ __LINE__, 0, 0xffffffff82000010ull, -ENOENT, NULL, 0 },  /* data, not code */
		{ __LINE__, 0, 0xffffffff80000000ull, -ENOENT, NULL, 0 },  /* below everything */
		{ __LINE__, 1, 0xffffffff82000008ull, 0, "jiffies_64", 8 },
		{ __LINE__, 1, 0xffffffff82000044ull, 0, "runqueues_lock", 4 },
		{ __LINE__, 1, 0xffffffff82000100ull, 0, "bss_thing", 0 },
		{ __LINE__, 1, 0xffffffff82000208ull, 0, "rodata_thing", 8 },
		{ __LINE__, 1, 0xffffffffc0002010ull, 0, "mod_var", 0x10 },
		{ __LINE__, 1, 0xffffffff81001010ull, -ENOENT, NULL, 0 },  /* code, not data */
		{ __LINE__, 1, 0xffffffffc0f00000ull, -ENOENT, NULL, 0 },  /* far past the last */
	};
	struct sym_session *s = session(NULL);

	(void)state;
	struct sym_code_info ci;
	assert_int_equal(sym_kernel_code(s, 0xffffffff81001000ull, &ci), -ENOENT);
	assert_string_equal(ci.reason, "no kallsyms or vmlinux");
	sym_session_add_kallsyms(s, ktext, sizeof(ktext) - 1);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct kern_row *r = &rows[i];
		struct sym_data_info di;
		const char *name;
		uint64_t off;
		int rc;
		if (r->data) {
			rc = sym_kernel_data(s, r->addr, &di);
			name = di.var;
			off = di.var_offset;
		} else {
			rc = sym_kernel_code(s, r->addr, &ci);
			name = ci.symbol;
			off = ci.sym_offset;
		}
		if (rc != r->rc || (r->name && (!name || strcmp(name, r->name) || off != r->off)) ||
		    (!r->name && name))
			fail_msg("row at line %d: rc %d name '%s' off %llu", r->line, rc,
				 name ? name : "(null)", (unsigned long long)off);
	}
	struct sym_data_info di;
	assert_int_equal(sym_kernel_data(s, 0xffffffff82000044ull, &di), 0);
	assert_string_equal(di.member, "runqueues_lock (+4)");
	assert_int_equal(di.var_size, 0xc0);
	sym_session_free(s);

	/* kptr_restrict: all addresses zero */
	s = session(NULL);
	static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 D jiffies\n";
	sym_session_add_kallsyms(s, hidden, sizeof(hidden) - 1);
	assert_int_equal(sym_kernel_code(s, 0xffffffff81000010ull, &ci), -ENOENT);
	assert_non_null(strstr(ci.reason, "hidden"));
	sym_session_free(s);
}

static void test_symbols_proc_kallsyms(void **state)
{
	struct sym_opts o = { .use_proc_kallsyms = 1 };
	char line[512], name[256], type;
	unsigned long long addr = 0;
	FILE *fp = fopen("/proc/kallsyms", "r");
	struct sym_code_info ci;
	int found = 0;

	(void)state;
	if (!fp)
		skip();
	while (!found && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && addr &&
		    !strcmp(name, "schedule"))
			found = 1;
	fclose(fp);
	if (!found)
		skip();  /* addresses hidden for this user */
	struct sym_session *s = session(&o);
	assert_int_equal(sym_kernel_code(s, addr + 1, &ci), 0);
	assert_string_equal(ci.symbol, "schedule");
	assert_int_equal(ci.sym_offset, 1);
	sym_session_free(s);
}

/* --- cache -------------------------------------------------------------------------------- */

static void test_symbols_cache_stable(void **state)
{
	struct fix *f = *state;
	struct sym_session *s = session(NULL);
	struct sym_code_info a, b;
	uint64_t v = line_addr(f->inl.path, "prog_inline.c", f->line_body);

	make_maps(&f->inl, random_base());
	uint64_t ip = f->inl.base + v;
	assert_int_equal(sym_code(s, map_or_last(&f->inl, ip), ip, &a), 0);
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(sym_code(s, map_or_last(&f->inl, ip), ip, &b), 0);
		assert_ptr_equal(a.symbol, b.symbol);
		assert_ptr_equal(a.srcfile, b.srcfile);
		assert_int_equal(a.line, b.line);
	}
	/* the same file loaded at another base in another process: same answers */
	struct bin other = f->inl;
	make_maps(&other, random_base() + (1ull << 30));
	ip = other.base + v;
	assert_int_equal(sym_code(s, map_or_last(&other, ip), ip, &b), 0);
	assert_ptr_equal(a.symbol, b.symbol);
	assert_int_equal(a.line, b.line);
	sym_session_free(s);
	sym_session_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols_code_inline_pie),
		cmocka_unit_test(test_symbols_code_pie_and_nopie),
		cmocka_unit_test(test_symbols_plt),
		cmocka_unit_test(test_symbols_a2l_fallback),
		cmocka_unit_test(test_symbols_cxx_demangle),
		cmocka_unit_test(test_symbols_cxx_data_elf),
		cmocka_unit_test(test_symbols_data_pie_and_nopie),
		cmocka_unit_test(test_symbols_any_kind),
		cmocka_unit_test(test_symbols_relro_split),
		cmocka_unit_test(test_symbols_stripped_debuglink),
		cmocka_unit_test(test_symbols_build_id_mismatch),
		cmocka_unit_test(test_symbols_build_id_equal),
		cmocka_unit_test(test_symbols_failures),
		cmocka_unit_test(test_symbols_vdso_without_build_id),
		cmocka_unit_test(test_symbols_no_debug_info),
		cmocka_unit_test(test_symbols_vmlinux),
		cmocka_unit_test(test_symbols_map_kind),
		cmocka_unit_test(test_symbols_shared_library),
		cmocka_unit_test(test_symbols_kallsyms),
		cmocka_unit_test(test_symbols_proc_kallsyms),
		cmocka_unit_test(test_symbols_cache_stable),
		cmocka_unit_test(test_symbols_library_names),
		cmocka_unit_test(test_symbols_user_line),
		cmocka_unit_test(test_symbols_toolchain_data),
		cmocka_unit_test(test_symbols_rust_data),
		cmocka_unit_test(test_symbols_lld_segments),
		cmocka_unit_test(test_symbols_go_data),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
