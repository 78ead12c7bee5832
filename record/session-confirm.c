/* The soft backend's confirmation by watchpoints in a recording (record/session-int.h,
 * record/confirm.h): the events added, the windows armed in turn, their results written. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "c2c/confirm.h"
#include "c2c/log.h"
#include "c2c/soft.h"
#include "c2c/trace.h"
#include "record/backend-watch.h"
#include "record/confirm.h"
#include "record/events.h"
#include "record/machine.h"
#include "record/rate-plan.h"
#include "record/session-int.h"

#define CONFIRM_PLACEHOLDER 0x1000 /* where the confirmation watchpoints wait, disabled */

/* Soft: a decoded sample heats its line for the confirmation (record/confirm.h). */
void sess_confirm_feed(struct sess *s, const struct trace_sample *o)
{
	enum softdec_kind k = softdec_detail_kind(o->detail);

	if (!s->confirm || !(o->flags & TRACE_SAMPLE_HAS_ADDR) ||
	    o->cpumode != PERF_RECORD_MISC_USER || o->addr >= 0x800000000000ull || o->addr < 4096)
		return;
	confirm_sel_feed(&s->sel, o->pid, o->tid, o->addr, k == SOFTDEC_STORE ||
			 k == SOFTDEC_ATOMIC, (o->flags & TRACE_SAMPLE_HAS_WEIGHT) ? o->weight : 1);
}

/* Say once why there is no confirmation, and keep it for the trace. */
static void confirm_off(struct sess *s, enum c2c_confirm_status st, const char *why)
{
	s->crun.status = st;
	snprintf(s->crun.reason, sizeof(s->crun.reason), "%s", why);
	if (st == C2C_CONFIRM_UNAVAILABLE)
		c2c_info("soft backend: no confirmation by watchpoints: %s; the report judges from "
			 "the samples alone", why);
}

/* Beside the soft event, C2C_CONFIRM_SLOTS watchpoints wait disabled at a placeholder; the
 * windows move them onto candidate words (PERF_EVENT_IOC_MODIFY_ATTRIBUTES reaches the
 * inherited copies of every thread, as the watch backend's rotation does). They are opened on
 * the targets with inherit before the workload runs, as the soft event is: run-time addresses
 * come from the samples, so no symbol and no stop after exec is needed. */
int sess_confirm_add_events(struct sess *s)
{
	uint32_t backend = s->l.backend;
	char pmu[sizeof(s->l.pmu_name)];
	int err = 0;

	if (backend != TRACE_BACKEND_SOFT)
		return 0;
	if (s->o->no_confirm) {
		confirm_off(s, C2C_CONFIRM_OFF, "--no-confirm");
		return 0;
	}
	if (s->o->ev.system_wide) {
		confirm_off(s, C2C_CONFIRM_UNAVAILABLE, "not with -a (the watchpoints follow a "
			    "command or -p/-t)");
		return 0;
	}
#ifndef __x86_64__
	confirm_off(s, C2C_CONFIRM_UNAVAILABLE, "x86-64 only");
	return 0;
#endif
	memcpy(pmu, s->l.pmu_name, sizeof(pmu));
	s->confirm_ev = s->l.nr;
	for (unsigned int i = 0; i < C2C_CONFIRM_SLOTS && !err; i++)
		err = events_add_watch(&s->l, CONFIRM_PLACEHOLDER + 8 * i, 8, "confirm");
	s->l.backend = backend;          /* the trace stays a soft one */
	memcpy(s->l.pmu_name, pmu, sizeof(pmu));
	s->confirm = !err;
	return err;
}

/* No confirmation after all: its events go (they are the last ones), said once. */
void sess_confirm_drop(struct sess *s, const char *why)
{
	if (!s->confirm)
		return;
	s->l.nr = s->confirm_ev;
	s->confirm = 0;
	confirm_off(s, C2C_CONFIRM_UNAVAILABLE, why);
}

static void confirm_hook(enum c2c_log_level level, const char *msg, void *ctx)
{
	char *buf = ctx;

	if (level <= C2C_LOG_WARN && !buf[0])
		snprintf(buf, 256, "%s", msg);
}

/* After the soft backend is set up: a watch decoder over its code map, the cost of a hit
 * measured (a watchpoint that does not fire makes confirmation unavailable), and the duty
 * cycle's bound: what the samples leave of --soft-overhead. */
int sess_confirm_prepare(struct sess *s)
{
	double budget = s->o->rate.budget ? s->o->rate.budget : SOFT_BUDGET_DEFAULT,
	       ns_per_hit = 0, share;
	struct watch_plan none = { 0 };
	char why[256] = "";
	c2c_log_fn old;
	int err;

	if (!s->confirm)
		return 0;
	old = c2c_log_set_hook(confirm_hook, why);
	err = watch_calibrate(&ns_per_hit);
	c2c_log_set_hook(old, NULL);
	if (err) {
		sess_confirm_drop(s, why[0] ? why : "no watchpoint could be measured");
		return 0;
	}
	if ((err = watch_decoder_new(&s->wd, s->cm)))
		return err;
	if (budget < 0) {
		/* --soft-overhead unlimited is about the rate: unbounded traps would make a tight loop
		 * over a watched word hundreds of times slower, so they keep the default bound */
		budget = SOFT_BUDGET_DEFAULT;
	} else {
		/* what the sampling rate leaves; unmeasured (-F, -c): what the rate does not aim at */
		share = s->eo.rate.share > 0 ? s->eo.rate.share : budget * SOFT_BUDGET_AIM;
		budget = budget - share > budget * 0.05 ? budget - share : budget * 0.05;
	}
	watch_duty_init(&s->cduty, budget, ns_per_hit, &none);
	s->cduty.armed = 0;              /* nothing to watch yet */
	s->crun.budget = budget;
	s->crun.ns_per_hit = ns_per_hit;
	confirm_sel_init(&s->sel, machine_cacheline(), C2C_CONFIRM_SLOTS);
	c2c_debug("soft backend: confirmation by watchpoints: a hit costs %.0f ns here, the traps "
		  "are bounded to %.3g%% of the workload's time", ns_per_hit, budget * 100);
	return 0;
}

