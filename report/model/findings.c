/* The judgement of lines and the findings per data object (see findings.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/findings.h"
#include "report/resolve/symbols.h"

#define SOFT_FLOOR 0.01          /* soft: contention under 1% of a line's time is none */
#define MAX_NAMED 4              /* members, threads named in one sentence */

/* --- members ------------------------------------------------------------------------------------ */

/* MEMBERS ARE BYTES. A member is a run of the line's bytes that touches cover together: touches
 * whose bytes overlap, directly or through others, are one member; touches of disjoint bytes are
 * different members whatever the code calls them (the rows of two threads' "me->hits" on
 * elements of their own are two members; "a->x" and "b->x" on the same bytes are one). A touch
 * covers its access's size from its first byte, one byte when the size is unknown. The member's
 * name is that of its costliest named touch. */
static void set_add(const struct maps_thread ***set, size_t *nr, const struct maps_thread *t)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*set)[i] == t)
			return;
	*set = xrealloc(*set, (*nr + 1) * sizeof(**set));
	(*set)[(*nr)++] = t;
}

/* Writes of a touch: stores, plus atomics where they are a kind of their own (soft, watch; a
 * PMU's locked accesses are loads or stores already). */
static uint64_t touch_writes(const struct rm_model *m, const struct rm_touch *t)
{
	return t->writes + (m->kind == RM_PMU ? 0 : t->atomics);
}

static int touch_writes_any(const struct rm_touch *t)
{
	return t->writes || t->atomics;
}

/* Touches @a and @b name the same member of the same instance. */
static int same_name(const struct rm_line *l, const struct rm_touch *a, const struct rm_touch *b)
{
	const struct rm_row *ra = &l->row[a->row], *rb = &l->row[b->row];

	return ra->member && rb->member && !strcmp(ra->member, rb->member) &&
	       ra->has_inst == rb->has_inst && (!ra->has_inst || ra->inst == rb->inst);
}

/* The bytes of each touch [lo, hi): its access's size; when that is unknown, or the touch is of
 * a lock (one unit: pthread_mutex_lock reads __kind and writes __lock of one mutex), the bytes the
 * touches of the same name and instance span (a name stands for the bytes it is known to
 * cover), else one byte. */
static void touch_spans(const struct rm_line *l, uint32_t *lo, uint32_t *hi)
{
	size_t i, j;

	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];

		lo[i] = t->offset;
		hi[i] = t->offset + (t->size ? t->size : 1);
	}
	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];

		if ((t->size && !l->row[t->row].lock) || !l->row[t->row].member)
			continue;
		for (j = 0; j < l->nr_touch; j++) {
			const struct rm_touch *o = &l->touch[j];
			uint32_t end = o->offset + (o->size ? o->size : 1);

			if (j == i || !same_name(l, t, o))
				continue;
			lo[i] = o->offset < lo[i] ? o->offset : lo[i];
			hi[i] = end > hi[i] ? end : hi[i];
		}
	}
}

static const uint32_t *sort_lo;   /* the spans of touch_lo_cmp */

static int touch_lo_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (sort_lo[a] != sort_lo[b])
		return (sort_lo[a] > sort_lo[b]) - (sort_lo[a] < sort_lo[b]);
	return (a > b) - (a < b);
}

static double touch_weight(const struct rm_touch *t)
{
	return t->cost + 1e-9 * (double)(t->reads + t->writes + t->atomics);
}

/* The member of every touch (@tm), members by offset. */
static void build_members(struct rm_line *l, size_t *tm)
{
	size_t n = l->nr_touch, i, k = 0;
	size_t *ord = xcalloc(n ? n : 1, sizeof(*ord));
	double *best = xcalloc(n ? n : 1, sizeof(*best));
	uint32_t *lo = xcalloc(n ? n * 2 : 2, sizeof(*lo)), *hi = lo + n, end = 0;

	l->mem = xcalloc(n ? n : 1, sizeof(*l->mem));
	l->nr_mem = 0;
	touch_spans(l, lo, hi);
	for (i = 0; i < n; i++)
		ord[i] = i;
	sort_lo = lo;
	qsort(ord, n, sizeof(*ord), touch_lo_cmp);
	for (i = 0; i < n; i++) {
		const struct rm_touch *t = &l->touch[ord[i]];
		const char *name = l->row[t->row].member;

		if (!l->nr_mem || lo[ord[i]] >= end) {
			k = l->nr_mem++;
			l->mem[k].offset = t->offset;
			best[k] = -1;
			end = 0;
		}
		if (t->offset < l->mem[k].offset)
			l->mem[k].offset = t->offset;
		if (hi[ord[i]] > end)
			end = hi[ord[i]];
		tm[ord[i]] = k;
		if (name && touch_weight(t) > best[k]) {
			l->mem[k].name = name;
			l->mem[k].named = &l->row[t->row];
			best[k] = touch_weight(t);
		}
	}
	free(lo);
	free(best);
	free(ord);
}

static void sum_members(const struct rm_model *m, struct rm_line *l, const size_t *tm)
{
	size_t i;

	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];
		struct rm_member *mb = &l->mem[tm[i]];
		const struct rm_row *r = &l->row[t->row];

		mb->reads += t->reads;
		mb->writes += t->writes;
		mb->atomics += t->atomics;
		mb->cost += t->cost;
		if (touch_writes_any(t)) {
			set_add(&mb->writers, &mb->nr_writers, t->thread);
			if (!mb->writer_row || r->v[RM_COL_STORES] > mb->writer_row->v[RM_COL_STORES])
				mb->writer_row = r;
		}
		if (t->reads) {
			set_add(&mb->readers, &mb->nr_readers, t->thread);
			if (!mb->reader_row || r->v[RM_COL_COST] > mb->reader_row->v[RM_COL_COST] ||
			    (r->v[RM_COL_COST] == mb->reader_row->v[RM_COL_COST] &&
			     r->v[RM_COL_LOADS] > mb->reader_row->v[RM_COL_LOADS]))
				mb->reader_row = r;
		}
		(void)m;
	}
	for (i = 0; i < l->nr_mem; i++)
		l->mem[i].nr_cpus = 0;
}

