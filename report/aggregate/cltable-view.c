/* Re-filtering and re-ordering a finished cacheline table (see report/aggregate/cltable-view.h). Every
 * comparator ends on the line key and then the table's own order, so results are deterministic and
 * independent of the sort algorithm. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/aggregate/cltable-view.h"

#define CLTV_DISPLAY_LIMIT 0.001  /* perf's DISPLAY_LINE_LIMIT */

static const struct cltv_col_desc cltv_cols[CLTV_COL__NR] = {
	[CLTV_COL_INDEX] = { "", "Index", 5 },
	[CLTV_COL_ADDRESS] = { "Cacheline", "Address", 18 },
	[CLTV_COL_NODE] = { "Cacheline", "Node", 4 },
	[CLTV_COL_PA_CNT] = { "Cacheline", "PA cnt", 6 },
	[CLTV_COL_SHARE] = { "Tot", "Hitm", 7 },
	[CLTV_COL_LD_TOTAL] = { "Load Hitm", "Total", 7 },
	[CLTV_COL_LD_LCL] = { "Load Hitm", "LclHitm", 7 },
	[CLTV_COL_LD_RMT] = { "Load Hitm", "RmtHitm", 7 },
	[CLTV_COL_RECORDS] = { "Total", "records", 7 },
	[CLTV_COL_LOADS] = { "Total", "Loads", 7 },
	[CLTV_COL_STORES] = { "Total", "Stores", 7 },
	[CLTV_COL_ST_L1HIT] = { "Stores", "L1Hit", 7 },
	[CLTV_COL_ST_L1MISS] = { "Stores", "L1Miss", 7 },
	[CLTV_COL_ST_NA] = { "Stores", "N/A", 7 },
	[CLTV_COL_FB] = { "Core Load Hit", "FB", 7 },
	[CLTV_COL_L1] = { "Core Load Hit", "L1", 7 },
	[CLTV_COL_L2] = { "Core Load Hit", "L2", 7 },
	[CLTV_COL_LLC_HIT] = { "LLC Load Hit", "LclHit", 8 },
	[CLTV_COL_LLC_HITM] = { "LLC Load Hit", "LclHitm", 7 },
	[CLTV_COL_RMT_HIT] = { "RMT Load Hit", "RmtHit", 8 },
	[CLTV_COL_RMT_HITM] = { "RMT Load Hit", "RmtHitm", 7 },
	[CLTV_COL_DRAM_LCL] = { "Load Dram", "Lcl", 8 },
	[CLTV_COL_DRAM_RMT] = { "Load Dram", "Rmt", 8 },
};

/* Peer mode renames the share column and the Load Hitm group (§4.1). */
static const struct cltv_col_desc cltv_peer_cols[] = {
	[CLTV_COL_SHARE] = { "Peer", "Snoop", 7 },
	[CLTV_COL_LD_TOTAL] = { "Load Peer", "Total", 7 },
	[CLTV_COL_LD_LCL] = { "Load Peer", "Local", 7 },
	[CLTV_COL_LD_RMT] = { "Load Peer", "Remote", 7 },
};

static const struct cltv_col_desc cltv_share_cols[] = {
	[CLTAB_DISPLAY_TOT] = { "Tot", "Hitm", 7 },
	[CLTAB_DISPLAY_RMT] = { "Rmt", "Hitm", 7 },
	[CLTAB_DISPLAY_LCL] = { "Lcl", "Hitm", 7 },
	[CLTAB_DISPLAY_PEER] = { "Peer", "Snoop", 7 },
};

const struct cltv_col_desc *cltv_col(enum cltv_col c, enum cltab_display d)
{
	if (c == CLTV_COL_SHARE)
		return &cltv_share_cols[d];
	if (d == CLTAB_DISPLAY_PEER && c >= CLTV_COL_LD_TOTAL && c <= CLTV_COL_LD_RMT)
		return &cltv_peer_cols[c];
	return &cltv_cols[c];
}

const char *cltv_display_title(enum cltab_display d)
{
	static const char *const title[] = {
		[CLTAB_DISPLAY_TOT] = "Total HITMs", [CLTAB_DISPLAY_RMT] = "Remote HITMs",
		[CLTAB_DISPLAY_LCL] = "Local HITMs", [CLTAB_DISPLAY_PEER] = "Peer Snoop",
	};

	return title[d];
}

