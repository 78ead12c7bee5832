#!/usr/bin/env bash
# The trace file hits RLIMIT_FSIZE: a clear error, non-zero exit, the prefix stays readable.
# The workload spins up to 60 s: record stops at the failed write (about 4 s of CPU here), and a
# loaded machine gives the spinning thread less of it (8 s of spinning did not reach the limit
# at load average 4 on 2 CPUs).
. tests/e2e/record-lib/common.sh

( ulimit -f 256; exec "$C2C" record --zstd 0 -u -e cpu-clock -F 20000 -o "$TMP/f.data" -- "$WL" spin 60 ) \
	>/dev/null 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] || fail "exit 0 although the file size limit was hit"
grep -q "writing '.*f.data' failed" "$TMP/err" || fail "no clear error: $(cat "$TMP/err")"
"$DUMP" "$TMP/f.data" >"$TMP/f.txt" 2>/dev/null
grep -q '^end records=.* truncated=' "$TMP/f.txt" || fail "prefix unreadable"
n=$(grep -c '^SAMPLE' "$TMP/f.txt")
[ "$n" -gt 0 ] || fail "no samples in the readable prefix"
echo "ok: exit $rc, $n samples readable before the limit"
