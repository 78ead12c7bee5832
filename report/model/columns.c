/* The model's columns (see model.h): what each metric and text column is called, how wide it is
 * and how its cells read, for every backend and for perf's two PMU tables. A printer lays the
 * descriptors out; this file is the only place that knows what a column holds. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/model/model.h"
#include "report/model/numfmt.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct rm_col cols[RM_COL__NR] = {
	[RM_COL_COST] = { RM_COL_COST, "share", "", "Share", 7, RM_FMT_PCT },
	[RM_COL_SAMPLES] = { RM_COL_SAMPLES, "samples", "", "Samples", 8, RM_FMT_COUNT },
	[RM_COL_LOADS] = { RM_COL_LOADS, "loads", "Total", "Loads", 7, RM_FMT_COUNT },
	[RM_COL_STORES] = { RM_COL_STORES, "stores", "Total", "Stores", 7, RM_FMT_COUNT },
	[RM_COL_ATOMICS] = { RM_COL_ATOMICS, "atomics", "", "Atomics", 7, RM_FMT_COUNT },
	[RM_COL_THREADS] = { RM_COL_THREADS, "threads", "", "Thr", 4, RM_FMT_COUNT },
	[RM_COL_CPUS] = { RM_COL_CPUS, "cpus", "", "CPUs", 4, RM_FMT_COUNT },
	[RM_COL_IPS] = { RM_COL_IPS, "ips", "", "IPs", 4, RM_FMT_COUNT },
	[RM_COL_NODE] = { RM_COL_NODE, "node", "Cacheline", "Node", 4, RM_FMT_TEXT },
	[RM_COL_PA_CNT] = { RM_COL_PA_CNT, "pa_cnt", "Cacheline", "PA cnt", 6, RM_FMT_COUNT },
	[RM_COL_HITM] = { RM_COL_HITM, "hitm", "Load Hitm", "Total", 7, RM_FMT_COUNT },
	[RM_COL_LCL_HITM] = { RM_COL_LCL_HITM, "lcl_hitm", "Load Hitm", "LclHitm", 7, RM_FMT_COUNT },
	[RM_COL_RMT_HITM] = { RM_COL_RMT_HITM, "rmt_hitm", "Load Hitm", "RmtHitm", 7, RM_FMT_COUNT },
	[RM_COL_RECORDS] = { RM_COL_RECORDS, "records", "Total", "records", 7, RM_FMT_COUNT },
	[RM_COL_ST_L1HIT] = { RM_COL_ST_L1HIT, "st_l1hit", "Stores", "L1Hit", 7, RM_FMT_COUNT },
	[RM_COL_ST_L1MISS] = { RM_COL_ST_L1MISS, "st_l1miss", "Stores", "L1Miss", 7, RM_FMT_COUNT },
	[RM_COL_ST_NA] = { RM_COL_ST_NA, "st_na", "Stores", "N/A", 7, RM_FMT_COUNT },
	[RM_COL_LD_FB] = { RM_COL_LD_FB, "ld_fb", "Core Load Hit", "FB", 7, RM_FMT_COUNT },
	[RM_COL_LD_L1] = { RM_COL_LD_L1, "ld_l1", "Core Load Hit", "L1", 7, RM_FMT_COUNT },
	[RM_COL_LD_L2] = { RM_COL_LD_L2, "ld_l2", "Core Load Hit", "L2", 7, RM_FMT_COUNT },
	[RM_COL_LLC_HIT] = { RM_COL_LLC_HIT, "llc_hit", "LLC Load Hit", "LclHit", 8, RM_FMT_COUNT },
	[RM_COL_LLC_HITM] = { RM_COL_LLC_HITM, "llc_hitm", "LLC Load Hit", "LclHitm", 7,
			      RM_FMT_COUNT },
	[RM_COL_RMT_HIT] = { RM_COL_RMT_HIT, "rmt_hit", "RMT Load Hit", "RmtHit", 8, RM_FMT_COUNT },
	[RM_COL_RMT_HITM2] = { RM_COL_RMT_HITM2, "rmt_load_hitm", "RMT Load Hit", "RmtHitm", 7,
			       RM_FMT_COUNT },
	[RM_COL_DRAM_LCL] = { RM_COL_DRAM_LCL, "dram_lcl", "Load Dram", "Lcl", 8, RM_FMT_COUNT },
	[RM_COL_DRAM_RMT] = { RM_COL_DRAM_RMT, "dram_rmt", "Load Dram", "Rmt", 8, RM_FMT_COUNT },
	[RM_COL_CYC_RMT] = { RM_COL_CYC_RMT, "cyc_rmt_hitm", "cycles", "rmt hitm", 8, RM_FMT_MEAN,
			     "0" },
	[RM_COL_CYC_LCL] = { RM_COL_CYC_LCL, "cyc_lcl_hitm", "cycles", "lcl hitm", 8, RM_FMT_MEAN,
			     "0" },
	[RM_COL_CYC_LOAD] = { RM_COL_CYC_LOAD, "cyc_load", "cycles", "load", 8, RM_FMT_MEAN, "0" },
	[RM_COL_XFERS] = { RM_COL_XFERS, "transfers", "", "Xfers", 7, RM_FMT_COUNT },
	[RM_COL_XFALSE] = { RM_COL_XFALSE, "transfers_false", "", "XfFalse", 7, RM_FMT_COUNT },
	[RM_COL_INVAL] = { RM_COL_INVAL, "invalidations", "", "Inval", 7, RM_FMT_COUNT },
};

/* Kind- and mode-specific headers. */
static const struct rm_col pmu_share[] = {
	[CLTAB_DISPLAY_TOT] = { RM_COL_COST, "share", "Tot", "Hitm", 7, RM_FMT_PCT },
	[CLTAB_DISPLAY_RMT] = { RM_COL_COST, "share", "Rmt", "Hitm", 7, RM_FMT_PCT },
	[CLTAB_DISPLAY_LCL] = { RM_COL_COST, "share", "Lcl", "Hitm", 7, RM_FMT_PCT },
	[CLTAB_DISPLAY_PEER] = { RM_COL_COST, "share", "Peer", "Snoop", 7, RM_FMT_PCT },
};
static const struct rm_col peer_cols[] = {
	{ RM_COL_HITM, "peer", "Load Peer", "Total", 7, RM_FMT_COUNT },
	{ RM_COL_LCL_HITM, "lcl_peer", "Load Peer", "Local", 7, RM_FMT_COUNT },
	{ RM_COL_RMT_HITM, "rmt_peer", "Load Peer", "Remote", 7, RM_FMT_COUNT },
	{ RM_COL_CYC_RMT, "cyc_rmt_peer", "cycles", "rmt peer", 8, RM_FMT_MEAN, "0" },
	{ RM_COL_CYC_LCL, "cyc_lcl_peer", "cycles", "lcl peer", 8, RM_FMT_MEAN, "0" },
};
static const struct rm_col soft_share = { RM_COL_COST, "time", "", "Time%", 7, RM_FMT_PCT };
static const struct rm_col watch_share = { RM_COL_COST, "transfer_share", "", "Xfer%", 7,
					   RM_FMT_PCT };
