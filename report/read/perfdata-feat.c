/* perf.data reader: header feature sections (or pipe-mode HEADER_FEATURE records) and
 * EVENT_UPDATE records, turned into the struct trace_info the rest of c2c-lite reads.
 *
 * Every section is parsed with a bounded cursor: a section that is cut short or inconsistent
 * is dropped with a warning and the file stays readable. Topology that perf c2c needs but the
 * file lacks is replaced by a stated assumption (one NUMA node) rather than a refusal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata-int.h"

/* Bytes of the smallest entry of a section: a count larger than the bytes left can hold is
 * corrupt, and nothing is allocated for it. */
#define PD_NUMA_ENTRY_MIN   24   /* u32 node, u64 mem_total, u64 mem_free, u32 cpu list length */
#define PD_MEMTOP_ENTRY_MIN 24   /* u64 node, u64 size, u64 bitmap bits */
#define PD_PMU_ENTRY_MIN    8    /* u32 type, u32 name length */
#define PD_CACHE_ENTRY_MIN  28   /* u32 level, line, sets, ways, and three strings' lengths */

struct fcur {
	const struct perfdata_reader *r;
	const uint8_t *p, *end;
	int bad;
};

static uint64_t fleft(const struct fcur *c)
{
	return (uint64_t)(c->end - c->p);
}

static int fneed(struct fcur *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		return 0;
	}
	return 1;
}

static uint32_t f32(struct fcur *c)
{
	uint32_t v;

	if (!fneed(c, 4))
		return 0;
	v = pd_u32(c->r, c->p);
	c->p += 4;
	return v;
}

static uint64_t f64(struct fcur *c)
{
	uint64_t v;

	if (!fneed(c, 8))
		return 0;
	v = pd_u64(c->r, c->p);
	c->p += 8;
	return v;
}

/* perf_header_string: u32 len, then len bytes holding a NUL-padded string. NULL when bad. */
static char *fstr(struct fcur *c)
{
	uint32_t len = f32(c);
	char *s;

	if (!fneed(c, len))
		return NULL;
	s = xstrndup((const char *)c->p, len);
	c->p += len;
	return s;
}

static void set_str(char **dst, char *s)
{
	if (!s)
		return;
	free(*dst);
	*dst = s;
}

static void feat_cmdline(struct perfdata_reader *r, struct fcur *c)
{
	uint32_t nr = f32(c), i;
	size_t len = 0;
	char *out = NULL;

	for (i = 0; i < nr && !c->bad; i++) {
		char *s = fstr(c);
		size_t n;

		if (!s)
			break;
		n = strlen(s);
		out = xrealloc(out, len + n + 2);
		if (len)
			out[len++] = ' ';
		memcpy(out + len, s, n + 1);
		len += n;
		free(s);
	}
	set_str(&r->info.cmdline, out);
}

static void name_attr(struct perfdata_reader *r, uint32_t idx, const char *name)
{
	if (idx >= r->nr_attr)
		return;
	free(r->attr[idx].name);
	r->attr[idx].name = xstrdup(name);
}

static void feat_event_desc(struct perfdata_reader *r, struct fcur *c)
{
	uint32_t nr = f32(c), asz = f32(c), i, j, nids;

	if (asz < 64 || asz > 4096 || nr > UINT16_MAX) {
		c->bad = 1;
		return;
	}
	for (i = 0; i < nr && !c->bad; i++) {
		char *name;
		int idx = -1;

		if (!fneed(c, asz))
			return;
		c->p += asz;
		nids = f32(c);
		name = fstr(c);
		if (!name || !fneed(c, (uint64_t)nids * 8)) {
			free(name);
			return;
		}
		for (j = 0; j < nids && idx < 0; j++)
			idx = pd_attr_of_id(r, pd_u64(r, c->p + 8 * j));
		c->p += (size_t)nids * 8;
		name_attr(r, idx >= 0 ? (uint32_t)idx : i, name);
		free(name);
	}
}

static void numa_release(struct perfdata_reader *r)
{
	for (size_t i = 0; i < r->nr_numa; i++)
		free(r->numa[i].cpus);
	free(r->numa);
	r->numa = NULL;
	r->nr_numa = 0;
}

