/* memc-load: a load generator for memcached's text protocol (ours, for tests/e2e/server-memcached.sh).
 *
 *   memc-load PORT SECONDS [CONNECTIONS [KEYS]]
 *
 * CONNECTIONS threads (default 4), each with its own TCP connection to 127.0.0.1:PORT, send
 * "set" and "get" of KEYS keys (default 16: few keys, so that the server's threads meet on the
 * same items and their locks) for SECONDS seconds, one request at a time, and print the requests
 * done. Exit 0 when every request was answered as the protocol says, 1 otherwise. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port, nkeys = 16;
static double seconds;

struct conn {
	int id;
	long done;
	int bad;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read until the reply ends with @end (a "\r\n"-terminated line): 0, else -1. */
static int reply(int fd, char *buf, size_t n, const char *end)
{
	size_t len = 0, el = strlen(end);

	for (;;) {
		ssize_t r = read(fd, buf + len, n - 1 - len);
		if (r <= 0)
			return -1;
		len += (size_t)r;
		buf[len] = 0;
		if (len >= el && !strcmp(buf + len - el, end))
			return 0;
		if (len + 1 >= n)
			return -1;
	}
}

static void *run(void *arg)
{
	struct conn *c = arg;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
	char req[128], buf[4096];
	double until = now() + seconds;
	unsigned seed = (unsigned)c->id * 2654435761u;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("memc-load: connect");
		c->bad = 1;
		return NULL;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	while (now() < until) {
		for (int i = 0; i < 64; i++) {
			int k = (int)(rand_r(&seed) % (unsigned)nkeys), n;
			if (i & 1)
				n = snprintf(req, sizeof(req), "get key%d\r\n", k);
			else
				n = snprintf(req, sizeof(req), "set key%d 0 0 8\r\nvalue%03d\r\n", k,
					     c->id % 1000);
			if (write(fd, req, (size_t)n) != n ||
			    reply(fd, buf, sizeof(buf), (i & 1) ? "END\r\n" : "\r\n")) {
				c->bad = 1;
				close(fd);
				return NULL;
			}
			if (!(i & 1) && strcmp(buf, "STORED\r\n"))
				c->bad = 1;
			c->done++;
		}
	}
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 4, bad = 0;
	long total = 0;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: memc-load PORT SECONDS [CONNECTIONS [KEYS]]\n");
		return 2;
	}
	port = atoi(argv[1]);
	seconds = atof(argv[2]);
	if (argc > 3)
		n = atoi(argv[3]);
	if (argc > 4)
		nkeys = atoi(argv[4]);
	if (port <= 0 || port > 65535 || seconds <= 0 || n <= 0 || n > 64 || nkeys <= 0) {
		fprintf(stderr, "memc-load: bad arguments\n");
		return 2;
	}
	pthread_t t[64];
	struct conn c[64];
	for (int i = 0; i < n; i++) {
		c[i] = (struct conn){ .id = i };
		if (pthread_create(&t[i], NULL, run, &c[i])) {
			fprintf(stderr, "memc-load: cannot start thread %d\n", i);
			return 1;
		}
	}
	for (int i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += c[i].done;
		bad |= c[i].bad;
	}
	printf("%ld requests\n", total);
	return bad;
}
