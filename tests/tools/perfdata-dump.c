/* perfdata-dump: print what the perf.data reader delivers, one line per record, for the
 * end-to-end comparison with `perf script` (tests/e2e/perfdata-real.sh).
 *   perfdata-dump FILE|-   samples as "S pid tid cpu time addr ip phys weight data_src event",
 *                          LOST/THROTTLE records as "L kind count time event"
 *   perfdata-dump -s FILE  only samples, as "pid tid time ip sym dso": the ip's map through the
 *                          side-band (report/maps.h) and its symbol (report/symbols.h), "[unknown]"
 *                          for what is not found, as perf script -F pid,tid,time,ip,sym,dso
 *   perfdata-dump -F LIST FILE  only samples, the fields of LIST (comma-separated, any order):
 *                          comm pid tid cpu time (ns) event addr ip phys dsrc (hex without 0x)
 *                          weight sym dso mode (the cpumode) -- tests/e2e/lib/perf-view.sh gives
 *                          perf script's view in the same form
 *   perfdata-dump -c FILE  only the counts per record type */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "c2c/trace.h"
#include "report/maps.h"
#include "report/perfdata.h"
#include "report/symbols.h"

/* The running kernel's build-id (the GNU note in /sys/kernel/notes); 0 bytes when unknown. */
static size_t running_kernel_id(uint8_t *id)
{
	uint8_t notes[4096];
	FILE *f = fopen("/sys/kernel/notes", "rb");
	size_t len = f ? fread(notes, 1, sizeof(notes), f) : 0, at = 0;

	if (f)
		fclose(f);
	while (at + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at = at + 12, desc_at;

		memcpy(&namesz, notes + at, 4);
		memcpy(&descsz, notes + at + 4, 4);
		memcpy(&type, notes + at + 8, 4);
		desc_at = name_at + (namesz + 3) / 4 * 4;
		if (namesz > len || descsz > len || desc_at + descsz > len)
			break;
		if (type == 3 && namesz == 4 && !memcmp(notes + name_at, "GNU", 4) &&
		    descsz <= TRACE_BUILD_ID_MAX) {
			memcpy(id, notes + desc_at, descsz);
			return descsz;
		}
		at = desc_at + (descsz + 3) / 4 * 4;
	}
	return 0;
}

/* perf reads this host's kallsyms for a kernel map only when the file names no kernel build-id
 * or the running kernel's ("No kallsyms or vmlinux with build-id ... was found" otherwise). */
static int kallsyms_fits(const struct trace_mmap *k)
{
	static uint8_t id[TRACE_BUILD_ID_MAX];
	static size_t n;
	static int known;

	if (!k->build_id_size)
		return 1;
	if (!known++)
		n = running_kernel_id(id);
	return n == k->build_id_size && !memcmp(id, k->build_id, n);
}

/* One sample's fields, its code address resolved as `perf script` does. */
static void print_fields(struct maps *m, struct sym_session *sym, const struct trace_info *in,
			 const struct trace_sample *s, const char *fields)
{
	struct maps_thread *t = maps_findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid);
	struct sym_code_info ci;
	struct maps_loc loc;
	const char *name = "[unknown]", *dso = "[unknown]", *f = fields;

	if (maps_find(m, t, s->cpumode, s->ip, &loc) && loc.map) {
		dso = loc.map->dso->name;
		if (loc.map->dso->kernel) {
			if (kallsyms_fits(&loc.map->mmap) && !sym_kernel_code(sym, s->ip, &ci) &&
			    ci.symbol)
				name = ci.symbol;
		} else if (!sym_code(sym, &loc.map->mmap, s->ip, &ci) && ci.symbol) {
			name = ci.symbol;
		}
	}
	while (*f) {
		size_t n = strcspn(f, ",");

#define IS(x) (n == strlen(x) && !strncmp(f, x, n))
		if (IS("comm"))
			printf("%s", t->comm);
		else if (IS("pid"))
			printf("%u", s->pid);
		else if (IS("tid"))
			printf("%u", s->tid);
		else if (IS("cpu"))
			printf("%d", s->cpu == TRACE_CPU_NONE ? -1 : (int)s->cpu);
		else if (IS("time"))
			printf("%" PRIu64, s->time);
		else if (IS("event"))
			printf("%s", s->event < in->nr_events ? in->events[s->event].name : "?");
		else if (IS("addr"))
			printf("%" PRIx64, s->addr);
		else if (IS("ip"))
			printf("%" PRIx64, s->ip);
		else if (IS("phys"))
			printf("%" PRIx64, s->phys_addr);
		else if (IS("dsrc"))
			printf("%" PRIx64, s->data_src);
		else if (IS("weight"))
			printf("%" PRIu64, s->weight);
		else if (IS("sym"))
			printf("%s", name);
		else if (IS("dso"))
			printf("%s", dso);
		else if (IS("mode"))
			printf("%u", s->cpumode);
		else
			printf("?");
#undef IS
		f += n + !!f[n];
		putchar(*f ? ' ' : '\n');
	}
}

