/* The edits of `c2c-lite fix` (fix.h): a plan and its declarations in, whole-line edits of the
 * source texts out, each file's kept apart until fix_diff() writes them. An edit inserts an
 * alignment into a declaration line or a line above it; a line is edited at most once per
 * finding and its comment written once. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/fix/fix.h"

struct fix_file {
	char *path;
	const char *rel;         /* inside path */
	const char *text;
	struct fix_line_edit *e;
	size_t nr, cap;
};

struct fix_set {
	struct fix_opts o;
	struct fix_file *file;
	size_t nr_file, cap_file;
	char **note;
	int *refused;
	size_t nr_note, cap_note, cap_ref;
	const struct fix_plan *commented;   /* the plan whose comment was written last */
};

struct fix_set *fix_new(const struct fix_opts *o)
{
	struct fix_set *s = xcalloc(1, sizeof(*s));

	s->o = *o;
	if (!s->o.align)
		s->o.align = 64;
	return s;
}

static void note(struct fix_set *s, int refused, const char *fmt, const char *a, const char *b)
{
	char buf[768];

	snprintf(buf, sizeof(buf), fmt, a, b);
	s->note = xgrow(s->note, &s->cap_note, s->nr_note + 1, sizeof(*s->note));
	s->refused = xgrow(s->refused, &s->cap_ref, s->nr_note + 1, sizeof(*s->refused));
	s->refused[s->nr_note] = refused;
	s->note[s->nr_note++] = xstrdup(buf);
}

size_t fix_nr_notes(const struct fix_set *s)
{
	return s->nr_note;
}

const char *fix_note(const struct fix_set *s, size_t i, int *refused)
{
	if (i >= s->nr_note)
		return NULL;
	if (refused)
		*refused = s->refused[i];
	return s->note[i];
}

/* @path relative to the root, NULL when outside it. */
static const char *in_root(const struct fix_set *s, const char *path)
{
	size_t n = strlen(s->o.root);

	if (!path || strncmp(path, s->o.root, n) || (path[n] != '/' && n != 1))
		return NULL;
	return path + n + (n != 1);
}

static struct fix_file *get_file(struct fix_set *s, const char *path)
{
	struct fix_file *f;
	const char *text;

	for (size_t i = 0; i < s->nr_file; i++)
		if (!strcmp(s->file[i].path, path))
			return &s->file[i];
	if (!(text = s->o.read(s->o.ctx, path)))
		return NULL;
	s->file = xgrow(s->file, &s->cap_file, s->nr_file + 1, sizeof(*s->file));
	f = &s->file[s->nr_file++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->rel = in_root(s, f->path);
	f->text = text;
	return f;
}

/* Line @line of @f as it is now (edited or not), malloc'd; NULL past the end. */
static char *line_now(const struct fix_file *f, uint32_t line)
{
	const char *p = f->text, *e;

	for (size_t i = 0; i < f->nr; i++)
		if (f->e[i].line == line && f->e[i].text)
			return xstrdup(f->e[i].text);
	for (uint32_t i = 1; i < line && p; i++)
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	if (!p || !*p)
		return NULL;
	e = strchr(p, '\n');
	return xstrndup(p, e ? (size_t)(e - p) : strlen(p));
}

static struct fix_line_edit *edit_of(struct fix_file *f, uint32_t line)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->e[i].line == line)
			return &f->e[i];
	f->e = xgrow(f->e, &f->cap, f->nr + 1, sizeof(*f->e));
	f->e[f->nr] = (struct fix_line_edit){ .line = line };
	return &f->e[f->nr++];
}

static void set_text(struct fix_file *f, uint32_t line, char *text)
{
	struct fix_line_edit *e = edit_of(f, line);

	free(e->text);
	e->text = text;
}

/* Add line @text (with @cur's indentation) above @line, once. */
static void add_above(struct fix_file *f, uint32_t line, const char *cur, const char *text)
{
	struct fix_line_edit *e = edit_of(f, line);
	struct fix_buf b = { .p = e->before, .len = e->before ? strlen(e->before) : 0 };
	int ind = (int)strspn(cur, " \t");

	b.cap = b.len + (b.len != 0);
	if (e->before && strstr(e->before, text))
		return;
	fix_buf_add(&b, "%.*s%s\n", ind, cur, text);
	e->before = b.p;
}

/* The finding's comment above @line: whole at its first change, after that which part the
 * change moves (@name) to a line of its own. */
