/* `c2c-lite report`: reads a c2c-lite trace (or, once wired, a perf.data file), aggregates it into
 * the cacheline table and prints perf 6.1's `perf c2c report --stdio` sections after a short header
 * of its own. Options parse into struct report_opts; errors become one line and exit status 1. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "report/advice.h"
#include "report/cltable.h"
#include "report/maps.h"
#include "report/source.h"
#include "report/stdio-estimate.h"
#include "report/stdio.h"
#include "report/symbols.h"
#include "report/topdown-agg.h"

static const char report_usage[] =
	"usage: c2c-lite report [options]\n"
	"\n"
	"  -i, --input FILE        trace or perf.data to read (default: c2c-lite.data, else\n"
	"                          perf.data)\n"
	"      --stdio             text report (what perf c2c report --stdio prints)\n"
	"      --stats             only the statistics sections\n"
	"  -d, --display MODE      sort and filter lines on tot, rmt, lcl or peer HITMs/snoops\n"
	"                          (default tot; peer for aarch64 traces)\n"
	"  -c, --coalesce KEYS     offset grouping keys: pid,tid,iaddr,dso (default iaddr)\n"
	"  -N, --node-info         per-node CPU figures in the Pareto rows (-NN: CPU lists)\n"
	"      --show-all          show every cacheline, shared or not\n"
	"      --no-source         no Source:Line column\n"
	"      --full-symbols      do not cut symbols and source lines at 30 characters\n"
	"      --cacheline-size N  bytes per cacheline (default: this machine's)\n"
	"      --double-cl         group two cachelines together\n"
	"  -k, --vmlinux FILE      kernel image for kernel symbols\n"
	"      --symfs DIR         look for mapped files under DIR\n"
	"      --summary N         explain the N most contended lines before perf's sections\n"
	"                          (default 5; 0: none)\n"
	"      --no-data-names     no data names in the Pareto (its lines are then perf's, byte\n"
	"                          for byte)\n"
	"  -v, --verbose           more messages\n"
	"  -q, --quiet             errors only\n";

struct report_opts {
	const char *input;
	int stdio, stats, show_all, no_source, full_symbols, double_cl, node_info;
	int display;                /* -1: from the trace's arch */
	const char *coalesce;
	enum cltab_coalesce keys[CLTAB_CO_MAX];
	int nr_keys;
	uint32_t cl_size;           /* 0: this machine's */
	const char *vmlinux, *symfs;
	int summary;                /* lines the c2c-lite summary explains */
	int no_data_names;          /* --no-data-names: perf's Pareto without the Data column */
};

enum {
	OPT_STDIO = 256, OPT_STATS, OPT_SHOW_ALL, OPT_NO_SOURCE, OPT_FULL_SYMBOLS, OPT_CL_SIZE,
	OPT_DOUBLE_CL, OPT_SYMFS, OPT_SUMMARY, OPT_NO_DATA_NAMES,
};

static int parse_display(const char *s)
{
	static const char *const names[] = {
		[CLTAB_DISPLAY_TOT] = "tot", [CLTAB_DISPLAY_RMT] = "rmt",
		[CLTAB_DISPLAY_LCL] = "lcl", [CLTAB_DISPLAY_PEER] = "peer",
	};
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* perf's setup_coalesce(): tokens in user order; "offset" is accepted and ignored. */
static int parse_coalesce(struct report_opts *o, const char *s)
{
	static const char *const names[] = {
		[CLTAB_CO_PID] = "pid", [CLTAB_CO_TID] = "tid", [CLTAB_CO_IADDR] = "iaddr",
		[CLTAB_CO_DSO] = "dso",
	};
	char buf[256], *tok, *save = NULL;
	int i;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->nr_keys = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "offset"))
			continue;
		for (i = 0; i < 4 && strcmp(tok, names[i]); i++)
			;
		if (i == 4) {
			c2c_log(C2C_LOG_ERROR, "unrecognized sort token '%s' in --coalesce", tok);
			return -EINVAL;
		}
		if (o->nr_keys < CLTAB_CO_MAX)
			o->keys[o->nr_keys++] = (enum cltab_coalesce)i;
	}
	o->coalesce = s;
	return 0;
}

