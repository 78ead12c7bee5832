/* Declarations of data objects (symbols.h, sym_decl()): where the source declares the variable
 * the report names, its type (the element type of an array) and the members of that type, for
 * `c2c-lite fix`. The variable comes from the session's variable index (sym_var_at(), the one
 * sym_data() uses); memory typed by code has no variable, only its type, found by name in the
 * unit of the code that accesses it, then in the file's other units. Positions are DWARF's
 * DW_AT_decl_file/DW_AT_decl_line, made absolute with the unit's DW_AT_comp_dir. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/resolve/sym-int.h"

#define MAX_DEPTH 24

static void decl_pos(struct sym_session *s, Dwarf_Die *d, struct sym_decl_pos *out)
{
	const char *file = dwarf_decl_file(d), *dir;
	Dwarf_Attribute at;
	Dwarf_Die cu;
	struct sym_buf b = {0};
	int line = 0;

	memset(out, 0, sizeof(*out));
	if (!file || dwarf_decl_line(d, &line) || line <= 0)
		return;
	out->line = (uint32_t)line;
	if (file[0] == '/' || !dwarf_diecu(d, &cu, NULL, NULL) ||
	    !(dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at)))) {
		out->file = sym_str(&s->str, file);
		return;
	}
	sym_buf_add(&b, "%s/%s", dir, file);
	out->file = sym_str(&s->str, b.p);
	free(b.p);
}

static const char *comp_dir(struct sym_session *s, Dwarf_Die *d)
{
	Dwarf_Attribute at;
	Dwarf_Die cu;

	if (!dwarf_diecu(d, &cu, NULL, NULL))
		return NULL;
	return sym_str(&s->str, dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at)));
}

/* C89/C90/C99 have no _Alignas, C++98/03 no alignas: GCC's attribute then. */
static int old_std(Dwarf_Die *d)
{
	Dwarf_Die cu;

	switch (dwarf_diecu(d, &cu, NULL, NULL) ? dwarf_srclang(&cu) : -1) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99:
	case DW_LANG_C_plus_plus: case DW_LANG_C_plus_plus_03:
		return 1;
	default:
		return 0;
	}
}

static int is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

static int first_member(Dwarf_Die *t, Dwarf_Die *out)
{
	if (dwarf_child(t, out))
		return -1;
	do
		if (dwarf_tag(out) == DW_TAG_member && !dwarf_hasattr(out, DW_AT_external))
			return 0;
	while (dwarf_siblingof(out, out) == 0);
	return -1;
}

/* The element type @t is, through typedefs, qualifiers and arrays (the outer array's count). */
static void describe_type(struct sym_session *s, Dwarf_Die *t, struct sym_decl *out)
{
	struct sym_buf b = {0};
	Dwarf_Die m;

	out->type_ref = (struct sym_type_ref){ dwarf_cu_getdwarf(t->cu), dwarf_dieoffset(t) };
	for (int i = 0; i < MAX_DEPTH && !sym_type_peel(t) && dwarf_tag(t) == DW_TAG_array_type;
	     i++) {
		uint64_t whole = sym_type_size(t);

		if (sym_die_type(t, t))
			return;
		out->array = 1;
		if (sym_type_peel(t) == 0 && sym_type_size(t) && !out->count)
			out->count = whole / sym_type_size(t);
	}
	out->type_size = sym_type_size(t);
	out->lang = sym_die_lang(t);
	out->old_std = old_std(t);
	sym_type_name(t, &b);
	out->type_name = sym_str(&s->str, b.p);
	free(b.p);
	if (!is_aggregate(dwarf_tag(t)) || dwarf_hasattr(t, DW_AT_declaration))
		return;
	decl_pos(s, t, &out->type);
	out->comp_dir = comp_dir(s, t);
	if (!first_member(t, &m)) {
		decl_pos(s, &m, &out->first);
		out->first_name = sym_str(&s->str, dwarf_diename(&m));
	}
}

/* "struct counters" -> tag and "counters"; "stats_t" -> 0 (any tag) and "stats_t". */
static const char *type_key(const char *type, int *tag)
{
	static const struct { const char *kw; int tag; } kw[] = {
		{ "struct ", DW_TAG_structure_type }, { "union ", DW_TAG_union_type },
		{ "class ", DW_TAG_class_type },
	};

	*tag = 0;
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		if (!strncmp(type, kw[i].kw, strlen(kw[i].kw))) {
			*tag = kw[i].tag;
			return type + strlen(kw[i].kw);
		}
	}
	return type;
}

static int name_is(Dwarf_Die *d, const char *name, size_t n)
{
	const char *dn = dwarf_diename(d);

	return dn && strlen(dn) == n && !memcmp(dn, name, n);
}

/* A definition named @name (of @tag, or a typedef or any aggregate for 0) among the children of
 * @parent and of its namespaces. */
