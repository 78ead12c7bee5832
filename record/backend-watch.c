/* The watch backend (see backend-watch.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "c2c/capstone.h"
#include "c2c/log.h"
#include "c2c/soft.h"
#include "c2c/xalloc.h"
#include "record/backend-watch.h"
#include "record/regs-x86.h"
#include "record/soft-decode.h"
#include "record/synth.h"
#include "record/sysfs.h"

/* --- specs ---------------------------------------------------------------------------------- */

static int parse_num(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 0);
	if (errno || e == s)
		return -EINVAL;
	*end = e;
	return 0;
}

int watch_parse(const char *spec, struct watch_req *out)
{
	const char *p = spec, *slash = strchr(spec, '/'), *plus;
	size_t n;
	uint64_t v;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return c2c_err(-EINVAL, "--watch needs SYMBOL[+OFF][/LEN] or 0xADDR/LEN");
	if (slash) {
		const char *e;

		if (parse_num(slash + 1, &v, &e) || *e || !v || v > 4096)
			return c2c_err(-EINVAL, "--watch '%s': bad length '%s' (1..4096 bytes)",
				       spec, slash + 1);
		out->len = (unsigned int)v;
	}
	n = slash ? (size_t)(slash - spec) : strlen(spec);
	if (p[0] >= '0' && p[0] <= '9') {
		const char *e;

		if (parse_num(p, &out->addr, &e) || e != p + n)
			return c2c_err(-EINVAL, "--watch '%s': bad address", spec);
		if (!out->len)
			return c2c_err(-EINVAL, "--watch '%s': a raw address needs a length "
				       "(0xADDR/LEN)", spec);
		return 0;
	}
	plus = memchr(p, '+', n);
	if ((plus ? (size_t)(plus - p) : n) >= sizeof(out->sym) || (plus ? plus == p : !n))
		return c2c_err(-EINVAL, "--watch '%s': bad symbol name", spec);
	memcpy(out->sym, p, plus ? (size_t)(plus - p) : n);
	if (plus) {
		const char *e;

		if (parse_num(plus + 1, &out->addr, &e) || e != p + n)
			return c2c_err(-EINVAL, "--watch '%s': bad offset after '+'", spec);
	}
	return 0;
}

/* --- plan ----------------------------------------------------------------------------------- */

int watch_plan_add_range(struct watch_plan *plan, uint64_t addr, uint64_t len, const char *label)
{
	size_t cap = plan->nr;

	while (len) {
		unsigned int w = 8;

		while (w > 1 && ((addr & (w - 1)) || w > len))
			w >>= 1;
		if (plan->nr >= WATCH_WORDS_MAX)
			return c2c_err(-E2BIG, "--watch: more than %d words to watch",
				       WATCH_WORDS_MAX);
		plan->w = xgrow(plan->w, &cap, plan->nr + 1, sizeof(*plan->w));
		plan->w[plan->nr].addr = addr;
		plan->w[plan->nr].len = w;
		snprintf(plan->w[plan->nr].label, sizeof(plan->w[0].label), "%s", label);
		plan->nr++;
		addr += w;
		len -= w;
	}
	plan->slots = plan->nr < WATCH_SLOTS_X86 ? (unsigned int)plan->nr : WATCH_SLOTS_X86;
	return 0;
}

/* The load bias of @exe in @pid: start of its mapping at file offset 0. */
static int load_bias(pid_t pid, const char *exe, uint64_t *bias)
{
	char path[128], line[4096];
	FILE *fp;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "%s/proc/%d/maps", sysfs_root(), (int)pid);
	if (!(fp = fopen(path, "re")))
		return c2c_err(-errno, "cannot read '%s': %s", path, strerror(errno));
	while (err && fgets(line, sizeof(line), fp)) {
		struct trace_mmap m;

		line[strcspn(line, "\n")] = '\0';
		if (!synth_parse_maps_line(line, &m) && m.filename && !strcmp(m.filename, exe) &&
		    m.pgoff == 0) {
			*bias = m.start;
			err = 0;
		}
	}
	fclose(fp);
	if (err)
		return c2c_err(err, "'%s' is not mapped in process %d", exe, (int)pid);
	return 0;
}

