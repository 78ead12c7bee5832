/* `c2c-lite diff OLD NEW`: the before and after of a fix, finding by finding (report/diff/). Both
 * inputs go through the report session as `report` reads them; text or JSON out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "report/cmdline.h"
#include "report/diff/diff.h"
#include "report/json/jw.h"
#include "report/model/session.h"

static const char diff_usage[] =
	"usage: c2c-lite diff [options] OLD NEW\n"
	"\n"
	"Compare the findings of two traces or perf.data files (before and after a fix): which\n"
	"went away, shrank, grew or appeared, by their share of each run's cost. Findings match by\n"
	"data object and code, not by address.\n"
	"\n"
	"  -d, --display MODE      PMU data: rank by tot, rmt, lcl or peer HITMs/snoops\n"
	"      --cacheline-size N  bytes per cacheline (default: this machine's)\n"
	"  -k, --vmlinux FILE      kernel image for kernel symbols\n"
	"      --symfs DIR         look for mapped files under DIR\n"
	"      --json              JSON (schema c2c-lite-diff, version 1: docs/report-json.md)\n"
	"  -v, --verbose           more messages\n"
	"  -q, --quiet             errors only\n"
	"  -h, --help              this text ('c2c-lite help diff': the manual)\n";

struct diff_opts {
	const char *old, *new;
	int display;
	uint32_t cl_size;
	const char *vmlinux, *symfs;
	int json;
	struct cmdline_use use;     /* what was given, for the option policy (report/cmdline.h) */
};

enum {
	OPT_CL_SIZE = CMDLINE_VAL(CMDLINE_CL_SIZE), OPT_SYMFS = CMDLINE_VAL(CMDLINE_SYMFS),
	OPT_JSON = CMDLINE_VAL(CMDLINE_JSON),
};

static int parse_opts(struct diff_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "display", required_argument, NULL, 'd' },
		{ "cacheline-size", required_argument, NULL, OPT_CL_SIZE },
		{ "vmlinux", required_argument, NULL, 'k' }, { "symfs", required_argument, NULL, OPT_SYMFS },
		{ "json", no_argument, NULL, OPT_JSON }, { "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "d:k:vqh", lopts)) != -1) {
		cmdline_give(&o->use, c, optarg);
		switch (c) {
		case 'd':
			if ((o->display = cmdline_display(optarg)) < 0)
				return EXIT_USAGE;
			break;
		case OPT_CL_SIZE:
			if (cmdline_cl_size(optarg, &o->cl_size))
				return EXIT_USAGE;
			break;
		case 'k': o->vmlinux = optarg; break;
		case OPT_SYMFS: o->symfs = optarg; break;
		case OPT_JSON: o->json = 1; break;
		case 'v': c2c_log_set_level(C2C_LOG_DEBUG); break;
		case 'q': c2c_log_set_level(C2C_LOG_ERROR); break;
		case 'h': fputs(diff_usage, stdout); return -1;
		default: return EXIT_USAGE;     /* c2c_getopt() said why */
		}
	}
	if (argc - optind != 2) {
		c2c_usage("diff needs two inputs, OLD and NEW");
		return EXIT_USAGE;
	}
	o->old = argv[optind];
	o->new = argv[optind + 1];
	o->use.out = CMDLINE_OUT_DIFF;
	return cmdline_check_output(&o->use) ? EXIT_USAGE : 0;
}

static int load(struct diff_opts *o, const char *path, struct report_session **out)
{
	struct rs_opts ro = { .input = path, .cl_size = o->cl_size, .display = o->display,
			      .symfs = o->symfs, .vmlinux = o->vmlinux, .no_topdown = 1,
			      .check = cmdline_check_input, .check_ctx = &o->use };

	return rs_open(out, &ro);
}

static void side_text(char *buf, size_t n, const struct diff_side *s, const char *cost)
{
	if (!s->f)
		snprintf(buf, n, "no contention");
	else
		snprintf(buf, n, "%s, %.2f%% of %s", rm_verdict_name(s->verdict), s->share, cost);
}

/* What each run recorded (workload text, "" when unknown) and how the two compare. */
struct runs_wl {
	char old[512], new[512];
	enum diff_workloads cmp;
};

