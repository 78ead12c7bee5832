/* Callchains of table rows and perf's callchain tree (see report/aggregate/callers.h).
 *
 * The dictionary: frames of every distinct chain back to back in one growing array, a chain
 * being (offset, length, hash), found through an open-addressing table. Row counts: a second
 * table keyed by (row, chain); callers_of_row() sorts it once into a row-ordered array. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "report/aggregate/callers.h"

struct chain_rec {
	uint64_t hash;
	uint32_t off, nr;
};

struct pair {
	uint64_t key;                 /* row << 32 | chain; 0: empty slot */
	uint32_t n;
};

struct callers {
	struct callers_frame *frames;
	size_t nr_frames, cap_frames;
	struct chain_rec *chains;     /* [0] unused: ids start at 1 */
	size_t nr_chains, cap_chains;
	uint32_t *slot;               /* chain id, 0: empty */
	size_t cap_slot;
	struct pair *pairs;
	size_t nr_pairs, cap_pairs;
	struct callers_use *uses;     /* after the first callers_of_row(): sorted by row */
	uint32_t *use_row;
	size_t nr_uses;
};

struct callers *callers_new(void)
{
	struct callers *c = xcalloc(1, sizeof(*c));

	c->nr_chains = 1;
	c->chains = xgrow(NULL, &c->cap_chains, 1, sizeof(*c->chains));
	return c;
}

void callers_free(struct callers *c)
{
	if (!c)
		return;
	free(c->frames);
	free(c->chains);
	free(c->slot);
	free(c->pairs);
	free(c->uses);
	free(c->use_row);
	free(c);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t frames_hash(const struct callers_frame *f, uint32_t nr)
{
	uint64_t h = nr;

	for (uint32_t i = 0; i < nr; i++)
		h = mix(mix(h, f[i].ip), (uint64_t)(uintptr_t)f[i].map ^ f[i].cpumode);
	return h ^ h >> 29;
}

static int frames_eq(const struct callers_frame *a, const struct callers_frame *b, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		if (a[i].ip != b[i].ip || a[i].map != b[i].map || a[i].cpumode != b[i].cpumode)
			return 0;
	return 1;
}

static void grow_slots(struct callers *c)
{
	size_t cap = c->cap_slot ? c->cap_slot * 2 : 1024;
	uint32_t *slot = xcalloc(cap, sizeof(*slot));

	for (size_t id = 1; id < c->nr_chains; id++) {
		size_t j = c->chains[id].hash & (cap - 1);

		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = (uint32_t)id;
	}
	free(c->slot);
	c->slot = slot;
	c->cap_slot = cap;
}

uint32_t callers_intern(struct callers *c, const struct callers_frame *f, uint32_t nr)
{
	uint64_t h;
	size_t j;

	if (!nr)
		return 0;
	if ((c->nr_chains + 1) * 2 > c->cap_slot)
		grow_slots(c);
	h = frames_hash(f, nr);
	for (j = h & (c->cap_slot - 1); c->slot[j]; j = (j + 1) & (c->cap_slot - 1)) {
		const struct chain_rec *r = &c->chains[c->slot[j]];

		if (r->hash == h && r->nr == nr && frames_eq(c->frames + r->off, f, nr))
			return c->slot[j];
	}
	c->frames = xgrow(c->frames, &c->cap_frames, c->nr_frames + nr, sizeof(*c->frames));
	memcpy(c->frames + c->nr_frames, f, nr * sizeof(*f));
	for (uint32_t i = 0; i < nr; i++)
		c->frames[c->nr_frames + i].resolved = 0;
	c->chains = xgrow(c->chains, &c->cap_chains, c->nr_chains + 1, sizeof(*c->chains));
	c->chains[c->nr_chains] = (struct chain_rec){ h, (uint32_t)c->nr_frames, nr };
	c->nr_frames += nr;
	c->slot[j] = (uint32_t)c->nr_chains;
	return (uint32_t)c->nr_chains++;
}

uint32_t callers_frames(const uint64_t *chain, uint32_t nr, callers_find_fn find, void *ctx,
			struct callers_frame *out)
{
	uint8_t mode = 2;   /* PERF_RECORD_MISC_USER */
	uint32_t n = 0;

	for (uint32_t i = 0; i < nr && n < CALLERS_MAX_STACK; i++) {
		uint64_t ip = chain[i];

		if (ip >= TRACE_CHAIN_CONTEXT_MIN) {
			if (ip == TRACE_CHAIN_CONTEXT_KERNEL)
				mode = 1;
			else if (ip == TRACE_CHAIN_CONTEXT_USER)
				mode = 2;
			else if (ip == (uint64_t)-32)   /* PERF_CONTEXT_HV */
				mode = 3;
			else
				return 0;   /* perf discards a chain with another marker */
			continue;
		}
		struct maps_loc loc = { NULL, ip };

		if (find)
			find(ctx, mode, ip, &loc);
		out[n++] = (struct callers_frame){ .ip = ip, .cpumode = mode, .map = loc.map,
						   .al = loc.al_addr };
	}
	return n;
}

struct find_ctx {
	const struct maps *maps;
	const struct maps_thread *th;
};

static void find_in_maps(void *ctx, uint8_t cpumode, uint64_t ip, struct maps_loc *loc)
{
	const struct find_ctx *x = ctx;

	maps_find(x->maps, x->th, cpumode, ip, loc);
}

uint32_t callers_intern_sample(struct callers *c, const struct maps *maps,
			       const struct maps_thread *th, const uint64_t *chain, uint32_t nr)
{
	struct callers_frame f[CALLERS_MAX_STACK];
	struct find_ctx x = { maps, th };

	return callers_intern(c, f, callers_frames(chain, nr, find_in_maps, &x, f));
}

/* --- row counts ------------------------------------------------------------------------------ */

static size_t pair_home(uint64_t key, size_t cap)
{
	return (size_t)(mix(0, key) >> 7) & (cap - 1);
}

static void grow_pairs(struct callers *c)
{
	size_t cap = c->cap_pairs ? c->cap_pairs * 2 : 1024;
	struct pair *p = xcalloc(cap, sizeof(*p));

	for (size_t i = 0; i < c->cap_pairs; i++) {
		size_t j;

		if (!c->pairs[i].key)
			continue;
		for (j = pair_home(c->pairs[i].key, cap); p[j].key; j = (j + 1) & (cap - 1))
			;
		p[j] = c->pairs[i];
	}
	free(c->pairs);
	c->pairs = p;
	c->cap_pairs = cap;
}

void callers_count(struct callers *c, uint32_t row, uint32_t id)
{
	uint64_t key = (uint64_t)row << 32 | id;
	size_t j;

	if (!id || c->uses)
		return;
	if ((c->nr_pairs + 1) * 2 > c->cap_pairs)
		grow_pairs(c);
	for (j = pair_home(key, c->cap_pairs); c->pairs[j].key; j = (j + 1) & (c->cap_pairs - 1))
		if (c->pairs[j].key == key) {
			c->pairs[j].n++;
			return;
		}
	c->pairs[j] = (struct pair){ key, 1 };
	c->nr_pairs++;
}

static int pair_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct pair *)a)->key, y = ((const struct pair *)b)->key;

	return (x > y) - (x < y);
}