/* --- the rule ----------------------------------------------------------------------------------- */

/* Touches whose sampled times are known overlap in time (or their times are unknown). Where
 * the time buckets of both are known (estimate.h, ESTIM_SPAN_NS), they must meet in them: a task
 * that moved from one thread to another (a goroutine between OS threads, work a pool's thread
 * stole) leaves the bytes to the other thread, and its accesses meet the other's only at the
 * hand-overs, while two threads that run at the same time meet about as often as independent
 * samples do: over the buckets of their common time T, a thread seen in A of them and another
 * in B meet in about A * B / T. Touches meeting in under a quarter of that are not concurrent;
 * where that expectation is too small to tell (under SPAN_TELL buckets), they are, as before:
 * what was not sampled is unknown. */
#define SPAN_MEET 4
#define SPAN_TELL 4.0

static int concurrent(const struct rm_touch *a, const struct rm_touch *b)
{
	uint64_t lo, hi, meet = 0;
	double t, ea, eb, expect;
	uint32_t i, n;

	if (!a->t_last || !b->t_last)
		return 1;
	if (a->t_first > b->t_last || b->t_first > a->t_last)
		return 0;
	if (!a->span || !b->span)
		return 1;
	lo = a->t_first > b->t_first ? a->t_first : b->t_first;
	hi = a->t_last < b->t_last ? a->t_last : b->t_last;
	t = (double)(hi - lo) / (double)ESTIM_SPAN_NS + 1;
	/* each one's buckets in the common time, as if spread evenly over its own */
	ea = a->span_bits * t / ((double)(a->t_last - a->t_first) / (double)ESTIM_SPAN_NS + 1);
	eb = b->span_bits * t / ((double)(b->t_last - b->t_first) / (double)ESTIM_SPAN_NS + 1);
	expect = (ea < t ? ea : t) * (eb < t ? eb : t) / t;
	if (expect < SPAN_TELL)
		return 1;
	n = a->nr_span < b->nr_span ? a->nr_span : b->nr_span;
	for (i = 0; i < n && (double)(meet * SPAN_MEET) < expect; i++)
		meet += (uint64_t)__builtin_popcountll(a->span[i] & b->span[i]);
	return (double)(meet * SPAN_MEET) >= expect;
}

/* Which thread (an index per distinct thread of the line) writes which member. */
struct wmap {
	const struct maps_thread **thr;
	size_t nr_thr;
	size_t *touch_thr;      /* [nr_touch] */
	uint8_t *writes;        /* [nr_thr * nr_mem] */
};

static void wmap_build(struct wmap *w, const struct rm_line *l, const size_t *tm)
{
	size_t i, k;

	w->thr = xcalloc(l->nr_touch ? l->nr_touch : 1, sizeof(*w->thr));
	w->touch_thr = xcalloc(l->nr_touch ? l->nr_touch : 1, sizeof(*w->touch_thr));
	w->nr_thr = 0;
	for (i = 0; i < l->nr_touch; i++) {
		for (k = 0; k < w->nr_thr && w->thr[k] != l->touch[i].thread; k++)
			;
		if (k == w->nr_thr)
			w->thr[w->nr_thr++] = l->touch[i].thread;
		w->touch_thr[i] = k;
	}
	w->writes = xcalloc(w->nr_thr * (l->nr_mem ? l->nr_mem : 1), 1);
	for (i = 0; i < l->nr_touch; i++)
		if (touch_writes_any(&l->touch[i]))
			w->writes[w->touch_thr[i] * l->nr_mem + tm[i]] = 1;
}

static void wmap_free(struct wmap *w)
{
	free(w->thr);
	free(w->touch_thr);
	free(w->writes);
}

/* A source is a write of another thread: of the same member (true; and when the touch writes,
 * the other thread's reads of it too), or of a member the touching thread does not write itself
 * (false: a member both write is shared truly, and moving the touched one away would leave the
 * misses on it). PMU and watch sources weigh their access counts (event-based samples, every
 * access). Soft samples are timer samples: a thread's count at a site is the time it stalled
 * there, and stores retire without stalling, so counts would weigh a reader's loads against a
 * writer's few sampled stores. There each distinct source (thread, member, reads or writes)
 * weighs 1. */
static void split_touch(const struct rm_model *m, struct rm_line *l, const size_t *tm,
			const struct wmap *w, size_t i, uint8_t *seen)
{
	const struct rm_touch *a = &l->touch[i];
	size_t ta = w->touch_thr[i], j;
	double tsrc = 0, fsrc = 0, c;
	int soft = m->kind == RM_SOFT;

	if (soft)
		memset(seen, 0, w->nr_thr * (l->nr_mem ? l->nr_mem : 1) * 2);
	for (j = 0; j < l->nr_touch; j++) {
		const struct rm_touch *b = &l->touch[j];
		size_t at = (w->touch_thr[j] * l->nr_mem + tm[j]) * 2;
		double wr = (double)touch_writes(m, b), rd = (double)b->reads;

		if (b->thread == a->thread || !concurrent(a, b))
			continue;
		if (soft) {              /* once per thread, member and kind */
			wr = wr > 0 && !seen[at] ? 1 : 0;
			rd = rd > 0 && !seen[at + 1] ? 1 : 0;
		}
		if (tm[j] == tm[i]) {
			tsrc += wr + (touch_writes_any(a) ? rd : 0);
			if (soft)
				seen[at] |= wr > 0, seen[at + 1] |= touch_writes_any(a) && rd > 0;
		} else if (!w->writes[ta * l->nr_mem + tm[j]]) {
			fsrc += wr;
			if (soft)
				seen[at] |= wr > 0;
		}
	}
	if (tsrc + fsrc <= 0 || a->cost <= 0)
		return;
	c = a->cost;
	l->mem[tm[i]].true_cost += c * tsrc / (tsrc + fsrc);
	l->mem[tm[i]].false_cost += c * fsrc / (tsrc + fsrc);
}

/* Some touch of the line knows when it happened: sources are paired by time (split_touch). */
static int times_known(const struct rm_line *l)
{
	for (size_t i = 0; i < l->nr_touch; i++)
		if (l->touch[i].t_last)
			return 1;
	return 0;
}

