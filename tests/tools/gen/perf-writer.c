/* c2c-gen's perf.data writer: the events of a scenario as a perf.data file perf 6.1 reads, so that
 * `perf c2c report`, `perf script` and `perf report -D` can serve as oracles for c2c-lite's
 * perf.data reader and report (tests/e2e/report-diff.sh, tests/e2e/perfdata-traits.sh).
 *
 * Without traits (c2c-gen -p FILE) it writes the plain file of earlier versions: the file header,
 * the id arrays, one attr (sample_id_all, IDENTIFIER), a data section of MMAP/MMAP2/COMM/FORK/EXIT/
 * LOST/THROTTLE and SAMPLE records with FINISHED_ROUND every 1000 records, and the features
 * BUILD_ID (a made-up kernel build-id), HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID,
 * EVENT_DESC, NUMA_TOPOLOGY, MEM_TOPOLOGY. Mapped files point under /nonexistent so both tools print
 * their unresolved forms, except in scenario "spec".
 *
 * With traits (c2c-gen --perf LIST, comma-separated) it writes what perf 6.1 writes for the
 * recording each trait stands for; the perf function imitated is named with each. Every trait
 * file also gets what perf_session__write_header() always writes besides: read_format ID|LOST,
 * exclude_guest, the features CMDLINE (write_cmdline), PMU_MAPPINGS (write_pmu_mappings) and
 * SAMPLE_TIME (write_sample_time), and a FINISHED_ROUND after the last records.
 *
 *   ls        cpu/mem-loads,ldlat=30/P and cpu/mem-stores/P (perf c2c record on Intel, names as
 *             parse_events() gives them); loads and stores go to their own event, each with its
 *             own ids, one per CPU (perf_evlist__id_add of every CPU's fd)
 *   aux       {cpu/mem-loads-aux/,cpu/mem-loads,ldlat=30/}:P and cpu/mem-stores/P (Sapphire
 *             Rapids): the group leader mem-loads-aux takes no samples; write_group_desc();
 *             WEIGHT_STRUCT (arch_evsel__set_sample_weight where the cpu PMU has mem-loads-aux)
 *   hybrid    the aux group and the stores on cpu_core (PMU type 4), loads and stores on cpu_atom
 *             (type 8); samples of the upper half of the CPUs are the atom's;
 *             write_pmu_mappings() with both, write_hybrid_topology(); a dummy event as
 *             record__config_tracking_events() adds on hybrid hosts
 *   dummy     a dummy:HG tracking event last (evlist__findnew_tracking_event): it alone has the
 *             mmap/comm/task bits and so carries the side-band; it lacks PERIOD (fixed period 1),
 *             so the sample types differ and evlist__config() picks IDENTIFIER
 *   init      the preamble of a workload recording (record__synthesize): ID_INDEX
 *             (perf_event__synthesize_id_index: {id, idx = the id's ring buffer, cpu, tid}), the
 *             kernel MMAP (perf_event__synthesize_kernel_mmap), THREAD_MAP and CPU_MAP
 *             (perf_event__synthesize_thread_map2, perf_event__synthesize_cpu_map), the forked
 *             workload's COMM "perf-exec" (perf_event__synthesize_comm), FINISHED_INIT
 *             (write_finished_init). Synthesized records carry a sample id of zero bytes
 *             (id 0, time 0) sized by the first event (evlist__id_hdr_size)
 *   system    -a (implies init and dummy): the side-band before the first sample becomes what
 *             perf_event__synthesize_threads() writes for running tasks: per thread a FORK with
 *             misc FORK_EXEC (perf_event__synthesize_fork) and a COMM, after the leader's its
 *             MMAP2s (perf_event__synthesize_mmap_events, MMAP_DATA on maps without PROT_EXEC);
 *             background tasks first: init, kthreadd and kernel threads (no maps), and the shell
 *             that started the workload, whose maps cover addresses the workload samples
 *             unmapped (a FORK_EXEC copies no maps); kernel modules (perf_event__synthesize_modules)
 *   pids      -p (implies init): perf_event__synthesize_thread_map(): a COMM per thread of the
 *             processes, the leader's MMAP2s after its COMM, no FORK
 *   id=identifier|id|none   the id field forced (default: as evlist__config() chooses: none for
 *             one event, ID when all sample types are equal, else IDENTIFIER)
 *   nocpu     no PERF_SAMPLE_CPU (perf record without --sample-cpu)
 *   noperiod  fixed period (-c 4000): no PERF_SAMPLE_PERIOD
 *   weight=plain|struct|none   PERF_SAMPLE_WEIGHT, WEIGHT_STRUCT (ins_lat in bits 32-47) or none
 *   attr=N    attr.size N: 64, 72, 80, 96, 104, 112, 120, 128 (PERF_ATTR_SIZE_VER0..7, files of
 *             older perf versions: perf_session__write_header writes the attr it has) or 136
 *             (VER8, config3: perf 6.3 and later)
 *   noidall   no sample_id_all (perf before 2.6.38): side-band records carry no sample id
 *   perthread --per-thread: one id per thread, cpu -1, and no TIME (perf record --per-thread)
 *   noindex   no ID_INDEX
 *   pipe      perf record -o -: perf_header__write_pipe() (magic, size 16), then
 *             perf_event__synthesize_for_pipe(): HEADER_ATTR (perf_event__synthesize_attrs) and
 *             HEADER_FEATURE records (perf_event__synthesize_features: every feature but
 *             BUILD_ID, unpadded, ending with the HEADER_LAST_FEATURE mark), EVENT_UPDATE names
 *             (perf_event__synthesize_extra_attr);
 *             the kernel's build-id as a HEADER_BUILD_ID record (perf_event__synthesize_build_id,
 *             as perf inject -b writes it)
 *   zstd      perf record -z: record__pushfn() -> zstd_compress_stream_to_records(): the live
 *             records in COMPRESSED records of one zstd stream, at most 65527 bytes each, pushed
 *             in 4 KiB pieces as a ring buffer wraps (a record may span two COMPRESSED records);
 *             FINISHED_ROUND stays uncompressed; write_compressed(); no BUILD_ID feature (perf -z
 *             turns build-id collection off)
 *
 * LOST and THROTTLE/UNTHROTTLE records carry the id of the first sampling event; with init,
 * LOST_SAMPLES come at the end with a zero-time sample id, as record__read_lost_samples() writes
 * them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "c2c/xalloc.h"
#include "report/aggregate/dsrc.h"
#include "tests/tools/gen/perf-bytes.h"
#include "tests/tools/gen/perf-writer.h"
#include "tests/tools/gen/spe-enc.h"

/* --- perf constants (facts of the ABI) ------------------------------------------------------ */

enum {
	R_MMAP = 1, R_LOST = 2, R_COMM = 3, R_EXIT = 4, R_THROTTLE = 5, R_UNTHROTTLE = 6, R_FORK = 7,
	R_SAMPLE = 9, R_MMAP2 = 10, R_AUX = 11, R_ITRACE_START = 12, R_LOST_SAMPLES = 13,
	R_SWITCH_CPU_WIDE = 15, R_HEADER_ATTR = 64, R_HEADER_BUILD_ID = 67, R_FINISHED_ROUND = 68,
	R_ID_INDEX = 69, R_AUXTRACE_INFO = 70, R_AUXTRACE = 71, R_THREAD_MAP = 73, R_CPU_MAP = 74,
	R_EVENT_UPDATE = 78, R_TIME_CONV = 79, R_HEADER_FEATURE = 80, R_COMPRESSED = 81,
	R_FINISHED_INIT = 82,
};

enum {
	ST_IP = 1 << 0, ST_TID = 1 << 1, ST_TIME = 1 << 2, ST_ADDR = 1 << 3, ST_CALLCHAIN = 1 << 5, ST_ID = 1 << 6,
	ST_CPU = 1 << 7, ST_PERIOD = 1 << 8, ST_STREAM_ID = 1 << 9, ST_WEIGHT = 1 << 14,
	ST_DATA_SRC = 1 << 15, ST_IDENTIFIER = 1 << 16, ST_PHYS_ADDR = 1 << 19,
	ST_WEIGHT_STRUCT = 1 << 24,
};

/* perf_event_attr flag bits */
#define A_DISABLED       (1ULL << 0)
#define A_INHERIT        (1ULL << 1)
#define A_MMAP           (1ULL << 8)
#define A_COMM           (1ULL << 9)
#define A_FREQ           (1ULL << 10)
#define A_ENABLE_ON_EXEC (1ULL << 12)
#define A_TASK           (1ULL << 13)
#define A_PRECISE(n)     ((uint64_t)(n) << 15)
#define A_MMAP_DATA      (1ULL << 17)
#define A_SAMPLE_ID_ALL  (1ULL << 18)
#define A_EXCLUDE_GUEST  (1ULL << 20)
#define A_MMAP2          (1ULL << 23)
#define A_COMM_EXEC      (1ULL << 24)
#define A_EXCLUDE_KERNEL (1ULL << 5)
#define A_CONTEXT_SWITCH (1ULL << 26)
#define A_KSYMBOL        (1ULL << 29)
#define A_BPF_EVENT      (1ULL << 30)
#define A_TRACKING       (A_MMAP | A_COMM | A_TASK | A_MMAP_DATA | A_MMAP2 | A_COMM_EXEC | \
			  A_KSYMBOL | A_BPF_EVENT)

