/* estimate: the cacheline model of the two backends that have no data-source PMU, the soft
 * backend (cpu-clock samples whose data address the recorder recovered by decoding the stalled
 * instruction: figures are ESTIMATES of where time went) and the watch backend (hardware
 * watchpoints: every access to a watched word is a sample; coherence transfers are COUNTED by
 * replaying them through report/aggregate/watch-model.h).
 *
 * Samples are folded into cachelines keyed like report/aggregate/cltable.h (cpumode, data map presence,
 * DSO identity, pid for anonymous private memory, cacheline of the map-relative address), and
 * inside a line into sites keyed by (offset, code address) and into per-offset summaries. A soft
 * sample whose address was not recovered is counted by its reason (include/c2c/soft.h), never
 * dropped. estim_finish() replays watch accesses, resolves code symbols and sorts.
 *
 * The verdict (false or true sharing) and the data names are not made here: the report model
 * (report/model/) judges the touches every backend gives, once for all of them.
 *
 * Weights: a soft sample weighs trace_sample.weight (its period in ns; 1 when absent); a watch
 * sample weighs 1 (one access). Lines sort by weight (soft) or transfers, invalidations and
 * accesses (watch), all descending, ties by the line key.
 *
 * Ownership: the table owns its lines; it borrows the maps model and the strings the symbol
 * callbacks return, which must outlive it. Pure: no I/O. Not thread-safe. */
#ifndef C2C_REPORT_ESTIMATE_H
#define C2C_REPORT_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/confirm.h"
#include "c2c/soft.h"
#include "c2c/trace.h"
#include "report/aggregate/callers.h"
#include "report/resolve/maps.h"
#include "report/aggregate/watch-model.h"

enum estim_mode {
	ESTIM_SOFT = 1,          /* timer samples: figures are time shares */
	ESTIM_WATCH,             /* watchpoint hits: figures are counts */
};

/* Unrecovered buckets: every softdec reason, plus one for a recovered reason without address. */
#define ESTIM_NO_ADDR SOFTDEC_REASON__MAX
#define ESTIM_NR_REASONS (SOFTDEC_REASON__MAX + 1)

struct estim_code {
	const char *symbol;      /* NULL: unknown */
	uint64_t sym_offset;
	const char *srcfile;     /* NULL: unknown */
	uint32_t line;
};

/* Resolve code address @ip (map-relative @al_ip) found in @map (NULL: none). 0 when found. */
typedef int (*estim_code_fn)(void *ctx, const struct maps_map *map, uint64_t ip, uint64_t al_ip,
			     struct estim_code *out);
/* The address of the instruction @back instructions before @ip in its function (@map holds
 * it), for soft samples of traces before 1.6, which carry no access instruction. 0 when found. */
typedef int (*estim_back_fn)(void *ctx, const struct maps_map *map, uint64_t ip,
			     unsigned int back, uint64_t *at);
struct estim_opts {
	enum estim_mode mode;
	uint32_t cl_size;        /* bytes, a power of two (0: 64) */
	/* watch: the trace predates addresses recomputed from the registers (trace format 1.1):
	 * every hit is at the start of its watched word */
	int watch_word_only;
	estim_code_fn code_sym;  /* NULL: no symbols */
	estim_back_fn insn_back; /* NULL: a sample without an access instruction keeps its ip */
	void *sym_ctx;
	int callchains;          /* keep the samples' callchains */
	int phys;                /* --phys: a line is a physical cacheline, whatever maps it;
				  * samples without a physical address are counted in
				  * estim_totals.no_phys and left out */
	/* soft: the events whose samples are confirmation watchpoint hits (event index ->
	 * nonzero), the others being timer samples; NULL: none */
	const uint8_t *confirm_event;
	uint32_t nr_events;
};

/* Counters of a line, an offset or a site. Weights are ns (soft) or accesses (watch).
 * inferred: soft samples among them whose access was one of several candidates
 * (SOFTDEC_ACC_INFERRED). */
struct estim_counts {
	uint64_t weight, samples, loads, stores, atomics, unknown;
	uint64_t inferred;
};

/* The sampled IPs of a site's soft samples, the most frequent first (its code address is the
 * access instruction). */
#define ESTIM_SIP_MAX 4

/* A sorted set of 32-bit ids (tids, CPUs). */
struct estim_set {
	uint32_t *v;
	size_t nr, cap;
};

