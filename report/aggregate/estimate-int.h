/* The estimate table's private structs, shared by its files (report/aggregate/estimate*.c);
 * callers include report/aggregate/estimate.h. */
#ifndef C2C_REPORT_ESTIMATE_INT_H
#define C2C_REPORT_ESTIMATE_INT_H

#include "report/aggregate/dsrc.h"
#include "report/aggregate/estimate.h"

enum estim_kind { ESTIM_K_LOAD, ESTIM_K_STORE, ESTIM_K_ATOMIC, ESTIM_K_UNKNOWN };

enum { ESTIM_READ = 1, ESTIM_WRITE = 2 };

struct estim {
	struct estim_opts opts;
	struct estim_totals tot;
	struct estim_line **lines;       /* creation order, display order after finish */
	size_t nr_lines, cap_lines;
	struct estim_line **hash;        /* open addressing, power-of-two size */
	size_t hash_size;
	int finished;
	struct callers *callers;         /* with opts.callchains */
	uint32_t nr_site_ids;
	struct estim_pend *pend;         /* inferred samples, charged by estim_finish() */
	size_t nr_pend, cap_pend;
	struct estim_unattr *ua;         /* samples without a data address, by (ip, reason) */
	size_t nr_ua, cap_ua;
	uint32_t *ua_hash;               /* index + 1 into ua, open addressing */
	size_t ua_hash_size;
	struct c2c_confirm_window *win;  /* soft: the confirmation windows, in trace order */
	size_t nr_win, cap_win;
	uint8_t *confirm_event;          /* opts.confirm_event, copied */
	uint64_t t0;                     /* the first sample's time (buckets, estimate.h) */
	int have_t0;
};

/* What one sample contributes, after decoding and map lookup. */
struct estim_in {
	uint64_t addr, al_addr, phys, ip, code_al, weight, time;
	uint64_t sip;                    /* the sampled IP (ip: the access instruction) */
	uint32_t span;                   /* its time bucket (ESTIM_SPAN_NS since the first) */
	int inferred;                    /* one of several candidate accesses */
	unsigned int back;
	uint32_t tid, cpu;
	int32_t pid;
	uint8_t cpumode;
	enum estim_kind kind;
	const struct maps_map *dmap, *cmap;
	const struct maps_thread *thread;
	uint32_t chain;                  /* callers id, 0: none */
};

/* One candidate access of an inferred soft sample: what differs from the sample's estim_in. */
struct estim_cand {
	uint64_t addr, al_addr, ip, code_al;
	enum estim_kind kind;
	const struct maps_map *dmap, *cmap;
};

#define ESTIM_CAND_MAX (1 + TRACE_ALT_MAX)

/* An inferred sample waiting for estim_finish() to charge it to one of its candidates. */
struct estim_pend {
	struct estim_in in;
	struct estim_cand c[ESTIM_CAND_MAX];
	uint8_t n, one_line;
};

/* A line's key, report/aggregate/cltable.h's dcacheline key (estimate.c: line keys). */
struct estim_key {
	uint8_t cpumode;
	int has_map, anon;
	uint32_t maj, min;
	uint64_t ino, gen;
	int32_t pid;
	uint64_t cl;
};

/* --- shared between the files ------------------------------------------------------------- */

/* What one file defines for the others (their comments are at the definitions). */
/* estimate.c */
int estim_is_write(enum estim_kind k);
void estim_line_key(const struct estim_line *l, struct estim_key *k);
int estim_u64_cmp(uint64_t a, uint64_t b);
int estim_key_cmp(const struct estim_key *a, const struct estim_key *b);
struct estim_line *estim_line_of(struct estim *e, const struct estim_in *in, int create);
size_t estim_site_pos(const struct estim_line *l, uint32_t offset, uint64_t ip, int *found);
void estim_add(struct estim *e, const struct estim_in *in);
void estim_use_cand(struct estim_in *in, const struct estim_cand *c);
void estim_locate(struct maps *maps, struct maps_thread *th, const struct trace_sample *ts,
		  struct estim_in *in);
/* estimate-confirm.c */
int estim_is_confirm(const struct estim *e, const struct trace_sample *s);
void estim_cf_free(struct estim_confirm *cf);
void estim_feed_hit(struct estim *e, struct maps *maps, const struct trace_sample *ts);
void estim_feed_blob(struct estim *e, const struct trace_blob *b);
void estim_cf_finish(struct estim *e);

#endif