#define MISC_KERNEL      1
#define MISC_USER        2
#define MISC_MMAP_DATA   (1 << 13)    /* = COMM_EXEC = FORK_EXEC */
#define MISC_BUILD_ID    (1 << 14)    /* MMAP2 build-id form */
#define MISC_SWITCH_OUT  (1 << 13)
#define MISC_SWITCH_PREEMPT (1 << 14)

#define FMT_ID_LOST      (4 | 16)     /* read_format ID | LOST */
#define ID_BASE          100
#define MAX_EV           8
#define MAX_TIDS         256
#define PUSH_BYTES       4096         /* a ring-buffer piece compressed at a time (zstd) */
#define ZREC_MAX         65527        /* PERF_SAMPLE_MAX_SIZE - header - 1 */
#define COMP_MMAP_LEN    528384       /* (128 + 1) pages: what perf 6.1 writes in COMPRESSED */
#define KTEXT            0xffffffff81000000ULL
#define SHELL_PID        900
/* Arm SPE: the PMU type of arm_spe_0, the CPUs, the TIME_CONV of the generic timer (40 ns ticks,
 * with the short-counter form perf 5.13+ writes), the Neoverse N1 MIDR */
#define SPE_PMU_TYPE     10
#define SPE_MAX_CPUS     64
#define SPE_TIME_SHIFT   20
#define SPE_TIME_MULT    (40u << SPE_TIME_SHIFT)
#define SPE_TIME_ZERO    123
#define SPE_TIME_CYCLES  16
#define SPE_MIDR_N1      0x410fd0c0ULL
#define SPE_MAX_INDEX    4096

/* --- the event list ------------------------------------------------------------------------- */

struct pw_ev {
	const char *name;
	uint32_t type;
	uint64_t config, config1, config2, period, sample_type, read_format, flags;
	int sampling;        /* takes samples (the aux leader and the dummy do not) */
	int nr_members;      /* a group leader's members, itself included; 0 when not a leader */
	int member;          /* a group member other than its leader */
	unsigned precise;
};

struct pw {
	const struct pw_opts *o;
	const struct trace_info *in;
	const struct trace_event *ev;
	size_t nr;
	struct pw_ev e[MAX_EV];
	unsigned nr_ev, track, first_sampling;
	unsigned nr_ids;     /* ids per event: one per CPU, or per thread */
	uint32_t asz;        /* attr.size written */
	uint32_t tids[MAX_TIDS];
	unsigned nr_tids;
	size_t id_hdr_size;  /* sample id bytes of synthesized records (the first event's) */
	struct buf data;     /* the data section, or the stream after the pipe header */
	struct buf rnd;      /* live records of the round being written */
	ZSTD_CStream *zcs;
	uint64_t raw_bytes, z_bytes;
	uint64_t first_time, last_time;
	int err;
	/* Arm SPE: the encoder, each CPU's task and AUX offset, the index of AUXTRACE records */
	struct spe_enc *spe;
	uint64_t data_off;   /* file offset of the data section (alignment of AUX data) */
	int32_t spe_tid[SPE_MAX_CPUS];
	uint32_t spe_pid[SPE_MAX_CPUS];
	int spe_started[SPE_MAX_CPUS], spe_pending[SPE_MAX_CPUS];
	uint64_t spe_aux_off[SPE_MAX_CPUS], spe_last[SPE_MAX_CPUS];
	uint64_t aux_index[SPE_MAX_INDEX];
	size_t nr_aux_index;
	struct buf spe_aux;  /* AUX records for the next round */
};

static int is_store(const struct trace_sample *s)
{
	return (dsrc_field(s->data_src, DSRC_OP_SHIFT, 5) & DSRC_OP_STORE) != 0;
}

/* The event a sample belongs to. */
static unsigned event_of(const struct pw *pw, const struct trace_sample *s)
{
	int st = is_store(s);

	switch (pw->o->events) {
	case PW_EV_LS:
		return st ? 1 : 0;
	case PW_EV_AUX:
		return st ? 2 : 1;
	case PW_EV_HYBRID:
		if (s->cpu != TRACE_CPU_NONE && s->cpu >= pw->in->nr_cpus / 2)
			return st ? 4 : 3;
		return st ? 2 : 1;
	default:
		return 0;
	}
}

static unsigned tid_index(const struct pw *pw, uint32_t tid)
{
	unsigned i;

	for (i = 0; i < pw->nr_tids; i++)
		if (pw->tids[i] == tid)
			return i;
	return 0;
}

/* The fd (and so the id) a record of @cpu and @tid came through. */
static unsigned fd_index(const struct pw *pw, uint32_t cpu, uint32_t tid)
{
	if (pw->o->per_thread)
		return tid_index(pw, tid);
	return cpu < pw->nr_ids ? cpu : 0;
}

static uint64_t ev_id(const struct pw *pw, unsigned e, unsigned k)
{
	return ID_BASE + (uint64_t)e * pw->nr_ids + k;
}

/* @group: 0 alone, 2 the leader of a group of two, -1 the member after it */
static void add_ev(struct pw *pw, const char *name, uint32_t type, uint64_t config,
		   uint64_t config1, int sampling, int group)
{
	struct pw_ev *e = &pw->e[pw->nr_ev++];

	*e = (struct pw_ev){ .name = name, .type = type, .config = config, .config1 = config1,
			     .sampling = sampling, .nr_members = group > 0 ? group : 0,
			     .member = group < 0, .precise = strstr(name, "/P") ||
			     strstr(name, "mem-loads-aux") ? 3 : 0 };
}

/* The sample_type and flags evlist__config() gives each event. */
static void config_events(struct pw *pw)
{
	const struct pw_opts *o = pw->o;
	uint64_t st = ST_IP | ST_TID | ST_TIME | ST_ADDR | ST_CPU | ST_PERIOD | ST_DATA_SRC |
		      ST_PHYS_ADDR, idbits = 0;
	enum pw_weight w = o->weight;
	unsigned i;
	int differ = 0;

	if (!o->weight_set)
		w = o->events == PW_EV_AUX ? PW_W_STRUCT : PW_W_PLAIN;
	st |= w == PW_W_PLAIN ? ST_WEIGHT : w == PW_W_STRUCT ? ST_WEIGHT_STRUCT : 0;
	if (o->callchain)
		st |= ST_CALLCHAIN;
	if (o->no_cpu)
		st &= ~(uint64_t)ST_CPU;
	if (o->no_period)
		st &= ~(uint64_t)ST_PERIOD;
	if (o->per_thread)
		st &= ~(uint64_t)ST_TIME;
	for (i = 0; i < pw->nr_ev; i++) {
		struct pw_ev *e = &pw->e[i];
		int dummy = e->type == 1;

		e->sample_type = dummy ? st & ~(uint64_t)ST_PERIOD : st;
		e->read_format = FMT_ID_LOST;
		e->period = dummy ? 1 : 4000;
		e->flags = (dummy || o->no_period ? 0 : A_FREQ) | (o->per_thread ? 0 : A_INHERIT) |
			   (o->no_sample_id_all ? 0 : A_SAMPLE_ID_ALL);
		if (!dummy) {
			e->flags |= A_EXCLUDE_GUEST | A_PRECISE(e->precise);
			if (!e->member)   /* a group member follows its leader */
				e->flags |= A_DISABLED;
			if (o->target == PW_T_WORKLOAD)
				e->flags |= A_ENABLE_ON_EXEC;
		}
		if (i == pw->track)
			e->flags |= A_TRACKING;
		differ |= e->sample_type != pw->e[0].sample_type;
	}
	if (o->id == PW_ID_IDENTIFIER || (o->id == PW_ID_AUTO && pw->nr_ev > 1 && differ))
		idbits = ST_IDENTIFIER;
	else if (o->id == PW_ID_ID || (o->id == PW_ID_AUTO && pw->nr_ev > 1))
		idbits = ST_ID;
	for (i = 0; i < pw->nr_ev; i++)
		pw->e[i].sample_type |= idbits;
}

/* perf c2c record on arm64 (arm_spe_recording_options(), evlist__findnew_tracking_event()):
 * the SPE event with ts_enable, pa_enable, the load and store filters and min_latency 30, fixed
 * period caps/min_interval, then dummy:u with the side-band and, per CPU, context switches.
 * The sample types differ, so IDENTIFIER. */
static void setup_spe_events(struct pw *pw)
{
	struct pw_ev *e;

	add_ev(pw, "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=30/",
	       SPE_PMU_TYPE, 0x600000003ULL, 0, 1, 0);
	add_ev(pw, "dummy:u", 1, 9, 0, 0, 0);
	pw->track = 1;
	pw->first_sampling = 0;
	e = &pw->e[0];
	e->config2 = 30;
	e->period = 4096;
	e->sample_type = ST_IDENTIFIER | ST_IP | ST_TID | ST_TIME | ST_ADDR | ST_CPU | ST_WEIGHT |
			 ST_DATA_SRC | ST_PHYS_ADDR;
	e->read_format = FMT_ID_LOST;
	e->flags = A_DISABLED | A_INHERIT | A_ENABLE_ON_EXEC | A_SAMPLE_ID_ALL | A_EXCLUDE_GUEST;
	e = &pw->e[1];
	e->period = 1;
	e->sample_type = ST_IDENTIFIER | ST_IP | ST_TID | ST_TIME | ST_CPU;
	e->read_format = FMT_ID_LOST;
	e->flags = A_DISABLED | A_INHERIT | A_ENABLE_ON_EXEC | A_EXCLUDE_KERNEL | A_SAMPLE_ID_ALL |
		   A_TRACKING | A_CONTEXT_SWITCH;
	pw->nr_ids = pw->in->nr_cpus;
}

