/* libFuzzer target for the perf.data reader and the report behind it (fuzz/targets.h): file and
 * pipe mode, both byte orders, compressed records. fuzz/mutator_perfdata.c mutates the inputs
 * part by part so that the header's section table stays consistent and mutated bytes reach the
 * feature-section parsers and the record decoders. Seeds: perf.data files written by perf
 * (data/perf/, recorded by fuzz/run.sh) and by tests/tools/c2c-gen. */
#define FUZZ_TARGET fuzz_perfdata_input
#include "fuzz/targets.h"
