/* perf 6.1's callchain graph under a report row (ui/stdio/hist.c, callchain__fprintf_graph in
 * "graph" mode with percentages of the whole line): shown by the text report and the TUI. */
#ifndef C2C_REPORT_CALLGRAPH_H
#define C2C_REPORT_CALLGRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "report/aggregate/callers.h"

/* Print the tree of the @n chains @u of one row: percentages of @total (the samples of the
 * row's whole cacheline, as perf's total period of the line's entries); @parent is the row's
 * own samples (a single root covering all of them is printed without a percentage, after
 * "---", as perf does). Nothing is printed without chains. */
void callgraph_fprint(FILE *f, const struct callers *c, const struct callers_use *u, size_t n,
		      enum callers_order order, uint64_t total, uint64_t parent);

#endif