static void runs_workloads(const struct report_session *a, const struct report_session *b,
			   struct runs_wl *w)
{
	int ka = !diff_workload(a->info->cmdline, a->info->options, w->old, sizeof(w->old));
	int kb = !diff_workload(b->info->cmdline, b->info->options, w->new, sizeof(w->new));

	if (!ka)
		w->old[0] = 0;
	if (!kb)
		w->new[0] = 0;
	w->cmp = diff_workloads_cmp(ka ? w->old : NULL, kb ? w->new : NULL);
}

static void runs_time(const struct report_session *a, const struct report_session *b,
		      enum diff_workloads wl, struct diff_time *t)
{
	diff_time_build(a->have_run ? &a->run : NULL, b->have_run ? &b->run : NULL, wl, t);
}

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* "# workload time: 2.041 s -> 0.868 s wall (2.35x faster), CPU 2.73 s -> 1.74 s; exit 0 ->
 * exit 0", and why the times do not compare when they do not. */
static void print_time(FILE *f, const struct diff_time *t)
{
	char eo[64], en[64];

	if (!t->have_old || !t->have_new) {
		fprintf(f, "# workload time: not compared: %s\n", t->why);
		return;
	}
	c2c_run_exit_text(&t->old, eo, sizeof(eo));
	c2c_run_exit_text(&t->new, en, sizeof(en));
	fprintf(f, "# workload time: %.3f s -> %.3f s wall", sec(t->old.wall_ns),
		sec(t->new.wall_ns));
	if (t->comparable && t->speedup >= 1)
		fprintf(f, " (%.2fx faster)", t->speedup);
	else if (t->comparable && t->speedup > 0)
		fprintf(f, " (%.2fx slower)", 1 / t->speedup);
	fprintf(f, ", CPU %.3f s -> %.3f s; %s -> %s\n", sec(t->old.user_ns + t->old.sys_ns),
		sec(t->new.user_ns + t->new.sys_ns), eo, en);
	if (!t->comparable)
		fprintf(f, "# (no speedup said: %s)\n", t->why);
}

static int print_text(FILE *f, const struct report_session *a, const struct report_session *b,
		      const struct diff *d)
{
	struct diff_time tm;
	char before[160], after[160];
	struct runs_wl wl;
	size_t i;

	fprintf(f, "# c2c-lite diff: '%s' (%s) -> '%s' (%s)\n", source_path(a->src),
		rm_kind_name(a->kind), source_path(b->src), rm_kind_name(b->kind));
	if (a->kind != b->kind)
		fprintf(f, "# the runs come from different backends: shares are compared, figures "
			"are not\n");
	runs_workloads(a, b, &wl);
	if (wl.cmp == DIFF_WL_PROGRAMS)
		fprintf(f, "# the runs are of different programs: '%s' -> '%s' (findings match by "
			"data name and code)\n", wl.old, wl.new);
	else if (wl.cmp == DIFF_WL_ARGS)
		fprintf(f, "# the runs are of one program with other arguments: '%s' -> '%s'\n",
			wl.old, wl.new);
	runs_time(a, b, wl.cmp, &tm);
	print_time(f, &tm);
	fprintf(f, "# findings by their share of each run's %s: %zu gone, %zu shrank, %zu same, "
		"%zu grew, %zu new\n", b->m->cost_name, d->gone, d->shrank, d->same, d->grew,
		d->appeared);
	for (i = 0; i < d->nr; i++) {
		const struct diff_entry *e = &d->e[i];

		side_text(before, sizeof(before), &e->old, a->m->cost_name);
		side_text(after, sizeof(after), &e->new, b->m->cost_name);
		fprintf(f, "\n%-7s %s\n", diff_status_name(e->status), e->what ? e->what : e->key);
		fprintf(f, "        before: %s\n", before);
		fprintf(f, "        after:  %s\n", after);
		if (e->status == DIFF_GONE && e->old.gain > 0)
			fprintf(f, "        the false sharing the fix addressed cost up to %.2f%% of %s\n",
				e->old.gain, a->m->cost_name);
		if (e->new.f && e->status != DIFF_SAME)
			fprintf(f, "        advice: %s\n", e->new.f->advice);
	}
	if (!d->nr)
		fprintf(f, "\nno contended cacheline in either run\n");
	return ferror(f) ? -EIO : 0;
}

