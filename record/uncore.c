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

/* The Data Fabric events of a generation: channel c's DRAM counters are event dram_event +
 * 0x40 c with each umask of dram[], link l's are link_event + 0x40 l with each of link[] (a
 * umask of 0 ends a list). A count is one data beat of dram_bytes or link_bytes. */
struct df_part {
	enum uncore_part part;
	unsigned umask;
};

struct df_gen {
	const char *name, *source;
	unsigned channels, dram_event, dram_bytes;
	struct df_part dram[5];
	unsigned links, link_event, link_bytes;
	const char *link_name;
	struct df_part link[3];
};

static const struct df_gen df_f17 = {
	"family 17h", "seed 004, AMD's PPR for family 17h",
	8, 0x07, 64, { { UNCORE_TOTAL, 0x38 } },            /* requests with data (64B) */
	4, 0x7c7, 32, "remote link", { { UNCORE_OUT, 0x02 } },   /* outbound data (32B) */
};
/* perf's amdzen3/data-fabric.json: the family 17h encodings (dram_channel_data_controller_N,
 * remote_outbound_data_controller_N) */
static const struct df_gen df_zen3 = {
	"Zen 3", "perf's amdzen3 data-fabric.json",
	8, 0x07, 64, { { UNCORE_TOTAL, 0x38 } },
	4, 0x7c7, 32, "remote link", { { UNCORE_OUT, 0x02 } },
};
/* perf's amdzen4/data-fabric.json: {local,remote}_processor_{read,write}_data_beats_csN at the
 * Coherent Station of each DRAM channel (its dram_*_data_for_*_processor metrics sum them), and
 * local_socket_outbound_data_beats_linkN of the xGMI links; 12-bit umasks */
static const struct df_gen df_zen4 = {
	"Zen 4", "perf's amdzen4 data-fabric.json",
	12, 0x1f, 64, { { UNCORE_IN, 0x7fe }, { UNCORE_IN, 0xbfe }, { UNCORE_OUT, 0x7ff },
			{ UNCORE_OUT, 0xbff } },
	8, 0xb5f, 64, "xGMI link", { { UNCORE_OUT, 0xf3e } },
};
/* perf's amdzen5/data-fabric.json: local_or_remote_socket_{read,write}_data_beats_dram_N and
 * local_socket_{inbound,outbound}_data_beats_link_N of the cross-socket links */
static const struct df_gen df_zen5 = {
	"Zen 5", "perf's amdzen5 data-fabric.json",
	12, 0x1f, 64, { { UNCORE_IN, 0xffe }, { UNCORE_OUT, 0xfff } },
	6, 0xd5f, 64, "xGMI link", { { UNCORE_IN, 0xf3f }, { UNCORE_OUT, 0xf3e } },
};

/* Family 19h is Zen 3 at models 0x00-0x0f and 0x20-0x5f and Zen 4 elsewhere (perf's x86
 * mapfile.csv, amdzen3 and amdzen4); family 1Ah is Zen 5. */
static const struct df_gen *df_gen_of(const struct cpuinfo *ci)
{
	if (ci->family == 0x17)
		return &df_f17;
	if (ci->family == 0x19)
		return ci->model <= 0x0f || (ci->model >= 0x20 && ci->model <= 0x5f) ? &df_zen3 :
		       &df_zen4;
	if (ci->family == 0x1a)
		return &df_zen5;
	return NULL;
}

/* Whether amd_df's format places the generation's largest event and umask: a kernel without the
 * PerfMonV2 DF format (event config:0-7,32-37, umask config:8-15,24-27) has 8-bit umasks. */
static int df_fits(const struct pmu *p, const struct df_gen *g, char *why, size_t len)
{
	unsigned umask = 0, event = g->dram_event + 0x40 * (g->channels - 1);
	char ev[32], um[32];
	struct pmu_config cfg = { 0 };

	if (g->link_event + 0x40 * (g->links - 1) > event)
		event = g->link_event + 0x40 * (g->links - 1);
	for (const struct df_part *d = g->dram; d->umask; d++)
		umask = d->umask > umask ? d->umask : umask;
	for (const struct df_part *d = g->link; d->umask; d++)
		umask = d->umask > umask ? d->umask : umask;
	if (pmu_format(p, "event", ev, sizeof(ev)) || pmu_format(p, "umask", um, sizeof(um))) {
		snprintf(why, len, "amd_df has no event/umask format: no DRAM or link bytes");
		return 0;
	}
	if (pmu_format_place(ev, event, &cfg) || pmu_format_place(um, umask, &cfg)) {
		snprintf(why, len, "amd_df: this kernel's format (event %s, umask %s) cannot place "
			 "%s's DF umask 0x%x: a kernel with the PerfMonV2 DF format counts them", ev,
			 um, g->name, umask);
		return 0;
	}
	return 1;
}

/* One row per DRAM channel and link of DF instance @i (on @cpu), each of its counters a part. */
static int plan_df_instance(struct uncore *u, const struct pmu *p, const struct df_gen *g,
			    size_t i, int cpu)
{
	char terms[64];
	int err = 0;

	for (unsigned ch = 0; ch < g->channels && !err; ch++) {
		u->nr_rows++;
		for (const struct df_part *d = g->dram; d->umask && !err; d++) {
			snprintf(terms, sizeof(terms), "event=0x%x,umask=0x%x", g->dram_event +
				 0x40 * ch, d->umask);
			err = add(u, p, terms, C2C_UNCORE_DRAM, d->part,
				  (uint32_t)(i * g->channels + ch), cpu, g->dram_bytes);
		}
	}
	for (unsigned l = 0; l < g->links && !err; l++) {
		u->nr_rows++;
		for (const struct df_part *d = g->link; d->umask && !err; d++) {
			snprintf(terms, sizeof(terms), "event=0x%x,umask=0x%x", g->link_event +
				 0x40 * l, d->umask);
			err = add(u, p, terms, C2C_UNCORE_LINK, d->part, (uint32_t)(i * g->links + l),
				  cpu, g->link_bytes);
		}
	}
	return err;
}

static int plan_df(struct uncore *u, const struct cpuinfo *ci)
{
	const struct df_gen *g = df_gen_of(ci);
	int cpus[C2C_UNCORE_MAX], err;
	char why[200];
	size_t n;
	struct pmu p;

	if (pmu_open(&p, "amd_df")) {
		note(u, "%s", "no amd_df PMU: no DRAM or remote-link bytes");
		return 0;
	}
	if (!g) {
		snprintf(why, sizeof(why), "amd_df: family 0x%x has no Data Fabric events known here "
			 "(family 17h, Zen 3, Zen 4 and Zen 5 have)", ci->family);
		note(u, "%s", why);
		return 0;
	}
	if (!df_fits(&p, g, why, sizeof(why))) {
		note(u, "%s", why);
		return 0;
	}
	if ((err = mask_cpus(&p, cpus, C2C_UNCORE_MAX, &n)))
		return c2c_err(err, "amd_df: cannot read its cpumask");
	for (size_t i = 0; i < n; i++)
		if ((err = plan_df_instance(u, &p, g, i, cpus[i])))
			return c2c_err(err, "amd_df: its format does not place event/umask");
	snprintf(u->df, sizeof(u->df), "%s: %u DRAM channels%s, %u %ss%s; %s", g->name,
		 g->channels, g->dram[0].part == UNCORE_TOTAL ? "" : " (read, write)", g->links,
		 g->link_name, g->link[1].umask ? " (in, out)" : " (out)", g->source);
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
