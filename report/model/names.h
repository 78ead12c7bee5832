/* names: what data a cacheline holds and what each row touches, for every backend alike.
 *
 * A data address is named by, in order: the kernel's symbols for kernel memory; the static
 * variable of a file mapping (ELF and DWARF, sym_data()), a .bss tail the kernel mapped
 * anonymously right after its file included; for heap, stack and anonymous memory, the type the
 * row's instruction accesses through a typed pointer (data-type profiling, sym_data_type_back());
 * else what the memory is: "heap of pid N", "stack of tid N", a shared mapping's name, or
 * "[unknown]" (with the reason when verbose). */
#ifndef C2C_REPORT_MODEL_NAMES_H
#define C2C_REPORT_MODEL_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "report/resolve/maps.h"
#include "report/resolve/symbols.h"

/* Where a data address lies, as its line and its row know it. */
struct rm_where {
	uint8_t cpumode;                  /* of the line's samples */
	const struct maps_map *dmap;      /* the line's data map, NULL: none */
	int32_t key_pid;                  /* pid of private anonymous memory (perf's key), else 0 */
	const struct maps_thread *thread; /* a thread that touched the line, or NULL */
	int brk_heap;                     /* dmap is the brk heap though named "//anon"
					   * (maps_is_brk_heap()) */
	/* the row's code: names memory no symbol covers through its instruction (cmap NULL: no row) */
	const struct maps_map *cmap;
	uint64_t ip;
	unsigned int back;                /* soft: the access is this many instructions before ip */
	uint8_t code_cpumode;
};

#define RM_NAME_BY_CODE 1

/* Resolve @addr: 0 (or RM_NAME_BY_CODE when the row's instruction named memory no symbol
 * covers) with out->var set, else -ENOENT with out->reason. */
int rm_name_data(struct sym_session *s, const struct maps *maps, const struct rm_where *w,
		 uint64_t addr, struct sym_data_info *out);

/* Gathers the names of a line: its start and its rows, for the line's heading. */
struct rm_what {
	char vars[256];          /* "buf1 (struct _buf, 64 bytes), ..." (up to three variables) */
	char object[160];        /* the first variable: the data object ("buf1", "*c") */
	int nr_vars, by_code;
	const char *reason;      /* why the line's start is unknown */
};

void rm_what_init(struct rm_what *w);
/* Add the result @rc, @d of rm_name_data() for the line's start or one of its rows. */
void rm_what_add(struct rm_what *w, int rc, const struct sym_data_info *d);
/* The heading: "buf1 (struct _buf, 64 bytes)", "heap of pid 12: *c (struct counters, 64 bytes)"
 * (memory typed by code: what it is, then the types), "heap of pid 12", "[unknown]". */
void rm_what_text(const struct rm_what *w, const struct rm_where *line, int verbose, char *buf,
		  size_t n);
/* The data object of the heading: the first variable ("buf1"), or for memory typed by code what
 * it is and the pointer ("heap of pid 12: *c") or the variable the code reached by its address
 * ("stack of tid 7: sum", the same for every line of it). -ENOENT when no variable names the
 * line (then the line is an object of its own). */
int rm_what_object(const struct rm_what *w, const struct rm_where *line, char *buf, size_t n);

/* What a row touches: the member path ("buf1.lock0", "q.head (+8)", "c->hits"), "[type
 * unknown]" (the reason when verbose), or what the memory is ("heap of pid 12"). @rc and @d from
 * rm_name_data(). */
void rm_row_text(int rc, const struct sym_data_info *d, const struct rm_where *w, int verbose,
		 char *buf, size_t n);

/* The member without " (+N)": the bytes of one scalar are one member ("q.head"). */
void rm_member_name(const struct sym_data_info *d, char *buf, size_t n);

/* ELEMENTS. The code may not tell which element of an array it accesses: the resolver names it
 * "sum[]", "memory[]", "arg->blue[].x" and says how big one element is (sym_data_info.elem_*).
 * Rows of one object and member at different addresses are then different elements, told apart
 * by their addresses: the lowest element seen is element i, the next ones i+1, i+2 (or 0, 1, 2
 * when the elements seen span the whole array, whose first element is then the lowest). */
struct rm_elem {
	const char *object;      /* the row's data object (rm_what_object() of its line) */
	const char *member;      /* the member with its "[]" (rm_member_name()) */
	uint64_t addr;           /* the byte accessed */
	uint64_t size, off, count;   /* sym_data_info.elem_size, elem_off, elem_count */
	int64_t index;           /* out: the element's index from the lowest one of its group */
	int absolute;            /* out: ... which is the array's first */
};

/* Index the elements @e of every group of one object, member and element size. */
void rm_elem_index(struct rm_elem *e, size_t n);
/* @text ("sum[]", "p->y[].x (+2)") with the index of @e in its "[]": "sum[2]", "p->y[i+1].x
 * (+2)"; with several "[]" the element is appended: "sum[][] (element i+1)". */
void rm_elem_text(const struct rm_elem *e, const char *text, char *buf, size_t n);

/* ALIASES. The code may reach one object through several pointers ("*test" in main, "*this" in
 * the method it calls): the same bytes (the same start and size) of the same type are one
 * object, named after the first variable seen for them, so that a line lists it once and the
 * findings group its lines as one. The rows keep the code's own paths ("this->iters_"). */
struct rm_alias {
	uint64_t base, size;     /* the object's first byte and size */
	const char *type, *var;  /* as sym_data_info has them (the session's strings) */
};

struct rm_aliases {
	struct rm_alias *slot;   /* open addressing, a power of two of them */
	size_t nr, cap;
};

/* The variable that names the object @d at @addr describes: the first one seen for the same
 * bytes and type, else d->var (now that object's name). An access whose offset inside the
 * object is unknown ("*p (+?)") or an object without a type or size keeps d->var. */
const char *rm_alias_var(struct rm_aliases *al, uint64_t addr, const struct sym_data_info *d);
void rm_aliases_free(struct rm_aliases *al);

/* What memory that no variable names is: "heap of pid N" (the brk heap however it was named),
 * "stack of tid N", "anon", a shared mapping's name, or "[unknown]" (with @reason when
 * verbose). */
void rm_memory_text(const struct rm_where *w, const char *reason, int verbose, char *buf,
		    size_t n);

#endif
