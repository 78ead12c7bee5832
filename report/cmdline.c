/* The report-side options: where each applies (the policy table) and their values (see
 * cmdline.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/log.h"
#include "report/model/model.h"
#include "report/cmdline.h"

#define TEXT (1u << CMDLINE_OUT_TEXT)
#define JSON (1u << CMDLINE_OUT_JSON)
#define CSV (1u << CMDLINE_OUT_CSV)
#define TUI (1u << CMDLINE_OUT_TUI)
#define DIFF (1u << CMDLINE_OUT_DIFF)
#define ALL (TEXT | JSON | CSV | TUI | DIFF)

/* A value that asks for what an input the option does not apply to does anyway (-c iaddr, -j 1
 * of a soft trace): accepted there. */
static int coalesce_iaddr(const char *arg)
{
	enum cltab_coalesce k[CLTAB_CO_MAX];
	int nr;

	return !cmdline_coalesce(arg, k, &nr) && nr == 1 && k[0] == CLTAB_CO_IADDR;
}

static int one_job(const char *arg)
{
	return !strcmp(arg, "1");
}

static const char text_only[] = "it shapes the text report; the JSON and CSV hold everything";
static const char one_output[] = "one output at a time";
static const char no_regions[] = "perf record writes no c2c-region markers (c2c-lite record "
				 "does)";

/* The policy: one row per option. Only what is not "applies everywhere" needs saying. */
static const struct cmdline_rule {
	const char *name;           /* the long option */
	char letter;                /* its short form, 0: none */
	int arg;                    /* takes a value (1), an optional one =VALUE (2) */
	unsigned int outs;          /* the outputs it applies to */
	const char *why_out;        /* why not the others */
	int (*inert)(const char *arg);     /* a value accepted where the option does not apply */
	const char *why_in[CMDLINE_IN_NR]; /* why it does not apply to an input; NULL: it does */
} rules[CMDLINE_OPT_NR] = {
	[CMDLINE_INPUT] = { "input", 'i', 1, TEXT | JSON | CSV | TUI },
	[CMDLINE_STDIO] = { "stdio", 0, 0, TEXT, one_output },
	[CMDLINE_STATS] = { "stats", 0, 0, TEXT, text_only },
	[CMDLINE_DISPLAY] = { "display", 'd', 1, ALL, .why_in = {
		[CMDLINE_IN_SOFT] = "they have no HITM or peer-snoop counts (lines rank by sampled "
				    "time)",
		[CMDLINE_IN_WATCH] = "they have no HITM or peer-snoop counts (lines rank by "
				     "transfers)" } },
	[CMDLINE_COALESCE] = { "coalesce", 'c', 1, TEXT | JSON | CSV | TUI, .inert = coalesce_iaddr,
			       .why_in = {
		[CMDLINE_IN_SOFT] = "their rows are per offset and code address; the summary names "
				    "the threads of each member",
		[CMDLINE_IN_WATCH] = "their rows are per offset and code address; the summary names "
				     "the threads of each member" } },
	[CMDLINE_NODE_INFO] = { "node-info", 'N', 0, TEXT, text_only, .why_in = {
		[CMDLINE_IN_SOFT] = "per-node figures need a PMU's data source",
		[CMDLINE_IN_WATCH] = "per-node figures need a PMU's data source" } },
	[CMDLINE_SHOW_ALL] = { "show-all", 0, 0, TEXT | JSON | CSV },
	[CMDLINE_NO_SOURCE] = { "no-source", 0, 0, TEXT, text_only },
	[CMDLINE_FULL_SYMBOLS] = { "full-symbols", 0, 0, TEXT, text_only },
	[CMDLINE_CL_SIZE] = { "cacheline-size", 0, 1, ALL },
	[CMDLINE_DOUBLE_CL] = { "double-cl", 0, 0, TEXT | JSON | CSV },
	[CMDLINE_PHYS] = { "phys", 0, 0, TEXT | JSON | CSV },
	[CMDLINE_VMLINUX] = { "vmlinux", 'k', 1, ALL },
	[CMDLINE_SYMFS] = { "symfs", 0, 1, ALL },
	[CMDLINE_SUMMARY] = { "summary", 0, 1, TEXT, text_only },
	[CMDLINE_NO_DATA_NAMES] = { "no-data-names", 0, 0, TEXT, text_only },
	[CMDLINE_MAP] = { "map", 0, 0, TEXT, text_only },
	[CMDLINE_CALL_GRAPH] = { "call-graph", 'g', 2, TEXT | JSON | CSV },
	[CMDLINE_NO_CALL_GRAPH] = { "no-call-graph", 0, 0, TEXT | JSON | CSV },
	[CMDLINE_REGIONS] = { "regions", 0, 0, TEXT, text_only,
			      .why_in = { [CMDLINE_IN_PERFDATA] = no_regions } },
	[CMDLINE_REGION] = { "region", 0, 1, TEXT | JSON | CSV,
			     .why_in = { [CMDLINE_IN_PERFDATA] = no_regions } },
	[CMDLINE_JSON] = { "json", 0, 0, JSON | DIFF, one_output },
	[CMDLINE_CSV] = { "csv", 0, 2, CSV, one_output },
	[CMDLINE_JOBS] = { "jobs", 'j', 1, TEXT | JSON | CSV, .inert = one_job, .why_in = {
		[CMDLINE_IN_SOFT] = "their estimate is built by one thread",
		[CMDLINE_IN_WATCH] = "their estimate is built by one thread" } },
	[CMDLINE_VERBOSE] = { "verbose", 'v', 0, TEXT | JSON | CSV | DIFF },
	[CMDLINE_QUIET] = { "quiet", 'q', 0, ALL },
};

