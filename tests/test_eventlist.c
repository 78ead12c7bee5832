/* `record -e list` and `record -e NAME` agree: on every fake sysfs tree (data/sysfs/<machine>),
 * each event name the list prints (the first word of an indented line, and each name after
 * " OR ") is accepted by events_add_string() and events_finalize(). The real machine's list is
 * recorded name by name in tests/e2e/record-eventlist.sh. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/log.h"
#include "record/events.h"

#define MAX_NAMES 64

struct names {
	char name[MAX_NAMES][160];
	int nr, memory_heading;
};

/* "  cpu/mem-loads/  [event=0xcd,...]", "  page-faults OR faults": the names of one line */
static void collect(const char *line, void *ctx)
{
	struct names *n = ctx;
	char buf[256], *tok, *save = NULL, *note;

	if (!strncmp(line, "memory events", 13))
		n->memory_heading++;
	if (strncmp(line, "  ", 2) || line[2] == ' ')
		return;
	snprintf(buf, sizeof(buf), "%s", line + 2);
	if ((note = strstr(buf, "  [")))
		*note = '\0';
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "OR"))
			continue;
		assert_true(n->nr < MAX_NAMES);
		snprintf(n->name[n->nr++], sizeof(n->name[0]), "%s", tok);
	}
}

static char last_error[512];

static void keep_error(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == C2C_LOG_ERROR)
		snprintf(last_error, sizeof(last_error), "%s", msg);
}

static int check_machine(const char *machine)
{
	struct names n = { .nr = 0 };
	char root[256];
	int memory = 0;

	snprintf(root, sizeof(root), "data/sysfs/%s", machine);
	setenv("C2C_SYSFS_ROOT", root, 1);
	assert_int_equal(events_list(collect, &n), 0);
	assert_int_equal(n.memory_heading, 1);
	assert_true(n.nr >= 10);                  /* the software events at least */
	for (int i = 0; i < n.nr; i++) {
		struct events_opts o = { .workload = 1 };
		struct ev_list l;
		int err;

		memory += strchr(n.name[i], '/') != NULL;
		events_init(&l);
		last_error[0] = '\0';
		err = events_add_string(&l, &o, n.name[i]);
		if (!err)
			err = events_finalize(&l, &o);
		if (err)
			fail_msg("%s: '-e list' prints '%s', but '-e %s' fails (%d): %s", machine,
				 n.name[i], n.name[i], err, last_error);
		assert_true(l.nr >= 1);
		events_release(&l);
	}
	return memory;
}

static void test_eventlist_every_machine(void **state)
{
	DIR *d = opendir("data/sysfs");
	struct dirent *e;
	int machines = 0, with_memory = 0;

	(void)state;
	assert_non_null(d);
	c2c_log_set_hook(keep_error, NULL);
	while ((e = readdir(d))) {
		char path[512];
		DIR *sub;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "data/sysfs/%s", e->d_name);
		if (!(sub = opendir(path)))
			continue;
		closedir(sub);
		machines++;
		with_memory += check_machine(e->d_name) > 0;
	}
	closedir(d);
	c2c_log_set_hook(NULL, NULL);
	unsetenv("C2C_SYSFS_ROOT");
	/* the trees cover Intel, AMD, Arm and POWER: most list memory events */
	assert_true(machines >= 10);
	assert_true(with_memory >= machines - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eventlist_every_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
