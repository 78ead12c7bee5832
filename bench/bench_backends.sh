#!/usr/bin/env bash
# Recorder cost of the soft and watch backends against perf recording the same events: each
# recorder attaches (-p) to a running examples/false_sharing for SECS seconds (default 3), so
# that /usr/bin/time measures the recorder alone. Prints per recorder: CPU ms, samples, CPU us
# per sample and bytes written. perf writes raw samples (soft: cpu-clock:u with the user
# registers, decoded later; watch: mem:ADDR/8:rw); c2c-lite decodes each sample at record time.
#
#   BUILD=build bash bench/bench_backends.sh        (after 'make'; needs perf_event_open)
set -u
BUILD=${BUILD:-build}
SECS=${SECS:-3}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
WL=$PWD/$BUILD/examples/false_sharing
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; [ -n "${wpid:-}" ] && kill "$wpid" 2>/dev/null' EXIT
[ -x "$C2C" ] && [ -x "$WL" ] || { echo "bench_backends: build first ($C2C, $WL)"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_backends: /usr/bin/time not installed, skipped"; exit 0; }
have_perf=1
command -v perf >/dev/null || have_perf=0

# measure NAME OUTPUT CMD...: run CMD against a fresh workload and print one line
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
	/usr/bin/time -f "%U %S" -o "$TMP/time" "${cmd[@]}" >"$TMP/out" 2>&1
	kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null; wpid=
	local u s n bytes
	read -r u s <"$TMP/time"
	case "$name" in
	perf*) n=$(perf report -i "$out" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }') ;;
	*) n=$(awk '/samples,/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "samples,") print $i }' \
		"$TMP/out" | tail -1) ;;
	esac
	bytes=$(stat -c %s "$out" 2>/dev/null || echo 0)
	awk -v name="$name" -v u="$u" -v s="$s" -v n="${n:-0}" -v b="$bytes" 'BEGIN {
		ms = (u + s) * 1000
		printf "%-14s cpu %7.1f ms  samples %8d  %6.2f us/sample  %9d bytes\n", name, ms, n,
			n ? ms * 1000 / n : 0, b }'
}

echo "bench_backends: recorders attached to false_sharing for $SECS s"
measure "c2c-lite soft" "$TMP/s.c2c" "$C2C" record --backend=soft -o "$TMP/s.c2c" -p @PID@ \
	--duration "$SECS"
[ $have_perf -eq 1 ] && measure "perf soft" "$TMP/s.data" perf record -q -e cpu-clock:u -F 4000 \
	--user-regs=ax,bx,cx,dx,si,di,bp,sp,ip,r8,r9,r10,r11,r12,r13,r14,r15 -o "$TMP/s.data" \
	-p @PID@ -- sleep "$SECS"
measure "c2c-lite watch" "$TMP/w.c2c" "$C2C" record --backend=watch --watch buf1/16 \
	-o "$TMP/w.c2c" -p @PID@ --duration "$SECS"
[ $have_perf -eq 1 ] && measure "perf watch" "$TMP/w.data" perf record -q -e mem:@ADDR@/8:rw \
	-e mem:@ADDR8@/8:rw -o "$TMP/w.data" -p @PID@ -- sleep "$SECS"
exit 0
