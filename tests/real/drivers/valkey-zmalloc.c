/* c2c-lite corpus driver for Valkey's zmalloc (third_party/valkey): the main thread and one
 * I/O thread allocate and free client-sized buffers through zmalloc, which counts each
 * thread's bytes in used_memory_thread[thread_index] (zmalloc.c). Before Valkey's commit
 * a62d1f177 the two counters are neighbours on one cache line; after it, the main thread's
 * counter has a line of its own.
 * Build with third_party/valkey/before/zmalloc.c or /after/zmalloc.c:
 *   cc -O2 -Ithird_party/valkey drivers/valkey-zmalloc.c third_party/valkey/before/zmalloc.c
 *   usage: valkey-zmalloc [ITERS]   (default 20000000) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "zmalloc.h"

/* serverassert.h's assertion handler, which zmalloc.c calls (server.c defines it in Valkey) */
void _serverAssert(const char *estr, const char *file, int line) {
    fprintf(stderr, "assertion failed: %s (%s:%d)\n", estr, file, line);
    abort();
}

static long iters;

/* a client's query and reply buffers come and go: allocate and free a few sizes */
static void *churn(void *arg) {
    static const size_t sizes[] = {16, 48, 112, 240};
    for (long i = 0; i < iters; i++) {
        void *p = zmalloc(sizes[i & 3]);
        zfree(p);
    }
    return arg;
}

int main(int argc, char **argv) {
    pthread_t io;
    iters = argc > 1 ? atol(argv[1]) : 20000000;
    if (pthread_create(&io, NULL, churn, NULL) != 0) return 1;
    churn(NULL);
    pthread_join(io, NULL);
    fprintf(stderr, "valkey-zmalloc: %ld allocations per thread, %zu bytes in use\n", iters,
            zmalloc_used_memory());
    return 0;
}
