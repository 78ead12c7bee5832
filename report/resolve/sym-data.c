/* Data addresses: the static or global variable holding an address, and the path to the byte
 * inside the variable's type ("stats[3].hits", "q.head (+8)", "buf1 (padding +12)").
 *
 * Each file gets, on first use, one table of variables sorted by address: the ELF data symbols
 * (STT_OBJECT) and the DWARF variables whose location is a fixed address (DW_OP_addr), function
 * statics included. A DWARF entry wins over an ELF symbol at the same address because it knows
 * the type; an ELF-only variable still gets its name and offset. */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

#define MAX_DEPTH 24

static void add_var(struct sym_file *f, uint64_t addr, uint64_t size, const char *name,
		    Dwarf_Die *die)
{
	struct sym_var *v;

	f->var = xgrow(f->var, &f->cap_var, f->nr_var + 1, sizeof(*f->var));
	v = &f->var[f->nr_var++];
	memset(v, 0, sizeof(*v));
	v->addr = addr;
	v->size = size;
	v->name = name;
	if (die) {
		v->has_die = 1;
		v->die = *die;
	}
}

/* Data the toolchain puts in every program, not the program's own: crtstuff's statics
 * (completed.0, dtor_idx.0, __TMC_END__, __dso_handle, ...) and the linker's section
 * markers. A variable the debug info declares is never one of them. Such symbols name nothing
 * (an access there keeps its bytes, unnamed), so that they head no line's title. */
static int toolchain_symbol(const char *name)
{
	static const char *const exact[] = {
		"__dso_handle", "__TMC_END__", "__TMC_LIST__", "__JCR_END__", "__JCR_LIST__",
		"__FRAME_END__", "__EH_FRAME_BEGIN__", "__CTOR_LIST__", "__CTOR_END__",
		"__DTOR_LIST__", "__DTOR_END__", "__frame_dummy_init_array_entry",
		"__do_global_dtors_aux_fini_array_entry", "__init_array_start", "__init_array_end",
		"__fini_array_start", "__fini_array_end", "__preinit_array_start",
		"__preinit_array_end", "_GLOBAL_OFFSET_TABLE_", "_DYNAMIC", "__GNU_EH_FRAME_HDR",
		"_IO_stdin_used", "__data_start", "data_start", "__bss_start", "_edata", "_end",
		"__ehdr_start", "__executable_start", "__abi_tag",
	};
	static const char *const local[] = { "completed.", "dtor_idx." };

	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(name, exact[i]))
			return 1;
	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		size_t n = strlen(local[i]);
		if (!strncmp(name, local[i], n) && name[n] &&
		    strspn(name + n, "0123456789") == strlen(name + n))
			return 1;
	}
	return 0;
}

/* An identifier reserved to the implementation: "__x", "_X". */
static int reserved_name(const char *name)
{
	return name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'));
}

/* A variable of the C++ standard library's own, by its qualified name: a reserved name in
 * namespace std or __gnu_cxx ("std::__ioinit", the static ios_base::Init of <iostream>). */
static int library_internal(const char *qualified)
{
	const char *last = qualified, *p;

	if (strncmp(qualified, "std::", 5) && strncmp(qualified, "__gnu_cxx::", 11))
		return 0;
	for (p = qualified; (p = strstr(p, "::")); p += 2)
		last = p + 2;
	return reserved_name(last);
}

static void elf_vars(struct sym_session *s, struct sym_file *f)
{
	int n = dwfl_module_getsymtab(f->mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, NULL, NULL, NULL);
		char *dm;

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
		    sym.st_shndx == SHN_UNDEF || toolchain_symbol(name))
			continue;
		dm = sym_demangle(name, 0);   /* C++ globals: "ns::counter", as perf names them */
		if (dm && library_internal(dm)) {
			free(dm);
			continue;
		}
		add_var(f, addr - f->bias, sym.st_size, sym_str(&s->str, dm ? dm : name), NULL);
		free(dm);
	}
}

int sym_die_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute at;

	return dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &at), type) ? 0 : -1;
}

/* A location in a DW_FORM_block1 holding DW_OP_addr alone, as Go writes it in DWARF 4 units
 * (where libdw takes only exprloc): 0 and the address, else -1. */
