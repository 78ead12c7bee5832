/* model: the one report model every front end reads: the stdio report, the TUI, JSON and CSV,
 * and `diff`. The pipeline is
 *
 *     read (report/read: source, perf.data, trace)  ->  resolve (report/resolve: maps,
 *       symbols)  ->  aggregate (report/aggregate: cltable for PMU samples, estimate for soft
 *       and watch samples)  ->  model (this file)  ->  findings (findings.h)  ->  front ends
 *
 * (docs/architecture.md says where each concern lives.)
 *
 * Every backend gives the same shape: cachelines in display order, each with offset rows (a row
 * per offset and coalesce key: code address by default) and the touches (which thread read,
 * wrote or atomically updated which bytes from which code, at what contention cost); a set of
 * metric columns the backend declares (HITMs and data-source classes for PMU data, time share and
 * access counts for soft, accesses and transfers for watch); data names for lines and rows
 * (names.h), resolved once here and shown alike by every front end.
 *
 * The model is built from a finished table and borrows it (and the maps model and the symbol
 * session behind its strings): free the model first. Its own strings live in the model. Pure:
 * no I/O. Not thread-safe. */
#ifndef C2C_REPORT_MODEL_MODEL_H
#define C2C_REPORT_MODEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"
#include "report/aggregate/cltable.h"
#include "report/aggregate/estimate.h"
#include "report/resolve/maps.h"

struct sym_session;

enum rm_kind {
	RM_PMU = 1,      /* memory-sampling PMU (PEBS, IBS, SPE, POWER) or perf.data: measured */
	RM_SOFT,         /* cpu-clock samples with decoded addresses: estimated time shares */
	RM_WATCH,        /* hardware watchpoints: every access counted, transfers modelled */
};

const char *rm_kind_name(enum rm_kind k);

/* Metric columns. A backend declares the ones it has (rm_model.line_cols / row_cols, in display
 * order); rm_line.v and rm_row.v are indexed by these ids. */
enum rm_col_id {
	RM_COL_COST,         /* the ranking metric as a share of the total (HITM%, Time%, Xfer%) */
	RM_COL_SAMPLES,
	RM_COL_LOADS,
	RM_COL_STORES,
	RM_COL_ATOMICS,
	RM_COL_THREADS,
	RM_COL_CPUS,
	RM_COL_IPS,
	/* PMU: perf's Shared Data Cache Line Table */
	RM_COL_NODE,         /* memory nodes (text: rm_cell) */
	RM_COL_PA_CNT,
	RM_COL_HITM,         /* Load Hitm (peer mode: Load Peer) Total */
	RM_COL_LCL_HITM,
	RM_COL_RMT_HITM,
	RM_COL_RECORDS,
	RM_COL_ST_L1HIT,
	RM_COL_ST_L1MISS,
	RM_COL_ST_NA,
	RM_COL_LD_FB,
	RM_COL_LD_L1,
	RM_COL_LD_L2,
	RM_COL_LLC_HIT,
	RM_COL_LLC_HITM,
	RM_COL_RMT_HIT,
	RM_COL_RMT_HITM2,    /* RMT Load Hit RmtHitm (perf prints it twice) */
	RM_COL_DRAM_LCL,
	RM_COL_DRAM_RMT,
	RM_COL_CYC_RMT,      /* mean cycles of remote HITM (peer) loads (rows) */
	RM_COL_CYC_LCL,      /* mean cycles of local HITM (peer) loads (rows) */
	RM_COL_CYC_LOAD,     /* mean cycles of other loads (rows) */
	/* watch */
	RM_COL_XFERS,        /* transfers of a modified line (HITM equivalent) */
	RM_COL_XFALSE,       /* ... of which false sharing */
	RM_COL_INVAL,        /* invalidations of clean copies */
	RM_COL__NR,          /* the metrics end here: rm_line.v and rm_row.v hold them */
	/* text columns of perf's tables (rm_pmu_table()): rm_cell() writes them */
	RM_COL_BLANK = RM_COL__NR,   /* an empty cell (the Pareto's Num) */
	RM_COL_INDEX,        /* the line's position */
	RM_COL_ADDRESS,      /* the line's address */
	RM_COL_OFFSET,       /* the row's offset as displayed */
	RM_COL_PID,
	RM_COL_TID,          /* "%7d:comm" */
	RM_COL_CODE,         /* the code address */
	RM_COL_SYMBOL,       /* "[.] name", "[k] 0x..." */
	RM_COL_DSO,          /* the code's map, "[unknown]" */
	RM_COL_SRCLINE,      /* perf's Source:Line */
	RM_COL_CPUNODE0,     /* the nodes the row ran on ("0 1"), and per node ... */
	RM_COL_CPUNODE1,     /* ... CPUs and shares of metric and stores (-N) */
	RM_COL_CPUNODE2,     /* ... the CPU list (-NN) */
	RM_COL__ALL
};

