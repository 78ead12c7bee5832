/* The recording loop (see session.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "c2c/confirm.h"
#include "c2c/log.h"
#include "c2c/spe.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "record/unwind-rec.h"
#include "record/backend-soft.h"
#include "record/backend-watch.h"
#include "record/buildid.h"
#include "record/confirm.h"
#include "record/machine.h"
#include "record/pmu.h"
#include "record/priv.h"
#include "record/queue.h"
#include "record/rate-plan.h"
#include "record/regions.h"
#include "record/ring.h"
#include "record/session.h"
#include "record/pagemap.h"
#include "record/spe-info.h"
#include "record/synth.h"
#include "record/sys.h"
#include "record/sysfs.h"
#include "record/topdown.h"
#include "record/uncore.h"
#include "record/workload.h"

#define DEFAULT_PAGES 128
#define ERR_TD_REFUSED (-100000)   /* internal: the kernel refused the TopDown group */
#define ERR_CONFIRM_REFUSED (-100001)   /* internal: a confirmation watchpoint did not open */
#define CONFIRM_TICK_MS 2          /* soft confirmation: duty-cycle control step while armed */
#define CONFIRM_IDLE_MS 10         /* ... while paused: re-arming can wait, the recorder sleeps */
#define CONFIRM_PLACEHOLDER 0x1000 /* where the confirmation watchpoints wait, disabled */

struct efd {
	int fd, ev, cpu;
	pid_t pid;
};

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

/* soft: confirmation by watchpoints (at the end of this file) */
static int confirm_add_events(struct sess *s);
static int confirm_prepare(struct sess *s);
static int confirm_step(struct sess *s, int final);
static int write_confirm_run(struct sess *s);

/* The watch backend (not the soft backend's confirmation, which has a watch decoder too). */
static int watch_mode(const struct sess *s)
{
	return s->wd && !s->soft;
}

/* --- targets -------------------------------------------------------------------------------- */

static int read_cpus(struct sess *s)
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
static int read_tasks(struct sess *s)
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

static void close_all(struct sess *s)
{
	for (size_t i = 0; i < s->nfd; i++)
		close(s->fd[i].fd);
	s->nfd = 0;
}

static void confirm_drop(struct sess *s, const char *why);

static int open_all(struct sess *s)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int err = 0;

		for (size_t t = 0; t < s->ntask && !err; t++)
			for (int c = 0; c < s->ncpu && !err; c++)
				err = open_task_cpu(s, s->task[t], s->cpu[c]);
		if (err == ERR_CONFIRM_REFUSED) {
			close_all(s);
			confirm_drop(s, s->cf_reason);
			continue;
		}
		if (err != ERR_TD_REFUSED)
			return err;
		close_all(s);
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

static int setup_rings(struct sess *s)
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

static int setup_layout(struct sess *s)
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

/* --- records ------------------------------------------------------------------------------------ */

/* Records leave the queue in time order: --call-graph dwarf unwinds each sample here, against
 * the mappings of the side-band records before it, whichever CPU's ring they came from. */
static int write_ev(const struct trace_event *ev, void *ctx)
{
	struct sess *s = ctx;
	struct trace_event u;

	if (!s->unw)
		return trace_write(s->w, ev);
	if (ev->type != TRACE_REC_SAMPLE) {
		rec_unwind_event(s->unw, ev);
		return trace_write(s->w, ev);
	}
	u = *ev;
	rec_unwind_sample(s->unw, &u.sample);
	return trace_write(s->w, &u);
}

static void count(struct sess *s, const struct trace_event *ev)
{
	if (ev->type == TRACE_REC_SAMPLE) {
		s->res->samples++;
	} else if (ev->type == TRACE_REC_LOST) {
		if (ev->lost.kind == TRACE_LOST_RECORDS)
			s->res->lost_records += ev->lost.count;
		else if (ev->lost.kind == TRACE_LOST_SAMPLES)
			s->res->lost_samples += ev->lost.count;
		else if (ev->lost.kind == TRACE_LOST_THROTTLE)
			s->res->throttles++;
	}
}

/* PERF_RECORD_AUX: the PMU published AUX bytes (Arm SPE records). The record goes to the trace
 * with its flags, followed by the bytes as a TRACE_BLOB_SPE_AUX blob; the decoding happens at
 * report time. Lost data is counted as perf counts it (session.c: truncated, partial and
 * collision flags out of all AUX records). */
