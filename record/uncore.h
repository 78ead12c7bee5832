/* AMD uncore counters beside a recording (include/c2c/uncore.h says what the trace keeps).
 *
 * uncore_plan() reads sysfs below the sysfs root: on AMD CPUs with an amd_l3 PMU, L3 lookups
 * (event 0x04, umask 0xff) and misses (umask 0x01) on each CPU of its cpumask, one per CCX (the
 * kernel's amd uncore driver fills the slice and thread masks); with an amd_df PMU on family 17h
 * (Zen, Zen 2), the DRAM channel events 0x07 + 0x40 x channel (umask 0x38, 64 bytes a count) for
 * channels 0-7 and the remote-link outbound events 0x7c7, 0x807, 0x847, 0x887 (umask 0x02, 32
 * bytes a count) on each CPU of its cpumask (seed 004, AMD's PPR for family 17h). Zen 3 and later
 * name other DF events; they are left out with a note, as is anything the machine lacks.
 * uncore_open() opens them counting on their CPUs (CPU-wide: root or perf_event_paranoid <= 0),
 * uncore_read() turns the counts into the summary. Counters that do not open become notes. */
#ifndef C2C_RECORD_UNCORE_H
#define C2C_RECORD_UNCORE_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "c2c/uncore.h"

struct uncore_ev {
	struct perf_event_attr attr;
	enum c2c_uncore_kind kind;
	int second;                  /* L3: the misses counter of the row */
	uint32_t unit, cpu;
	uint32_t bytes_per;          /* DRAM 64, links 32 */
	int fd;
};

struct uncore {
	struct uncore_ev *ev;
	size_t nr, cap;
	char note[C2C_UNCORE_NOTES][200];
	size_t nr_notes;
	double t0;
};

/* 0 with u->nr counters (maybe none, with notes saying why); -errno for sysfs trouble. Only AMD
 * machines with amd_l3 or amd_df get counters; others get nothing and no note. */
int uncore_plan(struct uncore *u);
/* Open every counter; 0 when at least one opened (the failures become one note). */
int uncore_open(struct uncore *u);
/* Read the counts into @out (a summary of @seconds). */
void uncore_read(const struct uncore *u, double seconds, struct c2c_uncore *out);
void uncore_release(struct uncore *u);

#endif