enum rm_fmt {
	RM_FMT_COUNT,        /* integer */
	RM_FMT_PCT,          /* a percentage, two decimals */
	RM_FMT_MEAN,         /* a mean, no decimals */
	RM_FMT_TEXT,         /* text (memory nodes, code, threads: rm_cell()) */
	RM_FMT_LINE_PCT,     /* a row's value as a share of its line's, two decimals (perf's
			      * Pareto) */
	RM_FMT_CYCLES,       /* a mean as perf's Pareto prints it: "%6.0f", cut at 9 characters */
};

enum rm_align { RM_RIGHT, RM_LEFT };

/* How a column of perf's tables is as wide as its cells (hists__calc_col_len): not (its width),
 * as the widest cell of each line's rows, hidden ones too (rm_cell_claim()), or of the whole
 * model (line and row cells). */
enum rm_fit { RM_FIT_NONE, RM_FIT_LINE, RM_FIT_MODEL };

struct rm_col {
	enum rm_col_id id;
	const char *key;     /* machine name: --sort KEY, JSON member, CSV header ("hitm") */
	const char *group;   /* banner over the column, "" for none */
	const char *hdr;     /* header */
	int width;           /* fitted columns: the least width */
	enum rm_fmt fmt;
	const char *na;      /* the text of a value that is not known (NaN): NULL "-" */
	/* perf's stdio layout (rm_pmu_table()): header line 0 spans the next @span columns
	 * with @hdr0, or with @hdr0 centred in dashes across them (@banner); cells are
	 * aligned, fitted, and capped at @cap characters unless --full-symbols (0: never) */
	const char *hdr0;
	int span, banner;
	enum rm_align align;
	enum rm_fit fit;
	int cap;
};

/* The description of column @id as kind @k in display mode @d shows it in a table of lines
 * (PMU peer mode renames the HITM columns). */
const struct rm_col *rm_col(enum rm_kind k, enum cltab_display d, enum rm_col_id id);
/* ... in a table of a line's rows: PMU HITM and store counts are shares of the line's, as in
 * perf's Pareto. */
const struct rm_col *rm_row_col(enum rm_kind k, enum cltab_display d, enum rm_col_id id);

/* Column @id of model @m as its kind and display mode show it: in a table of lines, of rows. */
struct rm_model;
const struct rm_col *rm_model_col(const struct rm_model *m, enum rm_col_id id);
const struct rm_col *rm_model_row_col(const struct rm_model *m, enum rm_col_id id);

/* The display metric of a PMU model: its -d key ("tot", "rmt", "lcl", "peer") and the name perf
 * prints ("Total HITMs", "Peer Snoop"). */
const char *rm_display_key(enum cltab_display d);
const char *rm_display_title(enum cltab_display d);

/* PERF'S TABLES AS COLUMNS. The Shared Data Cache Line Table (RM_TBL_LINES: a row per line) and
 * the Shared Cache Line Distribution Pareto (RM_TBL_ROWS: a row per offset row) of a PMU model,
 * as perf 6.1 lays them out for these options; any printer that lays out struct rm_col (widths,
 * spans, banners, alignment: report/stdio/) prints perf's tables byte for byte. */
