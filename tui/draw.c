/* Drawing (see tui/draw.h). Each screen builds full-width text rows in a growable buffer and hands
 * them, clipped to the window and the horizontal scroll, to the screen's put callback. Figures come
 * from the model as it is; the only arithmetic is shares of the line's own totals and sums of
 * offset rows for the source view. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "c2c/xalloc.h"
#include "report/dsrc.h"
#include "report/maps.h"
#include "tui/draw.h"

struct tui_buf {
	char *s;
	size_t len, cap;
};

static void tui_bufaddf(struct tui_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tui_bufaddf(struct tui_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->s = xgrow(b->s, &b->cap, b->len + (size_t)n + 1, 1);
	}
}

static void tui_bufreset(struct tui_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

int tui_clip(const char *text, int skip, int width, char *out, size_t size)
{
	mbstate_t st;
	size_t o = 0;
	int col = 0, w;

	memset(&st, 0, sizeof(st));
	while (*text && col < skip + width) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, text, MB_CUR_MAX, &st);
		int bad = n == (size_t)-1 || n == (size_t)-2 || n == 0;

		if (bad) {
			memset(&st, 0, sizeof(st));
			n = 1;
			w = 1;
		} else {
			w = wcwidth(wc);
			if (w < 0)
				w = 1, bad = 1;
		}
		if (col + w > skip + width)
			break;
		if (col >= skip && o + n < size) {
			if (bad)
				out[o++] = '?';
			else
				memcpy(out + o, text, n), o += n;
		} else if (col < skip && col + w > skip) {
			w = skip - col;   /* a wide character cut by the scroll: blank it */
		}
		col += w;
		text += n;
	}
	if (size)
		out[o < size ? o : size - 1] = '\0';
	return col > skip ? col - skip : 0;
}

struct tui_ctx {
	struct tui_screen *s;
	struct tui_model *m;
	const struct tui_view *v;
	struct tui_buf b;
	char *clip;
	size_t clip_size;
};

/* Put row @row from text @t scrolled by @skip columns. */
static void tui_row(struct tui_ctx *c, int row, enum tui_attr a, const char *t, int skip)
{
	if (row < 0 || row >= c->s->rows)
		return;
	tui_clip(t, skip, c->s->cols, c->clip, c->clip_size);
	c->s->put(c->s->ctx, row, a, c->clip);
}

