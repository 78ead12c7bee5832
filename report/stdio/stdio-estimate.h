/* stdio-estimate: the text report of the soft and watch backends, from the report model
 * (report/model/). It says in plain words that the figures are estimated from timer samples
 * (soft) or counted from watchpoint hits (watch), shows how many samples had their address
 * recovered and why the others did not, then the cacheline table and a per-line Pareto of
 * (offset, code address) rows with the columns the backend declares, and the findings ("What to
 * fix"). PMU-only figures (HITM, data source) read "n/a". */
#ifndef C2C_REPORT_STDIO_ESTIMATE_H
#define C2C_REPORT_STDIO_ESTIMATE_H

#include <stdio.h>

#include "c2c/trace.h"
#include "report/model/contend.h"
#include "report/model/findings.h"
#include "report/model/sections.h"

struct stdio_estim_opts {
	const struct rm_sections *sections;  /* the header and run totals (NULL: none) */
	const struct trace_info *info;      /* for whether watched words were rotated */
	int no_source, full_symbols;
	int stats_only;             /* --stats: stop after the statistics */
	int no_data_names;          /* no Data column, no line names */
	size_t summary;             /* findings explained (0: none) */
	int map;                    /* --map: the line map of every line */
	int call_graph;             /* callers under each row: 0 none, 1 + enum rm_callers_order */
	const struct rm_contend *contend;   /* contending functions, types (NULL: none) */
};

/* Print the model @m of estimate table @e with its findings @fs. 0, or -EIO when writing
 * failed. */
int stdio_estim_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
		      const struct stdio_estim_opts *o);

#endif
