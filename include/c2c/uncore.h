/* AMD uncore context of a recording, shared by record (which counts and writes it) and report
 * (which shows it in its header, report/model/sections.h): L3 lookups and misses per CCX
 * (amd_l3), DRAM bytes per channel and remote-link bytes (amd_df), counted over the whole run.
 *
 * The summary is a trace blob (TRACE_BLOB_UNCORE) of text lines:
 *     c2c-uncore 1
 *     seconds 1.25
 *     l3 CCX CPU ACCESSES MISSES            (one per CCX: amd_l3's cpumask CPU)
 *     dram CHANNEL CPU COUNT BYTES [READ WRITE]
 *                                           (a DF DRAM channel; READ and WRITE bytes where the
 *                                            generation counts them apart, Zen 4 and later)
 *     link LINK CPU COUNT BYTES [IN OUT]    (a remote link; its inbound and outbound bytes where
 *                                            counted: outbound only before Zen 5)
 *     note TEXT                             (why a part is missing, at most C2C_UNCORE_NOTES)
 * COUNT is the DF's data beats (64 bytes each, 32 for family 17h/Zen 3 links) and BYTES what they
 * carried, both over every event of the row. A figure of "-" was not counted (a counter did not
 * open or never ran); counts are scaled by time enabled / running where counters were
 * multiplexed. Unknown keys and extra fields are skipped, so later versions may add either;
 * READ/WRITE and IN/OUT are absent in traces before they were added (read back as not counted). */
#ifndef C2C_UNCORE_H
#define C2C_UNCORE_H

#include <stddef.h>
#include <stdint.h>

#define C2C_UNCORE_MAX 256         /* rows of each kind kept */
#define C2C_UNCORE_NOTES 6
#define C2C_UNCORE_NONE UINT64_MAX /* not counted */

enum c2c_uncore_kind { C2C_UNCORE_L3, C2C_UNCORE_DRAM, C2C_UNCORE_LINK };

struct c2c_uncore_row {
	enum c2c_uncore_kind kind;
	uint32_t unit;                 /* CCX, channel or link number */
	uint32_t cpu;                  /* the CPU the counter ran on */
	uint64_t a, b;                 /* L3: accesses, misses; DRAM and links: count, bytes */
	uint64_t in, out;              /* DRAM: read, write bytes; links: inbound, outbound bytes;
					* C2C_UNCORE_NONE where not counted apart (L3: unused) */
};

struct c2c_uncore {
	double seconds;
	struct c2c_uncore_row row[3 * C2C_UNCORE_MAX];
	size_t nr;
	char note[C2C_UNCORE_NOTES][200];
	size_t nr_notes;
};

/* Text into @buf; the length, or -1 when it does not fit. */
int c2c_uncore_format(const struct c2c_uncore *u, char *buf, size_t len);
/* Parse @len bytes (not NUL-terminated). 0, or -EBADMSG for a bad header or number. */
int c2c_uncore_parse(const void *text, size_t len, struct c2c_uncore *u);

#endif
