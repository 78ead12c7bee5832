/* `c2c-lite stat`: count a workload, processes or every CPU and print the counts, with the
 * TopDown breakdown for the whole run or per interval (like `perf stat [--topdown] [-I MS]`). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "c2c/xalloc.h"
#include "record/stat.h"
#include "record/sysfs.h"
#include "record/workload.h"

static const char stat_usage[] =
	"usage: c2c-lite stat [-e EVENT]... [--topdown] [-I MS] [-a | -p PID] [-- command [args]]\n"
	"\n"
	"Count events and print the totals (or one line per interval). Without -e: task-clock,\n"
	"context-switches, cpu-migrations and page-faults, which every Linux machine counts.\n"
	"\n"
	"  -e, --event EVENT     count EVENT (repeatable): software events, cycles, instructions,\n"
	"                        branches, branch-misses, cache-references, cache-misses,\n"
	"                        pmu/terms/ as for record\n"
	"      --topdown         add the TopDown level-1 and level-2 breakdown of this CPU\n"
	"                        (Intel PERF_METRICS, AMD Zen 4/5, Arm Neoverse N1/N2/V1/V2);\n"
	"                        where its counters are missing, say which and why\n"
	"  -I, --interval-print MS   print the counts of every MS milliseconds\n"
	"  -a, --all-cpus        count every CPU (the command, if any, only sets the duration)\n"
	"  -p, --pid PID         count the threads of process PID\n"
	"  -u, --all-user        user space only\n"
	"      --duration SECS   stop after SECS seconds\n"
	"  -q, --quiet           errors only (the counts are still printed)\n"
	"  -h, --help            this text\n";

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	if (sig != SIGCHLD)
		stop_sig = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;       /* no SA_RESTART: nanosleep returns on a signal */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
}

