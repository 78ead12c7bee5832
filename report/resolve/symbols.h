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
 * PLT entries are named "func@plt" as perf 6.1 names them (report/resolve/sym-code.c).
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
	const char *kernel_release; /* uname -r where the trace was recorded, or NULL; when it is
				     * this kernel's, a vdso mapped without a build-id (perf record -z
				     * writes none) is taken to be this process's vdso, as perf takes
				     * it for every file */
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
 * same line); we follow the line table, as gdb and libdw do. Where the line table has no row (and
 * symbol is known), srcfile/line is what addr2line answers instead, with line 0: "??" when it
 * names the function but no file; the name of the STT_FILE symbol before the function in the
 * symbol table ("crtstuff.c") when it names one; NULL when it finds no function in the address's
 * section (the PLT), where perf prints symbol+offset. An address no symbol holds (padding after
 * a sized function) gives 0 with symbol NULL when addr2line still names something there (a
 * line-table row, or "??"/"FILE" with line 0 for the function below), else -ENOENT. C++ names
 * are demangled as perf 6.1 shows them (libiberty, no parameter lists), "func@plt" names too. */
struct sym_code_info {
	const char *symbol;     /* function name, NULL when unknown */
	uint64_t sym_offset;    /* address - symbol start */
	const char *srcfile;    /* source file path (absolute when DWARF allows), "??", or NULL */
	uint32_t line;          /* 0: no line-table row */
	const char *inline_fn;  /* innermost inlined function at the address, or NULL */
	const char *call_file;  /* its call site */
	uint32_t call_line;
	/* where the user's code is: srcfile:line when that is not a library's header, else the
	 * call site of the outermost-but-one inlined library code (std::atomic's fetch_add in
	 * atomic_base.h is called at app.cpp:14), NULL when no inline chain leads out of the
	 * libraries' files (sym_system_file()) */
	const char *user_file;
	uint32_t user_line;
	const char *reason;     /* why something is unknown (shown under -v), or NULL */
	int object;             /* sym_symbol(): the symbol is an STT_OBJECT */
};

/* member is the variable's name followed by the path to the byte: ".field" for struct/union
 * members (anonymous ones and C++ base classes are skipped over; a base class declared but not
 * defined in the unit is named, with " (+N)"), "[i]" per array dimension in source order (from 0,
 * Fortran's column-major arrays too), then " (+N)" when the
 * byte is N bytes into a scalar member, or " (padding +N)" when it is padding, N counted from the
 * start of the innermost struct that holds it: "buf1.lock0", "stats[3].hits", "q.head (+8)",
 * "q (padding +33)", "grid[2][4]". Without DWARF: "name" or "name (+N)", type NULL and reason
 * "no debug info". Function-local statics are named by their C name ("counter"). For the
 * cacheline heading: "%s (%s, %llu bytes)", var, type, var_size. */
/* The source language of a type (DWARF DW_AT_language of its unit). */
enum sym_lang {
	SYM_LANG_UNKNOWN,
	SYM_LANG_C,
	SYM_LANG_CXX,
	SYM_LANG_RUST,
	SYM_LANG_GO,
	SYM_LANG_FORTRAN,
	SYM_LANG_OTHER,
};

struct sym_data_info {
	const char *var;        /* variable or ELF data symbol name, NULL when unknown */
	const char *type;       /* its type as C spells it ("struct _buf"), NULL when unknown */
	uint64_t var_size;      /* bytes */
	uint64_t var_offset;    /* address - variable start */
	const char *member;     /* path inside the type: "buf1.lock0", "stats[3].hits", "q.head (+8)" */
	const char *reason;
	/* sym_data_type(): when member has an index the code does not tell ("sum[]", "p[].key",
	 * "o->y[]"), the bytes of one element that "[]" counts (of the innermost "[]" when there
	 * are several), the byte accessed inside it, and the elements of that array (0: unknown,
	 * as for p[]): the caller can tell elements apart by their addresses. 0, 0, 0 otherwise. */
	uint64_t elem_size, elem_off, elem_count;
	/* the lock holding the byte, as member names it ("g_mu", "*mutex", "s->lock"), NULL when
	 * none: a pthread_mutex_t, pthread_rwlock_t, pthread_spinlock_t, pthread_cond_t,
	 * pthread_barrier_t, sem_t, mtx_t, cnd_t, or the C++ or Rust standard library's mutexes,
	 * whose words are one unit */
	const char *lock;
	enum sym_lang lang;     /* of the unit that defines the type: the advice's language */
	/* the type var points to or is, for sym_member_at(); dwarf NULL: none */
	struct sym_type_ref {
		void *dwarf;
		uint64_t die;
	} type_ref;
};

