/* c2c-gen's perf.data writer (tests/tools/gen/perf-writer.c): writes the events of a scenario as
 * a perf.data file the way perf 6.1 writes one, with the traits of real recordings chosen by a
 * comma-separated list (c2c-gen --perf LIST; perf-writer.c lists them and the perf functions
 * each one imitates). Test-only. */
#ifndef C2C_GEN_PERF_WRITER_H
#define C2C_GEN_PERF_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/trace.h"

enum pw_events {
	PW_EV_ONE,       /* one event with loads and stores (AMD's ibs_op//) */
	PW_EV_LS,        /* cpu/mem-loads,ldlat=30/P and cpu/mem-stores/P */
	PW_EV_AUX,       /* {cpu/mem-loads-aux/,cpu/mem-loads,ldlat=30/}:P and cpu/mem-stores/P */
	PW_EV_HYBRID,    /* the aux group and the stores on cpu_core, loads and stores on cpu_atom */
};

enum pw_id { PW_ID_AUTO, PW_ID_IDENTIFIER, PW_ID_ID, PW_ID_NONE };
enum pw_weight { PW_W_PLAIN, PW_W_STRUCT, PW_W_NONE };
enum pw_target { PW_T_NONE, PW_T_WORKLOAD, PW_T_SYSTEM, PW_T_PIDS };

struct pw_opts {
	int traits;               /* 0: the plain file of earlier versions (one attr, no preamble) */
	enum pw_events events;
	enum pw_id id;
	enum pw_weight weight;
	enum pw_target target;    /* what perf synthesizes before FINISHED_INIT */
	int dummy;                /* a dummy:HG event carries the side-band */
	int no_cpu, no_period, no_sample_id_all, per_thread, no_index, weight_set;
	uint32_t attr_size;       /* bytes of perf_event_attr written: 64 ... 136 */
	int pipe, zstd;
	/* Arm SPE (trait spe): the samples as SPE records in AUX buffers */
	int spe;
	uint64_t midr;            /* the CPUID feature (default Neoverse N1) */
	int spe_no_ctx, spe_bad, spe_cut, spe_no_auxindex, spe_old_tc;
	uint64_t spe_seed;
	int callchain;            /* PERF_SAMPLE_CALLCHAIN (perf record -g): samples' chains */
};

/* Parse @spec ("ls,dummy,system,..."); 0, or -1 with a message on stderr. */
int pw_parse(struct pw_opts *o, const char *spec);

/* Write @nr events of @in to @path; 0 or a negative errno. */
int pw_write(const char *path, const struct trace_info *in, const struct trace_event *ev, size_t nr,
	     const struct pw_opts *o);

#endif
