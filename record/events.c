/* Memory-event selection per vendor and perf-style event strings (see events.h).
 * The encodings come from sysfs aliases and format files, never from tables of our own, so a
 * new CPU generation works as soon as its kernel publishes the aliases (pmu-events.md §3.1). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "c2c/unwind.h"
#include "record/events.h"
#include "record/pmu.h"
#include "record/regs-x86.h"
#include "record/sysfs.h"

void events_init(struct ev_list *l)
{
	memset(l, 0, sizeof(*l));
}

void events_release(struct ev_list *l)
{
	if (!l)
		return;
	free(l->ev);
	memset(l, 0, sizeof(*l));
}

static struct ev_desc *ev_push(struct ev_list *l)
{
	struct ev_desc *e;

	l->ev = xgrow(l->ev, &l->cap, l->nr + 1, sizeof(*l->ev));
	e = &l->ev[l->nr];
	memset(e, 0, sizeof(*e));
	e->leader = (int)l->nr;
	e->td_index = -1;
	e->attr.size = sizeof(e->attr);
	l->nr++;
	return e;
}

int events_detect_cpu(struct ev_list *l)
{
	if (l->cpu.vendor != CPU_VENDOR_UNKNOWN || l->cpu.nr_cpus)
		return 0;
	return cpuinfo_read(&l->cpu);
}

static void pmu_cpus(const struct pmu *p, struct ev_desc *e)
{
	char path[256], *text;

	snprintf(path, sizeof(path), PMU_DEVICES "/%s/cpus", p->name);
	if (sysfs_read_all(path, &text, NULL, 1 << 16)) {
		snprintf(path, sizeof(path), PMU_DEVICES "/%s/cpumask", p->name);
		if (sysfs_read_all(path, &text, NULL, 1 << 16))
			return;
	}
	if (sysfs_parse_cpulist(text, e->cpus, EV_CPUS_MAX) > 0)
		e->has_cpus = 1;
	free(text);
}

/* Add an event of PMU @p from @terms; the caller sets role, name and the rest. */
static int add_pmu_event(struct ev_list *l, const struct pmu *p, const char *terms,
			 struct ev_desc **out, struct pmu_term_extra *x)
{
	struct pmu_config cfg = { 0 };
	struct ev_desc *e;
	int err = pmu_apply_terms(p, terms, &cfg, x);

	if (err)
		return err;
	e = ev_push(l);
	e->attr.type = p->type;
	e->attr.config = cfg.config;
	e->attr.config1 = cfg.config1;
	e->attr.config2 = cfg.config2;
	pmu_cpus(p, e);
	*out = e;
	return 0;
}

/* --- Intel --------------------------------------------------------------------------------- */

static int intel_precise(const struct pmu *p)
{
	return (int)pmu_cap_u64(p, "max_precise", 3);
}

static int intel_add_pmu(struct ev_list *l, const struct events_opts *o, const struct pmu *p)
{
	unsigned int ldlat = o->ldlat ? o->ldlat : EV_DEFAULT_LDLAT;
	struct ev_desc *e;
	char terms[64];
	int err, leader = -1;

	if (!o->stores_only && pmu_has_alias(p, "mem-loads")) {
		if (pmu_has_alias(p, "mem-loads-aux")) {
			/* SPR+: the load event must follow the aux event in its group (§3.2). */
			if ((err = add_pmu_event(l, p, "mem-loads-aux", &e, NULL)))
				return err;
			snprintf(e->name, sizeof(e->name), "%s/mem-loads-aux/P", p->name);
			e->role = EV_ROLE_AUX;
			e->precise_max = intel_precise(p);
			leader = (int)(e - l->ev);
		}
		snprintf(terms, sizeof(terms), "mem-loads,ldlat=%u", ldlat);
		if ((err = add_pmu_event(l, p, terms, &e, NULL)))
			return err;
		snprintf(e->name, sizeof(e->name), "%s/mem-loads,ldlat=%u/P", p->name, ldlat);
		e->precise_max = intel_precise(p);
		if (leader >= 0)
			e->leader = leader;
	}
	if (!o->loads_only && pmu_has_alias(p, "mem-stores")) {
		if ((err = add_pmu_event(l, p, "mem-stores", &e, NULL)))
			return err;
		snprintf(e->name, sizeof(e->name), "%s/mem-stores/P", p->name);
		e->precise_max = intel_precise(p);
	}
	return 0;
}