/* A file of a toolchain or library, not the user's: the compiler's and the system's headers
 * (/usr/include, /usr/lib/gcc, /usr/local/include, .../include/c++/...), Rust's standard library
 * (/rustc/HASH/library/, ~/.rustup/toolchains) and registry crates, Go's standard library. */
int sym_system_file(const char *path);

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
/* The symbol of any kind perf 6.1's map__find_symbol() finds at @addr of @map (a user-space
 * mapping): functions, objects, text and data labels and "func@plt" entries, with the aliases and
 * the ends of size-0 symbols perf settles on, searched the way perf walks its tree (where symbols
 * overlap, the tree's shape decides). perf script names the data address of a page fault so
 * (-F addr,sym,symoff), perf report --mem-mode its data symbols (symbol_daddr, objects with
 * their offset). Only symbol, sym_offset (@addr - the symbol's start) and object are filled;
 * -ENOENT with a reason as sym_code() when perf finds nothing ("[unknown]"). */
int sym_symbol(struct sym_session *s, const struct trace_mmap *map, uint64_t addr,
	       struct sym_code_info *out);
/* Data-type profiling: the type and member a memory access at user @ip (in @code_map, the
 * mapping of the code) touches, named from the instruction at @ip and the DWARF variables live
 * there, for samples whose data address sym_data() cannot name (heap, anonymous memory, stacks).
 * The function is the DW_TAG_subprogram holding @ip, also one nested in another's DIE (gcc's
 * OpenMP "main._omp_fn.0"). The instruction's memory operand (x86-64 and AArch64) gives base
 * register, index, scale and displacement. The object is the pointer the base register holds:
 *  - a variable or parameter of the scopes around @ip (inlined functions' included, innermost
 *    first) whose DWARF location there is exactly that register (DW_OP_reg<N>, DW_OP_regx) or
 *    whose value is register + c (DW_OP_breg<N> c, DW_OP_stack_value: the register holds p - c,
 *    as gcc and clang describe "s = &o->st[1]" after inlining), typed pointer or reference to a
 *    sized type;
 *  - what the code before @ip in its function put in the register, followed forward over the
 *    function's control-flow graph (fall-through and direct-jump edges; a call keeps only the
 *    callee-saved registers): a pointer member through a known pointer ("rax = n->next"), a
 *    pointer variable kept in memory (DW_OP_breg<N> disp or DW_OP_fbreg d alone: -O0), a static
 *    pointer variable or member ("ghead"), a copy of a typed register, pointer arithmetic (lea,
 *    add and sub of an immediate or of a register, "add reg, [mem]" of a loaded pointer, AArch64
 *    add and sub: an offset, or an unknown multiple of the step the index register is known to
 *    be a multiple of, from the shl, imul, lea and adds that made it), the address of a
 *    variable DWARF locates through the memory a load reads (DW_OP_breg<N> c, DW_OP_deref, and
 *    with one more deref through a stack slot: OpenMP's shared variables), or of a local (lea
 *    of its stack slot, a copy of the stack pointer). Where paths join, a register keeps its
 *    type only when every path into the join gives a pointer into the same object, at offsets
 *    that then differ by an unknown multiple of their distance (a pointer advanced in a loop);
 *    functions with indirect jumps or over 256 KiB are not followed, and in functions of over
 *    8192 basic blocks only the block of @ip is. When a pointer variable is in the base register
 *    and the code shows it points into a larger object (int *blue = &arg->blue[0] before the
 *    loop), the larger object names the access ("arg->blue[]");
 *  - else a local variable whose stack slot the access falls in (DW_OP_fbreg from a frame base
 *    of DW_OP_call_frame_cfa, through the CFI, or a register; DW_OP_breg<N>), when the access
 *    uses the slot's register.
 * Results, with p the pointer's name ("p", "n->next", "ghead"):
 *   var "*p", type the pointee as C spells it without qualifiers ("struct node", "stats_t"),
 *   var_size sizeof(*p), var_offset the byte inside *p (inside the element for p[k]/p[]),
 *   member "p->next", "p->st[1].misses", "(*p)[2]" (pointer to array), "*p" and "*p (+4)"
 *   (scalar pointee), "p->a (+4)", "*p (padding +33)", "p[2].key" (displacement past *p: an
 *   element after it, not for a reference or a pointer to a polymorphic class; a negative one
 *   names nothing); through a C++ reference s: var "s", member "s.b[2]"; a variable reached by
 *   its address, or a local: var "sum", member "sum[]", "local.misses", "arr[2]", as
 *   sym_data(), never past it. Base classes whose layout is known are not named in the path
 *   ("x2[1]._M_i"), an empty one does not hide the member at its offset. With an index (the
 *   bytes accessed are disp + k * step, k unknown) the first array on the path whose stride
 *   divides the step takes the index ("p->y[]"), else, when the step is a multiple of
 *   sizeof(*p), the index counts elements of *p ("p[].count", offset the displacement mod
 *   sizeof(*p)), else one array of *p at another displacement of that step ("G->ints[].i" when
 *   (t + 1) << 4 indexes G->ints[t], 16 bytes in); else member "*p (+?)" with a reason, the
 *   type still named (an object reached by its address is then not named). elem_size,
 *   elem_off, elem_count say which elements "[]" counts. The member names the first byte
 *   accessed; the access size is not used.
 * A rip-relative or absolute operand, or a base register holding a constant address (adrp/adr,
 * lea from rip) with no index register, is static data: the answer is sym_data()'s for that
 * address.
 * @addr, the sample's data address, is not used: results are cached per (file, ip), about 30 us
 * for a first lookup and 0.05 us for a repeat (bench/bench_symtype.c on c2c-lite itself).
 * Returns 0 when named, -ENOENT with reason "[type unknown]: why" ("no memory operand",
 * "no memory access (address arithmetic or nop)", "instruction not decodable", "unsupported
 * architecture", "no code bytes at this address in the file", "no debug info", "no debug info
 * at this pc", "stack access, no local variable there" (spills, saved registers), "no pointer
 * variable in the base register
 * at this pc", "thread-local storage (fs/gs segment)", "no base register (absolute address with
 * an index)"), sym_data()'s -ENOENT and reason for static data, or the mapping's reason like
 * sym_code() ("heap", "file not found", ...); -EINVAL on misuse; -ENOMEM if capstone cannot
 * allocate. */
