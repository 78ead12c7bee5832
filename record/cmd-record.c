/* `c2c-lite record`: options, signals and exit status around record_run(). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/confirm.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "c2c/unwind.h"
#include "record/events.h"
#include "record/rate-plan.h"
#include "record/session.h"
#include "record/sysfs.h"
#include "record/workload.h"

static const char record_usage[] =
	"usage: c2c-lite record [options] [-- command [args]]\n"
	"\n"
	"Sample loads and stores with their data addresses and write a c2c-lite trace.\n"
	"Without -e or --backend: the machine's memory events (Intel PEBS mem-loads/mem-stores,\n"
	"AMD IBS, Arm SPE, POWER) as 'perf c2c record' opens them, or the soft backend when the\n"
	"machine has none.\n"
	"\n"
	"      --backend NAME    hw: the memory events above; soft: cpu-clock samples of every\n"
	"                        thread, decoded into the data access each thread was stalled\n"
	"                        on (x86-64; the report gives estimates); watch: hardware\n"
	"                        watchpoints on the --watch words (accesses counted)\n"
	"      --watch SPEC      watch SYMBOL, SYMBOL+OFF, SYMBOL/LEN, SYMBOL+OFF/LEN or\n"
	"                        0xADDR/LEN (repeatable; symbols of the workload's executable;\n"
	"                        more than 4 words rotate over the 4 debug registers)\n"
	"      --watch-step MS   rotation step (default 10 ms)\n"
	"      --watch-overhead PCT  most CPU time the watchpoint traps may add, in percent of\n"
	"                        the workload's own (default 80: a run takes at most ~1.8x);\n"
	"                        past it the watchpoints pause and the report scales the counts.\n"
	"                        'unlimited': never pause (every access, at any cost)\n"
	"      --soft-overhead PCT  most time the soft backend's samples may take from the\n"
	"                        sampled threads, in percent of theirs (default 3): without -F\n"
	"                        or -c, the rate is lowered from %llu Hz where a sample costs\n"
	"                        more (measured at start). 'unlimited': %llu Hz at any cost\n"
	"      --no-confirm      soft backend: no watchpoints beside the samples (by default\n"
	"                        the hot lines' words are watched in turns, within the same\n"
	"                        bound, and the report judges a watched line by its accesses)\n"
	"  -e, --event EVENT     event to sample (repeatable): mem-loads, mem-stores,\n"
	"                        page-faults, cpu-clock, pmu/term=val,.../mods; '-e list' lists\n"
	"  -o, --output FILE     trace file (default c2c-lite.data; '-': standard output, and\n"
	"                        the workload's standard output goes to standard error)\n"
	"  -l, --ldlat CYCLES    load-latency threshold (default 30)\n"
	"  -c, --count PERIOD    sample every PERIOD events\n"
	"  -F, --freq HZ         sample HZ times a second (default %llu%s; at most\n"
	"                        kernel.perf_event_max_sample_rate)\n"
	"  -m, --mmap-pages N[,M]  ring buffer data pages per CPU, a power of two (default 128),\n"
	"                        and AUX area pages per CPU for Arm SPE (default 4 MiB, 128 KiB\n"
	"                        without CAP_PERFMON)\n"
	"  -p, --pid PID[,PID]   record existing processes\n"
	"  -t, --tid TID[,TID]   record existing threads\n"
	"  -a, --all-cpus        record every task (with -C: on these CPUs)\n"
	"  -C, --cpu LIST        CPUs for -a, e.g. 0-3,8\n"
	"  -u, --all-user        user space only\n"
	"  -k, --all-kernel      kernel only\n"
	"      --duration SECS   stop after SECS seconds\n"
	"      --no-inherit      do not follow child tasks\n"
	"      --topdown, --no-topdown   TopDown counters in the sampling group, or beside IBS/SPE\n"
	"                        in a group of their own read every 1000000 cycles (default: auto)\n"
	"      --zstd LEVEL      zstd level of trace chunks (default 1, 0: off)\n"
	"  -g                    record callchains (--call-graph fp)\n"
	"      --call-graph MODE  callchains with every sample: fp (the kernel's frame-pointer\n"
	"                        walk; build the workload with -fno-omit-frame-pointer), or\n"
	"                        dwarf[,SIZE] (SIZE bytes of user stack, default 8192, unwound\n"
	"                        with libdw while recording: no frame pointers needed, CPU time\n"
	"                        spent); lbr is refused with the reason\n"
	"  -v, --verbose         debug messages and details\n"
	"  -q, --quiet           errors only\n"
	"  -h, --help            this text ('c2c-lite help record': the manual)\n"
	"\n"
	"Exit status: 0 when --duration or SIGINT ends the recording; otherwise the workload's\n"
	"(128+N when signal N killed it, 127 or 126 when it could not start); 1 when recording\n"
	"failed, 2 for a usage error.\n";

/* The usage text, its default rate from this machine's rate plan (the kernel's cap included). */
static void print_usage(void)
{
	struct rate_req req = { .ns_per_sample = -1 };
	struct rate_plan p;
	unsigned long long f;

	rate_plan_here(&req, &p);
	f = (unsigned long long)p.freq;
	printf(record_usage, f, f, f, p.source == RATE_KERNEL_CAP ? " here, the kernel's cap" : "");
}

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;       /* no SA_RESTART: poll() returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);        /* RLIMIT_FSIZE: let write() fail with EFBIG */
	signal(SIGPIPE, SIG_IGN);
}

