/* advice: the "# c2c-lite summary" block, which names the data on the most contended cachelines
 * and says what to fix.
 *
 * For the first N displayed lines of a finished cacheline table (report/cltable.h) it resolves
 * what the line holds and the member behind each visible offset (through a data resolver, in the
 * report the symbols session), groups the offsets by member, sums their counters, and classifies
 * the line: FALSE SHARING when different members of the line are written (or one is written while
 * HITMs land on another), TRUE SHARING when the HITMs land on the one member that is written.
 * Only those N lines are resolved, so the cost does not grow with the size of the report.
 *
 * Ownership: an advice borrows the table, its maps model and the resolver's strings; free it
 * before them. Output is deterministic: lines in display order, members by offset. Not
 * thread-safe. */
#ifndef C2C_REPORT_ADVICE_H
#define C2C_REPORT_ADVICE_H

#include <stdint.h>
#include <stdio.h>

#include "report/cltable.h"
#include "report/maps.h"
#include "report/symbols.h"

#define ADVICE_DEFAULT_TOP 5
#define ADVICE_MAX_ROWS 16      /* members printed per line; the lighter ones are counted */

/* What lies at data address @addr of line @ln (whose dmap, cpumode and first thread say where).
 * @of is the offset row the address belongs to (its instruction may name the type of a heap
 * object), or NULL for the line's start. Returns 0 with out->var set when a variable was found
 * (ADVICE_BY_CODE when the row's instruction named the memory, which no symbol covers), else
 * -ENOENT with out->reason. Strings must outlive the advice. */
#define ADVICE_BY_CODE 1
typedef int (*advice_data_fn)(void *ctx, const struct cltab_line *ln,
			      const struct cltab_offset *of, uint64_t addr,
			      struct sym_data_info *out);

struct advice_opts {
	int top;                /* lines to explain; 0: none */
	int verbose;            /* say why a line's data is unknown */
	advice_data_fn data;    /* NULL: every line is "[unknown]" */
	void *data_ctx;
};

/* The resolver of the report: a symbols session plus the maps model (to attribute a .bss tail
 * that the kernel mapped anonymously to the file mapped just below it). */
struct advice_sym_ctx {
	struct sym_session *sym;
	const struct maps *maps;
};
int advice_sym_data(void *ctx, const struct cltab_line *ln, const struct cltab_offset *of,
		    uint64_t addr, struct sym_data_info *out);

/* The data names the Pareto prints, through @o's resolver (any line, not only the summarized
 * ones). advice_line_what(): what the line holds, as the summary's heading says it ("buf1
 * (struct _buf, 64 bytes)", up to three variables, "heap of pid 12", "[unknown]").
 * advice_row_name(): what offset row @of touches: the member path ("buf1.lock0", "q.head (+8)"),
 * else what the line's memory is ("heap of pid 12", "stack of tid 7", a shared mapping's name),
 * else "[unknown]" (with the reason when o->verbose). */
void advice_line_what(const struct advice_opts *o, const struct cltab_line *ln, char *buf,
		      size_t n);
void advice_row_name(const struct advice_opts *o, const struct cltab_line *ln,
		     const struct cltab_offset *of, char *buf, size_t n);

enum advice_verdict {
	ADVICE_FALSE_SHARING,   /* different members written, or written beside a read one */
	ADVICE_TRUE_SHARING,    /* the contended member is itself written */
	ADVICE_NO_STORES,       /* HITMs but no sampled store: writers unknown */
	ADVICE_QUIET,           /* nothing contended on the line */
};

/* One member of a line: the visible offset rows whose member name (without " (+N)") is equal,
 * or one offset when the member is unknown. */
struct advice_member {
	uint64_t offset;                      /* lowest offset */
	char name[128];                       /* member path, "" when unknown */
	uint32_t loads, stores, metric;       /* metric: the display metric (HITMs or peer) */
	uint32_t cpus;                        /* CPUs in the union of the rows' CPU sets */
	uint32_t threads;                     /* distinct first threads of the rows */
	const struct maps_thread *thread;     /* first thread of the first row */
	const struct cltab_offset *writer;    /* row with the most stores, or NULL */
	const struct cltab_offset *reader;    /* row with the most metric, or NULL */
};

struct advice_line {
	const struct cltab_line *ln;
	char what[256];                       /* "buf1 (struct _buf, 64 bytes)", "heap", ... */
	uint32_t metric;                      /* line's display metric */
	double share;                         /* percent of the table's total metric */
	struct advice_member *mem;
	size_t nr_mem;
	enum advice_verdict verdict;
	int a, b;                             /* members named by the verdict (-1: none) */
	char advice[1024];
};

struct advice {
	const struct cltab *t;
	struct advice_line *line;
	size_t nr_line;
	uint32_t total;                       /* table's total display metric */
};

/* Build the summary of @t (after cltab_finish). Returns 0; out-of-memory is fatal. */
int advice_build(struct advice **out, const struct cltab *t, const struct advice_opts *o);
void advice_free(struct advice *a);
/* Print the "# "-prefixed block (nothing when the summary is empty). Returns 0 or -EIO. */
int advice_print(FILE *f, const struct advice *a);

const char *advice_verdict_name(enum advice_verdict v);
/* Name of the display metric: "Total HITMs", "Remote HITMs", "Local HITMs", "Peer snoops". */
const char *advice_metric_name(enum cltab_display d);

#endif
