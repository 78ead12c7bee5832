/* Confirmation by watchpoints in the soft recording: which lines to watch, and which of their
 * words to arm together (include/c2c/confirm.h says what the trace keeps).
 *
 * CANDIDATES. Every soft sample with a data address heats its line (pid, line address), by its
 * sampled time, and the word it touched (8-byte words), writes apart. Heats decay by half every
 * CONFIRM_HALF_LIFE windows so that the candidates follow the program's phases. No symbol is
 * needed: heap, stack and static data are lines alike. A line is a candidate when it is among the
 * CONFIRM_CANDIDATES hottest and has at least CONFIRM_MIN_SHARE of the hottest one's heat,
 * whether one thread or several were sampled there (a reader that never stalls on the line is
 * never sampled on it: failure 4 of issue 28).
 *
 * WINDOWS. Each window arms one candidate line: its ANCHOR (the word with the most sampled
 * writes, else the hottest word) in the first register in every window of the line, and the
 * line's other words take the other registers in turns, (slots - 1) at a time, so that every
 * word is watched beside the anchor and, over the turns, beside every other word. Candidates
 * take windows in turns (the one served longest ago first; among equals, a line several threads
 * were sampled on before one of a single thread, then the hotter). A transfer is only seen between
 * words armed at the same time: watching the words one at a time sees none.
 *
 * PRIVATE LINES. A line whose windows keep seeing one thread at most (a thread's own stack, a
 * private buffer) ranks lower for each such window in a row (its heat divided by 1 + that count),
 * so that the windows go to lines that may be shared; a window that sees two threads there
 * restores it (confirm_sel_result()).
 *
 * Pure: samples in, windows out; no I/O. Not thread-safe. */
#ifndef C2C_RECORD_CONFIRM_H
#define C2C_RECORD_CONFIRM_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/confirm.h"

#define CONFIRM_STEP_MS C2C_CONFIRM_STEP_MS
#define CONFIRM_CANDIDATES 8
#define CONFIRM_MIN_SHARE 0.02
#define CONFIRM_HALF_LIFE 100        /* windows: about a second */
#define CONFIRM_TRACKED 512          /* lines tracked; the coldest is forgotten past it */
#define CONFIRM_WORD 8               /* bytes of a watched word */
#define CONFIRM_WORDS_MAX 16         /* words of a line (128-byte lines) */

struct confirm_cand {
	uint32_t pid;
	uint64_t line;
	double heat;                     /* sampled ns, decayed */
	double word_heat[CONFIRM_WORDS_MAX], word_write[CONFIRM_WORDS_MAX];
	uint32_t tids[4];                /* the first threads sampled there */
	unsigned int nr_tids;
	uint64_t windows;                /* windows it was given */
	uint64_t served;                 /* the window number it was last given (0: never) */
	uint32_t turn;                   /* rotation over its other words */
	uint32_t private_windows;        /* its last windows in a row saw one thread at most */
};

struct confirm_sel {
	uint32_t cl_size, nr_words;
	unsigned int slots;
	struct confirm_cand *c;
	size_t nr, cap;
	uint64_t step;                   /* windows handed out */
	uint64_t lines;                  /* distinct lines ever given a window */
	size_t last;                     /* the entry last fed (a cache) */
};

/* @cl_size: 8 to 128, a power of two (else 64); @slots: registers, 2 to C2C_CONFIRM_SLOTS. */
void confirm_sel_init(struct confirm_sel *s, uint32_t cl_size, unsigned int slots);
void confirm_sel_release(struct confirm_sel *s);
/* One sample: thread @tid of @pid accessed @addr (@write: a store or an atomic) and the sample
 * stands for @weight ns. */
void confirm_sel_feed(struct confirm_sel *s, uint32_t pid, uint32_t tid, uint64_t addr,
		      int write, uint64_t weight);
/* The next window: 1 and *w filled (window number, pid, line, words, the anchor first; armed_ns
 * and hits left 0), or 0 when no line is a candidate yet. Decays the heats by one step. */
int confirm_sel_next(struct confirm_sel *s, struct c2c_confirm_window *w);
/* What window @w saw: hits of @nr_tids distinct threads on its line. */
void confirm_sel_result(struct confirm_sel *s, const struct c2c_confirm_window *w,
			unsigned int nr_tids);
/* The candidates now, hottest first, into @out (at most @n); how many. */
size_t confirm_sel_candidates(const struct confirm_sel *s, const struct confirm_cand **out,
			      size_t n);

#endif