static void json_run(struct jw *w, const char *key, const struct report_session *s,
		     const char *workload)
{
	jw_obj(w, key);
	jw_str(w, "input", source_path(s->src));
	jw_str(w, "workload", *workload ? workload : NULL);
	jw_str(w, "kind", rm_kind_name(s->kind));
	jw_str(w, "cost", s->m->cost_name);
	jw_num(w, "total_cost", s->m->total_cost);
	jw_num(w, "findings", (double)s->fs->nr);
	jw_end(w);
}

static void json_side(struct jw *w, const char *key, const struct diff_side *s)
{
	if (!s->f) {
		jw_str(w, key, NULL);
		return;
	}
	jw_obj(w, key);
	jw_str(w, "what", s->f->what);
	jw_str(w, "verdict", rm_verdict_key(s->verdict));
	jw_num(w, "share", s->share);
	jw_num(w, "gain", s->gain);
	jw_str(w, "advice", s->f->advice);
	jw_end(w);
}

static void json_run_time(struct jw *w, const char *key, int have, const struct c2c_run *r)
{
	if (!have) {
		jw_str(w, key, NULL);
		return;
	}
	jw_obj(w, key);
	jw_u64(w, "wall_ns", r->wall_ns);
	jw_u64(w, "cpu_ns", r->user_ns + r->sys_ns);
	jw_str(w, "exit", r->signaled ? "signaled" : "exited");
	jw_num(w, "status", r->status);
	jw_end(w);
}

static void json_time(struct jw *w, const struct diff_time *t)
{
	jw_obj(w, "time");
	json_run_time(w, "old", t->have_old, &t->old);
	json_run_time(w, "new", t->have_new, &t->new);
	jw_bool(w, "comparable", t->comparable);
	if (t->comparable)
		jw_num(w, "speedup", t->speedup);
	else
		jw_str(w, "speedup", NULL);
	jw_str(w, "why", t->why);
	jw_end(w);
}

static int print_json(FILE *f, const struct report_session *a, const struct report_session *b,
		      const struct diff *d)
{
	struct diff_time tm;
	struct jw w = { .f = f };
	struct runs_wl wl;
	size_t i;

	runs_workloads(a, b, &wl);
	fputc('{', f);
	jw_str(&w, "schema", "c2c-lite-diff");
	jw_num(&w, "version", 1);
	json_run(&w, "old", a, wl.old);
	json_run(&w, "new", b, wl.new);
	jw_str(&w, "workloads", diff_workloads_key(wl.cmp));
	runs_time(a, b, wl.cmp, &tm);
	json_time(&w, &tm);
	jw_obj(&w, "summary");
	jw_num(&w, "gone", (double)d->gone);
	jw_num(&w, "shrank", (double)d->shrank);
	jw_num(&w, "same", (double)d->same);
	jw_num(&w, "grew", (double)d->grew);
	jw_num(&w, "new", (double)d->appeared);
	jw_end(&w);
	jw_arr(&w, "findings");
	for (i = 0; i < d->nr; i++) {
		static const char *const st[] = { "gone", "shrank", "same", "grew", "new" };

		jw_obj(&w, NULL);
		jw_str(&w, "key", d->e[i].key);
		jw_str(&w, "what", d->e[i].what);
		jw_str(&w, "status", st[d->e[i].status]);
		json_side(&w, "old", &d->e[i].old);
		json_side(&w, "new", &d->e[i].new);
		jw_end(&w);
	}
	jw_aend(&w);
	fputs("\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .display = -1 };
	struct report_session *a = NULL, *b = NULL;
	struct diff *d;
	int ret = parse_opts(&o, argc, argv), err;

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (load(&o, o.old, &a) || load(&o, o.new, &b)) {
		rs_free(a);
		return o.use.refused ? EXIT_USAGE : EXIT_FAIL;
	}
	d = diff_build(a->fs, b->fs);
	err = o.json ? print_json(stdout, a, b, d) : print_text(stdout, a, b, d);
	if (err || fflush(stdout))
		err = c2c_err(-EIO, "cannot write the diff: %s", strerror(errno));
	diff_free(d);
	rs_free(a);
	rs_free(b);
	return err ? EXIT_FAIL : EXIT_OK;
}
