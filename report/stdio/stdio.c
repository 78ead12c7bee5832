/* The perf-identical stdio report (see report/stdio/stdio.h). Summary blocks are {label, getter}
 * tables; the two big tables are arrays of struct col built per display mode and per cacheline,
 * filled with cell strings and laid out by report/stdio/columns.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/columns.h"
#include "report/stdio/callgraph.h"
#include "report/stdio/numfmt.h"
#include "report/stdio/stdio.h"

#define RULE "================================================="
#define SYMBOL_WIDTH 30
#define CELL 512

/* --- summary blocks ------------------------------------------------------------------------- */

static void print_title(FILE *f, const char *title)
{
	fprintf(f, "%s\n%s\n%s\n", RULE, title, RULE);
}

/* perf's run totals, from the model's rows: a blank line before each section but the first. */
static void print_stats(FILE *f, const struct rm_stat *st, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (st[i].kind == RM_STAT_TITLE) {
			if (i)
				fprintf(f, "\n");
			print_title(f, st[i].banner);
		} else if (st[i].kind == RM_STAT_PCT) {
			fprintf(f, "  %-34s: %10.1f%%\n", st[i].label, st[i].pct);
		} else {
			fprintf(f, "  %-34s: %10d\n", st[i].label, (int)st[i].count);
		}
	}
}

static const char *const sort_name[] = {
	[CLTAB_DISPLAY_TOT] = "Total HITMs", [CLTAB_DISPLAY_RMT] = "Remote HITMs",
	[CLTAB_DISPLAY_LCL] = "Local HITMs", [CLTAB_DISPLAY_PEER] = "Peer Snoop",
};

static void print_details(FILE *f, const struct cltab *t, const struct stdio_opts *o)
{
	int i;

	print_title(f, "                 c2c details                     ");
	for (i = 0; i < o->nr_events; i++)
		fprintf(f, "%-36s: %s\n", i ? "" : "  Events", o->events[i]);
	fprintf(f, "%-36s: %s\n", "  Cachelines sort on", sort_name[cltab_opts(t)->display]);
	fprintf(f, "%-36s: offset,%s\n", "  Cacheline data grouping", o->coalesce);
}

/* --- shared cell helpers -------------------------------------------------------------------- */

