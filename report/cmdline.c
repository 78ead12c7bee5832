/* Shared option values (see cmdline.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/log.h"
#include "report/aggregate/cltable-view.h"
#include "report/cmdline.h"

int cmdline_display(const char *s)
{
	int d;

	for (d = CLTAB_DISPLAY_TOT; d <= CLTAB_DISPLAY_PEER; d++)
		if (!strcmp(s, cltv_display_name((enum cltab_display)d)))
			return d;
	return c2c_err(-EINVAL, "unknown display type '%s' (tot, rmt, lcl, peer)", s);
}

int cmdline_cl_size(const char *s, uint32_t *out)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end || v <= 0 || v > (1 << 20) || (v & (v - 1)))
		return c2c_err(-EINVAL, "--cacheline-size '%s' is not a power of two", s);
	*out = (uint32_t)v;
	return 0;
}

int cmdline_jobs(const char *s, uint32_t *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 1 || v > CMDLINE_MAX_JOBS)
		return c2c_err(-EINVAL, "-j/--jobs '%s' is not a thread count (1 to %d)", s,
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
