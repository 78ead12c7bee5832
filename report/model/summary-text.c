/* The findings as text lines (see summary-text.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/summary-text.h"

void rm_code_text(const struct rm_row *r, char *buf, size_t n)
{
	const char *file;

	if (!r) {
		snprintf(buf, n, "-");
	} else if (!r->code.symbol) {
		snprintf(buf, n, "%#llx", (unsigned long long)r->code.ip);
	} else if (r->code.srcfile && r->code.line) {
		file = strrchr(r->code.srcfile, '/');
		snprintf(buf, n, "%s at %s:%u", r->code.symbol, file ? file + 1 : r->code.srcfile,
			 r->code.line);
	} else {
		snprintf(buf, n, "%s", r->code.symbol);
	}
}

/* The cost of a member as its column shows it: HITMs and transfers as counts, time as a share. */
static void cost_cell(const struct rm_model *m, double cost, char *buf, size_t n)
{
	if (m->kind == RM_SOFT)
		snprintf(buf, n, "%.2f%%", m->total_cost > 0 ? 100.0 * cost / m->total_cost : 0);
	else
		snprintf(buf, n, "%.0f", cost);
}

static const char *cost_hdr(const struct rm_model *m)
{
	switch (m->kind) {
	case RM_SOFT: return "time";
	case RM_WATCH: return "xfers";
	case RM_PMU: default: return m->display == CLTAB_DISPLAY_PEER ? "snoops" : "HITMs";
	}
}

static int weight_cmp(const void *pa, const void *pb)
{
	const struct rm_member *a = *(const struct rm_member *const *)pa;
	const struct rm_member *b = *(const struct rm_member *const *)pb;
	double wa = a->cost + (double)(a->writes + a->reads) * 1e-9;
	double wb = b->cost + (double)(b->writes + b->reads) * 1e-9;

	if (wa != wb)
		return (wa < wb) - (wa > wb);
	return (a->offset > b->offset) - (a->offset < b->offset);
}

/* The members a finding shows: all, or the RM_SUMMARY_MAX_MEMBERS heaviest in offset order. */
static size_t pick(const struct rm_line *l, char *show)
{
	const struct rm_member **r;
	size_t i, left = 0;

	memset(show, 1, l->nr_mem);
	if (l->nr_mem <= RM_SUMMARY_MAX_MEMBERS)
		return 0;
	r = xcalloc(l->nr_mem, sizeof(*r));
	for (i = 0; i < l->nr_mem; i++)
		r[i] = &l->mem[i];
	qsort(r, l->nr_mem, sizeof(*r), weight_cmp);
	for (i = RM_SUMMARY_MAX_MEMBERS; i < l->nr_mem; i++)
		show[r[i] - l->mem] = 0;
	for (i = 0; i < l->nr_mem; i++)
		left += !show[i];
	free(r);
	return left;
}

static void member_threads(const struct rm_member *mb, char *buf, size_t n)
{
	char w[128], r[128];

	rm_threads_text(mb->writers, mb->nr_writers, w, sizeof(w));
	rm_threads_text(mb->readers, mb->nr_readers, r, sizeof(r));
	if (mb->nr_writers && mb->nr_readers && !strcmp(w, r))
		snprintf(buf, n, "rw %s", w);
	else if (mb->nr_writers && mb->nr_readers)
		snprintf(buf, n, "w %s; r %s", w, r);
	else if (mb->nr_writers)
		snprintf(buf, n, "w %s", w);
	else
		snprintf(buf, n, "r %s", r);
}

static void member_row(struct rm_text *t, const struct rm_model *m, const struct rm_member *mb,
		       int width, const char *p)
{
	char cost[32], thr[300], code[300];

	cost_cell(m, mb->cost, cost, sizeof(cost));
	member_threads(mb, thr, sizeof(thr));
	rm_code_text(mb->writer_row ? mb->writer_row : mb->reader_row, code, sizeof(code));
	rm_text_addf(t, "%s    0x%-6x %-*s %7llu %7llu", p, mb->offset, width,
		     mb->name ? mb->name : "-", (unsigned long long)mb->reads,
		     (unsigned long long)mb->writes);
	if (m->kind != RM_PMU)
		rm_text_addf(t, " %7llu", (unsigned long long)mb->atomics);
	rm_text_addf(t, " %7s  %-28s %s", cost, thr, code);
	rm_text_end(t);
}