/* snprintf(out, CELL, "%s", s) without the format machinery */
static void cell_copy(char *out, const char *s)
{
	size_t n = strlen(s);

	if (n > CELL - 1)
		n = CELL - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

static void fmt_pct(char *out, uint32_t part, uint32_t whole)
{
	numfmt_pct2(out, whole ? 100. * (double)part / (double)whole : 0.);
}

static void fmt_nodes(char *out, const struct cltab *t, const uint64_t *set)
{
	const struct cltab_opts *opts = cltab_opts(t);
	struct col_line l = { 0 };
	uint32_t nbits = opts->nr_nodes;

	col_range_list(&l, set, nbits < cltab_nr_node_bits(t) ? nbits : cltab_nr_node_bits(t));
	cell_copy(out, l.len ? l.s : "N/A");
	col_line_release(&l);
}

/* --- the main table ------------------------------------------------------------------------- */

enum { MT_NR = 23 };

static void main_cols(struct col *c, const struct cltab *t, const struct stdio_opts *o,
		      char *banner)
{
	enum cltab_display d = cltab_opts(t)->display;
	int peer = d == CLTAB_DISPLAY_PEER;
	static const char *const pct0[] = { "Tot", "Rmt", "Lcl", "Peer" };
	struct col tmpl[MT_NR] = {
		{ NULL, 0, "Index", 5 }, { NULL, 2, "Address", 18 }, { NULL, 0, "Node", 4 },
		{ NULL, 0, "PA cnt", 6 }, { NULL, 0, "Hitm", 7 },
		{ "------- Load Hitm -------", 2, "Total", 7 }, { NULL, 0, "LclHitm", 7 },
		{ NULL, 0, "RmtHitm", 7 }, { "Total", 0, "records", 7 }, { "Total", 0, "Loads", 7 },
		{ "Total", 0, "Stores", 7 }, { "--------- Stores --------", 2, "L1Hit", 7 },
		{ NULL, 0, "L1Miss", 7 }, { NULL, 0, "N/A", 7 },
		{ "----- Core Load Hit -----", 2, "FB", 7 }, { NULL, 0, "L1", 7 },
		{ NULL, 0, "L2", 7 }, { "- LLC Load Hit --", 1, "LclHit", 8 },
		{ NULL, 0, "LclHitm", 7 }, { "- RMT Load Hit --", 1, "RmtHit", 8 },
		{ NULL, 0, "RmtHitm", 7 }, { "--- Load Dram ----", 1, "Lcl", 8 },
		{ NULL, 0, "Rmt", 8 },
	};

	col_banner(banner, 64, 18 + 4 + 6 + 4, o->double_cl ? "Double-Cacheline" : "Cacheline");
	tmpl[1].hdr0 = banner;
	tmpl[4].hdr0 = pct0[d];
	if (peer) {
		tmpl[4].hdr1 = "Snoop";
		tmpl[5].hdr0 = "------- Load Peer -------";
		tmpl[5].hdr1 = "Total";
		tmpl[6].hdr1 = "Local";
		tmpl[7].hdr1 = "Remote";
	}
	memcpy(c, tmpl, sizeof(tmpl));
}

static void main_row(struct col_line *l, const struct col *c, const struct cltab *t,
		     const struct cltab_line *ln)
{
	static char cell[MT_NR][CELL];
	const char *p[MT_NR];
	const struct dsrc_stats *s = &ln->stats;
	enum cltab_display d = cltab_opts(t)->display;
	uint32_t v[3];
	int i;

	numfmt_u64(cell[0], ln->index);
	numfmt_hex(cell[1], ln->addr);
	fmt_nodes(cell[2], t, ln->nodeset);
	numfmt_u64(cell[3], ln->paddr_cnt);
	fmt_pct(cell[4], cltab_metric(d, s), cltab_metric(d, cltab_total(t)));
	if (d == CLTAB_DISPLAY_PEER) {
		v[0] = s->tot_peer, v[1] = s->lcl_peer, v[2] = s->rmt_peer;
	} else {
		v[0] = s->lcl_hitm + s->rmt_hitm, v[1] = s->lcl_hitm, v[2] = s->rmt_hitm;
	}
	for (i = 0; i < 3; i++)
		numfmt_u64(cell[5 + i], v[i]);
	{
		uint32_t rest[] = { dsrc_total_records(s), dsrc_total_loads(s), s->store, s->st_l1hit,
				    s->st_l1miss, s->st_na, s->ld_fbhit, s->ld_l1hit, s->ld_l2hit,
				    s->ld_llchit, s->lcl_hitm, s->rmt_hit, s->rmt_hitm, s->lcl_dram,
				    s->rmt_dram };

		for (i = 0; i < 15; i++)
			numfmt_u64(cell[8 + i], rest[i]);
	}
	for (i = 0; i < MT_NR; i++)
		p[i] = cell[i];
	col_row(l, c, MT_NR, p);
}

static void print_main_table(FILE *f, const struct cltab *t, const struct stdio_opts *o)
{
	struct col c[MT_NR];
	struct col_line l = { 0 };
	struct cltab_line *const *ln;
	char banner[64];
	size_t nr, i;

	main_cols(c, t, o, banner);
	print_title(f, "           Shared Data Cache Line Table          ");
	fprintf(f, "#\n");
	col_header0(&l, c, MT_NR);
	fprintf(f, "%s\n", l.s);
	col_line_reset(&l);
	col_header1(&l, c, MT_NR);
	fprintf(f, "%s\n", l.s);
	col_line_reset(&l);
	col_dots(&l, c, MT_NR);
	fprintf(f, "%s\n#\n", l.s);
	ln = cltab_lines(t, &nr);
	for (i = 0; i < nr; i++) {
		col_line_reset(&l);
		main_row(&l, c, t, ln[i]);
		fprintf(f, "%s\n", l.s);
	}
	col_line_release(&l);
}

/* --- the Pareto section --------------------------------------------------------------------- */

enum pcol {
	PC_NUM, PC_RMT, PC_LCL, PC_L1HIT, PC_L1MISS, PC_NA, PC_OFF, PC_NODE, PC_PACNT, PC_PID,
	PC_TID, PC_IADDR, PC_CYC_RMT, PC_CYC_LCL, PC_CYC_LOAD, PC_RECORDS, PC_CPUCNT, PC_SYMBOL,
	PC_DSO, PC_SRC, PC_CPUNODE, PC_NR,
};

struct pareto {
	const struct cltab *t;
	const struct stdio_opts *o;
	int has[PC_NR];
	int node_w;
	char banner[96];
};

struct line_w {
	int sym, dso, src, tid;
};

/* perf 6.1 takes Source:Line from addr2line, whose answer the symbols session gives
 * (report/resolve/symbols.h): "file:line"; "FILE:0" when addr2line names a file but no line (the STT_FILE
 * file of a local function without DWARF: crtstuff.c); "??:0" when it names the function but no
 * file (srcfile "??"). perf prints symbol+offset when it cannot ask addr2line (DSO names in
 * brackets: [kernel.kallsyms], modules) or when addr2line finds nothing at the address (srcfile
 * NULL): the PLT, where perf shows the "name@plt" entries it synthesizes or the size-0 _init it
 * stretched over the PLT (docs/perf-differences.md, "Symbols with real binaries"). */
static int srcline_by_offset(const struct cltab_offset *of)
{
	return !of->cmap || of->cmap->dso->name[0] == '[' || !of->code.srcfile;
}

void stdio_srcline(char *out, size_t size, const struct cltab_offset *of)
{
	const char *base;

	if (of->has_sym && of->code.srcfile && (of->code.line || !srcline_by_offset(of))) {
		base = strrchr(of->code.srcfile, '/');
		snprintf(out, size, "%s:%u", base ? base + 1 : of->code.srcfile, of->code.line);
	} else if (of->has_sym) {
		snprintf(out, size, "%s+%llu", of->code.symbol,
			 (unsigned long long)of->code.sym_offset);
	} else if (of->cmap && of->code.srcfile && of->cmap->dso->name[0] != '[') {
		/* no symbol, but addr2line answers there: a line, or "??:0" / "FILE:0" */
		base = strrchr(of->code.srcfile, '/');
		snprintf(out, size, "%s:%u", base ? base + 1 : of->code.srcfile, of->code.line);
	} else if (of->cmap) {
		snprintf(out, size, "%s[%llx]", of->cmap->dso->short_name,
			 (unsigned long long)of->code_al);
	} else {
		snprintf(out, size, "??:0");
	}
}

static int cap_width(const struct pareto *p, int w)
{
	return p->o->full_symbols || w < SYMBOL_WIDTH ? w : SYMBOL_WIDTH;
}

/* perf's hists__calc_col_len over every offset entry of the line, hidden ones included. */
static void line_widths(const struct pareto *p, const struct cltab_line *ln, struct line_w *w)
{
	char src[CELL];
	size_t i;
	int any_unres = 0, dso = 0, sym = 0, s = 11, comm = 0;

	for (i = 0; i < ln->nr_off; i++) {
		const struct cltab_offset *of = ln->off[i];
		int len;

		if (of->has_sym)
			len = (int)strlen(of->code.symbol) + 4;
		else
			len = 22, any_unres = 1;
		sym = len > sym ? len : sym;
		if (of->cmap && (len = (int)strlen(of->cmap->dso->short_name)) > dso)
			dso = len;
		stdio_srcline(src, CELL, of);
		if ((len = (int)strlen(src)) > s)
			s = len;
		if ((len = (int)strlen(of->thread->comm)) > comm)
			comm = len;
	}
	if (any_unres && dso < 16)
		dso = 16;
	w->sym = cap_width(p, sym);
	w->dso = dso;
	w->src = cap_width(p, s);
	w->tid = comm + 8;
}

static const char *cpunode_header(const struct pareto *p)
{
	int peer = cltab_opts(p->t)->display == CLTAB_DISPLAY_PEER;

	switch (p->o->node_info) {
	case 0:
		return "Node";
	case 1:
		return peer ? "Node{cpus %peers %stores}" : "Node{cpus %hitms %stores}";
	default:
		return "Node{cpu list}";
	}
}

static int pareto_cols(struct pareto *p, const struct line_w *w, struct col *out, int *idx)
{
	int peer = cltab_opts(p->t)->display == CLTAB_DISPLAY_PEER, n = 0, k;
	struct col all[PC_NR] = {
		[PC_NUM] = { NULL, 0, "Num", 5 },
		[PC_RMT] = { peer ? "-- Peer Snoop --" : "----- HITM -----", 1,
			     peer ? "Rmt" : "RmtHitm", 7 },
		[PC_LCL] = { NULL, 0, peer ? "Lcl" : "LclHitm", 7 },
		[PC_L1HIT] = { "------- Store Refs ------", 2, "L1 Hit", 7 },
		[PC_L1MISS] = { NULL, 0, "L1 Miss", 7 },
		[PC_NA] = { NULL, 0, "N/A", 7 },
		[PC_OFF] = { p->banner, 2, "Offset", 18 },
		[PC_NODE] = { NULL, 0, "Node", p->node_w },
		[PC_PACNT] = { NULL, 0, "PA cnt", 6 },
		[PC_PID] = { NULL, 0, "Pid", 7 },
		[PC_TID] = { NULL, 0, "Tid", w->tid, COL_LEFT },
		[PC_IADDR] = { NULL, 0, "Code address", 18 },
		[PC_CYC_RMT] = { "---------- cycles ----------", 2, peer ? "rmt peer" : "rmt hitm", 8 },
		[PC_CYC_LCL] = { NULL, 0, peer ? "lcl peer" : "lcl hitm", 8 },
		[PC_CYC_LOAD] = { NULL, 0, "load", 8 },
		[PC_RECORDS] = { "Total", 0, "records", 7 },
		[PC_CPUCNT] = { "cpu", 0, "cnt", 8 },
		[PC_SYMBOL] = { NULL, 0, "Symbol", w->sym, COL_LEFT },
		[PC_DSO] = { "Shared", 0, "Object", w->dso, COL_LEFT },
		[PC_SRC] = { NULL, 0, "Source:Line", w->src, COL_LEFT },
		[PC_CPUNODE] = { NULL, 0, cpunode_header(p), 4, COL_LEFT },
	};

	for (k = 0; k < PC_NR; k++) {
		if (!p->has[k])
			continue;
		idx[n] = k;
		out[n++] = all[k];
	}
	return n;
}

static void fmt_cycles(char *out, const struct cltab_mean *m)
{
	char tmp[32];

	/* "%6.0f" into a buffer of 10: a mean of more than 9 digits is cut there */
	numfmt_f0w6(tmp, m->n ? m->mean : 0.);
	tmp[9] = '\0';
	cell_copy(out, tmp);
}

static uint32_t node_metric(enum cltab_display d, const struct dsrc_stats *st)
{
	return cltab_metric(d, st);
}

static void fmt_cpunode(struct col_line *l, const struct pareto *p, const struct cltab_offset *of)
{
	const struct cltab_opts *opts = cltab_opts(p->t);
	uint32_t n, c;
	int printed = 0;

	for (n = 0; n < opts->nr_nodes; n++) {
		uint64_t set[64] = { 0 };
		uint32_t cnt = 0, m, mt;

		for (c = 0; c < opts->nr_cpus && c < 64 * 64; c++) {
			if (opts->cpu_node[c] == (int32_t)n && (of->cpuset[c / 64] >> (c % 64) & 1)) {
				set[c / 64] |= 1ULL << (c % 64);
				cnt++;
			}
		}
		if (!cnt) {
			if (p->o->node_info == 1)
				col_line_addf(l, "%21s", "");
			continue;
		}
		if (printed++)
			col_line_add(l, " ", 1);
		if (p->o->node_info == 0) {
			col_line_addf(l, "%2d", (int)n);
		} else if (p->o->node_info == 1) {
			col_line_addf(l, "%2d{%2d ", (int)n, (int)cnt);
			m = node_metric(opts->display, &of->node_stats[n]);
			mt = node_metric(opts->display, &of->stats);
			if (mt)
				col_line_addf(l, "%5.1f%% ", 100. * (double)m / (double)mt);
			else
				col_line_addf(l, "%6s ", "n/a");
			if (of->stats.store)
				col_line_addf(l, "%5.1f%%}", 100. * (double)of->node_stats[n].store /
							     (double)of->stats.store);
			else
				col_line_addf(l, "%6s}", "n/a");
		} else {
			col_line_addf(l, "%2d{", (int)n);
			col_range_list(l, set, opts->nr_cpus < 64 * 64 ? opts->nr_cpus : 64 * 64);
			col_line_add(l, "}", 1);
		}
	}
}

static void fmt_symbol(char *out, const struct cltab_offset *of, int width)
{
	char lvl = maps_level_char(of->cpumode);

	if (of->has_sym)
		snprintf(out, CELL, "[%c] %.*s", lvl, width - 4 > 0 ? width - 4 : 0, of->code.symbol);
	else if (of->code_al)
		snprintf(out, CELL, "[%c] %#-.*llx", lvl, 16, (unsigned long long)of->code_al);
	else
		snprintf(out, CELL, "[%c] %-.*llx", lvl, 16, 0ULL);
	if ((int)strlen(out) > width)
		out[width] = '\0';
}

static void offset_cells(const struct pareto *p, const struct cltab_line *ln,
			 const struct cltab_offset *of, const struct line_w *w, char cell[][CELL])
{
	enum cltab_display d = cltab_opts(p->t)->display;
	int peer = d == CLTAB_DISPLAY_PEER;
	const struct dsrc_stats *s = &of->stats, *L = &ln->stats;
	struct col_line nl = { 0 };

	cell[PC_NUM][0] = '\0';
	fmt_pct(cell[PC_RMT], peer ? s->rmt_peer : s->rmt_hitm, peer ? L->rmt_peer : L->rmt_hitm);
	fmt_pct(cell[PC_LCL], peer ? s->lcl_peer : s->lcl_hitm, peer ? L->lcl_peer : L->lcl_hitm);
	fmt_pct(cell[PC_L1HIT], s->st_l1hit, L->st_l1hit);
	fmt_pct(cell[PC_L1MISS], s->st_l1miss, L->st_l1miss);
	fmt_pct(cell[PC_NA], s->st_na, L->st_na);
	numfmt_hex(cell[PC_OFF], of->disp_offset);
	fmt_nodes(cell[PC_NODE], p->t, of->nodeset);
	numfmt_u64(cell[PC_PACNT], of->paddr_cnt);
	snprintf(cell[PC_PID], CELL, "%d", of->thread->pid);
	snprintf(cell[PC_TID], CELL, "%7d:%-*.*s", of->thread->tid, w->tid - 8, w->tid - 8,
		 of->thread->comm);
	numfmt_hex(cell[PC_IADDR], of->ip);
	fmt_cycles(cell[PC_CYC_RMT], &of->cycles[peer ? CLTAB_CYC_RMT_PEER : CLTAB_CYC_RMT_HITM]);
	fmt_cycles(cell[PC_CYC_LCL], &of->cycles[peer ? CLTAB_CYC_LCL_PEER : CLTAB_CYC_LCL_HITM]);
	fmt_cycles(cell[PC_CYC_LOAD], &of->cycles[CLTAB_CYC_LOAD]);
	numfmt_u64(cell[PC_RECORDS], dsrc_total_records(s));
	numfmt_u64(cell[PC_CPUCNT], of->cpu_cnt);
	fmt_symbol(cell[PC_SYMBOL], of, w->sym);
	col_trunc(cell[PC_DSO], CELL, of->cmap ? of->cmap->dso->short_name : "[unknown]", w->dso);
	stdio_srcline(cell[PC_SRC], CELL, of);
	cell[PC_SRC][w->src < CELL ? w->src : CELL - 1] = '\0';
	fmt_cpunode(&nl, p, of);
	cell_copy(cell[PC_CPUNODE], nl.len ? nl.s : "");
	col_line_release(&nl);
}

/* perf's row for offset @of, into @l. */
static void offset_row(struct col_line *l, struct pareto *p, const struct cltab_line *ln,
		       const struct cltab_offset *of, const struct line_w *w)
{
	static char cell[PC_NR][CELL];
	struct col c[PC_NR];
	int idx[PC_NR], n, i;
	const char *ptr[PC_NR];

	n = pareto_cols(p, w, c, idx);
	offset_cells(p, ln, of, w, cell);
	for (i = 0; i < n; i++)
		ptr[i] = cell[idx[i]];
	col_row(l, c, n, ptr);
}

/* perf's rows of the visible offsets of a line, rendered once into @rows ("\n" after each);
 * returns the length of the longest. */
static size_t render_rows(struct col_line *rows, struct pareto *p, const struct cltab_line *ln,
			  const struct line_w *w)
{
	size_t j, start, width = 0;

	col_line_reset(rows);
	for (j = 0; j < ln->nr_off; j++) {
		if (!ln->off[j]->visible)
			continue;
		start = rows->len;
		offset_row(rows, p, ln, ln->off[j], w);
		if (rows->len - start > width)
			width = rows->len - start;
		col_line_add(rows, "\n", 1);
	}
	return width;
}

/* The rows of render_rows(); with a row namer, each visible offset's name in a column two spaces
 * after @width characters. */
static void print_offsets(FILE *f, struct pareto *p, const struct cltab_line *ln,
			  const struct col_line *rows, size_t width)
{
	const char *r = rows->len ? rows->s : "";
	const struct callers *cs = cltab_callers(p->t);
	char name[256];
	size_t j;

	if (!p->o->row_name && (!p->o->call_graph || !cs)) {
		fputs(r, f);
		return;
	}
	for (j = 0; j < ln->nr_off; j++) {
		const struct cltab_offset *of = ln->off[j];
		const char *e = strchr(r, '\n');

		if (!of->visible || !e)
			continue;
		if (p->o->row_name) {
			p->o->row_name(p->o->name_ctx, ln, of, name, sizeof(name));
			fprintf(f, "%-*.*s  %s\n", (int)width, (int)(e - r), r, name);
		} else {
			fprintf(f, "%.*s\n", (int)(e - r), r);
		}
		r = e + 1;
		if (p->o->call_graph && cs)
			callgraph_fprint(f, cs, of->callers, of->nr_callers,
					 (enum callers_order)(p->o->call_graph - 1),
					 ln->stats.nr_entries, of->stats.nr_entries);
	}
}

static void print_summary(FILE *f, const struct pareto *p, const struct cltab_line *ln)
{
	int peer = cltab_opts(p->t)->display == CLTAB_DISPLAY_PEER;
	const struct dsrc_stats *s = &ln->stats;
	char addr[32], name[256] = "";

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)ln->addr);
	if (p->o->line_name)
		p->o->line_name(p->o->name_ctx, ln, name, sizeof(name));
	fprintf(f, "  ----------------------------------------------------------------------\n");
	fprintf(f, "  %5u  %7u  %7u  %7u  %7u  %7u  %18s%s%s\n", ln->index,
		peer ? s->rmt_peer : s->rmt_hitm, peer ? s->lcl_peer : s->lcl_hitm, s->st_l1hit,
		s->st_l1miss, s->st_na, addr, *name ? "  " : "", name);
	fprintf(f, "  ----------------------------------------------------------------------\n");
}

