#!/usr/bin/env bash
# SIGINT (and SIGTERM) to the recorder stop recording and leave a complete trace.
. tests/e2e/record-lib/common.sh

for sig in INT TERM; do
	"$C2C" record -e cpu-clock -o "$TMP/s.data" -- "$WL" spin 30 >/dev/null 2>"$TMP/err" &
	pid=$!
	sleep 0.7
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -ne 0 ] || fail "SIG$sig: exit 0 although the workload was stopped"
	"$DUMP" "$TMP/s.data" >"$TMP/s.txt" || fail "SIG$sig: trace unreadable"
	grep -q '^end records=.* truncated=0' "$TMP/s.txt" || fail "SIG$sig: trace incomplete"
	n=$(grep -c '^SAMPLE' "$TMP/s.txt")
	[ "$n" -ge 20 ] || fail "SIG$sig: only $n samples"
	echo "ok: SIG$sig -> exit $rc, $n samples"
done
# --duration stops too
"$C2C" record -e cpu-clock --duration 0.5 -o "$TMP/d.data" -- "$WL" spin 30 >/dev/null 2>&1
"$DUMP" "$TMP/d.data" | grep -q '^end records=.* truncated=0' || fail "--duration trace incomplete"
