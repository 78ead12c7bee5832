/* AMD uncore counters beside a recording (include/c2c/uncore.h says what the trace keeps).
 *
 * uncore_plan() reads sysfs below the sysfs root: on AMD CPUs with an amd_l3 PMU, L3 lookups
 * (event 0x04, umask 0xff) and misses (umask 0x01) on each CPU of its cpumask, one per CCX (the
 * kernel's amd uncore driver fills the slice, core and thread masks; the same encodings from
 * family 17h to Zen 5); with an amd_df PMU, the DRAM-channel and remote-link data beats of the
 * CPU's generation on each CPU of its cpumask (one per DF instance):
 *   family 17h  DRAM 0x07 + 0x40 ch, umask 0x38 (8 channels, 64 B); links 0x7c7 + 0x40 l,
 *               umask 0x02 (4 links, outbound, 32 B): seed 004, AMD's PPR for family 17h;
 *   Zen 3       the same (perf's amdzen3 data-fabric.json);
 *   Zen 4       DRAM 0x1f + 0x40 ch (12 channels), reads umask 0x7fe and 0xbfe (local and
 *               remote processor), writes 0x7ff and 0xbff; xGMI links 0xb5f + 0x40 l, umask
 *               0xf3e (8 links, outbound); 64 B a beat (perf's amdzen4 data-fabric.json);
 *   Zen 5       DRAM 0x1f + 0x40 ch, reads 0xffe, writes 0xfff (local or remote socket); links
 *               0xd5f + 0x40 l, inbound 0xf3f, outbound 0xf3e (6 links); 64 B (amdzen5).
 * Zen 4 and Zen 5 need the driver's PerfMonV2 format (12-bit umask); where the kernel's amd_df
 * format cannot place them, or the family has no known DF events, a note says so and only the
 * L3 is counted, as when the machine lacks a PMU.
 * Each counter adds to one row of the summary (a CCX, a channel, a link) as one part of it: L3
 * lookups or misses, or DF data beats that are the row's total, its inbound (DRAM: read) or its
 * outbound (DRAM: write) share. The counters of a row are planned one after another.
 * uncore_open() opens them counting on their CPUs (CPU-wide: root or perf_event_paranoid <= 0),
 * reading time enabled and running: uncore PMUs rotate counters that do not fit their hardware
 * counters, and uncore_read() scales each count by enabled / running and turns the counts into
 * the summary. Counters that do not open, and multiplexing, become notes. */
#ifndef C2C_RECORD_UNCORE_H
#define C2C_RECORD_UNCORE_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "c2c/uncore.h"

/* What a counter adds to its row. */
enum uncore_part {
	UNCORE_L3_LOOKUPS, UNCORE_L3_MISSES,
	UNCORE_TOTAL,                /* data beats not told apart by direction */
	UNCORE_IN,                   /* DRAM: read beats; links: inbound */
	UNCORE_OUT,                  /* DRAM: write beats; links: outbound */
};

struct uncore_ev {
	struct perf_event_attr attr;
	enum c2c_uncore_kind kind;
	enum uncore_part part;
	uint32_t row;                /* its row of the summary */
	uint32_t unit, cpu;
	uint32_t bytes_per;          /* bytes a data beat: 64, or 32 (family 17h/Zen 3 links) */
	int fd;
};

struct uncore {
	struct uncore_ev *ev;
	size_t nr, cap;
	uint32_t nr_rows;
	char df[160];                /* the DF events planned: "Zen 4: 12 DRAM channels ...", or "" */
	char note[C2C_UNCORE_NOTES][200];
	size_t nr_notes;
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