static const struct rm_col watch_samples = { RM_COL_SAMPLES, "accesses", "", "Accesses", 8,
					     RM_FMT_COUNT };

const struct rm_col *rm_col(enum rm_kind k, enum cltab_display d, enum rm_col_id id)
{
	size_t i;

	if (id >= RM_COL__NR)
		return &cols[RM_COL_COST];
	if (id == RM_COL_COST)
		return k == RM_SOFT ? &soft_share : k == RM_WATCH ? &watch_share : &pmu_share[d];
	if (k == RM_WATCH && id == RM_COL_SAMPLES)
		return &watch_samples;
	if (k == RM_PMU && d == CLTAB_DISPLAY_PEER)
		for (i = 0; i < ARRAY_SIZE(peer_cols); i++)
			if (peer_cols[i].id == id)
				return &peer_cols[i];
	return &cols[id];
}

/* The PMU counts a row shows as shares of its line's (perf's Pareto), by display mode. */
static const struct rm_col pmu_row_share[][5] = {
	{
		{ RM_COL_RMT_HITM, "rmt_hitm", "HITM", "RmtHitm", 7, RM_FMT_LINE_PCT },
		{ RM_COL_LCL_HITM, "lcl_hitm", "HITM", "LclHitm", 7, RM_FMT_LINE_PCT },
		{ RM_COL_ST_L1HIT, "st_l1hit", "Store Refs", "L1 Hit", 7, RM_FMT_LINE_PCT },
		{ RM_COL_ST_L1MISS, "st_l1miss", "Store Refs", "L1 Miss", 7, RM_FMT_LINE_PCT },
		{ RM_COL_ST_NA, "st_na", "Store Refs", "N/A", 7, RM_FMT_LINE_PCT },
	}, {
		{ RM_COL_RMT_HITM, "rmt_peer", "Peer Snoop", "Rmt", 7, RM_FMT_LINE_PCT },
		{ RM_COL_LCL_HITM, "lcl_peer", "Peer Snoop", "Lcl", 7, RM_FMT_LINE_PCT },
		{ RM_COL_ST_L1HIT, "st_l1hit", "Store Refs", "L1 Hit", 7, RM_FMT_LINE_PCT },
		{ RM_COL_ST_L1MISS, "st_l1miss", "Store Refs", "L1 Miss", 7, RM_FMT_LINE_PCT },
		{ RM_COL_ST_NA, "st_na", "Store Refs", "N/A", 7, RM_FMT_LINE_PCT },
	},
};

