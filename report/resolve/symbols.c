/* The symbols session: options, the string pool and address caches every lookup shares, mapping
 * classification, and the user-space entry points sym_code() and sym_data(), which find the file
 * of a mapping (sym-file.c) and hand the ELF address to sym-code.c or sym-data.c. Results are
 * cached per (file, ELF address), so each distinct address is resolved once. */
#include <errno.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/resolve/sym-int.h"

/* FNV-1a; the pool and the caches need a fast, decent spread, nothing more. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static void strpool_grow(struct sym_strpool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 256;
	char **slot = xcalloc(cap, sizeof(*slot));

	for (size_t i = 0; i < p->cap; i++) {
		if (!p->slot[i])
			continue;
		size_t j = hash_str(p->slot[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
}

const char *sym_str(struct sym_strpool *p, const char *s)
{
	if (!s)
		return NULL;
	if ((p->nr + 1) * 2 > p->cap)
		strpool_grow(p);
	size_t j = hash_str(s) & (p->cap - 1);
	while (p->slot[j]) {
		if (!strcmp(p->slot[j], s))
			return p->slot[j];
		j = (j + 1) & (p->cap - 1);
	}
	p->slot[j] = xstrdup(s);
	p->nr++;
	return p->slot[j];
}

void sym_strpool_release(struct sym_strpool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	memset(p, 0, sizeof(*p));
}

static void cache_grow(struct sym_cache *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024;
	struct sym_cache_slot *slot = xcalloc(cap, sizeof(*slot));

	for (size_t i = 0; i < c->cap; i++) {
		if (!c->slot[i].idx)
			continue;
		size_t j = hash_u64(c->slot[i].key) & (cap - 1);
		while (slot[j].idx)
			j = (j + 1) & (cap - 1);
		slot[j] = c->slot[i];
	}
	free(c->slot);
	c->slot = slot;
	c->cap = cap;
}

struct sym_cache_ent *sym_cache_slot(struct sym_cache *c, uint64_t key)
{
	size_t j;

	if ((c->nr + 2) * 2 > c->cap)
		cache_grow(c);
	j = hash_u64(key) & (c->cap - 1);
	while (c->slot[j].idx && c->slot[j].key != key)
		j = (j + 1) & (c->cap - 1);
	if (c->slot[j].idx)
		return &c->ent[c->slot[j].idx];
	/* a new entry; ent[0] stays unused so that idx 0 means empty */
	c->ent = xgrow(c->ent, &c->cap_ent, c->nr + 2, sizeof(*c->ent));
	struct sym_cache_ent *e = &c->ent[c->nr + 1];
	memset(e, 0, sizeof(*e));
	e->key = key;
	c->slot[j].key = key;
	c->slot[j].idx = c->nr + 1;
	return e;
}

void sym_cache_added(struct sym_cache *c)
{
	c->nr++;
}

void sym_cache_release(struct sym_cache *c)
{
	free(c->slot);
	free(c->ent);
	memset(c, 0, sizeof(*c));
}

