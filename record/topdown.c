/* TopDown members of the sampling group (see topdown.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/pmu.h"
#include "record/sysfs.h"
#include "record/topdown.h"

int topdown_core_pmu(struct pmu *pmu, enum cpu_vendor v)
{
	if (v == CPU_VENDOR_ARM)
		return pmu_open_prefix(pmu, "armv8_") && pmu_open_prefix(pmu, "armv9_") ? -ENOENT : 0;
	if (v == CPU_VENDOR_INTEL && !pmu_open(pmu, "cpu_core"))
		return 0;
	return pmu_open(pmu, "cpu");
}

/* An alias's .scale file as a whole number of slots (the kernel writes "4" or "2"); 0 when absent
 * or not a small whole number. */
static uint32_t alias_scale(const struct pmu *p, const char *name)
{
	char buf[32], *end;
	unsigned long v;

	if (pmu_alias(p, name, buf, sizeof(buf)))
		return 0;
	v = strtoul(buf, &end, 10);
	return end != buf && (!*end || *end == '\n') && v && v <= 16 ? (uint32_t)v : 0;
}

void topdown_cpu_of(struct td_cpu *t, const struct cpuinfo *ci, const struct pmu *pmu, int have)
{
	memset(t, 0, sizeof(*t));
	t->vendor = ci->vendor == CPU_VENDOR_INTEL ? TD_VENDOR_INTEL :
		    ci->vendor == CPU_VENDOR_AMD ? TD_VENDOR_AMD :
		    ci->vendor == CPU_VENDOR_ARM ? TD_VENDOR_ARM : TD_VENDOR_OTHER;
	t->family = ci->family;
	t->model = ci->model;
	t->arm_implementer = ci->arm_implementer;
	t->arm_part = ci->arm_part;
	t->arm_variant = ci->arm_variant;
	t->arm_revision = ci->arm_revision;
	if (!have)
		return;
	t->intel_slots = pmu_has_alias(pmu, "slots");
	t->intel_metrics = pmu_has_alias(pmu, "topdown-retiring");
	t->intel_level2 = pmu_has_alias(pmu, "topdown-mem-bound");
	t->intel_slots4 = pmu_has_alias(pmu, "topdown-total-slots") &&
			  pmu_has_alias(pmu, "topdown-slots-issued") &&
			  pmu_has_alias(pmu, "topdown-slots-retired") &&
			  pmu_has_alias(pmu, "topdown-fetch-bubbles") &&
			  pmu_has_alias(pmu, "topdown-recovery-bubbles");
	t->intel_slots_scale = alias_scale(pmu, "topdown-total-slots.scale");
	t->intel_recovery_scale = alias_scale(pmu, "topdown-recovery-bubbles.scale");
	t->arm_caps_slots = (uint32_t)pmu_cap_u64(pmu, "slots", 0);
}

static const char *const intel_metrics[] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

static void unavailable(struct ev_list *l, const char *fmt, const char *arg)
{
	snprintf(l->td_reason, sizeof(l->td_reason), fmt, arg);
	l->td_enabled = 0;
}

/* The PEBS load sampler of the P-core PMU, or -1. */
static int find_load_sampler(const struct ev_list *l, struct pmu *p)
{
	for (size_t i = 0; i < l->nr; i++) {
		const struct ev_desc *e = &l->ev[i];

		if (e->role != EV_ROLE_SAMPLER || e->backend != TRACE_BACKEND_PEBS ||
		    !strstr(e->name, "/mem-loads"))
			continue;
		if ((!pmu_open(p, "cpu_core") && p->type == e->attr.type) ||
		    (!pmu_open(p, "cpu") && p->type == e->attr.type))
			return (int)i;
	}
	return -1;
}

static void counting_member(struct ev_desc *e, const struct ev_desc *s, enum ev_role role)
{
	e->role = role;
	e->backend = s->backend;
	e->attr.sample_type = s->attr.sample_type;
	e->attr.read_format = s->attr.read_format;
	e->attr.inherit = s->attr.inherit;
	e->attr.exclude_kernel = s->attr.exclude_kernel;
	e->attr.exclude_user = s->attr.exclude_user;
	e->attr.exclude_guest = s->attr.exclude_guest;
	e->attr.sample_id_all = 1;
	e->has_cpus = s->has_cpus;
	memcpy(e->cpus, s->cpus, sizeof(e->cpus));
}

