/* TopDown aggregation (see topdown-agg.h): per-(CPU, thread) running totals turned into
 * intervals, charged to cachelines and code addresses kept in small open-addressing tables. */
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/topdown-agg.h"

static const char *const td_names[TD_NR] = {
	[TD_RETIRING] = "retiring", [TD_BAD_SPEC] = "bad-spec", [TD_FE_BOUND] = "fe-bound",
	[TD_BE_BOUND] = "be-bound", [TD_HEAVY_OPS] = "heavy-ops",
	[TD_BR_MISPREDICT] = "br-mispredict", [TD_FETCH_LAT] = "fetch-lat",
	[TD_MEM_BOUND] = "mem-bound",
};

struct td_ent {
	uint64_t k1, k2;
	struct td_sum sum;
	/* state table: the last running totals */
	uint64_t prev_slots, prev[TRACE_TD_MAX];
	/* code table: how to name it */
	uint32_t pid, tid;
	uint8_t cpumode;
};

struct td_tab {
	struct td_ent *ent;
	size_t nr, cap;
	size_t *slot;            /* indices into ent, SIZE_MAX empty; nslot a power of two */
	size_t nslot;
};

struct td_agg {
	uint32_t cl_size;
	int kind[TRACE_TD_MAX];  /* td[i] -> enum td_metric, -1 unknown */
	int has[TD_NR];
	uint64_t samples;
	struct td_sum total;
	struct td_tab state, lines, code;
};

/* --- table ------------------------------------------------------------------------------------ */

static size_t tab_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;

	return (size_t)(h ^ h >> 31);
}

static void tab_rehash(struct td_tab *t)
{
	size_t i, j, n = t->nslot ? t->nslot * 2 : 64;

	free(t->slot);
	t->slot = xmalloc(n * sizeof(*t->slot));
	memset(t->slot, 0xff, n * sizeof(*t->slot));
	t->nslot = n;
	for (i = 0; i < t->nr; i++) {
		for (j = tab_hash(t->ent[i].k1, t->ent[i].k2) & (n - 1); t->slot[j] != SIZE_MAX;
		     j = (j + 1) & (n - 1))
			;
		t->slot[j] = i;
	}
}

static struct td_ent *tab_find(const struct td_tab *t, uint64_t k1, uint64_t k2)
{
	size_t j;

	if (!t->nslot)
		return NULL;
	for (j = tab_hash(k1, k2) & (t->nslot - 1); t->slot[j] != SIZE_MAX;
	     j = (j + 1) & (t->nslot - 1))
		if (t->ent[t->slot[j]].k1 == k1 && t->ent[t->slot[j]].k2 == k2)
			return &t->ent[t->slot[j]];
	return NULL;
}

/* The entry of (k1, k2); *is_new says whether it was just created (zeroed). */
static struct td_ent *tab_get(struct td_tab *t, uint64_t k1, uint64_t k2, int *is_new)
{
	struct td_ent *e = tab_find(t, k1, k2);
	size_t j;

	*is_new = !e;
	if (e)
		return e;
	if ((t->nr + 1) * 2 > t->nslot)
		tab_rehash(t);
	t->ent = xgrow(t->ent, &t->cap, t->nr + 1, sizeof(*t->ent));
	e = &t->ent[t->nr];
	memset(e, 0, sizeof(*e));
	e->k1 = k1;
	e->k2 = k2;
	for (j = tab_hash(k1, k2) & (t->nslot - 1); t->slot[j] != SIZE_MAX; j = (j + 1) & (t->nslot - 1))
		;
	t->slot[j] = t->nr++;
	return e;
}

static void tab_release(struct td_tab *t)
{
	free(t->ent);
	free(t->slot);
}

/* --- aggregation ------------------------------------------------------------------------------ */