const struct rm_col *rm_row_col(enum rm_kind k, enum cltab_display d, enum rm_col_id id)
{
	const struct rm_col *s = pmu_row_share[d == CLTAB_DISPLAY_PEER];
	size_t i;

	if (k == RM_PMU)
		for (i = 0; i < ARRAY_SIZE(pmu_row_share[0]); i++)
			if (s[i].id == id)
				return &s[i];
	return rm_col(k, d, id);
}

const struct rm_col *rm_model_col(const struct rm_model *m, enum rm_col_id id)
{
	return rm_col(m->kind, m->display, id);
}

const struct rm_col *rm_model_row_col(const struct rm_model *m, enum rm_col_id id)
{
	return rm_row_col(m->kind, m->display, id);
}

const char *rm_display_key(enum cltab_display d)
{
	static const char *const name[] = {
		[CLTAB_DISPLAY_TOT] = "tot", [CLTAB_DISPLAY_RMT] = "rmt",
		[CLTAB_DISPLAY_LCL] = "lcl", [CLTAB_DISPLAY_PEER] = "peer",
	};

	return (unsigned)d < ARRAY_SIZE(name) ? name[d] : "tot";
}

const char *rm_display_title(enum cltab_display d)
{
	static const char *const title[] = {
		[CLTAB_DISPLAY_TOT] = "Total HITMs", [CLTAB_DISPLAY_RMT] = "Remote HITMs",
		[CLTAB_DISPLAY_LCL] = "Local HITMs", [CLTAB_DISPLAY_PEER] = "Peer Snoop",
	};

	return (unsigned)d < ARRAY_SIZE(title) ? title[d] : title[0];
}

/* --- perf's tables ------------------------------------------------------------------------- */

/* A column of perf's tables: @id with perf's headers. */
static struct rm_col pc(enum rm_col_id id, enum rm_fmt fmt, const char *hdr0, int span,
			const char *hdr, int width)
{
	struct rm_col c = { .id = id, .fmt = fmt, .hdr0 = hdr0, .span = span, .hdr = hdr,
			    .width = width, .group = "" };

	c.key = id < RM_COL__NR ? cols[id].key : "";
	return c;
}