static void setup_events(struct pw *pw)
{
	const struct pw_opts *o = pw->o;
	const struct trace_event_desc *d = &pw->in->events[0];
	unsigned i;

	if (o->spe) {
		setup_spe_events(pw);
		return;
	}

	if (!o->traits) {
		/* the plain file: one event, IDENTIFIER and sample_id_all, one id */
		add_ev(pw, d->name, d->type, d->config, d->config1, 1, 0);
		pw->e[0].period = d->period;
		pw->e[0].precise = d->precise_ip;
		pw->e[0].sample_type = ST_IDENTIFIER | ST_IP | ST_TID | ST_TIME | ST_ADDR | ST_CPU |
				       ST_PERIOD | ST_WEIGHT | ST_DATA_SRC | ST_PHYS_ADDR |
				       (o->callchain ? ST_CALLCHAIN : 0);
		pw->e[0].flags = A_DISABLED | A_INHERIT | A_MMAP | A_COMM | A_TASK |
				 A_PRECISE(pw->e[0].precise) | A_SAMPLE_ID_ALL | A_MMAP2 | A_COMM_EXEC;
		pw->nr_ids = 1;
		return;
	}
	switch (o->events) {
	case PW_EV_ONE:
		add_ev(pw, "ibs_op//", 11, 0, 0, 1, 0);
		break;
	case PW_EV_LS:
		add_ev(pw, "cpu/mem-loads,ldlat=30/P", 4, 0x1cd, 30, 1, 0);
		add_ev(pw, "cpu/mem-stores/P", 4, 0x82d0, 0, 1, 0);
		break;
	case PW_EV_AUX:
		add_ev(pw, "cpu/mem-loads-aux/", 4, 0x8203, 0, 0, 2);
		add_ev(pw, "cpu/mem-loads,ldlat=30/P", 4, 0x1cd, 30, 1, -1);
		add_ev(pw, "cpu/mem-stores/P", 4, 0x2cd, 0, 1, 0);
		break;
	case PW_EV_HYBRID:
		add_ev(pw, "cpu_core/mem-loads-aux/", 4, 0x8203, 0, 0, 2);
		add_ev(pw, "cpu_core/mem-loads,ldlat=30/P", 4, 0x1cd, 30, 1, -1);
		add_ev(pw, "cpu_core/mem-stores/P", 4, 0x2cd, 0, 1, 0);
		add_ev(pw, "cpu_atom/mem-loads,ldlat=30/P", 8, 0x5d0, 30, 1, 0);
		add_ev(pw, "cpu_atom/mem-stores/P", 8, 0x6d0, 0, 1, 0);
		break;
	}
	pw->track = 0;
	if (o->dummy) {
		add_ev(pw, "dummy:HG", 1, 9, 0, 0, 0);
		pw->track = pw->nr_ev - 1;
	}
	config_events(pw);
	pw->nr_ids = o->per_thread ? (pw->nr_tids ? pw->nr_tids : 1) : pw->in->nr_cpus;
	for (i = 0; i < pw->nr_ev && !pw->e[i].sampling; i++)
		;
	pw->first_sampling = i < pw->nr_ev ? i : 0;
}

/* The bytes of a sample id (evlist__id_hdr_size) of the first event: what synthesized records
 * carry, all zero. */
static size_t id_hdr_size(const struct pw_ev *e)
{
	uint64_t st = e->sample_type;

	if (!(e->flags & A_SAMPLE_ID_ALL))
		return 0;
	return 8 * (size_t)(!!(st & ST_TID) + !!(st & ST_TIME) + !!(st & ST_ID) +
			    !!(st & ST_STREAM_ID) + !!(st & ST_CPU) + !!(st & ST_IDENTIFIER));
}

/* perf_event_attr, the first @size bytes */
static void put_attr(struct buf *b, const struct pw *pw, const struct pw_ev *e)
{
	unsigned char a[136] = { 0 };
	uint32_t size = pw->asz;

	memcpy(a + 0, &e->type, 4);
	memcpy(a + 4, &size, 4);
	memcpy(a + 8, &e->config, 8);
	memcpy(a + 16, &e->period, 8);
	memcpy(a + 24, &e->sample_type, 8);
	memcpy(a + 32, &e->read_format, 8);
	memcpy(a + 40, &e->flags, 8);
	memcpy(a + 56, &e->config1, 8);
	memcpy(a + 64, &e->config2, 8);
	put(b, a, size);
}

/* --- records -------------------------------------------------------------------------------- */

/* Whose sample id a record carries. */
struct sid {
	int synth;           /* perf synthesized it: zero bytes */
	unsigned e;
	uint32_t pid, tid, cpu;
	uint64_t time;
};

static void put_sid(const struct pw *pw, struct buf *b, const struct sid *t)
{
	const struct pw_ev *e = &pw->e[t->e];
	uint64_t st = e->sample_type, id;

	if (t->synth) {
		put_zero(b, pw->id_hdr_size);
		return;
	}
	if (!(e->flags & A_SAMPLE_ID_ALL))
		return;
	id = ev_id(pw, t->e, fd_index(pw, t->cpu, t->tid));
	if (st & ST_TID) {
		put32(b, t->pid);
		put32(b, t->tid);
	}
	if (st & ST_TIME)
		put64(b, t->time);
	if (st & ST_ID)
		put64(b, id);
	if (st & ST_STREAM_ID)
		put64(b, id);
	if (st & ST_CPU) {
		put32(b, t->cpu);
		put32(b, 0);
	}
	if (st & ST_IDENTIFIER)
		put64(b, id);
}

/* Side-band of the live stream: the tracking event's, on CPU 0. */
static struct sid live_sid(const struct pw *pw, uint32_t pid, uint32_t tid, uint64_t time)
{
	return (struct sid){ .e = pw->track, .pid = pid, .tid = tid, .time = time };
}

static void rec_sample(struct pw *pw, struct buf *b, const struct trace_sample *s)
{
	unsigned e = event_of(pw, s);
	uint64_t st = pw->e[e].sample_type;
	uint64_t id = ev_id(pw, e, fd_index(pw, s->cpu, s->tid));
	size_t at = rec_begin(b, R_SAMPLE, s->cpumode);

	if (st & ST_IDENTIFIER)
		put64(b, id);
	if (st & ST_IP)
		put64(b, s->ip);
	if (st & ST_TID) {
		put32(b, s->pid);
		put32(b, s->tid);
	}
	if (st & ST_TIME)
		put64(b, s->time);
	if (st & ST_ADDR)
		put64(b, s->addr);
	if (st & ST_ID)
		put64(b, id);
	if (st & ST_CPU) {
		put32(b, s->cpu);
		put32(b, 0);
	}
	if (st & ST_PERIOD)
		put64(b, 4000);
	if (st & ST_CALLCHAIN) {
		put64(b, s->chain_nr);
		for (uint32_t i = 0; i < s->chain_nr; i++)
			put64(b, s->chain[i]);
	}
	if (st & ST_WEIGHT)
		put64(b, s->weight);
	else if (st & ST_WEIGHT_STRUCT)   /* var1_dw the latency, var2_w the instruction latency */
		put64(b, (s->weight & 0xffffffffULL) | (((s->weight >> 1) & 0xffffULL) << 32));
	if (st & ST_DATA_SRC)
		put64(b, s->data_src);
	if (st & ST_PHYS_ADDR)
		put64(b, s->phys_addr);
	rec_end(b, at);
	if (!pw->first_time)
		pw->first_time = s->time;
	pw->last_time = s->time;
}

static void rec_kmmap(const struct pw *pw, struct buf *b, const struct trace_mmap *m,
		      const struct sid *t)
{
	size_t at = rec_begin(b, R_MMAP, MISC_KERNEL);

	put32(b, m->pid);
	put32(b, t->synth ? 0 : m->tid);
	put64(b, m->start);
	put64(b, m->len);
	put64(b, m->pgoff);
	put_rstr(b, m->filename);
	put_sid(pw, b, t);
	rec_end(b, at);
}

/* MMAP2; a synthesized one as perf reads it from /proc/PID/maps (no build-id, MMAP_DATA). */
static void rec_mmap2(const struct pw *pw, struct buf *b, const struct trace_mmap *m,
		      const struct sid *t)
{
	int bid = m->build_id_size && !t->synth;
	uint16_t misc = t->synth ? (uint16_t)(MISC_USER | (m->prot & 4 ? 0 : MISC_MMAP_DATA)) :
			(uint16_t)(m->cpumode | (bid ? MISC_BUILD_ID : 0));
	size_t at;

	if (m->cpumode == MISC_KERNEL) {
		rec_kmmap(pw, b, m, t);
		return;
	}
	at = rec_begin(b, R_MMAP2, misc);
	put32(b, m->pid);
	put32(b, m->tid);
	put64(b, m->start);
	put64(b, m->len);
	put64(b, m->pgoff);
	if (bid) {
		unsigned char id[24] = { 0 };

		id[0] = m->build_id_size;
		memcpy(id + 4, m->build_id, m->build_id_size);
		put(b, id, sizeof(id));
	} else {
		put32(b, m->maj);
		put32(b, m->min);
		put64(b, m->ino);
		put64(b, t->synth ? 0 : m->ino_generation);
	}
	put32(b, m->prot);
	put32(b, m->flags);
	put_rstr(b, m->filename);
	put_sid(pw, b, t);
	rec_end(b, at);
}