static void feat_numa(struct perfdata_reader *r, struct fcur *c)
{
	uint32_t nr = f32(c), i;

	if (c->bad || nr > TRACE_NODE_MAX || nr > fleft(c) / PD_NUMA_ENTRY_MIN) {
		c->bad = 1;
		return;
	}
	numa_release(r);
	r->numa = xcalloc(nr ? nr : 1, sizeof(*r->numa));
	for (i = 0; i < nr && !c->bad; i++) {
		uint32_t node = f32(c);
		char *cpus;

		f64(c);
		f64(c);
		cpus = fstr(c);
		if (!cpus)
			return;
		if (node >= TRACE_NODE_MAX) {
			free(cpus);
			c->bad = 1;
			return;
		}
		r->numa[r->nr_numa].node = node;
		r->numa[r->nr_numa++].cpus = cpus;
	}
}

static void add_range(struct perfdata_reader *r, size_t *cap, uint64_t start, uint64_t end,
		      uint32_t node)
{
	struct trace_info *in = &r->info;

	in->mem_ranges = xgrow(in->mem_ranges, cap, in->nr_mem_ranges + 1,
			       sizeof(*in->mem_ranges));
	in->mem_ranges[in->nr_mem_ranges++] = (struct trace_mem_range){ start, end, node };
}

/* Each node is {u64 node; u64 size}, then a bitmap written as {u64 nr_bits; u64 words[]}
 * (the bit count appears twice; c2c-semantics.md 9). Runs of set bits become ranges. */
static void feat_mem_topology(struct perfdata_reader *r, struct fcur *c)
{
	uint64_t bsize, nr, i, node, bits, b, run = UINT64_MAX;
	size_t cap = 0;

	f64(c);                      /* version */
	bsize = f64(c);
	nr = f64(c);
	free(r->info.mem_ranges);
	r->info.mem_ranges = NULL;
	r->info.nr_mem_ranges = 0;
	if (c->bad || !bsize || nr > TRACE_NODE_MAX || nr > fleft(c) / PD_MEMTOP_ENTRY_MIN) {
		c->bad = 1;
		return;
	}
	for (i = 0; i < nr && !c->bad; i++) {
		node = f64(c);
		f64(c);
		bits = f64(c);
		if (node >= TRACE_NODE_MAX || bits > fleft(c) * 8 || !fneed(c, (bits + 63) / 64 * 8)) {
			c->bad = 1;
			return;
		}
		/* block numbers times the block size must stay addresses */
		if (bits && bsize > UINT64_MAX / bits) {
			c->bad = 1;
			return;
		}
		for (b = 0; b <= bits; b++) {
			int set = b < bits && (pd_u64(r, c->p + 8 * (b / 64)) >> (b % 64)) & 1;

			if (set && run == UINT64_MAX)
				run = b;
			if (!set && run != UINT64_MAX) {
				add_range(r, &cap, run * bsize, b * bsize, (uint32_t)node);
				run = UINT64_MAX;
			}
		}
		c->p += (bits + 63) / 64 * 8;
	}
}

static void feat_build_id(struct perfdata_reader *r, struct fcur *c)
{
	while (!c->bad && c->end - c->p >= 36) {
		uint16_t misc = pd_u16(r, c->p + 4), size = pd_u16(r, c->p + 6);
		struct pd_buildid *b;

		if (size < 36 || size > c->end - c->p)
			return;
		r->bid = xrealloc(r->bid, (r->nr_bid + 1) * sizeof(*r->bid));
		b = &r->bid[r->nr_bid++];
		b->size = (misc & PD_MISC_BUILD_ID_SIZE) ? c->p[32] : TRACE_BUILD_ID_MAX;
		if (b->size > TRACE_BUILD_ID_MAX)
			b->size = TRACE_BUILD_ID_MAX;
		memcpy(b->id, c->p + 12, TRACE_BUILD_ID_MAX);
		b->name = xstrndup((const char *)c->p + 36, size - 36u);
		c->p += size;
	}
}

