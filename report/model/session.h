/* session: the whole report pipeline behind every front end (report --stdio, --json, --csv, the
 * TUI, diff): open the input, read every record once, resolve it against the side-band, feed the
 * backend's table (cltable for PMU samples, estimate for soft and watch samples), then build the
 * model, name its data, judge its lines and group the findings.
 *
 * The session owns the source, the maps model, the symbol session, the table, the model and the
 * findings. With rs_opts.remodel a PMU table keeps its line sums so that other display modes can
 * be modelled without reading the input again (rs_remodel() rebuilds that mode's lines). */
#ifndef C2C_REPORT_MODEL_SESSION_H
#define C2C_REPORT_MODEL_SESSION_H

#include <stdint.h>

#include "c2c/run.h"
#include "c2c/uncore.h"
#include "c2c/watch.h"

#include "report/aggregate/cltable.h"
#include "report/aggregate/estimate.h"
#include "report/model/contend.h"
#include "report/model/findings.h"
#include "report/model/model.h"
#include "report/model/sections.h"
#include "report/read/source.h"
#include "report/aggregate/regions.h"
#include "report/aggregate/topdown-agg.h"
#include "report/aggregate/topdown-time.h"

struct report_session;

struct rs_opts {
	const char *input;
	uint32_t cl_size;             /* 0: this machine's (perf's rule), else the trace's, else 64 */
	int double_cl;                /* --double-cl: lines of twice the size */
	int display;                  /* enum cltab_display; -1: perf's default for the trace */
	enum cltab_coalesce coalesce[CLTAB_CO_MAX];
	int nr_coalesce;              /* 0: iaddr */
	int show_all;                 /* every line, shared or contended or not */
	int remodel;                  /* PMU: keep the line sums for rs_remodel() (the TUI) */
	int node_stats;               /* keep per-node counters (-N, the TUI) */
	uint32_t jobs;                /* PMU: aggregation threads (0, 1: the reading thread) */
	const char *symfs, *vmlinux;
	int verbose;                  /* unknown data names carry their reason */
	int no_topdown;               /* skip the TopDown aggregation */
	int no_callchains;            /* do not keep the samples' callchains */
	int phys;                     /* --phys: lines by physical address (a one-line error when
				       * no sample carries one) */
	const char *region;           /* keep only the samples inside this program region */
	/* called once the input is open and its kind known (s->src, s->info, s->kind), before
	 * anything is read: a negative return (with its one-line error through the log hook) stops
	 * rs_open(); report/cmdline.h's option policy */
	int (*check)(void *ctx, const struct report_session *s);
	void *check_ctx;
	/* called every 65536 records with the records read and the file's size (0: unknown); a
	 * non-zero return stops the load with -EINTR */
	int (*progress)(void *ctx, uint64_t records, uint64_t total);
	void *progress_ctx;
};

struct report_session {
	struct rs_opts opts;          /* strings borrowed from the caller */
	struct source *src;
	const struct trace_info *info;
	enum rm_kind kind;
	enum cltab_display display;   /* PMU: the mode the model shows */
	uint32_t cl_size;
	uint64_t records;             /* records read */
	int truncated;                /* the input ended inside a record */
	struct maps *maps;
	struct sym_session *sym;      /* NULL when symbols cannot be set up */
	struct unwind_sample *us;     /* perf.data user stacks (--call-graph dwarf); NULL: none */
	struct task_resolver *tasks;  /* goroutines as threads (report/resolve/tasks.h); NULL: none */
	struct cltab *t;              /* PMU */
	struct estim *e;              /* soft, watch */
	struct td_agg *td;
	struct tdt *tdt;              /* TopDown beside IBS/SPE, attributed by time; NULL: none */
	int td_reader_event;          /* the event whose samples are TopDown readings, -1: none */
	struct rg_table *rg;          /* program regions (REGION markers) */
	struct c2c_uncore *unc;       /* AMD uncore counts of the run, NULL when none */
	struct rm_model *m;
	struct rm_findings *fs;
	struct rm_contend *contend;   /* contending functions, contention by type (contend.h) */
	int have_run;                 /* the trace holds the workload's run (format 1.8) */
	struct c2c_run run;           /* its wall and CPU time and exit (include/c2c/run.h) */
	struct rm_sections *sections; /* header, regions, uncore, TopDown, soft/watch run totals */
	int have_duty;                /* watch: the trace holds its duty cycle (format 1.2) */
	int bad_duty;
	struct c2c_watch_duty duty;
};

/* Read @o->input to its end and build everything. 0, or a negative errno with a one-line error
 * through the log hook. */
int rs_open(struct report_session **out, const struct rs_opts *o);
/* PMU: model display mode @d instead (judgement and findings again). */
void rs_remodel(struct report_session *s, enum cltab_display d);
void rs_free(struct report_session *s);

/* The input without -i: c2c-lite.data, or perf.data when only that one is here (said through the
 * log hook), as perf c2c report reads. */
const char *rs_default_input(void);
/* The display mode perf uses by default for a trace (peer on arm64, else tot). */
enum cltab_display rs_default_display(const struct trace_info *info);
/* The kind of model a trace's backend gives. */
enum rm_kind rs_kind(const struct trace_info *info);

#endif
