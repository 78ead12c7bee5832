/* cltable: the cacheline table, the model every front end of `report` browses.
 *
 * Samples are folded in one pass into cacheline entries (keyed like perf 6.1's dcacheline sort:
 * cpumode, data map presence, DSO identity, pid for anonymous private memory, cacheline of the
 * map-relative address) and, under each line, offset entries keyed by the cacheline offset of the
 * virtual address plus the coalesce keys (pid, tid, code address, code DSO). Each entry keeps the
 * c2c counter block, CPU and memory-node sets, the physical-address change count, per-node counters
 * and latency means, all with perf's semantics (c2c-semantics.md §3-§5).
 *
 * cltab_finish() then marks shared lines, sums them, sorts lines (display metric descending, ties
 * by line key), applies the display filter, sorts each displayed line's offsets and resolves the
 * code symbols of their entries through a caller-given function. After it the table is read-only:
 * cltab_lines() gives the displayed lines in order (all lines with show_all).
 *
 * Aggregation keeps compact records (48 bytes per offset entry with one sample, about 150 with
 * more, 72 per line); the structs below are built by cltab_finish() for the displayed lines only.
 * Memory is proportional to the number of distinct lines and offsets. The table owns its entries;
 * it borrows the maps model (threads, maps, DSOs) and the strings the symbol function returns,
 * which must outlive the table. Not thread-safe: one thread feeds and reads it (with jobs > 1 the
 * table runs its own aggregation threads behind cltab_feed() and joins them in cltab_finish()). */
#ifndef C2C_REPORT_CLTABLE_H
#define C2C_REPORT_CLTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"
#include "report/aggregate/callers.h"
#include "report/aggregate/dsrc.h"
#include "report/resolve/maps.h"

enum cltab_display {
	CLTAB_DISPLAY_TOT,   /* Total HITMs */
	CLTAB_DISPLAY_RMT,   /* Remote HITMs */
	CLTAB_DISPLAY_LCL,   /* Local HITMs */
	CLTAB_DISPLAY_PEER,  /* Peer snoops */
};

enum cltab_coalesce {
	CLTAB_CO_PID,
	CLTAB_CO_TID,
	CLTAB_CO_IADDR,
	CLTAB_CO_DSO,
};

#define CLTAB_CO_MAX 8

/* What a code address resolved to (see report/resolve/symbols.h, sym_code()). */
struct cltab_code {
	const char *symbol;   /* NULL: unknown */
	uint64_t sym_offset;
	const char *srcfile;  /* NULL: unknown */
	uint32_t line;
};

/* Resolve @ip (code, al_ip map-relative) in @map (NULL: no map) for a sample of @cpumode.
 * Returns 0 when a symbol was found. Strings must stay valid until the table is freed. */
typedef int (*cltab_sym_fn)(void *ctx, const struct maps_map *map, uint8_t cpumode, uint64_t ip,
			    uint64_t al_ip, struct cltab_code *out);

struct cltab_opts {
	uint32_t cl_size;                 /* bytes: a power of two, 1 to 32768 */
	enum cltab_display display;
	enum cltab_coalesce coalesce[CLTAB_CO_MAX];
	int nr_coalesce;
	int show_all;
	uint32_t nr_cpus;                 /* size of CPU sets (perf's nr_cpus_avail) */
	const int32_t *cpu_node;          /* [nr_cpus]: NUMA node of each CPU or -1 */
	uint32_t nr_nodes;
	const struct trace_mem_range *mem_ranges;  /* physical address -> memory node */
	uint32_t nr_mem_ranges;
	cltab_sym_fn sym;                 /* NULL: no symbols (perf's unreadable-file output) */
	void *sym_ctx;
	int no_node_stats;                /* leave cltab_offset.node_stats zero (faster, smaller):
					   * for front ends that show no per-node columns */
	uint32_t jobs;                    /* > 1: that many aggregation threads, started when the
					   * table outgrows what one thread folds in the caches
					   * (32768 entries or 8192 lines): the lines made until
					   * then stay with the feeding thread, each later line goes
					   * to one thread's shard (results identical to one
					   * thread); not with callchains, counted by one thread */
	int callchains;                   /* keep the samples' callchains (report -g) */
	int keep_sums;                    /* keep the line sums for cltab_redisplay() */
	int phys;                         /* --phys: a line is a physical cacheline, whatever maps
					   * it; samples without a physical address are counted in
					   * cltab_counts.no_phys and left out */
};

enum { CLTAB_CYC_RMT_HITM, CLTAB_CYC_LCL_HITM, CLTAB_CYC_RMT_PEER, CLTAB_CYC_LCL_PEER,
       CLTAB_CYC_LOAD, CLTAB_CYC_NR };

/* Running mean of the sample weights of one class (perf's util/stat.c update_stats). */
struct cltab_mean {
	double n, mean;
};

struct cltab_line;

/* Counters of one thread's samples in an offset entry (each sample's decoded counter block). */
enum { CLTAB_T_LD, CLTAB_T_ST, CLTAB_T_LOCK, CLTAB_T_LCL_HITM, CLTAB_T_RMT_HITM, CLTAB_T_LCL_PEER,
       CLTAB_T_RMT_PEER, CLTAB_T_NR };

struct cltab_touch {
	const struct maps_thread *thread;
	uint32_t n[CLTAB_T_NR];
};