static void feat_pmu_mappings(struct perfdata_reader *r, struct fcur *c)
{
	uint32_t nr = f32(c), i;

	if (nr > fleft(c) / PD_PMU_ENTRY_MIN) {
		c->bad = 1;
		return;
	}
	for (i = 0; i < nr && !c->bad; i++) {
		uint32_t type = f32(c);
		char *name = fstr(c);

		if (!name)
			return;
		r->pmu = xrealloc(r->pmu, (r->nr_pmu + 1) * sizeof(*r->pmu));
		r->pmu[r->nr_pmu++] = (struct pd_pmu){ type, name };
	}
}

static void feat_cache(struct perfdata_reader *r, struct fcur *c)
{
	uint32_t nr, i, level, line;

	f32(c);
	nr = f32(c);
	if (nr > fleft(c) / PD_CACHE_ENTRY_MIN)
		c->bad = 1;
	for (i = 0; i < nr && !c->bad; i++) {
		level = f32(c);
		line = f32(c);
		f32(c);
		f32(c);
		free(fstr(c));
		free(fstr(c));
		free(fstr(c));
		if (!c->bad && level == 1 && line >= 16 && line <= 4096 && !r->info.cacheline_size)
			r->info.cacheline_size = line;
	}
}

/* x86 "GenuineIntel,6,143,8"; arm64 a MIDR "0x00000000410fd490". */
static void feat_cpuid(struct perfdata_reader *r, char *s)
{
	struct trace_info *in = &r->info;
	char *comma = strchr(s, ',');

	set_str(&r->cpuid, xstrdup(s));
	if (comma) {
		*comma = 0;
		set_str(&in->cpu_vendor, xstrdup(s));
		sscanf(comma + 1, "%u,%u,%u", &in->cpu_family, &in->cpu_model, &in->cpu_stepping);
	} else if (!strncmp(s, "0x", 2)) {
		unsigned long long midr = strtoull(s, NULL, 16);

		set_str(&in->cpu_vendor, ((midr >> 24) & 0xff) == 0x41 ? xstrdup("ARM") :
			xasprintf("arm64-implementer-0x%02llx", (midr >> 24) & 0xff));
		in->cpu_family = (uint32_t)((midr >> 16) & 0xf);
		in->cpu_model = (uint32_t)((midr >> 4) & 0xfff);
		in->cpu_stepping = (uint32_t)(midr & 0xf);
	}
	free(s);
}

static void feat_string(struct perfdata_reader *r, unsigned int feat, struct fcur *c)
{
	char *s = fstr(c);

	if (!s)
		return;
	switch (feat) {
	case PD_F_HOSTNAME: set_str(&r->info.hostname, s); break;
	case PD_F_OSRELEASE: set_str(&r->info.kernel_release, s); break;
	case PD_F_VERSION: set_str(&r->perf_version, s); break;
	case PD_F_ARCH: set_str(&r->info.arch, s); break;
	case PD_F_CPUDESC: set_str(&r->info.cpu_desc, s); break;
	default: feat_cpuid(r, s);
	}
}

static const char *feat_name(unsigned int feat)
{
	switch (feat) {
	case PD_F_BUILD_ID: return "BUILD_ID";
	case PD_F_HOSTNAME: return "HOSTNAME";
	case PD_F_OSRELEASE: return "OSRELEASE";
	case PD_F_VERSION: return "VERSION";
	case PD_F_ARCH: return "ARCH";
	case PD_F_NRCPUS: return "NRCPUS";
	case PD_F_CPUDESC: return "CPUDESC";
	case PD_F_CPUID: return "CPUID";
	case PD_F_CMDLINE: return "CMDLINE";
	case PD_F_EVENT_DESC: return "EVENT_DESC";
	case PD_F_NUMA_TOPOLOGY: return "NUMA_TOPOLOGY";
	case PD_F_PMU_MAPPINGS: return "PMU_MAPPINGS";
	case PD_F_CACHE: return "CACHE";
	case PD_F_MEM_TOPOLOGY: return "MEM_TOPOLOGY";
	case PD_F_DIR_FORMAT: return "DIR_FORMAT";
	case PD_F_COMPRESSED: return "COMPRESSED";
	case PD_F_CLOCK_DATA: return "CLOCK_DATA";
	}
	return "?";
}

