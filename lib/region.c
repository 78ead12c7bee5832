/* c2c-region (see include/c2c/region.h): per-thread counter groups read with rdpmc through the
 * perf mmap page or with one read(), region totals summed atomically, markers copied to
 * c2c-lite record's descriptor. Self-contained: it links only libc and lib/topdown.c, so it can
 * be built as its own static and shared library. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "c2c/region.h"
#include "c2c/topdown.h"

enum set_kind { SET_NONE, SET_TOPDOWN, SET_HW, SET_SW };

struct c2c_region {
	char name[C2C_REGION_NAME_MAX];
	uint64_t entries, ns, value[C2C_REGION_COUNTERS];
	unsigned nr;
	int kind;                         /* enum set_kind of the last thread that ended it */
	int how;
	struct c2c_region *next;
};

struct frame {
	struct c2c_region *r;
	uint64_t t, v[C2C_REGION_COUNTERS];
};

/* One thread's counters and open regions. */
struct tstate {
	int tried;
	enum set_kind kind;
	int nr;
	int fd[C2C_REGION_COUNTERS];
	struct perf_event_mmap_page *pg[C2C_REGION_COUNTERS];
	int depth;
	struct frame st[C2C_REGION_DEPTH];
};

static const char *const td_names[] = { "slots", "retiring", "bad-spec", "fe-bound", "be-bound" };
static const char *const hw_names[] = { "cycles", "instructions" };
static const char *const sw_names[] = { "task-clock", "context-switches", "page-faults" };

static __thread struct tstate ts;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static int wire_fd = -1;
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct c2c_region *list;

/* --- counters ------------------------------------------------------------------------------- */

static int ev_open(uint32_t type, uint64_t config, int group, uint64_t read_format, int user)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.read_format = read_format;
	a.exclude_kernel = (uint64_t)user;   /* user only: allowed up to perf_event_paranoid 2 */
	a.exclude_hv = (uint64_t)user;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

static void set_close(struct tstate *s)
{
	for (int i = 0; i < s->nr; i++) {
		if (s->pg[i])
			munmap(s->pg[i], (size_t)sysconf(_SC_PAGESIZE));
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->pg[i] = NULL;
		s->fd[i] = -1;
	}
	s->nr = 0;
	s->kind = SET_NONE;
}

static int set_open_as(struct tstate *s, enum set_kind kind, uint32_t type, const uint64_t *config,
		       int n, int user)
{
	s->kind = kind;
	for (int i = 0; i < n; i++) {
		s->fd[i] = ev_open(type, config[i], i ? s->fd[0] : -1, PERF_FORMAT_GROUP, user);
		s->nr = i + 1;
		s->pg[i] = NULL;
		if (s->fd[i] < 0) {
			int err = errno;

			set_close(s);
			errno = err;
			return -1;
		}
		s->pg[i] = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, s->fd[i], 0);
		if (s->pg[i] == MAP_FAILED)
			s->pg[i] = NULL;
	}
	return 0;
}

/* Open a group of @n counters, the leader first, counting kernel time too when allowed (context
 * switches and faults happen there), else user space only. 0 when all opened. */
static int set_open(struct tstate *s, enum set_kind kind, uint32_t type, const uint64_t *config,
		    int n)
{
	for (int user = 0; user < 2; user++) {
		if (!set_open_as(s, kind, type, config, n, user))
			return 0;
		if (errno != EACCES && errno != EPERM)
			return -1;
	}
	return -1;
}

/* The core PMU's type when it has the TopDown metric events, else 0. */
static uint32_t topdown_pmu(void)
{
	static const char *const pmus[] = { "cpu_core", "cpu" };
	char path[128], buf[32];

	for (int i = 0; i < 2; i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/events/topdown-retiring",
			 pmus[i]);
		if (access(path, R_OK))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmus[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			return (uint32_t)strtoul(buf, NULL, 10);
		}
	}
	return 0;
}

static void thread_gone(void *p)
{
	set_close(p);
}

/* A forked child would read its parent thread's counters: it starts afresh. */
static void child_reset(void)
{
	set_close(&ts);
	memset(&ts, 0, sizeof(ts));
}

static void init_once(void)
{
	const char *env = getenv(C2C_REGION_FD_ENV);

	pthread_key_create(&key, thread_gone);
	pthread_atfork(NULL, NULL, child_reset);
	if (env && *env) {
		char *end;
		long fd = strtol(env, &end, 10);

		if (!*end && fd >= 0 && fd < 1 << 20 && fcntl((int)fd, F_GETFD) >= 0)
			wire_fd = (int)fd;
	}
}

