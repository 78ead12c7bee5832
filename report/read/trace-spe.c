/* Arm SPE in c2c-lite traces (see trace-spe.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/spe.h"
#include "c2c/xalloc.h"
#include "report/read/spe.h"
#include "report/read/trace-spe.h"

#define S_TIME   (1ull << 2)           /* PERF_SAMPLE_TIME */
#define S_CPU    (1ull << 7)
#define S_PHYS   (1ull << 19)
#define SW_SOFTWARE 1                  /* PERF_TYPE_SOFTWARE: dummy:u */
/* the perf record types spe_event() tells apart */
enum { R_MMAP2 = 10, R_LOST = 2, R_COMM = 3, R_EXIT = 4, R_FORK = 7, R_SAMPLE = 9, R_AUX = 11,
       R_ITRACE_START = 12, R_SWITCH = 14, R_SWITCH_CPU_WIDE = 15 };

struct trace_spe {
	struct trace_reader *tr;
	char *name;
	int stream;
	struct trace_info info;            /* the trace's, its events with "memory" appended */
	int spe_ev;                        /* the SPE event the memory event is made from, -1 */
	struct spe *spe;
	int have_facts;
	uint64_t nr_aux;                   /* AUX blobs seen without a session */
	/* delivery */
	int pending, flushed, have_held;
	struct trace_event held;
};

static int timeless(const struct trace_info *in)
{
	for (uint32_t i = 0; i < in->nr_events; i++)
		if (in->events[i].sample_type & S_TIME)
			return 0;
	return 1;
}

/* The SPE event: of the facts' PMU type when known, else the first SPE event that is no
 * software event (record's dummy:u). */
static int spe_event_of(const struct trace_info *in, int have_type, uint32_t type)
{
	for (uint32_t i = 0; i < in->nr_events; i++) {
		const struct trace_event_desc *e = &in->events[i];

		if (have_type ? e->type == type :
		    e->backend == TRACE_BACKEND_SPE && e->type != SW_SOFTWARE)
			return (int)i;
	}
	return -1;
}

/* arm_spe_process_auxtrace_info(), from the facts blob */
static void start(struct trace_spe *t, const struct trace_blob *b)
{
	const struct trace_info *in = trace_reader_info(t->tr);
	const struct trace_event_desc *e;
	struct c2c_spe_info f;
	struct spe_opts o = {
		.name = t->name,
		.timeless = timeless(in),
		.revive = t->stream,
		.in_place = 1,               /* file_off is the AUX offset */
		.kernel_start = 1ull << 63,
		.sample_flags = TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_WEIGHT |
				TRACE_SAMPLE_HAS_DSRC,
	};
	int a;

	if (t->have_facts)
		return;
	t->have_facts = 1;
	if (c2c_spe_info_parse(b->data, (size_t)b->size, &f)) {
		c2c_warn("'%s': the Arm SPE facts blob cannot be read: the SPE data is not decoded",
			 t->name);
		return;
	}
	a = spe_event_of(in, 1, f.pmu_type);
	if (a < 0) {
		c2c_warn("'%s': no event of the Arm SPE PMU (type %u): the SPE data is not decoded",
			 t->name, f.pmu_type);
		c2c_spe_info_release(&f);
		return;
	}
	e = &in->events[a];
	o.midr = f.cpuid_midr;
	if (f.tc.cap_user_time_zero)   /* else perf writes no TIME_CONV */
		o.tc = (struct spe_tc){ f.tc.time_shift, f.tc.time_mult, f.tc.time_zero,
					f.tc.time_cycles, f.tc.time_mask, f.tc.cap_user_time_zero,
					f.tc.cap_user_time_short };
	if (e->sample_type & S_CPU)
		o.sample_flags |= TRACE_SAMPLE_HAS_CPU;
	if (e->sample_type & S_PHYS)
		o.sample_flags |= TRACE_SAMPLE_HAS_PHYS;
	c2c_spe_info_release(&f);
	if (a != t->spe_ev) {
		c2c_warn("'%s': the Arm SPE PMU (type %u) is not the trace's first SPE event: the "
			 "SPE data is not decoded", t->name, e->type);
		return;
	}
	t->spe = spe_new(&o);
}

static void take_blob(struct trace_spe *t, const struct trace_blob *b)
{
	if (b->kind == TRACE_BLOB_SPE_INFO)
		start(t, b);
	else if (b->kind == TRACE_BLOB_SPE_AUX && !t->spe)
		t->nr_aux++;
	else if (b->kind == TRACE_BLOB_SPE_AUX && b->size)
		spe_add_buffer(t->spe, b->cpu, (int32_t)b->cpu, -1, b->data, b->size, b->offset, 1);
}

/* The facts and every AUX buffer, before the first record is delivered. */
static void prescan(struct trace_spe *t, const char *path)
{
	enum c2c_log_level lv = c2c_log_get_level();
	struct trace_reader *r;
	struct trace_event ev;
	int rc;

	if (trace_reader_open(&r, path))
		return;
	/* what is wrong with the trace is said once, by the reading that delivers it */
	for (;;) {
		c2c_log_set_level(C2C_LOG_ERROR);
		rc = trace_reader_next(r, &ev);
		c2c_log_set_level(lv);
		if (rc <= 0)
			break;
		if (ev.type == TRACE_REC_BLOB)
			take_blob(t, &ev.blob);
	}
	trace_reader_free(r);
}