/* A number: 0 or -EINVAL, said by the caller (one line, what the option needs). */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || s[0] == '-' ? -EINVAL : 0;
}

/* A bound of --watch-overhead or --soft-overhead: a percentage from 1 to @max as a fraction,
 * or 'unlimited' (-1). One error line. */
static int parse_bound(const char *s, const char *opt, uint64_t max, double *out)
{
	char *end;
	uint64_t v;

	if (!strcmp(s, "unlimited")) {
		*out = -1;
		return 0;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || !v || v > max)
		return c2c_usage("%s needs a percentage from 1 to %llu or 'unlimited', not "
				 "'%s'", opt, (unsigned long long)max, s);
	*out = (double)v / 100;
	return 0;
}

static int parse_pids(const char *s, struct record_opts *o)
{
	char *copy = xstrdup(s), *tok, *save = NULL;
	size_t cap = o->nr_pids;
	int err = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_u64(tok, &v) || v == 0 || v > 0x7fffffff)
			err = c2c_usage("bad process id '%s'", tok);
		if (err)
			break;
		o->pids = xgrow(o->pids, &cap, o->nr_pids + 1, sizeof(*o->pids));
		o->pids[o->nr_pids++] = (pid_t)v;
	}
	free(copy);
	return err;
}

static int parse_pages(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || s[0] == '-' || !*v || *v > (1u << 20) ||
	       (*v & (*v - 1)) ? -EINVAL : 0;
}

/* -m N, -m N,M or -m ,M (perf's data and AUX pages). */
static int parse_mmap_pages(const char *arg, struct record_opts *o)
{
	const char *comma = strchr(arg, ',');
	char data[32];
	uint64_t v;

	if ((comma ? (size_t)(comma - arg) : strlen(arg)) >= sizeof(data))
		return c2c_usage("-m needs N or N,M pages (powers of two), not '%s'", arg);
	snprintf(data, sizeof(data), "%.*s", (int)(comma ? comma - arg : (long)strlen(arg)), arg);
	if (data[0] || !comma) {
		if (parse_pages(data, &v))
			return c2c_usage("-m needs a power of two of pages, not '%s'", arg);
		o->mmap_pages = (unsigned int)v;
	}
	if (comma) {
		if (parse_pages(comma + 1, &v))
			return c2c_usage("-m N,M needs a power of two of AUX pages, not '%s'",
					 arg);
		o->aux_pages = (unsigned int)v;
	}
	return 0;
}

static void emit_line(const char *line, void *ctx)
{
	(void)ctx;
	printf("%s\n", line);
}

enum {
	OPT_DURATION = 256, OPT_NO_INHERIT, OPT_TOPDOWN, OPT_NO_TOPDOWN, OPT_ZSTD, OPT_BACKEND,
	OPT_WATCH, OPT_WATCH_STEP, OPT_WATCH_OVERHEAD, OPT_CALL_GRAPH, OPT_SOFT_OVERHEAD,
	OPT_NO_CONFIRM,
};

