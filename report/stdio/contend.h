/* contend: the contending functions and contention by data type (report/model/contend.h) in the
 * text reports, each line of the model's text builders (contend-text.h) under a prefix. */
#ifndef C2C_REPORT_STDIO_CONTEND_H
#define C2C_REPORT_STDIO_CONTEND_H

#include <stdio.h>

#include "report/model/contend.h"

/* The @top costliest pairs and type lines (0: all), a line under @prefix for each, a blank
 * prefixed line after each table; nothing when @c has neither. 0 or -EIO. */
int stdio_contend_print(FILE *f, const struct rm_model *m, const struct rm_contend *c, size_t top,
			const char *prefix);

#endif
