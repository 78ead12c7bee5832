/* stdio-estimate: prints a finished estimate table (report/estimate.h) as text, and the
 * estimate_report() entry that builds one from a source. The printer walks two column tables,
 * one for the cacheline table and one for the Pareto rows; a column belongs to the soft mode,
 * the watch mode or both. Output is deterministic: no timestamps, order from estim_finish(). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "report/maps.h"
#include "report/stdio-estimate.h"
#include "report/symbols.h"

#define CELL 256
#define SYM_CUT 30
#define MAX_TIDS_SHOWN 4
#define MAX_OFFS_SHOWN 4

enum { M_SOFT = 1 << ESTIM_SOFT, M_WATCH = 1 << ESTIM_WATCH, M_BOTH = M_SOFT | M_WATCH };

/* What a cell formatter sees. */
struct pctx {
	const struct estim *e;
	const struct estim_totals *tot;
	const struct stdio_estim_opts *o;
	const struct estim_line *l;
	const struct estim_site *s;
	const struct estim_offset *off;
	size_t index;
};

typedef void (*cell_fn)(const struct pctx *c, char *buf);

struct ecol {
	const char *hdr;
	int width;
	int left;
	unsigned modes;
	int source;              /* dropped with --no-source */
	cell_fn fmt;
};

static void cell_u64(char *buf, uint64_t v)
{
	snprintf(buf, CELL, "%llu", (unsigned long long)v);
}

static void cell_pct(char *buf, uint64_t part, uint64_t whole)
{
	snprintf(buf, CELL, "%.2f%%", estim_pct(part, whole));
}

static void cell_na(const struct pctx *c, char *buf)
{
	(void)c;
	snprintf(buf, CELL, "n/a");
}

/* --- cacheline table cells ------------------------------------------------------------------ */

static void l_index(const struct pctx *c, char *b) { cell_u64(b, c->index + 1); }
static void l_addr(const struct pctx *c, char *b)
{
	snprintf(b, CELL, "%#llx", (unsigned long long)c->l->addr);
}
static void l_data(const struct pctx *c, char *b)
{
	snprintf(b, CELL, "%s", c->l->name[0] ? c->l->name : "-");
}
static void l_share(const struct pctx *c, char *b) { cell_pct(b, c->l->c.weight, c->tot->weight); }
static void l_samples(const struct pctx *c, char *b) { cell_u64(b, c->l->c.samples); }
static void l_loads(const struct pctx *c, char *b) { cell_u64(b, c->l->c.loads + c->l->c.unknown); }
static void l_stores(const struct pctx *c, char *b) { cell_u64(b, c->l->c.stores); }
static void l_atomics(const struct pctx *c, char *b) { cell_u64(b, c->l->c.atomics); }
static void l_xfers(const struct pctx *c, char *b) { cell_u64(b, c->l->ws.hitm); }
static void l_xfalse(const struct pctx *c, char *b) { cell_u64(b, c->l->ws.hitm_false); }
static void l_inval(const struct pctx *c, char *b) { cell_u64(b, c->l->ws.inval); }
static void l_threads(const struct pctx *c, char *b) { cell_u64(b, c->l->tids.nr); }
static void l_cpus(const struct pctx *c, char *b) { cell_u64(b, c->l->cpus.nr); }
static void l_ips(const struct pctx *c, char *b) { cell_u64(b, c->l->nr_ips); }
static void l_verdict(const struct pctx *c, char *b)
{
	snprintf(b, CELL, "%s", estim_verdict_name(c->l->verdict));
}

