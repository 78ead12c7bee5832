/* DWARF variables at a pc for data-type profiling: scopes, locations and frame bases, the
 * pointer variable a register or a stack slot holds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-type-int.h"

/* --- DWARF: scopes and pointer variables --------------------------------------------------- */

/* Push the chain of subprogram, lexical block and inlined-subroutine DIEs under @parent that
 * contain @pc (CU-relative address), descending through namespaces. The concrete nesting is
 * followed, so an inlined function's scopes come with those of the function it was inlined
 * into (dwarf_getscopes would continue with the abstract definition's instead). */
void symt_collect(Dwarf_Die *parent, Dwarf_Addr pc, struct scopes *sc, int depth)
{
	Dwarf_Die child;
	int n0 = sc->n;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_namespace) {
			symt_collect(&child, pc, sc, depth + 1);
		} else if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
			    tag == DW_TAG_inlined_subroutine) && dwarf_haspc(&child, pc) > 0 &&
			   sc->n < MAX_SCOPES) {
			sc->die[sc->n++] = child;
			symt_collect(&child, pc, sc, depth + 1);
		}
		if (sc->n > n0)
			return;
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The DW_TAG_subprogram holding @pc nested in another function's DIE (gcc's OpenMP outlined
 * "main._omp_fn.0" is a child of main's DIE, with its own range outside main's): the functions,
 * lexical blocks, namespaces and types under @parent are searched depth first. 0, else -1. */
int symt_find_nested(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return -1;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram && dwarf_haspc(&child, pc) > 0) {
			*out = child;
			return 0;
		}
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		     tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		     tag == DW_TAG_structure_type) && symt_find_nested(&child, pc, out, depth + 1) == 0)
			return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return -1;
}

struct scopes *symt_pcs_at(struct pcscopes *ps, Dwarf_Addr pc)
{
	if (!ps->have || ps->pc != pc) {
		ps->sc.die[0] = ps->fn;
		ps->sc.n = 1;
		symt_collect(&ps->fn, pc, &ps->sc, 1);
		ps->pc = pc;
		ps->have = 1;
	}
	return &ps->sc;
}

/* 1 when class @t (peeled) has a vtable: a "_vptr" member or a virtual function, its own or
 * a base class's. */
