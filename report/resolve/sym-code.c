/* Code addresses: the ELF symbol (function + offset) through libdwfl's symbol table, the source
 * line from the DWARF line table, and the innermost inlined function with its call site from the
 * DWARF scopes. The line is the line-table row of the address, i.e. the innermost source location
 * (inside the inlined body for inlined code), which is what addr2line and perf print. Where the
 * line table has no row, the file addr2line names from the symbol table instead (a2l_*, for perf's
 * Source:Line). Names are demangled as perf 6.1 shows them (sym-demangle.c). */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

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

/* The name perf 6.1 gives an ELF symbol: demangled (sym-demangle.c), as a pool string. */
static const char *perf_name(struct sym_session *s, const char *name)
{
	char *d = sym_demangle(name, 0);
	const char *r = sym_str(&s->str, d ? d : name);

	free(d);
	return r;
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

/* An untyped symbol in an executable section: an assembler entry point such as ld.so's _start,
 * which perf lists as a function too. */
static int is_text_label(Elf *elf, GElf_Word shndx)
{
	Elf_Scn *scn = elf && shndx != SHN_UNDEF && shndx < SHN_LORESERVE ? elf_getscn(elf, shndx) : NULL;
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static void plt_replay(struct sym_session *s, struct sym_file *f);

/* perf's end for a size-0 symbol with no symbol after it: roundup(start, 4096) + 4096. */
static uint64_t perf_last_end(uint64_t a)
{
	return ((a + 4095) & ~(uint64_t)4095) + 4096;
}

/* perf's symbols__fixup_end over the functions alone (plt_replay() refines it with the objects
 * and labels perf also loads): a size-0 symbol reaches to the start of the next symbol, whatever
 * the section (so _init covers the PLT after .init); the last one to the end of the page after
 * the one it starts in. */
static void fixup_ends(struct sym_file *f)
{
	size_t j = 0;

	for (size_t i = 0; i < f->nr_fn; i++) {
		if (f->fn[i].size)
			continue;
		if (j <= i)
			j = i + 1;
		while (j < f->nr_fn && f->fn[j].addr == f->fn[i].addr)
			j++;
		f->fn[i].end = j < f->nr_fn ? f->fn[j].addr : perf_last_end(f->fn[i].addr);
	}
}

/* The first section of @elf called @name, with its index in *idx. */
static Elf_Scn *section_named(Elf *elf, size_t shstr, const char *name, GElf_Shdr *sh,
			      size_t *idx)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		const char *n;
		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstr, sh->sh_name)) &&
		    !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

/* The span of the .plt, .plt.sec and .plt.got sections. */
static void plt_region(struct sym_file *f, Elf *elf, size_t shstr)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		const char *n;
		if (!gelf_getshdr(scn, &sh) || !sh.sh_size || !(n = elf_strptr(elf, shstr, sh.sh_name)) ||
		    (strcmp(n, ".plt") && strcmp(n, ".plt.sec") && strcmp(n, ".plt.got")))
			continue;
		if (!f->plt_hi || sh.sh_addr < f->plt_lo)
			f->plt_lo = sh.sh_addr;
		if (sh.sh_addr + sh.sh_size > f->plt_hi)
			f->plt_hi = sh.sh_addr + sh.sh_size;
	}
}

/* The PLT layout perf 6.1 assumes (symbol-elf.c): header and entry sizes per machine, for
 * x86 and the rest the section's sh_entsize for both. */
static void plt_sizes(const GElf_Ehdr *eh, const GElf_Shdr *plt, uint64_t *hdr, uint64_t *ent)
{
	switch (eh->e_machine) {
	case EM_ARM:
		*hdr = 20, *ent = 12;
		break;
	case EM_AARCH64:
		*hdr = 32, *ent = 16;
		break;
	case EM_SPARC:
		*hdr = 48, *ent = 12;
		break;
	case EM_SPARCV9:
		*hdr = 128, *ent = 32;
		break;
	default:
		*hdr = *ent = plt->sh_entsize;
		break;
	}
}

