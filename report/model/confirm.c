/* Soft: the confirmation of lines by watchpoints in the model, and their judgement from what the
 * watchpoints saw (model.h: struct rm_confirm; the hits folded by report/aggregate/estimate.c).
 *
 * THE JUDGEMENT OF A CONFIRMED LINE. Its members are rebuilt from the watched accesses (which
 * thread read, wrote or atomically updated which bytes; named like the rows), and its
 * contention split from the coherence model's transfers between words armed together: a
 * transfer of the modified line is true sharing when the access overlapped the bytes the
 * previous owner wrote, false otherwise; an invalidation of clean copies is true when another
 * thread read bytes the write overlaps, false otherwise. The line's sampled time is divided in
 * those proportions (TRUE+FALSE when each part is RM_MIXED_SHARE of the transfers or more).
 * Fewer than CONFIRM_MIN_XFERS transfers (the threads seldom ran at once while the words were
 * armed: a loaded machine, a short window) split nothing reliably: the rule of findings.h is then
 * applied to the watched accesses, every access weighing 1 (other threads writing the same bytes
 * are true sources, other threads writing bytes this thread does not write are false ones, among
 * accesses seen within CONFIRM_SLACK_NS of each other, or overlapping in time when both were seen
 * within one window). No source at all: NOT CONTENDED. When
 * the watchpoints saw fewer threads than the samples there and too few transfers, or no access
 * at all, the samples' verdict stands and the line says so. Pure: model in, judgement out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/model/findings.h"
#include "report/model/model.h"
#include "report/model/names.h"
#include "report/resolve/symbols.h"

#define CONFIRM_MIN_XFERS 8      /* fewer transfers: split by who wrote which bytes */
/* Accesses this close in time are concurrent: two windows of the recorder (a thread that did not
 * run while the other was armed, on a busy machine, still ran beside it) */
#define CONFIRM_SLACK_NS (2 * C2C_CONFIRM_STEP_MS * 1000000ull)
/* Accesses all seen within this time were seen in one window (a window and its margin) */
#define CONFIRM_ONE_WINDOW_NS (3 * C2C_CONFIRM_STEP_MS * 1000000ull / 2)

void rm_confirm_free(struct rm_confirm *c)
{
	if (!c)
		return;
	free(c->acc);
	free(c->coarm);
	free(c);
}

const char *rm_confirm_state_name(const struct rm_confirm *c)
{
	if (!c || c->state == RM_CF_SAMPLES)
		return "samples only";
	if (c->state == RM_CF_NO_HITS)
		return "watched, no access seen";
	return c->judged ? "confirmed" : "watched, not judged";
}

void rm_confirm_words(uint32_t bits, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < 32 && len < n; i++)
		if (bits & (1u << i))
			len += (size_t)snprintf(buf + len, n - len, "%s0x%x", len ? "+" : "", i * 8);
	if (!len)
		snprintf(buf, n, "-");
}

static int has_thread(const struct maps_thread **set, size_t nr, const struct maps_thread *t)
{
	for (size_t i = 0; i < nr; i++)
		if (set[i] == t)
			return 1;
	return 0;
}

