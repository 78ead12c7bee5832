/* `record --backend=hw` on fake Neoverse machines (data/sysfs/neoverse-*), end to end through
 * record/session.c, with this file standing in for the kernel's Arm SPE driver.
 *
 * There is no SPE here, and no PMU of this kernel has an AUX area, so the fake is complete:
 * sys_perf_event_open() (defined here, so record/sys.o is not linked) applies the rules the
 * 6.1 kernel applies to the attrs (perf_event_paranoid and CAP_PERFMON for kernel samples,
 * physical addresses and pa_enable; no frequency mode for SPE) and hands out memfds as event
 * fds; mmap() and ioctl() are wrapped (-Wl,--wrap, see the Makefile) so that mapping such an
 * fd maps the memfd, with the control page the kernel would fill, and PERF_EVENT_IOC_* act on
 * the fake events. Disabling an SPE event makes the fake "driver" publish what a run would:
 * AUX bytes with PERF_RECORD_AUX records (one clean, one after padding it skipped, one flagged
 * truncated and partial, an empty one flagged collision; on CPU 0 one wraps the area), an
 * ITRACE_START and the dummy's context switches, with the sample_id trailers the attrs ask
 * for. The test then reads the trace and checks every byte and field against what the fake
 * published, and the attrs the session asked for against perf 6.1's. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "c2c/cmds.h"
#include "c2c/log.h"
#include "c2c/run.h"
#include "c2c/spe.h"
#include "c2c/tdreader.h"
#include "c2c/trace.h"
#include "record/session.h"
#include "report/read/source.h"
#include "report/model/session.h"
#include "record/sys.h"
#include "tests/fake-machine.h"

#define MAXEV 64
#define MAXCPU 8
#define T0 1000000000ull

/* --- the fake kernel --------------------------------------------------------------------- */

struct fev {
	int fd;
	struct perf_event_attr attr;
	int pid, cpu, out;           /* out: the fev whose ring receives this one's records */
	uint64_t id;
	uint8_t *view;               /* the fake's own mapping of the whole memfd */
	size_t view_len;
	uint64_t data_size, aux_size, aux_off;
	uint64_t data_head, aux_head;
	int disables;
	int leader;                  /* index of its group leader (itself when it leads) */
};

static struct fev fev[MAXEV];
static int nfev;
static size_t page;

/* The machine: what the fake kernel allows and the SPE PMU it has. */
static struct {
	int perfmon, paranoid;
	uint32_t spe_type;
	uint32_t core_type;          /* armv8_pmuv3_0 (TopDown beside SPE) */
	int ncpu;
	struct c2c_time_conv tc;     /* published in every control page */
} k;

/* Every open attempt, refused ones included. */
struct call {
	struct perf_event_attr attr;
	int pid, cpu, err;
};
static struct call calls[256];
static int ncalls;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_ioctl(int fd, unsigned long req, ...);

static struct fev *find(int fd)
{
	for (int i = 0; i < nfev; i++)
		if (fev[i].fd == fd)
			return &fev[i];
	return NULL;
}

static int refuse(int err)
{
	calls[ncalls - 1].err = err;
	errno = err;
	return -1;
}

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	int allow_kernel = k.perfmon || k.paranoid <= 1;
	struct fev *f;

	(void)flags;
	assert_true(ncalls < 256);
	calls[ncalls++] = (struct call){ .attr = *attr, .pid = pid, .cpu = cpu };
	/* kernel/events/core.c: perf_event_open(), then the PMU's event_init */
	if (!attr->exclude_kernel && !allow_kernel)
		return refuse(EACCES);
	if ((attr->sample_type & PERF_SAMPLE_PHYS_ADDR) && !allow_kernel)
		return refuse(EACCES);
	if (attr->type == k.spe_type) {
		if (cpu >= k.ncpu)
			return refuse(ENOENT);
		if (attr->freq)
			return refuse(EINVAL);
		if ((attr->config & 2) && !k.perfmon)   /* pa_enable: perfmon_capable() */
			return refuse(EACCES);
	} else if (attr->type == k.core_type) {
		/* 6.1's perf_event_open(): no PERF_SAMPLE_READ with inherit */
		if ((attr->sample_type & PERF_SAMPLE_READ) && attr->inherit)
			return refuse(EINVAL);
	} else if (attr->type != PERF_TYPE_SOFTWARE) {
		return refuse(ENOENT);
	}
	assert_true(nfev < MAXEV);
	f = &fev[nfev];
	memset(f, 0, sizeof(*f));
	f->fd = memfd_create("fake-perf-event", MFD_CLOEXEC);
	assert_true(f->fd >= 0);
	for (int i = 0; i < nfev; i++)   /* an event closed before (a retried open) */
		if (fev[i].fd == f->fd)
			fev[i].fd = -1;
	f->view_len = (1 + 256 + 1024) * page;
	assert_int_equal(ftruncate(f->fd, (off_t)f->view_len), 0);
	f->attr = *attr;
	f->pid = pid;
	f->cpu = cpu;
	f->out = nfev;
	f->id = 1000 + (uint64_t)nfev;
	f->leader = nfev;
	if (group_fd >= 0) {
		assert_non_null(find(group_fd));
		f->leader = (int)(find(group_fd) - fev);
	}
	nfev++;
	return f->fd;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct fev *f = fd >= 0 ? find(fd) : NULL;
	struct perf_event_mmap_page *pc;

	if (!f)
		return __real_mmap(addr, len, prot, flags, fd, off);
	if (!f->view) {
		f->view = __real_mmap(NULL, f->view_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		assert_true(f->view != MAP_FAILED);
	}
	pc = (void *)f->view;
	if (off == 0) {
		/* perf_mmap(): the data area, and the control page as the kernel fills it */
		if (len < 2 * page || len - page > 256 * page)
			return errno = EINVAL, MAP_FAILED;
		f->data_size = len - page;
		pc->data_offset = page;
		pc->data_size = f->data_size;
		pc->time_shift = k.tc.time_shift;
		pc->time_mult = k.tc.time_mult;
		pc->time_zero = k.tc.time_zero;
		pc->time_cycles = k.tc.time_cycles;
		pc->time_mask = k.tc.time_mask;
		pc->cap_user_time_zero = k.tc.cap_user_time_zero;
		pc->cap_user_time_short = k.tc.cap_user_time_short;
		pc->lock = 2;
	} else {
		/* the AUX area: where and how big the control page says, on an AUX PMU */
		if (f->attr.type != k.spe_type)
			return errno = EOPNOTSUPP, MAP_FAILED;
		if ((uint64_t)off != pc->aux_offset || len != pc->aux_size ||
		    pc->aux_offset < page + f->data_size || len > 1024 * page)
			return errno = EINVAL, MAP_FAILED;
		f->aux_off = (uint64_t)off;
		f->aux_size = len;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

static void emit_on_disable(struct fev *f);
static void emit_on_enable(struct fev *f);

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	unsigned long arg;
	struct fev *f = find(fd), *to;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!f)
		return __real_ioctl(fd, req, arg);
	switch (req) {
	case PERF_EVENT_IOC_ID:
		memcpy((void *)arg, &f->id, sizeof(f->id));
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		to = find((int)arg);
		if (!to || to->cpu != f->cpu)
			return errno = EINVAL, -1;
		f->out = (int)(to - fev);
		return 0;
	case PERF_EVENT_IOC_ENABLE:
		emit_on_enable(f);
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		emit_on_disable(f);
		return 0;
	default:
		return errno = ENOTTY, -1;
	}
}

