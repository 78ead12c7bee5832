/* The SPE recording facts blob: text form, parser and perf's time conversion
 * (include/c2c/spe.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/spe.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "lib/textkv.h"

#define SPE_MAGIC "c2c-spe-info 1"

void c2c_spe_info_init(struct c2c_spe_info *in)
{
	memset(in, 0, sizeof(*in));
	in->min_interval = in->count_size = in->arch_inst = in->ernd = UINT64_MAX;
}

void c2c_spe_info_release(struct c2c_spe_info *in)
{
	if (!in)
		return;
	free(in->midr);
	c2c_spe_info_init(in);
}

void c2c_spe_info_set_midr(struct c2c_spe_info *in, uint32_t cpu, uint64_t midr)
{
	uint32_t i = 0;

	while (i < in->nr_midr && in->midr[i].cpu < cpu)
		i++;
	if (i < in->nr_midr && in->midr[i].cpu == cpu) {
		in->midr[i].midr = midr;
		return;
	}
	in->midr = xrealloc(in->midr, (in->nr_midr + 1) * sizeof(*in->midr));
	memmove(&in->midr[i + 1], &in->midr[i], (in->nr_midr - i) * sizeof(*in->midr));
	in->midr[i] = (struct c2c_spe_midr){ .cpu = cpu, .midr = midr };
	in->nr_midr++;
}

uint64_t c2c_spe_info_midr(const struct c2c_spe_info *in, uint32_t cpu)
{
	uint32_t lo = 0, hi = in->nr_midr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (in->midr[mid].cpu == cpu)
			return in->midr[mid].midr;
		if (in->midr[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

struct sbuf {
	char *p;
	size_t len, cap;
};

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->p = xgrow(b->p, &b->cap, b->len + (n > 0 ? (size_t)n : 0) + 256, 1);
	}
	b->len += (size_t)n;
}

size_t c2c_spe_info_format(const struct c2c_spe_info *in, char **out)
{
	struct sbuf b = { xmalloc(512), 0, 512 };
	static const char *const cap_names[] = { "min_interval", "count_size", "arch_inst", "ernd" };
	const uint64_t caps[] = { in->min_interval, in->count_size, in->arch_inst, in->ernd };

	put(&b, "%s\npmu %s\npmu_type %" PRIu32 "\nper_cpu %u\nswitch_events %u\n", SPE_MAGIC,
	    in->pmu[0] ? in->pmu : "-", in->pmu_type, in->per_cpu, in->switch_events);
	for (size_t i = 0; i < 4; i++)
		if (caps[i] != UINT64_MAX)
			put(&b, "%s %" PRIu64 "\n", cap_names[i], caps[i]);
	put(&b, "aux_bytes %" PRIu64 "\n", in->aux_bytes);
	if (in->cpuid_midr)
		put(&b, "cpuid 0x%016" PRIx64 "\n", in->cpuid_midr);
	for (uint32_t i = 0; i < in->nr_midr; i++)
		put(&b, "midr %" PRIu32 " 0x%016" PRIx64 "\n", in->midr[i].cpu, in->midr[i].midr);
	put(&b, "time_shift %u\ntime_mult %" PRIu32 "\ntime_zero %" PRIu64 "\ntime_cycles %" PRIu64
	    "\ntime_mask 0x%" PRIx64 "\ncap_user_time_zero %u\ncap_user_time_short %u\n",
	    in->tc.time_shift, in->tc.time_mult, in->tc.time_zero, in->tc.time_cycles,
	    in->tc.time_mask, in->tc.cap_user_time_zero, in->tc.cap_user_time_short);
	*out = b.p;
	return b.len;
}

static int parse_line(const char *key, const char *val, void *ctx)
{
	struct c2c_spe_info *in = ctx;
	static const struct { const char *key; uint64_t max; } keys[] = {
		{ "pmu_type", UINT32_MAX }, { "per_cpu", 1 }, { "switch_events", 1 },
		{ "min_interval", UINT64_MAX - 1 }, { "count_size", UINT64_MAX - 1 },
		{ "arch_inst", UINT64_MAX - 1 }, { "ernd", UINT64_MAX - 1 },
		{ "aux_bytes", UINT64_MAX }, { "cpuid", UINT64_MAX }, { "time_shift", 63 },
		{ "time_mult", UINT32_MAX }, { "time_zero", UINT64_MAX },
		{ "time_cycles", UINT64_MAX }, { "time_mask", UINT64_MAX },
		{ "cap_user_time_zero", 1 }, { "cap_user_time_short", 1 },
	};
	uint64_t *dst[] = {
		NULL, NULL, NULL, &in->min_interval, &in->count_size, &in->arch_inst, &in->ernd,
		&in->aux_bytes, &in->cpuid_midr, NULL, NULL, &in->tc.time_zero, &in->tc.time_cycles,
		&in->tc.time_mask, NULL, NULL,
	};
	const char *e;
	uint64_t v, cpu;

	if (!strcmp(key, "pmu")) {
		if (strlen(val) >= sizeof(in->pmu))
			return -EBADMSG;
		snprintf(in->pmu, sizeof(in->pmu), "%s", strcmp(val, "-") ? val : "");
		return 0;
	}
	if (!strcmp(key, "midr")) {
		if (textkv_u64(val, &cpu, &e) || *e++ != ' ' || textkv_u64(e, &v, &e) || *e ||
		    cpu >= TRACE_CPU_MAX)
			return -EBADMSG;
		c2c_spe_info_set_midr(in, (uint32_t)cpu, v);
		return 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(key, keys[i].key))
			continue;
		if (textkv_u64(val, &v, &e) || *e || v > keys[i].max)
			return -EBADMSG;
		if (dst[i])
			*dst[i] = v;
		else if (i == 0)
			in->pmu_type = (uint32_t)v;
		else if (i == 1)
			in->per_cpu = (uint8_t)v;
		else if (i == 2)
			in->switch_events = (uint8_t)v;
		else if (i == 9)
			in->tc.time_shift = (uint16_t)v;
		else if (i == 10)
			in->tc.time_mult = (uint32_t)v;
		else if (i == 14)
			in->tc.cap_user_time_zero = (uint8_t)v;
		else
			in->tc.cap_user_time_short = (uint8_t)v;
		return 0;
	}
	return 0;                    /* a key of a later version */
}

int c2c_spe_info_parse(const void *buf, size_t len, struct c2c_spe_info *out)
{
	c2c_spe_info_init(out);
	if (textkv_parse(buf, len, SPE_MAGIC, 160, parse_line, out)) {
		c2c_spe_info_release(out);
		return -EBADMSG;
	}
	return 0;
}

uint64_t c2c_time_conv_to_ns(const struct c2c_time_conv *tc, uint64_t cyc)
{
	struct c2c_time_conv z = { 0 };
	uint64_t quot, rem;

	if (!tc->cap_user_time_zero)
		tc = &z;                 /* perf wrote no TIME_CONV: it converts with zeros */
	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> tc->time_shift;
	rem = cyc & ((1ull << tc->time_shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}
