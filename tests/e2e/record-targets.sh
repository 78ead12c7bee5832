#!/usr/bin/env bash
# Existing processes and threads (-p, -t) and every task on chosen CPUs (-a -C), with the
# running processes' COMM and MMAP synthesized from /proc at the start.
. tests/e2e/record-lib/common.sh

"$WL" spin 6 >/dev/null &
wl=$!
trap 'kill $wl 2>/dev/null; rm -rf "$TMP"' EXIT
sleep 0.3

"$C2C" record -e cpu-clock -p $wl --duration 1 -o "$TMP/p.data" 2>"$TMP/err" || fail "-p: $(cat "$TMP/err")"
"$DUMP" "$TMP/p.data" >"$TMP/p.txt" || fail "-p trace unreadable"
grep -q "^COMM t=0 pid=$wl tid=$wl exec=0 comm=rec-workload" "$TMP/p.txt" || fail "-p: no synthesized COMM"
grep -q "^MMAP t=0 pid=$wl .*buildid=20 file=.*rec-workload" "$TMP/p.txt" || fail "-p: no synthesized MMAP with build-id"
n=$(grep -c "^SAMPLE .* pid=$wl " "$TMP/p.txt")
[ "$n" -ge 50 ] || fail "-p: only $n samples of pid $wl"
grep '^SAMPLE' "$TMP/p.txt" | grep -qv " pid=$wl " && fail "-p: samples of other processes"

"$C2C" record -e cpu-clock -t $wl --duration 0.5 -o "$TMP/t.data" 2>"$TMP/err" || fail "-t: $(cat "$TMP/err")"
n=$("$DUMP" "$TMP/t.data" | grep -c "^SAMPLE .* tid=$wl ")
[ "$n" -ge 20 ] || fail "-t: only $n samples of tid $wl"

"$C2C" record -e cpu-clock -a -C 0 --duration 0.5 -o "$TMP/a.data" 2>"$TMP/err" || fail "-a: $(cat "$TMP/err")"
"$DUMP" --info "$TMP/a.data" >"$TMP/a.txt" || fail "-a trace unreadable"
grep -q '^info event=1 name=dummy:u type=1 config=0x9' "$TMP/a.txt" || fail "-a: no tracking event"
grep '^SAMPLE' "$TMP/a.txt" | grep -qv ' cpu=0 ' && fail "-a -C 0: samples from another CPU"
grep -q '^COMM t=0 pid=1 ' "$TMP/a.txt" || fail "-a: running processes not synthesized"
grep -q '^BLOB kind=1' "$TMP/a.txt" || fail "-a: no kallsyms snapshot"
echo "ok"
