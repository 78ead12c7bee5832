/* The watch backend's run in a recording (record/session-int.h): the words resolved before the
 * events open, rotated over the debug registers, armed by the duty cycle. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/watch.h"
#include "c2c/xalloc.h"
#include "record/backend-watch.h"
#include "record/events.h"
#include "record/session-int.h"
#include "record/sys.h"
#include "record/sysfs.h"
#include "record/workload.h"

/* Watch: move the debug registers to the next words (PERF_EVENT_IOC_MODIFY_ATTRIBUTES reaches
 * the inherited copies of every thread). */
int sess_rotate(struct sess *s)
{
	s->rot_step++;
	for (size_t i = 0; i < s->nfd; i++) {
		const struct ev_desc *e = &s->l.ev[s->fd[i].ev];
		const struct watch_word *w;
		struct perf_event_attr a;

		if (e->backend != TRACE_BACKEND_WATCH || e->role != EV_ROLE_SAMPLER)
			continue;
		w = &s->plan.w[watch_plan_word(&s->plan, s->rot_step, (unsigned int)s->fd[i].ev)];
		a = e->attr;
		a.bp_addr = w->addr;
		a.bp_len = w->len;
		/* the kernel re-enables the event only when this is clear: paused by the duty
		 * cycle, it stays paused */
		a.disabled = !s->duty.armed;
		if (ioctl(s->fd[i].fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a))
			return c2c_err(-errno, "cannot move a watchpoint to %s (0x%llx/%u): %s%s",
				       w->label, (unsigned long long)w->addr, w->len, strerror(errno),
				       errno == ENOTTY || errno == EINVAL ? " (the kernel cannot modify "
				       "breakpoints: watch at most 4 words)" : "");
	}
	return 0;
}

/* Watch: the task-clock counters that measure the workload's CPU time, every thread (inherit;
 * read() sums the children). */
int sess_open_clocks(struct sess *s)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = 1;
	a.exclude_kernel = 1;        /* the count is time either way; this needs no privilege */
	a.exclude_hv = 1;
	s->clock_fd = xcalloc(s->ntask, sizeof(*s->clock_fd));
	for (size_t i = 0; i < s->ntask; i++) {
		int fd = sys_perf_event_open(&a, s->task[i], -1, -1, PERF_FLAG_FD_CLOEXEC);

		if (fd < 0)
			return c2c_err(-errno, "cannot count the CPU time of task %d (task-clock), "
				       "which bounds the watchpoints' overhead: %s", (int)s->task[i],
				       strerror(errno));
		s->clock_fd[s->nclock++] = fd;
	}
	return 0;
}

uint64_t sess_read_count(int fd)
{
	uint64_t v[4] = { 0 };

	return read(fd, v, sizeof(v)) >= (ssize_t)sizeof(v[0]) ? v[0] : 0;
}

static int is_watch_fd(const struct sess *s, size_t i)
{
	const struct ev_desc *e = &s->l.ev[s->fd[i].ev];

	return e->backend == TRACE_BACKEND_WATCH && e->role == EV_ROLE_SAMPLER;
}

/* The workload's CPU time, and the hits so far: the samples drained, and the records the rings
 * lost (each was a trap too). */
static void duty_read(const struct sess *s, uint64_t *cpu, uint64_t *hits)
{
	*cpu = 0;
	for (size_t i = 0; i < s->nclock; i++)
		*cpu += sess_read_count(s->clock_fd[i]);
	*hits = s->res->samples + s->res->lost_records;
}

/* Watch: one step of the duty cycle (backend-watch.h); arms or disarms the watchpoints (the
 * ioctl reaches the inherited copies of every thread). */
void sess_duty_tick(struct sess *s)
{
	uint64_t cpu, hits;
	size_t words[WATCH_SLOTS_X86];
	int was = s->duty.armed, now;

	duty_read(s, &cpu, &hits);
	for (unsigned int k = 0; k < s->plan.slots; k++)
		words[k] = watch_plan_word(&s->plan, s->rot_step, k);
	now = watch_duty_tick(&s->duty, cpu, hits, words, s->plan.slots);
	if (now == was)
		return;
	for (size_t i = 0; i < s->nfd; i++)
		if (is_watch_fd(s, i))
			ioctl(s->fd[i].fd, now ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
	duty_read(s, &cpu, &hits);
	watch_duty_switched(&s->duty, cpu, hits);
}

/* Watch: the duty-cycle summary as a blob; the last one in the trace holds. */
int sess_write_duty(struct sess *s)
{
	char buf[8192];

	return sess_write_text_blob(s, TRACE_BLOB_WATCH_DUTY, s->last_time, buf,
			       c2c_watch_duty_format(&s->duty.d, buf, sizeof(buf)), 0);
}

/* Watch backend, forked workload: hold it by ptrace across its exec, then resolve the words.
 * Existing processes (-p) are resolved as they run. */
int sess_watch_prepare(struct sess *s)
{
	pid_t pid = s->wl.pid > 0 ? s->wl.pid : s->o->nr_pids ? s->o->pids[0] : 0;
	char link[64], exe[4096];
	double ns_per_hit;
	ssize_t n;
	int err;

	if (!pid)
		return c2c_err(-EINVAL, "--backend=watch needs a command or -p PID (not -a)");
	if (s->wl.pid > 0) {
		if ((err = watch_seize(pid)))
			return err;
		s->traced = 1;
		if ((err = workload_start(&s->wl, s->o->argv[0])) || (err = watch_wait_exec(pid)))
			return err;
	}
	snprintf(link, sizeof(link), "%s/proc/%d/exe", sysfs_root(), (int)pid);
	if ((n = readlink(link, exe, sizeof(exe) - 1)) < 0)
		return c2c_err(-errno, "cannot read '%s': %s", link, strerror(errno));
	exe[n] = '\0';
	err = watch_plan_build(&s->plan, s->o->watch, s->o->nr_watch, pid, exe);
	if (err)
		return err;
	s->own_cm = codemap_new();
	s->cm = s->own_cm;
	if ((err = watch_decoder_new(&s->wd, s->cm)))
		return err;
	if ((err = watch_calibrate(&ns_per_hit)))
		return err;
	c2c_debug("watch: one hit costs %.0f ns of CPU time here", ns_per_hit);
	watch_duty_init(&s->duty, s->o->watch_budget < 0 ? 0 : s->o->watch_budget > 0 ?
			s->o->watch_budget : C2C_WATCH_BUDGET_DEFAULT, ns_per_hit, &s->plan);
	s->eo.workload = 0;          /* opened after the exec: enabled explicitly */
	return 0;
}