static void tui_rowf(struct tui_ctx *c, int row, enum tui_attr a, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void tui_rowf(struct tui_ctx *c, int row, enum tui_attr a, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	tui_row(c, row, a, line, 0);
}

/* perf's banner: @word centred in dashes over @width columns. */
static void tui_banner(struct tui_buf *b, int width, const char *word)
{
	int n = (int)strlen(word), left, right;

	if (!n || n + 2 > width) {
		tui_bufaddf(b, "%*.*s", width, width, word);
		return;
	}
	left = (width - n - 2) / 2;
	right = width - n - 2 - left;
	tui_bufaddf(b, "%.*s %s %.*s", left, "------------------------------------------------",
		    word, right, "------------------------------------------------");
}

/* --- the cacheline list ------------------------------------------------------------------------ */

#define TUI_DATA_W 24

/* Display order of the list's columns: the stdio table with the data name after the share. */
static const enum cltv_col tui_list_cols[] = {
	CLTV_COL_INDEX, CLTV_COL_ADDRESS, CLTV_COL_NODE, CLTV_COL_PA_CNT, CLTV_COL_SHARE,
	CLTV_COL__NR /* data name */, CLTV_COL_LD_TOTAL, CLTV_COL_LD_LCL, CLTV_COL_LD_RMT,
	CLTV_COL_RECORDS, CLTV_COL_LOADS, CLTV_COL_STORES, CLTV_COL_ST_L1HIT, CLTV_COL_ST_L1MISS,
	CLTV_COL_ST_NA, CLTV_COL_FB, CLTV_COL_L1, CLTV_COL_L2, CLTV_COL_LLC_HIT, CLTV_COL_LLC_HITM,
	CLTV_COL_RMT_HIT, CLTV_COL_RMT_HITM, CLTV_COL_DRAM_LCL, CLTV_COL_DRAM_RMT,
};
#define TUI_NR_LIST_COLS (int)(sizeof(tui_list_cols) / sizeof(tui_list_cols[0]))

static const char *tui_group(enum cltv_col c, enum cltab_display d)
{
	return c == CLTV_COL__NR ? "" : cltv_col(c, d)->group;
}

static void tui_list_header(struct tui_ctx *c, int row)
{
	enum cltab_display d = c->v->display;
	int i, j;

	tui_bufreset(&c->b);
	for (i = 0; i < TUI_NR_LIST_COLS; i = j) {
		const char *g = tui_group(tui_list_cols[i], d);
		int w = 0;

		for (j = i; j < TUI_NR_LIST_COLS && !strcmp(g, tui_group(tui_list_cols[j], d)) &&
			    (j == i || *g); j++)
			w += 2 + (tui_list_cols[j] == CLTV_COL__NR ? TUI_DATA_W
								 : cltv_col(tui_list_cols[j], d)->width);
		tui_bufaddf(&c->b, "  ");
		if (j == i + 1)   /* a one-column group: the word alone, right-aligned */
			tui_bufaddf(&c->b, "%*s", w - 2, g);
		else
			tui_banner(&c->b, w - 2, g);
	}
	tui_row(c, row, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
	tui_bufreset(&c->b);
	for (i = 0; i < TUI_NR_LIST_COLS; i++) {
		enum cltv_col col = tui_list_cols[i];
		char name[32];

		if (col == CLTV_COL__NR) {
			tui_bufaddf(&c->b, "  %-*s", TUI_DATA_W, "Data");
			continue;
		}
		snprintf(name, sizeof(name), "%s%s", col == c->v->sort ? "*" : "",
			 cltv_col(col, d)->name);
		tui_bufaddf(&c->b, "  %*s", cltv_col(col, d)->width, name);
	}
	tui_row(c, row + 1, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
}

static void tui_list_cell(struct tui_ctx *c, const struct cltab_line *l, enum cltv_col col)
{
	const struct cltv_col_desc *cd = cltv_col(col, c->v->display);
	enum cltab_display d = c->v->display;
	char tmp[256];

	switch (col) {
	case CLTV_COL__NR: {
		const char *n = tui_model_line_name(c->m, l, tmp, sizeof(tmp));

		/* no variable: say what memory it is, and whose when lines are per process */
		if (!n && l->dmap) {
			if (l->key_pid)
				snprintf(tmp, sizeof(tmp), "%s pid %d", l->dmap->dso->short_name,
					 l->key_pid);
			else
				snprintf(tmp, sizeof(tmp), "%s", l->dmap->dso->short_name);
			n = tmp;
		}
		char cut[TUI_DATA_W * 4 + 1];
		int w = tui_clip(n ? n : "", 0, TUI_DATA_W, cut, sizeof(cut));

		tui_bufaddf(&c->b, "  %s%*s", cut, TUI_DATA_W - w, "");
		return;
	}
	case CLTV_COL_INDEX:
		tui_bufaddf(&c->b, "  %*u", cd->width, c->v->rank[l->index]);
		return;
	case CLTV_COL_ADDRESS:
		snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)l->addr);
		tui_bufaddf(&c->b, "  %*s", cd->width, tmp);
		return;
	case CLTV_COL_NODE:
		cltv_nodes_str(c->m->t, l->nodeset, tmp, sizeof(tmp));
		tui_bufaddf(&c->b, "  %*s", cd->width, tmp);
		return;
	case CLTV_COL_SHARE:
		tui_bufaddf(&c->b, "  %*.2f%%", cd->width - 1,
			    cltv_pct(cltab_metric(d, &l->stats), cltab_metric(d, cltab_total(c->m->t))));
		return;
	default:
		tui_bufaddf(&c->b, "  %*llu", cd->width,
			    (unsigned long long)cltv_line_value(c->m->t, l, col, d));
		return;
	}
}

static void tui_draw_list(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	int h = tui_view_body_rows(v, TUI_SCR_LIST), r, i;
	uint64_t tot = cltab_metric(v->display, cltab_total(c->m->t));

	tui_rowf(c, 0, TUI_ATTR_TITLE,
		 " Shared Data Cache Line Table (%zu entries, sorted on %s%s%s)  display %s  "
		 "coalesce %s  %s", v->nr_line, cltv_display_title(v->display),
		 v->sort == CLTV_COL_SHARE ? "" : ", ordered by ",
		 v->sort == CLTV_COL_SHARE ? "" : cltv_col(v->sort, v->display)->name,
		 cltv_display_name(v->display), v->coalesce_name, c->m->path ? c->m->path : "");
	tui_list_header(c, 1);
	for (r = 0; r < h; r++) {
		size_t idx = v->list.top + (size_t)r;
		enum tui_attr a = TUI_ATTR_NORMAL;
		const struct cltab_line *l;

		if (idx >= v->nr_line) {
			tui_row(c, 3 + r, a, r == 0 ? "  (no shared cachelines in this display mode; "
						      "press d to switch)" : "", 0);
			continue;
		}
		l = v->line[idx];
		tui_bufreset(&c->b);
		for (i = 0; i < TUI_NR_LIST_COLS; i++)
			tui_list_cell(c, l, tui_list_cols[i]);
		if (idx == v->list.sel)
			a = TUI_ATTR_SELECT;
		else if (tot && cltab_metric(v->display, &l->stats) * 10 >= tot)
			a = TUI_ATTR_HOT;   /* a tenth of all contention or more */
		tui_row(c, 3 + r, a, c->b.s, v->hscroll);
	}
}

/* --- a line's offsets -------------------------------------------------------------------------- */

static void tui_symbol(const struct cltab_offset *o, char *buf, size_t size)
{
	char lvl = maps_level_char(o->cpumode);

	if (o->has_sym)
		snprintf(buf, size, "[%c] %s", lvl, o->code.symbol);
	else
		snprintf(buf, size, "[%c] 0x%016llx", lvl,
			 (unsigned long long)(o->cmap ? o->code_al : o->ip));
}

static void tui_srcline(const struct cltab_offset *o, char *buf, size_t size)
{
	const char *f = o->code.srcfile, *slash;

	if (f && o->code.line) {
		slash = strrchr(f, '/');
		snprintf(buf, size, "%s:%u", slash ? slash + 1 : f, o->code.line);
	} else if (o->has_sym) {
		snprintf(buf, size, "%s+%llu", o->code.symbol, (unsigned long long)o->code.sym_offset);
	} else if (o->cmap) {
		snprintf(buf, size, "%s[%llx]", o->dso_key ? o->dso_key : "[unknown]",
			 (unsigned long long)o->code_al);
	} else {
		snprintf(buf, size, "??:0");
	}
}

/* The CPU-node column (c2c-semantics.md §4.4) at node-info level @lvl. */
static void tui_cpu_nodes(struct tui_ctx *c, const struct cltab_offset *o, int lvl)
{
	const struct cltab_opts *op = cltab_opts(c->m->t);
	enum cltab_display d = c->v->display;
	uint32_t n, cpu, m = cltab_metric(d, &o->stats);
	int printed = 0;

	for (n = 0; n < op->nr_nodes; n++) {
		uint32_t cnt = 0;
		struct tui_buf cpus = { 0 };

		for (cpu = 0; cpu < op->nr_cpus; cpu++) {
			if (op->cpu_node[cpu] != (int32_t)n || !(o->cpuset[cpu / 64] & (1ULL << (cpu % 64))))
				continue;
			tui_bufaddf(&cpus, "%s%u", cnt ? "," : "", cpu);
			cnt++;
		}
		if (!cnt) {
			free(cpus.s);
			continue;
		}
		tui_bufaddf(&c->b, "%s", printed ? " " : "");
		printed = 1;
		if (lvl == 0)
			tui_bufaddf(&c->b, "%2u", n);
		else if (lvl == 2)
			tui_bufaddf(&c->b, "%2u{%s}", n, cpus.s);
		else
			tui_bufaddf(&c->b, "%2u{%2u %5.1f%% %5.1f%%}", n, cnt,
				    cltv_pct(cltab_metric(d, &o->node_stats[n]), m),
				    cltv_pct(o->node_stats[n].store, o->stats.store));
		free(cpus.s);
	}
}

/* Offset rows show the thread when the coalescing keeps threads apart. */
static int tui_has_thread(const struct tui_view *v)
{
	int i;

	if (v->coalesce < 0)
		return 0;
	for (i = 0; i < tui_coalesce_presets[v->coalesce].nr; i++)
		if (tui_coalesce_presets[v->coalesce].key[i] == CLTAB_CO_TID ||
		    tui_coalesce_presets[v->coalesce].key[i] == CLTAB_CO_PID)
			return 1;
	return 0;
}

static void tui_ban(struct tui_buf *b, int width, const char *word)
{
	tui_bufaddf(b, "  ");
	tui_banner(b, width, word);
}

static void tui_line_header(struct tui_ctx *c, int row)
{
	int peer = c->v->display == CLTAB_DISPLAY_PEER, thr = tui_has_thread(c->v);

	tui_bufreset(&c->b);
	tui_ban(&c->b, 16, peer ? "Peer Snoop" : "HITM");
	tui_ban(&c->b, 25, "Store Refs");
	tui_bufaddf(&c->b, "  %6s%*s  %34s  %24s  %24s", "Data", thr ? 22 : 0, "", "",
		    "", "");
	tui_ban(&c->b, 11, "Memory");
	tui_bufaddf(&c->b, "  %18s", "");
	tui_ban(&c->b, 28, "cycles");
	tui_bufaddf(&c->b, "  %7s  %5s", "Total", "cpu");
	tui_row(c, row, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
	tui_bufreset(&c->b);
	tui_bufaddf(&c->b, "  %7s  %7s  %7s  %7s  %7s  %6s", peer ? "Rmt" : "RmtHitm",
		    peer ? "Lcl" : "LclHitm", "L1 Hit", "L1 Miss", "N/A", "Offset");
	if (thr)
		tui_bufaddf(&c->b, "  %-20s", "Thread");
	tui_bufaddf(&c->b, "  %-34s  %-24s  %-24s", "Symbol", "Source:Line", "Data");
	tui_bufaddf(&c->b, "  %4s %6s", "Node", "PA cnt");
	tui_bufaddf(&c->b, "  %18s  %8s  %8s  %8s  %7s  %5s  %-18s  %s", "Code address",
		    peer ? "rmt peer" : "rmt hitm", peer ? "lcl peer" : "lcl hitm", "load", "records",
		    "cnt", "Object", c->v->node_info == 1 ? "Node{cpus %share %stores}"
				     : c->v->node_info == 2 ? "Node{cpu list}" : "Node");
	tui_row(c, row + 1, TUI_ATTR_HEADER, c->b.s, c->v->hscroll);
}

static void tui_offset_row(struct tui_ctx *c, const struct cltab_line *l, const struct cltab_offset *o)
{
	int peer = c->v->display == CLTAB_DISPLAY_PEER;
	const struct dsrc_stats *ls = &l->stats, *os = &o->stats;
	char sym[256], src[256], data[256], cut[3][128], nodes[64], off[24];
	const char *dn = tui_model_data_name(c->m, l, l->addr + o->offset, data, sizeof(data));
	int wsym, wsrc, wdat;

	tui_symbol(o, sym, sizeof(sym));
	tui_srcline(o, src, sizeof(src));
	wsym = tui_clip(sym, 0, 34, cut[0], sizeof(cut[0]));
	wsrc = tui_clip(src, 0, 24, cut[1], sizeof(cut[1]));
	wdat = tui_clip(dn ? dn : "", 0, 24, cut[2], sizeof(cut[2]));
	cltv_nodes_str(c->m->t, o->nodeset, nodes, sizeof(nodes));
	snprintf(off, sizeof(off), "0x%llx", (unsigned long long)o->disp_offset);
	tui_bufaddf(&c->b, "  %6.2f%%  %6.2f%%  %6.2f%%  %6.2f%%  %6.2f%%  %6s",
		    cltv_pct(peer ? os->rmt_peer : os->rmt_hitm, peer ? ls->rmt_peer : ls->rmt_hitm),
		    cltv_pct(peer ? os->lcl_peer : os->lcl_hitm, peer ? ls->lcl_peer : ls->lcl_hitm),
		    cltv_pct(os->st_l1hit, ls->st_l1hit), cltv_pct(os->st_l1miss, ls->st_l1miss),
		    cltv_pct(os->st_na, ls->st_na), off);
	if (tui_has_thread(c->v))
		tui_bufaddf(&c->b, "  %7d:%-12.12s", o->thread->tid, o->thread->comm);
	tui_bufaddf(&c->b, "  %s%*s  %s%*s  %s%*s", cut[0], 34 - wsym, "", cut[1], 24 - wsrc, "",
		    cut[2], 24 - wdat, "");
	tui_bufaddf(&c->b, "  %4s %6llu", nodes, (unsigned long long)o->paddr_cnt);
	snprintf(off, sizeof(off), "0x%llx", (unsigned long long)o->ip);
	tui_bufaddf(&c->b, "  %18s  %8.0f  %8.0f  %8.0f  %7u  %5u  %-18.18s  ", off,
		    o->cycles[peer ? CLTAB_CYC_RMT_PEER : CLTAB_CYC_RMT_HITM].mean,
		    o->cycles[peer ? CLTAB_CYC_LCL_PEER : CLTAB_CYC_LCL_HITM].mean,
		    o->cycles[CLTAB_CYC_LOAD].mean, dsrc_total_records(os), o->cpu_cnt,
		    o->dso_key ? o->dso_key : "[unknown]");
	tui_cpu_nodes(c, o, c->v->node_info);
}

static void tui_line_summary(struct tui_ctx *c, const struct cltab_line *l, int row)
{
	const struct dsrc_stats *s = &l->stats;
	int peer = c->v->display == CLTAB_DISPLAY_PEER;
	char nodes[64], data[256];
	const char *dn = tui_model_line_name(c->m, l, data, sizeof(data));

	cltv_nodes_str(c->m->t, l->nodeset, nodes, sizeof(nodes));
	tui_rowf(c, row, TUI_ATTR_NORMAL,
		 "  %s rmt %u lcl %u  stores L1Hit %u L1Miss %u N/A %u  records %u  loads %u  "
		 "node %s  PA cnt %llu%s%s", peer ? "Peer" : "HITM", peer ? s->rmt_peer : s->rmt_hitm,
		 peer ? s->lcl_peer : s->lcl_hitm, s->st_l1hit, s->st_l1miss, s->st_na,
		 dsrc_total_records(s), dsrc_total_loads(s), nodes, (unsigned long long)l->paddr_cnt,
		 dn ? "  data " : "", dn ? dn : "");
}

static void tui_draw_line(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	const struct cltab_line *l = v->open;
	int h = tui_view_body_rows(v, TUI_SCR_LINE), r;

	tui_rowf(c, 0, TUI_ATTR_TITLE, " Cacheline %#llx  (index %u, %zu of %zu offset rows shown)  "
		 "display %s  coalesce %s", (unsigned long long)l->addr, v->rank[l->index], v->nr_off,
		 l->nr_off, cltv_display_name(v->display), v->coalesce_name);
	tui_line_summary(c, l, 1);
	tui_line_header(c, 2);
	tui_row(c, 4, TUI_ATTR_HEADER, "", 0);
	for (r = 0; r < h; r++) {
		size_t idx = v->detail.top + (size_t)r;

		if (idx >= v->nr_off) {
			tui_row(c, 5 + r, TUI_ATTR_NORMAL,
				r == 0 && !v->nr_off ? "  (no offset row has stores or the display metric)" : "", 0);
			continue;
		}
		tui_bufreset(&c->b);
		tui_offset_row(c, l, l->off[v->off[idx]]);
		tui_row(c, 5 + r, idx == v->detail.sel ? TUI_ATTR_SELECT : TUI_ATTR_NORMAL, c->b.s,
			v->hscroll);
	}
}

/* --- source ------------------------------------------------------------------------------------ */

/* Records and HITMs (peer snoops) of the open line's offset rows sampled at @file:@line. */
static void tui_src_counts(const struct tui_view *v, uint32_t line, uint64_t *rec, uint64_t *hot)
{
	size_t i;

	*rec = *hot = 0;
	for (i = 0; v->open && i < v->open->nr_off; i++) {
		const struct cltab_offset *o = v->open->off[i];

		if (o->code.line != line || !o->code.srcfile || strcmp(o->code.srcfile, v->src_file))
			continue;
		*rec += dsrc_total_records(&o->stats);
		*hot += cltab_metric(v->display, &o->stats);
	}
}

static void tui_expand_tabs(const char *in, struct tui_buf *b)
{
	size_t col = 0;

	for (; *in; in++) {
		if (*in == '\t') {
			do
				tui_bufaddf(b, " ");
			while (++col % 8);
		} else {
			tui_bufaddf(b, "%c", *in);
			col++;
		}
	}
}

static void tui_draw_source(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	int h = tui_view_body_rows(v, TUI_SCR_SOURCE), r;
	int peer = v->display == CLTAB_DISPLAY_PEER;

	tui_rowf(c, 0, TUI_ATTR_TITLE, " %s:%u  (cacheline %#llx)", v->src_file, v->src_line,
		 v->open ? (unsigned long long)v->open->addr : 0ULL);
	tui_rowf(c, 1, TUI_ATTR_HEADER, "  %7s  %7s  %6s  source", peer ? "Peer" : "HITM",
		 "records", "line");
	for (r = 0; r < h; r++) {
		size_t idx = v->source.top + (size_t)r;
		uint64_t rec, hot;

		if (idx >= v->nr_src) {
			tui_row(c, 2 + r, TUI_ATTR_NORMAL, "", 0);
			continue;
		}
		tui_src_counts(v, (uint32_t)idx + 1, &rec, &hot);
		tui_bufreset(&c->b);
		if (rec || hot)
			tui_bufaddf(&c->b, "  %7llu  %7llu  %6zu  ", (unsigned long long)hot,
				    (unsigned long long)rec, idx + 1);
		else
			tui_bufaddf(&c->b, "  %7s  %7s  %6zu  ", "", "", idx + 1);
		tui_expand_tabs(v->src_text[idx], &c->b);
		tui_row(c, 2 + r, idx == v->source.sel ? TUI_ATTR_SELECT
				   : rec || hot ? TUI_ATTR_HOT : TUI_ATTR_NORMAL, c->b.s, v->hscroll);
	}
}

/* --- statistics -------------------------------------------------------------------------------- */

enum tui_stat_kind { TS_FIELD, TS_SUM, TS_LLC, TS_PCT, TS_NR_SHARED, TS_MERGED, TS_TITLE };

struct tui_stat {
	const char *label;
	enum tui_stat_kind kind;
	size_t a, b;          /* offsets of u32 fields of struct dsrc_stats */
	int shared;           /* over the shared lines, else over every sample */
};

#define F(x) offsetof(struct dsrc_stats, x)
/* Labels and values of perf's print_c2c__display_stats and print_shared_cacheline_info. */
static const struct tui_stat tui_stats[] = {
	{ "Trace Event Information", TS_TITLE, 0, 0, 0 },
	{ "Total records", TS_FIELD, F(nr_entries), 0, 0 },
	{ "Locked Load/Store Operations", TS_FIELD, F(locks), 0, 0 },
	{ "Load Operations", TS_FIELD, F(load), 0, 0 },
	{ "Loads - uncacheable", TS_FIELD, F(ld_uncache), 0, 0 },
	{ "Loads - IO", TS_FIELD, F(ld_io), 0, 0 },
	{ "Loads - Miss", TS_FIELD, F(ld_miss), 0, 0 },
	{ "Loads - no mapping", TS_FIELD, F(ld_noadrs), 0, 0 },
	{ "Load Fill Buffer Hit", TS_FIELD, F(ld_fbhit), 0, 0 },
	{ "Load L1D hit", TS_FIELD, F(ld_l1hit), 0, 0 },
	{ "Load L2D hit", TS_FIELD, F(ld_l2hit), 0, 0 },
	{ "Load LLC hit", TS_SUM, F(ld_llchit), F(lcl_hitm), 0 },
	{ "Load Local HITM", TS_FIELD, F(lcl_hitm), 0, 0 },
	{ "Load Remote HITM", TS_FIELD, F(rmt_hitm), 0, 0 },
	{ "Load Remote HIT", TS_FIELD, F(rmt_hit), 0, 0 },
	{ "Load Local DRAM", TS_FIELD, F(lcl_dram), 0, 0 },
	{ "Load Remote DRAM", TS_FIELD, F(rmt_dram), 0, 0 },
	{ "Load MESI State Exclusive", TS_FIELD, F(ld_excl), 0, 0 },
	{ "Load MESI State Shared", TS_FIELD, F(ld_shared), 0, 0 },
	{ "Load LLC Misses", TS_LLC, 0, 0, 0 },
	{ "Load access blocked by data", TS_FIELD, F(blk_data), 0, 0 },
	{ "Load access blocked by address", TS_FIELD, F(blk_addr), 0, 0 },
	{ "Load HIT Local Peer", TS_FIELD, F(lcl_peer), 0, 0 },
	{ "Load HIT Remote Peer", TS_FIELD, F(rmt_peer), 0, 0 },
	{ "LLC Misses to Local DRAM", TS_PCT, F(lcl_dram), 0, 0 },
	{ "LLC Misses to Remote DRAM", TS_PCT, F(rmt_dram), 0, 0 },
	{ "LLC Misses to Remote cache (HIT)", TS_PCT, F(rmt_hit), 0, 0 },
	{ "LLC Misses to Remote cache (HITM)", TS_PCT, F(rmt_hitm), 0, 0 },
	{ "Store Operations", TS_FIELD, F(store), 0, 0 },
	{ "Store - uncacheable", TS_FIELD, F(st_uncache), 0, 0 },
	{ "Store - no mapping", TS_FIELD, F(st_noadrs), 0, 0 },
	{ "Store L1D Hit", TS_FIELD, F(st_l1hit), 0, 0 },
	{ "Store L1D Miss", TS_FIELD, F(st_l1miss), 0, 0 },
	{ "Store No available memory level", TS_FIELD, F(st_na), 0, 0 },
	{ "No Page Map Rejects", TS_FIELD, F(nomap), 0, 0 },
	{ "Unable to parse data source", TS_FIELD, F(noparse), 0, 0 },
	{ "Global Shared Cache Line Event Information", TS_TITLE, 0, 0, 1 },
	{ "Total Shared Cache Lines", TS_NR_SHARED, 0, 0, 1 },
	{ "Load HITs on shared lines", TS_FIELD, F(load), 0, 1 },
	{ "Fill Buffer Hits on shared lines", TS_FIELD, F(ld_fbhit), 0, 1 },
	{ "L1D hits on shared lines", TS_FIELD, F(ld_l1hit), 0, 1 },
	{ "L2D hits on shared lines", TS_FIELD, F(ld_l2hit), 0, 1 },
	{ "LLC hits on shared lines", TS_SUM, F(ld_llchit), F(lcl_hitm), 1 },
	{ "Load hits on peer cache or nodes", TS_SUM, F(lcl_peer), F(rmt_peer), 1 },
	{ "Locked Access on shared lines", TS_FIELD, F(locks), 0, 1 },
	{ "Blocked Access on shared lines", TS_SUM, F(blk_data), F(blk_addr), 1 },
	{ "Store HITs on shared lines", TS_FIELD, F(store), 0, 1 },
	{ "Store L1D hits on shared lines", TS_FIELD, F(st_l1hit), 0, 1 },
	{ "Store No available memory level", TS_FIELD, F(st_na), 0, 1 },
	{ "Total Merged records", TS_MERGED, 0, 0, 1 },
};
#undef F
#define TUI_NR_STATS (sizeof(tui_stats) / sizeof(tui_stats[0]))

static uint32_t tui_u32(const struct dsrc_stats *s, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)s + off, sizeof(v));
	return v;
}

