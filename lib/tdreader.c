/* The TopDown reader blob (see include/c2c/tdreader.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "c2c/tdreader.h"
#include "lib/textkv.h"

#define TDR_MAGIC "c2c-topdown 1"

static const char *const in_names[TDI_NR] = {
	[TDI_SLOTS] = "slots", [TDI_RETIRING] = "retiring", [TDI_BAD_SPEC] = "bad-spec",
	[TDI_FE_BOUND] = "fe-bound", [TDI_BE_BOUND] = "be-bound", [TDI_HEAVY_OPS] = "heavy-ops",
	[TDI_BR_MISPREDICT] = "br-mispredict", [TDI_FETCH_LAT] = "fetch-lat",
	[TDI_MEM_BOUND] = "mem-bound", [TDI_CYCLES] = "cycles",
	[TDI_AMD_DISPATCHED] = "amd-dispatched", [TDI_AMD_RET_OPS] = "amd-ret-ops",
	[TDI_AMD_FE_EMPTY] = "amd-fe-empty", [TDI_AMD_BE_STALLS] = "amd-be-stalls",
	[TDI_AMD_SMT] = "amd-smt", [TDI_AMD_FE_LAT_CYC] = "amd-fe-lat-cyc",
	[TDI_AMD_LD_NOT_DONE] = "amd-ld-not-done", [TDI_AMD_NOT_DONE] = "amd-not-done",
	[TDI_AMD_UCODE_OPS] = "amd-ucode-ops", [TDI_ARM_STALL_SLOT] = "arm-stall-slot",
	[TDI_ARM_STALL_SLOT_FE] = "arm-stall-slot-fe", [TDI_ARM_STALL_SLOT_BE] = "arm-stall-slot-be",
	[TDI_ARM_OP_SPEC] = "arm-op-spec", [TDI_ARM_OP_RETIRED] = "arm-op-retired",
	[TDI_ARM_STALL_FE] = "arm-stall-fe", [TDI_ARM_STALL_BE] = "arm-stall-be",
	[TDI_ARM_INST_SPEC] = "arm-inst-spec", [TDI_ARM_INST_RETIRED] = "arm-inst-retired",
	[TDI_INTEL_SLOTS_ISSUED] = "intel-slots-issued",
	[TDI_INTEL_SLOTS_RETIRED] = "intel-slots-retired",
	[TDI_INTEL_FETCH_BUBBLES] = "intel-fetch-bubbles",
	[TDI_INTEL_RECOVERY_CYC] = "intel-recovery-cyc",
	[TDI_AMD_BRN_MISP] = "amd-brn-misp", [TDI_AMD_RESYNCS] = "amd-resyncs",
};

static const char *const kind_names[] = {
	[TD_KIND_NONE] = "none", [TD_KIND_INTEL_METRICS] = "intel-metrics",
	[TD_KIND_AMD_SLOTS] = "amd-slots", [TD_KIND_ARM_SLOTS] = "arm-slots",
	[TD_KIND_ARM_CYCLES] = "arm-cycles", [TD_KIND_INTEL_SLOTS4] = "intel-slots4",
};

#define NKINDS (sizeof(kind_names) / sizeof(kind_names[0]))

const char *td_in_name(enum td_in i)
{
	return (unsigned)i < TDI_NR ? in_names[i] : NULL;
}

int td_in_by_name(const char *name)
{
	for (int i = 0; i < TDI_NR; i++)
		if (in_names[i] && !strcmp(in_names[i], name))
			return i;
	return -1;
}

int td_reader_format(const struct td_reader *r, char *buf, size_t len)
{
	size_t off = 0;

	if ((unsigned)r->model.kind >= NKINDS || !td_in_name((enum td_in)r->lead) ||
	    r->nr > TRACE_TD_MAX || !len)
		return -1;
	if (textkv_put(buf, len, &off, TDR_MAGIC "\nmodel %s\ncpu %s\nwidth %u\nn2-erratum %d\nscope %s\n"
		"period %" PRIu64 "\nreader %u\nlead %s\n", kind_names[r->model.kind], r->model.cpu,
		r->model.width, r->model.n2_erratum ? 1 : 0, r->scope_cpu ? "cpu" : "thread",
		r->period, r->event, td_in_name((enum td_in)r->lead)))
		return -1;
	for (uint32_t i = 0; i < r->nr; i++) {
		const char *n = td_in_name((enum td_in)r->in[i]);

		if (!n || textkv_put(buf, len, &off, "value %u %s\n", i, n))
			return -1;
	}
	return (int)off;
}

struct parse_ctx {
	struct td_reader *r;
	int have_model, have_lead;
};

static int u64_only(const char *s, uint64_t *v, uint64_t max)
{
	const char *end;

	return textkv_u64(s, v, &end) || *end || *v > max ? -1 : 0;
}

static int parse_value(struct td_reader *r, const char *val)
{
	const char *end;
	uint64_t i;
	int in;

	if (textkv_u64(val, &i, &end) || *end != ' ' || i >= TRACE_TD_MAX ||
	    (in = td_in_by_name(end + 1)) < 0)
		return -1;
	r->in[i] = in;
	if (r->nr < i + 1)
		r->nr = (uint32_t)i + 1;
	return 0;
}

static int parse_line(const char *key, const char *val, void *ctx)
{
	struct parse_ctx *p = ctx;
	struct td_reader *r = p->r;
	uint64_t v;

	if (!strcmp(key, "model")) {
		for (size_t k = 1; k < NKINDS; k++)
			if (!strcmp(val, kind_names[k])) {
				r->model.kind = (enum td_kind)k;
				p->have_model = 1;
				return 0;
			}
		return -1;
	}
	if (!strcmp(key, "cpu")) {
		snprintf(r->model.cpu, sizeof(r->model.cpu), "%s", val);
		return 0;
	}
	if (!strcmp(key, "width")) {
		if (u64_only(val, &v, 64))
			return -1;
		r->model.width = (unsigned)v;
		return 0;
	}
	if (!strcmp(key, "n2-erratum")) {
		if (u64_only(val, &v, 1))
			return -1;
		r->model.n2_erratum = (int)v;
		return 0;
	}
	if (!strcmp(key, "scope")) {
		if (strcmp(val, "cpu") && strcmp(val, "thread"))
			return -1;
		r->scope_cpu = !strcmp(val, "cpu");
		return 0;
	}
	if (!strcmp(key, "period"))
		return u64_only(val, &r->period, UINT64_MAX);
	if (!strcmp(key, "reader")) {
		if (u64_only(val, &v, UINT16_MAX))   /* trace_sample.event is 16 bits */
			return -1;
		r->event = (uint32_t)v;
		return 0;
	}
	if (!strcmp(key, "lead")) {
		if ((r->lead = td_in_by_name(val)) < 0)
			return -1;
		p->have_lead = 1;
		return 0;
	}
	if (!strcmp(key, "value"))
		return parse_value(r, val);
	return 0;   /* a later version's key */
}

int td_reader_parse(const void *text, size_t len, struct td_reader *r)
{
	struct parse_ctx p = { .r = r };

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < TRACE_TD_MAX; i++)
		r->in[i] = -1;
	r->lead = -1;
	if (textkv_parse(text, len, TDR_MAGIC, 128, parse_line, &p) || !p.have_model ||
	    !p.have_lead)
		return -EBADMSG;
	for (uint32_t i = 0; i < r->nr; i++)
		if (r->in[i] < 0)
			return -EBADMSG;   /* a hole in the values */
	return 0;
}

void td_reader_counts(const struct td_reader *r, const struct trace_sample *s, struct td_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (r->lead >= 0 && r->lead < TDI_NR) {
		c->v[r->lead] = s->td_slots;
		c->have |= 1ull << r->lead;
	}
	for (uint32_t i = 0; i < r->nr && i < s->td_nr && i < TRACE_TD_MAX; i++) {
		if (r->in[i] < 0 || r->in[i] >= TDI_NR)
			continue;
		c->v[r->in[i]] = s->td[i];
		c->have |= 1ull << r->in[i];
	}
}
