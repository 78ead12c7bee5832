/* stdio-estimate: prints the report model of a soft or watch trace as text (see
 * stdio-estimate.h). The tables are driven by the model's declared columns; the findings come
 * from the one summary printer every backend shares. Output is deterministic. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/soft.h"
#include "report/model/attrib.h"
#include "report/stdio/callgraph.h"
#include "report/stdio/contend.h"
#include "report/stdio/sections.h"
#include "report/stdio/stdio-estimate.h"
#include "report/stdio/summary.h"

#define SYM_CUT 30
#define DATA_W 16

/* --- tables ------------------------------------------------------------------------------------ */

static void print_rule(FILE *f, char ch, int n)
{
	while (n-- > 0)
		fputc(ch, f);
	fputc('\n', f);
}

static void print_banner(FILE *f, const char *title)
{
	fputc('\n', f);
	print_rule(f, '=', 60);
	fprintf(f, "  %s\n", title);
	print_rule(f, '=', 60);
}

static void cell(FILE *f, const char *s, int width, int left, int last)
{
	if (left)
		fprintf(f, "  %-*s", last ? 0 : width, s);
	else
		fprintf(f, "  %*s", width, s);
}

/* The model's declared columns of a line (@r NULL) or row: headers when @hdr. */
static void model_cells(FILE *f, const struct rm_model *m, const struct rm_line *l,
			const struct rm_row *r, int hdr)
{
	const enum rm_col_id *ids = r || (!l && hdr == 2) ? m->row_cols : m->line_cols;
	size_t i, n = r || (!l && hdr == 2) ? m->nr_row_cols : m->nr_line_cols;
	char buf[64];

	for (i = 0; i < n; i++) {
		const struct rm_col *c = rm_model_col(m, ids[i]);

		if (hdr)
			snprintf(buf, sizeof(buf), "%s", c->hdr);
		else
			rm_cell(m, l, r, ids[i], buf, sizeof(buf));
		cell(f, buf, c->width, 0, 0);
	}
}

static void print_line_table(FILE *f, const struct rm_model *m, const struct stdio_estim_opts *o)
{
	char buf[256];
	size_t i;

	print_banner(f, m->kind == RM_SOFT ? "Estimated Cache Line Table (timer samples)"
					   : "Cache Line Table (watchpoint hits)");
	cell(f, "Index", 5, 0, 0);
	cell(f, "Cacheline", 18, 0, 0);
	if (!o->no_data_names)
		cell(f, "Data", DATA_W, 1, 0);
	model_cells(f, m, NULL, NULL, 1);
	cell(f, "HITM", 5, 0, 0);
	cell(f, "DataSrc", 7, 0, 0);
	cell(f, "Verdict", 13, 1, 1);
	fputc('\n', f);
	for (i = 0; i < m->nr_line; i++) {
		const struct rm_line *l = &m->line[i];

		snprintf(buf, sizeof(buf), "%zu", i + 1);
		cell(f, buf, 5, 0, 0);
		snprintf(buf, sizeof(buf), "%#llx", (unsigned long long)l->addr);
		cell(f, buf, 18, 0, 0);
		if (!o->no_data_names)
			cell(f, rm_object_short(l), DATA_W, 1, 0);
		model_cells(f, m, l, NULL, 0);
		cell(f, "n/a", 5, 0, 0);
		cell(f, "n/a", 7, 0, 0);
		cell(f, rm_verdict_name(l->verdict), 13, 1, 1);
		fputc('\n', f);
	}
}

static void cut(char *b, const struct stdio_estim_opts *o)
{
	if (!o->full_symbols && strlen(b) > SYM_CUT)
		b[SYM_CUT] = '\0';
}

