/* `c2c-lite selftest`: the hardware acceptance kit. --hw records the bundled examples with
 * `perf c2c record` and `c2c-lite record --backend=hw` (and `perf stat -M TopdownL1` for the
 * TopDown fractions), reports both and judges them with report/diff/hwcheck.c; --compare judges
 * two recordings made already. The recorders run as child processes (this binary's own `record`
 * and `doctor` too), so the command needs nothing of record/. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "report/diff/hwcheck.h"
#include "report/model/session.h"

static const char selftest_usage[] =
	"usage: c2c-lite selftest --hw [-o DIR] [--examples DIR] [--seconds S] [-q]\n"
	"       c2c-lite selftest --compare PERF.DATA TRACE [--perf-stat FILE] [--expect NAME] [-q]\n"
	"\n"
	"The hardware acceptance kit: --hw records each bundled example (false_sharing,\n"
	"true_sharing, padded) with 'perf c2c record' and with 'c2c-lite record --backend=hw' (and\n"
	"'perf stat -M TopdownL1'), reports both and compares the top findings, their data names,\n"
	"the HITM and peer shares within sampling noise and the TopDown fractions; then prints a\n"
	"verdict with doctor's machine summary, to paste into a bug report. --compare judges two\n"
	"recordings of one workload made already.\n"
	"\n"
	"      --hw              record and compare the bundled examples (a memory-sampling PMU and\n"
	"                        perf are needed)\n"
	"      --compare         compare PERF.DATA (from perf c2c record) with TRACE (from\n"
	"                        c2c-lite record's hw backend)\n"
	"      --perf-stat FILE  --compare: 'perf stat -M TopdownL1 -x,' output of the workload\n"
	"      --expect NAME     --compare: the data object the workload contends on ('-': none)\n"
	"  -o, --output DIR      --hw: keep the recordings and logs in DIR (default: a temporary\n"
	"                        directory, removed)\n"
	"      --examples DIR    --hw: the example programs (default: beside the binary)\n"
	"      --seconds S       --hw: how long each example runs (default 2)\n"
	"  -q, --quiet           the verdict line only\n"
	"  -h, --help            this text ('c2c-lite help selftest': the manual)\n";

struct st_opts {
	int hw, compare, quiet;
	const char *perf_stat, *expect, *outdir, *examples, *seconds;
	const char *perf_data, *trace;
};

/* perf stat's and perf c2c report's output is read up to this (the table perf c2c report starts
 * with comes within its first kilobytes) */
#define HWC_TEXT_MAX (1 << 20)

enum { OPT_HW = 256, OPT_COMPARE, OPT_PERF_STAT, OPT_EXPECT, OPT_EXAMPLES, OPT_SECONDS };

