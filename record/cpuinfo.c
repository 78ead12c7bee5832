/* /proc/cpuinfo parsing for x86, arm64 and POWER (see cpuinfo.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/cpuinfo.h"
#include "record/sysfs.h"

const char *cpuinfo_vendor_name(enum cpu_vendor v)
{
	static const char *const names[] = { "unknown", "GenuineIntel", "AuthenticAMD", "ARM",
					     "IBM" };

	return (unsigned int)v < sizeof(names) / sizeof(names[0]) ? names[v] : "unknown";
}

/* "key\t: value": returns value when the line's key is @key. */
static const char *kv(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *s;

	if (strncmp(line, key, n))
		return NULL;
	for (s = line + n; *s == ' ' || *s == '\t'; s++)
		;
	if (*s != ':')
		return NULL;
	for (s++; *s == ' '; s++)
		;
	return s;
}

static void copy_val(char *dst, size_t len, const char *v)
{
	size_t n = strcspn(v, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

static void parse_line(const char *line, struct cpuinfo *ci)
{
	const char *v;

	if ((v = kv(line, "processor")))
		ci->nr_cpus++;
	else if ((v = kv(line, "vendor_id")) && !ci->vendor_str[0])
		copy_val(ci->vendor_str, sizeof(ci->vendor_str), v);
	else if ((v = kv(line, "cpu family")))
		ci->family = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "model")))
		ci->model = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "stepping")))
		ci->stepping = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "model name")) && !ci->model_name[0])
		copy_val(ci->model_name, sizeof(ci->model_name), v);
	else if ((v = kv(line, "CPU implementer")))
		ci->arm_implementer = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "CPU part")))
		ci->arm_part = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "CPU variant")))
		ci->arm_variant = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "CPU revision")))
		ci->arm_revision = (uint32_t)strtoul(v, NULL, 0);
	else if ((v = kv(line, "cpu")) && !ci->model_name[0] && !strncmp(v, "POWER", 5))
		copy_val(ci->model_name, sizeof(ci->model_name), v);
}

void cpuinfo_parse(const char *text, struct cpuinfo *ci)
{
	memset(ci, 0, sizeof(*ci));
	for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		parse_line(s, ci);
	if (!strcmp(ci->vendor_str, "GenuineIntel")) {
		ci->vendor = CPU_VENDOR_INTEL;
	} else if (!strcmp(ci->vendor_str, "AuthenticAMD") || !strcmp(ci->vendor_str, "HygonGenuine")) {
		ci->vendor = CPU_VENDOR_AMD;
	} else if (ci->arm_implementer) {
		ci->vendor = CPU_VENDOR_ARM;
		snprintf(ci->vendor_str, sizeof(ci->vendor_str), "ARM");
		ci->family = 8;
		ci->model = ci->arm_part;
		ci->stepping = ci->arm_revision;
	} else if (!strncmp(ci->model_name, "POWER", 5)) {
		ci->vendor = CPU_VENDOR_IBM;
		snprintf(ci->vendor_str, sizeof(ci->vendor_str), "IBM");
		ci->model = (uint32_t)strtoul(ci->model_name + 5, NULL, 10);
	}
}

int cpuinfo_read(struct cpuinfo *ci)
{
	char *text;
	int err = sysfs_read_all("/proc/cpuinfo", &text, NULL, 16 << 20);

	if (err)
		return err;
	cpuinfo_parse(text, ci);
	free(text);
	return 0;
}
