#!/usr/bin/env bash
# End to end, soft backend, Go (issue 28): a goroutine's samples are its own, whichever OS
# thread ran it. tests/e2e/lib/goroutine-pool.go runs eight goroutines on two threads, each
# yielding often, so each runs on both:
#   - the trace gives samples their goroutine (trace-dump's task=), and some goroutine was
#     sampled on two threads (else the test proves nothing);
#   - "padded" (a line per counter): no counter is written by several threads; judged by OS
#     thread, each line was written by both threads and read as TRUE SHARING;
#   - unpadded, main.slots is FALSE SHARING, each counter it shows written by a goroutine of
#     its own (comm/G<goid>), in stdio and in JSON (threads with "goroutine" numbers).
# Skips (77) without go or when the soft backend cannot record here.
set -u
command -v go >/dev/null || { echo "skip: no go"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
. tests/e2e/lib/soft.sh
soft_setup
DUMP=$PWD/$BUILD/tests/tools/trace-dump
fail=0
GOCACHE=$tmp/gocache GOPATH=$tmp/gopath GO111MODULE=off GOPROXY=off GOTOOLCHAIN=local \
	go build -o "$tmp/pool" tests/e2e/lib/goroutine-pool.go >"$tmp/build" 2>&1 ||
	{ echo "skip: cannot build the Go program: $(head -1 "$tmp/build")"; exit 77; }

for mode in padded false; do
	GOMAXPROCS=2 "$C2C" record --backend=soft -o "$tmp/$mode.c2c" -- "$tmp/pool" 1 "$mode" \
		>"$tmp/$mode.rec" 2>&1 || { echo "FAIL [$mode]: record: $(tail -1 "$tmp/$mode.rec")"; exit 1; }
	"$C2C" report --stdio -i "$tmp/$mode.c2c" >"$tmp/$mode.txt" 2>"$tmp/$mode.err" ||
		{ echo "FAIL [$mode]: report: $(head -1 "$tmp/$mode.err")"; exit 1; }
done

# goroutines in the trace, and one of them on two threads
"$DUMP" "$tmp/padded.c2c" | awk '/^SAMPLE/ && / task=/ { n++; for (i = 1; i <= NF; i++) {
		if ($i ~ /^tid=/) t = $i; if ($i ~ /^task=/) g = $i }
		if (!((g, t) in seen)) { seen[g, t] = 1; if (++on[g] == 2) moved++ } }
	END { printf "padded: %d samples with a goroutine, %d goroutines sampled on two threads\n", n, moved
		exit !(n > 100 && moved > 0) }' || { echo "FAIL: the trace gives no goroutine that ran on two threads"; fail=1; }

# padded: no counter is written by two threads. (Go does not align main.pads: its first
# element may share a line with the runtime's variable before it, runtime.gcController, which
# a loaded run can find contended; that line is a real one, not a goroutine seen twice.)
sed -n '/What to fix/,/in the language runtime/p' "$tmp/padded.txt" >"$tmp/padded.fix"
if grep -E '^ *0x[0-9a-f]+ +main\.pads\[[0-7]\]\.n .* threads \(' "$tmp/padded.fix"; then
	echo "FAIL [padded]: a goroutine's own counter is judged written by several threads:"
	grep -B2 -A3 "main.pads" "$tmp/padded.fix" | head -8
	fail=1
fi

# unpadded: false sharing between goroutines
awk '/^ *[0-9]+\. main\.slots .*FALSE SHARING/ { on = 1; next } on && /^ *0x[0-9a-f]+ +main\.slots\[[0-7]\]\.n / {
		rows++; if (/ threads \(/) shared++
		for (i = 1; i <= NF; i++) if ($i ~ /^pool\/G[0-9]+$/) g[$i] = 1 }
	on && /evidence:/ { on = 0 }
	END { for (k in g) n++; printf "false: main.slots FALSE SHARING, %d counters shown, by %d distinct goroutines\n", rows, n
		exit !(rows >= 2 && n == rows && !shared) }' "$tmp/false.txt" ||
	{ echo "FAIL [false]: not false sharing between goroutines:"; sed -n '/What to fix/,+14p' "$tmp/false.txt"; fail=1; }
"$C2C" report --json -i "$tmp/false.c2c" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [f for f in d["findings"] if f["object"] == "main.slots"]
top = f[0]["evidence"]["top_threads"] if f else []
sys.exit(0 if top and all(t.get("goroutine", 0) >= 1 and t["tid"] == -1 for t in top) else 1)' ||
	{ echo "FAIL [false]: JSON names no goroutines in the finding's evidence"; fail=1; }
[ $fail -eq 0 ] && echo "ok: goroutines judged as the program's threads"
exit $fail
