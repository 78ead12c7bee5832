/* PMU discovery and term parsing against sysfs format files (see pmu.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "record/pmu.h"
#include "record/sysfs.h"

static int pmu_file(const struct pmu *p, const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];

	if (strchr(name, '/') || snprintf(path, sizeof(path), PMU_DEVICES "/%s/%s/%s", p->name, dir,
					  name) >= (int)sizeof(path))
		return -EINVAL;
	return sysfs_read_line(path, buf, len);
}

int pmu_open(struct pmu *p, const char *name)
{
	char path[512];
	uint64_t type;
	int err;

	if (strlen(name) >= sizeof(p->name) || strchr(name, '/'))
		return -EINVAL;
	snprintf(path, sizeof(path), PMU_DEVICES "/%s/type", name);
	err = sysfs_read_u64(path, &type);
	if (err)
		return err;
	if (type > UINT32_MAX)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	strcpy(p->name, name);
	p->type = (uint32_t)type;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pmu_list(char ***names)
{
	char path[4096];
	size_t n = 0, cap = 0;
	char **v = NULL;
	struct dirent *de;
	DIR *d;
	int err = sysfs_path(path, sizeof(path), PMU_DEVICES);

	if (err)
		return err;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		v = xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	v = xgrow(v, &cap, n + 1, sizeof(*v));
	v[n] = NULL;
	qsort(v, n, sizeof(*v), cmp_str);
	*names = v;
	return 0;
}

void pmu_names_free(char **names)
{
	if (!names)
		return;
	for (char **s = names; *s; s++)
		free(*s);
	free(names);
}

int pmu_open_type(struct pmu *p, const char *prefix, int64_t type)
{
	char **names;
	int err = pmu_list(&names);

	if (err)
		return err;
	err = -ENOENT;
	for (char **s = names; *s && err; s++)
		if (!strncmp(*s, prefix, strlen(prefix)) && !(err = pmu_open(p, *s)) &&
		    type >= 0 && p->type != type)
			err = -ENOENT;
	pmu_names_free(names);
	return err;
}

int pmu_open_prefix(struct pmu *p, const char *prefix)
{
	return pmu_open_type(p, prefix, -1);
}

int pmu_cap(const struct pmu *p, const char *cap, char *buf, size_t len)
{
	return pmu_file(p, "caps", cap, buf, len);
}

uint64_t pmu_cap_u64(const struct pmu *p, const char *cap, uint64_t dflt)
{
	char buf[64], *end;
	uint64_t v;

	if (pmu_cap(p, cap, buf, sizeof(buf)))
		return dflt;
	v = strtoull(buf, &end, 0);
	return end == buf ? dflt : v;
}

int pmu_alias(const struct pmu *p, const char *alias, char *buf, size_t len)
{
	return pmu_file(p, "events", alias, buf, len);
}

int pmu_has_alias(const struct pmu *p, const char *alias)
{
	char buf[256];

	return pmu_alias(p, alias, buf, sizeof(buf)) == 0;
}

int pmu_format(const struct pmu *p, const char *field, char *buf, size_t len)
{
	return pmu_file(p, "format", field, buf, len);
}

int pmu_has_format(const struct pmu *p, const char *field)
{
	char buf[128];

	return pmu_format(p, field, buf, sizeof(buf)) == 0;
}

static uint64_t *format_target(const char *fmt, size_t n, struct pmu_config *cfg)
{
	static const char *const names[] = { "config", "config1", "config2", "config3" };

	for (size_t i = 0; i < 4; i++)
		if (strlen(names[i]) == n && !strncmp(fmt, names[i], n))
			return i == 0 ? &cfg->config : i == 1 ? &cfg->config1 :
			       i == 2 ? &cfg->config2 : &cfg->config3;
	return NULL;
}

/* Scatter @val's bits, lowest first, into the bit ranges listed after the colon. */
int pmu_format_place(const char *fmt, uint64_t val, struct pmu_config *cfg)
{
	const char *colon = strchr(fmt, ':'), *s;
	uint64_t *dst, placed = 0;
	unsigned int used = 0;

	if (!colon || !(dst = format_target(fmt, (size_t)(colon - fmt), cfg)))
		return -EINVAL;
	for (s = colon + 1; *s;) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return -EINVAL;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s)
				return -EINVAL;
		}
		if (hi < lo || hi > 63)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++, used++)
			if (used < 64 && (val >> used) & 1)
				placed |= 1ull << b;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n' && *s != ' ')
			return -EINVAL;
		else
			break;
	}
	if (used < 64 && (val >> used))
		return -ERANGE;
	*dst |= placed;
	return 0;
}

