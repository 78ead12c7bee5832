/* The watch backend of `c2c-lite record --backend=watch --watch SPEC -- cmd`: hardware
 * watchpoints (PERF_TYPE_BREAKPOINT, read/write, every hit a sample) on a few words of the
 * workload's data, inherited by every thread.
 *
 * SPEC is SYMBOL, SYMBOL+OFF, SYMBOL/LEN, SYMBOL+OFF/LEN or 0xADDR/LEN (OFF and LEN in C
 * notation). SYMBOL is looked up in the ELF symbol table of the workload's executable; without
 * /LEN the symbol's size is watched (8 bytes when it has none). Ranges longer than 8 bytes are
 * split into aligned 8-byte words (shorter at the edges); a raw 0xADDR is a run-time address.
 *
 * POSITION-INDEPENDENT EXECUTABLES. Their addresses are known only once the kernel has mapped the
 * program. The recorder therefore attaches to the held workload with ptrace(PTRACE_SEIZE,
 * PTRACE_O_TRACEEXEC), releases it, and finds it stopped right after exec: it reads the load
 * address from /proc/PID/maps, opens the watchpoints (inherited by the threads the program will
 * create), and detaches before a single instruction of the program has run. The watched symbols
 * must be in the executable itself, not in a shared library.
 *
 * ROTATION. x86-64 has 4 debug registers. When more words are asked for, 4 watchpoints are
 * opened and moved over the words in groups of 4 every step (PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
 * which the kernel applies to the inherited copies too); each word is watched slots/words of
 * the time and trace_info.options says so ("watch: rotated ...").
 *
 * Each hit is written as a sample: ip, tid, cpu, time, the access kind from the instruction that
 * ends at the trap IP (record/soft-decode.h with max_back 1), so loads, stores and atomics
 * differ, and the address of the access. The kernel's PERF_SAMPLE_ADDR is the watched word
 * (bp_addr), not the bytes touched, so the address is recomputed from that instruction's operand
 * and the user registers sampled at the trap (watch_locate()):
 *   - the registers give it (SOFTDEC_ADDR, SOFTDEC_ADDR_RIP): exact;
 *   - the instruction overwrote its own base or index (`mov 4(%rax),%eax`: the trap comes after
 *     it): SOFTDEC_ADDR_INFERRED, the offset in the word is the displacement's, assuming a base
 *     aligned to the word's length (structs and heap blocks are) and an access aligned to its
 *     size; an access at least as wide as the word covers it;
 *   - no operand to go by (code outside the known functions, string instructions):
 *     SOFTDEC_ADDR_WORD, the word's start.
 * The report counts hits by these reasons. */
#ifndef C2C_RECORD_BACKEND_WATCH_H
#define C2C_RECORD_BACKEND_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "c2c/trace.h"
#include "c2c/watch.h"
#include "record/backend-soft.h"
#include "record/soft-decode.h"

#define WATCH_SLOTS_X86 4
#define WATCH_STEP_MS_DEFAULT 10
#define WATCH_TICK_MS 1           /* duty-cycle control step */
#define WATCH_WORDS_MAX 64

/* One parsed --watch. */
struct watch_req {
	char sym[128];           /* "" for a raw address */
	uint64_t addr;           /* raw address, or offset from the symbol */
	unsigned int len;        /* 0: not given */
};

/* One watched word. */
struct watch_word {
	uint64_t addr;
	unsigned int len;        /* 1, 2, 4 or 8, naturally aligned */
	char label[160];
};

struct watch_plan {
	struct watch_word *w;
	size_t nr;
	unsigned int slots;      /* registers used: min(nr, WATCH_SLOTS_X86) */
};

/* Parse a --watch spec. Pure; -EINVAL (logged) on bad syntax. */
int watch_parse(const char *spec, struct watch_req *out);
/* Split [addr, addr + len) into naturally aligned words of at most 8 bytes, appended to @plan
 * with @label; -E2BIG past WATCH_WORDS_MAX words. Pure. */
int watch_plan_add_range(struct watch_plan *plan, uint64_t addr, uint64_t len, const char *label);
/* Resolve @specs against process @pid (stopped after exec of @exe): symbols from the ELF
 * symbol table of @exe, relocated by the load address in /proc/PID/maps for PIE programs. */
int watch_plan_build(struct watch_plan *plan, const char *const *specs, size_t n, pid_t pid,
		     const char *exe);
void watch_plan_release(struct watch_plan *plan);
/* The word slot @slot watches in rotation step @step. */
size_t watch_plan_word(const struct watch_plan *plan, uint64_t step, unsigned int slot);
/* A text for trace_info.options: the words, and the rotation when there is one. */
void watch_plan_describe(const struct watch_plan *plan, unsigned int step_ms, char *buf,
			 size_t size);

/* ptrace helpers around the exec of a held workload (see above). */
int watch_seize(pid_t pid);
/* Wait for the exec stop; -ECHILD (logged) when the workload ended or stopped otherwise. */
int watch_wait_exec(pid_t pid);
int watch_detach(pid_t pid);

/* Where in the watched word [@word, @word + @len) the decoded access @acc went: *addr and the
 * reason (see above). Pure. */
enum softdec_reason watch_locate(const struct softdec_access *acc, uint64_t word, unsigned int len,
				 uint64_t *addr);
/* Turn a watchpoint sample (ip, tid, time, addr = the watched word of length @len, cpu) into a
 * watch sample: the kind of the instruction that ends at the trap IP, its address (@regs: the
 * user registers at the trap, NULL when not sampled), data_src and detail; the IP becomes that
 * instruction's (the trap reports the next one) with TRACE_SAMPLE_EXACT_IP. */
struct watch_decoder;
int watch_decoder_new(struct watch_decoder **out, struct codemap *cm);
void watch_decoder_free(struct watch_decoder *wd);
void watch_decoder_fill(struct watch_decoder *wd, struct trace_sample *s,
			const struct softdec_regs *regs, unsigned int len);

/* --- duty cycle (include/c2c/watch.h) -------------------------------------------------------- */

struct watch_duty_ctl {
	struct c2c_watch_duty d;
	int armed;               /* the watchpoints are armed for the next interval */
	int started;
	uint64_t last_cpu, last_hits;
};

/* Start armed, with @budget (0: unbounded) and the cost of a hit, for the words of @plan. */
void watch_duty_init(struct watch_duty_ctl *c, double budget, double ns_per_hit,
		     const struct watch_plan *plan);
/* One control step: the workload's CPU time and the hits so far (both cumulative), and the
 * @nw words (plan indexes) the registers watched since the last step. Charges the interval
 * (trap time = hits * ns_per_hit, at most the interval's CPU time; the rest is useful work, seen
 * when armed) and returns the state for the next interval: armed while the trap time so far is
 * within budget * the useful time so far. Pure. */
int watch_duty_tick(struct watch_duty_ctl *c, uint64_t cpu_ns, uint64_t hits, const size_t *words,
		    unsigned int nw);
/* After the watchpoints were armed or disarmed as the tick said: the readings once the switch
 * took effect. What ran between the two readings is charged as not watched (the switch is not
 * instant: the kernel reaches each thread's CPU in turn). Pure. */
void watch_duty_switched(struct watch_duty_ctl *c, uint64_t cpu_ns, uint64_t hits);

/* Measure the cost of one watchpoint hit on this machine (ns of CPU time): trap on a word of
 * this thread with the sampling the workload's watchpoints use. -errno (logged) when no
 * watchpoint can be opened. */
int watch_calibrate(double *ns_per_hit);

#endif
