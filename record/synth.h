/* Side-band records for what existed before recording started: COMM and MMAP of running
 * processes from /proc/<pid>/task/<tid>/comm and /proc/<pid>/maps, the kernel map and a
 * /proc/kallsyms snapshot. Records are handed to @emit in the order written; time 0. */
#ifndef C2C_RECORD_SYNTH_H
#define C2C_RECORD_SYNTH_H

#include <sys/types.h>

#include "c2c/trace.h"
#include "record/buildid.h"

typedef int (*synth_emit)(const struct trace_event *ev, void *ctx);

/* One process: a COMM per thread, an MMAP per file or anonymous mapping. A process that
 * vanished meanwhile is not an error (0). */
int synth_process(pid_t pid, struct buildid_cache *bc, synth_emit emit, void *ctx);
/* Every process in /proc. */
int synth_all(struct buildid_cache *bc, synth_emit emit, void *ctx);
/* The kernel map (pid -1) and the kallsyms blob; -EACCES when addresses are hidden (zeros). */
int synth_kernel(synth_emit emit, void *ctx);
/* Parse one /proc/<pid>/maps line into *m (filename points into @line). Pure; 0 or -EINVAL. */
int synth_parse_maps_line(char *line, struct trace_mmap *m);

#endif