static int metric_of(const char *event_name)
{
	const char *p = strstr(event_name, "topdown-");
	size_t len;
	int i;

	if (!p)
		return -2;
	p += 8;
	len = strcspn(p, "/,:");
	for (i = 0; i < TD_NR; i++)
		if (strlen(td_names[i]) == len && !strncmp(p, td_names[i], len))
			return i;
	return -1;
}

struct td_agg *td_agg_new(const struct trace_info *info, uint32_t cl_size)
{
	struct td_agg *a = xcalloc(1, sizeof(*a));
	uint32_t i, n = 0;
	int k;

	a->cl_size = cl_size ? cl_size : 64;
	for (i = 0; info && i < info->nr_events && n < TRACE_TD_MAX; i++)
		if (info->events[i].name && (k = metric_of(info->events[i].name)) != -2)
			a->kind[n++] = k;
	if (!n)   /* no names: record/topdown.c's order */
		for (n = 0; n < TRACE_TD_MAX; n++)
			a->kind[n] = n < TD_NR ? (int)n : -1;
	for (; n < TRACE_TD_MAX; n++)
		a->kind[n] = -1;
	return a;
}

void td_agg_free(struct td_agg *a)
{
	if (!a)
		return;
	tab_release(&a->state);
	tab_release(&a->lines);
	tab_release(&a->code);
	free(a);
}

static void sum_add(struct td_sum *d, const struct td_sum *s)
{
	int i;

	d->slots += s->slots;
	d->intervals += s->intervals;
	for (i = 0; i < TD_NR; i++)
		d->m[i] += s->m[i];
}

/* The interval that ends at @s, from the totals of its (CPU, thread); 0 when none. */
static int interval(struct td_agg *a, const struct trace_sample *s, struct td_sum *iv)
{
	int is_new, ok = 1;
	struct td_ent *e = tab_get(&a->state, s->cpu, s->tid, &is_new);
	unsigned i;

	memset(iv, 0, sizeof(*iv));
	if (is_new || s->td_slots <= e->prev_slots)
		ok = 0;
	for (i = 0; ok && i < s->td_nr; i++)
		if (s->td[i] < e->prev[i])
			ok = 0;
	if (ok) {
		iv->slots = s->td_slots - e->prev_slots;
		iv->intervals = 1;
		for (i = 0; i < s->td_nr; i++)
			if (a->kind[i] >= 0)
				iv->m[a->kind[i]] += s->td[i] - e->prev[i];
	}
	e->prev_slots = s->td_slots;
	memset(e->prev, 0, sizeof(e->prev));
	memcpy(e->prev, s->td, s->td_nr * sizeof(s->td[0]));
	return ok;
}

void td_agg_sample(struct td_agg *a, const struct trace_sample *s)
{
	struct td_sum iv;
	struct td_ent *e;
	unsigned i;
	int is_new;

	if (!(s->flags & TRACE_SAMPLE_TOPDOWN) || s->td_nr > TRACE_TD_MAX)
		return;
	a->samples++;
	for (i = 0; i < s->td_nr; i++)
		if (a->kind[i] >= 0)
			a->has[a->kind[i]] = 1;
	if (!interval(a, s, &iv))
		return;
	sum_add(&a->total, &iv);
	if (s->flags & TRACE_SAMPLE_HAS_ADDR) {
		e = tab_get(&a->lines, s->addr & ~(uint64_t)(a->cl_size - 1), 0, &is_new);
		sum_add(&e->sum, &iv);
	}
	e = tab_get(&a->code, s->ip, s->pid, &is_new);
	if (is_new) {
		e->pid = s->pid;
		e->tid = s->tid;
		e->cpumode = s->cpumode;
	}
	sum_add(&e->sum, &iv);
}

uint64_t td_agg_nr_samples(const struct td_agg *a)
{
	return a->samples;
}

const struct td_sum *td_agg_total(const struct td_agg *a)
{
	return &a->total;
}