static const struct option longopts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "ldlat", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'c' },
	{ "freq", required_argument, NULL, 'F' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "all-user", no_argument, NULL, 'u' },
	{ "all-kernel", no_argument, NULL, 'k' },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
	{ "topdown", no_argument, NULL, OPT_TOPDOWN },
	{ "no-topdown", no_argument, NULL, OPT_NO_TOPDOWN },
	{ "zstd", required_argument, NULL, OPT_ZSTD },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "watch", required_argument, NULL, OPT_WATCH },
	{ "watch-step", required_argument, NULL, OPT_WATCH_STEP },
	{ "watch-overhead", required_argument, NULL, OPT_WATCH_OVERHEAD },
	{ "soft-overhead", required_argument, NULL, OPT_SOFT_OVERHEAD },
	{ "no-confirm", no_argument, NULL, OPT_NO_CONFIRM },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* perf record's --call-graph MODE[,SIZE]: the modes perf knows; the ones c2c-lite does not
 * record are refused with the reason, never ignored. */
static int parse_call_graph(const char *s, struct record_opts *o)
{
	const char *size = strchr(s, ',');
	size_t n = size ? (size_t)(size - s) : strlen(s);

	if (n == 2 && !strncmp(s, "fp", 2) && !size) {
		o->ev.callchain = 1;
		return 0;
	}
	if (n == 5 && !strncmp(s, "dwarf", 5)) {
		uint64_t v = C2C_UNWIND_STACK_DEFAULT;
		char *end = NULL;

		if (size) {
			errno = 0;
			v = strtoull(size + 1, &end, 0);
		}
		if (size && (errno || end == size + 1 || *end || size[1] == '-' || v < 8 ||
			     v > C2C_UNWIND_STACK_MAX))
			return c2c_usage("--call-graph dwarf,SIZE: SIZE is 8 to %u bytes, not "
					 "'%s'", C2C_UNWIND_STACK_MAX, size + 1);
		o->ev.callchain = 2;
		o->ev.stack_user = (uint32_t)((v + 7) & ~7ull);   /* perf rounds up to 8 */
		return 0;
	}
	if (n == 3 && !strncmp(s, "lbr", 3) && !size)
		return sysfs_exists("/sys/bus/event_source/devices/cpu/caps/branches") ?
		       c2c_usage("--call-graph lbr: c2c-lite does not read LBR call stacks "
				 "yet; use -g (fp)") :
		       c2c_usage("--call-graph lbr: this machine's PMU has no LBR (no "
				 "%s/sys/bus/event_source/devices/cpu/caps/branches); use -g (fp)",
				 sysfs_root());
	return c2c_usage("--call-graph '%s': the modes are fp, dwarf[,SIZE] and lbr", s);
}

static int parse_backend(const char *s, struct record_opts *o)
{
	static const char *const names[] = {
		[RECORD_BACKEND_AUTO] = "auto", [RECORD_BACKEND_HW] = "hw",
		[RECORD_BACKEND_SOFT] = "soft", [RECORD_BACKEND_WATCH] = "watch",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			o->backend = (int)i;
			return 0;
		}
	return c2c_usage("unknown backend '%s' (auto, hw, soft or watch)", s);
}