static int node_width(const struct pareto *p)
{
	struct cltab_line *const *ln;
	char cell[CELL];
	size_t nr, i, j;
	int w = 4;

	ln = cltab_lines(p->t, &nr);
	for (i = 0; i < nr; i++) {
		fmt_nodes(cell, p->t, ln[i]->nodeset);
		if ((int)strlen(cell) > w)
			w = (int)strlen(cell);
		for (j = 0; j < ln[i]->nr_off; j++) {
			fmt_nodes(cell, p->t, ln[i]->off[j]->nodeset);
			if ((int)strlen(cell) > w)
				w = (int)strlen(cell);
		}
	}
	return w;
}

static void pareto_setup(struct pareto *p)
{
	const struct cltab_opts *opts = cltab_opts(p->t);
	int i, k;

	for (k = 0; k < PC_NR; k++)
		p->has[k] = 1;
	p->has[PC_PID] = p->has[PC_TID] = p->has[PC_IADDR] = 0;
	p->has[PC_SYMBOL] = p->has[PC_DSO] = p->has[PC_SRC] = 0;
	for (i = 0; i < opts->nr_coalesce; i++) {
		switch (opts->coalesce[i]) {
		case CLTAB_CO_PID:
			p->has[PC_PID] = 1;
			break;
		case CLTAB_CO_TID:
			p->has[PC_TID] = 1;
			break;
		case CLTAB_CO_IADDR:
			p->has[PC_IADDR] = p->has[PC_SYMBOL] = p->has[PC_DSO] = 1;
			p->has[PC_SRC] = !p->o->no_source;
			break;
		case CLTAB_CO_DSO:
			p->has[PC_DSO] = 1;
			break;
		}
	}
	p->node_w = node_width(p);
	col_banner(p->banner, sizeof(p->banner), 18 + p->node_w + 6 + 4, "Data address");
}

