/* advice-gen: writes a small c2c-lite trace from a script, so the summary and TopDown tests can
 * point samples at real binaries (a test compiles one with -g and reads its symbol addresses).
 * Test-only: the trace is marked SYNTHETIC.
 *
 *   advice-gen -o OUT.c2c [--topdown] < SCRIPT
 *
 * SCRIPT lines (numbers in C notation; '#' starts a comment):
 *   mmap PID START LEN PGOFF PROT FILE      a user mapping (MAP_PRIVATE) of FILE
 *   comm PID TID NAME
 *   sample PID TID CPU IP ADDR KIND COUNT   COUNT samples; KIND: load (L1 hit), hitm (local HITM),
 *                                           rhitm (remote HITM), store (L1 store hit)
 *   td SLOTS RET BAD FE BE [HEAVY BRM FLAT MEMB]
 *                                           TopDown of the following samples: every sample adds
 *                                           SLOTS slots and the given percentages of them to the
 *                                           running totals of its (CPU, thread), as the recorder's
 *                                           group reads do
 * With --topdown the trace's events name the metrics (cpu/topdown-retiring/ ...), like a
 * recording on an Intel core with PERF_METRICS. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/trace.h"
#include "report/aggregate/dsrc.h"

#define MAX_STATE 64

struct td_state {
	uint32_t cpu, tid;
	uint64_t slots, m[8];
};

struct gen {
	struct trace_writer *w;
	int td_on, td_nr;
	uint64_t td_slots;
	double td_pct[8];
	struct td_state st[MAX_STATE];
	int nr_st;
	uint64_t time;
};

static uint64_t kind_dsrc(const char *k)
{
	uint64_t lvl_hit = (uint64_t)DSRC_LVL_HIT << DSRC_LVL_SHIFT;
	uint64_t base = (uint64_t)DSRC_LOCK_NA << DSRC_LOCK_SHIFT | (uint64_t)1 << DSRC_TLB_SHIFT;

	if (!strcmp(k, "load"))
		return base | DSRC_OP_LOAD | lvl_hit | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT |
		       (uint64_t)DSRC_SNOOP_NONE << DSRC_SNOOP_SHIFT;
	if (!strcmp(k, "hitm"))
		return base | DSRC_OP_LOAD | lvl_hit | (uint64_t)DSRC_LVL_L3 << DSRC_LVL_SHIFT |
		       (uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT;
	if (!strcmp(k, "rhitm"))
		return base | DSRC_OP_LOAD | lvl_hit | (uint64_t)DSRC_LVL_REM_CCE1 << DSRC_LVL_SHIFT |
		       (uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT |
		       (uint64_t)DSRC_REMOTE << DSRC_REMOTE_SHIFT;
	if (!strcmp(k, "store"))
		return base | DSRC_OP_STORE | lvl_hit | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT |
		       (uint64_t)DSRC_SNOOP_NA << DSRC_SNOOP_SHIFT;
	return 0;
}

static struct td_state *td_state(struct gen *g, uint32_t cpu, uint32_t tid)
{
	int i;

	for (i = 0; i < g->nr_st; i++)
		if (g->st[i].cpu == cpu && g->st[i].tid == tid)
			return &g->st[i];
	if (g->nr_st == MAX_STATE)
		return NULL;
	g->st[g->nr_st] = (struct td_state){ .cpu = cpu, .tid = tid };
	return &g->st[g->nr_st++];
}

static int emit_sample(struct gen *g, struct trace_sample *s)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };
	struct td_state *t;
	int i;

	s->time = ++g->time;
	if (g->td_nr && (t = td_state(g, s->cpu, s->tid))) {
		t->slots += g->td_slots;
		s->td_slots = t->slots;
		s->td_nr = (uint8_t)g->td_nr;
		for (i = 0; i < g->td_nr; i++) {
			t->m[i] += (uint64_t)(g->td_pct[i] * (double)g->td_slots / 100.0 + 0.5);
			s->td[i] = t->m[i];
		}
		s->flags |= TRACE_SAMPLE_TOPDOWN;
	}
	ev.sample = *s;
	return trace_write(g->w, &ev);
}

static int do_sample(struct gen *g, char *args)
{
	unsigned long long ip, addr;
	unsigned pid, tid, cpu, count, i;
	char kind[16];
	struct trace_sample s;
	int err = 0;

	if (sscanf(args, "%u %u %u %lli %lli %15s %u", &pid, &tid, &cpu, &ip, &addr, kind,
		   &count) != 7 || !kind_dsrc(kind))
		return -EINVAL;
	for (i = 0; i < count && !err; i++) {
		s = (struct trace_sample){ .ip = ip, .addr = addr, .pid = pid, .tid = tid,
			.cpu = cpu, .cpumode = 2, .data_src = kind_dsrc(kind), .weight = 100,
			.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
				 TRACE_SAMPLE_HAS_WEIGHT };
		err = emit_sample(g, &s);
	}
	return err;
}

static int do_mmap(struct gen *g, char *args)
{
	unsigned long long start, len, pgoff;
	unsigned pid, prot;
	char file[4096];
	struct trace_event ev = { .type = TRACE_REC_MMAP };

	if (sscanf(args, "%u %lli %lli %lli %u %4095s", &pid, &start, &len, &pgoff, &prot,
		   file) != 6)
		return -EINVAL;
	ev.mmap = (struct trace_mmap){ .time = ++g->time, .pid = pid, .tid = pid, .start = start,
		.len = len, .pgoff = pgoff, .prot = prot, .flags = 2, .maj = 8, .min = 1,
		.ino = 1234, .cpumode = 2, .filename = file };
	return trace_write(g->w, &ev);
}

static int do_comm(struct gen *g, char *args)
{
	unsigned pid, tid;
	char name[64];
	struct trace_event ev = { .type = TRACE_REC_COMM };

	if (sscanf(args, "%u %u %63s", &pid, &tid, name) != 3)
		return -EINVAL;
	ev.comm = (struct trace_comm){ .time = ++g->time, .pid = pid, .tid = tid, .comm = name };
	return trace_write(g->w, &ev);
}

static int do_td(struct gen *g, char *args)
{
	unsigned long long slots;
	double *p = g->td_pct;
	int n = sscanf(args, "%llu %lf %lf %lf %lf %lf %lf %lf %lf", &slots, &p[0], &p[1], &p[2],
		       &p[3], &p[4], &p[5], &p[6], &p[7]);

	if (n != 5 && n != 9)
		return -EINVAL;
	g->td_slots = slots;
	g->td_nr = n - 1;
	return 0;
}

static int do_line(struct gen *g, char *line)
{
	char *hash = strchr(line, '#'), *args;

	if (hash)
		*hash = 0;
	line += strspn(line, " \t\n");
	if (!*line)
		return 0;
	args = line + strcspn(line, " \t");
	if (!strncmp(line, "mmap ", 5))
		return do_mmap(g, args);
	if (!strncmp(line, "comm ", 5))
		return do_comm(g, args);
	if (!strncmp(line, "sample ", 7))
		return do_sample(g, args);
	if (!strncmp(line, "td ", 3))
		return do_td(g, args);
	return -EINVAL;
}

static void fill_info(struct trace_info *info, struct trace_event_desc *ev, int32_t *cpu_node,
		      int topdown)
{
	static const char *const names[] = {
		"cpu/mem-loads,ldlat=30/P", "cpu/mem-stores/P", "cpu/topdown-retiring/",
		"cpu/topdown-bad-spec/", "cpu/topdown-fe-bound/", "cpu/topdown-be-bound/",
		"cpu/topdown-heavy-ops/", "cpu/topdown-br-mispredict/", "cpu/topdown-fetch-lat/",
		"cpu/topdown-mem-bound/",
	};
	int i, n = topdown ? 10 : 2;

	for (i = 0; i < n; i++)
		ev[i] = (struct trace_event_desc){ .name = (char *)names[i],
			.backend = TRACE_BACKEND_SYNTHETIC, .type = 4 };
	for (i = 0; i < 4; i++)
		cpu_node[i] = 0;
	*info = (struct trace_info){ .flags = TRACE_INFO_SYNTHETIC, .cmdline = (char *)"advice-gen",
		.hostname = (char *)"advice-gen-host", .kernel_release = (char *)"6.1.0-synthetic",
		.arch = (char *)"x86_64", .cpu_vendor = (char *)"GenuineIntel", .cpu_family = 6,
		.cpu_model = 143, .cpu_desc = (char *)"Synthetic CPU", .pmu_name = (char *)"synthetic",
		.backend = TRACE_BACKEND_SYNTHETIC, .options = (char *)"", .cacheline_size = 64,
		.nr_cpus = 4, .cpu_node = cpu_node, .nr_nodes = 1, .nr_events = (uint32_t)n,
		.events = ev };
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "topdown", no_argument, NULL, 't' }, { NULL, 0, NULL, 0 },
	};
	struct trace_event_desc ev[10];
	struct trace_info info;
	int32_t cpu_node[4];
	struct gen g = { 0 };
	const char *out = NULL;
	char line[8192];
	int c, err = 0, lineno = 0;

	while ((c = getopt_long(argc, argv, "o:t", lopts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 't')
			g.td_on = 1;
		else
			return 2;
	}
	if (!out) {
		fprintf(stderr, "usage: advice-gen -o OUT.c2c [--topdown] < SCRIPT\n");
		return 2;
	}
	fill_info(&info, ev, cpu_node, g.td_on);
	if ((err = trace_writer_open(&g.w, out, &info, NULL))) {
		fprintf(stderr, "advice-gen: cannot create '%s': %s\n", out, strerror(-err));
		return 1;
	}
	while (!err && fgets(line, sizeof(line), stdin)) {
		lineno++;
		if ((err = do_line(&g, line)))
			fprintf(stderr, "advice-gen: script line %d: %s\n", lineno,
				err == -EINVAL ? "cannot parse it" : strerror(-err));
	}
	if (trace_writer_close(g.w) && !err)
		err = -EIO;
	return err ? 1 : 0;
}
