/* `c2c-lite tui`: parse the options, load the model with a progress line, then run the key loop
 * until the user quits or a signal arrives. Messages of the core go to the status line while the
 * screen is up; errors are printed again on stderr once the terminal is restored. */
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/opt.h"
#include "report/cmdline.h"
#include "tui/draw.h"
#include "tui/srcfile.h"
#include "tui/term.h"
#include "tui/view.h"

static const char tui_usage[] =
	"usage: c2c-lite tui [options]\n"
	"\n"
	"Browse the contended cachelines of a trace or perf.data file (press ? for the keys).\n"
	"\n"
	"  -i, --input FILE        trace or perf.data to read (default: c2c-lite.data, else\n"
	"                          perf.data)\n"
	"  -d, --display MODE      sort and filter lines on tot, rmt, lcl or peer HITMs/snoops\n"
	"  -c, --coalesce KEYS     offset grouping keys: pid,tid,iaddr,dso (default iaddr)\n"
	"      --cacheline-size N  bytes per cacheline (default: this machine's)\n"
	"  -k, --vmlinux FILE      kernel image for kernel symbols\n"
	"      --symfs DIR         look for mapped and source files under DIR\n"
	"  -q, --quiet             errors only (no warnings on the status line)\n"
	"  -h, --help              this text ('c2c-lite help tui': the manual)\n";

enum { OPT_CL_SIZE = CMDLINE_VAL(CMDLINE_CL_SIZE), OPT_SYMFS = CMDLINE_VAL(CMDLINE_SYMFS) };

struct tui_cmd {
	struct tui_load_opts lo;
	struct cmdline_use use;      /* what was given, for the option policy (report/cmdline.h) */
	const char *coalesce;        /* -c as given */
	struct tui_term *term;
	struct tui_model *m;
	struct tui_view v;
	char err[256];       /* the last error message, printed after the screen is gone */
	char last[256];      /* the last message, for the status line */
	uint64_t progress_ms;
};

static void tui_cmd_log(enum c2c_log_level level, const char *msg, void *ctx)
{
	struct tui_cmd *c = ctx;

	if (level == C2C_LOG_ERROR)
		snprintf(c->err, sizeof(c->err), "%s", msg);
	if (level <= C2C_LOG_WARN)
		snprintf(c->last, sizeof(c->last), "%s: %s", level == C2C_LOG_ERROR ? "error" : "warning",
			 msg);
}

