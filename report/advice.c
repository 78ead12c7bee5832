/* The "# c2c-lite summary" block (see advice.h). Building resolves data names for the top lines
 * only and groups their visible offset rows by member; printing formats what was built. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/advice.h"

/* --- the report's resolver ------------------------------------------------------------------ */

static int bss_tail(struct advice_sym_ctx *c, const struct cltab_line *ln, uint64_t addr,
		    struct sym_data_info *out)
{
	struct maps_loc loc = { 0 };

	if (!c->maps || !ln->nr_off || !ln->off[0]->thread || ln->dmap->start == 0)
		return -ENOENT;
	if (!maps_find(c->maps, ln->off[0]->thread, MAPS_CPUMODE_USER, ln->dmap->start - 1, &loc) ||
	    !loc.map || sym_map_kind(loc.map->dso->name) != SYM_MAP_FILE ||
	    !sym_map_covers(c->sym, &loc.map->mmap, addr))
		return -ENOENT;
	return sym_data(c->sym, &loc.map->mmap, addr, out);
}

/* The type route: what the instruction of row @of accesses, named from the DWARF variables live
 * at its address (sym_data_type()). Only for user code in a file. */
static int by_code(struct advice_sym_ctx *c, const struct cltab_offset *of, uint64_t addr,
		   struct sym_data_info *out)
{
	enum sym_map_kind k;

	if (!of || !of->cmap || of->cmap->dso->kernel || of->cpumode == MAPS_CPUMODE_KERNEL)
		return -ENOENT;
	k = sym_map_kind(of->cmap->dso->name);
	if (k != SYM_MAP_FILE && k != SYM_MAP_DELETED)
		return -ENOENT;
	if (sym_data_type(c->sym, &of->cmap->mmap, of->ip, addr, out) || !out->var)
		return -ENOENT;
	return 0;
}

int advice_sym_data(void *ctx, const struct cltab_line *ln, const struct cltab_offset *of,
		    uint64_t addr, struct sym_data_info *out)
{
	struct advice_sym_ctx *c = ctx;
	const struct maps_map *m = ln->dmap;
	enum sym_map_kind k;

	memset(out, 0, sizeof(*out));
	if (ln->cpumode == MAPS_CPUMODE_KERNEL || (m && m->dso->kernel))
		return sym_kernel_data(c->sym, addr, out);
	k = m ? sym_map_kind(m->dso->name) : SYM_MAP_ANON;
	if (m && (k == SYM_MAP_FILE || k == SYM_MAP_DELETED))
		return sym_data(c->sym, &m->mmap, addr, out);
	if (m && k == SYM_MAP_ANON && !bss_tail(c, ln, addr, out))
		return 0;
	/* heap, stack, anonymous or unmapped memory: the code that touched it may know its type */
	memset(out, 0, sizeof(*out));
	if (!by_code(c, of, addr, out))
		return ADVICE_BY_CODE;
	if (of && out->reason && !strncmp(out->reason, "[type unknown]", 14))
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->reason = m ? sym_map_kind_name(k) : "no map holds the address";
	return -ENOENT;
}

/* --- names ------------------------------------------------------------------------------------ */

const char *advice_verdict_name(enum advice_verdict v)
{
	switch (v) {
	case ADVICE_FALSE_SHARING: return "FALSE SHARING";
	case ADVICE_TRUE_SHARING: return "TRUE SHARING";
	case ADVICE_NO_STORES: return "UNCLEAR (no store sampled)";
	case ADVICE_QUIET: default: return "NOT CONTENDED";
	}
}

const char *advice_metric_name(enum cltab_display d)
{
	switch (d) {
	case CLTAB_DISPLAY_RMT: return "Remote HITMs";
	case CLTAB_DISPLAY_LCL: return "Local HITMs";
	case CLTAB_DISPLAY_PEER: return "Peer snoops";
	case CLTAB_DISPLAY_TOT: default: return "Total HITMs";
	}
}