/* The symbol index of relocation @k of @d (SHT_RELA or SHT_REL), -1 when unreadable. */
static long rel_sym(Elf_Data *d, int rela, int k)
{
	GElf_Rela ra;
	GElf_Rel r;

	if (rela)
		return gelf_getrela(d, k, &ra) ? (long)GELF_R_SYM(ra.r_info) : -1;
	return gelf_getrel(d, k, &r) ? (long)GELF_R_SYM(r.r_info) : -1;
}

/* perf 6.1's dso__synthesize_plt_symbols: one "name@plt" per .rela.plt (or .rel.plt) entry, in
 * order, at .plt + header + k * entry, named after the relocation's .dynsym symbol (without
 * version). Always from the main file: a debug file's .rela.plt has no bytes. .plt.sec and
 * .plt.got get no names in 6.1. */
static void plt_synthesize(struct sym_session *s, struct sym_file *f)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(f->mod, &bias);
	GElf_Ehdr eh;
	GElf_Shdr rsh, psh, dsh;
	size_t shstr, dynidx;
	Elf_Scn *rel, *dyn;
	Elf_Data *rd, *dd, *sd;
	uint64_t hdr, ent;

	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstr))
		return;
	plt_region(f, elf, shstr);
	if (!(dyn = section_named(elf, shstr, ".dynsym", &dsh, &dynidx)) ||
	    dsh.sh_type != SHT_DYNSYM)
		return;
	if (!(rel = section_named(elf, shstr, ".rela.plt", &rsh, NULL)) &&
	    !(rel = section_named(elf, shstr, ".rel.plt", &rsh, NULL)))
		return;
	if (rsh.sh_link != dynidx || (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL) ||
	    !rsh.sh_entsize || !section_named(elf, shstr, ".plt", &psh, NULL))
		return;
	rd = elf_getdata(rel, NULL);
	dd = elf_getdata(dyn, NULL);
	sd = elf_getdata(elf_getscn(elf, dsh.sh_link), NULL);
	if (!rd || !dd || !sd || !sd->d_size)
		return;
	plt_sizes(&eh, &psh, &hdr, &ent);
	if (!ent)
		return;
	size_t n = rsh.sh_size / rsh.sh_entsize;
	f->plt_name = xcalloc(n ? n : 1, sizeof(*f->plt_name));
	for (size_t k = 0; k < n; k++) {
		long si = rel_sym(rd, rsh.sh_type == SHT_RELA, (int)k);
		GElf_Sym sym;
		const char *name = "";
		size_t len = 0;
		if (si >= 0 && gelf_getsym(dd, (int)si, &sym) && sym.st_name < sd->d_size) {
			name = (const char *)sd->d_buf + sym.st_name;
			len = strnlen(name, sd->d_size - sym.st_name);
		}
		struct sym_buf b = {0}, p = {0};
		sym_buf_add(&b, "%.*s", (int)len, name);
		sym_buf_add(&p, "%s@plt", perf_name(s, b.p));
		f->plt_name[k] = sym_str(&s->str, p.p);
		free(b.p);
		free(p.p);
	}
	f->nr_plt = n;
	f->plt_first = psh.sh_addr + hdr;
	f->plt_entsz = ent;
}

/* Where perf 6.1 stretched a size-0 symbol (such as _init) over the PLT, both it and the @plt
 * names cover the entries, and which one perf prints depends on the shape of its red-black tree
 * of symbols: symbols__find() walks down from the root and returns the first node whose range
 * holds the address. That tree is replayed here as dso__load_sym() builds it: every function,
 * object and text/data label of the symbol table in table order, keyed by file offset; then
 * symbols__fixup_end() and symbols__fixup_duplicate() (alias removal, which erases nodes); then
 * the PLT entries in relocation order. Insertion and erasure rebalance as the standard red-black
 * algorithms do, which perf's lib/rbtree.c implements. */
struct sym_rbn {
	uint64_t start, end;
	int l, r, p, red;
	int fn;               /* index in f->fn[], -1 for objects and labels, -2 for PLT entries */
	int bind, object;     /* STB_*; an STT_OBJECT */
	const char *name;
};

struct rbt {
	struct sym_rbn *n;
	int root;
};

