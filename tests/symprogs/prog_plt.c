/* A hot loop of libc calls through the PLT, for the PLT symbol tests: test_symbols builds it
 * with -nostartfiles -DNOSTART (no .init, so no _init stretched over the PLT),
 * tests/e2e/report-diff-symbols.sh both that way and with the start files (_init stretched over
 * the PLT), and tests/e2e/symbols-perf.sh records it with perf (lazy binding, so the calls go
 * through the .plt entries). LOOPS sets the run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LOOPS
#define LOOPS 4000000
#endif

volatile long plt_sink;

int main(int argc, char **argv)
{
	const char *s = argc > 5 ? argv[1] : "12abc";
	char buf[16];

	for (long i = 0; i < LOOPS; i++) {
		plt_sink += (long)strlen(s);
		plt_sink += labs(i);
		plt_sink += atoi(s);
		plt_sink += strcmp(s, "x");
		plt_sink += (long)strchr(s, 'a');
		plt_sink += abs((int)i);
		plt_sink += (long)memchr(s, 'b', 3);
		memcpy(buf, s, 6);
		plt_sink += memcmp(buf, "12", 2);
	}
	if (argc > 5)
		printf("%ld\n", plt_sink);
	return 0;
}

#ifdef NOSTART
void _start(void)
{
	_exit(main(1, NULL));
}
#endif
