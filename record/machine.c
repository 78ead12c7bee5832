/* Trace header facts about the recording machine (see machine.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "c2c/xalloc.h"
#include "record/machine.h"
#include "record/sysfs.h"

#define NODE_DIR "/sys/devices/system/node"

static uint32_t possible_cpus(void)
{
	char line[4096];
	uint8_t *bm = xcalloc(EV_CPUS_MAX / 8, 1);
	uint32_t n = 0;

	if (!sysfs_read_line("/sys/devices/system/cpu/possible", line, sizeof(line)) &&
	    sysfs_parse_cpulist(line, bm, EV_CPUS_MAX) > 0) {
		for (uint32_t c = 0; c < EV_CPUS_MAX; c++)
			if (bm[c / 8] & (1u << (c % 8)))
				n = c + 1;
	}
	free(bm);
	if (!n) {
		long v = sysconf(_SC_NPROCESSORS_CONF);

		n = v > 0 ? (uint32_t)v : 1;
	}
	return n;
}

static void node_cpus(unsigned int node, int32_t *cpu_node, uint32_t nr_cpus)
{
	char path[256], line[4096];
	uint8_t *bm;

	snprintf(path, sizeof(path), NODE_DIR "/node%u/cpulist", node);
	if (sysfs_read_line(path, line, sizeof(line)))
		return;
	bm = xcalloc(EV_CPUS_MAX / 8, 1);
	if (sysfs_parse_cpulist(line, bm, EV_CPUS_MAX) >= 0)
		for (uint32_t c = 0; c < nr_cpus; c++)
			if (bm[c / 8] & (1u << (c % 8)))
				cpu_node[c] = (int32_t)node;
	free(bm);
}

int machine_cpu_nodes(int32_t **cpu_node, uint32_t *nr_cpus, uint32_t *nr_nodes)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	uint32_t n = possible_cpus(), nodes = 0;
	int32_t *map = xmalloc(n * sizeof(*map));

	for (uint32_t c = 0; c < n; c++)
		map[c] = TRACE_NODE_NONE;
	if (!sysfs_path(path, sizeof(path), NODE_DIR) && (d = opendir(path))) {
		while ((de = readdir(d))) {
			char *end;
			unsigned long node;

			if (strncmp(de->d_name, "node", 4))
				continue;
			node = strtoul(de->d_name + 4, &end, 10);
			if (end == de->d_name + 4 || *end)
				continue;
			node_cpus((unsigned int)node, map, n);
			if (node + 1 > nodes)
				nodes = (uint32_t)node + 1;
		}
		closedir(d);
	}
	*cpu_node = map;
	*nr_cpus = n;
	*nr_nodes = nodes;
	return 0;
}

uint32_t machine_cacheline(void)
{
	uint64_t v;

	if (!sysfs_read_u64("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size", &v) &&
	    v >= 16 && v <= 4096)
		return (uint32_t)v;
	return 64;
}

/* Physical ranges of each node from its memoryN links and the block size. */
static void mem_ranges(struct trace_info *info)
{
	char path[4096];
	uint64_t bs;
	size_t cap = 0;

	if (sysfs_read_u64("/sys/devices/system/memory/block_size_bytes", &bs)) {
		char line[64];

		if (sysfs_read_line("/sys/devices/system/memory/block_size_bytes", line,
				    sizeof(line)) || !(bs = strtoull(line, NULL, 16)))
			return;
	}
	for (uint32_t node = 0; node < info->nr_nodes; node++) {
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "%s" NODE_DIR "/node%u", sysfs_root(), node);
		if (!(d = opendir(path)))
			continue;
		while ((de = readdir(d))) {
			char *end;
			uint64_t blk;
			struct trace_mem_range *r;

			if (strncmp(de->d_name, "memory", 6))
				continue;
			blk = strtoull(de->d_name + 6, &end, 10);
			if (end == de->d_name + 6 || *end)
				continue;
			info->mem_ranges = xgrow(info->mem_ranges, &cap, info->nr_mem_ranges + 1,
						 sizeof(*info->mem_ranges));
			r = &info->mem_ranges[info->nr_mem_ranges++];
			r->start = blk * bs;
			r->end = r->start + bs;
			r->node = node;
		}
		closedir(d);
	}
}

static void fill_events(struct trace_info *info, const struct ev_list *l)
{
	info->nr_events = (uint32_t)l->nr;
	info->events = xcalloc(l->nr, sizeof(*info->events));
	for (size_t i = 0; i < l->nr; i++) {
		const struct ev_desc *e = &l->ev[i];
		struct trace_event_desc *d = &info->events[i];

		d->name = xstrdup(e->name);
		d->backend = e->backend;
		d->type = e->attr.type;
		d->config = e->attr.config;
		d->config1 = e->attr.config1;
		d->config2 = e->attr.config2;
		d->sample_type = e->attr.sample_type;
		d->period = e->attr.sample_period;
		d->freq = e->attr.freq;
		d->precise_ip = e->attr.precise_ip;
		d->attr_flags = events_attr_flags(&e->attr);
	}
}

void machine_info_fill(struct trace_info *info, const struct ev_list *l, const char *cmdline,
		       const char *options)
{
	struct timespec ts;
	struct utsname u;

	memset(info, 0, sizeof(*info));
	clock_gettime(CLOCK_REALTIME, &ts);
	info->created_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	info->cmdline = xstrdup(cmdline ? cmdline : "");
	if (uname(&u) == 0) {
		info->hostname = xstrdup(u.nodename);
		info->kernel_release = xstrdup(u.release);
		info->arch = xstrdup(u.machine);
	}
	info->cpu_vendor = xstrdup(l->cpu.vendor_str);
	info->cpu_family = l->cpu.family;
	info->cpu_model = l->cpu.model;
	info->cpu_stepping = l->cpu.stepping;
	info->cpu_desc = xstrdup(l->cpu.model_name);
	info->pmu_name = xstrdup(l->pmu_name);
	info->backend = l->backend;
	info->options = xstrdup(options ? options : "");
	info->cacheline_size = machine_cacheline();
	machine_cpu_nodes(&info->cpu_node, &info->nr_cpus, &info->nr_nodes);
	mem_ranges(info);
	fill_events(info, l);
	if (l->backend == TRACE_BACKEND_SPE)
		info->flags |= TRACE_INFO_SPE_RAW;
}