enum rm_table { RM_TBL_LINES, RM_TBL_ROWS };
struct rm_layout {
	int node_info;       /* 0, 1 (-N) or 2 (-NN): the CPU-node column */
	int no_source;       /* --no-source */
	int double_cl;       /* --double-cl: the address banner says so */
};
#define RM_TBL_MAX 32
/* Fill @out (room for RM_TBL_MAX) with the columns of table @t; returns how many. */
size_t rm_pmu_table(const struct rm_model *m, enum rm_table t, const struct rm_layout *o,
		    struct rm_col *out);

/* What a code address resolved to. */
struct rm_code {
	uint64_t ip;             /* the access instruction: PMU and watch as sampled, soft as
				  * decoded (estim_site.ip) */
	uint64_t sampled_ip;     /* the IP sampled (soft: the most frequent of the row's) */
	uint64_t al;             /* map-relative (what perf shows) */
	const char *symbol;      /* NULL: unknown */
	uint64_t sym_offset;
	const char *srcfile;     /* NULL: unknown */
	uint32_t line;
	const char *dso;         /* short name of the code's map, NULL: none */
	int dso_bracketed;       /* the map's name is in brackets ([kernel.kallsyms], [vdso]):
				  * perf asks addr2line nothing there */
	uint8_t cpumode;
};

/* The privilege level of @c's code as perf's Symbol column marks it: 'k' kernel, '.' user, 'H'
 * hypervisor or unknown. */
char rm_code_level(const struct rm_code *c);

/* @c from an estimate's code address (soft and watch): the access instruction @ip, its
 * map-relative @al, mode, map and, when @code (NULL: unresolved), what it resolved to; the
 * sampled IP is @ip too (the caller sets another). */
void rm_code_estim(struct rm_code *c, uint64_t ip, uint64_t al, uint8_t cpumode,
		   const struct maps_map *cmap, const struct estim_code *code);

/* A scalar or pointer type as C, Rust or Go spell it ("long int", "unsigned char", "struct s *",
 * "usize", "int64"): no definition of its own to align, no members. */
int rm_scalar_type(const char *type);

/* Access kinds of a touch. */
enum { RM_READ = 1, RM_WRITE = 2, RM_ATOMIC = 4 };

/* One thread's accesses at one row of a line: the input of the findings and the line map. */
struct rm_touch {
	const struct maps_thread *thread;
	uint32_t row;            /* index into rm_line.row */
	uint32_t offset;         /* first byte in the line (the row's) */
	uint32_t size;           /* bytes accessed, 0 when unknown */
	uint64_t reads, writes, atomics;   /* samples (soft, PMU) or accesses (watch) */
	double cost;             /* contention charged to these accesses, in the line cost's unit */
	uint32_t cpu;            /* a CPU it ran on, TRACE_CPU_NONE when unknown */
	uint64_t t_first, t_last;  /* when its accesses were seen (soft, watch); 0, 0: unknown */
	const uint64_t *span;    /* soft, watch: the time buckets it was seen in (estimate.h,
				  * ESTIM_SPAN_NS), NULL: unknown */
	uint32_t nr_span;        /* words */
	uint32_t span_bits;      /* buckets set */
};