static void index_rows(struct callers *c)
{
	size_t k = 0;

	c->uses = xcalloc(c->nr_pairs + 1, sizeof(*c->uses));
	c->use_row = xcalloc(c->nr_pairs + 1, sizeof(*c->use_row));
	for (size_t i = 0; i < c->cap_pairs; i++)
		if (c->pairs[i].key)
			c->pairs[k++] = c->pairs[i];
	if (k)   /* no qsort of a NULL array, even empty */
		qsort(c->pairs, k, sizeof(*c->pairs), pair_cmp);
	for (size_t i = 0; i < k; i++) {
		c->use_row[i] = (uint32_t)(c->pairs[i].key >> 32);
		c->uses[i] = (struct callers_use){ (uint32_t)c->pairs[i].key, c->pairs[i].n };
	}
	c->nr_uses = k;
	free(c->pairs);
	c->pairs = NULL;
	c->cap_pairs = c->nr_pairs = 0;
}

size_t callers_of_row(struct callers *c, uint32_t row, const struct callers_use **out)
{
	size_t lo = 0, hi, first;

	if (!c->uses)
		index_rows(c);
	hi = c->nr_uses;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->use_row[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < c->nr_uses && c->use_row[lo] == row)
		lo++;
	*out = c->uses + first;
	return lo - first;
}

void callers_resolve(struct callers *c, uint32_t id, callers_sym_fn fn, void *ctx)
{
	struct callers_frame *f;

	if (!id || id >= c->nr_chains)
		return;
	f = c->frames + c->chains[id].off;
	for (uint32_t i = 0; i < c->chains[id].nr; i++) {
		if (f[i].resolved)
			continue;
		f[i].resolved = 1;
		if (!fn || fn(ctx, &f[i], &f[i].symbol, &f[i].sym_start))
			f[i].symbol = NULL;
	}
}

const struct callers_frame *callers_chain(const struct callers *c, uint32_t id, uint32_t *nr)
{
	if (!id || id >= c->nr_chains) {
		*nr = 0;
		return NULL;
	}
	*nr = c->chains[id].nr;
	return c->frames + c->chains[id].off;
}

const char *callers_frame_name(const struct callers_frame *f, char *buf, size_t size)
{
	if (f->symbol)
		return f->symbol;
	snprintf(buf, size, "%#" PRIx64, f->ip);
	return buf;
}

/* --- perf's tree ------------------------------------------------------------------------------ */

/* perf's match_chain() for key "function": <0, 0, >0 as existing @a is below, equal to or above
 * the new @b. */
static int frame_cmp(const struct callers_frame *a, const struct callers_frame *b)
{
	uintptr_t da = a->map ? (uintptr_t)a->map->dso : 0, db = b->map ? (uintptr_t)b->map->dso : 0;
	uint64_t ka = a->ip, kb = b->ip;

	if (da != db)
		return da < db ? -1 : 1;
	if (a->symbol && b->symbol) {
		ka = a->sym_start;
		kb = b->sym_start;
	}
	return ka == kb ? 0 : ka < kb ? -1 : 1;
}