static void tui_stat_text(struct tui_model *m, const struct tui_stat *st, struct tui_buf *b)
{
	const struct dsrc_stats *s = st->shared ? cltab_shared(m->t) : cltab_total(m->t);

	switch (st->kind) {
	case TS_TITLE:
		tui_bufaddf(b, "%s", st->label);
		return;
	case TS_FIELD:
		tui_bufaddf(b, "  %-34s: %10d", st->label, (int)tui_u32(s, st->a));
		return;
	case TS_SUM:
		tui_bufaddf(b, "  %-34s: %10d", st->label, (int)(tui_u32(s, st->a) + tui_u32(s, st->b)));
		return;
	case TS_LLC:
		tui_bufaddf(b, "  %-34s: %10d", st->label, (int)dsrc_llc_misses(s));
		return;
	case TS_PCT:
		/* divide first, as perf does: 0/0 prints as perf prints it */
		tui_bufaddf(b, "  %-34s: %10.1f%%", st->label,
			    (double)tui_u32(s, st->a) / (double)dsrc_llc_misses(s) * 100.);
		return;
	case TS_NR_SHARED:
		tui_bufaddf(b, "  %-34s: %10d", st->label, (int)cltab_nr_shared(m->t));
		return;
	case TS_MERGED:
		tui_bufaddf(b, "  %-34s: %10d", st->label, (int)(s->lcl_hitm + s->rmt_hitm + s->store));
		return;
	}
}

