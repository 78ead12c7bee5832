#!/usr/bin/env bash
# End to end, soft backend, code in a shared library: tests/e2e/lib/libcall-prog.c spends its
# time in the C library (memset's IFUNC-picked implementation and the mutex unlock path, which
# a stripped libc's .dynsym does not bound; record/fnbounds.h). Recorded with
# `c2c-lite record --backend=soft`, its report must:
#   - leave under OUTSIDE_MAX_PCT (default 2) percent of the sampled time "ip outside the
#     function". Measured here: 60-88% before function bounds came from .eh_frame, 0.01-0.04%
#     after (a sample or two in the vDSO, a mapping with no file, which clock_gettime runs in);
#     2% is far above that residue and far below the old figure;
#   - find the false sharing that only libc's code does: `line` (two threads memset its two
#     halves), FALSE SHARING, its rows written by code in libc, one half per thread;
#   - name the mutex's bytes under the code that takes and releases it: lock.__lock
#     written from pthread_mutex_lock and from libc code outside that symbol (the unlock).
# Skips (77) when the soft backend cannot record here (doctor says why), or without cc or
# python3. SOFT_SECONDS (default 2) sets the run's length. It records at 4000 Hz, the rate it was
# written for: at the rate the default 3% bound picks on a VM (400-550 Hz, 1100-1900 samples)
# 'line' went unreported now and then (once in a CI run, once in 22 runs here); the
# bound's own rate is tested by soft-overhead.sh and the corpus (real-corpus.sh).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
CC=${CC:-cc}
SECS=${SOFT_SECONDS:-2}
OUTSIDE_MAX_PCT=${OUTSIDE_MAX_PCT:-2}
[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
if ! "$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft '; then
	echo "skip: the soft backend cannot record here:"
	"$C2C" doctor 2>/dev/null | grep -A1 ' soft ' || echo "  (c2c-lite doctor failed)"
	exit 77
fi
command -v "$CC" >/dev/null 2>&1 || { echo "skip: no C compiler"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$CC" -g -O1 -pthread -o "$tmp/prog" tests/e2e/lib/libcall-prog.c ||
	{ echo "skip: cannot build the test program"; exit 77; }
if ! "$C2C" record --backend=soft -F 4000 -o "$tmp/t.c2c" -- "$tmp/prog" "$SECS" >"$tmp/rec" 2>&1; then
	echo "FAIL: record failed:"; sed 's/^/    /' "$tmp/rec"
	exit 1
fi
if ! "$C2C" report --json -i "$tmp/t.c2c" >"$tmp/t.json" 2>"$tmp/err"; then
	echo "FAIL: report failed:"; sed 's/^/    /' "$tmp/err"
	exit 1
fi

python3 - "$tmp/t.json" "$OUTSIDE_MAX_PCT" <<'EOF'
import json, re, sys

rep = json.load(open(sys.argv[1]))
limit = float(sys.argv[2])
fail = []
st = rep["statistics"]
outside = sum(r["weight"] for r in st["not_recovered"] if r["reason"] == "ip outside the function")
pct = 100.0 * outside / st["weight"] if st["weight"] else 100.0
print("ip outside the function: %.2f%% of %d samples' time (limit %.1f%%); address recovered "
      "for %d" % (pct, st["samples"], limit, st["recovered"]))
if pct >= limit:
    fail.append("ip outside the function is %.2f%% of the sampled time" % pct)

def in_libc(row):
    return re.match(r"libc[.-]", row["code"].get("object", "") or "") is not None

lines = {l["object"]: l for l in rep["lines"]}
line = lines.get("line")
if not line:
    fail.append("no contended line named 'line' (the halves memset writes)")
else:
    if line["verdict"] != "false":
        fail.append("'line' is %s, not false sharing" % line["verdict"])
    libc_rows = [r for r in line["rows"] if in_libc(r) and r["values"]["stores"] > 0]
    halves = {m.group(0) for m in (re.match(r"line\.h\[\d\]", r["member"]) for r in libc_rows) if m}
    tids = {r["thread"]["tid"] for r in libc_rows if "thread" in r}
    print("line: %s; stores from libc: %s" % (line["verdict"], ", ".join(sorted(
        "%s by %s+%d" % (r["member"], r["code"].get("symbol"), r["code"].get("symbol_offset", 0))
        for r in libc_rows))))
    if not {"line.h[0]", "line.h[1]"} <= halves or len(tids) < 2:
        fail.append("'line' is not written in both halves by two threads from libc code")

# a lock's words are one member, the lock (names.c): its rows are "lock", their data the
# word the code touches, lock.__lock (glibc's __data wrapper is left out of the path)
lock = [l for l in rep["lines"] if any(m["name"] == "lock" for m in l["members"])]
rows = [r for l in lock for r in l["rows"]
        if r["member"] == "lock" and r["data"].startswith("lock.__lock")
        and in_libc(r) and r["values"]["loads"] < r["values"]["samples"]]
syms = sorted({r["code"].get("symbol") or "?" for r in rows})
print("lock.__data.__lock written or locked from: %s" % ", ".join(syms))
if not any(re.match(r"(__)?pthread_mutex_lock", s) for s in syms):
    fail.append("no write of lock.__data.__lock from pthread_mutex_lock")
if not any(not re.match(r"(__)?pthread_mutex_lock", s) for s in syms):
    fail.append("no write of lock.__data.__lock from libc code outside pthread_mutex_lock (unlock)")
for f in fail:
    print("FAIL: " + f)
sys.exit(1 if fail else 0)
EOF
