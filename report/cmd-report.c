/* `c2c-lite report`: reads a c2c-lite trace (or, once wired, a perf.data file), aggregates it into
 * the cacheline table and prints perf 6.1's `perf c2c report --stdio` sections after a short header
 * of its own. Options parse into struct report_opts; errors become one line and exit status 1. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "report/aggregate/cltable.h"
#include "report/cmdline.h"
#include "report/json/json.h"
#include "report/model/callgraph-text.h"
#include "report/model/session.h"
#include "report/stdio/sections.h"
#include "report/stdio/stdio-estimate.h"
#include "report/stdio/contend.h"
#include "report/stdio/stdio.h"
#include "report/stdio/summary.h"

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
	"      --phys              lines by physical address (memory shared between processes)\n"
	"  -k, --vmlinux FILE      kernel image for kernel symbols\n"
	"      --symfs DIR         look for mapped files under DIR\n"
	"      --summary N         explain the N costliest findings (default 5; 0: none)\n"
	"      --no-data-names     no data names in the Pareto (its lines are then perf's, byte\n"
	"                          for byte)\n"
	"      --map               line maps: each thread's reads and writes of each byte\n"
	"  -g, --call-graph[=ORDER]  callers under each Pareto row, outermost caller first\n"
	"                          (ORDER caller, the default, or callee); without -g a trace\n"
	"                          with callchains shows them callee first, as perf does; soft\n"
	"                          and watch rows too (percentages of the line's samples)\n"
	"      --no-call-graph     no callchains\n"
	"      --regions           first a table of the program's regions (c2c-region markers\n"
	"                          recorded by c2c-lite record): samples and time inside each\n"
	"      --region NAME       report only the samples taken inside region NAME\n"
	"      --json              the report model as JSON (docs/report-json.md)\n"
	"      --csv[=TABLE]       one table as CSV: lines (default), rows or members\n"
	"  -j, --jobs N            aggregation threads (default: online CPUs, at most 8); the\n"
	"                          output does not depend on N\n"
	"  -v, --verbose           more messages\n"
	"  -q, --quiet             errors only\n"
	"  -h, --help              this text ('c2c-lite help report': the manual)\n";

struct report_opts {
	const char *input;
	int stats, show_all, no_source, full_symbols, double_cl, node_info;
	int display;                /* -1: from the trace's arch */
	const char *coalesce;
	enum cltab_coalesce keys[CLTAB_CO_MAX];
	int nr_keys;
	uint32_t cl_size;           /* 0: this machine's */
	const char *vmlinux, *symfs;
	int summary;                /* lines the c2c-lite summary explains */
	int no_data_names;          /* --no-data-names: perf's Pareto without the Data column */
	int map;                    /* --map: line maps */
	int json;                   /* --json */
	int csv;                    /* --csv[=TABLE]: enum csv_table + 1 */
	uint32_t jobs;              /* -j; 0: not given */
	int call_graph;             /* -1 --no-call-graph, 0 as the data has them, 1 + order */
	int phys;                   /* --phys */
	int regions;                /* --regions: the table of program regions */
	const char *region;         /* --region NAME: only the samples inside it */
	struct cmdline_use use;     /* what was given, for the option policy (report/cmdline.h) */
};

/* The long options without a short form, by their row of the option policy. */
enum {
	OPT_STDIO = CMDLINE_VAL(CMDLINE_STDIO), OPT_STATS = CMDLINE_VAL(CMDLINE_STATS),
	OPT_SHOW_ALL = CMDLINE_VAL(CMDLINE_SHOW_ALL), OPT_NO_SOURCE = CMDLINE_VAL(CMDLINE_NO_SOURCE),
	OPT_FULL_SYMBOLS = CMDLINE_VAL(CMDLINE_FULL_SYMBOLS),
	OPT_CL_SIZE = CMDLINE_VAL(CMDLINE_CL_SIZE), OPT_DOUBLE_CL = CMDLINE_VAL(CMDLINE_DOUBLE_CL),
	OPT_SYMFS = CMDLINE_VAL(CMDLINE_SYMFS), OPT_SUMMARY = CMDLINE_VAL(CMDLINE_SUMMARY),
	OPT_NO_DATA_NAMES = CMDLINE_VAL(CMDLINE_NO_DATA_NAMES), OPT_MAP = CMDLINE_VAL(CMDLINE_MAP),
	OPT_JSON = CMDLINE_VAL(CMDLINE_JSON), OPT_CSV = CMDLINE_VAL(CMDLINE_CSV),
	OPT_NO_CALL_GRAPH = CMDLINE_VAL(CMDLINE_NO_CALL_GRAPH), OPT_PHYS = CMDLINE_VAL(CMDLINE_PHYS),
	OPT_REGIONS = CMDLINE_VAL(CMDLINE_REGIONS), OPT_REGION = CMDLINE_VAL(CMDLINE_REGION),
};

