/* TopDown attributed by time (see topdown-time.h): streams in a sorted array, the samples waiting
 * for a reading per stream, the charged intervals and one charge per charged sample; sums per
 * line or function are made by sorting the charges when asked. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/aggregate/topdown-time.h"

struct tdt_wait {
	uint64_t time, line, ip;
	uint32_t pid, tid;
	uint8_t cpumode, has_line;
};

struct tdt_stream {
	uint32_t cpu, tid;
	uint64_t prev[TDT_VALS];
	struct tdt_wait *w;
	size_t nw, capw;
};

struct tdt_charge {
	uint64_t line, ip;
	uint32_t pid, tid, iv, k;        /* interval and the number of samples sharing it */
	uint8_t cpumode, has_line;
	const char *name;                /* functions: filled by tdt_rows() */
};

struct tdt {
	struct td_reader r;
	uint32_t cl_size;
	struct tdt_stream *st;
	size_t nst, capst;
	uint64_t (*iv)[TDT_VALS];
	size_t niv, capiv;
	struct tdt_charge *ch;
	size_t nch, capch;
	double all[TDT_VALS], charged[TDT_VALS];
	struct tdt_stats stats;
};

struct tdt *tdt_new(const struct td_reader *r, uint32_t cl_size)
{
	struct tdt *a = xcalloc(1, sizeof(*a));

	a->r = *r;
	if (a->r.nr > TRACE_TD_MAX)
		a->r.nr = TRACE_TD_MAX;
	a->cl_size = cl_size ? cl_size : 64;
	return a;
}

void tdt_free(struct tdt *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nst; i++)
		free(a->st[i].w);
	free(a->st);
	free(a->iv);
	free(a->ch);
	free(a);
}

const struct td_reader *tdt_reader(const struct tdt *a)
{
	return &a->r;
}

/* The stream of (@cpu, @tid), created in its sorted place. */
static struct tdt_stream *stream(struct tdt *a, uint32_t cpu, uint32_t tid)
{
	size_t lo = 0, hi = a->nst;

	if (a->r.scope_cpu)
		tid = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct tdt_stream *s = &a->st[mid];

		if (s->cpu == cpu && s->tid == tid)
			return &a->st[mid];
		if (s->cpu < cpu || (s->cpu == cpu && s->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	a->st = xgrow(a->st, &a->capst, a->nst + 1, sizeof(*a->st));
	memmove(&a->st[lo + 1], &a->st[lo], (a->nst - lo) * sizeof(*a->st));
	memset(&a->st[lo], 0, sizeof(*a->st));
	a->st[lo].cpu = cpu;
	a->st[lo].tid = tid;
	a->nst++;
	return &a->st[lo];
}

/* Model inputs in reading order: the leader, then td[]. */
static void values_of(const struct tdt *a, const struct td_counts *c, uint64_t v[TDT_VALS])
{
	memset(v, 0, TDT_VALS * sizeof(v[0]));
	if (a->r.lead >= 0 && a->r.lead < TDI_NR)
		v[0] = c->v[a->r.lead];
	for (uint32_t i = 0; i < a->r.nr; i++)
		if (a->r.in[i] >= 0 && a->r.in[i] < TDI_NR)
			v[1 + i] = c->v[a->r.in[i]];
}

static void to_counts(const struct tdt *a, const double v[TDT_VALS], struct td_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (a->r.lead >= 0 && a->r.lead < TDI_NR) {
		c->v[a->r.lead] = (uint64_t)llround(v[0]);
		c->have |= 1ull << a->r.lead;
	}
	for (uint32_t i = 0; i < a->r.nr; i++) {
		if (a->r.in[i] < 0 || a->r.in[i] >= TDI_NR)
			continue;
		c->v[a->r.in[i]] = (uint64_t)llround(v[1 + i]);
		c->have |= 1ull << a->r.in[i];
	}
}

void tdt_reading(struct tdt *a, uint32_t cpu, uint32_t tid, uint64_t time,
		 const struct td_counts *totals)
{
	struct tdt_stream *s = stream(a, cpu, tid);
	uint64_t cur[TDT_VALS], d[TDT_VALS];
	size_t k = 0, keep = 0;
	int reset = 0;

	a->stats.readings++;
	values_of(a, totals, cur);
	for (int i = 0; i < TDT_VALS; i++)
		reset |= cur[i] < s->prev[i];
	a->stats.resets += (uint64_t)reset;
	for (int i = 0; i < TDT_VALS; i++)
		d[i] = reset ? cur[i] : cur[i] - s->prev[i];
	memcpy(s->prev, cur, sizeof(cur));
	if (!d[0])
		return;                  /* the leader did not move: no interval */
	a->stats.intervals++;
	for (size_t j = 0; j < s->nw; j++)
		k += s->w[j].time <= time;
	for (int i = 0; i < TDT_VALS; i++) {
		a->all[i] += (double)d[i];
		if (k)
			a->charged[i] += (double)d[i];
	}
	if (!k)
		return;
	a->stats.intervals_charged++;
	a->iv = xgrow(a->iv, &a->capiv, a->niv + 1, sizeof(*a->iv));
	memcpy(a->iv[a->niv], d, sizeof(d));
	a->ch = xgrow(a->ch, &a->capch, a->nch + k, sizeof(*a->ch));
	for (size_t j = 0; j < s->nw; j++) {
		const struct tdt_wait *w = &s->w[j];

		if (w->time > time) {
			s->w[keep++] = *w;
			continue;
		}
		a->ch[a->nch++] = (struct tdt_charge){ .line = w->line, .ip = w->ip, .pid = w->pid,
			.tid = w->tid, .iv = (uint32_t)a->niv, .k = (uint32_t)k,
			.cpumode = w->cpumode, .has_line = w->has_line };
	}
	s->nw = keep;
	a->stats.samples_charged += k;
	a->niv++;
}

void tdt_sample(struct tdt *a, const struct trace_sample *smp)
{
	struct tdt_stream *s = stream(a, smp->cpu, smp->tid);
	struct tdt_wait *w;

	s->w = xgrow(s->w, &s->capw, s->nw + 1, sizeof(*s->w));
	w = &s->w[s->nw++];
	memset(w, 0, sizeof(*w));
	w->time = smp->time;
	w->ip = smp->ip;
	w->pid = smp->pid;
	w->tid = smp->tid;
	w->cpumode = smp->cpumode;
	w->has_line = !!(smp->flags & TRACE_SAMPLE_HAS_ADDR);
	w->line = w->has_line ? smp->addr & ~(uint64_t)(a->cl_size - 1) : 0;
}

void tdt_feed(struct tdt *a, const struct trace_sample *s)
{
	struct td_counts c;

	if (s->event != a->r.event) {
		tdt_sample(a, s);
		return;
	}
	if (!(s->flags & TRACE_SAMPLE_TOPDOWN))
		return;
	td_reader_counts(&a->r, s, &c);
	tdt_reading(a, s->cpu, s->tid, s->time, &c);
}

void tdt_finish(struct tdt *a)
{
	for (size_t i = 0; i < a->nst; i++) {
		a->stats.samples_uncharged += a->st[i].nw;
		a->st[i].nw = 0;
	}
}

const struct tdt_stats *tdt_stats(const struct tdt *a)
{
	return &a->stats;
}

static int result_of(const struct tdt *a, const double v[TDT_VALS], struct td_result *r)
{
	struct td_counts c;

	to_counts(a, v, &c);
	return td_compute(&a->r.model, &c, r);
}

int tdt_total(const struct tdt *a, int all, struct td_result *r)
{
	return result_of(a, all ? a->all : a->charged, r);
}

static void charge_add(const struct tdt *a, const struct tdt_charge *c, double v[TDT_VALS])
{
	for (int i = 0; i < TDT_VALS; i++)
		v[i] += (double)a->iv[c->iv][i] / c->k;
}

int tdt_line(const struct tdt *a, uint64_t addr, struct td_result *r)
{
	double v[TDT_VALS] = { 0 };
	uint64_t line = addr & ~(uint64_t)(a->cl_size - 1);
	int found = 0;

	for (size_t i = 0; i < a->nch; i++)
		if (a->ch[i].has_line && a->ch[i].line == line) {
			charge_add(a, &a->ch[i], v);
			found = 1;
		}
	if (!found)
		return -ENOENT;
	return result_of(a, v, r);
}

/* --- rows ------------------------------------------------------------------------------------- */

static int by_line(const void *x, const void *y)
{
	const struct tdt_charge *a = x, *b = y;

	return (a->line > b->line) - (a->line < b->line);
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct tdt_charge *)x)->name, ((const struct tdt_charge *)y)->name);
}