static const struct ecol line_cols[] = {
	{ "Index", 5, 0, M_BOTH, 0, l_index },
	{ "Cacheline", 18, 0, M_BOTH, 0, l_addr },
	{ "Data", 16, 1, M_BOTH, 0, l_data },
	{ "Time%", 7, 0, M_SOFT, 0, l_share },
	{ "Samples", 8, 0, M_SOFT, 0, l_samples },
	{ "Accesses", 8, 0, M_WATCH, 0, l_samples },
	{ "Loads", 7, 0, M_BOTH, 0, l_loads },
	{ "Stores", 7, 0, M_BOTH, 0, l_stores },
	{ "Atomics", 7, 0, M_BOTH, 0, l_atomics },
	{ "Xfers", 7, 0, M_WATCH, 0, l_xfers },
	{ "FalseX", 7, 0, M_WATCH, 0, l_xfalse },
	{ "Inval", 7, 0, M_WATCH, 0, l_inval },
	{ "Thr", 4, 0, M_BOTH, 0, l_threads },
	{ "CPUs", 4, 0, M_BOTH, 0, l_cpus },
	{ "IPs", 4, 0, M_BOTH, 0, l_ips },
	{ "HITM", 5, 0, M_BOTH, 0, cell_na },
	{ "DataSrc", 7, 0, M_BOTH, 0, cell_na },
	{ "Verdict", 13, 1, M_BOTH, 0, l_verdict },
};

/* --- Pareto cells --------------------------------------------------------------------------- */

static void s_offset(const struct pctx *c, char *b) { snprintf(b, CELL, "0x%x", c->s->offset); }
static void s_share(const struct pctx *c, char *b) { cell_pct(b, c->s->c.weight, c->tot->weight); }
static void s_samples(const struct pctx *c, char *b) { cell_u64(b, c->s->c.samples); }
static void s_loads(const struct pctx *c, char *b) { cell_u64(b, c->s->c.loads + c->s->c.unknown); }
static void s_stores(const struct pctx *c, char *b) { cell_u64(b, c->s->c.stores); }
static void s_atomics(const struct pctx *c, char *b) { cell_u64(b, c->s->c.atomics); }
static void s_xfers(const struct pctx *c, char *b) { cell_u64(b, c->s->ws.hitm); }
static void s_xfalse(const struct pctx *c, char *b) { cell_u64(b, c->s->ws.hitm_false); }
static void s_inval(const struct pctx *c, char *b) { cell_u64(b, c->s->ws.inval); }
static void s_threads(const struct pctx *c, char *b) { cell_u64(b, c->s->tids.nr); }
static void s_cpus(const struct pctx *c, char *b) { cell_u64(b, c->s->cpus.nr); }
static void s_iaddr(const struct pctx *c, char *b)
{
	snprintf(b, CELL, "%#llx", (unsigned long long)(c->s->cmap ? c->s->code_al : c->s->ip));
}

static void cut(char *b, const struct pctx *c)
{
	if (!c->o->full_symbols && strlen(b) > SYM_CUT)
		b[SYM_CUT] = '\0';
}

static void s_symbol(const struct pctx *c, char *b)
{
	const struct estim_code *k = &c->s->code;

	if (!c->s->has_code || !k->symbol)
		snprintf(b, CELL, "[unknown]");
	else if (k->sym_offset)
		snprintf(b, CELL, "%s+%#llx", k->symbol, (unsigned long long)k->sym_offset);
	else
		snprintf(b, CELL, "%s", k->symbol);
	cut(b, c);
}

static void s_source(const struct pctx *c, char *b)
{
	const struct estim_code *k = &c->s->code;
	const char *base;

	if (!c->s->has_code || !k->srcfile) {
		snprintf(b, CELL, "-");
		return;
	}
	base = strrchr(k->srcfile, '/');
	snprintf(b, CELL, "%s:%u", base ? base + 1 : k->srcfile, k->line);
	cut(b, c);
}

static void s_data(const struct pctx *c, char *b)
{
	snprintf(b, CELL, "%s", c->off && c->off->name[0] ? c->off->name : "-");
}

