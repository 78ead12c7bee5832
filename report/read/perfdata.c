/* perf.data reader: input, file header and the record stream.
 *
 * A file is mapped (or used from memory); a pipe-mode stream on standard input or a FIFO is read
 * through a growing buffer. Records are queued with their timestamp and handed out sorted when a
 * FINISHED_ROUND allows it (perf's rule: at the end of round n, everything up to the highest
 * timestamp seen by the end of round n-1 is final). Queued records point into the mapping when
 * they can, otherwise into reference-counted chunks, so memory stays bounded by about two rounds.
 * Attrs are in perfdata-attr.c, the queue in perfdata-queue.c, decoding of one record in
 * perfdata-rec.c, header features in perfdata-feat.c. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata-int.h"

#define PD_HDR_SIZE        104
#define PD_HDR_SIZE_OLD    72
#define PD_PIPE_HDR_SIZE   16
#define PD_ATTR_SLOT_MAX   4096
#define PD_QUEUE_MAX       (1u << 20)       /* queued records before a forced half flush */
#define PD_STREAM_MAX      (256u << 20)     /* largest record kept whole from a pipe */
#define PD_ZOUT_STEP       (256u << 10)
#define PD_SKIP_STEP       (1u << 20)       /* bytes read at a time when skipping */
/* The mapped window: 1 to 2 MiB ahead of the reading, at most 512 KiB behind it (past the
 * records still queued): 5 MiB less resident than 4 and 2 MiB, at the same speed, on a 75 MB
 * perf.data; a few hundred madvise() calls per GB */
#define PD_DROP_STEP       (512u << 10)     /* bytes read between releases of mapped pages */
#define PD_AHEAD           (1u << 20)       /* bytes mapped at a time ahead of the reading */
#define PD_PREFETCH        1024             /* bytes ahead of a record its reading prefetches */
#define PD_DIR_TURN        (2u << 20)       /* perf's READER_MAX_SIZE: bytes per file and turn */

struct pd_stream {
	int fd, own_fd, eof;
	uint8_t *buf;
	size_t cap, start, end;
};

/* ---- input ------------------------------------------------------------------------------ */

/* Make @n bytes available at the stream's start; returns what is available (less at EOF). */
static size_t stream_fill(struct perfdata_reader *r, size_t n)
{
	struct pd_stream *s = r->stream;

	while (s->end - s->start < n && !s->eof) {
		ssize_t got;

		if (s->start && s->start + n > s->cap) {
			memmove(s->buf, s->buf + s->start, s->end - s->start);
			s->end -= s->start;
			s->start = 0;
		}
		if (s->start + n > s->cap) {
			s->cap = s->start + n < 2 * s->cap ? 2 * s->cap : s->start + n;
			s->buf = xrealloc(s->buf, s->cap);
		}
		got = read(s->fd, s->buf + s->end, s->cap - s->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			c2c_warn("'%s': read failed at offset %" PRIu64 ": %s", r->name,
				 r->pos + (s->end - s->start), strerror(errno));
			s->eof = 1;
		} else if (got == 0) {
			s->eof = 1;
		} else {
			s->end += (size_t)got;
		}
	}
	return s->end - s->start < n ? s->end - s->start : n;
}

/* Pointer to @n bytes at the read position, or NULL when fewer remain (*avail says how many). */
static const uint8_t *in_peek(struct perfdata_reader *r, size_t n, size_t *avail)
{
	if (r->stream) {
		*avail = stream_fill(r, n);
		return *avail == n ? r->stream->buf + r->stream->start : NULL;
	}
	*avail = r->pos < r->data_end ? r->data_end - r->pos : 0;
	if (*avail > n)
		*avail = n;
	return *avail == n ? r->base + r->pos : NULL;
}

static void in_advance(struct perfdata_reader *r, uint64_t n)
{
	if (r->stream) {
		struct pd_stream *s = r->stream;
		uint64_t left = n;

		while (left) {
			size_t have = s->end - s->start, take;

			if (!have && !stream_fill(r, left < PD_SKIP_STEP ? left : PD_SKIP_STEP))
				break;
			have = s->end - s->start;
			take = have < left ? have : (size_t)left;
			s->start += take;
			left -= take;
		}
	}
	r->pos += n;
}

static void warn_cut(struct perfdata_reader *r, const char *what)
{
	if (r->truncated_warned++)
		return;
	c2c_warn("'%s': %s cut short at offset %" PRIu64 "; using the records before it", r->name,
		 what, r->pos);
}

/* The next record of the input: 1 with *rec and *total set (total includes an AUXTRACE or
 * TRACING_DATA payload), 0 at the end, -EBADMSG on a record smaller than its header. */