static int block_addr(Dwarf_Attribute *at, Dwarf_Addr *addr)
{
	Dwarf_Block b;
	uint64_t a = 0;

	if (dwarf_formblock(at, &b) || b.length != 9 || b.data[0] != DW_OP_addr)
		return -1;
	for (int i = 8; i >= 1; i--)   /* little-endian, 8-byte addresses (x86-64, AArch64) */
		a = a << 8 | b.data[i];
	*addr = a;
	return 0;
}

/* The fixed address of a variable DIE (DW_OP_addr location, or DW_OP_addrx into .debug_addr as
 * clang's DWARF 5 has it), or -1. */
static int var_addr(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute at, ax;
	Dwarf_Op *op;
	size_t n;

	if (!dwarf_attr(die, DW_AT_location, &at))
		return -1;
	if (dwarf_getlocation(&at, &op, &n))
		return block_addr(&at, addr);
	if (n != 1)
		return -1;
	if (op[0].atom == DW_OP_addr) {
		*addr = op[0].number;
		return 0;
	}
	if ((op[0].atom == DW_OP_addrx || op[0].atom == DW_OP_GNU_addr_index) &&
	    dwarf_getlocation_attr(&at, op, &ax) == 0 && dwarf_formaddr(&ax, addr) == 0)
		return 0;
	return -1;
}

static int library_type(Dwarf_Die *t);

/* A C++ variable with a reserved name of one of the standard library's types: the library's
 * own (std::__ioinit, defined outside its namespace's DIE). */
static int std_internal_var(Dwarf_Die *die, const char *name)
{
	Dwarf_Die t;

	if (!reserved_name(name) || sym_die_type(die, &t) || sym_type_peel(&t))
		return 0;
	return (dwarf_tag(&t) == DW_TAG_structure_type || dwarf_tag(&t) == DW_TAG_class_type) &&
	       library_type(&t);
}

/* @in_std: @die is in namespace std or __gnu_cxx, whose reserved names are the library's own
 * (library_internal()). */
static void dwarf_var(struct sym_session *s, struct sym_file *f, Dwarf_Die *die, int in_std)
{
	Dwarf_Addr addr;
	Dwarf_Die type;
	Dwarf_Word size = 0;
	const char *name = dwarf_diename(die);

	if (!name || (in_std && reserved_name(name)) || var_addr(die, &addr) ||
	    std_internal_var(die, name))
		return;
	if (sym_die_type(die, &type) == 0)
		dwarf_aggregate_size(&type, &size);
	add_var(f, addr + f->dw_bias - f->bias, size, sym_str(&s->str, name), die);
}

static void walk(struct sym_session *s, struct sym_file *f, Dwarf_Die *parent, int depth,
		 int in_std)
{
	Dwarf_Die child;
	const char *ns;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_variable:
			dwarf_var(s, f, &child, in_std);
			break;
		case DW_TAG_namespace:
			ns = depth ? NULL : dwarf_diename(&child);
			walk(s, f, &child, depth + 1,
			     in_std || (ns && (!strcmp(ns, "std") || !strcmp(ns, "__gnu_cxx"))));
			break;
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
			walk(s, f, &child, depth + 1, in_std);
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void dwarf_vars(struct sym_session *s, struct sym_file *f)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(f->dw, off + hsize, &cu))
			walk(s, f, &cu, 0, 0);
		off = next;
	}
}

static int var_cmp(const void *a, const void *b)
{
	const struct sym_var *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return y->has_die - x->has_die;
}

static void build_vars(struct sym_session *s, struct sym_file *f)
{
	f->vars_built = 1;
	elf_vars(s, f);
	if (sym_file_dwarf(f) == 0)
		dwarf_vars(s, f);
	if (f->nr_var)
		qsort(f->var, f->nr_var, sizeof(*f->var), var_cmp);
}

