/* The hardware acceptance kit's judgement (see hwcheck.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/aggregate/cltable.h"
#include "report/aggregate/dsrc.h"
#include "report/aggregate/topdown-agg.h"
#include "report/diff/diff.h"
#include "report/diff/hwcheck.h"
#include "report/model/session.h"

const char *hwc_status_name(enum hwc_status s)
{
	return s == HWC_OK ? "ok" : s == HWC_FAIL ? "FAIL" : "skipped";
}

int hwc_within_noise(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, double *tol)
{
	double p1 = (double)k1 / (double)n1, p2 = (double)k2 / (double)n2;
	double p = (double)(k1 + k2) / (double)(n1 + n2);

	*tol = HWC_SIGMAS * sqrt(p * (1 - p) * (1.0 / (double)n1 + 1.0 / (double)n2)) + HWC_FLOOR;
	return fabs(p1 - p2) <= *tol;
}

static struct hwc_check *add(struct hwc_check *out, size_t *n, const char *what,
			     enum hwc_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static struct hwc_check *add(struct hwc_check *out, size_t *n, const char *what,
			     enum hwc_status st, const char *fmt, ...)
{
	struct hwc_check *c = &out[(*n)++];
	va_list ap;

	c->what = what;
	c->st = st;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return c;
}

static const char *top_name(const struct hwc_side *s)
{
	return s->nr_top ? s->top[0].key : "no contended line";
}

static void check_top(const struct hwc_side *p, const struct hwc_side *o, struct hwc_check *out,
		      size_t *n)
{
	int same = p->nr_top == o->nr_top ? 1 : 0;

	if (p->nr_top && o->nr_top)
		same = !strcmp(p->top[0].key, o->top[0].key) && p->top[0].verdict == o->top[0].verdict;
	else
		same = !p->nr_top && !o->nr_top;
	add(out, n, "top finding", same ? HWC_OK : HWC_FAIL, "%s: %s (%s), %s: %s (%s)", p->label,
	    top_name(p), p->nr_top ? rm_verdict_name(p->top[0].verdict) : "-", o->label,
	    top_name(o), o->nr_top ? rm_verdict_name(o->top[0].verdict) : "-");
}

static void check_names(const struct hwc_side *p, const struct hwc_side *o, struct hwc_check *out,
			size_t *n)
{
	char missing[256] = "";
	size_t len = 0, want = 0;

	for (size_t i = 0; i < p->nr_top; i++) {
		size_t k;

		if (p->top[i].share < HWC_NAMES_MIN)
			continue;
		want++;
		for (k = 0; k < o->nr_top && strcmp(p->top[i].key, o->top[k].key); k++)
			;
		if (k == o->nr_top && len < sizeof(missing))
			len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%s",
						len ? ", " : "", p->top[i].key);
	}
	if (!want)
		add(out, n, "data names", HWC_SKIP, "%s has no finding with %.0f%% of its cost",
		    p->label, HWC_NAMES_MIN);
	else if (len)
		add(out, n, "data names", HWC_FAIL, "not among %s's findings: %s", o->label, missing);
	else
		add(out, n, "data names", HWC_OK, "%zu of %s's findings (%.0f%%+) are %s's too", want,
		    p->label, HWC_NAMES_MIN, o->label);
}

static void check_share(const char *what, const char *unit, uint64_t k1, uint64_t n1, uint64_t k2,
			uint64_t n2, const struct hwc_side *p, const struct hwc_side *o,
			struct hwc_check *out, size_t *n)
{
	double tol;
	int ok;

	if (!n1 || !n2) {
		add(out, n, what, HWC_SKIP, "no %s in %s", unit, !n1 ? p->label : o->label);
		return;
	}
	ok = hwc_within_noise(k1, n1, k2, n2, &tol);
	add(out, n, what, ok ? HWC_OK : HWC_FAIL, "%.1f%% (%s) vs %.1f%% (%s) of %s, allowed "
	    "+-%.1f points", 100.0 * (double)k1 / (double)n1, p->label,
	    100.0 * (double)k2 / (double)n2, o->label, unit, 100.0 * tol);
}

static void check_td(const struct hwc_side *p, const struct hwc_side *o, struct hwc_check *out,
		     size_t *n)
{
	static const char *const names[4] = { "retiring", "bad spec", "frontend", "backend" };
	char buf[256];
	size_t len = 0;
	int ok = 1;

	if (!p->has_td || !o->has_td) {
		add(out, n, "TopDown", HWC_SKIP, "%s", !o->has_td ? "our samples carry no TopDown "
		    "values (Intel PERF_METRICS only)" : "no perf stat -M TopdownL1 figures");
		return;
	}
	for (int i = 0; i < 4; i++) {
		int in = fabs(p->td[i] - o->td[i]) <= HWC_TD_POINTS;

		ok &= in;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s %.1f/%.1f%s",
					i ? ", " : "", names[i], p->td[i], o->td[i], in ? "" : "!");
	}
	add(out, n, "TopDown", ok ? HWC_OK : HWC_FAIL, "%% of slots, perf stat/ours: %s (allowed "
	    "+-%.0f points)", buf, HWC_TD_POINTS);
}

static void check_expect(const struct hwc_side *p, const struct hwc_side *o, const char *expect,
			 struct hwc_check *out, size_t *n)
{
	int none = !strcmp(expect, "-");
	int pok = none ? !p->nr_top : p->nr_top && !strcmp(p->top[0].key, expect);
	int ook = none ? !o->nr_top : o->nr_top && !strcmp(o->top[0].key, expect);

	add(out, n, "expected", pok && ook ? HWC_OK : HWC_FAIL, "%s: %s by %s, %s by %s",
	    none ? "no contended line" : expect, pok ? "found" : "missed", p->label,
	    ook ? "found" : "missed", o->label);
}

int hwc_parse_c2c_table(const char *text, uint64_t *addr, uint64_t *total, uint64_t *records)
{
	const char *p = text ? strstr(text, "Shared Data Cache Line Table") : NULL;
	const char *end = p ? strstr(p, "Shared Cache Line Distribution Pareto") : NULL;

	while (p && (p = strchr(p, '\n')) && (!end || p < end)) {
		unsigned long long idx, a, t, r;
		char node[32], pa[32], pct[32];

		p++;
		if (*p == '#' || *p == '=')
			continue;
		if (sscanf(p, "%llu %llx %31s %31s %31s %llu %*u %*u %llu", &idx, &a, node, pa, pct, &t,
			   &r) == 7) {
			*addr = a;
			*total = t;
			*records = r;
			return 0;
		}
	}
	return -ENOENT;
}

static void check_report(const struct hwc_side *p, const char *text, struct hwc_check *out,
			 size_t *n)
{
	uint64_t a, t, r;

	if (!text) {
		add(out, n, "perf report", HWC_SKIP, "perf c2c report did not run (no perf, or it "
		    "failed on the file)");
		return;
	}
	if (hwc_parse_c2c_table(text, &a, &t, &r)) {
		add(out, n, "perf report", p->has_line ? HWC_FAIL : HWC_OK, "perf c2c report shows no "
		    "shared line%s", p->has_line ? ", ours does" : ", nor does ours");
		return;
	}
	if (!p->has_line) {
		add(out, n, "perf report", HWC_FAIL, "perf c2c report's first line 0x%llx, ours none",
		    (unsigned long long)a);
		return;
	}
	add(out, n, "perf report", a == p->line_addr && t == p->line_total &&
	    r == p->line_records ? HWC_OK : HWC_FAIL, "first line of the perf.data, perf c2c "
	    "report/ours: 0x%llx/0x%llx, total %llu/%llu, records %llu/%llu",
	    (unsigned long long)a, (unsigned long long)p->line_addr, (unsigned long long)t,
	    (unsigned long long)p->line_total, (unsigned long long)r,
	    (unsigned long long)p->line_records);
}

size_t hwc_compare(const struct hwc_side *perf, const struct hwc_side *ours, const char *expect,
		   const char *perf_report, struct hwc_check *out)
{
	size_t n = 0;

	check_top(perf, ours, out, &n);
	check_names(perf, ours, out, &n);
	check_share("HITM share", "loads", perf->hitm, perf->loads, ours->hitm, ours->loads, perf,
		    ours, out, &n);
	check_share("peer share", "loads", perf->peer, perf->loads, ours->peer, ours->loads, perf,
		    ours, out, &n);
	if (perf->nr_top && ours->nr_top && !strcmp(perf->top[0].key, ours->top[0].key))
		check_share("top share", "cost", (uint64_t)(perf->top[0].share / 100.0 *
			    perf->total_cost + 0.5), (uint64_t)perf->total_cost,
			    (uint64_t)(ours->top[0].share / 100.0 * ours->total_cost + 0.5),
			    (uint64_t)ours->total_cost, perf, ours, out, &n);
	else
		add(out, &n, "top share", HWC_SKIP, "%s", !perf->nr_top && !ours->nr_top ?
		    "no contended line on either side" : "the top findings differ");
	check_td(perf, ours, out, &n);
	if (expect && *expect)
		check_expect(perf, ours, expect, out, &n);
	check_report(perf, perf_report, out, &n);
	return n;
}

enum hwc_status hwc_verdict(const struct hwc_check *c, size_t n)
{
	enum hwc_status v = HWC_SKIP;

	for (size_t i = 0; i < n; i++) {
		if (c[i].st == HWC_FAIL)
			return HWC_FAIL;
		if (c[i].st == HWC_OK)
			v = HWC_OK;
	}
	return v;
}

/* --- perf stat ------------------------------------------------------------------------------ */

