#!/usr/bin/env bash
# End-to-end checks of `c2c-lite report` on generator scenarios, without perf: the false-sharing
# line comes first with its two written offsets, the padded control has no shared line, the
# report is deterministic, and bad input gives one error line and exit status 1.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$GEN" -s falseshare -t "$tmp/fs.c2c" || fail "c2c-gen falseshare"
"$C2C" report --stdio -i "$tmp/fs.c2c" >"$tmp/fs.out" 2>"$tmp/fs.err" || fail "report falseshare"
grep -q '^# SYNTHETIC' "$tmp/fs.out" || fail "no SYNTHETIC warning in the header"
# The first table row is the heap line 0x2001040 holding the two workers' counters.
row=$(sed -n '/Shared Data Cache Line Table/,/Pareto/p' "$tmp/fs.out" | grep -m1 '^ *0  ')
set -- $row
[ "$2" = "0x2001040" ] || fail "first line is '$2', want 0x2001040"
# Its Pareto block lists offsets 0x0 and 0x8 (two code addresses each: the load and the store);
# the heading and each row say what the memory is (anonymous memory of the generated process).
offs=$(sed -n '/^      0 .*0x2001040  heap of pid [0-9]*$/,/^$/p' "$tmp/fs.out" |
	awk '$6 ~ /^0x/ && / heap of pid [0-9]+$/ {print $6}' | sort -u | tr '\n' ' ')
[ "$offs" = "0x0 0x8 " ] || fail "offsets of the false-sharing line are '$offs'"
grep -q 'Total Shared Cache Lines          :          2' "$tmp/fs.out" || fail "shared lines"

"$GEN" -s padded -t "$tmp/pad.c2c" || fail "c2c-gen padded"
"$C2C" report --stdio -i "$tmp/pad.c2c" >"$tmp/pad.out" 2>/dev/null || fail "report padded"
grep -q 'Total Shared Cache Lines          :          0' "$tmp/pad.out" || fail "padded has a shared line"
[ "$(sed -n '/Shared Data Cache Line Table/,/Pareto/p' "$tmp/pad.out" | grep -c '^ *[0-9]')" = 0 ] ||
	fail "padded shows table rows"

"$C2C" report --stdio -i "$tmp/fs.c2c" >"$tmp/fs2.out" 2>/dev/null
cmp -s "$tmp/fs.out" "$tmp/fs2.out" || fail "two runs differ"
"$C2C" report --stats -i "$tmp/fs.c2c" | tail -1 | grep -q 'Cacheline data grouping           : offset,iaddr' ||
	fail "--stats does not stop after c2c details"

# Errors: one line naming the file, exit 1 (2 for usage errors).
"$C2C" report --stdio -i "$tmp/missing.c2c" >/dev/null 2>"$tmp/e1"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/e1")" -eq 1 ] && grep -q "missing.c2c" "$tmp/e1" ||
	fail "missing file: exit $rc, '$(cat "$tmp/e1")'"
printf 'not a trace at all' >"$tmp/junk"
"$C2C" report --stdio -i "$tmp/junk" >/dev/null 2>"$tmp/e2"; rc=$?
[ $rc -eq 1 ] && grep -q "junk" "$tmp/e2" || fail "junk file: exit $rc, '$(cat "$tmp/e2")'"
head -c 300 "$tmp/fs.c2c" >"$tmp/cut.c2c"
"$C2C" report --stdio -i "$tmp/cut.c2c" >/dev/null 2>"$tmp/e3"; rc=$?
[ $rc -le 1 ] || fail "truncated file: exit $rc"
"$C2C" report --stdio -d bogus -i "$tmp/fs.c2c" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "bad -d: exit $rc"
"$C2C" report --stdio -c pid,nope -i "$tmp/fs.c2c" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "bad -c: exit $rc"
(cd "$tmp" && "$C2C" report --stdio >/dev/null 2>"$tmp/e4"); rc=$?
[ $rc -eq 1 ] && grep -q "c2c-lite.data" "$tmp/e4" || fail "default input: exit $rc"
echo "ok"
