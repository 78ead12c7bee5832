/* `c2c-lite doctor`: print what this machine lets c2c-lite record, with reasons and fixes. */
#include <stdio.h>
#include <string.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "record/doctor.h"
#include "record/sysfs.h"

static const char doctor_usage[] =
	"usage: c2c-lite doctor [--no-probe] [-q]\n"
	"\n"
	"Check the CPU, the PMUs the kernel exposes, perf_event_paranoid and each recording\n"
	"backend (PEBS, IBS, SPE, POWER, TopDown, watchpoints, software events), stat and its\n"
	"TopDown counters, and the region markers' counters (rdpmc or read()); say what is\n"
	"available, why the rest is not, and how to fix it.\n"
	"\n"
	"      --no-probe  do not try perf_event_open (only read cpuid, sysfs and procfs)\n"
	"  -q, --quiet     only the summary line\n"
	"  -h, --help      this text ('c2c-lite help doctor': the manual)\n";

static const char *mark(enum doctor_status st)
{
	return st == DOCTOR_OK ? "[ok]" : st == DOCTOR_NO ? "[no]" : "    ";
}

static void print_summary(const struct doctor *d, int quiet)
{
	char line[400];

	doctor_summary(d, quiet, line, sizeof(line));
	printf("%ssummary: %s\n", quiet ? "" : "\n", line);
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_env env;
	struct doctor d;
	int quiet = 0;

	doctor_env_detect(&env);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-probe")) {
			env.probe_open = 0;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			quiet = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(doctor_usage, stdout);
			return EXIT_OK;
		} else {
			c2c_usage("%s '%s'", argv[i][0] == '-' ? "unknown option" :
				  "unexpected argument", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (sysfs_root()[0]) {
		/* a fake tree (C2C_SYSFS_ROOT): this host's cpuid and syscalls do not describe it */
		env.cpuid.valid = 0;
		env.probe_open = 0;
	}
	doctor_run(&d, &env);
	for (size_t i = 0; i < d.nr && !quiet; i++) {
		const struct doctor_row *r = &d.row[i];

		printf("%s %-20s %s\n", mark(r->st), r->topic, r->detail);
		if (r->fix[0])
			printf("     %-20s fix: %s\n", "", r->fix);
	}
	print_summary(&d, quiet);
	doctor_release(&d);
	return EXIT_OK;
}
