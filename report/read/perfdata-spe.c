/* perf.data reader: Arm SPE. The AUXTRACE_INFO record starts an SPE session (report/read/spe.h)
 * as perf's arm_spe_process_auxtrace_info() does: the PMU type of the SPE event, the MIDR from the
 * CPUID feature, the TIME_CONV read before it, and the buffers of the HEADER_AUXTRACE index when
 * the file has one (else each AUXTRACE record's buffer as it is read). Every record of the file
 * is shown to the session before it is delivered, so that the samples come out where perf puts
 * them; the side-band keeps the session's view of the threads. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/spe.h"
#include "report/read/perfdata-int.h"
#include "report/read/spe.h"

#define PD_AUXTRACE_HDR     48          /* sizeof(struct perf_record_auxtrace) */
#define PD_SPE_INFO_MIN     32          /* AUXTRACE_INFO header + priv[ARM_SPE_AUXTRACE_PRIV_MAX] */
#define PD_SPE_PRESCAN_MAX  4096        /* records looked at for AUXTRACE_INFO at open */

/* The attr of the SPE event: the first whose type is the AUXTRACE_INFO's PMU type; -1 none. */
static int spe_attr(const struct perfdata_reader *r, uint64_t pmu_type)
{
	uint32_t i;

	for (i = 0; i < r->nr_attr; i++)
		if (r->attr[i].type == pmu_type)
			return (int)i;
	return -1;
}

/* priv[0] is the PMU type for perf 6.1; perf 6.8 and later write a versioned header (priv[0]
 * version, priv[1] its size, priv[2] the PMU type) that perf 6.1 misreads: take priv[2] when
 * priv[0] names no event and priv[2] does. */
static int spe_pmu_type(const struct perfdata_reader *r, const uint8_t *rec, uint16_t size,
			uint64_t *type)
{
	*type = pd_u64(r, rec + 16);
	if (spe_attr(r, *type) >= 0 || size < 16 + 3 * 8)
		return 0;
	if (spe_attr(r, pd_u64(r, rec + 32)) >= 0) {
		*type = pd_u64(r, rec + 32);
		return 1;
	}
	return 0;
}

/* File mode: the AUXTRACE_INFO record, looked for among the first records (perf writes it with
 * the synthesized side-band, before any sample), so that the info names the memory event from
 * the start. */
void pd_spe_prescan(struct perfdata_reader *r)
{
	uint64_t pos = r->data_off;
	unsigned int n;

	for (n = 0; n < PD_SPE_PRESCAN_MAX && pos + 8 <= r->data_end; n++) {
		uint32_t type = pd_u32(r, r->base + pos);
		uint16_t size = pd_u16(r, r->base + pos + 6);

		if (size < 8 || pos + size > r->data_end)
			return;
		if (type == PD_SAMPLE || type == PD_FINISHED_ROUND)
			return;
		if (type == PD_AUXTRACE_INFO && size >= 16 &&
		    pd_u32(r, r->base + pos + 8) == PD_AUX_ARM_SPE) {
			r->spe_seen = 1;
			if (size >= PD_SPE_INFO_MIN)
				spe_pmu_type(r, r->base + pos, size, &r->spe_pmu);
			return;
		}
		if (type == PD_AUXTRACE && size >= 16)
			pos += pd_u64(r, r->base + pos + 8);
		pos += size;
	}
}

/* The synthesized "memory" event of arm_spe_synth_events() (build_events() asks for it). */
int pd_spe_event_desc(const struct perfdata_reader *r, struct trace_event_desc *e)
{
	int a = r->spe_seen ? spe_attr(r, r->spe_pmu) : -1;
	int timeless = 1;

	if (a < 0 || (r->opts & PERFDATA_SPE_RAW))
		return 0;
	for (uint32_t i = 0; i < r->nr_attr; i++)
		if (r->attr[i].sample_type & PD_S_TIME)
			timeless = 0;
	spe_memory_desc(r->attr[a].sample_type, r->attr[a].flags, timeless, e);
	return 1;
}