static const struct ecol site_cols[] = {
	{ "Offset", 6, 0, M_BOTH, 0, s_offset },
	{ "Time%", 7, 0, M_SOFT, 0, s_share },
	{ "Samples", 8, 0, M_SOFT, 0, s_samples },
	{ "Accesses", 8, 0, M_WATCH, 0, s_samples },
	{ "Loads", 7, 0, M_BOTH, 0, s_loads },
	{ "Stores", 7, 0, M_BOTH, 0, s_stores },
	{ "Atomics", 7, 0, M_BOTH, 0, s_atomics },
	{ "Xfers", 7, 0, M_WATCH, 0, s_xfers },
	{ "FalseX", 7, 0, M_WATCH, 0, s_xfalse },
	{ "Inval", 7, 0, M_WATCH, 0, s_inval },
	{ "Thr", 4, 0, M_BOTH, 0, s_threads },
	{ "CPUs", 4, 0, M_BOTH, 0, s_cpus },
	{ "HITM", 5, 0, M_BOTH, 0, cell_na },
	{ "Code address", 18, 0, M_BOTH, 0, s_iaddr },
	{ "Symbol", SYM_CUT, 1, M_BOTH, 0, s_symbol },
	{ "Source:Line", SYM_CUT, 1, M_BOTH, 1, s_source },
	{ "Data", 16, 1, M_BOTH, 0, s_data },
};

/* --- rows ----------------------------------------------------------------------------------- */

static int col_on(const struct ecol *col, const struct pctx *c)
{
	if (!(col->modes & (1u << estim_opts(c->e)->mode)))
		return 0;
	return !(col->source && c->o->no_source);
}

static void print_row(FILE *f, const struct ecol *cols, size_t n, const struct pctx *c, int hdr)
{
	char buf[CELL];
	size_t i, last = 0;

	for (i = 0; i < n; i++)
		if (col_on(&cols[i], c))
			last = i;
	for (i = 0; i < n; i++) {
		int w;

		if (!col_on(&cols[i], c))
			continue;
		if (hdr)
			snprintf(buf, sizeof(buf), "%s", cols[i].hdr);
		else
			cols[i].fmt(c, buf);
		w = cols[i].left ? (i == last ? 0 : -cols[i].width) : cols[i].width;
		fprintf(f, "  %*s", w, buf);
	}
	fputc('\n', f);
}

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

static void print_info(FILE *f, const struct stdio_estim_opts *o)
{
	const struct trace_info *in = o->info;

	fprintf(f, "# c2c-lite report of '%s'\n", o->path ? o->path : "?");
	if (in)
		fprintf(f, "# host %s, arch %s, kernel %s, backend %s\n",
			in->hostname ? in->hostname : "?", in->arch ? in->arch : "?",
			in->kernel_release ? in->kernel_release : "?",
			trace_backend_name(in->backend));
	if (in && (in->flags & TRACE_INFO_SYNTHETIC))
		fprintf(f, "# SYNTHETIC: this trace was generated by a test tool, not measured\n");
	if (o->truncated)
		fprintf(f, "# TRUNCATED: the file ends early; the report covers what was read\n");
}

static int is_rotated(const struct stdio_estim_opts *o)
{
	return o->info && o->info->options && strstr(o->info->options, "rotat");
}

static void print_reasons(FILE *f, const struct estim_totals *t, int soft)
{
	int i;

	if (t->recovered == t->samples)
		return;
	fprintf(f, "#\n# %s, by reason:\n", soft ? "Address not recovered" : "No data address");
	fprintf(f, "#   %-36s %10s %8s %8s\n", "reason", "samples", "samples%", soft ? "time%" : "");
	for (i = 0; i < ESTIM_NR_REASONS; i++) {
		const char *name = i == ESTIM_NO_ADDR ? "no data address in the sample"
						      : softdec_reason_name((enum softdec_reason)i);

		if (!t->reason[i])
			continue;
		fprintf(f, "#   %-36s %10llu %7.2f%%", name, (unsigned long long)t->reason[i],
			estim_pct(t->reason[i], t->samples));
		if (soft)
			fprintf(f, " %7.2f%%", estim_pct(t->reason_weight[i], t->weight));
		fputc('\n', f);
	}
}