/* split_touch() for every touch at once when no time is known (PMU samples: every source is
 * concurrent, and sources weigh their counts), in time linear in the touches: per member the
 * writes and reads of every thread (W, R) and of each thread (w, r), per thread the writes of
 * the members it does not write (F). A touch of thread t on member m then has
 *   true sources  W[m] - w[t][m]  (+ R[m] - r[t][m] when it writes)
 *   false sources F[t] - (t writes m ? 0 : W[m])    (only members t does not write count) */
static void split_all(const struct rm_model *m, struct rm_line *l, const size_t *tm,
		      const struct wmap *w)
{
	size_t nm = l->nr_mem ? l->nr_mem : 1, nt = w->nr_thr, i, t, k;
	double *tw = xcalloc(nt * nm * 2 + nm * 2 + nt, sizeof(*tw));
	double *tr = tw + nt * nm, *W = tr + nt * nm, *R = W + nm, *F = R + nm;

	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *a = &l->touch[i];
		size_t at = w->touch_thr[i] * nm + tm[i];

		tw[at] += (double)touch_writes(m, a);
		tr[at] += (double)a->reads;
		W[tm[i]] += (double)touch_writes(m, a);
		R[tm[i]] += (double)a->reads;
	}
	for (t = 0; t < nt; t++)
		for (k = 0; k < l->nr_mem; k++)
			if (!w->writes[t * l->nr_mem + k])
				F[t] += W[k];
	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *a = &l->touch[i];
		size_t ta = w->touch_thr[i], at = ta * nm + tm[i];
		double tsrc = W[tm[i]] - tw[at] + (touch_writes_any(a) ? R[tm[i]] - tr[at] : 0);
		double fsrc = F[ta] - (w->writes[ta * l->nr_mem + tm[i]] ? 0 : W[tm[i]]);

		if (tsrc < 0)
			tsrc = 0;            /* rounding */
		if (fsrc < 0)
			fsrc = 0;
		if (tsrc + fsrc <= 0 || a->cost <= 0)
			continue;
		l->mem[tm[i]].true_cost += a->cost * tsrc / (tsrc + fsrc);
		l->mem[tm[i]].false_cost += a->cost * fsrc / (tsrc + fsrc);
	}
	free(tw);
}

static enum rm_verdict verdict_of(const struct rm_model *m, double t, double f)
{
	double all = t + f, floor = m->kind == RM_SOFT ? RM_MIXED_SHARE_SOFT : RM_MIXED_SHARE;

	if (all <= 0)
		return RM_V_NONE;
	if (t >= all * floor && f >= all * floor)
		return RM_V_MIXED;
	return t > f ? RM_V_TRUE : RM_V_FALSE;
}

/* The line's object is the one its contention is on: the variable of its most contended member
 * (a line holding a counter and the per-thread array the threads fight over is the array's). */
static void contended_object(struct rm_line *l)
{
	const struct rm_member *best = NULL;
	const struct rm_row *r;
	size_t i;

	for (i = 0; i < l->nr_mem; i++) {
		const struct rm_member *mb = &l->mem[i];
		double c = mb->true_cost + mb->false_cost;

		if (c > 0 && (!best || c > best->true_cost + best->false_cost))
			best = mb;
	}
	r = best ? (best->writer_row ? best->writer_row : best->reader_row) : NULL;
	if (r && r->object) {
		l->object = r->object;
		l->object_what = r->object_what;
	}
}

static void judge_line(const struct rm_model *m, struct rm_line *l)
{
	size_t *tm = xcalloc(l->nr_touch ? l->nr_touch : 1, sizeof(*tm));
	struct wmap w;
	double conflict;
	uint8_t *seen;
	size_t i;

	for (i = 0; i < l->nr_mem; i++) {
		free(l->mem[i].writers);
		free(l->mem[i].readers);
	}
	free(l->mem);
	build_members(l, tm);
	sum_members(m, l, tm);
	wmap_build(&w, l, tm);
	if (!times_known(l)) {
		split_all(m, l, tm, &w);
	} else {
		seen = xcalloc(w.nr_thr * (l->nr_mem ? l->nr_mem : 1) * 2, 1);
		for (i = 0; i < l->nr_touch; i++)
			split_touch(m, l, tm, &w, i, seen);
		free(seen);
	}
	wmap_free(&w);
	l->true_cost = l->false_cost = 0;
	for (i = 0; i < l->nr_mem; i++) {
		l->true_cost += l->mem[i].true_cost;
		l->false_cost += l->mem[i].false_cost;
	}
	conflict = l->true_cost + l->false_cost;
	l->verdict = verdict_of(m, l->true_cost, l->false_cost);
	contended_object(l);
	switch (m->kind) {
	case RM_PMU:
		if (l->verdict == RM_V_NONE && l->cost > 0)
			l->verdict = RM_V_UNCLEAR;   /* HITMs, but no other thread's store sampled */
		break;
	case RM_SOFT:
		if (conflict < SOFT_FLOOR * l->cost)
			l->verdict = RM_V_NONE;
		break;
	case RM_WATCH:
		if (conflict * RM_WATCH_FLOOR < l->v[RM_COL_SAMPLES])
			l->verdict = RM_V_NONE;
		break;
	}
	free(tm);
	if (l->confirm)
		rm_confirm_judge(m, l);     /* soft: the watchpoints' accesses (confirm.c) */
}

/* Several threads on the line, one of them writing, and a single CPU for all of it. */
static int one_cpu_sharing(const struct rm_line *l)
{
	const struct maps_thread *first = NULL;
	int others = 0, writes = 0;
	size_t i;

	if (l->nr_cpus != 1)
		return 0;
	for (i = 0; i < l->nr_touch; i++) {
		const struct rm_touch *t = &l->touch[i];

		if (!first)
			first = t->thread;
		others |= t->thread != first;
		writes |= touch_writes_any(t);
	}
	return others && writes;
}