/* --- what the fake driver publishes ---------------------------------------------------------- */

struct rec {
	uint8_t b[256];
	size_t n;
};

static void put64(struct rec *r, uint64_t v)
{
	memcpy(r->b + r->n, &v, 8);
	r->n += 8;
}

static void put32x2(struct rec *r, uint32_t a, uint32_t b)
{
	put64(r, (uint64_t)a | (uint64_t)b << 32);
}

/* The sample_id trailer of @e's records (sample_id_all), in the kernel's order. */
static void trailer(struct rec *r, const struct fev *e, uint32_t pid, uint32_t tid,
		    uint64_t time)
{
	uint64_t st = e->attr.sample_type;

	assert_true(e->attr.sample_id_all);
	if (st & PERF_SAMPLE_TID)
		put32x2(r, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		put64(r, time);
	if (st & PERF_SAMPLE_ID)
		put64(r, e->id);
	if (st & PERF_SAMPLE_CPU)
		put32x2(r, (uint32_t)e->cpu, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(r, e->id);
}

/* Write a record into the ring that @e's output goes to. */
static void emit(const struct fev *e, uint32_t type, uint16_t misc, struct rec *r)
{
	struct fev *ring = &fev[e->out];
	struct perf_event_mmap_page *pc = (void *)ring->view;
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)r->n };

	assert_non_null(ring->view);
	memcpy(r->b, &h, sizeof(h));
	for (size_t i = 0; i < r->n; i++)
		ring->view[page + ((ring->data_head + i) & (ring->data_size - 1))] = r->b[i];
	ring->data_head += r->n;
	__atomic_store_n(&pc->data_head, ring->data_head, __ATOMIC_RELEASE);
}

static struct fev *dummy_on(int cpu, int pid)
{
	for (int i = 0; i < nfev; i++)
		if (fev[i].fd >= 0 && fev[i].cpu == cpu && fev[i].pid == pid &&
		    fev[i].attr.type == PERF_TYPE_SOFTWARE)
			return &fev[i];
	return NULL;
}

/* What the test expects to find in the trace for one CPU. */
struct chunk {
	uint64_t offset, size, flags, time;
};
struct expect {
	struct chunk c[8];
	int n;
	uint32_t pid;
};
static struct expect want[MAXCPU];

static uint8_t aux_byte(int cpu, uint64_t off)
{
	return (uint8_t)(0x40 * (cpu & 3) + (off * 7 + off / 251) % 0x3f + 1);
}

/* The driver closes a span of @size bytes at the AUX head (perf_aux_output_end()). */
static void aux_span(struct fev *e, uint64_t size, uint64_t flags, uint64_t time, uint32_t pid)
{
	struct expect *x = &want[e->cpu];
	struct rec r = { .n = 8 };

	for (uint64_t i = 0; i < size; i++) {
		uint64_t off = e->aux_head + i;

		e->view[e->aux_off + (off & (e->aux_size - 1))] = aux_byte(e->cpu, off);
	}
	put64(&r, e->aux_head);
	put64(&r, size);
	put64(&r, flags);
	trailer(&r, e, pid, pid, time);
	emit(e, PERF_RECORD_AUX, 0, &r);
	x->c[x->n++] = (struct chunk){ e->aux_head, size, flags, time };
	e->aux_head += size;
	__atomic_store_n(&((struct perf_event_mmap_page *)e->view)->aux_head, e->aux_head,
			 __ATOMIC_RELEASE);
}

static void emit_on_enable(struct fev *f)
{
	struct rec r = { .n = 8 };

	if (f->attr.type != k.spe_type)
		return;
	/* -a: tracing starts on the CPU (for the task running there) */
	put32x2(&r, 0, 0);
	trailer(&r, f, 0, 0, T0 + (uint64_t)f->cpu);
	emit(f, PERF_RECORD_ITRACE_START, 0, &r);
}

/* Neoverse N2 TopDown counts per reading and event (by config), times the reading's number. */
static uint64_t td_value(uint64_t config)
{
	switch (config) {
	case 0x11: return 1000;          /* CPU_CYCLES */
	case 0x3f: return 2500;          /* STALL_SLOT */
	case 0x3e: return 1500;          /* STALL_SLOT_FRONTEND */
	case 0x3d: return 1000;          /* STALL_SLOT_BACKEND */
	case 0x3b: return 2000;          /* OP_SPEC */
	case 0x3a: return 1500;          /* OP_RETIRED */
	default: fail_msg("TopDown event config 0x%llx", (unsigned long long)config);
	}
	return 0;
}

