/* The watch backend's duty cycle, shared by record (which writes it) and report (which reads it).
 *
 * Every watchpoint hit is a debug trap: a few microseconds of kernel time where the access alone
 * took a nanosecond. A tight loop over a watched word runs hundreds of times slower. The recorder
 * therefore arms the watchpoints only while the estimated trap time stays within a budget: the
 * traps may cost at most `budget` times the workload's own CPU time (0.8 by default, so a run
 * takes at most about 1.8 times as long). It measures the workload's CPU time (task-clock, every
 * thread) and counts the hits; a hit costs `ns_per_hit`, measured on this machine before the run
 * by trapping on a word of the recorder's own. Time not spent in traps is the workload's useful
 * work; the hits are those of the `armed_ns` of useful work done while armed, out of
 * `cpu_ns - trap_ns` in all. The counts are therefore a sample of the run: `armed_ns` over the
 * useful total is the fraction seen, per word as well when the registers rotate over words.
 *
 * The summary is a trace blob (TRACE_BLOB_WATCH_DUTY) of text lines, rewritten at each chunk
 * boundary; the last one in a trace holds for the whole run:
 *     c2c-watch-duty 1
 *     budget 0.8            (0: unbounded, every access watched)
 *     ns_per_hit 2310.5
 *     cpu_ns N  trap_ns N  armed_ns N  armed_cpu_ns N  hits N  switches N   (one per line)
 *     word 0xADDR LEN ARMED_NS      (one per watched word, at most C2C_WATCH_WORDS_MAX)
 * Unknown keys are skipped, so later versions may add lines. */
#ifndef C2C_WATCH_H
#define C2C_WATCH_H

#include <stddef.h>
#include <stdint.h>

#define C2C_WATCH_WORDS_MAX 64
#define C2C_WATCH_BUDGET_DEFAULT 0.8

struct c2c_watch_word_duty {
	uint64_t addr;
	uint32_t len;
	uint64_t armed_ns;       /* useful CPU time of the workload while this word was watched */
};

struct c2c_watch_duty {
	double budget;           /* trap time allowed per ns of useful time; 0: unbounded */
	double ns_per_hit;       /* the measured cost of one hit */
	uint64_t cpu_ns;         /* the workload's CPU time, every thread */
	uint64_t trap_ns;        /* ... of which estimated in traps (hits * ns_per_hit) */
	uint64_t armed_ns;       /* useful CPU time while the watchpoints were armed */
	uint64_t armed_cpu_ns;   /* all CPU time while they were armed, traps included */
	uint64_t hits;
	uint64_t switches;       /* times the watchpoints were disarmed or re-armed */
	uint32_t nr_words;
	struct c2c_watch_word_duty word[C2C_WATCH_WORDS_MAX];
};

/* The text form into @buf (NUL-terminated); returns the length, or -ENOSPC when it does not fit. */
int c2c_watch_duty_format(const struct c2c_watch_duty *d, char *buf, size_t size);
/* Parse a blob; -EBADMSG when the first line is not `c2c-watch-duty 1`, a known key has a bad
 * value, or there are more than C2C_WATCH_WORDS_MAX words. */
int c2c_watch_duty_parse(const void *buf, size_t len, struct c2c_watch_duty *out);
/* The share of the workload's useful CPU time that was watched (1 when nothing was measured),
 * and the same for one word. When the traps took most of the armed time (C2C_WATCH_TRAP_BOUND
 * or more), the useful part of it is within the error of ns_per_hit: the share is then only an
 * upper bound, and c2c_watch_duty_bound() says so. */
double c2c_watch_duty_seen(const struct c2c_watch_duty *d);
double c2c_watch_word_seen(const struct c2c_watch_duty *d, uint32_t i);
#define C2C_WATCH_TRAP_BOUND 0.9
int c2c_watch_duty_bound(const struct c2c_watch_duty *d);

/* What the counts of a watch trace mean, in one or two sentences for reports (no newline). */
void c2c_watch_duty_describe(const struct c2c_watch_duty *d, char *buf, size_t size);

#endif
