/* One recording's lifecycle (see session.h): the setup in order, the loop until the targets end,
 * the duration elapses or a signal comes, then the end of the trace. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2c/confirm.h"
#include "c2c/log.h"
#include "c2c/spe.h"
#include "c2c/trace.h"
#include "record/backend-soft.h"
#include "record/backend-watch.h"
#include "record/buildid.h"
#include "record/confirm.h"
#include "record/events.h"
#include "record/pagemap.h"
#include "record/priv.h"
#include "record/queue.h"
#include "record/regions.h"
#include "record/ring.h"
#include "record/session-int.h"
#include "record/session.h"
#include "record/uncore.h"
#include "record/unwind-rec.h"
#include "record/workload.h"

static int targets_alive(const struct sess *s)
{
	if (s->o->ev.system_wide || s->wl.pid > 0)
		return 1;
	for (size_t i = 0; i < s->o->nr_pids; i++)
		if (!kill(s->o->pids[i], 0) || errno != ESRCH)
			return 1;
	return 0;
}

static void reap_child(struct sess *s, int block)
{
	if (!s->wl.pid || !workload_reap(&s->wl, block))
		return;
	s->res->have_status = s->wl.started;   /* it was released to exec */
	s->res->status = s->wl.status;
}

static int rotating(const struct sess *s)
{
	return s->plan.nr > s->plan.slots;
}

static int loop(struct sess *s)
{
	double end = s->o->duration > 0 ? now_s() + s->o->duration : 0, next_flush = now_s() + 1;
	int err = 0;

	while (!err) {
		if (s->o->stop && *s->o->stop) {
			s->res->stop = RECORD_STOP_SIGNAL;
			break;
		}
		if (end && now_s() >= end) {
			s->res->stop = RECORD_STOP_DURATION;
			break;
		}
		reap_child(s, 0);
		if (s->wl.done || !targets_alive(s))
			break;
		if (poll(s->pfd, (nfds_t)s->ncpu, watch_mode(s) ? 1 : !s->confirm ? 100 :
			 s->cf_armed ? CONFIRM_TICK_MS : CONFIRM_IDLE_MS) < 0 && errno != EINTR)
			return c2c_err(-errno, "poll failed: %s", strerror(errno));
		err = sess_drain_round(s);
		if (!err && s->confirm)
			err = sess_confirm_step(s, 0);
		if (!err && watch_mode(s) && now_s() >= s->next_tick) {
			sess_duty_tick(s);
			s->next_tick = now_s() + WATCH_TICK_MS / 1000.0;
		}
		if (!err && rotating(s) && now_s() >= s->next_rot) {
			err = sess_rotate(s);
			s->next_rot += (s->o->watch_step_ms ? s->o->watch_step_ms :
					WATCH_STEP_MS_DEFAULT) / 1000.0;
		}
		if (!err && now_s() >= next_flush) {
			/* a chunk boundary each second: a crash of the recorder loses at most that */
			if (watch_mode(s))
				err = sess_write_duty(s);
			if (!err && s->confirm)
				err = sess_write_confirm_run(s);
			if (!err)
				err = trace_writer_flush(s->w);
			next_flush = now_s() + 1;
		}
	}
	return err;
}

