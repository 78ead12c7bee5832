/* Helpers of the suites that run the record side on the fake machines in data/sysfs/<machine>:
 * point every sysfs and procfs read there, and silence the log hook for expected errors. */
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

static inline void set_machine(const char *m)
{
	char root[256];

	snprintf(root, sizeof(root), "data/sysfs/%s", m);
	setenv("C2C_SYSFS_ROOT", root, 1);
}

#endif