static int raw_next_one(struct perfdata_reader *r, const uint8_t **rec, uint64_t *total, int *vol)
{
	const uint8_t *h;
	size_t avail;
	uint32_t type;
	uint64_t size, extra = 0;

	if (r->eof)
		return 0;
	h = in_peek(r, 8, &avail);
	if (!h) {
		if (avail)
			warn_cut(r, "data section");
		return 0;
	}
	type = pd_u32(r, h);
	size = pd_u16(r, h + 6);
	if (size < 8)
		return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": record of type %u has size %" PRIu64
			       " (smaller than its header)", r->name, r->pos, type, size);
	if (type == PD_AUXTRACE || type == PD_HEADER_TRACING_DATA) {
		h = in_peek(r, size, &avail);
		if (!h) {
			warn_cut(r, "data section");
			return 0;
		}
		if (type == PD_AUXTRACE && size >= 16)
			extra = pd_u64(r, h + 8);
		else if (type == PD_HEADER_TRACING_DATA && size >= 12)
			extra = pd_u32(r, h + 8);
		if (extra > (1ull << 40))
			return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": payload size %" PRIu64
				       " of record type %u is absurd", r->name, r->pos, extra, type);
	}
	*vol = !!r->stream;
	if (r->stream && (size + extra > PD_STREAM_MAX || type == PD_HEADER_TRACING_DATA ||
			  (type == PD_AUXTRACE && r->aux_type != PD_AUX_ARM_SPE))) {
		/* too big to keep from a pipe (or never needed): skip the payload, keep the header */
		h = in_peek(r, size, &avail);
		if (!h) {
			warn_cut(r, "data section");
			return 0;
		}
		memcpy(r->scratch_hdr, h, size);
		in_advance(r, size + extra);
		*rec = r->scratch_hdr;
		*total = size;
		return 1;
	}
	h = in_peek(r, size + extra, &avail);
	if (!h) {
		warn_cut(r, "data section");
		return 0;
	}
	if (!r->stream && r->pos + PD_PREFETCH < r->data_end)
		__builtin_prefetch(h + PD_PREFETCH);   /* the records to come, mapped already */
	*rec = h;
	*total = size + extra;
	in_advance(r, size + extra);
	return 1;
}

/* The decompression state of file @from goes aside, @to's becomes the reader's. Turns change
 * between top-level records only, when no compressed payload is half read. */
static void dir_swap_zstd(struct perfdata_reader *r, struct pd_dirfile *from, struct pd_dirfile *to)
{
	from->zds = r->zds;
	from->zout = r->zout;
	from->zout_cap = r->zout_cap;
	from->zout_start = r->zout_start;
	from->zout_end = r->zout_end;
	from->zfailed = r->zfailed;
	r->zds = to->zds;
	r->zout = to->zout;
	r->zout_cap = to->zout_cap;
	r->zout_start = to->zout_start;
	r->zout_end = to->zout_end;
	r->zfailed = to->zfailed;
	to->zds = NULL;
	to->zout = NULL;
}

/* Directory format: the file whose turn it is, made current; 0 when every file is done. perf's
 * __perf_session__process_dir_events() takes records from the header file's data, then from
 * each DIR/data.N in readdir() order, PD_DIR_TURN bytes of them at a time per file, and queues
 * them all: records of equal time keep that order. */
static int dir_pick(struct perfdata_reader *r)
{
	struct pd_dirfile *d = &r->dir[r->dir_cur];
	size_t i = r->dir_cur, n;

	d->pos = r->pos;
	if (r->pos >= r->data_end)
		d->done = 1;
	if (!d->done && r->dir_turn < PD_DIR_TURN)
		return 1;
	r->dir_turn = 0;
	for (n = 0; n < r->nr_dir; n++) {
		i = (r->dir_cur + 1 + n) % r->nr_dir;
		if (!r->dir[i].done)
			break;
	}
	if (n == r->nr_dir)
		return 0;
	if (i != r->dir_cur)
		dir_swap_zstd(r, d, &r->dir[i]);
	d = &r->dir[i];
	r->dir_cur = i;
	r->name = d->name;
	r->base = d->base;
	r->pos = d->pos;
	r->data_end = d->end;
	return 1;
}

static int raw_next(struct perfdata_reader *r, const uint8_t **rec, uint64_t *total, int *vol)
{
	int rc;

	if (!r->nr_dir)
		return raw_next_one(r, rec, total, vol);
	while (dir_pick(r)) {
		rc = raw_next_one(r, rec, total, vol);
		if (rc > 0)
			r->dir_turn += *total;
		if (rc)
			return rc;
		r->dir[r->dir_cur].done = 1;   /* at its end, or cut short */
	}
	return 0;
}

/* ---- compressed records ----------------------------------------------------------------- */

static int z_start(struct perfdata_reader *r, const uint8_t *rec, uint64_t size, int vol)
{
	uint32_t type = pd_u32(r, rec);
	const uint8_t *p = rec + 8;
	uint64_t n = size - 8;

	if (type == PD_COMPRESSED2) {
		if (size < 16)
			return 0;
		n = pd_u64(r, rec + 8);
		p = rec + 16;
		if (n > size - 16)
			n = size - 16;
	}
	if (r->zfailed || !n)
		return 0;   /* (an empty payload: nothing to decompress, nothing to copy) */
	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		if (!r->zds)
			return c2c_err(-ENOMEM, "'%s': cannot create a zstd decompressor", r->name);
		ZSTD_initDStream(r->zds);
	}
	if (vol) {
		if (r->zin_cap < n)
			r->zin = xrealloc(r->zin, r->zin_cap = n);
		memcpy(r->zin, p, n);
		p = r->zin;
	}
	r->zsrc = p;
	r->zsrc_len = n;
	r->zsrc_pos = 0;
	return 0;
}