static int td_event(const struct pmu *p, const char *alias, const struct ev_desc *s,
		    enum ev_role role, struct ev_desc *out)
{
	struct pmu_config cfg = { 0 };
	int err = pmu_apply_terms(p, alias, &cfg, NULL);

	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	out->attr.size = sizeof(out->attr);
	out->attr.type = p->type;
	out->attr.config = cfg.config;
	out->td_index = -1;
	snprintf(out->name, sizeof(out->name), "%s/%s/", p->name, alias);
	counting_member(out, s, role);
	return 0;
}

/* Rebuild the list with slots in front of the sampler's group and the metrics after it. */
static int intel_group(struct ev_list *l, const struct pmu *p, int si)
{
	struct ev_desc *old = l->ev, slots, *nv;
	int lead = old[si].leader, err = td_event(p, "slots", &old[si], EV_ROLE_TD_SLOTS, &slots);
	size_t cap = 0;

	if (err)
		return err;
	slots.attr.disabled = 1;
	slots.attr.enable_on_exec = old[lead].attr.enable_on_exec;
	slots.leader = lead;
	nv = xgrow(NULL, &cap, l->nr + 10, sizeof(*nv));
	for (int i = 0, n = 0; i < (int)l->nr; i++, n++) {
		if (i == lead)
			nv[n++] = slots;
		nv[n] = old[i];
		if (i == lead || old[i].leader == lead) {
			nv[n].leader = lead;
			nv[n].attr.disabled = 0;
			nv[n].attr.enable_on_exec = 0;
			nv[n].attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
		} else {
			nv[n].leader = old[i].leader < lead ? old[i].leader : old[i].leader + 1;
		}
		if (i == si)
			nv[n].attr.sample_type |= PERF_SAMPLE_READ;
	}
	l->ev = nv;
	l->nr++;
	l->cap = cap;
	free(old);
	return 0;
}

static void add_metrics(struct ev_list *l, const struct pmu *p, int slots_idx, int si)
{
	l->td_nr = 0;
	l->ev[slots_idx].td_index = -2;
	l->ev[slots_idx].attr.sample_type = l->ev[si].attr.sample_type;
	l->ev[slots_idx].attr.read_format = l->ev[si].attr.read_format;
	for (size_t m = 0; m < sizeof(intel_metrics) / sizeof(intel_metrics[0]); m++) {
		struct ev_desc e;

		if (!pmu_has_alias(p, intel_metrics[m]) ||
		    td_event(p, intel_metrics[m], &l->ev[si], EV_ROLE_TD_METRIC, &e))
			continue;
		e.leader = slots_idx;
		e.td_index = (int)l->td_nr;
		e.attr.sample_type = l->ev[si].attr.sample_type;
		snprintf(l->td_names[l->td_nr], sizeof(l->td_names[0]), "%s", intel_metrics[m] + 8);
		l->td_nr++;
		l->ev = xgrow(l->ev, &l->cap, l->nr + 1, sizeof(*l->ev));
		l->ev[l->nr++] = e;
	}
}

static int intel_topdown(struct ev_list *l)
{
	struct pmu p;
	int si = find_load_sampler(l, &p), slots_idx;

	if (si < 0) {
		unavailable(l, "%s", "no Intel load-latency sampler to attach TopDown to");
		return 0;
	}
	if (!pmu_has_alias(&p, "slots") || !pmu_has_alias(&p, "topdown-retiring")) {
		unavailable(l, "%s: the core PMU has no 'slots'/'topdown-*' events (PERF_METRICS "
			    "arrived with Ice Lake); the older 5-counter TopDown does not fit beside "
			    "the PEBS load event in one group", p.name);
		return 0;
	}
	slots_idx = l->ev[si].leader;
	{
		int err = intel_group(l, &p, si);

		if (err)
			return err;
	}
	/* after the rebuild the sampler moved one place down */
	si++;
	add_metrics(l, &p, slots_idx, si);
	l->td_enabled = 1;
	return 0;
}

