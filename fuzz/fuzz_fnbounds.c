/* libFuzzer target for the function bounds the soft and watch recorders take from shared
 * libraries (record/fnbounds.c, body in fuzz/targets.h): the input as an ELF file, looked up with
 * .eh_frame_hdr's table and with the walk of .eh_frame. Seeds: small shared libraries of this
 * system and ones fuzz/run.sh builds (with and without .symtab, without .eh_frame_hdr). */
#define FUZZ_TARGET fuzz_fnbounds_input
#include "fuzz/targets.h"