static void print_summary(FILE *f, const struct estim *e, const struct stdio_estim_opts *o)
{
	const struct estim_totals *t = estim_totals(e);
	int soft = estim_opts(e)->mode == ESTIM_SOFT;

	print_info(f, o);
	print_words(f, soft ? soft_words : watch_words);
	if (!soft && is_rotated(o))
		fprintf(f, "# The debug registers were rotated over more words than they can watch at once:\n"
			"# counts cover only the time each word was watched and transfers are lower bounds.\n");
	fprintf(f, "#\n# %-28s %llu\n", soft ? "Samples:" : "Watchpoint hits:",
		(unsigned long long)t->samples);
	if (soft)
		fprintf(f, "# %-28s %.3f ms\n", "Sampled CPU time:", (double)t->weight / 1e6);
	fprintf(f, "# %-28s %llu (%.2f%% of samples", "Data address recovered:",
		(unsigned long long)t->recovered, estim_pct(t->recovered, t->samples));
	if (soft)
		fprintf(f, ", %.2f%% of time", estim_pct(t->recovered_weight, t->weight));
	fprintf(f, ")\n");
	fprintf(f, "# %-28s %zu (%llu contended)\n", "Cachelines touched:", estim_nr_lines(e),
		(unsigned long long)t->contended);
	if (t->unknown_kind)
		fprintf(f, "# %-28s %llu (counted as loads)\n", "Access kind unknown:",
			(unsigned long long)t->unknown_kind);
	if (t->lost_records || t->lost_samples || t->throttle)
		fprintf(f, "# %-28s %llu records, %llu samples, %llu throttled\n", "Lost:",
			(unsigned long long)t->lost_records, (unsigned long long)t->lost_samples,
			(unsigned long long)t->throttle);
	if (t->no_cpu || t->model_errors)
		fprintf(f, "# %-28s %llu without a CPU, %llu refused by the model\n",
			"Left out of the model:", (unsigned long long)t->no_cpu,
			(unsigned long long)t->model_errors);
	print_reasons(f, t, soft);
}

/* --- tables --------------------------------------------------------------------------------- */

static size_t nr_displayed(const struct estim *e)
{
	size_t i, n = 0;

	for (i = 0; i < estim_nr_lines(e); i++)
		n += estim_line(e, i)->displayed;
	return n;
}

static void print_line_table(FILE *f, struct pctx *c)
{
	size_t i, n = sizeof(line_cols) / sizeof(line_cols[0]);

	print_banner(f, estim_opts(c->e)->mode == ESTIM_SOFT
			? "Estimated Cache Line Table (timer samples)"
			: "Cache Line Table (watchpoint hits)");
	print_row(f, line_cols, n, c, 1);
	for (i = 0; i < estim_nr_lines(c->e); i++) {
		c->l = estim_line(c->e, i);
		if (!c->l->displayed)
			continue;
		c->index = i;
		print_row(f, line_cols, n, c, 0);
	}
}

static const struct estim_offset *offset_of(const struct estim_line *l, uint32_t offset)
{
	size_t i;

	for (i = 0; i < l->nr_off; i++)
		if (l->off[i].offset == offset)
			return &l->off[i];
	return NULL;
}

static void print_pareto_line(FILE *f, struct pctx *c)
{
	size_t i, n = sizeof(site_cols) / sizeof(site_cols[0]);
	const struct estim_line *l = c->l;

	fprintf(f, "\n  ----------------------------------------------------------------------\n");
	fprintf(f, "  %5zu  %#llx  %s  %s", c->index + 1, (unsigned long long)l->addr,
		l->name[0] ? l->name : "-", estim_verdict_name(l->verdict));
	if (estim_opts(c->e)->mode == ESTIM_SOFT)
		fprintf(f, "  %.2f%% of sampled time\n", estim_pct(l->c.weight, c->tot->weight));
	else
		fprintf(f, "  %llu transfers\n", (unsigned long long)l->ws.hitm);
	fprintf(f, "  ----------------------------------------------------------------------\n");
	print_row(f, site_cols, n, c, 1);
	for (i = 0; i < l->nr_site; i++) {
		c->s = &l->site[i];
		c->off = offset_of(l, c->s->offset);
		print_row(f, site_cols, n, c, 0);
	}
}