static int rb_red(const struct rbt *t, int x)
{
	return x >= 0 && t->n[x].red;
}

static void rb_set_child(struct rbt *t, int parent, int old, int new)
{
	if (parent < 0)
		t->root = new;
	else if (t->n[parent].l == old)
		t->n[parent].l = new;
	else
		t->n[parent].r = new;
	if (new >= 0)
		t->n[new].p = parent;
}

/* Rotate @x down to the left (@left) or the right. */
static void rb_rotate(struct rbt *t, int x, int left)
{
	struct sym_rbn *n = t->n;
	int y = left ? n[x].r : n[x].l, mid = left ? n[y].l : n[y].r;

	if (left)
		n[x].r = mid;
	else
		n[x].l = mid;
	if (mid >= 0)
		n[mid].p = x;
	rb_set_child(t, n[x].p, x, y);
	if (left)
		n[y].l = x;
	else
		n[y].r = x;
	n[x].p = y;
}

/* perf's __symbols__insert: equal starts go right. */
static void rb_insert(struct rbt *t, int z)
{
	struct sym_rbn *n = t->n;
	int y = -1;

	for (int x = t->root; x >= 0; x = n[z].start < n[x].start ? n[x].l : n[x].r)
		y = x;
	n[z].p = y;
	n[z].l = n[z].r = -1;
	n[z].red = 1;
	if (y < 0)
		t->root = z;
	else if (n[z].start < n[y].start)
		n[y].l = z;
	else
		n[y].r = z;
	while (rb_red(t, n[z].p)) {
		int p = n[z].p, g = n[p].p, left = p == n[g].l;
		int u = left ? n[g].r : n[g].l;
		if (rb_red(t, u)) {
			n[p].red = n[u].red = 0;
			n[g].red = 1;
			z = g;
			continue;
		}
		if (z == (left ? n[p].r : n[p].l)) {
			z = p;
			rb_rotate(t, z, left);
			p = n[z].p;
		}
		n[p].red = 0;
		n[g].red = 1;
		rb_rotate(t, g, !left);
	}
	n[t->root].red = 0;
}

static void rb_erase_fixup(struct rbt *t, int x, int xp)
{
	struct sym_rbn *n = t->n;

	while (x != t->root && !rb_red(t, x)) {
		int left = x == n[xp].l, w = left ? n[xp].r : n[xp].l;
		if (rb_red(t, w)) {
			n[w].red = 0;
			n[xp].red = 1;
			rb_rotate(t, xp, left);
			w = left ? n[xp].r : n[xp].l;
		}
		int near = left ? n[w].l : n[w].r, far = left ? n[w].r : n[w].l;
		if (!rb_red(t, near) && !rb_red(t, far)) {
			n[w].red = 1;
			x = xp;
			xp = n[x].p;
			continue;
		}
		if (!rb_red(t, far)) {
			n[near].red = 0;
			n[w].red = 1;
			rb_rotate(t, w, !left);
			w = left ? n[xp].r : n[xp].l;
		}
		n[w].red = n[xp].red;
		n[xp].red = 0;
		far = left ? n[w].r : n[w].l;
		if (far >= 0)
			n[far].red = 0;
		rb_rotate(t, xp, left);
		x = t->root;
		break;
	}
	if (x >= 0)
		n[x].red = 0;
}

static void rb_erase(struct rbt *t, int z)
{
	struct sym_rbn *n = t->n;
	int y_red = n[z].red, x, xp;

	if (n[z].l < 0 || n[z].r < 0) {
		x = n[z].l < 0 ? n[z].r : n[z].l;
		xp = n[z].p;
		rb_set_child(t, n[z].p, z, x);
	} else {
		int y = n[z].r;
		while (n[y].l >= 0)
			y = n[y].l;
		y_red = n[y].red;
		x = n[y].r;
		if (n[y].p == z) {
			xp = y;
		} else {
			xp = n[y].p;
			rb_set_child(t, n[y].p, y, x);
			n[y].r = n[z].r;
			n[n[y].r].p = y;
		}
		rb_set_child(t, n[z].p, z, y);
		n[y].l = n[z].l;
		n[n[y].l].p = y;
		n[y].red = n[z].red;
	}
	if (!y_red)
		rb_erase_fixup(t, x, xp);
}

