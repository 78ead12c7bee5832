#!/usr/bin/env bash
# `make bench`: runs every benchmark and prints its figures. Benchmarks assert nothing; they
# print bytes per sample, samples per second, wall time, peak RSS and ratios against perf.
#   $BUILD/bench/bench_*   compiled benchmarks (bench/*.c)
#   bench/bench_*.sh       scripted benchmarks (side by side with perf)
# BENCH_FILTER=substring runs only the matching ones; BENCH_BIG=1 adds the 10M-sample runs
# where a benchmark has them.
set -u
BUILD=${BUILD:-build}
export BUILD C2C="$PWD/$BUILD/c2c-lite"
filter=${BENCH_FILTER:-}
for b in "$BUILD"/bench/bench_*; do
	[ -x "$b" ] && [ -f "$b" ] || continue
	case "$b" in *.o|*.d) continue ;; esac
	[ -n "$filter" ] && [[ "$b" != *"$filter"* ]] && continue
	echo "== $(basename "$b")"
	"$b" || echo "(benchmark $(basename "$b") exited $?)"
done
for s in bench/bench_*.sh; do
	[ -f "$s" ] || continue
	[ -n "$filter" ] && [[ "$s" != *"$filter"* ]] && continue
	echo "== $(basename "$s")"
	bash "$s" || echo "(benchmark $(basename "$s") exited $?)"
done