static void members(struct rm_text *t, const struct rm_model *m, const struct rm_line *l,
		    const char *p)
{
	char *show = xcalloc(l->nr_mem ? l->nr_mem : 1, 1);
	size_t i, left = pick(l, show);
	int width = 6;

	for (i = 0; i < l->nr_mem; i++)
		if (l->mem[i].name && (int)strlen(l->mem[i].name) > width)
			width = (int)strlen(l->mem[i].name);
	rm_text_addf(t, "%s    %-8s %-*s %7s %7s", p, "offset", width, "member", "reads", "writes");
	if (m->kind != RM_PMU)
		rm_text_addf(t, " %7s", "atomics");
	rm_text_addf(t, " %7s  %-28s %s", cost_hdr(m), "threads", "code");
	rm_text_end(t);
	for (i = 0; i < l->nr_mem; i++)
		if (show[i])
			member_row(t, m, &l->mem[i], width, p);
	if (left) {
		rm_text_addf(t, "%s    (%zu lighter members not shown)", p, left);
		rm_text_end(t);
	}
	free(show);
}

/* A blank line of the block: the prefix without its trailing spaces. */
static void blank(struct rm_text *t, const char *p)
{
	size_t n = strlen(p);

	while (n && p[n - 1] == ' ')
		n--;
	rm_text_addf(t, "%.*s", (int)n, p);
	rm_text_end(t);
}

static void finding_title(struct rm_text *t, const struct rm_model *m,
			  const struct rm_finding *fd, size_t idx, const char *p)
{
	const char *cost = m->cost_name ? m->cost_name : "cost";
	char verdict[160];
	size_t i;

	rm_verdict_text(m, fd, verdict, sizeof(verdict));
	rm_text_addf(t, "%s%zu. %s: %s, %.2f%% of %s", p, idx + 1, fd->what, verdict, fd->share,
		     cost);
	rm_text_addf(t, ", %zu line%s (0x%llx", fd->nr_line, fd->nr_line == 1 ? "" : "s",
		     (unsigned long long)fd->line[0]->addr);
	for (i = 1; i < fd->nr_line && i < 4; i++)
		rm_text_addf(t, ", 0x%llx", (unsigned long long)fd->line[i]->addr);
	rm_text_addf(t, "%s)", fd->nr_line > 4 ? ", ..." : "");
	rm_text_end(t);
}

static void finding(struct rm_text *t, const struct rm_model *m, const struct rm_finding *fd,
		    size_t idx, const char *p)
{
	const char *cost = m->cost_name ? m->cost_name : "cost";
	char ev[512];

	blank(t, p);
	finding_title(t, m, fd, idx, p);
	members(t, m, fd->line[0], p);
	rm_evidence_text(m, fd, ev, sizeof(ev));
	rm_text_addf(t, "%s  evidence: %s", p, ev);
	rm_text_end(t);
	if (fd->line[0]->confirm) {
		char cf[2048];

		rm_confirm_text(fd->line[0], cf, sizeof(cf));
		rm_text_addf(t, "%s  watchpoints: %s", p, cf);
		rm_text_end(t);
	}
	rm_text_addf(t, "%s  advice: %s%s", p, fd->ev.low ? "(if the guess holds) " : "", fd->advice);
	rm_text_end(t);
	if (fd->verdict == RM_V_FALSE || fd->verdict == RM_V_MIXED) {
		char g[256];

		(void)cost;
		rm_gain_text(m, fd, g, sizeof(g));
		rm_text_addf(t, "%s  %s", p, g);
		rm_text_end(t);
	}
}

void rm_gain_text(const struct rm_model *m, const struct rm_finding *f, char *buf, size_t n)
{
	if (f->verdict != RM_V_FALSE && f->verdict != RM_V_MIXED) {
		snprintf(buf, n, "%s", "");
		return;
	}
	snprintf(buf, n, "false sharing: %.2f%% of %s%s; not a speedup forecast (measure the fix "
		 "with c2c-lite diff)", f->gain, m->cost_name,
		 f->nr_line > 1 ? " over its lines" : "");
}

struct map_ctx {
	struct rm_text *t;
	const char *prefix;
};

static void map_line(void *ctx, const char *text)
{
	struct map_ctx *c = ctx;

	rm_text_addf(c->t, "%s    %s", c->prefix, text);
	rm_text_end(c->t);
}

static void map_text(struct rm_text *t, const struct rm_model *m, const struct rm_line *l,
		     const char *prefix)
{
	struct map_ctx c = { t, prefix };
	struct rm_linemap map;

	rm_linemap_build(m, l, &map);
	rm_text_addf(t, "%s  line map of 0x%llx:", prefix, (unsigned long long)l->addr);
	rm_text_end(t);
	rm_linemap_text(&map, 32, map_line, &c);
	rm_linemap_release(&map);
}