static int by_slots(const void *x, const void *y)
{
	const struct tdt_row *a = x, *b = y;
	int c = (a->r.slots < b->r.slots) - (a->r.slots > b->r.slots);

	if (c)
		return c;
	c = (a->line > b->line) - (a->line < b->line);
	return c ? c : strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

struct tdt_row *tdt_rows(const struct tdt *a, int funcs, size_t top, td_agg_sym_fn fn, void *ctx,
			 size_t *nr)
{
	struct tdt_charge *c = xcalloc(a->nch ? a->nch : 1, sizeof(*c));
	struct tdt_row *rows = xcalloc(a->nch ? a->nch : 1, sizeof(*rows));
	size_t n = 0, m = 0;

	for (size_t i = 0; i < a->nch; i++) {
		if (!funcs && !a->ch[i].has_line)
			continue;
		c[n] = a->ch[i];
		if (funcs) {
			c[n].name = fn ? fn(ctx, c[n].pid, c[n].tid, c[n].cpumode, c[n].ip) : NULL;
			if (!c[n].name)
				c[n].name = "[unknown]";
		}
		n++;
	}
	qsort(c, n, sizeof(*c), funcs ? by_name : by_line);
	for (size_t i = 0; i < n;) {
		double v[TDT_VALS] = { 0 };
		size_t j = i;

		for (; j < n && (funcs ? !strcmp(c[j].name, c[i].name) : c[j].line == c[i].line); j++)
			charge_add(a, &c[j], v);
		rows[m].name = funcs ? c[i].name : NULL;
		rows[m].line = funcs ? 0 : c[i].line;
		rows[m].samples = j - i;
		if (!result_of(a, v, &rows[m].r))
			m++;
		i = j;
	}
	free(c);
	qsort(rows, m, sizeof(*rows), by_slots);
	*nr = m < top ? m : top;
	return rows;
}

void tdt_describe(const struct tdt *a, char *buf, size_t len)
{
	snprintf(buf, len, "%s counters in a group apart from the sampler, read every %llu cycles "
		 "per %s: the counts between two readings split evenly over the memory samples of "
		 "that %s in the interval", a->r.model.cpu[0] ? a->r.model.cpu : "TopDown",
		 (unsigned long long)a->r.period, a->r.scope_cpu ? "CPU" : "CPU and thread",
		 a->r.scope_cpu ? "CPU" : "CPU and thread");
}
