/* Where report/ gets its records: a c2c-lite trace or a perf.data file, told apart by the magic.
 * The rest of report/ sees only struct trace_info and a stream of struct trace_event in
 * timestamp order. Ownership and errors as in include/c2c/trace.h. */
#ifndef C2C_REPORT_SOURCE_H
#define C2C_REPORT_SOURCE_H

#include "c2c/trace.h"

struct source;

enum source_kind {
	SOURCE_TRACE = 1,
	SOURCE_PERFDATA,
};

/* The input of report and tui without -i: ./c2c-lite.data, else ./perf.data (perf's default),
 * said on the log hook when perf.data is taken; c2c-lite.data when neither exists. */
const char *source_default_input(void);
/* Open @path, detecting its format. A file of neither format, a directory or an empty file:
 * -EINVAL (-EISDIR) with a one-line error. */
int source_open(struct source **out, const char *path);
enum source_kind source_kind(const struct source *s);
const char *source_path(const struct source *s);
const struct trace_info *source_info(const struct source *s);
/* 1 and *ev filled, 0 at the end, or a negative errno. */
int source_next(struct source *s, struct trace_event *ev);
/* The file ended inside a record or chunk (what came before was delivered). */
int source_truncated(const struct source *s);
/* The perf.data reader's counters, or NULL for a trace. */
const struct perfdata_stats *source_perfdata_stats(const struct source *s);
void source_free(struct source *s);

#endif