static int intel_add(struct ev_list *l, const struct events_opts *o)
{
	static const char *const names[] = { "cpu_core", "cpu_atom", "cpu" };
	size_t before = l->nr;
	struct pmu p;
	int err;

	if (o->ldlat > 0xffff)
		return c2c_err(-EINVAL, "--ldlat %u does not fit the 16-bit ldlat field", o->ldlat);
	for (size_t i = 0; i < 3; i++) {
		if (pmu_open(&p, names[i]))
			continue;
		if (i == 2 && l->nr > before)
			break;
		if ((err = intel_add_pmu(l, o, &p)))
			return err;
		if (!l->pmu_name[0] || i < 2)
			pmu_cap(&p, "pmu_name", l->pmu_name, sizeof(l->pmu_name));
	}
	if (l->nr == before)
		return c2c_err(-ENOTSUP, "no Intel core PMU with a 'mem-loads' event in sysfs (%s): "
			       "load-latency sampling unavailable", PMU_DEVICES);
	if (!l->pmu_name[0])
		snprintf(l->pmu_name, sizeof(l->pmu_name), "cpu");
	l->backend = TRACE_BACKEND_PEBS;
	return 0;
}

/* --- AMD ------------------------------------------------------------------------------------ */

static int amd_add(struct ev_list *l, const struct events_opts *o)
{
	struct ev_desc *e;
	struct pmu p;
	char terms[64] = "";
	int err;

	if (pmu_open(&p, "ibs_op"))
		return c2c_err(-ENOTSUP, "no 'ibs_op' PMU in sysfs: AMD IBS op sampling unavailable "
			       "(IBS disabled in firmware, or a hypervisor without IBS)");
	if (pmu_cap_u64(&p, "zen4_ibs_extensions", 0) != 1)
		return c2c_err(-ENOTSUP, "AMD family 0x%x model 0x%x: IBS without the Zen 4 "
			       "extensions reports no data source for loads served by other "
			       "cores, so cacheline contention cannot be found (perf c2c does not "
			       "support Zen 3 and older either)", l->cpu.family, l->cpu.model);
	if (pmu_cap_u64(&p, "ldlat", 0) == 1 && o->ldlat) {
		if (o->ldlat < 128 || o->ldlat > 2048)
			return c2c_err(-EINVAL, "--ldlat %u: AMD IBS accepts 128..2048 cycles",
				       o->ldlat);
		snprintf(terms, sizeof(terms), "ldlat=%u", o->ldlat);
	} else if (o->ldlat) {
		c2c_warn("--ldlat ignored: this IBS PMU has no load-latency filter (caps/ldlat)");
	}
	if ((err = add_pmu_event(l, &p, terms, &e, NULL)))
		return err;
	snprintf(e->name, sizeof(e->name), "ibs_op/%s/", terms);
	snprintf(l->pmu_name, sizeof(l->pmu_name), "ibs_op");
	l->backend = TRACE_BACKEND_IBS;
	return 0;
}

/* --- POWER ---------------------------------------------------------------------------------- */

static int power_add(struct ev_list *l, const struct events_opts *o)
{
	struct ev_desc *e;
	struct pmu p;
	int err;

	if (pmu_open(&p, "cpu") || !pmu_has_alias(&p, "mem-loads"))
		return c2c_err(-ENOTSUP, "no 'cpu/mem-loads' event in sysfs: POWER marked-load "
			       "sampling unavailable");
	if (o->ldlat)
		c2c_warn("--ldlat ignored: POWER mem-loads have a fixed threshold");
	if (!o->stores_only) {
		if ((err = add_pmu_event(l, &p, "mem-loads", &e, NULL)))
			return err;
		snprintf(e->name, sizeof(e->name), "cpu/mem-loads/");
	}
	if (!o->loads_only && pmu_has_alias(&p, "mem-stores")) {
		if ((err = add_pmu_event(l, &p, "mem-stores", &e, NULL)))
			return err;
		snprintf(e->name, sizeof(e->name), "cpu/mem-stores/");
	}
	pmu_cap(&p, "pmu_name", l->pmu_name, sizeof(l->pmu_name));
	if (!l->pmu_name[0])
		snprintf(l->pmu_name, sizeof(l->pmu_name), "cpu");
	l->backend = TRACE_BACKEND_POWER;
	return 0;
}

