#!/usr/bin/env bash
# `c2c-lite stat` on this machine: software counters of a workload and its children agree with
# perf stat's (the oracle), -I prints intervals, -a counts every CPU, the workload's exit status
# comes back, --topdown says which counters are missing and why, options are checked.
. tests/e2e/record-lib/common.sh

count() { awk -v n="$2" '$0 ~ n { print $1; exit }' "$1"; }

# page faults of threads that fault in known pages, with a forked and exec'd child (inherit)
"$C2C" stat -- "$WL" threads 2 300 >"$TMP/s.txt" 2>"$TMP/s.err" || fail "stat: $(cat "$TMP/s.err")"
ours=$(count "$TMP/s.txt" page-faults)
[ -n "$ours" ] || fail "no page-faults line: $(cat "$TMP/s.txt")"
[ "$ours" -ge 600 ] || fail "page-faults $ours: fewer than the 2 x 300 pages touched"
grep -q 'msec task-clock .* CPUs utilized' "$TMP/s.txt" || fail "no task-clock: $(cat "$TMP/s.txt")"
grep -q 'context-switches' "$TMP/s.txt" || fail "no context-switches line"
grep -q 'seconds time elapsed' "$TMP/s.txt" || fail "no elapsed time"
if command -v perf >/dev/null && perf stat -x, -e page-faults -o "$TMP/p.txt" -- "$WL" threads 2 300 >/dev/null 2>&1; then
	theirs=$(awk -F, '/page-faults/ { print $1 }' "$TMP/p.txt")
	d=$((ours > theirs ? ours - theirs : theirs - ours))
	[ $((d * 20)) -le "$theirs" ] || fail "page-faults $ours, perf stat $theirs (over 5% apart)"
fi

# the workload's exit status is stat's
"$C2C" stat -- "$WL" exit 3 >/dev/null 2>&1
[ $? -eq 3 ] || fail "exit status of the workload not passed on"

# intervals: one line per counter and interval, the time first
"$C2C" stat -I 100 -e task-clock -- "$WL" spin 0.45 >"$TMP/i.txt" 2>&1 || fail "stat -I: $(cat "$TMP/i.txt")"
n=$(grep -cE '^ +0\.[0-9]{9} +[0-9.]+ msec task-clock' "$TMP/i.txt")
[ "$n" -ge 3 ] || fail "stat -I 100 over 0.45 s printed $n intervals: $(cat "$TMP/i.txt")"
# the last partial interval is printed as perf stat -I prints it: 100 ms ticks over 0.25 s give
# lines near 0.1, 0.2 and a last one near 0.25 (not a full tick), and the interval counts add up
# to the total
"$C2C" stat -I 100 -e task-clock -- sleep 0.25 >"$TMP/p.txt" 2>&1 || fail "stat -I: $(cat "$TMP/p.txt")"
last=$(grep -E '^ +0\.[0-9]{9} .*task-clock' "$TMP/p.txt" | tail -1 | awk '{ print $1 }')
awk -v t="$last" 'BEGIN { exit !(t >= 0.245 && t < 0.3) }' ||
	fail "stat -I 100 over sleep 0.25: last interval at '$last', not the partial one near 0.25 s: $(cat "$TMP/p.txt")"
awk '/^ +0\.[0-9]+ +[0-9.]+ msec task-clock/ { sum += $2 } /^ +[0-9.]+ msec task-clock/ { tot = $1 }
     END { d = sum - tot; if (d < 0) d = -d; exit !(tot > 0 && d <= 0.02 + tot / 100) }' "$TMP/p.txt" ||
	fail "the intervals of stat -I do not add up to the total: $(cat "$TMP/p.txt")"

# every CPU for a fixed time (root or paranoid <= 0 only)
if "$C2C" stat -a -e task-clock --duration 0.3 >"$TMP/a.txt" 2>"$TMP/a.err"; then
	grep -q "for 'system wide'" "$TMP/a.txt" || fail "-a: $(cat "$TMP/a.txt")"
	ms=$(count "$TMP/a.txt" task-clock | cut -d. -f1)
	cpus=$(nproc)
	[ "$ms" -ge $((cpus * 250)) ] || fail "-a over 0.3 s: ${ms} ms of task-clock on $cpus CPUs"
else
	grep -q 'perf_event_paranoid' "$TMP/a.err" || fail "-a refused without the reason: $(cat "$TMP/a.err")"
fi

# TopDown: counted where the machine has the counters, else the reason and the missing counters
"$C2C" stat --topdown -- true >"$TMP/t.txt" 2>&1 || fail "stat --topdown: $(cat "$TMP/t.txt")"
if grep -q 'TopDown: not counted' "$TMP/t.txt"; then
	grep -qE 'Zen 3|no core PMU|paranoid|PERF_METRICS|no TopDown model' "$TMP/t.txt" ||
		fail "TopDown refused without a reason: $(cat "$TMP/t.txt")"
else
	grep -qE '^ +[0-9.]+ %  retiring' "$TMP/t.txt" || fail "no TopDown breakdown: $(cat "$TMP/t.txt")"
fi
grep -q 'page-faults' "$TMP/t.txt" || fail "--topdown dropped the software counters"

# a fake VM: the reason names the missing virtual PMU and every counter Zen 5 would need
C2C_SYSFS_ROOT=data/sysfs/vm-no-pmu "$C2C" stat --topdown -- true >"$TMP/v.txt" 2>&1
grep -q 'Zen 5: no core PMU .* a VM without a virtual PMU' "$TMP/v.txt" || fail "vm: $(cat "$TMP/v.txt")"
grep -q 'missing counters: ls_not_halted_cyc, de_src_op_disp.all, ex_ret_ops' "$TMP/v.txt" ||
	fail "vm: missing counters not named: $(cat "$TMP/v.txt")"

# usage errors: one line, exit 2
"$C2C" stat -a -p 1 >/dev/null 2>"$TMP/e.txt"
[ $? -eq 2 ] && grep -q "'-a' and '-p' cannot be used together" "$TMP/e.txt" || fail "-a -p: $(cat "$TMP/e.txt")"
"$C2C" stat >/dev/null 2>"$TMP/e.txt"
[ $? -eq 2 ] || fail "no target accepted"
"$C2C" stat -e no-such-event -- true >/dev/null 2>"$TMP/e.txt"
[ $? -ne 0 ] && grep -q "no-such-event" "$TMP/e.txt" || fail "unknown event: $(cat "$TMP/e.txt")"
"$C2C" stat -p 999999999 >/dev/null 2>"$TMP/e.txt"
[ $? -ne 0 ] || fail "a bad pid accepted"
echo "ok"
