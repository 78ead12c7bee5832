/* c2c-lite: main(), the command table, and the two commands about commands: `help CMD` (the
 * manual page, perf's habit) and `version`. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "report/cmdline.h"

#define C2C_VERSION "0.1.0"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

/* One row per built subcommand; a command that is not built yet has no row. */
static const struct cmd commands[] = {
	{ "record", cmd_record, "sample loads and stores into a trace (perf c2c record)" },
	{ "report", cmd_report, "show contended cachelines of a trace, as perf c2c report does" },
	{ "tui", cmd_tui, "browse contended cachelines in the terminal (perf c2c report's TUI)" },
	{ "diff", cmd_diff, "compare the findings of two runs: before and after a fix" },
	{ "fix", cmd_fix, "turn false-sharing findings into a patch of their declarations" },
	{ "convert", cmd_convert, "convert a perf.data file into a c2c-lite trace" },
	{ "stat", cmd_stat, "count events and the TopDown breakdown of a run (perf stat)" },
	{ "doctor", cmd_doctor, "check what this machine can record, and why not" },
	{ "selftest", cmd_selftest, "hardware acceptance kit: c2c-lite against perf c2c here" },
	{ "help", cmd_help, "show a command's manual page (its usage where man is missing)" },
	{ "version", cmd_version, "print the version" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "usage: c2c-lite <command> [options]\n"
		   "       c2c-lite help [<command> | trace]\n"
		   "       c2c-lite -V | --version | version\n\n"
		   "Find the cachelines that threads fight over (false and true sharing).\n\n"
		   "commands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->help);
	fprintf(f, "\noptions:\n"
		   "  -h, --help     this text ('c2c-lite help' opens the manual, c2c-lite(1))\n"
		   "  -V, --version  print the version\n"
		   "\n'c2c-lite <command> --help' shows the options of a command, 'c2c-lite help "
		   "<command>'\nits manual page.\n");
}

static int cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		c2c_usage("version takes no arguments");
		return EXIT_USAGE;
	}
	printf("c2c-lite %s\n", C2C_VERSION);
	return EXIT_OK;
}

/* Where our manual pages are when they are not in man's own path: beside the binary
 * (PREFIX/bin/c2c-lite -> PREFIX/share/man) or in the source tree (build/c2c-lite ->
 * docs/man). They go first in MANPATH; the trailing colon keeps man's default path. */
static void set_manpath(void)
{
	char exe[PATH_MAX], *slash, *old = getenv("MANPATH"), *path;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return;
	*slash = '\0';
	if (asprintf(&path, "%s/../share/man:%s/../docs/man:%s", exe, exe, old ? old : "") < 0)
		return;
	setenv("MANPATH", path, 1);
	free(path);
}

/* man PAGE (SECTION); the exit status of man, or 127 when it could not be run. */
static int run_man(const char *section, const char *page)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 127;
	if (!pid) {
		set_manpath();
		execlp("man", "man", section, page, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* `c2c-lite help [CMD]`: the manual page c2c-lite-CMD(1) (c2c-lite-trace(5) for `trace`,
 * c2c-lite(1) for none); where man or the page is missing, the usage text instead. */
static int cmd_help(int argc, char **argv)
{
	const char *topic = argc > 1 ? argv[1] : NULL, *section = "1";
	const struct cmd *c = NULL;
	char page[64];

	if (argc > 2) {
		c2c_usage("help takes one command at a time");
		return EXIT_USAGE;
	}
	if (topic && !strcmp(topic, "trace")) {
		section = "5";
	} else if (topic) {
		for (c = commands; c->name && strcmp(c->name, topic); c++)
			;
		if (!c->name) {
			c2c_usage("help: '%s' is not a c2c-lite command", topic);
			return EXIT_USAGE;
		}
	}
	if (c && (c->fn == cmd_help || c->fn == cmd_version))
		topic = NULL;                /* described in c2c-lite(1) */
	snprintf(page, sizeof(page), "c2c-lite%s%s", topic ? "-" : "", topic ? topic : "");
	if (run_man(section, page) == 0)
		return EXIT_OK;
	fprintf(stderr, "c2c-lite: no manual page %s(%s) could be shown; the usage instead:\n",
		page, section);
	if (!topic || !c) {
		if (topic)
			printf("The c2c-lite trace format: docs/trace-format.md in the sources.\n");
		else
			usage(stdout);
		return EXIT_OK;
	}
	{
		char *args[] = { (char *)c->name, (char *)"--help", NULL };

		return c->fn(2, args);
	}
}

/* The one place that chooses the report's front end, as perf c2c report does: the TUI when both
 * ends are a terminal and nothing asks for text (--stdio, --stats or a stdio-only option);
 * otherwise the stdio report. report/ itself never knows a TUI exists. */
static int report_wants_tui(int argc, char **argv)
{
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO) || getenv("C2C_NO_TUI"))
		return 0;
	for (int i = 1; i < argc;) {
		int n = cmdline_tui_words(argv[i]);   /* the option policy: one the TUI takes */

		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return cmd_version(argc - 1, argv + 1);
	for (c = commands; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			break;
	if (c->fn != cmd_help && c->fn != cmd_version)
		c2c_log_set_command(c->name);    /* usage errors name its --help */
	if (c->fn == cmd_report && report_wants_tui(argc - 1, argv + 1))
		return cmd_tui(argc - 1, argv + 1);
	if (c->name)
		return c->fn(argc - 1, argv + 1);
	c2c_usage("'%s' is not a c2c-lite command", argv[1]);
	return EXIT_USAGE;
}
