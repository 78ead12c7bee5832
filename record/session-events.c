/* The choice of a recording's events (record/session-int.h): -e, else the backend's, with
 * their rate planned and the trace header's description of them. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/backend-soft.h"
#include "record/backend-watch.h"
#include "record/events.h"
#include "record/rate-plan.h"
#include "record/session-int.h"
#include "record/topdown.h"

/* Auto: keep the reason the memory events are unavailable instead of printing it as an error. */
struct quiet_log {
	char msg[320];               /* the first error */
	char other[4][320];          /* the other messages, replayed after */
	enum c2c_log_level level[4];
	int nr;
};

static void quiet_hook(enum c2c_log_level level, const char *msg, void *ctx)
{
	struct quiet_log *q = ctx;

	if (level == C2C_LOG_ERROR && !q->msg[0]) {
		snprintf(q->msg, sizeof(q->msg), "%s", msg);
	} else if (q->nr < 4) {
		q->level[q->nr] = level;
		snprintf(q->other[q->nr++], sizeof(q->other[0]), "%s", msg);
	}
}

/* No -e and no --backend: the memory events when the machine has them, else the soft backend.
 * (The log hook is borrowed meanwhile; the command line runs with the default hook.) */
static int add_auto(struct sess *s)
{
	struct quiet_log q = { .msg = "" };
	c2c_log_fn old = c2c_log_set_hook(quiet_hook, &q);
	int err = events_add_default(&s->l, &s->eo);

	c2c_log_set_hook(old, NULL);
	for (int i = 0; i < q.nr; i++)
		c2c_log(q.level[i], "%s", q.other[i]);
	if (err != -ENOTSUP) {
		if (err && q.msg[0])
			c2c_log(C2C_LOG_ERROR, "%s", q.msg);
		return err;
	}
	events_release(&s->l);
	events_init(&s->l);
	events_detect_cpu(&s->l);
	c2c_info("no memory-sampling PMU here (-v says why): falling back to the soft backend");
	c2c_debug("%s", q.msg);
	return events_add_soft(&s->l, &s->eo);
}

static int add_backend_events(struct sess *s)
{
	const struct record_opts *o = s->o;
	int err = 0;

	switch (o->backend) {
	case RECORD_BACKEND_SOFT:
		return events_add_soft(&s->l, &s->eo);
	case RECORD_BACKEND_WATCH:
		for (unsigned int i = 0; i < s->plan.slots && !err; i++)
			err = events_add_watch(&s->l, s->plan.w[i].addr, s->plan.w[i].len,
					       s->plan.w[i].label);
		return err;
	case RECORD_BACKEND_HW:
		err = events_add_default(&s->l, &s->eo);
		if (err)
			c2c_info("hint: --backend=soft estimates without a PMU; -e page-faults works");
		return err;
	default:
		return add_auto(s);
	}
}

/* -m N,M: the AUX area of the SPE event, in pages; perf wants at least 8 KiB. */
static int aux_size(struct sess *s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int found = 0;

	if (!s->o->aux_pages)
		return 0;
	for (size_t i = 0; i < s->l.nr; i++)
		if (s->l.ev[i].aux_pages) {
			s->l.ev[i].aux_pages = s->o->aux_pages;
			found = 1;
		}
	if (!found)
		return c2c_err(-EINVAL, "-m N,%u: an AUX area size applies to Arm SPE events only",
			       s->o->aux_pages);
	if ((size_t)s->o->aux_pages * page < 8192 || s->o->aux_pages < 2)
		return c2c_err(-EINVAL, "-m N,%u: the SPE AUX area needs at least 8 KiB and two "
			       "pages", s->o->aux_pages);
	return 0;
}

