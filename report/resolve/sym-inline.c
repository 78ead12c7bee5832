/* The innermost inlined subroutine at an address, through a per-CU index.
 *
 * dwarf_getscopes() walks a whole CU for every address, which costs milliseconds on big CUs.
 * Instead the first lookup in a CU walks its DIE tree once, collects the address ranges of every
 * DW_TAG_inlined_subroutine, and flattens them into sorted disjoint segments, each naming the
 * innermost inline instance covering it (inline ranges nest, so a sweep with a stack does it).
 * Later lookups are a binary search. */
#include <dwarf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

#define MAX_DEPTH 64

struct inl_range {
	uint64_t lo, hi;
	int depth;
	Dwarf_Die die;
	size_t parent;           /* the range it nests in, SIZE_MAX: none (after flatten()) */
};

struct inl_seg {
	uint64_t lo, hi;
	Dwarf_Die die;
	size_t range;            /* its innermost range (sym_cu_index.r) */
};

struct sym_cu_index {
	Dwarf_Off cu_off;
	Dwarf_Die cu;
	struct inl_seg *seg;
	size_t nr;
	struct inl_range *r;     /* sorted, with their parents: the chains of call sites */
	size_t nr_r;
};

struct collect {
	struct inl_range *r;
	size_t nr, cap;
};

static void add_ranges(struct collect *c, Dwarf_Die *die, int depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		c->r = xgrow(c->r, &c->cap, c->nr + 1, sizeof(*c->r));
		c->r[c->nr++] = (struct inl_range){ lo, hi, depth, *die };
	}
}

static int has_code(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

static void walk(struct collect *c, Dwarf_Die *parent, int inl_depth, int depth)
{
	Dwarf_Die d;

	if (depth > MAX_DEPTH || dwarf_child(parent, &d))
		return;
	do {
		switch (dwarf_tag(&d)) {
		case DW_TAG_inlined_subroutine:
			add_ranges(c, &d, inl_depth + 1);
			walk(c, &d, inl_depth + 1, depth + 1);
			break;
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (has_code(&d))
				walk(c, &d, inl_depth, depth + 1);
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			walk(c, &d, inl_depth, depth + 1);
			break;
		}
	} while (dwarf_siblingof(&d, &d) == 0);
}

static int range_cmp(const void *a, const void *b)
{
	const struct inl_range *x = a, *y = b;

	if (x->lo != y->lo)
		return (x->lo > y->lo) - (x->lo < y->lo);
	if (x->hi != y->hi)
		return (x->hi < y->hi) - (x->hi > y->hi);  /* outer (longer) first */
	return (x->depth > y->depth) - (x->depth < y->depth);
}

static void emit(struct sym_cu_index *ix, size_t *cap, uint64_t lo, uint64_t hi,
		 const struct inl_range *r)
{
	if (lo >= hi)
		return;
	ix->seg = xgrow(ix->seg, cap, ix->nr + 1, sizeof(*ix->seg));
	ix->seg[ix->nr++] = (struct inl_seg){ lo, hi, r->die, (size_t)(r - ix->r) };
}

/* Sweep the sorted ranges with a stack of open ones; the top of the stack is innermost. */
static void flatten(struct sym_cu_index *ix, struct inl_range *r, size_t n)
{
	const struct inl_range **stack = xcalloc(n ? n : 1, sizeof(*stack));
	size_t top = 0, cap = 0;
	uint64_t cur = 0;

	if (n)
		qsort(r, n, sizeof(*r), range_cmp);
	for (size_t i = 0; i < n; i++) {
		while (top && stack[top - 1]->hi <= r[i].lo) {
			emit(ix, &cap, cur, stack[top - 1]->hi, stack[top - 1]);
			if (cur < stack[top - 1]->hi)
				cur = stack[top - 1]->hi;
			top--;
		}
		if (top)
			emit(ix, &cap, cur, r[i].lo, stack[top - 1]);
		cur = r[i].lo;
		r[i].parent = top ? (size_t)(stack[top - 1] - r) : SIZE_MAX;
		stack[top++] = &r[i];
	}
	while (top) {
		emit(ix, &cap, cur, stack[top - 1]->hi, stack[top - 1]);
		if (cur < stack[top - 1]->hi)
			cur = stack[top - 1]->hi;
		top--;
	}
	free(stack);
}

static struct sym_cu_index *cu_index(struct sym_file *f, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct sym_cu_index *ix;
	struct collect c = {0};

	for (size_t i = 0; i < f->nr_cuidx; i++)
		if (f->cuidx[i]->cu_off == off)
			return f->cuidx[i];
	ix = xcalloc(1, sizeof(*ix));
	ix->cu_off = off;
	ix->cu = *cu;
	walk(&c, cu, 0, 0);
	ix->r = c.r;
	ix->nr_r = c.nr;
	flatten(ix, c.r, c.nr);
	f->cuidx = xgrow(f->cuidx, &f->cap_cuidx, f->nr_cuidx + 1, sizeof(*f->cuidx));
	/* most recently built first: consecutive lookups tend to stay in one CU */
	memmove(f->cuidx + 1, f->cuidx, f->nr_cuidx * sizeof(*f->cuidx));
	f->cuidx[0] = ix;
	f->nr_cuidx++;
	return ix;
}

static const struct inl_seg *seg_at(struct sym_cu_index *ix, Dwarf_Addr a)
{
	size_t lo = 0, hi = ix->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->seg[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ix->nr || ix->seg[lo].lo > a)
		return NULL;
	return &ix->seg[lo];
}

int sym_inline_find(struct sym_file *f, Dwarf_Die *cu, Dwarf_Addr a, Dwarf_Die *out)
{
	const struct inl_seg *sg = seg_at(cu_index(f, cu), a);

	if (!sg)
		return -1;
	*out = sg->die;
	return 0;
}

size_t sym_inline_chain(struct sym_file *f, Dwarf_Die *cu, Dwarf_Addr a, Dwarf_Die *out, size_t max)
{
	struct sym_cu_index *ix = cu_index(f, cu);
	const struct inl_seg *sg = seg_at(ix, a);
	size_t n = 0, k;

	for (k = sg ? sg->range : SIZE_MAX; k != SIZE_MAX && n < max; k = ix->r[k].parent)
		out[n++] = ix->r[k].die;
	return n;
}

void sym_inline_release(struct sym_file *f)
{
	for (size_t i = 0; i < f->nr_cuidx; i++) {
		free(f->cuidx[i]->seg);
		free(f->cuidx[i]->r);
		free(f->cuidx[i]);
	}
	free(f->cuidx);
	f->cuidx = NULL;
	f->nr_cuidx = f->cap_cuidx = 0;
}
