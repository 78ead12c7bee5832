/* libFuzzer target for the trace reader: open the input as an in-memory trace and read every
 * record. Any input must give records, an end or an error; never a crash, a leak or an overread
 * (built with -fsanitize=fuzzer,address). Seeds: any trace written by c2c-lite.
 *
 * Random mutations almost never keep a chunk's CRCs right, which would confine the fuzzer to the
 * framing code. So each input is read twice: as given, and with every chunk's checksums
 * recomputed, which sends mutated payloads through the record and header decoders. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "c2c/log.h"
#include "c2c/spe.h"
#include "c2c/trace.h"

static void quiet(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

/* Touch what the reader hands out, so an invalid pointer or length faults here. */
static uint64_t touch(const struct trace_event *ev)
{
	switch (ev->type) {
	case TRACE_REC_MMAP:
		return strlen(ev->mmap.filename) + ev->mmap.build_id_size;
	case TRACE_REC_COMM:
		return strlen(ev->comm.comm);
	case TRACE_REC_BLOB:
		if (ev->blob.kind == TRACE_BLOB_SPE_INFO) {
			struct c2c_spe_info in;

			if (!c2c_spe_info_parse(ev->blob.data, ev->blob.size, &in)) {
				uint64_t v = in.nr_midr ? in.midr[in.nr_midr - 1].midr : 0;

				c2c_spe_info_release(&in);
				return v;
			}
		}
		return ev->blob.size ? ((const uint8_t *)ev->blob.data)[ev->blob.size - 1] : 0;
	case TRACE_REC_SAMPLE:
		return ev->sample.td_nr <= TRACE_TD_MAX ? ev->sample.addr : 0;
	default:
		return 0;
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Recompute the payload and header CRC of every whole chunk (docs/trace-format.md). */
static void fix_checksums(uint8_t *d, size_t size)
{
	size_t off = 16;

	while (size >= 24 && off <= size - 24 && !memcmp(d + off, "CHNK", 4)) {
		uint32_t len = le32(d + off + 8);

		if (len > size - off - 24)
			break;
		put_le32(d + off + 12, crc32(crc32(0, d + off + 4, 8), d + off + 24, len));
		put_le32(d + off + 20, crc32(0, d + off, 20));
		off += 24 + (size_t)len;
	}
}

static void read_all(const uint8_t *data, size_t size)
{
	struct trace_reader *r;
	struct trace_event ev;
	const struct trace_info *info;
	volatile uint64_t sink = 0;

	c2c_log_set_hook(quiet, NULL);
	if (trace_reader_open_mem(&r, data, size, "fuzz"))
		return;
	info = trace_reader_info(r);
	for (uint32_t i = 0; i < info->nr_events; i++)
		sink += info->events[i].name ? strlen(info->events[i].name) : 0;
	for (uint32_t i = 0; i < info->nr_cpus; i++)
		sink += (uint32_t)info->cpu_node[i];
	while (trace_reader_next(r, &ev) == 1)
		sink += touch(&ev);
	trace_reader_free(r);
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	read_all(data, size);
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	fix_checksums(copy, size);
	read_all(copy, size);
	free(copy);
	return 0;
}
