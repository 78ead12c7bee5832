/* Region markers from the workload's memfd into the trace (see regions.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "record/regions.h"
#include "record/sys.h"

#define MAX_MARKERS (1u << 24)

struct regions {
	int fd;
	uint64_t off;                /* bytes consumed */
	int64_t offset;              /* perf clock - CLOCK_MONOTONIC, ns */
	int calibrated;
	uint64_t count, bad;
	int warned;
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int regions_comm_time(const void *rec, size_t len, uint64_t *time)
{
	struct perf_event_header h;

	if (len < sizeof(h) + 8 + 8 + 8)
		return -EINVAL;
	memcpy(&h, rec, sizeof(h));
	if (h.type != PERF_RECORD_COMM || h.size != len)
		return -EINVAL;
	memcpy(time, (const char *)rec + len - 8, 8);
	return 0;
}

int regions_from_wire(const struct c2c_region_wire *w, int64_t offset, struct trace_region *out)
{
	int64_t t = (int64_t)w->time + offset;

	if (w->magic != C2C_REGION_WIRE_MAGIC || !memchr(w->name, 0, sizeof(w->name)) || !w->name[0] ||
	    (w->kind != C2C_REGION_WIRE_BEGIN && w->kind != C2C_REGION_WIRE_END))
		return -EINVAL;
	out->time = t < 0 ? 0 : (uint64_t)t;
	out->pid = w->pid;
	out->tid = w->tid;
	out->kind = w->kind == C2C_REGION_WIRE_BEGIN ? TRACE_REGION_BEGIN : TRACE_REGION_END;
	out->depth = w->depth;
	out->name = w->name;
	return 0;
}

/* The newest COMM record of this thread in a freshly mapped ring of one data page. */
static int ring_comm_time(const struct perf_event_mmap_page *pg, const char *data, size_t size,
			  uint64_t *time)
{
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), pos = 0;
	int found = -ENOENT;

	if (head > size)
		return -EOVERFLOW;
	while (pos + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;

		memcpy(&h, data + pos, sizeof(h));
		if (h.size < sizeof(h) || pos + h.size > head)
			break;
		if (!regions_comm_time(data + pos, h.size, time))
			found = 0;
		pos += h.size;
	}
	return found;
}

/* perf clock - CLOCK_MONOTONIC, from a COMM record of this thread (regions.h). */
static int calibrate(int64_t *offset)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_DUMMY, .comm = 1, .sample_id_all = 1,
				     .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
				     .exclude_kernel = 1, .exclude_hv = 1 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char name[17] = "";
	uint64_t t1, t2, t;
	void *m;
	int fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	prctl(PR_GET_NAME, name);
	t1 = mono_ns();
	prctl(PR_SET_NAME, name);
	t2 = mono_ns();
	err = ring_comm_time(m, (const char *)m + page, page, &t);
	if (!err)
		*offset = (int64_t)(t - (t1 + (t2 - t1) / 2));
	munmap(m, 2 * page);
	close(fd);
	return err;
}

int regions_open(struct regions **out)
{
	struct regions *r = xcalloc(1, sizeof(*r));
	char num[16];
	int err;

	r->fd = memfd_create("c2c-regions", 0);   /* no CLOEXEC: the workload inherits it */
	if (r->fd < 0 || fcntl(r->fd, F_SETFL, O_APPEND) < 0) {
		err = -errno;
		regions_free(r);
		return c2c_err(err, "cannot create the region marker file: %s", strerror(-err));
	}
	snprintf(num, sizeof(num), "%d", r->fd);
	setenv(C2C_REGION_FD_ENV, num, 1);
	*out = r;
	return 0;
}

/* Once, when the first markers arrive: a run without markers opens nothing more. */
static void calibrate_once(struct regions *r)
{
	int err;

	if (r->calibrated)
		return;
	r->calibrated = 1;
	err = calibrate(&r->offset);
	if (err)
		c2c_debug("regions: the perf clock offset could not be measured (%s); markers keep "
			  "CLOCK_MONOTONIC times", strerror(-err));
	else
		c2c_debug("regions: perf clock = CLOCK_MONOTONIC %+lld ns", (long long)r->offset);
}

size_t regions_drain(struct regions *r, struct oq *q)
{
	struct c2c_region_wire w[256];
	size_t n = 0;

	for (;;) {
		ssize_t got = pread(r->fd, w, sizeof(w), (off_t)r->off);
		size_t whole = got > 0 ? (size_t)got / sizeof(w[0]) : 0;

		if (whole)
			calibrate_once(r);

		for (size_t i = 0; i < whole; i++) {
			struct trace_event ev = { .type = TRACE_REC_REGION };

			if (r->count >= MAX_MARKERS) {
				if (!r->warned++)
					c2c_warn("more than %u region markers: the rest are dropped",
						 MAX_MARKERS);
				continue;
			}
			if (regions_from_wire(&w[i], r->offset, &ev.region)) {
				r->bad++;
				continue;
			}
			oq_add(q, &ev, ev.region.time);
			r->count++;
			n++;
		}
		r->off += whole * sizeof(w[0]);
		if (whole < sizeof(w) / sizeof(w[0]))
			return n;
	}
}

uint64_t regions_count(const struct regions *r)
{
	return r ? r->count : 0;
}

uint64_t regions_bad(const struct regions *r)
{
	return r ? r->bad : 0;
}

void regions_free(struct regions *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	unsetenv(C2C_REGION_FD_ENV);
	free(r);
}