static double pct(uint32_t part, uint32_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* "buf1 (struct _buf, 64 bytes)" */
static void var_desc(char *buf, size_t n, const struct sym_data_info *d)
{
	if (d->type && d->var_size)
		snprintf(buf, n, "%s (%s, %llu bytes)", d->var, d->type,
			 (unsigned long long)d->var_size);
	else if (d->var_size)
		snprintf(buf, n, "%s (%llu bytes)", d->var, (unsigned long long)d->var_size);
	else
		snprintf(buf, n, "%s", d->var);
}

/* The member path without a trailing " (+N)": bytes of one scalar are one member. */
static void member_name(char *buf, size_t n, const struct sym_data_info *d)
{
	const char *s = d->member ? d->member : d->var ? d->var : "";
	const char *p = strstr(s, " (+");

	snprintf(buf, n, "%.*s", p ? (int)(p - s) : (int)strlen(s), s);
}

/* What a line holds when no variable was found: the kind of memory ("heap of pid N" for private
 * anonymous memory, which perf keys by pid), or "[unknown]". */
static void what_unknown(char *buf, size_t n, const struct cltab_line *ln, const char *reason,
			 int verbose)
{
	const struct maps_map *m = ln->dmap;
	enum sym_map_kind k = m ? sym_map_kind(m->dso->name) : SYM_MAP_FILE;
	const char *name = m ? m->dso->name : "";
	long tid;

	if (m && !m->dso->kernel && (k == SYM_MAP_HEAP || k == SYM_MAP_ANON) && ln->key_pid) {
		snprintf(buf, n, "%s of pid %d", k == SYM_MAP_HEAP ? "heap" : "anon", ln->key_pid);
	} else if (m && !m->dso->kernel && k == SYM_MAP_HEAP) {
		snprintf(buf, n, "heap");
	} else if (m && !m->dso->kernel && k == SYM_MAP_STACK) {
		tid = !strncmp(name, "[stack:", 7) ? strtol(name + 7, NULL, 10)
		      : ln->nr_off && ln->off[0]->thread ? ln->off[0]->thread->pid : -1;
		snprintf(buf, n, "stack of tid %ld", tid);
	} else if (m && !m->dso->kernel && k == SYM_MAP_ANON) {
		/* shared memory: /dev/zero, /SYSV..., memfd:NAME, [anon:NAME] say what it is */
		snprintf(buf, n, "%s", !*name || !strcmp(name, "//anon") ? "anon" : name);
	} else if (m && !m->dso->kernel && k == SYM_MAP_VDSO) {
		snprintf(buf, n, "%s", name);
	} else if (verbose) {
		snprintf(buf, n, "[unknown] (%s%s%s)", m ? m->dso->short_name : "",
			 m ? ": " : "", reason ? reason : "no symbol");
	} else {
		snprintf(buf, n, "[unknown]");
	}
}

/* --- building --------------------------------------------------------------------------------- */

struct builder {
	const struct cltab *t;
	const struct advice_opts *o;
	uint32_t words;          /* CPU set words */
};

/* 0 (or ADVICE_BY_CODE) with d->var set, else -ENOENT with d->reason. */
static int resolve(const struct advice_opts *o, const struct cltab_line *ln,
		   const struct cltab_offset *of, struct sym_data_info *d)
{
	int rc;

	memset(d, 0, sizeof(*d));
	if (!o->data) {
		d->reason = "no symbol resolution";
		return -ENOENT;
	}
	rc = o->data(o->data_ctx, ln, of, of ? ln->addr + of->offset : ln->addr, d);
	if (rc < 0 || !d->var)
		return -ENOENT;
	return rc;
}

static size_t find_member(const struct advice_line *al, const char *name, uint64_t off)
{
	size_t i;

	for (i = 0; i < al->nr_mem; i++) {
		const struct advice_member *m = &al->mem[i];

		if (*name ? !strcmp(m->name, name) : (!*m->name && m->offset == off))
			return i;
	}
	return i;
}

/* Heading: the distinct variables of the line start and of its members, in offset order. */
static void add_var(char *what, size_t n, const struct sym_data_info *d, int *nr_vars)
{
	char one[160];
	size_t len = strlen(what);

	var_desc(one, sizeof(one), d);
	if (strstr(what, one) || *nr_vars >= 3) {
		if (*nr_vars == 3 && !strstr(what, one) && len + 5 < n) {
			strcat(what, ", ...");
			(*nr_vars)++;
		}
		return;
	}
	snprintf(what + len, n - len, "%s%s", len ? ", " : "", one);
	(*nr_vars)++;
}

/* What a line holds, gathered from the resolutions of its start and its visible rows. */
struct what {
	char vars[256];         /* "buf1 (struct _buf, 64 bytes), ..." */
	int nr_vars, by_code;
	const char *reason;     /* why the line's start is unknown */
};

static void what_start(struct what *w, const struct advice_opts *o, const struct cltab_line *ln)
{
	struct sym_data_info d;

	memset(w, 0, sizeof(*w));
	if (resolve(o, ln, NULL, &d) >= 0)
		add_var(w->vars, sizeof(w->vars), &d, &w->nr_vars);
	w->reason = d.reason;
}

/* A row's resolution: @rc and @d from resolve(). */
static void what_row(struct what *w, int rc, const struct sym_data_info *d)
{
	if (rc < 0)
		return;
	add_var(w->vars, sizeof(w->vars), d, &w->nr_vars);
	w->by_code |= rc == ADVICE_BY_CODE;
}

/* "buf1 (struct _buf, 64 bytes)", or "heap of pid 12: *c (struct counters, 64 bytes)" when the
 * code typed memory no symbol covers: what the memory is, and the types the code says it holds */
static void what_end(const struct what *w, const struct advice_opts *o,
		     const struct cltab_line *ln, char *buf, size_t n)
{
	buf[0] = 0;
	if (!w->vars[0] || w->by_code)
		what_unknown(buf, n, ln, w->reason, o->verbose);
	if (w->vars[0])
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ": " : "", w->vars);
}

