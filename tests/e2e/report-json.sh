#!/usr/bin/env bash
# --json and --csv for the three kinds of trace (PMU, soft, watch): the JSON validates against
# docs/report-schema.json (python3-jsonschema), the CSV parses with a header and the declared
# columns, and both agree with --stdio on the top line (address, what it holds, verdict) and on
# the top finding. Options that shape only the text are refused with --json.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/estimate-gen
SCHEMA=$PWD/docs/report-schema.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "skip: no python3 with jsonschema (apt-get install python3-jsonschema)"; exit 77; }
command -v cc >/dev/null || { echo "skip: no C compiler"; exit 77; }


cc -g -O1 -o "$tmp/prog" tests/e2e/lib/estimate-prog.c || { echo "skip: cannot build the test program"; exit 77; }
"$GEN" -s soft-false --elf "$tmp/prog" -t "$tmp/soft.c2c" || bad "estimate-gen soft"
"$GEN" -s watch --elf "$tmp/prog" -t "$tmp/watch.c2c" || bad "estimate-gen watch"
cp data/demo.c2c "$tmp/pmu.c2c"

for k in pmu soft watch; do
	"$C2C" report --json -i "$tmp/$k.c2c" >"$tmp/$k.json" 2>"$tmp/$k.err" || { bad "$k: --json: $(cat "$tmp/$k.err")"; continue; }
	"$C2C" report --csv -i "$tmp/$k.c2c" >"$tmp/$k.csv" 2>/dev/null || bad "$k: --csv"
	"$C2C" report --csv=rows -i "$tmp/$k.c2c" >"$tmp/$k.rows.csv" 2>/dev/null || bad "$k: --csv=rows"
	"$C2C" report --csv=members -i "$tmp/$k.c2c" >"$tmp/$k.mem.csv" 2>/dev/null || bad "$k: --csv=members"
	"$C2C" report --stdio -i "$tmp/$k.c2c" >"$tmp/$k.txt" 2>/dev/null || bad "$k: --stdio"
	"$py" - "$SCHEMA" "$k" "$tmp" <<'PY' || fail=1
import csv, json, re, sys
import jsonschema
schema_path, kind, tmp = sys.argv[1:]
doc = json.load(open(f"{tmp}/{kind}.json"))
jsonschema.Draft202012Validator.check_schema(json.load(open(schema_path)))
jsonschema.Draft202012Validator(json.load(open(schema_path))).validate(doc)
bad = []
if doc["header"]["kind"] != kind:
    bad.append(f"kind {doc['header']['kind']}")
lines, finds = doc["lines"], doc["findings"]
if not lines or not finds:
    bad.append("no line or no finding")
text = open(f"{tmp}/{kind}.txt").read()
top = lines[0]
verdicts = {"false": "FALSE SHARING", "true": "TRUE SHARING", "mixed": "TRUE+FALSE SHARING",
            "unclear": "UNCLEAR", "none": "NOT CONTENDED"}
if kind == "pmu":
    # perf's Shared Data Cache Line Table: index 0 is the top line
    m = re.search(r"^\s+0\s+(0x[0-9a-f]+)\s", text.split("Shared Data Cache Line Table")[1], re.M)
    if not m or int(m.group(1), 16) != int(top["address"], 16):
        bad.append(f"top line {top['address']} is not perf's line 0 {m and m.group(1)}")
else:
    m = re.search(r"^\s+1\s+(0x[0-9a-f]+)\s+(\S+).*\s(FALSE SHARING|TRUE SHARING|TRUE\+FALSE SHARING|NOT CONTENDED)$",
                  text, re.M)
    if not m or int(m.group(1), 16) != int(top["address"], 16) or m.group(3) != verdicts[top["verdict"]]:
        bad.append(f"top line {top['address']} {top['verdict']} differs from the table: {m and m.group(0)}")
# the top finding as the text summary states it
f = finds[0]
if f"1. {f['what']}: {verdicts[f['verdict']]}" not in text:
    bad.append(f"top finding '{f['what']}: {f['verdict']}' is not the text's")
# CSV: a header, the declared columns, one record per line/row/member
rows = list(csv.DictReader(open(f"{tmp}/{kind}.csv", newline="")))
keys = [c["key"] for c in doc["columns"]["line"]]
if len(rows) != len(lines) or any(k not in rows[0] for k in keys):
    bad.append(f"csv lines: {len(rows)} records, header {list(rows[0]) if rows else None}")
elif rows[0]["address"] != top["address"] or rows[0]["verdict"] != top["verdict"]:
    bad.append(f"csv top line {rows[0]['address']} {rows[0]['verdict']}")
nrows = sum(len(l["rows"]) for l in lines)
if len(list(csv.DictReader(open(f"{tmp}/{kind}.rows.csv", newline="")))) != nrows:
    bad.append("csv rows")
if len(list(csv.DictReader(open(f"{tmp}/{kind}.mem.csv", newline="")))) != sum(len(l["members"]) for l in lines):
    bad.append("csv members")
for b in bad:
    print(f"FAIL: {kind}: {b}")
print(f"{kind}: {len(lines)} lines, {nrows} rows, {len(finds)} findings: " + ("ok" if not bad else "bad"))
sys.exit(1 if bad else 0)
PY
done

# the soft trace's top line is buf1, false sharing, in every output
grep -q '"what": "buf1 (struct pair, 16 bytes)"' "$tmp/soft.json" || bad "soft json does not name buf1"
for o in --stats --map --no-source "--summary 1"; do
	# shellcheck disable=SC2086
	"$C2C" report --json $o -i "$tmp/soft.c2c" >/dev/null 2>"$tmp/o.err" && bad "--json $o accepted"
	grep -q -- "$o does not apply to --json" "$tmp/o.err" || bad "--json $o: $(cat "$tmp/o.err")"
done
"$C2C" report --csv=bogus -i "$tmp/soft.c2c" >/dev/null 2>&1 && bad "--csv=bogus accepted"

# an AMD uncore summary with DRAM read/write and link in/out bytes (a Zen 5 recording's form) and
# one of an older trace (no split): header.amd_uncore validates, the split figures or null
printf 'c2c-uncore 1\nseconds 2\nl3 0 0 1000 250\ndram 0 0 3 192 128 64\nlink 0 0 2 128 64 64\ndram 1 0 1 64\nnote n\n' >"$tmp/unc.txt"
"$PWD/$BUILD/tests/tools/c2c-gen" -s padded -t "$tmp/unc.c2c" --blob "16:$tmp/unc.txt" || bad "c2c-gen --blob"
"$C2C" report --json -i "$tmp/unc.c2c" >"$tmp/unc.json" 2>/dev/null || bad "uncore: --json"
"$py" - "$SCHEMA" "$tmp/unc.json" <<'PY' || fail=1
import json, sys
import jsonschema
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc)
u = doc["header"]["amd_uncore"]
got = ([(d["read_bytes"], d["write_bytes"]) for d in u["dram"]], [(l["in_bytes"], l["out_bytes"]) for l in u["links"]])
if got != ([(128, 64), (None, None)], [(64, 64)]):
    print(f"FAIL: uncore split {got}")
    sys.exit(1)
print("uncore: ok")
PY
exit $fail