/* The variable containing @vaddr, DWARF ones first. */
static const struct sym_var *find_var(const struct sym_file *f, uint64_t vaddr)
{
	size_t lo = 0, hi = f->nr_var;
	const struct sym_var *elf_hit = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->var[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* f->var[lo - 1] is the last starting at or before vaddr; a few earlier ones may still
	 * contain it (aliases, overlapping symbols). */
	for (size_t i = lo, k = 0; i-- > 0 && k < 16; k++) {
		const struct sym_var *v = &f->var[i];
		if (vaddr - v->addr >= (v->size ? v->size : 1))
			continue;
		if (v->has_die)
			return v;
		/* a sized symbol over a size-0 alias (completed.0, not __TMC_END__) */
		if (!elf_hit || (!elf_hit->size && v->size))
			elf_hit = v;
	}
	return elf_hit;
}

/* --- types ------------------------------------------------------------------------------- */

int sym_type_peel(Dwarf_Die *t)
{
	for (int i = 0; i < MAX_DEPTH; i++) {
		switch (dwarf_tag(t)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (sym_die_type(t, t))
				return -1;
			break;
		default:
			return 0;
		}
	}
	return -1;
}

uint64_t sym_type_size(Dwarf_Die *t)
{
	Dwarf_Word n = 0;

	return dwarf_aggregate_size(t, &n) == 0 ? n : 0;
}

/* The element count of a DW_TAG_subrange_type, 0 when unknown (flexible arrays): DW_AT_count,
 * else upper - lower + 1, the lower bound by default the language's (0 in C, 1 in Fortran:
 * DWARF 5 section 7.13). */
static uint64_t subrange_count(Dwarf_Die *sub)
{
	Dwarf_Attribute at;
	Dwarf_Word w, lo = 0;
	Dwarf_Sword dflt;
	Dwarf_Die cu;

	if (dwarf_formudata(dwarf_attr(sub, DW_AT_count, &at), &w) == 0)
		return w;
	if (dwarf_formudata(dwarf_attr(sub, DW_AT_upper_bound, &at), &w))
		return 0;
	if (dwarf_attr(sub, DW_AT_lower_bound, &at)) {
		if (dwarf_formudata(&at, &lo))
			return 0;
	} else if (dwarf_diecu(sub, &cu, NULL, NULL) &&
		   dwarf_default_lower_bound(dwarf_srclang(&cu), &dflt) == 0 && dflt > 0) {
		lo = (Dwarf_Word)dflt;
	}
	return w >= lo ? w - lo + 1 : 0;
}

static void type_name(Dwarf_Die *t, struct sym_buf *b, int depth);

static void array_name(Dwarf_Die *t, struct sym_buf *b, int depth)
{
	Dwarf_Die elem, sub;

	if (sym_die_type(t, &elem))
		sym_buf_add(b, "?");
	else
		type_name(&elem, b, depth + 1);
	if (dwarf_child(t, &sub))
		return;
	do {
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		uint64_t n = subrange_count(&sub);
		if (n)
			sym_buf_add(b, "[%llu]", (unsigned long long)n);
		else
			sym_buf_add(b, "[]");
	} while (dwarf_siblingof(&sub, &sub) == 0);
}

static int die_lang(Dwarf_Die *d)
{
	Dwarf_Die cu;

	return dwarf_diecu(d, &cu, NULL, NULL) ? dwarf_srclang(&cu) : -1;
}

enum sym_lang sym_die_lang(Dwarf_Die *d)
{
	int l = die_lang(d);

	switch (l) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
		return SYM_LANG_C;
	case DW_LANG_C_plus_plus: case DW_LANG_C_plus_plus_03: case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
		return SYM_LANG_CXX;
	case DW_LANG_Rust:
		return SYM_LANG_RUST;
	case DW_LANG_Go:
		return SYM_LANG_GO;
	case DW_LANG_Fortran77: case DW_LANG_Fortran90: case DW_LANG_Fortran95:
	case DW_LANG_Fortran03: case DW_LANG_Fortran08:
		return SYM_LANG_FORTRAN;
	default:
		return l < 0 ? SYM_LANG_UNKNOWN : SYM_LANG_OTHER;
	}
}