/* --- Arm SPE -------------------------------------------------------------------------------- */

static int arm_add(struct ev_list *l, const struct events_opts *o)
{
	unsigned int ldlat = o->ldlat ? o->ldlat : EV_DEFAULT_LDLAT;
	struct ev_desc *e;
	struct pmu p;
	char terms[160];
	int err;

	if (pmu_open_prefix(&p, "arm_spe_"))
		return c2c_err(-ENOTSUP, "no 'arm_spe_*' PMU in sysfs: Arm SPE unavailable (kernel "
			       "without CONFIG_ARM_SPE_PMU, or SPE not exposed by firmware)");
	if (ldlat > 0xfff)
		return c2c_err(-EINVAL, "--ldlat %u does not fit SPE's 12-bit min_latency", ldlat);
	snprintf(terms, sizeof(terms), "ts_enable=1,pa_enable=1,load_filter=%d,store_filter=%d%s",
		 !o->stores_only, !o->loads_only, o->stores_only ? "" : ",min_latency=");
	if (!o->stores_only)
		snprintf(terms + strlen(terms), sizeof(terms) - strlen(terms), "%u", ldlat);
	if ((err = add_pmu_event(l, &p, terms, &e, NULL)))
		return err;
	snprintf(e->name, sizeof(e->name), "%.40s/%.100s/", p.name, terms);
	e->ts_given = 1;
	snprintf(l->pmu_name, sizeof(l->pmu_name), "%s", p.name);
	l->backend = TRACE_BACKEND_SPE;
	return 0;
}

/* Any core or sampling PMU at all? A VM without a virtual PMU has only software ones. */
static int has_hw_pmu(void)
{
	static const char *const prefixes[] = { "cpu", "ibs_op", "arm_spe_", "armv8", "armv9" };
	struct pmu p;

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!pmu_open_prefix(&p, prefixes[i]))
			return 1;
	return 0;
}

int events_add_default(struct ev_list *l, const struct events_opts *o)
{
	int err = events_detect_cpu(l);

	if (err)
		return c2c_err(err, "cannot read '%s/proc/cpuinfo': %s", sysfs_root(),
			       strerror(-err));
	if (!has_hw_pmu())
		return c2c_err(-ENOTSUP, "no hardware PMU in %s%s (a hypervisor without a virtual "
			       "PMU?): hardware memory sampling unavailable; see 'c2c-lite doctor'",
			       sysfs_root(), PMU_DEVICES);
	switch (l->cpu.vendor) {
	case CPU_VENDOR_INTEL:
		return intel_add(l, o);
	case CPU_VENDOR_AMD:
		return amd_add(l, o);
	case CPU_VENDOR_ARM:
		return arm_add(l, o);
	case CPU_VENDOR_IBM:
		return power_add(l, o);
	default:
		return c2c_err(-ENOTSUP, "unknown CPU vendor '%s': no memory-sampling PMU known",
			       l->cpu.vendor_str);
	}
}

/* --- -e strings ----------------------------------------------------------------------------- */

static const struct sw_event {
	const char *name, *alias;
	uint64_t config;
} sw_events[] = {
	{ "cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", NULL, PERF_COUNT_SW_DUMMY },
};

/* Modifiers after ':' or the closing '/': u k p pp ppp P (S, G, H accepted). */
static int apply_mods(struct ev_desc *e, const char *mods, const char *spec)
{
	int p = 0;

	for (const char *m = mods; *m; m++) {
		switch (*m) {
		case 'u':
			e->attr.exclude_kernel = 1;
			e->attr.exclude_hv = 1;
			break;
		case 'k':
			e->attr.exclude_user = 1;
			e->attr.exclude_hv = 1;
			break;
		case 'p':
			p++;
			break;
		case 'P':
			p = 3;
			break;
		case 'S': case 'G': case 'H':
			break;
		default:
			return c2c_err(-EINVAL, "event '%s': unknown modifier '%c'", spec, *m);
		}
	}
	if (p > 3)
		return c2c_err(-EINVAL, "event '%s': at most 3 'p' modifiers", spec);
	if (p)
		e->precise_max = p;
	return 0;
}