static int finish(struct sess *s, int err)
{
	const char *out = s->o->output ? s->o->output : "c2c-lite.data";

	if (s->traced && s->wl.pid > 0) {
		kill(s->wl.pid, SIGKILL);    /* a ptrace-stopped workload ignores SIGTERM */
		s->wl.started = 0;           /* it never ran: its status is not the result */
	}
	s->res->watch_words = s->plan.nr;
	s->res->watch_slots = s->plan.slots;
	if (s->wl.pid > 0 && !s->wl.done) {
		workload_stop(&s->wl);
		reap_child(s, 1);
	}
	sess_enable_all(s, PERF_EVENT_IOC_DISABLE);
	if (s->w) {
		int e = err ? 0 : sess_drain_round(s);

		if (!e && !err && s->confirm)
			e = sess_confirm_step(s, 1);
		if (!e && !err)
			e = oq_finish(&s->q);
		if (!e && !err)
			e = sess_write_uncore(s);
		if (!e && !err)
			e = sess_write_run(s);
		if (!e && !err && (s->confirm || s->crun.status != C2C_CONFIRM_ON))
			e = sess_write_confirm_run(s);
		if (!e && !err && watch_mode(s)) {
			sess_duty_tick(s);
			s->res->watch_seen = c2c_watch_duty_seen(&s->duty.d);
			s->res->watch_seen_bound = c2c_watch_duty_bound(&s->duty.d);
			s->res->watch_budget = s->duty.d.budget;
			e = sess_write_duty(s);
		}
		if (e && !err)
			err = e;
		s->res->records = trace_writer_records(s->w);
		s->res->bytes = trace_writer_bytes(s->w);
		e = trace_writer_close(s->w);
		if (e && !err)
			err = e;
		if (strcmp(out, "-")) {
			struct stat st;

			/* nothing was recorded (the workload could not start, or the setup failed
			 * after the file was created): leave no trace behind (a regular file: -o
			 * /dev/null stays) */
			if (!s->running && !stat(out, &st) && S_ISREG(st.st_mode) && !unlink(out))
				s->res->removed = 1;
			else if (!stat(out, &st))
				s->res->bytes = (uint64_t)st.st_size;
		}
		if (err == -ENOSPC || err == -EIO || err == -EFBIG || err == -EPIPE)
			s->res->write_error = (uint64_t)-err;
		s->w = NULL;
	}
	s->res->exec_errno = s->wl.exec_errno;
	s->res->regions = regions_count(s->reg);
	if (s->soft)                     /* after the last drain */
		s->res->soft_recovered = soft_backend_stats(s->soft)->recovered;
	if (s->soft) {
		s->res->confirm_status = (int)s->crun.status;
		snprintf(s->res->confirm_reason, sizeof(s->res->confirm_reason), "%s", s->crun.reason);
		s->res->confirm_hits = s->crun.hits;
		s->res->confirm_windows = s->crun.windows;
		s->res->confirm_lines = s->crun.lines;
		s->res->confirm_budget = s->crun.budget;
		s->res->confirm_seen = s->crun.cpu_ns > s->crun.trap_ns ? (double)s->crun.armed_ns /
				       (double)(s->crun.cpu_ns - s->crun.trap_ns) : 0;
	}
	return err;
}

void sess_free(struct sess *s)
{
	for (int c = 0; s->ring && c < s->ncpu; c++)
		if (s->ring[c].fd >= 0)
			ring_unmap(&s->ring[c]);
	sess_close_all(s);
	workload_release(&s->wl);
	free(s->ring);
	free(s->pfd);
	free(s->fd);
	free(s->cpu);
	free(s->task);
	free(s->lay.ev);
	oq_release(&s->q);
	buildid_cache_free(s->bc);
	soft_backend_free(s->soft);
	watch_decoder_free(s->wd);
	if (s->unw)
		rec_unwind_counts(s->unw, &s->res->unwound, &s->res->unwind_walked);
	rec_unwind_free(s->unw);
	pagemap_free(s->pm);
	codemap_free(s->own_cm);
	watch_plan_release(&s->plan);
	for (size_t i = 0; i < s->nclock; i++)
		close(s->clock_fd[i]);
	free(s->clock_fd);
	free(s->options);
	regions_free(s->reg);
	confirm_sel_release(&s->sel);
	uncore_release(&s->unc);
	c2c_spe_info_release(&s->spe);
	events_release(&s->l);
}

