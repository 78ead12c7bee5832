#!/usr/bin/env bash
# Memory and threads against input size: for each size (default 1M, 10M and 100M samples over
# 100000 cachelines, perfdata-bench-gen's skewed mix), writes the perf.data, reports it, converts
# it to a c2c-lite trace and reports that with -j 1 and -j JOBS (default 2). Prints wall and CPU
# seconds, peak RSS (/usr/bin/time -v), the distinct lines and offset entries the table held
# (report -v) and the RSS per entry, so that memory can be seen to follow lines and offsets, not
# samples. Asserts nothing. The machine may be shared: wall times then mean little, CPU times
# and RSS still do. A size whose files do not fit the free space of TMPDIR is skipped (100M
# samples need about 8.9 GB: 8 GB of perf.data, 1 GB of trace).
#   bash bench/bench_scale.sh                 SIZES="1000000 10000000 100000000" JOBS=2
#   SIZES=10000000 PERF=1 bash bench/bench_scale.sh   also perf c2c report (slow: ~13 s a 1M)
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$BUILD/c2c-lite}
GEN=$BUILD/tests/tools/perfdata-bench-gen
SIZES=${SIZES:-1000000 10000000 100000000}
JOBS=${JOBS:-2}
[ -x "$GEN" ] || { echo "bench_scale: $GEN is not built"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_scale: /usr/bin/time missing (apt-get install time)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: one line of wall, cpu, RSS (and for c2c-lite the table's size)
run() {
	local name=$1
	shift
	/usr/bin/time -v -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err"
	local rc=$? wall cpu rss tab
	wall=$(awk -F': ' '/Elapsed/ { n = split($2, t, ":"); s = 0;
		for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/time")
	rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$tmp/time")
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$tmp/time")
	tab=$(sed -n 's/.*cacheline table: \([0-9]*\) lines, \([0-9]*\) offset entries.*/\1 \2/p' \
		"$tmp/err" | tail -1)
	printf "  %-30s %8.2f s wall %8.2f s cpu %9d kB RSS" "$name" "$wall" "$cpu" "$rss"
	if [ -n "$tab" ]; then
		set -- $tab
		awk -v l="$1" -v e="$2" -v r="$rss" 'BEGIN {
			printf "  %d lines %d entries, %.0f B RSS per entry", l, e, r * 1024 / (e ? e : 1) }'
	fi
	[ $rc -eq 0 ] || printf "  (exit %d: %s)" $rc "$(grep -v debug "$tmp/err" | head -1)"
	echo
}

for n in $SIZES; do
	need=$((n * 91 + 100000000))
	avail=$(df -B1 --output=avail "$tmp" | tail -1)
	if [ "$avail" -lt "$need" ]; then
		echo "$n samples: skipped, $need bytes needed and $avail free under $tmp"
		continue
	fi
	"$GEN" -n "$n" -l 100000 -o "$tmp/b.data" || { echo "bench_scale: generator failed"; exit 1; }
	echo "$n samples, 100000 cachelines: perf.data $(stat -c %s "$tmp/b.data") bytes"
	[ "${PERF:-0}" = 1 ] && run "perf c2c report --stdio" perf c2c report --stdio -i "$tmp/b.data"
	run "report perf.data -j 1" "$C2C" report -v --stdio -j 1 -i "$tmp/b.data"
	run "report perf.data -j $JOBS" "$C2C" report -v --stdio -j "$JOBS" -i "$tmp/b.data"
	run "convert" "$C2C" convert -q "$tmp/b.data" -o "$tmp/b.c2c"
	rm -f "$tmp/b.data"
	echo "  trace: $(stat -c %s "$tmp/b.c2c") bytes"
	run "report trace -j 1" "$C2C" report -v --stdio -j 1 -i "$tmp/b.c2c"
	run "report trace -j $JOBS" "$C2C" report -v --stdio -j "$JOBS" -i "$tmp/b.c2c"
	rm -f "$tmp/b.c2c"
done