/* Decompress until @n bytes are buffered or the current payload is used up. */
static int z_fill(struct perfdata_reader *r, size_t n, size_t *have)
{
	while (r->zout_end - r->zout_start < n && r->zsrc && r->zsrc_pos < r->zsrc_len) {
		ZSTD_inBuffer in = { r->zsrc, r->zsrc_len, r->zsrc_pos };
		ZSTD_outBuffer out;
		size_t rc;

		if (r->zout_cap - r->zout_end < PD_ZOUT_STEP && r->zout_start) {
			memmove(r->zout, r->zout + r->zout_start, r->zout_end - r->zout_start);
			r->zout_end -= r->zout_start;
			r->zout_start = 0;
		}
		if (r->zout_cap - r->zout_end < PD_ZOUT_STEP)
			r->zout = xrealloc(r->zout, r->zout_cap = r->zout_end + 2 * PD_ZOUT_STEP);
		out = (ZSTD_outBuffer){ r->zout + r->zout_end, r->zout_cap - r->zout_end, 0 };
		rc = ZSTD_decompressStream(r->zds, &out, &in);
		if (ZSTD_isError(rc)) {
			r->zfailed = 1;
			r->zsrc = NULL;
			return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": corrupt compressed record: %s",
				       r->name, r->pos, ZSTD_getErrorName(rc));
		}
		r->zout_end += out.pos;
		if (!out.pos && in.pos == r->zsrc_pos)
			break;
		r->zsrc_pos = in.pos;
	}
	*have = r->zout_end - r->zout_start;
	return 0;
}

/* The next record decompressed from COMPRESSED payloads: 1, 0 when more input is needed. */
static int z_next(struct perfdata_reader *r, const uint8_t **rec, uint64_t *total)
{
	size_t have;
	uint16_t size;
	int rc;

	rc = z_fill(r, 8, &have);
	if (rc < 0 || have < 8)
		return rc;
	size = pd_u16(r, r->zout + r->zout_start + 6);
	if (size < 8) {
		r->zfailed = 1;
		r->zsrc = NULL;
		return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": decompressed record has size %u",
			       r->name, r->pos, size);
	}
	rc = z_fill(r, size, &have);
	if (rc < 0 || have < size)
		return rc;
	*rec = r->zout + r->zout_start;
	*total = size;
	r->zout_start += size;
	return 1;
}

/* ---- records ---------------------------------------------------------------------------- */

static int header_attr(struct perfdata_reader *r, const uint8_t *rec, uint16_t size)
{
	struct pd_attr a;
	uint32_t idx, i, nids;
	int rc;

	rc = pd_attr_parse(r, rec + 8, size - 8u, &a, r->pos);
	if (rc < 0)
		return rc;
	idx = pd_attr_append(r, &a);
	nids = (size - 8u - a.size) / 8;
	for (i = 0; i < nids; i++)
		pd_attr_add_id(r, pd_u64(r, rec + 8 + a.size + 8 * i), idx);
	return 0;
}

static void auxtrace_info(struct perfdata_reader *r, const uint8_t *rec, uint16_t size,
			  uint64_t off)
{
	if (size < 12)
		return;
	if (r->aux_type && r->aux_type != pd_u32(r, rec + 8))
		c2c_warn("'%s': offset %" PRIu64 ": a second AUXTRACE_INFO record, of another type: "
			 "ignored", r->name, off);
	if (r->aux_type)
		return;
	r->aux_type = pd_u32(r, rec + 8);
	if (r->aux_type == PD_AUX_ARM_SPE)
		pd_spe_info(r, rec, size, off);
}

/* The attr of a kernel record, or -1 when its id is unknown. */
static int record_attr(const struct perfdata_reader *r, const uint8_t *rec, uint32_t type,
		       uint16_t size)
{
	const struct pd_attr *a0 = &r->attr[0];
	uint64_t id;
	int off;

	if (r->nr_attr == 1)
		return 0;
	if (type == PD_SAMPLE) {
		off = 8 + a0->id_pos;
		if (a0->id_pos < 0 || off + 8 > size)
			return -1;
	} else {
		if (!a0->sample_id_all || a0->tr_id < 0)
			return 0;
		off = size - (a0->trailer - a0->tr_id);
		if (off < 8)
			return -1;
	}
	id = pd_u64(r, rec + off);
	/* perf's evlist__event2evsel: records perf synthesizes for processes that already run
	 * (COMM, MMAP2, FORK of -a and -p recordings) carry id 0 and belong to the first event */
	if (!id)
		return 0;
	return pd_attr_of_id(r, id);
}

int pd_record_time(const struct perfdata_reader *r, const uint8_t *rec, uint32_t *attr,
		   uint64_t *time)
{
	uint32_t type = pd_u32(r, rec);
	uint16_t size = pd_u16(r, rec + 6);
	const struct pd_attr *a;
	int idx = record_attr(r, rec, type, size);

	if (idx < 0)
		return -1;
	*attr = (uint32_t)idx;
	a = &r->attr[idx];
	if (type == PD_SAMPLE) {
		if (a->time_pos < 0 || 8 + a->time_pos + 8 > size)
			return 0;
		*time = pd_u64(r, rec + 8 + a->time_pos);
		return 1;
	}
	if (a->tr_time < 0 || a->trailer + 8 > size)
		return 0;
	*time = pd_u64(r, rec + size - a->trailer + a->tr_time);
	return 1;
}