static int tui_parse_opts(struct tui_cmd *c, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "input", required_argument, NULL, 'i' }, { "display", required_argument, NULL, 'd' },
		{ "coalesce", required_argument, NULL, 'c' },
		{ "cacheline-size", required_argument, NULL, OPT_CL_SIZE },
		{ "vmlinux", required_argument, NULL, 'k' }, { "symfs", required_argument, NULL, OPT_SYMFS },
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = c2c_getopt(argc, argv, "i:d:c:k:qh", lopts)) != -1) {
		cmdline_give(&c->use, o, optarg);
		switch (o) {
		case 'i': c->lo.input = optarg; break;
		case 'd':
			if ((c->lo.display = cmdline_display(optarg)) < 0)
				return EXIT_USAGE;
			break;
		case 'c':
			if (cmdline_coalesce(optarg, c->lo.coalesce, &c->lo.nr_coalesce))
				return EXIT_USAGE;
			c->coalesce = optarg;
			break;
		case OPT_CL_SIZE:
			if (cmdline_cl_size(optarg, &c->lo.cl_size))
				return EXIT_USAGE;
			break;
		case 'k': c->lo.vmlinux = optarg; break;
		case OPT_SYMFS: c->lo.symfs = optarg; break;
		case 'q': c2c_log_set_level(C2C_LOG_ERROR); break;
		case 'h': fputs(tui_usage, stdout); return -1;
		default: return EXIT_USAGE;     /* c2c_getopt() said why */
		}
	}
	if (optind < argc) {
		c2c_usage("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	c->use.out = CMDLINE_OUT_TUI;
	c->lo.use = &c->use;
	return cmdline_check_output(&c->use) ? EXIT_USAGE : 0;
}

static uint64_t tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* At most ten progress lines a second: drawing must not slow the load down. */
static int tui_progress(void *ctx, uint64_t records, uint64_t total)
{
	struct tui_cmd *c = ctx;
	uint64_t now = tui_now_ms();
	char line[256];

	if (now - c->progress_ms < 100)
		return tui_term_interrupted(c->term);
	c->progress_ms = now;

	snprintf(line, sizeof(line), "  loading '%s': %llu records read (file %.1f MiB)  Ctrl-C stops",
		 c->lo.input, (unsigned long long)records, (double)total / (1 << 20));
	tui_term_message(c->term, line);
	return tui_term_interrupted(c->term);
}

static int tui_load(struct tui_cmd *c, struct tui_model **out)
{
	char line[256];

	snprintf(line, sizeof(line), "  loading '%s'", c->lo.input);
	tui_term_message(c->term, line);
	return tui_model_load(out, &c->lo, tui_progress, c);
}

/* 'c': read the file again with the next coalescing, keep the old model if that fails. */
static void tui_reload(struct tui_cmd *c, int old_coalesce, const char *old_name)
{
	const struct tui_coalesce *p = &tui_coalesce_presets[c->v.coalesce];
	struct tui_model *m;

	memcpy(c->lo.coalesce, p->key, sizeof(p->key));
	c->lo.nr_coalesce = p->nr;
	c->lo.display = (int)c->m->rm->display;
	if (tui_load(c, &m)) {
		c->v.coalesce = old_coalesce;
		snprintf(c->v.coalesce_name, sizeof(c->v.coalesce_name), "%s", old_name);
		snprintf(c->v.msg, sizeof(c->v.msg), "reload failed: %s", c->last);
		c->last[0] = '\0';
		return;
	}
	tui_view_rebuild(&c->v, c->m, m);
	tui_model_free(c->m);
	c->m = m;
	snprintf(c->v.msg, sizeof(c->v.msg), "coalesce offset,%s", p->name);
}

static void tui_open_source(struct tui_cmd *c)
{
	char **text = NULL;
	size_t nr = 0;

	if (tui_srcfile_read(c->v.src_file, c->lo.symfs, &text, &nr))
		text = NULL;
	tui_view_set_source(&c->v, text, nr);
}

static void tui_redraw(struct tui_cmd *c)
{
	struct tui_screen *s = tui_term_screen(c->term);

	if (s->rows != c->v.rows || s->cols != c->v.cols)
		tui_view_resize(&c->v, c->m, s->rows, s->cols);
	if (!c->v.msg[0] && c->last[0]) {
		snprintf(c->v.msg, sizeof(c->v.msg), "%s", c->last);
		c->last[0] = '\0';
	}
	tui_draw(s, c->m, &c->v);
	tui_term_flush(c->term);
}

static void tui_loop(struct tui_cmd *c)
{
	enum tui_result r = TUI_RES_REDRAW;
	char name[sizeof(c->v.coalesce_name)];
	int key, old;

	for (;;) {
		if (r != TUI_RES_NONE)
			tui_redraw(c);
		key = tui_term_key(c->term);
		if (tui_term_interrupted(c->term))
			return;
		if (key < 0) {
			r = TUI_RES_NONE;
			continue;
		}
		old = c->v.coalesce;
		snprintf(name, sizeof(name), "%s", c->v.coalesce_name);
		r = tui_view_key(&c->v, c->m, key);
		if (r == TUI_RES_QUIT)
			return;
		if (r == TUI_RES_RELOAD)
			tui_reload(c, old, name);
		else if (r == TUI_RES_SOURCE)
			tui_open_source(c);
	}
}

static int tui_run(struct tui_cmd *c)
{
	struct tui_screen *s;
	int err;

	err = tui_term_open(&c->term);
	if (err) {
		fprintf(stderr, "c2c-lite: cannot start the terminal interface (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return EXIT_FAIL;
	}
	c2c_log_set_hook(tui_cmd_log, c);
	err = tui_load(c, &c->m);
	if (!err) {
		s = tui_term_screen(c->term);
		tui_view_init(&c->v, c->m, s->rows, s->cols);
		if (c->coalesce)
			snprintf(c->v.coalesce_name, sizeof(c->v.coalesce_name), "%s", c->coalesce);
		tui_loop(c);
	}
	tui_term_close(c->term);
	c2c_log_set_hook(NULL, NULL);
	tui_view_release(&c->v);
	tui_model_free(c->m);
	tui_term_reraise();
	if (err && c->err[0])
		fprintf(stderr, "c2c-lite: error: %s\n", c->err);
	else if (err)
		fprintf(stderr, "c2c-lite: cannot load '%s': %s\n", c->lo.input, strerror(-err));
	return !err ? EXIT_OK : c->use.refused ? EXIT_USAGE : EXIT_FAIL;
}

int cmd_tui(int argc, char **argv)
{
	struct tui_cmd c = { .lo = { .display = -1 } };
	int ret = tui_parse_opts(&c, argc, argv);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (c.lo.input && !strcmp(c.lo.input, "-")) {
		fprintf(stderr, "c2c-lite: tui -i -: the TUI reads its keys from standard input; save "
			"the stream to a file, or use 'c2c-lite report --stdio -i -'\n");
		return EXIT_USAGE;
	}
	if (!isatty(STDOUT_FILENO)) {
		fprintf(stderr, "c2c-lite: stdout is not a terminal; use 'c2c-lite report --stdio'\n");
		return EXIT_FAIL;
	}
	if (!c.lo.input)
		c.lo.input = rs_default_input();
	setlocale(LC_ALL, "");
	return tui_run(&c);
}
