#!/usr/bin/env bash
# record -o - writes the trace to standard output as it records (the chunked format streams: a
# reader has samples before the workload ends), the workload's own output goes to standard
# error, and report -i - (or a FIFO) reads it back as it would the file.
. tests/e2e/record-lib/common.sh

# a pipe: the report of the stream equals the report of the same bytes saved to a file
"$C2C" record -e page-faults -c 1 -o - -- "$WL" threads 2 64 2>"$TMP/rec.err" >"$TMP/p.data" ||
	fail "record -o - failed: $(cat "$TMP/rec.err")"
grep -q '^buf=0x' "$TMP/rec.err" || fail "the workload's stdout did not go to stderr"
"$DUMP" "$TMP/p.data" >"$TMP/p.txt" || fail "the streamed trace is unreadable"
grep -q '^end records=.* truncated=0' "$TMP/p.txt" || fail "the streamed trace is incomplete"
grep -q "written to standard output" "$TMP/rec.err" || fail "no summary naming stdout"
"$C2C" report --stdio -i "$TMP/p.data" 2>/dev/null | sed 1d >"$TMP/file.txt"
grep -q 'Trace Event Information' "$TMP/file.txt" || fail "no report of the saved stream"
cat "$TMP/p.data" | "$C2C" report --stdio -i - 2>"$TMP/rep.err" | sed 1d >"$TMP/pipe.txt"
cmp -s "$TMP/file.txt" "$TMP/pipe.txt" ||
	fail "report -i - differs: $(diff "$TMP/file.txt" "$TMP/pipe.txt" | head -5) $(cat "$TMP/rep.err")"
"$C2C" report --json -i - <"$TMP/p.data" >"$TMP/redir.json" 2>/dev/null || fail "report -i - < file failed"
"$C2C" report --json -i "$TMP/p.data" >"$TMP/file.json" 2>/dev/null
# the input's name: the header's and its section's title (sections[].id "header")
noname='s/"input": *"[^"]*"//; s/"title": "c2c-lite report of [^"]*"//'
sed "$noname" "$TMP/redir.json" >"$TMP/a" && sed "$noname" "$TMP/file.json" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "report -i - from a redirected file differs"

# record straight into report
"$C2C" record -e page-faults -c 1 -o - -- "$WL" threads 2 64 2>/dev/null |
	"$C2C" report --stdio -i - >"$TMP/live.txt" 2>"$TMP/live.err"
st=("${PIPESTATUS[@]}")
[ "${st[0]}" -eq 0 ] && [ "${st[1]}" -eq 0 ] || fail "record | report: exit ${st[*]}: $(cat "$TMP/live.err")"
grep -q 'Shared Data Cache Line Table' "$TMP/live.txt" || fail "record | report: no report"

# a FIFO, both ways
mkfifo "$TMP/fifo"
"$C2C" record -e page-faults -c 1 -o "$TMP/fifo" -- "$WL" threads 2 64 >/dev/null 2>&1 &
"$C2C" report --stdio -i "$TMP/fifo" >"$TMP/fifo.txt" 2>"$TMP/fifo.err" ||
	fail "report of a FIFO failed: $(cat "$TMP/fifo.err")"
wait $! || fail "record -o FIFO failed"
grep -q 'Shared Data Cache Line Table' "$TMP/fifo.txt" || fail "no report from the FIFO"

# it streams: 2.5 s into a 5-second run, the reader already has complete chunks of samples
( "$C2C" record -e cpu-clock -o - -- "$WL" spin 5 2>/dev/null | cat >"$TMP/live.data" ) &
sleep 2.5
cp "$TMP/live.data" "$TMP/part.data"
wait $! || fail "record -o - | cat failed"
"$DUMP" "$TMP/part.data" >"$TMP/part.txt" 2>/dev/null
n=$(grep -c '^SAMPLE' "$TMP/part.txt")
[ "$n" -gt 0 ] || fail "no samples had arrived 2.5 s into a 5 s recording"
total=$("$DUMP" "$TMP/live.data" | grep -c '^SAMPLE')
[ "$total" -gt "$n" ] || fail "the whole stream has no more samples ($total) than its start ($n)"
echo "ok: $n of $total samples arrived while recording"

# a terminal is refused on both ends, in one line
if script -qec "$C2C record -e cpu-clock -o - -- true" /dev/null >"$TMP/tty.txt" 2>&1; then
	fail "record -o - to a terminal was accepted"
fi
grep -q "standard output is a terminal" "$TMP/tty.txt" || fail "tty: $(cat "$TMP/tty.txt")"
if script -qec "$C2C report --stdio -i -" /dev/null >"$TMP/tty2.txt" 2>&1 </dev/null; then
	fail "report -i - from a terminal was accepted"
fi
grep -q "standard input is a terminal" "$TMP/tty2.txt" || fail "tty: $(cat "$TMP/tty2.txt")"
# not a trace: one line, non-zero
printf 'garbage garbage garbage\n' | "$C2C" report --stdio -i - >/dev/null 2>"$TMP/bad.err" &&
	fail "garbage on stdin was accepted"
[ "$(wc -l <"$TMP/bad.err")" -eq 1 ] && grep -q "not a c2c-lite trace or perf.data" "$TMP/bad.err" ||
	fail "garbage: $(cat "$TMP/bad.err")"
: | "$C2C" report --stdio -i - >/dev/null 2>"$TMP/empty.err" && fail "empty stdin accepted"
[ "$(wc -l <"$TMP/empty.err")" -eq 1 ] && grep -q "empty" "$TMP/empty.err" ||
	fail "empty: $(cat "$TMP/empty.err")"
echo "ok"
