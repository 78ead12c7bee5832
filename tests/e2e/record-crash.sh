#!/usr/bin/env bash
# A workload killed by SIGSEGV: a complete trace and exit status 139; exit codes pass through.
. tests/e2e/record-lib/common.sh

"$C2C" record -e page-faults -o "$TMP/crash.data" -- "$WL" crash >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 139 ] || fail "exit status $rc, want 139"
"$DUMP" "$TMP/crash.data" >"$TMP/crash.txt" || fail "trace unreadable"
grep -q '^end records=.* truncated=0' "$TMP/crash.txt" || fail "trace incomplete"
grep -q '^SAMPLE' "$TMP/crash.txt" || fail "no samples"
"$C2C" record -e page-faults -o "$TMP/exit.data" -- "$WL" exit 7 >/dev/null 2>&1
rc=$?
[ $rc -eq 7 ] || fail "exit status $rc, want 7"
"$C2C" record -e page-faults -o "$TMP/none.data" -- /nonexistent/prog >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] || fail "a missing program exited 0"
grep -q "cannot run '/nonexistent/prog'" "$TMP/err" || fail "no clear error: $(cat "$TMP/err")"
echo "ok: crash -> 139, exit 7 -> 7, missing program -> $rc"
