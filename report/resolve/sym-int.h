/* Internals of the symbols session (report/resolve/symbols.h), shared by symbols.c (session, strings,
 * caches), sym-file.c (finding and loading ELF files), sym-code.c (functions, lines, inline
 * frames), sym-data.c (variables and member paths), sym-type*.c (types of accesses, from the
 * instruction) and sym-kernel.c (kallsyms, vmlinux).
 * Nothing here is visible outside report/resolve/sym-*.c and report/resolve/symbols.c. */
#ifndef C2C_REPORT_SYM_INT_H
#define C2C_REPORT_SYM_INT_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

#include "report/resolve/symbols.h"

/* An interning string pool: equal strings share one copy owned by the session. */
struct sym_strpool {
	char **slot;
	size_t cap, nr;
};

const char *sym_str(struct sym_strpool *p, const char *s);
void sym_strpool_release(struct sym_strpool *p);

/* Address-keyed cache of results: open addressing, keys are ELF virtual addresses. */
struct sym_cache_ent {
	uint64_t key;
	int rc;
	int used;
	union {
		struct sym_code_info code;
		struct sym_data_info data;
	};
};

struct sym_cache_slot {
	uint64_t key;
	uint32_t idx;         /* into ent[], 0: empty (ent[0] is unused) */
};

/* Probing touches only the compact slot array; the results live densely in ent[]. */
struct sym_cache {
	struct sym_cache_slot *slot;
	size_t cap;
	struct sym_cache_ent *ent;
	size_t nr, cap_ent;
};

/* The entry of @key: ->used is 0 when it is new (fill it, then set used = 1 and call
 * sym_cache_added()). The pointer is valid until the next sym_cache_slot() on @c. */
struct sym_cache_ent *sym_cache_slot(struct sym_cache *c, uint64_t key);
void sym_cache_added(struct sym_cache *c);
void sym_cache_release(struct sym_cache *c);

/* One PT_LOAD segment. */
struct sym_seg {
	uint64_t vaddr, memsz, offset, filesz;
	uint32_t flags;  /* PF_R | PF_W | PF_X */
};

/* A global or static variable: from DWARF (die valid) or only from the ELF symbol table. */
struct sym_var {
	uint64_t addr, size;
	const char *name;     /* pool string */
	int has_die;
	Dwarf_Die die;        /* the DW_TAG_variable */
};

/* A function symbol (ELF vaddr), for binary search. */
struct sym_fn {
	uint64_t addr, size;
	uint64_t end;         /* addr + size; for size 0 the next symbol's start, as perf */
	const char *name;     /* pool string */
	int rank;             /* lower is preferred among aliases */
	uint32_t idx;         /* index in the symbol table: the earlier alias wins a tie, as in perf */
};

/* One ELF file as used for symbolization, keyed by (path, build-id). */
struct sym_file {
	char *name;           /* the mapping's file name */
	uint8_t id[TRACE_BUILD_ID_MAX];  /* the mapping's build-id (the key with name) */
	size_t nid;
	char *path;           /* the file actually opened (after symfs, build-id search) */
	int rc;               /* 0 usable, else -ENOENT with reason */
	const char *reason;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;      /* dwfl address = ELF vaddr + bias */
	int fd;
	int e_type;
	int has_symtab;       /* the main file has .symtab (not only .dynsym) */
	int debug_only;       /* a separate debug file: PT_LOAD file offsets are not the original's */
	struct sym_seg *seg;
	size_t nr_seg;
	int dwarf_tried;
	Dwarf *dw;            /* NULL when there is no debug info */
	Dwarf_Addr dw_bias;
	int vars_built;
	struct sym_var *var;
	size_t nr_var, cap_var;
	int fns_built;
	/* PLT entries named "func@plt" as perf 6.1 makes them up (sym-code.c): entry k starts at
	 * plt_first + k * plt_entsz and calls the function of .rela.plt's k-th relocation */
	uint64_t plt_first, plt_entsz;
	const char **plt_name;  /* pool strings */
	size_t nr_plt;
	/* perf's tree of symbols, replayed (sym-code.c), answers for addresses in the .plt*
	 * sections [plt_lo, plt_hi) and up to the end of a size-0 symbol perf stretched over them,
	 * where perf's answer depends on the tree's shape */
	struct sym_rbn *rbn;
	int rb_root;
	uint64_t plt_lo, plt_hi, plt_delta;  /* plt_delta: ELF vaddr - file offset there */
	struct sym_fn *fn;
	size_t nr_fn, cap_fn;
	/* the symbol table as binutils' addr2line sees it (sym-code.c), for perf's Source:Line */
	struct sym_a2l *a2l;
	size_t nr_a2l;
	struct sym_a2l_sec *a2l_sec;
	size_t nr_a2l_sec;
	struct sym_cache code, data;
	struct sym_cu_index **cuidx;  /* sym-inline.c */
	size_t nr_cuidx, cap_cuidx;
};

