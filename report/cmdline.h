/* cmdline: option values the report-side commands share (report, tui, diff), parsed once and
 * refused alike: a one-line error through the log hook and -EINVAL. */
#ifndef C2C_REPORT_CMDLINE_H
#define C2C_REPORT_CMDLINE_H

#include <stdint.h>

/* -d/--display: tot, rmt, lcl or peer -> enum cltab_display. */
int cmdline_display(const char *s);
/* --cacheline-size: a power of two up to 1 MiB. */
int cmdline_cl_size(const char *s, uint32_t *out);
/* -j/--jobs: aggregation threads, 1..CMDLINE_MAX_JOBS. */
#define CMDLINE_MAX_JOBS 256
int cmdline_jobs(const char *s, uint32_t *out);
/* The default for -j: the online CPUs, at most CMDLINE_DEFAULT_JOBS_CAP (one thread reads and
 * resolves for all of them: more aggregation threads than that wait on it). */
#define CMDLINE_DEFAULT_JOBS_CAP 8
uint32_t cmdline_default_jobs(void);

#endif
