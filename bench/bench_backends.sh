#!/usr/bin/env bash
# Recorder cost of the soft and watch backends against perf recording the same events: each
# recorder attaches (-p) to a running examples/false_sharing for SECS seconds (default 3), so
# that its rusage (tests/tools/run-rusage: wait4, in microseconds) is the recorder's alone; RUNS
# runs each (default 3), the median by CPU per sample kept. Prints per recorder: CPU ms,
# samples, CPU us per sample and bytes written, then perf's CPU per sample over c2c-lite's. perf
# writes raw samples (soft: cpu-clock:u at 4000 Hz with the user registers, decoded later;
# watch: mem:ADDR/8:rw); c2c-lite decodes each sample at record time. The watch rows are skipped
# where watchpoints open but never fire (c2c-lite doctor says so: bhyve guests).
#
#   BUILD=build bash bench/bench_backends.sh        (after 'make'; needs perf_event_open)
set -u
BUILD=${BUILD:-build}
SECS=${SECS:-3}
RUNS=${RUNS:-3}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
RUSAGE=$PWD/$BUILD/tests/tools/run-rusage
WL=$PWD/$BUILD/examples/false_sharing
REGS=ax,bx,cx,dx,si,di,bp,sp,ip,r8,r9,r10,r11,r12,r13,r14,r15
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; [ -n "${wpid:-}" ] && kill "$wpid" 2>/dev/null' EXIT
[ -x "$C2C" ] && [ -x "$WL" ] && [ -x "$RUSAGE" ] ||
	{ echo "bench_backends: build first ($C2C, $WL, $RUSAGE)"; exit 1; }
have_perf=1
command -v perf >/dev/null || have_perf=0
watch_fires=1
"$C2C" doctor 2>/dev/null | grep -q '^\[ok\] watch ' || watch_fires=0

# measure NAME OUTPUT CMD...: run CMD against a fresh workload; appends "cpu_ms samples bytes"
# to $TMP/NAME.runs
measure() {
	local name=$1 out=$2; shift 2
	"$WL" $((SECS + 2)) 2>/dev/null &
	wpid=$!
	sleep 0.3
	local cmd=()
	for a in "$@"; do cmd+=("${a//@PID@/$wpid}"); done
	if [ "$name" = "perf watch" ]; then      # the run-time address of buf1 in this process
		local base off
		base=$(awk -v f="$WL" '$6 == f && $3 == "00000000" { split($1, r, "-"); print r[1]; exit }' \
			/proc/$wpid/maps)
		off=$(nm "$WL" | awk '$3 == "buf1" { print $1 }')
		cmd=("${cmd[@]//@ADDR@/$(printf '0x%x' $((0x$base + 0x$off)))}")
		cmd=("${cmd[@]//@ADDR8@/$(printf '0x%x' $((0x$base + 0x$off + 8)))}")
	fi
	rm -f "$TMP/ru"
	"$RUSAGE" "$TMP/ru" "${cmd[@]}" >"$TMP/out" 2>&1
	kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null; wpid=
	local n bytes
	case "$name" in
	perf*) n=$(perf report -i "$out" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }') ;;
	*) n=$(awk '/samples,/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "samples,") print $i }' \
		"$TMP/out" | tail -1) ;;
	esac
	bytes=$(stat -c %s "$out" 2>/dev/null || echo 0)
	awk -v n="${n:-0}" -v b="$bytes" '{ printf "%.3f %d %d\n", ($2 + $3) * 1000, n, b }' \
		"$TMP/ru" >>"$TMP/$name.runs"
}

# report NAME: the median run by CPU per sample; sets us[NAME]
declare -A us
report() {
	local line
	line=$(awk '{ print ($2 ? $1 / $2 : 1e9), $0 }' "$TMP/$1.runs" | sort -g |
		awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
	set -- "$1" $line
	us[$1]=$(awk -v c="$3" -v n="$4" 'BEGIN { print n ? c * 1000 / n : 0 }')
	awk -v name="$1" -v ms="$3" -v n="$4" -v b="$5" 'BEGIN {
		printf "%-14s cpu %7.1f ms  samples %8d  %6.2f us/sample  %9d bytes\n", name, ms, n,
			n ? ms * 1000 / n : 0, b }'
}

echo "bench_backends: recorders attached to false_sharing for $SECS s, median of $RUNS runs;" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
	measure "c2c-lite soft" "$TMP/s.c2c" "$C2C" record --backend=soft -o "$TMP/s.c2c" -p @PID@ \
		--duration "$SECS"
	[ $have_perf -eq 1 ] && measure "perf soft" "$TMP/s.data" perf record -q --no-bpf-event \
		-e cpu-clock:u -F 4000 --sample-cpu --user-regs=$REGS -o "$TMP/s.data" -p @PID@ -- sleep "$SECS"
	[ $watch_fires -eq 1 ] && measure "c2c-lite watch" "$TMP/w.c2c" "$C2C" record --backend=watch \
		--watch buf1/16 -o "$TMP/w.c2c" -p @PID@ --duration "$SECS"
	[ $watch_fires -eq 1 ] && [ $have_perf -eq 1 ] && measure "perf watch" "$TMP/w.data" perf record \
		-q --no-bpf-event -e mem:@ADDR@/8:rw -e mem:@ADDR8@/8:rw -o "$TMP/w.data" -p @PID@ -- sleep "$SECS"
done
report "c2c-lite soft"
[ $have_perf -eq 1 ] && report "perf soft" &&
	awk -v p="${us[perf soft]}" -v c="${us[c2c-lite soft]}" 'BEGIN {
		if (c > 0) printf "ratio perf/c2c-lite, soft: cpu per sample %.2fx\n", p / c }'
if [ $watch_fires -eq 1 ]; then
	report "c2c-lite watch"
	[ $have_perf -eq 1 ] && report "perf watch" &&
		awk -v p="${us[perf watch]}" -v c="${us[c2c-lite watch]}" 'BEGIN {
			if (c > 0) printf "ratio perf/c2c-lite, watch: cpu per sample %.2fx\n", p / c }'
else
	echo "c2c-lite watch, perf watch: skipped: watchpoints do not fire here (c2c-lite doctor)"
fi
exit 0
