/* Counting plans and their fds for `c2c-lite stat` (see stat.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "record/cpuinfo.h"
#include "record/events.h"
#include "record/pmu.h"
#include "record/stat.h"
#include "record/sys.h"
#include "record/sysfs.h"
#include "record/topdown.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	/* hardware events by their generic names (-e only) */
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
};
#define NR_DEFAULTS 4

static struct stat_counter *push(struct stat_plan *p, const char *name, const struct stat_opts *o)
{
	struct stat_counter *c;

	p->c = xgrow(p->c, &p->cap, p->nr + 1, sizeof(*p->c));
	c = &p->c[p->nr];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->attr.size = sizeof(c->attr);
	c->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	c->attr.exclude_kernel = o->all_user;
	c->attr.exclude_hv = o->all_user;
	c->leader = (int)p->nr;
	c->td_in = -1;
	p->nr++;
	return c;
}

static int add_generic(struct stat_plan *p, const struct stat_opts *o, const char *name)
{
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		struct stat_counter *c;

		if (strcmp(name, generic[i].name))
			continue;
		c = push(p, name, o);
		c->attr.type = generic[i].type;
		c->attr.config = generic[i].config;
		return 0;
	}
	return -ENOENT;
}

/* Any other -e spelling record understands (pmu/terms/, software aliases), made a counter. */
static int add_event(struct stat_plan *p, const struct stat_opts *o, const char *spec)
{
	struct events_opts eo = { .all_user = o->all_user };
	struct ev_list l;
	int err;

	if (!add_generic(p, o, spec))
		return 0;
	events_init(&l);
	err = events_add_string(&l, &eo, spec);
	for (size_t i = 0; !err && i < l.nr; i++) {
		struct stat_counter *c = push(p, l.ev[i].name, o);
		uint64_t read_format = c->attr.read_format;

		c->attr = l.ev[i].attr;
		c->attr.read_format = read_format;
		c->attr.sample_period = 0;
		c->attr.freq = 0;
		c->attr.sample_type = 0;
		c->attr.precise_ip = 0;
		c->attr.exclude_kernel |= (uint64_t)o->all_user;
	}
	events_release(&l);
	return err;
}

/* --- TopDown -------------------------------------------------------------------------------- */

static int hypervisor(void)
{
	char *text = NULL;
	size_t len;
	int hv = 0;

	if (!sysfs_read_all("/proc/cpuinfo", &text, &len, 1 << 20))
		hv = strstr(text, " hypervisor") != NULL;
	free(text);
	return hv;
}

static void td_missing(struct stat_plan *p, const struct td_event *ev, size_t n)
{
	size_t off = 0;

	p->td_missing[0] = 0;
	for (size_t i = 0; i < n && off < sizeof(p->td_missing); i++)
		off += (size_t)snprintf(p->td_missing + off, sizeof(p->td_missing) - off, "%s%s",
					i ? ", " : "", ev[i].name);
}

static int add_topdown(struct stat_plan *p, const struct stat_opts *o)
{
	struct td_event ev[16];
	struct td_cpu tc;
	struct cpuinfo ci;
	struct pmu pmu;
	char cmask[64], cpus[64] = "";
	int have, lead = (int)p->nr;
	size_t n;

	if (cpuinfo_read(&ci))
		memset(&ci, 0, sizeof(ci));
	have = !topdown_core_pmu(&pmu, ci.vendor);
	topdown_cpu_of(&tc, &ci, &pmu, have);
	if (td_model_select(&p->model, &tc, p->td_why, sizeof(p->td_why))) {
		if (!have)
			snprintf(p->td_why + strlen(p->td_why), sizeof(p->td_why) - strlen(p->td_why),
				 "; and no core PMU is exposed%s", hypervisor() ? " (a VM without "
				 "a virtual PMU)" : "");
		return 0;
	}
	n = td_model_events(&p->model, ev, 16, cmask, sizeof(cmask));
	td_missing(p, ev, n);
	if (!have) {
		snprintf(p->td_why, sizeof(p->td_why), "%s: no core PMU in %s%s%s", p->model.cpu,
			 sysfs_root(), PMU_DEVICES, hypervisor() ? ": a VM without a virtual PMU "
			 "(enable it: KVM -cpu host,pmu=on; cloud: a PMU-enabled instance)" : "");
		return 0;
	}
	{
		char path[160];

		snprintf(path, sizeof(path), PMU_DEVICES "/%s/cpus", pmu.name);
		sysfs_read_line(path, cpus, sizeof(cpus));
	}
	for (size_t i = 0; i < n; i++) {
		struct pmu_config cfg = { 0 };
		char name[160];
		struct stat_counter *c;
		int err = pmu_apply_terms(&pmu, ev[i].terms, &cfg, NULL);

		if (err) {
			p->nr = (size_t)lead;
			snprintf(p->td_why, sizeof(p->td_why), "%s: %s has no '%s' (%s)", p->model.cpu,
				 pmu.name, ev[i].terms, ev[i].name);
			return 0;
		}
		snprintf(name, sizeof(name), "%s/%s/", pmu.name, ev[i].name);
		c = push(p, name, o);
		c->attr.type = pmu.type;
		c->attr.config = cfg.config;
		c->attr.config1 = cfg.config1;
		c->td_in = ev[i].in;
		c->leader = p->model.grouped ? lead : (int)(p->nr - 1);
		c->has_cpus = cpus[0] != 0;
		snprintf(c->cpus, sizeof(c->cpus), "%s", cpus);
	}
	p->td_ok = 1;
	p->td_missing[0] = 0;
	return 0;
}

