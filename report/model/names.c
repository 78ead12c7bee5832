/* Data names for every backend (see names.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/names.h"

/* A .bss tail: anonymous memory right after a file's last mapping that the file's image covers. */
static int bss_tail(struct sym_session *s, const struct maps *maps, const struct rm_where *w,
		    uint64_t addr, struct sym_data_info *out)
{
	struct maps_loc loc = { 0 };

	if (!maps || !w->thread || !w->dmap || w->dmap->start == 0)
		return -ENOENT;
	if (!maps_find(maps, w->thread, MAPS_CPUMODE_USER, w->dmap->start - 1, &loc) || !loc.map ||
	    loc.map->dso->kernel || sym_map_kind(loc.map->dso->name) != SYM_MAP_FILE ||
	    !sym_map_covers(s, &loc.map->mmap, addr))
		return -ENOENT;
	return sym_data(s, &loc.map->mmap, addr, out);
}

/* The type route: what the row's instruction accesses, named from the DWARF variables live at
 * its address. Only for user code in a file. */
static int by_code(struct sym_session *s, const struct rm_where *w, uint64_t addr,
		   struct sym_data_info *out)
{
	enum sym_map_kind k;

	if (!w->cmap || w->cmap->dso->kernel || w->code_cpumode == MAPS_CPUMODE_KERNEL)
		return -ENOENT;
	k = sym_map_kind(w->cmap->dso->name);
	if (k != SYM_MAP_FILE && k != SYM_MAP_DELETED)
		return -ENOENT;
	if (sym_data_type_back(s, &w->cmap->mmap, w->ip, w->back, addr, out) || !out->var)
		return -ENOENT;
	return 0;
}

int rm_name_data(struct sym_session *s, const struct maps *maps, const struct rm_where *w,
		 uint64_t addr, struct sym_data_info *out)
{
	const struct maps_map *m = w->dmap;
	enum sym_map_kind k;

	memset(out, 0, sizeof(*out));
	if (!s) {
		out->reason = "no symbol resolution";
		return -ENOENT;
	}
	if (w->cpumode == MAPS_CPUMODE_KERNEL || (m && m->dso->kernel))
		return sym_kernel_data(s, addr, out) || !out->var ? -ENOENT : 0;
	k = m ? sym_map_kind(m->dso->name) : SYM_MAP_ANON;
	if (k == SYM_MAP_ANON && w->brk_heap)
		k = SYM_MAP_HEAP;
	if (m && (k == SYM_MAP_FILE || k == SYM_MAP_DELETED)) {
		const char *why;
		if (!sym_data(s, &m->mmap, addr, out) && out->var)
			return 0;
		/* no symbol there (a stripped server's static mutex): the code may know its type */
		why = out->reason;
		memset(out, 0, sizeof(*out));
		if (!by_code(s, w, addr, out))
			return RM_NAME_BY_CODE;
		memset(out, 0, sizeof(*out));
		out->reason = why;
		return -ENOENT;
	}
	if (m && (k == SYM_MAP_ANON || k == SYM_MAP_HEAP) && !bss_tail(s, maps, w, addr, out) &&
	    out->var)
		return 0;
	/* heap, stack, anonymous or unmapped memory: the code that touched it may know its type */
	memset(out, 0, sizeof(*out));
	if (!by_code(s, w, addr, out))
		return RM_NAME_BY_CODE;
	if (w->cmap && out->reason && !strncmp(out->reason, "[type unknown]", 14))
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->reason = m ? sym_map_kind_name(k) : "no map holds the address";
	return -ENOENT;
}

/* "buf1 (struct _buf, 64 bytes)" */
static void var_desc(char *buf, size_t n, const struct sym_data_info *d)
{
	if (d->type && d->var_size)
		snprintf(buf, n, "%s (%s, %llu bytes)", d->var, d->type,
			 (unsigned long long)d->var_size);
	else if (d->var_size)
		snprintf(buf, n, "%s (%llu bytes)", d->var, (unsigned long long)d->var_size);
	else
		snprintf(buf, n, "%s", d->var);
}

