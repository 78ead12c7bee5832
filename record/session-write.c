/* Writing a recording's trace (record/session-int.h): the writer opened, the records the queue
 * releases, the synthesized side-band, the blobs. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/spe.h"
#include "c2c/tdreader.h"
#include "c2c/trace.h"
#include "c2c/uncore.h"
#include "c2c/xalloc.h"
#include "record/events.h"
#include "record/machine.h"
#include "record/pmu.h"
#include "record/queue.h"
#include "record/ring.h"
#include "record/session-int.h"
#include "record/spe-info.h"
#include "record/synth.h"
#include "record/sysfs.h"
#include "record/uncore.h"
#include "record/unwind-rec.h"

/* Records leave the queue in time order: --call-graph dwarf unwinds each sample here, against
 * the mappings of the side-band records before it, whichever CPU's ring they came from. */
int sess_write_ev(const struct trace_event *ev, void *ctx)
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

static int emit_direct(const struct trace_event *ev, void *ctx)
{
	sess_side_band(ctx, ev);
	return sess_write_ev(ev, ctx);
}

int sess_synthesize(struct sess *s)
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

int sess_open_writer(struct sess *s)
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
int sess_write_spe_info(struct sess *s)
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
int sess_write_td_reader(struct sess *s)
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

/* A text blob of @n bytes (nothing when @n < 0: it did not fit), written at once, or queued in
 * time order with @queued. */
int sess_write_text_blob(struct sess *s, uint32_t kind, uint64_t time, const char *buf, int n,
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

/* The workload's wall and CPU time and its exit (include/c2c/run.h): what `diff` compares a
 * fix's before and after on. Nothing when there is no workload (-p, -a) or it never ran. */
int sess_write_run(struct sess *s)
{
	struct c2c_run r;
	char buf[256];

	if (workload_run(&s->wl, &r))
		return 0;
	return sess_write_text_blob(s, TRACE_BLOB_RUN, s->max_time, buf,
				    c2c_run_format(&r, buf, sizeof(buf)), 0);
}

/* AMD with uncore PMUs: the L3 and DF counts of the run as a blob (nothing elsewhere: doctor
 * says why a machine has none). */
int sess_write_uncore(struct sess *s)
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