static int polymorphic(Dwarf_Die *t, int depth)
{
	Dwarf_Die c, bt;
	int tag = dwarf_tag(t);

	if (depth > MAX_DEPTH || (tag != DW_TAG_structure_type && tag != DW_TAG_class_type) ||
	    dwarf_child(t, &c))
		return 0;
	do {
		const char *name = dwarf_diename(&c);
		switch (dwarf_tag(&c)) {
		case DW_TAG_member:
			if (name && !strncmp(name, "_vptr", 5))
				return 1;
			break;
		case DW_TAG_subprogram:
			if (dwarf_hasattr(&c, DW_AT_virtuality))
				return 1;
			break;
		case DW_TAG_inheritance:
			if (sym_die_type(&c, &bt) == 0 && sym_type_peel(&bt) == 0 &&
			    polymorphic(&bt, depth + 1))
				return 1;
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* p->pointee without cv-qualifiers, and its size: 0, else -1 (unsized, a function). */
static int sized(struct ptr *p)
{
	Dwarf_Die u;

	for (int i = 0; i < MAX_DEPTH; i++) {
		int tag = dwarf_tag(&p->pointee);
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			break;
		if (sym_die_type(&p->pointee, &p->pointee))
			return -1;
	}
	u = p->pointee;
	if (sym_type_peel(&u) || dwarf_tag(&u) == DW_TAG_subroutine_type)
		return -1;
	p->size = sym_type_size(&u);
	p->poly = polymorphic(&u, 0);
	return p->size ? 0 : -1;
}

/* The pointee of pointer or reference type @t (peeled): 0, else -1 (void *, unsized). */
int symt_pointee_from(Dwarf_Die *t, struct ptr *p)
{
	int tag = dwarf_tag(t);

	if (tag != DW_TAG_pointer_type && tag != DW_TAG_reference_type &&
	    tag != DW_TAG_rvalue_reference_type)
		return -1;
	p->ref = tag != DW_TAG_pointer_type;
	if (sym_die_type(t, &p->pointee))
		return -1;  /* void * */
	return sized(p);
}

/* Variable @v named @name as an object reached by its address (ptr.obj): 0, else -1. */
int symt_object_of(struct sym_session *s, Dwarf_Die *v, const char *name, struct ptr *p)
{
	memset(p, 0, sizeof(*p));
	if (sym_die_type(v, &p->pointee) || sized(p))
		return -1;
	p->obj = 1;
	p->name = sym_str(&s->str, name);
	return 0;
}

/* The one member of struct @t that holds all its bytes, the others empty (Rust's NonNull, Box,
 * Arc and Vec's pointer, C++'s unique_ptr): its type, peeled, in @out: 0, else -1. */
static int whole_member(Dwarf_Die *t, Dwarf_Die *out)
{
	uint64_t size = sym_type_size(t);
	Dwarf_Die m, mt;
	int found = 0;

	if ((dwarf_tag(t) != DW_TAG_structure_type && dwarf_tag(t) != DW_TAG_class_type) || !size ||
	    dwarf_child(t, &m))
		return -1;
	do {
		Dwarf_Attribute at;
		Dwarf_Word off = 0;
		uint64_t ms;
		int tag = dwarf_tag(&m);
		if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
			continue;
		if (dwarf_hasattr(&m, DW_AT_declaration) || sym_die_type(&m, &mt))
			continue;
		if (!(ms = sym_type_size(&mt)))
			continue;  /* empty: PhantomData, an allocator */
		if (found++ || (dwarf_attr(&m, DW_AT_data_member_location, &at) &&
				dwarf_formudata(&at, &off)) || off || ms != size)
			return -1;
		*out = mt;
	} while (dwarf_siblingof(&m, &m) == 0);
	return found == 1 && sym_type_peel(out) == 0 ? 0 : -1;
}

/* The pointee of the pointer or reference type of @typed (a variable), or of a struct that only
 * wraps one (whole_member(), up to 4 deep: Rust's Arc { ptr: NonNull { pointer } }): 0, else
 * -1. */
static int pointee_of(Dwarf_Die *typed, struct ptr *p)
{
	Dwarf_Die t;

	if (sym_die_type(typed, &t) || sym_type_peel(&t))
		return -1;
	for (int i = 0; i < 4 && symt_pointee_from(&t, p); i++)
		if (whole_member(&t, &t))
			return -1;
	return symt_pointee_from(&t, p);
}

/* The register and offset of "DW_OP_breg<N> c" / "DW_OP_bregx N c": 0, else -1. */
static int breg_of(const Dwarf_Op *op, int *reg, int64_t *c)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*c = (int64_t)op->number;
		return 0;
	}
	if (op->atom == DW_OP_bregx && op->number < NREGS) {
		*reg = (int)op->number;
		*c = (int64_t)op->number2;
		return 0;
	}
	return -1;
}

/* The CFA at @vaddr as register + offset, from .eh_frame or .debug_frame: 0, else -1. */
static int cfa_at(struct sym_file *f, uint64_t vaddr, int *reg, int64_t *off)
{
	Dwarf_CFI *cfi[2];
	Dwarf_Addr bias[2];
	int rc = -1;

	cfi[0] = dwfl_module_eh_cfi(f->mod, &bias[0]);
	cfi[1] = dwfl_module_dwarf_cfi(f->mod, &bias[1]);
	for (int i = 0; i < 2 && rc; i++) {
		Dwarf_Frame *fr;
		Dwarf_Op *ops;
		size_t n;
		if (!cfi[i] || dwarf_cfi_addrframe(cfi[i], vaddr + f->bias - bias[i], &fr))
			continue;
		if (dwarf_frame_cfa(fr, &ops, &n) == 0 && n == 1 && breg_of(&ops[0], reg, off) == 0)
			rc = 0;
		free(fr);
	}
	return rc;
}

/* Where the frame base of function @fn is at @pc, as register + offset: 0, else -1. */
static int frame_base(struct sym_file *f, Dwarf_Die *fn, Dwarf_Addr pc, uint64_t vaddr,
		      int *reg, int64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len != 1)
		return -1;
	if (expr[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(f, vaddr, reg, off);
	if (expr[0].atom >= DW_OP_reg0 && expr[0].atom <= DW_OP_reg31) {
		*reg = expr[0].atom - DW_OP_reg0;  /* the frame base is the register's value */
		*off = 0;
		return 0;
	}
	return breg_of(&expr[0], reg, off);
}

/* The memory slot of variable @v at @pc as register + offset (DW_OP_fbreg from the frame base
 * @fb_reg + @fb_off, or DW_OP_breg<N>, alone or with a DW_OP_plus_uconst: gcc places a
 * variable an OpenMP outlined function shares by copy at "DW_OP_breg12 0; DW_OP_plus_uconst
 * 8", inside the block its caller passed): 0, else -1. */
int symt_slot_of(Dwarf_Die *v, Dwarf_Addr pc, int fb_reg, int64_t fb_off, int *reg,
		 int64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(v, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len < 1 || len > 2 ||
	    (len == 2 && expr[1].atom != DW_OP_plus_uconst))
		return -1;
	if (expr[0].atom == DW_OP_fbreg && fb_reg >= 0) {
		*reg = fb_reg;
		*off = fb_off + (int64_t)expr[0].number;
	} else if (breg_of(&expr[0], reg, off)) {
		return -1;
	}
	if (len == 2)
		*off += (int64_t)expr[1].number;
	return 0;
}

/* The frame base of the function of @ps at @pc as register + offset, cached per pc: 0, else
 * -1. */
int symt_pcs_frame(struct pcscopes *ps, Dwarf_Addr pc, int *reg, int64_t *off)
{
	if (!ps->fb_have || ps->fb_pc != pc) {
		ps->fb_have = 1;
		ps->fb_pc = pc;
		if (frame_base(ps->f, &ps->fn, pc, pc + ps->delta, &ps->fb_reg, &ps->fb_off))
			ps->fb_reg = -1;
	}
	*reg = ps->fb_reg;
	*off = ps->fb_off;
	return *reg >= 0 ? 0 : -1;
}

/* The address @reg + @off at @pc as an offset from the CFA (stable through the function, where
 * the registers that address the frame move): 0 and *c, else -1. */
int symt_cfa_rel(struct pcscopes *ps, Dwarf_Addr pc, int reg, int64_t off, int64_t *c)
{
	if (!ps->cfa_have || ps->cfa_pc != pc) {
		ps->cfa_pc = pc;
		ps->cfa_have = cfa_at(ps->f, pc + ps->delta, &ps->cfa_reg, &ps->cfa_off) ? -1 : 1;
	}
	if (ps->cfa_have < 0 || ps->cfa_reg != reg)
		return -1;
	*c = off - ps->cfa_off;  /* CFA = cfa_reg + cfa_off */
	return 0;
}

/* 1 when a variable or parameter under @die has a location with a DW_OP_deref somewhere in
 * its function (symt_chain_of() may find something there). */
int symt_has_chains(Dwarf_Die *die, int depth)
{
	Dwarf_Die c;

	if (depth > MAX_DEPTH || dwarf_child(die, &c))
		return 0;
	do {
		int tag = dwarf_tag(&c);
		Dwarf_Attribute at;
		Dwarf_Addr base, lo, hi;
		Dwarf_Op *expr;
		size_t len;
		ptrdiff_t off = 0;
		if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) &&
		    dwarf_attr(&c, DW_AT_location, &at))
			while ((off = dwarf_getlocations(&at, off, &base, &lo, &hi, &expr, &len)) > 0)
				for (size_t i = 1; i < len; i++)
					if (expr[i].atom == DW_OP_deref)
						return 1;
		if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
		    symt_has_chains(&c, depth + 1))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

int symt_chain_of(Dwarf_Die *fn, Dwarf_Die *v, Dwarf_Addr pc, struct chain *ch)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr, *fb;
	size_t len, nfb;

	memset(ch, 0, sizeof(*ch));
	if (!dwarf_attr(v, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len < 2)
		return -1;
	if (expr[0].atom == DW_OP_fbreg) {
		if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &at) ||
		    dwarf_getlocation_addr(&at, pc, &fb, &nfb, 1) != 1 || nfb != 1)
			return -1;
		ch->c[0] = (int64_t)expr[0].number;
		if (fb[0].atom == DW_OP_call_frame_cfa) {
			ch->cfa = 1;
		} else if (fb[0].atom >= DW_OP_reg0 && fb[0].atom <= DW_OP_reg31) {
			ch->reg = fb[0].atom - DW_OP_reg0;
		} else {
			int64_t k;
			if (breg_of(&fb[0], &ch->reg, &k))
				return -1;
			ch->c[0] += k;
		}
	} else if (breg_of(&expr[0], &ch->reg, &ch->c[0])) {
		return -1;
	}
	for (size_t i = 1; i < len; i++) {
		if (expr[i].atom == DW_OP_deref && ch->n < 2)
			ch->c[++ch->n] = 0;
		else if (expr[i].atom == DW_OP_plus_uconst)
			ch->c[ch->n] += (int64_t)expr[i].number;
		else
			return -1;
	}
	return ch->n ? 0 : -1;
}