static void rec_comm(const struct pw *pw, struct buf *b, uint32_t pid, uint32_t tid,
		     const char *comm, int exec, const struct sid *t)
{
	size_t at = rec_begin(b, R_COMM, exec ? MISC_MMAP_DATA : 0);

	put32(b, pid);
	put32(b, tid);
	put_rstr(b, comm);
	put_sid(pw, b, t);
	rec_end(b, at);
}

static void rec_task(const struct pw *pw, struct buf *b, uint32_t type,
		     const struct trace_task *k, const struct sid *t)
{
	size_t at = rec_begin(b, type, t->synth ? MISC_MMAP_DATA : 0);   /* FORK_EXEC */

	put32(b, k->pid);
	put32(b, k->ppid);
	put32(b, k->tid);
	put32(b, k->ptid);
	put64(b, k->time);
	put_sid(pw, b, t);
	rec_end(b, at);
}

static void rec_lost(const struct pw *pw, struct buf *b, const struct trace_lost *l,
		     const struct sid *t)
{
	uint64_t id = ev_id(pw, t->e, fd_index(pw, t->cpu, t->tid));
	size_t at;

	switch (l->kind) {
	case TRACE_LOST_RECORDS:
		at = rec_begin(b, R_LOST, 0);
		put64(b, id);
		put64(b, l->count);
		break;
	case TRACE_LOST_SAMPLES:
		at = rec_begin(b, R_LOST_SAMPLES, 0);
		put64(b, l->count);
		break;
	default:
		at = rec_begin(b, l->kind == TRACE_LOST_THROTTLE ? R_THROTTLE : R_UNTHROTTLE, 0);
		put64(b, l->time);
		put64(b, id);
		put64(b, id);
	}
	put_sid(pw, b, t);
	rec_end(b, at);
}

static void rec_empty(struct buf *b, uint32_t type)
{
	rec_end(b, rec_begin(b, type, 0));
}

/* --- Arm SPE records ------------------------------------------------------------------------- */

/* perf_event__synth_time_conv(): TIME_CONV, with time_cycles/time_mask (perf 5.13+) unless
 * spe_old_tc */
static void rec_time_conv(const struct pw *pw, struct buf *b)
{
	size_t at = rec_begin(b, R_TIME_CONV, 0);

	put64(b, SPE_TIME_SHIFT);
	put64(b, SPE_TIME_MULT);
	put64(b, SPE_TIME_ZERO);
	if (!pw->o->spe_old_tc) {
		uint8_t caps[8] = { 1, 1 };   /* cap_user_time_zero, cap_user_time_short */

		put64(b, SPE_TIME_CYCLES);
		put64(b, (1ULL << 56) - 1);
		put(b, caps, sizeof(caps));
	}
	rec_end(b, at);
}

/* arm_spe_info_fill() of perf 6.1: type ARM_SPE, priv[0] the PMU type, priv[1] per-CPU mmaps */
static void rec_auxtrace_info(struct buf *b)
{
	size_t at = rec_begin(b, R_AUXTRACE_INFO, 0);

	put32(b, 4);
	put32(b, 0);
	put64(b, SPE_PMU_TYPE);
	put64(b, 1);
	rec_end(b, at);
}

/* The generic timer tick of a perf time (the inverse of perf's tsc_to_perf_time()). */
static uint64_t spe_tsc(uint64_t time)
{
	return (time - SPE_TIME_ZERO) / (SPE_TIME_MULT >> SPE_TIME_SHIFT);
}

/* PERF_RECORD_SWITCH_CPU_WIDE of the dummy event: @out from (@pid, @tid) to the next task (@np_*),
 * or in, from the previous one */
static void rec_switch(const struct pw *pw, struct buf *b, int out, uint32_t np_pid,
		       uint32_t np_tid, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t time)
{
	struct sid t = { .e = pw->track, .pid = pid, .tid = tid, .cpu = cpu, .time = time };
	size_t at = rec_begin(b, R_SWITCH_CPU_WIDE, out ? MISC_SWITCH_OUT | MISC_SWITCH_PREEMPT : 0);

	put32(b, np_pid);
	put32(b, np_tid);
	put_sid(pw, b, &t);
	rec_end(b, at);
}

static void rec_itrace_start(const struct pw *pw, struct buf *b, uint32_t pid, uint32_t tid,
			     uint32_t cpu, uint64_t time)
{
	struct sid t = { .e = 0, .pid = pid, .tid = tid, .cpu = cpu, .time = time };
	size_t at = rec_begin(b, R_ITRACE_START, 0);

	put32(b, pid);
	put32(b, tid);
	put_sid(pw, b, &t);
	rec_end(b, at);
}

/* PERF_RECORD_AUX of the SPE event: the kernel published @size bytes at @off (flags: 1 TRUNCATED) */
static void rec_aux(const struct pw *pw, struct buf *b, uint32_t cpu, uint64_t off, uint64_t size,
		    uint64_t flags, uint64_t time)
{
	struct sid t = { .e = 0, .pid = pw->spe_pid[cpu], .tid = (uint32_t)pw->spe_tid[cpu],
			 .cpu = cpu, .time = time };
	size_t at = rec_begin(b, R_AUX, 0);

	put64(b, off);
	put64(b, size);
	put64(b, flags);
	put_sid(pw, b, &t);
	rec_end(b, at);
}

/* A sample becomes an SPE record of its CPU. The first one on a CPU follows a switch from the
 * idle task and ITRACE_START; a new task on a CPU follows a switch out and in. */
static void spe_sample(struct pw *pw, struct buf *b, const struct trace_sample *s)
{
	uint32_t c = s->cpu < SPE_MAX_CPUS ? s->cpu : 0;
	uint64_t t = s->time;

	if (!pw->spe_started[c]) {
		pw->spe_started[c] = 1;
		rec_switch(pw, b, 1, s->pid, s->tid, 0, 0, c, t - 6);
		rec_switch(pw, b, 0, 0, 0, s->pid, s->tid, c, t - 5);
		rec_itrace_start(pw, b, s->pid, s->tid, c, t - 4);
	} else if (pw->spe_tid[c] != (int32_t)s->tid) {
		rec_switch(pw, b, 1, s->pid, s->tid, pw->spe_pid[c], (uint32_t)pw->spe_tid[c], c,
			   t - 6);
		rec_switch(pw, b, 0, pw->spe_pid[c], (uint32_t)pw->spe_tid[c], s->pid, s->tid, c,
			   t - 5);
	}
	pw->spe_tid[c] = (int32_t)s->tid;
	pw->spe_pid[c] = s->pid;
	spe_enc_sample(pw->spe, s, spe_tsc(t));
	pw->spe_pending[c] = 1;
	pw->spe_last[c] = t;
	if (!pw->first_time)
		pw->first_time = t;
	pw->last_time = t;
}

/* The AUX data of each CPU since the last round (record__auxtrace_mmap_read()): an AUXTRACE
 * record, its data padded to 8 bytes (auxtrace_mmap__read()), listed in the index; the AUX
 * records that announced the data follow in the next round. */
static void spe_round(struct pw *pw, int last, struct buf *aux_next)
{
	uint32_t c;

	for (c = 0; c < pw->in->nr_cpus && c < SPE_MAX_CPUS; c++) {
		const uint8_t *bytes;
		uint64_t addr, pad, size;
		size_t at;

		if (!pw->spe_pending[c] && !(last && pw->spe_started[c]))
			continue;
		addr = pw->o->pipe ? 0 : pw->data_off + pw->data.len + 48;
		size = spe_enc_take(pw->spe, c, addr, last, &bytes);
		pw->spe_pending[c] = 0;
		if (!size)
			continue;
		pad = (8 - size % 8) % 8;
		if (pw->nr_aux_index < SPE_MAX_INDEX)
			pw->aux_index[pw->nr_aux_index++] = pw->data.len;
		at = rec_begin(&pw->data, R_AUXTRACE, 0);
		put64(&pw->data, size + pad);
		put64(&pw->data, pw->spe_aux_off[c]);
		put64(&pw->data, 0);              /* reference */
		put32(&pw->data, c);              /* idx: the CPU's mmap */
		put32(&pw->data, UINT32_MAX);     /* tid: -1 per CPU */
		put32(&pw->data, c);
		put32(&pw->data, 0);
		rec_end(&pw->data, at);
		put(&pw->data, bytes, (size_t)size);
		put_zero(&pw->data, (size_t)pad);
		rec_aux(pw, aux_next, c, pw->spe_aux_off[c], size, last && pw->o->spe_cut ? 1 : 0,
			pw->spe_last[c] + 1);
		pw->spe_aux_off[c] += size + pad;
	}
}

/* --- the live stream: rounds, compression --------------------------------------------------- */

/* zstd_compress_stream_to_records(): one push into COMPRESSED records of one stream. */
static void z_push(struct pw *pw, const unsigned char *src, size_t n)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t left = 1;

	while (in.pos < in.size || left) {
		size_t at = rec_begin(&pw->data, R_COMPRESSED, 0), rc;
		ZSTD_outBuffer out;

		pw->data.p = xgrow(pw->data.p, &pw->data.cap, pw->data.len + ZREC_MAX, 1);
		out = (ZSTD_outBuffer){ pw->data.p + pw->data.len, ZREC_MAX, 0 };
		rc = ZSTD_compressStream(pw->zcs, &out, &in);
		left = ZSTD_isError(rc) ? 0 : ZSTD_flushStream(pw->zcs, &out);
		if (ZSTD_isError(rc) || ZSTD_isError(left)) {
			pw->err = -EIO;
			pw->data.len = at;
			return;
		}
		pw->data.len += out.pos;
		pw->z_bytes += 8 + out.pos;
		rec_end(&pw->data, at);
	}
	pw->raw_bytes += n;
}

