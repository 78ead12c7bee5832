#!/usr/bin/env bash
# `report -i -` and a FIFO read a pipe-mode perf.data stream (perf record -o -) or a c2c-lite
# trace with the same result as the saved file (the format is told by the first bytes, peeked
# without taking them); an empty file or stream, or other bytes, is a one-line error.
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

# a c2c-lite trace through a pipe, a FIFO and a redirection
trace=data/demo.c2c
"$C2C" report --stdio -i "$trace" 2>/dev/null | sed 1d >"$tmp/tfile.txt"
grep -q 'Shared Data Cache Line Table' "$tmp/tfile.txt" || fail "no report of $trace"
cat "$trace" | "$C2C" report --stdio -i - 2>"$tmp/t.err" | sed 1d >"$tmp/tpipe.txt"
cmp -s "$tmp/tfile.txt" "$tmp/tpipe.txt" || fail "trace through -i - differs: $(cat "$tmp/t.err")"
"$C2C" report --stdio -i - <"$trace" 2>/dev/null | sed 1d >"$tmp/tredir.txt"
cmp -s "$tmp/tfile.txt" "$tmp/tredir.txt" || fail "trace redirected to -i - differs"
cat "$trace" >"$tmp/fifo" &
"$C2C" report --stdio -i "$tmp/fifo" 2>/dev/null | sed 1d >"$tmp/tfifo.txt"
wait
cmp -s "$tmp/tfile.txt" "$tmp/tfifo.txt" || fail "trace through a FIFO differs"
# perf.data through a redirection (mapped, not streamed)
"$C2C" report --stdio -i - <"$tmp/pipe.data" 2>/dev/null | sed 1d >"$tmp/redir.txt"
cmp -s "$tmp/file.txt" "$tmp/redir.txt" || fail "perf.data redirected to -i - differs"
# bytes of neither format, and an empty stream: one line each
out=$(printf 'neither of them\n' | "$C2C" report --stdio -i - 2>&1) && fail "garbage was accepted"
[ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "not a c2c-lite trace or perf.data" <<<"$out" ||
	fail "garbage: '$out'"
out=$(: | "$C2C" report --stdio -i - 2>&1) && fail "an empty stream was accepted"
[ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "empty" <<<"$out" || fail "empty stream: '$out'"
echo "report-stdin: ok"