int watch_plan_build(struct watch_plan *plan, const char *const *specs, size_t n, pid_t pid,
		     const char *exe)
{
	uint64_t bias = 0;
	int have_bias = 0, err = 0;

	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < n && !err; i++) {
		struct watch_req r;
		uint64_t va, size, len;
		char label[160];
		int pie;

		if ((err = watch_parse(specs[i], &r)))
			break;
		if (!r.sym[0]) {
			snprintf(label, sizeof(label), "0x%" PRIx64, r.addr);
			err = watch_plan_add_range(plan, r.addr, r.len, label);
			continue;
		}
		err = elfsym_lookup(exe, r.sym, &va, &size, &pie);
		if (err) {
			err = c2c_err(err == -ENOENT ? -ENOENT : err, "--watch '%s': no symbol '%s' "
				      "in '%s'%s", specs[i], r.sym, exe, err == -ENOENT ? "" :
				      " (not a readable ELF file)");
			break;
		}
		if (pie && !have_bias) {
			if ((err = load_bias(pid, exe, &bias)))
				break;
			have_bias = 1;
		}
		len = r.len ? r.len : size ? size - (r.addr < size ? r.addr : size) : 8;
		if (!len)
			len = 8;
		if (r.addr)
			snprintf(label, sizeof(label), "%s+0x%" PRIx64, r.sym, r.addr);
		else
			snprintf(label, sizeof(label), "%s", r.sym);
		err = watch_plan_add_range(plan, (pie ? bias : 0) + va + r.addr, len, label);
	}
	if (!err && !plan->nr)
		err = c2c_err(-EINVAL, "--backend=watch needs at least one --watch");
	if (err)
		watch_plan_release(plan);
	return err;
}

void watch_plan_release(struct watch_plan *plan)
{
	free(plan->w);
	memset(plan, 0, sizeof(*plan));
}

size_t watch_plan_word(const struct watch_plan *plan, uint64_t step, unsigned int slot)
{
	if (plan->nr <= plan->slots)
		return slot;
	/* a window of @slots consecutive words sliding by @slots: over a cycle every word is
	 * watched slots/nr of the time, and a window never holds a word twice */
	return (size_t)((step % plan->nr) * plan->slots + slot) % plan->nr;
}

void watch_plan_describe(const struct watch_plan *plan, unsigned int step_ms, char *buf,
			 size_t size)
{
	size_t off = 0;

	off += (size_t)snprintf(buf, size, "watch: %zu word%s", plan->nr, plan->nr == 1 ? "" : "s");
	for (size_t i = 0; i < plan->nr && off < size; i++)
		off += (size_t)snprintf(buf + off, size - off, "%s %s=0x%" PRIx64 "/%u",
					i ? "," : ":", plan->w[i].label, plan->w[i].addr,
					plan->w[i].len);
	if (off < size && plan->nr > plan->slots)
		snprintf(buf + off, size - off, "; rotated: %u debug registers over %zu words, "
			 "%u ms per step, each word watched %u/%zu of the time", plan->slots,
			 plan->nr, step_ms, plan->slots, plan->nr);
}

/* --- ptrace --------------------------------------------------------------------------------- */

int watch_seize(pid_t pid)
{
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)(PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)))
		return c2c_err(-errno, "cannot attach to the workload (pid %d) to stop it at exec: "
			       "%s (ptrace is needed to place watchpoints in position-independent "
			       "programs; see kernel.yama.ptrace_scope)", (int)pid, strerror(errno));
	return 0;
}

int watch_wait_exec(pid_t pid)
{
	int st;

	for (;;) {
		if (waitpid(pid, &st, __WALL) != pid) {
			if (errno == EINTR)
				continue;
			return c2c_err(-errno, "waiting for the workload's exec: %s", strerror(errno));
		}
		if (WIFEXITED(st) || WIFSIGNALED(st))
			return c2c_err(-ECHILD, "the workload ended before its exec completed");
		if (WIFSTOPPED(st) && (st >> 8) == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
			return 0;
		/* another stop (a signal before exec): let it through */
		if (WIFSTOPPED(st) && ptrace(PTRACE_CONT, pid, NULL,
					     (void *)(long)(WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st))))
			return c2c_err(-errno, "cannot resume the workload: %s", strerror(errno));
	}
}