/* One thread's accesses at a site. */
/* The time of a run in buckets of ESTIM_SPAN_NS from its first sample: a thread's accesses at
 * a site are a set of buckets, so that "at the same time" can be asked finer than from its
 * first to its last access (a task that moves between threads, a goroutine between OS threads,
 * leaves one thread's buckets for another's). */
#define ESTIM_SPAN_NS 4000000ULL

struct estim_tc {
	const struct maps_thread *thread;
	uint32_t cpu;            /* the first CPU it was seen on, TRACE_CPU_NONE */
	uint64_t t_first, t_last;  /* times of its first and last access */
	uint64_t *span;          /* bit b: an access in bucket b (ESTIM_SPAN_NS) */
	uint32_t nr_span;        /* words */
	struct estim_counts c;
	struct watch_stats ws;   /* watch: the model's counts of this thread's accesses */
};

struct estim_site {
	uint32_t offset;         /* cacheline offset of the virtual address */
	uint64_t ip, code_al;    /* code address, and map-relative: soft, the access instruction
				  * (trace_sample.access_ip; before 1.6, the instruction detail's
				  * back is before the sampled IP, found in the binary) */
	const struct maps_map *cmap;
	unsigned int back;       /* soft: the access is this many instructions before ip; 0 but
				  * where the access instruction could not be found */
	struct { uint64_t ip, samples; } sip[ESTIM_SIP_MAX];   /* sampled IPs */
	uint32_t nr_sip;
	uint64_t sip_other;      /* samples at sampled IPs past the first ESTIM_SIP_MAX */
	struct estim_counts c;
	struct estim_set tids, cpus;
	struct watch_stats ws;   /* watch: the model's counts at (offset, ip) */
	struct estim_tc *tc;     /* per thread, in order of first access */
	size_t nr_tc, cap_tc;
	uint32_t id;             /* creation number (sites move in their line's array) */
	/* filled by estim_finish() */
	int has_code;
	struct estim_code code;
	const struct callers_use *callers;   /* with opts.callchains: chains, symbols resolved */
	size_t nr_callers;
};

struct estim_offset {
	uint32_t offset;
	struct estim_counts c;
	struct estim_set tids, writers, readers, cpus;
	struct watch_stats ws;
};

/* SOFT: WHAT THE CONFIRMATION WATCHPOINTS SAW ON A LINE (include/c2c/confirm.h). The hits are
 * not timer samples: they stay out of every time share and count (estim_counts), and are kept
 * per thread and offset, with the words the windows armed together. Each window's hits are
 * replayed through the coherence model on their own (report/aggregate/watch-model.h), so a
 * transfer is counted only between words armed at the same time. A hit belongs to the window
 * whose blob follows it in the trace when that window armed its word, else to the one before
 * (it trapped between the recorder's last drain and the move of the registers); a hit in
 * neither is counted but not replayed (estim_confirm.unplaced). */
struct estim_cacc {
	uint32_t offset;         /* first byte in the line */
	uint32_t size;           /* the widest access seen there (bytes; 0: unknown) */
	const struct maps_thread *thread;
	uint64_t reads, writes, atomics;
	uint64_t t_first, t_last;        /* times of the first and last access */
	uint64_t ip, code_al;    /* the first access's code */
	const struct maps_map *cmap;
	int has_code;            /* filled by estim_finish() */
	struct estim_code code;
	struct watch_stats ws;   /* the model's counts of these accesses */
};

struct estim_coarm {
	uint32_t words;          /* bit i: the 8-byte word at offset 8 * i */
	uint64_t windows, armed_ns, hits;
};

struct estim_chit;

struct estim_confirm {
	uint64_t hits;           /* accesses seen */
	uint64_t unplaced;       /* ... in no window of the line: not replayed */
	uint64_t windows, armed_ns;      /* windows that armed the line, and their armed time */
	struct watch_stats ws;   /* the model's counts, window by window */
	struct estim_cacc *acc;  /* by offset, then thread (in order of first access) */
	size_t nr_acc, cap_acc;
	struct estim_coarm *coarm;       /* by armed time, descending */
	size_t nr_coarm, cap_coarm;
	struct estim_chit *hit;  /* private: the hits until estim_finish() */
	size_t nr_hit, cap_hit;
};

