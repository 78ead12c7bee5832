#!/usr/bin/env bash
# End to end, soft backend, issue 28 items 2 and 3: a row's code address and source line are
# the instruction that made the access, not the interrupted IP, and a store before a branch
# target is charged, not dropped. tests/e2e/lib/access-prog.c built at -O2:
#   - "ifelse" (me->hits++ / me->misses++ on per-thread heap elements): every row's code address
#     is one of the two stores objdump shows, on their source lines, JSON keeps the sampled IP
#     beside it, and at least 90% of the samples have a data address (9% in the issue);
#   - "div" (divisions, a store every 1024 iterations): most of the time has no data address,
#     and the report's first lines say so (stdio, and JSON statistics.attribution.warning).
# Skips (77) when the soft backend cannot record here or objdump is missing.
set -u
command -v objdump >/dev/null || { echo "skip: no objdump"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
. tests/e2e/lib/soft.sh
soft_setup
fail=0
"$CC" -g -O2 -pthread -o "$tmp/prog" tests/e2e/lib/access-prog.c ||
	{ echo "skip: cannot build the test program"; exit 77; }
# the stores of work(): "addq $0x1,(%reg)" and "addq $0x1,0x8(%reg)", as file offsets
objdump -d --no-show-raw-insn "$tmp/prog" |
	awk '/<work>:/ { on = 1; next } /^$/ { on = 0 } on && /addq +\$0x1,(0x8)?\(%r/ { sub(":", "", $1); print "0x" $1 }' \
	>"$tmp/stores"
[ "$(wc -l <"$tmp/stores")" -ge 2 ] || { echo "skip: the compiler did not emit the two stores"; exit 77; }
lines=$(grep -n -e 'me->hits++;' -e 'me->misses++;' tests/e2e/lib/access-prog.c | cut -d: -f1 | tr '\n' ' ')

"$C2C" record --backend=soft -o "$tmp/ifelse.c2c" -- "$tmp/prog" ifelse 1 >"$tmp/ifelse.rec" 2>&1 ||
	{ echo "FAIL: record: $(tail -1 "$tmp/ifelse.rec")"; exit 1; }
"$C2C" report --json -i "$tmp/ifelse.c2c" >"$tmp/ifelse.json" 2>"$tmp/ifelse.err" ||
	{ echo "FAIL: report: $(head -1 "$tmp/ifelse.err")"; exit 1; }
out=$(python3 - "$tmp/ifelse.json" "$tmp/stores" "$lines" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
stores = {int(x, 16) for x in open(sys.argv[2]).read().split()}
lines = {int(x) for x in sys.argv[3].split()}
bad, rows = [], 0
st = d["statistics"]
if st["samples"] == 0 or st["recovered"] * 100 < 90 * st["samples"]:
    bad.append("%d of %d samples with an address" % (st["recovered"], st["samples"]))
for l in d["lines"]:
    # the heap elements' lines: work() also loads the volatile `stop` each iteration, a real
    # access a timer sample lands after now and then (once in a CI run). Not "what starts with
    # heap": a loaded run whose heap mapping record was lost names the line "[unknown]"
    if "stop" in (l.get("what") or ""):
        continue
    for r in l["rows"]:
        c = r["code"]
        if c["symbol"] != "work":
            continue
        rows += 1
        if int(c["address"], 16) not in stores:
            bad.append("row at %s (sampled %s) is not a store" % (c["address"], c["sampled_ip"]))
        if not c["file"] or not c["file"].endswith("access-prog.c") or c["line"] not in lines:
            bad.append("row at %s on %s:%s, not a store's line" % (c["address"], c["file"], c["line"]))
if not rows:
    bad.append("no row in work() (lines: %s)" % "; ".join(
        "%s: %s" % (l.get("what"), ",".join(r["code"]["symbol"] or "?" for r in l["rows"]))
        for l in d["lines"][:6]))
if st["attribution"]["warning"]:
    bad.append("warned of %.1f%% without an address" % st["attribution"]["no_address_pct"])
print("; ".join(bad) if bad else "ok %d rows" % rows)
PY
)
case $out in
ok*) echo "ok: ifelse: $out at the stores' addresses and lines" ;;
*) echo "FAIL: ifelse: $out"; fail=1 ;;
esac

"$C2C" record --backend=soft -o "$tmp/div.c2c" -- "$tmp/prog" div 1 >"$tmp/div.rec" 2>&1 ||
	{ echo "FAIL: record div: $(tail -1 "$tmp/div.rec")"; exit 1; }
"$C2C" report --stdio -i "$tmp/div.c2c" >"$tmp/div.txt" 2>&1
"$C2C" report --json -i "$tmp/div.c2c" >"$tmp/div.json" 2>/dev/null
if head -6 "$tmp/div.txt" | grep -q '^# WARNING: .* has no data address' &&
   grep -A3 '^# WARNING' "$tmp/div.txt" | grep -q 'work+0x'; then
	echo "ok: div: the first lines warn and name work()"
else
	echo "FAIL: div: no warning in the first lines"; head -12 "$tmp/div.txt"; fail=1
fi
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["statistics"]["attribution"]; sys.exit(0 if a["warning"] and a["top"] and a["top"][0]["code"]["symbol"] == "work" else 1)' "$tmp/div.json"; then
	echo "ok: div: JSON attribution warns, work() first"
else
	echo "FAIL: div: JSON attribution"; fail=1
fi
exit $fail