struct rm_row {
	uint32_t offset;         /* first byte in the line (of the virtual address) */
	uint32_t disp_offset;    /* as displayed (PMU: of the map-relative address) */
	struct rm_code code;
	const char *data;        /* what the row touches: "buf1.a", "c->hits", "heap of pid 12" */
	const char *member;      /* the member path without " (+N)" ("q.head"), NULL: unknown */
	int lock;                /* the row's bytes are a lock's (sym_data_info.lock): member names
				  * the lock, whose touches span its bytes together (findings.c) */
	const char *object;      /* its data object, keyed as rm_line.object; NULL: unnamed */
	const char *object_what; /* that object described: "buf1 (struct _buf, 64 bytes)" */
	uint32_t size;           /* bytes its instruction accesses, 0: unknown (rm_name()) */
	const char *type;        /* the object's type as C spells it ("struct percpu"), NULL */
	uint8_t lang;            /* its language (enum sym_lang): the advice is in it */
	/* The object instance the name is relative to: its first byte (address - the offset in
	 * it) and size, when known (has_inst). Memory typed by code ("*me") can be a different
	 * instance on each thread under the same name: rm_name() tells those apart. */
	uint64_t inst, inst_size;
	int has_inst;
	const struct maps_thread *thread;   /* of the first sample */
	uint32_t nr_threads, nr_cpus;
	uint64_t inferred;       /* soft: samples charged to it by inference (attrib.h) */
	int visible;             /* shown in the Pareto (PMU: has stores or the display metric) */
	double v[RM_COL__NR];
	const void *src;         /* the backend's row: struct cltab_offset or struct estim_site */
	/* PMU: the memory nodes of its data (bit per node), the CPUs it ran on (bit per CPU) and
	 * its counters per node (NULL: not kept, report -N), the table's; NULL otherwise */
	const uint64_t *nodeset, *cpuset;
	const struct dsrc_stats *node_stats;
	/* the callchains of the row's samples (ids in rm_model.callers) with their sample counts,
	 * frames resolved; none without callchains */
	const struct callers_use *callers;
	size_t nr_callers;
};

enum rm_verdict {
	RM_V_NONE = 0,           /* nothing contended: no two threads conflict on the line */
	RM_V_FALSE,              /* threads write disjoint bytes of the line */
	RM_V_TRUE,               /* threads write and read the same bytes */
	RM_V_MIXED,              /* both: some bytes truly shared, others falsely */
	RM_V_UNCLEAR,            /* contended (HITMs), but no sampled store says who writes */
};

const char *rm_verdict_name(enum rm_verdict v);
/* At most 13 characters, for narrow columns: "FALSE SHARING", "TRUE SHARING", "TRUE+FALSE",
 * "UNCLEAR", "-". */
const char *rm_verdict_short(enum rm_verdict v);
/* The machine name of a verdict (JSON, CSV): "none", "false", "true", "mixed", "unclear". */
const char *rm_verdict_key(enum rm_verdict v);

struct rm_finding;

/* A member of a line as the findings see it: the rows of one data member (or one offset when
 * the member is unknown), with who reads and writes it and how its contention splits into true
 * and false sharing (findings.h). */
struct rm_member {
	const char *name;        /* member path, or NULL (then "offset 0x%x") */
	const struct rm_row *named;   /* the row that name is from (its object, type, instance) */
	uint32_t offset;         /* lowest offset */
	uint64_t reads, writes, atomics;
	double cost;             /* contention cost of its touches */
	double true_cost, false_cost;
	const struct maps_thread **writers, **readers;   /* distinct threads */
	size_t nr_writers, nr_readers;
	const struct rm_row *writer_row, *reader_row;   /* the heaviest of each kind */
	uint32_t nr_cpus;
};

/* SOFT: WHAT THE CONFIRMATION WATCHPOINTS SAW ON A LINE (include/c2c/confirm.h, estimate.h).
 * A line whose words a window armed and that had accesses is judged from them (confirm.c,
 * rm_confirm_judge(): readers, writers, bytes, and the transfers the coherence model counted
 * between words armed together); a line no window armed is seen only by samples. */
enum rm_confirm_state {
	RM_CF_SAMPLES = 0,       /* no window armed its words: seen only by samples */
	RM_CF_NO_HITS,           /* armed, but no access was seen: the samples' verdict stands */
	RM_CF_SEEN,              /* accesses seen */
};

