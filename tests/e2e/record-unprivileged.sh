#!/usr/bin/env bash
# As an unprivileged user under perf_event_paranoid >= 2 the recorder falls back to user space
# (as perf record does), says so once, and writes no kallsyms snapshot.
. tests/e2e/record-lib/common.sh

[ "$(id -u)" = 0 ] || { echo "skip: needs root to switch to an unprivileged user"; exit 77; }
command -v setpriv >/dev/null || { echo "skip: setpriv not installed"; exit 77; }
p=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$p" -ge 2 ] && [ "$p" -le 2 ] || { echo "skip: perf_event_paranoid=$p (the test needs 2)"; exit 77; }
chmod 755 "$TMP"
mkdir "$TMP/u" && chmod 777 "$TMP/u"
# the binaries must be reachable by nobody
setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$C2C" -a -x "$WL" ||
	{ echo "skip: the build directory is not readable by nobody"; exit 77; }
setpriv --reuid=65534 --regid=65534 --clear-groups "$C2C" record -e page-faults \
	-o "$TMP/u/n.data" -- "$WL" exit 0 >/dev/null 2>"$TMP/err" || fail "record as nobody: $(cat "$TMP/err")"
grep -q "recording user space only" "$TMP/err" || fail "no fallback notice: $(cat "$TMP/err")"
"$DUMP" --info "$TMP/u/n.data" >"$TMP/n.txt" || fail "trace unreadable"
grep -q '^SAMPLE .* mode=2 ' "$TMP/n.txt" || fail "no user samples"
grep -q '^SAMPLE .* mode=1 ' "$TMP/n.txt" && fail "kernel samples despite the fallback"
grep -q '^BLOB kind=1 ' "$TMP/n.txt" && fail "kallsyms written without kernel samples"
echo "ok"