void rm_member_name(const struct sym_data_info *d, char *buf, size_t n)
{
	/* a lock's bytes are one member, the lock ("*mutex", not mutex->__kind and ->__lock) */
	const char *s = d->lock ? d->lock : d->member ? d->member : d->var ? d->var : "";
	const char *p = strstr(s, " (+");

	snprintf(buf, n, "%.*s", p ? (int)(p - s) : (int)strlen(s), s);
}

void rm_memory_text(const struct rm_where *w, const char *reason, int verbose, char *buf,
		    size_t n)
{
	const struct maps_map *m = w->dmap;
	enum sym_map_kind k = m ? sym_map_kind(m->dso->name) : SYM_MAP_FILE;
	const char *name = m ? m->dso->name : "";
	long tid;

	if (k == SYM_MAP_ANON && w->brk_heap)
		k = SYM_MAP_HEAP;

	if (m && !m->dso->kernel && (k == SYM_MAP_HEAP || k == SYM_MAP_ANON) && w->key_pid) {
		snprintf(buf, n, "%s of pid %d", k == SYM_MAP_HEAP ? "heap" : "anon", w->key_pid);
	} else if (m && !m->dso->kernel && k == SYM_MAP_HEAP) {
		snprintf(buf, n, "heap");
	} else if (m && !m->dso->kernel && k == SYM_MAP_STACK) {
		tid = !strncmp(name, "[stack:", 7) ? strtol(name + 7, NULL, 10)
		      : w->thread ? w->thread->pid : -1;
		snprintf(buf, n, "stack of tid %ld", tid);
	} else if (m && !m->dso->kernel && k == SYM_MAP_ANON) {
		/* shared memory: /dev/zero, /SYSV..., memfd:NAME, [anon:NAME] say what it is */
		snprintf(buf, n, "%s", !*name || !strcmp(name, "//anon") ? "anon" : name);
	} else if (m && !m->dso->kernel && k == SYM_MAP_VDSO) {
		snprintf(buf, n, "%s", name);
	} else if (verbose) {
		snprintf(buf, n, "[unknown] (%s%s%s)", m ? m->dso->short_name : "", m ? ": " : "",
			 reason ? reason : "no symbol");
	} else {
		snprintf(buf, n, "[unknown]");
	}
}

void rm_what_init(struct rm_what *w)
{
	memset(w, 0, sizeof(*w));
}

void rm_what_add(struct rm_what *w, int rc, const struct sym_data_info *d)
{
	char one[160];
	size_t len = strlen(w->vars);

	if (rc < 0) {
		if (!w->nr_vars && !w->reason)
			w->reason = d->reason;
		return;
	}
	w->by_code |= rc == RM_NAME_BY_CODE;
	if (!w->object[0])
		snprintf(w->object, sizeof(w->object), "%s", d->var);
	var_desc(one, sizeof(one), d);
	if (strstr(w->vars, one) || w->nr_vars >= 3) {
		if (w->nr_vars == 3 && !strstr(w->vars, one) && len + 5 < sizeof(w->vars)) {
			strcat(w->vars, ", ...");
			w->nr_vars++;
		}
		return;
	}
	snprintf(w->vars + len, sizeof(w->vars) - len, "%s%s", len ? ", " : "", one);
	w->nr_vars++;
}

void rm_what_text(const struct rm_what *w, const struct rm_where *line, int verbose, char *buf,
		  size_t n)
{
	buf[0] = 0;
	if (!w->vars[0] || w->by_code)
		rm_memory_text(line, w->reason, verbose, buf, n);
	if (w->vars[0])
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ": " : "", w->vars);
}

int rm_what_object(const struct rm_what *w, const struct rm_where *line, char *buf, size_t n)
{
	char mem[128];

	if (!w->object[0])
		return -ENOENT;
	if (!w->by_code) {
		snprintf(buf, n, "%s", w->object);
		return 0;
	}
	rm_memory_text(line, NULL, 0, mem, sizeof(mem));
	snprintf(buf, n, "%s: %s", mem, w->object);
	return 0;
}

void rm_row_text(int rc, const struct sym_data_info *d, const struct rm_where *w, int verbose,
		 char *buf, size_t n)
{
	if (rc >= 0)
		snprintf(buf, n, "%s", d->member && *d->member ? d->member : d->var);
	else if (d->reason && !strncmp(d->reason, "[type unknown]", 14))
		snprintf(buf, n, "%s", verbose ? d->reason : "[type unknown]");
	else
		rm_memory_text(w, d->reason, verbose, buf, n);
}

