/* spe-trace IN.perf.data OUT.c2c [--cut N]: a test-only converter that writes the Arm SPE data of
 * a perf.data file (c2c-gen --perf spe) as c2c-lite record --backend=hw writes it (record/
 * session.c): the facts blob (PMU type, MIDR, TIME_CONV) before any AUX data, each AUX record
 * followed by its bytes as a TRACE_BLOB_SPE_AUX blob (as soon as perf.data gives them), the ITRACE_START and SWITCH records, the
 * info flagged TRACE_INFO_SPE_RAW, no decoded samples. The trace's report must then equal the
 * perf.data's (tests/e2e/trace-spe.sh).
 *
 * Each blob's AUX offset is the file offset of its AUXTRACE payload in IN: c2c-gen lays out
 * alignment packets for perf, which pads them to the file offset it reads the data at, and the
 * trace decoder pads them to the AUX offset (the AUX area is page-aligned). A blob holds the
 * payload as perf.data does, with its padding to 8 bytes.
 *
 * --cut N keeps only the first N bytes of every CPU's last blob (AUX data cut short);
 * --corrupt N puts 0xff bytes at byte N of every blob that long (invalid packets). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2c/spe.h"
#include "c2c/trace.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata.h"

#define R_AUXTRACE   71
#define R_COMPRESSED 81

struct payload {
	uint32_t cpu;
	uint64_t aux_off, file_off;
	uint8_t *data;             /* the blob, once read */
	uint64_t size;
	uint64_t time;
	int written, announced;    /* its AUX record was written */
};

static struct payload *pl;
static size_t nr_pl;

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Where each AUXTRACE payload lies in the file (an uncompressed native-endian file). */
static int scan(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	const uint8_t *m;
	uint64_t pos, end;

	if (fd < 0 || fstat(fd, &st) || st.st_size < 64)
		return -1;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED || memcmp(m, "PERFILE2", 8))
		return -1;
	pos = get64(m + 40);
	end = pos + get64(m + 48);
	if (end > (uint64_t)st.st_size)
		end = (uint64_t)st.st_size;
	while (pos + 8 <= end) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, m + pos, 4);
		memcpy(&size, m + pos + 6, 2);
		if (size < 8 || type == R_COMPRESSED) {
			fprintf(stderr, "spe-trace: %s: record of type %u at %llu: unsupported\n", path,
				type, (unsigned long long)pos);
			return -1;
		}
		if (type == R_AUXTRACE && size >= 48) {
			pl = xrealloc(pl, (nr_pl + 1) * sizeof(*pl));
			pl[nr_pl++] = (struct payload){ .cpu = (uint32_t)get64(m + pos + 40),
							.aux_off = get64(m + pos + 16),
							.file_off = pos + size };
			pos += get64(m + pos + 8);
		}
		pos += size;
	}
	return 0;
}

static struct payload *find(uint32_t cpu, uint64_t aux_off)
{
	for (size_t i = 0; i < nr_pl; i++)
		if (pl[i].cpu == cpu && pl[i].aux_off == aux_off)
			return &pl[i];
	return NULL;
}

static int last_of_cpu(const struct payload *p)
{
	for (const struct payload *q = p + 1; q < pl + nr_pl; q++)
		if (q->cpu == p->cpu)
			return 0;
	return 1;
}

static int put_blob(struct trace_writer *w, struct payload *p)
{
	struct trace_event b = { .type = TRACE_REC_BLOB };

	p->written = 1;
	b.blob = (struct trace_blob){ p->time, TRACE_BLOB_SPE_AUX, p->cpu, p->file_off, p->size,
				      p->data };
	return trace_write(w, &b);
}

int main(int argc, char **argv)
{
	struct perfdata_reader *pr;
	struct trace_writer *w;
	struct trace_event ev;
	struct c2c_spe_info f;
	int64_t cut = -1, corrupt = -1;
	int facts = 0, rc = 0, err = 0;
	char *text;

	if (argc == 5 && !strcmp(argv[3], "--cut"))
		cut = atoll(argv[4]);
	else if (argc == 5 && !strcmp(argv[3], "--corrupt"))
		corrupt = atoll(argv[4]);
	else if (argc != 3) {
		fprintf(stderr, "usage: spe-trace IN.perf.data OUT.c2c [--cut N | --corrupt N]\n");
		return 2;
	}
	if (scan(argv[1]) || perfdata_reader_open_opts(&pr, argv[1], PERFDATA_SPE_RAW)) {
		fprintf(stderr, "spe-trace: cannot read '%s'\n", argv[1]);
		return 1;
	}
	if (trace_writer_open(&w, argv[2], perfdata_reader_info(pr), NULL))
		return 1;
	while (!err && (rc = perfdata_reader_next(pr, &ev)) > 0) {
		struct payload *p = NULL;

		if (!facts && (ev.type == TRACE_REC_BLOB || ev.type == TRACE_REC_AUX ||
			       ev.type == TRACE_REC_ITRACE_START || ev.type == TRACE_REC_SWITCH)) {
			struct trace_event b = { .type = TRACE_REC_BLOB };

			facts = 1;
			if (perfdata_reader_spe_facts(pr, &f)) {
				fprintf(stderr, "spe-trace: '%s' holds no Arm SPE data\n", argv[1]);
				return 1;
			}
			b.blob.kind = TRACE_BLOB_SPE_INFO;
			b.blob.size = c2c_spe_info_format(&f, &text);
			b.blob.data = text;
			err = trace_write(w, &b);
			free(text);
			c2c_spe_info_release(&f);
		}
		if (ev.type == TRACE_REC_BLOB && ev.blob.kind == TRACE_BLOB_SPE_AUX) {
			/* held until its AUX record, after which record writes it */
			p = find(ev.blob.cpu, ev.blob.offset);
			if (!p) {
				fprintf(stderr, "spe-trace: AUX data of cpu %u at %llu not found\n",
					ev.blob.cpu, (unsigned long long)ev.blob.offset);
				return 1;
			}
			p->size = ev.blob.size;
			p->data = xmalloc(p->size ? p->size : 1);
			memcpy(p->data, ev.blob.data, p->size);
			if (cut >= 0 && last_of_cpu(p) && (uint64_t)cut < p->size)
				p->size = (uint64_t)cut;
			if (corrupt >= 0 && (uint64_t)corrupt + 4 <= p->size)
				memset(p->data + corrupt, 0xff, 4);
			if (p->announced)
				err = put_blob(w, p);
			continue;
		}
		if (ev.type == TRACE_REC_AUX) {
			p = find(ev.aux.cpu, ev.aux.offset);
			if (p && !p->announced) {
				ev.aux.offset = p->file_off;
				p->announced = 1;
				p->time = ev.aux.time;
			} else {
				p = NULL;
			}
		}
		err = trace_write(w, &ev);
		if (p && p->data && !err)
			err = put_blob(w, p);
	}
	/* data no AUX record announced, at the end */
	for (size_t i = 0; i < nr_pl && !err; i++)
		if (pl[i].data && !pl[i].written)
			err = put_blob(w, &pl[i]);
	perfdata_reader_free(pr);
	if (trace_writer_close(w) || err || rc < 0) {
		fprintf(stderr, "spe-trace: cannot write '%s'\n", argv[2]);
		return 1;
	}
	return 0;
}