static int rb_first(const struct rbt *t)
{
	int x = t->root;

	while (x >= 0 && t->n[x].l >= 0)
		x = t->n[x].l;
	return x;
}

static int rb_next(const struct rbt *t, int x)
{
	const struct sym_rbn *n = t->n;

	if (n[x].r >= 0) {
		for (x = n[x].r; n[x].l >= 0;)
			x = n[x].l;
		return x;
	}
	while (n[x].p >= 0 && n[n[x].p].r == x)
		x = n[x].p;
	return n[x].p;
}

/* perf's symbols__find. */
static int rb_find(const struct rbt *t, uint64_t ip)
{
	for (int x = t->root; x >= 0;) {
		const struct sym_rbn *s = &t->n[x];
		if (ip < s->start)
			x = s->l;
		else if (ip > s->end || (ip == s->end && ip != s->start))
			x = s->r;
		else
			return x;
	}
	return -1;
}

/* perf's choose_best_symbol: nonzero when @a stays and @b goes. */
static int rb_keep_first(const struct sym_rbn *a, const struct sym_rbn *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	int ua = 0, ub = 0;

	if (!lb != !la)
		return la > 0;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	while (a->name[ua] == '_')
		ua++;
	while (b->name[ub] == '_')
		ub++;
	if (ua != ub)
		return ua < ub;
	return strlen(a->name) >= strlen(b->name);
}

static void rb_fixup_end(struct rbt *t)
{
	int prev = rb_first(t);

	if (prev < 0)
		return;
	for (int cur = rb_next(t, prev); cur >= 0; prev = cur, cur = rb_next(t, cur))
		if (t->n[prev].end == t->n[prev].start)
			t->n[prev].end = t->n[cur].start;
	if (t->n[prev].end == t->n[prev].start)
		t->n[prev].end = perf_last_end(t->n[prev].start);
}

static void rb_fixup_duplicate(struct rbt *t)
{
	int cur = rb_first(t);

	while (cur >= 0) {
		int next = rb_next(t, cur);
		if (next < 0)
			break;
		if (t->n[cur].start != t->n[next].start) {
			cur = next;
			continue;
		}
		if (rb_keep_first(&t->n[cur], &t->n[next])) {
			rb_erase(t, next);
		} else {
			rb_erase(t, cur);
			cur = next;
		}
	}
}

/* vaddr - file offset of the PT_LOAD holding @v; -1 (no segment) as an impossible delta. */
static int seg_delta(const struct sym_file *f, uint64_t v, uint64_t *delta)
{
	for (size_t i = 0; i < f->nr_seg; i++) {
		if (v >= f->seg[i].vaddr && v < f->seg[i].vaddr + f->seg[i].memsz) {
			*delta = f->seg[i].vaddr - f->seg[i].offset;
			return 0;
		}
	}
	return -1;
}

/* Which symbols dso__load_sym() of perf 6.1 keeps: named functions and objects, and named
 * untyped labels that are not hidden or internal, in a section whose name holds "text" or
 * "data"; never absolute ones (glibc's version names, OBJECT GLIBC_2.3 at 0 in ld.so). */
static int perf_keeps(const GElf_Sym *sym, const char *name, Elf *elf, GElf_Word shndx)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	GElf_Shdr sh;
	size_t shstr;
	Elf_Scn *scn;
	const char *sec;

	if (!*name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return 0;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return 1;
	if (type != STT_NOTYPE || vis == STV_HIDDEN ||
	    vis == STV_INTERNAL)
		return 0;
	if (!elf || elf_getshdrstrndx(elf, &shstr) || !(scn = elf_getscn(elf, shndx)) ||
	    !gelf_getshdr(scn, &sh) || !(sec = elf_strptr(elf, shstr, sh.sh_name)))
		return 0;
	return strstr(sec, "text") || strstr(sec, "data");
}

/* Build perf's tree of the file's symbols (nodes 0..count-1) in @t; fn index by symtab index
 * through @at_idx. Returns the number of nodes. */
