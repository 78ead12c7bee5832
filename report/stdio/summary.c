/* The findings as text (see summary.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/stdio/summary.h"

void summary_code_text(const struct rm_row *r, char *buf, size_t n)
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

/* The members a finding prints: all, or the SUMMARY_MAX_MEMBERS heaviest in offset order. */
static size_t pick(const struct rm_line *l, char *show)
{
	const struct rm_member **r;
	size_t i, left = 0;

	memset(show, 1, l->nr_mem);
	if (l->nr_mem <= SUMMARY_MAX_MEMBERS)
		return 0;
	r = xcalloc(l->nr_mem, sizeof(*r));
	for (i = 0; i < l->nr_mem; i++)
		r[i] = &l->mem[i];
	qsort(r, l->nr_mem, sizeof(*r), weight_cmp);
	for (i = SUMMARY_MAX_MEMBERS; i < l->nr_mem; i++)
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

static void print_members(FILE *f, const struct rm_model *m, const struct rm_line *l,
			  const char *p)
{
	char *show = xcalloc(l->nr_mem ? l->nr_mem : 1, 1);
	size_t i, left = pick(l, show);
	char cost[32], thr[300], code[300];
	int width = 6, atom = m->kind != RM_PMU;

	for (i = 0; i < l->nr_mem; i++)
		if (l->mem[i].name && (int)strlen(l->mem[i].name) > width)
			width = (int)strlen(l->mem[i].name);
	fprintf(f, "%s    %-8s %-*s %7s %7s", p, "offset", width, "member", "reads", "writes");
	if (atom)
		fprintf(f, " %7s", "atomics");
	fprintf(f, " %7s  %-28s %s\n", cost_hdr(m), "threads", "code");
	for (i = 0; i < l->nr_mem; i++) {
		const struct rm_member *mb = &l->mem[i];

		if (!show[i])
			continue;
		cost_cell(m, mb->cost, cost, sizeof(cost));
		member_threads(mb, thr, sizeof(thr));
		summary_code_text(mb->writer_row ? mb->writer_row : mb->reader_row, code,
				  sizeof(code));
		fprintf(f, "%s    0x%-6x %-*s %7llu %7llu", p, mb->offset, width,
			mb->name ? mb->name : "-", (unsigned long long)mb->reads,
			(unsigned long long)mb->writes);
		if (atom)
			fprintf(f, " %7llu", (unsigned long long)mb->atomics);
		fprintf(f, " %7s  %-28s %s\n", cost, thr, code);
	}
	if (left)
		fprintf(f, "%s    (%zu lighter members not shown)\n", p, left);
	free(show);
}

/* A blank line of the block: the prefix without its trailing spaces. */
static void blank(FILE *f, const char *p)
{
	size_t n = strlen(p);

	while (n && p[n - 1] == ' ')
		n--;
	fprintf(f, "%.*s\n", (int)n, p);
}

static void print_finding(FILE *f, const struct rm_model *m, const struct rm_finding *fd,
			  size_t idx, const char *p)
{
	const char *cost = m->cost_name ? m->cost_name : "cost";
	char verdict[160], ev[512];
	size_t i;

	blank(f, p);
	rm_verdict_text(m, fd, verdict, sizeof(verdict));
	fprintf(f, "%s%zu. %s: %s, %.2f%% of %s", p, idx + 1, fd->what, verdict, fd->share, cost);
	fprintf(f, ", %zu line%s (0x%llx", fd->nr_line, fd->nr_line == 1 ? "" : "s",
		(unsigned long long)fd->line[0]->addr);
	for (i = 1; i < fd->nr_line && i < 4; i++)
		fprintf(f, ", 0x%llx", (unsigned long long)fd->line[i]->addr);
	fprintf(f, "%s)\n", fd->nr_line > 4 ? ", ..." : "");
	print_members(f, m, fd->line[0], p);
	rm_evidence_text(m, fd, ev, sizeof(ev));
	fprintf(f, "%s  evidence: %s\n", p, ev);
	if (fd->line[0]->confirm) {
		char cf[2048];

		rm_confirm_text(fd->line[0], cf, sizeof(cf));
		fprintf(f, "%s  watchpoints: %s\n", p, cf);
	}
	fprintf(f, "%s  advice: %s%s\n", p, fd->ev.low ? "(if the guess holds) " : "", fd->advice);
	if (fd->verdict == RM_V_FALSE || fd->verdict == RM_V_MIXED)
		fprintf(f, "%s  predicted gain: up to %.2f%% of %s (an estimate: the %s on its false "
			"sharing)\n", p, fd->gain, cost,
			m->kind == RM_SOFT ? "sampled time" : m->cost_unit);
}

struct map_ctx {
	FILE *f;
	const char *prefix;
};

static void map_line(void *ctx, const char *text)
{
	struct map_ctx *c = ctx;

	fprintf(c->f, "%s    %s\n", c->prefix, text);
}

void summary_print_map(FILE *f, const struct rm_model *m, const struct rm_line *l,
		       const char *prefix)
{
	struct map_ctx c = { f, prefix };
	struct rm_linemap map;

	rm_linemap_build(m, l, &map);
	fprintf(f, "%s  line map of 0x%llx:\n", prefix, (unsigned long long)l->addr);
	rm_linemap_text(&map, 32, map_line, &c);
	rm_linemap_release(&map);
}

/* Watch lines whose threads all ran on one CPU: nothing could be seen, which is not "clean". */
static void one_cpu_note(FILE *f, const struct rm_findings *fs, const char *prefix,
			 const char *lead)
{
	fprintf(f, "%s%s%zu line%s several threads wrote ran on one CPU only: no transfer could "
		"happen in this run, so its sharing, if any, cost nothing here; rerun with the "
		"threads on different CPUs (idle CPUs, or taskset) to judge %s\n", prefix, lead,
		fs->nr_one_cpu_lines, fs->nr_one_cpu_lines == 1 ? "" : "s",
		fs->nr_one_cpu_lines == 1 ? "it" : "them");
}

/* Findings on a runtime's own data (findings.h): a line each, after the program's. */
static void runtime_block(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
			  const char *p, size_t top)
{
	const char *cost = m->cost_name ? m->cost_name : "cost";
	char verdict[160];
	size_t i;

	if (!fs->nr_rt || !top)
		return;
	blank(f, p);
	fprintf(f, "%sin the language runtime's own data (not the program's: contention its calls "
		"into the runtime cause, e.g. the scheduler's; fewer goroutine switches or "
		"allocations make it rarer):\n", p);
	for (i = 0; i < fs->nr_rt && i < top; i++) {
		rm_verdict_text(m, &fs->rt[i], verdict, sizeof(verdict));
		fprintf(f, "%s  %s: %s, %.2f%% of %s\n", p, fs->rt[i].what, verdict, fs->rt[i].share,
			cost);
	}
	if (fs->nr_rt > top)
		fprintf(f, "%s  (%zu more)\n", p, fs->nr_rt - top);
}

int summary_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
		  const struct summary_opts *o)
{
	const char *cost = m->cost_name ? m->cost_name : "cost", *prefix = o->prefix;
	size_t i, n = fs->nr < o->top ? fs->nr : o->top;
	int say_none = o->say_none;

	if (!n && !say_none && !(o->top && fs->nr_rt))
		return 0;
	if (!fs->nr) {
		if (fs->nr_one_cpu_lines)
			one_cpu_note(f, fs, prefix, "no contended cacheline seen, but ");
		else
			fprintf(f, "%sno contended cacheline%s: nothing to fix\n", prefix,
				fs->nr_rt ? " in the program's own data" : "");
		runtime_block(f, m, fs, prefix, o->top);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "%sc2c-lite summary: %zu finding%s on %zu contended cacheline%s (by %s)", prefix,
		fs->nr, fs->nr == 1 ? "" : "s", fs->nr_contended_lines,
		fs->nr_contended_lines == 1 ? "" : "s", cost);
	if (n < fs->nr)
		fprintf(f, "; the first %zu", n);
	fprintf(f, "\n");
	for (i = 0; i < n; i++) {
		print_finding(f, m, &fs->f[i], i, prefix);
		if (o->map)
			summary_print_map(f, m, fs->f[i].line[0], prefix);
	}
	runtime_block(f, m, fs, prefix, o->top);
	if (fs->nr_one_cpu_lines) {
		fputc('\n', f);
		one_cpu_note(f, fs, prefix, "note: ");
	}
	return ferror(f) ? -EIO : 0;
}
