/* Opening a recording's events on its targets (record/session-int.h): the CPUs and tasks, one
 * fd per (event, task, CPU) with perf's fallbacks where the kernel refuses, one ring per CPU. */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/events.h"
#include "record/ring.h"
#include "record/session-int.h"
#include "record/sys.h"
#include "record/sysfs.h"
#include "record/topdown.h"

#define DEFAULT_PAGES 128
#define ERR_TD_REFUSED (-100000)   /* internal: the kernel refused the TopDown group */
#define ERR_CONFIRM_REFUSED (-100001)   /* internal: a confirmation watchpoint did not open */

/* --- targets -------------------------------------------------------------------------------- */

int sess_read_cpus(struct sess *s)
{
	char line[4096];
	uint8_t *bm = xcalloc(EV_CPUS_MAX / 8, 1);
	const char *list = s->o->cpu_list;
	int n;

	if (!list) {
		if (sysfs_read_line("/sys/devices/system/cpu/online", line, sizeof(line)))
			snprintf(line, sizeof(line), "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
		list = line;
	}
	n = sysfs_parse_cpulist(list, bm, EV_CPUS_MAX);
	if (n <= 0) {
		free(bm);
		return c2c_err(-EINVAL, "bad CPU list '%s'", list);
	}
	s->cpu = xcalloc((size_t)n, sizeof(*s->cpu));
	for (int c = 0; c < EV_CPUS_MAX; c++)
		if (bm[c / 8] & (1u << (c % 8)))
			s->cpu[s->ncpu++] = c;
	free(bm);
	return 0;
}

static void add_task(struct sess *s, pid_t t, size_t *cap)
{
	s->task = xgrow(s->task, cap, s->ntask + 1, sizeof(*s->task));
	s->task[s->ntask++] = t;
}

/* -p: every thread of each process (new threads are followed through inherit). */
int sess_read_tasks(struct sess *s)
{
	size_t cap = 0;

	if (s->o->ev.system_wide) {
		add_task(s, -1, &cap);
		return 0;
	}
	if (s->wl.pid > 0) {
		add_task(s, s->wl.pid, &cap);
		return 0;
	}
	for (size_t i = 0; i < s->o->nr_pids; i++) {
		pid_t p = s->o->pids[i];
		char path[128];
		struct dirent *de;
		DIR *d;

		if (kill(p, 0) && errno == ESRCH)
			return c2c_err(-ESRCH, "no process or thread %d", (int)p);
		snprintf(path, sizeof(path), "%s/proc/%d/task", sysfs_root(), (int)p);
		if (s->o->threads_only || !(d = opendir(path))) {
			add_task(s, p, &cap);
			continue;
		}
		while ((de = readdir(d)))
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
				add_task(s, (pid_t)strtol(de->d_name, NULL, 10), &cap);
		closedir(d);
	}
	return 0;
}

/* --- opening ------------------------------------------------------------------------------------ */

static const char *open_hint(int err, const struct ev_desc *e)
{
	if (err == EACCES || err == EPERM)
		return " (perf_event_paranoid forbids it: run as root or lower "
		       "kernel.perf_event_paranoid; see 'c2c-lite doctor')";
	if (err == EBUSY && e->backend == TRACE_BACKEND_SPE)
		return " (the SPE PMU is exclusive: another perf session uses it)";
	if (err == EOPNOTSUPP && e->backend == TRACE_BACKEND_SPE)
		return " (this SPE implementation lacks a requested filter: load/store or latency)";
	if (err == ENOENT || err == ENODEV || err == EOPNOTSUPP)
		return e->attr.type >= PERF_TYPE_MAX ? " (the PMU does not support this event here)" :
		       " (no such event on this kernel/machine; see 'c2c-lite doctor')";
	if ((err == EINVAL || err == EOPNOTSUPP) && e->backend == TRACE_BACKEND_IBS)
		return " (kernels before 6.2 open IBS only CPU-wide: try -a)";
	if (err == EMFILE)
		return " (too many open files: raise 'ulimit -n')";
	return "";
}

static int leader_fd(const struct sess *s, size_t first, int leader_ev)
{
	for (size_t i = first; i < s->nfd; i++)
		if (s->fd[i].ev == leader_ev)
			return s->fd[i].fd;
	return -1;
}

static int open_one(struct sess *s, int ei, pid_t pid, int cpu, int group_fd)
{
	struct ev_desc *e = &s->l.ev[ei];
	struct perf_event_attr a = e->attr;
	int fd;

	for (;;) {
		fd = sys_perf_event_open(&a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			break;
		if (a.precise_ip && (errno == EINVAL || errno == EOPNOTSUPP)) {
			a.precise_ip--;   /* perf's :P probing: highest level the PMU accepts */
		} else if ((errno == EACCES || errno == EPERM) && (a.config & e->pa_mask) &&
			   !s->perfmon) {
			/* SPE pa_enable needs CAP_PERFMON whatever perf_event_paranoid says (the
			 * 6.1 driver); perf c2c record fails here, we go on without it */
			a.config &= ~e->pa_mask;
			if (!s->warned_pa++)
				c2c_warn("SPE physical addresses (pa_enable) need root or "
					 "CAP_PERFMON; recording without them");
		} else if ((errno == EACCES || errno == EPERM) && !a.exclude_kernel &&
			   !s->eo.all_kernel) {
			/* perf_event_paranoid >= 2: user space only, as perf record falls back */
			a.exclude_kernel = 1;
			if (!s->warned_user++)
				c2c_warn("kernel samples not permitted (perf_event_paranoid); "
					 "recording user space only");
		} else if ((errno == EACCES || errno == EPERM) &&
			   (a.sample_type & PERF_SAMPLE_PHYS_ADDR)) {
			a.sample_type &= ~(uint64_t)PERF_SAMPLE_PHYS_ADDR;
			if (!s->warned_phys++)
				c2c_warn("physical addresses not permitted (perf_event_paranoid); "
					 "recording virtual addresses only");
		} else {
			break;
		}
	}
	if (fd < 0)
		return -errno;
	e->attr.precise_ip = a.precise_ip;
	e->attr.exclude_kernel = a.exclude_kernel;
	e->attr.sample_type = a.sample_type;
	e->attr.config = a.config;
	s->fd = xgrow(s->fd, &s->capfd, s->nfd + 1, sizeof(*s->fd));
	s->fd[s->nfd++] = (struct efd){ .fd = fd, .ev = ei, .cpu = cpu, .pid = pid };
	return 0;
}

static int open_task_cpu(struct sess *s, pid_t pid, int cpu)
{
	size_t first = s->nfd;

	for (size_t i = 0; i < s->l.nr; i++) {
		struct ev_desc *e = &s->l.ev[i];
		int gfd = -1, err;

		if (e->has_cpus && !(e->cpus[cpu / 8] & (1u << (cpu % 8))))
			continue;
		if (e->leader != (int)i && (gfd = leader_fd(s, first, e->leader)) < 0)
			continue;
		err = open_one(s, (int)i, pid, cpu, gfd);
		if (!err)
			continue;
		if (s->confirm && i >= s->confirm_ev) {
			snprintf(s->cf_reason, sizeof(s->cf_reason), "a watchpoint did not open (%s%s)",
				 strerror(-err), err == -ENOSPC ? ": the debug registers are in use" :
				 err == -EACCES || err == -EPERM ? ": perf_event_paranoid" : "");
			return ERR_CONFIRM_REFUSED;
		}
		if (e->role == EV_ROLE_TD_SLOTS || e->role == EV_ROLE_TD_METRIC ||
		    e->role == EV_ROLE_TD_READER ||
		    (s->l.td_enabled && (e->attr.sample_type & PERF_SAMPLE_READ)))
			return ERR_TD_REFUSED;
		return c2c_err(err, "cannot open event '%s' on CPU %d%s: %s%s", e->name, cpu,
			       pid > 0 ? " for the target" : "", strerror(-err),
			       open_hint(-err, e));
	}
	return 0;
}

void sess_close_all(struct sess *s)
{
	for (size_t i = 0; i < s->nfd; i++)
		close(s->fd[i].fd);
	s->nfd = 0;
}

int sess_open_all(struct sess *s)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int err = 0;

		for (size_t t = 0; t < s->ntask && !err; t++)
			for (int c = 0; c < s->ncpu && !err; c++)
				err = open_task_cpu(s, s->task[t], s->cpu[c]);
		if (err == ERR_CONFIRM_REFUSED) {
			sess_close_all(s);
			sess_confirm_drop(s, s->cf_reason);
			continue;
		}
		if (err != ERR_TD_REFUSED)
			return err;
		sess_close_all(s);
		if (s->l.td_reader)
			topdown_remove(&s->l, s->l.td_rd.scope_cpu ? "the kernel refused the TopDown "
				       "group beside the sampler (the core PMU's counters are taken, "
				       "or the events are unknown to it)" : "the kernel refused the "
				       "TopDown group beside the sampler (per thread it needs "
				       "PERF_SAMPLE_READ with inherit, kernel 6.12+; -a counts per CPU)");
		else
			topdown_remove(&s->l, "the kernel refused the TopDown group (needs PERF_METRICS "
				       "and PERF_SAMPLE_READ with inherit, kernel 6.12+)");
	}
	return -EINVAL;
}