const char *cltv_display_name(enum cltab_display d)
{
	static const char *const name[] = {
		[CLTAB_DISPLAY_TOT] = "tot", [CLTAB_DISPLAY_RMT] = "rmt",
		[CLTAB_DISPLAY_LCL] = "lcl", [CLTAB_DISPLAY_PEER] = "peer",
	};

	return name[d];
}

double cltv_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static uint64_t cltv_lowest_node(const struct cltab *t, const uint64_t *set)
{
	uint32_t i, n = cltab_opts(t)->nr_nodes;

	for (i = 0; i < n && i < cltab_nr_node_bits(t); i++)
		if (set[i / 64] & (1ULL << (i % 64)))
			return i;
	return UINT64_MAX;
}

uint64_t cltv_line_value(const struct cltab *t, const struct cltab_line *l, enum cltv_col c,
			 enum cltab_display d)
{
	const struct dsrc_stats *s = &l->stats;
	int peer = d == CLTAB_DISPLAY_PEER;

	switch (c) {
	case CLTV_COL_INDEX: return l->index;
	case CLTV_COL_ADDRESS: return l->addr;
	case CLTV_COL_NODE: return cltv_lowest_node(t, l->nodeset);
	case CLTV_COL_PA_CNT: return l->paddr_cnt;
	case CLTV_COL_SHARE: return cltab_metric(d, s);
	case CLTV_COL_LD_TOTAL: return peer ? s->tot_peer : (uint64_t)s->lcl_hitm + s->rmt_hitm;
	case CLTV_COL_LD_LCL: return peer ? s->lcl_peer : s->lcl_hitm;
	case CLTV_COL_LD_RMT: return peer ? s->rmt_peer : s->rmt_hitm;
	case CLTV_COL_RECORDS: return dsrc_total_records(s);
	case CLTV_COL_LOADS: return dsrc_total_loads(s);
	case CLTV_COL_STORES: return s->store;
	case CLTV_COL_ST_L1HIT: return s->st_l1hit;
	case CLTV_COL_ST_L1MISS: return s->st_l1miss;
	case CLTV_COL_ST_NA: return s->st_na;
	case CLTV_COL_FB: return s->ld_fbhit;
	case CLTV_COL_L1: return s->ld_l1hit;
	case CLTV_COL_L2: return s->ld_l2hit;
	case CLTV_COL_LLC_HIT: return s->ld_llchit;
	case CLTV_COL_LLC_HITM: return s->lcl_hitm;
	case CLTV_COL_RMT_HIT: return s->rmt_hit;
	case CLTV_COL_RMT_HITM: return s->rmt_hitm;
	case CLTV_COL_DRAM_LCL: return s->lcl_dram;
	case CLTV_COL_DRAM_RMT: return s->rmt_dram;
	case CLTV_COL__NR: break;
	}
	return 0;
}

void cltv_nodes_str(const struct cltab *t, const uint64_t *set, char *buf, size_t size)
{
	uint32_t i, n = cltab_opts(t)->nr_nodes, bits = cltab_nr_node_bits(t);
	size_t len = 0;
	int first = 1;

	if (n > bits)
		n = bits;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		uint32_t j = i;
		int w;

		if (!(set[i / 64] & (1ULL << (i % 64))))
			continue;
		while (j + 1 < n && (set[(j + 1) / 64] & (1ULL << ((j + 1) % 64))))
			j++;
		w = j > i ? snprintf(buf + len, size - len, "%s%u-%u", first ? "" : ",", i, j)
			  : snprintf(buf + len, size - len, "%s%u", first ? "" : ",", i);
		if (w < 0 || (size_t)w >= size - len)
			return;
		len += (size_t)w;
		first = 0;
		i = j;
	}
	if (first)
		snprintf(buf, size, "N/A");
}