void rm_summary_map_text(const struct rm_model *m, const struct rm_line *l, const char *prefix,
			 rm_put_fn *put, void *ctx)
{
	struct rm_text t;

	rm_text_init(&t, put, ctx);
	map_text(&t, m, l, prefix);
	rm_text_release(&t);
}

/* Watch lines whose threads all ran on one CPU: nothing could be seen, which is not "clean". */
static void one_cpu_note(struct rm_text *t, const struct rm_findings *fs, const char *prefix,
			 const char *lead)
{
	rm_text_addf(t, "%s%s%zu line%s several threads wrote ran on one CPU only: no transfer "
		     "could happen in this run, so its sharing, if any, cost nothing here; rerun "
		     "with the threads on different CPUs (idle CPUs, or taskset) to judge %s", prefix,
		     lead, fs->nr_one_cpu_lines, fs->nr_one_cpu_lines == 1 ? "" : "s",
		     fs->nr_one_cpu_lines == 1 ? "it" : "them");
	rm_text_end(t);
}

/* Findings on a runtime's own data (findings.h): a line each, after the program's. */
static void runtime_block(struct rm_text *t, const struct rm_model *m,
			  const struct rm_findings *fs, const char *p, size_t top)
{
	const char *cost = m->cost_name ? m->cost_name : "cost";
	char verdict[160];
	size_t i;

	if (!fs->nr_rt || !top)
		return;
	blank(t, p);
	rm_text_addf(t, "%sin the language runtime's own data (not the program's: contention its "
		     "calls into the runtime cause, e.g. the scheduler's; fewer goroutine switches "
		     "or allocations make it rarer):", p);
	rm_text_end(t);
	for (i = 0; i < fs->nr_rt && i < top; i++) {
		rm_verdict_text(m, &fs->rt[i], verdict, sizeof(verdict));
		rm_text_addf(t, "%s  %s: %s, %.2f%% of %s", p, fs->rt[i].what, verdict,
			     fs->rt[i].share, cost);
		rm_text_end(t);
	}
	if (fs->nr_rt > top) {
		rm_text_addf(t, "%s  (%zu more)", p, fs->nr_rt - top);
		rm_text_end(t);
	}
}

/* No finding in the program's data: say why, then the runtime's. */
static void none(struct rm_text *t, const struct rm_model *m, const struct rm_findings *fs,
		 const struct rm_summary_opts *o)
{
	if (fs->nr_one_cpu_lines) {
		one_cpu_note(t, fs, o->prefix, "no contended cacheline seen, but ");
	} else {
		rm_text_addf(t, "%sno contended cacheline%s: nothing to fix", o->prefix,
			     fs->nr_rt ? " in the program's own data" : "");
		rm_text_end(t);
	}
	runtime_block(t, m, fs, o->prefix, o->top);
}

static void findings(struct rm_text *t, const struct rm_model *m, const struct rm_findings *fs,
		     const struct rm_summary_opts *o, size_t n)
{
	const char *cost = m->cost_name ? m->cost_name : "cost", *prefix = o->prefix;
	size_t i;

	rm_text_addf(t, "%sc2c-lite summary: %zu finding%s on %zu contended cacheline%s (by %s)",
		     prefix, fs->nr, fs->nr == 1 ? "" : "s", fs->nr_contended_lines,
		     fs->nr_contended_lines == 1 ? "" : "s", cost);
	if (n < fs->nr)
		rm_text_addf(t, "; the first %zu", n);
	rm_text_end(t);
	for (i = 0; i < n; i++) {
		finding(t, m, &fs->f[i], i, prefix);
		if (o->map)
			map_text(t, m, fs->f[i].line[0], prefix);
	}
	runtime_block(t, m, fs, prefix, o->top);
	if (fs->nr_one_cpu_lines) {
		rm_text_end(t);
		one_cpu_note(t, fs, prefix, "note: ");
	}
}

void rm_summary_text(const struct rm_model *m, const struct rm_findings *fs,
		     const struct rm_summary_opts *o, rm_put_fn *put, void *ctx)
{
	size_t n = fs->nr < o->top ? fs->nr : o->top;
	struct rm_text t;

	if (!n && !o->say_none && !(o->top && fs->nr_rt))
		return;
	rm_text_init(&t, put, ctx);
	if (!fs->nr)
		none(&t, m, fs, o);
	else
		findings(&t, m, fs, o, n);
	rm_text_release(&t);
}
