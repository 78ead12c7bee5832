/* AMD L3 and Data Fabric counters beside a recording (see uncore.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "record/cpuinfo.h"
#include "record/events.h"
#include "record/pmu.h"
#include "record/sys.h"
#include "record/sysfs.h"
#include "record/uncore.h"

static void note(struct uncore *u, const char *fmt, const char *arg)
{
	if (u->nr_notes < C2C_UNCORE_NOTES)
		snprintf(u->note[u->nr_notes++], sizeof(u->note[0]), fmt, arg);
}

/* The CPUs of a PMU's cpumask, in order; *nr set. */
static int mask_cpus(const struct pmu *p, int *cpus, size_t cap, size_t *nr)
{
	uint8_t map[EV_CPUS_MAX / 8] = { 0 };
	char path[160], line[512];
	int err;

	snprintf(path, sizeof(path), PMU_DEVICES "/%s/cpumask", p->name);
	if ((err = sysfs_read_line(path, line, sizeof(line))))
		return err;
	if (sysfs_parse_cpulist(line, map, EV_CPUS_MAX) < 0)
		return -EINVAL;
	*nr = 0;
	for (int c = 0; c < EV_CPUS_MAX && *nr < cap; c++)
		if ((map[c / 8] >> (c % 8)) & 1)
			cpus[(*nr)++] = c;
	return 0;
}

static int add(struct uncore *u, const struct pmu *p, const char *terms, enum c2c_uncore_kind kind,
	       int second, uint32_t unit, int cpu, uint32_t bytes_per)
{
	struct pmu_config cfg = { 0 };
	struct uncore_ev *e;
	int err = pmu_apply_terms(p, terms, &cfg, NULL);

	if (err)
		return err;
	u->ev = xgrow(u->ev, &u->cap, u->nr + 1, sizeof(*u->ev));
	e = &u->ev[u->nr++];
	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(e->attr);
	e->attr.type = p->type;
	e->attr.config = cfg.config;
	e->attr.config1 = cfg.config1;
	e->kind = kind;
	e->second = second;
	e->unit = unit;
	e->cpu = (uint32_t)cpu;
	e->bytes_per = bytes_per;
	e->fd = -1;
	return 0;
}

static int plan_l3(struct uncore *u)
{
	int cpus[C2C_UNCORE_MAX], err;
	size_t n;
	struct pmu p;

	if (pmu_open(&p, "amd_l3")) {
		note(u, "%s", "no amd_l3 PMU: no L3 counts (a VM, or a kernel without the AMD uncore "
		     "driver)");
		return 0;
	}
	if ((err = mask_cpus(&p, cpus, C2C_UNCORE_MAX, &n)))
		return c2c_err(err, "amd_l3: cannot read its cpumask");
	for (size_t i = 0; i < n; i++)
		if ((err = add(u, &p, "event=0x04,umask=0xff", C2C_UNCORE_L3, 0, (uint32_t)i, cpus[i],
			       0)) ||
		    (err = add(u, &p, "event=0x04,umask=0x01", C2C_UNCORE_L3, 1, (uint32_t)i, cpus[i],
			       0)))
			return c2c_err(err, "amd_l3: its format does not place event/umask");
	return 0;
}

