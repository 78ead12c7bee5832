/* The contend views as text (see contend-text.h). */
#include <stdio.h>
#include <string.h>

#include "report/model/contend-text.h"
#include "report/model/findings.h"

/* "fs/101, fs/102" or "3 threads (fs/101, fs/102, fs/103)" */
static void threads(const struct maps_thread *const *t, size_t nr, char *buf, size_t n)
{
	rm_threads_text(t, nr, buf, n);
}

void rm_contend_pair_row(const struct rm_model *m, const struct rm_fn_pair *p, char *buf,
			 size_t n)
{
	char a[128], b[128], thr[256];

	(void)m;
	rm_fn_text(&p->fn[0], a, sizeof(a));
	rm_fn_text(&p->fn[1], b, sizeof(b));
	threads(p->thread, p->nr_thread, thr, sizeof(thr));
	if (p->self)
		snprintf(buf, n, "%7.2f%%  %-13s  %5zu  %s, with itself across %s", p->share,
			 rm_verdict_short(p->verdict), p->nr_line, a, thr);
	else
		snprintf(buf, n, "%7.2f%%  %-13s  %5zu  %s <-> %s, by %s", p->share,
			 rm_verdict_short(p->verdict), p->nr_line, a, b, thr);
}

void rm_contend_type_row(const struct rm_model *m, const struct rm_type_line *t, char *buf,
			 size_t n)
{
	uint32_t cl = m->cl_size ? m->cl_size : 64;
	char thr[256], mem[512] = "";
	size_t i, len = 0;

	threads(t->thread, t->nr_thread, thr, sizeof(thr));
	for (i = 0; i < t->nr_member && len + 1 < sizeof(mem); i++) {
		int w = snprintf(mem + len, sizeof(mem) - len, "%s%s", i ? ", " : "",
				 t->member[i] ? t->member[i] : "(unnamed bytes)");

		if (w < 0)
			break;
		len += (size_t)w;
	}
	snprintf(buf, n, "%7.2f%%  %-13s  %s, line %u (bytes %llu-%llu): %llu instance%s, %s; %s",
		 t->share, rm_verdict_short(t->verdict), t->type, t->index,
		 (unsigned long long)t->index * cl, (unsigned long long)(t->index + 1) * cl - 1,
		 (unsigned long long)t->nr_inst, t->nr_inst == 1 ? "" : "s", mem, thr);
}

/* A view's table: @title and @head, then rows @row(0..) of the @top first (0: all) of @nr. */
static void table(const struct rm_model *m, const struct rm_contend *c, size_t nr, size_t top,
		  const char *title, const char *head,
		  void (*row)(const struct rm_model *m, const struct rm_contend *c, size_t i,
			      char *buf, size_t n),
		  rm_put_fn *put, void *ctx)
{
	char buf[1024];
	size_t i, n = top && top < nr ? top : nr;

	put(ctx, title);
	put(ctx, head);
	for (i = 0; i < n; i++) {
		row(m, c, i, buf, sizeof(buf));
		put(ctx, buf);
	}
	if (n < nr) {
		snprintf(buf, sizeof(buf), "  (%zu more)", nr - n);
		put(ctx, buf);
	}
}

static void pair_row(const struct rm_model *m, const struct rm_contend *c, size_t i, char *buf,
		     size_t n)
{
	rm_contend_pair_row(m, &c->pair[i], buf, n);
}

static void type_row(const struct rm_model *m, const struct rm_contend *c, size_t i, char *buf,
		     size_t n)
{
	rm_contend_type_row(m, &c->type[i], buf, n);
}

void rm_contend_pairs_text(const struct rm_model *m, const struct rm_contend *c, size_t top,
			   rm_put_fn *put, void *ctx)
{
	char title[256];

	if (!c || !c->nr_pair)
		return;
	snprintf(title, sizeof(title), "Contending functions: %zu pair%s whose threads touch the "
		 "same contended lines, one writing (share of %s; a function counts in each of its "
		 "pairs)", c->nr_pair, c->nr_pair == 1 ? "" : "s", m->cost_name);
	table(m, c, c->nr_pair, top, title, "   Share  Verdict        Lines  Functions", pair_row,
	      put, ctx);
}

void rm_contend_types_text(const struct rm_model *m, const struct rm_contend *c, size_t top,
			   rm_put_fn *put, void *ctx)
{
	char title[256];

	if (!c || !c->nr_type)
		return;
	snprintf(title, sizeof(title), "Contention by data type: %zu line%s of types, every "
		 "instance pooled (share of %s)", c->nr_type, c->nr_type == 1 ? "" : "s",
		 m->cost_name);
	table(m, c, c->nr_type, top, title, "   Share  Verdict        Type and its line: "
	      "instances, members; threads", type_row, put, ctx);
}