/* Prints the three header lines; returns where the Data column starts (header 1's length). */
static size_t print_pareto_header(FILE *f, struct pareto *p, const struct line_w *w,
				  size_t data_col)
{
	struct col c[PC_NR];
	int idx[PC_NR], n = pareto_cols(p, w, c, idx);
	struct col_line l = { 0 };

	col_header0(&l, c, n);
	fprintf(f, "%s\n", l.s);
	col_line_reset(&l);
	col_header1(&l, c, n);
	if (l.len > data_col)
		data_col = l.len;
	if (p->o->row_name)
		fprintf(f, "%-*s  Data\n", (int)data_col, l.s);
	else
		fprintf(f, "%s\n", l.s);
	col_line_reset(&l);
	col_dots(&l, c, n);
	if (p->o->row_name)
		fprintf(f, "%-*s  ....\n#\n", (int)data_col, l.s);
	else
		fprintf(f, "%s\n#\n", l.s);
	col_line_release(&l);
	return data_col;
}

static void print_pareto(FILE *f, const struct cltab *t, const struct stdio_opts *o)
{
	struct pareto p = { .t = t, .o = o };
	struct cltab_line *const *ln;
	struct col_line rows = { 0 };
	struct line_w w;
	size_t nr, i;

	print_title(f, "      Shared Cache Line Distribution Pareto      ");
	fprintf(f, "#\n");
	ln = cltab_lines(t, &nr);
	if (!nr)
		return;
	pareto_setup(&p);
	for (i = 0; i < nr; i++) {
		size_t data_col;

		line_widths(&p, ln[i], &w);
		data_col = render_rows(&rows, &p, ln[i], &w);
		if (i == 0)
			data_col = print_pareto_header(f, &p, &w, data_col);
		else
			fprintf(f, "\n");
		print_summary(f, &p, ln[i]);
		print_offsets(f, &p, ln[i], &rows, data_col);
	}
	col_line_release(&rows);
}

int stdio_print(FILE *f, const struct cltab *t, const struct stdio_opts *o)
{
	print_stats(f, o->stats, o->nr_stats);
	fprintf(f, "\n");
	print_details(f, t, o);
	if (!o->stats_only) {
		fprintf(f, "\n");
		print_main_table(f, t, o);
		fprintf(f, "\n");
		print_pareto(f, t, o);
	}
	return ferror(f) ? -EIO : 0;
}