/* Which level-1 metric a CSV field names: "tma_retiring", "% tma_backend_bound", "Retiring". */
static int td_field(const char *f)
{
	static const char *const names[4][2] = {
		{ "retiring", "retiring" }, { "bad_speculation", "bad speculation" },
		{ "frontend_bound", "frontend bound" }, { "backend_bound", "backend bound" },
	};

	while (*f == ' ' || *f == '%')
		f++;
	if (!strncasecmp(f, "tma_", 4))
		f += 4;
	for (int i = 0; i < 4; i++)
		if (!strcasecmp(f, names[i][0]) || !strcasecmp(f, names[i][1]))
			return i;
	return -1;
}

int hwc_parse_perf_stat(const char *text, double td[4])
{
	int have = 0;

	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		char line[512], *field[16], *tok;
		size_t nf = 0;

		if (len < sizeof(line) && *text != '#') {
			memcpy(line, text, len);
			line[len] = '\0';
			/* empty fields matter: split by hand */
			for (tok = line, field[nf++] = line; *tok && nf < 16; tok++)
				if (*tok == ',') {
					*tok = '\0';
					field[nf++] = tok + 1;
				}
			for (size_t i = 1; i < nf; i++) {
				int m = td_field(field[i]);
				char *end;
				double v;

				if (m < 0)
					continue;
				v = strtod(field[i - 1], &end);
				if (end != field[i - 1] && !*end && v >= 0 && v <= 100) {
					td[m] = v;
					have |= 1 << m;
				}
			}
		}
		text = eol ? eol + 1 : NULL;
	}
	return have == 0xf ? 0 : -ENOENT;
}