static void end_round(struct pw *pw, int marker, int last)
{
	struct buf aux_next = { 0 };
	size_t off;

	if (pw->spe && pw->spe_aux.len) {
		put(&pw->rnd, pw->spe_aux.p, pw->spe_aux.len);
		pw->spe_aux.len = 0;
	}
	if (pw->zcs) {
		for (off = 0; off < pw->rnd.len; off += PUSH_BYTES)
			z_push(pw, pw->rnd.p + off, pw->rnd.len - off < PUSH_BYTES ?
			       pw->rnd.len - off : PUSH_BYTES);
	} else {
		put(&pw->data, pw->rnd.p, pw->rnd.len);
	}
	pw->rnd.len = 0;
	if (pw->spe) {
		spe_round(pw, last, &aux_next);
		put(&pw->spe_aux, aux_next.p, aux_next.len);
		free(aux_next.p);
		marker |= last;
	}
	if (marker)
		rec_empty(&pw->data, R_FINISHED_ROUND);
	if (pw->spe && last && pw->spe_aux.len)
		end_round(pw, 1, 0);   /* the AUX records of the last buffers */
}

/* --- what perf synthesizes before FINISHED_INIT ---------------------------------------------- */

struct sthread {
	uint32_t tid;
	const char *comm;
};

struct sproc {
	uint32_t pid, ppid;
	const char *comm;
	const struct trace_mmap **maps;
	size_t nr_maps, cap_maps;
	struct sthread *thr;
	size_t nr_thr, cap_thr;
};

struct procs {
	struct sproc *p;
	size_t nr, cap;
	const struct trace_mmap *kmap;
};

static struct sproc *proc_get(struct procs *ps, uint32_t pid)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		if (ps->p[i].pid == pid)
			return &ps->p[i];
	ps->p = xgrow(ps->p, &ps->cap, ps->nr + 1, sizeof(*ps->p));
	memset(&ps->p[ps->nr], 0, sizeof(ps->p[0]));
	ps->p[ps->nr].pid = pid;
	ps->p[ps->nr].ppid = SHELL_PID;
	ps->p[ps->nr].comm = "";
	return &ps->p[ps->nr++];
}

static void proc_map(struct sproc *p, const struct trace_mmap *m)
{
	p->maps = xgrow(p->maps, &p->cap_maps, p->nr_maps + 1, sizeof(*p->maps));
	p->maps[p->nr_maps++] = m;
}

static struct sthread *proc_thread(struct sproc *p, uint32_t tid)
{
	size_t i;

	for (i = 0; i < p->nr_thr; i++)
		if (p->thr[i].tid == tid)
			return &p->thr[i];
	p->thr = xgrow(p->thr, &p->cap_thr, p->nr_thr + 1, sizeof(*p->thr));
	p->thr[p->nr_thr] = (struct sthread){ tid, p->comm };
	return &p->thr[p->nr_thr++];
}

/* The tasks the side-band before the first sample describes: /proc as perf would find it. A
 * process forked there holds its parent's maps, as /proc/PID/maps would show them. */
static void collect_procs(const struct pw *pw, size_t end, struct procs *ps)
{
	size_t i, j;

	for (i = 0; i < end; i++) {
		const struct trace_event *e = &pw->ev[i];
		struct sproc *p, *par;

		switch (e->type) {
		case TRACE_REC_MMAP:
			if (e->mmap.pid == UINT32_MAX)
				ps->kmap = &e->mmap;
			else
				proc_map(proc_get(ps, e->mmap.pid), &e->mmap);
			break;
		case TRACE_REC_COMM:
			p = proc_get(ps, e->comm.pid);
			if (e->comm.pid == e->comm.tid)
				p->comm = e->comm.comm;
			else
				proc_thread(p, e->comm.tid)->comm = e->comm.comm;
			break;
		case TRACE_REC_FORK:
			if (e->task.pid == e->task.ppid) {
				proc_thread(proc_get(ps, e->task.pid), e->task.tid);
				break;
			}
			proc_get(ps, e->task.ppid);
			p = proc_get(ps, e->task.pid);
			par = proc_get(ps, e->task.ppid);   /* both exist now: no more moves */
			p->ppid = e->task.ppid;
			p->comm = par->comm;
			for (j = 0; j < par->nr_maps; j++)
				proc_map(p, par->maps[j]);
			break;
		default:
			break;
		}
	}
}

static void procs_free(struct procs *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++) {
		free(ps->p[i].maps);
		free(ps->p[i].thr);
	}
	free(ps->p);
}

/* The synthesized MMAP2 of a map of process @pid. */
static void synth_map(const struct pw *pw, struct buf *b, uint32_t pid, const struct trace_mmap *m)
{
	static const struct sid zero = { .synth = 1 };
	struct trace_mmap c = *m;

	c.pid = c.tid = pid;
	c.build_id_size = 0;
	rec_mmap2(pw, b, &c, &zero);
}

/* Tasks that were running before the workload: init, kernel threads, the shell. */
struct bg_map {
	uint64_t start, len, pgoff;
	uint32_t prot;
	uint64_t ino;
	const char *file;
};

static const struct bg_task {
	uint32_t pid, ppid;
	const char *comm;
	struct bg_map maps[3];
} bg_tasks[] = {
	{ 1, 0, "systemd", { { 0x55d0c0000000ULL, 0x26000, 0, 5, 3001, "/usr/lib/systemd/systemd" },
			     { 0x55d0c0026000ULL, 0x8000, 0x26000, 3, 3001, "/usr/lib/systemd/systemd" },
			     { 0x7f5a00000000ULL, 0x1d0000, 0, 5, 3002, "/usr/lib/libc.so.6" } } },
	{ 2, 0, "kthreadd", { { 0 } } },
	{ 3, 2, "rcu_gp", { { 0 } } },
	{ 4, 2, "kworker/0:0H", { { 0 } } },
	{ 5, 2, "ksoftirqd/0", { { 0 } } },
	{ 700, 1, "rsyslogd", { { 0x5600c0000000ULL, 0x20000, 0, 5, 3101, "/usr/sbin/rsyslogd" },
				{ 0x7f6a00000000ULL, 0x1d0000, 0, 5, 3002, "/usr/lib/libc.so.6" } } },
	/* the shell: its code and data sit where the workload samples unmapped addresses */
	{ SHELL_PID, 1, "bash", { { 0x9000000, 0x100000, 0, 5, 4001, "/nonexistent/c2c-gen/bin/bash" },
				  { 0x5000000, 0x10000, 0x100000, 3, 4001,
				    "/nonexistent/c2c-gen/bin/bash" } } },
};

static void synth_fork_comm(const struct pw *pw, struct buf *b, uint32_t pid, uint32_t ppid,
			    uint32_t tid, const char *comm)
{
	static const struct sid zero = { .synth = 1 };
	struct trace_task k = { 0, pid, tid == pid ? ppid : pid, tid, tid == pid ? ppid : pid };

	rec_task(pw, b, R_FORK, &k, &zero);
	rec_comm(pw, b, pid, tid, comm, 0, &zero);
}

#define BG_KTHREADS 40     /* kworkers after the tasks above */
#define BG_THREADS  3      /* threads of the multithreaded daemon (rsyslogd) */

/* perf_event__synthesize_threads(): every task in /proc */
static void synth_system(const struct pw *pw, struct buf *b, const struct procs *ps)
{
	char comm[16];
	size_t i, j;

	for (i = 0; i < sizeof(bg_tasks) / sizeof(bg_tasks[0]); i++) {
		const struct bg_task *t = &bg_tasks[i];

		synth_fork_comm(pw, b, t->pid, t->ppid, t->pid, t->comm);
		for (j = 0; j < 3 && t->maps[j].len; j++) {
			struct trace_mmap m = { .start = t->maps[j].start, .len = t->maps[j].len,
				.pgoff = t->maps[j].pgoff, .prot = t->maps[j].prot, .flags = 2,
				.maj = 8, .min = 1, .ino = t->maps[j].ino, .cpumode = MISC_USER,
				.filename = t->maps[j].file };

			synth_map(pw, b, t->pid, &m);
		}
		for (j = 1; !strcmp(t->comm, "rsyslogd") && j <= BG_THREADS; j++) {
			snprintf(comm, sizeof(comm), "rs:worker%zu", j);
			synth_fork_comm(pw, b, t->pid, t->pid, t->pid + (uint32_t)j, comm);
		}
	}
	for (i = 0; i < BG_KTHREADS; i++) {
		snprintf(comm, sizeof(comm), "kworker/%zu:%zu", i % 4, i / 4);
		synth_fork_comm(pw, b, 10 + (uint32_t)i, 2, 10 + (uint32_t)i, comm);
	}
	for (i = 0; i < ps->nr; i++) {
		const struct sproc *p = &ps->p[i];

		synth_fork_comm(pw, b, p->pid, p->ppid, p->pid, p->comm);
		for (j = 0; j < p->nr_maps; j++)
			synth_map(pw, b, p->pid, p->maps[j]);
		for (j = 0; j < p->nr_thr; j++)
			if (p->thr[j].tid != p->pid)
				synth_fork_comm(pw, b, p->pid, p->pid, p->thr[j].tid, p->thr[j].comm);
	}
}

