/* `c2c-lite convert`: read a perf.data file (or a pipe-mode stream) with the perf.data reader and
 * write the same records as a c2c-lite trace, then print both sizes and the bytes per sample. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "c2c/trace.h"
#include "report/read/perfdata.h"
#include "report/resolve/maps.h"
#include "report/resolve/unwind-sample.h"

struct convert_opts {
	const char *input, *output;
	int zstd_level;
	int quiet;
	int keep_aux;
};

static const char convert_usage[] =
	"usage: c2c-lite convert [perf.data] -o OUT.c2c [--zstd[=LEVEL]] [--keep-aux] [-q]\n"
	"\n"
	"Convert a perf.data file (default ./perf.data; '-' reads 'perf record -o -' from\n"
	"standard input) into a c2c-lite trace. Arm SPE AUX data is decoded into samples\n"
	"as perf 6.1 decodes it; the AUX bytes themselves are left out.\n"
	"\n"
	"  -i, --input FILE    the perf.data file (same as the positional argument)\n"
	"  -o, --output FILE   the trace to write (required; '-': standard output, and the\n"
	"                      summary goes to standard error)\n"
	"      --zstd[=LEVEL]  compress the trace chunks with zstd (default level 3)\n"
	"      --keep-aux      keep the Arm SPE AUX data too, raw, beside the decoded samples\n"
	"  -q, --quiet         print nothing but errors\n"
	"  -h, --help          this text ('c2c-lite help convert': the manual)\n";

static int parse_opts(int argc, char **argv, struct convert_opts *o)
{
	static const struct option lopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "zstd", optional_argument, NULL, 'z' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "keep-aux", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "i:o:qh", lopts)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case 'o': o->output = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'k': o->keep_aux = 1; break;
		case 'z':
			o->zstd_level = 3;
			if (optarg) {
				o->zstd_level = (int)strtol(optarg, &end, 10);
				if (*end || o->zstd_level < 1 || o->zstd_level > 22) {
					c2c_usage("--zstd '%s' is not a level (1..22)", optarg);
					return -1;
				}
			}
			break;
		case 'h':
			fputs(convert_usage, stdout);
			return 1;
		default:
			return -1;          /* c2c_getopt() said why */
		}
	}
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc) {
		c2c_usage("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->output) {
		c2c_usage("convert needs -o OUT");
		return -1;
	}
	return 0;
}

/* The side-band of @ev into @m (the maps a DWARF unwind looks files up in). */
static void track_maps(struct maps *m, struct unwind_sample *us, const struct trace_event *ev)
{
	switch (ev->type) {
	case TRACE_REC_MMAP: maps_mmap(m, &ev->mmap); break;
	case TRACE_REC_COMM: maps_comm(m, &ev->comm); break;
	case TRACE_REC_FORK: maps_fork(m, &ev->task); break;
	case TRACE_REC_EXIT: maps_exit(m, &ev->task); break;
	default: return;
	}
	unwind_sample_event(us, ev);
}

/* Records copied as they are, except that a sample with a user stack (perf record
 * --call-graph dwarf) gets its user frames unwound into its callchain: a trace keeps chains,
 * not stacks. */
static int copy_records(struct perfdata_reader *pr, struct trace_writer *w, uint64_t *nr)
{
	struct maps *m = maps_new();
	struct unwind_sample *us = unwind_sample_new(m);
	struct trace_event ev;
	int rc;

	while ((rc = perfdata_reader_next(pr, &ev)) == 1) {
		if (ev.type == TRACE_REC_SAMPLE)
			unwind_sample_chain(us, &ev.sample);
		else
			track_maps(m, us, &ev);
		rc = trace_write(w, &ev);
		if (rc < 0)
			break;
		(*nr)++;
	}
	unwind_sample_free(us);
	maps_free(m);
	return rc;
}

static void print_sizes(FILE *f, const struct convert_opts *o, const struct perfdata_stats *st,
			uint64_t nr, uint64_t out_bytes)
{
	struct stat sb;
	double ns = st->nr_samples ? (double)st->nr_samples : 1.0;
	int have_in = strcmp(o->input, "-") && stat(o->input, &sb) == 0;

	fprintf(f, "converted %" PRIu64 " records (%" PRIu64 " samples) from '%s' to %s%s%s\n", nr,
	       st->nr_samples, o->input, strcmp(o->output, "-") ? "'" : "",
	       strcmp(o->output, "-") ? o->output : "standard output", strcmp(o->output, "-") ? "'" : "");
	if (have_in)
		fprintf(f, "  perf.data: %12lld bytes  %8.1f bytes/sample\n", (long long)sb.st_size,
		       (double)sb.st_size / ns);
	else
		fprintf(f, "  perf.data: (read from a pipe, size unknown)\n");
	fprintf(f, "  c2c-lite:  %12" PRIu64 " bytes  %8.1f bytes/sample", out_bytes,
	       (double)out_bytes / ns);
	if (have_in && out_bytes)
		fprintf(f, "  (%.1fx smaller)", (double)sb.st_size / (double)out_bytes);
	fprintf(f, "\n");
	if (st->nr_lost_records || st->nr_lost_samples || st->nr_throttle)
		fprintf(f, "  lost: %" PRIu64 " records, %" PRIu64 " samples; throttled %" PRIu64 " times\n",
		       st->nr_lost_records, st->nr_lost_samples, st->nr_throttle);
	if (st->nr_unknown_records || st->nr_unordered)
		fprintf(f, "  skipped %" PRIu64 " records of unknown types; %" PRIu64 " out of order\n",
		       st->nr_unknown_records, st->nr_unordered);
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { .input = "perf.data" };
	struct perfdata_reader *pr = NULL;
	struct trace_writer *w = NULL;
	struct trace_writer_opts wo = { 0 };
	uint64_t nr = 0, bytes;
	struct stat sb;
	int rc, to_stdout;

	rc = parse_opts(argc, argv, &o);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (perfdata_reader_open_opts(&pr, o.input, o.keep_aux ? PERFDATA_KEEP_AUX : 0) < 0)
		return EXIT_FAIL;
	if (o.keep_aux && perfdata_reader_info(pr)->backend != TRACE_BACKEND_SPE) {
		c2c_usage("--keep-aux: '%s' holds no Arm SPE recording", o.input);
		perfdata_reader_free(pr);
		return EXIT_USAGE;
	}
	wo.zstd_level = o.zstd_level;
	to_stdout = !strcmp(o.output, "-");
	if (to_stdout && isatty(STDOUT_FILENO)) {
		c2c_usage("-o -: standard output is a terminal; redirect it to a file or a pipe");
		perfdata_reader_free(pr);
		return EXIT_USAGE;
	}
	if ((to_stdout ? trace_writer_fdopen(&w, STDOUT_FILENO, "standard output",
					     perfdata_reader_info(pr), &wo) :
	     trace_writer_open(&w, o.output, perfdata_reader_info(pr), &wo)) < 0) {
		perfdata_reader_free(pr);
		return EXIT_FAIL;
	}
	rc = copy_records(pr, w, &nr);
	if (trace_writer_flush(w) < 0 && rc >= 0)
		rc = -EIO;
	bytes = trace_writer_bytes(w);
	if (trace_writer_close(w) < 0 && rc >= 0)
		rc = -EIO;
	if (!to_stdout && stat(o.output, &sb) == 0)
		bytes = (uint64_t)sb.st_size;
	if (rc >= 0 && !o.quiet)
		print_sizes(to_stdout ? stderr : stdout, &o, perfdata_reader_stats(pr), nr, bytes);
	perfdata_reader_free(pr);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}
