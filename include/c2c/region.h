/* c2c-region: mark regions of a program and count what each costs, from inside the program.
 *
 *     #include <c2c/region.h>          cc prog.c $(pkg-config --cflags --libs c2c-region)
 *
 *     static struct c2c_region *push;
 *     push = c2c_region_new("queue-push");       once, at start-up
 *     c2c_region_begin(push);                    around the code, in any thread
 *     ...
 *     c2c_region_end(push);
 *     c2c_region_print_all(stderr);              each region's counts, at the end
 *
 * Counters. Each thread that enters a region opens, once, one perf event group on itself: on
 * Intel cores with PERF_METRICS, SLOTS and the four level-1 TopDown metrics; elsewhere with a
 * hardware PMU, cycles and instructions; without one (a VM without a virtual PMU, a
 * perf_event_paranoid that forbids it), task-clock, context-switches and page-faults. Every
 * counter is mapped (one page) and read in user space with rdpmc when the kernel allows it
 * (perf_event_mmap_page: cap_user_rdpmc, index, offset, pmc_width, under its seqlock, as in the
 * kernel's perf_event.h example; Intel's SLOTS and PERF_METRICS with the RDPMC fixed and metric
 * indexes of the kernel's topdown.txt). Where the page gives no index (software events, rdpmc
 * disabled, non-x86) the group is read with one read(). c2c_region_stats() says which way ran.
 *
 * Under `c2c-lite record -- prog`: record passes a file descriptor in C2C_REGION_FD and every
 * begin and end is also written there (struct c2c_region_wire), so the trace holds the regions and
 * `c2c-lite report` splits its samples per region (report --regions, --region NAME).
 *
 * Nesting: regions nest per thread up to C2C_REGION_DEPTH deep; an end closes the innermost open
 * instance of its region (inner ones left open are dropped). A thread's counts go to the region
 * at each end; totals are summed atomically, so one region may be used by many threads.
 *
 * Errors: c2c_region_new() returns NULL with errno set (ENOMEM, EINVAL for a NULL or empty
 * name). begin/end never fail: when no counter opens, only the time and the count are kept.
 * Not async-signal-safe. Ownership: the caller frees regions with c2c_region_free() after every
 * thread has left them; c2c_region_print_all() must not race with c2c_region_free(). */
#ifndef C2C_REGION_H
#define C2C_REGION_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define C2C_REGION_NAME_MAX 40          /* longer names are cut */
#define C2C_REGION_COUNTERS 5
#define C2C_REGION_DEPTH 16

struct c2c_region;

struct c2c_region *c2c_region_new(const char *name);
void c2c_region_begin(struct c2c_region *r);
void c2c_region_end(struct c2c_region *r);
void c2c_region_free(struct c2c_region *r);

enum c2c_region_read {
	C2C_REGION_READ_NONE,            /* no counter opened in any thread */
	C2C_REGION_READ_RDPMC,           /* user-space rdpmc through the mmap page */
	C2C_REGION_READ_SYSCALL,         /* read() of the group */
};

struct c2c_region_stats {
	char name[C2C_REGION_NAME_MAX];
	uint64_t entries;                /* completed begin/end pairs */
	uint64_t ns;                     /* CLOCK_MONOTONIC time inside, summed over threads */
	unsigned nr;                     /* counters below */
	const char *counter[C2C_REGION_COUNTERS];   /* "task-clock", "slots", ... (static strings) */
	uint64_t value[C2C_REGION_COUNTERS];        /* summed deltas; TopDown metrics in slots */
	enum c2c_region_read how;        /* how the last thread to end it read its counters */
	int topdown;                     /* value[] are slots, retiring, bad-spec, fe-bound, be-bound */
};

/* A snapshot of @r's totals. 0, or -EINVAL for NULL. */
int c2c_region_stats(const struct c2c_region *r, struct c2c_region_stats *out);
/* One block per live region: entries, time, counters, TopDown shares where counted. */
void c2c_region_print_all(FILE *f);

/* --- the record protocol (c2c-lite record reads these; programs need not) ------------------- */

#define C2C_REGION_FD_ENV "C2C_REGION_FD"
#define C2C_REGION_WIRE_MAGIC 0x47455232u  /* "2REG" little-endian */

enum c2c_region_wire_kind { C2C_REGION_WIRE_BEGIN = 1, C2C_REGION_WIRE_END = 2 };

/* 64 bytes, host byte order, written whole with one write() (O_APPEND: atomic between threads
 * and processes). */
struct c2c_region_wire {
	uint32_t magic;
	uint16_t kind;                   /* enum c2c_region_wire_kind */
	uint16_t depth;                  /* nesting depth after a begin / before an end, from 1 */
	uint32_t pid, tid;
	uint64_t time;                   /* CLOCK_MONOTONIC, ns */
	char name[C2C_REGION_NAME_MAX];  /* NUL-terminated */
};

#ifdef __cplusplus
}
#endif

#endif
