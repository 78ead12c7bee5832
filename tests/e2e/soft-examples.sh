#!/usr/bin/env bash
# End to end, soft backend: record each example workload (examples/README.md) with
# `c2c-lite record --backend=soft` and check that the report puts the seeded line first, names
# its variable, members and offsets, and gives the right verdict; the padded control must show
# no contended line. Skips (77) when the soft backend cannot record here (doctor says why).
# SOFT_SECONDS (default 3) sets each run's length (ring runs one second longer: its stores are
# rare next to its spinning loads); longer runs make the figures steadier on a busy machine.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
EX=$PWD/$BUILD/examples
SECS=${SOFT_SECONDS:-3}
[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
for e in false_sharing true_sharing padded ring lock_hot slots heap_sharing; do
	[ -x "$EX/$e" ] || { echo "fail: $EX/$e is not built"; exit 1; }
done
if ! "$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft '; then
	echo "skip: the soft backend cannot record here:"
	"$C2C" doctor 2>/dev/null | grep -A1 ' soft ' || echo "  (c2c-lite doctor failed)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL [$1]: $2"
	fail=1
}

# record NAME ARGS...: record the example into $tmp/NAME.c2c and its report into $tmp/NAME.txt
# ($RECORD_OPTS: more options of record)
record() {
	local name=$1; shift
	# shellcheck disable=SC2086
	if ! "$C2C" record --backend=soft ${RECORD_OPTS:-} -o "$tmp/$name.c2c" -- "$EX/$name" "$@" \
		>"$tmp/$name.rec" 2>&1; then
		bad "$name" "record failed:"; sed 's/^/    /' "$tmp/$name.rec"
		return 1
	fi
	grep -q "backend: soft" "$tmp/$name.rec" || bad "$name" "record did not say the backend"
	if ! "$C2C" report --stdio -i "$tmp/$name.c2c" >"$tmp/$name.txt" 2>"$tmp/$name.err"; then
		bad "$name" "report failed:"; sed 's/^/    /' "$tmp/$name.err"
		return 1
	fi
	grep -q "backend soft" "$tmp/$name.txt" || bad "$name" "the report does not say 'backend soft'"
	grep -q "ESTIMATED FIGURES" "$tmp/$name.txt" || bad "$name" "the report does not say it estimates"
}

# The row of line 1 in the cache line table.
first_line() {
	awk '/Cache Line Table/ { t = 1 } t && $1 == "1" && $2 ~ /^0x/ { print; exit }' "$tmp/$1.txt"
}

# expect_first NAME VARIABLE VERDICT-REGEX
expect_first() {
	local row
	row=$(first_line "$1")
	[ -n "$row" ] || { bad "$1" "no line in the cache line table"; return; }
	[ "$(awk '{ print $3 }' <<<"$row")" = "$2" ] ||
		bad "$1" "line 1 is not '$2': $row"
	grep -Eq "$3\$" <<<"$row" || bad "$1" "line 1's verdict is not /$3/: $row"
}

# expect_site NAME OFFSET SYMBOL-PREFIX DATA: a Pareto row of line 1 with these columns
expect_site() {
	awk -v off="$2" -v sym="$3" -v data="$4" '
		/Cache Line Distribution Pareto/ { p = 1 }
		p && /^ +-+$/ { dash++ }
		p && dash == 2 && $1 == off && index($0, " " sym) && $NF == data { found = 1 }
		p && dash == 3 { exit }
		END { exit !found }' "$tmp/$1.txt" ||
		bad "$1" "no row at offset $2 for $3 naming $4 in line 1"
}

start=$SECONDS
if record false_sharing "$SECS"; then
	expect_first false_sharing buf1 "FALSE SHARING"
	expect_site false_sharing 0x0 bump_a+ buf1.a
	expect_site false_sharing 0x8 bump_b+ buf1.b
fi
if record true_sharing "$SECS"; then
	expect_first true_sharing counter "TRUE SHARING"
	expect_site true_sharing 0x0 "" counter.hits
	row=$(first_line true_sharing)
	[ "$(awk '{ print $8 }' <<<"$row")" -gt 0 ] 2>/dev/null ||
		bad true_sharing "no atomics on line 1 (lock add): $row"