int sym_data_type(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		  uint64_t addr, struct sym_data_info *out);
/* The member at byte @off of what @d names (its type_ref), spelled from @d's var as
 * sym_data_type() spells members ("b->ref_count" for var "*b", "g.x[1]" for var "g"); NULL when
 * @d has no type or @off is past it. The string lives as long as the session. */
const char *sym_member_at(struct sym_session *s, const struct sym_data_info *d, uint64_t off);
/* sym_data_type() of the instruction @back instructions before @ip (0: @ip itself), found by
 * decoding the function holding @ip from its start. For the soft backend's samples, whose
 * access is softdec_detail_back() instructions before the sampled IP (include/c2c/soft.h).
 * The function is the ELF function symbol holding @ip, else its DWARF range; its instruction
 * boundaries are decoded once per session and the answer is cached like sym_data_type()'s.
 * @back 0 is exactly sym_data_type(). Otherwise -ENOENT with reason "[type unknown]: why" when
 * @back is 15 or more (the soft backend's saturated count: "the access is 15 or more
 * instructions before the sample"), no function holds @ip ("no function (symbol or debug info)
 * holds this address"), @ip is not an instruction boundary of its function ("not an
 * instruction boundary of its function", "the function does not decode up to this address"),
 * or @back goes past the function's start ("the access would be before the start of the
 * function"); the mapping's reason as sym_data_type(); -EINVAL on misuse. */