static void row_tail(FILE *f, const struct rm_row *r, const struct stdio_estim_opts *o)
{
	char buf[512];
	const char *base;

	cell(f, "n/a", 5, 0, 0);
	snprintf(buf, sizeof(buf), "%#llx", (unsigned long long)(r->code.dso ? r->code.al :
								 r->code.ip));
	cell(f, buf, 18, 0, 0);
	if (!r->code.symbol)
		snprintf(buf, sizeof(buf), "[unknown]");
	else if (r->code.sym_offset)
		snprintf(buf, sizeof(buf), "%s+%#llx", r->code.symbol,
			 (unsigned long long)r->code.sym_offset);
	else
		snprintf(buf, sizeof(buf), "%s", r->code.symbol);
	cut(buf, o);
	cell(f, buf, SYM_CUT, 1, o->no_source && o->no_data_names);
	if (!o->no_source) {
		if (r->code.srcfile) {
			base = strrchr(r->code.srcfile, '/');
			snprintf(buf, sizeof(buf), "%s:%u", base ? base + 1 : r->code.srcfile,
				 r->code.line);
		} else {
			snprintf(buf, sizeof(buf), "-");
		}
		cut(buf, o);
		cell(f, buf, SYM_CUT, 1, o->no_data_names);
	}
	if (!o->no_data_names)
		cell(f, r->data ? r->data : "-", DATA_W, 1, 1);
}

/* Soft: what the confirmation watchpoints saw on the line, and how it was judged. */
static void print_confirm(FILE *f, const struct rm_line *l)
{
	const struct rm_confirm *c = l->confirm;
	char buf[2048], thr[96], words[96];
	size_t i;

	if (!c)
		return;
	rm_confirm_text(l, buf, sizeof(buf));
	fprintf(f, "  Watchpoints: %s\n", buf);
	if (!c->nr_acc)
		return;
	fprintf(f, "    %-7s %4s %9s %9s %9s %9s %9s  %-24s %s\n", "Offset", "Size", "Reads",
		"Writes", "Atomics", "Xfers", "Xfalse", "Thread", "Code");
	for (i = 0; i < c->nr_acc; i++) {
		const struct rm_cf_access *a = &c->acc[i];
		char code[320], off[16];

		rm_thread_name(a->thread, thr, sizeof(thr));
		if (a->code.symbol)
			snprintf(code, sizeof(code), "%s+0x%llx%s%s:%u", a->code.symbol,
				 (unsigned long long)a->code.sym_offset, a->code.srcfile ? " " : "",
				 a->code.srcfile ? a->code.srcfile : "", a->code.line);
		else
			snprintf(code, sizeof(code), "%#llx", (unsigned long long)a->code.al);
		if (!a->code.srcfile && a->code.symbol)
			snprintf(code, sizeof(code), "%s+0x%llx", a->code.symbol,
				 (unsigned long long)a->code.sym_offset);
		snprintf(off, sizeof(off), "0x%x", a->offset);
		fprintf(f, "    %-7s %4u %9llu %9llu %9llu %9llu %9llu  %-24s %s%s%s\n", off, a->size,
			(unsigned long long)a->reads, (unsigned long long)a->writes,
			(unsigned long long)a->atomics, (unsigned long long)(a->xfers + a->inval),
			(unsigned long long)a->xfers_false, thr, code, a->member[0] ? "  " : "",
			a->member);
	}
	for (i = 0; i < c->nr_coarm && i < 6; i++) {
		rm_confirm_words(c->coarm[i].words, words, sizeof(words));
		fprintf(f, "%s%s (%llu window%s, %.3g ms, %llu hits)", i ? "; " :
			"    armed together: ", words, (unsigned long long)c->coarm[i].windows,
			c->coarm[i].windows == 1 ? "" : "s", (double)c->coarm[i].armed_ns / 1e6,
			(unsigned long long)c->coarm[i].hits);
	}
	if (c->nr_coarm > 6)
		fprintf(f, "; %zu more sets", c->nr_coarm - 6);
	if (c->nr_coarm)
		fputc('\n', f);
}

static void print_pareto_line(FILE *f, const struct rm_model *m, const struct rm_line *l,
			      const struct stdio_estim_opts *o)
{
	size_t i;

	fprintf(f, "\n  ----------------------------------------------------------------------\n");
	fprintf(f, "  %5u  %#llx  %s  %s", l->index + 1, (unsigned long long)l->addr,
		!o->no_data_names && l->what ? l->what : "-", rm_verdict_name(l->verdict));
	if (m->kind == RM_SOFT)
		fprintf(f, "  %.2f%% of sampled time\n", l->v[RM_COL_COST]);
	else
		fprintf(f, "  %.0f transfers\n", l->v[RM_COL_XFERS]);
	fprintf(f, "  ----------------------------------------------------------------------\n");
	cell(f, "Offset", 6, 0, 0);
	model_cells(f, m, NULL, NULL, 2);
	cell(f, "HITM", 5, 0, 0);
	cell(f, "Code address", 18, 0, 0);
	cell(f, "Symbol", SYM_CUT, 1, o->no_source && o->no_data_names);
	if (!o->no_source)
		cell(f, "Source:Line", SYM_CUT, 1, o->no_data_names);
	if (!o->no_data_names)
		cell(f, "Data", DATA_W, 1, 1);
	fputc('\n', f);
	for (i = 0; i < l->nr_row; i++) {
		const struct rm_row *r = &l->row[i];
		char buf[32];

		snprintf(buf, sizeof(buf), "0x%x", r->offset);
		cell(f, buf, 6, 0, 0);
		model_cells(f, m, l, r, 0);
		row_tail(f, r, o);
		fputc('\n', f);
		if (o->call_graph)
			callgraph_fprint_row(f, m, l, r, (enum rm_callers_order)(o->call_graph - 1));
	}
	print_confirm(f, l);
	if (o->map) {
		fputc('\n', f);
		summary_print_map(f, m, l, "");
	}
}

