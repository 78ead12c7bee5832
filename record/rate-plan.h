/* The sampling rate of a recording, decided in one place: rate_plan() takes what the user said
 * (-F, -c, --soft-overhead), the kernel's cap (kernel.perf_event_max_sample_rate) and, for the
 * soft backend, what one sample was measured to cost a thread here (soft_calibrate(),
 * record/backend-soft.h), and returns the frequency or period, where it came from, and the text
 * that says why. Pure: no I/O. rate_plan_here() is the plan of this machine (its kernel's cap
 * read), which record (cmd-record.c refuses with it what cannot be met before anything is set
 * up; session-events.c makes the plan its events take and, once the soft backend's cost is
 * measured, rate_replan()s it), doctor and record's usage text all take: what travels between them is
 * what the user asked (struct rate_req), never a flag of what was decided. */
#ifndef C2C_RECORD_RATE_PLAN_H
#define C2C_RECORD_RATE_PLAN_H

#include <stdint.h>

/* The frequency without -F or -c (Hz). */
#define RATE_DEFAULT_HZ 4000
/* The default bound on the time the soft backend's samples take from the sampled threads, as a
 * share of their own: a cpu-clock sample costs a thread a microsecond or two on bare metal
 * (4000 Hz: under 1%), tens of microseconds on some virtual machines, where every timer
 * interrupt exits to the hypervisor (4000 Hz: 10-30%). */
#define SOFT_BUDGET_DEFAULT 0.03
/* The share of the bound the rate aims at: the cost measured on the recorder's own thread reads
 * under what a workload's thread pays (bench/spin-pinned.c, one thread pinned, 40 runs of 1 s on
 * this project's VM: 48 us measured, 56.5 us paid at 4000 Hz, 58 at 550 Hz). */
#define SOFT_BUDGET_AIM 0.75
/* The rate that gives a thread busy for one second 200 samples: where the aim would go lower,
 * the rate takes up to the whole bound to keep it. */
#define SOFT_FREQ_WANT 200
/* The rate a bound never takes the default below, even past the bound (Hz): below it a run
 * says too little to be worth its cost. */
#define SOFT_FREQ_MIN 100

enum rate_source {
	RATE_DEFAULT = 0,      /* RATE_DEFAULT_HZ */
	RATE_GIVEN_FREQ,       /* -F */
	RATE_GIVEN_PERIOD,     /* -c */
	RATE_KERNEL_CAP,       /* the default lowered to kernel.perf_event_max_sample_rate */
	RATE_CALIBRATED,       /* soft: lowered to keep the samples' cost under the bound's aim */
	RATE_FEW,              /* soft: the aim is under SOFT_FREQ_WANT: up to it within the bound */
	RATE_FLOOR,            /* soft: SOFT_FREQ_MIN, more than the bound allows */
};

struct rate_req {
	uint64_t freq;         /* -F, 0: not given */
	uint64_t period;       /* -c, 0: not given */
	double budget;         /* --soft-overhead as a fraction; 0: not given (the default bound);
				* < 0: unlimited */
	int soft;              /* 1: the soft backend records (the bound applies); 0: another
				* backend or not known yet (the bound is not applied) */
	uint64_t kernel_max;   /* kernel.perf_event_max_sample_rate, 0: unknown (no cap) */
	double ns_per_sample;  /* soft: what a sample costs a thread here (ns); 0: no cost shows;
				* < 0: not measured yet */
};

struct rate_plan {
	struct rate_req req;   /* what it was planned for */
	uint64_t freq;         /* the frequency (Hz), or 0 with ... */
	uint64_t period;       /* ... a period of events (-c) */
	enum rate_source source;
	int measure;           /* the plan needs the cost: measure it and plan again */
	int say;               /* the reason is worth an info line (the rate is not as asked) */
	double share;          /* soft, measured: the share of a thread's time samples take */
	double budget;         /* the bound applied (a fraction), 0 when none */
	char reason[240];      /* one line (an info line fits 100 columns); the error when err */
	char detail[160];      /* a second line when the rate gives few samples, else "" */
	int err;               /* 0, or -EINVAL: the options cannot be met (reason says why) */
};

/* Plan the rate for @in into @out. Returns out->err. A plan zeroed and never made means the
 * default: RATE_DEFAULT_HZ. */
int rate_plan(const struct rate_req *in, struct rate_plan *out);
/* rate_plan() of @in with this machine's kernel cap (rate_kernel_max()) for in->kernel_max. */
int rate_plan_here(const struct rate_req *in, struct rate_plan *out);
/* Plan @p's request again for the backend known (@soft) and a sample's measured cost @ns
 * (struct rate_req.ns_per_sample). */
int rate_replan(struct rate_plan *p, int soft, double ns_per_sample);

/* A sentence for the source, e.g. "the kernel's perf_event_max_sample_rate". */
const char *rate_source_name(enum rate_source s);

/* kernel.perf_event_max_sample_rate under sysfs_root() (record/sysfs.h), 0 when unreadable. */
uint64_t rate_kernel_max(void);

#endif