static void print_event(const struct trace_info *in, const struct trace_event *ev)
{
	const struct trace_sample *s = &ev->sample;

	switch (ev->type) {
	case TRACE_REC_SAMPLE:
		printf("S %u %u %d %" PRIu64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %" PRIu64
		       " %#" PRIx64 " %s\n", s->pid, s->tid,
		       s->cpu == TRACE_CPU_NONE ? -1 : (int)s->cpu, s->time, s->addr, s->ip,
		       s->phys_addr, s->weight, s->data_src,
		       s->event < in->nr_events ? in->events[s->event].name : "?");
		break;
	case TRACE_REC_MMAP:
		printf("M %d %" PRIu64 " %#" PRIx64 " %#" PRIx64 " %s bid=%u\n", (int)ev->mmap.pid,
		       ev->mmap.time, ev->mmap.start, ev->mmap.len, ev->mmap.filename,
		       ev->mmap.build_id_size);
		break;
	case TRACE_REC_COMM:
		printf("C %u %u %s exec=%u\n", ev->comm.pid, ev->comm.tid, ev->comm.comm, ev->comm.exec);
		break;
	case TRACE_REC_FORK:
	case TRACE_REC_EXIT:
		printf("%c %u %u %" PRIu64 "\n", ev->type == TRACE_REC_FORK ? 'F' : 'E', ev->task.pid,
		       ev->task.tid, ev->task.time);
		break;
	case TRACE_REC_LOST:
		printf("L %u %" PRIu64 " %" PRIu64 " %s\n", ev->lost.kind, ev->lost.count, ev->lost.time,
		       ev->lost.event < in->nr_events ? in->events[ev->lost.event].name : "?");
		break;
	case TRACE_REC_BLOB:
		printf("B %u %" PRIu64 "\n", ev->blob.kind, ev->blob.size);
		break;
	}
}

int main(int argc, char **argv)
{
	struct perfdata_reader *r;
	struct trace_event ev;
	uint64_t count[8] = { 0 }, last = 0, backwards = 0;
	int counts = argc > 2 && !strcmp(argv[1], "-c"), rc, skip;
	int resolve = argc > 2 && !strcmp(argv[1], "-s");
	const char *fields = resolve ? "pid,tid,time,ip,sym,dso" : NULL;
	const struct trace_info *in;
	struct sym_session *sym = NULL;
	struct sym_opts so = { .use_proc_kallsyms = 1 };
	struct maps *m = NULL;

	if (argc > 3 && !strcmp(argv[1], "-F")) {
		fields = argv[2];
		resolve = 2;
	}
	skip = counts + resolve;
	if (argc != 2 + skip || !argv[1 + skip][0]) {
		fprintf(stderr, "usage: perfdata-dump [-c|-s|-F FIELDS] FILE\n");
		return 2;
	}
	if (perfdata_reader_open(&r, argv[1 + skip]) < 0)
		return 1;
	in = perfdata_reader_info(r);
	if (resolve) {
		m = maps_new();
		if (sym_session_new(&sym, &so) < 0)
			return 1;
	}
	while ((rc = perfdata_reader_next(r, &ev)) == 1) {
		if (resolve) {
			switch (ev.type) {
			case TRACE_REC_MMAP: maps_mmap(m, &ev.mmap); break;
			case TRACE_REC_COMM: maps_comm(m, &ev.comm); break;
			case TRACE_REC_FORK: maps_fork(m, &ev.task); break;
			case TRACE_REC_EXIT: maps_exit(m, &ev.task); break;
			case TRACE_REC_SAMPLE: print_fields(m, sym, in, &ev.sample, fields); break;
			default: break;
			}
			continue;
		}
		count[ev.type & 7]++;
		if (ev.type == TRACE_REC_SAMPLE) {
			backwards += ev.sample.time < last;
			last = ev.sample.time;
		}
		if (!counts)
			print_event(in, &ev);
	}
	if (counts)
		printf("samples %" PRIu64 " mmap %" PRIu64 " comm %" PRIu64 " fork %" PRIu64
		       " exit %" PRIu64 " lost %" PRIu64 " backwards %" PRIu64 " events %u backend %s"
		       " nodes %u cpus %u\n", count[TRACE_REC_SAMPLE], count[TRACE_REC_MMAP],
		       count[TRACE_REC_COMM], count[TRACE_REC_FORK], count[TRACE_REC_EXIT],
		       count[TRACE_REC_LOST], backwards, in->nr_events, trace_backend_name(in->backend),
		       in->nr_nodes, in->nr_cpus);
	sym_session_free(sym);
	maps_free(m);
	perfdata_reader_free(r);
	return rc < 0 ? 1 : 0;
}