void pd_feature(struct perfdata_reader *r, unsigned int feat, const uint8_t *p, size_t size)
{
	struct fcur c = { r, p, p + size, 0 };

	if (feat >= PD_F_MAX)
		return;
	r->have_feat[feat / 8] |= (uint8_t)(1u << (feat % 8));
	switch (feat) {
	case PD_F_HOSTNAME: case PD_F_OSRELEASE: case PD_F_VERSION: case PD_F_ARCH:
	case PD_F_CPUDESC: case PD_F_CPUID:
		feat_string(r, feat, &c);
		break;
	case PD_F_NRCPUS:
		r->info.nr_cpus = f32(&c);
		r->nr_cpus_online = f32(&c);
		if (r->info.nr_cpus > TRACE_CPU_MAX)
			c.bad = 1;
		break;
	case PD_F_CMDLINE: feat_cmdline(r, &c); break;
	case PD_F_EVENT_DESC: feat_event_desc(r, &c); break;
	case PD_F_NUMA_TOPOLOGY: feat_numa(r, &c); break;
	case PD_F_MEM_TOPOLOGY: feat_mem_topology(r, &c); break;
	case PD_F_BUILD_ID: feat_build_id(r, &c); break;
	case PD_F_PMU_MAPPINGS: feat_pmu_mappings(r, &c); break;
	case PD_F_CACHE: feat_cache(r, &c); break;
	case PD_F_CLOCK_DATA:
		f32(&c);
		f32(&c);
		r->info.created_ns = f64(&c);
		break;
	case PD_F_DIR_FORMAT:
		r->dir_version = f64(&c);
		break;
	case PD_F_AUXTRACE:
		/* read when the AUXTRACE_INFO record asks for it; a pipe's copy does not last */
		if (!r->stream) {
			r->aux_index = p;
			r->aux_index_len = size;
		}
		break;
	case PD_F_COMPRESSED:
		f32(&c);
		if (f32(&c) != 1 && !c.bad)
			c2c_warn("'%s': header says the data is compressed with an unknown method",
				 r->name);
		break;
	default:
		return;   /* features c2c does not need */
	}
	if (c.bad) {
		r->have_feat[feat / 8] &= (uint8_t)~(1u << (feat % 8));
		if (feat == PD_F_NRCPUS)
			r->info.nr_cpus = 0;
		if (feat == PD_F_NUMA_TOPOLOGY)
			numa_release(r);
		if (feat == PD_F_MEM_TOPOLOGY) {
			free(r->info.mem_ranges);
			r->info.mem_ranges = NULL;
			r->info.nr_mem_ranges = 0;
		}
		if (r->base && p >= r->base && p <= r->base + r->len)
			c2c_warn("'%s': header feature %s (%u) at offset %zu is cut short or corrupt "
				 "(byte %zu of %zu); ignored", r->name, feat_name(feat), feat,
				 (size_t)(p - r->base), (size_t)(c.p - p), size);
		else
			c2c_warn("'%s': header feature %s (%u) is cut short or corrupt; ignored",
				 r->name, feat_name(feat), feat);
	}
}

int pd_event_update(struct perfdata_reader *r, const uint8_t *p, size_t size)
{
	uint64_t type, id;
	int idx;
	char *name;

	if (size < 16)
		return 0;
	type = pd_u64(r, p);
	id = pd_u64(r, p + 8);
	if (type != 2)   /* PERF_EVENT_UPDATE__NAME */
		return 0;
	idx = pd_attr_of_id(r, id);
	if (idx < 0 && r->nr_attr == 1)
		idx = 0;
	if (idx < 0)
		return 0;
	name = xstrndup((const char *)p + 16, size - 16);
	name_attr(r, (uint32_t)idx, name);
	free(name);
	return 0;
}

/* ---- the info ----------------------------------------------------------------------------- */

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

static const char *pmu_of(const struct perfdata_reader *r, uint32_t type)
{
	size_t i;

	for (i = 0; i < r->nr_pmu; i++)
		if (r->pmu[i].type == type)
			return r->pmu[i].name;
	return NULL;
}

