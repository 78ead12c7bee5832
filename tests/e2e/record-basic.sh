#!/usr/bin/env bash
# record with software events on a workload with threads, fork and exec: samples carry real
# pids/tids/cpus, code and data addresses; mmaps, comms, forks are there; records in time order.
. tests/e2e/record-lib/common.sh

"$C2C" record -e page-faults -c 1 -o "$TMP/pf.data" -- "$WL" threads 3 200 >"$TMP/wl.out" \
	2>"$TMP/rec.err" || fail "record page-faults exited $?: $(cat "$TMP/rec.err")"
"$DUMP" --info "$TMP/pf.data" >"$TMP/pf.txt" || fail "trace-dump failed"
grep -q '^end records=.* truncated=0' "$TMP/pf.txt" || fail "trace not complete"
grep -q '^info version=.* backend=swevent' "$TMP/pf.txt" || fail "backend not swevent"
grep -q '^info event=0 name=page-faults type=1 config=0x2' "$TMP/pf.txt" || fail "event desc"
grep -q '^info host=.* nr_cpus=[1-9]' "$TMP/pf.txt" || fail "machine info"
nsamp=$(grep -c '^SAMPLE' "$TMP/pf.txt")
# 3 threads x 200 pages + the exec'd child's 64 pages, at least
[ "$nsamp" -ge 664 ] || fail "only $nsamp page-fault samples"
# distinct tids: 3 threads + main + exec'd child
ntid=$(grep '^SAMPLE' "$TMP/pf.txt" | sed 's/.* tid=\([0-9]*\) .*/\1/' | sort -u | wc -l)
[ "$ntid" -ge 5 ] || fail "samples from only $ntid threads"
npid=$(grep '^SAMPLE' "$TMP/pf.txt" | sed 's/.* pid=\([0-9]*\) .*/\1/' | sort -u | wc -l)
[ "$npid" -ge 2 ] || fail "samples from only $npid processes (fork missing)"
grep '^SAMPLE' "$TMP/pf.txt" | grep -qv ' cpu=-1 ' || fail "no cpu in samples"
# user-mode samples with data addresses
grep '^SAMPLE' "$TMP/pf.txt" | grep ' mode=2 ' | grep -q 'addr=0x[1-9a-f]' || fail "no data addresses"
grep -q '^FORK' "$TMP/pf.txt" || fail "no FORK records"
grep -q '^EXIT' "$TMP/pf.txt" || fail "no EXIT records"
grep -q '^COMM .*exec=1 comm=rec-workload' "$TMP/pf.txt" || fail "no exec COMM"
grep -q '^MMAP .*buildid=20 file=.*rec-workload' "$TMP/pf.txt" || fail "no executable mmap with build-id"
# time order
awk '$1 ~ /^(SAMPLE|MMAP|COMM|FORK|EXIT)$/ && $2 != "t=0" { t = substr($2, 3) + 0;
	if (t < last) { print "out of order: " $0; exit 1 } last = t }' "$TMP/pf.txt" || fail "records not in time order"

"$C2C" record -e cpu-clock -F 2000 -o "$TMP/cc.data" -- "$WL" spin 0.5 >/dev/null 2>"$TMP/rec.err" ||
	fail "record cpu-clock exited $?: $(cat "$TMP/rec.err")"
"$DUMP" "$TMP/cc.data" >"$TMP/cc.txt" || fail "trace-dump cpu-clock failed"
ncc=$(grep -c '^SAMPLE' "$TMP/cc.txt")
[ "$ncc" -ge 100 ] || fail "only $ncc cpu-clock samples in 0.5 s at 2000 Hz"
grep '^SAMPLE' "$TMP/cc.txt" | grep ' mode=2 ' | grep -q 'ip=0x[1-9a-f]' || fail "no user ips"
echo "ok: $nsamp page-fault samples from $ntid threads, $ncc cpu-clock samples"
