/* The trace header (struct trace_info): deep copy and release, its on-disk encoding in the header
 * chunk, the backend names and the magic test. The encoding is a fixed sequence of varints and
 * strings; events and memory ranges carry their own length so later minor versions can append
 * fields, and a reader ignores bytes it does not know at the end of each. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "lib/trace_codec.h"

static const char *const backend_names[TRACE_BACKEND__MAX] = {
	[TRACE_BACKEND_UNKNOWN] = "unknown",
	[TRACE_BACKEND_PEBS] = "pebs",
	[TRACE_BACKEND_IBS] = "ibs",
	[TRACE_BACKEND_SPE] = "spe",
	[TRACE_BACKEND_POWER] = "power",
	[TRACE_BACKEND_SOFT] = "soft",
	[TRACE_BACKEND_WATCH] = "watch",
	[TRACE_BACKEND_SWEVENT] = "swevent",
	[TRACE_BACKEND_PERFDATA] = "perf.data",
	[TRACE_BACKEND_SYNTHETIC] = "synthetic",
};

const char *trace_backend_name(enum trace_backend b)
{
	if ((unsigned)b >= TRACE_BACKEND__MAX)
		return "unknown";
	return backend_names[b];
}

int trace_is_trace(const void *buf, size_t len)
{
	return buf && len >= 8 && memcmp(buf, TRACE_MAGIC, 8) == 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void trace_info_copy(struct trace_info *dst, const struct trace_info *src)
{
	*dst = *src;
	dst->cmdline = dup_or_null(src->cmdline);
	dst->hostname = dup_or_null(src->hostname);
	dst->kernel_release = dup_or_null(src->kernel_release);
	dst->arch = dup_or_null(src->arch);
	dst->cpu_vendor = dup_or_null(src->cpu_vendor);
	dst->cpu_desc = dup_or_null(src->cpu_desc);
	dst->pmu_name = dup_or_null(src->pmu_name);
	dst->options = dup_or_null(src->options);
	dst->cpu_node = NULL;
	if (src->nr_cpus && src->cpu_node) {
		dst->cpu_node = xmalloc(src->nr_cpus * sizeof(*dst->cpu_node));
		memcpy(dst->cpu_node, src->cpu_node, src->nr_cpus * sizeof(*dst->cpu_node));
	}
	dst->events = NULL;
	if (src->nr_events && src->events) {
		dst->events = xcalloc(src->nr_events, sizeof(*dst->events));
		for (uint32_t i = 0; i < src->nr_events; i++) {
			dst->events[i] = src->events[i];
			dst->events[i].name = dup_or_null(src->events[i].name);
		}
	}
	dst->mem_ranges = NULL;
	if (src->nr_mem_ranges && src->mem_ranges) {
		dst->mem_ranges = xmalloc(src->nr_mem_ranges * sizeof(*dst->mem_ranges));
		memcpy(dst->mem_ranges, src->mem_ranges, src->nr_mem_ranges * sizeof(*dst->mem_ranges));
	}
}

void trace_info_release(struct trace_info *info)
{
	if (!info)
		return;
	free(info->cmdline);
	free(info->hostname);
	free(info->kernel_release);
	free(info->arch);
	free(info->cpu_vendor);
	free(info->cpu_desc);
	free(info->pmu_name);
	free(info->options);
	free(info->cpu_node);
	if (info->events)
		for (uint32_t i = 0; i < info->nr_events; i++)
			free(info->events[i].name);
	free(info->events);
	free(info->mem_ranges);
	memset(info, 0, sizeof(*info));
}

/* --- encoding ------------------------------------------------------------------------------ */

static void put_v(struct tbuf *b, uint64_t v)
{
	tbuf_reserve(b, 10);
	put_varint(b, v);
}

