/* The bodies of the fuzz targets, shared by the libFuzzer binaries (fuzz/fuzz_*.c) and by the
 * replay of the regression corpus in `make test` (tests/test_fuzz_regress.c), so that a committed
 * input is replayed through exactly the code that found it.
 *
 * fuzz_perfdata_input() and fuzz_trace_input() run one input through a reader and then through
 * what `c2c-lite report` does with the reader's output: the cacheline table with the trace_info
 * topology (report/aggregate/cltable*.c) or the estimate table of soft and watch traces, the
 * process model of the side-band records (report/resolve/maps.c), the TopDown aggregation, and
 * the report model (report/model/: naming without symbols, judgement, findings) with the
 * summary and the stdio report (written to /dev/null). Symbols are not resolved (that would open files the input
 * names). Each returns 0, or -1 after naming a broken invariant on standard error: the reader
 * handed out something its header promises it never does (a CPU or node beyond TRACE_CPU_MAX /
 * TRACE_NODE_MAX, an event index past the events, a missing string), or a table does not add
 * up. Crashes, leaks and overreads are the sanitizers' to find.
 *
 * fuzz_fnbounds_input() opens one input as an ELF file in memory and looks up function bounds in
 * it (record/fnbounds.c: sized symbols, .eh_frame_hdr's table, the walk of .eh_frame), as the soft
 * and watch recorders do for every shared library a sample lands in; a range that does not hold
 * the address looked up, or comes from a source the file does not have, is a broken invariant. */
#ifndef C2C_FUZZ_TARGETS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* pipe2, F_SETPIPE_SZ */
#endif
#define C2C_FUZZ_TARGETS_H

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "c2c/log.h"
#include "c2c/spe.h"
#include "c2c/trace.h"
#include "c2c/uncore.h"
#include "report/aggregate/cltable.h"
#include "report/aggregate/estimate.h"
#include "report/aggregate/topdown-agg.h"
#include "report/model/findings.h"
#include "report/model/model.h"
#include "report/model/sections-build.h"
#include "report/read/perfdata.h"
#include "report/read/spe.h"
#include "report/resolve/maps.h"
#include "report/stdio/sections.h"
#include "report/stdio/stdio-estimate.h"
#include "report/stdio/stdio.h"
#include "report/stdio/summary.h"
#include "record/fnbounds.h"

#define FUZZ_FAIL(...) (fprintf(stderr, "fuzz: " __VA_ARGS__), fputc('\n', stderr), -1)