static size_t rb_load(struct sym_session *s, struct sym_file *f, struct rbt *t, size_t cap,
		      const int *fn_of_idx, size_t nidx)
{
	int n = dwfl_module_getsymtab(f->mod);
	size_t nr = 0;

	for (int i = 1; i < n && nr < cap; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, &elf, NULL);
		uint64_t delta;
		if (!name || !perf_keeps(&sym, name, elf, shndx) ||
		    seg_delta(f, addr - f->bias, &delta))
			continue;
		struct sym_rbn *x = &t->n[nr];
		x->start = addr - f->bias - delta;
		x->end = x->start + sym.st_size;
		x->fn = (size_t)i < nidx ? fn_of_idx[i] : -1;
		x->bind = GELF_ST_BIND(sym.st_info);
		x->object = GELF_ST_TYPE(sym.st_info) == STT_OBJECT;
		/* perf demangles every symbol it loads and compares those names */
		x->name = x->fn >= 0 ? f->fn[x->fn].name : perf_name(s, name);
		rb_insert(t, (int)nr++);
	}
	return nr;
}

/* Keep perf's tree (f->rbn: it answers for the PLT sections and for sym_symbol()), and set
 * perf's ends of size-0 functions (the next symbol may be an object or a label) from it. */
static void plt_replay(struct sym_session *s, struct sym_file *f)
{
	int nsym = dwfl_module_getsymtab(f->mod);
	uint64_t pdelta = 0;

	if (nsym <= 0 || (size_t)nsym + f->nr_plt > INT32_MAX ||
	    (f->plt_hi && seg_delta(f, f->plt_lo, &pdelta)))
		return;
	size_t cap = (size_t)nsym + f->nr_plt;
	int *fn_of_idx = xcalloc((size_t)nsym, sizeof(*fn_of_idx));
	for (int i = 0; i < nsym; i++)
		fn_of_idx[i] = -1;
	for (size_t j = 0; j < f->nr_fn; j++)
		if (f->fn[j].idx < (uint32_t)nsym)
			fn_of_idx[f->fn[j].idx] = (int)j;
	struct rbt t = { xcalloc(cap, sizeof(*t.n)), -1 };
	f->rbn = t.n;
	size_t nr = rb_load(s, f, &t, (size_t)nsym, fn_of_idx, (size_t)nsym);
	rb_fixup_end(&t);
	/* the ends perf gives size-0 functions (before alias removal, as perf) */
	for (size_t x = 0; x < nr; x++) {
		struct sym_fn *fn = t.n[x].fn >= 0 ? &f->fn[t.n[x].fn] : NULL;
		uint64_t delta;
		if (fn && !fn->size && !seg_delta(f, fn->addr, &delta))
			fn->end = t.n[x].end + delta;
	}
	/* a size-0 symbol stretched over the PLT reaches past it (_init up to .text, over .plt.got
	 * and the padding): the tree decides there too */
	for (size_t j = 0; j < f->nr_fn && f->plt_hi; j++)
		if (!f->fn[j].size && f->fn[j].addr < f->plt_hi && f->fn[j].end > f->plt_hi)
			f->plt_hi = f->fn[j].end;
	rb_fixup_duplicate(&t);
	/* perf's dso__load() synthesizes the PLT entries only when it loaded some symbol */
	for (size_t k = 0; nr && k < f->nr_plt; k++) {
		struct sym_rbn *x = &t.n[nr + k];
		x->start = f->plt_first - pdelta + k * f->plt_entsz;
		x->end = x->start + f->plt_entsz;
		x->fn = -2;
		x->name = f->plt_name[k];
		rb_insert(&t, (int)(nr + k));
	}
	f->rb_root = t.root;
	f->plt_delta = pdelta;
	free(fn_of_idx);
}

/* binutils' addr2line, which perf 6.1 runs for its Source:Line column, finds the function of an
 * address without a line in the symbol table itself (bfd's _bfd_elf_find_function): among the
 * symbols of the section holding the address that may be functions (anything but section, file,
 * object, TLS and hidden local size-0 untyped symbols), the one starting closest below it, whether
 * or not it reaches the address. It then names the file of the STT_FILE symbol last seen before
 * that symbol in table order, unless the symbol is global and a STT_FILE symbol came after another
 * symbol (the linker's table of locals: crtstuff.c's local functions get "crtstuff.c", _start and
 * _init none). No such symbol in the section (the PLT): addr2line knows nothing there. */
