/* Code addresses: the ELF symbol (function + offset) through libdwfl's symbol table, the source
 * line from the DWARF line table, and the innermost inlined function with its call site from the
 * DWARF scopes. The line is the line-table row of the address, i.e. the innermost source location
 * (inside the inlined body for inlined code), which is what addr2line and perf print. */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/sym-int.h"

/* Which alias names an address, as perf chooses (symbol.c, choose_best_symbol): a sized symbol,
 * then a non-weak one, then a global one, then fewer leading underscores, then the longer name;
 * on a full tie the alias that comes first in the symbol table. Lower ranks win. */
static int sym_rank(const GElf_Sym *sym, const char *name)
{
	int bind = GELF_ST_BIND(sym->st_info), u = 0;
	size_t len = strlen(name);

	while (name[u] == '_')
		u++;
	return (sym->st_size == 0) << 28 | (bind == STB_WEAK) << 27 | (bind != STB_GLOBAL) << 26 |
	       (u > 15 ? 15 : u) << 20 | (int)(0xfffff - (len > 0xfffff ? 0xfffff : len));
}

static int fn_cmp(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The ELF address where section @shndx of @elf ends, 0 when unknown. */
static uint64_t section_end(Elf *elf, GElf_Word shndx)
{
	Elf_Scn *scn = elf && shndx != SHN_UNDEF && shndx < SHN_LORESERVE ? elf_getscn(elf, shndx) : NULL;
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) ? sh.sh_addr + sh.sh_size : 0;
}

/* An untyped symbol in an executable section: an assembler entry point such as ld.so's _start,
 * which perf lists as a function too. */
static int is_text_label(Elf *elf, GElf_Word shndx)
{
	Elf_Scn *scn = elf && shndx != SHN_UNDEF && shndx < SHN_LORESERVE ? elf_getscn(elf, shndx) : NULL;
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/* All function symbols (and text labels) of the module's symbol table (libdwfl picks .symtab, the debug file's,
 * or .dynsym), sorted by address: dwfl_module_addrinfo() scans the whole table per call. */
static void build_fns(struct sym_session *s, struct sym_file *f)
{
	int n = dwfl_module_getsymtab(f->mod);

	f->fns_built = 1;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, &elf, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || name[0] == '$' || sym.st_shndx == SHN_UNDEF)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !(type == STT_NOTYPE && is_text_label(elf, shndx)))
			continue;
		f->fn = xgrow(f->fn, &f->cap_fn, f->nr_fn + 1, sizeof(*f->fn));
		uint64_t v = addr - f->bias;
		f->fn[f->nr_fn++] = (struct sym_fn){ v, sym.st_size,
						     sym.st_size ? v + sym.st_size : section_end(elf, shndx),
						     sym_str(&s->str, name), sym_rank(&sym, name),
						     (uint32_t)i };
	}
	if (f->nr_fn)
		qsort(f->fn, f->nr_fn, sizeof(*f->fn), fn_cmp);
}

/* The function symbol containing @vaddr. A size-0 symbol extends to the next symbol, within its
 * section (so _init never swallows the PLT after it). */
static const struct sym_fn *find_fn(const struct sym_file *f, uint64_t vaddr)
{
	size_t lo = 0, hi = f->nr_fn;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->fn[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* the first (best-ranked) of the aliases at the nearest start below */
	size_t i = lo - 1;
	while (i > 0 && f->fn[i - 1].addr == f->fn[i].addr)
		i--;
	const struct sym_fn *fn = &f->fn[i];
	if (vaddr < fn->end)
		return fn;
	/* an enclosing symbol further down (nested symbols), a few steps back */
	for (size_t k = 0; i-- > 0 && k < 8; k++)
		if (f->fn[i].size && vaddr < f->fn[i].end)
			return &f->fn[i];
	return NULL;
}

static void code_symbol(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
			struct sym_code_info *out)
{
	const struct sym_fn *fn;

	if (!f->fns_built)
		build_fns(s, f);
	fn = find_fn(f, vaddr);
	if (!fn)
		return;
	out->symbol = fn->name;
	out->sym_offset = vaddr - fn->addr;
}

/* DWARF 5 line tables may name files relative to the compilation directory; give the path the
 * way addr2line prints it. */
static const char *src_path(struct sym_session *s, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute at;
	const char *dir;
	struct sym_buf b = {0};
	const char *r;

	if (!file || file[0] == '/' || !cu ||
	    !(dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at))))
		return sym_str(&s->str, file);
	sym_buf_add(&b, "%s/%s", dir, file);
	r = sym_str(&s->str, b.p);
	free(b.p);
	return r;
}

static void code_line(struct sym_session *s, struct sym_file *f, Dwarf_Addr a,
		      struct sym_code_info *out)
{
	Dwfl_Line *l = dwfl_module_getsrc(f->mod, a);
	const char *file;
	int line = 0;

	if (!l)
		return;
	file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	if (!file || line <= 0)
		return;
	out->srcfile = src_path(s, dwfl_linecu(l), file);
	out->line = line;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static void inline_frame(struct sym_session *s, Dwarf_Die *cu, Dwarf_Die *die,
			 struct sym_code_info *out)
{
	Dwarf_Attribute at;
	Dwarf_Word w;

	out->inline_fn = sym_str(&s->str, dwarf_diename(die));
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &at), &w) == 0)
		out->call_file = src_path(s, cu, call_file(cu, w));
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &at), &w) == 0)
		out->call_line = w;
}

/* The function from the DWARF scopes (innermost DW_TAG_subprogram) when the symbol table had no
 * name for @a (stripped symbol table, debug info present). */
static void scope_function(struct sym_session *s, Dwarf_Die *cu, Dwarf_Addr bias, Dwarf_Addr a,
			   struct sym_code_info *out)
{
	Dwarf_Die *scope = NULL;
	Dwarf_Addr low;
	int n = dwarf_getscopes(cu, a - bias, &scope);

	for (int i = 0; i < n; i++) {
		if (dwarf_tag(&scope[i]) != DW_TAG_subprogram || !dwarf_diename(&scope[i]))
			continue;
		out->symbol = sym_str(&s->str, dwarf_diename(&scope[i]));
		if (dwarf_lowpc(&scope[i], &low) == 0)
			out->sym_offset = a - bias - low;
		break;
	}
	free(scope);
}

static void code_scopes(struct sym_session *s, struct sym_file *f, Dwarf_Addr a,
			struct sym_code_info *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(f->mod, a, &bias), die;

	if (!cu)
		return;
	if (!s->opts.no_inline && sym_inline_find(f, cu, a - bias, &die) == 0)
		inline_frame(s, cu, &die, out);
	if (!out->symbol)
		scope_function(s, cu, bias, a, out);
}

int sym_code_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		   struct sym_code_info *out)
{
	Dwarf_Addr a = vaddr + f->bias;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < f->nr_plt; i++) {
		if (vaddr >= f->plt_lo[i] && vaddr < f->plt_hi[i]) {
			/* NEEDSWORK: perf names PLT entries "func@plt" from .rela.plt; not done yet */
			out->reason = "PLT stub";
			return -ENOENT;
		}
	}
	code_symbol(s, f, vaddr, out);
	if (sym_file_dwarf(f) == 0) {
		code_line(s, f, a, out);
		code_scopes(s, f, a, out);
	}
	if (!out->symbol && !out->srcfile) {
		out->reason = !f->has_symtab && !f->dw ? "no symbol table" : "no symbol at address";
		return -ENOENT;
	}
	if (!out->srcfile)
		out->reason = f->dw ? "no line information" : "no debug info";
	return 0;
}