static int is_delivered(const struct perfdata_reader *r, uint32_t type)
{
	/* with Arm SPE, every kernel record times the decoding (and switches name the tasks) */
	if ((r->spe || ((r->opts & PERFDATA_SPE_RAW) && (r->spe_seen ||
						r->aux_type == PD_AUX_ARM_SPE))) &&
	    type >= 1 && type <= PD_KERNEL_LAST)
		return 1;
	switch (type) {
	case PD_MMAP: case PD_LOST: case PD_COMM: case PD_EXIT: case PD_THROTTLE:
	case PD_UNTHROTTLE: case PD_FORK: case PD_SAMPLE: case PD_MMAP2: case PD_LOST_SAMPLES:
		return 1;
	}
	return 0;
}

static void queue_kernel(struct perfdata_reader *r, const uint8_t *rec, uint64_t total, int vol)
{
	uint64_t time = 0;
	uint32_t attr = 0;
	int rc;

	if (!r->nr_attr) {
		r->nr_bad++;
		return;
	}
	rc = pd_record_time(r, rec, &attr, &time);
	if (rc < 0) {
		r->nr_bad++;
		return;
	}
	if (pd_u32(r, rec) == PD_SAMPLE)
		r->init_done = 1;
	if (r->unordered || rc == 0 || time == 0 || time == UINT64_MAX) {
		pd_queue_now(r, rec, total, vol, attr);
		return;
	}
	if (time > r->max_time)
		r->max_time = time;
	pd_queue_push(r, rec, total, vol, attr, time);
}

static void auxtrace(struct perfdata_reader *r, const uint8_t *rec, uint64_t total, int vol,
		     uint64_t off)
{
	uint16_t size = pd_u16(r, rec + 6);
	uint64_t aux = size >= 16 ? pd_u64(r, rec + 8) : 0;

	r->stats.nr_aux_bytes += aux;
	if (pd_spe_auxtrace(r, rec, total, vol, off) && !(r->opts & PERFDATA_KEEP_AUX))
		return;
	if (r->aux_type != PD_AUX_ARM_SPE || size < 48 || total != size + aux)
		return;
	pd_queue_push(r, rec, total, vol, 0, r->max_time);
}

/* An attr or a header feature after the info was built (pipe mode: after the first sample or
 * FINISHED_INIT; file mode: in the data section): perf writes none there, and the info handed
 * out (events, CPU count and node map) must not change under its readers. */
static int late_header(struct perfdata_reader *r, uint32_t type)
{
	if (!r->late_warned++)
		c2c_warn("'%s': header record of type %u after the header was read (before offset %"
			 PRIu64 "); ignored", r->name, type, r->pos);
	return 0;
}

static int process_user(struct perfdata_reader *r, const uint8_t *rec, uint64_t total, int vol)
{
	uint32_t type = pd_u32(r, rec);
	uint16_t size = pd_u16(r, rec + 6);
	uint64_t off = r->pos - total;   /* where it began (a COMPRESSED record's end when inside) */

	if (r->info_done && (type == PD_HEADER_ATTR || type == PD_HEADER_FEATURE))
		return late_header(r, type);
	switch (type) {
	case PD_FINISHED_ROUND:
		pd_queue_round(r);
		return 0;
	case PD_HEADER_ATTR:
		return header_attr(r, rec, size);
	case PD_HEADER_FEATURE:
		if (size >= 16 && pd_u64(r, rec + 8) < PD_F_MAX)
			pd_feature(r, (unsigned int)pd_u64(r, rec + 8), rec + 16, size - 16u);
		return 0;
	case PD_HEADER_BUILD_ID:
		pd_feature(r, PD_F_BUILD_ID, rec, size);
		return 0;
	case PD_EVENT_UPDATE:
		return pd_event_update(r, rec + 8, size - 8u);
	case PD_AUXTRACE_INFO:
		auxtrace_info(r, rec, size, off);
		return 0;
	case PD_AUXTRACE:
		auxtrace(r, rec, total, vol, off);
		return 0;
	case PD_TIME_CONV:
		pd_spe_time_conv(r, rec, size);
		return 0;
	case PD_FINISHED_INIT:
		r->init_done = 1;
		return 0;
	}
	if (type > PD_USER_MAX)
		r->stats.nr_unknown_records++;
	/* THREAD_MAP, CPU_MAP, STAT*, ...: nothing c2c needs. ID_INDEX neither: its
	 * entries {id, idx, cpu, tid} give the position of an id among its event's per-CPU or
	 * per-thread fds (perf's perf_sample_id.idx), not the event; the event of an id is the
	 * attr that lists it. */
	return 0;
}

static int process(struct perfdata_reader *r, const uint8_t *rec, uint64_t total, int vol)
{
	uint32_t type = pd_u32(r, rec);

	if (is_delivered(r, type)) {
		queue_kernel(r, rec, total, vol);
		if (r->q_n >= PD_QUEUE_MAX && !r->ready_n)
			pd_queue_half(r);
		return 0;
	}
	if (type <= PD_KERNEL_MAX) {
		if (type > 22 || type == 0)
			r->stats.nr_unknown_records++;
		return 0;
	}
	if (type < 64) {
		r->stats.nr_unknown_records++;
		return 0;
	}
	return process_user(r, rec, total, vol);
}

