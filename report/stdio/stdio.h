/* stdio: the text report, byte for byte what `perf c2c report --stdio` (perf 6.1) prints for the
 * same samples: Trace Event Information, Global Shared Cache Line Event Information, c2c details,
 * the Shared Data Cache Line Table and the Shared Cache Line Distribution Pareto (layout in
 * c2c-semantics.md §2.8, §3.5, §4, §6). It reads a PMU report model (report/model/model.h:
 * its run totals, lines, rows and the columns rm_pmu_table() declares) and writes to a FILE.
 * With data names (stdio_opts.data_names) the Pareto also names the data: after each line
 * heading's address, and in a last "Data" column; every line then starts with exactly what perf
 * prints, and the names follow. */
#ifndef C2C_REPORT_STDIO_H
#define C2C_REPORT_STDIO_H

#include <stdio.h>

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
	int call_graph;             /* 0 none, 1 + enum rm_callers_order */
	/* Data names (c2c-lite's addition to perf's Pareto; 0: perf 6.1's layout byte for byte):
	 * what a line holds after its address in the line's heading, what a row touches in a
	 * "Data" column after the last of perf's */
	int data_names;
};

/* Print the report of PMU model @m. Returns 0, or -EIO when writing failed. */
int stdio_print(FILE *f, const struct rm_model *m, const struct stdio_opts *o);

#endif