/* --- rings and ids ------------------------------------------------------------------------------ */

static int cmp_ring_event(const void *a, const void *b)
{
	uint64_t x = ((const struct ring_event *)a)->id, y = ((const struct ring_event *)b)->id;

	return (x > y) - (x < y);
}

/* The AUX area lives on the CPU's ring and is mapped through the ring's own fd, which must be
 * the AUX event's (the kernel allocates it for that event's PMU): AUX events come first. */
static int setup_aux(struct sess *s, int c, size_t i)
{
	const struct ev_desc *e = &s->l.ev[s->fd[i].ev];
	int err;

	if (!e->aux_pages || s->ring[c].aux)
		return 0;
	if (s->ring[c].fd != s->fd[i].fd)
		return c2c_err(-EINVAL, "cannot map the AUX area of '%s' on CPU %d: the CPU's ring "
			       "belongs to another event", e->name, s->ring[c].cpu);
	s->aux = 1;
	err = ring_mmap_aux(&s->ring[c], e->aux_pages);
	if (err)
		return c2c_err(err, "cannot map the %u-page AUX area of '%s' on CPU %d: %s%s",
			       e->aux_pages, e->name, s->ring[c].cpu, strerror(-err),
			       err == -EPERM || err == -ENOMEM ? " (locked-memory limit: raise "
			       "'ulimit -l' or run as root)" : "");
	return 0;
}