static void group_rows(const struct builder *b, struct advice_line *al, size_t *row_mem)
{
	const struct cltab_line *ln = al->ln;
	struct sym_data_info d;
	struct what w;
	size_t i, k;
	int rc;

	what_start(&w, b->o, ln);
	al->mem = xcalloc(ln->nr_off ? ln->nr_off : 1, sizeof(*al->mem));
	for (i = 0; i < ln->nr_off; i++) {
		const struct cltab_offset *o = ln->off[i];
		char name[128] = "";

		row_mem[i] = SIZE_MAX;
		if (!o->visible)
			continue;
		rc = resolve(b->o, ln, o, &d);
		what_row(&w, rc, &d);
		if (rc >= 0)
			member_name(name, sizeof(name), &d);
		k = find_member(al, name, o->offset);
		if (k == al->nr_mem) {
			snprintf(al->mem[k].name, sizeof(al->mem[k].name), "%s", name);
			al->mem[k].offset = o->offset;
			al->nr_mem++;
		}
		row_mem[i] = k;
	}
	what_end(&w, b->o, ln, al->what, sizeof(al->what));
}

void advice_line_what(const struct advice_opts *o, const struct cltab_line *ln, char *buf,
		      size_t n)
{
	struct sym_data_info d;
	struct what w;
	size_t i;

	what_start(&w, o, ln);
	for (i = 0; i < ln->nr_off; i++)
		if (ln->off[i]->visible)
			what_row(&w, resolve(o, ln, ln->off[i], &d), &d);
	what_end(&w, o, ln, buf, n);
}

void advice_row_name(const struct advice_opts *o, const struct cltab_line *ln,
		     const struct cltab_offset *of, char *buf, size_t n)
{
	struct sym_data_info d;

	if (resolve(o, ln, of, &d) >= 0)
		snprintf(buf, n, "%s", d.member && *d.member ? d.member : d.var);
	else if (d.reason && !strncmp(d.reason, "[type unknown]", 14))
		snprintf(buf, n, "%s", o->verbose ? d.reason : "[type unknown]");
	else
		what_unknown(buf, n, ln, d.reason, o->verbose);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;

	return (x > y) - (x < y);
}