static int parse_value(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int apply_extra(const char *name, const char *val, struct pmu_config *cfg,
		       struct pmu_term_extra *x)
{
	uint64_t v = 1;

	if (!strcmp(name, "name") && x && val) {
		snprintf(x->name, sizeof(x->name), "%s", val);
		return 0;
	}
	if (val && parse_value(val, &v))
		return -EINVAL;
	if (!strcmp(name, "config"))
		cfg->config = v;
	else if (!strcmp(name, "config1"))
		cfg->config1 = v;
	else if (!strcmp(name, "config2"))
		cfg->config2 = v;
	else if (!strcmp(name, "config3"))
		cfg->config3 = v;
	else if (x && !strcmp(name, "period"))
		x->period = v;
	else if (x && !strcmp(name, "freq"))
		x->freq = v;
	else if (x && !strcmp(name, "inherit") && !val)
		x->inherit = 1;
	else if (x && !strcmp(name, "no-inherit") && !val)
		x->inherit = 0;
	else
		return -ENOENT;
	return 0;
}

/* A format field: clear the bits it owns, then place the value (so later terms override). */
static int apply_field(const struct pmu *p, const char *fmt, uint64_t v, struct pmu_config *cfg,
		       const char *name)
{
	struct pmu_config mask = { 0 };
	int err = pmu_format_place(fmt, 0, &mask);

	if (err)
		return c2c_err(err, "bad format file '%s/format/%s': '%s'", p->name, name, fmt);
	for (unsigned int i = 0; i < 64; i++)
		if (pmu_format_place(fmt, 1ull << i, &mask))
			break;
	cfg->config &= ~mask.config;
	cfg->config1 &= ~mask.config1;
	cfg->config2 &= ~mask.config2;
	cfg->config3 &= ~mask.config3;
	err = pmu_format_place(fmt, v, cfg);
	if (err == -ERANGE)
		return c2c_err(err, "value 0x%llx too big for format '%s' of PMU '%s' (%s)",
			       (unsigned long long)v, name, p->name, fmt);
	return err;
}

static int apply_one(const struct pmu *p, char *term, struct pmu_config *cfg,
		     struct pmu_term_extra *x, int depth)
{
	char *eq = strchr(term, '='), fmt[128], alias[512];
	const char *val = NULL;
	uint64_t v = 1;

	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!*term)
		return c2c_err(-EINVAL, "empty term in event for PMU '%s'", p->name);
	if (!pmu_format(p, term, fmt, sizeof(fmt))) {
		if (val && !strcmp(val, "?"))
			return c2c_err(-EINVAL, "term '%s' of PMU '%s' needs a value", term, p->name);
		if (val && parse_value(val, &v))
			return c2c_err(-EINVAL, "bad value '%s' for term '%s' of PMU '%s'", val,
				       term, p->name);
		return apply_field(p, fmt, v, cfg, term);
	}
	if (!val && depth == 0 && !pmu_alias(p, term, alias, sizeof(alias))) {
		struct pmu_term_extra *ax = x;
		char *s, *save = NULL;

		for (s = strtok_r(alias, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
			int err = apply_one(p, s, cfg, ax, depth + 1);

			if (err)
				return err;
		}
		return 0;
	}
	switch (apply_extra(term, val, cfg, x)) {
	case 0:
		return 0;
	case -EINVAL:
		return c2c_err(-EINVAL, "bad value '%s' for term '%s'", val ? val : "", term);
	default:
		return c2c_err(-ENOENT, "PMU '%s' has no format field or event '%s'", p->name,
			       term);
	}
}

int pmu_apply_terms(const struct pmu *p, const char *terms, struct pmu_config *cfg,
		    struct pmu_term_extra *extra)
{
	char *copy = xstrdup(terms), *s, *save = NULL;
	int err = 0;

	for (s = strtok_r(copy, ",", &save); s && !err; s = strtok_r(NULL, ",", &save))
		err = apply_one(p, s, cfg, extra, 0);
	free(copy);
	return err;
}