static size_t pmu_lines_table(const struct rm_model *m, const struct rm_layout *o,
			      struct rm_col *out)
{
	static const char *const share0[] = { "Tot", "Rmt", "Lcl", "Peer" };
	int peer = m->display == CLTAB_DISPLAY_PEER;
	size_t n = 0;

	out[n++] = pc(RM_COL_INDEX, RM_FMT_TEXT, NULL, 0, "Index", 5);
	out[n] = pc(RM_COL_ADDRESS, RM_FMT_TEXT, o->double_cl ? "Double-Cacheline" : "Cacheline",
		    2, "Address", 18);
	out[n++].banner = 1;
	out[n++] = pc(RM_COL_NODE, RM_FMT_TEXT, NULL, 0, "Node", 4);
	out[n++] = pc(RM_COL_PA_CNT, RM_FMT_COUNT, NULL, 0, "PA cnt", 6);
	out[n++] = pc(RM_COL_COST, RM_FMT_PCT, share0[m->display], 0,
		      peer ? "Snoop" : "Hitm", 7);
	out[n++] = pc(RM_COL_HITM, RM_FMT_COUNT, peer ? "------- Load Peer -------" :
		      "------- Load Hitm -------", 2, "Total", 7);
	out[n++] = pc(RM_COL_LCL_HITM, RM_FMT_COUNT, NULL, 0, peer ? "Local" : "LclHitm", 7);
	out[n++] = pc(RM_COL_RMT_HITM, RM_FMT_COUNT, NULL, 0, peer ? "Remote" : "RmtHitm", 7);
	out[n++] = pc(RM_COL_RECORDS, RM_FMT_COUNT, "Total", 0, "records", 7);
	out[n++] = pc(RM_COL_LOADS, RM_FMT_COUNT, "Total", 0, "Loads", 7);
	out[n++] = pc(RM_COL_STORES, RM_FMT_COUNT, "Total", 0, "Stores", 7);
	out[n++] = pc(RM_COL_ST_L1HIT, RM_FMT_COUNT, "--------- Stores --------", 2, "L1Hit", 7);
	out[n++] = pc(RM_COL_ST_L1MISS, RM_FMT_COUNT, NULL, 0, "L1Miss", 7);
	out[n++] = pc(RM_COL_ST_NA, RM_FMT_COUNT, NULL, 0, "N/A", 7);
	out[n++] = pc(RM_COL_LD_FB, RM_FMT_COUNT, "----- Core Load Hit -----", 2, "FB", 7);
	out[n++] = pc(RM_COL_LD_L1, RM_FMT_COUNT, NULL, 0, "L1", 7);
	out[n++] = pc(RM_COL_LD_L2, RM_FMT_COUNT, NULL, 0, "L2", 7);
	out[n++] = pc(RM_COL_LLC_HIT, RM_FMT_COUNT, "- LLC Load Hit --", 1, "LclHit", 8);
	out[n++] = pc(RM_COL_LLC_HITM, RM_FMT_COUNT, NULL, 0, "LclHitm", 7);
	out[n++] = pc(RM_COL_RMT_HIT, RM_FMT_COUNT, "- RMT Load Hit --", 1, "RmtHit", 8);
	out[n++] = pc(RM_COL_RMT_HITM2, RM_FMT_COUNT, NULL, 0, "RmtHitm", 7);
	out[n++] = pc(RM_COL_DRAM_LCL, RM_FMT_COUNT, "--- Load Dram ----", 1, "Lcl", 8);
	out[n++] = pc(RM_COL_DRAM_RMT, RM_FMT_COUNT, NULL, 0, "Rmt", 8);
	return n;
}

static int coalesced_by(const struct rm_model *m, enum cltab_coalesce k)
{
	int i;

	for (i = 0; i < m->nr_coalesce; i++)
		if (m->coalesce[i] == k)
			return 1;
	return 0;
}

