/* The log hook (see include/c2c/log.h). Messages are formatted into a bounded buffer and handed to
 * the installed hook; the default hook writes them to stderr with the program name and level. */
#include <errno.h>
#include <stdio.h>

#include "c2c/log.h"

static c2c_log_fn log_hook;
static void *log_ctx;
static enum c2c_log_level log_level = C2C_LOG_INFO;
static const char *log_command;

static const char *const level_name[] = {
	[C2C_LOG_ERROR] = "error",
	[C2C_LOG_WARN] = "warning",
	[C2C_LOG_INFO] = "info",
	[C2C_LOG_DEBUG] = "debug",
};

c2c_log_fn c2c_log_set_hook(c2c_log_fn fn, void *ctx)
{
	c2c_log_fn old = log_hook;

	log_hook = fn;
	log_ctx = ctx;
	return old;
}

void c2c_log_set_level(enum c2c_log_level level)
{
	log_level = level;
}

enum c2c_log_level c2c_log_get_level(void)
{
	return log_level;
}

void c2c_vlog(enum c2c_log_level level, const char *fmt, va_list ap)
{
	char msg[1024];

	if (level > log_level)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_hook)
		log_hook(level, msg, log_ctx);
	else
		fprintf(stderr, "c2c-lite: %s: %s\n", level_name[level], msg);
}

void c2c_log(enum c2c_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	c2c_vlog(level, fmt, ap);
	va_end(ap);
}

int c2c_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	c2c_vlog(C2C_LOG_ERROR, fmt, ap);
	va_end(ap);
	return err;
}

void c2c_log_set_command(const char *name)
{
	log_command = name;
}

int c2c_usage(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c2c_log(C2C_LOG_ERROR, "%s (see 'c2c-lite%s%s --help')", msg, log_command ? " " : "",
		log_command ? log_command : "");
	return -EINVAL;
}