void rm_judge(struct rm_model *m)
{
	size_t i;

	m->nr_one_cpu_lines = 0;
	for (i = 0; i < m->nr_line; i++) {
		judge_line(m, &m->line[i]);
		m->nr_one_cpu_lines += m->kind == RM_WATCH && m->line[i].verdict == RM_V_NONE &&
				       one_cpu_sharing(&m->line[i]);
	}
}

/* --- text ------------------------------------------------------------------------------------------ */

void rm_member_label(const struct rm_member *mb, char *buf, size_t n)
{
	if (mb->name)
		snprintf(buf, n, "%s (offset 0x%x)", mb->name, mb->offset);
	else
		snprintf(buf, n, "offset 0x%x", mb->offset);
}

static void member_short(const struct rm_member *mb, char *buf, size_t n)
{
	if (mb->name)
		snprintf(buf, n, "%s", mb->name);
	else
		snprintf(buf, n, "offset 0x%x", mb->offset);
}

static int thread_tid_cmp(const void *pa, const void *pb)
{
	const struct maps_thread *a = *(const struct maps_thread *const *)pa;
	const struct maps_thread *b = *(const struct maps_thread *const *)pb;

	return (a->tid > b->tid) - (a->tid < b->tid);
}

void rm_threads_text(const struct maps_thread *const *t, size_t nr, char *buf, size_t n)
{
	const struct maps_thread **s;
	size_t i, len;
	char one[96];

	if (!nr) {
		snprintf(buf, n, "-");
		return;
	}
	if (nr == 1) {
		rm_thread_name(t[0], buf, n);
		return;
	}
	s = xmalloc(nr * sizeof(*s));
	memcpy(s, t, nr * sizeof(*s));
	qsort(s, nr, sizeof(*s), thread_tid_cmp);
	len = (size_t)snprintf(buf, n, "%zu threads (", nr);
	for (i = 0; i < nr && i < MAX_NAMED && len < n; i++) {
		rm_thread_name(s[i], one, sizeof(one));
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", one);
	}
	if (len < n)
		snprintf(buf + len, n - len, "%s)", nr > MAX_NAMED ? ", ..." : "");
	free(s);
}

/* "buf1.a (written by fs/101)", "offset 0x8 (read by fs/102)" */
static void member_role(const struct rm_member *mb, char *buf, size_t n)
{
	char name[160], thr[256];

	member_short(mb, name, sizeof(name));
	if (mb->nr_writers)
		rm_threads_text(mb->writers, mb->nr_writers, thr, sizeof(thr));
	else
		rm_threads_text(mb->readers, mb->nr_readers, thr, sizeof(thr));
	snprintf(buf, n, "%s (%s by %s)", name, mb->nr_writers ? "written" : "read", thr);
}

static int by_false_cmp(const void *pa, const void *pb)
{
	const struct rm_member *a = *(const struct rm_member *const *)pa;
	const struct rm_member *b = *(const struct rm_member *const *)pb;

	if (a->false_cost != b->false_cost)
		return (a->false_cost < b->false_cost) - (a->false_cost > b->false_cost);
	return (a->offset > b->offset) - (a->offset < b->offset);
}

static int by_offset_cmp(const void *pa, const void *pb)
{
	const struct rm_member *a = *(const struct rm_member *const *)pa;
	const struct rm_member *b = *(const struct rm_member *const *)pb;

	return (a->offset > b->offset) - (a->offset < b->offset);
}

static int by_true_cmp(const void *pa, const void *pb)
{
	const struct rm_member *a = *(const struct rm_member *const *)pa;
	const struct rm_member *b = *(const struct rm_member *const *)pb;

	if (a->true_cost != b->true_cost)
		return (a->true_cost < b->true_cost) - (a->true_cost > b->true_cost);
	return (a->offset > b->offset) - (a->offset < b->offset);
}

static size_t append(char *buf, size_t n, size_t len, const char *fmt, const char *s)
{
	if (len < n)
		len += (size_t)snprintf(buf + len, n - len, fmt, s);
	return len;
}

/* The element of an array a member belongs to: its name up to the first index's ']' (0 when
 * it is no array element). */
static size_t element_len(const char *name)
{
	const char *b = name ? strchr(name, '[') : NULL;
	const char *e = b ? strchr(b, ']') : NULL;

	return e ? (size_t)(e - name) + 1 : 0;
}

static int disjoint(const struct rm_member *a, const struct rm_member *b)
{
	size_t i, k;

	for (i = 0; i < a->nr_writers; i++)
		for (k = 0; k < b->nr_writers; k++)
			if (a->writers[i] == b->writers[k])
				return 0;
	return 1;
}

/* Are @a and @b members of different elements of one array? Named with their indexes
 * ("g_slots[0].ops", "g_slots[1].ops"), or memory typed by code: the same object and type at
 * instances a whole element apart (names.h: "me->hits (element i+1)"). */
static int other_element(const struct rm_member *a, const struct rm_member *b)
{
	const struct rm_row *ra = a->named, *rb = b->named;
	size_t na = element_len(a->name), nb = element_len(b->name);

	if (ra && rb && ra->has_inst && rb->has_inst && ra->inst != rb->inst && ra->object &&
	    rb->object && !strcmp(ra->object, rb->object) && ra->type && rb->type &&
	    !strcmp(ra->type, rb->type) && ra->inst_size == rb->inst_size)
		return 1;
	return na && nb && (na != nb || strncmp(a->name, b->name, na));
}

/* Per-thread elements of an array: members of different elements written by different threads
 * (not different members of one element, and not one thread writing several elements). */
static int is_array(const struct rm_finding *f)
{
	size_t i, j, k, l;

	for (i = 0; i < f->nr_line; i++)
		for (k = 0; k < f->line[i]->nr_mem; k++) {
			const struct rm_member *a = &f->line[i]->mem[k];

			if (!a->nr_writers)
				continue;
			for (j = i; j < f->nr_line; j++)
				for (l = j == i ? k + 1 : 0; l < f->line[j]->nr_mem; l++) {
					const struct rm_member *b = &f->line[j]->mem[l];

					if (b->nr_writers && other_element(a, b) && disjoint(a, b))
						return 1;
				}
		}
	return 0;
}

