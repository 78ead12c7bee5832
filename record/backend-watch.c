/* The watch backend (see backend-watch.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "c2c/log.h"
#include "c2c/soft.h"
#include "c2c/xalloc.h"
#include "record/backend-watch.h"
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
		return c2c_err(err, "the watch backend cannot open the capstone x86-64 decoder");
	}
	softdec_set_max_back(wd->sd, 1);
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

void watch_decoder_fill(struct watch_decoder *wd, struct trace_sample *s)
{
	static const struct softdec_regs none;
	struct softdec_access acc = { .reason = SOFTDEC_OUTSIDE };
	struct softdec_func fn;
	uint64_t addr = s->addr;
	int has = s->flags & TRACE_SAMPLE_HAS_ADDR;

	if (!codemap_func(wd->cm, s->pid, s->ip, &fn) &&
	    !softdec_decode(wd->sd, &fn, s->ip, &none, &acc) && acc.insn_addr &&
	    acc.kind != SOFTDEC_KIND_NONE)
		s->ip = acc.insn_addr;   /* the trap IP is the next instruction: name the access */
	/* the address is the watched word, whatever the decoder could recompute */
	acc.reason = SOFTDEC_ADDR;
	acc.addr = addr;
	softdec_fill_sample(s, &acc);
	if (!has)
		s->flags &= (uint8_t)~TRACE_SAMPLE_HAS_ADDR;
	if (s->ip == acc.insn_addr)
		s->flags |= TRACE_SAMPLE_EXACT_IP;
}