static int add_sw(struct ev_list *l, const char *name, const char *mods, const char *spec)
{
	for (size_t i = 0; i < sizeof(sw_events) / sizeof(sw_events[0]); i++) {
		const struct sw_event *s = &sw_events[i];
		struct ev_desc *e;

		if (strcmp(name, s->name) && !(s->alias && !strcmp(name, s->alias)))
			continue;
		e = ev_push(l);
		e->attr.type = PERF_TYPE_SOFTWARE;
		e->attr.config = s->config;
		e->backend = TRACE_BACKEND_SWEVENT;
		snprintf(e->name, sizeof(e->name), "%s", spec);
		if (!l->backend)
			l->backend = TRACE_BACKEND_SWEVENT;
		if (!l->pmu_name[0])
			snprintf(l->pmu_name, sizeof(l->pmu_name), "software");
		return apply_mods(e, mods, spec);
	}
	return -ENOENT;
}

/* The terms between the first and the last '/' of "pmu/terms/mods" (points into @spec). */
static const char *terms_of(const char *spec)
{
	return strchr(spec, '/') + 1;
}

/* Does the term list (up to its closing '/') name the term @name ("name" or "name=...")? */
static int term_named(const char *terms, const char *name)
{
	size_t n = strlen(name);

	for (const char *t = terms; *t && *t != '/';) {
		size_t len = strcspn(t, ",/");

		if (len >= n && !strncmp(t, name, n) && (len == n || t[n] == '='))
			return 1;
		t += len;
		if (*t == ',')
			t++;
	}
	return 0;
}

/* "pmu/terms/mods" */
static int add_pmu_string(struct ev_list *l, const struct events_opts *o, const char *spec)
{
	const char *slash = strchr(spec, '/'), *end = strrchr(spec, '/');
	char pmu_name[64], *terms;
	struct pmu_term_extra x = { .inherit = -1 };
	struct ev_desc *e;
	struct pmu p;
	int err;

	if (end == slash || (size_t)(slash - spec) >= sizeof(pmu_name))
		return c2c_err(-EINVAL, "event '%s': expected pmu/terms/", spec);
	memcpy(pmu_name, spec, (size_t)(slash - spec));
	pmu_name[slash - spec] = '\0';
	if ((err = pmu_open(&p, pmu_name)))
		return c2c_err(-ENOENT, "event '%s': no PMU '%s' in %s%s", spec, pmu_name,
			       sysfs_root(), PMU_DEVICES);
	terms = xstrndup(slash + 1, (size_t)(end - slash - 1));
	err = add_pmu_event(l, &p, terms, &e, &x);
	free(terms);
	if (err)
		return err;
	snprintf(e->name, sizeof(e->name), "%s", x.name[0] ? x.name : spec);
	if (x.period)
		e->attr.sample_period = x.period;
	if (x.freq) {
		e->attr.sample_freq = x.freq;
		e->attr.freq = 1;
	}
	if (x.inherit == 0)
		e->no_inherit = 1;
	e->backend = p.type == PERF_TYPE_SOFTWARE ? TRACE_BACKEND_SWEVENT :
		     !strcmp(pmu_name, "ibs_op") ? TRACE_BACKEND_IBS :
		     !strncmp(pmu_name, "arm_spe_", 8) ? TRACE_BACKEND_SPE :
		     TRACE_BACKEND_UNKNOWN;
	if (e->backend == TRACE_BACKEND_SPE)
		e->ts_given = term_named(terms_of(spec), "ts_enable");
	if (!l->pmu_name[0])
		snprintf(l->pmu_name, sizeof(l->pmu_name), "%s", pmu_name);
	(void)o;
	return apply_mods(e, end + 1, spec);
}