static const char *const out_name[CMDLINE_OUT_NR] = {
	[CMDLINE_OUT_TEXT] = "the text report", [CMDLINE_OUT_JSON] = "--json",
	[CMDLINE_OUT_CSV] = "--csv", [CMDLINE_OUT_TUI] = "the TUI", [CMDLINE_OUT_DIFF] = "diff",
};

static const char *const in_name[CMDLINE_IN_NR] = {
	[CMDLINE_IN_PERFDATA] = "perf.data files", [CMDLINE_IN_PMU] = "PMU traces",
	[CMDLINE_IN_SOFT] = "soft-backend traces", [CMDLINE_IN_WATCH] = "watch-backend traces",
};

void cmdline_give(struct cmdline_use *u, int c, const char *arg)
{
	int o = c - CMDLINE_VAL(0);

	if (c < CMDLINE_VAL(0))
		for (o = 0; o < CMDLINE_OPT_NR && rules[o].letter != c; o++)
			;
	if (o < 0 || o >= CMDLINE_OPT_NR)
		return;
	u->given |= 1ull << o;
	u->arg[o] = arg;
}

/* "-d/--display rmt", "--stats", "--csv=rows" */
static int refuse(struct cmdline_use *u, enum cmdline_opt o, const char *where, const char *why)
{
	const struct cmdline_rule *r = &rules[o];
	const char *arg = u->arg[o];

	u->refused = 1;
	return c2c_usage("%s%s%s--%s%s%s does not apply to %s: %s", r->letter ? "-" : "",
			 r->letter ? (char[2]){ r->letter, 0 } : "", r->letter ? "/" : "", r->name,
			 !arg ? "" : r->arg == 2 ? "=" : " ", arg ? arg : "", where, why);
}

int cmdline_check_output(struct cmdline_use *u)
{
	for (int o = 0; o < CMDLINE_OPT_NR; o++)
		if ((u->given >> o & 1) && !(rules[o].outs >> u->out & 1))
			return refuse(u, (enum cmdline_opt)o, out_name[u->out], rules[o].why_out ?
				      rules[o].why_out : "it has no meaning there");
	return 0;
}