static void on_aux(struct sess *s, struct trace_event *ev)
{
	struct trace_event b = { .type = TRACE_REC_BLOB };
	struct trace_aux *a = &ev->aux;
	void *buf;

	s->res->aux_records++;
	s->res->aux_truncated += !!(a->flags & TRACE_AUX_TRUNCATED);
	s->res->aux_partial += !!(a->flags & TRACE_AUX_PARTIAL);
	s->res->aux_collision += !!(a->flags & TRACE_AUX_COLLISION);
	if (a->cpu == TRACE_CPU_NONE)
		a->cpu = (uint32_t)s->cur->cpu;
	oq_add(&s->q, ev, a->time);
	if (!a->size)
		return;
	if (!s->cur->aux || a->size > s->cur->aux_size) {
		s->res->aux_dropped += a->size;
		if (!s->warned_aux++)
			c2c_warn("AUX record of %llu bytes beyond the %llu-byte AUX area of CPU %d: "
				 "its data is dropped", (unsigned long long)a->size,
				 (unsigned long long)s->cur->aux_size, s->cur->cpu);
		return;
	}
	buf = xmalloc(a->size);
	if (ring_aux_read(s->cur, a->offset, a->size, buf)) {
		s->res->aux_dropped += a->size;
		if (!s->warned_aux++)
			c2c_warn("AUX record at offset %llu of CPU %d overlaps data already read: its "
				 "data is dropped", (unsigned long long)a->offset, s->cur->cpu);
		free(buf);
		return;
	}
	s->res->aux_bytes += a->size;
	b.blob.kind = TRACE_BLOB_SPE_AUX;
	b.blob.cpu = (uint32_t)s->cur->cpu;
	b.blob.offset = a->offset;
	b.blob.size = a->size;
	b.blob.data = buf;
	b.blob.time = a->time;
	oq_add(&s->q, &b, b.blob.time);
	free(buf);
}

/* Keep the code map of the soft and watch backends up to date. */
static void side_band(struct sess *s, const struct trace_event *ev)
{
	if (!s->cm)
		return;
	if (ev->type == TRACE_REC_MMAP)
		codemap_mmap(s->cm, &ev->mmap);
	else if (ev->type == TRACE_REC_COMM && ev->comm.exec)
		codemap_exec(s->cm, ev->comm.pid);
	else if (ev->type == TRACE_REC_FORK)
		codemap_fork(s->cm, ev->task.pid, ev->task.ppid);
}

/* The event a sample record comes from: its index in s->l, -1 when unknown. */
static int sample_index(const struct sess *s, const struct perf_event_header *h)
{
	return ring_sample_index(h, &s->lay);
}

/* Soft and watch samples: the physical address of the data address from the process's pagemap
 * (read as the sample is drained: a page that moved or a process that exited since gives none). */
static void add_phys(struct sess *s, struct trace_sample *o)
{
	uint64_t phys;

	if (!s->pm || !(o->flags & TRACE_SAMPLE_HAS_ADDR) || !o->addr)
		return;
	if (pagemap_lookup(s->pm, (pid_t)o->pid, o->addr, &phys)) {
		s->no_phys++;
		return;
	}
	o->phys_addr = phys;
	o->flags |= TRACE_SAMPLE_HAS_PHYS;
}

static int on_watch_sample(struct sess *s, const struct perf_event_header *h);

/* Soft: a decoded sample heats its line for the confirmation (record/confirm.h). */
static void confirm_feed(struct sess *s, const struct trace_sample *o)
{
	enum softdec_kind k = softdec_detail_kind(o->detail);

	if (!s->confirm || !(o->flags & TRACE_SAMPLE_HAS_ADDR) ||
	    o->cpumode != PERF_RECORD_MISC_USER || o->addr >= 0x800000000000ull || o->addr < 4096)
		return;
	confirm_sel_feed(&s->sel, o->pid, o->tid, o->addr, k == SOFTDEC_STORE ||
			 k == SOFTDEC_ATOMIC, (o->flags & TRACE_SAMPLE_HAS_WEIGHT) ? o->weight : 1);
}

/* A cpu-clock sample of the soft backend: decoded here, with the registers ring_decode()
 * does not read. The confirmation watchpoints' hits go to on_watch_sample(). */