/* perf_event__synthesize_thread_map(): the threads of the -p processes */
static void synth_pids(const struct pw *pw, struct buf *b, const struct procs *ps)
{
	static const struct sid zero = { .synth = 1 };
	size_t i, j;

	for (i = 0; i < ps->nr; i++) {
		const struct sproc *p = &ps->p[i];

		rec_comm(pw, b, p->pid, p->pid, p->comm, 0, &zero);
		for (j = 0; j < p->nr_maps; j++)
			synth_map(pw, b, p->pid, p->maps[j]);
		for (j = 0; j < p->nr_thr; j++)
			if (p->thr[j].tid != p->pid)
				rec_comm(pw, b, p->pid, p->thr[j].tid, p->thr[j].comm, 0, &zero);
	}
}

static uint32_t workload_pid(const struct pw *pw)
{
	size_t i;

	for (i = 0; i < pw->nr; i++) {
		if (pw->ev[i].type == TRACE_REC_COMM)
			return pw->ev[i].comm.pid;
		if (pw->ev[i].type == TRACE_REC_SAMPLE)
			return pw->ev[i].sample.pid;
	}
	return 1;
}

static void rec_id_index(const struct pw *pw, struct buf *b)
{
	uint64_t tid = pw->o->target == PW_T_SYSTEM ? UINT64_MAX : workload_pid(pw);
	size_t at = rec_begin(b, R_ID_INDEX, 0);
	unsigned e, k;

	put64(b, (uint64_t)pw->nr_ev * pw->nr_ids);
	for (e = 0; e < pw->nr_ev; e++)
		for (k = 0; k < pw->nr_ids; k++) {
			put64(b, ev_id(pw, e, k));
			put64(b, k);                                   /* the ring buffer */
			put64(b, pw->o->per_thread ? UINT64_MAX : k);  /* cpu */
			put64(b, pw->o->per_thread ? pw->tids[k] : tid);
		}
	rec_end(b, at);
}

static void rec_thread_map(const struct pw *pw, struct buf *b, const struct procs *ps)
{
	size_t at = rec_begin(b, R_THREAD_MAP, 0), i, j, n = 0;
	char comm[16] = { 0 };

	put64(b, 0);
	if (pw->o->target == PW_T_PIDS) {
		for (i = 0; i < ps->nr; i++) {
			put64(b, ps->p[i].pid);
			put(b, comm, 16);
			n++;
			for (j = 0; j < ps->p[i].nr_thr; j++)
				if (ps->p[i].thr[j].tid != ps->p[i].pid) {
					put64(b, ps->p[i].thr[j].tid);
					put(b, comm, 16);
					n++;
				}
		}
	} else {
		put64(b, pw->o->target == PW_T_SYSTEM ? UINT64_MAX : workload_pid(pw));
		put(b, comm, 16);
		n = 1;
	}
	set64(b, at + 8, n);
	rec_end(b, at);
}

/* PERF_CPU_MAP__RANGE_CPUS 0..n-1, or PERF_CPU_MAP__CPUS {-1} per thread */
static void rec_cpu_map(const struct pw *pw, struct buf *b)
{
	size_t at = rec_begin(b, R_CPU_MAP, 0);

	if (pw->o->per_thread) {
		put16(b, 0);
		put16(b, 1);
		put16(b, 0xffff);
		put16(b, 0);
	} else {
		put16(b, 2);
		put16(b, 0);
		put16(b, 0);
		put16(b, (uint16_t)(pw->in->nr_cpus - 1));
	}
	rec_end(b, at);
}

static void rec_event_update_name(const struct pw *pw, struct buf *b, unsigned e)
{
	size_t at = rec_begin(b, R_EVENT_UPDATE, 0);

	put64(b, 2);   /* PERF_EVENT_UPDATE__NAME */
	put64(b, ev_id(pw, e, 0));
	put_rstr(b, pw->e[e].name);
	rec_end(b, at);
}

/* A made-up build-id for the kernel: perf then looks for that kernel in its build-id cache instead
 * of reading this machine's /proc/kallsyms, so its output does not depend on the host. */
static const uint8_t kernel_build_id[20] = { 0xc2, 0xc0, 0x6e, 0x17, 0xe0, 0x01, 0x02, 0x03, 0x04,
					     0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
					     0x0e, 0x0f };

/* One build_id_event (feature BUILD_ID entry, or HEADER_BUILD_ID record in pipe mode). */
static void put_kernel_build_id(struct buf *b, uint32_t type)
{
	unsigned char name[64] = "[kernel.kallsyms]", pad[3] = { 0 };
	uint8_t size = 20;

	put32(b, type);
	put16(b, 0x8001);   /* PERF_RECORD_MISC_BUILD_ID_SIZE | KERNEL */
	put16(b, 8 + 4 + 20 + 1 + 3 + 64);
	put32(b, UINT32_MAX);
	put(b, kernel_build_id, 20);
	put(b, &size, 1);
	put(b, pad, 3);
	put(b, name, sizeof(name));
}

static const struct trace_mmap default_kmap = { .pid = UINT32_MAX, .start = KTEXT,
	.len = 0x1276f48, .pgoff = KTEXT, .prot = 5, .cpumode = MISC_KERNEL,
	.filename = "[kernel.kallsyms]_text" };

static const struct trace_mmap modules[] = {
	{ .pid = UINT32_MAX, .start = 0xffffffffc0000000ULL, .len = 0x5000, .prot = 5,
	  .cpumode = MISC_KERNEL, .filename = "/lib/modules/6.1.0-synthetic/kernel/fs/fuse.ko" },
	{ .pid = UINT32_MAX, .start = 0xffffffffc0010000ULL, .len = 0x8000, .prot = 5,
	  .cpumode = MISC_KERNEL, .filename = "/lib/modules/6.1.0-synthetic/kernel/net/tun.ko" },
};

/* record__synthesize(): everything before FINISHED_INIT */
static void preamble(struct pw *pw, const struct procs *ps)
{
	static const struct sid zero = { .synth = 1 };
	struct buf *b = &pw->data;
	const struct trace_mmap *km = ps->kmap ? ps->kmap : &default_kmap;
	unsigned e;
	size_t i;

	if (pw->spe)
		rec_time_conv(pw, b);
	if (!pw->o->no_index)
		rec_id_index(pw, b);
	if (pw->spe)
		rec_auxtrace_info(b);
	rec_kmmap(pw, b, km, &zero);
	if (pw->o->target == PW_T_SYSTEM)
		for (i = 0; i < sizeof(modules) / sizeof(modules[0]); i++)
			rec_kmmap(pw, b, &modules[i], &zero);
	if (pw->o->pipe) {
		put_kernel_build_id(b, R_HEADER_BUILD_ID);
		for (e = 0; e < pw->nr_ev; e++)
			rec_event_update_name(pw, b, e);
	}
	rec_thread_map(pw, b, ps);
	rec_cpu_map(pw, b);
	if (pw->o->target == PW_T_SYSTEM)
		synth_system(pw, b, ps);
	else if (pw->o->target == PW_T_PIDS)
		synth_pids(pw, b, ps);
	else
		rec_comm(pw, b, workload_pid(pw), workload_pid(pw), "perf-exec", 0, &zero);
	rec_empty(b, R_FINISHED_INIT);
}

/* The records perf's preamble already stands for: all side-band before the first sample for
 * -a and -p, the kernel map for a workload. */
static int in_preamble(const struct pw *pw, size_t i, size_t end)
{
	const struct trace_event *e = &pw->ev[i];

	if (pw->o->target == PW_T_NONE || i >= end || e->type == TRACE_REC_LOST)
		return 0;
	if (pw->o->target == PW_T_SYSTEM || pw->o->target == PW_T_PIDS)
		return 1;
	return e->type == TRACE_REC_MMAP && e->mmap.pid == UINT32_MAX;
}

static void live_record(struct pw *pw, const struct trace_event *e, struct buf *late)
{
	struct buf *b = &pw->rnd;
	struct sid t;

	switch (e->type) {
	case TRACE_REC_SAMPLE:
		if (pw->spe)
			spe_sample(pw, b, &e->sample);
		else
			rec_sample(pw, b, &e->sample);
		break;
	case TRACE_REC_MMAP:
		t = live_sid(pw, e->mmap.pid, e->mmap.tid, e->mmap.time);
		rec_mmap2(pw, b, &e->mmap, &t);
		break;
	case TRACE_REC_COMM:
		t = live_sid(pw, e->comm.pid, e->comm.tid, e->comm.time);
		rec_comm(pw, b, e->comm.pid, e->comm.tid, e->comm.comm, e->comm.exec, &t);
		break;
	case TRACE_REC_FORK:
	case TRACE_REC_EXIT:
		t = live_sid(pw, e->task.pid, e->task.tid, e->task.time);
		rec_task(pw, b, e->type == TRACE_REC_FORK ? R_FORK : R_EXIT, &e->task, &t);
		break;
	case TRACE_REC_LOST:
		t = (struct sid){ .e = pw->first_sampling, .time = e->lost.time };
		if (e->lost.kind == TRACE_LOST_SAMPLES && pw->o->target != PW_T_NONE) {
			/* record__read_lost_samples(): at the end, the sample id of perf_sample {} */
			t.time = 0;
			rec_lost(pw, late, &e->lost, &t);
			break;
		}
		rec_lost(pw, b, &e->lost, &t);
		break;
	default:
		break;
	}
}