/* One thread's accesses at one offset, as the watchpoints saw them. */
struct rm_cf_access {
	uint32_t offset, size;   /* first byte in the line; bytes (the widest seen; 0: unknown) */
	const struct maps_thread *thread;
	uint64_t reads, writes, atomics;
	uint64_t t_first, t_last;        /* when they were seen */
	uint64_t xfers;          /* transfers of the modified line charged to them (model) */
	uint64_t xfers_true, xfers_false;   /* ... the access overlapped the owner's bytes, or not */
	uint64_t inval;          /* invalidations of clean copies they caused */
	struct rm_code code;     /* the first access's code */
	char member[128];        /* named by rm_name(): "g_line.seen"; "" unknown */
};

/* Words armed together (bit i: the 8-byte word at offset 8 * i), in how many windows, for how
 * long (the workload's CPU time, traps left out), with how many of the line's hits. */
struct rm_cf_coarm {
	uint32_t words;
	uint64_t windows, armed_ns, hits;
};

struct rm_confirm {
	enum rm_confirm_state state;
	uint64_t hits, unplaced, windows, armed_ns;
	uint64_t xfers, xfers_true, xfers_false, inval;
	struct rm_cf_access *acc;        /* by offset, then thread */
	size_t nr_acc;
	struct rm_cf_coarm *coarm;       /* by armed time, descending */
	size_t nr_coarm;
	uint32_t nr_threads, nr_readers, nr_writers;   /* distinct threads seen */
	/* the judgement (rm_confirm_judge) */
	enum rm_verdict sampled;         /* the verdict of the samples alone */
	int judged;                      /* 1: the line's verdict is the watchpoints' */
	int by_bytes;                    /* ... split by who wrote which bytes (findings.h's rule
					  * on the watched accesses); 0: by the transfers, the rule
					  * finding no concurrent source */
	const char *why;                 /* when not judged from them: why (static text) */
};

struct rm_line {
	uint32_t index;          /* position in the display order (0-based) */
	uint64_t addr;           /* cacheline of the virtual address; report --phys: physical */
	uint64_t vaddr;          /* cacheline of the virtual address (names are looked up there) */
	const char *what;        /* what the line holds: "buf1 (struct _buf, 64 bytes)" */
	const char *object;      /* the data object, the findings' grouping key: "buf1"; NULL when
				  * no variable names the line (an object of its own). rm_name() gives
				  * the first variable of the line; rm_judge() the object of its most
				  * contended member, when that one is named */
	const char *object_what; /* that object described, NULL: the first item of @what */
	double cost;             /* the ranking metric (HITMs, ns of samples, transfers) */
	double v[RM_COL__NR];
	uint32_t nr_threads, nr_cpus;
	struct rm_row *row;      /* rows in the backend's order (PMU: perf's) */
	size_t nr_row;
	struct rm_touch *touch;  /* by row, then thread */
	size_t nr_touch;
	/* the findings' judgement of the line (findings.h: rm_judge) */
	enum rm_verdict verdict;
	double true_cost, false_cost;  /* the line's contention split; the rest is uncontended */
	struct rm_member *mem;         /* by offset */
	size_t nr_mem;
	const struct rm_finding *finding;
	struct rm_confirm *confirm;    /* soft: what the confirmation watchpoints saw; NULL when
					* the recording had none */
	const uint64_t *nodeset; /* PMU: the memory nodes of its data, the table's; NULL */
	const void *src;         /* struct cltab_line or struct estim_line */
};

/* A row of perf's run totals (PMU models): a section title, a count ("  %-34s: %10d") or a
 * share of LLC misses ("%10.1f%%"), built once (rm_stats_build()) for every printer. */
enum rm_stat_kind { RM_STAT_TITLE, RM_STAT_COUNT, RM_STAT_PCT };

struct rm_stat {
	enum rm_stat_kind kind;
	const char *label;           /* perf's label; a title's text */
	const char *banner;          /* a title as perf centres it between its rules */
	uint32_t count;              /* RM_STAT_COUNT (perf prints it as an int) */
	double pct;                  /* RM_STAT_PCT */
};