struct sym_ksym {
	uint64_t addr;
	const char *name;     /* pool string ("name [module]" for module symbols) */
	char type;            /* kallsyms type letter */
	uint32_t seq;         /* line number: aliases keep the file's order */
};

struct sym_session {
	struct sym_opts opts;
	char *symfs, *vmlinux_path, *debuginfo_dirs;
	char *debuginfo_path; /* for libdwfl's standard find_debuginfo */
	Dwfl_Callbacks cb;
	struct sym_strpool str;
	struct sym_file **file;
	size_t nr_file, cap_file;
	struct sym_file *last;  /* the file of the previous lookup */
	char **warned;        /* file names already warned about (build-id mismatch) */
	int vdso_fd;          /* memfd holding this process's vdso: 0 not looked at, -1 none */
	int vdso_here;        /* the trace was recorded on this kernel (opts.kernel_release) */
	uint8_t vdso_id[TRACE_BUILD_ID_MAX];
	size_t vdso_nid;
	size_t nr_warned, cap_warned;
	/* kernel */
	int ksyms_loaded;
	struct sym_ksym *ksym;
	size_t nr_ksym, cap_ksym;
	char *kallsyms_text;
	size_t kallsyms_len;
	struct sym_file *vmlinux;
	int64_t kaslr;        /* runtime - vmlinux address */
	struct sym_cache kcode, kdata;
	struct sym_type_ctx *type;  /* sym-type.c: disassemblers and per-file caches, or NULL */
	void (*type_free)(struct sym_session *s);  /* frees ->type; a pointer, so that programs
						    * not calling sym_data_type() need no capstone */
};

/* sym-file.c */
struct sym_file *sym_file_get(struct sym_session *s, const struct trace_mmap *map);
/* perf's build-id equality: @rec is the recorded id (20 bytes may be a zero-padded shorter id),
 * @file the id of a file on disk. */
int sym_build_id_equal(const uint8_t *rec, size_t nrec, const uint8_t *file, size_t nfile);
struct sym_file *sym_file_open_path(struct sym_session *s, const char *name, const char *path);
/* The ELF vaddr of runtime @addr in @map; 0 and *vaddr on success, -ERANGE if outside the
 * image. */
int sym_file_vaddr(const struct sym_file *f, const struct trace_mmap *map, uint64_t addr,
		   uint64_t *vaddr);
/* Load DWARF once; 0 when there is debug info. */
int sym_file_dwarf(struct sym_file *f);
void sym_file_free(struct sym_file *f);

/* sym-code.c: resolve an ELF vaddr of @f. */
int sym_code_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		   struct sym_code_info *out);

/* sym-code.c: perf's map__find_symbol() at an ELF vaddr of @f (sym_symbol()). */
int sym_symbol_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		     struct sym_code_info *out);

/* sym-demangle.c: the name perf 6.1 shows for ELF symbol @name (libiberty's cplus_demangle();
 * with @params the parameter list and qualifiers too, as perf -v), malloc'd; NULL when @name is
 * not mangled or the build has no libiberty (sym_demangle_available() is then 0). */
char *sym_demangle(const char *name, int params);
int sym_demangle_available(void);