int stat_plan_build(struct stat_plan *p, const struct stat_opts *o)
{
	int err = 0;

	memset(p, 0, sizeof(*p));
	p->topdown = o->topdown;
	if (!o->nr_events)
		for (size_t i = 0; i < NR_DEFAULTS; i++)
			add_generic(p, o, generic[i].name);
	for (size_t i = 0; i < o->nr_events && !err; i++) {
		err = add_event(p, o, o->events[i]);
	}
	if (!err && o->topdown)
		err = add_topdown(p, o);
	if (err)
		stat_plan_release(p);
	return err;
}

void stat_plan_release(struct stat_plan *p)
{
	stat_close(p);
	free(p->c);
	p->c = NULL;
	p->nr = p->cap = 0;
}

/* --- targets ---------------------------------------------------------------------------------- */

int stat_target_pid(struct stat_target *t, pid_t pid)
{
	char path[64];
	struct dirent *d;
	size_t cap = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return c2c_err(-ESRCH, "no process %d (%s: %s)", (int)pid, path, strerror(errno));
	while ((d = readdir(dir))) {
		long tid = atol(d->d_name);

		if (tid <= 0)
			continue;
		t->tids = xgrow(t->tids, &cap, t->nr_tids + 1, sizeof(*t->tids));
		t->tids[t->nr_tids++] = (pid_t)tid;
	}
	closedir(dir);
	return t->nr_tids ? 0 : c2c_err(-ESRCH, "process %d has no threads", (int)pid);
}

int stat_target_cpus(struct stat_target *t)
{
	uint8_t map[EV_CPUS_MAX / 8] = { 0 };
	char line[256];
	size_t cap = 0;
	int err = sysfs_read_line("/sys/devices/system/cpu/online", line, sizeof(line));

	if (err || sysfs_parse_cpulist(line, map, EV_CPUS_MAX) <= 0)
		return c2c_err(-EIO, "cannot read the online CPUs from "
			       "/sys/devices/system/cpu/online");
	for (int c = 0; c < EV_CPUS_MAX; c++) {
		if (!((map[c / 8] >> (c % 8)) & 1))
			continue;
		t->cpus = xgrow(t->cpus, &cap, t->nr_cpus + 1, sizeof(*t->cpus));
		t->cpus[t->nr_cpus++] = c;
	}
	return 0;
}

/* --- counting ------------------------------------------------------------------------------- */

static int paranoid(void)
{
	char line[32];

	return sysfs_read_line("/proc/sys/kernel/perf_event_paranoid", line, sizeof(line)) ? -100 :
	       atoi(line);
}

static void open_why(struct stat_counter *c, int cpu_wide)
{
	int err = c->err, lvl = paranoid();
	const char *why = strerror(-err);

	if (err == -EACCES || err == -EPERM) {
		snprintf(c->why, sizeof(c->why), "perf_event_paranoid=%d forbids %s as this user: run "
			 "as root or set kernel.perf_event_paranoid=%d (%s)", lvl, cpu_wide ?
			 "counting every CPU (-a)" : "it", cpu_wide ? 0 : 2, strerror(-err));
		return;
	}
	if (c->attr.type == PERF_TYPE_HARDWARE && (err == -ENOENT || err == -EOPNOTSUPP))
		why = "no hardware counters (a VM without a virtual PMU, or an unsupported CPU)";
	else if (err == -ENOENT || err == -EINVAL)
		why = "the kernel does not know this event on this CPU";
	else if (err == -EOPNOTSUPP)
		why = "this PMU cannot count in this mode";
	else if (err == -ESRCH)
		why = "the process is gone";
	snprintf(c->why, sizeof(c->why), "%s (%s)", why, strerror(-err));
}

/* Open @c on target @k; at perf_event_paranoid 2 the kernel refuses to count kernel time, so
 * like perf stat retry user space only and say so in the name (":u"). */
