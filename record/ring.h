/* The perf mmap ring buffer and the kernel records in it.
 *
 * struct ring wraps one data area (1 + 2^n pages: control page, then the data). ring_drain()
 * walks the records between data_tail and data_head, hands each to a callback (a record that
 * wraps the end of the area is first copied whole into a scratch buffer), then publishes the new
 * tail. ring_decode() turns one kernel record into a struct trace_event using the attrs the
 * recorder opened (struct ring_layout): SAMPLE, MMAP, MMAP2, COMM, FORK, EXIT, LOST,
 * LOST_SAMPLES, THROTTLE and UNTHROTTLE, and for AUX tracing (Arm SPE) AUX, ITRACE_START,
 * SWITCH and SWITCH_CPU_WIDE; other types are reported as skipped.
 * ring_init() accepts any memory laid out like a mapped ring, which is how tests feed it. */
#ifndef C2C_RECORD_RING_H
#define C2C_RECORD_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "c2c/spe.h"
#include "c2c/trace.h"

struct ring {
	struct perf_event_mmap_page *pc;
	uint8_t *data;
	uint64_t data_size;      /* power of two */
	size_t map_len;          /* 0: not mapped by ring_mmap (ring_unmap does nothing) */
	uint8_t *scratch;        /* for wrapped records, 64 KiB */
	int fd, cpu;
	uint8_t *aux;            /* AUX area (Arm SPE), NULL when none */
	uint64_t aux_size;       /* power of two */
	int aux_mapped;          /* aux was mmapped by ring_mmap_aux */
};

/* Use a caller's buffer laid out as [control page][data area of @data_size bytes]. */
int ring_init(struct ring *r, void *base, size_t page_size, uint64_t data_size);
/* mmap 1 + @pages pages of @fd (pages a power of two). */
int ring_mmap(struct ring *r, int fd, unsigned int pages);
void ring_unmap(struct ring *r);
/* Map an AUX area of @pages pages (a power of two) after the data area of a mapped ring:
 * write aux_offset/aux_size into the control page and mmap the fd there (perf_event_open(2)).
 * -EOPNOTSUPP when the PMU has no AUX support. */
int ring_mmap_aux(struct ring *r, unsigned int pages);
/* Use a caller's buffer as the AUX area (tests). */
void ring_set_aux(struct ring *r, void *aux, uint64_t size);
/* Copy the AUX bytes [@offset, @offset + @size) (free-running offsets, as PERF_RECORD_AUX gives
 * them) into @out (at least @size bytes), then let the kernel reuse them (aux_tail). Spans may
 * leave gaps (padding the driver skipped without a record). -EINVAL when the span is larger than
 * the area or starts before the tail (already released). */
int ring_aux_read(struct ring *r, uint64_t offset, uint64_t size, void *out);
/* The clock conversion the kernel publishes in the control page (perf's TIME_CONV record),
 * read under its seqlock; -EBUSY when the lock never settles. */
int ring_time_conv(const struct ring *r, struct c2c_time_conv *tc);
/* Bytes waiting to be read. */
uint64_t ring_pending(const struct ring *r);

typedef int (*ring_fn)(const struct perf_event_header *h, void *ctx);
/* Hand every complete record to @fn; stop early (without consuming the rest) when @fn returns
 * non-zero, and return that value. A header with size < 8 is corruption: -EBADMSG. */
int ring_drain(struct ring *r, ring_fn fn, void *ctx);

/* What the decoder needs to know about the opened events. */
struct ring_event {
	uint64_t sample_type, read_format;
	uint64_t regs_user;      /* attr.sample_regs_user */
	uint64_t id;             /* kernel id (PERF_EVENT_IOC_ID) */
	uint16_t index;          /* trace_info.events index */
	int16_t td_index;        /* TopDown member slot (-2: the slots counter, -1: none) */
};

struct ring_layout {
	struct ring_event *ev;   /* every opened fd's id; several ids may share an index */
	size_t nr;
	uint64_t id_sample_type; /* the trailer-relevant bits shared by every event */
};

enum ring_decoded {
	RING_SKIP = 0,           /* not a record the trace keeps */
	RING_EVENT = 1,          /* *out filled */
};

/* The index of the event that produced sample record @h (by its IDENTIFIER or ID), -1 when
 * unknown or short. */
int ring_sample_index(const struct perf_event_header *h, const struct ring_layout *lay);
/* Decode one record. Strings in *out point into @h. Returns RING_EVENT, RING_SKIP or -EBADMSG
 * when the record is shorter than its layout says. */
int ring_decode(const struct perf_event_header *h, const struct ring_layout *lay,
		struct trace_event *out);
/* The record's timestamp (sample TIME or trailer TIME), 0 when it has none. */
uint64_t ring_record_time(const struct perf_event_header *h, const struct ring_layout *lay);

#endif