/* The TopDown group's leader samples twice before it stops: PERF_RECORD_SAMPLE with the group
 * read (PERF_FORMAT_GROUP | ID | LOST), fields in the kernel's order. */
static void emit_readings(struct fev *f)
{
	uint64_t st = f->attr.sample_type, t0 = T0 + 1000 * (uint64_t)(f->cpu + 1);
	uint32_t pid = f->pid > 0 ? (uint32_t)f->pid : 4242;
	int me = (int)(f - fev);

	if (f->disables++ || f->leader != me)
		return;
	assert_true(st & PERF_SAMPLE_READ);
	assert_int_equal(f->attr.read_format, PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST);
	assert_false(st & ~(uint64_t)(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ));
	for (uint64_t k = 1; k <= 2; k++) {
		struct rec r = { .n = 8 };
		uint64_t nr = 0;

		for (int i = 0; i < nfev; i++)
			nr += fev[i].leader == me;
		if (st & PERF_SAMPLE_IDENTIFIER)
			put64(&r, f->id);
		if (st & PERF_SAMPLE_IP)
			put64(&r, 0x400000 + k);
		if (st & PERF_SAMPLE_TID)
			put32x2(&r, pid, pid);
		if (st & PERF_SAMPLE_TIME)
			put64(&r, t0 + 10 * k);
		if (st & PERF_SAMPLE_CPU)
			put32x2(&r, (uint32_t)f->cpu, 0);
		put64(&r, nr);
		for (int i = 0; i < nfev; i++) {
			if (fev[i].leader != me)
				continue;
			put64(&r, k * td_value(fev[i].attr.config));
			put64(&r, fev[i].id);
			put64(&r, 0);
		}
		emit(f, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, &r);
	}
}

static void emit_on_disable(struct fev *f)
{
	uint64_t t = T0 + 1000 * (uint64_t)(f->cpu + 1);
	uint32_t pid = f->pid > 0 ? (uint32_t)f->pid : 4242;
	struct fev *d = dummy_on(f->cpu, f->pid);
	struct rec r = { .n = 8 };

	if (k.core_type && f->attr.type == k.core_type) {
		emit_readings(f);
		return;
	}
	if (f->attr.type != k.spe_type || f->disables++)
		return;
	want[f->cpu].pid = pid;
	if (f->pid > 0) {
		put32x2(&r, pid, pid);
		trailer(&r, f, pid, pid, t);
		emit(f, PERF_RECORD_ITRACE_START, 0, &r);
	}
	if (d) {
		/* the dummy's switch records, redirected into this ring */
		r.n = 8;
		if (d->pid == -1) {
			put32x2(&r, 77, 78);
			trailer(&r, d, pid, pid, t + 1);
			emit(d, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT |
			     PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, &r);
		} else {
			trailer(&r, d, pid, pid, t + 1);
			emit(d, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT, &r);
		}
	}
	if (f->cpu == 0)
		f->aux_head = f->aux_size - 200;  /* CPU 0's first span wraps the AUX area's end */
	aux_span(f, 256, 0, t + 2, pid);
	f->aux_head += 64;                      /* padding skipped without a record */
	aux_span(f, 128, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL, t + 3, pid);
	aux_span(f, 0, PERF_AUX_FLAG_COLLISION, t + 4, pid);
}

/* --- the machine: a temporary root over a fake tree, with our privileges ------------------ */

static char root[256];

static void put_file(const char *name, const char *text)
{
	assert_int_equal(fake_put_text(root, name, text), 0);
}

static void put_link(const char *name, const char *real, const char *rel)
{
	char path[PATH_MAX], target[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	snprintf(target, sizeof(target), "%s/%s", real, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void machine(const char *tree, int perfmon, int paranoid)
{
	static const char *const dirs[] = { "proc", "proc/self", "proc/sys", "proc/sys/kernel" };
	char path[PATH_MAX + 64], real[PATH_MAX], text[64];
	FILE *f;

	snprintf(root, sizeof(root), "/tmp/c2c-test-sperec-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "data/sysfs/%s", tree);
	assert_non_null(realpath(path, real));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	put_link("sys", real, "sys");
	put_link("proc/cpuinfo", real, "proc/cpuinfo");
	put_file("proc/self/status", perfmon ? "Name:\ttest\nCapEff:\t000001ffffffffff\n" :
		 "Name:\ttest\nCapEff:\t0000000000000000\n");
	snprintf(text, sizeof(text), "%d\n", paranoid);
	put_file("proc/sys/kernel/perf_event_paranoid", text);
	setenv("C2C_SYSFS_ROOT", root, 1);
	k.perfmon = perfmon;
	k.paranoid = paranoid;
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/arm_spe_0/type", real);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(fscanf(f, "%u", &k.spe_type), 1);
	fclose(f);
	k.core_type = 0;
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/armv8_pmuv3_0/type", real);
	if ((f = fopen(path, "r"))) {
		assert_int_equal(fscanf(f, "%u", &k.core_type), 1);
		fclose(f);
	}
}

static void machine_done(void)
{
	static const char *const files[] = { "sys", "proc/cpuinfo", "proc/self/status",
					     "proc/sys/kernel/perf_event_paranoid",
					     "proc/sys/kernel", "proc/sys", "proc/self", "proc" };
	char path[PATH_MAX];

	unsetenv("C2C_SYSFS_ROOT");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i]);
		if (unlink(path))
			rmdir(path);
	}
	rmdir(root);
}

/* --- running and reading ---------------------------------------------------------------------- */

static char warnings[8][320];
static int nwarn;

static char infos[16][320];
static int ninfo;

static void hook(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == C2C_LOG_WARN && nwarn < 8)
		snprintf(warnings[nwarn++], sizeof(warnings[0]), "%s", msg);
	if (level == C2C_LOG_INFO && ninfo < 16)
		snprintf(infos[ninfo++], sizeof(infos[0]), "%s", msg);
}

