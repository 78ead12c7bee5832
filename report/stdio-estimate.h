/* stdio-estimate: the text report of the soft and watch backends (report/estimate.h). It says in
 * plain words that the figures are estimated from timer samples (soft) or counted from
 * watchpoint hits (watch), shows how many samples had their address recovered and why the others
 * did not, then a cacheline table, a per-line Pareto of (offset, code address) rows and one
 * "what to fix" line per contended line. PMU-only figures (HITM, data source) read "n/a".
 *
 * estimate_report() is what `report` calls when trace_info.backend is SOFT or WATCH: it reads the
 * rest of the source, resolves symbols, aggregates and prints. */
#ifndef C2C_REPORT_STDIO_ESTIMATE_H
#define C2C_REPORT_STDIO_ESTIMATE_H

#include <stdio.h>

#include "c2c/trace.h"
#include "report/estimate.h"
#include "report/source.h"

struct estimate_opts {
	uint32_t cl_size;           /* bytes per line (0: the trace's, else 64) */
	int show_all;               /* list every line, not only contended ones */
	int no_source;              /* no Source:Line column */
	int full_symbols;           /* do not cut symbols and source lines at 30 characters */
	int no_symbols;             /* do not open a symbol session (addresses only) */
	const char *symfs;          /* as struct sym_opts */
	const char *vmlinux;
};

/* Read @src to its end (its info must say backend SOFT or WATCH), aggregate, print to @out.
 * 0; -EINVAL when the backend is neither; the source's error when reading fails; -EIO when
 * writing fails. Messages go to the log hook. */
int estimate_report(struct source *src, const struct estimate_opts *opts, FILE *out);

/* What the printer needs besides the table. */
struct stdio_estim_opts {
	const char *path;           /* input file name, for the header */
	const struct trace_info *info;
	int truncated;              /* the input ended early */
	int no_source, full_symbols;
};

/* Print a finished table. 0, or -EIO when writing failed. */
int stdio_estim_print(FILE *f, const struct estim *e, const struct stdio_estim_opts *o);

#endif