/* Read and process one record: 1, 0 at the end of the input, or a negative errno. */
static int read_one(struct perfdata_reader *r)
{
	const uint8_t *rec = NULL;
	uint64_t total = 0;
	uint32_t type;
	int vol = 1, rc;

	if (r->zsrc) {
		rc = z_next(r, &rec, &total);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			if (pd_u32(r, rec) == PD_COMPRESSED || pd_u32(r, rec) == PD_COMPRESSED2)
				return 1;   /* nested compression is not a thing perf writes */
			rc = process(r, rec, total, 1);
			return rc < 0 ? rc : 1;
		}
		r->zsrc = NULL;
	}
	rc = raw_next(r, &rec, &total, &vol);
	if (rc <= 0)
		return rc;
	type = pd_u32(r, rec);
	if (type == PD_COMPRESSED || type == PD_COMPRESSED2)
		rc = z_start(r, rec, total, vol);
	else
		rc = process(r, rec, total, vol);
	return rc < 0 ? rc : 1;
}

static void end_of_input(struct perfdata_reader *r)
{
	r->eof = 1;
	if (r->zout_end > r->zout_start)
		c2c_warn("'%s': compressed data ends inside a record (%zu bytes left over)", r->name,
			 r->zout_end - r->zout_start);
	if (r->nr_bad)
		c2c_warn("'%s': skipped %" PRIu64 " malformed or unattributable records", r->name,
			 r->nr_bad);
}

/* Map the next PD_AHEAD bytes of the file past the read position in one call, not a page
 * fault every 16 pages (each an exit to the host on a virtual machine). */
static void populate_ahead(struct perfdata_reader *r)
{
#ifdef MADV_POPULATE_READ
	uint64_t end = r->pos + 2 * PD_AHEAD;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from;

	if (r->populated >= end || r->populated >= r->len)
		return;
	if (end > r->len)
		end = r->len;
	from = ((uintptr_t)r->base + (r->populated > r->pos ? r->populated : r->pos)) & ~(page - 1);
	if (madvise((void *)from, (uintptr_t)r->base + end - from, MADV_POPULATE_READ))
		r->populated = r->len;   /* not this kernel: faults as before */
	else
		r->populated = end;
#else
	(void)r;
#endif
}

/* Give back the pages of the mapping that no queued record points into any more, so that a
 * large file does not stay resident behind the read position. */
static void drop_consumed(struct perfdata_reader *r)
{
	const uint8_t *low;
	uintptr_t page, from, to;
	size_t i;

	if (!r->map || r->nr_dir || r->pos - r->drop_checked < PD_DROP_STEP)
		return;   /* (a stream has no base to point into); called for every record read */
	page = (uintptr_t)sysconf(_SC_PAGESIZE);
	low = r->base + r->pos;
	r->drop_checked = r->pos;   /* at most one scan of the queue per PD_DROP_STEP bytes read */
	populate_ahead(r);
	for (i = 0; i < r->q_n; i++)
		if (!r->q[i].chunk && r->q[i].rec < low)
			low = r->q[i].rec;
	if (r->zsrc && r->zsrc >= r->base && r->zsrc < low)
		low = r->zsrc;
	from = ((uintptr_t)r->base + r->dropped) & ~(page - 1);
	to = (uintptr_t)low & ~(page - 1);
	if (to > from + page) {
		madvise((void *)from, to - from, MADV_DONTNEED);
		r->dropped = (uint64_t)(to - (uintptr_t)r->base);
	}
}

/* An Arm SPE sample due before the next record: 1 with *ev. */
static int spe_sample(struct perfdata_reader *r, struct trace_event *ev)
{
	if (!r->spe_pending)
		return 0;
	if (spe_next(r->spe, &ev->sample)) {
		ev->type = TRACE_REC_SAMPLE;
		ev->sample.event = (uint16_t)(r->spe_event >= 0 ? (uint32_t)r->spe_event : r->spe_attr);
		r->stats.nr_samples++;
		return 1;
	}
	r->spe_pending = 0;
	return 0;
}

/* The end of the input: what the SPE session still holds (arm_spe_flush()). 1 when the
 * session has more to give. */
static int spe_end(struct perfdata_reader *r)
{
	const struct spe_stats *st;

	if (!r->spe || r->spe_flushed)
		return 0;
	r->spe_flushed = 1;
	spe_flush(r->spe);
	r->spe_pending = 1;
	st = spe_stats(r->spe);
	r->stats.nr_spe_records = st->records;
	r->stats.nr_spe_bad_bytes = st->bad_bytes;
	return 1;
}