int watch_detach(pid_t pid)
{
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL))
		return c2c_err(-errno, "cannot release the workload (pid %d): %s", (int)pid,
			       strerror(errno));
	return 0;
}

/* --- hits ----------------------------------------------------------------------------------- */

struct watch_decoder {
	struct softdec *sd;
	struct codemap *cm;
};

int watch_decoder_new(struct watch_decoder **out, struct codemap *cm)
{
	struct watch_decoder *wd = xcalloc(1, sizeof(*wd));
	int err = softdec_new(&wd->sd);

	if (err) {
		free(wd);
		return c2c_err(err, "the watch backend cannot open the capstone x86-64 decoder%s%s",
			       c2c_cs_missing() ? ": " : "", c2c_cs_missing() ? c2c_cs_missing() : "");
	}
	softdec_set_max_back(wd->sd, 1);
	softdec_set_trap(wd->sd, 1);
	wd->cm = cm;
	*out = wd;
	return 0;
}

void watch_decoder_free(struct watch_decoder *wd)
{
	if (!wd)
		return;
	softdec_free(wd->sd);
	free(wd);
}

enum softdec_reason watch_locate(const struct softdec_access *acc, uint64_t word, unsigned int len,
				 uint64_t *addr)
{
	uint64_t size = acc->size;

	*addr = word;
	if (acc->kind == SOFTDEC_KIND_NONE || !len)
		return SOFTDEC_ADDR_WORD;
	if ((acc->reason == SOFTDEC_ADDR || acc->reason == SOFTDEC_ADDR_RIP) && size &&
	    acc->addr < word + len && acc->addr + size > word) {
		/* the first watched byte it touched (a wide access may start before the word) */
		*addr = acc->addr > word ? acc->addr : word;
		return acc->reason;
	}
	if (acc->reason != SOFTDEC_CLOBBERED || !size)
		return SOFTDEC_ADDR_WORD;
	if (size >= len)
		return SOFTDEC_ADDR_INFERRED;     /* an aligned access this wide covers the word */
	/* base + disp with the base aligned to the word length, the access aligned to its size */
	*addr = word + ((uint64_t)acc->disp & (len - 1) & ~(size - 1));
	return SOFTDEC_ADDR_INFERRED;
}

void watch_decoder_fill(struct watch_decoder *wd, struct trace_sample *s,
			const struct softdec_regs *regs, unsigned int len)
{
	static const struct softdec_regs none;
	struct softdec_access acc = { .reason = SOFTDEC_OUTSIDE };
	struct softdec_func fn;
	uint64_t word = s->addr, addr;
	int has = s->flags & TRACE_SAMPLE_HAS_ADDR;

	if (!codemap_func(wd->cm, s->pid, s->ip, &fn) &&
	    !softdec_decode(wd->sd, &fn, s->ip, regs ? regs : &none, &acc) && acc.insn_addr &&
	    acc.kind != SOFTDEC_KIND_NONE)
		s->ip = acc.insn_addr;   /* the trap IP is the next instruction: name the access */
	acc.reason = watch_locate(&acc, word, len, &addr);
	acc.addr = addr;
	softdec_fill_sample(s, &acc);
	/* the access's bytes inside the word: the sample's weight (docs/trace-format.md) */
	if (acc.kind != SOFTDEC_KIND_NONE && acc.size && acc.reason != SOFTDEC_ADDR_WORD && len) {
		uint64_t end = acc.addr + acc.size < word + len ? acc.addr + acc.size : word + len;

		s->weight = end > addr ? end - addr : 1;
		s->flags |= TRACE_SAMPLE_HAS_WEIGHT;
	}
	if (!has)
		s->flags &= (uint8_t)~TRACE_SAMPLE_HAS_ADDR;
	if (s->ip == acc.insn_addr)
		s->flags |= TRACE_SAMPLE_EXACT_IP;
}

/* --- duty cycle ----------------------------------------------------------------------------- */