/* Intel TopDown (kernel topdown.txt: a group led by SLOTS with the metric events), then generic
 * cycles and instructions, then software counters that every kernel has. */
static void thread_init(struct tstate *s)
{
	static const uint64_t td[] = { 0x0400, 0x8000, 0x8100, 0x8200, 0x8300 };
	static const uint64_t hw[] = { PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS };
	static const uint64_t sw[] = { PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
				       PERF_COUNT_SW_PAGE_FAULTS };
	uint32_t tdt = topdown_pmu();

	s->tried = 1;
	for (int i = 0; i < C2C_REGION_COUNTERS; i++)
		s->fd[i] = -1;
	pthread_once(&once, init_once);
	pthread_setspecific(key, s);
	if (tdt && !set_open(s, SET_TOPDOWN, tdt, td, 5))
		return;
	if (!set_open(s, SET_HW, PERF_TYPE_HARDWARE, hw, 2))
		return;
	set_open(s, SET_SW, PERF_TYPE_SOFTWARE, sw, 3);
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t rdpmc(uint32_t idx)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}
#define HAVE_RDPMC 1
#else
#define HAVE_RDPMC 0
static inline uint64_t rdpmc(uint32_t idx)
{
	(void)idx;
	return 0;
}
#endif

/* One counter through its mmap page: the kernel's offset plus the sign-extended hardware count,
 * retried while the page's seqlock moves. 0 when the page gives no index (read() then). */
static int page_read(struct perf_event_mmap_page *pc, uint64_t *out)
{
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		idx = pc->index;
		if (!HAVE_RDPMC || !pc->cap_user_rdpmc || !idx)
			return 0;
		count = (uint64_t)pc->offset;
		{
			int64_t pmc = (int64_t)rdpmc(idx - 1);
			unsigned w = pc->pmc_width;

			if (!w || w > 64)
				return 0;
			if (w < 64)
				pmc = (int64_t)((uint64_t)pmc << (64 - w)) >> (64 - w);
			count += (uint64_t)pmc;
		}
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	*out = count;
	return 1;
}

/* SLOTS and PERF_METRICS straight from the fixed and metric counters (topdown.txt), turned into
 * slot counts that subtract. */
static int topdown_rdpmc(const struct tstate *s, uint64_t *v)
{
	uint64_t scaled[8], slots, metrics;

	if (!HAVE_RDPMC || !s->pg[0] || !s->pg[0]->cap_user_rdpmc || !s->pg[0]->index)
		return 0;
	slots = rdpmc(1u << 30 | 3);
	metrics = rdpmc(1u << 29);
	td_intel_metrics_scale(slots, metrics, scaled);
	v[0] = slots;
	memcpy(&v[1], scaled, 4 * sizeof(*v));
	return 1;
}

static enum c2c_region_read snapshot(const struct tstate *s, uint64_t *v)
{
	uint64_t buf[1 + C2C_REGION_COUNTERS];
	int ok = s->nr > 0;

	if (s->kind == SET_TOPDOWN && topdown_rdpmc(s, v))
		return C2C_REGION_READ_RDPMC;
	for (int i = 0; ok && s->kind != SET_TOPDOWN && i < s->nr; i++)
		ok = s->pg[i] && page_read(s->pg[i], &v[i]);
	if (ok)
		return C2C_REGION_READ_RDPMC;
	if (!s->nr || read(s->fd[0], buf, sizeof(buf)) < (ssize_t)((1 + s->nr) * sizeof(uint64_t)))
		return C2C_REGION_READ_NONE;
	memcpy(v, &buf[1], (size_t)s->nr * sizeof(*v));
	return C2C_REGION_READ_SYSCALL;
}

/* --- markers -------------------------------------------------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void wire(const struct c2c_region *r, uint16_t kind, int depth, uint64_t t)
{
	struct c2c_region_wire w;

	memset(&w, 0, sizeof(w));
	w.magic = C2C_REGION_WIRE_MAGIC;
	w.kind = kind;
	w.depth = (uint16_t)depth;
	w.pid = (uint32_t)getpid();
	w.tid = (uint32_t)syscall(SYS_gettid);
	w.time = t;
	memcpy(w.name, r->name, sizeof(w.name));
	if (write(wire_fd, &w, sizeof(w)) != (ssize_t)sizeof(w))
		wire_fd = -1;                /* record went away: stop writing */
}

struct c2c_region *c2c_region_new(const char *name)
{
	struct c2c_region *r;