static int warned(const char *what)
{
	for (int i = 0; i < nwarn; i++)
		if (strstr(warnings[i], what))
			return 1;
	return 0;
}

struct got {
	struct trace_info info;
	struct c2c_spe_info spe;
	int spe_blobs;
	int run_blobs;                 /* the RUN blob: once, when a workload ran */
	struct trace_aux aux[MAXCPU][8];
	int naux[MAXCPU];
	int blobs_ok[MAXCPU], blobs[MAXCPU];
	int itrace[MAXCPU], switches[MAXCPU];
	struct trace_switch sw[MAXCPU];
	uint32_t itrace_pid[MAXCPU];
	uint64_t last_blob_off[MAXCPU], last_blob_size[MAXCPU];
	int report_warned;           /* the report decoded the raw SPE data: bad bytes, offsets */
	/* TopDown beside SPE */
	struct td_reader td;
	int td_blobs;
	int readings[MAXCPU];
	struct trace_sample last_reading[MAXCPU];
	struct tdt_stats tdt;        /* what the report attributed */
	struct td_result td_all;
	int td_all_err;
	char *report_text, *report_json;  /* report --stdio and --json of the trace */
};

static void read_trace(const char *path, struct got *g)
{
	struct trace_reader *r;
	struct trace_event ev;

	memset(g, 0, sizeof(*g));
	assert_int_equal(trace_reader_open(&r, path), 0);
	trace_info_copy(&g->info, trace_reader_info(r));
	while (trace_reader_next(r, &ev) == 1) {
		uint32_t c;

		switch (ev.type) {
		case TRACE_REC_AUX:
			c = ev.aux.cpu;
			assert_true(c < MAXCPU && g->naux[c] < 8);
			g->aux[c][g->naux[c]++] = ev.aux;
			break;
		case TRACE_REC_SAMPLE:
			assert_true(g->td_blobs);            /* the blob comes first */
			assert_int_equal(ev.sample.event, g->td.event);
			c = ev.sample.cpu;
			assert_true(c < MAXCPU);
			g->readings[c]++;
			g->last_reading[c] = ev.sample;
			break;
		case TRACE_REC_BLOB:
			if (ev.blob.kind == TRACE_BLOB_TOPDOWN) {
				assert_int_equal(td_reader_parse(ev.blob.data, ev.blob.size, &g->td), 0);
				g->td_blobs++;
				break;
			}
			if (ev.blob.kind == TRACE_BLOB_SPE_INFO) {
				assert_int_equal(c2c_spe_info_parse(ev.blob.data, ev.blob.size,
								    &g->spe), 0);
				g->spe_blobs++;
				/* before any AUX data */
				for (int i = 0; i < MAXCPU; i++)
					assert_int_equal(g->blobs[i], 0);
				break;
			}
			if (ev.blob.kind == TRACE_BLOB_RUN) {   /* the workload's time, at the end */
				struct c2c_run run;

				assert_int_equal(c2c_run_parse(ev.blob.data, ev.blob.size, &run), 0);
				g->run_blobs++;
				break;
			}
			assert_int_equal(ev.blob.kind, TRACE_BLOB_SPE_AUX);
			c = ev.blob.cpu;
			assert_true(c < MAXCPU);
			g->blobs[c]++;
			/* the AUX record it belongs to came just before */
			assert_true(g->naux[c] > 0);
			assert_int_equal(g->aux[c][g->naux[c] - 1].offset, ev.blob.offset);
			assert_int_equal(g->aux[c][g->naux[c] - 1].size, ev.blob.size);
			assert_int_equal(g->aux[c][g->naux[c] - 1].time, ev.blob.time);
			for (uint64_t i = 0; i < ev.blob.size; i++)
				if (((const uint8_t *)ev.blob.data)[i] !=
				    aux_byte((int)c, ev.blob.offset + i))
					fail_msg("CPU %u AUX byte %llu of the span at %llu differs: "
						 "0x%02x, want 0x%02x", c, (unsigned long long)i,
						 (unsigned long long)ev.blob.offset,
						 ((const uint8_t *)ev.blob.data)[i],
						 aux_byte((int)c, ev.blob.offset + i));
			g->blobs_ok[c]++;
			break;
		case TRACE_REC_ITRACE_START:
			c = ev.itrace.cpu;
			assert_true(c < MAXCPU);
			g->itrace[c]++;
			g->itrace_pid[c] = ev.itrace.pid;
			break;
		case TRACE_REC_SWITCH:
			c = ev.sw.cpu;
			assert_true(c < MAXCPU);
			g->sw[c] = ev.sw;
			g->switches[c]++;
			break;
		default:
			break;
		}
	}
	trace_reader_free(r);
}

static int td_mode = -1;        /* record_opts.topdown of the next record() */

/* `c2c-lite report @opt -i @path` with its standard output in a new string. */
static char *report_out(const char *path, const char *opt)
{
	char out[] = "/tmp/c2c-test-sperec-rep-XXXXXX", *argv[] = { (char *)"report", (char *)opt,
		(char *)"-i", (char *)path, NULL }, *text = NULL;
	int fd = mkstemp(out), saved = dup(1), rc;
	size_t len = 0;
	FILE *f;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	assert_int_equal(dup2(fd, 1), 1);
	c2c_log_set_hook(hook, NULL);
	rc = cmd_report(4, argv);
	c2c_log_set_hook(NULL, NULL);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	assert_int_equal(rc, 0);
	assert_non_null(f = fopen(out, "r"));
	assert_int_equal(getdelim(&text, &len, 0, f) > 0, 1);
	fclose(f);
	unlink(out);
	return text;
}