int perfdata_reader_next(struct perfdata_reader *r, struct trace_event *ev)
{
	int rc;

	if (r->held) {
		pd_chunk_put(r, r->held);
		r->held = NULL;
	}
	if (r->split_pos < r->split_n) {
		ev->type = TRACE_REC_SAMPLE;
		pd_split_next(r, &ev->sample);
		return 1;
	}
	for (;;) {
		if (spe_sample(r, ev))
			return 1;
		if (r->ready_pos < r->ready_n) {
			const struct pd_qent *e = &r->ready[r->ready_pos];

			if (r->spe && !r->spe_pre_done) {
				r->spe_pre_done = 1;
				pd_spe_pre(r, e);
				r->spe_pending = 1;
				continue;
			}
			r->ready_pos++;
			r->spe_pre_done = 0;
			rc = pd_decode(r, e->rec, e->attr, ev);
			if (rc == 1) {
				if (r->spe)
					spe_post(r->spe, ev);
				r->held = e->chunk;
				return 1;
			}
			pd_chunk_put(r, e->chunk);
			continue;
		}
		r->ready_n = r->ready_pos = 0;
		drop_consumed(r);
		if (r->eof) {
			if (r->q_n) {
				pd_queue_flush(r, UINT64_MAX);
				continue;
			}
			if (spe_end(r))
				continue;
			return 0;
		}
		rc = read_one(r);
		if (rc < 0)
			return rc;
		if (rc == 0)
			end_of_input(r);
	}
}

/* ---- file header ------------------------------------------------------------------------ */

int perfdata_is_perfdata(const void *buf, size_t len)
{
	return len >= 8 && (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8));
}

/* Bounds of a {offset, size} section; 0 when it lies inside the file. */
static int section(const struct perfdata_reader *r, const uint8_t *p, uint64_t *off, uint64_t *size)
{
	*off = pd_u64(r, p);
	*size = pd_u64(r, p + 8);
	return *off > r->len || *size > r->len - *off ? -1 : 0;
}

static int read_attrs(struct perfdata_reader *r)
{
	uint64_t attr_size = pd_u64(r, r->base + 16), off, size, ioff, isize, i, j;
	struct pd_attr a;
	int rc;

	if (attr_size < 64 + 16 || attr_size > PD_ATTR_SLOT_MAX)
		return c2c_err(-EBADMSG, "'%s': offset 16: bad attr_size %" PRIu64, r->name, attr_size);
	if (section(r, r->base + 24, &off, &size) < 0)
		return c2c_err(-EBADMSG, "'%s': offset 24: attrs section (%" PRIu64 ", %" PRIu64
			       ") lies past the end of the file (%zu bytes)", r->name, off, size, r->len);
	if (!size || size % attr_size)
		return c2c_err(-EBADMSG, "'%s': offset 32: attrs section size %" PRIu64
			       " is not a multiple of attr_size %" PRIu64, r->name, size, attr_size);
	for (i = 0; i < size / attr_size; i++) {
		const uint8_t *p = r->base + off + i * attr_size;

		rc = pd_attr_parse(r, p, attr_size - 16, &a, off + i * attr_size);
		if (rc < 0)
			return rc;
		pd_attr_append(r, &a);
		if (r->nr_attr > UINT16_MAX)
			return c2c_err(-ENOTSUP, "'%s': too many events", r->name);
		if (section(r, p + attr_size - 16, &ioff, &isize) < 0)
			return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": ids of event %" PRIu64
				       " lie past the end of the file", r->name,
				       off + (i + 1) * attr_size - 16, i);
		for (j = 0; j < isize / 8; j++)
			pd_attr_add_id(r, pd_u64(r, r->base + ioff + 8 * j), (uint32_t)i);
	}
	return 0;
}

static void read_features(struct perfdata_reader *r, uint64_t table)
{
	const uint8_t *bits = r->base + 72;
	unsigned int f;
	uint64_t off, size;

	for (f = 0; f < PD_F_MAX; f++) {
		uint64_t word = pd_u64(r, bits + 8 * (f / 64));

		if (!(word & (1ull << (f % 64))))
			continue;
		if (table > r->len || r->len - table < 16) {
			c2c_warn("'%s': offset %" PRIu64 ": feature table lies past the end of the file; "
				 "header features from feature %u on are missing", r->name, table, f);
			return;
		}
		if (section(r, r->base + table, &off, &size) < 0)
			c2c_warn("'%s': offset %" PRIu64 ": section of header feature %u lies past the "
				 "end of the file; ignored", r->name, table, f);
		else
			pd_feature(r, f, r->base + off, (size_t)size);
		table += 16;
	}
}

static int read_file_header(struct perfdata_reader *r, uint64_t hsize)
{
	uint64_t off, size;
	int rc;

	if (hsize != PD_HDR_SIZE && hsize != PD_HDR_SIZE_OLD)
		return c2c_err(-EBADMSG, "'%s': offset 8: bad header size %" PRIu64, r->name, hsize);
	if (r->len < hsize)
		return c2c_err(-EBADMSG, "'%s': header cut short (%zu of %" PRIu64 " bytes)", r->name,
			       r->len, hsize);
	rc = read_attrs(r);
	if (rc < 0)
		return rc;
	off = pd_u64(r, r->base + 40);
	size = pd_u64(r, r->base + 48);
	if (off < hsize || off > r->len)
		return c2c_err(-EBADMSG, "'%s': offset 40: data section offset %" PRIu64
			       " outside the file (%zu bytes)", r->name, off, r->len);
	r->data_off = r->pos = off;
	if (!size) {
		c2c_warn("'%s': data size is 0 (perf did not finish writing?); reading to the end",
			 r->name);
		r->data_end = r->len;
	} else if (size > r->len - off) {
		c2c_warn("'%s': data section ends %" PRIu64 " bytes past the end of the file; reading "
			 "what is there", r->name, size - (r->len - off));
		r->data_end = r->len;
	} else {
		r->data_end = off + size;
		if (hsize == PD_HDR_SIZE)
			read_features(r, off + size);
	}
	pd_spe_prescan(r);
	rc = pd_attrs_check(r);
	if (rc < 0)
		return rc;
	/* perf_session__new: without sample_id_all on the first event, perf's tools that need
	 * timestamps to order records (report, script, c2c) turn ordering off (not in pipe mode,
	 * whose attrs are not known yet then) */
	r->unordered = !r->attr[0].sample_id_all;
	pd_info_finish(r);
	return 0;
}