static int lang_cxx(int lang)
{
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* The namespaces and types enclosing @t, outermost first, each followed by "::" ("std::",
 * "core::sync::atomic::"), into @b; the outermost one's name in @top (empty when none).
 * dwarf_getscopes_die() walks the unit: only for the named types of C++ and Rust. */
static void scope_prefix(Dwarf_Die *t, struct sym_buf *b, char *top, size_t ntop)
{
	Dwarf_Die *sc = NULL;
	int n = dwarf_getscopes_die(t, &sc);

	top[0] = 0;
	for (int i = n - 1; i >= 1; i--) {
		int tag = dwarf_tag(&sc[i]);
		const char *name = dwarf_diename(&sc[i]);
		if (!name || (tag != DW_TAG_namespace && tag != DW_TAG_structure_type &&
			      tag != DW_TAG_class_type && tag != DW_TAG_union_type))
			continue;
		if (!top[0])
			snprintf(top, ntop, "%s", name);
		sym_buf_add(b, "%s::", name);
	}
	free(sc);
}

/* The standard library's namespaces: libstdc++'s and Rust's (core, alloc, std). */
static int std_scope(int lang, const char *top)
{
	if (lang_cxx(lang))
		return !strcmp(top, "std") || !strcmp(top, "__gnu_cxx");
	return lang == DW_LANG_Rust &&
	       (!strcmp(top, "core") || !strcmp(top, "alloc") || !strcmp(top, "std"));
}

/* A Go type or function of the standard library: "sync/atomic.Int64", "runtime.mutex",
 * "sync/atomic.(*Int64).Add" (Go names them by package path, and the standard library's first
 * path elements are these; a module's own may lack a dot too, so no rule on dots serves). */
static int go_std_type(const char *name)
{
	static const char *const top[] = {
		"archive", "bufio", "bytes", "compress", "container", "context", "crypto", "database",
		"debug", "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html",
		"image", "index", "internal", "io", "log", "math", "mime", "net", "os", "path",
		"plugin", "reflect", "regexp", "runtime", "sort", "strconv", "strings", "sync",
		"syscall", "testing", "text", "time", "unicode", "unsafe", "vendor",
	};
	size_t n;

	if (!name)
		return 0;
	n = strcspn(name, "/.");
	if (!name[n])
		return 0;
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (strlen(top[i]) == n && !strncmp(name, top[i], n))
			return 1;
	return 0;
}

/* Is struct @t one of the standard library's (see std_scope(), go_std_type())? */
static int library_type(Dwarf_Die *t)
{
	int lang = die_lang(t);
	struct sym_buf b = {0};
	char top[64];

	if (lang == DW_LANG_Go)
		return go_std_type(dwarf_diename(t));
	if (!lang_cxx(lang) && lang != DW_LANG_Rust)
		return 0;
	scope_prefix(t, &b, top, sizeof(top));
	free(b.p);
	return std_scope(lang, top);
}

int sym_die_library(Dwarf_Die *d)
{
	Dwarf_Attribute at;
	Dwarf_Die origin;

	if (dwarf_formref_die(dwarf_attr(d, DW_AT_abstract_origin, &at), &origin))
		d = &origin;
	if (dwarf_formref_die(dwarf_attr(d, DW_AT_specification, &at), &origin))
		d = &origin;
	return library_type(d);
}

/* The type as C spells it, simplified: "struct _buf", "long int", "char *", "int[4]"; a C++
 * type of the standard library by its qualified name ("std::atomic<long int>"), a Rust type by
 * its path ("core::sync::atomic::AtomicUsize"), a Go type by its name ("sync/atomic.Int64"):
 * neither language writes "struct". */
static void type_name(Dwarf_Die *t, struct sym_buf *b, int depth)
{
	const char *name = dwarf_diename(t), *kw = NULL;
	Dwarf_Die inner;

	if (depth > MAX_DEPTH)
		return sym_buf_add(b, "?");
	if (name && die_lang(t) == DW_LANG_Go)
		return sym_buf_add(b, "%s", name);  /* Go names every type: "[8]main.cnt", "*main.T" */
	switch (dwarf_tag(t)) {
	case DW_TAG_structure_type: kw = "struct"; break;
	case DW_TAG_union_type: kw = "union"; break;
	case DW_TAG_enumeration_type: kw = "enum"; break;
	case DW_TAG_class_type: kw = "class"; break;
	case DW_TAG_array_type: return array_name(t, b, depth);
	case DW_TAG_subroutine_type: return sym_buf_add(b, "function");
	case DW_TAG_pointer_type:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_atomic_type: {
		int tag = dwarf_tag(t);
		const char *q = tag == DW_TAG_const_type ? "const " :
				tag == DW_TAG_volatile_type ? "volatile " :
				tag == DW_TAG_atomic_type ? "_Atomic " : "";
		struct sym_buf in = {0};
		if (sym_die_type(t, &inner))
			sym_buf_add(&in, "void");
		else
			type_name(&inner, &in, depth + 1);
		/* a qualified array qualifies its elements: "const char[768]", once */
		sym_buf_add(b, "%s%s", in.p && !strncmp(in.p, q, strlen(q)) ? "" : q, in.p ? in.p : "");
		free(in.p);
		if (tag == DW_TAG_pointer_type)
			sym_buf_add(b, " *");
		return;
	}
	}
	if (kw && name && dwarf_tag(t) != DW_TAG_enumeration_type) {
		int lang = die_lang(t);
		if (lang_cxx(lang) || lang == DW_LANG_Rust) {
			struct sym_buf q = {0};
			char top[64];
			scope_prefix(t, &q, top, sizeof(top));
			if (lang == DW_LANG_Rust || std_scope(lang, top)) {
				sym_buf_add(b, "%s%s", q.p ? q.p : "", name);
				free(q.p);
				return;
			}
			free(q.p);
		}
	}
	if (kw)
		sym_buf_add(b, "%s %s", kw, name ? name : "<anonymous>");
	else
		sym_buf_add(b, "%s", name ? name : "?");
}

/* --- member paths ------------------------------------------------------------------------ */

static int member_offset(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Word w;
	Dwarf_Op *op;
	size_t n;

	*off = 0;
	if (!dwarf_attr(m, DW_AT_data_member_location, &at)) {
		if (dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &at), &w) == 0)
			*off = w / 8;
		return 0;  /* union members have none: offset 0 */
	}
	if (dwarf_formudata(&at, &w) == 0) {
		*off = w;
		return 0;
	}
	if (dwarf_getlocation(&at, &op, &n) == 0 && n == 1 && op[0].atom == DW_OP_plus_uconst) {
		*off = op[0].number;
		return 0;
	}
	return -1;
}