static int record(struct record_opts *o, struct record_result *res, struct got *g)
{
	char out[] = "/tmp/c2c-test-sperec-out-XXXXXX", wl[512];
	const char *build = getenv("BUILD");
	static char *argv[] = { NULL, (char *)"exit", (char *)"0", NULL };
	int fd = mkstemp(out), err;

	assert_true(fd >= 0);
	close(fd);
	snprintf(wl, sizeof(wl), "%s/tests/tools/rec-workload", build ? build : "build");
	if (!o->ev.system_wide) {
		if (access(wl, X_OK))
			skip();
		argv[0] = wl;
		o->argv = argv;
	}
	o->output = out;
	o->cmdline = "test";
	o->options = "";
	o->backend = RECORD_BACKEND_HW;
	o->topdown = td_mode;
	memset(want, 0, sizeof(want));
	nfev = ncalls = nwarn = 0;
	c2c_log_set_hook(hook, NULL);
	err = record_run(o, res);
	c2c_log_set_hook(NULL, NULL);
	if (!err) {
		struct source *src;
		struct trace_event ev;
		int before = nwarn, rc;

		read_trace(out, g);
		/* the report decodes the raw SPE data; the fake driver's bytes are no SPE packets,
		 * so it warns with their offsets, and reads to the end */
		c2c_log_set_hook(hook, NULL);
		assert_int_equal(source_open(&src, out), 0);
		while ((rc = source_next(src, &ev)) > 0)
			;
		c2c_log_set_hook(NULL, NULL);
		source_free(src);
		assert_int_equal(rc, 0);
		for (int i = before; i < nwarn; i++) {
			if (!strstr(warnings[i], "Arm SPE data of cpu") && !strstr(warnings[i], "more runs"))
				fail_msg("report warning: %s", warnings[i]);
			if (strstr(warnings[i], "invalid packet"))
				g->report_warned = 1;
		}
		nwarn = before;          /* the tests count the recording's warnings */
		if (g->td_blobs) {
			/* the report: the readings stay out of the tables and are attributed */
			struct rs_opts ro = { .input = out, .display = -1 };
			struct report_session *rs;

			c2c_log_set_hook(hook, NULL);  /* the same SPE warnings as above */
			assert_int_equal(rs_open(&rs, &ro), 0);
			c2c_log_set_hook(NULL, NULL);
			nwarn = before;
			assert_non_null(rs->tdt);
			assert_int_equal(rs->td_reader_event, (int)g->td.event);
			g->tdt = *tdt_stats(rs->tdt);
			g->td_all_err = tdt_total(rs->tdt, 1, &g->td_all);
			if (rs->t)
				assert_int_equal(cltab_counts(rs->t)->samples, 0);
			rs_free(rs);
			g->report_text = report_out(out, "--stdio");
			g->report_json = report_out(out, "--json");
			nwarn = before;
		}
	}
	unlink(out);
	for (int i = 0; i < nfev; i++)
		if (fev[i].view)
			munmap(fev[i].view, fev[i].view_len);
	return err;
}

static void release(struct got *g)
{
	free(g->report_text);
	free(g->report_json);
	trace_info_release(&g->info);
	c2c_spe_info_release(&g->spe);
}

/* The trace holds, per CPU, exactly what the fake driver published. */
static void check_published(const struct got *g, int ncpu, uint32_t pid)
{
	for (int c = 0; c < ncpu; c++) {
		const struct expect *x = &want[c];
		int with_data = 0;

		if (g->naux[c] != x->n)
			fail_msg("CPU %d: %d AUX records, want %d", c, g->naux[c], x->n);
		for (int i = 0; i < x->n; i++) {
			const struct trace_aux *a = &g->aux[c][i];

			if (a->offset != x->c[i].offset || a->size != x->c[i].size ||
			    a->flags != x->c[i].flags || a->time != x->c[i].time ||
			    a->cpu != (uint32_t)c || a->pid != x->pid || a->tid != x->pid)
				fail_msg("CPU %d AUX %d: offset %llu size %llu flags 0x%llx time %llu "
					 "pid %u", c, i, (unsigned long long)a->offset,
					 (unsigned long long)a->size, (unsigned long long)a->flags,
					 (unsigned long long)a->time, a->pid);
			with_data += x->c[i].size > 0;
		}
		assert_int_equal(g->blobs[c], with_data);
		assert_int_equal(g->blobs_ok[c], with_data);
		assert_int_equal(g->switches[c], 1);
		assert_int_equal(g->sw[c].pid, pid ? pid : 4242);
		assert_true(g->sw[c].flags & TRACE_SWITCH_OUT);
		assert_int_equal(g->itrace[c], 1);
	}
}

/* The SPE facts blob: the tree's PMU and MIDRs, the control page's clock conversion. */
static void check_info(const struct got *g, uint32_t type, uint64_t midr, int ncpu,
		       uint64_t aux_bytes, uint64_t min_interval)
{
	assert_int_equal(g->spe_blobs, 1);
	assert_true(g->run_blobs <= 1);
	assert_string_equal(g->spe.pmu, "arm_spe_0");
	assert_int_equal(g->spe.pmu_type, type);
	assert_int_equal(g->spe.per_cpu, 1);
	assert_int_equal(g->spe.switch_events, 1);
	assert_int_equal(g->spe.min_interval, min_interval);
	assert_int_equal(g->spe.count_size, 12);
	assert_int_equal(g->spe.aux_bytes, aux_bytes);
	assert_int_equal(g->spe.cpuid_midr, midr);
	assert_int_equal(g->spe.nr_midr, ncpu);
	for (int c = 0; c < ncpu; c++)
		assert_int_equal(c2c_spe_info_midr(&g->spe, (uint32_t)c), midr);
	assert_memory_equal(&g->spe.tc, &k.tc, sizeof(k.tc));
	assert_int_equal(g->info.backend, TRACE_BACKEND_SPE);
	assert_true(g->info.flags & TRACE_INFO_SPE_RAW);
	assert_string_equal(g->info.pmu_name, "arm_spe_0");
}