/* Pipe mode: HEADER_ATTR, HEADER_FEATURE and EVENT_UPDATE records come first; read until the
 * initial state is complete so that the info is known before the first record is asked for. */
static int read_pipe_header(struct perfdata_reader *r)
{
	int rc;

	r->pipe = 1;
	r->data_off = r->pos = PD_PIPE_HDR_SIZE;
	r->data_end = r->stream ? UINT64_MAX : r->len;
	if (r->stream)
		in_advance(r, PD_PIPE_HDR_SIZE);
	while (!r->init_done && !r->ready_n) {
		rc = read_one(r);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			end_of_input(r);
			break;
		}
	}
	rc = pd_attrs_check(r);
	if (rc < 0)
		return rc;
	pd_info_finish(r);
	return 0;
}

static int read_header(struct perfdata_reader *r)
{
	const uint8_t *h;
	size_t avail;
	uint64_t hsize;

	h = r->stream ? in_peek(r, 16, &avail) : (r->len >= 16 ? r->base : NULL);
	if (!h)
		return c2c_err(-EBADMSG, "'%s': too short for a perf.data file", r->name);
	if (!memcmp(h, "PERFFILE", 8))
		return c2c_err(-ENOTSUP, "'%s': version 1 perf.data (magic PERFFILE) is not supported",
			       r->name);
	if (!memcmp(h, TRACE_MAGIC, 8))
		return c2c_err(-EINVAL, "'%s' is already a c2c-lite trace, not a perf.data file: "
			       "report, tui and diff read it as it is", r->name);
	if (!perfdata_is_perfdata(h, 16))
		return c2c_err(-EINVAL, "'%s': not a perf.data file (bad magic)", r->name);
	r->swap = !memcmp(h, "2ELIFREP", 8);
	hsize = pd_u64(r, h + 8);
	if (hsize == PD_PIPE_HDR_SIZE)
		return read_pipe_header(r);
	if (r->stream)
		return c2c_err(-ENOTSUP, "'%s': a file-mode perf.data cannot be read from a pipe; "
			       "record with 'perf record -o -' or pass a file", r->name);
	return read_file_header(r, hsize);
}

/* ---- open and free ---------------------------------------------------------------------- */

static struct perfdata_reader *reader_new(const char *name, unsigned int flags)
{
	struct perfdata_reader *r = xcalloc(1, sizeof(*r));

	r->name = xstrdup(name);
	r->q_new_ordered = 1;
	r->opts = flags;
	r->spe_event = -1;
	return r;
}