static int plan_df(struct uncore *u, const struct cpuinfo *ci)
{
	static const char *const links[] = { "event=0x7c7,umask=0x02", "event=0x807,umask=0x02",
					     "event=0x847,umask=0x02", "event=0x887,umask=0x02" };
	int cpus[C2C_UNCORE_MAX], err;
	char terms[64];
	size_t n;
	struct pmu p;

	if (pmu_open(&p, "amd_df")) {
		note(u, "%s", "no amd_df PMU: no DRAM or remote-link bytes");
		return 0;
	}
	if (ci->family != 0x17) {
		note(u, "%s", "amd_df: DRAM and remote-link bytes use family 17h's DF events (seed "
		     "004); Zen 3 and later name other events, not counted here");
		return 0;
	}
	if ((err = mask_cpus(&p, cpus, C2C_UNCORE_MAX, &n)))
		return c2c_err(err, "amd_df: cannot read its cpumask");
	for (size_t i = 0; i < n; i++) {
		for (unsigned ch = 0; ch < 8; ch++) {
			snprintf(terms, sizeof(terms), "event=0x%x,umask=0x38", 0x07 + 0x40 * ch);
			if ((err = add(u, &p, terms, C2C_UNCORE_DRAM, 0, (uint32_t)(i * 8 + ch), cpus[i],
				       64)))
				return c2c_err(err, "amd_df: its format does not place event/umask");
		}
		for (unsigned l = 0; l < 4; l++)
			if ((err = add(u, &p, links[l], C2C_UNCORE_LINK, 0, (uint32_t)(i * 4 + l),
				       cpus[i], 32)))
				return c2c_err(err, "amd_df: its format does not place event/umask");
	}
	return 0;
}

int uncore_plan(struct uncore *u)
{
	struct cpuinfo ci;
	int err;

	memset(u, 0, sizeof(*u));
	if (cpuinfo_read(&ci) || ci.vendor != CPU_VENDOR_AMD)
		return 0;
	if ((err = plan_l3(u)) || (err = plan_df(u, &ci)))
		uncore_release(u);
	return err;
}

int uncore_open(struct uncore *u)
{
	int first = 0, opened = 0;
	size_t failed = 0;

	for (size_t i = 0; i < u->nr; i++) {
		struct uncore_ev *e = &u->ev[i];

		e->fd = sys_perf_event_open(&e->attr, -1, (int)e->cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (e->fd >= 0) {
			opened = 1;
			continue;
		}
		first = first ? first : -errno;
		failed++;
	}
	if (failed) {
		char why[160];

		snprintf(why, sizeof(why), "%zu of %zu uncore counters did not open: %s%s", failed,
			 u->nr, strerror(-first), first == -EACCES || first == -EPERM ?
			 " (CPU-wide counting needs root or perf_event_paranoid <= 0)" : "");
		note(u, "%s", why);
	}
	return opened || !u->nr ? 0 : first;
}

static uint64_t count(const struct uncore_ev *e)
{
	uint64_t v;

	if (e->fd < 0 || read(e->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return C2C_UNCORE_NONE;
	return v;
}

void uncore_read(const struct uncore *u, double seconds, struct c2c_uncore *out)
{
	memset(out, 0, sizeof(*out));
	out->seconds = seconds;
	for (size_t i = 0; i < u->nr && out->nr < sizeof(out->row) / sizeof(out->row[0]); i++) {
		const struct uncore_ev *e = &u->ev[i];
		struct c2c_uncore_row *r = &out->row[out->nr];
		uint64_t v = count(e);

		if (e->kind == C2C_UNCORE_L3 && e->second) {
			/* the misses of the row its lookups started */
			if (out->nr && out->row[out->nr - 1].kind == C2C_UNCORE_L3 &&
			    out->row[out->nr - 1].unit == e->unit)
				out->row[out->nr - 1].b = v;
			continue;
		}
		r->kind = e->kind;
		r->unit = e->unit;
		r->cpu = e->cpu;
		r->a = v;
		r->b = e->kind == C2C_UNCORE_L3 ? C2C_UNCORE_NONE :
		       v == C2C_UNCORE_NONE ? C2C_UNCORE_NONE : v * e->bytes_per;
		out->nr++;
	}
	for (size_t i = 0; i < u->nr_notes; i++)
		snprintf(out->note[out->nr_notes++], sizeof(out->note[0]), "%s", u->note[i]);
}

void uncore_release(struct uncore *u)
{
	for (size_t i = 0; i < u->nr; i++)
		if (u->ev[i].fd >= 0)
			close(u->ev[i].fd);
	free(u->ev);
	u->ev = NULL;
	u->nr = u->cap = 0;
}
