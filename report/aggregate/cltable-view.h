/* cltable-view: other orders and filters over a finished cacheline table, for browsers.
 *
 * The table (report/aggregate/cltable.h) is sorted and filtered once for the display mode it was built with.
 * A browser that switches display mode or sort column must not re-aggregate: these functions
 * re-filter and re-order the finished lines and offsets with perf's rules (c2c-semantics.md §3.6,
 * §4.3, §5): the display metric, the 0.001 share of the shared-lines total, offsets by offset then
 * the display key(s) then the coalesce tokens. Build the table with show_all so that every line is
 * available to the other display modes; without it only the lines of the build mode are seen.
 *
 * Pure: no I/O, no allocation except where stated, no global state. Output arrays are the caller's;
 * the lines and offsets they point to belong to the table. */
#ifndef C2C_REPORT_CLTABLE_VIEW_H
#define C2C_REPORT_CLTABLE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "report/aggregate/cltable.h"

/* The columns of the Shared Data Cache Line Table (§4.1), in stdio order. */
enum cltv_col {
	CLTV_COL_INDEX,      /* position in the display order */
	CLTV_COL_ADDRESS,
	CLTV_COL_NODE,
	CLTV_COL_PA_CNT,
	CLTV_COL_SHARE,      /* the display metric (shown as a share of the total) */
	CLTV_COL_LD_TOTAL,   /* Load Hitm (peer mode: Load Peer) Total */
	CLTV_COL_LD_LCL,
	CLTV_COL_LD_RMT,
	CLTV_COL_RECORDS,
	CLTV_COL_LOADS,
	CLTV_COL_STORES,
	CLTV_COL_ST_L1HIT,
	CLTV_COL_ST_L1MISS,
	CLTV_COL_ST_NA,
	CLTV_COL_FB,
	CLTV_COL_L1,
	CLTV_COL_L2,
	CLTV_COL_LLC_HIT,
	CLTV_COL_LLC_HITM,
	CLTV_COL_RMT_HIT,
	CLTV_COL_RMT_HITM,
	CLTV_COL_DRAM_LCL,
	CLTV_COL_DRAM_RMT,
	CLTV_COL__NR
};

struct cltv_col_desc {
	const char *group;   /* banner over the column ("Load Hitm"), "" for none */
	const char *name;    /* header ("LclHitm") */
	int width;           /* stdio width */
};

/* The header of @c in display mode @d (peer mode renames the share and Load Hitm columns). */
const struct cltv_col_desc *cltv_col(enum cltv_col c, enum cltab_display d);
/* The name perf prints for a display mode ("Total HITMs", ...) and its -d spelling ("tot"). */
const char *cltv_display_title(enum cltab_display d);
const char *cltv_display_name(enum cltab_display d);

/* The value of column @c for line @l in mode @d. CLTV_COL_INDEX gives l->index, CLTV_COL_NODE the
 * lowest memory node seen (UINT64_MAX for none), CLTV_COL_SHARE the display metric. */
uint64_t cltv_line_value(const struct cltab *t, const struct cltab_line *l, enum cltv_col c,
			 enum cltab_display d);

/* The line's memory nodes as perf prints them ("0", "0-1", "0,2-3", "N/A") into @buf. */
void cltv_nodes_str(const struct cltab *t, const uint64_t *set, char *buf, size_t size);

/* Fill @out (room for cltab_nr_lines(t) pointers) with the lines that mode @d displays, in its
 * order: metric descending, ties in the table's line-key order. Returns how many. */
size_t cltv_filter(const struct cltab *t, enum cltab_display d, struct cltab_line **out);

/* Order @line[0..nr) by column @c: descending (Address and Index ascending), ties by the display
 * metric descending, then the line key. Stable and total. */
void cltv_sort(const struct cltab *t, struct cltab_line **line, size_t nr, enum cltv_col c,
	       enum cltab_display d);

/* An offset row is shown in mode @d when it has stores or the display metric (§4.3). */
int cltv_offset_visible(const struct cltab_offset *o, enum cltab_display d);

/* Fill @out (room for l->nr_off) with the indexes into l->off of the rows mode @d shows, in its
 * order (§5.3). Returns how many. */
size_t cltv_offsets(const struct cltab *t, const struct cltab_line *l, enum cltab_display d,
		    uint32_t *out);

/* 100 * part / whole, 0 when whole is 0. */
double cltv_pct(uint64_t part, uint64_t whole);

#endif