/* Bytes a member occupies: its type's size, or the bytes its bit-field touches. */
static uint64_t member_size(Dwarf_Die *m, Dwarf_Die *type)
{
	Dwarf_Attribute at;
	Dwarf_Word bits, bitoff;

	if (dwarf_formudata(dwarf_attr(m, DW_AT_bit_size, &at), &bits) == 0 &&
	    dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &at), &bitoff) == 0)
		return (bitoff % 8 + bits + 7) / 8;
	return sym_type_size(type);
}

/* A path walk: @scale is the step of an index register (0: none): the offsets accessed are
 * off + k * scale for unknown k. The first array whose elements the step moves over whole (its
 * stride divides the step, and the step is shorter than the array) takes the index: its
 * dimensions down to that stride are printed "[]" and @opened set (sym_type_path()). An array
 * the step moves inside of elements, or beyond, cannot take it: @failed, nothing deeper opens. */
struct walk {
	struct sym_buf *b;
	uint64_t scale;
	int opened, failed;
	int locked;           /* the path entered a lock (SYM_PATH_LOCK marks where) */
	struct sym_elem *el;
};

/* A synchronisation object: a lock's words are one unit, taken and released by the same calls
 * (pthread_mutex_lock reads __kind and writes __lock and __owner of one pthread_mutex_t). By
 * type: POSIX's and C11's (typedef names), the C++ and Rust standard libraries' mutexes, Go's
 * sync.Mutex, sync.RWMutex and the runtime's mutex. */
static int lock_type(Dwarf_Die *t)
{
	static const char *const c_names[] = {
		"pthread_mutex_t", "pthread_rwlock_t", "pthread_spinlock_t", "pthread_cond_t",
		"pthread_barrier_t", "sem_t", "mtx_t", "cnd_t",
	};
	static const char *const lib_names[] = {
		"mutex", "recursive_mutex", "timed_mutex", "recursive_timed_mutex", "shared_mutex",
		"shared_timed_mutex", "condition_variable", "Mutex", "RwLock", "Condvar",
	};
	Dwarf_Die u = *t;

	for (int i = 0; i < MAX_DEPTH; i++) {
		const char *name = dwarf_diename(&u);
		int tag = dwarf_tag(&u);
		if (name && tag == DW_TAG_typedef)
			for (size_t k = 0; k < sizeof(c_names) / sizeof(c_names[0]); k++)
				if (!strcmp(name, c_names[k]))
					return 1;
		if (name && tag == DW_TAG_structure_type && die_lang(&u) == DW_LANG_Go)
			return !strcmp(name, "sync.Mutex") || !strcmp(name, "sync.RWMutex") ||
			       !strcmp(name, "runtime.mutex");
		if (name && (tag == DW_TAG_structure_type || tag == DW_TAG_class_type)) {
			for (size_t k = 0; k < sizeof(lib_names) / sizeof(lib_names[0]); k++)
				if (!strncmp(name, lib_names[k], strlen(lib_names[k])) &&
				    (!name[strlen(lib_names[k])] || name[strlen(lib_names[k])] == '<'))
					return library_type(&u);
			return 0;
		}
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_atomic_type)
			return 0;
		if (sym_die_type(&u, &u))
			return 0;
	}
	return 0;
}

