/* Naming an access through a typed pointer for data-type profiling: "p->a.b", "(*p)[2]",
 * "*p (+4)", the element it lands in (struct sym_data_info). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/resolve/sym-type-int.h"

/* --- naming ------------------------------------------------------------------------------- */

/* "p->a.b", "(*p)[2]", "*p (+4)" for byte @off of *p, "s.a.b", "s[2]", "s (+4)" when p is a
 * reference s or the object s itself; @elem "" (inside *p), "[]" or "[k]". */
void symt_compose(struct sym_buf *b, const struct ptr *p, const char *elem, const char *path)
{
	const char *name = p->name;

	if (p->ref || p->obj)
		sym_buf_add(b, *elem ? "(&%s)%s%s" : "%s%s%s", name, elem, path);
	else if (*elem)
		sym_buf_add(b, "%s%s%s", name, elem, path);
	else if (path[0] == '.')
		sym_buf_add(b, "%s->%s", name, path + 1);
	else if (path[0] == '[')
		sym_buf_add(b, "(*%s)%s", name, path);
	else
		sym_buf_add(b, "*%s%s", name, path);
}

#define SHIFT_TRIES 4096  /* offsets tried by shifted() */

/* An indexed access whose displacement @d lands in no array of *p that could take the index:
 * the compiler may have folded the offset of the array into the index register ((t + 1) << 4
 * for G->ints[t], ints 16 bytes into *G). The offsets d + k * @step inside *p that lie in an
 * array taking the index must all give one path ("ints[].i"), put in @path, the first such
 * offset in *off: 0, else -1 (none, or several arrays: which one is unknown). */
static int shifted(const struct ptr *p, int64_t d, unsigned step, struct sym_buf *path,
		   uint64_t *off, struct sym_elem *el)
{
	struct sym_elem el1;
	struct sym_buf one = {0};
	int64_t k0 = d >= 0 ? -(d / (int64_t)step) : (-d + step - 1) / (int64_t)step;
	int found = 0, rc = 0;

	if ((p->size - 1) / step > SHIFT_TRIES)
		return -1;
	for (int64_t e = d + k0 * (int64_t)step; e < (int64_t)p->size && rc == 0; e += step) {
		if (e == d)
			continue;
		one.len = 0;
		sym_buf_add(&one, "%s", "");
		if (!sym_type_path((Dwarf_Die *)&p->pointee, (uint64_t)e, step, &one, &el1))
			continue;
		if (!found) {
			sym_buf_add(path, "%s", one.p);
			*off = (uint64_t)e;
			*el = el1;
			found = 1;
		} else if (strcmp(one.p, path->p)) {
			rc = -1;
		}
	}
	free(one.p);
	return found && !rc ? 0 : -1;
}

/* The element of *p an access lands in and the offset inside it: without an index register
 * @m->disp is exact ("" or "[k]"; an object, p->obj, only inside itself). With one, the bytes
 * accessed are disp + k * scale (scale: the index's step, what the code shows it a multiple
 * of): the first array on the path whose stride divides the step takes the index ("p->a[]"),
 * else whole elements of *p when the step is a multiple of sizeof(*p) ("p[]", not for an
 * object), else one array at another offset of that step (shifted()); otherwise the byte is
 * unknown (returns -1). */
int symt_place(const struct ptr *p, const struct mem_op *m, struct sym_buf *path, char *elem,
	       size_t cap, uint64_t *off, struct sym_elem *el)
{
	uint64_t d = (uint64_t)m->disp;

	elem[0] = 0;
	memset(el, 0, sizeof(*el));
	if (m->index == -1) {
		if (m->disp < 0 || (p->obj && d >= p->size))
			return -1;  /* callers check symt_fit() first */
		*off = d % p->size;
		if (d >= p->size)
			snprintf(elem, cap, "[%llu]", (unsigned long long)(d / p->size));
		sym_type_path((Dwarf_Die *)&p->pointee, *off, 0, path, NULL);
		return 0;
	}
	if (m->disp >= 0 && d < p->size &&
	    sym_type_path((Dwarf_Die *)&p->pointee, d, m->scale, path, el)) {
		*off = d;
		return 0;
	}
	path->len = 0;
	if (path->p)
		path->p[0] = 0;
	if (!p->obj && !p->ref && m->scale % p->size == 0) {
		*off = (uint64_t)(m->disp % (int64_t)p->size + (int64_t)p->size) % p->size;
		snprintf(elem, cap, "[]");
		sym_type_path((Dwarf_Die *)&p->pointee, *off, 0, path, NULL);
		*el = (struct sym_elem){ .stride = p->size, .off = *off, .dims = 1 };
		return 0;
	}
	memset(el, 0, sizeof(*el));
	return shifted(p, m->disp, m->scale, path, off, el);
}

/* Name the access @m (relative to p itself: symt_effective()) through @p: 0, else -1 when p is an
 * object the access may leave (an index no array of it takes). A pointer whose pointee's byte
 * is unknown still names the object: "*p (+?)", with a reason. */
int symt_describe(struct sym_session *s, const struct ptr *p, const struct mem_op *m,
		  struct sym_data_info *out)
{
	struct sym_buf b = {0}, path = {0};
	char elem[32];
	uint64_t off = 0;
	int named = p->ref || p->obj;
	struct sym_elem el;

	out->elem_size = out->elem_off = out->elem_count = 0;
	out->lock = NULL;
	sym_buf_add(&path, "%s", "");
	if (symt_place(p, m, &path, elem, sizeof(elem), &off, &el)) {
		free(path.p);
		if (p->obj)
			return -1;
		sym_buf_add(&b, named ? "%s (+?)" : "*%s (+?)", p->name);
		out->reason = "indexed access: offset inside the object unknown";
	} else {
		int cut = sym_path_lock(path.p);
		if (cut >= 0) {
			char c = path.p[cut];
			path.p[cut] = 0;
			symt_compose(&b, p, elem, path.p);
			out->lock = sym_str(&s->str, b.p);
			path.p[cut] = c;
			b.len = 0;
			b.p[0] = 0;
		}
		symt_compose(&b, p, elem, path.p);
		free(path.p);
		if (el.dims) {
			out->elem_size = el.stride;
			out->elem_off = el.off;
			out->elem_count = el.count;
		}
	}
	out->member = sym_str(&s->str, b.p);
	out->var_offset = off;
	out->var_size = p->size;
	b.len = 0;
	sym_buf_add(&b, named ? "%s" : "*%s", p->name);
	out->var = sym_str(&s->str, b.p);
	b.len = 0;
	sym_type_name((Dwarf_Die *)&p->pointee, &b);
	out->type = sym_str(&s->str, b.p);
	out->lang = sym_die_lang((Dwarf_Die *)&p->pointee);
	out->type_ref = (struct sym_type_ref){ dwarf_cu_getdwarf(p->pointee.cu),
					       dwarf_dieoffset((Dwarf_Die *)&p->pointee) };
	free(b.p);
	return 0;
}
