/* The log hook: the one sanctioned global of c2c-lite.
 *
 * Core code never prints. It reports warnings, errors and debug detail through c2c_log(), which
 * hands the formatted message to the hook installed with c2c_log_set_hook(). The stdio front end
 * installs a hook that writes "c2c-lite: <level>: <msg>" to stderr; the TUI keeps messages for its
 * message line; tests install a hook that captures them. With no hook, messages go to stderr.
 * Messages follow git's style: lowercase, no trailing period, the subject in quotes. */
#ifndef C2C_LOG_H
#define C2C_LOG_H

#include <stdarg.h>

enum c2c_log_level {
	C2C_LOG_ERROR,
	C2C_LOG_WARN,
	C2C_LOG_INFO,
	C2C_LOG_DEBUG,
};

typedef void (*c2c_log_fn)(enum c2c_log_level level, const char *msg, void *ctx);

/* Install @fn (NULL restores the stderr default). Returns the previous hook. */
c2c_log_fn c2c_log_set_hook(c2c_log_fn fn, void *ctx);
/* Messages above @level are dropped before formatting (default C2C_LOG_INFO). */
void c2c_log_set_level(enum c2c_log_level level);
enum c2c_log_level c2c_log_get_level(void);

void c2c_log(enum c2c_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void c2c_vlog(enum c2c_log_level level, const char *fmt, va_list ap);

/* Log an error and return @err (a negative errno), for `return c2c_err(-EBADMSG, ...)`. */
int c2c_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The command running ("report"), named by the usage hint; main() sets it. NULL: none. */
void c2c_log_set_command(const char *name);
/* A usage error (exit status 2): one error line ending in the command's usage hint,
 * "(see 'c2c-lite CMD --help')". Returns -EINVAL. */
int c2c_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define c2c_warn(...)  c2c_log(C2C_LOG_WARN, __VA_ARGS__)
#define c2c_info(...)  c2c_log(C2C_LOG_INFO, __VA_ARGS__)
#define c2c_debug(...) c2c_log(C2C_LOG_DEBUG, __VA_ARGS__)

#endif