void rm_confirm_build(struct rm_model *m, struct rm_line *l, const struct estim_line *el)
{
	const struct estim_confirm *cf = el->cf;
	const struct maps_thread **thr, **rd, **wr;
	size_t nt = 0, nrd = 0, nwr = 0;
	struct rm_confirm *c;

	if (m->kind != RM_SOFT || !m->confirm_run || m->confirm_run->status != C2C_CONFIRM_ON)
		return;
	c = xcalloc(1, sizeof(*c));
	l->confirm = c;
	if (!cf)
		return;                  /* RM_CF_SAMPLES */
	c->state = cf->hits ? RM_CF_SEEN : cf->windows ? RM_CF_NO_HITS : RM_CF_SAMPLES;
	c->hits = cf->hits;
	c->unplaced = cf->unplaced;
	c->windows = cf->windows;
	c->armed_ns = cf->armed_ns;
	c->xfers = cf->ws.hitm;
	c->xfers_true = cf->ws.hitm_true;
	c->xfers_false = cf->ws.hitm_false;
	c->inval = cf->ws.inval;
	c->acc = xcalloc(cf->nr_acc ? cf->nr_acc : 1, sizeof(*c->acc));
	c->nr_acc = cf->nr_acc;
	thr = xcalloc(cf->nr_acc ? cf->nr_acc * 3 : 3, sizeof(*thr));
	rd = thr + cf->nr_acc;
	wr = rd + cf->nr_acc;
	for (size_t i = 0; i < cf->nr_acc; i++) {
		const struct estim_cacc *a = &cf->acc[i];
		struct rm_cf_access *o = &c->acc[i];

		o->offset = a->offset;
		o->size = a->size;
		o->thread = a->thread;
		o->reads = a->reads;
		o->writes = a->writes;
		o->atomics = a->atomics;
		o->t_first = a->t_first;
		o->t_last = a->t_last;
		o->xfers = a->ws.hitm;
		o->xfers_true = a->ws.hitm_true;
		o->xfers_false = a->ws.hitm_false;
		o->inval = a->ws.inval;
		rm_code_estim(&o->code, a->ip, a->code_al, el->cpumode, a->cmap,
			      a->has_code ? &a->code : NULL);
		if (!has_thread(thr, nt, a->thread))
			thr[nt++] = a->thread;
		if (a->reads && !has_thread(rd, nrd, a->thread))
			rd[nrd++] = a->thread;
		if ((a->writes || a->atomics) && !has_thread(wr, nwr, a->thread))
			wr[nwr++] = a->thread;
	}
	c->nr_threads = (uint32_t)nt;
	c->nr_readers = (uint32_t)nrd;
	c->nr_writers = (uint32_t)nwr;
	free(thr);
	c->coarm = xcalloc(cf->nr_coarm ? cf->nr_coarm : 1, sizeof(*c->coarm));
	c->nr_coarm = cf->nr_coarm;
	for (size_t i = 0; i < cf->nr_coarm; i++)
		c->coarm[i] = (struct rm_cf_coarm){ cf->coarm[i].words, cf->coarm[i].windows,
						    cf->coarm[i].armed_ns, cf->coarm[i].hits };
}

/* The accesses' members: a row at the same offset names it; else the data at that address. */
void rm_confirm_name(struct rm_model *m, const struct rm_name_opts *o)
{
	for (size_t i = 0; i < m->nr_line; i++) {
		struct rm_line *l = &m->line[i];
		const struct estim_line *el = l->src;
		struct rm_confirm *c = l->confirm;

		for (size_t k = 0; c && k < c->nr_acc; k++) {
			struct rm_cf_access *a = &c->acc[k];
			struct sym_data_info d;
			struct rm_where w;
			size_t r;

			a->member[0] = '\0';
			for (r = 0; r < l->nr_row; r++)
				if (l->row[r].offset == a->offset && l->row[r].member) {
					snprintf(a->member, sizeof(a->member), "%s", l->row[r].member);
					break;
				}
			if (r < l->nr_row || !o->sym)
				continue;
			memset(&w, 0, sizeof(w));
			w.cpumode = el->cpumode;
			w.dmap = el->dmap;
			w.key_pid = el->key_pid;
			w.thread = el->thread;
			w.brk_heap = w.dmap && w.cpumode != MAPS_CPUMODE_KERNEL &&
				     maps_is_brk_heap(w.thread, w.dmap);
			if (rm_name_data(o->sym, o->maps, &w, l->vaddr + a->offset, &d) >= 0)
				rm_member_name(&d, a->member, sizeof(a->member));
		}
	}
}

/* --- the judgement ------------------------------------------------------------------------ */

static int same_bytes(const struct rm_cf_access *a, const struct rm_cf_access *b)
{
	uint32_t ea = a->offset + (a->size ? a->size : 1), eb = b->offset + (b->size ? b->size : 1);

	return a->offset < eb && b->offset < ea;
}