static void put_data(struct pw *pw)
{
	struct procs ps = { 0 };
	struct buf late = { 0 };
	size_t i, end;

	for (end = 0; end < pw->nr && pw->ev[end].type != TRACE_REC_SAMPLE; end++)
		;
	if (pw->o->target != PW_T_NONE) {
		collect_procs(pw, end, &ps);
		preamble(pw, &ps);
	}
	for (i = 0; i < pw->nr; i++) {
		if (!in_preamble(pw, i, end))
			live_record(pw, &pw->ev[i], &late);
		if (i % 1000 == 999)
			end_round(pw, 1, 0);
	}
	end_round(pw, pw->o->traits && pw->rnd.len, 1);
	put(&pw->data, late.p, late.len);
	free(late.p);
	procs_free(&ps);
}

/* --- header features ------------------------------------------------------------------------- */

enum {
	F_BUILD_ID = 2, F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH, F_NRCPUS, F_CPUDESC, F_CPUID,
	F_CMDLINE = 11, F_EVENT_DESC = 12, F_NUMA = 14, F_PMU_MAPPINGS = 16, F_GROUP_DESC = 17,
	F_AUXTRACE = 18, F_SAMPLE_TIME = 21, F_MEM = 22, F_COMPRESSED = 27, F_HYBRID_TOPOLOGY = 30,
	F_LAST = 32,
};

static void feat_event_desc(struct buf *b, const struct pw *pw)
{
	unsigned e, k;

	put32(b, pw->nr_ev);
	put32(b, pw->asz);
	for (e = 0; e < pw->nr_ev; e++) {
		put_attr(b, pw, &pw->e[e]);
		put32(b, pw->nr_ids);
		put_str(b, pw->e[e].name);
		for (k = 0; k < pw->nr_ids; k++)
			put64(b, ev_id(pw, e, k));
	}
}

static void feat_numa(struct buf *b, const struct trace_info *in)
{
	uint32_t n;

	put32(b, in->nr_nodes);
	for (n = 0; n < in->nr_nodes; n++) {
		char list[256] = "";
		uint32_t c;

		for (c = 0; c < in->nr_cpus; c++) {
			if (in->cpu_node[c] != (int32_t)n)
				continue;
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u",
				 list[0] ? "," : "", c);
		}
		put32(b, n);
		put64(b, 1 << 20);
		put64(b, 1 << 19);
		put_str(b, list);
	}
}

#define BLOCK 0x8000000ULL

static void feat_mem(struct buf *b, const struct trace_info *in)
{
	uint32_t n, r;

	put64(b, 1);
	put64(b, BLOCK);
	put64(b, in->nr_nodes);
	for (n = 0; n < in->nr_nodes; n++) {
		uint64_t words[4] = { 0 }, bits = 64 * 4, blk;

		for (r = 0; r < in->nr_mem_ranges; r++) {
			const struct trace_mem_range *m = &in->mem_ranges[r];

			if (m->node != n)
				continue;
			for (blk = m->start / BLOCK; blk < m->end / BLOCK && blk < bits; blk++)
				words[blk / 64] |= 1ULL << (blk % 64);
		}
		put64(b, n);
		put64(b, bits);
		put64(b, bits);
		put(b, words, sizeof(words));
	}
}

static void feat_pmu_mappings(struct buf *b, const struct pw *pw)
{
	static const struct { uint32_t type; const char *name; } common[] = {
		{ 1, "software" }, { 2, "tracepoint" }, { 5, "breakpoint" },
	};
	size_t i;

	put32(b, 3 + (pw->o->events == PW_EV_HYBRID || pw->o->events == PW_EV_ONE || pw->o->spe ?
		      2 : 1));
	if (pw->o->spe) {
		put32(b, 8);
		put_str(b, "armv8_pmuv3_0");
		put32(b, SPE_PMU_TYPE);
		put_str(b, "arm_spe_0");
	} else if (pw->o->events == PW_EV_HYBRID) {
		put32(b, 4);
		put_str(b, "cpu_core");
		put32(b, 8);
		put_str(b, "cpu_atom");
	} else {
		put32(b, 4);
		put_str(b, "cpu");
		if (pw->o->events == PW_EV_ONE) {
			put32(b, 11);
			put_str(b, "ibs_op");
		}
	}
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		put32(b, common[i].type);
		put_str(b, common[i].name);
	}
}

static void feat_group_desc(struct buf *b, const struct pw *pw)
{
	unsigned e, n = 0;

	for (e = 0; e < pw->nr_ev; e++)
		n += pw->e[e].nr_members > 1;
	put32(b, n);
	for (e = 0; e < pw->nr_ev; e++)
		if (pw->e[e].nr_members > 1) {
			put_str(b, "{anon_group}");
			put32(b, e);
			put32(b, (uint32_t)pw->e[e].nr_members);
		}
}

/* The lower half of the CPUs are cpu_core's, the upper half cpu_atom's (event_of()). */
static void feat_hybrid(struct buf *b, const struct trace_info *in)
{
	uint32_t half = in->nr_cpus / 2;
	char cpus[32];

	put32(b, 2);
	put_str(b, "cpu_core");
	snprintf(cpus, sizeof(cpus), half > 1 ? "0-%u" : "%u", half ? half - 1 : 0);
	put_str(b, cpus);
	put_str(b, "cpu_atom");
	snprintf(cpus, sizeof(cpus), "%u-%u", half, in->nr_cpus ? in->nr_cpus - 1 : 0);
	put_str(b, cpus);
}

static void feat_cmdline(struct buf *b, const struct pw *pw)
{
	const struct pw_opts *o = pw->o;
	const char *argv[16];
	uint32_t n = 0, i;

	argv[n++] = "/usr/bin/perf";
	argv[n++] = "record";
	argv[n++] = "-W";
	argv[n++] = "-d";
	argv[n++] = "--phys-data";
	if (!o->no_cpu)
		argv[n++] = "--sample-cpu";
	if (o->zstd)
		argv[n++] = "-z";
	if (o->pipe)
		argv[n++] = "-o -";
	if (o->target == PW_T_SYSTEM)
		argv[n++] = "-a";
	if (o->target == PW_T_PIDS)
		argv[n++] = "-p PIDS";
	if (o->per_thread)
		argv[n++] = "--per-thread";
	argv[n++] = o->spe ? "-e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,"
			     "min_latency=30/" :
		    o->events == PW_EV_ONE ? "-e ibs_op//" : "-e cpu/mem-loads,ldlat=30/P";
	put32(b, n);
	for (i = 0; i < n; i++)
		put_str(b, argv[i]);
}

static void feat_one(struct buf *b, const struct pw *pw, int f)
{
	const struct trace_info *in = pw->in;
	char cpuid[128];

	switch (f) {
	case F_HOSTNAME: put_str(b, in->hostname); break;
	case F_OSRELEASE: put_str(b, in->kernel_release); break;
	case F_VERSION: put_str(b, "6.1.0"); break;
	case F_ARCH: put_str(b, in->arch); break;
	case F_NRCPUS:
		put32(b, in->nr_cpus);
		put32(b, in->nr_cpus);
		break;
	case F_CPUDESC: put_str(b, in->cpu_desc); break;
	case F_CPUID:
		if (pw->o->spe)   /* arm64 get_cpuid(): the MIDR */
			snprintf(cpuid, sizeof(cpuid), "0x%016llx", (unsigned long long)
				 (pw->o->midr ? pw->o->midr : SPE_MIDR_N1));
		else
			snprintf(cpuid, sizeof(cpuid), "%s,%u,%u,%u", in->cpu_vendor, in->cpu_family,
				 in->cpu_model, in->cpu_stepping);
		put_str(b, cpuid);
		break;
	case F_AUXTRACE:   /* auxtrace_index__write(): {file_offset, sz} of each AUXTRACE record */
		put64(b, pw->nr_aux_index);
		for (size_t i = 0; i < pw->nr_aux_index; i++) {
			put64(b, pw->data_off + pw->aux_index[i]);
			put64(b, 48);
		}
		break;
	case F_BUILD_ID: put_kernel_build_id(b, 0); break;
	case F_CMDLINE: feat_cmdline(b, pw); break;
	case F_EVENT_DESC: feat_event_desc(b, pw); break;
	case F_NUMA: feat_numa(b, in); break;
	case F_PMU_MAPPINGS: feat_pmu_mappings(b, pw); break;
	case F_GROUP_DESC: feat_group_desc(b, pw); break;
	case F_SAMPLE_TIME:
		put64(b, pw->first_time);
		put64(b, pw->last_time);
		break;
	case F_MEM: feat_mem(b, in); break;
	case F_COMPRESSED:
		put32(b, 0);
		put32(b, 1);    /* zstd */
		put32(b, 1);    /* level */
		put32(b, (uint32_t)(pw->z_bytes ? (pw->raw_bytes + pw->z_bytes / 2) / pw->z_bytes : 1));
		put32(b, COMP_MMAP_LEN);
		break;
	case F_HYBRID_TOPOLOGY: feat_hybrid(b, in); break;
	}
}

