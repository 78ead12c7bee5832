/* callgraph-text: perf 6.1's callchain graph under a report row (ui/stdio/hist.c,
 * callchain__fprintf_graph in "graph" mode with percentages of the whole line) as text lines:
 * the text reports print them (report/stdio/callgraph.h), the TUI's callers screen lists them.
 *
 * Every line goes to the caller's put callback without its newline (report/model/text.h). The
 * chains are the model's (rm_row.callers, in the dictionary rm_model.callers). */
#ifndef C2C_REPORT_MODEL_CALLGRAPH_TEXT_H
#define C2C_REPORT_MODEL_CALLGRAPH_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/model.h"
#include "report/model/text.h"

/* Which end of the chains is the root (the values of report/aggregate/callers.h's order). */
enum rm_callers_order {
	RM_CALLERS_CALLEE,            /* the sampled function at the root (perf's default) */
	RM_CALLERS_CALLER,            /* the outermost caller at the root (perf c2c report -g) */
};

struct callers;
struct callers_use;

/* The tree of the @n chains @u (of dictionary @c) of one row: percentages of @total (the
 * samples of the row's whole cacheline, as perf's total period of the line's entries); @parent
 * is the row's own samples (a single root covering all of them comes without a percentage,
 * after "---", as perf does). The last line is empty. No line without chains. */
void rm_callgraph_text(const struct callers *c, const struct callers_use *u, size_t n,
		       enum rm_callers_order order, uint64_t total, uint64_t parent,
		       rm_put_fn *put, void *ctx);

/* The callers of model row @r of line @l (soft and watch reports, the TUI): percentages of the
 * line's samples that have callchains. No line without them. */
void rm_callgraph_row_text(const struct rm_model *m, const struct rm_line *l,
			   const struct rm_row *r, enum rm_callers_order order,
			   rm_put_fn *put, void *ctx);
/* Samples with callchains in row @r, and in all rows of line @l. */
uint64_t rm_callgraph_row_samples(const struct rm_row *r);
uint64_t rm_callgraph_line_samples(const struct rm_line *l);

#endif
