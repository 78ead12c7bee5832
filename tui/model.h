/* model: what the TUI browses: the report session (report/model/session.h), the same model,
 * names, verdicts and findings every front end shows.
 *
 * A tui_model owns the session: the source, the process model, the symbol session, the
 * backend's table, the report model and its findings. A PMU table keeps every line, so that
 * switching the display mode re-models it without reading the input again
 * (tui_model_display()); changing the coalescing reads the input again (a new model). Tests wrap
 * a model they built in memory with tui_model_wrap(). */
#ifndef C2C_TUI_MODEL_H
#define C2C_TUI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/session.h"

struct cmdline_use;

struct tui_load_opts {
	const char *input;            /* trace or perf.data */
	uint32_t cl_size;             /* 0: the session's default */
	int display;                  /* enum cltab_display, -1: perf's default for the arch */
	enum cltab_coalesce coalesce[CLTAB_CO_MAX];
	int nr_coalesce;              /* 0: offset,iaddr */
	const char *symfs, *vmlinux;
	struct cmdline_use *use;      /* the options given, checked against the input
				       * (report/cmdline.h); NULL: none */
};

/* Called every few thousand records while loading; @total is the file size in bytes. A non-zero
 * return stops the load (tui_model_load() then fails with -EINTR). */
typedef int (*tui_progress_fn)(void *ctx, uint64_t records, uint64_t total);

struct tui_model {
	struct tui_load_opts opts;        /* strings borrowed from the caller */
	enum rm_kind kind;
	const struct rm_model *rm;
	const struct rm_findings *fs;
	const struct rm_contend *contend; /* contending functions, types; NULL: none */
	const struct cltab *t;            /* PMU: the table (node figures, statistics) */
	const struct estim *e;            /* soft, watch: the table (statistics) */
	const struct trace_info *info;    /* NULL for a wrapped model */
	const char *path;                 /* NULL for a wrapped model */
	uint64_t records;                 /* records read */
	int truncated;                    /* the file ended inside a record */
	const struct c2c_watch_duty *duty; /* watch: the duty cycle, NULL when not recorded */
	/* the run's sections (report/model/sections.h): regions, AMD uncore, TopDown, soft and
	 * watch totals, as the report builds them for every printer */
	const struct rm_sections *sections;
	/* private */
	struct report_session *s;         /* NULL for a wrapped model */
	struct rm_sections *own;          /* a wrapped model's sections */
};

/* Load @o->input. 0, or a negative errno with a one-line error through the log hook. */
int tui_model_load(struct tui_model **out, const struct tui_load_opts *o, tui_progress_fn progress,
		   void *ctx);
/* A model over a report model and findings the caller keeps (tests); @t or @e for the
 * statistics screen (@e: its run totals are built here). */
struct tui_model *tui_model_wrap(const struct rm_model *rm, const struct rm_findings *fs,
				 const struct cltab *t, const struct estim *e);
/* PMU: show display mode @d (the model, its verdicts and findings are rebuilt). 0, or -ENOTSUP
 * for soft and watch models and wrapped ones. */
int tui_model_display(struct tui_model *m, enum cltab_display d);
void tui_model_free(struct tui_model *m);

#endif
