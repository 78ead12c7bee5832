/* Confirmation by watchpoints in the soft recording, shared by record (which writes it) and
 * report (which reads it).
 *
 * While the soft backend samples, the recorder picks candidate lines from the decoded samples
 * (record/confirm.h) and arms the 4 x86 debug registers on their words in WINDOWS: one line at a
 * time, its hot written word (the anchor) armed in every window of that line while its other
 * words take the other registers in turns. Every hit is a sample of one of the confirmation
 * events (backend 6, watch, beside cpu-clock in the same trace); its weight is the access's size
 * in bytes. A transfer can only be seen between words armed in the same window, so the report
 * replays each window's hits through the coherence model on their own.
 *
 * Two text blobs describe the windows and the run:
 *   TRACE_BLOB_CONFIRM_WINDOW, written when a window ends (its time: the last sample drained
 *   before the registers moved, so hits of the window come before it in time order, save the
 *   few that trapped between that drain and the move):
 *     c2c-confirm-window 1
 *     window N        sequence number, from 1
 *     pid P           the process whose samples made the line a candidate
 *     line 0xADDR     the line (virtual address, aligned to the recording's line size)
 *     armed_ns N      the workload's CPU time, traps left out, while armed in this window
 *     hits N          hits drained during the window
 *     word 0xADDR LEN one per armed word (at most C2C_CONFIRM_SLOTS); the anchor first
 *   TRACE_BLOB_CONFIRM_RUN, rewritten at each chunk boundary, the last one holding:
 *     c2c-confirm-run 1
 *     status on|off|unavailable
 *     reason TEXT     why off or unavailable (one line)
 *     budget F        trap time allowed per ns of the workload's own
 *     ns_per_hit F    the measured cost of a hit
 *     cpu_ns N  trap_ns N  armed_ns N  hits N  windows N  lines N
 * Unknown keys are skipped, so later versions may add lines. */
#ifndef C2C_CONFIRM_H
#define C2C_CONFIRM_H

#include <stddef.h>
#include <stdint.h>

#define C2C_CONFIRM_SLOTS 4
#define C2C_CONFIRM_STEP_MS 10       /* a window's length (wall clock) */

struct c2c_confirm_window {
	uint64_t window;
	uint32_t pid;
	uint64_t line;
	uint64_t armed_ns;
	uint64_t hits;
	uint32_t nr_words;
	struct { uint64_t addr; uint32_t len; } word[C2C_CONFIRM_SLOTS];
};

enum c2c_confirm_status {
	C2C_CONFIRM_ON = 0,      /* windows were armed */
	C2C_CONFIRM_OFF,         /* --no-confirm */
	C2C_CONFIRM_UNAVAILABLE, /* no watchpoint could be had: reason says why */
};

struct c2c_confirm_run {
	enum c2c_confirm_status status;
	char reason[256];
	double budget, ns_per_hit;
	uint64_t cpu_ns, trap_ns, armed_ns, hits, windows, lines;
};

/* Text forms into @buf; the length, or -ENOSPC. */
int c2c_confirm_window_format(const struct c2c_confirm_window *w, char *buf, size_t size);
int c2c_confirm_run_format(const struct c2c_confirm_run *r, char *buf, size_t size);
/* Parse a blob; -EBADMSG when the magic line is wrong, a known key has a bad value, a word is
 * not 1, 2, 4 or 8 bytes long and aligned, or there are more than C2C_CONFIRM_SLOTS words. */
int c2c_confirm_window_parse(const void *buf, size_t len, struct c2c_confirm_window *out);
int c2c_confirm_run_parse(const void *buf, size_t len, struct c2c_confirm_run *out);
/* "on", "off", "unavailable" */
const char *c2c_confirm_status_name(enum c2c_confirm_status s);

#endif