static void setup_kernel(int ncpu)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	k.ncpu = ncpu;
	k.tc = (struct c2c_time_conv){ .time_shift = 31, .time_mult = 0x8b20c49b,
				       .time_zero = 0xfffffd2a4bc3e1f0ull, .time_cycles = 0x2d1c0,
				       .time_mask = 0x00ffffffffffffffull, .cap_user_time_zero = 1,
				       .cap_user_time_short = 1 };
}

/* Root on a Neoverse N1: perf 6.1's attrs go through unchanged; 4 MiB AUX areas, 128-page data
 * rings; every AUX span, flag, switch and ITRACE_START lands in the trace. */
static void test_sperec_privileged(void **state)
{
	struct record_opts o = { .ev = { .ldlat = 64 } };
	struct record_result res;
	struct got g;
	int spe = 0, dummy = 0;

	(void)state;
	setup_kernel(4);
	machine("neoverse-n1", 1, 2);
	assert_int_equal(record(&o, &res, &g), 0);
	machine_done();
	for (int i = 0; i < ncalls; i++) {
		const struct call *c = &calls[i];

		assert_int_equal(c->err, 0);
		assert_true(c->pid > 0 && c->cpu >= 0 && c->cpu < 4);
		if (c->attr.type == 10) {
			spe++;
			assert_int_equal(c->attr.config, 0x600000003ull);
			assert_int_equal(c->attr.config2, 64);
			assert_int_equal(c->attr.sample_period, 1024);
			assert_int_equal(c->attr.freq, 0);
			assert_int_equal(c->attr.sample_type, 0x9c08f);
			assert_int_equal(c->attr.aux_watermark, 0);
			assert_int_equal(c->attr.exclude_kernel, 0);
			assert_int_equal(c->attr.disabled, 1);
			assert_int_equal(c->attr.enable_on_exec, 1);
			assert_int_equal(c->attr.mmap_data, 0);
			/* SPE first on every CPU: it owns the ring and the AUX area */
			assert_int_equal(dummy, spe - 1);
		} else {
			dummy++;
			assert_int_equal(c->attr.config, PERF_COUNT_SW_DUMMY);
			assert_int_equal(c->attr.context_switch, 1);
			assert_int_equal(c->attr.exclude_kernel, 1);
			assert_int_equal(c->attr.sample_period, 1);
		}
	}
	assert_int_equal(spe, 4);
	assert_int_equal(dummy, 4);
	/* without --topdown: perf's attrs, and the reason says how to get TopDown */
	assert_non_null(strstr(res.td_reason, "beside SPE samples TopDown is a group of its own, "
			       "counted only with --topdown"));
	for (int i = 0; i < nfev; i += 2) {
		assert_int_equal(fev[i].attr.type, 10);
		assert_int_equal(fev[i].aux_size, 1024 * 4096 / page * page);
		assert_int_equal(fev[i].data_size, 128 * page);
		assert_int_equal(fev[i + 1].out, i);            /* the dummy writes into it */
		assert_int_equal(fev[i + 1].aux_size, 0);
	}
	check_info(&g, 10, 0x413fd0c1, 4, 4u << 20, 1024);
	check_published(&g, 4, (uint32_t)fev[0].pid);
	assert_int_equal(g.itrace_pid[0], fev[0].pid);
	assert_int_equal(g.info.nr_events, 2);
	assert_int_equal(g.info.events[0].config, 0x600000003ull);
	assert_string_equal(g.info.events[1].name, "dummy:u");
	/* 4 CPUs of 3 spans */
	assert_int_equal(res.aux_records, 12);
	assert_int_equal(res.aux_truncated, 4);
	assert_int_equal(res.aux_partial, 4);
	assert_int_equal(res.aux_collision, 4);
	assert_int_equal(res.aux_bytes, 4 * (256 + 128));
	assert_int_equal(res.aux_dropped, 0);
	assert_int_equal(res.backend, TRACE_BACKEND_SPE);
	assert_int_equal(nwarn, 0);
	assert_true(g.report_warned);
	release(&g);
}

/* An ordinary user at perf_event_paranoid 2 on a Neoverse V1: the kernel refuses pa_enable
 * (CAP_PERFMON), kernel samples and physical addresses; each is dropped with one warning and the
 * recording goes on with perf's unprivileged buffers (128 KiB AUX, 256 KiB data). */
static void test_sperec_unprivileged(void **state)
{
	struct record_opts o = { 0 };
	struct record_result res;
	struct got g;
	int refused = 0, opened = 0;

	(void)state;
	setup_kernel(8);
	machine("neoverse-v1", 0, 2);
	assert_int_equal(record(&o, &res, &g), 0);
	machine_done();
	for (int i = 0; i < ncalls; i++) {
		const struct call *c = &calls[i];

		if (c->attr.type != 11)
			continue;
		if (c->err) {
			refused++;
			assert_int_equal(c->err, EACCES);
			continue;
		}
		opened++;
		assert_int_equal(c->attr.config, 0x600000001ull);      /* no pa_enable */
		assert_int_equal(c->attr.exclude_kernel, 1);
		assert_int_equal(c->attr.sample_type, 0x9c08f & ~(uint64_t)PERF_SAMPLE_PHYS_ADDR);
		assert_int_equal(c->attr.sample_period, 512);
	}
	assert_int_equal(opened, 8);
	/* on the first CPU: pa_enable, then kernel samples, then PHYS_ADDR; the session keeps
	 * what worked for the other CPUs */
	assert_int_equal(refused, 3);
	assert_true(warned("pa_enable"));
	assert_true(warned("kernel samples not permitted"));
	assert_true(warned("physical addresses not permitted"));
	assert_int_equal(nwarn, 3);
	for (int i = 0; i < nfev; i += 2) {
		assert_int_equal(fev[i].aux_size, 128 * 1024);
		assert_int_equal(fev[i].data_size, 256 * 1024);
	}
	check_info(&g, 11, 0x411fd401, 8, 128u << 10, 512);
	check_published(&g, 8, (uint32_t)fev[0].pid);
	assert_int_equal(g.info.events[0].config, 0x600000001ull);
	assert_false(g.info.events[0].sample_type & PERF_SAMPLE_PHYS_ADDR);
	assert_int_equal(res.aux_records, 8 * 3);
	release(&g);
}