struct sym_a2l {
	uint64_t addr, size;  /* size 0 counts as 1, as bfd does */
	uint32_t shndx, idx;
	int func;             /* STT_FUNC: preferred over another symbol at the same address */
	const char *file;     /* pool string, NULL: none */
};

/* An SHF_ALLOC section, in section header order (the first one holding an address is its). */
struct sym_a2l_sec {
	uint64_t addr, size;
	uint32_t idx;
};

static int a2l_cmp(const void *a, const void *b)
{
	const struct sym_a2l *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void a2l_sections(struct sym_file *f, Elf *elf)
{
	size_t n;

	if (!elf || elf_getshdrnum(elf, &n) || !n)
		return;
	f->a2l_sec = xcalloc(n, sizeof(*f->a2l_sec));
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_size)
			f->a2l_sec[f->nr_a2l_sec++] =
				(struct sym_a2l_sec){ sh.sh_addr, sh.sh_size, (uint32_t)elf_ndxscn(scn) };
	}
}

/* bfd's maybe_function_sym. */
static int a2l_maybe_function(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_COMMON ||
	    type == STT_TLS || type == 8 || type == 9)  /* 8, 9: binutils' STT_RELC, STT_SRELC */
		return 0;
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return 0;
	return sym->st_size || GELF_ST_BIND(sym->st_info) != STB_LOCAL || type != STT_NOTYPE ||
	       GELF_ST_VISIBILITY(sym->st_other) != STV_HIDDEN;
}

static void a2l_build(struct sym_session *s, struct sym_file *f)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	int n = dwfl_module_getsymtab(f->mod);
	const char *file = NULL;
	Elf *symelf = NULL;
	size_t cap = 0;

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, &elf, NULL);
		if (!name)
			continue;
		if (!symelf && elf)
			a2l_sections(f, symelf = elf);
		if (elf != symelf)      /* an auxiliary table (.gnu_debugdata): not addr2line's */
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = name;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (!a2l_maybe_function(&sym))
			continue;
		int named = file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL || state != FILE_AFTER_SYMBOL);
		f->a2l = xgrow(f->a2l, &cap, f->nr_a2l + 1, sizeof(*f->a2l));
		f->a2l[f->nr_a2l++] = (struct sym_a2l){ addr - f->bias, sym.st_size ? sym.st_size : 1,
							shndx, (uint32_t)i,
							GELF_ST_TYPE(sym.st_info) == STT_FUNC,
							named ? sym_str(&s->str, file) : NULL };
	}
	if (f->nr_a2l)
		qsort(f->a2l, f->nr_a2l, sizeof(*f->a2l), a2l_cmp);
}

/* bfd's better_fit between two symbols at the same address, @best first in table order. */
static int a2l_better(const struct sym_a2l *best, const struct sym_a2l *c, uint64_t vaddr)
{
	if (best->addr + best->size <= vaddr)
		return c->size > best->size;
	return c->addr + c->size > vaddr && !best->func && c->func;
}

