/* perfdata-dump: print what the perf.data reader delivers, one line per record, for the
 * end-to-end comparison with `perf script` (tests/e2e/perfdata-real.sh).
 *   perfdata-dump FILE|-   samples as "S pid tid cpu time addr ip phys weight data_src event",
 *                          LOST/THROTTLE records as "L kind count time event"
 *   perfdata-dump -s FILE  only samples, as "pid tid time ip sym dso": the ip's map through the
 *                          side-band (report/resolve/maps.h) and its symbol (report/resolve/symbols.h), "[unknown]"
 *                          for what is not found, as perf script -F pid,tid,time,ip,sym,dso
 *   perfdata-dump -F LIST FILE  only samples, the fields of LIST (comma-separated, any order):
 *                          comm pid tid cpu time (ns) event addr ip phys dsrc (hex without 0x)
 *                          weight sym dso mode (the cpumode) chain (the callchain's addresses,
 *                          context markers left out, joined by '/', '-' for none; as perf
 *                          script -F ip prints them: a user address in a map as its offset in
 *                          the map's file) --
 *                          tests/e2e/lib/perf-view.sh gives
 *                          perf script's view in the same form
 *   perfdata-dump -P FIELDS FILE
 *                          only samples, laid out as `perf script -G --ns -F FIELDS` prints them
 *                          (compare with spaces squeezed): FIELDS is a comma-separated list of
 *                          comm pid tid cpu time event addr ip sym symoff dso phys_addr. The ip is
 *                          resolved as -s does; a page fault's data address (addr, with sym and
 *                          dso) as perf script resolves it: the map in the sample's cpumode,
 *                          else in the mode of the address, and perf's symbol of any kind
 *                          there (sym_symbol())
 *   perfdata-dump -M FILE  only samples, as "event<TAB>addr<TAB>[l] data-symbol<TAB>data-object":
 *                          the data address as the report finds its map (maps_find() in the
 *                          sample's cpumode, no other), named as perf report --mem-mode prints
 *                          symbol_daddr and dso_daddr (l the ip's level, objects with +offset,
 *                          else 0x%016llx; the map's short name, else [unknown])
 *   perfdata-dump -c FILE  only the counts per record type */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "c2c/trace.h"
#include "report/resolve/maps.h"
#include "report/read/perfdata.h"
#include "report/resolve/symbols.h"

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

/* An address resolved to "symbol", its offset and "dso"; name NULL: [unknown]. */
struct resolved {
	const char *name, *dso;
	uint64_t off;
};

/* @addr of sample @s resolved. The code address (@data 0) as the report resolves it: the map
 * in the sample's cpumode (maps_find()), sym_code() there; that is what `perf script` shows for
 * the ip. A page fault's data address (@data 1) as perf script's thread__resolve() does: the map
 * in the sample's cpumode, else in the mode the address belongs to (thread__find_map_fb()),
 * and there the symbol of any kind perf's map__find_symbol() finds (sym_symbol()). */
static struct resolved resolve(struct maps *m, struct sym_session *sym,
			       const struct trace_sample *s, uint64_t addr, int data)
{
	struct maps_thread *t = maps_findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid);
	uint8_t mode = addr >> 63 ? MAPS_CPUMODE_KERNEL : MAPS_CPUMODE_USER;
	struct resolved r = { NULL, "[unknown]", 0 };
	struct sym_code_info ci;
	struct maps_loc loc;
	int rc;

	if ((!maps_find(m, t, s->cpumode, addr, &loc) || !loc.map) &&
	    (!data || mode == s->cpumode || !maps_find(m, t, mode, addr, &loc) || !loc.map))
		return r;
	r.dso = loc.map->dso->name;
	if (loc.map->dso->kernel)
		rc = kallsyms_fits(&loc.map->mmap) ? sym_kernel_code(sym, addr, &ci) : -1;
	else if (data)
		rc = sym_symbol(sym, &loc.map->mmap, addr, &ci);
	else
		rc = sym_code(sym, &loc.map->mmap, addr, &ci);
	if (!rc && ci.symbol) {
		r.name = ci.symbol;
		r.off = ci.sym_offset;
	}
	return r;
}

