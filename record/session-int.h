/* The recording session's private state and steps, shared by its files (record/session*.c);
 * callers include record/session.h.
 *
 * One recording is one struct sess: record_run() sets it up, loops until the targets end, the
 * duration elapses or a signal comes, then finishes the trace and frees it. Every step takes
 * the session; those returning int return 0 or -errno.
 *
 * The session's files, one stage each: session.c (the lifecycle: setup, the loop, the end),
 * session-events.c (the choice of events: the backend's, their rate, their description),
 * session-open.c (the events opened on every target and CPU, into one ring per CPU),
 * session-drain.c (the rings' records decoded into the time-ordered queue, lost data counted),
 * session-write.c (the trace: its writer, the queue's sink, the side-band, the blobs),
 * session-watch.c (the watch backend's run: its words, their rotation, the duty cycle) and
 * session-confirm.c (the soft backend's confirmation by watchpoints). */
#ifndef C2C_RECORD_SESSION_INT_H
#define C2C_RECORD_SESSION_INT_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "c2c/confirm.h"
#include "c2c/spe.h"
#include "c2c/trace.h"
#include "record/backend-soft.h"
#include "record/backend-watch.h"
#include "record/buildid.h"
#include "record/confirm.h"
#include "record/events.h"
#include "record/pagemap.h"
#include "record/queue.h"
#include "record/regions.h"
#include "record/ring.h"
#include "record/session.h"
#include "record/uncore.h"
#include "record/unwind-rec.h"
#include "record/workload.h"

/* One open event: its fd, its index in sess.l, where it counts. */
struct efd {
	int fd, ev, cpu;
	pid_t pid;
};

/* One recording: what it was asked, what it opened, what it has drained so far. */
struct sess {
	const struct record_opts *o;
	struct record_result *res;
	struct ev_list l;
	struct events_opts eo;
	int ncpu;
	int *cpu;                    /* CPUs to open on */
	pid_t *task;                 /* tasks (-1: all) */
	size_t ntask;
	struct efd *fd;
	size_t nfd, capfd;
	struct ring *ring;           /* one per CPU index */
	struct pollfd *pfd;
	struct ring_layout lay;
	struct trace_writer *w;
	struct oq q;
	struct buildid_cache *bc;
	struct workload wl;
	int warned_user, warned_phys, warned_pa, warned_aux;
	int running;                 /* setup succeeded: the trace holds a recording */
	int aux;                     /* AUX tracing (Arm SPE): the AUX areas are read */
	int perfmon;                 /* CAP_PERFMON or CAP_SYS_ADMIN */
	struct c2c_spe_info spe;     /* what the SPE decoder needs (include/c2c/spe.h) */
	struct ring *cur;            /* the ring being drained */
	struct soft_backend *soft;   /* soft backend: decoder and code map */
	struct codemap *cm;          /* the code map of soft or watch (NULL otherwise) */
	struct codemap *own_cm;      /* watch: its own code map */
	struct watch_decoder *wd;    /* watch: access kinds of the hits */
	struct rec_unwind *unw;      /* --call-graph dwarf: the user stacks' unwinder */
	struct watch_plan plan;      /* watch: the words */
	uint64_t rot_step;           /* watch: rotation step */
	double next_rot;
	int traced;                  /* watch: the workload is held by ptrace */
	struct watch_duty_ctl duty;  /* watch: the duty cycle bounding the trap overhead */
	int *clock_fd;               /* watch: task-clock counters of the targets */
	size_t nclock;
	double next_tick;
	uint64_t last_time;          /* watch: time of the last hit */
	char *options;               /* options for the trace header */
	struct pagemap *pm;          /* soft, watch as root: physical addresses from pagemap */
	uint64_t no_phys;            /* ... samples with an address but none found */
	struct regions *reg;         /* the workload's region markers (a command only) */
	struct uncore unc;           /* AMD L3/DF counters over the run */
	double unc_t0;
	/* soft: confirmation by watchpoints (record/confirm.h, include/c2c/confirm.h) */
	int confirm;                 /* the confirmation events are in s->l (the last ones) */
	size_t confirm_ev;           /* index of the first of them */
	struct confirm_sel sel;      /* candidate lines */
	struct c2c_confirm_window win;   /* the window armed now (nr_words 0: none) */
	struct c2c_confirm_run crun;
	struct watch_duty_ctl cduty; /* bounds the traps by what the samples leave of the bound */
	uint64_t chits;              /* confirmation hits drained */
	int cf_armed;                /* the window's watchpoints are armed now */
	uint32_t cf_tids[2];         /* the first two threads the window's hits came from */
	unsigned int cf_nr_tids;
	uint64_t win_armed0, win_hits0;  /* readings at the window's start */
	double next_window;
	uint64_t max_time;           /* the latest sample time drained */
	char cf_reason[256];         /* why a confirmation watchpoint did not open */
};