static void encode_event(struct tbuf *b, const struct trace_event_desc *e)
{
	struct tbuf body = { 0 };

	put_str(&body, e->name);
	put_v(&body, e->backend);
	put_v(&body, e->type);
	put_v(&body, e->config);
	put_v(&body, e->config1);
	put_v(&body, e->config2);
	put_v(&body, e->sample_type);
	put_v(&body, e->period);
	put_v(&body, e->freq);
	put_v(&body, e->precise_ip);
	put_v(&body, e->attr_flags);
	put_v(b, body.len);
	put_bytes(b, body.p, body.len);
	free(body.p);
}

static void encode_range(struct tbuf *b, const struct trace_mem_range *m)
{
	struct tbuf body = { 0 };

	put_v(&body, m->start);
	put_v(&body, m->end);
	put_v(&body, m->node);
	put_v(b, body.len);
	put_bytes(b, body.p, body.len);
	free(body.p);
}

const char *trace_info_check(const struct trace_info *info)
{
	if (info->nr_cpus > TRACE_CPU_MAX)
		return "more CPUs than TRACE_CPU_MAX";
	if (info->nr_nodes > TRACE_NODE_MAX)
		return "more NUMA nodes than TRACE_NODE_MAX";
	for (uint32_t i = 0; info->cpu_node && i < info->nr_cpus; i++)
		if (info->cpu_node[i] < TRACE_NODE_NONE || info->cpu_node[i] >= TRACE_NODE_MAX)
			return "a CPU's NUMA node is out of range";
	for (uint32_t i = 0; info->mem_ranges && i < info->nr_mem_ranges; i++)
		if (info->mem_ranges[i].node >= TRACE_NODE_MAX ||
		    info->mem_ranges[i].start > info->mem_ranges[i].end)
			return "a memory range is out of range";
	return NULL;
}

void trace_info_encode(struct tbuf *b, const struct trace_info *info)
{
	uint32_t nr_cpus = info->nr_cpus;  /* without a map: every node unknown */
	uint32_t nr_events = info->events ? info->nr_events : 0;
	uint32_t nr_ranges = info->mem_ranges ? info->nr_mem_ranges : 0;

	put_v(b, info->flags);
	put_v(b, info->created_ns);
	put_str(b, info->cmdline);
	put_str(b, info->hostname);
	put_str(b, info->kernel_release);
	put_str(b, info->arch);
	put_str(b, info->cpu_vendor);
	put_v(b, info->cpu_family);
	put_v(b, info->cpu_model);
	put_v(b, info->cpu_stepping);
	put_str(b, info->cpu_desc);
	put_str(b, info->pmu_name);
	put_v(b, info->backend);
	put_str(b, info->options);
	put_v(b, info->cacheline_size);
	put_v(b, info->nr_nodes);
	put_v(b, nr_cpus);
	for (uint32_t i = 0; i < nr_cpus; i++)
		put_v(b, zigzag(info->cpu_node ? info->cpu_node[i] : TRACE_NODE_NONE));
	put_v(b, nr_events);
	for (uint32_t i = 0; i < nr_events; i++)
		encode_event(b, &info->events[i]);
	put_v(b, nr_ranges);
	for (uint32_t i = 0; i < nr_ranges; i++)
		encode_range(b, &info->mem_ranges[i]);
}

/* --- decoding ------------------------------------------------------------------------------ */

static char *get_dup_str(struct tcur *c)
{
	int absent;
	const char *s = get_str(c, &absent);

	return s ? xstrdup(s) : NULL;
}

/* A count of items that each take at least one byte: it cannot exceed the bytes left. */
static uint32_t get_count(struct tcur *c)
{
	uint64_t n = get_varint(c);

	if (n > (uint64_t)(c->end - c->p) || n > UINT32_MAX) {
		c->bad = 1;
		return 0;
	}
	return (uint32_t)n;
}

