/* Synthesized side-band records from /proc (see synth.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#include "c2c/xalloc.h"
#include "record/synth.h"
#include "record/sysfs.h"

int synth_parse_maps_line(char *line, struct trace_mmap *m)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];
	int n = 0;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj, &min,
		   &ino, &n) < 7 || end < start || strlen(perms) < 4)
		return -EINVAL;
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->cpumode = PERF_RECORD_MISC_USER;
	line[strcspn(line, "\n")] = '\0';
	m->filename = n > 0 && line[n] ? line + n : "//anon";
	return 0;
}

static int synth_comms(pid_t pid, synth_emit emit, void *ctx)
{
	char path[128], comm[64];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/proc/%d/task", sysfs_root(), (int)pid);
	if (!(d = opendir(path)))
		return errno == ENOENT ? 0 : -errno;
	while (!err && (de = readdir(d))) {
		struct trace_event ev = { .type = TRACE_REC_COMM };
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/comm", (int)pid, tid);
		if (sysfs_read_line(path, comm, sizeof(comm)))
			continue;
		ev.comm.pid = (uint32_t)pid;
		ev.comm.tid = (uint32_t)tid;
		ev.comm.comm = comm;
		err = emit(&ev, ctx);
	}
	closedir(d);
	return err;
}

int synth_process(pid_t pid, struct buildid_cache *bc, synth_emit emit, void *ctx)
{
	char path[64], *maps, *line, *save = NULL;
	int err = synth_comms(pid, emit, ctx);

	if (err)
		return err;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (sysfs_read_all(path, &maps, NULL, 64 << 20))
		return 0;
	for (line = strtok_r(maps, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save)) {
		struct trace_event ev = { .type = TRACE_REC_MMAP };

		if (synth_parse_maps_line(line, &ev.mmap))
			continue;
		ev.mmap.pid = ev.mmap.tid = (uint32_t)pid;
		if (bc && (ev.mmap.prot & PROT_EXEC))
			ev.mmap.build_id_size = buildid_lookup(bc, ev.mmap.filename, ev.mmap.build_id);
		err = emit(&ev, ctx);
	}
	free(maps);
	return err;
}

int synth_all(struct buildid_cache *bc, synth_emit emit, void *ctx)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/proc", sysfs_root());
	if (!(d = opendir(path)))
		return -errno;
	while (!err && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			err = synth_process((pid_t)strtol(de->d_name, NULL, 10), bc, emit, ctx);
	closedir(d);
	return err;
}

/* "addr type name" with @name exactly @want. */
static int ksym_is(const char *line, const char *want, uint64_t *addr)
{
	size_t n = strlen(want);
	const char *sp = strchr(line, ' ');
	char *end;

	if (!sp || !sp[1] || sp[2] != ' ' || strncmp(sp + 3, want, n) ||
	    (sp[3 + n] != '\n' && sp[3 + n] != '\0' && sp[3 + n] != '\t'))
		return 0;
	*addr = strtoull(line, &end, 16);
	return end == sp;
}

/* _text (or _stext) and _etext from kallsyms text; sscanf would rescan the whole text each
 * line (it calls strlen), so lines are taken apart by hand. */
static void kernel_text(const char *ks, uint64_t *start, uint64_t *end)
{
	uint64_t a;

	*start = *end = 0;
	for (const char *s = ks; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
		if ((ksym_is(s, "_text", &a) || ksym_is(s, "_stext", &a)) && !*start)
			*start = a;
		else if (ksym_is(s, "_etext", &a))
			*end = a;
		if (*start && *end)
			break;
	}
}

int synth_kernel(synth_emit emit, void *ctx)
{
	struct trace_event ev = { .type = TRACE_REC_BLOB };
	uint64_t start, end;
	char *ks;
	size_t len;
	int err = sysfs_read_all("/proc/kallsyms", &ks, &len, 512 << 20);

	if (err)
		return err;
	kernel_text(ks, &start, &end);
	if (!start) {
		free(ks);
		return -EACCES;
	}
	ev.blob.kind = TRACE_BLOB_KALLSYMS;
	ev.blob.cpu = TRACE_CPU_NONE;
	ev.blob.size = len;
	ev.blob.data = ks;
	err = emit(&ev, ctx);
	if (!err) {
		struct trace_event m = { .type = TRACE_REC_MMAP };

		m.mmap.pid = m.mmap.tid = UINT32_MAX;
		m.mmap.start = start;
		m.mmap.len = end > start ? end - start : 0;
		m.mmap.prot = PROT_READ | PROT_EXEC;
		m.mmap.cpumode = PERF_RECORD_MISC_KERNEL;
		m.mmap.filename = "[kernel.kallsyms]_text";
		err = emit(&m, ctx);
	}
	free(ks);
	return err;
}
