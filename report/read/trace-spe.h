/* Arm SPE in c2c-lite traces: record --backend=hw stores the AUX data raw (TRACE_BLOB_SPE_AUX
 * blobs after their AUX records, the SPE facts blob before them, docs/architecture.md); this
 * decodes it at report time with the session that decodes perf.data (report/read/spe.h), so that
 * a trace gives the samples perf.data gives for the same AUX data.
 *
 * A trace file is read twice: once at open for its facts blob and every AUX blob (queued at once,
 * as perf queues the buffers of the HEADER_AUXTRACE index), then record by record; each record is
 * shown to the session before it is delivered, so that the SPE samples come out where perf puts
 * them. A stream is read once: the buffers join their queues as they come (spe_opts.revive).
 * Alignment packets pad to the AUX offset (the AUX area is page-aligned), and warnings name the
 * offset in the CPU's AUX data. */
#ifndef C2C_REPORT_TRACE_SPE_H
#define C2C_REPORT_TRACE_SPE_H

#include "c2c/trace.h"

struct trace_spe;

/* *out NULL when the trace holds no raw SPE data (TRACE_INFO_SPE_RAW clear). @tr is borrowed;
 * @path is read again unless @stream. What cannot be decoded is warned about, never an error. */
void trace_spe_open(struct trace_spe **out, struct trace_reader *tr, const char *path, int stream);
/* The trace's info with perf's synthesized "memory" event appended (the SPE samples' event). */
const struct trace_info *trace_spe_info(const struct trace_spe *t);
/* trace_reader_next() with the decoded SPE samples among the records. */
int trace_spe_next(struct trace_spe *t, struct trace_event *ev);
void trace_spe_free(struct trace_spe *t);

#endif
