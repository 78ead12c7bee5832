/* Matching the findings of two runs (see diff.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "report/diff/diff.h"

const char *diff_status_name(enum diff_status s)
{
	switch (s) {
	case DIFF_GONE: return "GONE";
	case DIFF_SHRANK: return "SHRANK";
	case DIFF_SAME: return "SAME";
	case DIFF_GREW: return "GREW";
	case DIFF_NEW: default: return "NEW";
	}
}

/* @s without " of pid N" and " of tid N": those change from run to run. */
static void strip_ids(const char *s, char *buf, size_t n)
{
	size_t o = 0;

	while (*s && o + 1 < n) {
		if (!strncmp(s, " of pid ", 8) || !strncmp(s, " of tid ", 8)) {
			s += 8;
			while (isdigit((unsigned char)*s))
				s++;
			continue;
		}
		buf[o++] = *s++;
	}
	buf[o] = 0;
}

void diff_key(const struct rm_finding *f, char *buf, size_t n)
{
	const struct rm_line *l = f->line[0];
	size_t i, len;

	if (f->object && f->object != f->what && f->object != f->addr) {
		strip_ids(f->object, buf, n);
		return;
	}
	/* unnamed data: the code that touches it */
	len = (size_t)snprintf(buf, n, "code:");
	for (i = 0; i < l->nr_row && len < n; i++) {
		const char *sym = l->row[i].code.symbol;

		if (!sym || strstr(buf, sym))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s", len > 5 ? "," : "", sym);
	}
	if (len == 5)
		snprintf(buf, n, "line:%s", f->addr);
}

static void side(struct diff_side *s, const struct rm_finding *f)
{
	s->f = f;
	s->verdict = f ? f->verdict : RM_V_NONE;
	s->share = f ? f->share : 0;
	s->gain = f ? f->gain : 0;
}

static enum diff_status status_of(const struct diff_entry *e)
{
	double a = e->old.share, b = e->new.share;

	if (!e->old.f)
		return DIFF_NEW;
	if (!e->new.f)
		return DIFF_GONE;
	if (fabs(b - a) < DIFF_SAME_POINTS || fabs(b - a) < 0.1 * a)
		return DIFF_SAME;
	return b < a ? DIFF_SHRANK : DIFF_GREW;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct diff_entry *a = pa, *b = pb;
	double x = a->old.share > a->new.share ? a->old.share : a->new.share;
	double y = b->old.share > b->new.share ? b->old.share : b->new.share;

	if (a->status != b->status)
		return (a->status > b->status) - (a->status < b->status);
	if (x != y)
		return (x < y) - (x > y);
	return strcmp(a->key, b->key);
}

struct diff *diff_build(const struct rm_findings *old, const struct rm_findings *new)
{
	struct diff *d = xcalloc(1, sizeof(*d));
	char key[256];
	size_t i, k;

	d->e = xcalloc(old->nr + new->nr + 1, sizeof(*d->e));
	for (i = 0; i < old->nr; i++) {
		struct diff_entry *e = &d->e[d->nr];

		diff_key(&old->f[i], key, sizeof(key));
		for (k = 0; k < d->nr && strcmp(d->e[k].key, key); k++)
			;
		if (k < d->nr)
			continue;   /* two old findings of one key: the costlier (first) stands */
		snprintf(e->key, sizeof(e->key), "%s", key);
		e->what = old->f[i].what;
		side(&e->old, &old->f[i]);
		d->nr++;
	}
	for (i = 0; i < new->nr; i++) {
		struct diff_entry *e;

		diff_key(&new->f[i], key, sizeof(key));
		for (k = 0; k < d->nr && strcmp(d->e[k].key, key); k++)
			;
		e = &d->e[k];
		if (k == d->nr) {
			snprintf(e->key, sizeof(e->key), "%s", key);
			d->nr++;
		} else if (e->new.f) {
			continue;
		}
		e->what = new->f[i].what;
		side(&e->new, &new->f[i]);
	}
	for (i = 0; i < d->nr; i++) {
		d->e[i].status = status_of(&d->e[i]);
		switch (d->e[i].status) {
		case DIFF_GONE: d->gone++; break;
		case DIFF_SHRANK: d->shrank++; break;
		case DIFF_SAME: d->same++; break;
		case DIFF_GREW: d->grew++; break;
		case DIFF_NEW: d->appeared++; break;
		}
	}
	if (d->nr)
		qsort(d->e, d->nr, sizeof(*d->e), entry_cmp);
	return d;
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	free(d->e);
	free(d);
}