int sym_path_lock(char *path)
{
	char *at = path ? strchr(path, SYM_PATH_LOCK) : NULL;

	if (!at)
		return -1;
	memmove(at, at + 1, strlen(at + 1) + 1);
	return (int)(at - path);
}

static void path(Dwarf_Die *t, uint64_t off, struct walk *w, int depth);

/* The bytes member @m (at @moff, of type @mt) of struct @t occupies: its size, else, when its
 * type is only declared here (a base class defined in another unit, as a class with a vtable
 * defined in a library), up to the next member or the end of @t. */
static uint64_t member_extent(Dwarf_Die *t, Dwarf_Die *m, Dwarf_Die *mt, uint64_t moff)
{
	uint64_t size = member_size(m, mt), end = sym_type_size(t), o;
	Dwarf_Die x, xt;

	if (size || dwarf_child(t, &x))
		return size;
	do {
		int tag = dwarf_tag(&x);
		if ((tag == DW_TAG_member || tag == DW_TAG_inheritance) && member_offset(&x, &o) == 0 &&
		    o > moff && o < end && sym_die_type(&x, &xt) == 0)
			end = o;
	} while (dwarf_siblingof(&x, &x) == 0);
	return end > moff ? end - moff : 0;
}

/* Member @name (at @moff, @size bytes) of struct @t is only a library type's wrapper of the
 * whole value, no part of the user's data: std::atomic's _M_i (and _M_base, _M_b, _M_p), a
 * vector's _M_impl, glibc's __data of a pthread_mutex_t (names reserved to the implementation:
 * "_M_...", "__..."), Rust's AtomicUsize.v and UnsafeCell.value, Go's atomic.Int64.v. The path
 * does not name it ("g_refcount", not "g_refcount._M_i"); the bytes are the same. */
static int library_wrapper(Dwarf_Die *t, const char *name, uint64_t moff, uint64_t size)
{
	if (moff || !size || size != sym_type_size(t))
		return 0;
	return reserved_name(name) || library_type(t);
}

/* The member of struct @t holding byte @off: data members first, then base classes (an empty
 * base shares its offset with the first member), the first whose path names the byte (not
 * padding), else the first that holds it. A base class whose layout is known is not named (C++
 * reaches its members directly: "x2[1]._M_i", "this->_M_impl._M_finish"); one only declared here
 * is, with the offset into it ("this->_State (+0)"). */
static void struct_path(Dwarf_Die *t, uint64_t off, struct walk *w, int depth)
{
	struct sym_buf first = {0}, one = {0};
	struct sym_elem el_first = {0}, el_one;
	struct walk w_first = *w;
	int have = 0;
	Dwarf_Die m, mt;

	if (dwarf_hasattr(t, DW_AT_declaration)) {
		sym_buf_add(w->b, " (+%llu)", (unsigned long long)off);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		if (dwarf_child(t, &m))
			break;
		do {
			int tag = dwarf_tag(&m);
			uint64_t moff;
			struct walk try = *w;
			const char *name = dwarf_diename(&m);
			Dwarf_Die u;
			if (tag != (pass ? DW_TAG_inheritance : DW_TAG_member) ||
			    member_offset(&m, &moff) || sym_die_type(&m, &mt) || off < moff ||
			    off - moff >= member_extent(t, &m, &mt, moff))
				continue;
			one.len = 0;
			sym_buf_add(&one, "%s", "");
			try.b = &one;
			try.el = w->el ? &el_one : NULL;
			u = mt;
			if (name && !library_wrapper(t, name, moff,
						     member_extent(t, &m, &mt, moff)))
				sym_buf_add(&one, ".%s", name);
			else if (tag == DW_TAG_inheritance && sym_type_peel(&u) == 0 &&
				 dwarf_hasattr(&u, DW_AT_declaration) && dwarf_diename(&u))
				sym_buf_add(&one, ".%s", dwarf_diename(&u));
			path(&mt, off - moff, &try, depth + 1);
			if (!strstr(one.p, " (padding +")) {
				sym_buf_add(w->b, "%s", one.p);
				try.b = w->b;
				try.el = w->el;
				if (w->el && try.opened && !w->opened)
					*w->el = el_one;
				*w = try;
				free(one.p);
				free(first.p);
				return;
			}
			if (!have) {
				have = 1;
				sym_buf_add(&first, "%s", one.p);
				w_first = try;
				el_first = el_one;
			}
		} while (dwarf_siblingof(&m, &m) == 0);
	}
	if (have) {
		/* padding inside the member holding the byte */
		sym_buf_add(w->b, "%s", first.p);
		w_first.b = w->b;
		w_first.el = w->el;
		if (w->el && w_first.opened && !w->opened)
			*w->el = el_first;
		*w = w_first;
	} else {
		sym_buf_add(w->b, " (padding +%llu)", (unsigned long long)off);
	}
	free(one.p);
	free(first.p);
}

