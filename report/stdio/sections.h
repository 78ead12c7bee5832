/* sections: the text report's one printer of the report's sections (report/model/sections.h):
 * every row a "# " comment line, tables at their columns' widths, long text wrapped at 90
 * columns. */
#ifndef C2C_REPORT_STDIO_SECTIONS_H
#define C2C_REPORT_STDIO_SECTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "report/model/sections.h"

/* Print @sec (nothing when NULL) with at most @top rows of each ranked list (SIZE_MAX: all).
 * 0, or -EIO when writing failed. */
int stdio_section_print(FILE *f, const struct rm_section *sec, size_t top);

#endif
