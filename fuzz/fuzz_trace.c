/* libFuzzer target for the trace reader and the report behind it (fuzz/targets.h): each input is
 * read as given and with every chunk's checksums recomputed. Seeds: traces written by c2c-lite
 * (record, convert, tests/tools/c2c-gen, tests/tools/estimate-gen). */
#define FUZZ_TARGET fuzz_trace_input
#include "fuzz/targets.h"
