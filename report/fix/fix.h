/* fix: the findings' false sharing as a source patch (`c2c-lite fix`). For each false-sharing
 * finding the plan (fix_plan(), from the model alone) says what to separate: the members of one
 * struct that different threads write (one group per thread, in offset order), the elements of
 * an array, or adjacent variables. The caller looks the declarations up in the debug info
 * (report/resolve/symbols.h, sym_decl()) and hands them in as a struct fix_decl; fix_add() then
 * edits the declaration lines of the source text it reads through fix_opts.read:
 *   members    the first member of each group gets the line's alignment before its type: C11
 *              _Alignas(N), C++ alignas(N), GCC's __attribute__((aligned(N))) for C89/C99 and
 *              C++98/03 units;
 *   elements   the element type: C aligns its first member (which aligns the type), C++ writes
 *              struct alignas(N) TAG, Rust puts #[repr(align(N))] above it; a malloc'ed array
 *              needs aligned memory too: the one malloc() of the type in the same file becomes
 *              aligned_alloc(N, ...), else the comment says so;
 *   variables  each variable written by its own thread is aligned like a member.
 * Every changed place gets a comment line naming the finding (object, threads, share). Nothing is
 * changed, with a one-line reason instead, for true sharing, Go and other languages, Rust members,
 * declarations outside the source root (system headers, libraries) and lines the editor does not
 * understand (several declarators, a declaration over several lines).
 * fix_diff() writes every edit as one unified diff (a/REL b/REL, 3 lines of context, hunks merged
 * when they touch) that patch -p1 and git apply take.
 *
 * Pure: no file is opened here (the caller's read callback gives the text); strings of the plan
 * borrow the model's. */
#ifndef C2C_REPORT_FIX_FIX_H
#define C2C_REPORT_FIX_FIX_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/findings.h"

#define FIX_MAX_GROUPS 16

enum fix_kind {
	FIX_NONE,                /* nothing to change: reason says why */
	FIX_MEMBERS,             /* members of one struct, by the thread that writes them */
	FIX_ELEMENTS,            /* elements of an array */
	FIX_VARIABLES,           /* adjacent variables */
};

/* One thread's part: its first member (or variable) and the row that names it. */
struct fix_group {
	const char *name;        /* member path ("buf1.b", "c->misses") or variable ("count_b") */
	const struct rm_row *row;   /* a row of it: its data address and code, for the lookup */
	char threads[96];        /* who writes it: "fs/101" */
};

struct fix_plan {
	const struct rm_finding *f;
	enum fix_kind kind;
	const char *reason;      /* FIX_NONE: why */
	const struct rm_row *row;   /* the object's costliest row (the lookup of its declaration) */
	struct fix_group g[FIX_MAX_GROUPS];
	size_t nr;
	char comment[384];       /* "false sharing of buf1 (struct pair) by fs/101 (buf1.a), fs/102
				  * (buf1.b): 99.12% of sampled time" */
};

/* What to change for finding @f of @m. Always fills @out; kind FIX_NONE with a reason when
 * nothing is to be changed (true sharing, a verdict other than false sharing, one thread). */
void fix_plan(const struct rm_model *m, const struct rm_finding *f, struct fix_plan *out);

enum fix_lang { FIX_LANG_C, FIX_LANG_CXX, FIX_LANG_RUST, FIX_LANG_OTHER };

struct fix_pos {
	const char *file;        /* absolute path, NULL: unknown */
	uint32_t line;           /* 1-based */
};

/* The debug info's word on a planned object (symbols.h: struct sym_decl, sym_decl_member()). */
struct fix_decl {
	enum fix_lang lang;
	const char *lang_name;   /* for the reason of FIX_LANG_OTHER: "Go" */
	int old_std;             /* the unit predates _Alignas / alignas */
	struct fix_pos var;      /* the variable; file NULL: heap or memory typed by code */
	struct fix_pos type;     /* the (element) struct; file NULL: a scalar or unknown */
	struct fix_pos first;    /* its first member ... */
	const char *first_name;  /* ... named so, NULL: none */
	const char *type_name;   /* "struct slot" */
	const char *var_name;    /* NULL: none */
	struct fix_pos grp[FIX_MAX_GROUPS];   /* FIX_MEMBERS: each group's member; FIX_VARIABLES:
					       * each group's variable */
};

struct fix_opts {
	const char *root;        /* the source root, absolute without a trailing '/' */
	uint32_t align;          /* the line size: 64, 128 */
	/* the text of @path (absolute), NUL-terminated, NULL when it cannot be read; the callee
	 * keeps it alive until fix_free() */
	const char *(*read)(void *ctx, const char *path);
	void *ctx;
};

struct fix_set;

struct fix_set *fix_new(const struct fix_opts *o);
/* Edit for plan @p with declarations @d (NULL for FIX_NONE or when the lookup found nothing).
 * 0 when edits were made, else -ENOENT with the reason as the last note. */
int fix_add(struct fix_set *s, const struct fix_plan *p, const struct fix_decl *d);
/* One line per change or refusal, in the order made: "false_sharing.c:20: align buf1.b to 64
 * bytes (_Alignas)", "buf1: no patch: true sharing (...)". */
size_t fix_nr_notes(const struct fix_set *s);
/* Note @i; *@refused (when not NULL) says whether it is a reason for no patch. */
const char *fix_note(const struct fix_set *s, size_t i, int *refused);
/* The unified diff of every edit, malloc'd ("" when none). */
char *fix_diff(const struct fix_set *s);
void fix_free(struct fix_set *s);

/* UNIFIED DIFF of one file: @old, and edits of whole lines: line @line (1-based) is replaced by
 * @text (NULL: kept) after the lines @before (NULL: none; each line ends in '\n'). Appends the
 * file's hunks ("--- a/REL", "+++ b/REL", "@@ ... @@") to @out, 3 lines of context, hunks that
 * would overlap or touch merged. */
struct fix_line_edit {
	uint32_t line;
	char *before;
	char *text;
};
struct fix_buf {
	char *p;
	size_t len, cap;
};
void fix_buf_add(struct fix_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fix_udiff(struct fix_buf *out, const char *rel, const char *old,
	       const struct fix_line_edit *e, size_t n);

#endif