static void add_comment(struct fix_set *s, struct fix_file *f, uint32_t line, const char *cur,
			const struct fix_plan *p, enum fix_lang lang, const char *extra,
			const char *name)
{
	char text[512], buf[640];

	if (s->commented == p && name)
		snprintf(text, sizeof(text), "%s on a line of its own (the finding above)", name);
	else
		snprintf(text, sizeof(text), "%s%s", p->comment, extra ? extra : "");
	s->commented = p;
	snprintf(buf, sizeof(buf), lang == FIX_LANG_RUST ? "// c2c-lite: %s" :
		 "/* c2c-lite: %s */", text);
	add_above(f, line, cur, buf);
}

static char *insert_at(const char *cur, size_t col, const char *what)
{
	struct fix_buf b = {0};

	fix_buf_add(&b, "%.*s%s%s", (int)col, cur, what, cur + col);
	return b.p;
}

static int word_at(const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && !isalnum((unsigned char)p[n]) && p[n] != '_';
}

/* Where in declaration line @cur the alignment goes: after the indentation, and in C after the
 * storage class (GCC warns of a storage class that is not first); -1 with *why when the line is
 * not one simple declaration of @name. */
static long decl_col(const char *cur, const char *name, enum fix_lang lang, const char **why)
{
	static const char *const storage[] = { "static", "extern", "_Thread_local", "__thread",
					       "thread_local", "register", NULL };
	const char *p = cur + strspn(cur, " \t"), *semi = strchr(cur, ';'), *hit = cur;
	size_t n = strlen(name);
	int depth = 0;

	while ((hit = strstr(hit, name)) && ((hit > cur && (isalnum((unsigned char)hit[-1]) ||
			hit[-1] == '_')) || isalnum((unsigned char)hit[n]) || hit[n] == '_'))
		hit += n;
	if (!hit || !semi || semi < hit) {
		*why = !hit ? "the declaration line does not name it" :
			      "the declaration spans several lines";
		return -1;
	}
	for (const char *q = p; q < semi; q++) {
		depth += (*q == '(' || *q == '[' || *q == '{') - (*q == ')' || *q == ']' || *q == '}');
		if (*q == ',' && !depth) {
			*why = "several declarators on one line";
			return -1;
		}
	}
	if (strstr(cur, "_Alignas") || strstr(cur, "alignas(") || strstr(cur, "aligned(")) {
		*why = "it is aligned already";
		return -1;
	}
	for (int i = 0; lang == FIX_LANG_C && storage[i]; i++)
		if (word_at(p, storage[i])) {
			p += strlen(storage[i]);
			p += strspn(p, " \t");
			i = -1;
		}
	return p - cur;
}

static void spec(const struct fix_set *s, const struct fix_decl *d, char *buf, size_t n)
{
	if (d->old_std)
		snprintf(buf, n, "__attribute__((aligned(%u))) ", s->o.align);
	else
		snprintf(buf, n, "%s(%u) ", d->lang == FIX_LANG_CXX ? "alignas" : "_Alignas",
			 s->o.align);
}

/* The file of @pos when it can be edited: inside the root and readable; else NULL, *why. */
static struct fix_file *file_of(struct fix_set *s, const struct fix_pos *pos, const char **why)
{
	static char buf[600];
	struct fix_file *f;

	if (!pos->file) {
		*why = "the debug info gives no declaration";
		return NULL;
	}
	if (!in_root(s, pos->file)) {
		snprintf(buf, sizeof(buf), "declared outside the source root, in %s", pos->file);
		*why = buf;
		return NULL;
	}
	if (!(f = get_file(s, pos->file)))
		*why = "its source file cannot be read";
	return f;
}

/* The last name of a member path: "b" of "buf1.b", "count" of "slots[1].count (element i)". */
static void last_name(const char *path, char *buf, size_t n)
{
	size_t len = strcspn(path, " ");
	const char *p = path, *q;

	for (q = path; q < path + len; q++)
		if (*q == '.' || (*q == '>' && q > path && q[-1] == '-'))
			p = q + 1;
	snprintf(buf, n, "%.*s", (int)strcspn(p, "[ "), p);
}

static void change_note(struct fix_set *s, const struct fix_file *f, const struct fix_pos *pos,
			const char *what)
{
	char where[512];

	snprintf(where, sizeof(where), "%s:%u", f->rel, pos->line);
	note(s, 0, "%s: %s", where, what);
}

