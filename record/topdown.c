/* TopDown members of the sampling group (see topdown.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/pmu.h"
#include "record/topdown.h"

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
	for (size_t i = 0; i < l->nr; i++)
		l->ev[i].attr.sample_type = (l->ev[i].attr.sample_type & ~(uint64_t)PERF_SAMPLE_ID) |
					    PERF_SAMPLE_IDENTIFIER;
}

int topdown_add(struct ev_list *l, const struct events_opts *o)
{
	int err;

	(void)o;
	l->td_nr = 0;
	switch (l->backend) {
	case TRACE_BACKEND_PEBS:
		err = intel_topdown(l);
		if (!err && l->td_enabled)
			sync_ids(l);
		return err;
	case TRACE_BACKEND_IBS:
		unavailable(l, "%s", "AMD: the PipelineL1 counters live on the core PMU and the "
			    "kernel does not let an ibs_op sampler share a group with them");
		return 0;
	case TRACE_BACKEND_SPE:
		unavailable(l, "%s", "Arm: the STALL_SLOT* counters live on the core PMU and an "
			    "SPE sampler cannot share a group with them");
		return 0;
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
		int td = e->role == EV_ROLE_TD_SLOTS || e->role == EV_ROLE_TD_METRIC;

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
		e->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		e->td_index = -1;
		l->ev[n++] = *e;
	}
	free(map);
	l->nr = (size_t)n;
	l->td_nr = 0;
	l->td_enabled = 0;
	snprintf(l->td_reason, sizeof(l->td_reason), "%s", why);
}