/* --- from a report -------------------------------------------------------------------------- */

int hwc_side_from(const struct report_session *s, const char *label, struct hwc_side *out)
{
	const struct dsrc_stats *t;

	memset(out, 0, sizeof(*out));
	out->label = label;
	if (!s->t)
		return -EINVAL;
	t = cltab_total(s->t);
	out->loads = dsrc_total_loads(t);
	out->hitm = t->tot_hitm;
	out->peer = t->tot_peer;
	out->total_cost = s->m->total_cost;
	for (size_t i = 0; i < s->fs->nr && out->nr_top < HWC_TOP; i++) {
		struct hwc_finding *f = &out->top[out->nr_top++];

		diff_key(&s->fs->f[i], f->key, sizeof(f->key));
		f->verdict = (int)s->fs->f[i].verdict;
		f->share = s->fs->f[i].share;
	}
	if (s->m->nr_line) {
		const struct rm_line *l = &s->m->line[0];

		out->has_line = 1;
		out->line_addr = l->addr;
		out->line_total = (uint64_t)l->v[RM_COL_HITM];
		out->line_records = (uint64_t)l->v[RM_COL_RECORDS];
	}
	if (s->td && td_agg_nr_samples(s->td) && td_agg_has(s->td, TD_RETIRING)) {
		const struct td_sum *sum = td_agg_total(s->td);

		out->has_td = 1;
		for (int i = 0; i < 4; i++)
			out->td[i] = td_pct(sum, (enum td_metric)i);
	}
	return 0;
}

void hwc_print(FILE *f, const char *title, const struct hwc_check *c, size_t n)
{
	fprintf(f, "%s: %s\n", title, hwc_status_name(hwc_verdict(c, n)));
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-12s %-7s %s\n", c[i].what, hwc_status_name(c[i].st), c[i].detail);
}