/* 1 when the location of @v at @pc is @w, *c the constant its value exceeds the register by.
 * Register values are DW_OP_reg<N>/DW_OP_regx N (c = 0) and "DW_OP_breg<N> c,
 * DW_OP_stack_value" (the variable's value is reg + c: a pointer in disguise, the register
 * holding p - c); memory is "DW_OP_breg<N> disp"/"DW_OP_bregx N disp" or "DW_OP_fbreg d"
 * alone (a location: gcc -O0 keeps every variable in its frame so). */
static int lives_in(Dwarf_Die *v, Dwarf_Addr pc, const struct where *w, int64_t *c)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;
	unsigned atom;
	int reg;

	*c = 0;
	if (!dwarf_attr(v, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || !len)
		return 0;
	atom = expr[0].atom;
	if (w->mem)
		return len == 1 && symt_slot_of(v, pc, w->fb_reg, w->fb_off, &reg, c) == 0 &&
		       reg == w->reg && *c == w->disp;
	if (len == 1 && atom >= DW_OP_reg0 && atom <= DW_OP_reg31)
		return (int)(atom - DW_OP_reg0) == w->reg;
	if (len == 1 && atom == DW_OP_regx)
		return expr[0].number == (Dwarf_Word)w->reg;
	return len == 2 && expr[1].atom == DW_OP_stack_value && breg_of(&expr[0], &reg, c) == 0 &&
	       reg == w->reg;
}