void sym_buf_add(struct sym_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->p = xgrow(b->p, &b->cap, b->len + n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

/* libdwfl's search path for separate debug info: '-' (no CRC check: build-ids are checked),
 * the main file's directory (empty element), its .debug/, the caller's roots, symfs'
 * /usr/lib/debug, then the system root. */
static char *make_debuginfo_path(const struct sym_opts *o)
{
	struct sym_buf b = {0};

	sym_buf_add(&b, "-:.debug");
	if (o->debuginfo_dirs && *o->debuginfo_dirs)
		sym_buf_add(&b, ":%s", o->debuginfo_dirs);
	if (o->symfs && *o->symfs)
		sym_buf_add(&b, ":%s/usr/lib/debug", o->symfs);
	sym_buf_add(&b, ":/usr/lib/debug");
	return b.p;
}

int sym_session_new(struct sym_session **out, const struct sym_opts *opts)
{
	struct sym_session *s;
	struct utsname u;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return c2c_err(-ENOTSUP, "libelf: %s", elf_errmsg(-1));
	s = xcalloc(1, sizeof(*s));
	if (opts)
		s->opts = *opts;
	s->symfs = s->opts.symfs && *s->opts.symfs ? xstrdup(s->opts.symfs) : NULL;
	s->vmlinux_path = s->opts.vmlinux ? xstrdup(s->opts.vmlinux) : NULL;
	s->debuginfo_dirs = s->opts.debuginfo_dirs ? xstrdup(s->opts.debuginfo_dirs) : NULL;
	s->opts.symfs = s->symfs;
	s->opts.vmlinux = s->vmlinux_path;
	s->opts.debuginfo_dirs = s->debuginfo_dirs;
	s->debuginfo_path = make_debuginfo_path(&s->opts);
	s->vdso_here = s->opts.kernel_release && !uname(&u) && !strcmp(s->opts.kernel_release,
									 u.release);
	s->opts.kernel_release = NULL;   /* not kept */
	s->cb.find_elf = dwfl_build_id_find_elf;
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debuginfo_path;
	*out = s;
	return 0;
}

void sym_session_free(struct sym_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_file; i++)
		sym_file_free(s->file[i]);
	free(s->file);
	for (size_t i = 0; i < s->nr_warned; i++)
		free(s->warned[i]);
	free(s->warned);
	sym_file_free(s->vmlinux);
	if (s->vdso_fd > 0)
		close(s->vdso_fd);
	free(s->ksym);
	free(s->kallsyms_text);
	sym_cache_release(&s->kcode);
	sym_cache_release(&s->kdata);
	if (s->type_free)
		s->type_free(s);  /* only set when sym-type.c is linked in and was used */
	sym_strpool_release(&s->str);
	free(s->symfs);
	free(s->vmlinux_path);
	free(s->debuginfo_dirs);
	free(s->debuginfo_path);
	free(s);
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

enum sym_map_kind sym_map_kind(const char *name)
{
	if (!name || !*name || !strcmp(name, "//anon") || !strncmp(name, "[anon", 5) ||
	    !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "/dev/zero", 9) ||
	    !strncmp(name, "/SYSV", 5) || !strncmp(name, "/memfd:", 7) ||
	    !strncmp(name, "memfd:", 6))
		return SYM_MAP_ANON;
	if (!strncmp(name, "[stack", 6))
		return SYM_MAP_STACK;
	if (!strcmp(name, "[heap]"))
		return SYM_MAP_HEAP;
	if (!strcmp(name, "[vdso]") || !strcmp(name, "[vvar]") || !strcmp(name, "[vsyscall]"))
		return SYM_MAP_VDSO;
	if (has_suffix(name, " (deleted)"))
		return SYM_MAP_DELETED;
	if (name[0] == '[')
		return SYM_MAP_ANON;
	return SYM_MAP_FILE;
}

const char *sym_map_kind_name(enum sym_map_kind k)
{
	static const char *const names[] = {
		[SYM_MAP_FILE] = "file",   [SYM_MAP_STACK] = "stack", [SYM_MAP_HEAP] = "heap",
		[SYM_MAP_ANON] = "anon",   [SYM_MAP_VDSO] = "[vdso]", [SYM_MAP_DELETED] = "deleted",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

int sym_locate(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	       struct sym_file **fp, uint64_t *vaddr, const char **reason)
{
	struct sym_file *f;

	if (!map) {
		*reason = "no mapping";
		return -ENOENT;
	}
	f = sym_file_get(s, map);
	if (f->rc) {
		*reason = f->reason;
		return f->rc;
	}
	if (sym_file_vaddr(f, map, addr, vaddr)) {
		*reason = "address outside the file's segments";
		return -ENOENT;
	}
	*fp = f;
	return 0;
}

/* sym_code() (@any 0), or sym_symbol() (@any 1: not cached, a tree search is as quick). */
static int code_lookup(struct sym_session *s, const struct trace_mmap *map, uint64_t ip,
		       struct sym_code_info *out, int any)
{
	struct sym_file *f = NULL;
	struct sym_cache_ent *e;
	uint64_t vaddr;
	const char *reason;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s || (map && !map->filename))
		return -EINVAL;
	rc = sym_locate(s, map, ip, &f, &vaddr, &reason);
	if (rc) {
		out->reason = reason;
		return rc;
	}
	if (any)
		return sym_symbol_vaddr(s, f, vaddr, out);
	e = sym_cache_slot(&f->code, vaddr);
	if (!e->used) {
		e->rc = sym_code_vaddr(s, f, vaddr, &e->code);
		e->used = 1;
		sym_cache_added(&f->code);
	}
	*out = e->code;
	return e->rc;
}

int sym_code(struct sym_session *s, const struct trace_mmap *map, uint64_t ip,
	     struct sym_code_info *out)
{
	return code_lookup(s, map, ip, out, 0);
}

int sym_symbol(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	       struct sym_code_info *out)
{
	return code_lookup(s, map, addr, out, 1);
}

int sym_data(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	     struct sym_data_info *out)
{
	struct sym_file *f = NULL;
	struct sym_cache_ent *e;
	uint64_t vaddr;
	const char *reason;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s || (map && !map->filename))
		return -EINVAL;
	rc = sym_locate(s, map, addr, &f, &vaddr, &reason);
	if (rc) {
		out->reason = reason;
		return rc;
	}
	e = sym_cache_slot(&f->data, vaddr);
	if (!e->used) {
		e->rc = sym_data_vaddr(s, f, vaddr, &e->data);
		e->used = 1;
		sym_cache_added(&f->data);
	}
	*out = e->data;
	return e->rc;
}

int sym_map_covers(struct sym_session *s, const struct trace_mmap *map, uint64_t addr)
{
	struct sym_file *f;
	uint64_t vaddr;

	if (!s || !map || !map->filename)
		return 0;
	f = sym_file_get(s, map);
	return !f->rc && !sym_file_vaddr(f, map, addr, &vaddr);
}