/* Align the declaration of @name at @pos: 0, or -1 with *why. */
static int align_decl(struct fix_set *s, const struct fix_plan *p, const struct fix_decl *d,
		      const struct fix_pos *pos, const char *name, const char *extra,
		      const char **why)
{
	struct fix_file *f = file_of(s, pos, why);
	char *cur, sp[48], what[400];
	long col;

	if (!f)
		return -1;
	if (!(cur = line_now(f, pos->line))) {
		*why = "the declaration line is past the end of its file";
		return -1;
	}
	if ((col = decl_col(cur, name, d->lang, why)) < 0) {
		free(cur);
		return -1;
	}
	spec(s, d, sp, sizeof(sp));
	add_comment(s, f, pos->line, cur, p, d->lang, extra, name);
	set_text(f, pos->line, insert_at(cur, (size_t)col, sp));
	snprintf(what, sizeof(what), "align %s to %u bytes (%.*s)", name, s->o.align,
		 (int)strlen(sp) - 1, sp);
	change_note(s, f, pos, what);
	free(cur);
	return 0;
}

static int pos_cmp(const struct fix_pos *a, const struct fix_pos *b)
{
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* The groups in the order of their declarations, so that the first change in a file is the
 * one whose comment names the finding in full. An insertion sort: there are a few. */
static void sort_groups(size_t *ord, size_t n, const struct fix_pos *grp)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && pos_cmp(&grp[ord[j - 1]], &grp[ord[j]]) > 0; j--) {
			size_t t = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
}

static int fix_groups(struct fix_set *s, const struct fix_plan *p, const struct fix_decl *d,
		      const char **why)
{
	char name[160];
	int done = 0;

	if (d->lang == FIX_LANG_RUST) {
		*why = "Rust aligns types, not members: wrap each thread's member in a "
		       "#[repr(align(64))] struct (crossbeam's CachePadded)";
		return -1;
	}
	size_t ord[FIX_MAX_GROUPS];

	for (size_t i = 0; i < p->nr; i++)
		ord[i] = i;
	sort_groups(ord, p->nr, d->grp);
	for (size_t k = 0; k < p->nr; k++) {
		size_t i = ord[k];
		const struct fix_pos *pos = &d->grp[i];

		if (p->kind == FIX_VARIABLES)
			snprintf(name, sizeof(name), "%s", p->g[i].name);
		else
			last_name(p->g[i].name, name, sizeof(name));
		if (!align_decl(s, p, d, pos, name, NULL, why))
			done = 1;
		else if (k + 1 < p->nr || done)   /* the others may still be aligned */
			note(s, 1, "%s: not aligned: %s", name, *why);
	}
	return done ? 0 : -1;
}

/* "slot" of "struct slot", NULL for a type without a keyword. */
static const char *tag_of(const char *type)
{
	static const char *const kw[] = { "struct ", "class ", "union ", NULL };

	for (int i = 0; type && kw[i]; i++)
		if (!strncmp(type, kw[i], strlen(kw[i])))
			return type + strlen(kw[i]);
	return NULL;
}

/* C++ `struct alignas(N) TAG` or Rust's #[repr(align(N))] on the type's own line. */
static int align_type(struct fix_set *s, const struct fix_plan *p, const struct fix_decl *d,
		      const char *extra, const char **why)
{
	struct fix_file *f = file_of(s, &d->type, why);
	const char *tag = tag_of(d->type_name), *kw;
	char *cur, buf[400];

	if (!f)
		return -1;
	if (!(cur = line_now(f, d->type.line)) || !tag ||
	    !(kw = strstr(cur, d->lang == FIX_LANG_RUST ? "struct " : d->type_name))) {
		free(cur);
		*why = "the type's declaration line does not name it";
		return -1;
	}
	add_comment(s, f, d->type.line, cur, p, d->lang, extra, NULL);
	if (d->lang == FIX_LANG_RUST) {
		snprintf(buf, sizeof(buf), "#[repr(align(%u))]", s->o.align);
		add_above(f, d->type.line, cur, buf);
	} else {
		snprintf(buf, sizeof(buf), "alignas(%u) ", s->o.align);
		set_text(f, d->type.line, insert_at(cur, (size_t)(kw - cur) + (size_t)(tag -
			 d->type_name), buf));
	}
	snprintf(buf, sizeof(buf), "align %s to %u bytes (%s)", d->type_name, s->o.align,
		 d->lang == FIX_LANG_RUST ? "#[repr(align)]" : "alignas");
	change_note(s, f, &d->type, buf);
	free(cur);
	return 0;
}