int events_add_string(struct ev_list *l, const struct events_opts *o, const char *spec)
{
	struct events_opts mo = *o;
	char name[64];
	const char *colon;
	size_t n;
	int err;

	if (strchr(spec, '/'))
		return add_pmu_string(l, o, spec);
	colon = strchr(spec, ':');
	n = colon ? (size_t)(colon - spec) : strlen(spec);
	if (n >= sizeof(name))
		return c2c_err(-EINVAL, "event '%s': name too long", spec);
	memcpy(name, spec, n);
	name[n] = '\0';
	if (!strcmp(name, "mem-loads") || !strcmp(name, "ldlat-loads") ||
	    !strcmp(name, "mem-stores") || !strcmp(name, "mem")) {
		mo.loads_only = name[4] != 's' && strcmp(name, "mem");
		mo.stores_only = name[4] == 's';
		return events_add_default(l, &mo);
	}
	err = add_sw(l, name, colon ? colon + 1 : "", spec);
	if (err == -ENOENT)
		return c2c_err(-EINVAL, "unknown event '%s' (see 'c2c-lite record -e list')", spec);
	return err;
}

/* --- estimate backends ---------------------------------------------------------------------- */

int events_add_soft(struct ev_list *l, const struct events_opts *o)
{
	struct ev_desc *e = ev_push(l);

	(void)o;
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	e->attr.exclude_kernel = 1;       /* the decoder reads user code and user registers */
	e->attr.exclude_hv = 1;
	e->attr.sample_regs_user = REGS_X86_SOFT_MASK;
	e->backend = TRACE_BACKEND_SOFT;
	snprintf(e->name, sizeof(e->name), "cpu-clock:u");
	l->backend = TRACE_BACKEND_SOFT;
	snprintf(l->pmu_name, sizeof(l->pmu_name), "software");
	return 0;
}

int events_add_watch(struct ev_list *l, uint64_t addr, unsigned int len, const char *name)
{
	struct ev_desc *e;

	if (len != 1 && len != 2 && len != 4 && len != 8)
		return c2c_err(-EINVAL, "watchpoint '%s': length %u is not 1, 2, 4 or 8", name, len);
	if (addr & (len - 1))
		return c2c_err(-EINVAL, "watchpoint '%s': address 0x%llx is not aligned to its "
			       "length %u", name, (unsigned long long)addr, len);
	e = ev_push(l);
	e->attr.type = PERF_TYPE_BREAKPOINT;
	e->attr.bp_type = HW_BREAKPOINT_RW;
	e->attr.bp_addr = addr;
	e->attr.bp_len = len;
	e->attr.sample_period = 1;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	e->attr.sample_regs_user = REGS_X86_SOFT_MASK;   /* to recompute the accessed address */
	e->backend = TRACE_BACKEND_WATCH;
	snprintf(e->name, sizeof(e->name), "mem:0x%llx/%u:rw", (unsigned long long)addr, len);
	l->backend = TRACE_BACKEND_WATCH;
	snprintf(l->pmu_name, sizeof(l->pmu_name), "breakpoint");
	return 0;
}

/* --- common settings ------------------------------------------------------------------------ */

uint64_t events_attr_flags(const struct perf_event_attr *a)
{
	uint64_t w;

	memcpy(&w, (const char *)a + 40, sizeof(w));
	return w;
}

static uint64_t base_sample_type(const struct ev_list *l, const struct ev_desc *e)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;

	if (e->role == EV_ROLE_TRACKING && !e->aux_tracking)
		return PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	/* soft: the period is the sample's time share in ns, with -c too; the registers locate
	 * the data access (record/backend-soft.h) */
	if (e->backend == TRACE_BACKEND_SOFT)
		return (st & ~(uint64_t)PERF_SAMPLE_ADDR) | PERF_SAMPLE_PERIOD |
		       PERF_SAMPLE_REGS_USER;
	/* watch: ADDR is the watched address (bp_addr), the registers give the bytes accessed;
	 * every hit is one access */
	if (e->backend == TRACE_BACKEND_WATCH)
		return (st & ~(uint64_t)PERF_SAMPLE_PERIOD) | PERF_SAMPLE_REGS_USER;
	/* perf asks for PERIOD only in frequency mode (-c, and SPE's fixed interval: none; perf's
	 * arm_spe_recording_options() sets the interval before evsel__config() runs) */
	if (!e->attr.freq)
		st &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	/* the AUX tracking dummy gets perf record's options like any event */
	if (e->backend == TRACE_BACKEND_SWEVENT && !e->aux_tracking)
		return st;
	st |= PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	/* -W: WEIGHT_STRUCT on x86 (perf's arch override), plain WEIGHT elsewhere. */
	st |= (l->cpu.vendor == CPU_VENDOR_INTEL || l->cpu.vendor == CPU_VENDOR_AMD) ?
	      PERF_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT;
	return st;
}