/* The watch backend (not the soft backend's confirmation, which has a watch decoder too). */
static inline int watch_mode(const struct sess *s)
{
	return s->wd && !s->soft;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- session-events.c: which events ---------------------------------------------------------- */

/* Before the events are built: the rate the user asked, planned for this machine. */
int sess_rate_first(struct sess *s);
/* The events into s->l: -e, else the backend's (auto: the memory events or the soft backend),
 * the soft backend's confirmation watchpoints, the AUX size, TopDown. */
int sess_build_events(struct sess *s);
/* Once the backend is known: the rate replanned (the soft backend's cost measured), said. */
int sess_plan_rate(struct sess *s);
/* The options text of the trace header (s->options), the backend said. */
void sess_describe(struct sess *s);

/* --- session-open.c: the events on the targets ----------------------------------------------- */

int sess_read_cpus(struct sess *s);      /* -C, else the online CPUs */
int sess_read_tasks(struct sess *s);     /* -a, the workload, or every thread of -p/-t */
/* Every event on every task and CPU; a refused TopDown group or confirmation watchpoint is
 * dropped (said) and the rest opened again. */
int sess_open_all(struct sess *s);
void sess_close_all(struct sess *s);
/* One ring per CPU (the other fds of the CPU redirected into it), AUX areas mapped. */
int sess_setup_rings(struct sess *s);
/* The ids of the fds, for ring_decode(). */
int sess_setup_layout(struct sess *s);
/* PERF_EVENT_IOC_ENABLE or _DISABLE on every group leader (the confirmation's left alone). */
void sess_enable_all(struct sess *s, unsigned long req);

/* --- session-drain.c: the rings into the queue ----------------------------------------------- */

/* Keep the code map of the soft and watch backends up to date with a side-band record. */
void sess_side_band(struct sess *s, const struct trace_event *ev);
/* One round: every ring drained into s->q, the region markers too, then the round ended. */
int sess_drain_round(struct sess *s);

/* --- session-write.c: the trace -------------------------------------------------------------- */

/* The queue's sink: writes @ev, unwinding its user stack first with --call-graph dwarf. */
int sess_write_ev(const struct trace_event *ev, void *ctx);
int sess_open_writer(struct sess *s);        /* -o, "-": standard output */
/* The side-band of the kernel and of the processes running before the events opened. */
int sess_synthesize(struct sess *s);
int sess_write_spe_info(struct sess *s);     /* SPE: the decoder's facts, before any AUX data */
int sess_write_td_reader(struct sess *s);    /* TopDown beside IBS/SPE: its reader blob */
/* A text blob of @n bytes (none when @n < 0), written at once or, @queued, in time order. */
int sess_write_text_blob(struct sess *s, uint32_t kind, uint64_t time, const char *buf, int n,
			 int queued);
int sess_write_uncore(struct sess *s);       /* AMD: the run's L3 and DF counts */
int sess_write_run(struct sess *s);          /* the workload's time and exit, once reaped */

/* --- session-watch.c: the watch backend's run ------------------------------------------------ */

/* Forked workload: held across its exec, the words resolved, the duty cycle calibrated. */
int sess_watch_prepare(struct sess *s);
/* The targets' task-clock counters (the watch backend's, the confirmation's duty cycle). */
int sess_open_clocks(struct sess *s);
uint64_t sess_read_count(int fd);        /* a counter's value, 0 when unreadable */
/* The debug registers moved to the next words of the rotation. */
int sess_rotate(struct sess *s);
/* One step of the duty cycle: the watchpoints armed or disarmed. */
void sess_duty_tick(struct sess *s);
/* The duty-cycle summary blob (the last one in the trace holds). */
int sess_write_duty(struct sess *s);

/* --- session-confirm.c: the soft backend's confirmation -------------------------------------- */

#define CONFIRM_TICK_MS 2          /* soft confirmation: duty-cycle control step while armed */
#define CONFIRM_IDLE_MS 10         /* ... while paused: re-arming can wait, the recorder sleeps */

/* Soft backend: the confirmation watchpoints added to s->l (the last events), or why not. */
int sess_confirm_add_events(struct sess *s);
/* After the soft backend: a hit's cost measured, the traps' bound set, or confirmation off. */
int sess_confirm_prepare(struct sess *s);
/* No confirmation after all: its events dropped, @why said once. */
void sess_confirm_drop(struct sess *s, const char *why);
/* A decoded soft sample heats its line for the windows. */
void sess_confirm_feed(struct sess *s, const struct trace_sample *o);
/* The duty cycle stepped, windows closed and armed; @final closes the last. */
int sess_confirm_step(struct sess *s, int final);
/* The run's confirmation blob (the last one in the trace holds). */
int sess_write_confirm_run(struct sess *s);

#endif
