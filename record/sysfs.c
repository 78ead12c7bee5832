/* sysfs/procfs reads below the C2C_SYSFS_ROOT prefix (see sysfs.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "record/sysfs.h"

const char *sysfs_root(void)
{
	const char *r = getenv("C2C_SYSFS_ROOT");

	return r ? r : "";
}

int sysfs_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "%s%s", sysfs_root(), path);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int sysfs_read_all(const char *path, char **out, size_t *out_len, size_t max)
{
	char full[4096];
	size_t cap = 4096, len = 0;
	char *buf;
	int fd, err = sysfs_path(full, sizeof(full), path);

	if (err)
		return err;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap)
			buf = xgrow(buf, &cap, len + 4096, 1);
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	if (out_len)
		*out_len = len;
	return 0;
}

int sysfs_read_line(const char *path, char *buf, size_t len)
{
	char full[4096];
	FILE *f;
	int err = sysfs_path(full, sizeof(full), path);

	if (err)
		return err;
	f = fopen(full, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		err = ferror(f) ? -EIO : 0;
		buf[0] = '\0';
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

int sysfs_read_u64(const char *path, uint64_t *val)
{
	char line[128], *end;
	int err = sysfs_read_line(path, line, sizeof(line));

	if (err)
		return err;
	errno = 0;
	*val = strtoull(line, &end, 0);
	if (errno || end == line || (*end && *end != ' '))
		return -EINVAL;
	return 0;
}

int sysfs_exists(const char *path)
{
	char full[4096];

	if (sysfs_path(full, sizeof(full), path))
		return 0;
	return access(full, F_OK) == 0;
}

int sysfs_parse_cpulist(const char *s, uint8_t *bitmap, unsigned int nbits)
{
	int count = 0;

	while (*s && *s != '\n') {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return -EINVAL;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s || hi < lo)
				return -EINVAL;
		}
		if (hi >= nbits)
			return -EINVAL;
		for (unsigned long c = lo; c <= hi; c++) {
			if (!(bitmap[c / 8] & (1u << (c % 8))))
				count++;
			bitmap[c / 8] |= (uint8_t)(1u << (c % 8));
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return count;
}