static void print_pareto(FILE *f, struct pctx *c)
{
	size_t i;

	print_banner(f, "Cache Line Distribution Pareto");
	for (i = 0; i < estim_nr_lines(c->e); i++) {
		c->l = estim_line(c->e, i);
		c->index = i;
		if (c->l->displayed)
			print_pareto_line(f, c);
	}
}

/* --- what to fix ---------------------------------------------------------------------------- */

static void tid_list(char *b, size_t size, const struct estim_set *s)
{
	size_t i, len;

	len = (size_t)snprintf(b, size, "%s ", s->nr == 1 ? "tid" : "tids");
	for (i = 0; i < s->nr && i < MAX_TIDS_SHOWN && len < size; i++)
		len += (size_t)snprintf(b + len, size - len, "%s%u", i ? "," : "", s->v[i]);
	if (s->nr > MAX_TIDS_SHOWN && len < size)
		snprintf(b + len, size - len, " and %zu more", s->nr - MAX_TIDS_SHOWN);
}

static void off_label(char *b, size_t size, const struct estim_offset *o, const char *what)
{
	char tids[128];

	tid_list(tids, sizeof(tids), what[0] == 'w' ? &o->writers : &o->readers);
	if (o->name[0])
		snprintf(b, size, "%s (offset 0x%x, %s by %s)", o->name, o->offset, what, tids);
	else
		snprintf(b, size, "offset 0x%x (%s by %s)", o->offset, what, tids);
}

/* True sharing at @o: written by one thread and accessed by another. */
static int is_true_offset(const struct estim_offset *o)
{
	return o->writers.nr && o->tids.nr >= 2;
}

static void fix_false(FILE *f, const struct estim_line *l, uint32_t cl_size)
{
	char lab[512];
	size_t i, shown = 0;

	fprintf(f, "false sharing: ");
	for (i = 0; i < l->nr_off && shown < MAX_OFFS_SHOWN; i++) {
		const struct estim_offset *o = &l->off[i];

		off_label(lab, sizeof(lab), o, o->writers.nr ? "written" : "read");
		fprintf(f, "%s%s", shown ? (shown + 1 == l->nr_off ? " and " : ", ") : "", lab);
		shown++;
	}
	if (l->nr_off > shown)
		fprintf(f, " and %zu more offsets", l->nr_off - shown);
	fprintf(f, " share a line: pad or align them to %u bytes\n", cl_size);
}

static void fix_true(FILE *f, const struct estim_line *l, int mixed, uint32_t cl_size)
{
	char lab[512];
	size_t i, shown = 0;

	fprintf(f, "%s: ", mixed ? "true and false sharing" : "true sharing");
	for (i = 0; i < l->nr_off; i++) {
		const struct estim_offset *o = &l->off[i];

		if (!is_true_offset(o) || shown >= MAX_OFFS_SHOWN)
			continue;
		off_label(lab, sizeof(lab), o, "written");
		fprintf(f, "%s%s, accessed by %zu threads", shown ? "; " : "", lab, o->tids.nr);
		shown++;
	}
	fprintf(f, ": the threads share these bytes; write them less often (per-thread copies, "
		"batching)");
	if (mixed)
		fprintf(f, ", and move the other fields of the line to their own %u-byte line",
			cl_size);
	fputc('\n', f);
}

#define FIX_MAX 10

