/* The report pipeline (see session.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/aggregate/cltable-view.h"
#include "report/model/sections-build.h"
#include "report/model/session.h"
#include "report/resolve/symbols.h"
#include "report/resolve/tasks.h"
#include "report/resolve/unwind-sample.h"

#define RS_PROGRESS_EVERY 65536

const char *rs_default_input(void)
{
	return source_default_input();
}

enum cltab_display rs_default_display(const struct trace_info *info)
{
	/* perf defaults to peer snoops on arm64 (c2c-semantics.md §5.1) */
	if (info->arch && (!strcmp(info->arch, "aarch64") || !strcmp(info->arch, "arm64")))
		return CLTAB_DISPLAY_PEER;
	return CLTAB_DISPLAY_TOT;
}

enum rm_kind rs_kind(const struct trace_info *info)
{
	switch (info->backend) {
	case TRACE_BACKEND_SOFT: return RM_SOFT;
	case TRACE_BACKEND_WATCH: return RM_WATCH;
	default: return RM_PMU;
	}
}

/* perf uses the cacheline size of the machine running the report (c2c-semantics.md §3.1). */
static uint32_t host_cl_size(const struct trace_info *info)
{
	long v = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	if (v > 0)
		return (uint32_t)v;
	return info->cacheline_size ? info->cacheline_size : 64;
}

/* Code addresses through the symbols session. A kernel address is resolved from a vmlinux or the
 * trace's kallsyms, never this machine's /proc/kallsyms for PMU data (the trace may come from
 * another kernel). Without a symbol, what addr2line says there is kept (Source:Line). */
/* @user: the user's line (sym_code_info.user_file) where the code is a library's inlined into
 * it; perf's (the innermost line) otherwise. */
static int code_sym(struct sym_session *s, const struct maps_map *map, uint64_t ip, int user,
		    const char **symbol, uint64_t *sym_offset, const char **srcfile, uint32_t *line)
{
	struct sym_code_info ci = { 0 };
	int err;

	if (!map)
		return -ENOENT;
	err = map->dso->kernel ? sym_kernel_code(s, ip, &ci) : sym_code(s, &map->mmap, ip, &ci);
	if (!err && user && ci.user_file && ci.user_line) {
		ci.srcfile = ci.user_file;
		ci.line = ci.user_line;
	}
	*srcfile = err ? NULL : ci.srcfile;
	*line = err ? 0 : ci.line;
	if (err || !ci.symbol) {
		if (ci.reason)
			c2c_debug("no symbol at %#llx in '%s': %s", (unsigned long long)ip,
				  map->dso->name, ci.reason);
		return -ENOENT;
	}
	*symbol = ci.symbol;
	*sym_offset = ci.sym_offset;
	return 0;
}

static int pmu_sym(void *ctx, const struct maps_map *map, uint8_t mode, uint64_t ip,
		   uint64_t al_ip, struct cltab_code *out)
{
	(void)mode, (void)al_ip;
	return code_sym(ctx, map, ip, 0, &out->symbol, &out->sym_offset, &out->srcfile, &out->line);
}

static int estim_sym(void *ctx, const struct maps_map *map, uint64_t ip, uint64_t al_ip,
		     struct estim_code *out)
{
	int rc;

	(void)al_ip;
	rc = code_sym(ctx, map, ip, 1, &out->symbol, &out->sym_offset, &out->srcfile, &out->line);
	return rc && !out->srcfile ? rc : 0;
}

static int estim_back(void *ctx, const struct maps_map *map, uint64_t ip, unsigned int back,
		      uint64_t *at)
{
	if (map->dso->kernel)
		return -ENOENT;
	return sym_insn_back(ctx, &map->mmap, ip, back, at);
}

/* Whether any event's samples may carry callchains or user stacks to unwind (or the events are
 * not described): only then does the table keep callers, aggregating on one thread, which
 * counts them. */
static int may_have_chains(const struct trace_info *info)
{
	if (!info->nr_events)   /* events not described: assume they may */
		return 1;
	for (uint32_t i = 0; i < info->nr_events; i++)
		if (!info->events[i].sample_type ||
		    info->events[i].sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER))
			return 1;
	return 0;
}

static void new_table(struct report_session *s)
{
	const struct trace_info *info = s->info;
	struct cltab_opts co = {
		.cl_size = s->cl_size,
		.display = s->display,
		.nr_coalesce = s->opts.nr_coalesce,
		.show_all = s->opts.show_all,
		.keep_sums = s->opts.remodel,   /* other display modes rebuilt on demand */
		.nr_cpus = info->nr_cpus,
		.cpu_node = info->cpu_node,
		.nr_nodes = info->nr_nodes,
		.mem_ranges = info->mem_ranges,
		.nr_mem_ranges = info->nr_mem_ranges,
		.sym = s->sym ? pmu_sym : NULL,
		.sym_ctx = s->sym,
		.no_node_stats = !s->opts.node_stats,
		.jobs = s->opts.jobs,
		.callchains = !s->opts.no_callchains && may_have_chains(info),
		.phys = s->opts.phys,
	};

	memcpy(co.coalesce, s->opts.coalesce, sizeof(co.coalesce));
	s->t = cltab_new(&co);
}