struct rm_model {
	enum rm_kind kind;
	enum cltab_display display;  /* PMU: the display metric */
	uint32_t cl_size;
	/* PMU: the offset rows' coalesce keys (perf's -c), the machine's CPUs and nodes */
	enum cltab_coalesce coalesce[CLTAB_CO_MAX];
	int nr_coalesce;
	uint32_t nr_cpus, nr_nodes, nr_node_bits;
	const int32_t *cpu_node;     /* [nr_cpus]: a CPU's node, -1 unknown */
	const enum rm_col_id *line_cols, *row_cols;   /* declared columns, in order */
	size_t nr_line_cols, nr_row_cols;
	const char *cost_name;       /* "Total HITMs", "sampled time", "transfers" */
	const char *cost_unit;       /* "HITMs", "ns", "transfers" */
	double total_cost;           /* the shares' denominator */
	uint64_t total_samples;      /* the independent observations behind it: soft samples (all
				      * of them, recovered or not), the PMU's counted HITMs (peer
				      * snoops), watch transfers (counted, not sampled) */
	struct rm_line *line;        /* display order */
	size_t nr_line;
	size_t nr_all_lines;         /* lines the table holds, displayed or not */
	size_t nr_one_cpu_lines;     /* watch: judged uncontended, several threads writing on one
				      * CPU (rm_judge(), counted before rm_keep() drops them) */
	const struct callers *callers;   /* the callchain dictionary; NULL: none kept */
	/* PMU: perf's run totals (Trace Event Information, Global Shared Cache Line Event
	 * Information), in perf's order; NULL for soft and watch */
	const struct rm_stat *stats;
	size_t nr_stats;
	/* soft: the recording's confirmation by watchpoints (include/c2c/confirm.h); NULL when the
	 * trace says nothing of it (recorded before it existed) */
	const struct c2c_confirm_run *confirm_run;
	/* backends */
	const struct cltab *t;
	const struct estim *e;
	/* private */
	struct rm_pool *pool;
};

/* PMU: @m's run totals from the counters of every sample (@all), of the shared lines' samples
 * (@shared) and the number of shared lines (report/model/stats.c). */
void rm_stats_build(struct rm_model *m, const struct dsrc_stats *all,
		    const struct dsrc_stats *shared, uint32_t nr_shared);

/* Soft: the confirmation of line @l from its estimate line @el (confirm.c; NULL when the
 * recording had no confirmation), names for its accesses (at the end of rm_name()), its
 * judgement from them (at the end of rm_judge()'s judgement of the line), and release. */
void rm_confirm_build(struct rm_model *m, struct rm_line *l, const struct estim_line *el);
struct rm_name_opts;
void rm_confirm_name(struct rm_model *m, const struct rm_name_opts *o);
void rm_confirm_judge(const struct rm_model *m, struct rm_line *l);
void rm_confirm_free(struct rm_confirm *c);
/* "confirmed", "watched, no access seen", "samples only" */
const char *rm_confirm_state_name(const struct rm_confirm *c);
/* The words of @bits as "0x0+0x20+0x28" */
void rm_confirm_words(uint32_t bits, char *buf, size_t n);
/* One sentence on what the watchpoints saw on @l and how it was judged (no newline). */
void rm_confirm_text(const struct rm_line *l, char *buf, size_t n);
/* "8000 writes of g_line.lock (0x0, 8 bytes) by lockread/101" */
void rm_confirm_access_text(const struct rm_cf_access *a, char *buf, size_t n);

/* Build the model of a finished table: lines @ln[0..nr) of a PMU table shown in display mode @d
 * (cltab_lines(), after cltab_redisplay() for another mode; rows in the mode's order), every
 * line of an estimate table (by cost, descending). Lines are not named yet. */
struct rm_model *rm_from_cltab(const struct cltab *t, enum cltab_display d,
			       struct cltab_line *const *ln, size_t nr);
struct rm_model *rm_from_estim(const struct estim *e);
void rm_free(struct rm_model *m);

/* Keep the lines @keep accepts; with @contended_first, lines with a verdict other than RM_V_NONE
 * come first (each group by cost, descending). Indexes are renumbered. */
void rm_keep(struct rm_model *m, int (*keep)(const struct rm_line *l, void *ctx), void *ctx,
	     int contended_first);