static int on_soft_sample(struct sess *s, const struct perf_event_header *h)
{
	int idx = sample_index(s, h);
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	const struct ev_desc *e;

	if (idx < 0 || (size_t)idx >= s->l.nr)
		return 0;
	e = &s->l.ev[idx];
	if (e->backend == TRACE_BACKEND_WATCH && s->confirm && e->role == EV_ROLE_SAMPLER)
		return on_watch_sample(s, h);
	if (e->backend != TRACE_BACKEND_SOFT || e->role != EV_ROLE_SAMPLER)
		return 0;
	if (soft_backend_sample(s->soft, h, e->attr.sample_type, e->attr.sample_regs_user,
				(uint16_t)idx, &ev.sample)) {
		if (!s->res->malformed++)
			c2c_warn("skipping a malformed cpu-clock sample (%u bytes)", h->size);
		return 0;
	}
	confirm_feed(s, &ev.sample);
	if (ev.sample.time > s->max_time)
		s->max_time = ev.sample.time;
	add_phys(s, &ev.sample);
	count(s, &ev);
	oq_add(&s->q, &ev, ev.sample.time);
	return 0;
}

/* The length of the watched word at @addr (rotation moves an event over words of several
 * lengths). */
static unsigned int watch_len_at(const struct sess *s, size_t ev, uint64_t addr)
{
	for (size_t i = 0; i < s->plan.nr; i++)
		if (s->plan.w[i].addr == addr)
			return s->plan.w[i].len;
	return (unsigned int)s->l.ev[ev].attr.bp_len;
}

/* A watchpoint hit: parsed here with the registers ring_decode() does not read, and placed in
 * its word by the instruction that made it. */
