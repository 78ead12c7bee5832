/* The soft backend of `c2c-lite record --backend=soft`: cpu-clock samples of every thread of the
 * targets, with the user registers (PERF_SAMPLE_REGS_USER, REGS_X86_SOFT_MASK), decoded at
 * record time into the data access the thread was stalled on (record/soft-decode.h).
 *
 * The recorder feeds the backend the side-band records it sees (MMAP, COMM exec, FORK) so that
 * it knows, per process, which file is mapped where. For a sample, the backend finds the map
 * holding the IP, the function holding it in that file (record/fnbounds.h: its sized symbols,
 * else the .eh_frame FDE, so that code of stripped shared libraries is decoded too; a file is
 * opened on the first sample in it, and stays mapped), the function's bytes from the file
 * (through the PT_LOAD program headers, never from the process, read once per function), runs
 * the decoder and fills the trace sample: weight is the sample period
 * (cpu-clock counts nanoseconds), addr/data_src/detail come from softdec_fill_sample(). A sample
 * whose address cannot be recovered is still produced, its reason in detail.
 *
 * The same code map serves the watch backend: the function around a trap IP, and the ELF
 * symbols a --watch names. Not thread-safe; all -errno returns. */
#ifndef C2C_RECORD_BACKEND_SOFT_H
#define C2C_RECORD_BACKEND_SOFT_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "c2c/trace.h"
#include "record/soft-decode.h"

/* --- code map: processes' executable mappings and their ELF functions -------------------- */

struct codemap;

struct codemap *codemap_new(void);
void codemap_free(struct codemap *cm);
/* Side band: an executable file mapping (others are ignored), an exec (forget the pid's maps),
 * a fork of a new process (copy the parent's maps). */
void codemap_mmap(struct codemap *cm, const struct trace_mmap *m);
void codemap_exec(struct codemap *cm, uint32_t pid);
void codemap_fork(struct codemap *cm, uint32_t pid, uint32_t ppid);
/* Read /proc/<pid>/maps (used when an IP falls in no known map: the MMAP record may still be in
 * another CPU's ring). 0, or -errno when the process is gone. */
int codemap_load_proc(struct codemap *cm, uint32_t pid);
/* The function holding @ip in process @pid: fills *fn (bytes owned by the map, valid until
 * codemap_free()). -ENOENT: no map; -ESRCH: neither a sized symbol nor an FDE covers the IP
 * (or the file cannot be read). */
int codemap_func(struct codemap *cm, uint32_t pid, uint64_t ip, struct softdec_func *fn);
/* The goroutine a user sample at @ip ran (trace_sample.task): when @ip is in a Go binary that
 * keeps g in r14 (go_buildinfo_register_g()) and whose DWARF gives runtime.g's goid, the goid
 * read from the g r14 points to (process_vm_readv: the recorder's own children, or processes
 * it may trace), else 0 (as for the runtime's g0 stacks, whose goid is 0). Whether @ip is Go
 * code and not cgo's C or Go assembly (where r14 is anything) the report decides, by its line. */
uint64_t codemap_task(struct codemap *cm, uint32_t pid, uint64_t ip, const struct softdec_regs *regs);
/* 1 when @p (@n bytes: the start of a .go.buildinfo section) is the header of a Go 1.18+ binary
 * for @machine (ELF e_machine) whose Go code keeps g in r14: amd64. Pure. */
int go_buildinfo_register_g(const uint8_t *p, size_t n, unsigned int machine);

/* The ELF symbol @name (any type but sections and files) of the file at @path: its link-time
 * address and size, and whether the file is position-independent (ET_DYN). -ENOENT when absent. */
int elfsym_lookup(const char *path, const char *name, uint64_t *vaddr, uint64_t *size, int *pie);

/* --- raw samples ---------------------------------------------------------------------------- */

/* The fields of a PERF_RECORD_SAMPLE the soft and watch backends use. */
struct soft_raw {
	uint64_t id, ip, time, addr, period;
	uint32_t pid, tid, cpu;
	uint32_t chain_nr;       /* PERF_SAMPLE_CALLCHAIN (at most TRACE_CHAIN_MAX kept) */
	const uint64_t *chain;   /* inside the record */
	const uint64_t *uregs;   /* the raw user registers (abi 64), in the record */
	uint64_t uregs_mask;
	const uint8_t *stack;    /* PERF_SAMPLE_STACK_USER: the filled bytes, in the record */
	uint64_t stack_size;
	uint64_t abi;            /* PERF_SAMPLE_REGS_ABI_*, 0 when no registers */
	struct softdec_regs regs;
};

/* Parse @h laid out by @sample_type (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU,
 * PERIOD, CALLCHAIN, REGS_USER, STACK_USER; any other bit: -ENOTSUP) with registers @regs_mask. -EBADMSG when short. */
int soft_parse_sample(const struct perf_event_header *h, uint64_t sample_type, uint64_t regs_mask,
		      struct soft_raw *out);
/* @out cleared, then the fields @r gives every backend's sample of @h: time, ip, pid, tid, cpu
 * (TRACE_SAMPLE_HAS_CPU when known), callchain, user registers (abi 64), stack and cpumode;
 * @event its index. The soft backend adds the decoded access, the watch backend the hit. */
void soft_raw_sample(const struct soft_raw *r, const struct perf_event_header *h, uint16_t event,
		     struct trace_sample *out);

/* --- the backend ---------------------------------------------------------------------------- */

struct soft_backend;

int soft_backend_new(struct soft_backend **out);
void soft_backend_free(struct soft_backend *sb);
struct codemap *soft_backend_codemap(struct soft_backend *sb);
/* The event: cpu-clock, user space only, IP|TID|TIME|CPU|PERIOD|REGS_USER. */
void soft_backend_attr(struct perf_event_attr *a);
/* Decode a sample record of the soft event into *out (event index @event). 0, or -errno for a
 * record that does not parse. */
int soft_backend_sample(struct soft_backend *sb, const struct perf_event_header *h,
			uint64_t sample_type, uint64_t regs_mask, uint16_t event,
			struct trace_sample *out);

/* --- what a sample costs ---------------------------------------------------------------- */

/* Measure what one sample of an event like @model (the soft backend's, as opened) costs the
 * thread it interrupts here, in wall-clock nanoseconds: this thread reads the clock in a loop,
 * sampled at 10 kHz in 8 bursts of 2 ms (about 160 samples, 17 ms in all); each sample's cost is
 * the gap in the clock readings its timestamp falls in, less a plain iteration (none: under the
 * threshold of 4 iterations or 200 ns, counted as 0). A burst's answer is the median of its
 * samples, which a preemption or an unrelated interrupt cannot move; the answer is the cheapest
 * burst's (of those with 5 samples or more), which a few milliseconds where the host made every
 * sample dear cannot move (one calibration in 40 here read 12-19 us for all its samples, 6 us
 * being usual). 0 when no cost shows; -errno (said) when the event does not open. The rate it leads to: rate_plan() (record/rate-plan.h). */
int soft_calibrate(const struct perf_event_attr *model, double *ns_per_sample);

struct soft_stats {
	uint64_t samples, recovered, no_func, no_map, proc_reads;
};
const struct soft_stats *soft_backend_stats(const struct soft_backend *sb);

#endif