struct rm_name_opts {
	struct sym_session *sym;     /* NULL: every name is unknown */
	const struct maps *maps;     /* the maps model the table was fed with (a .bss tail's file) */
	int verbose;                 /* unknown names carry their reason */
};
/* Name the data of every line (what, object) and row (data, member), and size the rows'
 * accesses from their instructions (rm_row.size, rm_touch.size). */
void rm_name(struct rm_model *m, const struct rm_name_opts *o);

/* THE LINE MAP: a picture of a line's bytes, a row per thread (by tid) and a cell per byte,
 * with the kinds of access each thread made to it (an access covers its size from its first
 * byte; one byte when the size is unknown). False sharing shows as different threads writing
 * different cells of one line. */
enum { RM_MAP_READ = 1, RM_MAP_WRITE = 2, RM_MAP_ATOMIC = 4 };

struct rm_map_row {
	const struct maps_thread *thread;
	uint8_t *cell;                /* [rm_linemap.size]: RM_MAP_* bits */
	uint64_t reads, writes, atomics;
	double cost;
};

struct rm_linemap {
	uint32_t size;                /* cells (bytes of the line) */
	struct rm_map_row *row;
	size_t nr_row;
	const char **member;          /* [size]: the member each byte belongs to, NULL unknown */
};

void rm_linemap_build(const struct rm_model *m, const struct rm_line *l, struct rm_linemap *out);
void rm_linemap_release(struct rm_linemap *map);
/* The character of a cell: '.' untouched, 'r' read, 'w' written, 'x' read and written, 'a'
 * atomic. */
char rm_map_char(uint8_t cell);
/* The map as text lines, each handed to @put: a ruler, the members by letter, a row per thread
 * (at most @max_rows), the legend. 64 cells wide (two bytes a cell on 128-byte lines) plus a
 * 14-column label: 78 columns. */
void rm_linemap_text(const struct rm_linemap *map, size_t max_rows,
		     void (*put)(void *ctx, const char *text), void *ctx);

/* The text of column @id of line @l, or of its row @r when @r is not NULL ("12", "33.33%"), as
 * rm_col() (lines) or rm_row_col() (rows) describes it; rm_cell_col() as @c does. */
void rm_cell(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
	     enum rm_col_id id, char *buf, size_t n);
void rm_cell_col(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
		 const struct rm_col *c, char *buf, size_t n);
/* The width cell @c of @l (@r) asks of a fitted column: its length, except where perf counts
 * otherwise (an unresolved symbol asks 22, a row's Object 16 when its symbol is unresolved). */
int rm_cell_claim(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
		  const struct rm_col *c);
/* perf's Source:Line of a row ("file.c:12", "??:0", "sym+off", "dso[hex]"). */
void rm_srcline(const struct rm_row *r, char *buf, size_t n);
/* The set bits of @set[0..nbits) as perf's bitmap_scnprintf() lists them: "0", "0-1,3". "" for
 * none. */
void rm_range_text(const uint64_t *set, uint32_t nbits, char *buf, size_t n);
/* 100 * part / whole, 0 when whole is 0. */
double rm_pct(double part, double whole);
/* The row of @l whose backend record is @src, or NULL. */
const struct rm_row *rm_row_of(const struct rm_line *l, const void *src);
/* The line whose backend record is @src, or NULL. */
const struct rm_line *rm_line_of(const struct rm_model *m, const void *src);

/* The line's object as a narrow column shows it: "buf1", "*c" (of "heap of pid 12: *c"), "-". */
const char *rm_object_short(const struct rm_line *l);
/* A thread as the reports name it: "comm/tid", or "tid N" before its comm is known. */
void rm_thread_name(const struct maps_thread *t, char *buf, size_t n);

/* Check for tests: a line's touches add up to its rows' loads, stores and atomics, and its rows
 * to the line. 0 or -EBADMSG (detail to the log hook). */
int rm_check(const struct rm_model *m);

#endif