/* Lines above the two perf sections: where the figures come from. */
static size_t tui_info_rows(struct tui_ctx *c, size_t row, struct tui_buf *b)
{
	struct tui_model *m = c->m;

	const struct cltab_counts *k = cltab_counts(m->t);
	const struct trace_info *i = m->info;

	switch (row) {
	case 0:
		tui_bufaddf(b, "  %-34s: %s", "File", m->path ? m->path : "(in memory)");
		break;
	case 1:
		tui_bufaddf(b, "  %-34s: %s %s, %u CPUs, %u nodes", "Machine",
			    i && i->arch ? i->arch : "?", i && i->cpu_desc ? i->cpu_desc : "",
			    cltab_opts(m->t)->nr_cpus, cltab_opts(m->t)->nr_nodes);
		break;
	case 2:
		tui_bufaddf(b, "  %-34s: %llu samples, %llu lost records, %llu lost samples, "
			    "%llu throttled%s", "Records", (unsigned long long)k->samples,
			    (unsigned long long)k->lost_records, (unsigned long long)k->lost_samples,
			    (unsigned long long)k->throttle, m->truncated ? " (file cut short)" : "");
		break;
	case 3:
		tui_bufaddf(b, "  %-34s: %u bytes, offset,%s", "Cacheline size, data grouping",
			    cltab_opts(m->t)->cl_size, c->v->coalesce_name);
		break;
	default:
		break;
	}
	return 5;
}