/* --- workloads ---------------------------------------------------------------------------------- */

static const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

int diff_workload(const char *cmdline, const char *options, char *buf, size_t n)
{
	static const char rec[] = "c2c-lite record ";
	const char *p = NULL;
	size_t len;

	if (!cmdline)
		return -ENOENT;
	if (options && !strncmp(cmdline, rec, sizeof(rec) - 1)) {
		p = skip_spaces(cmdline + sizeof(rec) - 1);
		len = strlen(options);
		if (len && !strncmp(p, options, len) && (!p[len] || p[len] == ' '))
			p = skip_spaces(p + len);
		else if (len)
			p = NULL;      /* not as c2c-lite writes it */
	}
	if (!p && (p = strstr(cmdline, " -- ")))
		p = skip_spaces(p + 4);
	if (p && !strncmp(p, "-- ", 3))
		p = skip_spaces(p + 3);
	if (!p || !*p)
		return -ENOENT;
	snprintf(buf, n, "%s", p);
	return 0;
}

/* The first word of @w, its shell quoting undone, without its directory; @rest: what follows. */
static void program_of(const char *w, char *buf, size_t n, const char **rest)
{
	size_t o = 0;
	char q = 0;

	for (; *w && (q || *w != ' '); w++) {
		if (!q && (*w == '\'' || *w == '"')) {
			q = *w;
			continue;
		}
		if (q && *w == q) {
			q = 0;
			continue;
		}
		if (!q && *w == '\\' && w[1])
			w++;
		if (*w == '/')
			o = 0;
		else if (o + 1 < n)
			buf[o++] = *w;
	}
	buf[o < n ? o : n - 1] = 0;
	*rest = skip_spaces(w);
}

enum diff_workloads diff_workloads_cmp(const char *old, const char *new)
{
	char a[256], b[256];
	const char *ra, *rb;

	if (!old || !new)
		return DIFF_WL_UNKNOWN;
	program_of(old, a, sizeof(a), &ra);
	program_of(new, b, sizeof(b), &rb);
	if (strcmp(a, b))
		return DIFF_WL_PROGRAMS;
	return strcmp(ra, rb) ? DIFF_WL_ARGS : DIFF_WL_SAME;
}

const char *diff_workloads_key(enum diff_workloads w)
{
	switch (w) {
	case DIFF_WL_SAME: return "same";
	case DIFF_WL_ARGS: return "other arguments";
	case DIFF_WL_PROGRAMS: return "different programs";
	case DIFF_WL_UNKNOWN: default: return "unknown";
	}
}

void diff_time_build(const struct c2c_run *old, const struct c2c_run *new,
		     enum diff_workloads wl, struct diff_time *out)
{
	memset(out, 0, sizeof(*out));
	out->have_old = old != NULL;
	out->have_new = new != NULL;
	if (old)
		out->old = *old;
	if (new)
		out->new = *new;
	if (old && new && new->wall_ns)
		out->speedup = (double)old->wall_ns / (double)new->wall_ns;
	if (old && new && new->user_ns + new->sys_ns)
		out->cpu_ratio = (double)(old->user_ns + old->sys_ns) /
				 (double)(new->user_ns + new->sys_ns);
	if (!old || !new)
		out->why = "a run has no record of its workload's time (recorded with -p or -a, "
			   "before trace 1.8, or by perf)";
	else if (wl == DIFF_WL_PROGRAMS)
		out->why = "the runs are of different programs";
	else if (wl == DIFF_WL_ARGS)
		out->why = "the runs are of one program with other arguments";
	else if (wl != DIFF_WL_SAME)
		out->why = "the runs' commands are not known";
	else if (old->signaled || old->status || new->signaled || new->status)
		out->why = "a run did not exit 0";
	out->comparable = !out->why;
}
