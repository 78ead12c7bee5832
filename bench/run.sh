#!/usr/bin/env bash
# `make bench`: runs every benchmark and prints its figures. Benchmarks assert nothing; they
# print bytes per sample, samples per second, wall time, peak RSS and ratios against perf.
#   $BUILD/bench/bench_*   compiled benchmarks (bench/*.c)
#   bench/bench_*.sh       scripted benchmarks (side by side with perf)
# BENCH_FILTER=substring runs only the matching ones; BENCH_BIG=1 adds the 10M-sample runs
# where a benchmark has them. Each benchmark's wall time follows it, the total comes last.
set -u
BUILD=${BUILD:-build}
export BUILD C2C="$PWD/$BUILD/c2c-lite"
filter=${BENCH_FILTER:-}
start=$SECONDS
# run NAME CMD...: one benchmark, then its wall time
run() {
	local name=$1 t=$SECONDS
	shift
	echo "== $name"
	"$@" || echo "(benchmark $name exited $?)"
	echo "($name: $((SECONDS - t)) s)"
}
for b in "$BUILD"/bench/bench_*; do
	[ -x "$b" ] && [ -f "$b" ] || continue
	case "$b" in *.o|*.d) continue ;; esac
	[ -n "$filter" ] && [[ "$b" != *"$filter"* ]] && continue
	run "$(basename "$b")" "$b"
done
for s in bench/bench_*.sh; do
	[ -f "$s" ] || continue
	[ -n "$filter" ] && [[ "$s" != *"$filter"* ]] && continue
	run "$(basename "$s")" bash "$s"
done
echo "make bench: $((SECONDS - start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