size_t tui_text_rows(struct tui_model *m, const struct tui_view *v, enum tui_screen_id s)
{
	const struct tui_binding *b;
	size_t n = 0;

	(void)m;
	(void)v;
	if (s == TUI_SCR_STATS)
		return 5 + TUI_NR_STATS + 1;   /* info, sections, a blank line between them */
	for (b = tui_bindings; b->key; b++)
		n += b->keys != NULL;
	return n + 2;
}

/* Row @row of the statistics screen into @b; returns its attribute. */
static enum tui_attr tui_stats_row(struct tui_ctx *c, size_t row, struct tui_buf *b)
{
	size_t info = tui_info_rows(c, SIZE_MAX, b), i;

	if (row < info) {
		tui_info_rows(c, row, b);
		return TUI_ATTR_NORMAL;
	}
	i = row - info;
	if (i == 36)   /* a blank line between the two sections */
		return TUI_ATTR_NORMAL;
	if (i > 36)
		i--;
	if (i >= TUI_NR_STATS)
		return TUI_ATTR_NORMAL;
	tui_stat_text(c->m, &tui_stats[i], b);
	return tui_stats[i].kind == TS_TITLE ? TUI_ATTR_HEADER : TUI_ATTR_NORMAL;
}

static void tui_draw_text(struct tui_ctx *c, enum tui_screen_id s)
{
	const struct tui_view *v = c->v;
	int h = v->rows - 2, r;
	size_t nr = tui_text_rows(c->m, v, s);
	const struct tui_binding *b = tui_bindings;

	tui_rowf(c, 0, TUI_ATTR_TITLE, s == TUI_SCR_STATS ? " Statistics" : " Keys");
	for (r = 0; r < h; r++) {
		size_t row = v->text.top + (size_t)r;
		enum tui_attr a = TUI_ATTR_NORMAL;

		tui_bufreset(&c->b);
		tui_bufaddf(&c->b, "%s", "");
		if (row < nr && s == TUI_SCR_STATS) {
			a = tui_stats_row(c, row, &c->b);
		} else if (row < nr && row >= 2) {
			size_t k = row - 2;

			for (b = tui_bindings; b->key; b++)
				if (b->keys && !k--)
					break;
			if (b->key)
				tui_bufaddf(&c->b, "  %-16s %s", b->keys, b->help);
		} else if (row == 0) {
			tui_bufaddf(&c->b, "  c2c-lite tui: browse the contended cachelines of a trace");
		}
		tui_row(c, 1 + r, a, c->b.s, 0);
	}
}