/* The symbol addr2line takes for the function at @vaddr, NULL when it finds none. */
static const struct sym_a2l *a2l_find(const struct sym_file *f, uint64_t vaddr)
{
	const struct sym_a2l_sec *sec = NULL;
	size_t lo = 0, hi = f->nr_a2l;

	for (size_t i = 0; i < f->nr_a2l_sec && !sec; i++)
		if (vaddr >= f->a2l_sec[i].addr && vaddr - f->a2l_sec[i].addr < f->a2l_sec[i].size)
			sec = &f->a2l_sec[i];
	if (!sec)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->a2l[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the nearest start below in the section */
	size_t top = lo;
	while (top > 0 && f->a2l[top - 1].addr >= sec->addr && f->a2l[top - 1].shndx != sec->idx)
		top--;
	if (!top || f->a2l[top - 1].addr < sec->addr)
		return NULL;
	uint64_t at = f->a2l[top - 1].addr;
	size_t first = top - 1;
	while (first > 0 && f->a2l[first - 1].addr == at)
		first--;
	/* bfd's choice among the symbols there, in table order */
	const struct sym_a2l *best = NULL;
	for (size_t i = first; i < top; i++) {
		const struct sym_a2l *c = &f->a2l[i];
		if (c->shndx == sec->idx && (!best || a2l_better(best, c, vaddr)))
			best = c;
	}
	return best;
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
		const char *shown = perf_name(s, name);
		f->fn[f->nr_fn++] = (struct sym_fn){ v, sym.st_size, v + sym.st_size, shown,
						     sym_rank(&sym, shown), (uint32_t)i };
	}
	a2l_build(s, f);
	/* no function (a stripped executable's .dynsym): objects still name data, and PLT entries
	 * code, as soon as perf loads one symbol */
	if (f->nr_fn)
		qsort(f->fn, f->nr_fn, sizeof(*f->fn), fn_cmp);
	fixup_ends(f);
	plt_synthesize(s, f);
	plt_replay(s, f);
}

/* The function symbol containing @vaddr. A size-0 symbol extends to the next symbol (fixup_ends). */
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
	if (f->rbn && vaddr >= f->plt_lo && vaddr < f->plt_hi) {
		struct rbt t = { f->rbn, f->rb_root };
		int w = rb_find(&t, vaddr - f->plt_delta);
		if (w < 0)
			return;         /* perf's search misses: [unknown] */
		if (f->rbn[w].fn == -2) {
			uint64_t k = (vaddr - f->plt_first) / f->plt_entsz;
			out->symbol = f->plt_name[k];
			out->sym_offset = vaddr - f->plt_first - k * f->plt_entsz;
			return;
		}
		if (f->rbn[w].fn >= 0)
			fn = &f->fn[f->rbn[w].fn];
	}
	if (fn) {
		out->symbol = fn->name;
		out->sym_offset = vaddr - fn->addr;
	}
}