/* One option; 1: handled and stop (help/list), 0 go on, <0 usage error. */
static int parse_opt(int c, struct record_opts *o, size_t *ecap, size_t *wcap)
{
	uint64_t v;
	char *end;

	switch (c) {
	case OPT_BACKEND: return parse_backend(optarg, o);
	case 'g': o->ev.callchain = 1; return 0;
	case OPT_CALL_GRAPH: return parse_call_graph(optarg, o);
	case OPT_WATCH:
		o->watch = xgrow(o->watch, wcap, o->nr_watch + 1, sizeof(*o->watch));
		o->watch[o->nr_watch++] = optarg;
		return 0;
	case OPT_WATCH_STEP:
		if (parse_u64(optarg, &v) || !v || v > 60000)
			return c2c_usage("--watch-step needs 1..60000 ms, not '%s'", optarg);
		o->watch_step_ms = (unsigned int)v;
		return 0;
	case OPT_WATCH_OVERHEAD:
		return parse_bound(optarg, "--watch-overhead", 100000, &o->watch_budget);
	case OPT_SOFT_OVERHEAD:
		return parse_bound(optarg, "--soft-overhead", 100, &o->rate.budget);
	case OPT_NO_CONFIRM: o->no_confirm = 1; return 0;
	case 'e':
		if (!strcmp(optarg, "list")) {
			events_list(emit_line, NULL);
			return 1;
		}
		o->events = xgrow(o->events, ecap, o->nr_events + 1, sizeof(*o->events));
		o->events[o->nr_events++] = optarg;
		return 0;
	case 'o': o->output = optarg; return 0;
	case 'l':
		if (parse_u64(optarg, &v) || !v || v > 0xffff)
			return c2c_usage("--ldlat needs 1..65535 cycles, not '%s'", optarg);
		o->ev.ldlat = (unsigned int)v;
		return 0;
	case 'c':
		if (parse_u64(optarg, &v) || !v)
			return c2c_usage("-c needs a period > 0, not '%s'", optarg);
		o->rate.period = v;
		return 0;
	case 'F':
		if (parse_u64(optarg, &v) || !v)
			return c2c_usage("-F needs a frequency > 0, not '%s'", optarg);
		o->rate.freq = v;
		return 0;
	case 'm':
		return parse_mmap_pages(optarg, o);
	case 'p': case 't':
		o->threads_only = c == 't';
		return parse_pids(optarg, o);
	case 'a': o->ev.system_wide = 1; return 0;
	case 'C': o->cpu_list = optarg; o->ev.system_wide = 1; return 0;
	case 'u': o->ev.all_user = 1; return 0;
	case 'k': o->ev.all_kernel = 1; return 0;
	case OPT_DURATION:
		o->duration = strtod(optarg, &end);
		if (end == optarg || *end || o->duration <= 0)
			return c2c_usage("--duration needs seconds > 0, not '%s'", optarg);
		return 0;
	case OPT_NO_INHERIT: o->ev.no_inherit = 1; return 0;
	case OPT_TOPDOWN: o->topdown = 1; return 0;
	case OPT_NO_TOPDOWN: o->topdown = 0; return 0;
	case OPT_ZSTD:
		if (parse_u64(optarg, &v) || v > 22)
			return c2c_usage("--zstd needs a level 0..22, not '%s'", optarg);
		o->zstd_level = (int)v;
		return 0;
	case 'v': c2c_log_set_level(C2C_LOG_DEBUG); return 0;
	case 'q': c2c_log_set_level(C2C_LOG_ERROR); return 0;
	case 'h': print_usage(); return 1;
	default: return -EINVAL;
	}
}

/* Options that only make sense together. */
static int check_backend(const struct record_opts *o)
{
	if (o->nr_events && o->backend != RECORD_BACKEND_AUTO && o->backend != RECORD_BACKEND_HW)
		return c2c_usage("-e cannot be combined with --backend=%s",
				 o->backend == RECORD_BACKEND_SOFT ? "soft" : "watch");
	if (o->nr_watch && o->backend != RECORD_BACKEND_WATCH)
		return c2c_usage("--watch needs --backend=watch");
	if (o->backend == RECORD_BACKEND_WATCH && !o->nr_watch)
		return c2c_usage("--backend=watch needs at least one --watch SPEC");
	if (o->backend == RECORD_BACKEND_WATCH && (o->ev.system_wide || o->nr_pids > 1))
		return c2c_usage("--backend=watch records one program: a command or one -p PID");
	if (o->watch_budget && o->backend != RECORD_BACKEND_WATCH)
		return c2c_usage("--watch-overhead needs --backend=watch");
	if (o->watch_step_ms && o->backend != RECORD_BACKEND_WATCH)
		return c2c_usage("--watch-step needs --backend=watch");
	if (o->rate.budget && (o->backend == RECORD_BACKEND_HW || o->backend == RECORD_BACKEND_WATCH ||
			       o->nr_events))
		return c2c_usage("--soft-overhead needs the soft backend (--backend=soft, or "
				 "the default on a machine without memory sampling)");
	if (o->no_confirm && (o->backend == RECORD_BACKEND_HW || o->backend == RECORD_BACKEND_WATCH ||
			      o->nr_events))
		return c2c_usage("--no-confirm applies to the soft backend (--backend=soft, or "
				 "the default on a machine without memory sampling)");
	if (o->no_confirm && o->ev.system_wide)
		return c2c_usage("--no-confirm: with -a the soft backend confirms nothing "
				 "(its watchpoints follow a command or -p/-t)");
	return 0;
}