/* A column fitted to its cells, left-aligned, capped at @cap. */
static struct rm_col fitted(struct rm_col c, enum rm_fit fit, int cap)
{
	c.align = RM_LEFT;
	c.fit = fit;
	c.cap = cap;
	return c;
}

#define PERF_SYMBOL_WIDTH 30   /* perf c2c's cap on symbols and source lines */

static size_t pmu_rows_table(const struct rm_model *m, const struct rm_layout *o,
			     struct rm_col *out)
{
	int peer = m->display == CLTAB_DISPLAY_PEER, iaddr = coalesced_by(m, CLTAB_CO_IADDR);
	static const char *const node_hdr[][2] = {
		{ "Node", "Node" }, { "Node{cpus %hitms %stores}", "Node{cpus %peers %stores}" },
		{ "Node{cpu list}", "Node{cpu list}" },
	};
	int lvl = o->node_info < 0 ? 0 : o->node_info > 2 ? 2 : o->node_info;
	size_t n = 0, i;

	out[n++] = pc(RM_COL_BLANK, RM_FMT_TEXT, NULL, 0, "Num", 5);
	for (i = 0; i < ARRAY_SIZE(pmu_row_share[0]); i++) {
		out[n] = pmu_row_share[peer][i];
		out[n].hdr0 = i == 0 ? (peer ? "-- Peer Snoop --" : "----- HITM -----") :
			      i == 2 ? "------- Store Refs ------" : NULL;
		out[n++].span = i == 0 ? 1 : i == 2 ? 2 : 0;
	}
	out[n] = pc(RM_COL_OFFSET, RM_FMT_TEXT, "Data address", 2, "Offset", 18);
	out[n++].banner = 1;
	out[n] = pc(RM_COL_NODE, RM_FMT_TEXT, NULL, 0, "Node", 4);
	out[n++].fit = RM_FIT_MODEL;
	out[n++] = pc(RM_COL_PA_CNT, RM_FMT_COUNT, NULL, 0, "PA cnt", 6);
	if (coalesced_by(m, CLTAB_CO_PID))
		out[n++] = pc(RM_COL_PID, RM_FMT_TEXT, NULL, 0, "Pid", 7);
	if (coalesced_by(m, CLTAB_CO_TID))
		out[n++] = fitted(pc(RM_COL_TID, RM_FMT_TEXT, NULL, 0, "Tid", 8), RM_FIT_LINE, 0);
	if (iaddr)
		out[n++] = pc(RM_COL_CODE, RM_FMT_TEXT, NULL, 0, "Code address", 18);
	out[n++] = pc(RM_COL_CYC_RMT, RM_FMT_CYCLES, "---------- cycles ----------", 2,
		      peer ? "rmt peer" : "rmt hitm", 8);
	out[n++] = pc(RM_COL_CYC_LCL, RM_FMT_CYCLES, NULL, 0, peer ? "lcl peer" : "lcl hitm", 8);
	out[n++] = pc(RM_COL_CYC_LOAD, RM_FMT_CYCLES, NULL, 0, "load", 8);
	out[n++] = pc(RM_COL_RECORDS, RM_FMT_COUNT, "Total", 0, "records", 7);
	out[n++] = pc(RM_COL_CPUS, RM_FMT_COUNT, "cpu", 0, "cnt", 8);
	if (iaddr)
		out[n++] = fitted(pc(RM_COL_SYMBOL, RM_FMT_TEXT, NULL, 0, "Symbol", 0), RM_FIT_LINE,
				  PERF_SYMBOL_WIDTH);
	if (iaddr || coalesced_by(m, CLTAB_CO_DSO))
		out[n++] = fitted(pc(RM_COL_DSO, RM_FMT_TEXT, "Shared", 0, "Object", 0),
				  RM_FIT_LINE, 0);
	if (iaddr && !o->no_source)
		out[n++] = fitted(pc(RM_COL_SRCLINE, RM_FMT_TEXT, NULL, 0, "Source:Line", 11),
				  RM_FIT_LINE, PERF_SYMBOL_WIDTH);
	out[n] = pc(RM_COL_CPUNODE0 + lvl, RM_FMT_TEXT, NULL, 0, node_hdr[lvl][peer], 4);
	out[n++].align = RM_LEFT;
	return n;
}

