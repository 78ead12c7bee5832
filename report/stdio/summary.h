/* summary: the findings as text, the same block for every backend: the "# c2c-lite summary"
 * before perf's sections (PMU data) and the "What to fix" section of the soft and watch
 * reports. Each finding: its data object, verdict and share of the cost, the members of its
 * costliest line with who reads and writes them from which code, the advice and the predicted
 * gain. */
#ifndef C2C_REPORT_STDIO_SUMMARY_H
#define C2C_REPORT_STDIO_SUMMARY_H

#include <stdio.h>

#include "report/model/findings.h"

#define SUMMARY_DEFAULT_TOP 5
#define SUMMARY_MAX_MEMBERS 16   /* members printed per finding; the lighter ones are counted */

/* The first @top findings, each line prefixed with @prefix ("# " before perf's sections, "  " in
 * the estimate report). Nothing when there is no finding and @say_none is 0. 0 or -EIO. */
int summary_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs, size_t top,
		  const char *prefix, int say_none);

/* "writer_a at fs.c:12", "writer_a", "0x401136" */
void summary_code_text(const struct rm_row *r, char *buf, size_t n);

#endif