/* Move the watchpoints onto the window's words (the unused ones parked), @armed or not. */
static int confirm_arm(struct sess *s, int armed)
{
	for (size_t i = 0; i < s->nfd; i++) {
		const struct ev_desc *e = &s->l.ev[s->fd[i].ev];
		size_t k = (size_t)s->fd[i].ev - s->confirm_ev;
		struct perf_event_attr a;

		if ((size_t)s->fd[i].ev < s->confirm_ev)
			continue;
		a = e->attr;
		if (k < s->win.nr_words) {
			a.bp_addr = s->win.word[k].addr;
			a.bp_len = s->win.word[k].len;
		}
		a.disabled = !armed || k >= s->win.nr_words;
		if (ioctl(s->fd[i].fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a))
			return -errno;
	}
	return 0;
}

/* Arm or disarm the window's watchpoints as they are (the duty cycle's switch). */
static void confirm_enable(struct sess *s, int on)
{
	for (size_t i = 0; i < s->nfd; i++)
		if ((size_t)s->fd[i].ev >= s->confirm_ev &&
		    (size_t)s->fd[i].ev - s->confirm_ev < s->win.nr_words)
			ioctl(s->fd[i].fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

static void confirm_read(const struct sess *s, uint64_t *cpu, uint64_t *hits)
{
	*cpu = 0;
	for (size_t i = 0; i < s->nclock; i++)
		*cpu += sess_read_count(s->clock_fd[i]);
	*hits = s->chits + s->res->lost_records;   /* a lost record may have been a trap */
}

/* The window that ends, as a blob in time order after its hits (the rings were just drained). */
static void confirm_close(struct sess *s)
{
	char buf[1024];

	s->win.armed_ns = s->cduty.d.armed_ns - s->win_armed0;
	s->win.hits = s->chits - s->win_hits0;
	if (!s->win.nr_words || (!s->win.armed_ns && !s->win.hits))
		return;
	confirm_sel_result(&s->sel, &s->win, s->cf_nr_tids);
	s->cf_nr_tids = 0;
	s->crun.windows++;
	sess_write_text_blob(s, TRACE_BLOB_CONFIRM_WINDOW, s->max_time, buf,
			c2c_confirm_window_format(&s->win, buf, sizeof(buf)), 1);
}

/* One step: the duty cycle every CONFIRM_TICK_MS, a new window every CONFIRM_STEP_MS once the
 * current one was armed for a while (a window paused by the bound keeps its words); @final
 * closes the last window. */
int sess_confirm_step(struct sess *s, int final)
{
	double now = now_s();
	uint64_t cpu, hits;
	int allow, want;

	if (!s->confirm || (!final && now < s->next_tick && now < s->next_window))
		return 0;
	s->next_tick = now + (s->cf_armed ? CONFIRM_TICK_MS : CONFIRM_IDLE_MS) / 1000.0;
	confirm_read(s, &cpu, &hits);
	s->cduty.armed = s->cf_armed;    /* the interval is charged as it was */
	allow = watch_duty_tick(&s->cduty, cpu, hits, NULL, 0);
	want = allow && s->win.nr_words && !final;
	if (final || (now >= s->next_window && (!s->win.nr_words || s->cduty.d.armed_ns >
						s->win_armed0))) {
		struct c2c_confirm_window w;

		confirm_close(s);
		s->win_armed0 = s->cduty.d.armed_ns;   /* the next window (or this one, going on) */
		s->win_hits0 = s->chits;
		s->next_window = now + CONFIRM_STEP_MS / 1000.0;
		if (final) {
			s->cduty.armed = s->cf_armed = 0;
			s->crun.lines = s->sel.lines;
			return 0;
		}
		if (confirm_sel_next(&s->sel, &w)) {
			s->win = w;
			want = allow;
			if (confirm_arm(s, want)) {
				c2c_debug("confirm: cannot watch the line 0x%llx of pid %u: %s",
					  (unsigned long long)w.line, w.pid, strerror(errno));
				s->win.nr_words = 0;
				confirm_arm(s, 0);
				want = 0;
			}
			s->cduty.armed = s->cf_armed = want;
			s->crun.lines = s->sel.lines;
			return 0;
		}
	}
	if (want != s->cf_armed) {
		confirm_enable(s, want);
		confirm_read(s, &cpu, &hits);
		watch_duty_switched(&s->cduty, cpu, hits);
	}
	s->cduty.armed = s->cf_armed = want;
	return 0;
}

/* The run's confirmation as a blob; the last one in the trace holds. */
int sess_write_confirm_run(struct sess *s)
{
	char buf[2048];

	s->crun.cpu_ns = s->cduty.d.cpu_ns;
	s->crun.trap_ns = s->cduty.d.trap_ns;
	s->crun.armed_ns = s->cduty.d.armed_ns;
	s->crun.hits = s->chits;
	return sess_write_text_blob(s, TRACE_BLOB_CONFIRM_RUN, s->max_time, buf,
			       c2c_confirm_run_format(&s->crun, buf, sizeof(buf)), 0);
}
