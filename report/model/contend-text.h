/* contend-text: the contending functions and contention by data type (contend.h) as text lines
 * for every front end: the text reports print them under a prefix, the TUI lists them. */
#ifndef C2C_REPORT_MODEL_CONTEND_TEXT_H
#define C2C_REPORT_MODEL_CONTEND_TEXT_H

#include <stddef.h>

#include "report/model/contend.h"
#include "report/model/text.h"

/* The @top costliest pairs of functions (0: all), a title line first; nothing when there is
 * none. */
void rm_contend_pairs_text(const struct rm_model *m, const struct rm_contend *c, size_t top,
			   rm_put_fn *put, void *ctx);
/* The @top costliest type lines (0: all), a title line first; nothing when there is none. */
void rm_contend_types_text(const struct rm_model *m, const struct rm_contend *c, size_t top,
			   rm_put_fn *put, void *ctx);
/* One pair, one type line, as a row of those tables (no title). */
void rm_contend_pair_row(const struct rm_model *m, const struct rm_fn_pair *p, char *buf,
			 size_t n);
void rm_contend_type_row(const struct rm_model *m, const struct rm_type_line *t, char *buf,
			 size_t n);

#endif
