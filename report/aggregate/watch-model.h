/* Watchpoint backend model: replays the accesses that hardware watchpoints caught on the words
 * of a few cachelines through a MESI-like coherence model, and counts what a PMU with HITM
 * reporting would have seen. Pure: accesses in, counters out; no I/O.
 *
 * THE MODEL. Each cacheline has one state per CPU: M (modified), E (exclusive), S (shared) or
 * I (invalid); every line starts I everywhere. Accesses are applied in time order:
 *   read on CPU c   c holds M, E or S: a hit, nothing moves.
 *                   c holds I and another CPU d holds M: a HITM-equivalent transfer (the line
 *                   moves modified from d); d and c end in S.
 *                   c holds I and others hold S or E: a clean transfer ("shared"); all end S.
 *                   nobody holds it: c fetches it from memory and ends E.
 *   write on CPU c  c holds M: a hit. c holds E: silently becomes M.
 *                   otherwise (c holds S or I): if another CPU d holds M, a HITM-equivalent
 *                   transfer (the request for ownership hits d's modified copy); else if others
 *                   hold S or E, an invalidation. Every other CPU ends I, c ends M.
 * A HITM is split into true and false sharing: it is "true" when the bytes of the access overlap
 * the bytes the previous owner wrote while it held the line M, and "false" otherwise (the line
 * moved only because neighbouring bytes were written). Counts are charged to the access that
 * incurred them, at its offset in the line and its code address. Only watched accesses exist
 * for the model: a store the watchpoints missed cannot cause a transfer.
 *
 * ROTATION. x86 has 4 debug registers. When more words of a line are asked for, the recorder
 * rotates the registers over the words on a timer (watch_rotation_words() gives the words of
 * each step) and records, per word, how long it was watched. A count seen on a word watched for
 * a fraction f of the run estimates count / f over the whole run (watch_scale()). Transfers need
 * both the writer's and the reader's words watched at once, so scaled transfer counts are lower
 * bounds when words were not always watched together.
 *
 * Ownership: the model owns its lines; a pointer from watch_model_line() stays valid until
 * watch_model_free(), its sites array until the next watch_model_add(). Not thread-safe. */
#ifndef C2C_REPORT_WATCH_MODEL_H
#define C2C_REPORT_WATCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define WATCH_LINE_MAX 128       /* largest cacheline size the model accepts (POWER: 128) */

/* One access caught by a watchpoint. */
struct watch_access {
	uint64_t time;           /* ns; watch_model_add() needs non-decreasing times */
	uint32_t cpu, tid;
	uint64_t ip;             /* code address of the access */
	uint64_t addr;           /* data address */
	uint32_t size;           /* bytes, 1..8; must not cross the line */
	int is_write;
};

struct watch_stats {
	uint64_t accesses, reads, writes;
	uint64_t hitm;           /* transfers of a modified line (HITM equivalent) */
	uint64_t hitm_true;      /* ... of which the access overlapped the bytes the owner wrote */
	uint64_t hitm_false;     /* ... of which it did not: false sharing */
	uint64_t shared;         /* reads served by another CPU's clean copy */
	uint64_t inval;          /* writes that invalidated clean copies on other CPUs */
};

/* Counters of one (offset, code address, thread) of a line. */
struct watch_site {
	uint32_t offset;
	uint64_t ip;
	uint32_t tid;
	struct watch_stats st;
};

struct watch_line {
	uint64_t addr;           /* line address (aligned to the line size) */
	struct watch_stats total;
	struct watch_stats by_offset[WATCH_LINE_MAX]; /* indexed by the access's first byte */
	size_t nr_sites;
	struct watch_site *sites;     /* sorted by offset, then ip, then tid */
};

enum watch_state { WATCH_I = 0, WATCH_S, WATCH_E, WATCH_M };

struct watch_model;

/* @line_size: a power of two from 8 to WATCH_LINE_MAX (0: 64). -EINVAL otherwise. */
int watch_model_new(struct watch_model **out, uint32_t line_size);
void watch_model_free(struct watch_model *m);

/* Apply one access. -EINVAL when its time is before the previous access's, its size is 0 or
 * above 8, or it crosses a line; -ERANGE for a CPU number above 4095. The model is unchanged on
 * error. */
int watch_model_add(struct watch_model *m, const struct watch_access *a);
/* Apply @n accesses after sorting them by time (ties: cpu, then address, then ip). @acc is
 * reordered. Stops at the first error. */
int watch_model_add_all(struct watch_model *m, struct watch_access *acc, size_t n);

size_t watch_model_nr_lines(const struct watch_model *m);
/* Lines in order of first access. NULL when @i is out of range. */
const struct watch_line *watch_model_line(const struct watch_model *m, size_t i);
/* The current state of @cpu for the line holding @addr (WATCH_I when unknown). */
enum watch_state watch_model_state(const struct watch_model *m, uint64_t addr, uint32_t cpu);

/* Sum of the fields of @b into @a. */
void watch_stats_add(struct watch_stats *a, const struct watch_stats *b);

/* --- rotation ------------------------------------------------------------------------------- */

/* The words (indexes 0..@nr_words-1) watched at rotation step @step with @nr_slots debug
 * registers: consecutive windows of @nr_slots words, wrapping around. Writes min(nr_slots,
 * nr_words) indexes to @out and returns how many. */
size_t watch_rotation_words(uint32_t nr_words, uint32_t nr_slots, uint64_t step, uint32_t *out);

/* Factor that turns a count seen while watching for @watched_ns out of @total_ns into an
 * estimate for the whole time: total / watched. 0 when the word was never watched (no estimate
 * possible), 1 when it was watched all the time. */
double watch_scale(uint64_t watched_ns, uint64_t total_ns);
/* @dst = @src with every counter multiplied by @factor, rounded to nearest. */
void watch_stats_scale(struct watch_stats *dst, const struct watch_stats *src, double factor);

#endif