/* The element type of array type @type as its language spells it, into @buf: "[8]main.slot"
 * (Go) "main.slot" with *@count 8, "[u64; 4]" (Rust) "u64", "struct slot[4]" (C, C++)
 * "struct slot"; @type itself (*@count 0) when it is no array. */
static const char *element_type(const char *type, char *buf, size_t n, unsigned long *count)
{
	size_t len = strlen(type);
	const char *p = type;

	*count = 0;
	if (p[0] == '[' && isdigit((unsigned char)p[1])) {       /* Go: [N]T, [N][M]T */
		*count = strtoul(p + 1, NULL, 10);
		while (*p == '[' && strchr(p, ']'))
			p = strchr(p, ']') + 1;
		snprintf(buf, n, "%s", p);
	} else if (p[0] == '[' && len > 2 && type[len - 1] == ']' && strstr(p, "; ")) {
		const char *semi = strrchr(p, ';');                 /* Rust: [T; N] */

		*count = strtoul(semi + 1, NULL, 10);
		snprintf(buf, n, "%.*s", (int)(semi - p - 1), p + 1);
	} else if (len > 2 && type[len - 1] == ']' && strchr(type, '[')) {  /* C: T[N][M] */
		const char *b = strchr(type, '[');

		*count = strtoul(b + 1, NULL, 10);
		while (b > type && b[-1] == ' ')
			b--;
		snprintf(buf, n, "%.*s", (int)(b - type), type);
	} else {
		snprintf(buf, n, "%s", type);
	}
	return buf;
}

/* How to give element type (the advice names it) lines of @cl bytes of its own in language
 * @lang; @elem: its bytes when known (Go pads: it has no alignment attribute). */
static size_t align_how(char *buf, size_t n, size_t len, enum sym_lang lang, unsigned int cl,
			uint64_t elem)
{
	char tmp[96];

	switch (lang) {
	case SYM_LANG_GO:
		if (elem && elem % cl)
			snprintf(tmp, sizeof(tmp), "_ [%llu]byte", (unsigned long long)(cl - elem % cl));
		else
			snprintf(tmp, sizeof(tmp), "_ [N]byte");
		return append(buf, n, len, " (Go has no alignment attribute: a blank field %s after "
			      "its last field)", tmp);
	case SYM_LANG_FORTRAN:
		return append(buf, n, len, "%s", " (pad it with unused components)");
	default:
		snprintf(tmp, sizeof(tmp), lang == SYM_LANG_RUST ? "#[repr(align(%u))]" :
			 lang == SYM_LANG_CXX ? "alignas(%u)" : "__attribute__((aligned(%u)))", cl);
		return append(buf, n, len, " (%s on its definition)", tmp);
	}
}

/* The language the advice on line @l speaks: @r's (the row it names), else its first row's
 * that has one. */
static enum sym_lang line_lang(const struct rm_line *l, const struct rm_row *r)
{
	if (r && r->lang)
		return (enum sym_lang)r->lang;
	for (size_t i = 0; i < l->nr_row; i++)
		if (l->row[i].lang)
			return (enum sym_lang)l->row[i].lang;
	return SYM_LANG_UNKNOWN;
}

/* The false part: the members its contention lands on, named by who writes them. */
static size_t advice_false(const struct rm_model *m, const struct rm_finding *f,
			   const struct rm_line *l, char *buf, size_t n, size_t len)
{
	const struct rm_member **mb = xcalloc(l->nr_mem ? l->nr_mem : 1, sizeof(*mb));
	char role[512], tmp[160];
	size_t i, k = 0;

	for (i = 0; i < l->nr_mem; i++)
		if (l->mem[i].false_cost > 0 || l->mem[i].nr_writers)
			mb[k++] = &l->mem[i];
	/* the heaviest, named in offset order */
	qsort(mb, k, sizeof(*mb), by_false_cmp);
	qsort(mb, k < MAX_NAMED ? k : MAX_NAMED, sizeof(*mb), by_offset_cmp);
	if (f->array) {
		const struct rm_member *ex[2] = { k ? mb[0] : NULL, NULL };
		const struct rm_row *el = ex[0] ? ex[0]->named : NULL;

		/* the example: the heaviest member and one of another element another thread
		 * writes (two members of one element by one thread would show nothing) */
		for (i = 1; ex[0] && i < k && !ex[1]; i++)
			if (mb[i]->nr_writers && other_element(ex[0], mb[i]) && disjoint(ex[0], mb[i]))
				ex[1] = mb[i];
		for (i = 0; !ex[1] && i < l->nr_mem; i++)
			if (&l->mem[i] != ex[0] && l->mem[i].nr_writers &&
			    other_element(ex[0], &l->mem[i]) && disjoint(ex[0], &l->mem[i]))
				ex[1] = &l->mem[i];
		const char *ptr = strstr(f->object, ": *");

		/* "heap of pid 12: *me": the array me points into */
		if (ptr)
			snprintf(tmp, sizeof(tmp), "the array %s points into (%.*s)", ptr + 3,
				 (int)(ptr - f->object), f->object);
		else
			snprintf(tmp, sizeof(tmp), "%s", f->object);
		len = append(buf, n, len, "elements of %s are written by different threads and "
			     "share ", tmp);
		snprintf(tmp, sizeof(tmp), "%zu", f->nr_line);
		len = append(buf, n, len, f->nr_line > 1 ? "%s lines" : "a line", tmp);
		len = append(buf, n, len, " (e.g. ", "");
		for (i = 0; i < 2 && ex[i]; i++) {
			member_role(ex[i], role, sizeof(role));
			len = append(buf, n, len, i ? " and %s" : "%s", role);
		}
		snprintf(tmp, sizeof(tmp), "%u", m->cl_size);
		char et[128];
		unsigned long cnt = 0;
		const char *ety = el && el->type ? element_type(el->type, et, sizeof(et), &cnt) : NULL;
		enum sym_lang lang = line_lang(l, el);
		uint64_t esize = cnt && el->inst_size && el->inst_size % cnt == 0 ?
				 el->inst_size / cnt : 0;

		if (ety && lang != SYM_LANG_GO && lang != SYM_LANG_RUST && rm_scalar_type(ety)) {
			len = append(buf, n, len, "): give each element a line of its own (a struct "
				     "{ %s v; } ", ety);
			snprintf(et, sizeof(et), lang == SYM_LANG_CXX ? "with alignas(%u) on v" :
				 "__attribute__((aligned(%u)))", m->cl_size);
			len = append(buf, n, len, "%s as the element)", et);
		} else if (ety) {
			len = append(buf, n, len, "): %s the element type, ", lang == SYM_LANG_GO ?
				     "pad" : "pad or align");
			len = append(buf, n, len, "%s, to ", ety);
			len = append(buf, n, len, "%s bytes", tmp);
			len = align_how(buf, n, len, lang, m->cl_size, esize);
		} else {
			len = append(buf, n, len, "): pad or align each element to %s bytes", tmp);
		}
		if (!strncmp(f->object, "heap", 4) && lang != SYM_LANG_GO && lang != SYM_LANG_RUST) {
			len = append(buf, n, len, " and allocate the array with aligned_alloc(%s, ...)",
				     tmp);
		}
		len = append(buf, n, len, "%s", ", or give each thread its own line");
	} else {
		for (i = 0; i < k && i < MAX_NAMED; i++) {
			member_role(mb[i], role, sizeof(role));
			len = append(buf, n, len, i == 0 ? "%s" : i + 1 == k || i + 1 == MAX_NAMED ?
				     " and %s" : ", %s", role);
		}
		if (k > MAX_NAMED) {
			snprintf(tmp, sizeof(tmp), "%zu", k - MAX_NAMED);
			len = append(buf, n, len, " (and %s more)", tmp);
		}
		enum sym_lang lang = line_lang(l, k ? mb[0]->named : NULL);

		snprintf(tmp, sizeof(tmp), "%u", m->cl_size);
		len = append(buf, n, len, " share a %s-byte line: put them on separate lines", tmp);
		if (lang == SYM_LANG_GO) {
			len = append(buf, n, len, "%s", " (Go has no alignment attribute: a blank "
				     "field, _ [N]byte, before each, N bringing it to the next ");
			len = append(buf, n, len, "%s-byte boundary)", tmp);
		} else {
			len = append(buf, n, len, " (pad, or align each to %s bytes: ", tmp);
			snprintf(tmp, sizeof(tmp), lang == SYM_LANG_RUST ? "#[repr(align(%u))] on a "
				 "wrapper type of each" : lang == SYM_LANG_CXX ? "alignas(%u)" :
				 "__attribute__((aligned(%u)))", m->cl_size);
			len = append(buf, n, len, "%s)", tmp);
		}
	}
	free(mb);
	return len;
}

