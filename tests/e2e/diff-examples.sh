#!/usr/bin/env bash
# `c2c-lite diff` on the before and after of a fix, recorded for real: examples/false_sharing
# (two threads write buf1.a and buf1.b on one line) and examples/padded (the same with the
# members on separate lines), both with the soft backend that works on this VM. The finding on
# buf1 must be GONE, the same run against itself must give SAME, the reverse NEW; the header
# says the two runs are of different programs (not the run against itself); the JSON
# validates against docs/diff-schema.json. Skips (77) where the soft backend cannot record.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
EX=$PWD/$BUILD/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft ' || { echo "skip: the soft backend cannot record here"; exit 77; }
for ex in false_sharing padded; do
	[ -x "$EX/$ex" ] || { echo "skip: $EX/$ex not built"; exit 77; }
	"$C2C" record --backend=soft -o "$tmp/$ex.c2c" -- "$EX/$ex" 1 >/dev/null 2>"$tmp/$ex.err" ||
		{ bad "record $ex: $(tail -1 "$tmp/$ex.err")"; exit 1; }
done
"$C2C" diff "$tmp/false_sharing.c2c" "$tmp/padded.c2c" >"$tmp/fix.txt" 2>"$tmp/err" ||
	bad "diff failed: $(cat "$tmp/err")"
grep -qE '^# findings by their share of each run.s sampled time: [1-9][0-9]* gone' "$tmp/fix.txt" ||
	bad "no finding gone"
grep -qE '^GONE +buf1 \(' "$tmp/fix.txt" || bad "buf1 is not gone"
grep -q 'before: FALSE SHARING' "$tmp/fix.txt" || bad "buf1 was not false sharing before"
grep -qE '^(NEW|GREW) ' "$tmp/fix.txt" && bad "the fix made something new or worse"
# two programs: the header says so in one line
[ "$(grep -c '^# the runs are of different programs' "$tmp/fix.txt")" -eq 1 ] ||
	bad "no line saying the programs differ"
grep -qF "# the runs are of different programs: '$EX/false_sharing 1' -> '$EX/padded 1'" \
	"$tmp/fix.txt" || bad "the programs line: $(grep '^# the runs are' "$tmp/fix.txt")"
"$C2C" diff "$tmp/false_sharing.c2c" "$tmp/false_sharing.c2c" >"$tmp/same.txt" 2>/dev/null
grep -qE '^SAME +buf1 \(' "$tmp/same.txt" || bad "a run against itself is not SAME"
grep -q '^# the runs are' "$tmp/same.txt" && bad "one program said to differ from itself"
"$C2C" diff --json "$tmp/padded.c2c" "$tmp/false_sharing.c2c" >"$tmp/rev.json" 2>/dev/null ||
	bad "diff --json"
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	"$py" - "$PWD/docs/diff-schema.json" "$tmp/rev.json" <<'PY' || fail=1
import json, sys
import jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:])
jsonschema.Draft202012Validator(schema).validate(doc)
if doc["workloads"] != "different programs" or not doc["old"]["workload"].endswith("/padded 1"):
    print("FAIL: reversed diff: workloads", doc["workloads"], doc["old"]["workload"])
    sys.exit(1)
new = [f for f in doc["findings"] if f["key"] == "buf1"]
if not new or new[0]["status"] != "new" or new[0]["new"]["verdict"] != "false":
    print("FAIL: reversed diff: buf1 is not a new false-sharing finding:", new)
    sys.exit(1)
PY
else
	grep -q '"status": "new"' "$tmp/rev.json" || bad "reversed diff has no new finding"
fi
# bad use: one line, exit 2; a missing file: exit 1
"$C2C" diff "$tmp/padded.c2c" >/dev/null 2>&1; [ $? -eq 2 ] || bad "one input accepted"
"$C2C" diff "$tmp/padded.c2c" "$tmp/none" >/dev/null 2>"$tmp/err"; [ $? -eq 1 ] || bad "missing file"
grep -q "$tmp/none" "$tmp/err" || bad "the error does not name the file"
"$C2C" diff -d rmt "$tmp/padded.c2c" "$tmp/padded.c2c" >/dev/null 2>"$tmp/err" && bad "-d accepted on soft traces"
[ $fail -eq 0 ] && echo "diff-examples: ok"
exit $fail
