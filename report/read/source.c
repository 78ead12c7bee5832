/* The report's event source (see report/read/source.h): opens a file, tells a c2c-lite trace from a
 * perf.data file by its first bytes, and hands out the records of whichever reader fits. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata.h"
#include "report/read/source.h"
#include "report/read/trace-spe.h"

struct source {
	enum source_kind kind;
	char *path;
	int fd;                     /* a stream this source opened (-1: none, or stdin) */
	struct trace_reader *trace;
	struct perfdata_reader *pd;
	struct trace_spe *spe;      /* a trace's raw Arm SPE data, decoded */
};

static int is_stream(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && S_ISFIFO(st.st_mode));
}

const char *source_default_input(void)
{
	if (access("c2c-lite.data", F_OK) && !access("perf.data", F_OK)) {
		c2c_info("no -i and no c2c-lite.data here: reading perf.data");
		return "perf.data";
	}
	return "c2c-lite.data";
}

static int source_sniff(const char *path, unsigned char *buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	int err;
	char *hdr;

	if (!f) {
		err = -errno;
		if (err == -ENOENT && !strcmp(path, "c2c-lite.data"))
			return c2c_err(err, "cannot open 'c2c-lite.data' (nor perf.data): %s; record one "
				       "with 'c2c-lite record' or name a file with -i", strerror(-err));
		return c2c_err(err, "cannot open '%s': %s", path, strerror(-err));
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		/* perf record --threads writes a directory whose header file is DIR/data */
		fclose(f);
		hdr = xasprintf("%s/data", path);
		f = fopen(hdr, "rb");
		free(hdr);
		*len = f ? fread(buf, 1, *len, f) : 0;
		if (f)
			fclose(f);
		if (*len >= 8 && perfdata_is_perfdata(buf, *len))
			return 0;
		return c2c_err(-EISDIR, "'%s' is a directory, not a trace or perf.data file", path);
	}
	*len = fread(buf, 1, *len, f);
	fclose(f);
	return 0;
}

/* The first @n bytes of a stream, left in it for the reader: tee(2) copies a pipe's bytes without
 * consuming them, a socket is peeked, a regular file read in place. Returns the bytes seen
 * (fewer only at the end of the stream) or a negative errno. */
static ssize_t stream_peek(int fd, unsigned char *buf, size_t n)
{
	struct stat st;
	ssize_t got;
	int p[2];

	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		off_t pos = lseek(fd, 0, SEEK_CUR);

		got = pos < 0 ? -1 : pread(fd, buf, n, pos);
		return got < 0 ? -errno : got;
	}
	if (S_ISSOCK(st.st_mode)) {
		got = recv(fd, buf, n, MSG_PEEK | MSG_WAITALL);
		return got < 0 ? -errno : got;
	}
	if (!S_ISFIFO(st.st_mode))
		return -ESPIPE;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		struct timespec ms = { 0, 1000000 };

		got = tee(fd, p[1], n, 0);   /* waits for the first bytes; 0 at an empty end */
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 || (size_t)got >= n || !got)
			break;
		/* fewer than @n so far: wait for more unless the writer is gone */
		if (poll(&pf, 1, 0) == 1 && (pf.revents & POLLHUP))
			break;
		nanosleep(&ms, NULL);
	}
	if (got > 0)
		got = read(p[0], buf, (size_t)got);
	if (got < 0)
		got = -errno;
	close(p[0]);
	close(p[1]);
	return got;
}

/* Standard input ("-") or a FIFO: the format is told by the first bytes, peeked without taking
 * them, and the reader of that format reads the stream in sequence. */
static int stream_open(struct source *s, const char *path)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	unsigned char magic[8];
	ssize_t n;
	int fd = 0;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return c2c_err(-errno, "cannot open '%s': %s", path, strerror(errno));
		s->fd = fd;
	} else if (isatty(0)) {
		return c2c_err(-EINVAL, "-i -: standard input is a terminal; pipe a trace or a "
			       "perf.data stream into it");
	}
	n = stream_peek(fd, magic, sizeof(magic));
	if (n == -ESPIPE) {          /* a device: what streams carry, pipe-mode perf.data */
		s->kind = SOURCE_PERFDATA;
		return perfdata_reader_fdopen(&s->pd, fd, name);
	}
	if (n < 0)
		return c2c_err((int)n, "cannot read '%s': %s", name, strerror((int)-n));
	if (!n)
		return c2c_err(-EINVAL, "'%s': empty input", name);
	if ((size_t)n == sizeof(magic) && trace_is_trace(magic, (size_t)n)) {
		s->kind = SOURCE_TRACE;
		return trace_reader_fdopen(&s->trace, fd, name);
	}
	if ((size_t)n == sizeof(magic) && perfdata_is_perfdata(magic, (size_t)n)) {
		s->kind = SOURCE_PERFDATA;
		return perfdata_reader_fdopen(&s->pd, fd, name);
	}
	return c2c_err(-EINVAL, "'%s': not a c2c-lite trace or perf.data stream", name);
}

int source_open(struct source **out, const char *path)
{
	unsigned char magic[16];
	size_t len = sizeof(magic);
	struct source *s;
	int err, stream;

	*out = NULL;
	/* Standard input ("-") and FIFOs carry a c2c-lite trace (record -o -) or pipe-mode
	 * perf.data (perf record -o -), read as they come. */
	stream = is_stream(path);
	if (!stream) {
		err = source_sniff(path, magic, &len);
		if (err)
			return err;
	}
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->fd = -1;
	if (stream) {
		err = stream_open(s, path);
	} else if (!len) {
		err = c2c_err(-EINVAL, "'%s': empty file", path);
	} else if (len >= 8 && trace_is_trace(magic, len)) {
		s->kind = SOURCE_TRACE;
		err = trace_reader_open(&s->trace, path);
	} else if (len >= 8 && perfdata_is_perfdata(magic, len)) {
		s->kind = SOURCE_PERFDATA;
		err = perfdata_reader_open(&s->pd, path);
	} else {
		err = c2c_err(-EINVAL, "'%s': not a c2c-lite trace or perf.data file", path);
	}
	if (err) {
		source_free(s);
		return err;
	}
	/* record stores Arm SPE AUX data raw (docs/architecture.md): decoded here */
	if (s->trace)
		trace_spe_open(&s->spe, s->trace, path, stream);
	*out = s;
	return 0;
}

enum source_kind source_kind(const struct source *s)
{
	return s->kind;
}

const char *source_path(const struct source *s)
{
	return s->path;
}

const struct trace_info *source_info(const struct source *s)
{
	if (s->pd)
		return perfdata_reader_info(s->pd);
	if (s->spe)
		return trace_spe_info(s->spe);
	return s->trace ? trace_reader_info(s->trace) : NULL;
}

int source_next(struct source *s, struct trace_event *ev)
{
	if (s->spe)
		return trace_spe_next(s->spe, ev);
	if (s->trace)
		return trace_reader_next(s->trace, ev);
	if (s->pd)
		return perfdata_reader_next(s->pd, ev);
	return 0;
}

int source_truncated(const struct source *s)
{
	return s->trace ? trace_reader_truncated(s->trace) : perfdata_reader_truncated(s->pd);
}

const struct perfdata_stats *source_perfdata_stats(const struct source *s)
{
	return s->pd ? perfdata_reader_stats(s->pd) : NULL;
}

void source_free(struct source *s)
{
	if (!s)
		return;
	trace_spe_free(s->spe);
	trace_reader_free(s->trace);
	perfdata_reader_free(s->pd);
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	free(s);
}
