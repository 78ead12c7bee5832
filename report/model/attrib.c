/* The share of a soft report without a data address, and where it went (see attrib.h). */
#include <stdio.h>
#include <string.h>

#include "c2c/soft.h"
#include "report/aggregate/estimate.h"
#include "report/model/attrib.h"

static const char *reason_text(int reason)
{
	return reason == ESTIM_NO_ADDR ? "no data address in the sample"
				       : softdec_reason_name((enum softdec_reason)reason);
}

void rm_attrib_of(const struct rm_model *m, struct rm_attrib *out)
{
	const struct estim_totals *t;
	const struct estim_unattr *ua;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!m->e || estim_opts(m->e)->mode != ESTIM_SOFT)
		return;
	t = estim_totals(m->e);
	out->soft = 1;
	out->samples = t->samples;
	out->unattr_samples = t->samples - t->recovered - t->no_phys;
	out->unattr_pct = estim_pct(t->weight - t->recovered_weight, t->weight);
	out->warn = out->unattr_pct > RM_ATTRIB_WARN && out->unattr_samples;
	out->inferred = t->inferred;
	out->inferred_one_line = t->inferred_one_line;
	out->inferred_unseen = t->inferred_unseen;
	out->inferred_pct = estim_pct(t->inferred_weight, t->weight);
	n = estim_unattr(m->e, &ua);
	for (size_t i = 0; i < n && out->nr_top < RM_ATTRIB_TOP; i++) {
		struct rm_attrib_site *s = &out->top[out->nr_top++];

		rm_code_estim(&s->code, ua[i].ip, ua[i].code_al, s->code.cpumode, ua[i].cmap,
			      ua[i].has_code ? &ua[i].code : NULL);
		s->reason = reason_text(ua[i].reason);
		s->samples = ua[i].samples;
		s->pct = estim_pct(ua[i].weight, t->weight);
	}
}

void rm_attrib_warning(const struct rm_attrib *a, void (*put)(void *ctx, const char *text),
		       void *ctx)
{
	char buf[256], sym[96], src[96];

	if (!a->warn)
		return;
	snprintf(buf, sizeof(buf), "WARNING: %.1f%% of the sampled time (%llu of %llu samples) has "
		 "no data address:", a->unattr_pct, (unsigned long long)a->unattr_samples,
		 (unsigned long long)a->samples);
	put(ctx, buf);
	put(ctx, "  the lines below show the rest only. Where the time without one went:");
	snprintf(buf, sizeof(buf), "  %7s %7s  %10s  %-28s %-24s %s", "time%", "samples", "code",
		 "symbol", "source:line", "reason");
	put(ctx, buf);
	for (size_t i = 0; i < a->nr_top; i++) {
		const struct rm_code *s = &a->top[i].code;

		if (s->symbol)
			snprintf(sym, sizeof(sym), "%s+%#llx", s->symbol,
				 (unsigned long long)s->sym_offset);
		else
			snprintf(sym, sizeof(sym), "%s", s->dso ? s->dso : "[unknown]");
		if (s->srcfile) {
			const char *base = strrchr(s->srcfile, '/');

			snprintf(src, sizeof(src), "%s:%u", base ? base + 1 : s->srcfile, s->line);
		}
		else
			snprintf(src, sizeof(src), "?");
		snprintf(buf, sizeof(buf), "  %6.2f%% %7llu  %#10llx  %-28s %-24s %s", a->top[i].pct,
			 (unsigned long long)a->top[i].samples, (unsigned long long)s->al, sym, src,
			 a->top[i].reason);
		put(ctx, buf);
	}
}

void rm_attrib_inferred_text(const struct rm_attrib *a, char *buf, size_t n)
{
	if (!a->inferred) {
		if (n)
			buf[0] = 0;
		return;
	}
	snprintf(buf, n, "%llu samples (%.2f%% of time) after a branch target with several candidate "
		 "accesses, charged among them as each thread was seen exactly; %llu with all "
		 "candidates on one line (the line is certain, the offset is not), %llu whose thread "
		 "was seen at none (the straight-line one)", (unsigned long long)a->inferred,
		 a->inferred_pct, (unsigned long long)a->inferred_one_line,
		 (unsigned long long)a->inferred_unseen);
}
