/* callers: the callchains of a table's rows, and the tree perf builds from them.
 *
 * Chains are interned once (a dictionary: each distinct chain of resolved frames is stored one
 * time, whatever the number of samples that have it), and each row keeps (chain, count) pairs.
 * callers_tree() then builds perf 6.1's callchain tree (util/callchain.c: callchain_append()
 * and sort_chain_graph_abs() under the default key "function"): a node holds a run of frames
 * shared by the chains under it; a frame equals another when both resolved to the same symbol
 * of the same DSO, else when both are the same address in the same DSO; children are ordered
 * by the hits under them (descending), ties keeping perf's key order (DSO, then symbol start or
 * address, descending). Counts are samples (perf weighs by the sample period; with a fixed
 * period, as c2c-lite records, the percentages are the same).
 *
 * Pure: frames come resolved against the maps by the caller; symbols are asked for through a
 * function only for the chains of the rows shown. Not thread-safe. */
#ifndef C2C_REPORT_CALLERS_H
#define C2C_REPORT_CALLERS_H

#include <stddef.h>
#include <stdint.h>

#include "report/resolve/maps.h"

/* perf reads kernel.perf_event_max_stack (default 127): addresses past it are dropped. */
#define CALLERS_MAX_STACK 127

struct callers_frame {
	uint64_t ip;                  /* the address as recorded */
	const struct maps_map *map;   /* where it landed (looked up with cpumode); NULL: nowhere */
	uint64_t al;                  /* the map-relative address (perf's al_addr) */
	uint8_t cpumode;              /* from the context markers before it */
	/* filled by callers_resolve() */
	uint8_t resolved;
	const char *symbol;           /* NULL: unknown (shown as the address) */
	uint64_t sym_start;           /* the symbol's start, in the same space as ip */
};

struct callers_use {
	uint32_t chain;               /* callers_intern() id */
	uint32_t n;                   /* samples */
};

struct callers;

struct callers *callers_new(void);
void callers_free(struct callers *c);

/* Intern @nr frames (callee order: the sampled address first); returns the chain's id (> 0),
 * or 0 for an empty chain. */
uint32_t callers_intern(struct callers *c, const struct callers_frame *f, uint32_t nr);

/* Turn a recorded callchain (perf's PERF_SAMPLE_CALLCHAIN with context markers) into frames,
 * the way perf's thread__resolve_callchain_sample() walks it: a marker sets the cpumode of the
 * addresses after it (user before any), an unknown marker discards the chain, at most
 * CALLERS_MAX_STACK addresses. @find looks an address up in the sample's thread. Returns the
 * number of frames written to @out (room for CALLERS_MAX_STACK). */
typedef void (*callers_find_fn)(void *ctx, uint8_t cpumode, uint64_t ip, struct maps_loc *loc);
uint32_t callers_frames(const uint64_t *chain, uint32_t nr, callers_find_fn find, void *ctx,
			struct callers_frame *out);

/* callers_frames() with the addresses looked up in @th's maps as they are now, interned: the
 * chain id (0: nothing left of it). */
uint32_t callers_intern_sample(struct callers *c, const struct maps *maps,
			       const struct maps_thread *th, const uint64_t *chain, uint32_t nr);

/* One sample of row @row (any number the caller chooses) had chain @id. */
void callers_count(struct callers *c, uint32_t row, uint32_t id);
/* After the last count: the chains of row @row; returns their number. */
size_t callers_of_row(struct callers *c, uint32_t row, const struct callers_use **out);

/* Resolve the frames of chain @id once: @fn returns 0 and the symbol and its start, or non-zero. */
typedef int (*callers_sym_fn)(void *ctx, const struct callers_frame *f, const char **symbol,
			      uint64_t *start);
void callers_resolve(struct callers *c, uint32_t id, callers_sym_fn fn, void *ctx);
const struct callers_frame *callers_chain(const struct callers *c, uint32_t id, uint32_t *nr);

enum callers_order {
	CALLERS_CALLEE,               /* the sampled function at the root (perf's default) */
	CALLERS_CALLER,               /* the outermost caller at the root (perf c2c report -g) */
};

struct callers_node {
	const struct callers_frame **val;   /* the run of frames this node stands for */
	uint32_t nr_val;
	uint64_t hit;                       /* samples whose chain ends here */
	uint64_t children_hit;              /* samples under the children */
	struct callers_node **child;        /* after callers_tree(): hits descending */
	uint32_t nr_child;
};

static inline uint64_t callers_cumul(const struct callers_node *n)
{
	return n->hit + n->children_hit;
}

/* The tree of @n uses (chains of one row); its root has no frames. Free with callers_tree_free. */
struct callers_node *callers_tree(const struct callers *c, const struct callers_use *u, size_t n,
				  enum callers_order order);
void callers_tree_free(struct callers_node *root);

/* A frame as perf prints it in a callchain: the symbol, or the address as %#llx. */
const char *callers_frame_name(const struct callers_frame *f, char *buf, size_t size);

#endif
