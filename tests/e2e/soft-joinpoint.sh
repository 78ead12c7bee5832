#!/usr/bin/env bash
# End to end, soft backend, issue "Verdicts you can trust on real programs" item 1: at a join
# point (the loop latch after an if/else) a timer sample must not be charged to the other
# branch's store. tests/e2e/lib/joinpoint-prog.c: thread 0 writes A.x, thread 1 A.y, in one
# function. Built at -O0 and -O2, each must come out FALSE SHARING on A, with A.x written only by
# one thread and A.y only by the other (no TRUE SHARING anywhere). Skips (77) when the soft
# backend cannot record here.
set -u
. tests/e2e/lib/soft.sh
soft_setup
fail=0
for opt in O0 O2; do
	"$CC" -g -"$opt" -pthread -o "$tmp/jp-$opt" tests/e2e/lib/joinpoint-prog.c ||
		{ echo "skip: cannot build the test program"; exit 77; }
	"$C2C" record --backend=soft -o "$tmp/$opt.c2c" -- "$tmp/jp-$opt" 2 >"$tmp/$opt.rec" 2>&1 ||
		{ echo "FAIL [-$opt]: record: $(tail -1 "$tmp/$opt.rec")"; fail=1; continue; }
	"$C2C" report --json -i "$tmp/$opt.c2c" >"$tmp/$opt.json" 2>"$tmp/$opt.err" ||
		{ echo "FAIL [-$opt]: report: $(head -1 "$tmp/$opt.err")"; fail=1; continue; }
	out=$(python3 - "$tmp/$opt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
bad = []
if not f:
    bad.append("no finding")
else:
    top = f[0]
    if top["object"] != "A" or top["verdict"] != "false":
        bad.append("top finding %s %s" % (top["object"], top["verdict"]))
    for x in f:
        if x["verdict"] in ("true", "mixed") and x["object"] == "A":
            bad.append("A judged %s" % x["verdict"])
    for m in top.get("members", []):
        if len(m.get("writers", [])) > 1:
            bad.append("%s written by %d threads" % (m.get("name"), len(m["writers"])))
print("; ".join(bad) if bad else "ok")
PY
)
	if [ "$out" = ok ]; then
		echo "ok: -$opt: A is false sharing, each member written by one thread"
	else
		echo "FAIL [-$opt]: $out"
		fail=1
	fi
done
exit $fail