/* -a on a Neoverse N2 with CAP_PERFMON: CPU-wide events, enabled by the session (the SPE event
 * starts tracing at once: ITRACE_START), CPU-wide switch records; -m 64,16 sizes the rings. */
static void test_sperec_system_wide(void **state)
{
	struct record_opts o = { .ev = { .system_wide = 1 }, .duration = 0.05, .mmap_pages = 64,
				 .aux_pages = 16 };
	struct record_result res;
	struct got g;

	(void)state;
	setup_kernel(4);
	machine("neoverse-n2", 1, 2);
	assert_int_equal(record(&o, &res, &g), 0);
	machine_done();
	for (int i = 0; i < ncalls; i++) {
		assert_int_equal(calls[i].pid, -1);
		assert_int_equal(calls[i].attr.enable_on_exec, 0);
		assert_int_equal(calls[i].attr.disabled, calls[i].attr.type == 9);
	}
	for (int i = 0; i < nfev; i += 2) {
		assert_int_equal(fev[i].aux_size, 16 * page);
		assert_int_equal(fev[i].data_size, 64 * page);
	}
	check_info(&g, 9, 0x410fd490, 4, 16 * page, 1024);
	for (int c = 0; c < 4; c++) {
		assert_int_equal(g.itrace[c], 1);            /* at enable; none at disable */
		assert_int_equal(g.sw[c].flags, TRACE_SWITCH_OUT | TRACE_SWITCH_PREEMPT |
				 TRACE_SWITCH_CPU_WIDE);
		assert_int_equal(g.sw[c].next_prev_pid, 77);
		assert_int_equal(g.sw[c].next_prev_tid, 78);
	}
	check_published(&g, 4, 0);
	release(&g);
}

/* Root with CAP_PERFMON on 4 CPUs of a fake Neoverse N2, with --topdown. */
static void record_topdown(struct record_opts *o, struct record_result *res, struct got *g)
{
	setup_kernel(4);
	machine("neoverse-n2", 1, 2);
	td_mode = 1;
	assert_int_equal(record(o, res, g), 0);
	td_mode = -1;
	machine_done();
}

/* --topdown beside SPE on a Neoverse N2 (r0p0: the erratum correction applies). With -a the
 * level-1 counters form a group of their own on each CPU, every task, without inherit: the fake
 * 6.1 kernel takes it, its leader samples twice with the group read, and the report attributes
 * the readings (here to no memory sample: the fake's AUX bytes are no SPE records). */
static void test_sperec_topdown(void **state)
{
	struct record_opts o = { .ev = { .system_wide = 1 }, .duration = 0.05 };
	struct record_result res;
	struct got g;
	int readers = 0, members = 0;

	(void)state;
	record_topdown(&o, &res, &g);
	for (int i = 0; i < ncalls; i++) {
		const struct call *c = &calls[i];

		assert_int_equal(c->err, 0);
		if (c->attr.type != k.core_type)
			continue;
		assert_int_equal(c->pid, -1);
		assert_int_equal(c->attr.inherit, 0);
		assert_int_equal(c->attr.read_format, PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				 PERF_FORMAT_LOST);
		if (c->attr.sample_period) {
			readers++;
			assert_int_equal(c->attr.config, 0x11);
			assert_int_equal(c->attr.sample_period, 1000000);
			assert_int_equal(c->attr.disabled, 1);
		} else {
			members++;
			assert_int_equal(c->attr.disabled, 0);
		}
	}
	assert_int_equal(readers, 4);
	assert_int_equal(members, 4 * 5);
	/* the SPE event keeps perf's attrs but IDENTIFIER, and its AUX data is all there */
	check_info(&g, 9, 0x410fd490, 4, 4 * 1024 * 1024, 1024);
	check_published(&g, 4, 0);
	assert_int_equal(res.td_readings, 8);
	assert_int_equal(g.td_blobs, 1);
	assert_string_equal(g.td.model.cpu, "Neoverse N2");
	assert_int_equal(g.td.model.width, 5);
	assert_int_equal(g.td.model.n2_erratum, 1);
	assert_int_equal(g.td.scope_cpu, 1);
	assert_int_equal(g.td.lead, TDI_CYCLES);
	assert_int_equal(g.td.nr, 5);
	assert_string_equal(g.info.events[g.td.event].name, "armv8_pmuv3_0/cpu_cycles/");
	for (int c = 0; c < 4; c++) {
		struct td_counts tc;

		assert_int_equal(g.readings[c], 2);
		td_reader_counts(&g.td, &g.last_reading[c], &tc);
		assert_int_equal(tc.v[TDI_CYCLES], 2000);
		assert_int_equal(tc.v[TDI_ARM_STALL_SLOT], 5000);
		assert_int_equal(tc.v[TDI_ARM_OP_RETIRED], 3000);
		assert_true(g.last_reading[c].flags & TRACE_SAMPLE_TOPDOWN);
		assert_false(g.last_reading[c].flags & TRACE_SAMPLE_HAS_ADDR);
	}
	/* 4 CPUs x 2000 cycles x 5 slots; N2 r0p0: fe (12000 - 8000) / 40000, stall (20000 -
	 * 8000) / 40000, retired/spec 0.75: retiring 52.5 %, bad spec 17.5 % */
	assert_int_equal(g.tdt.readings, 8);
	assert_int_equal(g.tdt.intervals, 8);
	assert_int_equal(g.tdt.intervals_charged, 0);
	assert_int_equal(g.td_all_err, 0);
	assert_float_equal(g.td_all.slots, 40000, 1e-9);
	assert_float_equal(g.td_all.v[TDO_FE_BOUND], 0.1, 1e-12);
	assert_float_equal(g.td_all.v[TDO_BE_BOUND], 0.2, 1e-12);
	assert_float_equal(g.td_all.v[TDO_RETIRING], 0.525, 1e-12);
	assert_float_equal(g.td_all.v[TDO_BAD_SPEC], 0.175, 1e-12);
	/* the report says how it attributed them, in its header and its TopDown block */
	assert_non_null(strstr(g.report_text, "# TopDown by time: Neoverse N2 counters in a group "
			       "apart from the sampler, read every 1000000 cycles per CPU: the counts "
			       "between two readings split evenly over the memory samples of that CPU "
			       "in the interval (8 readings)\n"));
	assert_non_null(strstr(g.report_text, "#   8 readings, 8 intervals (0 with memory samples)"));
	assert_non_null(strstr(g.report_text, "#   all (counted)                           0          "
			       "40000     52.5     17.5     10.0     20.0\n"));
	if (getenv("SPEREC_JSON"))      /* for a schema check by hand */
		fputs(g.report_json, stderr);
	assert_non_null(strstr(g.report_json, "\"topdown_by_time\": {\n    \"attribution\": "
			       "\"Neoverse N2 counters in a group apart"));
	assert_non_null(strstr(g.report_json, "\"scope\": \"cpu\",\n"));
	assert_non_null(strstr(g.report_json, "\"all\": {\n      \"slots\": 40000,\n      "
			       "\"retiring\": 0.525,\n      \"bad-spec\": 0.175,"));
	release(&g);
}

