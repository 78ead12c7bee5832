/* attrib: how much of a soft report rests on a data address, for every front end alike (stdio,
 * TUI, JSON show what this says). A timer sample whose access gave no data address (no memory
 * operand at the IP, a clobbered base register, a stack or thread-local access...) is counted
 * by its reason, never charged to a line: when such samples hold more than RM_ATTRIB_WARN
 * percent of the sampled time, the report's picture is partial, and its first lines say so,
 * with the heaviest code addresses without an address (symbol, source line, reason). It also
 * says how many samples were charged by inference: several candidate accesses could have
 * retired just before the IP (include/c2c/soft.h, SOFTDEC_ACC_INFERRED).
 *
 * Pure: reads the model's estimate table (estim_totals(), estim_unattr()). */
#ifndef C2C_REPORT_MODEL_ATTRIB_H
#define C2C_REPORT_MODEL_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/model.h"

#define RM_ATTRIB_WARN 10.0      /* percent of the sampled time without a data address */
#define RM_ATTRIB_TOP 5          /* code addresses the warning names */

struct rm_attrib_site {
	struct rm_code code;     /* the access instruction when known, else the sampled IP */
	const char *reason;      /* why it has no data address */
	uint64_t samples;
	double pct;              /* of the sampled time */
};

struct rm_attrib {
	int soft;                /* a soft model: the rest is meaningful */
	uint64_t samples;        /* every sample */
	uint64_t unattr_samples; /* without a data address */
	double unattr_pct;       /* their share of the sampled time */
	int warn;                /* unattr_pct > RM_ATTRIB_WARN */
	struct rm_attrib_site top[RM_ATTRIB_TOP];   /* the heaviest, by time */
	size_t nr_top;
	/* charged by inference (estim_totals.inferred...) */
	uint64_t inferred, inferred_one_line, inferred_unseen;
	double inferred_pct;     /* of the sampled time */
};

/* Fill @out for model @m (all zero but for PMU and watch models: soft 0). */
void rm_attrib_of(const struct rm_model *m, struct rm_attrib *out);
/* The warning as text lines, each handed to @put (no comment prefix, at most 100 columns):
 * none when !warn. */
void rm_attrib_warning(const struct rm_attrib *a, void (*put)(void *ctx, const char *text),
		       void *ctx);
/* "1234 samples (12.34% of time) charged among candidate accesses ..." in @buf; "" when none
 * was inferred. */
void rm_attrib_inferred_text(const struct rm_attrib *a, char *buf, size_t n);

#endif