static void set_period(struct ev_desc *e, const struct events_opts *o)
{
	if (e->role == EV_ROLE_TRACKING) {
		/* perf 6.1 gives -c to every event, the AUX tracking dummy's period 1 included */
		e->attr.sample_period = e->aux_tracking && o->rate.period ? o->rate.period : 1;
		return;
	}
	if (e->role == EV_ROLE_TD_SLOTS || e->role == EV_ROLE_TD_METRIC)
		return;
	if (e->attr.freq || e->attr.sample_period)
		return;                     /* set by the event's own terms */
	if (o->rate.period) {
		e->attr.sample_period = o->rate.period;
	} else {
		e->attr.freq = 1;
		e->attr.sample_freq = o->rate.freq ? o->rate.freq : RATE_DEFAULT_HZ;
	}
}

static void set_flags(struct ev_list *l, struct ev_desc *e, const struct events_opts *o,
		      int aux)
{
	int is_leader = e->leader == (int)(e - l->ev);

	e->attr.disabled = is_leader;
	e->attr.inherit = !o->no_inherit && !e->no_inherit;
	e->attr.enable_on_exec = is_leader && o->workload && !o->system_wide;
	/* with AUX tracing the dummy is perf's tracking event, and -d gives mmap_data to the
	 * tracking event only */
	e->attr.mmap_data = aux ? e->aux_tracking : e->role != EV_ROLE_TRACKING;
	e->attr.sample_id_all = 1;
	e->attr.exclude_guest = e->backend != TRACE_BACKEND_IBS;
	if (o->all_user)
		e->attr.exclude_kernel = 1;
	if (o->all_kernel)
		e->attr.exclude_user = 1;
	e->attr.precise_ip = (unsigned int)e->precise_max & 3;
	if (e->backend == TRACE_BACKEND_PEBS && !e->attr.precise_ip)
		e->attr.precise_ip = 3;
}

static void set_tracking(struct perf_event_attr *a)
{
	a->mmap = 1;
	a->comm = 1;
	a->task = 1;
	a->mmap2 = 1;
	a->comm_exec = 1;
	a->ksymbol = 1;
	a->bpf_event = 1;
}

static void add_tracking_dummy(struct ev_list *l)
{
	struct ev_desc *e = ev_push(l);

	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_DUMMY;
	e->role = EV_ROLE_TRACKING;
	e->backend = TRACE_BACKEND_SWEVENT;
	snprintf(e->name, sizeof(e->name), "dummy:u");
}

/* Move event @i to the front, keeping leader indices right. */
static void move_to_front(struct ev_list *l, size_t i)
{
	struct ev_desc e = l->ev[i];

	memmove(&l->ev[1], &l->ev[0], i * sizeof(*l->ev));
	l->ev[0] = e;
	for (size_t k = 0; k < l->nr; k++) {
		int was = l->ev[k].leader;

		l->ev[k].leader = was == (int)i ? 0 : was < (int)i ? was + 1 : was;
	}
}

int events_spe_pmu(const struct ev_desc *e, struct pmu *p)
{
	return pmu_open_type(p, "arm_spe_", e->attr.type);
}

/* What perf's arm_spe_recording_options() does to the event list (tools/perf/arch/arm64/util/
 * arm-spe.c): one SPE event, first, with a fixed period and timestamps; the AUX area; the
 * dummy:u tracking event with context switches. */