void pd_spe_time_conv(struct perfdata_reader *r, const uint8_t *rec, uint16_t size)
{
	struct spe_tc *tc = &r->spe_tc;

	if (size < 32) {
		c2c_warn("'%s': TIME_CONV record of %u bytes ignored", r->name, size);
		return;
	}
	memset(tc, 0, sizeof(*tc));
	tc->time_shift = (uint16_t)pd_u64(r, rec + 8);
	tc->time_mult = (uint32_t)pd_u64(r, rec + 16);
	tc->time_zero = pd_u64(r, rec + 24);
	/* perf takes the fields from time_cycles on when the record holds time_cycles */
	if (size >= 40) {
		tc->time_cycles = pd_u64(r, rec + 32);
		tc->time_mask = size >= 48 ? pd_u64(r, rec + 40) : 0;
		tc->cap_user_time_zero = size >= 49 ? rec[48] : 0;
		tc->cap_user_time_short = size >= 50 ? rec[49] : 0;
	}
}

/* One AUXTRACE record at file offset @off, its payload at @data (@avail bytes of it present). */
static void add_auxtrace(struct perfdata_reader *r, const uint8_t *rec, const uint8_t *data,
			 uint64_t avail, uint64_t off, int copy)
{
	uint64_t size = pd_u64(r, rec + 8);
	uint32_t idx = pd_u32(r, rec + 32);
	int32_t tid = (int32_t)pd_u32(r, rec + 36), cpu = (int32_t)pd_u32(r, rec + 40);

	if (avail < size) {
		c2c_warn("'%s': offset %" PRIu64 ": AUXTRACE record of %" PRIu64 " bytes cut short "
			 "at %" PRIu64 " bytes", r->name, off, size, avail);
		size = avail;
	}
	spe_add_buffer(r->spe, idx, cpu, tid, data, size, off + pd_u16(r, rec + 6), copy);
}

/* auxtrace_queues__process_index(): the buffers the HEADER_AUXTRACE index lists, at once. */
static int queue_index(struct perfdata_reader *r)
{
	const uint8_t *p = r->aux_index;
	uint64_t nr, i, off, sz, size, queued = 0;

	if (!p || r->aux_index_len < 8 || r->stream || r->nr_dir)
		return 0;
	nr = pd_u64(r, p);
	if (nr > (r->aux_index_len - 8) / 16) {
		c2c_warn("'%s': the AUXTRACE index lists %" PRIu64 " buffers in %zu bytes: ignored",
			 r->name, nr, r->aux_index_len);
		return 0;
	}
	for (i = 0; i < nr; i++) {
		off = pd_u64(r, p + 8 + 16 * i);
		sz = pd_u64(r, p + 16 + 16 * i);
		if (off > r->len || r->len - off < PD_AUXTRACE_HDR) {
			c2c_warn("'%s': the AUXTRACE index names offset %" PRIu64 ", past the end of the "
				 "file: the index is ignored", r->name, off);
			return queued ? 1 : 0;
		}
		if (pd_u32(r, r->base + off) != PD_AUXTRACE)
			continue;   /* perf passes over entries of other types */
		size = pd_u16(r, r->base + off + 6);
		if (size < PD_AUXTRACE_HDR || size != sz) {
			c2c_warn("'%s': offset %" PRIu64 ": AUXTRACE record of %" PRIu64 " bytes where the "
				 "index says %" PRIu64 ": the rest of the index is ignored", r->name, off,
				 size, sz);
			return queued ? 1 : 0;
		}
		add_auxtrace(r, r->base + off, r->base + off + size, r->len - off - size, off, 0);
		queued++;
	}
	return queued ? 1 : 0;
}

static struct spe_opts session_opts(const struct perfdata_reader *r, int a)
{
	const struct pd_attr *at = &r->attr[a];
	struct spe_opts o = {
		.name = r->name,
		.midr = spe_midr_from_cpuid(r->cpuid),
		.tc = r->spe_tc,
		.timeless = 1,
		/* a pipe-mode file is read as perf reads it: each buffer copied (auxtrace_copy_data()) */
		.in_place = !r->pipe,
		/* machine__kernel_start(): 2^63 unless the kernel map's symbols load on a host that
		 * is not x86_64 (docs/perf-differences.md) */
		.kernel_start = 1ull << 63,
		.sample_flags = TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_WEIGHT | TRACE_SAMPLE_HAS_DSRC,
	};

	for (uint32_t i = 0; i < r->nr_attr; i++)
		if (r->attr[i].sample_type & PD_S_TIME)
			o.timeless = 0;
	if (at->sample_type & PD_S_CPU)
		o.sample_flags |= TRACE_SAMPLE_HAS_CPU;
	if (at->sample_type & PD_S_PHYS_ADDR)
		o.sample_flags |= TRACE_SAMPLE_HAS_PHYS;
	return o;
}

