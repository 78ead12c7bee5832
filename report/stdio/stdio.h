/* stdio: the text report, byte for byte what `perf c2c report --stdio` (perf 6.1) prints for the
 * same samples: Trace Event Information, Global Shared Cache Line Event Information, c2c details,
 * the Shared Data Cache Line Table and the Shared Cache Line Distribution Pareto (layout in
 * c2c-semantics.md §2.8, §3.5, §4, §6). It reads a finished struct cltab and writes to a FILE.
 * With data namers (stdio_opts.line_name/row_name) the Pareto also names the data: after each
 * line heading's address, and in a last "Data" column; every line then starts with exactly what
 * perf prints, and the names follow. */
#ifndef C2C_REPORT_STDIO_H
#define C2C_REPORT_STDIO_H

#include <stdio.h>

#include "report/aggregate/cltable.h"
#include "report/model/model.h"

struct stdio_opts {
	int node_info;              /* 0, 1 (-N) or 2 (-NN) */
	int no_source;              /* --no-source: no Source:Line column */
	int full_symbols;           /* --full-symbols: no 30-character cap */
	int double_cl;              /* --double-cl banners */
	int stats_only;             /* --stats: stop after "c2c details" */
	const char *coalesce;       /* the -c text as given ("iaddr" by default) */
	const char *const *events;  /* event names */
	int nr_events;
	/* callers under each Pareto row that has callchains (perf prints them whenever the data
	 * has them: callee order by default, caller order with -g); 0: none */
	int call_graph;             /* 0 none, 1 + enum callers_order */
	/* Data names (c2c-lite's addition to perf's Pareto; NULL: perf 6.1's layout byte for
	 * byte). line_name writes what a line holds after its address in the line's heading,
	 * row_name what an offset row touches into a "Data" column after the last of perf's. */
	void (*line_name)(void *ctx, const struct cltab_line *ln, char *buf, size_t n);
	void (*row_name)(void *ctx, const struct cltab_line *ln, const struct cltab_offset *of,
			 char *buf, size_t n);
	void *name_ctx;
	/* perf's run totals: the model's rows (rm_model.stats) */
	const struct rm_stat *stats;
	size_t nr_stats;
};

/* Print the report. Returns 0, or -EIO when writing failed. */
int stdio_print(FILE *f, const struct cltab *t, const struct stdio_opts *o);

/* The Source:Line text perf 6.1 prints for an offset row ("file.c:12", "??:0", "sym+off",
 * "dso[hex]"), into @out of @size bytes. The TUI shows the same text. */
void stdio_srcline(char *out, size_t size, const struct cltab_offset *of);

#endif