static int setup(struct sess *s)
{
	int err, watch = s->o->backend == RECORD_BACKEND_WATCH;

	if ((err = sess_rate_first(s)))
		return err;
	if (!watch && (err = sess_build_events(s)))
		return err;
	if ((err = sess_read_cpus(s)))
		return err;
	s->wl.stdout_to_stderr = s->o->output && !strcmp(s->o->output, "-");
	if (s->o->argv && ((err = regions_open(&s->reg)) || (err = workload_fork(&s->wl, s->o->argv))))
		return err;
	if (watch && ((err = sess_watch_prepare(s)) || (err = sess_build_events(s))))
		return err;
	if (s->o->rate.budget && s->l.backend != TRACE_BACKEND_SOFT)
		return c2c_err(-EINVAL, "--soft-overhead applies to the soft backend; this machine "
			       "records with its memory events (--backend=soft to use it)");
	if ((err = sess_plan_rate(s)))
		return err;
	if (s->o->no_confirm && s->l.backend != TRACE_BACKEND_SOFT)
		return c2c_err(-EINVAL, "--no-confirm applies to the soft backend; this machine "
			       "records with its memory events (--backend=soft to use it)");
	if (s->l.backend == TRACE_BACKEND_SOFT) {
		if ((err = soft_backend_new(&s->soft)))
			return err;
		s->cm = soft_backend_codemap(s->soft);
	}
	if (s->o->ev.callchain == 2)
		s->unw = rec_unwind_new();
	/* frame numbers are shown to CAP_SYS_ADMIN only: others would read zeros */
	if (s->soft && (err = sess_confirm_prepare(s)))
		return err;
	if ((s->soft || s->wd) && geteuid() == 0)
		s->pm = pagemap_new();
	else if (s->soft || s->wd)
		c2c_debug("no physical addresses: /proc/PID/pagemap gives frame numbers to root only");
	sess_describe(s);
	if ((err = sess_read_tasks(s)) || (err = sess_open_all(s)) || ((s->wd || s->confirm) && (err = sess_open_clocks(s))) ||
	    (err = sess_setup_rings(s)) ||
	    (err = sess_setup_layout(s)) || (err = sess_open_writer(s)) ||
	    (s->aux && (err = sess_write_spe_info(s))) || (err = sess_write_td_reader(s)) ||
	    (err = sess_synthesize(s)))
		return err;
	if ((err = uncore_plan(&s->unc)))
		return err;
	uncore_open(&s->unc);
	s->unc_t0 = now_s();
	snprintf(s->res->td_reason, sizeof(s->res->td_reason), "%s", s->l.td_reason);
	s->res->backend = s->l.backend;
	if (s->o->argv && !watch && (err = workload_start(&s->wl, s->o->argv[0])))
		return err;
	if (!s->o->argv || s->o->ev.system_wide || watch)
		sess_enable_all(s, PERF_EVENT_IOC_ENABLE);
	if (s->traced) {
		s->traced = 0;
		if ((err = watch_detach(s->wl.pid)))
			return err;
	}
	s->next_rot = now_s() + (s->o->watch_step_ms ? s->o->watch_step_ms :
				 WATCH_STEP_MS_DEFAULT) / 1000.0;
	return 0;
}

int record_run(const struct record_opts *o, struct record_result *res)
{
	struct sess s = { .o = o, .res = res };
	int err;

	memset(res, 0, sizeof(*res));
	workload_init(&s.wl);
	events_init(&s.l);
	s.eo = o->ev;
	s.eo.workload = o->argv != NULL;
	s.eo.perf_privileged = priv_perf_privileged();
	s.perfmon = priv_perfmon();
	c2c_spe_info_init(&s.spe);
	if ((o->mmap_pages & (o->mmap_pages - 1)) || (o->aux_pages & (o->aux_pages - 1)))
		return c2c_err(-EINVAL, "-m %u,%u: the numbers of pages must be powers of two",
			       o->mmap_pages, o->aux_pages);
	s.bc = buildid_cache_new();
	oq_init(&s.q, sess_write_ev, &s);
	err = setup(&s);
	if (!err) {
		s.running = 1;
		err = loop(&s);
	}
	err = finish(&s, err);
	sess_free(&s);
	return err;
}