static void sum_member(const struct builder *b, const struct advice_line *al,
		       const size_t *row_mem, size_t k, uint64_t *set, const void **thr)
{
	const struct cltab_line *ln = al->ln;
	struct advice_member *m = &al->mem[k];
	enum cltab_display disp = cltab_opts(b->t)->display;
	size_t i, w, nt = 0;

	memset(set, 0, b->words * sizeof(*set));
	for (i = 0; i < ln->nr_off; i++) {
		const struct cltab_offset *o = ln->off[i];

		if (row_mem[i] != k)
			continue;
		if (!m->thread)
			m->thread = o->thread;
		m->loads += o->stats.load;
		m->stores += o->stats.store;
		m->metric += cltab_metric(disp, &o->stats);
		if (o->offset < m->offset)
			m->offset = o->offset;
		if (o->stats.store && (!m->writer || o->stats.store > m->writer->stats.store))
			m->writer = o;
		if (cltab_metric(disp, &o->stats) &&
		    (!m->reader || cltab_metric(disp, &o->stats) > cltab_metric(disp, &m->reader->stats)))
			m->reader = o;
		for (w = 0; w < b->words; w++)
			set[w] |= o->cpuset[w];
		if (o->thread)
			thr[nt++] = o->thread;
	}
	m->cpus = cltab_set_count(b->t, set, cltab_opts(b->t)->nr_cpus);
	qsort(thr, nt, sizeof(*thr), ptr_cmp);
	for (i = 0; i < nt; i++)
		m->threads += !i || thr[i] != thr[i - 1];
}

