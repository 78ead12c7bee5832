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

/* A counter of @p on @cpu, the @part of row u->nr_rows - 1 (start a row with new_row()). */
static int add(struct uncore *u, const struct pmu *p, const char *terms, enum c2c_uncore_kind kind,
	       enum uncore_part part, uint32_t unit, int cpu, uint32_t bytes_per)
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
	e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->kind = kind;
	e->part = part;
	e->row = u->nr_rows - 1;
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
	for (size_t i = 0; i < n; i++) {
		u->nr_rows++;
		if ((err = add(u, &p, "event=0x04,umask=0xff", C2C_UNCORE_L3, UNCORE_L3_LOOKUPS,
			       (uint32_t)i, cpus[i], 0)) ||
		    (err = add(u, &p, "event=0x04,umask=0x01", C2C_UNCORE_L3, UNCORE_L3_MISSES,
			       (uint32_t)i, cpus[i], 0)))
			return c2c_err(err, "amd_l3: its format does not place event/umask");
	}
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
			u->nr_rows++;
			if ((err = add(u, &p, terms, C2C_UNCORE_DRAM, UNCORE_TOTAL,
				       (uint32_t)(i * 8 + ch), cpus[i], 64)))
				return c2c_err(err, "amd_df: its format does not place event/umask");
		}
		for (unsigned l = 0; l < 4; l++) {
			u->nr_rows++;
			if ((err = add(u, &p, links[l], C2C_UNCORE_LINK, UNCORE_OUT,
				       (uint32_t)(i * 4 + l), cpus[i], 32)))
				return c2c_err(err, "amd_df: its format does not place event/umask");
		}
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

/* Multiplexing seen while reading: how many counters ran part of the time, the least share. */
struct mux {
	size_t scaled;
	double least;
};

/* The counter's count scaled to its time enabled, or C2C_UNCORE_NONE (not opened, never ran). */
static uint64_t count(const struct uncore_ev *e, struct mux *m)
{
	uint64_t v[3];      /* value, time enabled, time running (read_format) */
	double share;

	if (e->fd < 0 || read(e->fd, v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2] || !v[1])
		return C2C_UNCORE_NONE;
	if (v[2] >= v[1])
		return v[0];
	share = (double)v[2] / (double)v[1];
	m->scaled++;
	m->least = m->scaled == 1 || share < m->least ? share : m->least;
	return (uint64_t)((unsigned __int128)v[0] * v[1] / v[2]);
}

/* Add @v beats to @sum; once a part is not counted it stays so. */
static void add_beats(uint64_t *sum, uint64_t v)
{
	*sum = *sum == C2C_UNCORE_NONE || v == C2C_UNCORE_NONE ? C2C_UNCORE_NONE : *sum + v;
}

static uint64_t bytes(uint64_t beats, uint32_t per)
{
	return beats == C2C_UNCORE_NONE ? C2C_UNCORE_NONE : beats * per;
}

/* A row of the summary from the counters ev[first..end) that make it. */
static void fill_row(const struct uncore_ev *ev, size_t first, size_t end, struct mux *m,
		     struct c2c_uncore_row *r)
{
	uint64_t beats = 0, in = C2C_UNCORE_NONE, out = C2C_UNCORE_NONE;
	int has_in = 0, has_out = 0;

	r->kind = ev[first].kind;
	r->unit = ev[first].unit;
	r->cpu = ev[first].cpu;
	r->a = r->b = r->in = r->out = C2C_UNCORE_NONE;
	for (size_t i = first; i < end; i++) {
		uint64_t v = count(&ev[i], m);

		switch (ev[i].part) {
		case UNCORE_L3_LOOKUPS: r->a = v; continue;
		case UNCORE_L3_MISSES: r->b = v; continue;
		case UNCORE_IN:
			if (!has_in++)
				in = 0;
			add_beats(&in, v);
			break;
		case UNCORE_OUT:
			if (!has_out++)
				out = 0;
			add_beats(&out, v);
			break;
		case UNCORE_TOTAL:
			break;
		}
		add_beats(&beats, v);
	}
	if (r->kind == C2C_UNCORE_L3)
		return;
	r->a = beats;
	r->b = bytes(beats, ev[first].bytes_per);
	r->in = has_in ? bytes(in, ev[first].bytes_per) : C2C_UNCORE_NONE;
	r->out = has_out ? bytes(out, ev[first].bytes_per) : C2C_UNCORE_NONE;
}

static void note_mux(struct c2c_uncore *out, const struct mux *m, size_t nr)
{
	if (!m->scaled || out->nr_notes >= C2C_UNCORE_NOTES)
		return;
	snprintf(out->note[out->nr_notes++], sizeof(out->note[0]), "%zu of %zu uncore counters "
		 "shared the PMU's counters (one ran %.0f%% of the run): their counts are scaled "
		 "by time enabled / running, estimates", m->scaled, nr, 100.0 * m->least);
}

void uncore_read(const struct uncore *u, double seconds, struct c2c_uncore *out)
{
	struct mux m = { 0 };
	size_t first = 0;

	memset(out, 0, sizeof(*out));
	out->seconds = seconds;
	for (size_t i = 1; i <= u->nr; i++) {
		if (i < u->nr && u->ev[i].row == u->ev[first].row)
			continue;
		if (out->nr < sizeof(out->row) / sizeof(out->row[0]))
			fill_row(u->ev, first, i, &m, &out->row[out->nr++]);
		first = i;
	}
	for (size_t i = 0; i < u->nr_notes; i++)
		snprintf(out->note[out->nr_notes++], sizeof(out->note[0]), "%s", u->note[i]);
	note_mux(out, &m, u->nr);
}

void uncore_release(struct uncore *u)
{
	for (size_t i = 0; i < u->nr; i++)
		if (u->ev[i].fd >= 0)
			close(u->ev[i].fd);
	free(u->ev);
	u->ev = NULL;
	u->nr = u->cap = 0;
	u->nr_rows = 0;
}