static void array_path(Dwarf_Die *t, uint64_t off, struct walk *w, int depth)
{
	struct sym_buf *b = w->b;
	uint64_t count[8], stride[8], es, total;
	Dwarf_Attribute at;
	Dwarf_Word ord = DW_ORD_row_major;
	Dwarf_Die elem, sub;
	int nd = 0, outer, open = -1, col;

	if (sym_die_type(t, &elem) || !(es = sym_type_size(&elem)))
		return sym_buf_add(b, " (+%llu)", (unsigned long long)off);
	if (dwarf_child(t, &sub) == 0) {
		do {
			if (dwarf_tag(&sub) == DW_TAG_subrange_type && nd < 8)
				count[nd++] = subrange_count(&sub);
		} while (dwarf_siblingof(&sub, &sub) == 0);
	}
	if (!nd)
		count[nd++] = 0;
	/* the strides: row major, the last dimension is contiguous; column major (Fortran's
	 * DW_AT_ordering), the first. Dimension k by decreasing stride is rank(k). */
	dwarf_formudata(dwarf_attr(t, DW_AT_ordering, &at), &ord);
	col = ord == DW_ORD_col_major;
	total = es;
	for (int k = nd; k-- > 0;) {
		int i = col ? nd - 1 - k : k;
		stride[i] = total;
		total *= count[i] ? count[i] : 1;
	}
	outer = col ? nd - 1 : 0;
#define RANK(k) (col ? nd - 1 - (k) : (k))
	if (w->scale && !w->opened && !w->failed) {
		/* the index moves over whole elements of the first dimension (by decreasing stride)
		 * whose stride divides the step, and so over every dimension of a larger stride */
		for (int k = 0; k < nd && open < 0; k++)
			if (w->scale % stride[RANK(k)] == 0)
				open = k;
		if (open < 0 || (count[outer] && w->scale >= total)) {
			open = -1;
			w->failed = 1;
		} else if (w->el) {
			w->el->stride = stride[RANK(open)];
			w->el->off = off % w->el->stride;
			w->el->count = 1;
			w->el->dims = open + 1;
			for (int k = 0; k <= open; k++)
				w->el->count *= count[RANK(k)];
		}
	}
	for (int i = 0; i < nd; i++) {
		int k = col ? nd - 1 - i : i;
		uint64_t idx = off / stride[i];
		if (k <= open) {
			sym_buf_add(b, "[]");
			w->opened = 1;
			continue;
		}
		if (i != outer && count[i])
			idx %= count[i];
		sym_buf_add(b, "[%llu]", (unsigned long long)idx);
	}
#undef RANK
	path(&elem, off % es, w, depth + 1);
}

/* Append to @w->b the path of byte @off inside type @t. */
static void path(Dwarf_Die *t, uint64_t off, struct walk *w, int depth)
{
	Dwarf_Die u = *t;

	if (!w->locked && lock_type(&u)) {
		w->locked = 1;
		sym_buf_add(w->b, "%c", SYM_PATH_LOCK);
	}
	if (depth > MAX_DEPTH || sym_type_peel(&u))
		return sym_buf_add(w->b, " (+%llu)", (unsigned long long)off);
	switch (dwarf_tag(&u)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		return struct_path(&u, off, w, depth);
	case DW_TAG_array_type:
		return array_path(&u, off, w, depth);
	}
	if (off)
		sym_buf_add(w->b, " (+%llu)", (unsigned long long)off);
}