static int spe_options(struct ev_list *l, const struct events_opts *o, int *aux)
{
	unsigned int page = o->page_size ? o->page_size : (unsigned int)sysconf(_SC_PAGESIZE);
	struct pmu_config ts = { 0 };
	size_t spe = 0, n = 0;
	uint64_t interval, aux_bytes;
	char fmt[64];
	struct ev_desc *e;
	struct pmu p;

	for (size_t i = 0; i < l->nr; i++)
		if (l->ev[i].backend == TRACE_BACKEND_SPE && l->ev[i].role == EV_ROLE_SAMPLER) {
			spe = i;
			n++;
		}
	*aux = n > 0;
	if (!n)
		return 0;
	if (n > 1)
		return c2c_err(-EINVAL, "only one Arm SPE event can be recorded at a time (perf: "
			       "'There may be only one arm_spe_x event')");
	if (o->rate.source == RATE_GIVEN_FREQ)   /* a default or capped rate is no -F */
		return c2c_err(-EINVAL, "-F does not apply to Arm SPE: the SPE driver samples every "
			       "N operations and refuses frequency mode; use -c N");
	move_to_front(l, spe);
	e = &l->ev[0];
	if (events_spe_pmu(e, &p))
		return c2c_err(-ENOENT, "event '%s': no arm_spe_* PMU of type %u in %s%s", e->name,
			       e->attr.type, sysfs_root(), PMU_DEVICES);
	interval = pmu_cap_u64(&p, "min_interval", EV_SPE_DEFAULT_INTERVAL);
	e->attr.freq = 0;
	e->attr.sample_period = o->rate.period ? o->rate.period : interval;
	if (o->rate.period && o->rate.period < interval)
		c2c_warn("-c %llu is below %s's minimum interval: the driver samples every %llu "
			 "operations", (unsigned long long)o->rate.period, p.name,
			 (unsigned long long)interval);
	/* per-CPU buffers: timestamps unless the event string said otherwise */
	if (!e->ts_given && !pmu_format(&p, "ts_enable", fmt, sizeof(fmt)) &&
	    !pmu_format_place(fmt, 1, &ts))
		e->attr.config |= ts.config;
	memset(&ts, 0, sizeof(ts));
	if (!pmu_format(&p, "pa_enable", fmt, sizeof(fmt)) && !pmu_format_place(fmt, 1, &ts))
		e->pa_mask = ts.config;
	aux_bytes = o->perf_privileged ? EV_SPE_AUX_PRIV_BYTES : EV_SPE_AUX_UNPRIV_BYTES;
	if (aux_bytes < page || aux_bytes % page)
		aux_bytes = 2ull * page;        /* 64 KiB pages: the driver needs two at least */
	e->aux_pages = (uint32_t)(aux_bytes / page);
	l->spe_data_pages = o->perf_privileged ? 0 :
			    EV_SPE_DATA_UNPRIV_BYTES / page ? EV_SPE_DATA_UNPRIV_BYTES / page : 1;
	e = ev_push(l);
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_DUMMY;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	e->attr.context_switch = 1;
	e->role = EV_ROLE_TRACKING;
	e->aux_tracking = 1;
	e->backend = TRACE_BACKEND_SWEVENT;
	snprintf(e->name, sizeof(e->name), "dummy:u");
	return 0;
}

