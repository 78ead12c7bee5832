/* sections-build: the builders of the report's sections (report/model/sections.h) from what
 * aggregate/ and lib/ compute. Each adds its section to @ss, or nothing when there is nothing to
 * show (no markers, no TopDown samples, an empty uncore summary); rs_sections_build() calls the
 * ones a report session has data for once the session is built. The rows keep what the text
 * report has always printed, in its order and wording. */
#ifndef C2C_REPORT_MODEL_SECTIONS_BUILD_H
#define C2C_REPORT_MODEL_SECTIONS_BUILD_H

#include "c2c/run.h"
#include "c2c/uncore.h"
#include "c2c/watch.h"
#include "report/aggregate/cltable.h"
#include "report/aggregate/estimate.h"
#include "report/aggregate/regions.h"
#include "report/aggregate/topdown-agg.h"
#include "report/aggregate/topdown-time.h"
#include "report/model/findings.h"
#include "report/model/sections.h"

struct report_session;

/* "TopDown: % of pipeline slots ...": all, every line and every function (ranked). */
void rm_sec_topdown(struct rm_sections *ss, const struct td_agg *a, td_agg_sym_fn fn, void *ctx);
/* "TopDown by time: ...": how, all, charged, every line and function (ranked). */
void rm_sec_topdown_time(struct rm_sections *ss, const struct tdt *a, td_agg_sym_fn fn,
			 void *ctx);
/* "Regions ...": a row per region in order of first appearance, the samples outside any. */
void rm_sec_regions(struct rm_sections *ss, const struct rg_table *t);
/* "AMD uncore over the run ...": a line per L3, DRAM channel and link, the notes. */
void rm_sec_uncore(struct rm_sections *ss, const struct c2c_uncore *u);

struct rm_header_in {
	const char *path;                    /* the input */
	const struct trace_info *info;
	enum rm_kind kind;
	const struct cltab_counts *counts;   /* PMU: the table's, NULL: none */
	const struct tdt *tdt;               /* PMU: TopDown by time, NULL: none */
	int phys;                            /* lines by physical address */
	int truncated;                       /* the input ended early */
	const struct c2c_run *run;           /* the workload's run (trace 1.8), NULL: none */
};
/* The run header: input, host, command line, events and counts (PMU), warnings. */
void rm_sec_header(struct rm_sections *ss, const struct rm_header_in *in);

struct rm_run_in {
	const struct estim *e;
	const struct rm_model *m;            /* its model and findings */
	const struct rm_findings *fs;
	const struct c2c_watch_duty *duty;   /* watch: the duty cycle, NULL: not recorded */
};
/* Soft and watch: the duty cycle, samples, recovered addresses, lines, losses, the reasons
 * addresses were not recovered. */
void rm_sec_run(struct rm_sections *ss, const struct rm_run_in *in);

/* Every section session @s has data for (TopDown functions named through its symbols). */
struct rm_sections *rs_sections_build(const struct report_session *s);

#endif