static void sync_ids(struct ev_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		struct ev_desc *e = &l->ev[i];

		if (!e->st_saved)
			e->st_before_td = e->attr.sample_type;
		e->st_saved = 1;
		e->attr.sample_type = (e->attr.sample_type & ~(uint64_t)PERF_SAMPLE_ID) |
				      PERF_SAMPLE_IDENTIFIER;
	}
}

/* --- a group of its own beside IBS and SPE ------------------------------------------------------ */

/* The sample_id part of the sampler's sample_type that a reading keeps (the same trailer). */
#define READER_ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static int first_sampler(const struct ev_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->ev[i].role == EV_ROLE_SAMPLER)
			return (int)i;
	return -1;
}

/* The core PMU's CPUs (a heterogeneous Arm machine has one PMU per core type). */
static void core_cpus(const struct pmu *p, struct ev_desc *e)
{
	char path[160], list[256] = "";

	snprintf(path, sizeof(path), PMU_DEVICES "/%s/cpus", p->name);
	e->has_cpus = 0;
	memset(e->cpus, 0, sizeof(e->cpus));
	if (!sysfs_read_line(path, list, sizeof(list)) && list[0] &&
	    sysfs_parse_cpulist(list, e->cpus, EV_CPUS_MAX) > 0)
		e->has_cpus = 1;
}

static int reader_member(struct ev_list *l, const struct events_opts *o, const struct pmu *p,
			 const struct td_event *te, int si, int lead, char *why, size_t len)
{
	struct ev_desc e;
	const struct ev_desc *s = &l->ev[si];

	if (td_event(p, te->terms, s, lead == (int)l->nr ? EV_ROLE_TD_READER : EV_ROLE_TD_METRIC,
		     &e)) {
		snprintf(why, len, "the core PMU %s has no '%s' (%s)", p->name, te->terms, te->name);
		return -ENOENT;
	}
	snprintf(e.name, sizeof(e.name), "%s/%s/", p->name, te->name);
	e.attr.sample_type = (s->attr.sample_type & READER_ST) | PERF_SAMPLE_READ;
	e.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	e.leader = lead;
	/* per CPU (-a) inherit means nothing, and kernels before 6.12 refuse it beside
	 * PERF_SAMPLE_READ; per thread the group follows the children as the sampler does */
	e.attr.inherit = s->attr.inherit && !o->system_wide;
	core_cpus(p, &e);
	if (e.role == EV_ROLE_TD_READER) {
		e.attr.sample_period = TOPDOWN_READ_PERIOD;
		e.attr.disabled = l->ev[s->leader].attr.disabled;
		e.attr.enable_on_exec = l->ev[s->leader].attr.enable_on_exec;
	} else {
		e.td_index = (int)(l->nr - (size_t)lead - 1);
	}
	l->ev = xgrow(l->ev, &l->cap, l->nr + 1, sizeof(*l->ev));
	l->ev[l->nr++] = e;
	return 0;
}