static int member_cmp(const void *a, const void *b)
{
	const struct advice_member *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* A code location: "writer_a at fs.c:12", "writer_a" or the address. */
static void code_loc(char *buf, size_t n, const struct cltab_offset *o)
{
	const char *file;

	if (!o) {
		snprintf(buf, n, "?");
	} else if (!o->has_sym) {
		snprintf(buf, n, "%#llx", (unsigned long long)o->ip);
	} else if (o->code.srcfile && o->code.line) {
		file = strrchr(o->code.srcfile, '/');
		snprintf(buf, n, "%s at %s:%u", o->code.symbol, file ? file + 1 : o->code.srcfile,
			 o->code.line);
	} else {
		snprintf(buf, n, "%s", o->code.symbol);
	}
}

static void member_label(char *buf, size_t n, const struct advice_member *m)
{
	if (*m->name)
		snprintf(buf, n, "%s", m->name);
	else
		snprintf(buf, n, "offset 0x%llx", (unsigned long long)m->offset);
}

/* "buf1.a (0x0, written in writer_a at fs.c:12)", "offset 0x8 (read in reader)" */
static void member_role(char *buf, size_t n, const struct advice_member *m, int written)
{
	char loc[200];

	code_loc(loc, sizeof(loc), written ? m->writer : m->reader);
	if (*m->name)
		snprintf(buf, n, "%s (0x%llx, %s in %s)", m->name, (unsigned long long)m->offset,
			 written ? "written" : "read", loc);
	else
		snprintf(buf, n, "offset 0x%llx (%s in %s)", (unsigned long long)m->offset,
			 written ? "written" : "read", loc);
}

/* Pick the verdict and the members it names. */
static void classify(struct advice_line *al)
{
	int w1 = -1, w2 = -1, r = -1, nw = 0;
	size_t i;

	al->a = al->b = -1;
	for (i = 0; i < al->nr_mem; i++) {
		const struct advice_member *m = &al->mem[i];

		if (m->stores) {
			nw++;
			if (w1 < 0 || m->stores > al->mem[w1].stores) {
				w2 = w1;
				w1 = (int)i;
			} else if (w2 < 0 || m->stores > al->mem[w2].stores) {
				w2 = (int)i;
			}
		}
	}
	for (i = 0; i < al->nr_mem; i++)
		if ((int)i != w1 && al->mem[i].metric &&
		    (r < 0 || al->mem[i].metric > al->mem[r].metric) && (nw < 2 || !al->mem[i].stores))
			r = (int)i;
	if (!al->metric) {
		al->verdict = ADVICE_QUIET;
	} else if (nw >= 2) {
		al->verdict = ADVICE_FALSE_SHARING;
		al->a = w1 < w2 ? w1 : w2;
		al->b = w1 < w2 ? w2 : w1;
	} else if (nw == 1 && r >= 0) {
		al->verdict = ADVICE_FALSE_SHARING;
		al->a = r;
		al->b = w1;
	} else if (nw == 1) {
		al->verdict = ADVICE_TRUE_SHARING;
		al->a = w1;
	} else {
		al->verdict = ADVICE_NO_STORES;
		al->a = r;
	}
}

static void write_advice(struct advice_line *al, uint32_t cl_size, int peer)
{
	char x[400], y[400], label[128];
	const struct advice_member *a = al->a >= 0 ? &al->mem[al->a] : NULL;
	const struct advice_member *b = al->b >= 0 ? &al->mem[al->b] : NULL;

	switch (al->verdict) {
	case ADVICE_FALSE_SHARING:
		member_role(x, sizeof(x), a, a->stores != 0);
		member_role(y, sizeof(y), b, 1);
		snprintf(al->advice, sizeof(al->advice), "%s and %s share a %u-byte line: pad or "
			 "align them to separate lines (e.g. __attribute__((aligned(%u))))", x, y,
			 cl_size, cl_size);
		break;
	case ADVICE_TRUE_SHARING:
		member_role(x, sizeof(x), a, 1);
		if (a->cpus > 1)
			snprintf(y, sizeof(y), "by %u CPUs", a->cpus);
		else if (a->threads > 1)
			snprintf(y, sizeof(y), "by %u threads", a->threads);
		else
			snprintf(y, sizeof(y), "with %s (the other CPUs were not sampled)",
				 peer ? "peer snoops" : "HITMs");
		snprintf(al->advice, sizeof(al->advice), "one counter/lock, %s, is written and read "
			 "%s: make it per-thread and combine, or batch updates", x, y);
		break;
	case ADVICE_NO_STORES:
		if (a)
			member_label(label, sizeof(label), a);
		snprintf(al->advice, sizeof(al->advice), "%s on %s but no store was sampled: "
			 "record stores (or longer) to see who writes the line",
			 peer ? "peer snoops" : "HITMs", a ? label : "it");
		break;
	case ADVICE_QUIET:
	default:
		snprintf(al->advice, sizeof(al->advice), "nothing to fix on this line");
	}
}

static void build_line(const struct builder *b, struct advice_line *al)
{
	const struct cltab_line *ln = al->ln;
	size_t *row_mem = xcalloc(ln->nr_off ? ln->nr_off : 1, sizeof(*row_mem));
	const void **thr = xcalloc(ln->nr_off ? ln->nr_off : 1, sizeof(*thr));
	uint64_t *set = xcalloc(b->words, sizeof(*set));
	size_t k;

	group_rows(b, al, row_mem);
	for (k = 0; k < al->nr_mem; k++)
		sum_member(b, al, row_mem, k, set, thr);
	if (al->nr_mem > 1)
		qsort(al->mem, al->nr_mem, sizeof(*al->mem), member_cmp);
	classify(al);
	write_advice(al, cltab_opts(b->t)->cl_size,
		     cltab_opts(b->t)->display == CLTAB_DISPLAY_PEER);
	free(set);
	free(thr);
	free(row_mem);
}

int advice_build(struct advice **out, const struct cltab *t, const struct advice_opts *o)
{
	const struct cltab_opts *to = cltab_opts(t);
	struct builder b = { .t = t, .o = o, .words = (to->nr_cpus + 63) / 64 };
	struct advice *a = xcalloc(1, sizeof(*a));
	struct cltab_line *const *ln;
	size_t nr, i;

	if (!b.words)
		b.words = 1;
	a->t = t;
	a->total = cltab_metric(to->display, cltab_total(t));
	ln = cltab_lines(t, &nr);
	if (o->top > 0 && (size_t)o->top < nr)
		nr = (size_t)o->top;
	else if (o->top <= 0)
		nr = 0;
	a->line = xcalloc(nr ? nr : 1, sizeof(*a->line));
	for (i = 0; i < nr; i++) {
		struct advice_line *al = &a->line[a->nr_line];
		uint32_t metric = cltab_metric(to->display, &ln[i]->stats);

		if (!metric)
			break;   /* lines are sorted by the metric: the rest is quiet */
		al->ln = ln[i];
		al->metric = metric;
		al->share = pct(metric, a->total);
		build_line(&b, al);
		a->nr_line++;
	}
	*out = a;
	return 0;
}

void advice_free(struct advice *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr_line; i++)
		free(a->line[i].mem);
	free(a->line);
	free(a);
}

/* --- printing --------------------------------------------------------------------------------- */

static void thread_desc(char *buf, size_t n, const struct advice_member *m)
{
	if (!m->thread)
		snprintf(buf, n, "-");
	else if (m->threads > 1)
		snprintf(buf, n, "%s/%d +%u", m->thread->comm, m->thread->tid, m->threads - 1);
	else
		snprintf(buf, n, "%s/%d", m->thread->comm, m->thread->tid);
}

