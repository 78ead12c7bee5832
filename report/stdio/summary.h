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

struct summary_opts {
	size_t top;              /* findings printed */
	const char *prefix;      /* before every line: "# " before perf's sections, "  " in the
				  * estimate report */
	int say_none;            /* say so when there is no finding (else print nothing) */
	int map;                 /* the line map of each finding's costliest line (--map) */
};

/* The findings. 0 or -EIO. */
int summary_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
		  const struct summary_opts *o);
/* The line map of @l, each line prefixed with @prefix. */
void summary_print_map(FILE *f, const struct rm_model *m, const struct rm_line *l,
		       const char *prefix);

/* "writer_a at fs.c:12", "writer_a", "0x401136" */
void summary_code_text(const struct rm_row *r, char *buf, size_t n);

#endif
