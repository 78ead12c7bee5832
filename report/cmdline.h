/* cmdline: the options of the report-side commands (report, tui, diff), parsed once and refused
 * alike: a one-line usage error through c2c_usage() (include/c2c/log.h) and -EINVAL.
 *
 * The option policy: cmdline.c's table says, for every report option, which outputs (the text
 * report, --json, --csv, the TUI, diff) and which inputs (perf.data files, c2c-lite traces of a
 * memory-sampling PMU, of the soft backend, of the watch backend) it applies to, and why not
 * where it does not. A command notes what the user gave (cmdline_give()), checks it against its
 * output once parsing is done (cmdline_check_output()) and against the input when the report
 * session opens it (cmdline_check_input(), the rs_opts.check hook): an option that does not
 * apply is refused in one line naming the option, the output or input and the reason, never
 * ignored. To add a report option: a row in the table, then the command's parser. */
#ifndef C2C_REPORT_CMDLINE_H
#define C2C_REPORT_CMDLINE_H

#include <stdint.h>

#include "report/model/session.h"

/* The options of the table, one per report-side option a user can give. */
enum cmdline_opt {
	CMDLINE_INPUT, CMDLINE_STDIO, CMDLINE_STATS, CMDLINE_DISPLAY, CMDLINE_COALESCE,
	CMDLINE_NODE_INFO, CMDLINE_SHOW_ALL, CMDLINE_NO_SOURCE, CMDLINE_FULL_SYMBOLS,
	CMDLINE_CL_SIZE, CMDLINE_DOUBLE_CL, CMDLINE_PHYS, CMDLINE_VMLINUX, CMDLINE_SYMFS,
	CMDLINE_SUMMARY, CMDLINE_NO_DATA_NAMES, CMDLINE_MAP, CMDLINE_CALL_GRAPH,
	CMDLINE_NO_CALL_GRAPH, CMDLINE_REGIONS, CMDLINE_REGION, CMDLINE_JSON, CMDLINE_CSV,
	CMDLINE_JOBS, CMDLINE_VERBOSE, CMDLINE_QUIET,
	CMDLINE_OPT_NR
};

/* What the command makes of the session. */
enum cmdline_output {
	CMDLINE_OUT_TEXT,     /* report's text (perf's --stdio) */
	CMDLINE_OUT_JSON,     /* report --json */
	CMDLINE_OUT_CSV,      /* report --csv */
	CMDLINE_OUT_TUI,      /* tui, and report on a terminal */
	CMDLINE_OUT_DIFF,     /* diff, text or JSON */
	CMDLINE_OUT_NR
};

/* The inputs the policy tells apart. */
enum cmdline_input {
	CMDLINE_IN_PERFDATA,  /* a perf.data file (any event) */
	CMDLINE_IN_PMU,       /* a c2c-lite trace of memory-sampling PMU events (or software ones) */
	CMDLINE_IN_SOFT,      /* a c2c-lite trace of the soft backend */
	CMDLINE_IN_WATCH,     /* a c2c-lite trace of the watch backend */
	CMDLINE_IN_NR
};

/* The options a user gave a command, and the output it makes. */
struct cmdline_use {
	enum cmdline_output out;
	uint64_t given;                       /* 1 << enum cmdline_opt */
	const char *arg[CMDLINE_OPT_NR];      /* the value as given, NULL for none */
	int refused;                          /* set when a check refused an option */
};

/* The getopt value of a long option without a short form: CMDLINE_VAL(CMDLINE_STATS). */
#define CMDLINE_VAL(o) (256 + (o))
/* Note that the user gave the option getopt returned as @c (its short letter, or CMDLINE_VAL()),
 * with its value @arg or NULL; the last value counts. Other values are not noted. */
void cmdline_give(struct cmdline_use *u, int c, const char *arg);
/* Every option given applies to u->out: 0, or -EINVAL with the usage error said. */
int cmdline_check_output(struct cmdline_use *u);
/* Every option given applies to the input @in: 0, or -EINVAL with the usage error said
 * (u->refused set). */
int cmdline_check_in(struct cmdline_use *u, enum cmdline_input in);
/* As rs_opts.check (@ctx: the struct cmdline_use): cmdline_check_in() of the input the session
 * opened. */
int cmdline_check_input(void *ctx, const struct report_session *s);
/* For main(), which opens the TUI for `report` on a terminal when every option given is one the
 * TUI takes: how many argv words the option at @word takes (1 or 2), 0 when it is not one the
 * TUI takes. */
int cmdline_tui_words(const char *word);

/* -d/--display: tot, rmt, lcl or peer -> enum cltab_display. */
int cmdline_display(const char *s);
/* -c/--coalesce: perf's keys pid, tid, iaddr and dso, in the user's order ("offset" is
 * accepted and ignored, as perf does) -> @keys, *nr. */
int cmdline_coalesce(const char *s, enum cltab_coalesce keys[CLTAB_CO_MAX], int *nr);
/* --cacheline-size: a power of two up to 1 MiB. */
int cmdline_cl_size(const char *s, uint32_t *out);
/* -j/--jobs: aggregation threads, 1..CMDLINE_MAX_JOBS. */
#define CMDLINE_MAX_JOBS 256
int cmdline_jobs(const char *s, uint32_t *out);
/* The default for -j: the online CPUs, at most CMDLINE_DEFAULT_JOBS_CAP (one thread reads and
 * resolves for all of them: more aggregation threads than that wait on it). */
#define CMDLINE_DEFAULT_JOBS_CAP 8
uint32_t cmdline_default_jobs(void);

#endif