/* A row of @l named @name is a lock's (names.c: its words are named by the lock). */
static int lock_name(const struct rm_line *l, const char *name)
{
	for (size_t r = 0; r < l->nr_row; r++)
		if (l->row[r].lock && l->row[r].member && !strcmp(l->row[r].member, name))
			return 1;
	return 0;
}

/* The member of an access, as findings.c's members are: the bytes accesses cover together,
 * whatever their names (the same name on two elements' bytes, "me->hits", is two members), and
 * a lock's words, which its name covers together. */
static int same_member(const struct rm_line *l, const struct rm_member *mb, uint32_t size,
		       const struct rm_cf_access *a)
{
	uint32_t end = mb->offset + (size ? size : 1);

	if (mb->name && a->member[0] && !strcmp(mb->name, a->member) && lock_name(l, mb->name))
		return 1;
	return a->offset < end && mb->offset < a->offset + (a->size ? a->size : 1);
}

static void set_add(const struct maps_thread ***set, size_t *nr, const struct maps_thread *t)
{
	if (has_thread(*set, *nr, t))
		return;
	*set = xrealloc(*set, (*nr + 1) * sizeof(**set));
	(*set)[(*nr)++] = t;
}

static int member_cmp(const void *pa, const void *pb)
{
	const struct rm_member *a = pa, *b = pb;

	return (a->offset > b->offset) - (a->offset < b->offset);
}

static const struct rm_row *row_of(const struct rm_line *l, const struct rm_member *mb)
{
	for (size_t r = 0; r < l->nr_row; r++)
		if (mb->name ? l->row[r].member && !strcmp(l->row[r].member, mb->name)
			     : l->row[r].offset == mb->offset)
			return &l->row[r];
	return NULL;
}

/* The members as the watchpoints saw them; per member, the transfers split true / false
 * (@tx, @fx) and the accesses split by who wrote which bytes (@tb, @fb). */
/* The slack between @a and @b: none when both were seen within one window's time (a window
 * sees every access to its words: one that ended before the other began did not run beside
 * it, a goroutine handing an element to the next one), CONFIRM_SLACK_NS otherwise. */
static uint64_t slack_of(const struct rm_cf_access *a, const struct rm_cf_access *b)
{
	uint64_t lo = a->t_first < b->t_first ? a->t_first : b->t_first;
	uint64_t hi = a->t_last > b->t_last ? a->t_last : b->t_last;

	return hi - lo <= CONFIRM_ONE_WINDOW_NS ? 0 : CONFIRM_SLACK_NS;
}