static int open_done(struct perfdata_reader **out, struct perfdata_reader *r)
{
	int rc = read_header(r);

	if (rc < 0) {
		perfdata_reader_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

static void use_stream(struct perfdata_reader *r, int fd, int own)
{
	r->stream = xcalloc(1, sizeof(*r->stream));
	r->stream->fd = fd;
	r->stream->own_fd = own;
	r->scratch_hdr = xmalloc(65536);   /* header.size is a u16 */
}

/* The files DIR/data.* after the header file DIR/data (slot 0), in readdir() order as perf
 * opens them (perf_data__open_dir()); empty ones are left out, as perf reads none of them. */
static int dir_files(struct perfdata_reader *r, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return c2c_err(-errno, "cannot read the directory '%s': %s", path, strerror(errno));
	r->dir = xcalloc(1, sizeof(*r->dir));
	r->dir[0] = (struct pd_dirfile){ r->name, NULL, r->base, r->pos, r->data_end, 0 };
	r->nr_dir = 1;
	while (!rc && (e = readdir(d))) {
		char *name;
		struct stat st;
		void *m;
		int fd;

		if (strncmp(e->d_name, "data.", 5))
			continue;
		name = xasprintf("%s/%s", path, e->d_name);
		if (stat(name, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
			free(name);
			continue;
		}
		fd = open(name, O_RDONLY | O_CLOEXEC);
		m = fd < 0 ? MAP_FAILED : mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			rc = c2c_err(-errno, "cannot %s '%s': %s", fd < 0 ? "open" : "map", name,
				     strerror(errno));
			free(name);
		} else {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			r->dir = xrealloc(r->dir, (r->nr_dir + 1) * sizeof(*r->dir));
			r->dir[r->nr_dir++] = (struct pd_dirfile){ name, m, m, 0, (uint64_t)st.st_size, 0 };
		}
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	return rc;
}

/* Map the input @fd (closed unless standard input), or read it as a stream when it is no
 * regular file (a pipe, a FIFO) or standard input not at its start. */
static int map_input(struct perfdata_reader *r, int fd, int is_stdin, const char *path)
{
	struct stat st;

	/* standard input redirected from a file is mapped like a named file */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (!is_stdin || lseek(fd, 0, SEEK_CUR) == 0)) {
		r->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			int err = errno;

			r->map = NULL;
			if (!is_stdin)
				close(fd);
			return c2c_err(-err, "cannot map '%s': %s", path, strerror(err));
		}
		madvise(r->map, (size_t)st.st_size, MADV_SEQUENTIAL);
		r->map_len = r->len = (size_t)st.st_size;
		r->base = r->map;
		if (!is_stdin)
			close(fd);
	} else {
		use_stream(r, fd, !is_stdin);
	}
	return 0;
}

/* perf record --threads writes a directory: DIR/data holds the header, the attrs, the features
 * and the side-band perf synthesized, each DIR/data.N the records of one thread's buffers. With
 * no DIR_FORMAT feature (perf record --kcore) DIR/data alone holds the records, as perf reads
 * it. A directory without DIR/data is no perf.data. */
static int open_dir(struct perfdata_reader **out, const char *path, unsigned int flags)
{
	char *hdr = xasprintf("%s/data", path);
	struct perfdata_reader *r;
	struct stat st;
	int fd = open(hdr, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		free(hdr);
		return c2c_err(-EISDIR, "'%s' is a directory, not a perf.data file", path);
	}
	r = reader_new(hdr, flags);
	free(hdr);
	rc = map_input(r, fd, 0, r->name);
	if (!rc)
		rc = read_header(r);
	if (!rc && r->dir_version && r->dir_version != 1)
		rc = c2c_err(-ENOTSUP, "'%s': directory format version %" PRIu64 " is not supported",
			     path, r->dir_version);
	if (!rc && r->dir_version)
		rc = dir_files(r, path);
	if (rc) {
		perfdata_reader_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int perfdata_reader_open(struct perfdata_reader **out, const char *path)
{
	return perfdata_reader_open_opts(out, path, 0);
}

int perfdata_reader_open_opts(struct perfdata_reader **out, const char *path, unsigned int flags)
{
	struct perfdata_reader *r;
	struct stat st;
	int fd, is_stdin, rc;

	*out = NULL;
	is_stdin = !strcmp(path, "-");
	if (is_stdin) {
		fd = 0;
		r = reader_new("<stdin>", flags);
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return c2c_err(-errno, "cannot open '%s': %s", path, strerror(errno));
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			close(fd);
			return open_dir(out, path, flags);
		}
		r = reader_new(path, flags);
	}
	rc = map_input(r, fd, is_stdin, path);
	if (rc) {
		perfdata_reader_free(r);
		return rc;
	}
	return open_done(out, r);
}

int perfdata_reader_fdopen(struct perfdata_reader **out, int fd, const char *name)
{
	struct perfdata_reader *r = reader_new(name, 0);
	int rc;

	*out = NULL;
	rc = map_input(r, fd, 1, name);   /* as standard input: the caller's fd, not closed */
	if (rc) {
		perfdata_reader_free(r);
		return rc;
	}
	return open_done(out, r);
}

int perfdata_reader_open_mem(struct perfdata_reader **out, const void *buf, size_t len,
			     const char *name)
{
	struct perfdata_reader *r = reader_new(name ? name : "<memory>", 0);

	*out = NULL;
	r->base = buf;
	r->len = len;
	return open_done(out, r);
}

const struct trace_info *perfdata_reader_info(const struct perfdata_reader *r)
{
	return &r->info;
}

const struct perfdata_stats *perfdata_reader_stats(const struct perfdata_reader *r)
{
	return &r->stats;
}

void perfdata_reader_free(struct perfdata_reader *r)
{
	struct pd_chunk *c, *n;
	uint32_t i;

	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->map_len);
	if (r->nr_dir) {
		r->name = r->dir[0].name;
		for (size_t k = 0; k < r->nr_dir; k++) {
			ZSTD_freeDStream(r->dir[k].zds);
			free(r->dir[k].zout);
			if (!k)
				continue;
			munmap(r->dir[k].map, (size_t)r->dir[k].end);
			free(r->dir[k].name);
		}
		free(r->dir);
	}
	if (r->stream) {
		if (r->stream->own_fd)
			close(r->stream->fd);
		free(r->stream->buf);
		free(r->stream);
	}
	ZSTD_freeDStream(r->zds);
	free(r->zin);
	free(r->zout);
	for (i = 0; i < r->nr_attr; i++)
		free(r->attr[i].name);
	free(r->attr);
	free(r->id_key);
	free(r->id_val);
	free(r->id_prev);
	pd_info_release(r);
	free(r->q);
	free(r->tmp);
	free(r->ready);
	for (c = r->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(r->scratch);
	free(r->scratch_hdr);
	spe_free(r->spe);
	free(r->cpuid);
	free(r->name);
	free(r);
}

int perfdata_reader_truncated(const struct perfdata_reader *r)
{
	return r->truncated_warned != 0;
}