/* The features of the file, in order. */
static size_t features(const struct pw *pw, int *f)
{
	const struct pw_opts *o = pw->o;
	size_t n = 0;
	unsigned e;
	int groups = 0;

	for (e = 0; e < pw->nr_ev; e++)
		groups |= pw->e[e].nr_members > 1;
	if (!o->zstd && !o->pipe)
		f[n++] = F_BUILD_ID;
	f[n++] = F_HOSTNAME;
	f[n++] = F_OSRELEASE;
	f[n++] = F_VERSION;
	f[n++] = F_ARCH;
	f[n++] = F_NRCPUS;
	f[n++] = F_CPUDESC;
	f[n++] = F_CPUID;
	if (o->traits)
		f[n++] = F_CMDLINE;
	f[n++] = F_EVENT_DESC;
	f[n++] = F_NUMA;
	if (o->traits)
		f[n++] = F_PMU_MAPPINGS;
	if (groups)
		f[n++] = F_GROUP_DESC;
	if (o->spe && !o->spe_no_auxindex && !o->pipe)
		f[n++] = F_AUXTRACE;
	if (o->traits)
		f[n++] = F_SAMPLE_TIME;
	f[n++] = F_MEM;
	if (o->zstd)
		f[n++] = F_COMPRESSED;
	if (o->events == PW_EV_HYBRID)
		f[n++] = F_HYBRID_TOPOLOGY;
	return n;
}

/* --- the file -------------------------------------------------------------------------------- */

static void write_file_mode(struct pw *pw, struct buf *b)
{
	int feats[32];
	size_t nf = features(pw, feats), i, table;
	uint64_t attrs_off, data_off, data_size, bitmap[4] = { 0 }, off, ids_off[MAX_EV];
	struct buf f = { 0 };
	unsigned e, k;

	put(b, "PERFILE2", 8);
	put64(b, 104);
	put64(b, pw->asz + 16);
	put_zero(b, 80);   /* attrs, data, event_types sections, feature bitmap: set below */
	for (e = 0; e < pw->nr_ev; e++) {
		ids_off[e] = b->len;
		for (k = 0; k < pw->nr_ids; k++)
			put64(b, ev_id(pw, e, k));
	}
	attrs_off = b->len;
	for (e = 0; e < pw->nr_ev; e++) {
		put_attr(b, pw, &pw->e[e]);
		put64(b, ids_off[e]);
		put64(b, 8 * (uint64_t)pw->nr_ids);
	}
	data_off = b->len;
	if (data_off != pw->data_off)
		pw->err = -EINVAL;   /* the AUX data was laid out for another offset */
	put(b, pw->data.p, pw->data.len);
	data_size = b->len - data_off;
	table = b->len;
	put_zero(b, 16 * nf);
	for (i = 0; i < nf; i++) {
		off = b->len;
		f.len = 0;
		feat_one(&f, pw, feats[i]);
		put(b, f.p, f.len);
		set64(b, table + 16 * i, off);
		set64(b, table + 16 * i + 8, f.len);
		bitmap[feats[i] / 64] |= 1ULL << (feats[i] % 64);
	}
	set64(b, 24, attrs_off);
	set64(b, 32, (uint64_t)(pw->asz + 16) * pw->nr_ev);
	set64(b, 40, data_off);
	set64(b, 48, data_size);
	memcpy(b->p + 72, bitmap, sizeof(bitmap));
	free(f.p);
}

/* perf_header__write_pipe() and perf_event__synthesize_for_pipe() */
static void write_pipe_mode(struct pw *pw, struct buf *b)
{
	int feats[32];
	size_t nf = features(pw, feats), i, at;
	unsigned e, k;

	put(b, "PERFILE2", 8);
	put64(b, 16);
	for (e = 0; e < pw->nr_ev; e++) {
		at = rec_begin(b, R_HEADER_ATTR, 0);
		put_attr(b, pw, &pw->e[e]);
		for (k = 0; k < pw->nr_ids; k++)
			put64(b, ev_id(pw, e, k));
		rec_end(b, at);
	}
	for (i = 0; i < nf; i++) {
		at = rec_begin(b, R_HEADER_FEATURE, 0);
		put64(b, (uint64_t)feats[i]);
		feat_one(b, pw, feats[i]);
		rec_end(b, at);
	}
	at = rec_begin(b, R_HEADER_FEATURE, 0);
	put64(b, F_LAST);
	rec_end(b, at);
	put(b, pw->data.p, pw->data.len);
}

static void collect_tids(struct pw *pw)
{
	size_t i;

	for (i = 0; i < pw->nr && pw->nr_tids < MAX_TIDS; i++)
		if (pw->ev[i].type == TRACE_REC_SAMPLE &&
		    (!pw->nr_tids || pw->tids[tid_index(pw, pw->ev[i].sample.tid)] !=
		     pw->ev[i].sample.tid))
			pw->tids[pw->nr_tids++] = pw->ev[i].sample.tid;
}

int pw_write(const char *path, const struct trace_info *in, const struct trace_event *ev, size_t nr,
	     const struct pw_opts *o)
{
	struct pw pw = { .o = o, .in = in, .ev = ev, .nr = nr };
	struct buf out = { 0 };
	FILE *fp;
	int err = 0;

	pw.asz = o->attr_size ? o->attr_size : 128;
	if (o->per_thread)
		collect_tids(&pw);
	setup_events(&pw);
	pw.id_hdr_size = id_hdr_size(&pw.e[0]);
	pw.data_off = 104 + 8ULL * pw.nr_ev * pw.nr_ids + (uint64_t)pw.nr_ev * (pw.asz + 16);
	if (o->spe) {
		struct spe_enc_opts so = { .seed = o->spe_seed, .no_context = o->spe_no_ctx,
					   .bad = o->spe_bad, .cut = o->spe_cut };

		pw.spe = spe_enc_new(&so, in->nr_cpus);
	}
	if (o->zstd) {
		pw.zcs = ZSTD_createCStream();
		if (!pw.zcs || ZSTD_isError(ZSTD_initCStream(pw.zcs, 1)))
			return -ENOMEM;
	}
	put_data(&pw);
	if (o->pipe)
		write_pipe_mode(&pw, &out);
	else
		write_file_mode(&pw, &out);
	err = pw.err;
	spe_enc_free(pw.spe);
	free(pw.spe_aux.p);
	fp = err ? NULL : fopen(path, "wb");
	if (!err && (!fp || fwrite(out.p, 1, out.len, fp) != out.len))
		err = -errno;
	if (fp && fclose(fp) && !err)
		err = -errno;
	ZSTD_freeCStream(pw.zcs);
	free(out.p);
	free(pw.data.p);
	free(pw.rnd.p);
	return err;
}

/* --- options --------------------------------------------------------------------------------- */

static int one_trait(struct pw_opts *o, const char *t)
{
	unsigned long n;
	char *end;

	if (!strcmp(t, "ls")) o->events = PW_EV_LS;
	else if (!strcmp(t, "aux")) o->events = PW_EV_AUX;
	else if (!strcmp(t, "hybrid")) o->events = PW_EV_HYBRID, o->dummy = 1;
	else if (!strcmp(t, "dummy")) o->dummy = 1;
	else if (!strcmp(t, "init")) o->target = o->target ? o->target : PW_T_WORKLOAD;
	else if (!strcmp(t, "system")) o->target = PW_T_SYSTEM, o->dummy = 1;
	else if (!strcmp(t, "pids")) o->target = PW_T_PIDS;
	else if (!strcmp(t, "id=identifier")) o->id = PW_ID_IDENTIFIER;
	else if (!strcmp(t, "id=id")) o->id = PW_ID_ID;
	else if (!strcmp(t, "id=none")) o->id = PW_ID_NONE;
	else if (!strcmp(t, "nocpu")) o->no_cpu = 1;
	else if (!strcmp(t, "noperiod")) o->no_period = 1;
	else if (!strcmp(t, "weight=plain")) o->weight = PW_W_PLAIN, o->weight_set = 1;
	else if (!strcmp(t, "weight=struct")) o->weight = PW_W_STRUCT, o->weight_set = 1;
	else if (!strcmp(t, "weight=none")) o->weight = PW_W_NONE, o->weight_set = 1;
	else if (!strcmp(t, "noidall")) o->no_sample_id_all = 1;
	else if (!strcmp(t, "perthread")) o->per_thread = 1;
	else if (!strcmp(t, "noindex")) o->no_index = 1;
	else if (!strcmp(t, "pipe")) o->pipe = 1;
	else if (!strcmp(t, "zstd")) o->zstd = 1;
	else if (!strcmp(t, "spe")) o->spe = 1, o->target = o->target ? o->target : PW_T_WORKLOAD;
	else if (!strcmp(t, "noctx")) o->spe_no_ctx = 1;
	else if (!strcmp(t, "spebad")) o->spe_bad = 1;
	else if (!strcmp(t, "auxcut")) o->spe_cut = 1;
	else if (!strcmp(t, "noauxindex")) o->spe_no_auxindex = 1;
	else if (!strcmp(t, "oldtc")) o->spe_old_tc = 1;
	else if (!strncmp(t, "midr=", 5)) o->midr = strtoull(t + 5, NULL, 0);
	else if (!strncmp(t, "speseed=", 8)) o->spe_seed = strtoull(t + 8, NULL, 0);
	else if (!strncmp(t, "attr=", 5)) {
		n = strtoul(t + 5, &end, 0);
		if (*end || n < 64 || n > 136 || n % 8)
			return -1;
		o->attr_size = (uint32_t)n;
	} else {
		return -1;
	}
	return 0;
}

int pw_parse(struct pw_opts *o, const char *spec)
{
	char *s = xstrdup(spec), *save = NULL, *t;
	int err = 0;

	o->traits = 1;
	for (t = strtok_r(s, ",", &save); t && !err; t = strtok_r(NULL, ",", &save))
		if (one_trait(o, t)) {
			fprintf(stderr, "c2c-gen: unknown perf.data trait '%s' (see "
				"tests/tools/gen/perf-writer.c)\n", t);
			err = -1;
		}
	free(s);
	return err;
}
