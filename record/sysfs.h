/* Reads of sysfs and procfs files under one root prefix.
 *
 * Every file the recorder reads from /sys or /proc goes through these helpers, so tests can point
 * the whole record side at a fake tree (data/sysfs/<machine>/) by setting C2C_SYSFS_ROOT. The root
 * is "" (the real system) when the variable is unset. Paths are absolute ("/sys/...").
 * Functions return 0 or a negative errno; nothing is logged (callers decide what a missing file
 * means). */
#ifndef C2C_RECORD_SYSFS_H
#define C2C_RECORD_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/* The prefix from C2C_SYSFS_ROOT ("" when unset). */
const char *sysfs_root(void);
/* Write root + @path into @buf; -ENAMETOOLONG when it does not fit. */
int sysfs_path(char *buf, size_t len, const char *path);
/* Read the first line of a file, without the newline. */
int sysfs_read_line(const char *path, char *buf, size_t len);
/* Read a whole file into a new NUL-terminated buffer (*out, caller frees), at most @max bytes. */
int sysfs_read_all(const char *path, char **out, size_t *out_len, size_t max);
/* Read a decimal or 0x-hex unsigned integer from the first line. -EINVAL when it is not one. */
int sysfs_read_u64(const char *path, uint64_t *val);
/* True when the path exists under the root. */
int sysfs_exists(const char *path);
/* Parse a CPU list ("0-3,8,10-11") into a bitmap of @nbits bits (bytes, caller zeroed); returns
 * the number of CPUs set, or -EINVAL. */
int sysfs_parse_cpulist(const char *s, uint8_t *bitmap, unsigned int nbits);

#endif