/* arm_spe_process_auxtrace_info() */
void pd_spe_info(struct perfdata_reader *r, const uint8_t *rec, uint16_t size, uint64_t off)
{
	struct spe_opts o;
	uint64_t type;
	int a;

	if (r->spe)
		return;
	if (r->opts & PERFDATA_SPE_RAW) {
		if (size >= PD_SPE_INFO_MIN)
			spe_pmu_type(r, rec, size, &r->spe_pmu);
		r->spe_seen = 1;
		return;
	}
	if (size < PD_SPE_INFO_MIN) {
		c2c_warn("'%s': offset %" PRIu64 ": Arm SPE AUXTRACE_INFO record of %u bytes is too "
			 "short: the SPE data is not decoded", r->name, off, size);
		return;
	}
	if (spe_pmu_type(r, rec, size, &type))
		c2c_warn("'%s': Arm SPE AUXTRACE_INFO of a newer perf: PMU type %" PRIu64 " taken from "
			 "priv[2] (perf 6.1 finds no SPE event and decodes nothing)", r->name, type);
	a = spe_attr(r, type);
	if (a < 0) {
		c2c_warn("'%s': no event of the Arm SPE PMU (type %" PRIu64 "): the SPE data is not "
			 "decoded", r->name, type);
		return;
	}
	o = session_opts(r, a);
	r->spe = spe_new(&o);
	r->spe_seen = 1;
	r->spe_pmu = type;
	r->spe_attr = (uint32_t)a;
	r->spe_queued = queue_index(r);
}

/* An AUXTRACE record read from the data: its buffer joins its queue unless the index queued
 * them all already. 1 when the session took it. */
int pd_spe_auxtrace(struct perfdata_reader *r, const uint8_t *rec, uint64_t total, int vol,
		    uint64_t off)
{
	uint16_t size = pd_u16(r, rec + 6);

	if (!r->spe)
		return 0;
	if (!r->spe_queued && size >= PD_AUXTRACE_HDR && total >= size)
		add_auxtrace(r, rec, rec + size, total - size, off, vol);
	return 1;
}

/* The CPU in the sample id of a record of attr @attr, -1 without. */
static int32_t trailer_cpu(const struct perfdata_reader *r, const uint8_t *rec, uint32_t attr)
{
	const struct pd_attr *a = &r->attr[attr];
	uint16_t size = pd_u16(r, rec + 6);

	if (a->tr_cpu < 0 || a->trailer + 8 > size)
		return -1;
	return (int32_t)pd_u32(r, rec + size - a->trailer + a->tr_cpu);
}

/* A record is next: the session decodes what lies before it (arm_spe_process_event()). */
void pd_spe_pre(struct perfdata_reader *r, const struct pd_qent *e)
{
	uint32_t type = pd_u32(r, e->rec);
	uint16_t misc = pd_u16(r, e->rec + 4), size = pd_u16(r, e->rec + 6);
	int32_t pid = -1, tid = -1, cpu = -1;

	if (type == PD_SWITCH || type == PD_SWITCH_CPU_WIDE) {
		/* next_prev_pid/tid; a PERF_RECORD_SWITCH has none, perf reads its sample id there */
		if (size >= 16) {
			pid = (int32_t)pd_u32(r, e->rec + 8);
			tid = (int32_t)pd_u32(r, e->rec + 12);
		}
		cpu = trailer_cpu(r, e->rec, e->attr);
	} else if (type == PD_EXIT && size >= 24) {
		tid = (int32_t)pd_u32(r, e->rec + 16);
	}
	spe_event(r->spe, e->time, type, !!(misc & PD_MISC_SWITCH_OUT), cpu, pid, tid);
}

int perfdata_reader_spe_facts(const struct perfdata_reader *r, struct c2c_spe_info *out)
{
	const struct spe_tc *tc = &r->spe_tc;

	c2c_spe_info_init(out);
	if (!r->spe_seen)
		return -ENOENT;
	snprintf(out->pmu, sizeof(out->pmu), "arm_spe_0");
	out->pmu_type = (uint32_t)r->spe_pmu;
	out->per_cpu = 1;
	out->switch_events = 1;
	out->cpuid_midr = spe_midr_from_cpuid(r->cpuid);
	/* perf writes a TIME_CONV only when the kernel gives a conversion (cap_user_time_zero);
	 * an old, shorter record lacks the flag but converts all the same */
	out->tc = (struct c2c_time_conv){ tc->time_shift, tc->time_mult, tc->time_zero,
					  tc->time_cycles, tc->time_mask, tc->time_mult != 0,
					  tc->cap_user_time_short };
	return 0;
}