const char *symt_die_name(Dwarf_Die *d)
{
	Dwarf_Attribute at;

	return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &at));
}

/* The access @m through register @p as an access relative to the pointer itself: p's offset
 * added to the displacement, p's unknown multiple folded into the index (-2: no register). */
struct mem_op symt_effective(const struct ptr *p, const struct mem_op *m)
{
	struct mem_op e = *m;

	e.disp += p->off;
	if (p->scale) {
		e.scale = e.index >= 0 ? gcd(e.scale, p->scale) : p->scale;
		if (e.index < 0)
			e.index = -2;
	}
	return e;
}

/* How well pointer @p explains displacement @disp: 2 inside *p (or indexed), 1 past it (p[k]),
 * 0 before it, or past the one object a variable, a reference or a pointer to a polymorphic
 * class designates. */
int symt_fit(const struct ptr *p, const struct mem_op *raw)
{
	struct mem_op e = symt_effective(p, raw), *m = &e;

	if (m->index != -1 || (m->disp >= 0 && (uint64_t)m->disp < p->size))
		return 2;
	return m->disp >= 0 && !p->obj && !p->ref && !p->poly;
}

/* A name reserved to the implementation ("__lll_lock", "_M_x"): a C library's own function. */
static int reserved(const char *name)
{
	return name && name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'));
}

/* The best pointer variable at @w at @pc for access @m, innermost scope first: 0, else
 * -ENOENT. A variable of a standard library function inlined there (Rust's atomic_add "dst",
 * std::atomic's "this"), or one with a reserved name (glibc's lll_lock macro's "__futex"), is
 * not the user's name for the data: one of the code around it that fits as well is preferred. */
int symt_find_var(struct sym_session *s, struct scopes *sc, Dwarf_Addr pc,
		  const struct where *w, const struct mem_op *m, struct ptr *best)
{
	int best_fit = -1, best_lib = 0;

	for (int i = sc->n - 1; i >= 0 && (best_fit < 2 || best_lib); i--) {
		Dwarf_Die v;
		int lib_scope = dwarf_tag(&sc->die[i]) == DW_TAG_inlined_subroutine &&
				(sym_die_library(&sc->die[i]) || reserved(symt_die_name(&sc->die[i])));
		if (dwarf_child(&sc->die[i], &v))
			continue;
		do {
			int tag = dwarf_tag(&v);
			struct ptr p = {0};
			const char *name;
			int64_t c;
			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    !lives_in(&v, pc, w, &c) || !(name = symt_die_name(&v)) || pointee_of(&v, &p))
				continue;
			if (!w->mem)
				p.off = -c;
			int f = symt_fit(&p, m), lib = lib_scope || reserved(name);
			if (f > best_fit || (f == best_fit && f > 0 && best_lib && !lib)) {
				best_fit = f;
				best_lib = lib;
				*best = p;
				best->name = sym_str(&s->str, name);
			}
		} while ((best_fit < 2 || best_lib) && dwarf_siblingof(&v, &v) == 0);
	}
	return best_fit > 0 ? 0 : -ENOENT;
}

/* The best pointer variable held in register @m->base at @pc. */
int symt_find_ptr_var(struct sym_session *s, struct scopes *sc, Dwarf_Addr pc,
		      const struct mem_op *m, struct ptr *best)
{
	struct where w = { .reg = m->base, .fb_reg = -1 };

	return symt_find_var(s, sc, pc, &w, m, best);
}

/* The low end of the range of the function scope sc->die[0] holding @pc. */
int symt_func_start(struct scopes *sc, Dwarf_Addr pc, Dwarf_Addr *lo, Dwarf_Addr *hi)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(&sc->die[0], off, &base, &start, &end)) > 0) {
		if (pc >= start && pc < end) {
			*lo = start;
			*hi = end;
			return 0;
		}
	}
	return -1;
}