/* perf c2c report's -g/--call-graph: perf's parameter list (print_type,threshold,order,key,
 * value) is accepted where it names what c2c-lite draws: the graph, in caller or callee order,
 * keyed by function, with percentages. perf c2c forces the threshold to 0, so a number is
 * accepted and has no effect there either. Anything else is refused. */
static int parse_call_graph(struct report_opts *o, const char *arg)
{
	char buf[128], *tok, *save = NULL, *end;

	o->call_graph = 1 + RM_CALLERS_CALLER;
	if (!arg)
		return 0;
	if (strlen(arg) >= sizeof(buf))
		return c2c_usage("--call-graph '%s' is too long", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "caller"))
			o->call_graph = 1 + RM_CALLERS_CALLER;
		else if (!strcmp(tok, "callee"))
			o->call_graph = 1 + RM_CALLERS_CALLEE;
		else if (strcmp(tok, "graph") && strcmp(tok, "function") && strcmp(tok, "percent") &&
			 (strtod(tok, &end), end == tok || *end))
			return c2c_usage("--call-graph '%s': c2c-lite draws the graph with "
					 "percentages, keyed by function, in caller or callee order", tok);
	}
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
		{ "phys", no_argument, NULL, OPT_PHYS },
		{ "vmlinux", required_argument, NULL, 'k' }, { "symfs", required_argument, NULL, OPT_SYMFS },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		{ "no-data-names", no_argument, NULL, OPT_NO_DATA_NAMES },
		{ "map", no_argument, NULL, OPT_MAP },
		{ "json", no_argument, NULL, OPT_JSON }, { "csv", optional_argument, NULL, OPT_CSV },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "no-call-graph", no_argument, NULL, OPT_NO_CALL_GRAPH },
		{ "regions", no_argument, NULL, OPT_REGIONS },
		{ "region", required_argument, NULL, OPT_REGION },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	char *end;
	long v;
	int c;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "i:d:c:Nk:j:gvqh", lopts)) != -1) {
		cmdline_give(&o->use, c, optarg);
		switch (c) {
		case 'g':
			if (parse_call_graph(o, optarg))
				return EXIT_USAGE;
			break;
		case OPT_NO_CALL_GRAPH: o->call_graph = -1; break;
		case 'i': o->input = optarg; break;
		case OPT_STDIO: break;      /* the text report: the output without --json/--csv */
		case OPT_STATS: o->stats = 1; break;
		case 'd':
			if ((o->display = cmdline_display(optarg)) < 0)
				return EXIT_USAGE;
			break;
		case 'c':
			if (cmdline_coalesce(optarg, o->keys, &o->nr_keys))
				return EXIT_USAGE;
			o->coalesce = optarg;
			break;
		case 'N': o->node_info++; break;
		case OPT_SHOW_ALL: o->show_all = 1; break;
		case OPT_NO_SOURCE: o->no_source = 1; break;
		case OPT_NO_DATA_NAMES: o->no_data_names = 1; break;
		case OPT_MAP: o->map = 1; break;
		case OPT_JSON: o->json = 1; break;
		case OPT_REGIONS: o->regions = 1; break;
		case OPT_REGION: o->region = optarg; break;
		case OPT_CSV:
			if ((o->csv = optarg ? csv_table_parse(optarg) + 1 : CSV_LINES + 1) <= 0) {
				c2c_usage("--csv '%s': the tables are lines, rows and members", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_FULL_SYMBOLS: o->full_symbols = 1; break;
		case OPT_CL_SIZE:
			if (cmdline_cl_size(optarg, &o->cl_size))
				return EXIT_USAGE;
			break;
		case OPT_DOUBLE_CL: o->double_cl = 1; break;
		case OPT_PHYS: o->phys = 1; break;
		case 'k': o->vmlinux = optarg; break;
		case 'j':
			if (cmdline_jobs(optarg, &o->jobs))
				return EXIT_USAGE;
			break;
		case OPT_SYMFS: o->symfs = optarg; break;
		case OPT_SUMMARY:
			v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 0 || v > 100000) {
				c2c_usage("--summary '%s' is not a line count", optarg);
				return EXIT_USAGE;
			}
			o->summary = (int)v;
			break;
		case 'v': c2c_log_set_level(C2C_LOG_DEBUG); break;
		case 'q': c2c_log_set_level(C2C_LOG_ERROR); break;
		case 'h': fputs(report_usage, stdout); return -1;
		default: return EXIT_USAGE;     /* c2c_getopt() said why */
		}
	}
	if (optind < argc) {
		c2c_usage("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (o->node_info > 2)
		o->node_info = 2;
	o->use.out = o->json ? CMDLINE_OUT_JSON : o->csv ? CMDLINE_OUT_CSV : CMDLINE_OUT_TEXT;
	return cmdline_check_output(&o->use) ? EXIT_USAGE : 0;
}

/* The graph under the rows: none with --no-call-graph, -g's order, else callee first (perf
 * draws the callchains a file has without being asked). */
static int call_graph_mode(const struct report_opts *o)
{
	return o->call_graph < 0 ? 0 : o->call_graph ? o->call_graph : 1 + RM_CALLERS_CALLEE;
}

static int print_pmu(const struct report_opts *o, struct report_session *s)
{
	const struct trace_info *info = s->info;
	const char *names[64];
	struct stdio_opts so = { .node_info = o->node_info, .no_source = o->no_source,
				 .full_symbols = o->full_symbols, .double_cl = o->double_cl,
				 .stats_only = o->stats, .coalesce = o->coalesce, .events = names,
				 .call_graph = call_graph_mode(o),
				 .data_names = !o->no_data_names };
	uint32_t i;
	int err = 0;

	for (i = 0; i < info->nr_events && i < 64; i++)
		names[i] = info->events[i].name ? info->events[i].name : "";
	so.nr_events = (int)i;
	stdio_section_print(stdout, rm_sections_get(s->sections, RM_SEC_HEADER), SIZE_MAX);
	if (!o->stats && o->summary) {
		size_t top = (size_t)o->summary;
		struct rm_summary_opts sm = { .top = top, .prefix = "# ", .map = o->map };

		err = summary_print(stdout, s->m, s->fs, &sm);
		if (!err && s->fs->nr)
			fputc('\n', stdout);
		if (!err)
			err = stdio_contend_print(stdout, s->m, s->contend, top, "# ");
		if (!err)
			err = stdio_section_print(stdout, rm_sections_get(s->sections,
								       RM_SEC_TOPDOWN), top);
		if (!err)
			err = stdio_section_print(stdout, rm_sections_get(s->sections,
								       RM_SEC_TOPDOWN_TIME), top);
	}
	if (err || stdio_print(stdout, s->m, &so) || fflush(stdout))
		return c2c_err(-EIO, "cannot write the report: %s", strerror(errno));
	return 0;
}

static int print_estimate(const struct report_opts *o, struct report_session *s)
{
	struct stdio_estim_opts po = { .sections = s->sections, .info = s->info,
				       .no_source = o->no_source,
				       .full_symbols = o->full_symbols, .stats_only = o->stats,
				       .no_data_names = o->no_data_names,
				       .summary = (size_t)o->summary, .map = o->map,
				       .call_graph = call_graph_mode(o),
				       .contend = s->contend };
	int err = stdio_estim_print(stdout, s->m, s->fs, &po);

	if (err || fflush(stdout))
		return c2c_err(-EIO, "cannot write the report: %s", strerror(errno));
	return 0;
}

static int run(struct report_opts *o)
{
	struct rs_opts ro = {
		.input = o->input, .cl_size = o->cl_size, .double_cl = o->double_cl,
		.display = o->display, .nr_coalesce = o->nr_keys, .show_all = o->show_all,
		.node_stats = o->node_info != 0,
		.jobs = o->jobs ? o->jobs : cmdline_default_jobs(), .symfs = o->symfs, .vmlinux = o->vmlinux,
		.verbose = c2c_log_get_level() >= C2C_LOG_DEBUG,
		.check = cmdline_check_input, .check_ctx = &o->use,
		.no_callchains = o->call_graph < 0,
		.phys = o->phys,
		.region = o->region,
	};
	struct report_session *s;
	int err;

	memcpy(ro.coalesce, o->keys, sizeof(ro.coalesce));
	err = rs_open(&s, &ro);
	if (err)
		return err;
	if (s->kind == RM_PMU && (!s->info->nr_cpus || !s->info->nr_nodes) && !o->json && !o->csv)
		c2c_warn("'%s' has no CPU/NUMA topology; node columns stay empty", o->input);
	if (o->json || o->csv) {
		err = o->json ? json_print(stdout, s) : csv_print(stdout, s, o->csv - 1);
		if (err || fflush(stdout))
			err = c2c_err(-EIO, "cannot write the report: %s", strerror(errno));
	} else {
		if ((o->regions || o->region) &&
		    stdio_section_print(stdout, rm_sections_get(s->sections, RM_SEC_REGIONS),
					SIZE_MAX))
			err = c2c_err(-EIO, "cannot write the report: %s", strerror(errno));
		stdio_section_print(stdout, rm_sections_get(s->sections, RM_SEC_UNCORE), SIZE_MAX);
		if (!err)
			err = s->kind == RM_PMU ? print_pmu(o, s) : print_estimate(o, s);
	}
	rs_free(s);
	return err;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .display = -1, .coalesce = "iaddr",
				 .keys = { CLTAB_CO_IADDR }, .nr_keys = 1,
				 .summary = RM_SUMMARY_DEFAULT_TOP };
	int ret = parse_opts(&o, argc, argv);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (!o.input)
		o.input = source_default_input();
	if (run(&o))
		return o.use.refused ? EXIT_USAGE : EXIT_FAIL;
	return EXIT_OK;
}