/* A heap array's one malloc() of its element type in the type's file becomes aligned_alloc();
 * 0 when changed. */
static int align_alloc(struct fix_set *s, const struct fix_decl *d)
{
	struct fix_file *f = get_file(s, d->type.file);
	uint32_t hit = 0, nr = 0, line = 1;
	const char *name = d->type_name, *p;
	char buf[64], *cur;

	if (!f || !name)
		return -1;
	for (p = f->text; p && *p; line++) {
		const char *e = strchr(p, '\n'), *m = strstr(p, "malloc(");
		const char *t = strstr(p, name);

		if (m && t && (!e || (m < e && t < e))) {
			hit = line;
			nr++;
		}
		p = e ? e + 1 : NULL;
	}
	if (nr != 1 || !(cur = line_now(f, hit)))
		return -1;
	if (!(p = strstr(cur, "malloc("))) {
		free(cur);
		return -1;
	}
	snprintf(buf, sizeof(buf), "aligned_alloc(%u, ", s->o.align);
	{
		struct fix_buf b = {0};

		fix_buf_add(&b, "%.*s%s%s", (int)(p - cur), cur, buf, p + strlen("malloc("));
		set_text(f, hit, b.p);
	}
	change_note(s, f, &(struct fix_pos){ d->type.file, hit }, "allocate with aligned_alloc()");
	free(cur);
	return 0;
}

static int fix_elements(struct fix_set *s, const struct fix_plan *p, const struct fix_decl *d,
			const char **why)
{
	static char buf[256];
	const char *extra = NULL;
	int heap = !d->var.file;

	if (!d->type.file) {
		snprintf(buf, sizeof(buf), "its elements are %s: make each one a struct aligned to "
			 "the line", d->type_name ? d->type_name : "scalars");
		*why = buf;
		return -1;
	}
	if (heap && !file_of(s, &d->type, why))
		return -1;
	if (heap && align_alloc(s, d))
		extra = "; the array is allocated: allocate it with aligned_alloc() too";
	if (d->lang == FIX_LANG_RUST || (d->lang == FIX_LANG_CXX && tag_of(d->type_name)))
		return align_type(s, p, d, extra, why);
	if (!d->first_name) {
		*why = "its type has no member to align";
		return -1;
	}
	return align_decl(s, p, d, &d->first, d->first_name, extra, why);
}

int fix_add(struct fix_set *s, const struct fix_plan *p, const struct fix_decl *d)
{
	const char *obj = p->f && p->f->object ? p->f->object : "?", *why = p->reason;
	char buf[160];
	int rc = -1;

	if (p->kind != FIX_NONE && !d)
		why = "the debug info does not declare it";
	else if (p->kind != FIX_NONE && d->lang == FIX_LANG_OTHER) {
		snprintf(buf, sizeof(buf), "no patch for %s code", d->lang_name ? d->lang_name :
			 "this language's");
		why = buf;
	} else if (p->kind == FIX_ELEMENTS)
		rc = fix_elements(s, p, d, &why);
	else if (p->kind != FIX_NONE)
		rc = fix_groups(s, p, d, &why);
	if (!rc)
		return 0;
	note(s, 1, "%s: no patch: %s", obj, why ? why : "nothing to change");
	return -ENOENT;
}

static int edit_cmp(const void *a, const void *b)
{
	const struct fix_line_edit *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fix_file *)a)->rel, ((const struct fix_file *)b)->rel);
}

char *fix_diff(const struct fix_set *s)
{
	struct fix_buf b = {0};

	fix_buf_add(&b, "%s", "");
	if (s->nr_file)   /* qsort takes no NULL, even for nothing */
		qsort(s->file, s->nr_file, sizeof(*s->file), file_cmp);
	for (size_t i = 0; i < s->nr_file; i++) {
		struct fix_file *f = &s->file[i];

		if (f->nr)
			qsort(f->e, f->nr, sizeof(*f->e), edit_cmp);
		fix_udiff(&b, f->rel, f->text, f->e, f->nr);
	}
	return b.p;
}

void fix_free(struct fix_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_file; i++) {
		for (size_t k = 0; k < s->file[i].nr; k++) {
			free(s->file[i].e[k].before);
			free(s->file[i].e[k].text);
		}
		free(s->file[i].e);
		free(s->file[i].path);
	}
	for (size_t i = 0; i < s->nr_note; i++)
		free(s->note[i]);
	free(s->note);
	free(s->refused);
	free(s->file);
	free(s);
}
