/* libFuzzer target: the perf.data reader on arbitrary bytes (file and pipe mode, both byte
 * orders, compressed records). Every record is read to the end; nothing may crash or leak. */
#include <stddef.h>
#include <stdint.h>

#include "c2c/log.h"
#include "report/read/perfdata.h"

static void quiet(enum c2c_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfdata_reader *r;
	struct trace_event ev;
	const struct trace_info *in;
	volatile uint64_t sink = 0;
	int rc;

	c2c_log_set_hook(quiet, NULL);
	if (perfdata_reader_open_mem(&r, data, size, "fuzz") < 0)
		return 0;
	in = perfdata_reader_info(r);
	sink += in->nr_events + in->nr_cpus + in->nr_mem_ranges;
	while ((rc = perfdata_reader_next(r, &ev)) == 1) {
		if (ev.type == TRACE_REC_MMAP)
			sink += ev.mmap.filename[0];
		else if (ev.type == TRACE_REC_COMM)
			sink += ev.comm.comm[0];
		else if (ev.type == TRACE_REC_SAMPLE)
			sink += ev.sample.event < in->nr_events;
	}
	perfdata_reader_free(r);
	return 0;
}
