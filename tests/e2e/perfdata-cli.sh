#!/usr/bin/env bash
# `c2c-lite convert` on bad input: a one-line error naming the file and a non-zero exit, never a
# crash (a c2c-lite trace: it says so); a perf.data cut short converts what is complete with a
# warning.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$BUILD/c2c-lite}
"$C2C" convert --help >/dev/null 2>&1 || { echo "skip: no convert command"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect RC FILE: convert FILE, check the exit status and a one-line error naming the file
expect() {
	local want=$1 in=$2 rc
	"$C2C" convert "$in" -o "$tmp/out.c2c" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "convert $in: exit $rc, want $want ($(cat "$tmp/err"))"
	[ $rc -lt 128 ] || fail "convert $in crashed"
	if [ "$want" -ne 0 ]; then
		[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "convert $in: not one line: $(cat "$tmp/err")"
		grep -q "$(basename "$in")" "$tmp/err" || fail "convert $in: error does not name the file"
	fi
}

expect 1 "$tmp/missing.data"
printf 'hello, world, this is not perf data\n' >"$tmp/text.data"
expect 1 "$tmp/text.data"
: >"$tmp/empty.data"
expect 1 "$tmp/empty.data"
printf 'PERFILE2' >"$tmp/magic.data"
expect 1 "$tmp/magic.data"
"$C2C" convert >/dev/null 2>&1; [ $? -eq 2 ] || fail "convert without -o: want exit 2"
"$C2C" convert x y -o z >/dev/null 2>&1; [ $? -eq 2 ] || fail "two inputs: want exit 2"

if command -v perf >/dev/null &&
   perf record -q -e page-faults -c 1 -d -o "$tmp/f.data" -- /bin/true 2>/dev/null; then
	size=$(stat -c %s "$tmp/f.data")
	data_end=$(od -An -t u8 -j 40 -N 16 "$tmp/f.data" | awk '{ print $1 + $2 }')
	head -c $((data_end - 20)) "$tmp/f.data" >"$tmp/cut.data"
	expect 0 "$tmp/cut.data"
	grep -q "cut short\|past the end" "$tmp/err" || fail "cut file: no warning: $(cat "$tmp/err")"
	# every 97th prefix: no crash, exit 0 or 1
	for ((n = 0; n < size; n += 97)); do
		head -c $n "$tmp/f.data" >"$tmp/p.data"
		"$C2C" convert -q "$tmp/p.data" -o "$tmp/p.c2c" >/dev/null 2>&1
		rc=$?
		[ $rc -le 1 ] || fail "prefix of $n bytes: exit $rc"
	done
fi
# -o -: the trace on stdout (the summary on stderr) reads as the file does
"$C2C" convert data/perf/sys-2ev.data -o "$tmp/file.c2c" >/dev/null || fail "convert to a file"
"$C2C" convert data/perf/sys-2ev.data -o - 2>"$tmp/sum.txt" | cat >"$tmp/out.c2c" ||
	fail "convert -o -"
grep -q "to standard output" "$tmp/sum.txt" || fail "convert -o -: no summary on stderr"
"$C2C" report --stdio -i "$tmp/file.c2c" 2>/dev/null | sed 1d >"$tmp/a.txt"
"$C2C" report --stdio -i "$tmp/out.c2c" 2>/dev/null | sed 1d >"$tmp/b.txt"
[ -s "$tmp/a.txt" ] && cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "convert -o - differs from the file"
# a c2c-lite trace given to convert: it says it is one already
expect 1 "$tmp/file.c2c"
grep -q "is already a c2c-lite trace" "$tmp/err" || fail "convert of a trace: $(cat "$tmp/err")"
echo "bad input handled; -o - streams"
exit 0
