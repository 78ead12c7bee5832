/* One recording: open the events on the targets, drain the rings, write the trace.
 *
 * Targets: a forked workload (argv; events per CPU on the child with inherit and
 * enable_on_exec, the child released after everything is open), existing processes (-p) or
 * threads (-t), or every task (-a, on -C cpus). One ring buffer per CPU; every other event fd
 * on that CPU is redirected into it with PERF_EVENT_IOC_SET_OUTPUT. Records are ordered across
 * rings by the round rule of record/queue.h and written with the trace writer.
 * record_run() returns 0 or -errno (detail logged); the result says how it went. */
#ifndef C2C_RECORD_SESSION_H
#define C2C_RECORD_SESSION_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/events.h"

/* Which samples to record. AUTO: the machine's memory-sampling PMU when there is one (or the
 * -e events), else SOFT. */
enum record_backend {
	RECORD_BACKEND_AUTO = 0,
	RECORD_BACKEND_HW,           /* hardware memory sampling (PEBS, IBS, SPE, POWER) */
	RECORD_BACKEND_SOFT,         /* cpu-clock + decoding (record/backend-soft.h) */
	RECORD_BACKEND_WATCH,        /* hardware watchpoints (record/backend-watch.h) */
};

struct record_opts {
	struct events_opts ev;
	int backend;                 /* enum record_backend */
	const char **watch;          /* --watch specs (backend WATCH) */
	size_t nr_watch;
	unsigned int watch_step_ms;  /* rotation step when words outnumber debug registers */
	double watch_budget;         /* trap time allowed per ns of the workload's own (0: the
				      * default, C2C_WATCH_BUDGET_DEFAULT; < 0: unlimited) */
	struct rate_req rate;        /* what the user asked of the rate: -F, -c, --soft-overhead
				      * (budget: sample time allowed per ns of the sampled threads'
				      * own, 0: SOFT_BUDGET_DEFAULT, < 0: unlimited); record_run()
				      * plans it (record/rate-plan.h) into ev.rate */
	int no_confirm;              /* soft: --no-confirm, no watchpoints beside the samples */
	const char **events;         /* -e strings; none: the machine's memory events */
	size_t nr_events;
	const char *output;          /* default c2c-lite.data; "-": standard output (the
				      * workload's standard output then goes to standard error) */
	unsigned int mmap_pages;     /* data pages per ring (power of two); 0: 128 */
	unsigned int aux_pages;      /* AUX area pages per CPU (Arm SPE; power of two); 0: perf's
				      * default (4 MiB privileged, 128 KiB otherwise) */
	double duration;             /* seconds, 0: until the workload ends or a signal */
	pid_t *pids;                 /* -p (processes) or -t (threads) */
	size_t nr_pids;
	int threads_only;            /* -t */
	const char *cpu_list;        /* -C */
	char **argv;                 /* the workload, NULL-terminated; NULL for none */
	const char *cmdline;         /* the recorded command line */
	const char *options;         /* options as text, for the trace header */
	int topdown;                 /* 1 on, 0 off, -1 auto (on for hardware memory events) */
	int zstd_level;
	volatile sig_atomic_t *stop; /* set by the caller's signal handler (its value: signo) */
};

/* What ended the recording. */
enum record_stop {
	RECORD_STOP_TARGETS = 0,     /* the workload or the -p/-t targets ended (or an error) */
	RECORD_STOP_DURATION,        /* --duration elapsed */
	RECORD_STOP_SIGNAL,          /* *opts.stop was set (a signal) */
};

struct record_result {
	int have_status;             /* a workload ran */
	int status;                  /* its wait status */
	int exec_errno;              /* the workload could not start: its exec failed with this */
	int removed;                 /* the recording never started: the trace file was removed */
	enum record_stop stop;
	uint64_t samples, records, bytes;
	uint64_t td_readings;        /* TopDown readings beside IBS/SPE (not memory samples) */
	uint64_t lost_records, lost_samples, throttles;
	uint64_t aux_records;        /* PERF_RECORD_AUX records (Arm SPE) */
	uint64_t aux_truncated;      /* ... flagged truncated: the AUX area was full, data lost */
	uint64_t aux_partial;        /* ... flagged partial: a record cut short (gaps) */
	uint64_t aux_collision;      /* ... flagged collision: the PMU dropped samples */
	uint64_t aux_bytes;          /* AUX bytes written to the trace */
	uint64_t aux_dropped;        /* AUX bytes announced but not readable (dropped) */
	uint64_t malformed;          /* kernel records that did not decode */
	uint64_t write_error;        /* -errno of a failed write, 0 */
	char td_reason[256];
	uint32_t backend;            /* enum trace_backend recorded */
	uint64_t soft_recovered;     /* soft: samples with a recovered data address */
	int confirm_status;          /* soft: enum c2c_confirm_status (include/c2c/confirm.h) */
	char confirm_reason[256];    /* ... why off or unavailable */
	uint64_t confirm_hits, confirm_windows, confirm_lines;   /* soft: what the watchpoints saw */
	double confirm_seen;         /* soft: share of the workload's work they were armed for */
	double confirm_budget;       /* soft: the trap time bound they kept (0: unbounded) */
	uint64_t watch_words, watch_slots;  /* watch: words asked for, registers used */
	double watch_seen;           /* watch: share of the workload's work watched (duty cycle) */
	int watch_seen_bound;        /* ... only an upper bound (c2c_watch_duty_bound()) */
	double watch_budget;         /* watch: the overhead bound used (0: unlimited) */
	uint64_t unwound, unwind_walked;   /* --call-graph dwarf: samples unwound, and those
					    * that reached a caller */
	uint64_t regions;            /* region markers of the workload written (include/c2c/region.h) */
	uint64_t uncore;             /* AMD uncore rows written (include/c2c/uncore.h) */
};

int record_run(const struct record_opts *o, struct record_result *res);

#endif
