/* summary: the findings summary printed (report/model/summary-text.h builds its lines): the
 * "# c2c-lite summary" before perf's sections and the "What to fix" section of the soft and
 * watch reports. */
#ifndef C2C_REPORT_STDIO_SUMMARY_H
#define C2C_REPORT_STDIO_SUMMARY_H

#include <stdio.h>

#include "report/model/summary-text.h"

/* The findings, a line each. 0 or -EIO. */
int summary_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
		  const struct rm_summary_opts *o);
/* The line map of @l, each line prefixed with @prefix. */
void summary_print_map(FILE *f, const struct rm_model *m, const struct rm_line *l,
		       const char *prefix);

#endif
