#!/usr/bin/env bash
# A perf.data without FINISHED_ROUND records: the reader may not hold the whole file; past its
# queue limit it delivers the older half early (with one warning), still in time order.
set -u
BUILD=${BUILD:-build}
GEN=$BUILD/tests/tools/perfdata-bench-gen
DUMP=$BUILD/tests/tools/perfdata-dump
[ -x "$GEN" ] && [ -x "$DUMP" ] || { echo "skip: tools not built"; exit 77; }
[ -x /usr/bin/time ] || { echo "skip: /usr/bin/time missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=2500000
"$GEN" -n $n -R -o "$tmp/f.data" || { echo "FAIL: generator"; exit 1; }
timeout 300 /usr/bin/time -f "%M" -o "$tmp/rss" "$DUMP" -c "$tmp/f.data" >"$tmp/out" 2>"$tmp/err" ||
	{ echo "FAIL: perfdata-dump: $(cat "$tmp/err")"; exit 1; }
grep -q "^samples $n .* backwards 0 " "$tmp/out" || { echo "FAIL: $(cat "$tmp/out")"; exit 1; }
[ "$(grep -c 'FINISHED_ROUND' "$tmp/err")" -eq 1 ] || { echo "FAIL: warnings: $(cat "$tmp/err")"; exit 1; }
rss=$(cat "$tmp/rss")
[ "$rss" -lt 350000 ] || { echo "FAIL: peak RSS $rss kB for $n samples without rounds"; exit 1; }
echo "$n samples without rounds: in order, peak RSS $rss kB"