/* The true part: members that threads write and others access: inherent to the algorithm. */
static size_t advice_true(const struct rm_line *l, int mixed, char *buf, size_t n, size_t len)
{
	const struct rm_member **mb = xcalloc(l->nr_mem ? l->nr_mem : 1, sizeof(*mb));
	char name[160], thr[256];
	size_t i, k = 0;

	for (i = 0; i < l->nr_mem; i++)
		if (l->mem[i].true_cost > 0)
			mb[k++] = &l->mem[i];
	qsort(mb, k, sizeof(*mb), by_true_cmp);
	for (i = 0; i < k && i < 2; i++) {
		char rd[256];

		member_short(mb[i], name, sizeof(name));
		len = append(buf, n, len, i ? "; %s" : "%s", name);
		rm_threads_text(mb[i]->writers, mb[i]->nr_writers, thr, sizeof(thr));
		rm_threads_text(mb[i]->readers, mb[i]->nr_readers, rd, sizeof(rd));
		if (mb[i]->nr_readers && !strcmp(thr, rd)) {
			len = append(buf, n, len, " is written and read by %s", thr);
		} else {
			len = append(buf, n, len, " is written by %s", thr);
			if (mb[i]->nr_readers)
				len = append(buf, n, len, " and read by %s", rd);
		}
	}
	if (mixed)
		len = append(buf, n, len, "%s", ": that sharing is inherent to the algorithm (batch "
			     "updates, or cache the other side's value, to make it rarer)");
	else
		len = append(buf, n, len, "%s", ": the threads share these bytes: make them "
			     "per-thread and combine, or batch updates");
	free(mb);
	return len;
}

/* The finding's line with the most false (@false_part) or true contention: the parts of a
 * finding over several lines may lie on different lines. */
static const struct rm_line *line_most(const struct rm_finding *f, int false_part)
{
	const struct rm_line *best = f->line[0];
	size_t i;

	for (i = 1; i < f->nr_line; i++) {
		const struct rm_line *l = f->line[i];

		if (false_part ? l->false_cost > best->false_cost : l->true_cost > best->true_cost)
			best = l;
	}
	return best;
}

static void write_advice(const struct rm_model *m, struct rm_finding *f)
{
	char *buf = f->advice;
	size_t n = sizeof(f->advice), len = 0;
	char tmp[160];

	buf[0] = 0;
	switch (f->verdict) {
	case RM_V_FALSE:
		advice_false(m, f, line_most(f, 1), buf, n, len);
		break;
	case RM_V_TRUE:
		advice_true(line_most(f, 0), 0, buf, n, len);
		break;
	case RM_V_MIXED:
		len = advice_false(m, f, line_most(f, 1), buf, n, len);
		len = append(buf, n, len, "%s", "; besides, ");
		advice_true(line_most(f, 0), 1, buf, n, len);
		break;
	case RM_V_UNCLEAR:
		snprintf(tmp, sizeof(tmp), "%s", m->cost_unit ? m->cost_unit : "HITMs");
		len = append(buf, n, len, "%s on the line but no store of another thread was "
			     "sampled: record stores (or longer) to see who writes it", tmp);
		break;
	case RM_V_NONE:
	default:
		snprintf(buf, n, "nothing to fix");
	}
}

/* --- findings ------------------------------------------------------------------------------------- */

