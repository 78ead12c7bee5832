#!/usr/bin/env bash
# Cost of the estimate report (soft and watch backends): estimate-gen writes a soft trace of
# about 2.2M timer samples (-n 25000 repeats of soft-false) and a watch trace of 600k hits
# (-n 20000 repeats of watch); the report of each is timed (wall seconds, peak RSS). Asserts
# nothing.   BUILD=build bash bench/bench_estimate.sh   (after make; needs /usr/bin/time)
set -u
BUILD=${BUILD:-build}
GEN=$BUILD/tests/tools/estimate-gen
[ -x "$GEN" ] || { echo "bench_estimate: $GEN is not built"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_estimate: /usr/bin/time missing (apt-get install time)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in "soft-false 25000" "watch 20000"; do
	set -- $spec
	"$GEN" -s "$1" -n "$2" -t "$tmp/$1.c2c" || exit 1
	n=$("$BUILD/c2c-lite" report --stdio -i "$tmp/$1.c2c" | sed -n 's/^# \(Samples\|Watchpoint hits\): *\([0-9]*\).*/\2/p')
	/usr/bin/time -f "%e %M" -o "$tmp/t" "$BUILD/c2c-lite" report --stdio -i "$tmp/$1.c2c" >/dev/null
	read -r wall rss <"$tmp/t"
	echo "estimate report, $1: $n samples, $(stat -c %s "$tmp/$1.c2c") bytes: ${wall}s, ${rss} kB peak RSS"
done
