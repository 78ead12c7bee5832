#!/usr/bin/env bash
# Region markers under record: examples/region (two threads, a falsely shared phase then a
# padded one, each in a c2c-region) recorded here (soft backend, no PMU). The trace holds every
# begin and end of both threads, report --regions shares the samples between the regions, and
# --region keeps one region's samples: the false sharing of `shared` only in region "shared";
# --json carries the regions too.
. tests/e2e/record-lib/common.sh

EX=$PWD/$BUILD/examples/region
[ -x "$EX" ] || { echo "skip: $EX not built"; exit 77; }
"$C2C" record -o "$TMP/r.data" -- "$EX" 1.2 >"$TMP/rec.out" 2>"$TMP/rec.err" ||
	fail "record: $(cat "$TMP/rec.err")"
grep -q '^region shared: 2 entries, .* counters by \(read()\|rdpmc\)$' "$TMP/rec.err" ||
	fail "the program's own counts: $(cat "$TMP/rec.err")"
grep -q '8 region markers in the trace' "$TMP/rec.err" ||
	fail "record did not take the markers: $(cat "$TMP/rec.err")"
"$DUMP" "$TMP/r.data" >"$TMP/dump.txt" || fail "trace unreadable"
[ "$(grep -c '^REGION .* begin depth=1 name=shared$' "$TMP/dump.txt")" = 2 ] || fail "begins of shared"
[ "$(grep -c '^REGION .* end depth=1 name=padded$' "$TMP/dump.txt")" = 2 ] || fail "ends of padded"
# markers sit among the samples in time order
awk '/^(SAMPLE|REGION)/ { split($2, a, "="); if (a[2] + 0 < last) bad = 1; last = a[2] + 0 }
     END { exit bad }' "$TMP/dump.txt" || fail "records out of time order"

"$C2C" report --stdio --regions -i "$TMP/r.data" >"$TMP/all.txt" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
for r in shared padded; do
	n=$(awk -v r="$r" '$1 == "#" && $2 == r && $3 == 2 { print $5 }' "$TMP/all.txt")
	[ -n "$n" ] && [ "$n" -gt 20 ] || fail "region $r: samples '$n': $(head -6 "$TMP/all.txt")"
done
"$C2C" report --stdio --region shared -i "$TMP/r.data" >"$TMP/s.txt" 2>"$TMP/err" || fail "--region shared: $(cat "$TMP/err")"
grep -qE '^ +1 +0x[0-9a-f]+ +shared .*FALSE SHARING' "$TMP/s.txt" || fail "--region shared: $(grep -A4 'Line Table' "$TMP/s.txt")"
"$C2C" report --stdio --region padded -i "$TMP/r.data" >"$TMP/p.txt" 2>"$TMP/err" || fail "--region padded: $(cat "$TMP/err")"
grep -q 'FALSE SHARING' "$TMP/p.txt" && fail "--region padded still shows false sharing: $(grep -A4 'Line Table' "$TMP/p.txt")"
grep -q 'covers region padded' "$TMP/p.txt" || fail "--region padded: the report does not say it is filtered"
"$C2C" report --stdio --region nope -i "$TMP/r.data" >/dev/null 2>"$TMP/err" && fail "an unknown region accepted"
grep -q "has no region 'nope'" "$TMP/err" || fail "unknown region: $(cat "$TMP/err")"
"$C2C" report --json --regions -i "$TMP/r.data" >/dev/null 2>&1 && fail "--regions accepted with --json"
# JSON holds the regions whatever the options (valid against docs/report-schema.json)
"$C2C" report --json --region shared -i "$TMP/r.data" >"$TMP/r.json" 2>"$TMP/err" || fail "--json: $(cat "$TMP/err")"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "$TMP/r.json" docs/report-schema.json <<'PY' || fail "JSON regions: see above"
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
r = d["header"]["regions"]
assert r["filter"] == "shared", r
assert sorted(x["name"] for x in r["list"]) == ["padded", "shared"], r
assert all(x["entries"] == 2 and x["samples"] > 20 for x in r["list"]), r
PY
fi
echo "ok"