fi
if record padded "$SECS"; then
	grep -Eq '^# Cachelines touched: +[0-9]+ \(0 contended\)' "$tmp/padded.txt" ||
		bad padded "a line is contended: $(grep 'Cachelines touched' "$tmp/padded.txt")"
	grep -q "no contended cacheline: nothing to fix" "$tmp/padded.txt" ||
		bad padded "the report does not say that no line is contended"
	# both counters were seen, on two lines of buf1, each touched by one thread only
	"$C2C" report --stdio --show-all -i "$tmp/padded.c2c" >"$tmp/padded-all.txt" 2>&1
	n=$(awk '/Cache Line Table/ { t = 1 } /Pareto/ { t = 0 }
		t && $2 ~ /^0x/ && $3 == "buf1" && $9 == 1 && / NOT CONTENDED$/ { n++ }
		END { print n + 0 }' "$tmp/padded-all.txt")
	[ "$n" -eq 2 ] || bad padded "expected 2 buf1 lines with one thread each and no verdict" \
		"(--show-all), found $n"
fi
# ring: each index is written by one thread and read by the other (true sharing), and the two
# are written by different threads (false sharing). The false half shows only when the timer
# samples enough stores: on some machines it almost never lands right after them (seen on a
# Zen 5 guest: 0.2-1.8 % of the line's samples, 16 % on a Zen 3; tests/real/README.md, item 5).
# The verdict is held to the stores the trace holds: TRUE+FALSE when both indexes were sampled
# being written by different threads in 5 % of the line's samples or more, TRUE under 1 % (the
# soft model's floor, report/model/findings.h), either in between (said).
# The count of stores comes first in ring_want's answer; with none at all the line has no
# writer and is not contended, and a busy machine (make -j2 test) makes that likely: its two
# threads then run by turns and spin on loads, and the recorder's rate drops with the load (seen:
# 814 samples in 4 s, 465 of them loads of the indexes, no store). Then it records again at a
# fixed rate of 2000 Hz, and the checks hold for that recording. A line its confirmation by
# watchpoints judged (lines[].confirmation.judged) is judged by the transfers between its words:
# each index's own transfers are true, the head-tail ones false and rarer (a write must follow the
# other index's write with no read between): TRUE or TRUE+FALSE, never FALSE.
ring_want() {
	"$C2C" report --json --show-all -i "$tmp/ring.c2c" 2>/dev/null | python3 -c '
import json, sys
rep = json.load(sys.stdin)
w = {"ring.head": set(), "ring.tail": set()}
stores = samples = 0
judged = False
for line in rep["lines"]:
    if not any(m["name"] in w for m in line["members"]):
        continue
    judged |= bool((line.get("confirmation") or {}).get("judged"))
    for r in line["rows"]:
        samples += r["values"]["samples"]
        stores += r["values"]["stores"]
        if r.get("member") in w and r["values"]["stores"] > 0 and "thread" in r:
            w[r["member"]].add(r["thread"]["tid"])
both = any(a != b for a in w["ring.head"] for b in w["ring.tail"])
share = 100.0 * stores / samples if samples else 0
want = "(TRUE SHARING|TRUE\\+FALSE SHARING)" if judged else \
       "TRUE\\+FALSE SHARING" if both and share >= 5 else "TRUE SHARING" if share < 1 \
       else "(TRUE SHARING|TRUE\\+FALSE SHARING)"
print("%d\t%s\t%d stores of %d samples (%.1f %%), writers of both indexes: %s" %
      (stores, want, stores, samples, share, "yes" if both else "no"))'
}
if record ring "$((SECS + 1))"; then
	want=$(ring_want)
	if [ "${want%%$'\t'*}" = 0 ]; then
		echo "ring: ${want##*$'\t'}: no store sampled, recording again at -F 2000"
		RECORD_OPTS="-F 2000" record ring "$((SECS + 1))" && want=$(ring_want)
	fi
	want=${want#*$'\t'}
	echo "ring: ${want#*$'\t'}"
	expect_first ring ring "${want%%$'\t'*}"
	expect_site ring 0x0 "" ring.head
	expect_site ring 0x8 "" ring.tail
fi
if record lock_hot "$SECS"; then
	expect_first lock_hot hot "FALSE SHARING|TRUE\+FALSE"
	expect_site lock_hot 0x0 locker+ hot.lock
fi
if record slots "$SECS"; then
	expect_first slots slots "FALSE SHARING"
	expect_site slots 0x0 bump+ "slots[0].count"
	expect_site slots 0x8 bump+ "slots[1].count"
fi
# heap memory no symbol names: named from the instruction and the DWARF location of pointer c
if record heap_sharing "$SECS"; then
	expect_first heap_sharing "*c" "FALSE SHARING"
	expect_site heap_sharing 0x0 count_hits+ "c->hits"
	expect_site heap_sharing 0x8 count_misses+ "c->misses"
fi
echo "soft-examples: $((SECONDS - start)) s"
if [ $fail -ne 0 ]; then
	for f in "$tmp"/*.txt; do
		echo "---- $(basename "$f")"; sed -n '1,40p' "$f"
	done
fi
exit $fail