static void rebuild_members(struct rm_line *l, const struct rm_confirm *c, double *tx, double *fx,
			    double *tb, double *fb)
{
	size_t i, k, *tm = xcalloc(c->nr_acc ? c->nr_acc : 1, sizeof(*tm));
	double *mt = xcalloc(c->nr_acc ? c->nr_acc * 4 : 4, sizeof(*mt));
	double *mf = mt + c->nr_acc, *bt = mf + c->nr_acc, *bf = bt + c->nr_acc;
	uint32_t *msize = xcalloc(c->nr_acc ? c->nr_acc : 1, sizeof(*msize));

	for (i = 0; i < l->nr_mem; i++) {
		free(l->mem[i].writers);
		free(l->mem[i].readers);
	}
	free(l->mem);
	l->mem = xcalloc(c->nr_acc ? c->nr_acc : 1, sizeof(*l->mem));
	l->nr_mem = 0;
	for (i = 0; i < c->nr_acc; i++) {
		const struct rm_cf_access *a = &c->acc[i];
		struct rm_member *mb;

		for (k = 0; k < l->nr_mem && !same_member(l, &l->mem[k], msize[k], a); k++)
			;
		mb = &l->mem[k];
		tm[i] = k;
		if (k == l->nr_mem) {
			mb->name = a->member[0] ? a->member : NULL;
			mb->offset = a->offset;
			msize[k] = a->size;
			l->nr_mem++;
		} else if (a->offset < mb->offset) {
			msize[k] += mb->offset - a->offset;
			mb->offset = a->offset;
		}
		mb->reads += a->reads;
		mb->writes += a->writes;
		mb->atomics += a->atomics;
		if (a->writes || a->atomics)
			set_add(&mb->writers, &mb->nr_writers, a->thread);
		if (a->reads)
			set_add(&mb->readers, &mb->nr_readers, a->thread);
	}
	*tx = *fx = *tb = *fb = 0;
	for (i = 0; i < c->nr_acc; i++) {
		const struct rm_cf_access *a = &c->acc[i];
		double t = (double)a->xfers_true, f = (double)a->xfers_false, ts = 0, fs = 0, n;
		int inval_true = 0, aw = a->writes || a->atomics;

		/* an invalidation is true sharing when another thread read these bytes */
		for (k = 0; a->inval && k < c->nr_acc; k++)
			inval_true |= c->acc[k].thread != a->thread && c->acc[k].reads &&
				      same_bytes(a, &c->acc[k]);
		*(inval_true ? &t : &f) += (double)a->inval;
		mt[tm[i]] += t;
		mf[tm[i]] += f;
		/* the rule of findings.h on the watched accesses, every access weighing 1 */
		for (k = 0; k < c->nr_acc; k++) {
			const struct rm_cf_access *b = &c->acc[k];
			double wr = (double)(b->writes + b->atomics), rd = (double)b->reads;
			uint64_t slack = slack_of(a, b);
			int own = 0;

			if (b->thread == a->thread || b->t_first > a->t_last + slack ||
			    a->t_first > b->t_last + slack)
				continue;
			if (tm[k] == tm[i] || same_bytes(a, b)) {
				ts += wr + (aw ? rd : 0);
				continue;
			}
			for (size_t j = 0; j < c->nr_acc && !own; j++)
				own = c->acc[j].thread == a->thread && tm[j] == tm[k] &&
				      (c->acc[j].writes || c->acc[j].atomics);
			if (!own)
				fs += wr;
		}
		n = (double)(a->reads + a->writes + a->atomics);
		if (ts + fs > 0) {
			bt[tm[i]] += n * ts / (ts + fs);
			bf[tm[i]] += n * fs / (ts + fs);
		}
	}
	for (i = 0; i < l->nr_mem; i++) {
		*tx += mt[i];
		*fx += mf[i];
		*tb += bt[i];
		*fb += bf[i];
	}
	/* the members keep the split the verdict is made from (scaled by the caller): the rule's
	 * (a member both threads write is shared truly, a lock and the data it guards), the
	 * transfers' where the rule found no concurrent source */
	for (i = 0; i < l->nr_mem; i++) {
		int by_x = *tb + *fb <= 0;

		l->mem[i].true_cost = by_x ? mt[i] : bt[i];
		l->mem[i].false_cost = by_x ? mf[i] : bf[i];
	}
	free(mt);
	free(tm);
	free(msize);
	if (l->nr_mem > 1)
		qsort(l->mem, l->nr_mem, sizeof(*l->mem), member_cmp);
	for (i = 0; i < l->nr_mem; i++) {
		const struct rm_row *r = row_of(l, &l->mem[i]);

		l->mem[i].named = l->mem[i].name ? r : NULL;
		if (r && l->mem[i].nr_writers)
			l->mem[i].writer_row = r;
		if (r && l->mem[i].nr_readers)
			l->mem[i].reader_row = r;
	}
}

/* The writes and atomic updates the watchpoints saw on the line. */
static uint64_t watched_writes(const struct rm_confirm *c)
{
	uint64_t n = 0;

	for (size_t i = 0; i < c->nr_acc; i++)
		n += c->acc[i].writes + c->acc[i].atomics;
	return n;
}

/* Every word the watched accesses touched was armed with all the others in some window: a
 * write to any of them would have been seen. */
static int all_coarmed(const struct rm_confirm *c)
{
	uint32_t used = 0;

	for (size_t i = 0; i < c->nr_acc; i++) {
		uint32_t lo = c->acc[i].offset / 8, hi = (c->acc[i].offset +
				(c->acc[i].size ? c->acc[i].size : 1) - 1) / 8;

		for (uint32_t w = lo; w <= hi && w < 32; w++)
			used |= 1u << w;
	}
	for (size_t i = 0; i < c->nr_coarm; i++)
		if ((c->coarm[i].words & used) == used)
			return 1;
	return 0;
}

