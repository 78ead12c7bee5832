/* One line's offset Pareto: shares of the line's own HITM/peer and store totals, then the code,
 * the data name, memory and CPU nodes, cycles and counts of each offset row. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/dsrc.h"
#include "report/maps.h"
#include "report/stdio.h"
#include "tui/draw-int.h"

/* --- a line's offsets -------------------------------------------------------------------------- */

void tui_symbol(const struct cltab_offset *o, char *buf, size_t size)
{
	char lvl = maps_level_char(o->cpumode);

	if (o->has_sym)
		snprintf(buf, size, "[%c] %s", lvl, o->code.symbol);
	else
		snprintf(buf, size, "[%c] 0x%016llx", lvl,
			 (unsigned long long)(o->cmap ? o->code_al : o->ip));
}

void tui_srcline(const struct cltab_offset *o, char *buf, size_t size)
{
	stdio_srcline(buf, size, o);
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
	const char *dn = tui_model_data_name(c->m, l, o, data, sizeof(data));
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

void tui_draw_line(struct tui_ctx *c)
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