/* perf's dcacheline order (§5.2), from the line's public key fields. */
static int cltv_key_cmp(const struct cltab_line *a, const struct cltab_line *b)
{
	const struct maps_dso *da, *db;

	if (a->cpumode != b->cpumode)
		return (a->cpumode > b->cpumode) - (a->cpumode < b->cpumode);
	if (!a->dmap != !b->dmap)
		return a->dmap ? -1 : 1;
	if (a->dmap) {
		da = a->dmap->dso;
		db = b->dmap->dso;
		if (da->maj != db->maj)
			return (da->maj > db->maj) - (da->maj < db->maj);
		if (da->min != db->min)
			return (da->min > db->min) - (da->min < db->min);
		if (da->ino != db->ino)
			return (da->ino > db->ino) - (da->ino < db->ino);
		if (da->ino_generation != db->ino_generation)
			return (da->ino_generation > db->ino_generation) -
			       (da->ino_generation < db->ino_generation);
		if (maps_is_anon_private(a->dmap, a->cpumode) && a->key_pid != b->key_pid)
			return (a->key_pid > b->key_pid) - (a->key_pid < b->key_pid);
	}
	if (a->cl != b->cl)
		return (a->cl > b->cl) - (a->cl < b->cl);
	return (a->index > b->index) - (a->index < b->index);
}

static int cltv_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

struct cltv_sort_arg {
	const struct cltab *t;
	enum cltv_col col;
	enum cltab_display d;
};

static int cltv_line_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltab_line *a = *(struct cltab_line *const *)pa;
	const struct cltab_line *b = *(struct cltab_line *const *)pb;
	const struct cltv_sort_arg *s = arg;
	uint64_t va = cltv_line_value(s->t, a, s->col, s->d);
	uint64_t vb = cltv_line_value(s->t, b, s->col, s->d);
	int c;

	if (s->col == CLTV_COL_ADDRESS || s->col == CLTV_COL_INDEX || s->col == CLTV_COL_NODE)
		c = (va > vb) - (va < vb);
	else
		c = cltv_desc(va, vb);
	if (!c)
		c = cltv_desc(cltab_metric(s->d, &a->stats), cltab_metric(s->d, &b->stats));
	return c ? c : cltv_key_cmp(a, b);
}

void cltv_sort(const struct cltab *t, struct cltab_line **line, size_t nr, enum cltv_col c,
	       enum cltab_display d)
{
	struct cltv_sort_arg arg = { .t = t, .col = c, .d = d };

	qsort_r(line, nr, sizeof(*line), cltv_line_cmp, &arg);
}

size_t cltv_filter(const struct cltab *t, enum cltab_display d, struct cltab_line **out)
{
	struct cltab_line *const *all;
	size_t nr_all, i, n = 0;
	uint32_t tot = cltab_metric(d, cltab_shared(t));

	all = cltab_lines(t, &nr_all);
	if (!tot)
		return 0;
	for (i = 0; i < nr_all; i++)
		if ((double)cltab_metric(d, &all[i]->stats) / tot >= CLTV_DISPLAY_LIMIT)
			out[n++] = all[i];
	cltv_sort(t, out, n, CLTV_COL_SHARE, d);
	return n;
}

int cltv_offset_visible(const struct cltab_offset *o, enum cltab_display d)
{
	return o->stats.store || cltab_metric(d, &o->stats);
}

struct cltv_off_arg {
	const struct cltab_opts *op;
	const struct cltab_line *l;
	enum cltab_display d;
};

static int cltv_off_cmp(const void *pa, const void *pb, void *arg)
{
	const struct cltv_off_arg *s = arg;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct cltab_offset *a = s->l->off[ia], *b = s->l->off[ib];
	int c = cltab_offset_order(s->op, s->d, a, b);

	/* the table's own order of equal keys */
	return c ? c : (ia > ib) - (ia < ib);
}

size_t cltv_offsets(const struct cltab *t, const struct cltab_line *l, enum cltab_display d,
		    uint32_t *out)
{
	struct cltv_off_arg arg = { .op = cltab_opts(t), .l = l, .d = d };
	size_t i, n = 0;

	for (i = 0; i < l->nr_off; i++)
		if (cltv_offset_visible(l->off[i], d))
			out[n++] = (uint32_t)i;
	qsort_r(out, n, sizeof(*out), cltv_off_cmp, &arg);
	return n;
}
