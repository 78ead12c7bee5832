/* Entry points of the subcommands, one per thin command file (report/cmd-report.c, ...).
 * Each parses its options into an options struct, calls the core and maps errors to an exit
 * status: 0 success, 1 a failure the user can act on (bad input, no permission), 2 usage error.
 * To add a command: write cmd_<name>() in its side's directory, declare it here and add a row to
 * the table in c2c-lite.c. */
#ifndef C2C_CMDS_H
#define C2C_CMDS_H

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
};

int cmd_report(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_fix(int argc, char **argv);
int cmd_selftest(int argc, char **argv);

#endif