static char *default_name(const struct perfdata_reader *r, const struct pd_attr *a)
{
	const char *pmu = pmu_of(r, a->type);

	if (a->type == 0 && a->config < sizeof(hw_names) / sizeof(hw_names[0]))
		return xstrdup(hw_names[a->config]);
	if (a->type == 1 && a->config < sizeof(sw_names) / sizeof(sw_names[0]))
		return xstrdup(sw_names[a->config]);
	if (pmu)
		return xasprintf("%s/config=0x%" PRIx64 "/", pmu, a->config);
	return xasprintf("type%u/config=0x%" PRIx64 "/", a->type, a->config);
}

static int is_arch(const struct perfdata_reader *r, const char *prefix)
{
	return r->info.arch && !strncmp(r->info.arch, prefix, strlen(prefix));
}

static uint32_t event_backend(const struct perfdata_reader *r, const struct pd_attr *a)
{
	const char *pmu = pmu_of(r, a->type), *n = a->name;

	if (strstr(n, "ibs_op") || (pmu && !strcmp(pmu, "ibs_op")))
		return TRACE_BACKEND_IBS;
	if (strstr(n, "arm_spe") || (pmu && !strncmp(pmu, "arm_spe", 7)))
		return TRACE_BACKEND_SPE;
	if (strstr(n, "mem-loads") || strstr(n, "mem-stores"))
		return is_arch(r, "ppc") || is_arch(r, "powerpc") ? TRACE_BACKEND_POWER :
								    TRACE_BACKEND_PEBS;
	if (a->type == 1)
		return TRACE_BACKEND_SWEVENT;
	return TRACE_BACKEND_PERFDATA;
}

static void build_events(struct perfdata_reader *r)
{
	struct trace_info *in = &r->info;
	uint32_t i;

	in->nr_events = r->nr_attr;
	in->events = xcalloc(r->nr_attr + 1, sizeof(*in->events));
	for (i = 0; i < r->nr_attr; i++) {
		struct pd_attr *a = &r->attr[i];
		struct trace_event_desc *e = &in->events[i];

		if (!a->name)
			a->name = default_name(r, a);
		a->td_role = strstr(a->name, "topdown-") ? PD_TD_METRIC :
			     strstr(a->name, "slots") ? PD_TD_SLOTS : PD_TD_NONE;
		e->name = xstrdup(a->name);
		e->backend = event_backend(r, a);
		e->type = a->type;
		e->config = a->config;
		e->config1 = a->config1;
		e->config2 = a->config2;
		e->sample_type = a->sample_type;
		e->period = a->period;
		e->freq = !!(a->flags & (1ull << 10));
		e->precise_ip = (uint32_t)((a->flags >> 15) & 3);
		e->attr_flags = a->flags;
		if (in->backend == TRACE_BACKEND_UNKNOWN || (e->backend != TRACE_BACKEND_SWEVENT &&
		    e->backend != TRACE_BACKEND_PERFDATA && in->backend >= TRACE_BACKEND_SWEVENT)) {
			if (strcmp(a->name, "dummy") && strncmp(a->name, "dummy:", 6)) {
				in->backend = e->backend;
				set_str(&in->pmu_name, xstrdup(pmu_of(r, a->type) ? pmu_of(r, a->type) :
							      "unknown"));
			}
		}
	}
	if (in->backend == TRACE_BACKEND_UNKNOWN)
		in->backend = TRACE_BACKEND_PERFDATA;
	/* Arm SPE: the samples are perf's synthesized "memory" event */
	if (pd_spe_event_desc(r, &in->events[in->nr_events]))
		r->spe_event = (int)in->nr_events++;
}

/* Parse "0-3,8,10-11" and give each listed CPU @node. */
static void cpulist_nodes(struct trace_info *in, const char *s, uint32_t node)
{
	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a, c;

		if (end == s)
			return;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s)
				return;
		}
		for (c = a; c <= b && c < in->nr_cpus; c++)
			in->cpu_node[c] = (int32_t)node;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return;
	}
}

