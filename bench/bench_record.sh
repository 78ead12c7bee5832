#!/usr/bin/env bash
# Recorder cost: `perf record` against `c2c-lite record` on the same workload with the same
# high-rate software event (page-faults, every fault sampled, user space, data addresses).
# For each recorder it prints the recorder's own CPU time per sample and the bytes written per
# sample, then the ratios. The recorder's CPU time is the CPU time of the whole run (bash
# `times` for the subshell's children) minus what the workload itself reports
# (REC_WORKLOAD_RUSAGE, the workload and its children). Median of RUNS runs (default 3).
#
#   BUILD=build bash bench/bench_record.sh        (after 'make'; needs perf and perf_event_open)
set -u
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
PAGES=${PAGES:-40000}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
WL=$PWD/$BUILD/tests/tools/rec-workload
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v perf >/dev/null || { echo "bench_record: perf not installed, skipped"; exit 0; }
[ -x "$C2C" ] && [ -x "$WL" ] || { echo "bench_record: build first ($C2C, $WL)"; exit 1; }

# run NAME CMD... : prints "cpu_us samples bytes" for one run
run_one() {
	local out=$1; shift
	local t0 t1
	rm -f "$out" "$TMP/wl.cpu"
	t0=$( ( "$@" >/dev/null 2>"$TMP/err"; times ) | tail -1)
	# `times` second line: children user and sys, e.g. "0m0.123s 0m0.456s"
	local u s wu ws
	u=$(echo "$t0" | awk '{print $1}'); s=$(echo "$t0" | awk '{print $2}')
	tous() { echo "$1" | awk -Fm '{ sub("s", "", $2); printf "%.0f\n", ($1 * 60 + $2) * 1e6 }'; }
	read -r wu ws <"$TMP/wl.cpu" || { echo "workload did not report its CPU time"; cat "$TMP/err"; exit 1; }
	echo $(( $(tous "$u") + $(tous "$s") - wu - ws ))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

export REC_WORKLOAD_RUSAGE=$TMP/wl.cpu
declare -A cpu bytes samples
for tool in perf c2c-lite; do
	: >"$TMP/$tool.cpu"
	for _ in $(seq "$RUNS"); do
		if [ $tool = perf ]; then
			run_one "$TMP/p.data" perf record -q --all-user -e page-faults -c 1 -d --sample-cpu \
				-o "$TMP/p.data" -- "$WL" threads 2 "$PAGES" >>"$TMP/$tool.cpu"
		else
			run_one "$TMP/c.data" "$C2C" record -u -e page-faults -c 1 -o "$TMP/c.data" \
				-- "$WL" threads 2 "$PAGES" >>"$TMP/$tool.cpu"
		fi
	done
	cpu[$tool]=$(median <"$TMP/$tool.cpu")
done
samples[perf]=$(perf script -i "$TMP/p.data" -F tid 2>/dev/null | wc -l)
bytes[perf]=$(stat -c %s "$TMP/p.data")
samples[c2c-lite]=$("$PWD/$BUILD/tests/tools/trace-dump" "$TMP/c.data" | grep -c '^SAMPLE')
bytes[c2c-lite]=$(stat -c %s "$TMP/c.data")

printf "%-9s %9s %12s %14s %12s %14s\n" recorder samples "cpu (us)" "cpu/sample(ns)" bytes "bytes/sample"
for tool in perf c2c-lite; do
	awk -v t=$tool -v n="${samples[$tool]}" -v c="${cpu[$tool]}" -v b="${bytes[$tool]}" \
		'BEGIN { printf "%-9s %9d %12d %14.0f %12d %14.1f\n", t, n, c, c * 1000 / n, b, b / n }'
done
awk -v pc="${cpu[perf]}" -v pn="${samples[perf]}" -v cc="${cpu[c2c-lite]}" -v cn="${samples[c2c-lite]}" \
    -v pb="${bytes[perf]}" -v cb="${bytes[c2c-lite]}" 'BEGIN {
	printf "ratio perf/c2c-lite: cpu per sample %.2fx, bytes per sample %.2fx\n",
		(pc / pn) / (cc / cn), (pb / pn) / (cb / cn) }'
