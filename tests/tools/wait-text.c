/* wait-text: wait until a text appears in a byte stream (a terminal's output, say).
 *
 *   wait-text [-t SECONDS] TEXT < STREAM
 *
 * Reads standard input as it comes and exits 0 as soon as TEXT has appeared in it, also across
 * reads, so that a benchmark can stop its clock at the moment a screen shows something without
 * polling it (a poll that forks every few milliseconds slows what it measures). Exits 1 at the
 * end of the stream without TEXT, 2 on a usage or read error, 3 after SECONDS (default 300). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	double limit = 300, end;
	const char *text;
	size_t tlen, have = 0;
	char *buf;
	int opt;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't' || (limit = strtod(optarg, NULL)) <= 0) {
			fprintf(stderr, "usage: wait-text [-t SECONDS] TEXT < STREAM\n");
			return 2;
		}
	}
	if (optind + 1 != argc || !*argv[optind]) {
		fprintf(stderr, "usage: wait-text [-t SECONDS] TEXT < STREAM\n");
		return 2;
	}
	text = argv[optind];
	tlen = strlen(text);
	/* the last tlen - 1 bytes read, then up to 64 KiB more */
	buf = malloc(tlen - 1 + 65536);
	if (!buf) {
		fprintf(stderr, "wait-text: out of memory\n");
		return 2;
	}
	end = now() + limit;
	for (;;) {
		struct pollfd p = { .fd = 0, .events = POLLIN };
		double left = end - now();
		ssize_t n;

		if (left <= 0)
			return 3;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			perror("wait-text: poll");
			return 2;
		}
		if (!p.revents)
			continue;
		n = read(0, buf + have, 65536);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			perror("wait-text: read");
			return 2;
		}
		if (n == 0)
			return 1;
		have += (size_t)n;
		if (memmem(buf, have, text, tlen))
			return 0;
		if (have >= tlen) {   /* keep what could start the text */
			memmove(buf, buf + have - (tlen - 1), tlen - 1);
			have = tlen - 1;
		}
	}
}
