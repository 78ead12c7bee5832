/* Symbols: code and data addresses to function, source line, variable and struct member.
 *
 * A sym_session resolves addresses inside mapped ELF files (through libdwfl/libdw/libelf) and
 * kernel addresses (kallsyms snapshot from the trace, /proc/kallsyms, or a vmlinux). Callers pass
 * the mapping that contains the address (struct trace_mmap: file name, start, pgoff, prot,
 * build-id), so the session needs no process model of its own. Each distinct (file, address) is
 * resolved once and cached (about 4 us for a first lookup with DWARF, 0.15 us for a repeat).
 *
 * Finding files: a mapping's file is looked for under opts.symfs first, then at its own path.
 * When the mapping carries a build-id the file must have the same one; if it does not, the
 * session warns once per file name (c2c_warn) and searches DIR/.build-id/xx/rest and
 * DIR/.build-id/xx/rest.debug under opts.debuginfo_dirs, symfs/usr/lib/debug and /usr/lib/debug,
 * then debuginfod (through libdwfl) when DEBUGINFOD_URLS is set; it never falls back to the wrong
 * file. Separate debug info of a found file comes the way elfutils finds it (.gnu_debuglink next
 * to the file or in .debug/, the .build-id trees above, debuginfod). A file named
 * "X (deleted)" is used only when X is on disk with the recorded build-id.
 *
 * Address translation: runtime address -> file offset (address - start + pgoff) -> ELF virtual
 * address through the PT_LOAD segment holding that offset, so PIE, non-PIE, shared libraries and
 * mappings with pgoff != 0 all work. An address past the file-backed part of a mapping (.bss)
 * translates with the load bias of the mapping's segment (see sym_map_covers()).
 *
 * Ownership: every string in a sym_code_info / sym_data_info is owned by the session and stays
 * valid until sym_session_free(); equal strings are the same pointer. Errors: functions return 0
 * when something was found (reason may still say what is missing, e.g. "no debug info"),
 * -ENOENT when nothing was (the info then holds the reason, for -v: "file not found",
 * "no symbol table", "no debug info", "build-id mismatch", "deleted file", "anonymous memory",
 * "thread stack", "heap", "vdso (not on disk)", "not an ELF file", "no symbol at address",
 * "no variable at address", "address outside the file's segments"), -EINVAL on misuse.
 * PLT entries are named "func@plt" as perf 6.1 names them (report/sym-code.c).
 * A session is not thread-safe: use one per thread. */
#ifndef C2C_REPORT_SYMBOLS_H
#define C2C_REPORT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"

struct sym_session;

struct sym_opts {
	const char *symfs;      /* --symfs DIR: look for files under this root first */
	const char *vmlinux;    /* -k/--vmlinux FILE */
	int use_proc_kallsyms;  /* fall back to /proc/kallsyms for kernel addresses */
	int no_inline;          /* skip inline-frame lookup */
	const char *debuginfo_dirs; /* extra ':'-separated roots searched like /usr/lib/debug
				     * (DIR/.build-id/xx/rest.debug, DIR/<file's dir>/<debuglink>),
				     * before the system ones; NULL: none */
};

/* The line: srcfile/line is the DWARF line-table row of the address, i.e. the innermost source
 * location: for inlined code, the line inside the inlined function's body. That is what
 * `addr2line -i` prints first and what perf 6.1 shows in its Source:Line column (as
 * basename(srcfile):line; perf 6.1 here runs addr2line). inline_fn is the innermost inlined
 * function covering the address, call_file/call_line where it was inlined (a line of the function
 * it was inlined into, which may itself be inlined), i.e. addr2line -i's second location. symbol is
 * the ELF symbol (the out-of-line function, as in perf's Symbol column), chosen among aliases as
 * perf does; when the symbol table has nothing, the DWARF function. srcfile is made absolute
 * with the CU's directory when DWARF gives it relative. binutils 2.40's addr2line sometimes names
 * the CU's main file instead of an included one for DWARF 5 rows of system libraries (with the
 * same line); we follow the line table, as gdb and libdw do. */