int sym_type_path(Dwarf_Die *t, uint64_t off, uint64_t index_scale, struct sym_buf *b,
		  struct sym_elem *el)
{
	struct walk w = { .b = b, .scale = index_scale, .el = el };

	path(t, off, &w, 0);
	return w.opened;
}

void sym_type_name(Dwarf_Die *t, struct sym_buf *b)
{
	type_name(t, b, 0);
}

static int type_at(Dwarf_Die *t, uint64_t off, Dwarf_Die *out, int depth)
{
	Dwarf_Die u = *t, m, mt;
	uint64_t moff, es;

	if (depth > MAX_DEPTH || sym_type_peel(&u))
		return -1;
	switch (dwarf_tag(&u)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		/* data members first, then base classes (an empty base shares an offset) */
		for (int pass = 0; pass < 2; pass++) {
			if (dwarf_child(&u, &m))
				return -1;
			do {
				if (dwarf_tag(&m) == (pass ? DW_TAG_inheritance : DW_TAG_member) &&
				    member_offset(&m, &moff) == 0 && sym_die_type(&m, &mt) == 0 &&
				    off >= moff && off - moff < member_size(&m, &mt) &&
				    type_at(&mt, off - moff, out, depth + 1) == 0)
					return 0;
			} while (dwarf_siblingof(&m, &m) == 0);
		}
		return -1;
	case DW_TAG_array_type:
		if (sym_die_type(&u, &mt) || !(es = sym_type_size(&mt)))
			return -1;
		return type_at(&mt, off % es, out, depth + 1);
	default:
		if (off)
			return -1;
		*out = u;
		return 0;
	}
}

int sym_type_at(Dwarf_Die *t, uint64_t off, Dwarf_Die *out)
{
	return type_at(t, off, out, 0);
}

static void describe(struct sym_session *s, const struct sym_var *v, uint64_t off,
		     struct sym_data_info *out)
{
	struct sym_buf b = {0};
	Dwarf_Die var = v->die, type;

	sym_buf_add(&b, "%s", v->name);
	if (v->has_die && sym_die_type(&var, &type) == 0) {
		int cut;
		sym_type_path(&type, off, 0, &b, NULL);
		if ((cut = sym_path_lock(b.p)) >= 0) {
			char c = b.p[cut];
			b.p[cut] = 0;
			out->lock = sym_str(&s->str, b.p);
			b.p[cut] = c;
		}
		out->member = sym_str(&s->str, b.p);
		b.len = 0;
		sym_type_name(&type, &b);
		out->type = sym_str(&s->str, b.p);
		out->lang = sym_die_lang(&type);
	} else {
		if (off)
			sym_buf_add(&b, " (+%llu)", (unsigned long long)off);
		out->member = sym_str(&s->str, b.p);
		out->reason = "no debug info";
	}
	free(b.p);
}

const struct sym_var *sym_var_at(struct sym_session *s, struct sym_file *f, uint64_t vaddr)
{
	if (!f->vars_built)
		build_vars(s, f);
	return find_var(f, vaddr);
}

int sym_data_die(struct sym_session *s, struct sym_file *f, uint64_t vaddr, Dwarf_Die *type,
		 uint64_t *off)
{
	const struct sym_var *v = sym_var_at(s, f, vaddr);
	Dwarf_Die die;

	if (!v || !v->has_die)
		return -ENOENT;
	die = v->die;
	if (sym_die_type(&die, type))
		return -ENOENT;
	*off = vaddr - v->addr;
	return 0;
}

int sym_data_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		   struct sym_data_info *out)
{
	const struct sym_var *v;

	memset(out, 0, sizeof(*out));
	if (!f->vars_built)
		build_vars(s, f);
	v = find_var(f, vaddr);
	if (!v) {
		out->reason = !f->has_symtab && !f->dw ? "no symbol table" : "no variable at address";
		return -ENOENT;
	}
	out->var = v->name;
	out->var_size = v->size;
	out->var_offset = vaddr - v->addr;
	describe(s, v, out->var_offset, out);
	return 0;
}