static void new_estim(struct report_session *s)
{
	uint8_t *cf = NULL;
	struct estim_opts eo = {
		.mode = s->kind == RM_WATCH ? ESTIM_WATCH : ESTIM_SOFT,
		.watch_word_only = s->info->version_major == 1 && s->info->version_minor < 2,
		.cl_size = s->cl_size,
		.code_sym = s->sym ? estim_sym : NULL,
		.insn_back = s->sym ? estim_back : NULL,
		.sym_ctx = s->sym,
		.callchains = !s->opts.no_callchains,
		.phys = s->opts.phys,
	};

	/* soft: the confirmation watchpoints' events (include/c2c/confirm.h) */
	for (uint32_t i = 0; s->kind == RM_SOFT && i < s->info->nr_events; i++)
		if (s->info->events[i].backend == TRACE_BACKEND_WATCH) {
			if (!cf)
				cf = xcalloc(s->info->nr_events, 1);
			cf[i] = 1;
		}
	eo.confirm_event = cf;
	eo.nr_events = cf ? s->info->nr_events : 0;
	s->e = estim_new(&eo);
	free(cf);
}

/* The last duty-cycle blob holds; a bad one is reported once and ignored. */
static void read_duty(struct report_session *s, const struct trace_blob *b)
{
	struct c2c_watch_duty d;

	if (c2c_watch_duty_parse(b->data, b->size, &d)) {
		if (!s->bad_duty++)
			c2c_warn("'%s': a corrupt watch duty-cycle record was ignored", s->opts.input);
		return;
	}
	s->duty = d;
	s->have_duty = 1;
}

/* The uncore summary; a bad one is reported and ignored. */
static void read_uncore(struct report_session *s, const struct trace_blob *b)
{
	if (!s->unc)
		s->unc = xmalloc(sizeof(*s->unc));
	if (c2c_uncore_parse(b->data, b->size, s->unc)) {
		c2c_warn("'%s': a corrupt AMD uncore record was ignored", s->opts.input);
		free(s->unc);
		s->unc = NULL;
	}
}

/* TopDown beside IBS/SPE: which event's samples are readings. The readings stay out of the
 * tables either way; a bad blob is reported and its readings ignored. */
static void read_td_reader(struct report_session *s, const struct trace_blob *b)
{
	struct td_reader r;

	if (td_reader_parse(b->data, b->size, &r) || s->td_reader_event >= 0) {
		c2c_warn("'%s': %s TopDown reader record was ignored", s->opts.input,
			 s->td_reader_event >= 0 ? "a second" : "a corrupt");
		return;
	}
	s->td_reader_event = (int)r.event;
	if (!s->opts.no_topdown)
		s->tdt = tdt_new(&r, s->cl_size);
}

static void read_run(struct report_session *s, const struct trace_blob *b)
{
	if (c2c_run_parse(b->data, b->size, &s->run)) {
		c2c_warn("'%s': a corrupt record of the workload's run was ignored", s->opts.input);
		s->have_run = 0;
		return;
	}
	s->have_run = 1;
}

static void feed(struct report_session *s, struct trace_event *ev)
{
	if (!s->t && ev->type == TRACE_REC_SAMPLE && ev->sample.task) {
		if (!s->tasks)   /* a goroutine's samples are its own, whichever thread ran it */
			s->tasks = task_resolver_new(s->maps, s->sym);
		task_resolve(s->tasks, &ev->sample);
	}
	if (ev->type == TRACE_REC_BLOB && ev->blob.kind == TRACE_BLOB_TOPDOWN)
		read_td_reader(s, &ev->blob);
	else if (ev->type == TRACE_REC_BLOB && ev->blob.kind == TRACE_BLOB_UNCORE)
		read_uncore(s, &ev->blob);
	else if (ev->type == TRACE_REC_BLOB && ev->blob.kind == TRACE_BLOB_RUN)
		read_run(s, &ev->blob);
	else if (ev->type == TRACE_REC_BLOB && ev->blob.kind == TRACE_BLOB_KALLSYMS && s->sym)
		sym_session_add_kallsyms(s->sym, ev->blob.data, ev->blob.size);
	else if (ev->type == TRACE_REC_BLOB && ev->blob.kind == TRACE_BLOB_WATCH_DUTY)
		read_duty(s, &ev->blob);
	else if (s->t)
		cltab_feed(s->t, s->maps, ev);
	else
		estim_feed(s->e, s->maps, ev);
	if (ev->type == TRACE_REC_SAMPLE && s->td)
		td_agg_sample(s->td, &ev->sample);
	if (ev->type == TRACE_REC_SAMPLE && s->tdt)
		tdt_sample(s->tdt, &ev->sample);
}