static int parse_opts(struct report_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "input", required_argument, NULL, 'i' }, { "stdio", no_argument, NULL, OPT_STDIO },
		{ "stats", no_argument, NULL, OPT_STATS }, { "display", required_argument, NULL, 'd' },
		{ "coalesce", required_argument, NULL, 'c' }, { "node-info", no_argument, NULL, 'N' },
		{ "show-all", no_argument, NULL, OPT_SHOW_ALL },
		{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
		{ "full-symbols", no_argument, NULL, OPT_FULL_SYMBOLS },
		{ "cacheline-size", required_argument, NULL, OPT_CL_SIZE },
		{ "double-cl", no_argument, NULL, OPT_DOUBLE_CL },
		{ "vmlinux", required_argument, NULL, 'k' }, { "symfs", required_argument, NULL, OPT_SYMFS },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		{ "no-data-names", no_argument, NULL, OPT_NO_DATA_NAMES },
		{ "verbose", no_argument, NULL, 'v' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	char *end;
	long v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:d:c:Nk:vqh", lopts, NULL)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case OPT_STDIO: o->stdio = 1; break;
		case OPT_STATS: o->stats = 1; break;
		case 'd':
			if ((o->display = parse_display(optarg)) < 0) {
				c2c_log(C2C_LOG_ERROR, "unknown display type '%s' (tot, rmt, lcl, peer)",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			if (parse_coalesce(o, optarg))
				return EXIT_USAGE;
			break;
		case 'N': o->node_info++; break;
		case OPT_SHOW_ALL: o->show_all = 1; break;
		case OPT_NO_SOURCE: o->no_source = 1; break;
		case OPT_NO_DATA_NAMES: o->no_data_names = 1; break;
		case OPT_FULL_SYMBOLS: o->full_symbols = 1; break;
		case OPT_CL_SIZE:
			v = strtol(optarg, &end, 0);
			if (*end || v <= 0 || v > (1 << 20) || (v & (v - 1))) {
				c2c_log(C2C_LOG_ERROR, "--cacheline-size '%s' is not a power of two",
					optarg);
				return EXIT_USAGE;
			}
			o->cl_size = (uint32_t)v;
			break;
		case OPT_DOUBLE_CL: o->double_cl = 1; break;
		case 'k': o->vmlinux = optarg; break;
		case OPT_SYMFS: o->symfs = optarg; break;
		case OPT_SUMMARY:
			v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 0 || v > 100000) {
				c2c_log(C2C_LOG_ERROR, "--summary '%s' is not a line count", optarg);
				return EXIT_USAGE;
			}
			o->summary = (int)v;
			break;
		case 'v': c2c_log_set_level(C2C_LOG_DEBUG); break;
		case 'q': c2c_log_set_level(C2C_LOG_ERROR); break;
		case 'h': fputs(report_usage, stdout); return -1;
		default: fputs(report_usage, stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		c2c_log(C2C_LOG_ERROR, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (o->node_info > 2)
		o->node_info = 2;
	return 0;
}

static int is_arm64(const char *arch)
{
	return arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"));
}

static uint32_t host_cl_size(const struct trace_info *info)
{
	long v = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	if (v > 0)
		return (uint32_t)v;
	return info->cacheline_size ? info->cacheline_size : 64;
}

static void fill_tab_opts(struct cltab_opts *to, const struct report_opts *o,
			  const struct trace_info *info)
{
	int i;

	memset(to, 0, sizeof(*to));
	to->cl_size = o->cl_size ? o->cl_size : host_cl_size(info);
	if (o->double_cl)
		to->cl_size *= 2;
	to->display = o->display >= 0 ? (enum cltab_display)o->display
		      : is_arm64(info->arch) ? CLTAB_DISPLAY_PEER : CLTAB_DISPLAY_TOT;
	for (i = 0; i < o->nr_keys; i++)
		to->coalesce[i] = o->keys[i];
	to->nr_coalesce = o->nr_keys;
	to->show_all = o->show_all;
	to->nr_cpus = info->nr_cpus;
	to->cpu_node = info->cpu_node;
	to->nr_nodes = info->nr_nodes;
	to->mem_ranges = info->mem_ranges;
	to->nr_mem_ranges = info->nr_mem_ranges;
	to->no_node_stats = !o->node_info;   /* only -N and -NN print per-node columns */
}

/* The cltab_sym_fn of the report: code addresses through the symbols session. Kernel code is
 * resolved from a vmlinux or the trace's kallsyms only, never this machine's /proc/kallsyms
 * (the trace may come from another kernel). */
static int report_sym(void *ctx, const struct maps_map *map, uint8_t mode, uint64_t ip,
		      uint64_t al_ip, struct cltab_code *out)
{
	struct sym_session *s = ctx;
	struct sym_code_info ci = { 0 };
	int err;

	(void)mode, (void)al_ip;
	if (!map)
		return -ENOENT;
	err = map->dso->kernel ? sym_kernel_code(s, ip, &ci) : sym_code(s, &map->mmap, ip, &ci);
	if (err || !ci.symbol) {
		if (ci.reason)
			c2c_debug("no symbol at %#llx in '%s': %s", (unsigned long long)ip,
				  map->dso->name, ci.reason);
		/* no symbol, but what addr2line says there (Source:Line of a symbol-less row) */
		out->srcfile = err ? NULL : ci.srcfile;
		out->line = err ? 0 : ci.line;
		return -ENOENT;
	}
	out->symbol = ci.symbol;
	out->sym_offset = ci.sym_offset;
	out->srcfile = ci.srcfile;
	out->line = ci.line;
	return 0;
}

static int read_all(struct source *src, struct cltab *t, struct maps *m, struct sym_session *sym,
		    struct td_agg *td)
{
	struct trace_event ev;
	int ret;

	while ((ret = source_next(src, &ev)) > 0) {
		if (ev.type == TRACE_REC_BLOB && ev.blob.kind == TRACE_BLOB_KALLSYMS)
			sym_session_add_kallsyms(sym, ev.blob.data, ev.blob.size);
		else
			cltab_feed(t, m, &ev);
		if (ev.type == TRACE_REC_SAMPLE)
			td_agg_sample(td, &ev.sample);
	}
	return ret;
}

static void print_header(FILE *f, const struct source *src, const struct cltab *t)
{
	const struct trace_info *info = source_info(src);
	const struct cltab_counts *n = cltab_counts(t);
	uint32_t i;

	fprintf(f, "# c2c-lite report of '%s'\n", source_path(src));
	fprintf(f, "# host %s, arch %s, kernel %s, backend %s\n",
		info->hostname ? info->hostname : "?", info->arch ? info->arch : "?",
		info->kernel_release ? info->kernel_release : "?", trace_backend_name(info->backend));
	for (i = 0; i < info->nr_events; i++)
		fprintf(f, "# event %s\n", info->events[i].name ? info->events[i].name : "?");
	fprintf(f, "# %llu samples, %llu lost records, %llu lost samples, %llu throttled\n",
		(unsigned long long)n->samples, (unsigned long long)n->lost_records,
		(unsigned long long)n->lost_samples, (unsigned long long)n->throttle);
	if (info->flags & TRACE_INFO_SYNTHETIC)
		fprintf(f, "# SYNTHETIC: this trace was generated by a test tool, not measured\n");
	if (source_truncated(src))
		fprintf(f, "# TRUNCATED: the file ends early; the report covers what was read\n");
	fprintf(f, "\n");
}

/* c2c-lite's own blocks after the header, before perf's sections (all "# " lines). */
static int print_summary(const struct report_opts *o, const struct cltab *t, struct maps *m,
			 struct sym_session *sym, const struct td_agg *td)
{
	struct advice_sym_ctx actx = { .sym = sym, .maps = m };
	struct td_agg_sym_ctx tctx = { .maps = m, .sym = sym };
	struct advice_opts ao = { .top = o->stats ? 0 : o->summary, .data = advice_sym_data,
				  .data_ctx = &actx,
				  .verbose = c2c_log_get_level() >= C2C_LOG_DEBUG };
	struct advice *a = NULL;
	int err;

	advice_build(&a, t, &ao);
	err = advice_print(stdout, a);
	advice_free(a);
	if (!err && !o->stats && o->summary)
		err = td_agg_print(stdout, td, o->summary, td_agg_sym, &tctx);
	return err;
}

/* The Pareto's data namers: the summary's resolver, for every displayed line. */
static void pareto_line_name(void *ctx, const struct cltab_line *ln, char *buf, size_t n)
{
	advice_line_what(ctx, ln, buf, n);
}

static void pareto_row_name(void *ctx, const struct cltab_line *ln, const struct cltab_offset *of,
			    char *buf, size_t n)
{
	advice_row_name(ctx, ln, of, buf, n);
}

static int print_report(const struct report_opts *o, const struct source *src,
			const struct cltab *t, struct maps *m, struct sym_session *sym,
			const struct td_agg *td)
{
	const struct trace_info *info = source_info(src);
	const char *names[64];
	struct advice_sym_ctx actx = { .sym = sym, .maps = m };
	struct advice_opts ao = { .data = advice_sym_data, .data_ctx = &actx,
				  .verbose = c2c_log_get_level() >= C2C_LOG_DEBUG };
	struct stdio_opts so = { .node_info = o->node_info, .no_source = o->no_source,
				 .full_symbols = o->full_symbols, .double_cl = o->double_cl,
				 .stats_only = o->stats, .coalesce = o->coalesce, .events = names };
	uint32_t i;

	for (i = 0; i < info->nr_events && i < 64; i++)
		names[i] = info->events[i].name ? info->events[i].name : "";
	so.nr_events = (int)i;
	if (!o->no_data_names) {
		so.line_name = pareto_line_name;
		so.row_name = pareto_row_name;
		so.name_ctx = &ao;
	}
	print_header(stdout, src, t);
	if (print_summary(o, t, m, sym, td) || stdio_print(stdout, t, &so) || fflush(stdout))
		return c2c_err(-EIO, "cannot write the report: %s", strerror(errno));
	return 0;
}

/* Soft and watch traces have no data-source levels: they get the estimate report. */
static int run_estimate(const struct report_opts *o, struct source *src)
{
	struct estimate_opts eo = {
		.cl_size = (o->cl_size ? o->cl_size : host_cl_size(source_info(src))) *
			   (o->double_cl ? 2 : 1),
		.show_all = o->show_all,
		.no_source = o->no_source,
		.full_symbols = o->full_symbols,
		.symfs = o->symfs,
		.vmlinux = o->vmlinux,
	};
	int err = estimate_report(src, &eo, stdout);

	source_free(src);
	return err;
}

static int run(const struct report_opts *o)
{
	struct sym_opts symo = { .symfs = o->symfs, .vmlinux = o->vmlinux };
	struct source *src = NULL;
	struct sym_session *sym = NULL;
	struct maps *m = NULL;
	struct cltab *t = NULL;
	struct td_agg *td = NULL;
	struct cltab_opts to;
	int err;

	err = source_open(&src, o->input);
	if (err)
		return err;
	if (source_info(src)->backend == TRACE_BACKEND_SOFT ||
	    source_info(src)->backend == TRACE_BACKEND_WATCH)
		return run_estimate(o, src);
	symo.kernel_release = source_info(src)->kernel_release;
	err = sym_session_new(&sym, &symo);
	if (err) {
		source_free(src);
		return c2c_err(err, "cannot set up symbol resolution: %s", strerror(-err));
	}
	if (!source_info(src)->nr_cpus || !source_info(src)->nr_nodes)
		c2c_warn("'%s' has no CPU/NUMA topology; node columns stay empty", o->input);
	fill_tab_opts(&to, o, source_info(src));
	to.sym = report_sym;
	to.sym_ctx = sym;
	t = cltab_new(&to);
	m = maps_new();
	td = td_agg_new(source_info(src), to.cl_size);
	err = read_all(src, t, m, sym, td);
	if (err < 0) {
		c2c_log(C2C_LOG_ERROR, "'%s': cannot read the records: %s", o->input, strerror(-err));
		goto out;
	}
	cltab_finish(t);
	err = print_report(o, src, t, m, sym, td);
out:
	td_agg_free(td);
	cltab_free(t);
	sym_session_free(sym);
	maps_free(m);
	source_free(src);
	return err;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .display = -1, .coalesce = "iaddr",
				 .keys = { CLTAB_CO_IADDR }, .nr_keys = 1,
				 .summary = ADVICE_DEFAULT_TOP };
	int ret = parse_opts(&o, argc, argv);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (!o.input)
		o.input = source_default_input();
	return run(&o) ? EXIT_FAIL : EXIT_OK;
}