int sess_setup_rings(struct sess *s)
{
	unsigned int pages = s->o->mmap_pages ? s->o->mmap_pages : s->l.spe_data_pages ?
			     s->l.spe_data_pages : DEFAULT_PAGES;

	s->ring = xcalloc((size_t)s->ncpu, sizeof(*s->ring));
	s->pfd = xcalloc((size_t)s->ncpu, sizeof(*s->pfd));
	for (int c = 0; c < s->ncpu; c++)
		s->ring[c].fd = -1;
	for (size_t i = 0; i < s->nfd; i++) {
		int c = 0, err;

		while (s->cpu[c] != s->fd[i].cpu)
			c++;
		if (s->ring[c].fd < 0) {
			err = ring_mmap(&s->ring[c], s->fd[i].fd, pages);
			if (err)
				return c2c_err(err, "cannot mmap %u pages for CPU %d: %s%s", pages,
					       s->fd[i].cpu, strerror(-err), err == -EPERM ?
					       " (locked-memory limit: use a smaller -m or raise "
					       "'ulimit -l')" : "");
			s->ring[c].cpu = s->fd[i].cpu;
		} else if (ioctl(s->fd[i].fd, PERF_EVENT_IOC_SET_OUTPUT, s->ring[c].fd)) {
			return c2c_err(-errno, "cannot redirect event output on CPU %d: %s",
				       s->fd[i].cpu, strerror(errno));
		}
		s->pfd[c] = (struct pollfd){ .fd = s->ring[c].fd, .events = POLLIN };
		err = setup_aux(s, c, i);
		if (err)
			return err;
	}
	return 0;
}

int sess_setup_layout(struct sess *s)
{
	s->lay.ev = xcalloc(s->nfd, sizeof(*s->lay.ev));
	s->lay.nr = s->nfd;
	for (size_t i = 0; i < s->nfd; i++) {
		const struct ev_desc *e = &s->l.ev[s->fd[i].ev];
		struct ring_event *re = &s->lay.ev[i];

		if (ioctl(s->fd[i].fd, PERF_EVENT_IOC_ID, &re->id))
			return c2c_err(-errno, "cannot read an event id: %s", strerror(errno));
		re->sample_type = e->attr.sample_type;
		re->read_format = e->attr.read_format;
		re->regs_user = e->attr.sample_regs_user;
		re->index = (uint16_t)s->fd[i].ev;
		re->td_index = (int16_t)(e->role == EV_ROLE_TD_SLOTS || e->role == EV_ROLE_TD_READER ?
					 -2 : e->td_index);
	}
	qsort(s->lay.ev, s->lay.nr, sizeof(*s->lay.ev), cmp_ring_event);
	s->lay.id_sample_type = s->l.ev[0].attr.sample_type;
	return 0;
}

void sess_enable_all(struct sess *s, unsigned long req)
{
	for (size_t i = 0; i < s->nfd; i++) {
		const struct ev_desc *e = &s->l.ev[s->fd[i].ev];

		if (req == PERF_EVENT_IOC_ENABLE && s->confirm && (size_t)s->fd[i].ev >= s->confirm_ev)
			continue;            /* the confirmation windows arm them */
		if (e->leader == s->fd[i].ev)
			ioctl(s->fd[i].fd, req, PERF_IOC_FLAG_GROUP);
	}
}
