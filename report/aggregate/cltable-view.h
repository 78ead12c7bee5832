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

/* Fill @out (room for cltab_nr_lines(t) pointers) with the lines that mode @d displays, in its
 * order: metric descending, ties in the table's line-key order. Returns how many. */
size_t cltv_filter(const struct cltab *t, enum cltab_display d, struct cltab_line **out);

/* Order @line[0..nr) as mode @d displays them: by its metric descending, ties by the line key.
 * Stable and total. */
void cltv_sort(const struct cltab *t, struct cltab_line **line, size_t nr, enum cltab_display d);

/* An offset row is shown in mode @d when it has stores or the display metric (§4.3). */
int cltv_offset_visible(const struct cltab_offset *o, enum cltab_display d);

/* Fill @out (room for l->nr_off) with the indexes into l->off of the rows mode @d shows, in its
 * order (§5.3). Returns how many. */
size_t cltv_offsets(const struct cltab *t, const struct cltab_line *l, enum cltab_display d,
		    uint32_t *out);

#endif