/* --topdown beside SPE for a command: per thread the group needs PERF_SAMPLE_READ with inherit,
 * which 6.1 refuses; the recording goes on with perf's SPE attrs and says why. */
static void test_sperec_topdown_refused(void **state)
{
	struct record_opts o = { .ev = { .ldlat = 64 } };
	struct record_result res;
	struct got g;
	int refused = 0;

	(void)state;
	record_topdown(&o, &res, &g);
	for (int i = 0; i < ncalls; i++)
		refused += calls[i].err == EINVAL && calls[i].attr.type == k.core_type &&
			   calls[i].attr.inherit && (calls[i].attr.sample_type & PERF_SAMPLE_READ);
	assert_int_equal(refused, 1);
	for (int i = 0; i < nfev; i++)   /* the leader was refused first: no member opened */
		assert_int_not_equal(fev[i].attr.type, k.core_type);
	assert_non_null(strstr(res.td_reason, "PERF_SAMPLE_READ with inherit, kernel 6.12+"));
	assert_int_equal(g.td_blobs, 0);
	assert_int_equal(res.td_readings, 0);
	/* the SPE event as perf 6.1 opens it (no IDENTIFIER left from the TopDown attempt) */
	assert_int_equal(g.info.events[0].sample_type, 0x9c08f);
	check_published(&g, 4, g.itrace_pid[0]);
	release(&g);
}

/* Options that do not apply are refused before anything opens. */
static void test_sperec_refusals(void **state)
{
	struct record_opts f = { .rate = { .freq = 1000 } }, m = { .aux_pages = 1 };
	struct record_result res;
	struct got g;

	(void)state;
	setup_kernel(4);
	machine("neoverse-n1", 1, 2);
	assert_int_equal(record(&f, &res, &g), -EINVAL);
	assert_int_equal(ncalls, 0);
	assert_int_equal(record(&m, &res, &g), -EINVAL);
	assert_int_equal(ncalls, 0);
	machine_done();
}

static int said(const char *what)
{
	for (int i = 0; i < ninfo; i++)
		if (strstr(infos[i], what))
			return 1;
	return 0;
}

/* The command as a user runs it: -m N,M parsed, and the lost AUX data reported as perf reports
 * it (perf_session__warn_about_errors: flagged records out of all AUX records), then the
 * bytes kept raw. */
static void test_sperec_command(void **state)
{
	char out[] = "/tmp/c2c-test-sperec-cmd-XXXXXX";
	char *argv[] = { (char *)"record", (char *)"--backend=hw", (char *)"-a",
			 (char *)"--duration", (char *)"0.05", (char *)"-m", (char *)"64,16",
			 (char *)"-o", out, NULL };
	int fd = mkstemp(out), rc;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	setup_kernel(4);
	machine("neoverse-n2", 1, 2);
	memset(want, 0, sizeof(want));
	nfev = ncalls = nwarn = ninfo = 0;
	c2c_log_set_hook(hook, NULL);
	rc = cmd_record(9, argv);
	c2c_log_set_hook(NULL, NULL);
	machine_done();
	unlink(out);
	for (int i = 0; i < nfev; i++)
		if (fev[i].view)
			munmap(fev[i].view, fev[i].view_len);
	assert_int_equal(rc, 0);
	assert_int_equal(fev[0].aux_size, 16 * page);
	assert_int_equal(fev[0].data_size, 64 * page);
	/* 4 CPUs, each with one span flagged truncated and partial and one flagged collision */
	assert_true(warned("AUX data lost 4 times out of 12"));
	assert_true(warned("AUX data had gaps in it 4 times out of 12"));
	assert_true(warned("AUX data detected collision 4 times out of 12"));
	assert_false(warned("could not be read"));
	assert_true(said("Arm SPE: 1536 bytes of AUX data in 12 records, stored raw"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sperec_privileged),
		cmocka_unit_test(test_sperec_unprivileged),
		cmocka_unit_test(test_sperec_system_wide),
		cmocka_unit_test(test_sperec_topdown),
		cmocka_unit_test(test_sperec_topdown_refused),
		cmocka_unit_test(test_sperec_refusals),
		cmocka_unit_test(test_sperec_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
