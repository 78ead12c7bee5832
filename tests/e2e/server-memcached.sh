#!/usr/bin/env bash
# End to end, a real multi-threaded server from Debian attached with `record -p` (issue 28): memcached
# -t 2 on 127.0.0.1 under our load generator (tests/tools/memc-load: 4 connections doing set/get of
# 16 keys, so that the two worker threads meet on the same items and their locks), recorded for
# 3 s with the default backend. What its locks must be called:
#   - a finding on a lock names the lock, not glibc's inside: "*mutex (pthread_mutex_t, 40 bytes)"
#     (pthread_mutex_lock's argument), never "*__futex" (the lll_lock macro's local);
#   - a contended pthread_mutex_t is not FALSE SHARING (nor TRUE+FALSE): its lock word is written
#     by every thread that takes it, and its other fields (__kind, __owner) are read and written
#     by the same lock calls, so the report takes a lock's bytes for one member (the lock). Before
#     that, reads of __kind by one thread against the __lock writes of another counted as false
#     sharing between members (TRUE+FALSE in 2 of 3 runs). LOCK_VERDICT=known reports a false
#     verdict without failing.
# Skips (77) without memcached (apt-get install memcached; scripts/install-deps.sh) or when no
# backend records here.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
LOAD=$PWD/$BUILD/tests/tools/memc-load
command -v memcached >/dev/null || { echo "skip: memcached not installed (apt-get install memcached)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
[ -x "$LOAD" ] || { echo "fail: $LOAD is not built"; exit 1; }
"$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft ' || { echo "skip: the soft backend cannot record here"; exit 77; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT

# a free port: memcached says when it cannot bind; try a few
for try in 1 2 3 4 5; do
	port=$((20000 + (RANDOM % 20000)))
	memcached -t 2 -l 127.0.0.1 -p "$port" -U 0 -m 64 -u "$(id -un)" 2>"$tmp/memcached.err" &
	pid=$!
	for i in $(seq 50); do
		"$LOAD" "$port" 0.01 1 >/dev/null 2>&1 && break 2
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
[ -n "$pid" ] || { echo "FAIL: memcached did not start:"; cat "$tmp/memcached.err"; exit 1; }

"$LOAD" "$port" 5 4 16 >"$tmp/load.out" 2>&1 &
load=$!
sleep 0.5
"$C2C" record -p "$pid" --duration 3 -o "$tmp/mc.c2c" >"$tmp/record.out" 2>&1
rc=$?
wait "$load"
lrc=$?
[ $rc -eq 0 ] || { echo "FAIL: record -p $pid exited $rc:"; cat "$tmp/record.out"; exit 1; }
[ $lrc -eq 0 ] || { echo "FAIL: the load generator failed:"; cat "$tmp/load.out"; exit 1; }
echo "load: $(cat "$tmp/load.out") in 5 s; $(grep -oE '[0-9]+ samples' "$tmp/record.out" | head -1)"
"$C2C" report --json -i "$tmp/mc.c2c" >"$tmp/mc.json" 2>"$tmp/report.err" ||
	{ echo "FAIL: report --json:"; cat "$tmp/report.err"; exit 1; }
"$C2C" report --stdio -i "$tmp/mc.c2c" 2>/dev/null | sed -n '/What to fix/,$p' | grep -E '^  [0-9]+\. ' | head -3

python3 - "$tmp/mc.json" "${LOCK_VERDICT:-strict}" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
strict = sys.argv[2] == "strict"
findings = rep["findings"]
if not findings:
    print("skip: no finding (the workers never met on a lock in this run)")
    sys.exit(77)
locks = [f for f in findings if "pthread_mutex_t" in f["what"]]
bad_names = [f for f in findings if "__futex" in f["what"] or "__futex" in f.get("advice", "")]
fail = 0
if bad_names:
    print("FAIL: a lock named from glibc's macro local: %s" % bad_names[0]["what"])
    fail = 1
if not locks and not fail:
    print("skip: no finding on a pthread_mutex_t in this run (top: %s: %s)"
          % (findings[0]["what"], findings[0]["verdict"]))
    sys.exit(77)
for f in locks:
    if f["verdict"] in ("false", "mixed"):
        msg = "a contended lock called %s: %s (%.2f%%)" % (
            "FALSE SHARING" if f["verdict"] == "false" else "TRUE+FALSE SHARING", f["what"], f["share"])
        if strict:
            print("FAIL: " + msg)
            fail = 1
        else:
            print("known failure (LOCK_VERDICT=known): " + msg)
        break
else:
    if locks:
        print("ok: every lock finding is true sharing or unclear")
sys.exit(fail)
PY