static int open_one(struct stat_counter *c, pid_t pid, int cpu, int gfd)
{
	int fd = sys_perf_event_open(&c->attr, pid, cpu, gfd, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM) && !c->attr.exclude_kernel && pid >= 0) {
		c->attr.exclude_kernel = 1;
		c->attr.exclude_hv = 1;
		fd = sys_perf_event_open(&c->attr, pid, cpu, gfd, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0 && strlen(c->name) + 3 < sizeof(c->name))
			strcat(c->name, ":u");
		else
			c->attr.exclude_kernel = c->attr.exclude_hv = 0;
	}
	return fd;
}

static int cpu_in(const char *list, int cpu)
{
	uint8_t map[EV_CPUS_MAX / 8] = { 0 };

	if (cpu < 0 || cpu >= EV_CPUS_MAX || sysfs_parse_cpulist(list, map, EV_CPUS_MAX) < 0)
		return 1;
	return (map[cpu / 8] >> (cpu % 8)) & 1;
}

int stat_open(struct stat_plan *p, const struct stat_target *t)
{
	size_t nt = t->nr_cpus ? t->nr_cpus : t->nr_tids;
	int opened = 0, first = 0;

	p->nr_targets = nt;
	p->fd = xmalloc((p->nr * nt + 1) * sizeof(*p->fd));
	for (size_t i = 0; i < p->nr * nt; i++)
		p->fd[i] = -1;
	for (size_t i = 0; i < p->nr; i++) {
		struct stat_counter *c = &p->c[i];
		int lead = c->leader == (int)i, any = 0, err = 0;

		c->attr.disabled = lead;
		c->attr.inherit = t->workload;
		c->attr.enable_on_exec = lead && t->workload;
		for (size_t k = 0; k < nt; k++) {
			int cpu = t->nr_cpus ? t->cpus[k] : -1, gfd = -1, fd;
			pid_t pid = t->nr_cpus ? -1 : t->tids[k];

			if (c->has_cpus && t->nr_cpus && !cpu_in(c->cpus, cpu))
				continue;
			if (!lead) {
				gfd = p->fd[(size_t)c->leader * nt + k];
				if (gfd < 0)
					continue;
			}
			fd = open_one(c, pid, cpu, gfd);
			if (fd < 0) {
				err = err ? err : -errno;
				continue;
			}
			p->fd[i * nt + k] = fd;
			any = 1;
		}
		if (any) {
			opened = 1;
			continue;
		}
		c->err = err ? err : -ENOENT;
		if (!lead && p->c[c->leader].err)
			snprintf(c->why, sizeof(c->why), "its group leader %s did not open",
				 p->c[c->leader].name);
		else
			open_why(c, t->nr_cpus > 0);
		first = first ? first : c->err;
	}
	if (p->td_ok) {
		size_t off = 0;

		for (size_t i = 0; i < p->nr; i++)
			if (p->c[i].td_in >= 0 && p->c[i].err && off < sizeof(p->td_missing))
				off += (size_t)snprintf(p->td_missing + off, sizeof(p->td_missing) - off,
							"%s%s", off ? ", " : "", p->c[i].name);
	}
	return opened ? 0 : first ? first : -ENOENT;
}

void stat_enable(struct stat_plan *p)
{
	for (size_t i = 0; p->fd && i < p->nr * p->nr_targets; i++)
		if (p->fd[i] >= 0 && p->c[i / p->nr_targets].leader == (int)(i / p->nr_targets))
			ioctl(p->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

int stat_read(struct stat_plan *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		struct stat_counter *c = &p->c[i];

		c->val = c->ena = c->run = 0;
		for (size_t k = 0; k < p->nr_targets; k++) {
			uint64_t v[3];
			int fd = p->fd[i * p->nr_targets + k];

			if (fd < 0)
				continue;
			if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
				return c2c_err(-EIO, "cannot read counter '%s': %s", c->name,
					       strerror(errno));
			c->val += v[0];
			c->ena += v[1];
			c->run += v[2];
		}
	}
	return 0;
}

void stat_close(struct stat_plan *p)
{
	for (size_t i = 0; p->fd && i < p->nr * p->nr_targets; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	free(p->fd);
	p->fd = NULL;
	p->nr_targets = 0;
}

uint64_t stat_scaled(const struct stat_counter *c, int *counted)
{
	*counted = c->run > 0;
	if (!c->run)
		return 0;
	if (c->run >= c->ena)
		return c->val;
	return (uint64_t)((double)c->val * (double)c->ena / (double)c->run);
}

void stat_td_counts(const struct stat_plan *p, uint64_t *prev, struct td_counts *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < p->nr; i++) {
		const struct stat_counter *c = &p->c[i];
		int counted;
		uint64_t v;

		if (c->td_in < 0)
			continue;
		v = stat_scaled(c, &counted);
		if (!counted)
			continue;
		out->v[c->td_in] = prev && v >= prev[i] ? v - prev[i] : v;
		out->have |= 1ull << c->td_in;
		if (prev)
			prev[i] = v;
	}
}