struct cmd_stat {
	struct stat_opts o;
	const char **events;
	size_t ecap;
	unsigned long interval_ms;
	double duration;
	pid_t pid;
	int all_cpus;
	char **argv;
	struct stat_plan plan;
	struct stat_target t;
	struct workload w;
	double t0;
	uint64_t *prev, *td_prev;        /* per counter, for intervals */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- printing ------------------------------------------------------------------------------- */

static int pad(const char *name)
{
	size_t n = strlen(name);

	return n < 28 ? (int)(28 - n) : 0;
}

static void print_counter(const struct stat_counter *c, uint64_t v, int counted, double secs,
			  const char *prefix)
{
	int clock = c->attr.type == PERF_TYPE_SOFTWARE &&
		    (c->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		     c->attr.config == PERF_COUNT_SW_CPU_CLOCK);

	if (c->err) {
		printf("%s%18s      %s%*s # %s\n", prefix, "<not supported>", c->name, pad(c->name),
		       "", c->why);
		return;
	}
	if (!counted) {
		printf("%s%18s      %s\n", prefix, "<not counted>", c->name);
		return;
	}
	if (clock)
		printf("%s%18.2f msec %s", prefix, (double)v / 1e6, c->name);
	else
		printf("%s%18llu      %s", prefix, (unsigned long long)v, c->name);
	if (clock && secs > 0 && c->attr.config == PERF_COUNT_SW_TASK_CLOCK)
		printf("%*s # %8.3f CPUs utilized", pad(c->name), "", (double)v / 1e9 / secs);
	else if (c->run && c->run < c->ena)
		printf("%*s (%.2f%%)", pad(c->name), "", 100.0 * (double)c->run / (double)c->ena);
	printf("\n");
}

static void print_breakdown(const struct td_result *r)
{
	for (int o = 0; o < TDO_NR; o++) {
		int parent = td_out_parent((enum td_out)o);

		if (!(r->have & (1u << o)) || parent >= 0)
			continue;
		printf("   %6.1f %%  %s\n", 100.0 * r->v[o], td_out_name((enum td_out)o));
		for (int k = 0; k < TDO_NR; k++)
			if ((r->have & (1u << k)) && td_out_parent((enum td_out)k) == o)
				printf("       %6.1f %%  %s\n", 100.0 * r->v[k], td_out_name((enum td_out)k));
	}
}

static void print_topdown_reason(const struct stat_plan *p)
{
	if (p->td_why[0])
		printf("\n TopDown: not counted: %s\n", p->td_why);
	else
		printf("\n TopDown (%s): not counted\n", p->model.cpu);
	if (p->td_missing[0])
		printf("   missing counters: %s\n", p->td_missing);
}

static void print_topdown_total(const struct stat_plan *p)
{
	struct td_counts c;
	struct td_result r;
	char why[256];
	int err;

	if (!p->topdown)
		return;
	if (!p->td_ok || p->td_missing[0]) {
		print_topdown_reason(p);
		return;
	}
	stat_td_counts(p, NULL, &c);
	err = td_compute(&p->model, &c, &r);
	if (err) {
		printf("\n TopDown (%s): %s\n", p->model.cpu, err == -ERANGE ? "no slots counted "
		       "(nothing ran on the measured CPUs)" : "a counter never ran (multiplexed out)");
		return;
	}
	printf("\n TopDown (%s%s, %.0f slots%s):\n", p->model.cpu,
	       p->model.n2_erratum ? ", N2 frontend erratum corrected" : "", r.slots,
	       p->model.width ? " = width x cycles" : "");
	print_breakdown(&r);
	if (!td_model_level2(&p->model, why, sizeof(why)))
		printf("   (%s)\n", why);
}

static const char *target_name(const struct cmd_stat *s, char *buf, size_t len)
{
	size_t off = 0;

	if (s->all_cpus)
		return "system wide";
	if (s->pid) {
		snprintf(buf, len, "process id %d", (int)s->pid);
		return buf;
	}
	buf[0] = 0;
	for (char **a = s->argv; *a && off < len; a++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "", *a);
	return buf;
}

static void print_total(struct cmd_stat *s, double secs)
{
	char name[256];
	int counted;
	uint64_t v;

	printf("\n Performance counter stats for '%s':\n\n", target_name(s, name, sizeof(name)));
	for (size_t i = 0; i < s->plan.nr; i++) {
		const struct stat_counter *c = &s->plan.c[i];

		if (c->td_in >= 0)
			continue;
		v = stat_scaled(c, &counted);
		print_counter(c, v, counted, secs, " ");
	}
	print_topdown_total(&s->plan);
	printf("\n %18.9f seconds time elapsed\n\n", secs);
}

static void print_interval(struct cmd_stat *s, double at, double span)
{
	char prefix[32];
	int counted;

	snprintf(prefix, sizeof(prefix), "%15.9f", at);
	for (size_t i = 0; i < s->plan.nr; i++) {
		struct stat_counter *c = &s->plan.c[i];
		uint64_t v = stat_scaled(c, &counted);

		if (c->td_in >= 0)
			continue;
		print_counter(c, v - s->prev[i], counted, span, prefix);
		s->prev[i] = v;
	}
	if (s->plan.topdown && s->plan.td_ok && !s->plan.td_missing[0]) {
		struct td_counts tc;
		struct td_result r;

		stat_td_counts(&s->plan, s->td_prev, &tc);
		if (td_compute(&s->plan.model, &tc, &r)) {
			printf("%s %18s      TopDown\n", prefix, "<no slots>");
			return;
		}
		printf("%s  TopDown", prefix);
		for (int o = 0; o < TDO_NR; o++)
			if (r.have & (1u << o))
				printf("  %s %.1f%%", td_out_name((enum td_out)o), 100.0 * r.v[o]);
		printf("\n");
	}
}

/* --- running -------------------------------------------------------------------------------- */

static int parse_num(const char *s, const char *opt, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || !*v)
		return c2c_usage("%s needs a number above 0, not '%s'", opt, s);
	return 0;
}

static int set_targets(struct cmd_stat *s)
{
	if (s->all_cpus)
		return stat_target_cpus(&s->t);
	if (s->pid)
		return stat_target_pid(&s->t, s->pid);
	s->t.tids = xmalloc(sizeof(*s->t.tids));
	s->t.tids[0] = s->w.pid;
	s->t.nr_tids = 1;
	s->t.workload = 1;
	return 0;
}

