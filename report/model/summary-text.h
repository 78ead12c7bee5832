/* summary-text: the findings as text lines, the same block for every backend and front end:
 * the "# c2c-lite summary" before perf's sections (PMU data) and the "What to fix" section of
 * the soft and watch reports (report/stdio/summary.h prints them), the TUI's findings screen
 * (lists them). Each finding: its data object, verdict and share of the cost, the members of
 * its costliest line with who reads and writes them from which code, the advice and the
 * share of its false sharing (rm_gain_text()).
 *
 * Every line goes to the caller's put callback without its newline (report/model/text.h). */
#ifndef C2C_REPORT_MODEL_SUMMARY_TEXT_H
#define C2C_REPORT_MODEL_SUMMARY_TEXT_H

#include <stddef.h>

#include "report/model/findings.h"
#include "report/model/text.h"

#define RM_SUMMARY_DEFAULT_TOP 5
#define RM_SUMMARY_MAX_MEMBERS 16   /* members shown per finding; the lighter ones are counted */

struct rm_summary_opts {
	size_t top;              /* findings shown */
	const char *prefix;      /* before every line: "# " before perf's sections, "  " in the
				  * estimate report */
	int say_none;            /* say so when there is no finding (else no line at all) */
	int map;                 /* the line map of each finding's costliest line (--map) */
};

/* The lines of the findings @fs of @m. */
void rm_summary_text(const struct rm_model *m, const struct rm_findings *fs,
		     const struct rm_summary_opts *o, rm_put_fn *put, void *ctx);
/* The line map of @l under its title, each line prefixed with @prefix. */
void rm_summary_map_text(const struct rm_model *m, const struct rm_line *l, const char *prefix,
			 rm_put_fn *put, void *ctx);

/* The share of the cost on a finding's false sharing, worded as what it is: where the samples
 * (HITMs, transfers) fell, not a forecast of the speedup, which the tests found unrelated to it
 * (docs/gain.md); "" for a finding with no false part. */
void rm_gain_text(const struct rm_model *m, const struct rm_finding *f, char *buf, size_t n);

/* "writer_a at fs.c:12", "writer_a", "0x401136" */
void rm_code_text(const struct rm_row *r, char *buf, size_t n);

#endif