static void print_fixes(FILE *f, const struct estim *e)
{
	uint32_t cl = estim_opts(e)->cl_size;
	size_t i, shown = 0, rest = 0;

	print_banner(f, "What to fix");
	if (!estim_totals(e)->contended) {
		if (estim_opts(e)->mode == ESTIM_WATCH)
			fprintf(f, "  no watched cacheline moved between CPUs on more than 1 in 1000 accesses\n");
		else
			fprintf(f, "  no cacheline is written by one thread and accessed by another\n");
		return;
	}
	for (i = 0; i < estim_nr_lines(e); i++) {
		const struct estim_line *l = estim_line(e, i);

		if (l->verdict == ESTIM_NONE)
			continue;
		/* the first FIX_MAX contended lines carrying at least 1% of the samples' weight */
		if (shown == FIX_MAX || l->c.weight * 100 < estim_totals(e)->weight) {
			rest++;
			continue;
		}
		shown++;
		fprintf(f, "  %zu. %#llx: ", i + 1, (unsigned long long)l->addr);
		if (l->verdict == ESTIM_FALSE)
			fix_false(f, l, cl);
		else
			fix_true(f, l, l->verdict == ESTIM_MIXED, cl);
	}
	if (rest)
		fprintf(f, "  (%zu more contended line%s, each under 1%% of the samples' weight or past the "
			   "first %d, not listed)\n", rest, rest == 1 ? "" : "s", FIX_MAX);
}

int stdio_estim_print(FILE *f, const struct estim *e, const struct stdio_estim_opts *o)
{
	struct pctx c = { .e = e, .tot = estim_totals(e), .o = o };

	print_summary(f, e, o);
	if (nr_displayed(e)) {
		print_line_table(f, &c);
		print_pareto(f, &c);
	}
	print_fixes(f, e);
	return ferror(f) ? -EIO : 0;
}

/* --- the report entry ----------------------------------------------------------------------- */

struct sym_ctx {
	struct sym_session *sym;
	const struct maps *maps;
};

static int code_sym(void *ctx, const struct maps_map *map, uint64_t ip, uint64_t al_ip,
		    struct estim_code *out)
{
	struct sym_session *s = ((struct sym_ctx *)ctx)->sym;
	struct sym_code_info ci;
	int rc;

	(void)al_ip;
	if (!map)
		return -ENOENT;
	rc = map->dso->kernel ? sym_kernel_code(s, ip, &ci) : sym_code(s, &map->mmap, ip, &ci);
	if (rc)
		return rc;
	out->symbol = ci.symbol;
	out->sym_offset = ci.sym_offset;
	out->srcfile = ci.srcfile;
	out->line = ci.line;
	return 0;
}

/* An anonymous map right after a file's last mapping may be its .bss tail: the file's map. */
static const struct maps_map *bss_owner(const struct sym_ctx *c, const struct maps_thread *t,
					uint8_t cpumode, const struct maps_map *map, uint64_t addr)
{
	struct maps_loc loc;
	enum sym_map_kind k = sym_map_kind(map->mmap.filename);

	if ((k != SYM_MAP_ANON && k != SYM_MAP_HEAP) || !t || !map->start)
		return NULL;
	if (!maps_find(c->maps, t, cpumode, map->start - 1, &loc) || loc.map->dso->kernel ||
	    sym_map_kind(loc.map->mmap.filename) != SYM_MAP_FILE)
		return NULL;
	return sym_map_covers(c->sym, &loc.map->mmap, addr) ? loc.map : NULL;
}

static int data_sym(void *ctx, const struct maps_thread *t, uint8_t cpumode,
		    const struct maps_map *map, uint64_t addr, char *buf, size_t size)
{
	const struct sym_ctx *c = ctx;
	const struct maps_map *file;
	struct sym_data_info di;
	int rc;

	if (map->dso->kernel)
		rc = sym_kernel_data(c->sym, addr, &di);
	else if ((file = bss_owner(c, t, cpumode, map, addr)))
		rc = sym_data(c->sym, &file->mmap, addr, &di);
	else
		rc = sym_data(c->sym, &map->mmap, addr, &di);
	if (rc || !di.var)
		return -ENOENT;
	if (di.member && *di.member)
		snprintf(buf, size, "%s", di.member);
	else if (di.var_offset)
		snprintf(buf, size, "%s+%llu", di.var, (unsigned long long)di.var_offset);
	else
		snprintf(buf, size, "%s", di.var);
	return 0;
}

