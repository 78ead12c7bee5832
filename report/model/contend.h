/* contend: the contended lines of a judged model seen two other ways, by code and by type.
 *
 * CONTENDING FUNCTIONS. Two functions contend on a line when threads running them touch it, at
 * least one writing, from two different threads; a function contends with itself when two of its
 * threads do (a counter every worker increments). A pair's cost is what its two functions' touches
 * of its lines cost (a function's touches count in every pair it is part of: the pairs are a
 * view, they do not add up to the total). Pairs are ranked by cost.
 *
 * CONTENTION BY DATA TYPE. The rows of contended lines whose data is an instance of a named type
 * (rm_row.type, rm_row.inst) are grouped by the type and the type's own line: line k holds bytes
 * [k * cl_size, (k + 1) * cl_size) of the type, wherever its instances lie. Many short-lived
 * instances of one type (one heap object per call) pool there into one answer: how many
 * instances were seen, by which threads, with which members on that line, and their verdict.
 *
 * Pure: a judged model in (rm_judge()), the views out; strings borrowed from the model. */
#ifndef C2C_REPORT_MODEL_CONTEND_H
#define C2C_REPORT_MODEL_CONTEND_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/model.h"

/* A function as the views name it: its symbol, or its code address when unresolved. */
struct rm_fn {
	const char *name;            /* NULL: unresolved */
	uint64_t addr;               /* the code address (map-relative when mapped) */
	const char *dso;             /* the code's map, NULL: none */
};

struct rm_fn_pair {
	struct rm_fn fn[2];          /* fn[0] before fn[1] by name; equal: one function, threads */
	int self;                    /* one function contending with itself across threads */
	double cost;                 /* in the model's cost unit */
	double share;                /* percent of the model's total cost */
	enum rm_verdict verdict;     /* of its costliest line */
	uint32_t *line;              /* indexes into rm_model.line, costliest first */
	size_t nr_line;
	const struct maps_thread **thread;   /* distinct threads, by tid */
	size_t nr_thread;
};

struct rm_type_line {
	const char *type;            /* "struct counters" */
	uint32_t index;              /* the type's own line: bytes index * cl_size and up */
	uint64_t nr_inst;            /* distinct instances seen */
	double cost, share;          /* of the rows' touches; share: percent of the total cost */
	enum rm_verdict verdict;     /* of its costliest line */
	const char **member;         /* distinct member paths on that line (NULL: unnamed bytes) */
	size_t nr_member;
	const struct maps_thread **thread;
	size_t nr_thread;
	uint32_t *line;              /* indexes into rm_model.line, costliest first */
	size_t nr_line;
};

struct rm_contend {
	struct rm_fn_pair *pair;     /* by cost, descending */
	size_t nr_pair;
	struct rm_type_line *type;   /* by cost, descending */
	size_t nr_type;
};

/* The views of the lines of @m judged contended (verdict other than RM_V_NONE). */
struct rm_contend *rm_contend_build(const struct rm_model *m);
void rm_contend_free(struct rm_contend *c);

/* "counter_add", "[.] 0x4011a6 (app)" */
void rm_fn_text(const struct rm_fn *f, char *buf, size_t n);

#endif