struct sym_code_info {
	const char *symbol;     /* function name, NULL when unknown */
	uint64_t sym_offset;    /* address - symbol start */
	const char *srcfile;    /* source file path (absolute when DWARF allows), NULL when unknown */
	uint32_t line;
	const char *inline_fn;  /* innermost inlined function at the address, or NULL */
	const char *call_file;  /* its call site */
	uint32_t call_line;
	const char *reason;     /* why something is unknown (shown under -v), or NULL */
};

/* member is the variable's name followed by the path to the byte: ".field" for struct/union
 * members (anonymous ones are skipped over), "[i]" per array dimension, then " (+N)" when the
 * byte is N bytes into a scalar member, or " (padding +N)" when it is padding, N counted from the
 * start of the innermost struct that holds it: "buf1.lock0", "stats[3].hits", "q.head (+8)",
 * "q (padding +33)", "grid[2][4]". Without DWARF: "name" or "name (+N)", type NULL and reason
 * "no debug info". Function-local statics are named by their C name ("counter"). For the
 * cacheline heading: "%s (%s, %llu bytes)", var, type, var_size. */
struct sym_data_info {
	const char *var;        /* variable or ELF data symbol name, NULL when unknown */
	const char *type;       /* its type as C spells it ("struct _buf"), NULL when unknown */
	uint64_t var_size;      /* bytes */
	uint64_t var_offset;    /* address - variable start */
	const char *member;     /* path inside the type: "buf1.lock0", "stats[3].hits", "q.head (+8)" */
	const char *reason;
};

int sym_session_new(struct sym_session **out, const struct sym_opts *opts);
/* Give the session the kallsyms text recorded in a trace (copied). */
void sym_session_add_kallsyms(struct sym_session *s, const void *text, size_t len);
/* @ip lies in @map (a user-space mapping). Mappings that are no file (sym_map_kind() other than
 * SYM_MAP_FILE/SYM_MAP_DELETED) give -ENOENT with the kind as reason. */
int sym_code(struct sym_session *s, const struct trace_mmap *map, uint64_t ip,
	     struct sym_code_info *out);
/* A kernel code address: the vmlinux when given (shifted by the KASLR offset measured on _stext
 * when kallsyms is known too), else kallsyms (symbol + offset; a symbol ends where the next one
 * starts; the nearest symbol below must be a text one). */
int sym_kernel_code(struct sym_session *s, uint64_t ip, struct sym_code_info *out);
/* @addr lies in @map (or in the .bss past it, see sym_map_covers()): static/global data through
 * ELF (STT_OBJECT) and DWARF (DW_TAG_variable at DW_OP_addr). */
int sym_data(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	     struct sym_data_info *out);
/* A kernel data address: DWARF of the vmlinux when given, else kallsyms data symbols (types
 * d D b B r R v V g G s S; var_size is the distance to the next symbol). */
int sym_kernel_data(struct sym_session *s, uint64_t addr, struct sym_data_info *out);
void sym_session_free(struct sym_session *s);

/* What a mapping's file name says about the memory behind it. */
enum sym_map_kind {
	SYM_MAP_FILE = 0,       /* a file on disk (may still be missing or changed) */
	SYM_MAP_STACK,          /* [stack], [stack:TID] */
	SYM_MAP_HEAP,           /* [heap] */
	SYM_MAP_ANON,           /* //anon, [anon:...], /anon_hugepage, /dev/zero, /SYSV..., memfd:,
				 * an empty name: anonymous memory, JIT code included */
	SYM_MAP_VDSO,           /* [vdso], [vvar], [vsyscall] */
	SYM_MAP_DELETED,        /* a file name ending in " (deleted)" */
};

enum sym_map_kind sym_map_kind(const char *filename);
/* "file", "stack", "heap", "anon", "[vdso]", "deleted". */
const char *sym_map_kind_name(enum sym_map_kind k);
/* 1 when runtime @addr lies in the loaded image of @map's file (any PT_LOAD segment, .bss
 * included), 0 when not or when the file cannot be read. Lets a caller attribute an address
 * past the file-backed part of a mapping (.bss tail) to the file: then call sym_data(). */
int sym_map_covers(struct sym_session *s, const struct trace_mmap *map, uint64_t addr);

#endif