/* --- header --------------------------------------------------------------------------------- */

static const char *const soft_words[] = {
	"# ESTIMATED FIGURES. The recording machine had no PMU memory sampling (PEBS/IBS/SPE):",
	"# the samples are timer (cpu-clock) samples of every thread. Each one is charged to the",
	"# memory access its thread was most likely stalled on, decoded from the code at the sampled",
	"# IP and the sampled registers. Time% is a share of the sampled CPU time, not a count of",
	"# cache events. HITM and data-source figures need a PMU: they read n/a.",
	NULL,
};

static const char *const watch_words[] = {
	"# COUNTED FROM WATCHPOINT HITS. Hardware debug registers trapped every access to the",
	"# watched words; accesses to other words are not seen. Xfers are the transfers a MESI cache",
	"# would make for these accesses in time order: an access by one CPU after a write by another",
	"# moves the line modified (the HITM equivalent); FalseX are those whose bytes the writer did",
	"# not touch; Inval are writes that invalidated clean copies. Each hit counts 1, its offset",
	"# is its first byte. PMU HITM and data-source figures read n/a.",
	NULL,
};

static void print_words(FILE *f, const char *const *w)
{
	for (; *w; w++)
		fprintf(f, "%s\n", *w);
}

static int is_rotated(const struct stdio_estim_opts *o)
{
	return o->info && o->info->options && strstr(o->info->options, "rotat");
}

static void put_comment(void *ctx, const char *text)
{
	fprintf(ctx, "# %s\n", text);
}

/* The run header, the warning and words on what the figures are, then the run's totals. */
static void print_stats(FILE *f, const struct rm_model *m, const struct stdio_estim_opts *o)
{
	int soft = m->kind == RM_SOFT;
	struct rm_attrib a;

	rm_attrib_of(m, &a);
	stdio_section_print(f, rm_sections_get(o->sections, RM_SEC_HEADER), SIZE_MAX);
	if (a.warn) {
		rm_attrib_warning(&a, put_comment, f);
		fprintf(f, "#\n");
	}
	print_words(f, soft ? soft_words : watch_words);
	if (!soft && is_rotated(o))
		fprintf(f, "# The debug registers were rotated over more words than they can watch at once:\n"
			"# counts cover only the time each word was watched and transfers are lower bounds.\n");
	stdio_section_print(f, rm_sections_get(o->sections, RM_SEC_RUN), SIZE_MAX);
}

int stdio_estim_print(FILE *f, const struct rm_model *m, const struct rm_findings *fs,
		      const struct stdio_estim_opts *o)
{
	size_t i;

	print_stats(f, m, o);
	if (o->stats_only)
		return ferror(f) ? -EIO : 0;
	if (m->nr_line) {
		print_line_table(f, m, o);
		print_banner(f, "Cache Line Distribution Pareto");
		for (i = 0; i < m->nr_line; i++)
			print_pareto_line(f, m, &m->line[i], o);
	}
	if (o->summary) {
		struct rm_summary_opts so = { .top = o->summary, .prefix = "  ", .say_none = 1,
					   .map = o->map };

		print_banner(f, "What to fix");
		summary_print(f, m, fs, &so);
		if (o->contend && (o->contend->nr_pair || o->contend->nr_type)) {
			fputc('\n', f);
			stdio_contend_print(f, m, o->contend, o->summary, "  ");
		}
	}
	return ferror(f) ? -EIO : 0;
}
