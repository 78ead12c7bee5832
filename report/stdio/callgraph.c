/* perf's stdio callchain graph printed (see report/stdio/callgraph.h): the model's lines, a
 * newline after each. */
#include "report/stdio/callgraph.h"
#include "report/stdio/put-line.h"

void callgraph_fprint(FILE *f, const struct callers *c, const struct callers_use *u, size_t n,
		      enum rm_callers_order order, uint64_t total, uint64_t parent)
{
	rm_callgraph_text(c, u, n, order, total, parent, stdio_put_line, f);
}

void callgraph_fprint_row(FILE *f, const struct rm_model *m, const struct rm_line *l,
			  const struct rm_row *r, enum rm_callers_order order)
{
	rm_callgraph_row_text(m, l, r, order, stdio_put_line, f);
}