/* One sample's data address as perf report --mem-mode shows it (ip__resolve_data(): no other
 * cpumode is tried), keyed by the address for the caller to aggregate as perf's hist entries. */
static void print_mem(const struct trace_info *in, struct maps *m, struct sym_session *sym,
		      const struct trace_sample *s)
{
	struct maps_thread *t = maps_findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid);
	struct sym_code_info ci = { 0 };
	struct maps_loc loc;
	int rc = -1;

	printf("%s\t%#" PRIx64 "\t[%c] ", s->event < in->nr_events ? in->events[s->event].name : "?",
	       s->addr, maps_level_char(s->cpumode));
	if (maps_find(m, t, s->cpumode, s->addr, &loc) && loc.map)
		rc = loc.map->dso->kernel ? sym_kernel_code(sym, s->addr, &ci) :
					    sym_symbol(sym, &loc.map->mmap, s->addr, &ci);
	else
		loc.map = NULL;
	if (!rc && ci.symbol && ci.object)
		printf("%s+0x%" PRIx64, ci.symbol, ci.sym_offset);
	else if (!rc && ci.symbol)
		printf("%s", ci.symbol);
	else   /* perf's "%#.16llx": no 0x for 0 */
		printf(s->addr ? "0x%016" PRIx64 : "%016" PRIx64, s->addr);
	printf("\t%s\n", loc.map ? loc.map->dso->short_name : "[unknown]");
}

enum {
	F_PID = 1 << 0, F_TID = 1 << 1, F_CPU = 1 << 2, F_TIME = 1 << 3, F_EVENT = 1 << 4,
	F_ADDR = 1 << 5, F_IP = 1 << 6, F_SYM = 1 << 7, F_SYMOFF = 1 << 8, F_DSO = 1 << 9,
	F_PHYS = 1 << 10, F_COMM = 1 << 11,
};

static unsigned int parse_fields(const char *list)
{
	static const char *const names[] = { "pid", "tid", "cpu", "time", "event", "addr", "ip",
					     "sym", "symoff", "dso", "phys_addr", "comm" };
	unsigned int f = 0;

	while (*list) {
		size_t n = strcspn(list, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i]) == n && !strncmp(list, names[i], n))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "perfdata-dump: unknown field '%.*s'\n", (int)n, list);
			return 0;
		}
		f |= 1u << i;
		list += n + (list[n] == ',');
	}
	return f;
}

static void print_sym(unsigned int f, const struct resolved *r)
{
	if (f & F_SYM) {
		if (!r->name)
			printf(" [unknown]");
		else if (f & F_SYMOFF)
			printf(" %s+0x%" PRIx64, r->name, r->off);
		else
			printf(" %s", r->name);
	}
	if (f & F_DSO)
		printf(" (%s)", r->dso);
}

/* perf script's sample_addr_correlates_sym(): the data address of a page fault is in the
 * process's address space, so perf script resolves it (software events only here). */
static int addr_correlates(const struct trace_event_desc *e)
{
	return e->type == 1 && (e->config == 2 || e->config == 5 || e->config == 6);
}

/* One sample as perf script -G --ns -F @f prints it (builtin-script.c's process_event order). */
static void print_script(const struct trace_info *in, struct maps *m, struct sym_session *sym,
			 unsigned int f, const struct trace_sample *s)
{
	const struct trace_event_desc *e = s->event < in->nr_events ? &in->events[s->event] : NULL;

	if (f & F_COMM)
		printf("%s ", maps_findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid)->comm);
	/* perf prints them signed: a tracepoint's idle sample is "0/0", an exit "-1" */
	if ((f & F_PID) && (f & F_TID))
		printf("%d/%d", (int32_t)s->pid, (int32_t)s->tid);
	else if (f & (F_PID | F_TID))
		printf("%d", (int32_t)(f & F_PID ? s->pid : s->tid));
	if (f & F_CPU)
		printf(" [%03u]", s->cpu);
	if (f & F_TIME)
		printf(" %" PRIu64 ".%09" PRIu64 ":", s->time / 1000000000, s->time % 1000000000);
	if (f & F_EVENT)
		printf(" %s:", e ? e->name : "[unknown]");
	if (f & F_ADDR) {
		printf(" %" PRIx64, s->addr);
		if (e && addr_correlates(e)) {
			struct resolved r = resolve(m, sym, s, s->addr, 1);

			print_sym(f, &r);
		}
	}
	if (f & F_IP) {
		struct resolved r = resolve(m, sym, s, s->ip, 0);

		printf(" %" PRIx64, s->ip);
		print_sym(f, &r);
	}
	if (f & F_PHYS)
		printf(" %" PRIx64, s->phys_addr);
	printf("\n");
}