int sess_build_events(struct sess *s)
{
	const struct record_opts *o = s->o;
	int err = events_detect_cpu(&s->l), hw = !o->nr_events;

	if (err)
		c2c_warn("cannot read /proc/cpuinfo: %s", strerror(-err));
	err = 0;
	for (size_t i = 0; i < o->nr_events && !err; i++)
		err = events_add_string(&s->l, &s->eo, o->events[i]);
	if (!o->nr_events)
		err = add_backend_events(s);
	if (!err && !o->nr_events)
		err = sess_confirm_add_events(s);
	if (err)
		return err;
	hw = hw && s->l.backend != TRACE_BACKEND_SOFT && s->l.backend != TRACE_BACKEND_WATCH;
	for (size_t i = 0; i < s->l.nr; i++)
		hw |= s->l.ev[i].backend != TRACE_BACKEND_SWEVENT &&
		      s->l.ev[i].backend != TRACE_BACKEND_SOFT &&
		      s->l.ev[i].backend != TRACE_BACKEND_WATCH;
	if ((err = events_finalize(&s->l, &s->eo)))
		return err;
	for (size_t i = s->confirm ? s->confirm_ev : s->l.nr; i < s->l.nr; i++) {
		/* armed by the windows, never at exec; a hit needs no callchain (its row is the
		 * access, and a trap that copies a stack costs more) */
		s->l.ev[i].attr.enable_on_exec = 0;
		s->l.ev[i].attr.sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN |
							   PERF_SAMPLE_STACK_USER);
		s->l.ev[i].attr.sample_stack_user = 0;
		s->l.ev[i].attr.exclude_callchain_user = 0;
	}
	if ((err = aux_size(s)))
		return err;
	/* beside IBS and SPE TopDown is a sampling group of its own (more events, more records,
	 * another kernel rule): only when asked; perf c2c's attrs otherwise */
	if (o->topdown == 1 || (o->topdown < 0 && hw && s->l.backend != TRACE_BACKEND_SWEVENT &&
				s->l.backend != TRACE_BACKEND_IBS && s->l.backend != TRACE_BACKEND_SPE))
		err = topdown_add(&s->l, &s->eo);
	if (!err && s->l.td_reason[0] && o->topdown != 0) {
		c2c_info("TopDown unavailable (-v says why)");
		c2c_debug("TopDown: %s", s->l.td_reason);
	}
	if (o->topdown < 0 && hw && (s->l.backend == TRACE_BACKEND_IBS ||
				     s->l.backend == TRACE_BACKEND_SPE))
		snprintf(s->l.td_reason, sizeof(s->l.td_reason), "beside %s samples TopDown is a "
			 "group of its own, counted only with --topdown",
			 s->l.backend == TRACE_BACKEND_IBS ? "IBS" : "SPE");
	return err;
}

/* Before the events are built: the rate they take, the one plan of this machine for what the
 * user asked (the default comes down to the kernel's cap). */
int sess_rate_first(struct sess *s)
{
	struct rate_req req = s->o->rate;

	req.soft = 0;                      /* the backend is not known yet */
	req.ns_per_sample = -1;
	if (rate_plan_here(&req, &s->eo.rate))   /* cmd-record.c refused it already */
		return c2c_err(s->eo.rate.err, "%s", s->eo.rate.reason);
	return 0;
}

static void rate_say(const struct rate_plan *p)
{
	if (!p->say)
		return;
	c2c_info("%s", p->reason);
	if (*p->detail)
		c2c_info("%s", p->detail);
}

/* Once the backend is known: the soft backend's rate is lowered where a sample costs the
 * sampled threads more than the bound allows (soft_calibrate() measures, rate_plan()
 * decides); the rate is said when it is not the one asked. */
int sess_plan_rate(struct sess *s)
{
	struct rate_plan *p = &s->eo.rate;
	int soft = s->l.backend == TRACE_BACKEND_SOFT, err, by_freq = 0;
	struct ev_desc *e = NULL;
	double ns;

	rate_replan(p, soft, -1);
	for (size_t i = 0; i < s->l.nr; i++) {
		by_freq |= s->l.ev[i].attr.freq;
		if (soft && !e && s->l.ev[i].backend == TRACE_BACKEND_SOFT)
			e = &s->l.ev[i];
	}
	if (!by_freq)                        /* periods only (SPE, watchpoints): no rate to say */
		return 0;
	if (p->measure && e && e->attr.freq) {
		if ((err = soft_calibrate(&e->attr, &ns)))
			return err;
		rate_replan(p, soft, ns);     /* its share: what the confirmation's bound leaves */
		c2c_debug("soft backend: a sample costs the sampled thread about %.1f us here "
			  "(measured): %.2g%% of its time at %llu Hz (--soft-overhead PCT bounds it, "
			  "-F sets the rate)", ns / 1e3, ns * (double)e->attr.sample_freq / 1e7,
			  (unsigned long long)e->attr.sample_freq);
		e->attr.sample_freq = p->freq;
	}
	rate_say(p);
	return 0;
}

void sess_describe(struct sess *s)
{
	const char *base = s->o->options ? s->o->options : "";
	size_t size = strlen(base) + 8192;

	s->options = xmalloc(size);
	if (s->l.backend == TRACE_BACKEND_SOFT) {
		snprintf(s->options, size, "%s%sbackend: soft (cpu-clock:u with user registers, "
			 "data addresses decoded at record time)", base, *base ? "; " : "");
		c2c_info("backend: soft (cpu-clock samples decoded into data accesses: estimates)");
	} else if (s->l.backend == TRACE_BACKEND_WATCH) {
		int n = snprintf(s->options, size, "%s%sbackend: ", base, *base ? "; " : "");

		watch_plan_describe(&s->plan, s->o->watch_step_ms ? s->o->watch_step_ms :
				    WATCH_STEP_MS_DEFAULT, s->options + n, size - (size_t)n);
		if (s->plan.nr > s->plan.slots)
			c2c_info("backend: watch, %zu words rotated over %u debug registers",
				 s->plan.nr, s->plan.slots);
		else
			c2c_info("backend: watch, %zu word%s", s->plan.nr, s->plan.nr == 1 ? "" : "s");
		c2c_debug("backend: %s", s->options + n);
	} else {
		snprintf(s->options, size, "%s", base);
	}
}