/* sym-inline.c: the innermost DW_TAG_inlined_subroutine of @cu covering CU address @a. */
int sym_inline_find(struct sym_file *f, Dwarf_Die *cu, Dwarf_Addr a, Dwarf_Die *out);
/* The inlined subroutines at @a, innermost first (each nested in the next), at most @max. */
size_t sym_inline_chain(struct sym_file *f, Dwarf_Die *cu, Dwarf_Addr a, Dwarf_Die *out, size_t max);
void sym_inline_release(struct sym_file *f);

/* sym-data.c */
int sym_data_vaddr(struct sym_session *s, struct sym_file *f, uint64_t vaddr,
		   struct sym_data_info *out);
/* Types, shared with sym-type*.c. sym_die_type: the DW_AT_type of @die (through
 * DW_AT_abstract_origin), 0 or -1. sym_type_peel: @t through typedefs and qualifiers.
 * sym_type_size: bytes, 0 when unknown. sym_type_name: "struct _buf", "long int *".
 * sym_type_path: append the member path of byte @off in @t (".a.b[3] (+2)"); with
 * @index_scale != 0 (the bytes accessed are off + k * index_scale for an unknown k) the first
 * array whose stride divides index_scale, the step shorter than the array, is printed "[]"
 * (down to the dimension of that stride) and the return value is 1, @el (when not NULL) then
 * saying which elements "[]" counts; 0 when no array takes the step (the byte is then
 * unknown). Column-major arrays (DW_AT_ordering, Fortran) are indexed in source order. */
struct sym_elem {
	uint64_t stride;      /* bytes of the elements "[]" counts (its innermost dimension) */
	uint64_t off;         /* the byte inside that element */
	uint64_t count;       /* how many there are (the opened dimensions'), 0: unknown */
	int dims;             /* dimensions printed "[]" */
};
int sym_die_type(Dwarf_Die *die, Dwarf_Die *type);
int sym_type_peel(Dwarf_Die *t);
uint64_t sym_type_size(Dwarf_Die *t);
struct sym_buf;
void sym_type_name(Dwarf_Die *t, struct sym_buf *b);
/* The source language of the unit that holds @d. */
enum sym_lang sym_die_lang(Dwarf_Die *d);
int sym_type_path(Dwarf_Die *t, uint64_t off, uint64_t index_scale, struct sym_buf *b,
		  struct sym_elem *el);
/* @d (a function or type DIE, or an inlined call, by its abstract origin) is the standard
 * library's: in C++'s namespace std or __gnu_cxx, Rust's core, alloc or std, a Go package of
 * the standard library ("sync/atomic.(*Int64).Add", "runtime.lock"). */
int sym_die_library(Dwarf_Die *d);
/* sym_type_path() marks where the path enters a lock (a pthread_mutex_t, a std::mutex: its
 * bytes are one unit) with this byte, once; sym_path_lock() removes it from @path and returns
 * where it was, or -1. */
#define SYM_PATH_LOCK '\x01'
int sym_path_lock(char *path);
/* The scalar or pointer type (peeled) that starts exactly at byte @off of @t: 0, else -1. */
int sym_type_at(Dwarf_Die *t, uint64_t off, Dwarf_Die *out);
/* The variable holding ELF @vaddr of @f (DWARF ones first), NULL: none; built once per file. */
const struct sym_var *sym_var_at(struct sym_session *s, struct sym_file *f, uint64_t vaddr);
/* The DWARF type of the static variable holding ELF @vaddr, *off bytes into it: 0, else
 * -ENOENT. */
int sym_data_die(struct sym_session *s, struct sym_file *f, uint64_t vaddr, Dwarf_Die *type,
		 uint64_t *off);

/* symbols.c: the file and ELF address of @addr in @map: 0, or -ENOENT/-errno with *reason. */
int sym_locate(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	       struct sym_file **fp, uint64_t *vaddr, const char **reason);

/* Append helpers for building strings. */
struct sym_buf {
	char *p;
	size_t len, cap;
};
void sym_buf_add(struct sym_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
