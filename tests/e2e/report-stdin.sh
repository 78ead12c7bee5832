#!/usr/bin/env bash
# `report -i -` and a FIFO read a pipe-mode perf.data stream (perf record -o -) with the same
# result as the saved file; an empty file is a one-line error.
set -u
C2C=${C2C:-build/c2c-lite}
command -v perf >/dev/null || { echo "perf not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "report-stdin: $*"; exit 1; }

perf record -q -e page-faults -c 1 -d -W --sample-cpu -o - -- "$BUILD/examples/false_sharing" 0.2 \
	>"$tmp/pipe.data" 2>/dev/null || { echo "perf record cannot record page-faults here"; exit 77; }
"$C2C" report --stdio -i "$tmp/pipe.data" 2>/dev/null | sed 1d >"$tmp/file.txt" ||
	fail "report of the saved stream failed"
grep -q 'Trace Event Information' "$tmp/file.txt" || fail "no report from the saved stream"
cat "$tmp/pipe.data" | "$C2C" report --stdio -i - 2>/dev/null | sed 1d >"$tmp/stdin.txt" ||
	fail "report -i - failed"
cmp -s "$tmp/file.txt" "$tmp/stdin.txt" || fail "report -i - differs: $(diff "$tmp/file.txt" "$tmp/stdin.txt" | head -5)"
mkfifo "$tmp/fifo"
cat "$tmp/pipe.data" >"$tmp/fifo" &
"$C2C" report --stdio -i "$tmp/fifo" 2>/dev/null | sed 1d >"$tmp/fifo.txt"
wait
cmp -s "$tmp/file.txt" "$tmp/fifo.txt" || fail "report of a FIFO differs"
: >"$tmp/empty"
out=$("$C2C" report --stdio -i "$tmp/empty" 2>&1) && fail "an empty file was accepted"
[ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "empty file" <<<"$out" || fail "empty file: '$out'"
echo "report-stdin: ok"
