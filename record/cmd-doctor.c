/* `c2c-lite doctor`: print what this machine lets c2c-lite record, with reasons and fixes. */
#include <stdio.h>
#include <string.h>

#include "c2c/cmds.h"
#include "record/doctor.h"
#include "record/sysfs.h"

static const char doctor_usage[] =
	"usage: c2c-lite doctor [--no-probe]\n"
	"\n"
	"Check the CPU, the PMUs the kernel exposes, perf_event_paranoid and each recording\n"
	"backend (PEBS, IBS, SPE, POWER, TopDown, watchpoints, software events), stat and its\n"
	"TopDown counters, and the region markers' counters (rdpmc or read()); say what is\n"
	"available, why the rest is not, and how to fix it.\n"
	"\n"
	"  --no-probe   do not try perf_event_open (only read cpuid, sysfs and procfs)\n";

static const char *mark(enum doctor_status st)
{
	return st == DOCTOR_OK ? "[ok]" : st == DOCTOR_NO ? "[no]" : "    ";
}

static void print_summary(const struct doctor *d)
{
	if (d->hw_memory)
		printf("\nsummary: hardware memory sampling is available: 'c2c-lite record -- CMD'\n");
	else if (d->soft)
		printf("\nsummary: no hardware memory sampling here; 'c2c-lite record -- CMD' uses "
		       "the soft backend (estimates)%s\n", d->watch ? "; '--backend=watch --watch "
		       "SYMBOL' counts every access to a few words" : "");
	else if (d->sw_events)
		printf("\nsummary: no hardware memory sampling here; software events work: "
		       "'c2c-lite record -e page-faults -- CMD' (fault addresses) or -e cpu-clock\n");
	else if (doctor_find(d, "software") && doctor_find(d, "software")->st == DOCTOR_NO)
		printf("\nsummary: nothing can be recorded as this user; see the fixes above\n");
	else
		printf("\nsummary: no hardware memory sampling; software events were not probed\n");
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_env env;
	struct doctor d;

	doctor_env_detect(&env);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-probe")) {
			env.probe_open = 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(doctor_usage, stdout);
			return EXIT_OK;
		} else {
			fprintf(stderr, "c2c-lite doctor: unknown option '%s'\n%s", argv[i],
				doctor_usage);
			return EXIT_USAGE;
		}
	}
	if (sysfs_root()[0]) {
		/* a fake tree (C2C_SYSFS_ROOT): this host's cpuid and syscalls do not describe it */
		env.cpuid.valid = 0;
		env.probe_open = 0;
	}
	doctor_run(&d, &env);
	for (size_t i = 0; i < d.nr; i++) {
		const struct doctor_row *r = &d.row[i];

		printf("%s %-20s %s\n", mark(r->st), r->topic, r->detail);
		if (r->fix[0])
			printf("     %-20s fix: %s\n", "", r->fix);
	}
	print_summary(&d);
	doctor_release(&d);
	return EXIT_OK;
}