static void fuzz_quiet(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

/* Where the reports go: written in full, then discarded. */
static FILE *fuzz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

/* What include/c2c/trace.h promises of a trace_info, whichever reader made it. */
static int fuzz_check_info(const struct trace_info *in)
{
	uint32_t i;

	if (in->nr_cpus > TRACE_CPU_MAX || in->nr_nodes > TRACE_NODE_MAX)
		return FUZZ_FAIL("info: %u CPUs, %u nodes", in->nr_cpus, in->nr_nodes);
	if (in->nr_cpus && !in->cpu_node)
		return FUZZ_FAIL("info: %u CPUs without a node map", in->nr_cpus);
	for (i = 0; i < in->nr_cpus; i++)
		if (in->cpu_node[i] < TRACE_NODE_NONE || in->cpu_node[i] >= TRACE_NODE_MAX)
			return FUZZ_FAIL("info: CPU %u on node %d", i, in->cpu_node[i]);
	if (in->nr_events && !in->events)
		return FUZZ_FAIL("info: %u events without descriptions", in->nr_events);
	if (in->nr_mem_ranges && !in->mem_ranges)
		return FUZZ_FAIL("info: %u memory ranges without an array", in->nr_mem_ranges);
	for (i = 0; i < in->nr_mem_ranges; i++)
		if (in->mem_ranges[i].node >= TRACE_NODE_MAX ||
		    in->mem_ranges[i].start > in->mem_ranges[i].end)
			return FUZZ_FAIL("info: memory range %u [%#llx, %#llx) on node %u", i,
					 (unsigned long long)in->mem_ranges[i].start,
					 (unsigned long long)in->mem_ranges[i].end,
					 in->mem_ranges[i].node);
	return 0;
}

/* Touch every byte a record points to (an invalid pointer or length faults here) and check
 * what the reader promises of it. @perf: from the perf.data reader, whose samples always name
 * one of the file's events. */
static int fuzz_check_event(const struct trace_info *in, const struct trace_event *ev, int perf)
{
	volatile uint8_t sink = 0;

	switch (ev->type) {
	case TRACE_REC_SAMPLE:
		if (ev->sample.td_nr > TRACE_TD_MAX)
			return FUZZ_FAIL("sample with %u TopDown values", ev->sample.td_nr);
		if (perf && ev->sample.event >= in->nr_events)
			return FUZZ_FAIL("sample of event %u of %u", ev->sample.event, in->nr_events);
		break;
	case TRACE_REC_MMAP:
		if (!ev->mmap.filename || ev->mmap.build_id_size > TRACE_BUILD_ID_MAX)
			return FUZZ_FAIL("mmap without a name or with a %u-byte build id",
					 ev->mmap.build_id_size);
		sink += (uint8_t)strlen(ev->mmap.filename);
		break;
	case TRACE_REC_COMM:
		if (!ev->comm.comm)
			return FUZZ_FAIL("comm without a name");
		sink += (uint8_t)strlen(ev->comm.comm);
		break;
	case TRACE_REC_BLOB:
		if (ev->blob.size && !ev->blob.data)
			return FUZZ_FAIL("blob of %llu bytes without data",
					 (unsigned long long)ev->blob.size);
		for (uint64_t i = 0; i < ev->blob.size; i += 4096)
			sink += ((const uint8_t *)ev->blob.data)[i];
		if (ev->blob.size)
			sink += ((const uint8_t *)ev->blob.data)[ev->blob.size - 1];
		if (ev->blob.kind == TRACE_BLOB_SPE_INFO) {
			struct c2c_spe_info si;

			if (!c2c_spe_info_parse(ev->blob.data, ev->blob.size, &si)) {
				sink += si.nr_midr ? si.midr[si.nr_midr - 1].midr : 0;
				c2c_spe_info_release(&si);
			}
		}
		if (ev->blob.kind == TRACE_BLOB_UNCORE) {
			struct c2c_uncore u;

			if (!c2c_uncore_parse(ev->blob.data, ev->blob.size, &u)) {
				if (u.nr > sizeof(u.row) / sizeof(u.row[0]) ||
				    u.nr_notes > C2C_UNCORE_NOTES)
					return FUZZ_FAIL("uncore blob parsed into %zu rows, %zu notes",
							 u.nr, u.nr_notes);
				sink += u.nr ? (uint8_t)u.row[u.nr - 1].a : 0;
			}
		}
		break;
	case TRACE_REC_REGION:
		if (!ev->region.name)
			return FUZZ_FAIL("region without a name");
		sink += (uint8_t)strlen(ev->region.name);
		break;
	case TRACE_REC_FORK: case TRACE_REC_EXIT: case TRACE_REC_LOST: case TRACE_REC_AUX:
	case TRACE_REC_ITRACE_START: case TRACE_REC_SWITCH:
		break;
	default:
		return FUZZ_FAIL("record of unknown type %d", (int)ev->type);
	}
	(void)sink;
	return 0;
}

/* A record source: either reader; records delivered so far and the reader's last return. */
struct fuzz_src {
	struct perfdata_reader *pd;
	struct trace_reader *tr;
	uint64_t nr;
	int last;
};

static int fuzz_next(struct fuzz_src *s, struct trace_event *ev)
{
	s->last = s->pd ? perfdata_reader_next(s->pd, ev) : trace_reader_next(s->tr, ev);
	s->nr += s->last == 1;
	return s->last;
}

/* The report model of a finished table, judged and grouped, and (with @print) its summary;
 * 0, or -1 when the model does not add up. */
static int fuzz_model(struct rm_model *rm, const struct maps *m, int print)
{
	struct rm_name_opts no = { .maps = m };
	struct rm_summary_opts so = { .top = 3, .prefix = "  ", .say_none = 1, .map = 1 };
	struct rm_findings *fs;
	int rc = 0;

	rm_name(rm, &no);
	rm_judge(rm);
	if (rm_check(rm))
		return FUZZ_FAIL("report model does not add up");
	fs = rm_findings_build(rm);
	if (print)
		summary_print(fuzz_null(), rm, fs, &so);
	rm_findings_free(fs);
	return rc;
}

/* The soft and watch report: the estimate table and its model. */
/* The TopDown section, built and printed as the report does. */
static void fuzz_sections(const struct td_agg *td)
{
	struct rm_sections *ss = rm_sections_new();

	rm_sec_topdown(ss, td, NULL, NULL);
	stdio_section_print(fuzz_null(), rm_sections_get(ss, RM_SEC_TOPDOWN), 3);
	rm_sections_free(ss);
}

static int fuzz_estimate(struct fuzz_src *s, const struct trace_info *in, uint32_t cl_size,
			 int all)
{
	struct estim_opts eo = {
		.mode = in->backend == TRACE_BACKEND_WATCH ? ESTIM_WATCH : ESTIM_SOFT,
		.cl_size = cl_size,
	};
	struct stdio_estim_opts so = { .info = in, .summary = 3, .map = 1 };
	struct estim *e = estim_new(&eo);
	struct maps *m = maps_new();
	struct rm_model *rm = NULL;
	struct trace_event ev;
	int rc = 0;

	while (!rc && fuzz_next(s, &ev) == 1) {
		rc = fuzz_check_event(in, &ev, !!s->pd);
		if (!rc)
			estim_feed(e, m, &ev);
	}
	if (!rc) {
		estim_finish(e);
		if (estim_check(e))
			rc = FUZZ_FAIL("estimate table does not add up");
	}
	if (!rc) {
		rm = rm_from_estim(e);
		rc = fuzz_model(rm, m, all);
		if (!rc && all) {
			struct rm_findings *fs = rm_findings_build(rm);
			struct rm_sections *ss = rm_sections_new();
			struct rm_header_in h = { .path = "fuzz", .info = in, .kind = rm->kind };

			rm_sec_header(ss, &h);
			rm_sec_run(ss, &(struct rm_run_in){ .e = e, .m = rm, .fs = fs });
			so.sections = ss;
			stdio_estim_print(fuzz_null(), rm, fs, &so);
			rm_sections_free(ss);
			rm_findings_free(fs);
		}
		rm_free(rm);
	}
	estim_free(e);
	maps_free(m);
	return rc;
}

/* The hardware report: cacheline table, TopDown, then with @all every line (--show-all) and
 * the model, the summary and perf's stdio sections printed (the slowest part: for some inputs
 * only). */
static int fuzz_cltable(struct fuzz_src *s, const struct trace_info *in, uint32_t cl_size, int all)
{
	struct cltab_opts to = {
		.cl_size = cl_size, .display = CLTAB_DISPLAY_TOT, .show_all = all,
		.coalesce = { CLTAB_CO_IADDR, CLTAB_CO_PID }, .nr_coalesce = 2,
		.nr_cpus = in->nr_cpus, .cpu_node = in->cpu_node, .nr_nodes = in->nr_nodes,
		.mem_ranges = in->mem_ranges, .nr_mem_ranges = in->nr_mem_ranges,
	};
	const char *names[64];
	struct stdio_opts so = { .node_info = 2, .coalesce = "iaddr,pid", .events = names };
	struct cltab *t = cltab_new(&to);
	struct maps *m = maps_new();
	struct td_agg *td = td_agg_new(in, cl_size);
	struct trace_event ev;
	uint32_t i;
	int rc = 0;

	for (i = 0; i < in->nr_events && i < 64; i++)
		names[i] = in->events[i].name ? in->events[i].name : "";
	so.nr_events = (int)i;
	while (!rc && fuzz_next(s, &ev) == 1) {
		rc = fuzz_check_event(in, &ev, !!s->pd);
		if (rc)
			break;
		cltab_feed(t, m, &ev);
		if (ev.type == TRACE_REC_SAMPLE)
			td_agg_sample(td, &ev.sample);
	}
	if (!rc) {
		cltab_finish(t);
		if (cltab_check(t))
			rc = FUZZ_FAIL("cacheline table does not add up");
	}
	if (!rc && all) {
		size_t nr;
		struct cltab_line *const *ln = cltab_lines(t, &nr);
		struct rm_model *rm = rm_from_cltab(t, CLTAB_DISPLAY_TOT, ln, nr);

		rc = fuzz_model(rm, m, 1);
		stdio_print(fuzz_null(), rm, &so);
		rm_free(rm);
		fuzz_sections(td);
	}
	td_agg_free(td);
	cltab_free(t);
	maps_free(m);
	return rc;
}

/* What `report` does with an opened source; printed with --show-all for one input size in four. */
static int fuzz_report(struct fuzz_src *s, const struct trace_info *in, size_t size)
{
	uint32_t cl = in->cacheline_size;

	if (fuzz_check_info(in))
		return -1;
	/* the report takes this machine's line size, the file's only as a fallback; tables need a
	 * power of two */
	if (!cl || (cl & (cl - 1)) || cl > 4096)
		cl = 64;
	if (in->backend == TRACE_BACKEND_SOFT || in->backend == TRACE_BACKEND_WATCH)
		return fuzz_estimate(s, in, cl, size % 4 == 0);
	return fuzz_cltable(s, in, cl, size % 4 == 0);
}

/* A pipe-mode stream as `report -i -` reads it: through a pipe (the reader's stream input, which
 * copies records instead of pointing into a mapping). The whole input is written into the pipe
 * first (its buffer is enlarged to hold it), then the reader opens the pipe by /proc/self/fd.
 * It must deliver as many records as the reader of the same bytes in memory (@nr_mem), and end
 * the same way (@last_mem). */
static int fuzz_perfdata_stream(const uint8_t *data, size_t size, uint64_t nr_mem, int last_mem)
{
	const struct trace_info *in;
	struct perfdata_reader *r;
	struct trace_event ev;
	char path[64];
	uint64_t nr = 0;
	int fd[2], rc, last = 0;
	size_t off = 0;
	ssize_t n;

	if (pipe2(fd, O_CLOEXEC | O_NONBLOCK))
		return 0;
	if (fcntl(fd[1], F_SETPIPE_SZ, (int)(size < 4096 ? 4096 : size)) < (int)size) {
		close(fd[0]);
		close(fd[1]);
		return 0;   /* larger than a pipe may hold here */
	}
	while (off < size && (n = write(fd[1], data + off, size - off)) > 0)
		off += (size_t)n;
	close(fd[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd[0]);
	rc = perfdata_reader_open(&r, path);
	close(fd[0]);
	if (off < size || rc < 0)
		return off < size ? 0 : FUZZ_FAIL("stream: the reader of the bytes in memory opened "
						  "them, the stream reader did not (%d)", rc);
	in = perfdata_reader_info(r);
	rc = fuzz_check_info(in);
	while (!rc && (last = perfdata_reader_next(r, &ev)) == 1) {
		rc = fuzz_check_event(in, &ev, 1);
		nr++;
	}
	perfdata_reader_free(r);
	if (!rc && (nr != nr_mem || (last < 0) != (last_mem < 0)))
		rc = FUZZ_FAIL("stream: %llu records (last %d), in memory %llu (last %d)",
			       (unsigned long long)nr, last, (unsigned long long)nr_mem, last_mem);
	return rc;
}

/* A perf.data file or pipe-mode stream, in memory, through the report; pipe-mode streams also
 * through a pipe. */
static inline int fuzz_perfdata_input(const uint8_t *data, size_t size)
{
	struct fuzz_src s = { 0 };
	uint64_t hsize = 0;
	int rc;

	c2c_log_set_hook(fuzz_quiet, NULL);
	if (perfdata_reader_open_mem(&s.pd, data, size, "fuzz") < 0)
		return 0;
	rc = fuzz_report(&s, perfdata_reader_info(s.pd), size);
	perfdata_reader_free(s.pd);
	for (int i = 0; i < 8 && size >= 16; i++)   /* the header size, in the file's byte order */
		hsize |= (uint64_t)data[data[0] == 'P' ? 8 + i : 15 - i] << (8 * i);
	if (rc || hsize != 16 || s.last == 1)
		return rc;   /* a broken invariant, a file, or a report that stopped early */
	return fuzz_perfdata_stream(data, size, s.nr, s.last);
}

static uint32_t fuzz_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void fuzz_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Recompute the payload and header CRC of every whole chunk of a trace (docs/trace-format.md):
 * random mutations almost never keep them right, which would confine the fuzzer to the framing
 * code. */
static void fuzz_fix_checksums(uint8_t *d, size_t size)
{
	size_t off = 16;

	while (size >= 24 && off <= size - 24 && !memcmp(d + off, "CHNK", 4)) {
		uint32_t len = fuzz_le32(d + off + 8);

		if (len > size - off - 24)
			break;
		fuzz_put_le32(d + off + 12, (uint32_t)crc32(crc32(0, d + off + 4, 8), d + off + 24, len));
		fuzz_put_le32(d + off + 20, (uint32_t)crc32(0, d + off, 20));
		off += 24 + (size_t)len;
	}
}

/* Every record of a trace in memory, checked. */
static int fuzz_trace_read(const uint8_t *data, size_t size)
{
	struct trace_reader *r;
	struct trace_event ev;
	const struct trace_info *in;
	int rc;

	if (trace_reader_open_mem(&r, data, size, "fuzz"))
		return 0;
	in = trace_reader_info(r);
	rc = fuzz_check_info(in);
	while (!rc && trace_reader_next(r, &ev) == 1)
		rc = fuzz_check_event(in, &ev, 0);
	trace_reader_free(r);
	return rc;
}

/* A c2c-lite trace in memory: read as given (the checksums must catch the corruption), then with
 * every chunk's checksums recomputed, which sends mutated payloads through the record and header
 * decoders and (one input size in four) on into the report. */
static inline int fuzz_trace_input(const uint8_t *data, size_t size)
{
	struct fuzz_src s = { 0 };
	uint8_t *copy;
	int rc;

	c2c_log_set_hook(fuzz_quiet, NULL);
	rc = fuzz_trace_read(data, size);
	if (rc)
		return rc;
	copy = malloc(size ? size : 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	fuzz_fix_checksums(copy, size);
	if (size % 4)   /* the report for one input size in four: it triples the time of an input */
		rc = fuzz_trace_read(copy, size);
	else if (!trace_reader_open_mem(&s.tr, copy, size, "fuzz")) {
		rc = fuzz_report(&s, trace_reader_info(s.tr), size);
		trace_reader_free(s.tr);
	}
	free(copy);
	return rc;
}

/* --- function bounds (record/fnbounds.h) ------------------------------------------------------ */

/* Check one lookup: a range must hold the address and come from a source it may come from
 * (@fde_only: fnbounds_fde(), which consults no symbol). */
static int fuzz_fnb_check(const struct fnbounds *fb, const char *what, uint64_t va,
			  const struct fnrange *r, int fde_only)
{
	struct fnbounds_info fi;

	fnbounds_info(fb, &fi);
	if (va - r->start >= r->size)
		return FUZZ_FAIL("fnbounds: %s of %#llx gave [%#llx, +%#llx), not holding it", what,
				 (unsigned long long)va, (unsigned long long)r->start,
				 (unsigned long long)r->size);
	if (r->src != FNB_FDE && (fde_only || r->src != fi.symtab))
		return FUZZ_FAIL("fnbounds: %s of %#llx from source %d (symbols: %d)", what,
				 (unsigned long long)va, (int)r->src, (int)fi.symtab);
	if (r->src == FNB_FDE && fi.fde_table < 0)
		return FUZZ_FAIL("fnbounds: %s of %#llx from an FDE, with no usable .eh_frame",
				 what, (unsigned long long)va);
	return 0;
}

/* Look @va up both ways; each range found is checked, then its first and last bytes and the
 * byte after it are looked up too (@depth: how many times more), and then @va again: the answer
 * is a function of the file, whatever the lookups in between read and cached. */
static int fuzz_fnb_lookup(struct fnbounds *fb, uint64_t va, int depth)
{
	struct fnrange r, again;
	int rc, rc2;

	for (int fde = 0; fde < 2; fde++) {
		rc = fde ? fnbounds_fde(fb, va, &r) : fnbounds_find(fb, va, &r);
		if (rc && rc != -ESRCH)
			return FUZZ_FAIL("fnbounds: lookup of %#llx returned %d", (unsigned long long)va,
					 rc);
		if (!rc && fuzz_fnb_check(fb, fde ? "fde" : "find", va, &r, fde))
			return -1;
		if (rc || !depth)
			continue;
		if (fuzz_fnb_lookup(fb, r.start, depth - 1) ||
		    fuzz_fnb_lookup(fb, r.start + r.size - 1, depth - 1) ||
		    fuzz_fnb_lookup(fb, r.start + r.size, depth - 1))
			return -1;
		rc2 = fde ? fnbounds_fde(fb, va, &again) : fnbounds_find(fb, va, &again);
		if (rc2 || again.start != r.start || again.size != r.size || again.src != r.src)
			return FUZZ_FAIL("fnbounds: %#llx was [%#llx, +%#llx) from %d, then %s",
					 (unsigned long long)va, (unsigned long long)r.start,
					 (unsigned long long)r.size, (int)r.src,
					 rc2 ? "not found" : "another range");
	}
	return 0;
}

/* Lookups at 16 points of every executable section (its bytes as the header says, whatever the
 * file holds), each with the neighbours of what it finds. */
static int fuzz_fnb_elf(Elf *elf, unsigned int flags)
{
	struct fnbounds *fb = fnbounds_new(elf, flags);
	Elf_Scn *scn = NULL;
	int rc = 0, nscn = 0;

	if (!fb)
		return FUZZ_FAIL("fnbounds: no bounds for an ELF file libelf opened");
	while (!rc && (scn = elf_nextscn(elf, scn)) && nscn++ < 64) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		for (uint64_t i = 0; !rc && i < 16; i++)
			rc = fuzz_fnb_lookup(fb, sh.sh_addr + (sh.sh_size ? sh.sh_size / 16 * i : i), 1);
	}
	fnbounds_free(fb);
	return rc;
}

/* An ELF file in memory: function bounds with .eh_frame_hdr's table, then with the walk of
 * .eh_frame. libelf may write into the image (byte-order conversion), so it gets a copy. */
static inline int fuzz_fnbounds_input(const uint8_t *data, size_t size)
{
	char *img = malloc(size ? size : 1);
	Elf *elf;
	int rc = 0;

	if (!img)
		abort();
	memcpy(img, data, size);
	elf_version(EV_CURRENT);
	if ((elf = elf_memory(img, size))) {
		if (elf_kind(elf) == ELF_K_ELF)
			rc = fuzz_fnb_elf(elf, 0) || fuzz_fnb_elf(elf, FNB_WALK_FDES) ? -1 : 0;
		elf_end(elf);
	}
	free(img);
	return rc;
}

/* A libFuzzer binary defines FUZZ_TARGET to one of the functions above before including this
 * header, which then supplies the entry points. */
/* ---- Arm SPE ------------------------------------------------------------------------------- */

/* The packets of @d from offset 0 on as spe.c walks them (one byte skipped after a bad one): a
 * length within the bytes, a description that fits its buffer, and the records they make with
 * their data_src on a Neoverse and a generic MIDR. */
static int fuzz_spe_packets(const uint8_t *d, size_t size, uint64_t addr)
{
	struct spe_record rec;
	struct spe_pkt p;
	char desc[96];
	size_t off;
	int rc;

	spe_rec_start(&rec);
	for (off = 0; off < size;) {
		rc = spe_pkt_get(d + off, size - off, addr + off, &p);
		if (rc == SPE_PKT_NEED_MORE)
			break;
		if (rc == SPE_PKT_INVALID) {
			off++;
			continue;
		}
		if (rc < 1 || (size_t)rc > size - off)
			return FUZZ_FAIL("spe: a packet of %d bytes at %zu of %zu", rc, off, size);
		off += (size_t)rc;
		memset(desc, 'x', sizeof(desc));
		rc = spe_pkt_desc(&p, desc, sizeof(desc));
		if ((rc != 0 && rc != -1) || !memchr(desc, 0, sizeof(desc)))
			return FUZZ_FAIL("spe: description of the packet before %zu unterminated", off);
		rc = spe_rec_add(&rec, &p);
		if (rc > 0) {
			(void)spe_data_src(&rec, 0x410fd0c0);   /* Neoverse N1 */
			(void)spe_data_src(&rec, 0x410fd4f0);   /* V2: generic in perf 6.1 */
		}
		if (rc)
			spe_rec_start(&rec);
	}
	return 0;
}

/* The samples a session gives now: CPUs and tids as spe.h promises. */
static int fuzz_spe_drain(struct spe *s, unsigned int nr_q, uint64_t *nr)
{
	struct trace_sample smp;

	while (spe_next(s, &smp)) {
		if (smp.cpu != UINT32_MAX && smp.cpu >= nr_q)
			return FUZZ_FAIL("spe: a sample on cpu %u of %u queues", smp.cpu, nr_q);
		if (!smp.data_src)
			return FUZZ_FAIL("spe: a sample without a data source");
		(*nr)++;
	}
	return 0;
}

/* Raw Arm SPE AUX data (what an AUXTRACE record carries) through the packet decoder, the record
 * builder and a session. The first 4 bytes choose: byte 0 the MIDR (bit 0: Neoverse N1, else
 * V2), timeless decoding (bit 1), buffers read in place (bit 2), queues revived (bit 3), 1 to 4
 * queues (bits 4-5), switch events instead of time alone (bit 6); byte 1 TIME_CONV's shift, byte
 * 2 its multiplier, byte 3 the step between the 16 events that drive the session. The rest is
 * split into one buffer per queue (CPU), each added in two halves (the second after 8 events). */
static inline int fuzz_spe_input(const uint8_t *data, size_t size)
{
	struct spe_opts o = { .name = "fuzz", .kernel_start = 0xffff000000000000ull,
			      .sample_flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR };
	const struct spe_stats *st;
	unsigned int nr_q, q, k;
	uint64_t nr = 0, step;
	struct spe *s;
	size_t len, per;
	int rc;

	c2c_log_set_hook(fuzz_quiet, NULL);
	if (size < 4)
		return 0;
	rc = fuzz_spe_packets(data + 4, size - 4, 4);
	if (rc)
		return rc;
	o.midr = data[0] & 1 ? 0x410fd0c0 : 0x410fd4f0;
	o.timeless = !!(data[0] & 2);
	o.in_place = !!(data[0] & 4);
	o.revive = !!(data[0] & 8);
	nr_q = 1 + (data[0] >> 4 & 3);
	o.tc = (struct spe_tc){ .time_shift = (uint16_t)(data[1] & 31), .time_mult = data[2] | 1u,
				.time_zero = 1000 };
	step = 1 + (uint64_t)data[3] * 97;
	s = spe_new(&o);
	len = size - 4;
	per = len / nr_q;
	for (k = 0, rc = 0; k <= 16 && !rc; k++) {
		/* first halves at the start, second halves after 8 events */
		for (q = 0; (k == 0 || k == 8) && q < nr_q && !rc; q++) {
			size_t from = 4 + q * per, n = q + 1 == nr_q ? len - q * per : per, h = n / 2;

			if (k == 8)
				from += h, h = n - h;
			if (spe_add_buffer(s, q, (int32_t)q, -1, data + from, h, from, 0))
				rc = FUZZ_FAIL("spe: queue %u refused a buffer of its own cpu", q);
		}
		if (rc || k == 0)
			continue;
		if (data[0] & 0x40)
			spe_event(s, k * step, 15 /* SWITCH_CPU_WIDE */, (int)(k & 1),
				  (int32_t)(k % nr_q), (int32_t)(100 + k), (int32_t)(100 + k));
		else
			spe_event(s, k * step, k == 16 ? 4 /* EXIT */ : 9 /* SAMPLE */, 0, -1, -1,
				  (int32_t)(100 + k));
		rc = fuzz_spe_drain(s, nr_q, &nr);
	}
	if (!rc) {
		spe_flush(s);
		rc = fuzz_spe_drain(s, nr_q, &nr);
	}
	st = spe_stats(s);
	/* (a record may give two samples: after a decoding error perf samples the last record
	 * again, arm_spe_run_decoder()'s "continue") */
	if (!rc && (st->samples != nr || st->bytes != len))
		rc = FUZZ_FAIL("spe: %llu samples given, %llu counted, %llu of %zu bytes queued",
			       (unsigned long long)nr, (unsigned long long)st->samples,
			       (unsigned long long)st->bytes, len);
	spe_free(s);
	return rc;
}

#ifdef FUZZ_TARGET
#include <sys/prctl.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The cacheline table takes its memory in 2 MiB blocks marked for transparent huge pages, which
 * the kernel zeroes whole at the first touch, several per input. Small pages cost only what an
 * input touches (the target runs several times faster); nothing else changes. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	return 0;
}

/* A broken invariant is a finding, like a crash. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (FUZZ_TARGET(data, size))
		abort();
	return 0;
}
#endif

#endif