	if (!name || !*name) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	strncpy(r->name, name, sizeof(r->name) - 1);
	pthread_once(&once, init_once);
	pthread_mutex_lock(&list_lock);
	r->next = list;
	list = r;
	pthread_mutex_unlock(&list_lock);
	return r;
}

void c2c_region_free(struct c2c_region *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&list_lock);
	for (struct c2c_region **p = &list; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	pthread_mutex_unlock(&list_lock);
	free(r);
}

void c2c_region_begin(struct c2c_region *r)
{
	struct tstate *s = &ts;
	struct frame *f;

	if (!r)
		return;
	if (!s->tried)
		thread_init(s);
	if (s->depth >= C2C_REGION_DEPTH)
		return;
	f = &s->st[s->depth++];
	f->r = r;
	if (wire_fd >= 0)
		wire(r, C2C_REGION_WIRE_BEGIN, s->depth, now_ns());
	snapshot(s, f->v);
	f->t = now_ns();
}

void c2c_region_end(struct c2c_region *r)
{
	struct tstate *s = &ts;
	uint64_t v[C2C_REGION_COUNTERS], t;
	enum c2c_region_read how;
	int d;

	if (!r || !s->tried)
		return;
	t = now_ns();
	how = snapshot(s, v);
	for (d = s->depth - 1; d >= 0 && s->st[d].r != r; d--)
		;
	if (d < 0)
		return;                      /* not open in this thread */
	if (wire_fd >= 0)
		wire(r, C2C_REGION_WIRE_END, d + 1, now_ns());
	__atomic_fetch_add(&r->entries, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&r->ns, t - s->st[d].t, __ATOMIC_RELAXED);
	if (how != C2C_REGION_READ_NONE && !(s->kind == SET_TOPDOWN && v[0] < s->st[d].v[0]))
		for (int i = 0; i < s->nr; i++)
			__atomic_fetch_add(&r->value[i], v[i] - s->st[d].v[i], __ATOMIC_RELAXED);
	r->nr = (unsigned)s->nr;
	r->kind = s->kind;
	r->how = how;
	s->depth = d;
}

/* --- results -------------------------------------------------------------------------------- */

int c2c_region_stats(const struct c2c_region *r, struct c2c_region_stats *out)
{
	const char *const *names = r && r->kind == SET_TOPDOWN ? td_names :
				   r && r->kind == SET_HW ? hw_names : sw_names;

	if (!r || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	memcpy(out->name, r->name, sizeof(out->name));
	out->entries = __atomic_load_n(&r->entries, __ATOMIC_RELAXED);
	out->ns = __atomic_load_n(&r->ns, __ATOMIC_RELAXED);
	out->nr = r->nr;
	for (unsigned i = 0; i < r->nr && i < C2C_REGION_COUNTERS; i++) {
		out->counter[i] = names[i];
		out->value[i] = __atomic_load_n(&r->value[i], __ATOMIC_RELAXED);
	}
	out->how = (enum c2c_region_read)r->how;
	out->topdown = r->kind == SET_TOPDOWN;
	return 0;
}

static void print_one(FILE *f, const struct c2c_region_stats *st)
{
	static const char *const how[] = { "no counters", "rdpmc", "read()" };

	fprintf(f, "region %s: %llu entries, %.3f ms inside, counters by %s\n", st->name,
		(unsigned long long)st->entries, (double)st->ns / 1e6, how[st->how]);
	for (unsigned i = 0; i < st->nr; i++)
		fprintf(f, "  %18llu  %s\n", (unsigned long long)st->value[i], st->counter[i]);
	if (st->topdown && st->value[0]) {
		struct td_model m = { .kind = TD_KIND_INTEL_METRICS };
		struct td_counts c = { .have = 0 };
		struct td_result res;

		for (int i = 0; i < 5; i++) {
			c.v[TDI_SLOTS + i] = st->value[i];
			c.have |= 1ull << (TDI_SLOTS + i);
		}
		if (!td_compute(&m, &c, &res))
			fprintf(f, "  TopDown: retiring %.1f%%, bad-spec %.1f%%, fe-bound %.1f%%, "
				"be-bound %.1f%%\n", 100 * res.v[TDO_RETIRING], 100 * res.v[TDO_BAD_SPEC],
				100 * res.v[TDO_FE_BOUND], 100 * res.v[TDO_BE_BOUND]);
	}
}

void c2c_region_print_all(FILE *f)
{
	struct c2c_region_stats st;

	pthread_mutex_lock(&list_lock);
	for (struct c2c_region *r = list; r; r = r->next)
		if (!c2c_region_stats(r, &st))
			print_one(f, &st);
	pthread_mutex_unlock(&list_lock);
}
