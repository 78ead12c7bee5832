/* perf 6.1's callchain graph under a report row (ui/stdio/hist.c, callchain__fprintf_graph in
 * "graph" mode with percentages of the whole line): shown by the text report and the TUI. */
#ifndef C2C_REPORT_CALLGRAPH_H
#define C2C_REPORT_CALLGRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "report/aggregate/callers.h"
#include "report/model/model.h"

/* Print the tree of the @n chains @u of one row: percentages of @total (the samples of the
 * row's whole cacheline, as perf's total period of the line's entries); @parent is the row's
 * own samples (a single root covering all of them is printed without a percentage, after
 * "---", as perf does). Nothing is printed without chains. */
void callgraph_fprint(FILE *f, const struct callers *c, const struct callers_use *u, size_t n,
		      enum callers_order order, uint64_t total, uint64_t parent);

/* The callers of model row @r of line @l (soft and watch reports, the TUI): percentages of the
 * line's samples that have callchains. Nothing without them. */
void callgraph_fprint_row(FILE *f, const struct rm_model *m, const struct rm_line *l,
			  const struct rm_row *r, enum callers_order order);
/* Samples with callchains in row @r, and in all rows of line @l. */
uint64_t callgraph_row_samples(const struct rm_row *r);
uint64_t callgraph_line_samples(const struct rm_line *l);

#endif
