/* Symbols: code and data addresses to function, source line, variable and struct member.
 *
 * A sym_session resolves addresses inside mapped ELF files (through libdwfl/libdw/libelf) and
 * kernel addresses (kallsyms snapshot from the trace, /proc/kallsyms, or a vmlinux). Callers pass
 * the mapping that contains the address (struct trace_mmap: file name, start, pgoff, build-id),
 * so the session needs no process model of its own. Each distinct (file, address) is resolved
 * once and cached.
 *
 * Ownership: every string in a sym_code_info / sym_data_info is owned by the session and stays
 * valid until sym_session_free(). Errors: functions return 0 when something was found, -ENOENT
 * when nothing was (the info then holds the reason, for -v), another negative errno on misuse. */
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
};

struct sym_code_info {
	const char *symbol;     /* function name, NULL when unknown */
	uint64_t sym_offset;    /* address - symbol start */
	const char *srcfile;    /* source file path as in DWARF, NULL when unknown */
	uint32_t line;
	const char *inline_fn;  /* innermost inlined function at the address, or NULL */
	const char *call_file;  /* its call site */
	uint32_t call_line;
	const char *reason;     /* why something is unknown (shown under -v), or NULL */
};

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
/* @ip lies in @map (a user-space mapping). */
int sym_code(struct sym_session *s, const struct trace_mmap *map, uint64_t ip,
	     struct sym_code_info *out);
/* A kernel code address. */
int sym_kernel_code(struct sym_session *s, uint64_t ip, struct sym_code_info *out);
/* @addr lies in @map: static/global data through ELF and DWARF. */
int sym_data(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	     struct sym_data_info *out);
/* A kernel data address (kallsyms data symbols). */
int sym_kernel_data(struct sym_session *s, uint64_t addr, struct sym_data_info *out);
void sym_session_free(struct sym_session *s);

#endif
