#!/usr/bin/env bash
# Side by side with perf on the same perf.data: `perf c2c report --stdio` against
# `c2c-lite report --stdio` (when the report command reads perf.data) and `c2c-lite convert`.
# Prints wall time, peak RSS (/usr/bin/time -v) and the ratios; asserts nothing. The report runs
# with -j 1 and -j 2 (aggregation threads), RUNS times each (default 3), best wall time kept;
# perf runs PERF_RUNS times (default RUNS; 1 for the 10M file unless set), its best kept too: a
# ratio of our best to perf's one run favoured us whenever perf's run met a slow spell of a shared
# machine.
#   bash bench/bench_perf.sh              1M samples, ~100k distinct cachelines (skewed)
#   BENCH_BIG=1 bash bench/bench_perf.sh  also 10M samples
# and a perf.data that perf record writes here: page faults with their data addresses (software
# events: no PMU needed) of tests/tools/rec-workload refault (4 threads fault 1024 pages each
# 256 times: about 1M samples over 33k cachelines, 131k offsets).
# Needs $BUILD/tests/tools/perfdata-bench-gen (make BUILD=...) and /usr/bin/time (Debian `time`).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$BUILD/c2c-lite}
GEN=$BUILD/tests/tools/perfdata-bench-gen
[ -x "$GEN" ] || { echo "bench_perf: $GEN is not built"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_perf: /usr/bin/time missing (apt-get install time)"; exit 1; }
have_perf=1
command -v perf >/dev/null || { have_perf=0; echo "bench_perf: perf not installed; c2c-lite only"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: wall seconds and peak RSS kB into $wall and $rss
run() {
	local name=$1
	shift
	/usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	local rc=$?
	wall=$(awk -F': ' '/Elapsed/ { n = split($2, t, ":"); s = 0;
		for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/time")
	rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$tmp/time")
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$tmp/time")
	printf "  %-28s %8.2f s wall %7.2f s cpu %9d kB RSS%s\n" "$name" "$wall" "$cpu" "$rss" \
		"$([ $rc -eq 0 ] || echo "  (exit $rc: $(head -c 120 "$tmp/$name.err" | head -1))")"
	return $rc
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a" }'; }


# bench_file FILE SAMPLES: perf and c2c-lite on FILE
bench_file() {
	local f=$1 n=$2 j bw bc br same
	cat "$f" >/dev/null   # page cache warm for every tool alike
	pw=0 prss=0 pcpu=0
	for _ in $(seq "$pruns"); do
		[ $have_perf = 1 ] && run "perf c2c report --stdio" perf c2c report --stdio -i "$f" ||
			break
		if [ "$pw" = 0 ] || awk -v a="$wall" -v b="$pw" 'BEGIN { exit !(a < b) }'; then
			pw=$wall prss=$rss pcpu=$cpu
		fi
	done
	[ "$pruns" -gt 1 ] && [ "$pw" != 0 ] && echo "  perf c2c report: best of $pruns, $pw s"
	if [ -x "$BUILD/tests/tools/perfdata-dump" ] &&
	   run "perf.data reader alone" "$BUILD/tests/tools/perfdata-dump" -c "$f"; then
		awk -v n="$n" -v w="$cpu" 'BEGIN { if (w > 0) printf "  %-28s %8.1f M samples/s of cpu\n",
			"reader throughput", n / w / 1e6 }'
	fi
	if run "c2c-lite convert" "$C2C" convert -q "$f" -o "$tmp/out.c2c"; then
		awk -v n="$n" -v w="$cpu" 'BEGIN { if (w > 0) printf "  %-28s %8.1f M samples/s of cpu\n",
			"convert throughput", n / w / 1e6 }'
		echo "  c2c-lite trace: $(stat -c %s "$tmp/out.c2c") bytes"
	fi
	if ! "$C2C" report --help >/dev/null 2>&1; then
		echo "  c2c-lite has no report command yet: report comparison skipped"
		return
	fi
	# -j 1 and -j 2: the best wall time of RUNS runs each (the machine may be shared)
	for j in 1 2; do
		bw=0 bc=0 br=0
		for _ in $(seq "${RUNS:-3}"); do
			run "c2c-lite report --stdio -j $j" "$C2C" report --stdio -j $j -i "$f" || break
			if [ "$bw" = 0 ] || awk -v a="$wall" -v b="$bw" 'BEGIN { exit !(a < b) }'; then
				bw=$wall bc=$cpu br=$rss
			fi
		done
		eval "w$j=\$bw c$j=\$bc r$j=\$br"
		echo "  c2c-lite -j $j vs perf (best of ${RUNS:-3}): $(ratio "$pw" "$bw") faster (wall)," \
			"$(ratio "$pcpu" "$bc") (cpu), $(ratio "$prss" "$br") less memory" \
			"(targets: 25x, 15x)"
	done
	cmp -s "$tmp/c2c-lite report --stdio -j 1.out" "$tmp/c2c-lite report --stdio -j 2.out" &&
		same="output identical" || same="OUTPUT DIFFERS"
	echo "  -j 1 -> -j 2: $(ratio "$w1" "$w2") faster (wall); cpu of all threads $c1 s -> $c2 s;" \
		"$same; $(nproc) online CPUs, load average $(cut -d' ' -f1 /proc/loadavg)"
	# the same samples from c2c-lite's own trace (what convert wrote above)
	[ -f "$tmp/out.c2c" ] || return
	for j in 1 2; do
		bw=0 bc=0 br=0
		for _ in $(seq "${RUNS:-3}"); do
			run "report trace --stdio -j $j" "$C2C" report --stdio -j $j -i "$tmp/out.c2c" ||
				break
			if [ "$bw" = 0 ] || awk -v a="$wall" -v b="$bw" 'BEGIN { exit !(a < b) }'; then
				bw=$wall bc=$cpu br=$rss
			fi
		done
		echo "  trace -j $j vs perf on the perf.data (best of ${RUNS:-3}): $(ratio "$pw" "$bw")" \
			"faster (wall), $(ratio "$pcpu" "$bc") (cpu), $(ratio "$prss" "$br") less memory" \
			"(target: 50x); $(awk -v n="$n" -v c="$bc" 'BEGIN { if (c > 0)
				printf "%.1f M samples/s of cpu", n / c / 1e6 }')"
	done
	rm -f "$tmp/out.c2c"
}

sizes=(1000000)
[ "${BENCH_BIG:-0}" = 1 ] && sizes+=(10000000)
for n in "${sizes[@]}"; do
	f=$tmp/bench-$n.data
	"$GEN" -n "$n" -l 100000 -o "$f" || { echo "bench_perf: generator failed"; exit 1; }
	echo "perf.data with $n samples, 100000 cachelines: $(stat -c %s "$f") bytes"
	pruns=${PERF_RUNS:-${RUNS:-3}}
	[ "$n" -gt 1000000 ] && pruns=${PERF_RUNS:-1}   # 2.5 minutes a run at 10M
	bench_file "$f" "$n"
	rm -f "$f"
done

work=$BUILD/tests/tools/rec-workload
if [ $have_perf = 0 ] || [ ! -x "$work" ]; then
	echo "perf.data written by perf: skipped (perf or $work missing)"
	exit 0
fi
f=$tmp/real.data
if ! perf record -q -e page-faults -c 1 -d -W --sample-cpu --phys-data -o "$f" -- \
	"$work" refault 4 1024 256 >/dev/null 2>"$tmp/rec.err"; then
	echo "perf.data written by perf: skipped: perf record failed: $(head -1 "$tmp/rec.err")"
	exit 0
fi
n=$(perf report -i "$f" --stats 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }')
echo "perf.data written by perf record (page-faults -d, rec-workload refault 4 1024 256):" \
	"${n:-?} samples, $(stat -c %s "$f") bytes"
pruns=${PERF_RUNS:-${RUNS:-3}}
bench_file "$f" "${n:-0}"