static unsigned long cpulist_max(const char *s)
{
	unsigned long m = 0, v;
	char *end;

	while (*s) {
		v = strtoul(s, &end, 10);
		if (end == s)
			break;
		m = v + 1 > m ? v + 1 : m;
		s = *end ? end + 1 : end;
	}
	return m;
}

static int have(const struct perfdata_reader *r, unsigned int f)
{
	return r->have_feat[f / 8] & (1u << (f % 8));
}

static void build_nodes(struct perfdata_reader *r)
{
	struct trace_info *in = &r->info;
	uint32_t i, max_node = 0;

	if (!have(r, PD_F_NRCPUS)) {
		for (i = 0; i < r->nr_numa; i++) {
			unsigned long m = cpulist_max(r->numa[i].cpus);

			if (m > in->nr_cpus && m <= TRACE_CPU_MAX)
				in->nr_cpus = (uint32_t)m;
		}
		c2c_warn("'%s': no NRCPUS header feature (perf c2c refuses such files); %s", r->name,
			 in->nr_cpus ? "CPU count taken from the NUMA topology" : "CPU count unknown");
	}
	in->cpu_node = xmalloc((in->nr_cpus ? in->nr_cpus : 1) * sizeof(*in->cpu_node));
	for (i = 0; i < in->nr_cpus; i++)
		in->cpu_node[i] = r->nr_numa ? TRACE_NODE_NONE : 0;
	if (!r->nr_numa) {
		c2c_warn("'%s': no NUMA_TOPOLOGY header feature (perf c2c refuses such files); "
			 "assuming one node", r->name);
		in->nr_nodes = 1;
		return;
	}
	for (i = 0; i < r->nr_numa; i++) {
		cpulist_nodes(in, r->numa[i].cpus, r->numa[i].node);
		if (r->numa[i].node + 1 > max_node)
			max_node = r->numa[i].node + 1;
	}
	in->nr_nodes = max_node;
}

void pd_info_finish(struct perfdata_reader *r)
{
	struct trace_info *in = &r->info;

	build_events(r);
	build_nodes(r);
	if (!have(r, PD_F_MEM_TOPOLOGY))
		c2c_warn("'%s': no MEM_TOPOLOGY header feature; memory nodes of samples are unknown",
			 r->name);
	if (!in->cacheline_size)
		in->cacheline_size = 64;
	if (r->aux_type == PD_AUX_ARM_SPE || r->spe_seen) {
		in->backend = TRACE_BACKEND_SPE;
		if (r->opts & PERFDATA_SPE_RAW)
			in->flags |= TRACE_INFO_SPE_RAW;
	}
	set_str(&in->options, r->perf_version ?
		xasprintf("converted from perf.data written by perf %s", r->perf_version) :
		xstrdup("converted from perf.data"));
	r->info_done = 1;
}

void pd_info_release(struct perfdata_reader *r)
{
	struct trace_info *in = &r->info;
	size_t i;

	free(in->cmdline);
	free(in->hostname);
	free(in->kernel_release);
	free(in->arch);
	free(in->cpu_vendor);
	free(in->cpu_desc);
	free(in->pmu_name);
	free(in->options);
	free(in->cpu_node);
	for (i = 0; i < in->nr_events; i++)
		free(in->events[i].name);
	free(in->events);
	free(in->mem_ranges);
	for (i = 0; i < r->nr_bid; i++)
		free(r->bid[i].name);
	free(r->bid);
	for (i = 0; i < r->nr_pmu; i++)
		free(r->pmu[i].name);
	free(r->pmu);
	numa_release(r);
	free(r->perf_version);
}

unsigned int perfdata_reader_missing(const struct perfdata_reader *r)
{
	unsigned int m = 0;

	if (!have(r, PD_F_NRCPUS))
		m |= PERFDATA_NO_NRCPUS;
	if (!have(r, PD_F_NUMA_TOPOLOGY))
		m |= PERFDATA_NO_NUMA;
	if (!have(r, PD_F_MEM_TOPOLOGY))
		m |= PERFDATA_NO_MEM_TOPOLOGY;
	return m;
}