static void print_chain(struct maps *m, const struct maps_thread *t, const struct trace_sample *s)
{
	uint8_t mode = 2;   /* user until a context marker says otherwise */
	int n = 0;

	for (uint32_t i = 0; i < s->chain_nr; i++) {
		uint64_t ip = s->chain[i];
		struct maps_loc loc;

		if (ip >= TRACE_CHAIN_CONTEXT_MIN) {
			mode = ip == TRACE_CHAIN_CONTEXT_KERNEL ? 1 : 2;
			continue;
		}
		if (maps_find(m, t, mode, ip, &loc) && !loc.map->dso->kernel)
			ip = loc.al_addr;
		printf("%s%" PRIx64, n++ ? "/" : "", ip);
	}
	if (!n)
		putchar('-');
}

/* One sample's fields, its code address resolved as `perf script` does. */
static void print_fields(struct maps *m, struct sym_session *sym, const struct trace_info *in,
			 const struct trace_sample *s, const char *fields)
{
	struct maps_thread *t = maps_findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid);
	struct resolved r = resolve(m, sym, s, s->ip, 0);
	const char *name = r.name ? r.name : "[unknown]", *dso = r.dso, *f = fields;

	while (*f) {
		size_t n = strcspn(f, ",");

#define IS(x) (n == strlen(x) && !strncmp(f, x, n))
		if (IS("comm"))
			printf("%s", t->comm);
		else if (IS("pid"))
			printf("%d", (int32_t)s->pid);
		else if (IS("tid"))
			printf("%d", (int32_t)s->tid);
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
		else if (IS("chain"))
			print_chain(m, t, s);
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
	default:
		printf("? type %d\n", (int)ev->type);
		break;
	}
}

int main(int argc, char **argv)
{
	struct perfdata_reader *r;
	struct trace_event ev;
	uint64_t count[16] = { 0 }, last = 0, backwards = 0;
	int counts = argc > 2 && !strcmp(argv[1], "-c"), rc, skip;
	int resolve = argc > 2 && (!strcmp(argv[1], "-s") || !strcmp(argv[1], "-M"));
	int mem = argc > 2 && !strcmp(argv[1], "-M");
	const char *fields = argc > 2 && !strcmp(argv[1], "-s") ? "pid,tid,time,ip,sym,dso" : NULL;
	unsigned int script = 0;
	const struct trace_info *in;
	struct sym_session *sym = NULL;
	struct sym_opts so = { .use_proc_kallsyms = 1 };
	struct maps *m = NULL;

	if (argc > 3 && !strcmp(argv[1], "-F")) {
		fields = argv[2];
		resolve = 2;
	} else if (argc > 3 && !strcmp(argv[1], "-P")) {
		script = parse_fields(argv[2]);
		if (!script)
			return 2;
		resolve = 2;
	}
	skip = counts + resolve;
	if (argc != 2 + skip || !argv[1 + skip][0]) {
		fprintf(stderr, "usage: perfdata-dump [-c|-s|-M|-F LIST|-P FIELDS] FILE\n");
		return 2;
	}
	if (perfdata_reader_open(&r, argv[1 + skip]) < 0)
		return 1;
	in = perfdata_reader_info(r);
	if (resolve) {
		so.kernel_release = in->kernel_release;
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
			case TRACE_REC_SAMPLE:
				if (script)
					print_script(in, m, sym, script, &ev.sample);
				else if (mem)
					print_mem(in, m, sym, &ev.sample);
				else
					print_fields(m, sym, in, &ev.sample, fields);
				break;
			default: break;
			}
			continue;
		}
		count[ev.type & 15]++;
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
