/* Helpers of the suites that run the record side on the fake machines in data/sysfs/<machine>:
 * point every sysfs and procfs read there, silence the log hook for expected errors, and write
 * the files of a temporary tree. */
#ifndef C2C_TESTS_FAKE_MACHINE_H
#define C2C_TESTS_FAKE_MACHINE_H

#include <stdio.h>
#include <stdlib.h>

#include "c2c/log.h"

static inline void quiet(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

/* @root/@rel holding @text; 0, or -1 when it cannot be written. */
static inline int fake_put_text(const char *root, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!(f = fopen(path, "w")))
		return -1;
	err = fputs(text, f) < 0;
	return fclose(f) || err ? -1 : 0;
}

static inline void set_machine(const char *m)
{
	char root[256];

	snprintf(root, sizeof(root), "data/sysfs/%s", m);
	setenv("C2C_SYSFS_ROOT", root, 1);
}

#endif