struct cursor {
	const struct callers_frame **f;
	uint32_t pos, nr;
};

static struct callers_node *node_new(const struct callers_frame **val, uint32_t nr, uint64_t hit)
{
	struct callers_node *n = xcalloc(1, sizeof(*n));

	n->val = xmalloc((nr ? nr : 1) * sizeof(*val));
	if (nr)
		memcpy(n->val, val, nr * sizeof(*val));
	n->nr_val = nr;
	n->hit = hit;
	return n;
}

/* Insert @child among @parent's children, kept in perf's rb-tree order: a new node whose key
 * is above an existing one's goes before it, so the order is by key, descending. */
static void child_insert(struct callers_node *parent, struct callers_node *child)
{
	uint32_t i = 0;

	while (i < parent->nr_child && frame_cmp(parent->child[i]->val[0], child->val[0]) >= 0)
		i++;
	parent->child = xrealloc(parent->child, (parent->nr_child + 1) * sizeof(*parent->child));
	memmove(parent->child + i + 1, parent->child + i,
		(parent->nr_child - i) * sizeof(*parent->child));
	parent->child[i] = child;
	parent->nr_child++;
}

static void append_children(struct callers_node *root, struct cursor *cur, uint64_t period);

/* perf's split_add_child(): @parent matched @m frames of its run and the cursor goes on. */
static void split(struct callers_node *parent, struct cursor *cur, uint32_t m, uint64_t period)
{
	struct callers_node *tail = node_new(parent->val + m, parent->nr_val - m, parent->hit);

	tail->children_hit = parent->children_hit;
	tail->child = parent->child;
	tail->nr_child = parent->nr_child;
	parent->nr_val = m;
	parent->child = xmalloc(sizeof(*parent->child));
	parent->child[0] = tail;
	parent->nr_child = 1;
	parent->children_hit = callers_cumul(tail);
	if (cur->pos < cur->nr) {
		parent->hit = 0;
		parent->children_hit += period;
		child_insert(parent, node_new(cur->f + cur->pos, cur->nr - cur->pos, period));
	} else {
		parent->hit = period;
	}
}

/* perf's append_chain(): the first frame of @n matches the cursor. */
static void append_node(struct callers_node *n, struct cursor *cur, uint64_t period)
{
	uint32_t m = 0;

	while (m < n->nr_val && cur->pos < cur->nr && !frame_cmp(n->val[m], cur->f[cur->pos])) {
		m++;
		cur->pos++;
	}
	if (m < n->nr_val)
		split(n, cur, m, period);
	else if (cur->pos == cur->nr)
		n->hit += period;
	else
		append_children(n, cur, period);
}

static void append_children(struct callers_node *root, struct cursor *cur, uint64_t period)
{
	uint32_t i;

	for (i = 0; i < root->nr_child; i++)
		if (!frame_cmp(root->child[i]->val[0], cur->f[cur->pos]))
			break;
	if (i < root->nr_child)
		append_node(root->child[i], cur, period);
	else
		child_insert(root, node_new(cur->f + cur->pos, cur->nr - cur->pos, period));
	root->children_hit += period;
}

/* perf's sort_chain_graph_abs(): children by hits under them, descending; the order so far
 * (key order) breaks ties, as perf's rb-tree insertion sends equal values to the right. */
static void sort_tree(struct callers_node *n)
{
	for (uint32_t i = 0; i < n->nr_child; i++)
		sort_tree(n->child[i]);
	for (uint32_t i = 1; i < n->nr_child; i++) {
		struct callers_node *x = n->child[i];
		uint32_t j = i;

		while (j > 0 && callers_cumul(n->child[j - 1]) < callers_cumul(x)) {
			n->child[j] = n->child[j - 1];
			j--;
		}
		n->child[j] = x;
	}
}

struct callers_node *callers_tree(const struct callers *c, const struct callers_use *u, size_t n,
				  enum callers_order order)
{
	struct callers_node *root = node_new(NULL, 0, 0);
	const struct callers_frame **buf = NULL;
	size_t cap = 0;

	for (size_t k = 0; k < n; k++) {
		uint32_t nr;
		const struct callers_frame *f = callers_chain(c, u[k].chain, &nr);
		struct cursor cur;

		if (!nr)
			continue;
		buf = xgrow(buf, &cap, nr, sizeof(*buf));
		for (uint32_t i = 0; i < nr; i++)
			buf[i] = &f[order == CALLERS_CALLER ? nr - 1 - i : i];
		cur = (struct cursor){ buf, 0, nr };
		append_children(root, &cur, u[k].n);
	}
	free(buf);
	sort_tree(root);
	return root;
}

void callers_tree_free(struct callers_node *root)
{
	if (!root)
		return;
	for (uint32_t i = 0; i < root->nr_child; i++)
		callers_tree_free(root->child[i]);
	free(root->child);
	free(root->val);
	free(root);
}