void trace_spe_open(struct trace_spe **out, struct trace_reader *tr, const char *path, int stream)
{
	const struct trace_info *in = trace_reader_info(tr);
	struct trace_spe *t;

	*out = NULL;
	if (!(in->flags & TRACE_INFO_SPE_RAW))
		return;
	t = xcalloc(1, sizeof(*t));
	t->tr = tr;
	t->name = xstrdup(path);
	t->stream = stream;
	t->info = *in;
	t->spe_ev = spe_event_of(in, 0, 0);
	if (t->spe_ev >= 0 && in->nr_events < UINT16_MAX) {
		t->info.events = xcalloc(in->nr_events + 1u, sizeof(*t->info.events));
		memcpy(t->info.events, in->events, in->nr_events * sizeof(*in->events));
		spe_memory_desc(in->events[t->spe_ev].sample_type,
				in->events[t->spe_ev].attr_flags, timeless(in),
				&t->info.events[t->info.nr_events++]);
	} else {
		t->spe_ev = -1;   /* nothing appended: the SPE data is not decoded */
	}
	if (!stream)
		prescan(t, path);
	*out = t;
}

const struct trace_info *trace_spe_info(const struct trace_spe *t)
{
	return &t->info;
}

/* The record is next: the session decodes what lies before it (arm_spe_process_event()). 0 for
 * what perf.data holds no kernel record of. */
static int pre(struct trace_spe *t, const struct trace_event *ev)
{
	const struct trace_switch *sw = &ev->sw;
	uint32_t type;
	uint64_t time;
	int32_t cpu = -1, pid = -1, tid = -1;

	switch (ev->type) {
	case TRACE_REC_SAMPLE: type = R_SAMPLE; time = ev->sample.time; break;
	case TRACE_REC_MMAP: type = R_MMAP2; time = ev->mmap.time; break;
	case TRACE_REC_COMM: type = R_COMM; time = ev->comm.time; break;
	case TRACE_REC_FORK: type = R_FORK; time = ev->task.time; break;
	case TRACE_REC_EXIT:
		type = R_EXIT;
		time = ev->task.time;
		tid = (int32_t)ev->task.tid;
		break;
	case TRACE_REC_LOST: type = R_LOST; time = ev->lost.time; break;
	case TRACE_REC_AUX: type = R_AUX; time = ev->aux.time; break;
	case TRACE_REC_ITRACE_START: type = R_ITRACE_START; time = ev->itrace.time; break;
	case TRACE_REC_SWITCH:
		/* next_prev_pid/tid; a PERF_RECORD_SWITCH has none, perf reads its sample id there */
		type = sw->flags & TRACE_SWITCH_CPU_WIDE ? R_SWITCH_CPU_WIDE : R_SWITCH;
		time = sw->time;
		cpu = sw->cpu == TRACE_CPU_NONE ? -1 : (int32_t)sw->cpu;
		pid = (int32_t)(type == R_SWITCH ? sw->pid : sw->next_prev_pid);
		tid = (int32_t)(type == R_SWITCH ? sw->tid : sw->next_prev_tid);
		break;
	default:
		return 0;
	}
	spe_event(t->spe, time, type, !!(ev->type == TRACE_REC_SWITCH &&
					 (sw->flags & TRACE_SWITCH_OUT)), cpu, pid, tid);
	return 1;
}

int trace_spe_next(struct trace_spe *t, struct trace_event *ev)
{
	int rc;

	for (;;) {
		if (t->pending) {
			if (spe_next(t->spe, &ev->sample)) {
				ev->type = TRACE_REC_SAMPLE;
				ev->sample.event = (uint16_t)(t->info.nr_events - 1);
				return 1;
			}
			t->pending = 0;
		}
		if (t->have_held) {
			*ev = t->held;
			t->have_held = 0;
			spe_post(t->spe, ev);
			return 1;
		}
		rc = trace_reader_next(t->tr, ev);
		if (rc < 0)
			return rc;
		if (!rc) {
			if (t->spe && !t->flushed) {
				t->flushed = 1;
				spe_flush(t->spe);
				t->pending = 1;
				continue;
			}
			if (!t->spe && t->nr_aux && !t->flushed++)
				c2c_warn("'%s': %" PRIu64 " blobs of Arm SPE data and no facts blob "
					 "(PMU type, MIDR, clock) to decode them with: the report has no "
					 "SPE samples", t->name, t->nr_aux);
			return 0;
		}
		if (ev->type == TRACE_REC_BLOB && t->stream)
			take_blob(t, &ev->blob);
		if (t->spe && pre(t, ev)) {
			t->held = *ev;
			t->have_held = 1;
			t->pending = 1;
			continue;
		}
		return 1;
	}
}

void trace_spe_free(struct trace_spe *t)
{
	if (!t)
		return;
	spe_free(t->spe);
	if (t->spe_ev >= 0) {
		free(t->info.events[t->info.nr_events - 1].name);
		free(t->info.events);
	}
	free(t->name);
	free(t);
}