int td_agg_has(const struct td_agg *a, enum td_metric m)
{
	return m < TD_NR && a->has[m];
}

const struct td_sum *td_agg_line(const struct td_agg *a, uint64_t addr)
{
	const struct td_ent *e = tab_find(&a->lines, addr & ~(uint64_t)(a->cl_size - 1), 0);

	return e ? &e->sum : NULL;
}

double td_pct(const struct td_sum *s, enum td_metric m)
{
	return s && s->slots && m < TD_NR ? 100.0 * (double)s->m[m] / (double)s->slots : 0.0;
}

const char *td_metric_name(enum td_metric m)
{
	return m < TD_NR ? td_names[m] : "?";
}

/* --- functions -------------------------------------------------------------------------------- */

const char *td_agg_sym(void *ctx, uint32_t pid, uint32_t tid, uint8_t cpumode, uint64_t ip)
{
	struct td_agg_sym_ctx *c = ctx;
	struct maps_thread *t = maps_findnew_thread(c->maps, (int32_t)pid, (int32_t)tid);
	struct sym_code_info ci = { 0 };
	struct maps_loc loc = { 0 };

	if (cpumode == MAPS_CPUMODE_KERNEL)
		return sym_kernel_code(c->sym, ip, &ci) ? NULL : ci.symbol;
	if (!maps_find(c->maps, t, cpumode, ip, &loc) || !loc.map)
		return NULL;
	if (loc.map->dso->kernel)
		return sym_kernel_code(c->sym, ip, &ci) ? NULL : ci.symbol;
	return sym_code(c->sym, &loc.map->mmap, ip, &ci) ? NULL : ci.symbol;
}

static int row_by_name(const void *x, const void *y)
{
	return strcmp(((const struct td_row *)x)->name, ((const struct td_row *)y)->name);
}

static int row_by_slots(const void *x, const void *y)
{
	const struct td_row *a = x, *b = y;
	int c = (a->sum.slots < b->sum.slots) - (a->sum.slots > b->sum.slots);

	if (c)
		return c;
	c = (a->line > b->line) - (a->line < b->line);
	return c ? c : strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

/* Code entries named and merged by function; *nr set. Caller frees. */
static struct td_row *by_function(const struct td_agg *a, td_agg_sym_fn fn, void *ctx,
				  size_t *nr)
{
	struct td_row *v = xcalloc(a->code.nr ? a->code.nr : 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < a->code.nr; i++) {
		const struct td_ent *e = &a->code.ent[i];

		v[i].name = fn ? fn(ctx, e->pid, e->tid, e->cpumode, e->k1) : NULL;
		if (!v[i].name)
			v[i].name = "[unknown]";
		v[i].sum = e->sum;
	}
	qsort(v, a->code.nr, sizeof(*v), row_by_name);
	for (i = 0; i < a->code.nr; i++) {
		if (n && !strcmp(v[n - 1].name, v[i].name))
			sum_add(&v[n - 1].sum, &v[i].sum);
		else
			v[n++] = v[i];
	}
	*nr = n;
	return v;
}

static struct td_row *by_line(const struct td_agg *a, size_t *nr)
{
	struct td_row *v = xcalloc(a->lines.nr ? a->lines.nr : 1, sizeof(*v));

	for (size_t i = 0; i < a->lines.nr; i++) {
		v[i].line = a->lines.ent[i].k1;
		v[i].sum = a->lines.ent[i].sum;
	}
	*nr = a->lines.nr;
	return v;
}

struct td_row *td_agg_rows(const struct td_agg *a, int funcs, td_agg_sym_fn fn, void *ctx,
			   size_t *nr)
{
	struct td_row *v = funcs ? by_function(a, fn, ctx, nr) : by_line(a, nr);

	qsort(v, *nr, sizeof(*v), row_by_slots);
	return v;
}

uint64_t td_agg_intervals(const struct td_agg *a)
{
	return a->total.intervals;
}