/* Heap and anonymous data no symbol names: the type the instruction accesses ("c->hits"). */
static int type_sym(void *ctx, const struct maps_map *cmap, uint64_t ip, unsigned int back,
		    uint64_t addr, char *buf, size_t size)
{
	const struct sym_ctx *c = ctx;
	struct sym_data_info di;
	enum sym_map_kind k = sym_map_kind(cmap->mmap.filename);

	if (k != SYM_MAP_FILE && k != SYM_MAP_DELETED)
		return -ENOENT;
	if (sym_data_type_back(c->sym, &cmap->mmap, ip, back, addr, &di))
		return -ENOENT;
	snprintf(buf, size, "%s", di.member && *di.member ? di.member : di.var);
	return 0;
}

static int read_source(struct source *src, struct estim *e, struct maps *m,
		       struct sym_session *sym)
{
	struct trace_event ev;
	int rc;

	while ((rc = source_next(src, &ev)) > 0) {
		if (ev.type == TRACE_REC_BLOB && ev.blob.kind == TRACE_BLOB_KALLSYMS && sym)
			sym_session_add_kallsyms(sym, ev.blob.data, ev.blob.size);
		estim_feed(e, m, &ev);
	}
	return rc;
}

int estimate_report(struct source *src, const struct estimate_opts *opts, FILE *out)
{
	const struct trace_info *info = source_info(src);
	struct sym_opts so = { .symfs = opts->symfs, .vmlinux = opts->vmlinux,
			       .use_proc_kallsyms = 1, .kernel_release = info->kernel_release };
	struct stdio_estim_opts po = { .path = source_path(src), .info = info,
				       .no_source = opts->no_source,
				       .full_symbols = opts->full_symbols };
	struct estim_opts eo = { .show_all = opts->show_all, .code_sym = code_sym,
				 .data_sym = data_sym, .type_sym = type_sym };
	struct sym_session *sym = NULL;
	struct sym_ctx sc;
	struct maps *m;
	struct estim *e;
	int rc;

	if (info->backend != TRACE_BACKEND_SOFT && info->backend != TRACE_BACKEND_WATCH)
		return c2c_err(-EINVAL, "'%s': backend %s has no estimate report", po.path,
			       trace_backend_name(info->backend));
	eo.mode = info->backend == TRACE_BACKEND_SOFT ? ESTIM_SOFT : ESTIM_WATCH;
	eo.cl_size = opts->cl_size ? opts->cl_size : info->cacheline_size ? info->cacheline_size : 64;
	if (!opts->no_symbols && sym_session_new(&sym, &so))
		sym = NULL;   /* reported through the log hook: rows show addresses */
	m = maps_new();
	sc = (struct sym_ctx){ .sym = sym, .maps = m };
	eo.sym_ctx = &sc;
	if (!sym) {
		eo.code_sym = NULL;
		eo.data_sym = NULL;
		eo.type_sym = NULL;
	}
	e = estim_new(&eo);
	rc = read_source(src, e, m, sym);
	if (rc < 0) {
		c2c_log(C2C_LOG_ERROR, "'%s': cannot read the records: %s", po.path, strerror(-rc));
		goto out;
	}
	estim_finish(e);
	po.truncated = source_truncated(src);
	rc = stdio_estim_print(out, e, &po);
	if (!rc && fflush(out))
		rc = -EIO;
	if (rc)
		c2c_log(C2C_LOG_ERROR, "cannot write the report: %s", strerror(-rc));
out:
	estim_free(e);
	maps_free(m);
	sym_session_free(sym);
	return rc;
}
