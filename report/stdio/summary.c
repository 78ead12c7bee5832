/* The findings summary printed (see summary.h): the model's lines, a newline after each. */
#include <errno.h>

#include "report/stdio/put-line.h"
#include "report/stdio/summary.h"

int summary_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
		  const struct rm_summary_opts *o)
{
	rm_summary_text(m, fs, o, stdio_put_line, f);
	return ferror(f) ? -EIO : 0;
}

void summary_print_map(FILE *f, const struct rm_model *m, const struct rm_line *l,
		       const char *prefix)
{
	rm_summary_map_text(m, l, prefix, stdio_put_line, f);
}
