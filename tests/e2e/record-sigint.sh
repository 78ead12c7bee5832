#!/usr/bin/env bash
# SIGINT (and SIGTERM) to the recorder stop recording and leave a complete trace. SIGINT is a
# normal end (exit 0); SIGTERM ends the workload with it, and record exits with the workload's
# status (143). --duration is a normal end too (exit 0), though the workload is stopped.
. tests/e2e/record-lib/common.sh

for sig in INT TERM; do
	"$C2C" record -e cpu-clock -o "$TMP/s.data" -- "$WL" spin 30 >/dev/null 2>"$TMP/err" &
	pid=$!
	sleep 0.7
	kill -$sig $pid
	wait $pid
	rc=$?
	case $sig in
	INT) [ $rc -eq 0 ] || fail "SIGINT: exit $rc, want 0 (a normal end): $(cat "$TMP/err")" ;;
	TERM) [ $rc -eq 143 ] || fail "SIGTERM: exit $rc, want 143 (the workload's status)" ;;
	esac
	"$DUMP" "$TMP/s.data" >"$TMP/s.txt" || fail "SIG$sig: trace unreadable"
	grep -q '^end records=.* truncated=0' "$TMP/s.txt" || fail "SIG$sig: trace incomplete"
	n=$(grep -c '^SAMPLE' "$TMP/s.txt")
	[ "$n" -ge 20 ] || fail "SIG$sig: only $n samples"
	echo "ok: SIG$sig -> exit $rc, $n samples"
done
# SIGINT without a workload (-p): a normal end too
"$WL" spin 30 >/dev/null &
wl=$!
"$C2C" record -e cpu-clock -p $wl -o "$TMP/p.data" >/dev/null 2>"$TMP/err" &
pid=$!
sleep 0.7
kill -INT $pid
wait $pid
rc=$?
kill $wl 2>/dev/null
wait $wl 2>/dev/null
[ $rc -eq 0 ] || fail "-p, SIGINT: exit $rc, want 0: $(cat "$TMP/err")"
"$DUMP" "$TMP/p.data" | grep -q '^end records=.* truncated=0' || fail "-p SIGINT: trace incomplete"
# --duration stops too, with exit 0
"$C2C" record -e cpu-clock --duration 0.5 -o "$TMP/d.data" -- "$WL" spin 30 >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] || fail "--duration: exit $rc, want 0"
"$DUMP" "$TMP/d.data" | grep -q '^end records=.* truncated=0' || fail "--duration trace incomplete"
# ... and a workload that ends first still gives its own status
"$C2C" record -e cpu-clock --duration 30 -o "$TMP/e.data" -- "$WL" exit 5 >/dev/null 2>&1
rc=$?
[ $rc -eq 5 ] || fail "--duration 30, workload exits 5: exit $rc, want 5"
echo "ok: -p SIGINT -> 0, --duration -> 0, a workload's own exit 5 -> 5"
