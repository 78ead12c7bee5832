/* model: what the TUI browses, loaded through report/'s public APIs.
 *
 * A tui_model owns the event source, the process model, the symbol session and the finished
 * cacheline table (built with show_all so that every display mode can be re-filtered without
 * re-aggregating, see report/cltable-view.h). Tests wrap a table they built in memory with
 * tui_model_wrap(). Only tui_model_load() reads the input; everything after it is lookups. */
#ifndef C2C_TUI_MODEL_H
#define C2C_TUI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "report/cltable.h"

struct tui_load_opts {
	const char *input;            /* trace or perf.data */
	uint32_t cl_size;             /* 0: from the file (64 when it has none) */
	int display;                  /* enum cltab_display, -1: perf's default for the arch */
	enum cltab_coalesce coalesce[CLTAB_CO_MAX];
	int nr_coalesce;              /* 0: offset,iaddr */
	const char *symfs, *vmlinux;
};

/* Called every few thousand records while loading; @total is the file size in bytes. A non-zero
 * return stops the load (tui_model_load() then fails with -EINTR). */
typedef int (*tui_progress_fn)(void *ctx, uint64_t records, uint64_t total);

struct tui_model {
	struct tui_load_opts opts;        /* strings borrowed from the caller */
	enum cltab_display display;       /* the mode the table was built with */
	struct cltab *t;
	const struct trace_info *info;    /* NULL for a wrapped table */
	const char *path;                 /* NULL for a wrapped table */
	uint64_t records;                 /* records read */
	int truncated;                    /* the file ended inside a record */
	/* private */
	struct source *src;
	struct maps *maps;
	struct sym_session *sym;
	int owns_table;
};

/* Load @o->input. 0, or a negative errno with a one-line error through the log hook. */
int tui_model_load(struct tui_model **out, const struct tui_load_opts *o, tui_progress_fn progress,
		   void *ctx);
/* A model over a finished table the caller keeps (tests). */
struct tui_model *tui_model_wrap(struct cltab *t, enum cltab_display display);
void tui_model_free(struct tui_model *m);

/* The variable and member offset row @o of line @l touches ("buf.lock0", "p->next" for a heap
 * object typed through the row's instruction), or at the line's start when @o is NULL, written
 * into @buf, or NULL when unknown. Resolved as the report's summary and Pareto resolve it
 * (report/model/names.h); the symbol session caches each address. */
const char *tui_model_data_name(struct tui_model *m, const struct cltab_line *l,
				const struct cltab_offset *o, char *buf, size_t size);
const char *tui_model_line_name(struct tui_model *m, const struct cltab_line *l, char *buf,
				size_t size);

#endif
