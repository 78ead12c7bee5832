/* c2c-lite: main() and the command table. Nothing but dispatch lives here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/cmds.h"

#define C2C_VERSION "0.1.0"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

/* One row per built subcommand; a command that is not built yet has no row. */
static const struct cmd commands[] = {
	{ "report", cmd_report, "show contended cachelines of a trace, as perf c2c report does" },
	{ "tui", cmd_tui, "browse contended cachelines in the terminal (perf c2c report's TUI)" },
	{ "diff", cmd_diff, "compare the findings of two runs: before and after a fix" },
	{ "convert", cmd_convert, "convert a perf.data file into a c2c-lite trace" },
	{ "record", cmd_record, "sample loads and stores into a trace (perf c2c record)" },
	{ "stat", cmd_stat, "count events and the TopDown breakdown of a run (perf stat)" },
	{ "doctor", cmd_doctor, "check what this machine can record, and why not" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "usage: c2c-lite <command> [options]\n\n"
		   "Find the cachelines that threads fight over (false and true sharing).\n\n"
		   "commands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->help);
	fprintf(f, "\n'c2c-lite <command> --help' shows the options of a command.\n");
}

/* Options that `report` and `tui` share: with only these, `report` on a terminal can open the TUI.
 * The second column says whether the option takes a separate argument. */
static const struct {
	const char *name;
	int has_arg;
} tui_opts[] = {
	{ "-i", 1 }, { "--input", 1 }, { "-d", 1 }, { "--display", 1 }, { "-c", 1 },
	{ "--coalesce", 1 }, { "--cacheline-size", 1 }, { "-k", 1 }, { "--vmlinux", 1 },
	{ "--symfs", 1 },
};

/* How many argv words a TUI-compatible option takes at @arg (0: not one). */
static int tui_opt_words(const char *arg)
{
	for (size_t i = 0; i < sizeof(tui_opts) / sizeof(tui_opts[0]); i++) {
		size_t n = strlen(tui_opts[i].name);

		if (!strncmp(arg, tui_opts[i].name, n)) {
			if (!arg[n])
				return 1 + tui_opts[i].has_arg;
			if (arg[n] == '=' || (arg[1] != '-' && n == 2))
				return 1;  /* --input=FILE, -iFILE */
		}
	}
	return 0;
}

/* The one place that chooses the report's front end, as perf c2c report does: the TUI when both
 * ends are a terminal and nothing asks for text (--stdio, --stats or a stdio-only option);
 * otherwise the stdio report. report/ itself never knows a TUI exists. */
static int report_wants_tui(int argc, char **argv)
{
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO) || getenv("C2C_NO_TUI"))
		return 0;
	for (int i = 1; i < argc;) {
		int n = tui_opt_words(argv[i]);

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
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("c2c-lite %s\n", C2C_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "report") && report_wants_tui(argc - 1, argv + 1))
		return cmd_tui(argc - 1, argv + 1);
	for (c = commands; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "c2c-lite: '%s' is not a c2c-lite command; see 'c2c-lite --help'\n", argv[1]);
	return EXIT_USAGE;
}
