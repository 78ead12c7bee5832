/* c2c-lite: main() and the command table. Nothing but dispatch lives here. */
#include <stdio.h>
#include <string.h>

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
	{ "convert", cmd_convert, "convert a perf.data file into a c2c-lite trace" },
	{ "record", cmd_record, "sample loads and stores into a trace (perf c2c record)" },
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
	for (c = commands; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "c2c-lite: '%s' is not a c2c-lite command; see 'c2c-lite --help'\n", argv[1]);
	return EXIT_USAGE;
}