static int find_named(Dwarf_Die *parent, int tag, const char *name, size_t n, Dwarf_Die *out,
		      int depth)
{
	Dwarf_Die c;

	if (depth > 4 || dwarf_child(parent, &c))
		return -1;
	do {
		int t = dwarf_tag(&c);

		if (t == DW_TAG_namespace && !find_named(&c, tag, name, n, out, depth + 1))
			return 0;
		if ((tag ? t == tag : is_aggregate(t) || t == DW_TAG_typedef) &&
		    !dwarf_hasattr(&c, DW_AT_declaration) && name_is(&c, name, n)) {
			*out = c;
			return 0;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}

/* The type @type names, in the unit of code address @vaddr of @f first, then in every unit. */
static int type_by_name(struct sym_file *f, uint64_t vaddr, const char *type, Dwarf_Die *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = f->mod ? dwfl_module_addrdie(f->mod, vaddr + f->bias, &bias) : NULL, cud;
	Dwarf_Off off = 0, next;
	size_t hsize, n;
	int tag;
	const char *name = type_key(type, &tag), *sp = strpbrk(name, " [*");

	n = sp ? (size_t)(sp - name) : strlen(name);
	if (!n || (sp && *sp == '*'))
		return -1;          /* a pointer: nothing of the program's to align */
	if (cu && !find_named(cu, tag, name, n, out, 0))
		return 0;
	while (f->dw && dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(f->dw, off + hsize, &cud) && !find_named(&cud, tag, name, n, out, 0))
			return 0;
		off = next;
	}
	return -1;
}

static int decl_static(struct sym_session *s, const struct sym_decl_query *q,
		       struct sym_decl *out)
{
	const struct sym_var *v;
	struct sym_file *f;
	const char *reason;
	uint64_t vaddr;
	Dwarf_Die die, t;

	if (!q->data_map || sym_map_kind(q->data_map->filename) != SYM_MAP_FILE ||
	    sym_locate(s, q->data_map, q->addr, &f, &vaddr, &reason) ||
	    !(v = sym_var_at(s, f, vaddr)) || !v->has_die)
		return -ENOENT;
	die = v->die;
	decl_pos(s, &die, &out->var);
	out->var_name = v->name;
	out->var_size = v->size;
	out->var_start = q->addr - (vaddr - v->addr);
	if (!sym_die_type(&die, &t))
		describe_type(s, &t, out);
	out->comp_dir = out->comp_dir ? out->comp_dir : comp_dir(s, &die);
	return 0;
}

int sym_decl(struct sym_session *s, const struct sym_decl_query *q, struct sym_decl *out)
{
	struct sym_file *f;
	const char *reason;
	uint64_t vaddr;
	Dwarf_Die t;

	memset(out, 0, sizeof(*out));
	if (!s || !q)
		return -EINVAL;
	if (!decl_static(s, q, out))
		return 0;
	if (!q->type || !q->code_map ||
	    sym_locate(s, q->code_map, q->ip, &f, &vaddr, &reason) || sym_file_dwarf(f) ||
	    type_by_name(f, vaddr, q->type, &t))
		return -ENOENT;
	describe_type(s, &t, out);
	return 0;
}

/* One step of a member path: ".name" or "->name" (the member of that name, through anonymous
 * structs and unions), "[i]" or "[]" (the element). The die's type is then the member's. */
static const char *path_step(const char *p, Dwarf_Die *t, Dwarf_Die *mem, int *found);

static int member_named(Dwarf_Die *t, const char *name, size_t n, Dwarf_Die *out)
{
	Dwarf_Die c, mt;

	if (dwarf_child(t, &c))
		return -1;
	do {
		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		if (name_is(&c, name, n)) {
			*out = c;
			return 0;
		}
		if (!dwarf_diename(&c) && !sym_die_type(&c, &mt) && !sym_type_peel(&mt) &&
		    !member_named(&mt, name, n, out))
			return 0;
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}

static const char *path_step(const char *p, Dwarf_Die *t, Dwarf_Die *mem, int *found)
{
	size_t n;

	if (sym_type_peel(t))
		return NULL;
	if (*p == '[') {
		const char *e = strchr(p, ']');

		if (!e || dwarf_tag(t) != DW_TAG_array_type || sym_die_type(t, t))
			return NULL;
		return e + 1;
	}
	p += *p == '.' ? 1 : 2;
	n = strcspn(p, ".-[ ");
	if (!n || !is_aggregate(dwarf_tag(t)) || member_named(t, p, n, mem) ||
	    sym_die_type(mem, t))
		return NULL;
	*found = 1;
	return p + n;
}

int sym_decl_member(struct sym_session *s, const struct sym_decl *d, const char *path,
		    struct sym_decl_pos *out)
{
	Dwarf_Die t, mem;
	const char *p = path;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (!s || !d || !path || !d->type_ref.dwarf ||
	    !dwarf_offdie(d->type_ref.dwarf, d->type_ref.die, &t))
		return -EINVAL;
	p += *p == '*' || *p == '(';
	p += strcspn(p, ".-[ ");        /* the variable ("buf1", "c" of "c->hits") */
	for (int i = 0; i < MAX_DEPTH && p && (*p == '.' || *p == '[' || !strncmp(p, "->", 2));
	     i++)
		p = path_step(p, &t, &mem, &found);
	if (!p || !found)
		return -ENOENT;
	decl_pos(s, &mem, out);
	return out->file ? 0 : -ENOENT;
}