size_t rm_pmu_table(const struct rm_model *m, enum rm_table t, const struct rm_layout *o,
		    struct rm_col *out)
{
	return t == RM_TBL_LINES ? pmu_lines_table(m, o, out) : pmu_rows_table(m, o, out);
}

/* --- cells --------------------------------------------------------------------------------- */

double rm_pct(double part, double whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* An appender into a fixed buffer: what does not fit is cut. */
struct tbuf {
	char *s;
	size_t n, len;
};

static void __attribute__((format(printf, 2, 3))) tb_addf(struct tbuf *b, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (b->len + 1 >= b->n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(b->s + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		b->len = b->len + (size_t)w < b->n ? b->len + (size_t)w : b->n - 1;
}

static void range_add(struct tbuf *b, const uint64_t *set, uint32_t nbits)
{
	uint32_t i = 0, j;
	int first = 1;

	while (i < nbits) {
		if (!(set[i / 64] >> (i % 64) & 1)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < nbits && (set[(j + 1) / 64] >> ((j + 1) % 64) & 1); j++)
			;
		tb_addf(b, j > i ? "%s%u-%u" : "%s%u", first ? "" : ",", i, j);
		first = 0;
		i = j + 1;
	}
}

void rm_range_text(const uint64_t *set, uint32_t nbits, char *buf, size_t n)
{
	struct tbuf b = { buf, n, 0 };

	if (!n)
		return;
	buf[0] = '\0';
	range_add(&b, set, nbits);
}

/* The memory nodes of @set as perf lists them, "N/A" for none. */
static void nodes_text(const struct rm_model *m, const uint64_t *set, char *buf, size_t n)
{
	uint32_t bits = m->nr_nodes < m->nr_node_bits ? m->nr_nodes : m->nr_node_bits;

	buf[0] = '\0';
	if (set)
		rm_range_text(set, bits, buf, n);
	if (!buf[0])
		snprintf(buf, n, "N/A");
}

static uint32_t metric(enum cltab_display d, const struct dsrc_stats *s)
{
	return cltab_metric(d, s);
}

#define CPUSET_MAX (64 * 64)   /* the CPUs perf's Pareto lists (a row's CPU bitmap) */

/* The CPU-node cell at -N level @lvl (c2c-semantics.md §4.4): per node the row ran on, its
 * number; with -N its CPUs and its shares of the row's metric and stores; with -NN its CPUs. */
static void cpunode_text(const struct rm_model *m, const struct rm_row *r, int lvl, char *buf,
			 size_t n)
{
	struct tbuf b = { buf, n, 0 };
	uint32_t node, c, ncpu = m->nr_cpus < CPUSET_MAX ? m->nr_cpus : CPUSET_MAX;
	int printed = 0;

	buf[0] = '\0';
	for (node = 0; r->cpuset && m->cpu_node && node < m->nr_nodes; node++) {
		uint64_t set[CPUSET_MAX / 64] = { 0 };
		uint32_t cnt = 0;

		for (c = 0; c < ncpu; c++) {
			if (m->cpu_node[c] == (int32_t)node && (r->cpuset[c / 64] >> (c % 64) & 1)) {
				set[c / 64] |= 1ULL << (c % 64);
				cnt++;
			}
		}
		if (!cnt) {
			if (lvl == 1)
				tb_addf(&b, "%21s", "");
			continue;
		}
		if (printed++)
			tb_addf(&b, " ");
		if (lvl == 0) {
			tb_addf(&b, "%2d", (int)node);
		} else if (lvl == 1) {
			const struct dsrc_stats *ns = r->node_stats ? &r->node_stats[node] : NULL;
			double mt = r->v[RM_COL_COST], st = r->v[RM_COL_STORES];

			tb_addf(&b, "%2d{%2d ", (int)node, (int)cnt);
			if (mt && ns)
				tb_addf(&b, "%5.1f%% ", 100. * metric(m->display, ns) / mt);
			else
				tb_addf(&b, "%6s ", "n/a");
			if (st != 0 && ns)
				tb_addf(&b, "%5.1f%%}", 100. * (double)ns->store / st);
			else
				tb_addf(&b, "%6s}", "n/a");
		} else {
			tb_addf(&b, "%2d{", (int)node);
			range_add(&b, set, ncpu);
			tb_addf(&b, "}");
		}
	}
}

/* perf 6.1 takes Source:Line from addr2line, whose answer the symbols session gives
 * (report/resolve/symbols.h): "file:line"; "FILE:0" when addr2line names a file but no line
 * (the STT_FILE file of a local function without DWARF: crtstuff.c); "??:0" when it names the
 * function but no file (srcfile "??"). perf prints symbol+offset when it cannot ask addr2line
 * (DSO names in brackets: [kernel.kallsyms], modules) or when addr2line finds nothing at the
 * address (srcfile NULL): the PLT, where perf shows the "name@plt" entries it synthesizes or
 * the size-0 _init it stretched over the PLT (docs/perf-differences.md, "Symbols with real
 * binaries"). */
void rm_srcline(const struct rm_row *r, char *buf, size_t n)
{
	const struct rm_code *c = &r->code;
	int by_offset = !c->dso || c->dso_bracketed || !c->srcfile;
	const char *base = c->srcfile ? strrchr(c->srcfile, '/') : NULL;
	const char *file = base ? base + 1 : c->srcfile;

	if (c->symbol && c->srcfile && (c->line || !by_offset))
		snprintf(buf, n, "%s:%u", file, c->line);
	else if (c->symbol)
		snprintf(buf, n, "%s+%llu", c->symbol, (unsigned long long)c->sym_offset);
	else if (c->dso && c->srcfile && !c->dso_bracketed)
		/* no symbol, but addr2line answers there: a line, or "??:0" / "FILE:0" */
		snprintf(buf, n, "%s:%u", file, c->line);
	else if (c->dso)
		snprintf(buf, n, "%s[%llx]", c->dso, (unsigned long long)c->al);
	else
		snprintf(buf, n, "??:0");
}

char rm_code_level(const struct rm_code *c)
{
	return maps_level_char(c->cpumode);
}

static void symbol_text(const struct rm_row *r, char *buf, size_t n)
{
	char lvl = rm_code_level(&r->code);

	if (r->code.symbol)
		snprintf(buf, n, "[%c] %s", lvl, r->code.symbol);
	else if (r->code.al)
		snprintf(buf, n, "[%c] %#-.*llx", lvl, 16, (unsigned long long)r->code.al);
	else
		snprintf(buf, n, "[%c] %-.*llx", lvl, 16, 0ULL);
}

/* A text column's cell; 0, or -1 when @id is not one. */
static int text_cell(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
		     enum rm_col_id id, char *buf, size_t n)
{
	const struct maps_thread *t = r ? r->thread : NULL;

	if (n < 32)
		return buf[0] = '\0', 0;
	switch (id) {
	case RM_COL_NODE: nodes_text(m, r ? r->nodeset : l->nodeset, buf, n); break;
	case RM_COL_BLANK: buf[0] = '\0'; break;
	case RM_COL_INDEX: numfmt_u64(buf, l->index); break;
	case RM_COL_ADDRESS: numfmt_hex(buf, l->addr); break;
	case RM_COL_OFFSET: numfmt_hex(buf, r ? r->disp_offset : 0); break;
	case RM_COL_CODE: numfmt_hex(buf, r ? r->code.ip : 0); break;
	case RM_COL_PID: snprintf(buf, n, "%d", t ? t->pid : -1); break;
	case RM_COL_TID: snprintf(buf, n, "%7d:%s", t ? t->tid : -1, t ? t->comm : ""); break;
	case RM_COL_SYMBOL: r ? symbol_text(r, buf, n) : (void)(buf[0] = '\0'); break;
	case RM_COL_DSO: snprintf(buf, n, "%s", r && r->code.dso ? r->code.dso : "[unknown]");
		break;
	case RM_COL_SRCLINE: r ? rm_srcline(r, buf, n) : (void)(buf[0] = '\0'); break;
	case RM_COL_CPUNODE0: case RM_COL_CPUNODE1: case RM_COL_CPUNODE2:
		if (r)
			cpunode_text(m, r, (int)(id - RM_COL_CPUNODE0), buf, n);
		else
			buf[0] = '\0';
		break;
	default:
		return -1;
	}
	return 0;
}

/* A value as "%.0f" prints it, without the format machinery where it is a count. */
static void count_text(double v, char *buf, size_t n)
{
	if (v >= 0 && v < 9007199254740992.0 && v == floor(v))
		numfmt_u64(buf, (uint64_t)v);
	else
		snprintf(buf, n, "%.0f", v);
}

static void pct_text(double v, char *buf, size_t n)
{
	if (v >= 0 && v < 9007199254740992.0)
		numfmt_pct2(buf, v);
	else
		snprintf(buf, n, "%.2f%%", v);
}

void rm_cell_col(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
		 const struct rm_col *c, char *buf, size_t n)
{
	double v;

	if (!n)
		return;
	if (c->id >= RM_COL__NR || c->fmt == RM_FMT_TEXT) {
		if (text_cell(m, l, r, c->id, buf, n))
			snprintf(buf, n, "-");
		return;
	}
	if (n < 32) {
		buf[0] = '\0';
		return;
	}
	v = r ? r->v[c->id] : l->v[c->id];
	switch (c->fmt) {
	case RM_FMT_PCT:
		pct_text(v, buf, n);
		break;
	case RM_FMT_LINE_PCT:
		pct_text(r ? rm_pct(v, l->v[c->id]) : 100.0 * (v != 0), buf, n);
		break;
	case RM_FMT_CYCLES:
		/* "%6.0f" into perf's buffer of 10: a mean of more than 9 digits is cut there */
		numfmt_f0w6(buf, isnan(v) || v < 0 ? 0. : v);
		buf[9] = '\0';
		break;
	case RM_FMT_MEAN:
		if (isnan(v))
			snprintf(buf, n, "%s", c->na ? c->na : "-");
		else
			count_text(v, buf, n);
		break;
	case RM_FMT_COUNT:
	default:
		if (isnan(v))
			snprintf(buf, n, "%s", c->na ? c->na : "-");
		else
			count_text(v, buf, n);
	}
}

void rm_cell(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
	     enum rm_col_id id, char *buf, size_t n)
{
	const struct rm_col *c = r ? rm_model_row_col(m, id) : rm_model_col(m, id);
	struct rm_col t;

	if (id >= RM_COL__NR) {
		t = *c;
		t.id = id;
		t.fmt = RM_FMT_TEXT;
		c = &t;
	}
	rm_cell_col(m, l, r, c, buf, n);
}

int rm_cell_claim(const struct rm_model *m, const struct rm_line *l, const struct rm_row *r,
		  const struct rm_col *c)
{
	char buf[512];
	int w;

	if (r && c->id == RM_COL_SYMBOL)
		return r->code.symbol ? (int)strlen(r->code.symbol) + 4 : 22;
	if (r && c->id == RM_COL_DSO) {
		w = r->code.dso ? (int)strlen(r->code.dso) : 0;
		return !r->code.symbol && w < 16 ? 16 : w;
	}
	if (r && c->id == RM_COL_TID)
		return (r->thread && r->thread->comm ? (int)strlen(r->thread->comm) : 0) + 8;
	rm_cell_col(m, l, r, c, buf, sizeof(buf));
	return (int)strlen(buf);
}
