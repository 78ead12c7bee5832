/* A small workload for the record end-to-end tests: threads that touch fresh pages (page faults
 * with known data addresses) and spin on a shared counter, a forked child that execs itself,
 * and modes that crash or run for a while.
 *
 *   rec-workload threads N PAGES   N threads, each faulting in PAGES fresh pages, plus a fork
 *                                  whose child execs "rec-workload child" and faults too
 *   rec-workload child             (the exec'd child) fault 64 pages and exit 0
 *   rec-workload crash             fault some pages, then SIGSEGV
 *   rec-workload spin SECONDS      fault and spin until SECONDS passed
 *   rec-workload exit CODE         fault 16 pages and exit with CODE
 *   rec-workload refault N PAGES ROUNDS
 *                                  N threads, each with PAGES pages of its own that it faults
 *                                  in ROUNDS times (MADV_DONTNEED between rounds), at one of 32
 *                                  addresses (8 cachelines, 4 offsets each) by round: N * PAGES *
 *                                  ROUNDS page faults over N * PAGES * 8 cachelines at most
 *                                  (bench/bench_perf.sh: a large perf.data that perf writes)
 * Prints the address of its first buffer ("buf=0x...") on stdout. With REC_WORKLOAD_RUSAGE=FILE
 * the threads and spin modes write the CPU time of the workload and its children in
 * microseconds ("user sys") to FILE (bench/bench_record.sh subtracts it from the recorder's). */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t shared_counter;

static void fault_pages(size_t pages)
{
	long ps = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * (size_t)ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	for (size_t i = 0; i < pages; i++)
		p[i * (size_t)ps] = (char)i;
	munmap(p, pages * (size_t)ps);
}

static void *thread_main(void *arg)
{
	size_t pages = (size_t)(uintptr_t)arg;

	fault_pages(pages);
	for (int i = 0; i < 1000000; i++)
		__atomic_fetch_add(&shared_counter, 1, __ATOMIC_RELAXED);
	return NULL;
}

struct refault {
	size_t pages, rounds;
};

static void *refault_main(void *arg)
{
	const struct refault *rf = arg;
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), len = rf->pages * ps;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	for (size_t r = 0; r < rf->rounds; r++) {
		size_t off = (r % 8 * 64 + r / 8 % 4 * 16) % ps;

		for (size_t i = 0; i < rf->pages; i++)
			p[i * ps + off] = (char)r;
		madvise(p, len, MADV_DONTNEED);
	}
	munmap(p, len);
	return NULL;
}

static int run_refault(int n, size_t pages, size_t rounds)
{
	struct refault rf = { pages, rounds };
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	if (!t || n < 1)
		return 2;
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, refault_main, &rf)) {
			fprintf(stderr, "rec-workload: cannot start thread %d\n", i);
			exit(2);
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}

static int run_threads(int n, size_t pages, const char *self)
{
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	pid_t child;
	int st;

	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)pages);
	child = fork();
	if (child == 0) {
		execl(self, self, "child", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	if (child < 0 || waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		return 3;
	return 0;
}

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static int report_rusage(int rc)
{
	const char *path = getenv("REC_WORKLOAD_RUSAGE");
	struct rusage self, kids;
	FILE *f;

	if (!path)
		return rc;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	f = fopen(path, "w");
	if (!f)
		return 2;
	fprintf(f, "%lld %lld\n", tv_us(self.ru_utime) + tv_us(kids.ru_utime),
		tv_us(self.ru_stime) + tv_us(kids.ru_stime));
	fclose(f);
	return rc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static char buf[4096];

	printf("buf=%p\n", (void *)buf);
	fflush(stdout);
	if (argc >= 4 && !strcmp(argv[1], "threads"))
		return report_rusage(run_threads(atoi(argv[2]), (size_t)atol(argv[3]), argv[0]));
	if (argc >= 2 && !strcmp(argv[1], "child")) {
		fault_pages(64);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "crash")) {
		fault_pages(64);
		signal(SIGSEGV, SIG_DFL);   /* a sanitizer's handler would turn it into exit(1) */
		raise(SIGSEGV);
		return 1;
	}
	if (argc >= 3 && !strcmp(argv[1], "spin")) {
		double end = now() + atof(argv[2]);

		while (now() < end) {
			fault_pages(16);
			for (int i = 0; i < 100000; i++)
				__atomic_fetch_add(&shared_counter, 1, __ATOMIC_RELAXED);
		}
		return report_rusage(0);
	}
	if (argc >= 5 && !strcmp(argv[1], "refault"))
		return run_refault(atoi(argv[2]), (size_t)atol(argv[3]), (size_t)atol(argv[4]));
	if (argc >= 3 && !strcmp(argv[1], "exit")) {
		fault_pages(16);
		return atoi(argv[2]);
	}
	fprintf(stderr, "usage: rec-workload threads N PAGES | child | crash | spin SECS | exit N | "
		"refault N PAGES ROUNDS\n");
	return 2;
}