/* A perf.data sample with user registers and stack gets its chain unwound here; the unwinder
 * follows the side-band records for the maps. */
static void unwind(struct report_session *s, struct trace_event *ev)
{
	if (ev->type == TRACE_REC_SAMPLE && ev->sample.regs_mask && ev->sample.stack_size &&
	    !s->opts.no_callchains) {
		if (!s->us)
			s->us = unwind_sample_new(s->maps);
		unwind_sample_chain(s->us, &ev->sample);
	} else if (s->us && ev->type != TRACE_REC_SAMPLE) {
		unwind_sample_event(s->us, ev);
	}
}

static int read_all(struct report_session *s)
{
	struct trace_event ev;
	struct stat st;
	uint64_t size = !strcmp(s->opts.input, "-") || stat(s->opts.input, &st) ? 0
			: (uint64_t)st.st_size;
	int rc;

	while ((rc = source_next(s->src, &ev)) > 0) {
		if (ev.type == TRACE_REC_REGION) {
			rg_marker(s->rg, &ev.region);
		} else if (ev.type == TRACE_REC_SAMPLE && (int)ev.sample.event == s->td_reader_event) {
			if (s->tdt)      /* a reading: every one counts, --region or not */
				tdt_feed(s->tdt, &ev.sample);
		} else if (ev.type != TRACE_REC_SAMPLE || rg_sample(s->rg, &ev.sample)) {
			unwind(s, &ev);      /* perf.data --call-graph dwarf stacks */
			feed(s, &ev);        /* samples outside a --region are left out */
		}
		if (++s->records % RS_PROGRESS_EVERY == 0 && s->opts.progress &&
		    s->opts.progress(s->opts.progress_ctx, s->records, size))
			return c2c_err(-EINTR, "loading '%s' interrupted", s->opts.input);
	}
	if (rc < 0)
		return c2c_err(rc, "'%s': cannot read the records: %s", s->opts.input,
			       strerror(-rc));
	s->truncated = source_truncated(s->src);
	if (s->tdt)
		tdt_finish(s->tdt);
	return 0;
}

/* --phys: refused when no sample has a physical address, a warning when some lack one. */
static int check_phys(struct report_session *s)
{
	uint64_t none, with;

	if (!s->opts.phys)
		return 0;
	if (s->t) {
		none = cltab_counts(s->t)->no_phys;
		with = cltab_counts(s->t)->samples;
	} else {
		none = estim_totals(s->e)->no_phys;
		with = estim_totals(s->e)->recovered;
	}
	if (!with)
		return c2c_err(-ENOENT, "'%s': --phys: no sample carries a physical address (%s)",
			       s->opts.input, s->kind == RM_PMU ?
			       "record as root or with perf_event_paranoid <= 1; perf c2c record "
			       "and c2c-lite record ask for them, perf record needs --phys-data" :
			       "c2c-lite record reads them from /proc/PID/pagemap as root only");
	if (none)
		c2c_warn("--phys: %llu of %llu samples carry no physical address and are left out",
			 (unsigned long long)none, (unsigned long long)(none + with));
	return 0;
}