struct estim_line {
	uint8_t cpumode;
	const struct maps_map *dmap;
	const struct maps_thread *thread;    /* of the first sample */
	int32_t key_pid;
	uint64_t cl;             /* cacheline of the map-relative address; --phys: physical */
	uint64_t addr;           /* cacheline of the virtual address (first sample); --phys: = cl */
	uint64_t vaddr;          /* cacheline of the virtual address: where names are looked up */
	int phys;                /* keyed by the physical line */
	struct estim_counts c;
	struct estim_set tids, cpus;
	uint32_t nr_ips;         /* distinct code addresses (estim_finish) */
	struct estim_offset *off;        /* sorted by offset */
	size_t nr_off, cap_off;
	struct estim_site *site;         /* sorted by offset, then ip */
	size_t nr_site, cap_site;
	struct watch_access *acc;        /* watch: accesses for the model (freed by finish) */
	size_t nr_acc, cap_acc;
	struct watch_stats ws;
	struct estim_confirm *cf;  /* soft: what the confirmation watchpoints saw; NULL when none
				    * was armed on the line */
	uint32_t seq;            /* creation order: the last tie-break */
};

struct estim_totals {
	uint64_t samples, weight;        /* every sample */
	uint64_t recovered, recovered_weight;
	uint64_t reason[ESTIM_NR_REASONS], reason_weight[ESTIM_NR_REASONS];
	uint64_t lost_records, lost_samples, throttle;
	uint64_t no_cpu;                 /* watch: accesses left out of the model (no CPU) */
	uint64_t model_errors;           /* watch: accesses the model refused */
	uint64_t unknown_kind;           /* recovered samples of unknown kind (shown as loads) */
	uint64_t no_phys;                /* --phys: recovered samples without a physical address */
	/* watch: how the hits with an address were placed in their word (ESTIM_PLACED_*) */
	uint64_t placed[3];
	/* soft: samples whose access was one of several candidates (SOFTDEC_ACC_INFERRED,
	 * record/soft-decode.h rule 1b), with an address: charged among the candidates by what
	 * the same thread was seen doing exactly; of them, those whose candidates were all on one
	 * line (the line is certain, the offset is not), and those whose thread was seen at none
	 * of its candidates exactly (charged to the recorder's pick, the straight-line one) */
	uint64_t inferred, inferred_weight, inferred_one_line, inferred_unseen;
	/* soft: the confirmation (include/c2c/confirm.h): the run's summary when the trace has
	 * one (have_confirm), the windows and hits read */
	int have_confirm;
	struct c2c_confirm_run confirm;
	uint64_t confirm_windows, confirm_hits, confirm_bad;   /* bad: blobs that did not parse */
	uint64_t confirm_lines;  /* lines whose words a window armed */
};

/* Samples without a data address at one code address (the access instruction when known,
 * else the sampled IP), by reason (an ESTIM_NR_REASONS bucket). */
struct estim_unattr {
	uint64_t ip, code_al;
	const struct maps_map *cmap;
	int reason;
	uint64_t samples, weight;
	int has_code;            /* code resolved (the first ESTIM_UNATTR_RESOLVE by weight) */
	struct estim_code code;
};
#define ESTIM_UNATTR_RESOLVE 16

/* estim_totals.placed: the offset of a watch hit was */
enum {
	ESTIM_PLACED_EXACT,      /* recomputed from the registers at the trap */
	ESTIM_PLACED_INFERRED,   /* inferred from the operand's size and displacement */
	ESTIM_PLACED_WORD,       /* unknown: the start of the watched word */
};
/* Names for reports: "exact (from the registers)", ... */
const char *estim_placed_name(int placed);

struct estim;

struct estim *estim_new(const struct estim_opts *opts);
/* The callchain dictionary (NULL without opts.callchains). */
const struct callers *estim_callers(const struct estim *e);
void estim_free(struct estim *e);

/* Feed one record in source order: side-band records update @maps, samples are aggregated. */
void estim_feed(struct estim *e, struct maps *maps, const struct trace_event *ev);

/* Replay watch accesses, sort, resolve the code symbols of every site. Once. */
void estim_finish(struct estim *e);

/* The code addresses of the samples without a data address, by weight descending (after
 * estim_finish()). */
size_t estim_unattr(const struct estim *e, const struct estim_unattr **out);
const struct estim_opts *estim_opts(const struct estim *e);
const struct estim_totals *estim_totals(const struct estim *e);
size_t estim_nr_lines(const struct estim *e);
/* Line @i in display order (after estim_finish); NULL when out of range. */
const struct estim_line *estim_line(const struct estim *e, size_t i);

/* Check for tests: totals equal the sum of the lines plus the unrecovered samples, a line's
 * counts the sum of its offsets and of its sites. 0 or -EBADMSG (detail to the log hook). */
int estim_check(const struct estim *e);

/* part / whole in percent; 0 when whole is 0. */
double estim_pct(uint64_t part, uint64_t whole);

#endif