static void print_member(FILE *f, const struct advice_member *m, int width)
{
	char loc[200], thr[96];

	code_loc(loc, sizeof(loc), m->writer ? m->writer : m->reader);
	thread_desc(thr, sizeof(thr), m);
	fprintf(f, "#     0x%-6llx %-*s %7u %7u %7u %5u  %-20s %s\n", (unsigned long long)m->offset,
		width, *m->name ? m->name : "-", m->loads, m->stores, m->metric, m->cpus, thr, loc);
}

/* Members by weight: display metric, then stores, then loads, then offset. */
static int rank_cmp(const void *x, const void *y)
{
	const struct advice_member *a = *(const struct advice_member *const *)x;
	const struct advice_member *b = *(const struct advice_member *const *)y;

	if (a->metric != b->metric)
		return (a->metric < b->metric) - (a->metric > b->metric);
	if (a->stores != b->stores)
		return (a->stores < b->stores) - (a->stores > b->stores);
	if (a->loads != b->loads)
		return (a->loads < b->loads) - (a->loads > b->loads);
	return (a->offset > b->offset) - (a->offset < b->offset);
}

/* The members a line prints: all, or the ADVICE_MAX_ROWS heaviest (plus those the verdict
 * names) in offset order. Returns how many were left out. */
static size_t pick_rows(const struct advice_line *al, char *show)
{
	const struct advice_member **r;
	size_t i, left = 0;

	memset(show, 1, al->nr_mem);
	if (al->nr_mem <= ADVICE_MAX_ROWS)
		return 0;
	r = xcalloc(al->nr_mem, sizeof(*r));
	for (i = 0; i < al->nr_mem; i++)
		r[i] = &al->mem[i];
	qsort(r, al->nr_mem, sizeof(*r), rank_cmp);
	for (i = ADVICE_MAX_ROWS; i < al->nr_mem; i++)
		show[r[i] - al->mem] = 0;
	if (al->a >= 0)
		show[al->a] = 1;
	if (al->b >= 0)
		show[al->b] = 1;
	for (i = 0; i < al->nr_mem; i++)
		left += !show[i];
	free(r);
	return left;
}

static void print_line(FILE *f, const struct advice *a, size_t idx, const char *metric_name)
{
	const struct advice_line *al = &a->line[idx];
	char *show = xcalloc(al->nr_mem ? al->nr_mem : 1, 1);
	size_t i, left = pick_rows(al, show);
	int width = 6;

	for (i = 0; i < al->nr_mem; i++)
		if ((int)strlen(al->mem[i].name) > width)
			width = (int)strlen(al->mem[i].name);
	fprintf(f, "#\n# %zu. 0x%llx %s: %.1f%% of %s (%u of %u)\n", idx + 1,
		(unsigned long long)al->ln->addr, al->what, al->share, metric_name, al->metric,
		a->total);
	fprintf(f, "#     %-8s %-*s %7s %7s %7s %5s  %-20s %s\n", "offset", width, "member", "loads",
		"stores", cltab_opts(a->t)->display == CLTAB_DISPLAY_PEER ? "snoops" : "HITMs",
		"CPUs", "thread", "code");
	for (i = 0; i < al->nr_mem; i++)
		if (show[i])
			print_member(f, &al->mem[i], width);
	if (left)
		fprintf(f, "#     (%zu lighter offsets not shown)\n", left);
	free(show);
	fprintf(f, "#   verdict: %s\n", advice_verdict_name(al->verdict));
	fprintf(f, "#   advice: %s\n", al->advice);
}

int advice_print(FILE *f, const struct advice *a)
{
	const char *metric_name = advice_metric_name(cltab_opts(a->t)->display);
	size_t nr, i;

	if (!a->nr_line)
		return 0;
	cltab_lines(a->t, &nr);
	fprintf(f, "# c2c-lite summary: the %zu most contended of %zu displayed cachelines "
		"(by %s)\n", a->nr_line, nr, metric_name);
	for (i = 0; i < a->nr_line; i++)
		print_line(f, a, i, metric_name);
	fprintf(f, "\n");
	return ferror(f) ? -EIO : 0;
}
