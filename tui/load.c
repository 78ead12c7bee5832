/* Loading a model: the report session reads the input once and builds the report model every
 * front end shows; a PMU table keeps every line so that display-mode switches need no second
 * pass. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/cmdline.h"
#include "report/model/sections-build.h"
#include "tui/model.h"

static void tui_model_sync(struct tui_model *m)
{
	struct report_session *s = m->s;

	m->kind = s->kind;
	m->rm = s->m;
	m->fs = s->fs;
	m->contend = s->contend;
	m->t = s->t;
	m->e = s->e;
	m->info = s->info;
	m->path = source_path(s->src);
	m->records = s->records;
	m->truncated = s->truncated;
	m->duty = s->have_duty ? &s->duty : NULL;
	m->sections = s->sections;
}

int tui_model_load(struct tui_model **out, const struct tui_load_opts *o, tui_progress_fn progress,
		   void *ctx)
{
	struct tui_model *m = xcalloc(1, sizeof(*m));
	struct rs_opts ro = {
		.input = o->input, .cl_size = o->cl_size, .display = o->display,
		.nr_coalesce = o->nr_coalesce, .remodel = 1, .node_stats = 1, .symfs = o->symfs,
		.vmlinux = o->vmlinux, .progress = progress, .progress_ctx = ctx,
		.check = o->use ? cmdline_check_input : NULL, .check_ctx = o->use,
		.jobs = cmdline_default_jobs(),   /* as report's default */
	};
	int rc;

	*out = NULL;
	m->opts = *o;
	memcpy(ro.coalesce, o->coalesce, sizeof(ro.coalesce));
	rc = rs_open(&m->s, &ro);
	if (rc) {
		free(m);
		return rc;
	}
	tui_model_sync(m);
	*out = m;
	return 0;
}

struct tui_model *tui_model_wrap(const struct rm_model *rm, const struct rm_findings *fs,
				 const struct cltab *t, const struct estim *e)
{
	struct tui_model *m = xcalloc(1, sizeof(*m));

	m->kind = rm->kind;
	m->rm = rm;
	m->fs = fs;
	m->t = t;
	m->e = e;
	m->opts.display = (int)rm->display;
	m->own = rm_sections_new();
	if (e)
		rm_sec_run(m->own, &(struct rm_run_in){ .e = e, .m = rm, .fs = fs });
	m->sections = m->own;
	if (rm->kind == RM_PMU) {
		memcpy(m->opts.coalesce, rm->coalesce, sizeof(m->opts.coalesce));
		m->opts.nr_coalesce = rm->nr_coalesce;
	}
	return m;
}

int tui_model_display(struct tui_model *m, enum cltab_display d)
{
	if (!m->s || m->kind != RM_PMU)
		return -ENOTSUP;
	rs_remodel(m->s, d);
	tui_model_sync(m);
	return 0;
}

void tui_model_free(struct tui_model *m)
{
	if (!m)
		return;
	rs_free(m->s);
	rm_sections_free(m->own);
	free(m);
}
