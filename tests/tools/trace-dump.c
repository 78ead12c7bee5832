/* trace-dump: print a c2c-lite trace as text, one record a line, for tests and debugging.
 *
 *   trace-dump [--info] [--no-records] FILE
 * Lines: "info key=value", then per record "SAMPLE t=.. pid=.. tid=.. cpu=.. ip=0x.. addr=0x..
 * ev=N mode=N flags=0x.. ... [task=0x..] [chain=ADDR/ADDR/...]" (the goroutine, when known;
 * the callchain in hex, context markers included, only when the sample has one), "MMAP ...", "COMM ...", "FORK/EXIT ...", "LOST ...", "BLOB ...", "REGION ...".
 * A last line "end records=N truncated=0|1" closes a readable trace. Exit 1 on a read error. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "c2c/trace.h"

static void print_info(const struct trace_info *in)
{
	printf("info version=%u.%u backend=%s pmu=%s vendor=%s family=%u model=%u stepping=%u\n",
	       in->version_major, in->version_minor, trace_backend_name(in->backend),
	       in->pmu_name ? in->pmu_name : "", in->cpu_vendor ? in->cpu_vendor : "",
	       in->cpu_family, in->cpu_model, in->cpu_stepping);
	printf("info host=%s kernel=%s arch=%s cacheline=%u nr_cpus=%u nr_nodes=%u flags=0x%x\n",
	       in->hostname ? in->hostname : "", in->kernel_release ? in->kernel_release : "",
	       in->arch ? in->arch : "", in->cacheline_size, in->nr_cpus, in->nr_nodes, in->flags);
	printf("info cmdline=%s\n", in->cmdline ? in->cmdline : "");
	printf("info options=%s\n", in->options ? in->options : "");
	for (uint32_t i = 0; i < in->nr_cpus; i++)
		printf("info cpu=%u node=%d\n", i, in->cpu_node ? in->cpu_node[i] : -1);
	for (uint32_t i = 0; i < in->nr_events; i++) {
		const struct trace_event_desc *e = &in->events[i];

		printf("info event=%u name=%s type=%u config=0x%" PRIx64 " config1=0x%" PRIx64
		       " sample_type=0x%" PRIx64 " period=%" PRIu64 " freq=%u precise=%u"
		       " flags=0x%" PRIx64 "\n", i, e->name, e->type, e->config, e->config1,
		       e->sample_type, e->period, e->freq, e->precise_ip, e->attr_flags);
	}
}

static void print_event(const struct trace_event *ev)
{
	const struct trace_sample *s = &ev->sample;

	switch (ev->type) {
	case TRACE_REC_SAMPLE:
		printf("SAMPLE t=%" PRIu64 " pid=%u tid=%u cpu=%d ip=0x%" PRIx64 " addr=0x%" PRIx64
		       " ev=%u mode=%u flags=0x%x weight=%" PRIu64 " dsrc=0x%" PRIx64 " td=%u",
		       s->time, s->pid, s->tid, (int)s->cpu, s->ip, s->addr, s->event, s->cpumode,
		       s->flags, s->weight, s->data_src, s->td_nr);
		if (s->task)
			printf(" task=0x%" PRIx64, s->task);
		for (uint32_t i = 0; i < s->chain_nr; i++)
			printf("%s%" PRIx64, i ? "/" : " chain=", s->chain[i]);
		putchar('\n');
		break;
	case TRACE_REC_MMAP:
		printf("MMAP t=%" PRIu64 " pid=%d tid=%d start=0x%" PRIx64 " len=0x%" PRIx64
		       " pgoff=0x%" PRIx64 " prot=%u flags=%u buildid=%u file=%s\n", ev->mmap.time,
		       (int)ev->mmap.pid, (int)ev->mmap.tid, ev->mmap.start, ev->mmap.len,
		       ev->mmap.pgoff, ev->mmap.prot, ev->mmap.flags, ev->mmap.build_id_size,
		       ev->mmap.filename ? ev->mmap.filename : "");
		break;
	case TRACE_REC_COMM:
		printf("COMM t=%" PRIu64 " pid=%u tid=%u exec=%u comm=%s\n", ev->comm.time,
		       ev->comm.pid, ev->comm.tid, ev->comm.exec, ev->comm.comm);
		break;
	case TRACE_REC_FORK:
	case TRACE_REC_EXIT:
		printf("%s t=%" PRIu64 " pid=%u ppid=%u tid=%u ptid=%u\n",
		       ev->type == TRACE_REC_FORK ? "FORK" : "EXIT", ev->task.time, ev->task.pid,
		       ev->task.ppid, ev->task.tid, ev->task.ptid);
		break;
	case TRACE_REC_LOST:
		printf("LOST t=%" PRIu64 " kind=%u cpu=%d ev=%u count=%" PRIu64 "\n", ev->lost.time,
		       ev->lost.kind, (int)ev->lost.cpu, ev->lost.event, ev->lost.count);
		break;
	case TRACE_REC_REGION:
		printf("REGION t=%" PRIu64 " pid=%u tid=%u %s depth=%u name=%s\n", ev->region.time,
		       ev->region.pid, ev->region.tid, ev->region.kind == TRACE_REGION_BEGIN ? "begin" :
		       ev->region.kind == TRACE_REGION_END ? "end" : "?", ev->region.depth,
		       ev->region.name);
		break;
	case TRACE_REC_AUX:
		printf("AUX t=%" PRIu64 " cpu=%d pid=%d tid=%d offset=%" PRIu64 " size=%" PRIu64
		       " flags=0x%" PRIx64 "\n", ev->aux.time, (int)ev->aux.cpu, (int)ev->aux.pid,
		       (int)ev->aux.tid, ev->aux.offset, ev->aux.size, ev->aux.flags);
		break;
	case TRACE_REC_ITRACE_START:
		printf("ITRACE_START t=%" PRIu64 " cpu=%d pid=%d tid=%d\n", ev->itrace.time,
		       (int)ev->itrace.cpu, (int)ev->itrace.pid, (int)ev->itrace.tid);
		break;
	case TRACE_REC_SWITCH:
		printf("SWITCH t=%" PRIu64 " cpu=%d pid=%d tid=%d %s%s%s next_prev=%d/%d\n",
		       ev->sw.time, (int)ev->sw.cpu, (int)ev->sw.pid, (int)ev->sw.tid,
		       ev->sw.flags & TRACE_SWITCH_OUT ? "out" : "in",
		       ev->sw.flags & TRACE_SWITCH_PREEMPT ? " preempt" : "",
		       ev->sw.flags & TRACE_SWITCH_CPU_WIDE ? " cpu-wide" : "",
		       (int)ev->sw.next_prev_pid, (int)ev->sw.next_prev_tid);
		break;
	case TRACE_REC_BLOB:
		printf("BLOB kind=%u cpu=%d size=%" PRIu64 "\n", ev->blob.kind, (int)ev->blob.cpu,
		       ev->blob.size);
		if (ev->blob.kind == TRACE_BLOB_SPE_AUX)
			printf("  offset=%" PRIu64 "\n", ev->blob.offset);
		if (ev->blob.kind == TRACE_BLOB_WATCH_DUTY ||  /* text: indented, one key a line */
		    ev->blob.kind == TRACE_BLOB_SPE_INFO)
			for (const char *p = ev->blob.data, *e = p + ev->blob.size; p < e;) {
				const char *nl = memchr(p, '\n', (size_t)(e - p));
				int n = (int)(nl ? nl - p : e - p);

				printf("  %.*s\n", n, p);
				p += n + 1;
			}
		break;
	default:
		printf("UNKNOWN type=%d\n", (int)ev->type);
	}
}

int main(int argc, char **argv)
{
	int info = 0, records = 1, i, err;
	struct trace_reader *r;
	struct trace_event ev;
	uint64_t n = 0;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--info"))
			info = 1;
		else if (!strcmp(argv[i], "--no-records"))
			records = 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: trace-dump [--info] [--no-records] FILE\n");
		return 2;
	}
	if (trace_reader_open(&r, argv[argc - 1]))
		return 1;
	if (info)
		print_info(trace_reader_info(r));
	while ((err = trace_reader_next(r, &ev)) == 1) {
		n++;
		if (records)
			print_event(&ev);
	}
	printf("end records=%" PRIu64 " truncated=%d\n", n, trace_reader_truncated(r));
	trace_reader_free(r);
	return err < 0 ? 1 : 0;
}