void rm_confirm_judge(const struct rm_model *m, struct rm_line *l)
{
	struct rm_confirm *c = l->confirm;
	double tx, fx, tb, fb, t, f, all, scale;
	const struct rm_member *best = NULL;

	(void)m;
	c->sampled = l->verdict;
	c->judged = c->by_bytes = 0;
	c->why = NULL;
	if (c->state == RM_CF_SAMPLES) {
		c->why = "no window armed the line's words";
		return;
	}
	if (c->state == RM_CF_NO_HITS) {
		c->why = "its words were armed but no access was seen";
		return;
	}
	if (c->nr_threads < l->nr_threads && c->xfers + c->inval < CONFIRM_MIN_XFERS) {
		/* what was not watched is unknown, not absent */
		c->why = "the watchpoints saw fewer threads than the samples, and too few transfers";
		return;
	}
	c->judged = 1;
	if ((double)watched_writes(c) * RM_WATCH_FLOOR < (double)c->hits && all_coarmed(c)) {
		/* the line was hardly written while it was watched: read-mostly, not contended,
		 * however the samples' time there was split (soft: time at a load is not time
		 * missing). Few transfers alone would not say it: threads that took turns on one
		 * CPU of a loaded machine move the line seldom while it is watched */
		l->verdict = RM_V_NONE;
		l->true_cost = l->false_cost = 0;
		for (size_t i = 0; i < l->nr_mem; i++)
			l->mem[i].true_cost = l->mem[i].false_cost = l->mem[i].cost = 0;
		return;
	}
	rebuild_members(l, c, &tx, &fx, &tb, &fb);
	/* the transfers say that the line moved; who wrote which bytes says why (findings.h's
	 * rule on the watched accesses: a transfer between two threads that both write the bytes
	 * is true sharing however the line was owned), the transfers' own split where the rule
	 * found no concurrent source */
	c->by_bytes = tb + fb > 0;
	t = c->by_bytes ? tb : tx;
	f = c->by_bytes ? fb : fx;
	all = t + f;
	if (all <= 0) {
		l->verdict = RM_V_NONE;
		l->true_cost = l->false_cost = 0;
		return;
	}
	l->verdict = t >= all * RM_MIXED_SHARE && f >= all * RM_MIXED_SHARE ? RM_V_MIXED :
		     t > f ? RM_V_TRUE : RM_V_FALSE;
	/* the line's sampled time, split as the transfers (or the accesses) are */
	scale = l->cost > 0 ? l->cost / all : 0;
	l->true_cost = t * scale;
	l->false_cost = f * scale;
	for (size_t i = 0; i < l->nr_mem; i++) {
		struct rm_member *mb = &l->mem[i];

		mb->true_cost *= scale;
		mb->false_cost *= scale;
		mb->cost = mb->true_cost + mb->false_cost;
		if (!best || mb->cost > best->cost)
			best = mb;
	}
	if (best && (best->writer_row || best->reader_row)) {
		const struct rm_row *r = best->writer_row ? best->writer_row : best->reader_row;

		if (r->object) {
			l->object = r->object;
			l->object_what = r->object_what;
		}
	}
}

/* --- text ------------------------------------------------------------------------------------ */

static int acc_weight_cmp(const void *pa, const void *pb)
{
	const struct rm_cf_access *a = *(const struct rm_cf_access *const *)pa;
	const struct rm_cf_access *b = *(const struct rm_cf_access *const *)pb;
	uint64_t na = a->reads + a->writes + a->atomics, nb = b->reads + b->writes + b->atomics;

	if (na != nb)
		return (na < nb) - (na > nb);
	return (a->offset > b->offset) - (a->offset < b->offset);
}