static int line_conflict_cmp(const void *pa, const void *pb)
{
	const struct rm_line *a = *(const struct rm_line *const *)pa;
	const struct rm_line *b = *(const struct rm_line *const *)pb;
	double ca = a->true_cost + a->false_cost, cb = b->true_cost + b->false_cost;

	if (ca != cb)
		return (ca < cb) - (ca > cb);
	if (a->cost != b->cost)
		return (a->cost < b->cost) - (a->cost > b->cost);
	return (a->index > b->index) - (a->index < b->index);
}

static double finding_weight(const struct rm_finding *f)
{
	return f->verdict == RM_V_UNCLEAR ? f->cost : f->true_cost + f->false_cost;
}

static int finding_cmp(const void *pa, const void *pb)
{
	const struct rm_finding *a = pa, *b = pb;
	double wa = finding_weight(a), wb = finding_weight(b);

	if (wa != wb)
		return (wa < wb) - (wa > wb);
	return line_conflict_cmp(&a->line[0], &b->line[0]);
}

/* The heading: its costliest line's data, the contended object first. */
static void finding_what(struct rm_finding *f)
{
	const struct rm_line *l = f->line[0];
	const char *all = l->what, *one = l->object_what, *at;
	size_t n;

	f->what = all ? all : f->addr;
	if (!one || !*one || !all || !strncmp(all, one, strlen(one)))
		return;
	n = strlen(one);
	at = strstr(all, one);
	if (at && at[n] && strncmp(at + n, ", ", 2))
		at = NULL;               /* a longer name that starts alike */
	if (!at)
		snprintf(f->what_buf, sizeof(f->what_buf), "%s, %s", one, all);
	else              /* "a, ONE, b" -> "ONE, a, b" */
		snprintf(f->what_buf, sizeof(f->what_buf), "%s, %.*s%s", one,
			 (int)(at - all - 2 > 0 ? at - all - 2 : 0), all,
			 at[n] ? at + n : "");
	f->what = f->what_buf;
}

/* --- evidence ------------------------------------------------------------------------------------ */

struct thr_count {
	const struct maps_thread *t;
	uint64_t n;
	int writes;
};

static int thr_count_cmp(const void *pa, const void *pb)
{
	const struct thr_count *a = pa, *b = pb;

	if (a->n != b->n)
		return (a->n < b->n) - (a->n > b->n);
	return (a->t->tid > b->t->tid) - (a->t->tid < b->t->tid);
}

/* Wilson's 95% score interval of a proportion @p of @n observations, in percent. */
static void wilson(double p, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964;
	double dn = (double)n, d, c, h;

	if (!n) {
		*lo = 0, *hi = 100;
		return;
	}
	p = p < 0 ? 0 : p > 1 ? 1 : p;
	d = 1 + z * z / dn;
	c = (p + z * z / (2 * dn)) / d;
	h = z * sqrt(p * (1 - p) / dn + z * z / (4 * dn * dn)) / d;
	*lo = 100 * (c - h > 0 ? c - h : 0);
	*hi = 100 * (c + h < 1 ? c + h : 1);
}

static void evidence(const struct rm_model *m, struct rm_finding *f)
{
	struct rm_evidence *ev = &f->ev;
	struct thr_count *tc = NULL;
	size_t nr = 0, i, k, j;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < f->nr_line; i++) {
		const struct rm_line *l = f->line[i];

		for (k = 0; k < l->nr_touch; k++) {
			const struct rm_touch *t = &l->touch[k];
			uint64_t n = t->reads + t->writes + t->atomics;

			for (j = 0; j < nr && tc[j].t != t->thread; j++)
				;
			if (j == nr) {
				tc = xrealloc(tc, (nr + 1) * sizeof(*tc));
				tc[nr++] = (struct thr_count){ t->thread, 0, 0 };
			}
			tc[j].n += n;
			tc[j].writes |= touch_writes_any(t);
			ev->samples += n;
		}
	}
	if (nr)
		qsort(tc, nr, sizeof(*tc), thr_count_cmp);
	ev->nr_threads = nr;
	for (j = 0; j < nr; j++) {
		ev->nr_writers += tc[j].writes;
		ev->nr_readers += !tc[j].writes;
		if (j < 4) {
			ev->thr[j] = tc[j].t;
			ev->thr_samples[j] = tc[j].n;
		}
	}
	ev->second = nr > 1 ? tc[1].n : 0;
	for (i = 0; m->kind == RM_SOFT && i < f->nr_line; i++)
		for (k = 0; k < f->line[i]->nr_mem; k++) {
			const struct rm_member *mb = &f->line[i]->mem[k];

			if (!mb->nr_writers && mb->nr_readers && mb->false_cost > 0 &&
			    (!ev->unseen || mb->false_cost > ev->unseen->false_cost))
				ev->unseen = mb;
		}
	if (m->kind == RM_WATCH) {
		ev->share_lo = ev->share_hi = f->share;
		ev->low = finding_weight(f) < RM_LOW_TRANSFERS;
	} else {
		wilson(f->share / 100, m->total_samples, &ev->share_lo, &ev->share_hi);
		ev->low = f->verdict != RM_V_UNCLEAR &&
			  (ev->samples < RM_LOW_SAMPLES || ev->second < RM_LOW_THREAD);
	}
	free(tc);
}

void rm_evidence_text(const struct rm_model *m, const struct rm_finding *f, char *buf, size_t n)
{
	const struct rm_evidence *ev = &f->ev;
	const char *unit = m->kind == RM_WATCH ? "accesses" : "samples";
	size_t len, i;
	char thr[96];

	len = (size_t)snprintf(buf, n, "%llu %s", (unsigned long long)ev->samples, unit);
	for (i = 0; i < 4 && ev->thr[i] && len < n; i++) {
		rm_thread_name(ev->thr[i], thr, sizeof(thr));
		len += (size_t)snprintf(buf + len, n - len, "%s%llu by %s", i ? ", " : " (",
					(unsigned long long)ev->thr_samples[i], thr);
	}
	if (len < n && ev->nr_threads > 4)
		len += (size_t)snprintf(buf + len, n - len, ", ...");
	if (len < n && ev->thr[0])
		len += (size_t)snprintf(buf + len, n - len, ")");
	if (len < n)
		len += (size_t)snprintf(buf + len, n - len, ", %zu thread%s writing, %zu only "
					"reading", ev->nr_writers, ev->nr_writers == 1 ? "" : "s",
					ev->nr_readers);
	if (len < n && m->kind == RM_WATCH)
		len += (size_t)snprintf(buf + len, n - len, "; every access counted");
	else if (len < n)
		len += (size_t)snprintf(buf + len, n - len, "; share %.2f%% [%.2f, %.2f] (95%%)",
					f->share, ev->share_lo, ev->share_hi);
	if (len < n && ev->unseen) {
		char name[160];

		member_short(ev->unseen, name, sizeof(name));
		snprintf(buf + len, n - len, "; its false part rests on reads of %s, which no sampled "
			 "store writes: a timer seldom lands on a store, so a writer may be unseen "
			 "(then it is true sharing)", name);
	}
}