struct cltab_offset {
	const struct cltab_line *line;
	uint64_t offset;          /* cl_offset(virtual address): merge and sort key */
	uint64_t disp_offset;     /* cl_offset(map-relative address): displayed */
	/* properties of the first sample */
	uint64_t ip;
	uint8_t cpumode;
	const struct maps_thread *thread;
	const struct maps_map *cmap;  /* code map looked up with the sample's cpumode, or NULL */
	uint64_t code_al;             /* map-relative code address (maps_rel_addr(cmap, ip)) */
	const char *dso_key;          /* cmap's interned short name, NULL without a map */
	/* aggregates */
	struct dsrc_stats stats;
	struct dsrc_stats *node_stats;    /* [nr_nodes], by the node of the sampling CPU */
	struct cltab_mean cycles[CLTAB_CYC_NR];
	uint64_t *cpuset;
	uint64_t *nodeset;
	uint64_t paddr, paddr_cnt;
	/* filled by cltab_finish() */
	uint32_t cpu_cnt;
	int visible;                  /* has stores or the display metric */
	struct cltab_code code;
	int has_sym;
	/* which threads sampled the entry, in order of their first sample */
	struct cltab_touch *touch;
	size_t nr_touch;
	/* with opts.callchains: the entry's chains (cltab_callers() ids) and their samples,
	 * symbols resolved */
	const struct callers_use *callers;
	size_t nr_callers;
};

struct cltab_line {
	/* key */
	uint8_t cpumode;
	const struct maps_map *dmap;  /* data map of the first sample, or NULL */
	int32_t key_pid;              /* pid for anonymous private memory, else 0 */
	uint64_t cl;                  /* cl_address(map-relative address); --phys: (physical) */
	/* first sample */
	uint64_t addr;                /* cl_address(virtual address): displayed; --phys: = cl */
	uint64_t vaddr;               /* cl_address(virtual address): where names are looked up */
	/* aggregates */
	struct dsrc_stats stats;
	uint64_t *nodeset;
	uint64_t paddr, paddr_cnt;
	/* offsets: all of them, sorted (displayed lines are the only ones built) */
	struct cltab_offset **off;
	size_t nr_off, cap_off;
	/* filled by cltab_finish() */
	int shared;
	uint32_t index;               /* display index */
};

struct cltab;

struct cltab *cltab_new(const struct cltab_opts *opts);
void cltab_free(struct cltab *t);

/* Feed one record of the source in order: side-band records update @maps, samples are decoded,
 * resolved in @maps and aggregated. Other records are counted (lost, throttle). */
void cltab_feed(struct cltab *t, struct maps *maps, const struct trace_event *ev);

/* One sample already resolved against the maps (what cltab_feed() does for a trace_sample). */
struct cltab_sample {
	uint64_t addr, al_addr, ip, phys_addr, weight, data_src;
	uint32_t cpu;             /* TRACE_CPU_NONE when absent */
	uint8_t cpumode;
	const struct maps_thread *thread;
	const struct maps_map *dmap, *cmap;
	int has_code_map;         /* code address found in any mode */
	uint32_t chain;           /* callers_intern() id in cltab_callers(); 0: none */
};
void cltab_add(struct cltab *t, const struct cltab_sample *s);

/* Mark shared lines, sort, filter and resolve symbols. Call once, after the last sample. */
void cltab_finish(struct cltab *t);

/* With opts.keep_sums, after cltab_finish(): the displayed lines for display mode @d instead,
 * as cltab_finish() would have built them with opts.display = @d (filtered, sorted, offsets in
 * that mode's order). Pointers from cltab_lines() before the call are gone. */
void cltab_redisplay(struct cltab *t, enum cltab_display d);

/* Results (after cltab_finish). */
const struct cltab_opts *cltab_opts(const struct cltab *t);
const struct dsrc_stats *cltab_total(const struct cltab *t);   /* every sample */
const struct dsrc_stats *cltab_shared(const struct cltab *t);  /* samples of shared lines */
uint32_t cltab_nr_shared(const struct cltab *t);
size_t cltab_nr_lines(const struct cltab *t);                  /* all lines */
size_t cltab_nr_offsets(const struct cltab *t);                /* all offset entries */
/* The displayed lines in display order; *nr set. */
struct cltab_line *const *cltab_lines(const struct cltab *t, size_t *nr);
/* The callchain dictionary (NULL without opts.callchains). */
const struct callers *cltab_callers(const struct cltab *t);
/* Counters of non-sample records seen by cltab_feed(). */
struct cltab_counts {
	uint64_t samples, lost_records, lost_samples, throttle, unthrottle;
	uint64_t no_cpu, bad_cpu, no_node;   /* warnings perf prints once */
	uint64_t no_phys;                    /* --phys: samples without a physical address */
};
const struct cltab_counts *cltab_counts(const struct cltab *t);

/* The display metric of a counter block, and the line filter test. */
uint32_t cltab_metric(enum cltab_display d, const struct dsrc_stats *st);
/* Number of CPUs / nodes in a set of the table's size. */
uint32_t cltab_set_count(const struct cltab *t, const uint64_t *set, uint32_t nbits);
uint32_t cltab_node_words(const struct cltab *t);
uint32_t cltab_nr_node_bits(const struct cltab *t);

/* perf's order of the offset rows of a line (c2c-semantics.md §5.3) for display mode @d: offset
 * ascending, the mode's key(s) descending, then the coalesce tokens in the user's order (pid
 * descending, everything else ascending). 0 for entries equal under all of these. */
int cltab_offset_order(const struct cltab_opts *op, enum cltab_display d,
		       const struct cltab_offset *a, const struct cltab_offset *b);

/* Consistency check for tests: totals equal the sum of lines, lines the sum of their offsets.
 * Returns 0 or -EBADMSG (detail to the log hook). */
int cltab_check(const struct cltab *t);

#endif