/* The words of @argv joined by spaces, each quoted for the shell when it needs it (the recorded
 * command line can be pasted back). @prefix starts the text. */
static char *join_args(const char *prefix, int argc, char **argv)
{
	size_t len = strlen(prefix) + 1, n;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += 4 * strlen(argv[i]) + 3;
	s = xcalloc(len, 1);
	p = s + sprintf(s, "%s", prefix);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (p != s)
			*p++ = ' ';
		n = strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			   "-_./=:,+@%^");
		if (*a && !a[n]) {
			p += sprintf(p, "%s", a);
			continue;
		}
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p += sprintf(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

static const char *output_name(const struct record_opts *o)
{
	if (!o->output)
		return "c2c-lite.data";
	return strcmp(o->output, "-") ? o->output : "standard output";
}

/* What the run gave, one short line each; the details under -v. */
static void report_result(const struct record_opts *o, const struct record_result *r)
{
	unsigned int pages = o->mmap_pages ? o->mmap_pages : 128;
	const char *how = r->watch_seen_bound ? "at most" : "about";

	c2c_info("%llu samples, %llu records, %llu bytes written to %s%s%s",
		 (unsigned long long)r->samples, (unsigned long long)r->records,
		 (unsigned long long)r->bytes, o->output && !strcmp(o->output, "-") ? "" : "'",
		 output_name(o), o->output && !strcmp(o->output, "-") ? "" : "'");
	if (r->td_readings)
		c2c_info("TopDown: %llu readings of the core counters beside the samples (report "
			 "attributes them by time)", (unsigned long long)r->td_readings);
	if (r->regions)
		c2c_info("%llu region markers in the trace (report --regions splits the samples)",
			 (unsigned long long)r->regions);
	if (r->uncore)
		c2c_info("AMD uncore: %llu L3/DRAM/link counts in the trace (in the report header)",
			 (unsigned long long)r->uncore);
	if (r->backend == TRACE_BACKEND_SOFT)
		c2c_info("soft backend: a data address was recovered for %llu of %llu samples",
			 (unsigned long long)(r->soft_recovered), (unsigned long long)(r->samples -
			 r->confirm_hits));
	if (r->backend == TRACE_BACKEND_SOFT && r->confirm_status == C2C_CONFIRM_ON)
	{
		/* under 100 columns (cli-quiet.sh); the windows and the bound under -v */
		c2c_info("watchpoints: %llu accesses seen on %llu line%s, armed %.3g%% of the work",
			 (unsigned long long)r->confirm_hits, (unsigned long long)r->confirm_lines,
			 r->confirm_lines == 1 ? "" : "s", r->confirm_seen * 100);
		c2c_debug("watchpoints: %llu windows; their traps were bounded to %.2g%% of the "
			  "workload's time (--soft-overhead)", (unsigned long long)r->confirm_windows,
			  r->confirm_budget * 100);
	}
	if (r->backend == TRACE_BACKEND_WATCH && r->watch_seen < 0.995) {
		if (r->watch_seen < 0.001)
			c2c_info("watch backend: paused to bound its overhead, it saw under 0.1%% "
				 "of the work");
		else
			c2c_info("watch backend: paused to bound its overhead, it saw %s %.3g%% of "
				 "the work", how, r->watch_seen * 100);
		c2c_debug("the watchpoints were paused at times to keep their traps under %.0f%% "
			  "of the workload's CPU time; the report says how to read the counts; "
			  "--watch-overhead sets the bound", r->watch_budget * 100);
	}
	if (o->ev.callchain == 2)
		c2c_info("--call-graph dwarf: %llu of %llu user stacks unwound past the sampled "
			 "function", (unsigned long long)r->unwind_walked,
			 (unsigned long long)r->unwound);
	if (r->lost_records)
		c2c_warn("lost %llu records: the ring buffer overflowed; use a bigger -m (now %u "
			 "pages) or a larger -c period", (unsigned long long)r->lost_records, pages);
	if (r->lost_samples)
		c2c_warn("the PMU dropped %llu samples; use a larger -c period",
			 (unsigned long long)r->lost_samples);
	if (r->malformed > 1)
		c2c_warn("%llu kernel records did not decode and were skipped",
			 (unsigned long long)r->malformed);
	/* perf's warnings (perf_session__warn_about_errors), then what to do */
	if (r->aux_truncated)
		c2c_warn("AUX data lost %llu times out of %llu: the SPE buffer filled up before it "
			 "was read and the kernel stopped SPE there; use a larger -c period or AUX "
			 "area (-m N,M)", (unsigned long long)r->aux_truncated,
			 (unsigned long long)r->aux_records);
	if (r->aux_partial)
		c2c_warn("AUX data had gaps in it %llu times out of %llu: SPE records were cut "
			 "short", (unsigned long long)r->aux_partial,
			 (unsigned long long)r->aux_records);
	if (r->aux_collision)
		c2c_warn("AUX data detected collision %llu times out of %llu: SPE dropped samples "
			 "that came too close; use a larger -c period",
			 (unsigned long long)r->aux_collision, (unsigned long long)r->aux_records);
	if (r->aux_dropped)
		c2c_warn("%llu bytes of AUX data could not be read and were dropped",
			 (unsigned long long)r->aux_dropped);
	if (r->backend == TRACE_BACKEND_SPE)
		c2c_info("Arm SPE: %llu bytes of AUX data in %llu records, stored raw (the samples "
			 "are decoded from them at report time)", (unsigned long long)r->aux_bytes,
			 (unsigned long long)r->aux_records);
	if (r->throttles)
		c2c_warn("the kernel throttled sampling %llu times (perf_event_max_sample_rate); "
			 "use a larger -c period or a lower -F", (unsigned long long)r->throttles);
}

/* The exit status scripts can rely on (record_usage and the man page say it). */
static int exit_status(int err, const struct record_opts *o, const struct record_result *r)
{
	if (r->write_error) {
		c2c_log(C2C_LOG_ERROR, "writing %s%s%s failed (%s): the trace is readable up to "
			"its last complete chunk", o->output && !strcmp(o->output, "-") ? "" : "'",
			output_name(o), o->output && !strcmp(o->output, "-") ? "" : "'",
			strerror((int)r->write_error));
		return EXIT_FAIL;
	}
	if (r->exec_errno)          /* the shell's codes: not found, found but not runnable */
		return WORKLOAD_EXEC_STATUS(r->exec_errno);
	if (err)
		return EXIT_FAIL;
	/* the user ended it: a normal end, whatever the stopped workload says */
	if (r->stop == RECORD_STOP_DURATION || stop_sig == SIGINT)
		return EXIT_OK;
	if (r->have_status) {
		if (WIFEXITED(r->status))
			return WEXITSTATUS(r->status);
		if (WIFSIGNALED(r->status))
			return 128 + WTERMSIG(r->status);
	}
	return EXIT_OK;
}

/* The rate asked (-F, -c, --soft-overhead) against the kernel's cap, before anything is set up:
 * the plan (rate_plan_here(), record/rate-plan.h) refuses what cannot be met (-F above
 * kernel.perf_event_max_sample_rate, with the limit and the way to raise it; -c with -F; a
 * bound with either). record_run() makes the same plan for its events. */
static int check_rate(const struct record_opts *o)
{
	struct rate_req req = o->rate;
	struct rate_plan p;

	req.ns_per_sample = -1;
	if (rate_plan_here(&req, &p))
		return c2c_usage("%s", p.reason);
	return 0;
}

/* @name as execvp(3) looks for it: 0, or the errno its exec would fail with (ENOENT: not found,
 * EACCES: found but not executable). */
static int program_errno(const char *name)
{
	const char *path = getenv("PATH"), *dir, *end;
	struct stat st;
	int eacces = 0;
	char *cand;

	if (!*name)
		return ENOENT;
	if (strchr(name, '/')) {
		if (stat(name, &st))
			return errno;
		return S_ISDIR(st.st_mode) || access(name, X_OK) ? EACCES : 0;
	}
	for (dir = path ? path : "/bin:/usr/bin"; ; dir = end + 1) {
		int n;

		end = strchrnul(dir, ':');
		n = (int)(end - dir);
		cand = xmalloc((size_t)n + strlen(name) + 3);
		sprintf(cand, "%.*s%s%s", n, dir, n ? "/" : "./", name);
		if (!stat(cand, &st)) {
			if (!S_ISDIR(st.st_mode) && !access(cand, X_OK)) {
				free(cand);
				return 0;
			}
			eacces = 1;
		}
		free(cand);
		if (!*end)
			break;
	}
	return eacces ? EACCES : ENOENT;
}

/* The trace can be written: an existing regular file opens for writing, a new one can be
 * created (and is removed again). Other files (a FIFO, a device) are left to the writer. */
static int check_output(const char *out)
{
	struct stat st;
	int fd;

	if (!strcmp(out, "-") || (!stat(out, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
		return 0;
	fd = open(out, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			unlink(out);
	}
	if (fd < 0)
		return c2c_err(-errno, "cannot create trace '%s': %s", out, strerror(errno));
	close(fd);
	return 0;
}

/* What would fail once recording is set up, checked before it is (no backend opened, no cost
 * measured, nothing said before the one error line): the -p/-t targets exist, the workload can
 * be run, the trace can be written. Returns the exit status, or -1 to go on. */
static int check_first(const struct record_opts *o)
{
	const char *out = o->output ? o->output : "c2c-lite.data";
	struct stat st;
	int e;

	for (size_t i = 0; i < o->nr_pids; i++)
		if (kill(o->pids[i], 0) && errno == ESRCH) {
			c2c_err(-ESRCH, "no process or thread %d", (int)o->pids[i]);
			return EXIT_FAIL;
		}
	if (o->argv && (e = program_errno(o->argv[0]))) {
		c2c_err(-e, "cannot run '%s': %s", o->argv[0], strerror(e));
		/* as when the exec fails later: no trace, not even an older one under the name */
		if (strcmp(out, "-") && !stat(out, &st) && S_ISREG(st.st_mode))
			unlink(out);
		return WORKLOAD_EXEC_STATUS(e);
	}
	return check_output(out) ? EXIT_FAIL : -1;
}

/* A usage error (@msg, or NULL when c2c_getopt() or the option's parser said it), or the end of
 * a refused recording: frees @o's lists, returns EXIT_USAGE. */
static int usage_error(struct record_opts *o, const char *msg)
{
	if (msg)
		c2c_usage("%s", msg);
	free(o->events);
	free(o->pids);
	free(o->watch);
	return EXIT_USAGE;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { .topdown = -1, .zstd_level = 1, .stop = &stop_sig };
	struct record_result res;
	size_t ecap = 0, wcap = 0;
	int c, err = 0;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "+e:o:l:c:F:m:p:t:aC:ukgvqh", longopts)) != -1) {
		err = parse_opt(c, &o, &ecap, &wcap);
		if (err)
			break;
	}
	if (!err)
		err = check_backend(&o);
	if (err == 1) {
		free(o.events);
		free(o.pids);
		free(o.watch);
		return EXIT_OK;
	}
	if (err < 0)
		return usage_error(&o, NULL);
	if (optind < argc)
		o.argv = argv + optind;
	if (!o.argv && !o.nr_pids && !o.ev.system_wide)
		return usage_error(&o, "give a command after '--', -p, -t or -a");
	if (o.output && !strcmp(o.output, "-") && isatty(STDOUT_FILENO))
		return usage_error(&o, "-o -: standard output is a terminal; redirect it to a file "
				   "or a pipe");
	if (check_rate(&o))
		return usage_error(&o, NULL);
	if ((c = check_first(&o)) >= 0) {
		usage_error(&o, NULL);    /* frees */
		return c;
	}
	{
		char *cmdline = join_args("c2c-lite", argc, argv);
		char *opts = join_args("", optind - 1, argv + 1);

		o.cmdline = cmdline;
		o.options = opts;
		install_signals();
		err = record_run(&o, &res);
		if (!res.removed && (!err || res.records))
			report_result(&o, &res);
		free(cmdline);
		free(opts);
	}
	free(o.events);
	free(o.pids);
	free(o.watch);
	return exit_status(err, &o, &res);
}