static void sleep_until(double t)
{
	double d = t - now_s();
	struct timespec ts;

	if (d <= 0)
		return;
	if (d > 0.5)
		d = 0.5;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/* Count until the workload ends, the duration passes or a signal comes. */
static int run_loop(struct cmd_stat *s)
{
	double next = s->t0 + s->interval_ms / 1e3, last = s->t0;
	double end = s->duration > 0 ? s->t0 + s->duration : 0;

	for (;;) {
		double t;

		if (s->w.pid && workload_reap(&s->w, 0))
			break;
		if (stop_sig || (end && now_s() >= end))
			break;
		sleep_until(s->interval_ms ? (end && end < next ? end : next) : end ? end : now_s() + 0.5);
		t = now_s();
		if (s->interval_ms && t >= next) {
			int err = stat_read(&s->plan);

			if (err)
				return err;
			print_interval(s, t - s->t0, t - last);
			last = t;
			next += s->interval_ms / 1e3;
		}
	}
	/* the partial interval since the last line, as perf stat -I prints it when the workload
	 * ends or the duration passes between two ticks */
	if (s->interval_ms) {
		double t = now_s();
		int err;

		if (t > last && (err = stat_read(&s->plan)))
			return err;
		if (t > last)
			print_interval(s, t - s->t0, t - last);
	}
	return 0;
}

static int run(struct cmd_stat *s)
{
	int err;

	workload_init(&s->w);
	if (s->argv && (err = workload_fork(&s->w, s->argv)))
		return err;
	err = set_targets(s);
	if (!err) {
		err = stat_open(&s->plan, &s->t);
		if (err)
			c2c_err(err, "no counter opened: '%s': %s", s->plan.nr ? s->plan.c[0].name : "",
				s->plan.nr ? s->plan.c[0].why : "no counters");
	}
	if (err) {
		workload_stop(&s->w);
		return err;
	}
	s->prev = xcalloc(s->plan.nr + 1, sizeof(*s->prev));
	s->td_prev = xcalloc(s->plan.nr + 1, sizeof(*s->td_prev));
	install_signals();
	s->t0 = now_s();
	if (!s->t.workload)
		stat_enable(&s->plan);
	if (s->w.pid && (err = workload_start(&s->w, s->argv[0]))) {
		workload_stop(&s->w);
		return err;
	}
	err = run_loop(s);
	if (s->w.pid && !s->w.done)
		workload_stop(&s->w);
	if (!err && !(err = stat_read(&s->plan)))
		print_total(s, now_s() - s->t0);
	return err;
}

enum { OPT_TOPDOWN = 256, OPT_DURATION };

static const struct option longopts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "topdown", no_argument, NULL, OPT_TOPDOWN },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "pid", required_argument, NULL, 'p' },
	{ "all-user", no_argument, NULL, 'u' },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* 0, 1 for --help, -errno for a usage error (logged). */
static int parse(struct cmd_stat *s, int argc, char **argv)
{
	unsigned long v;
	char *end;
	int c;

	optind = 1;
	while ((c = c2c_getopt(argc, argv, "+e:I:ap:uqh", longopts)) != -1) {
		switch (c) {
		case 'e':
			s->events = xgrow(s->events, &s->ecap, s->o.nr_events + 1, sizeof(*s->events));
			s->events[s->o.nr_events++] = optarg;
			break;
		case OPT_TOPDOWN:
			s->o.topdown = 1;
			break;
		case 'I':
			if (parse_num(optarg, "-I", &s->interval_ms))
				return -EINVAL;
			break;
		case 'a':
			s->all_cpus = 1;
			break;
		case 'p':
			if (parse_num(optarg, "-p", &v))
				return -EINVAL;
			if (v > 0x7fffffff)
				return c2c_usage("bad process id '%s'", optarg);
			s->pid = (pid_t)v;
			break;
		case 'u':
			s->o.all_user = 1;
			break;
		case OPT_DURATION:
			s->duration = strtod(optarg, &end);
			if (end == optarg || *end || s->duration <= 0)
				return c2c_usage("--duration needs seconds > 0, not '%s'", optarg);
			break;
		case 'q':
			c2c_log_set_level(C2C_LOG_ERROR);
			break;
		case 'h':
			return 1;
		default:
			return -EINVAL;     /* c2c_getopt() said why */
		}
	}
	if (optind < argc)
		s->argv = argv + optind;
	if (s->all_cpus && s->pid)
		return c2c_usage("options '-a' and '-p' cannot be used together");
	if (!s->argv && !s->pid && !s->all_cpus)
		return c2c_usage("give a command after '--', -p or -a");
	s->o.events = s->events;
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct cmd_stat s;
	int err, status = EXIT_OK;

	memset(&s, 0, sizeof(s));
	err = parse(&s, argc, argv);
	if (err) {
		if (err > 0)
			fputs(stat_usage, stdout);
		free(s.events);
		return err < 0 ? EXIT_USAGE : EXIT_OK;
	}
	err = stat_plan_build(&s.plan, &s.o);
	if (!err)
		err = run(&s);
	if (!err && s.w.done && WIFEXITED(s.w.status))
		status = WEXITSTATUS(s.w.status);
	else if (!err && s.w.done && WIFSIGNALED(s.w.status))
		status = 128 + WTERMSIG(s.w.status);
	stat_plan_release(&s.plan);
	workload_release(&s.w);
	free(s.t.tids);
	free(s.t.cpus);
	free(s.prev);
	free(s.td_prev);
	free(s.events);
	if (s.w.exec_errno)          /* the shell's codes, as record's */
		return WORKLOAD_EXEC_STATUS(s.w.exec_errno);
	return err ? EXIT_FAIL : status;
}