int sym_symbol_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		     struct sym_code_info *out)
{
	uint64_t delta;
	int w;

	memset(out, 0, sizeof(*out));
	if (!f->fns_built)
		build_fns(s, f);
	if (!f->rbn) {
		out->reason = !f->has_symtab && !f->dw ? "no symbol table" : "no symbol at address";
		return -ENOENT;
	}
	/* the tree is keyed as perf keys it: by file offset (perf's map-relative address) */
	struct rbt t = { f->rbn, f->rb_root };
	if (seg_delta(f, vaddr, &delta) || (w = rb_find(&t, vaddr - delta)) < 0) {
		out->reason = "no symbol at address";
		return -ENOENT;
	}
	out->symbol = f->rbn[w].name;
	out->sym_offset = vaddr - delta - f->rbn[w].start;
	out->object = f->rbn[w].object;
	return 0;
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

/* libdwfl finds the CU of an address past its last range too (in the gap before the next CU),
 * and libdw's line lookup then returns a zero-length row that ends a sequence there (g++ emits
 * them): _start after a C++ CU got that CU's last line. addr2line, like the CU's own ranges, says
 * the address has no line. A CU without ranges or high_pc is taken at its word. */
static int cu_covers(Dwarf_Die *cu, Dwarf_Addr a)
{
	if (!cu || (!dwarf_hasattr(cu, DW_AT_ranges) && !dwarf_hasattr(cu, DW_AT_high_pc)))
		return 1;
	return dwarf_haspc(cu, a) != 0;
}

static void code_line(struct sym_session *s, struct sym_file *f, Dwarf_Addr a,
		      struct sym_code_info *out)
{
	Dwfl_Line *l = dwfl_module_getsrc(f->mod, a);
	const char *file;
	int line = 0;

	if (!l || !cu_covers(dwfl_linecu(l), a - f->dw_bias))
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

/* Does binutils' DWARF reader see a function at CU address @a? addr2line then names no file
 * when the line table has no row. (For a function whose DWARF name is not its linkage name, as
 * C++'s main, addr2line asks the symbol table the first time and names its STT_FILE file: only for
 * the first address of that function one process is asked about. perf keeps one process per DSO,
 * so nearly every address gets no file; this follows that.) */
static int dwarf_function(Dwarf_Die *cu, Dwarf_Addr a)
{
	Dwarf_Die *scope = NULL;
	int n = dwarf_getscopes(cu, a, &scope), r = 0;

	/* an inlined instance counts too (dwarf_getscopes() continues from an inlined instance with
	 * the scopes of its abstract definition, so the function it was inlined into is missing) */
	for (int i = 0; i < n && !r; i++)
		r = dwarf_tag(&scope[i]) == DW_TAG_subprogram ||
		    dwarf_tag(&scope[i]) == DW_TAG_inlined_subroutine;
	free(scope);
	return r;
}

/* The file addr2line names for @vaddr when the line table has no row there, as perf 6.1 shows it
 * in Source:Line with line 0: "??" when it finds a function but no file, the STT_FILE name when
 * the symbol table gives one (a2l_find), NULL when it finds no function (perf then prints
 * symbol+offset). */
static void a2l_file(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		     struct sym_code_info *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = f->dw ? dwfl_module_addrdie(f->mod, vaddr + f->bias, &bias) : NULL;
	const struct sym_a2l *c;

	if (cu && dwarf_function(cu, vaddr + f->bias - bias)) {
		out->srcfile = sym_str(&s->str, "??");
		return;
	}
	c = a2l_find(f, vaddr);
	if (c)
		out->srcfile = c->file ? c->file : sym_str(&s->str, "??");
}

int sym_system_file(const char *path)
{
	static const char *const prefix[] = { "/usr/include/", "/usr/lib/gcc/", "/usr/local/include/",
					      "/usr/lib/go", "/usr/share/go", "/rustc/" };
	static const char *const part[] = { "/include/c++/", "/.rustup/toolchains/",
					    "/.cargo/registry/", "/lib/rustlib/" };
	size_t i;

	if (!path)
		return 0;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(path, prefix[i], strlen(prefix[i])))
			return 1;
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if (strstr(path, part[i]))
			return 1;
	return 0;
}

/* The user's line of @a: its own when not a library's, else the first call site out of the
 * inlined library code, innermost first. */
static void user_line(struct sym_session *s, struct sym_file *f, Dwarf_Addr a,
		      struct sym_code_info *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu, chain[16];
	size_t n, i;

	if (!out->srcfile || !sym_system_file(out->srcfile)) {
		out->user_file = out->srcfile;
		out->user_line = out->line;
		return;
	}
	if (s->opts.no_inline || !(cu = dwfl_module_addrdie(f->mod, a, &bias)))
		return;
	n = sym_inline_chain(f, cu, a - bias, chain, sizeof(chain) / sizeof(chain[0]));
	for (i = 0; i < n; i++) {
		struct sym_code_info site = { 0 };

		inline_frame(s, cu, &chain[i], &site);
		if (site.call_file && site.call_line && !sym_system_file(site.call_file)) {
			out->user_file = site.call_file;
			out->user_line = site.call_line;
			return;
		}
	}
}

int sym_code_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		   struct sym_code_info *out)
{
	Dwarf_Addr a = vaddr + f->bias;

	memset(out, 0, sizeof(*out));
	code_symbol(s, f, vaddr, out);
	if (sym_file_dwarf(f) == 0) {
		code_line(s, f, a, out);
		code_scopes(s, f, a, out);
		user_line(s, f, a, out);
	}
	if (!out->symbol && !out->srcfile) {
		out->reason = !f->has_symtab && !f->dw ? "no symbol table" : "no symbol at address";
		/* no symbol holds it (padding after a sized function): addr2line, which perf still
		 * asks, may name the function before it, so Source:Line says "??:0" or "FILE:0" */
		a2l_file(s, f, vaddr, out);
		return out->srcfile ? 0 : -ENOENT;
	}
	if (!out->line) {
		out->reason = f->dw ? "no line information" : "no debug info";
		if (out->symbol)
			a2l_file(s, f, vaddr, out);
	}
	return 0;
}