/* "8,000 writes of g_line.lock (0x0, 8 bytes) by lockread/101" */
void rm_confirm_access_text(const struct rm_cf_access *a, char *buf, size_t n)
{
	char thr[96], bytes[24];
	size_t len;

	rm_thread_name(a->thread, thr, sizeof(thr));
	snprintf(bytes, sizeof(bytes), a->size ? ", %u byte%s" : "", a->size, a->size == 1 ? "" : "s");
	len = (size_t)snprintf(buf, n, "%s", "");
	if (a->reads)
		len += (size_t)snprintf(buf + len, n - len, "%llu read%s", (unsigned long long)a->reads,
					a->reads == 1 ? "" : "s");
	if (a->writes && len < n)
		len += (size_t)snprintf(buf + len, n - len, "%s%llu write%s", len ? ", " : "",
					(unsigned long long)a->writes, a->writes == 1 ? "" : "s");
	if (a->atomics && len < n)
		len += (size_t)snprintf(buf + len, n - len, "%s%llu atomic%s", len ? ", " : "",
					(unsigned long long)a->atomics, a->atomics == 1 ? "" : "s");
	if (len < n)
		snprintf(buf + len, n - len, " of %s%s0x%x%s%s by %s", a->member[0] ? a->member : "",
			 a->member[0] ? " (" : "", a->offset, bytes, a->member[0] ? ")" : "", thr);
}

void rm_confirm_text(const struct rm_line *l, char *buf, size_t n)
{
	const struct rm_confirm *c = l->confirm;
	const struct rm_cf_access **top;
	char one[320];
	size_t len, k;

	if (!c) {
		snprintf(buf, n, "no confirmation in this recording");
		return;
	}
	if (!c->judged) {
		len = (size_t)snprintf(buf, n, "%s: %s; the samples' verdict stands",
				       c->state == RM_CF_SAMPLES ? "seen only by samples" : "watched",
				       c->why ? c->why : "not judged");
		if (c->state == RM_CF_SEEN && len < n)
			snprintf(buf + len, n - len, " (%llu accesses seen in %llu windows)",
				 (unsigned long long)c->hits, (unsigned long long)c->windows);
		return;
	}
	len = (size_t)snprintf(buf, n, "confirmed: %llu accesses by %u thread%s in "
			       "%llu window%s (%.3g ms armed): ", (unsigned long long)c->hits,
			       c->nr_threads, c->nr_threads == 1 ? "" : "s",
			       (unsigned long long)c->windows, c->windows == 1 ? "" : "s",
			       (double)c->armed_ns / 1e6);
	top = xcalloc(c->nr_acc ? c->nr_acc : 1, sizeof(*top));
	for (k = 0; k < c->nr_acc; k++)
		top[k] = &c->acc[k];
	qsort(top, c->nr_acc, sizeof(*top), acc_weight_cmp);
	for (k = 0; k < c->nr_acc && k < 3 && len < n; k++) {
		rm_confirm_access_text(top[k], one, sizeof(one));
		len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? "; " : "", one);
	}
	if (c->nr_acc > 3 && len < n)
		len += (size_t)snprintf(buf + len, n - len, "; %zu more", c->nr_acc - 3);
	free(top);
	if (len < n && c->xfers + c->inval)
		len += (size_t)snprintf(buf + len, n - len, "; %llu transfers and %llu invalidations "
					"between words armed together (%llu of the transfers on "
					"bytes the owner wrote)", (unsigned long long)c->xfers,
					(unsigned long long)c->inval,
					(unsigned long long)c->xfers_true);
	else if (len < n)
		len += (size_t)snprintf(buf + len, n - len, "; no transfer between words armed "
					"together");
	if (len < n && l->verdict == RM_V_NONE && c->hits)
		len += (size_t)snprintf(buf + len, n - len, ": fewer than one write per %d "
					"accesses, not contended", RM_WATCH_FLOOR);
	else if (len < n && c->by_bytes)
		len += (size_t)snprintf(buf + len, n - len, ": judged by who wrote which bytes");
	else if (len < n)
		len += (size_t)snprintf(buf + len, n - len, ": judged by the transfers");
	if (len < n && c->sampled != l->verdict)
		snprintf(buf + len, n - len, " (the samples alone said %s)",
			 rm_verdict_name(c->sampled));
}