/* Open the model's level-1 counters as their own group beside the IBS/SPE sampler. */
static int reader_group(struct ev_list *l, const struct events_opts *o)
{
	struct td_event ev[16];
	struct td_model m;
	struct td_cpu tc;
	struct pmu p;
	char cmask[64], why[200];
	int have = !topdown_core_pmu(&p, l->cpu.vendor), si = first_sampler(l), lead = (int)l->nr;
	size_t n;

	topdown_cpu_of(&tc, &l->cpu, &p, have);
	if (td_model_select(&m, &tc, why, sizeof(why))) {
		snprintf(l->td_reason, sizeof(l->td_reason), "%s", why);
		l->td_enabled = 0;
		return 0;
	}
	if (!have || si < 0) {
		snprintf(l->td_reason, sizeof(l->td_reason), "%s: %s", m.cpu, si < 0 ? "no sampler "
			 "to count TopDown beside" : "no core PMU in sysfs to count TopDown with");
		l->td_enabled = 0;
		return 0;
	}
	m.level2 = 0;       /* the level-1 counters fit the core PMU's counters as one group */
	n = td_model_events(&m, ev, 16, cmask, sizeof(cmask));
	memset(&l->td_rd, 0, sizeof(l->td_rd));
	for (size_t i = 0; i < n; i++) {
		/* Zen 4 has 6 counters and the NMI watchdog may hold one: the five that level 1
		 * needs fit beside it, SMT contention is left out */
		if (ev[i].in == TDI_AMD_SMT)
			continue;
		if (reader_member(l, o, &p, &ev[i], si, lead, why, sizeof(why))) {
			l->nr = (size_t)lead;
			snprintf(l->td_reason, sizeof(l->td_reason), "%s: %s", m.cpu, why);
			l->td_enabled = 0;
			return 0;
		}
		if ((int)l->nr - 1 == lead) {
			l->td_rd.lead = ev[i].in;
		} else {
			l->td_rd.in[l->td_rd.nr] = ev[i].in;
			snprintf(l->td_names[l->td_rd.nr], sizeof(l->td_names[0]), "%s",
				 td_in_name(ev[i].in));
			l->td_rd.nr++;
		}
	}
	for (uint32_t i = l->td_rd.nr; i < TRACE_TD_MAX; i++)
		l->td_rd.in[i] = -1;
	l->td_rd.model = m;
	l->td_rd.scope_cpu = o->system_wide;
	l->td_rd.period = TOPDOWN_READ_PERIOD;
	l->td_nr = l->td_rd.nr;
	l->td_enabled = 1;
	l->td_reader = 1;
	return 0;
}

int topdown_add(struct ev_list *l, const struct events_opts *o)
{
	int err;

	l->td_nr = 0;
	l->td_reader = 0;
	switch (l->backend) {
	case TRACE_BACKEND_PEBS:
		err = intel_topdown(l);
		if (!err && l->td_enabled)
			sync_ids(l);
		return err;
	case TRACE_BACKEND_IBS:
	case TRACE_BACKEND_SPE:
		err = reader_group(l, o);
		if (!err && l->td_enabled)
			sync_ids(l);
		return err;
	case TRACE_BACKEND_POWER:
		unavailable(l, "%s", "POWER: no TopDown slot events in the core PMU's sysfs aliases");
		return 0;
	default:
		unavailable(l, "%s", "software events sample no pipeline slots; TopDown needs "
			    "Intel PERF_METRICS (no hardware PMU is visible here)");
		return 0;
	}
}

void topdown_remove(struct ev_list *l, const char *why)
{
	int *map = xcalloc(l->nr + 1, sizeof(*map)), n = 0;

	for (size_t i = 0; i < l->nr; i++) {
		struct ev_desc *e = &l->ev[i];
		int td = e->role == EV_ROLE_TD_SLOTS || e->role == EV_ROLE_TD_METRIC ||
			 e->role == EV_ROLE_TD_READER;

		map[i] = td ? -1 : n;
		if (td)
			continue;
		if (map[e->leader] < 0) {
			/* its leader was slots: the first survivor of the group leads it now */
			int was = e->leader;

			e->attr.enable_on_exec = l->ev[was].attr.enable_on_exec;
			e->attr.disabled = 1;
			map[was] = n;
			l->ev[was].role = EV_ROLE_TD_METRIC;   /* keep it removed */
		} else if (e->leader != (int)i) {
			e->attr.disabled = 0;
		}
		e->leader = map[e->leader];
		if (e->st_saved)
			e->attr.sample_type = e->st_before_td;
		e->st_saved = 0;
		e->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		e->td_index = -1;
		l->ev[n++] = *e;
	}
	free(map);
	l->nr = (size_t)n;
	l->td_nr = 0;
	l->td_enabled = 0;
	l->td_reader = 0;
	snprintf(l->td_reason, sizeof(l->td_reason), "%s", why);
}