void watch_duty_init(struct watch_duty_ctl *c, double budget, double ns_per_hit,
		     const struct watch_plan *plan)
{
	memset(c, 0, sizeof(*c));
	c->d.budget = budget;
	c->d.ns_per_hit = ns_per_hit;
	for (size_t i = 0; i < plan->nr && i < C2C_WATCH_WORDS_MAX; i++) {
		c->d.word[i].addr = plan->w[i].addr;
		c->d.word[i].len = plan->w[i].len;
	}
	c->d.nr_words = plan->nr < C2C_WATCH_WORDS_MAX ? (uint32_t)plan->nr : C2C_WATCH_WORDS_MAX;
	c->armed = 1;
}

/* Charge the interval since the last reading: armed (@armed) or not. */
static void duty_charge(struct watch_duty_ctl *c, uint64_t cpu_ns, uint64_t hits, int armed,
			const size_t *words, unsigned int nw)
{
	uint64_t dt, dh, trap, useful;

	if (!c->started || cpu_ns < c->last_cpu || hits < c->last_hits) {
		/* the first reading, or counters that went back (a task was lost): a new base */
		c->started = 1;
		c->last_cpu = cpu_ns;
		c->last_hits = hits;
		return;
	}
	dt = cpu_ns - c->last_cpu;
	dh = hits - c->last_hits;
	c->last_cpu = cpu_ns;
	c->last_hits = hits;
	trap = (double)dh * c->d.ns_per_hit >= (double)dt ? dt
	       : (uint64_t)((double)dh * c->d.ns_per_hit);
	useful = dt - trap;
	c->d.cpu_ns += dt;
	c->d.trap_ns += trap;
	c->d.hits += dh;
	if (!armed)
		return;
	c->d.armed_cpu_ns += dt;
	c->d.armed_ns += useful;
	for (unsigned int i = 0; i < nw; i++)
		if (words[i] < c->d.nr_words)
			c->d.word[words[i]].armed_ns += useful;
}

int watch_duty_tick(struct watch_duty_ctl *c, uint64_t cpu_ns, uint64_t hits, const size_t *words,
		    unsigned int nw)
{
	int next;

	duty_charge(c, cpu_ns, hits, c->armed, words, nw);
	next = c->d.budget <= 0 ||
	       (double)c->d.trap_ns <= c->d.budget * (double)(c->d.cpu_ns - c->d.trap_ns);
	if (next != c->armed)
		c->d.switches++;
	c->armed = next;
	return next;
}

void watch_duty_switched(struct watch_duty_ctl *c, uint64_t cpu_ns, uint64_t hits)
{
	duty_charge(c, cpu_ns, hits, 0, NULL, 0);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Touch @v @n times (a load and a store each: two hits when watched); CPU ns taken. */
static uint64_t touch(volatile uint64_t *v, unsigned int n)
{
	uint64_t t0 = thread_cpu_ns();

	for (unsigned int i = 0; i < n; i++)
		*v = *v + 1;
	return thread_cpu_ns() - t0;
}

int watch_calibrate(double *ns_per_hit)
{
	static volatile uint64_t word;
	const unsigned int rounds = 500, pages = 64;   /* 1000 samples of ~200 bytes: no loss */
	struct perf_event_attr a;
	size_t map_len = (size_t)(pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
	uint64_t base, with, hits[4] = { 0 };
	void *ring;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_RW;
	a.bp_addr = (uintptr_t)&word;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_REGS_USER;
	a.sample_regs_user = REGS_X86_SOFT_MASK;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return c2c_err(-errno, "cannot open a hardware watchpoint to measure its cost: %s "
			       "(see 'c2c-lite doctor')", strerror(errno));
	ring = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		int err = -errno;

		close(fd);
		return c2c_err(err, "cannot map the ring buffer of a calibration watchpoint: %s",
			       strerror(-err));
	}
	touch(&word, rounds);                  /* warm up */
	base = touch(&word, rounds);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	with = touch(&word, rounds);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, hits, sizeof(hits)) < (ssize_t)sizeof(hits[0]))
		hits[0] = 0;
	munmap(ring, map_len);
	close(fd);
	if (!hits[0])
		return c2c_err(-EIO, "a calibration watchpoint saw no access: hardware "
			       "watchpoints do not fire on this machine (c2c-lite doctor says "
			       "why); --backend=soft works without them");
	*ns_per_hit = with > base ? (double)(with - base) / (double)hits[0] : 1;
	return 0;
}