static int contended(const struct rm_line *l, void *ctx)
{
	(void)ctx;
	return l->verdict != RM_V_NONE;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Model, name, judge and group what the table holds. -v times each step (bench/bench_tui.sh: the
 * model's share of a report, which issue 16 bounds at 10%). */
static void build(struct report_session *s)
{
	struct rm_name_opts no = { .sym = s->sym, .maps = s->maps, .verbose = s->opts.verbose };
	double t[5];

	t[0] = now_s();
	rm_contend_free(s->contend);
	rm_findings_free(s->fs);
	rm_free(s->m);
	if (s->t) {
		struct cltab_line **ln;
		size_t nr;

		/* every line, or the table's own filter and order for the mode (perf's) */
		struct cltab_line *const *all = cltab_lines(s->t, &nr);

		ln = xcalloc(nr ? nr : 1, sizeof(*ln));
		memcpy(ln, all, nr * sizeof(*ln));
		if (s->display != cltab_opts(s->t)->display)
			cltv_sort(s->t, ln, nr, s->display);
		s->m = rm_from_cltab(s->t, s->display, ln, nr);
		free(ln);
	} else {
		s->m = rm_from_estim(s->e);
	}
	t[1] = now_s();
	rm_name(s->m, &no);
	t[2] = now_s();
	rm_judge(s->m);
	if (!s->t)
		rm_keep(s->m, s->opts.show_all ? NULL : contended, NULL, 1);
	t[3] = now_s();
	s->fs = rm_findings_build(s->m);
	s->contend = rm_contend_build(s->m);
	t[4] = now_s();
	c2c_debug("report model: %.6f s (lines and rows %.6f, data names %.6f, verdicts %.6f, "
		  "findings %.6f)", t[4] - t[0], t[1] - t[0], t[2] - t[1], t[3] - t[2], t[4] - t[3]);
}

/* Heap growth step: virtual memory, backed as it is touched (xheap_hugepages()). */
#define RS_HEAP_PAD ((size_t)128 << 20)

int rs_open(struct report_session **out, const struct rs_opts *o)
{
	struct report_session *s = xcalloc(1, sizeof(*s));
	struct sym_opts so = { .symfs = o->symfs, .vmlinux = o->vmlinux };
	int rc;

	*out = NULL;
	xheap_hugepages(RS_HEAP_PAD);   /* the reading, resolving and aggregating */
	s->opts = *o;
	s->td_reader_event = -1;
	rc = source_open(&s->src, o->input);
	if (rc)
		goto err;
	s->info = source_info(s->src);
	s->kind = rs_kind(s->info);
	s->display = o->display >= 0 ? (enum cltab_display)o->display
		     : rs_default_display(s->info);
	if (o->check && (rc = o->check(o->check_ctx, s)))
		goto err;
	if (s->kind == RM_PMU)
		s->cl_size = o->cl_size ? o->cl_size : host_cl_size(s->info);
	else
		s->cl_size = o->cl_size ? o->cl_size : s->info->cacheline_size ?
			     s->info->cacheline_size : 64;
	if (o->double_cl)
		s->cl_size *= 2;
	if (s->cl_size > 32768 || (s->cl_size & (s->cl_size - 1))) {
		rc = c2c_err(-EINVAL, "'%s': a cacheline of %u bytes%s: c2c-lite takes a power of two "
			     "up to 32768", o->input, s->cl_size, o->double_cl ? " (--double-cl)" :
			     o->cl_size ? "" : " (the trace's)");
		goto err;
	}
	/* soft and watch traces come from this kind of machine: its kallsyms is a fair guess */
	so.use_proc_kallsyms = s->kind != RM_PMU;
	so.kernel_release = s->info->kernel_release;
	rc = sym_session_new(&s->sym, &so);
	if (rc) {
		c2c_warn("cannot set up symbol resolution: %s; code shows as addresses",
			 strerror(-rc));
		s->sym = NULL;
	}
	s->maps = maps_new();
	if (s->kind == RM_PMU)
		new_table(s);
	else
		new_estim(s);
	if (!o->no_topdown)
		s->td = td_agg_new(s->info, s->cl_size);
	s->rg = rg_new(o->region);
	rc = read_all(s);
	if (rc)
		goto err;
	if (o->region && !rg_has(s->rg, o->region)) {
		rc = c2c_err(-ENOENT, "'%s' has no region '%s'%s", o->input, o->region,
			     rg_nr(s->rg) ? " (c2c-lite report --regions lists them)" :
			     " (no region markers: the program did not use the c2c-region library "
			     "under c2c-lite record)");
		goto err;
	}
	if (s->t) {
		cltab_finish(s->t);
		c2c_debug("cacheline table: %zu lines, %zu offset entries, %u aggregation threads",
			  cltab_nr_lines(s->t), cltab_nr_offsets(s->t),
			  s->opts.jobs > 1 ? s->opts.jobs : 1);
	} else
		estim_finish(s->e);
	xheap_hugepages(RS_HEAP_PAD);   /* the lines shown, the model and findings */
	rc = check_phys(s);
	if (rc)
		goto err;
	build(s);
	s->sections = rs_sections_build(s);
	*out = s;
	return 0;
err:
	rs_free(s);
	return rc;
}

void rs_remodel(struct report_session *s, enum cltab_display d)
{
	if (!s->t || d == s->display)
		return;
	s->display = d;
	/* the model points into the table's lines, which the new mode rebuilds */
	rm_contend_free(s->contend);
	rm_findings_free(s->fs);
	rm_free(s->m);
	s->contend = NULL;
	s->fs = NULL;
	s->m = NULL;
	cltab_redisplay(s->t, d);
	build(s);
}

void rs_free(struct report_session *s)
{
	if (!s)
		return;
	rm_contend_free(s->contend);
	rm_findings_free(s->fs);
	rm_free(s->m);
	rm_sections_free(s->sections);
	td_agg_free(s->td);
	tdt_free(s->tdt);
	rg_free(s->rg);
	free(s->unc);
	cltab_free(s->t);
	estim_free(s->e);
	task_resolver_free(s->tasks);
	sym_session_free(s->sym);
	unwind_sample_free(s->us);
	maps_free(s->maps);
	source_free(s->src);
	free(s);
}
