#!/usr/bin/env bash
# Differential test of `c2c-lite report --stdio` against the installed `perf c2c report --stdio`
# (perf 6.1). c2c-gen writes every scenario twice from the same events: as a c2c-lite trace and as
# a perf.data file. For each scenario and option set, everything from the first "=====" line on
# (perf's sections; c2c-lite's own header comes before it) must be byte-identical with
# --no-data-names, and without it perf's lines plus data names only (tests/tools/pareto-names.awk).
# Skips (77) when perf is missing or is not perf 6.1.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
. tests/e2e/lib/perf-diff.sh
need_perf61
[ -x "$GEN" ] || { echo "fail: $GEN is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# perf 6.1 gets SIGPIPE from a failing addr2line on the non-existent mapped files; ignore it so
# it reports the error and goes on, as it does with SIGPIPE ignored.
trap '' PIPE

scenarios="falseshare trueshare padded dsrcall kernel multiproc lost random chaos"
optsets=("" "-N" "-NN" "-d lcl" "-d rmt" "-d peer" "-c tid,iaddr" "-c pid,iaddr" "--show-all"
	 "-c dso" "-c pid" "-c tid,pid,iaddr" "--no-source" "--stats" "-d rmt -NN --show-all")
for s in $scenarios; do
	"$GEN" -s "$s" -t "$tmp/$s.c2c" -p "$tmp/$s.perf.data" || { echo "FAIL: c2c-gen -s $s"; exit 1; }
	for o in "${optsets[@]}"; do
		# shellcheck disable=SC2086
		check "$s" "$tmp/$s" $o
	done
	# The same perf.data read by c2c-lite's own perf.data reader.
	INPUT=perf.data check "$s (perf.data input)" "$tmp/$s"
	INPUT=perf.data check "$s (perf.data input)" "$tmp/$s" -d rmt -NN --show-all
done
for seed in 1 2 3 4 5; do
	"$GEN" -s random --seed "$seed" -n 4000 -t "$tmp/r$seed.c2c" -p "$tmp/r$seed.perf.data" || exit 1
	for o in "" "-d rmt" "-d lcl -N" "-c pid,tid,iaddr --show-all"; do
		# shellcheck disable=SC2086
		check "random seed $seed" "$tmp/r$seed" $o
	done
done
for seed in 11 12 13 14 15 16; do
	"$GEN" -s chaos --seed "$seed" -n 5000 -t "$tmp/c$seed.c2c" -p "$tmp/c$seed.perf.data" || exit 1
	for o in "" "-d peer --show-all" "-d lcl -NN" "-N -c tid,iaddr" "-c dso,pid --show-all"; do
		# shellcheck disable=SC2086
		check "chaos seed $seed" "$tmp/c$seed" $o
	done
done
"$GEN" -s falseshare --arch aarch64 -t "$tmp/arm.c2c" -p "$tmp/arm.perf.data" || exit 1
check "falseshare aarch64 (default display peer)" "$tmp/arm"
echo "$runs comparisons, $fail different"
[ $fail -eq 0 ]
