/* callgraph: perf 6.1's callchain graph under a report row, printed (the lines are
 * report/model/callgraph-text.h's, shared with the TUI). */
#ifndef C2C_REPORT_CALLGRAPH_H
#define C2C_REPORT_CALLGRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "report/model/callgraph-text.h"

/* Print the tree of the @n chains @u of one row (rm_callgraph_text()). Nothing is printed
 * without chains. */
void callgraph_fprint(FILE *f, const struct callers *c, const struct callers_use *u, size_t n,
		      enum rm_callers_order order, uint64_t total, uint64_t parent);

/* The callers of model row @r of line @l (rm_callgraph_row_text()). Nothing without them. */
void callgraph_fprint_row(FILE *f, const struct rm_model *m, const struct rm_line *l,
			  const struct rm_row *r, enum rm_callers_order order);

#endif