int sym_data_type_back(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		       unsigned int back, uint64_t addr, struct sym_data_info *out);
/* The address (runtime, like @ip) of the instruction @back instructions before @ip in the
 * function holding it, found as sym_data_type_back() finds it: for the soft samples of traces
 * before 1.6, which give the access as that count. 0, or -ENOENT (no function, not an
 * instruction boundary, before the function's start, @back 15 or more); -EINVAL on misuse. */
int sym_insn_back(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		  unsigned int back, uint64_t *at);
/* The bytes the memory access of the instruction @back instructions before @ip (0: @ip itself)
 * moves: its memory operand's size (x86-64), its register's width (AArch64 loads and stores).
 * 0, or -ENOENT (*size 0) when the code or the instruction cannot tell. */
int sym_access_size(struct sym_session *s, const struct trace_mmap *code_map, uint64_t ip,
		    unsigned int back, uint32_t *size);
/* A kernel data address: DWARF of the vmlinux when given, else kallsyms data symbols (types
 * d D b B r R v V g G s S; var_size is the distance to the next symbol). */
int sym_kernel_data(struct sym_session *s, uint64_t addr, struct sym_data_info *out);
void sym_session_free(struct sym_session *s);

/* DECLARATIONS (sym-decl.c), for `c2c-lite fix`: where the source declares a data object the
 * report names. Positions are DW_AT_decl_file (absolute through the unit's DW_AT_comp_dir) and
 * DW_AT_decl_line; file NULL: unknown. Strings live as long as the session. */
struct sym_decl_pos {
	const char *file;
	uint32_t line;
};

struct sym_decl_query {
	const struct trace_mmap *data_map;  /* the mapping holding @addr, NULL: none */
	uint64_t addr;                      /* a byte of the object */
	const struct trace_mmap *code_map;  /* code that accesses it, NULL: none */
	uint64_t ip;
	const char *type;   /* the object's type as C spells it (sym_data_info.type), for memory
			     * no variable holds: looked up by name in @ip's unit, then the file's */
};

struct sym_decl {
	struct sym_decl_pos var;     /* the static variable; file NULL for memory typed by code */
	const char *var_name;        /* its name, NULL: none */
	uint64_t var_start, var_size;   /* its first byte (runtime, like @addr) and bytes */
	struct sym_decl_pos type;    /* the struct, class or union: for an array the element type's
				      * (through typedefs, qualifiers and every dimension); file
				      * NULL when that is a scalar or a declaration only */
	struct sym_decl_pos first;   /* the first member of that type ... */
	const char *first_name;      /* ... named so (NULL: anonymous or none) */
	const char *type_name;       /* of the element type: "struct slot", "long int" */
	const char *comp_dir;        /* DW_AT_comp_dir of the type's unit (else the variable's) */
	uint64_t type_size;          /* bytes of that type, 0: unknown */
	int array;                   /* the object is an array of it ... */
	uint64_t count;              /* ... of this many (outermost dimension), 0: unknown */
	enum sym_lang lang;          /* of the type's unit */
	int old_std;                 /* that unit's language level predates _Alignas (C89, C99)
				      * or alignas (C++98, C++03) */
	struct sym_type_ref type_ref;   /* the object's own type, for sym_decl_member() */
};

/* The declarations of the object @q describes: a static variable when @q->data_map is a file
 * holding one at @q->addr, else the type @q->type in the code's file. 0, -ENOENT (no variable
 * and no such type), -EINVAL on misuse. */
int sym_decl(struct sym_session *s, const struct sym_decl_query *q, struct sym_decl *out);
/* The declaration of the member @path names inside @d's object, the path as the report spells
 * members ("buf1.b", "c->misses", "slots[3].count", "p[].key (element i+1)"; the leading
 * variable is skipped): the last member the path goes through. 0, -ENOENT, -EINVAL. */
int sym_decl_member(struct sym_session *s, const struct sym_decl *d, const char *path,
		    struct sym_decl_pos *out);

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