static int parse(struct st_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "hw", no_argument, NULL, OPT_HW }, { "compare", no_argument, NULL, OPT_COMPARE },
		{ "perf-stat", required_argument, NULL, OPT_PERF_STAT },
		{ "expect", required_argument, NULL, OPT_EXPECT },
		{ "output", required_argument, NULL, 'o' },
		{ "examples", required_argument, NULL, OPT_EXAMPLES },
		{ "seconds", required_argument, NULL, OPT_SECONDS },
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "o:qh", lopts)) != -1) {
		switch (c) {
		case OPT_HW: o->hw = 1; break;
		case OPT_COMPARE: o->compare = 1; break;
		case OPT_PERF_STAT: o->perf_stat = optarg; break;
		case OPT_EXPECT: o->expect = optarg; break;
		case 'o': o->outdir = optarg; break;
		case OPT_EXAMPLES: o->examples = optarg; break;
		case OPT_SECONDS:
			if (strtod(optarg, &end) <= 0 || *end || end == optarg) {
				c2c_usage("--seconds '%s' is not a positive duration", optarg);
				return EXIT_USAGE;
			}
			o->seconds = optarg;
			break;
		case 'q': o->quiet = 1; c2c_log_set_level(C2C_LOG_ERROR); break;
		case 'h': fputs(selftest_usage, stdout); return -1;
		default: return EXIT_USAGE;     /* c2c_getopt() said why */
		}
	}
	if (o->hw == o->compare) {
		c2c_usage("give --hw or --compare");
		return EXIT_USAGE;
	}
	if (o->compare) {
		if (o->outdir || o->examples || o->seconds) {
			c2c_usage("-o, --examples and --seconds apply to --hw, which records; "
				  "--compare reads two recordings");
			return EXIT_USAGE;
		}
		if (argc - optind != 2) {
			c2c_usage("--compare takes two files: PERF.DATA TRACE");
			return EXIT_USAGE;
		}
		o->perf_data = argv[optind];
		o->trace = argv[optind + 1];
		return 0;
	}
	if (o->perf_stat || o->expect) {
		c2c_usage("--perf-stat and --expect apply to --compare; --hw runs perf stat itself "
			  "and knows what its examples contend on");
		return EXIT_USAGE;
	}
	if (optind < argc) {
		c2c_usage("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}

/* --- child processes ---------------------------------------------------------------------- */

/* Run @argv with stdout and stderr to @log (stdout to @out when given); the exit status, or -1
 * when it could not start. @no_sigpipe: the child ignores SIGPIPE (perf c2c report dies of it
 * when an addr2line it pipes to gives up on a missing file). */
static int spawn_ex(const char *const argv[], const char *log, const char *out, int no_sigpipe)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		int fo = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : fd;

		if (fd < 0 || fo < 0 || dup2(fo, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		if (no_sigpipe)
			signal(SIGPIPE, SIG_IGN);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int spawn(const char *const argv[], const char *log, const char *out)
{
	return spawn_ex(argv, log, out, 0);
}

/* --- one comparison ------------------------------------------------------------------------- */

static int load_side(const char *path, const char *label, struct hwc_side *side)
{
	struct rs_opts ro = { .input = path, .display = -1 };
	struct report_session *s;
	int rc = rs_open(&s, &ro);

	if (rc)
		return rc;
	if (s->kind != RM_PMU) {
		enum rm_kind kind = s->kind;

		rs_free(s);
		return c2c_err(-EINVAL, "'%s' is a %s trace: the kit compares PMU recordings (perf c2c "
			       "record, c2c-lite record --backend=hw)", path, rm_kind_name(kind));
	}
	rc = hwc_side_from(s, label, side);
	rs_free(s);
	return rc;
}

static int read_text(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, n;
	char *buf;

	if (!f)
		return c2c_err(-errno, "cannot open '%s': %s", path, strerror(errno));
	buf = malloc(HWC_TEXT_MAX + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	while (len < HWC_TEXT_MAX && (n = fread(buf + len, 1, HWC_TEXT_MAX - len, f)) > 0)
		len += n;
	buf[len] = '\0';
	fclose(f);
	*out = buf;
	return 0;
}

/* `perf c2c report --stdio` of @perf_data, or NULL when perf is missing or fails. */
static char *perf_report(const char *perf_data)
{
	char path[PATH_MAX];
	const char *argv[] = { "perf", "c2c", "report", "--stdio", "-i", perf_data, NULL };
	char *text = NULL;
	int fd;

	snprintf(path, sizeof(path), "%s/c2c-selftest-report.XXXXXX", getenv("TMPDIR") ?
		 getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return NULL;
	close(fd);
	if (spawn_ex(argv, "/dev/null", path, 1) || read_text(path, &text))
		text = NULL;
	unlink(path);
	return text;
}

/* Judge one workload's two recordings: prints the checks (all of them unless @quiet) and returns
 * the verdict, or a negative errno when a file cannot be read. */
static int judge(const char *title, const char *perf_data, const char *trace,
		 const char *perf_stat, const char *expect, int quiet)
{
	struct hwc_side p, o;
	struct hwc_check c[HWC_MAX_CHECKS];
	char *report;
	size_t n;
	int rc;

	if ((rc = load_side(perf_data, "perf c2c", &p)) || (rc = load_side(trace, "c2c-lite", &o)))
		return rc;
	if (perf_stat) {
		char *text;

		if ((rc = read_text(perf_stat, &text)))
			return rc;
		p.has_td = !hwc_parse_perf_stat(text, p.td);
		free(text);
		if (!p.has_td)
			c2c_warn("'%s': no TopdownL1 metrics (tma_retiring ...) in it", perf_stat);
	}
	report = perf_report(perf_data);
	n = hwc_compare(&p, &o, expect, report, c);
	free(report);
	if (!quiet)
		hwc_print(stdout, title, c, n);
	return (int)hwc_verdict(c, n);
}

static int run_compare(const struct st_opts *o)
{
	char title[PATH_MAX * 2 + 8];
	int v;

	snprintf(title, sizeof(title), "%s vs %s", o->perf_data, o->trace);
	v = judge(title, o->perf_data, o->trace, o->perf_stat, o->expect, o->quiet);
	if (v < 0)
		return EXIT_FAIL;
	printf("verdict: %s\n", v == HWC_OK ? "PASS (the two recordings agree)" : v == HWC_FAIL ?
	       "FAIL (see the checks above)" : "nothing compared (every check skipped)");
	return v == HWC_OK ? EXIT_OK : EXIT_FAIL;
}

/* --- --hw ----------------------------------------------------------------------------------- */

/* doctor's summary line where a memory-sampling PMU is usable (record/cmd-doctor.c) */
#define HW_SUMMARY "summary: hardware memory sampling is available"

/* doctor's machine lines: the CPU, the hypervisor, the hardware backends and the summary. */
static int machine_summary(const char *self, const char *dir, char *sum, size_t n, int *hw)
{
	char log[PATH_MAX + 16], out[PATH_MAX + 16], *text, *line, *save = NULL;
	const char *argv[] = { self, "doctor", NULL };
	size_t len = 0;

	snprintf(log, sizeof(log), "%s/doctor.log", dir);
	snprintf(out, sizeof(out), "%s/doctor.txt", dir);
	if (spawn(argv, log, out) || read_text(out, &text))
		return c2c_err(-EIO, "selftest: 'c2c-lite doctor' failed (see %s)", log);
	*hw = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		static const char *const keep[] = { "cpu ", "hypervisor ", "pmu-version ", "pebs-",
						    "ibs ", "spe ", "spe-", "power-mem ",
						    "topdown ", "hw-pmu " };
		const char *topic = line + (strlen(line) > 5 ? 5 : strlen(line));
		int want = !strncmp(line, "summary: ", 9);

		for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]) && !want; i++)
			want = !strncmp(topic, keep[i], strlen(keep[i]));
		if (want && len < n)
			len += (size_t)snprintf(sum + len, n - len, "  %s\n", line);
		if (!strncmp(line, HW_SUMMARY, strlen(HW_SUMMARY)))
			*hw = 1;
	}
	free(text);
	return 0;
}

static const struct {
	const char *name, *expect;
} examples[] = {
	{ "false_sharing", "buf1" }, { "true_sharing", "counter" }, { "padded", "-" },
};

static int run_hw(const struct st_opts *o)
{
	char self[PATH_MAX], dir[PATH_MAX], exdir[PATH_MAX + 16], sum[4096] = "", failed[256] = "";
	const char *perfv[] = { "perf", "--version", NULL };
	const char *secs = o->seconds ? o->seconds : "2";
	size_t nex = sizeof(examples) / sizeof(examples[0]), agree = 0, flen = 0;
	int hw = 0, rc = EXIT_FAIL, tmp = !o->outdir;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len <= 0) {
		c2c_log(C2C_LOG_ERROR, "selftest: cannot find this binary (/proc/self/exe)");
		return EXIT_FAIL;
	}
	self[len] = '\0';
	if (o->examples) {
		snprintf(exdir, sizeof(exdir), "%s", o->examples);
	} else {  /* build/c2c-lite beside build/examples/, or PREFIX/libexec/c2c-lite/examples */
		int d = (int)(strrchr(self, '/') - self);

		snprintf(exdir, sizeof(exdir), "%.*s/examples", d, self);
		if (access(exdir, X_OK))
			snprintf(exdir, sizeof(exdir), "%.*s/../libexec/c2c-lite/examples", d, self);
	}
	if (tmp) {
		snprintf(dir, sizeof(dir), "%s/c2c-selftest.XXXXXX", getenv("TMPDIR") ?
			 getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(dir)) {
			c2c_log(C2C_LOG_ERROR, "selftest: cannot make '%s': %s", dir, strerror(errno));
			return EXIT_FAIL;
		}
	} else {
		snprintf(dir, sizeof(dir), "%s", o->outdir);
		if (mkdir(dir, 0755) && errno != EEXIST) {
			c2c_log(C2C_LOG_ERROR, "selftest: cannot make '%s': %s", dir, strerror(errno));
			return EXIT_FAIL;
		}
	}
	if (machine_summary(self, dir, sum, sizeof(sum), &hw))
		goto out;
	if (!hw) {
		const char *s = strstr(sum, "summary: ");

		c2c_log(C2C_LOG_ERROR, "selftest --hw: no hardware memory sampling on this machine "
			"(doctor: %.*s)", s ? (int)strcspn(s + 9, "\n") : 1, s ? s + 9 : "?");
		goto out;
	}
	{
		char log[PATH_MAX + 16];

		snprintf(log, sizeof(log), "%s/perf.log", dir);
		if (spawn(perfv, log, NULL)) {
			c2c_log(C2C_LOG_ERROR, "selftest --hw: perf does not run (install linux-perf; "
				"see %s)", log);
			goto out;
		}
	}
	if (!o->quiet)
		printf("machine (c2c-lite doctor):\n%s\n", sum);
	for (size_t i = 0; i < nex; i++) {
		char ex[PATH_MAX + 64], pd[PATH_MAX + 64], tr[PATH_MAX + 64], st[PATH_MAX + 64];
		char log[PATH_MAX + 64];
		int v;

		snprintf(ex, sizeof(ex), "%s/%s", exdir, examples[i].name);
		snprintf(pd, sizeof(pd), "%s/%s.perf.data", dir, examples[i].name);
		snprintf(tr, sizeof(tr), "%s/%s.c2c", dir, examples[i].name);
		snprintf(st, sizeof(st), "%s/%s.stat", dir, examples[i].name);
		snprintf(log, sizeof(log), "%s/%s.log", dir, examples[i].name);
		if (access(ex, X_OK)) {
			c2c_log(C2C_LOG_ERROR, "selftest --hw: no example '%s' (build them with make, "
				"or give --examples DIR)", ex);
			goto out;
		}
		const char *prec[] = { "perf", "c2c", "record", "-o", pd, "--", ex, secs, NULL };
		const char *crec[] = { self, "record", "-q", "--backend=hw", "-o", tr, "--", ex, secs,
				       NULL };
		const char *pstat[] = { "perf", "stat", "-M", "TopdownL1", "-x,", "-o", st, "--", ex,
					secs, NULL };

		if (spawn(prec, log, NULL) || spawn(crec, log, NULL)) {
			c2c_log(C2C_LOG_ERROR, "selftest --hw: recording %s failed (see %s)",
				examples[i].name, log);
			goto out;
		}
		/* TopDown is optional: without it (not Intel, no PERF_METRICS) that check skips */
		int have_stat = !spawn(pstat, log, NULL);

		v = judge(examples[i].name, pd, tr, have_stat ? st : NULL, examples[i].expect,
			  o->quiet);
		if (v < 0)
			goto out;
		if (v == HWC_OK)
			agree++;
		else
			flen += (size_t)snprintf(failed + flen, flen < sizeof(failed) ?
						 sizeof(failed) - flen : 0, "%s%s",
						 flen ? ", " : "", examples[i].name);
		if (!o->quiet)
			putchar('\n');
	}
	printf("verdict: %s (%zu of %zu examples agree%s%s)%s%s\n", agree == nex ? "PASS" : "FAIL",
	       agree, nex, flen ? "; not: " : "", failed, tmp ? "" : "; files in ",
	       tmp ? "" : dir);
	rc = agree == nex ? EXIT_OK : EXIT_FAIL;
out:
	if (tmp) {
		const char *rm[] = { "rm", "-rf", dir, NULL };

		spawn(rm, "/dev/null", NULL);
	}
	return rc;
}

int cmd_selftest(int argc, char **argv)
{
	struct st_opts o = { 0 };
	int ret = parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	return o.hw ? run_hw(&o) : run_compare(&o);
}