/* --- elements ------------------------------------------------------------------------------ */

static int same_group(const struct rm_elem *a, const struct rm_elem *b)
{
	return a->size == b->size && !strcmp(a->member, b->member) &&
	       (a->object == b->object || (a->object && b->object && !strcmp(a->object, b->object)));
}

void rm_elem_index(struct rm_elem *e, size_t n)
{
	char *done = calloc(n ? n : 1, 1);

	for (size_t i = 0; done && i < n; i++) {
		uint64_t lo, hi;
		if (done[i] || !e[i].size)
			continue;
		lo = hi = e[i].addr - e[i].off;
		for (size_t k = i; k < n; k++)
			if (!done[k] && same_group(&e[i], &e[k])) {
				uint64_t at = e[k].addr - e[k].off;
				lo = at < lo ? at : lo;
				hi = at > hi ? at : hi;
			}
		/* the elements seen span the array: the lowest is its first */
		int absolute = e[i].count && (hi - lo) / e[i].size + 1 == e[i].count;
		for (size_t k = i; k < n; k++)
			if (!done[k] && same_group(&e[i], &e[k])) {
				e[k].index = (int64_t)((e[k].addr - e[k].off - lo) / e[k].size);
				e[k].absolute = absolute;
				done[k] = 1;
			}
	}
	free(done);
}

void rm_elem_text(const struct rm_elem *e, const char *text, char *buf, size_t n)
{
	const char *open = strstr(text, "[]");
	char idx[32];

	if (e->absolute)
		snprintf(idx, sizeof(idx), "%lld", (long long)e->index);
	else if (e->index)
		snprintf(idx, sizeof(idx), "i+%lld", (long long)e->index);
	else
		snprintf(idx, sizeof(idx), "i");
	if (!open || !e->size)
		snprintf(buf, n, "%s", text);
	else if (strstr(open + 2, "[]"))
		snprintf(buf, n, "%s (element %s)", text, idx);
	else
		snprintf(buf, n, "%.*s[%s]%s", (int)(open - text), text, idx, open + 2);
}

/* --- aliases ------------------------------------------------------------------------------- */

static size_t alias_hash(uint64_t base, uint64_t size, size_t cap)
{
	uint64_t h = (base ^ (size * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;

	return (size_t)(h >> 17) & (cap - 1);
}

/* The slot of (@base, @size, @type): its entry, or the empty slot where it goes. */
static struct rm_alias *alias_slot(struct rm_alias *slot, size_t cap, uint64_t base,
				   uint64_t size, const char *type)
{
	for (size_t i = alias_hash(base, size, cap);; i = (i + 1) & (cap - 1)) {
		struct rm_alias *a = &slot[i];
		if (!a->var || (a->base == base && a->size == size && !strcmp(a->type, type)))
			return a;
	}
}

const char *rm_alias_var(struct rm_aliases *al, uint64_t addr, const struct sym_data_info *d)
{
	struct rm_alias *a;

	if (!d->var || !d->type || !d->var_size || d->var_offset > addr ||
	    (d->member && strstr(d->member, " (+?)")))
		return d->var;
	if ((al->nr + 1) * 2 > al->cap) {  /* at most half full */
		size_t cap = al->cap ? al->cap * 2 : 64;
		struct rm_alias *slot = xcalloc(cap, sizeof(*slot));
		for (size_t i = 0; i < al->cap; i++)
			if (al->slot[i].var)
				*alias_slot(slot, cap, al->slot[i].base, al->slot[i].size,
					    al->slot[i].type) = al->slot[i];
		free(al->slot);
		al->slot = slot;
		al->cap = cap;
	}
	a = alias_slot(al->slot, al->cap, addr - d->var_offset, d->var_size, d->type);
	if (!a->var) {
		*a = (struct rm_alias){ addr - d->var_offset, d->var_size, d->type, d->var };
		al->nr++;
	}
	return a->var;
}

void rm_aliases_free(struct rm_aliases *al)
{
	free(al->slot);
	memset(al, 0, sizeof(*al));
}