/* Open the length-prefixed body of one item as its own cursor and step @c over it. */
static struct tcur get_item(struct tcur *c)
{
	uint64_t n = get_varint(c);
	const uint8_t *p = get_bytes(c, n);
	struct tcur item = { p, p ? p + n : NULL, p == NULL };

	return item;
}

static int decode_event(struct tcur *c, struct trace_event_desc *e)
{
	struct tcur it = get_item(c);

	if (it.bad)
		return -1;
	e->name = get_dup_str(&it);
	e->backend = get_u32v(&it);
	e->type = get_u32v(&it);
	e->config = get_varint(&it);
	e->config1 = get_varint(&it);
	e->config2 = get_varint(&it);
	e->sample_type = get_varint(&it);
	e->period = get_varint(&it);
	e->freq = get_u32v(&it);
	e->precise_ip = get_u32v(&it);
	e->attr_flags = get_varint(&it);
	return it.bad ? -1 : 0;
}

static int decode_range(struct tcur *c, struct trace_mem_range *m)
{
	struct tcur it = get_item(c);

	if (it.bad)
		return -1;
	m->start = get_varint(&it);
	m->end = get_varint(&it);
	m->node = get_u32v(&it);
	return it.bad || m->node >= TRACE_NODE_MAX || m->start > m->end ? -1 : 0;
}

static void decode_strings_cpu(struct tcur *c, struct trace_info *info)
{
	info->flags = get_u32v(c);
	info->created_ns = get_varint(c);
	info->cmdline = get_dup_str(c);
	info->hostname = get_dup_str(c);
	info->kernel_release = get_dup_str(c);
	info->arch = get_dup_str(c);
	info->cpu_vendor = get_dup_str(c);
	info->cpu_family = get_u32v(c);
	info->cpu_model = get_u32v(c);
	info->cpu_stepping = get_u32v(c);
	info->cpu_desc = get_dup_str(c);
	info->pmu_name = get_dup_str(c);
	info->backend = get_u32v(c);
	info->options = get_dup_str(c);
	info->cacheline_size = get_u32v(c);
	info->nr_nodes = get_u32v(c);
}

static int decode_arrays(struct tcur *c, struct trace_info *info)
{
	info->nr_cpus = get_count(c);
	if (info->nr_cpus > TRACE_CPU_MAX || info->nr_nodes > TRACE_NODE_MAX) {
		info->nr_cpus = 0;
		c->bad = 1;
		return -1;
	}
	if (info->nr_cpus)
		info->cpu_node = xmalloc(info->nr_cpus * sizeof(*info->cpu_node));
	for (uint32_t i = 0; i < info->nr_cpus; i++) {
		int64_t node = unzigzag(get_varint(c));

		if (node < TRACE_NODE_NONE || node >= TRACE_NODE_MAX)
			c->bad = 1;
		info->cpu_node[i] = (int32_t)node;
	}
	info->nr_events = get_count(c);
	if (info->nr_events)
		info->events = xcalloc(info->nr_events, sizeof(*info->events));
	for (uint32_t i = 0; i < info->nr_events && !c->bad; i++)
		if (decode_event(c, &info->events[i]))
			c->bad = 1;
	info->nr_mem_ranges = c->bad ? 0 : get_count(c);
	if (info->nr_mem_ranges)
		info->mem_ranges = xcalloc(info->nr_mem_ranges, sizeof(*info->mem_ranges));
	for (uint32_t i = 0; i < info->nr_mem_ranges && !c->bad; i++)
		if (decode_range(c, &info->mem_ranges[i]))
			c->bad = 1;
	return c->bad ? -1 : 0;
}

int trace_info_decode(struct trace_info *info, const uint8_t *p, size_t len)
{
	struct tcur c = { p, p + len, 0 };

	memset(info, 0, sizeof(*info));
	decode_strings_cpu(&c, info);
	if (c.bad || decode_arrays(&c, info)) {
		trace_info_release(info);
		return -EBADMSG;
	}
	return 0;
}
