/* cmdline: option values the report-side commands share (report, tui, diff), parsed once and
 * refused alike: a one-line error through the log hook and -EINVAL. */
#ifndef C2C_REPORT_CMDLINE_H
#define C2C_REPORT_CMDLINE_H

#include <stdint.h>

/* -d/--display: tot, rmt, lcl or peer -> enum cltab_display. */
int cmdline_display(const char *s);
/* --cacheline-size: a power of two up to 1 MiB. */
int cmdline_cl_size(const char *s, uint32_t *out);

#endif