static enum cmdline_input input_of(const struct report_session *s)
{
	if (source_kind(s->src) == SOURCE_PERFDATA)
		return CMDLINE_IN_PERFDATA;
	return s->kind == RM_SOFT ? CMDLINE_IN_SOFT : s->kind == RM_WATCH ? CMDLINE_IN_WATCH :
	       CMDLINE_IN_PMU;
}

int cmdline_check_in(struct cmdline_use *u, enum cmdline_input in)
{
	for (int o = 0; o < CMDLINE_OPT_NR; o++) {
		const struct cmdline_rule *r = &rules[o];

		if ((u->given >> o & 1) && r->why_in[in] &&
		    !(r->inert && u->arg[o] && r->inert(u->arg[o])))
			return refuse(u, (enum cmdline_opt)o, in_name[in], r->why_in[in]);
	}
	return 0;
}

int cmdline_check_input(void *ctx, const struct report_session *s)
{
	return cmdline_check_in(ctx, input_of(s));
}

int cmdline_tui_words(const char *w)
{
	for (int o = 0; o < CMDLINE_OPT_NR; o++) {
		const struct cmdline_rule *r = &rules[o];
		size_t n = strlen(r->name);

		if (!(r->outs & TUI))
			continue;
		if (w[0] == '-' && w[1] == '-' && !strncmp(w + 2, r->name, n) &&
		    (!w[2 + n] || w[2 + n] == '='))
			return r->arg == 1 && !w[2 + n] ? 2 : 1;     /* --input FILE, --input=FILE */
		if (r->letter && w[0] == '-' && w[1] == r->letter)
			return r->arg == 1 && !w[2] ? 2 : 1;         /* -i FILE, -iFILE */
	}
	return 0;
}

int cmdline_display(const char *s)
{
	int d;

	for (d = CLTAB_DISPLAY_TOT; d <= CLTAB_DISPLAY_PEER; d++)
		if (!strcmp(s, rm_display_key((enum cltab_display)d)))
			return d;
	return c2c_usage("unknown display type '%s' (tot, rmt, lcl, peer)", s);
}

/* perf's setup_coalesce(): tokens in user order; "offset" is accepted and ignored. */
int cmdline_coalesce(const char *s, enum cltab_coalesce keys[CLTAB_CO_MAX], int *nr)
{
	static const char *const names[] = {
		[CLTAB_CO_PID] = "pid", [CLTAB_CO_TID] = "tid", [CLTAB_CO_IADDR] = "iaddr",
		[CLTAB_CO_DSO] = "dso",
	};
	const char *p = s;
	size_t k;

	*nr = 0;
	if (!*s)
		return c2c_usage("--coalesce '' names no key (pid, tid, iaddr, dso)");
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n != 6 || strncmp(p, "offset", 6)) {
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
				if (strlen(names[k]) == n && !strncmp(p, names[k], n))
					break;
			if (k == sizeof(names) / sizeof(names[0]))
				return c2c_usage("unknown key '%.*s' in --coalesce '%s' (pid, tid, "
						 "iaddr, dso)", (int)n, p, s);
			if (*nr == CLTAB_CO_MAX)
				return c2c_usage("--coalesce '%s': at most %d keys", s, CLTAB_CO_MAX);
			keys[(*nr)++] = (enum cltab_coalesce)k;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

int cmdline_cl_size(const char *s, uint32_t *out)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end || v <= 0 || v > (1 << 20) || (v & (v - 1)))
		return c2c_usage("--cacheline-size '%s' is not a power of two", s);
	*out = (uint32_t)v;
	return 0;
}

int cmdline_jobs(const char *s, uint32_t *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 1 || v > CMDLINE_MAX_JOBS)
		return c2c_usage("-j/--jobs '%s' is not a thread count (1 to %d)", s,
				 CMDLINE_MAX_JOBS);
	*out = (uint32_t)v;
	return 0;
}

uint32_t cmdline_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > CMDLINE_DEFAULT_JOBS_CAP ? CMDLINE_DEFAULT_JOBS_CAP : (uint32_t)n;
}