static int on_watch_sample(struct sess *s, const struct perf_event_header *h)
{
	int idx = sample_index(s, h);
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct trace_sample *o = &ev.sample;
	const struct ev_desc *e;
	struct soft_raw r;

	if (idx < 0 || (size_t)idx >= s->l.nr)
		return 0;
	e = &s->l.ev[idx];
	if (e->backend != TRACE_BACKEND_WATCH || e->role != EV_ROLE_SAMPLER)
		return 0;
	if (soft_parse_sample(h, e->attr.sample_type, e->attr.sample_regs_user, &r)) {
		if (!s->res->malformed++)
			c2c_warn("skipping a malformed watchpoint sample (%u bytes)", h->size);
		return 0;
	}
	o->time = r.time;
	o->ip = r.ip;
	o->pid = r.pid;
	o->tid = r.tid;
	o->cpu = r.cpu;
	o->addr = r.addr;
	o->event = (uint16_t)idx;
	o->chain_nr = r.chain_nr;
	o->chain = r.chain;
	if (r.abi == PERF_SAMPLE_REGS_ABI_64) {
		o->regs_mask = r.uregs_mask;
		o->regs = r.uregs;
	}
	o->stack_size = r.stack_size;
	o->stack = r.stack;
	o->cpumode = (uint8_t)(h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	o->flags = TRACE_SAMPLE_HAS_ADDR | (r.cpu != TRACE_CPU_NONE ? TRACE_SAMPLE_HAS_CPU : 0);
	watch_decoder_fill(s->wd, o, r.abi == PERF_SAMPLE_REGS_ABI_64 ? &r.regs : NULL,
			   watch_len_at(s, (size_t)idx, r.addr));
	if (s->cm && o->cpumode == PERF_RECORD_MISC_USER && r.abi == PERF_SAMPLE_REGS_ABI_64)
		o->task = codemap_task(s->cm, o->pid, o->ip, &r.regs);
	s->last_time = o->time;
	if (o->time > s->max_time)
		s->max_time = o->time;
	s->chits += s->confirm;
	if (s->confirm && s->cf_nr_tids < 2 && (!s->cf_nr_tids || s->cf_tids[0] != o->tid))
		s->cf_tids[s->cf_nr_tids++] = o->tid;
	add_phys(s, o);
	count(s, &ev);
	oq_add(&s->q, &ev, o->time);
	return 0;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
	struct sess *s = ctx;
	struct trace_event ev;
	int r;

	if (h->type == PERF_RECORD_SAMPLE && s->soft)
		return on_soft_sample(s, h);
	if (h->type == PERF_RECORD_SAMPLE && s->wd && !s->soft)
		return on_watch_sample(s, h);
	r = ring_decode(h, &s->lay, &ev);

	if (r < 0) {
		if (!s->res->malformed++)
			c2c_warn("skipping a malformed kernel record (type %u, %u bytes)", h->type,
				 h->size);
		return 0;
	}
	if (r == RING_SKIP)
		return 0;
	if (ev.type == TRACE_REC_AUX) {
		on_aux(s, &ev);
		return 0;
	}
	if (ev.type == TRACE_REC_SAMPLE && s->l.ev[ev.sample.event].role == EV_ROLE_TD_READER) {
		s->res->td_readings++;   /* TopDown beside IBS/SPE: kept as they are */
		oq_add(&s->q, &ev, ev.sample.time);
		return 0;
	}
	if (ev.type == TRACE_REC_SAMPLE && s->l.ev[ev.sample.event].role != EV_ROLE_SAMPLER)
		return 0;            /* aux leader / tracking samples carry nothing we keep */
	if (ev.type == TRACE_REC_MMAP && (ev.mmap.prot & 4) && !ev.mmap.build_id_size)
		ev.mmap.build_id_size = buildid_lookup(s->bc, ev.mmap.filename, ev.mmap.build_id);
	side_band(s, &ev);
	count(s, &ev);
	oq_add(&s->q, &ev, ev.type == TRACE_REC_SAMPLE ? ev.sample.time :
		ev.type == TRACE_REC_MMAP ? ev.mmap.time : ev.type == TRACE_REC_COMM ?
		ev.comm.time : ev.type == TRACE_REC_LOST ? ev.lost.time :
		ev.type == TRACE_REC_SWITCH ? ev.sw.time : ev.type == TRACE_REC_ITRACE_START ?
		ev.itrace.time : ev.task.time);
	return 0;
}

static int drain_round(struct sess *s)
{
	if (s->pm)
		pagemap_round(s->pm);
	for (int c = 0; c < s->ncpu; c++) {
		if (s->ring[c].fd < 0)
			continue;
		s->cur = &s->ring[c];
		if (ring_drain(&s->ring[c], on_record, s) == -EBADMSG)
			c2c_warn("corrupt record header in the ring of CPU %d", s->ring[c].cpu);
	}
	if (s->reg)
		regions_drain(s->reg, &s->q);
	return oq_round_end(&s->q);
}

/* --- setup and loop ---------------------------------------------------------------------------- */

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

static int build_events(struct sess *s)
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
		err = confirm_add_events(s);
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

static int emit_direct(const struct trace_event *ev, void *ctx)
{
	side_band(ctx, ev);
	return write_ev(ev, ctx);
}

static int synthesize(struct sess *s)
{
	int err = 0, kernel = 0;

	for (size_t i = 0; i < s->l.nr; i++)
		kernel |= !s->l.ev[i].attr.exclude_kernel && s->l.ev[i].role == EV_ROLE_SAMPLER;
	if (kernel) {
		err = synth_kernel(emit_direct, s);
		if (err == -EACCES)
			c2c_warn("kernel addresses are hidden (kernel.kptr_restrict): kernel samples "
				 "will not be symbolized");
		else if (err && err != -ENOENT)
			return err;
		err = 0;
	}
	if (s->o->ev.system_wide)
		return synth_all(s->bc, emit_direct, s);
	for (size_t i = 0; i < s->o->nr_pids && !err; i++)
		err = synth_process(s->o->pids[i], s->bc, emit_direct, s);
	if (!err && s->traced)      /* watch: the program was mapped before the events opened */
		err = synth_process(s->wl.pid, s->bc, emit_direct, s);
	return err;
}

static int open_writer(struct sess *s)
{
	struct trace_writer_opts wo = { .zstd_level = s->o->zstd_level };
	struct trace_info info;
	const char *out = s->o->output ? s->o->output : "c2c-lite.data";
	int err;

	machine_info_fill(&info, &s->l, s->o->cmdline, s->options ? s->options : s->o->options);
	if (s->l.backend == TRACE_BACKEND_SOFT)
		info.flags |= TRACE_INFO_ESTIMATE;
	for (size_t i = 0; i < s->l.nr; i++)
		if (!s->l.ev[i].attr.exclude_kernel && s->l.ev[i].role == EV_ROLE_SAMPLER &&
		    sysfs_exists("/proc/kallsyms"))
			info.flags |= TRACE_INFO_HAS_KSYMS;
	if (!strcmp(out, "-"))
		err = trace_writer_fdopen(&s->w, STDOUT_FILENO, "standard output", &info, &wo);
	else
		err = trace_writer_open(&s->w, out, &info, &wo);
	trace_info_release(&info);
	return err;
}

/* The facts the SPE decoder needs (include/c2c/spe.h), as one blob before any AUX data. */
static int write_spe_info(struct sess *s)
{
	static const char *const caps[] = { "min_interval", "count_size", "arch_inst", "ernd" };
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	struct c2c_spe_info *in = &s->spe;
	const struct ev_desc *e = NULL;
	struct pmu p;
	char *text;
	int err;

	for (size_t i = 0; i < s->l.nr; i++) {
		if (s->l.ev[i].aux_pages && !e)
			e = &s->l.ev[i];
		in->switch_events |= s->l.ev[i].attr.context_switch;
	}
	if (!e || events_spe_pmu(e, &p))
		return 0;
	snprintf(in->pmu, sizeof(in->pmu), "%s", p.name);
	in->pmu_type = p.type;
	in->per_cpu = 1;
	in->min_interval = pmu_cap_u64(&p, caps[0], UINT64_MAX);
	in->count_size = pmu_cap_u64(&p, caps[1], UINT64_MAX);
	in->arch_inst = pmu_cap_u64(&p, caps[2], UINT64_MAX);
	in->ernd = pmu_cap_u64(&p, caps[3], UINT64_MAX);
	spe_info_midrs(in, s->cpu, s->ncpu);
	/* perf synthesizes TIME_CONV from its first ring's control page */
	for (int c = 0, first = 1; c < s->ncpu; c++) {
		if (s->ring[c].fd < 0)
			continue;
		if (!in->aux_bytes && s->ring[c].aux)
			in->aux_bytes = s->ring[c].aux_size;
		if (first && ring_time_conv(&s->ring[c], &in->tc))
			c2c_warn("the clock conversion of CPU %d's ring did not settle: SPE "
				 "timestamps will not convert to perf time", s->ring[c].cpu);
		first = 0;
	}
	if (!in->tc.cap_user_time_zero)
		c2c_warn("the kernel publishes no clock conversion (cap_user_time_zero): SPE "
			 "timestamps will not convert to perf time");
	ev.blob.kind = TRACE_BLOB_SPE_INFO;
	ev.blob.cpu = TRACE_CPU_NONE;
	ev.blob.size = c2c_spe_info_format(in, &text);
	ev.blob.data = text;
	err = trace_write(s->w, &ev);
	free(text);
	return err;
}

/* TopDown beside IBS/SPE: which event's samples are readings and what they carry
 * (include/c2c/tdreader.h), before any reading. */
static int write_td_reader(struct sess *s)
{
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	char text[1024];
	int n;

	if (!s->l.td_reader)
		return 0;
	for (size_t i = 0; i < s->l.nr; i++)
		if (s->l.ev[i].role == EV_ROLE_TD_READER)
			s->l.td_rd.event = (uint32_t)i;
	n = td_reader_format(&s->l.td_rd, text, sizeof(text));
	if (n < 0)
		return c2c_err(-EOVERFLOW, "the TopDown reader description does not fit %zu bytes",
			       sizeof(text));
	ev.blob.kind = TRACE_BLOB_TOPDOWN;
	ev.blob.cpu = TRACE_CPU_NONE;
	ev.blob.size = (uint64_t)n;
	ev.blob.data = text;
	return trace_write(s->w, &ev);
}

static void enable_all(struct sess *s, unsigned long req)
{
	for (size_t i = 0; i < s->nfd; i++) {
		const struct ev_desc *e = &s->l.ev[s->fd[i].ev];

		if (req == PERF_EVENT_IOC_ENABLE && s->confirm && (size_t)s->fd[i].ev >= s->confirm_ev)
			continue;            /* the confirmation windows arm them */
		if (e->leader == s->fd[i].ev)
			ioctl(s->fd[i].fd, req, PERF_IOC_FLAG_GROUP);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

/* Watch: move the debug registers to the next words (PERF_EVENT_IOC_MODIFY_ATTRIBUTES reaches
 * the inherited copies of every thread). */
static int rotate(struct sess *s)
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
static int open_clocks(struct sess *s)
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

static uint64_t read_count(int fd)
{
	uint64_t v[4] = { 0 };

	return read(fd, v, sizeof(v)) >= (ssize_t)sizeof(v[0]) ? v[0] : 0;
}

static int is_watch_fd(const struct sess *s, size_t i)
{
	const struct ev_desc *e = &s->l.ev[s->fd[i].ev];

	return e->backend == TRACE_BACKEND_WATCH && e->role == EV_ROLE_SAMPLER;
}

/* Watch: one step of the duty cycle (backend-watch.h); arms or disarms the watchpoints (the
 * ioctl reaches the inherited copies of every thread). */
/* The workload's CPU time, and the hits so far: the samples drained, and the records the rings
 * lost (each was a trap too). */
static void duty_read(const struct sess *s, uint64_t *cpu, uint64_t *hits)
{
	*cpu = 0;
	for (size_t i = 0; i < s->nclock; i++)
		*cpu += read_count(s->clock_fd[i]);
	*hits = s->res->samples + s->res->lost_records;
}

static void duty_tick(struct sess *s)
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

/* A text blob of @n bytes (nothing when @n < 0: it did not fit), written at once, or queued in
 * time order with @queued. */
static int write_text_blob(struct sess *s, uint32_t kind, uint64_t time, const char *buf, int n,
			   int queued)
{
	struct trace_event ev = { .type = TRACE_REC_BLOB };

	if (n < 0)
		return 0;
	ev.blob.kind = kind;
	ev.blob.time = time;
	ev.blob.cpu = TRACE_CPU_NONE;
	ev.blob.size = (uint64_t)n;
	ev.blob.data = buf;
	if (!queued)
		return trace_write(s->w, &ev);
	oq_add(&s->q, &ev, time);
	return 0;
}

/* Watch: the duty-cycle summary as a blob; the last one in the trace holds. */
static int write_duty(struct sess *s)
{
	char buf[8192];

	return write_text_blob(s, TRACE_BLOB_WATCH_DUTY, s->last_time, buf,
			       c2c_watch_duty_format(&s->duty.d, buf, sizeof(buf)), 0);
}

/* AMD with uncore PMUs: the L3 and DF counts of the run as a blob (nothing elsewhere: doctor
 * says why a machine has none). */
static int write_uncore(struct sess *s)
{
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	struct c2c_uncore *sum;
	char *buf;
	int n, err = 0;

	if (!s->unc.nr)
		return 0;
	sum = xmalloc(sizeof(*sum));
	buf = xmalloc(65536);
	uncore_read(&s->unc, now_s() - s->unc_t0, sum);
	n = c2c_uncore_format(sum, buf, 65536);
	if (n > 0) {
		ev.blob.kind = TRACE_BLOB_UNCORE;
		ev.blob.cpu = TRACE_CPU_NONE;
		ev.blob.size = (uint64_t)n;
		ev.blob.data = buf;
		err = trace_write(s->w, &ev);
	}
	s->res->uncore = sum->nr;
	free(buf);
	free(sum);
	return err;
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
		err = drain_round(s);
		if (!err && s->confirm)
			err = confirm_step(s, 0);
		if (!err && watch_mode(s) && now_s() >= s->next_tick) {
			duty_tick(s);
			s->next_tick = now_s() + WATCH_TICK_MS / 1000.0;
		}
		if (!err && rotating(s) && now_s() >= s->next_rot) {
			err = rotate(s);
			s->next_rot += (s->o->watch_step_ms ? s->o->watch_step_ms :
					WATCH_STEP_MS_DEFAULT) / 1000.0;
		}
		if (!err && now_s() >= next_flush) {
			/* a chunk boundary each second: a crash of the recorder loses at most that */
			if (watch_mode(s))
				err = write_duty(s);
			if (!err && s->confirm)
				err = write_confirm_run(s);
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
	enable_all(s, PERF_EVENT_IOC_DISABLE);
	if (s->w) {
		int e = err ? 0 : drain_round(s);

		if (!e && !err && s->confirm)
			e = confirm_step(s, 1);
		if (!e && !err)
			e = oq_finish(&s->q);
		if (!e && !err)
			e = write_uncore(s);
		if (!e && !err && (s->confirm || s->crun.status != C2C_CONFIRM_ON))
			e = write_confirm_run(s);
		if (!e && !err && watch_mode(s)) {
			duty_tick(s);
			s->res->watch_seen = c2c_watch_duty_seen(&s->duty.d);
			s->res->watch_seen_bound = c2c_watch_duty_bound(&s->duty.d);
			s->res->watch_budget = s->duty.d.budget;
			e = write_duty(s);
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

static void sess_free(struct sess *s)
{
	for (int c = 0; s->ring && c < s->ncpu; c++)
		if (s->ring[c].fd >= 0)
			ring_unmap(&s->ring[c]);
	close_all(s);
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

/* Watch backend, forked workload: hold it by ptrace across its exec, then resolve the words.
 * Existing processes (-p) are resolved as they run. */
static int watch_prepare(struct sess *s)
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

/* Before the events are built: the rate they take, the one plan of this machine for what the
 * user asked (the default comes down to the kernel's cap). */
static int rate_first(struct sess *s)
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
static int plan_rate(struct sess *s)
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

static void describe(struct sess *s)
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

static int setup(struct sess *s)
{
	int err, watch = s->o->backend == RECORD_BACKEND_WATCH;

	if ((err = rate_first(s)))
		return err;
	if (!watch && (err = build_events(s)))
		return err;
	if ((err = read_cpus(s)))
		return err;
	s->wl.stdout_to_stderr = s->o->output && !strcmp(s->o->output, "-");
	if (s->o->argv && ((err = regions_open(&s->reg)) || (err = workload_fork(&s->wl, s->o->argv))))
		return err;
	if (watch && ((err = watch_prepare(s)) || (err = build_events(s))))
		return err;
	if (s->o->rate.budget && s->l.backend != TRACE_BACKEND_SOFT)
		return c2c_err(-EINVAL, "--soft-overhead applies to the soft backend; this machine "
			       "records with its memory events (--backend=soft to use it)");
	if ((err = plan_rate(s)))
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
	if (s->soft && (err = confirm_prepare(s)))
		return err;
	if ((s->soft || s->wd) && geteuid() == 0)
		s->pm = pagemap_new();
	else if (s->soft || s->wd)
		c2c_debug("no physical addresses: /proc/PID/pagemap gives frame numbers to root only");
	describe(s);
	if ((err = read_tasks(s)) || (err = open_all(s)) || ((s->wd || s->confirm) && (err = open_clocks(s))) ||
	    (err = setup_rings(s)) ||
	    (err = setup_layout(s)) || (err = open_writer(s)) ||
	    (s->aux && (err = write_spe_info(s))) || (err = write_td_reader(s)) ||
	    (err = synthesize(s)))
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
		enable_all(s, PERF_EVENT_IOC_ENABLE);
	if (s->traced) {
		s->traced = 0;
		if ((err = watch_detach(s->wl.pid)))
			return err;
	}
	s->next_rot = now_s() + (s->o->watch_step_ms ? s->o->watch_step_ms :
				 WATCH_STEP_MS_DEFAULT) / 1000.0;
	return 0;
}

/* --- soft: confirmation by watchpoints ------------------------------------------------------ */

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
static int confirm_add_events(struct sess *s)
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
static void confirm_drop(struct sess *s, const char *why)
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
static int confirm_prepare(struct sess *s)
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
		confirm_drop(s, why[0] ? why : "no watchpoint could be measured");
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
		*cpu += read_count(s->clock_fd[i]);
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
	write_text_blob(s, TRACE_BLOB_CONFIRM_WINDOW, s->max_time, buf,
			c2c_confirm_window_format(&s->win, buf, sizeof(buf)), 1);
}

/* One step: the duty cycle every CONFIRM_TICK_MS, a new window every CONFIRM_STEP_MS once the
 * current one was armed for a while (a window paused by the bound keeps its words); @final
 * closes the last window. */
static int confirm_step(struct sess *s, int final)
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
static int write_confirm_run(struct sess *s)
{
	char buf[2048];

	s->crun.cpu_ns = s->cduty.d.cpu_ns;
	s->crun.trap_ns = s->cduty.d.trap_ns;
	s->crun.armed_ns = s->cduty.d.armed_ns;
	s->crun.hits = s->chits;
	return write_text_blob(s, TRACE_BLOB_CONFIRM_RUN, s->max_time, buf,
			       c2c_confirm_run_format(&s->crun, buf, sizeof(buf)), 0);
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
	oq_init(&s.q, write_ev, &s);
	err = setup(&s);
	if (!err) {
		s.running = 1;
		err = loop(&s);
	}
	err = finish(&s, err);
	sess_free(&s);
	return err;
}
