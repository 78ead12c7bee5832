/* libFuzzer target for the Arm SPE decoder (report/read/spe*.c, fuzz/targets.h): raw AUX bytes
 * through the packet decoder, the record builder and perf's queue session. Seeds: the AUX data
 * of tests/tools/c2c-gen's SPE perf.data files (fuzz/run.sh). */
#define FUZZ_TARGET fuzz_spe_input
#include "fuzz/targets.h"