int events_finalize(struct ev_list *l, const struct events_opts *o)
{
	int same = 1, aux, err;

	if (!l->nr)
		return c2c_err(-EINVAL, "no events to record");
	if (o->all_user && o->all_kernel)
		return c2c_err(-EINVAL, "--all-user and --all-kernel exclude each other");
#ifndef __x86_64__
	if (o->callchain == 2)
		return c2c_err(-ENOTSUP, "--call-graph dwarf: c2c-lite unwinds x86-64 stacks only; "
			       "use -g (fp)");
#endif
	if (o->callchain && l->backend == TRACE_BACKEND_SPE)
		return c2c_err(-EINVAL, "-g/--call-graph: Arm SPE records come from the AUX buffer "
			       "and carry no callchain");
	/* IBS programs period >> 4 into MaxCnt: 16..0xffff0 in steps of 16 (ibs.c) */
	if (l->backend == TRACE_BACKEND_IBS && o->rate.period &&
	    ((o->rate.period & 0xf) || o->rate.period < 0x10 || o->rate.period > 0xffff0))
		return c2c_err(-EINVAL, "-c %llu: AMD IBS periods are multiples of 16 from 16 to "
			       "1048560", (unsigned long long)o->rate.period);
	for (size_t i = 0; i < l->nr; i++)
		if (!l->ev[i].backend)
			l->ev[i].backend = l->backend;
	if ((err = spe_options(l, o, &aux)))
		return err;
	if (o->system_wide && !aux)
		add_tracking_dummy(l);
	for (size_t i = 0; i < l->nr; i++) {
		struct ev_desc *e = &l->ev[i];

		set_period(e, o);
		set_flags(l, e, o, aux);
		e->attr.sample_type = base_sample_type(l, e);
		if (o->callchain && e->role == EV_ROLE_SAMPLER) {
			/* perf record -g: the kernel's frame-pointer walk, perf's default depth */
			e->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
			e->attr.sample_max_stack = 127;
		}
		if (o->callchain == 2 && e->role == EV_ROLE_SAMPLER) {
			/* perf record --call-graph dwarf: the user part is unwound from a copy of
			 * the stack and the registers, the kernel walks its own part only */
			e->attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			e->attr.sample_regs_user |= C2C_UNWIND_REGS_X86_64;
			e->attr.sample_stack_user = o->stack_user ? o->stack_user
							       : C2C_UNWIND_STACK_DEFAULT;
			e->attr.exclude_callchain_user = 1;
		}
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		if (e->aux_tracking) {
			/* dummy:u, then --all-kernel as perf's evsel__config() applies it; -a
			 * enables it at once (perf's "immediate" tracking event) */
			e->attr.exclude_kernel = !o->all_kernel;
			e->attr.exclude_user = o->all_kernel;
			e->attr.disabled &= !o->system_wide;
		} else if (e->role == EV_ROLE_TRACKING) {
			e->attr.disabled = 0;
			e->attr.exclude_kernel = 1;
			e->attr.exclude_hv = 1;
		}
	}
	set_tracking(&(o->system_wide || aux ? &l->ev[l->nr - 1] : &l->ev[0])->attr);
	for (size_t i = 1; i < l->nr; i++)
		same &= l->ev[i].attr.sample_type == l->ev[0].attr.sample_type;
	/* AUX tracing: perf always identifies records by IDENTIFIER (evlist__config) */
	for (size_t i = 0; l->nr > 1 && i < l->nr; i++)
		l->ev[i].attr.sample_type |= same && !aux ? PERF_SAMPLE_ID : PERF_SAMPLE_IDENTIFIER;
	return 0;
}

/* --- -e list -------------------------------------------------------------------------------- */

static void list_pmu_aliases(const char *pmu, void (*emit)(const char *, void *), void *ctx)
{
	static const char *const aliases[] = { "mem-loads", "mem-stores", "mem-loads-aux" };
	struct pmu p;
	char line[256], val[160];

	if (pmu_open(&p, pmu))
		return;
	for (size_t i = 0; i < 3; i++) {
		if (pmu_alias(&p, aliases[i], val, sizeof(val)))
			continue;
		snprintf(line, sizeof(line), "  %s/%s/  [%s]", pmu, aliases[i], val);
		emit(line, ctx);
	}
}

static void count_line(const char *line, void *ctx)
{
	(void)line;
	(*(int *)ctx)++;
}

static void list_memory(void (*emit)(const char *line, void *ctx), void *ctx)
{
	char line[256];
	struct pmu p;

	list_pmu_aliases("cpu", emit, ctx);
	list_pmu_aliases("cpu_core", emit, ctx);
	list_pmu_aliases("cpu_atom", emit, ctx);
	if (!pmu_open(&p, "ibs_op"))
		emit("  ibs_op//  [AMD IBS op sampling]", ctx);
	if (!pmu_open_prefix(&p, "arm_spe_")) {
		snprintf(line, sizeof(line), "  %s/load_filter=1,store_filter=1/  [Arm SPE]",
			 p.name);
		emit(line, ctx);
	}
}

int events_list(void (*emit)(const char *line, void *ctx), void *ctx)
{
	char line[256];
	int n = 0;

	list_memory(count_line, &n);
	emit(n ? "memory events of this machine (default: loads and stores):" :
	     "memory events of this machine: none (see 'c2c-lite doctor')", ctx);
	list_memory(emit, ctx);
	emit("software events:", ctx);
	for (size_t i = 0; i < sizeof(sw_events) / sizeof(sw_events[0]); i++) {
		snprintf(line, sizeof(line), "  %s%s%s", sw_events[i].name,
			 sw_events[i].alias ? " OR " : "",
			 sw_events[i].alias ? sw_events[i].alias : "");
		emit(line, ctx);
	}
	emit("any PMU event as pmu/term=value,.../modifiers (see " PMU_DEVICES ")", ctx);
	return 0;
}
