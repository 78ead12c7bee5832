/* The workload's run record (see include/c2c/run.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "c2c/run.h"
#include "lib/textkv.h"

#define RUN_MAGIC "c2c-run 1"

int c2c_run_format(const struct c2c_run *r, char *buf, size_t size)
{
	size_t off = 0;

	if (!size || textkv_put(buf, size, &off, "%s\nwall_ns %" PRIu64 "\nuser_ns %" PRIu64
				"\nsys_ns %" PRIu64 "\nmaxrss_kb %" PRIu64 "\nexit %s\nstatus %d\n",
				RUN_MAGIC, r->wall_ns, r->user_ns, r->sys_ns, r->maxrss_kb,
				r->signaled ? "signaled" : "exited", r->status))
		return -ENOSPC;
	return (int)off;
}

static int num(const char *val, uint64_t *v)
{
	const char *e;

	return textkv_u64(val, v, &e) || *e ? -EBADMSG : 0;
}

static int run_line(const char *key, const char *val, void *ctx)
{
	struct c2c_run *r = ctx;
	uint64_t v;

	if (!strcmp(key, "wall_ns"))
		return num(val, &r->wall_ns);
	if (!strcmp(key, "user_ns"))
		return num(val, &r->user_ns);
	if (!strcmp(key, "sys_ns"))
		return num(val, &r->sys_ns);
	if (!strcmp(key, "maxrss_kb"))
		return num(val, &r->maxrss_kb);
	if (!strcmp(key, "exit")) {
		if (strcmp(val, "exited") && strcmp(val, "signaled"))
			return -EBADMSG;
		r->signaled = !strcmp(val, "signaled");
		return 0;
	}
	if (!strcmp(key, "status")) {
		if (num(val, &v) || v > 255)
			return -EBADMSG;
		r->status = (int)v;
	}
	return 0;
}

int c2c_run_parse(const void *buf, size_t len, struct c2c_run *out)
{
	memset(out, 0, sizeof(*out));
	return textkv_parse(buf, len, RUN_MAGIC, 256, run_line, out) ? -EBADMSG : 0;
}

void c2c_run_exit_text(const struct c2c_run *r, char *buf, size_t size)
{
	const char *abbrev = r->signaled ? sigabbrev_np(r->status) : NULL;

	if (!r->signaled)
		snprintf(buf, size, "exit %d", r->status);
	else if (abbrev)
		snprintf(buf, size, "killed by signal %d (SIG%s)", r->status, abbrev);
	else
		snprintf(buf, size, "killed by signal %d", r->status);
}