void rm_verdict_text(const struct rm_model *m, const struct rm_finding *f, char *buf, size_t n)
{
	if (!f->ev.low)
		snprintf(buf, n, "%s", rm_verdict_name(f->verdict));
	else if (m->kind == RM_WATCH)
		snprintf(buf, n, "low confidence: %.0f transfers (looks like %s)",
			 finding_weight(f), rm_verdict_name(f->verdict));
	else
		snprintf(buf, n, "low confidence: %llu samples (looks like %s)",
			 (unsigned long long)f->ev.samples, rm_verdict_name(f->verdict));
}

int rm_runtime_data(const struct rm_line *l)
{
	const char *o = l->object, *w = l->object_what ? l->object_what : l->what, *t;

	size_t k, n = 0;

	if (o && !strncmp(o, "runtime.", 8))
		return 1;
	/* memory typed by code: "anon of pid 7: *pp (runtime.p, 8912 bytes)" */
	t = w ? strstr(w, " (") : NULL;
	if (t && !strncmp(t + 2, "runtime.", 8))
		return 1;
	/* memory nobody named that only the runtime's code touches (a channel's hchan, which
	 * runtime.chansend and runtime.chanrecv share) */
	if (t || (o && strncmp(o, "anon", 4) && strncmp(o, "heap", 4)))
		return 0;
	for (k = 0; k < l->nr_row; k++, n++)
		if (!l->row[k].code.symbol || strncmp(l->row[k].code.symbol, "runtime.", 8))
			return 0;
	return n > 0;
}

/* A finding where it stays: its heading, object and advice, and its lines pointing at it. */
static void place_finding(const struct rm_model *m, struct rm_finding *f)
{
	finding_what(f);
	if (!f->object)
		f->object = f->what;
	write_advice(m, f);
	for (size_t i = 0; i < f->nr_line; i++)
		((struct rm_line *)f->line[i])->finding = f;
}

/* Move the findings on a runtime's own data from fs->f to fs->rt, orders kept. */
static void split_runtime(struct rm_findings *fs)
{
	size_t k, n = 0;

	fs->rt = xcalloc(fs->nr ? fs->nr : 1, sizeof(*fs->rt));
	for (k = 0; k < fs->nr; k++) {
		if (rm_runtime_data(fs->f[k].line[0]))
			fs->rt[fs->nr_rt++] = fs->f[k];
		else
			fs->f[n++] = fs->f[k];
	}
	fs->nr = n;
}

struct rm_findings *rm_findings_build(struct rm_model *m)
{
	struct rm_findings *fs = xcalloc(1, sizeof(*fs));
	size_t i, k;

	fs->f = xcalloc(m->nr_line ? m->nr_line : 1, sizeof(*fs->f));
	fs->nr_one_cpu_lines = m->nr_one_cpu_lines;
	for (i = 0; i < m->nr_line; i++) {
		struct rm_line *l = &m->line[i];
		const char *obj = l->object;
		struct rm_finding *f;

		l->finding = NULL;
		if (l->verdict == RM_V_NONE)
			continue;
		fs->nr_contended_lines++;
		/* an unnamed line is an object of its own */
		for (k = 0; k < fs->nr; k++)
			if (obj && fs->f[k].object && !strcmp(fs->f[k].object, obj))
				break;
		if (k == fs->nr) {
			fs->f[k].object = obj;
			fs->nr++;
		}
		f = &fs->f[k];
		f->line = xrealloc(f->line, (f->nr_line + 1) * sizeof(*f->line));
		f->line[f->nr_line++] = l;
		f->cost += l->cost;
		f->true_cost += l->true_cost;
		f->false_cost += l->false_cost;
	}
	for (k = 0; k < fs->nr; k++) {
		struct rm_finding *f = &fs->f[k];
		int unclear = 1;

		qsort(f->line, f->nr_line, sizeof(*f->line), line_conflict_cmp);
		for (i = 0; i < f->nr_line; i++)
			unclear &= f->line[i]->verdict == RM_V_UNCLEAR;
		f->verdict = unclear ? RM_V_UNCLEAR : verdict_of(m, f->true_cost, f->false_cost);
		if (f->verdict == RM_V_NONE)
			f->verdict = f->line[0]->verdict;
		snprintf(f->addr, sizeof(f->addr), "0x%llx", (unsigned long long)f->line[0]->addr);
		f->share = m->total_cost > 0 ? 100.0 * finding_weight(f) / m->total_cost : 0;
		f->gain = m->total_cost > 0 ? 100.0 * f->false_cost / m->total_cost : 0;
		f->array = is_array(f);
		evidence(m, f);
	}
	qsort(fs->f, fs->nr, sizeof(*fs->f), finding_cmp);
	split_runtime(fs);
	/* after the sort and the split: these may point into the finding itself */
	for (k = 0; k < fs->nr; k++)
		place_finding(m, &fs->f[k]);
	for (k = 0; k < fs->nr_rt; k++)
		place_finding(m, &fs->rt[k]);
	return fs;
}

void rm_findings_free(struct rm_findings *fs)
{
	size_t k;

	if (!fs)
		return;
	for (k = 0; k < fs->nr; k++)
		free(fs->f[k].line);
	for (k = 0; k < fs->nr_rt; k++)
		free(fs->rt[k].line);
	free(fs->f);
	free(fs->rt);
	free(fs);
}
