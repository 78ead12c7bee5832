#!/usr/bin/env bash
# End to end, soft backend with confirmation by watchpoints (include/c2c/confirm.h): the four
# witness programs of issue 28 (tests/e2e/confirm/*.c, built -g at -O0 and -O2) recorded as a
# user would, `c2c-lite record -- prog`, and their top finding checked:
#   (a) lockread: a lock word written by one thread, a word 32 bytes on read by another:
#       FALSE SHARING naming both words, confirmed by the watchpoints, which saw both threads;
#   (b) spsc: a single-producer single-consumer ring's indexes, truly shared: not FALSE SHARING;
#   (c) gstruct: two threads' own members of one global struct: FALSE SHARING;
#   (d) heaparr: a heap array of per-thread structs: FALSE SHARING, not TRUE SHARING.
# Then --no-confirm (said in the report, no watchpoint hit in the trace), its refusals, the JSON
# (docs/report-schema.json), and old traces (no confirmation blob) read as before.
# Skips (77) when the soft backend cannot record here, or hardware watchpoints do not fire
# (doctor says why): there the recording falls back, which the last check covers.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
SRC=$PWD/tests/e2e/confirm
[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
doc=$("$C2C" doctor 2>/dev/null)
if ! grep -q '^\[ok\] soft ' <<<"$doc" || ! grep -q '^\[ok\] watch' <<<"$doc"; then
	echo "skip: the soft backend or hardware watchpoints are not available here:"
	grep -A1 ' soft \| watch' <<<"$doc" || echo "  (c2c-lite doctor failed)"
	exit 77
fi
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL [$1]: $2"
	fail=1
}

for p in lockread spsc gstruct heaparr; do
	for o in 0 2; do
		gcc -g -O$o -pthread -o "$tmp/$p$o" "$SRC/$p.c" || { echo "fail: cannot build $p"; exit 1; }
	done
done

# run NAME [record options]: record $tmp/NAME, its report in $tmp/NAME.txt
run() {
	local name=$1; shift
	if ! "$C2C" record "$@" -o "$tmp/$name.c2c" -- "$tmp/$name" >"$tmp/$name.rec" 2>&1; then
		bad "$name" "record failed:"; sed 's/^/    /' "$tmp/$name.rec"; return 1
	fi
	if ! "$C2C" report --stdio -i "$tmp/$name.c2c" >"$tmp/$name.txt" 2>"$tmp/$name.err"; then
		bad "$name" "report failed:"; sed 's/^/    /' "$tmp/$name.err"; return 1
	fi
}

# The top finding's heading and what the watchpoints saw of it.
top() {
	sed -n '/What to fix/,$p' "$tmp/$1.txt" | grep -m1 -E '^  1\. '
}
evidence() {
	sed -n '/What to fix/,$p' "$tmp/$1.txt" | grep -m1 '  watchpoints:'
}

for o in 0 2; do
	n=lockread$o
	# The lock word traps on every xchg, so the bound allows few windows, and the reader's
	# light loads can fall outside them: then the line is not judged ("the samples' verdict
	# stands", 1 run in 3 at load 1.5 here). That is the design's honest answer, not a wrong
	# one; record once more before judging the test.
	run $n && evidence $n | grep -q "verdict stands" && run $n
	[ -s "$tmp/$n.txt" ] && {
		grep -q 'info: watchpoints: [0-9]* accesses seen on' "$tmp/$n.rec" ||
			bad $n "record did not say what the watchpoints saw"
		grep -q '^# Confirmed by watchpoints:' "$tmp/$n.txt" ||
			bad $n "the report header does not say the confirmation ran"
		top $n | grep -q 'g_line .*: FALSE SHARING' || bad $n "top finding: $(top $n)"
		ev=$(evidence $n)
		grep -q 'watchpoints: confirmed: .* by 2 threads' <<<"$ev" &&
			grep -q 'g_line.lock' <<<"$ev" && grep -q 'g_line.seen' <<<"$ev" ||
			bad $n "the evidence does not name both words and threads: $ev"
	}
	n=spsc$o
	run $n && { top $n | grep -q ': FALSE SHARING,' && bad $n "called false sharing: $(top $n)"; }
	n=gstruct$o
	run $n && { top $n | grep -q 'g_stats .*: FALSE SHARING' || bad $n "top finding: $(top $n)"; }
	n=heaparr$o
	run $n && { top $n | grep -q 'FALSE SHARING' || bad $n "top finding: $(top $n)"; }
done
echo "witnesses done"

# --no-confirm: no watchpoint event, said in the report; refused where it does not apply
run gstruct2 --no-confirm && {
	grep -q '^# Confirmation: *off, --no-confirm' "$tmp/gstruct2.txt" ||
		bad no-confirm "the report does not say confirmation was off"
	grep -q '  watchpoints:' "$tmp/gstruct2.txt" && bad no-confirm "watchpoints without any"
	grep -q 'confirmed by watchpoints' "$tmp/gstruct2.rec" && bad no-confirm "record confirmed"
}
for args in "--backend=watch --watch g_stats" "-e page-faults" "-a"; do
	# shellcheck disable=SC2086
	if "$C2C" record --no-confirm $args -o "$tmp/r.c2c" -- true >"$tmp/r.out" 2>&1; then
		bad refuse "--no-confirm $args was accepted"
	elif ! head -1 "$tmp/r.out" | grep -q -- 'error: --no-confirm'; then
		bad refuse "--no-confirm $args: no error naming it:"; sed 's/^/    /' "$tmp/r.out"
	fi
done

# JSON: the schema, and the confirmation of the top line
if python3 -c 'import jsonschema' 2>/dev/null; then
	"$C2C" report --json -i "$tmp/lockread0.c2c" >"$tmp/a.json" &&
	python3 - "$tmp/a.json" docs/report-schema.json <<'EOF' || bad json "the JSON is wrong"
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
assert d["statistics"]["confirmation"]["status"] == "on", d["statistics"]["confirmation"]
f = d["findings"][0]
assert f["confirmed"] is True and f["verdict"] == "false", f
line = [l for l in d["lines"] if l["address"] == f["lines"][0]][0]
c = line["confirmation"]
assert c["state"] == "seen" and c["judged"] and c["threads"] == 2, c
offs = sorted({a["offset"] for a in c["accesses"]})
assert 0 in offs and 32 in offs, offs
EOF
else
	echo "note: python3 jsonschema missing: the JSON is not checked against the schema"
fi

# A trace without confirmation blobs (before it existed) reads as the samples alone
run gstruct0 --no-confirm && {
	grep -q 'Watchpoints:' "$tmp/gstruct0.txt" && bad old "watchpoint rows without watchpoints"
	top gstruct0 | grep -q 'FALSE SHARING' || bad old "samples alone: $(top gstruct0)"
}

[ $fail = 0 ] && echo "ok: soft confirmation (4 witnesses at -O0 and -O2, --no-confirm, JSON)"
exit $fail