/* --- frame ------------------------------------------------------------------------------------- */

static void tui_status(struct tui_ctx *c)
{
	const struct tui_view *v = c->v;
	const struct tui_list *l = tui_view_screen(v) == TUI_SCR_LIST ? &v->list
				   : tui_view_screen(v) == TUI_SCR_LINE ? &v->detail
				   : tui_view_screen(v) == TUI_SCR_SOURCE ? &v->source : NULL;
	char pos[48] = "";

	if (l && l->nr)
		snprintf(pos, sizeof(pos), "%zu/%zu ", l->sel + 1, l->nr);
	if (v->prompt)
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS, "/%s_", v->query);
	else if (v->msg[0])
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS, " %s%s", pos, v->msg);
	else
		tui_rowf(c, c->s->rows - 1, TUI_ATTR_STATUS,
			 " %sEnter open  / search  s sort  d mode  c coalesce  t stats  "
			 "? help  q quit", pos);
}

void tui_draw(struct tui_screen *s, struct tui_model *m, const struct tui_view *v)
{
	struct tui_ctx c = { .s = s, .m = m, .v = v };

	c.clip_size = (size_t)s->cols * 4 + 8;
	c.clip = xmalloc(c.clip_size);
	switch (tui_view_screen(v)) {
	case TUI_SCR_LIST:
		tui_draw_list(&c);
		break;
	case TUI_SCR_LINE:
		tui_draw_line(&c);
		break;
	case TUI_SCR_SOURCE:
		tui_draw_source(&c);
		break;
	case TUI_SCR_STATS:
	case TUI_SCR_HELP:
		tui_draw_text(&c, tui_view_screen(v));
		break;
	}
	tui_status(&c);
	free(c.clip);
	free(c.b.s);
}
