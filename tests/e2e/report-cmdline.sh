#!/usr/bin/env bash
# The report header says how the data was recorded: the command line of `c2c-lite record`
# (words quoted for the shell) or perf.data's cmdline feature, in the text report of every
# backend and in the JSON header (the TUI: tests/test_tui.c).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# perf.data: the cmdline feature, as perf prints it
want=/usr/bin/perf' record -q -a -d -e page-faults -e minor-faults -o sys-2ev.data -- sleep 0.05'
if command -v perf >/dev/null; then
	pw=$(perf report --header-only -i data/perf/sys-2ev.data 2>/dev/null | sed -n 's/^# cmdline : //p' | sed 's/ *$//')
	[ -z "$pw" ] || [ "$pw" = "$want" ] || fail "perf reads the cmdline as '$pw'"
fi
"$C2C" report --stdio -i data/perf/sys-2ev.data 2>/dev/null | sed -n 2,4p >"$tmp/h.txt"
grep -qxF "# cmdline: $want" "$tmp/h.txt" || fail "perf.data: $(cat "$tmp/h.txt")"
"$C2C" report --json -i data/perf/sys-2ev.data 2>/dev/null | grep -qF "\"cmdline\": \"$want\"" ||
	fail "perf.data: no cmdline in the JSON header"

# our traces, one per backend that records here
cd "$tmp" || exit 1
rec() {  # NAME record-options...: records `sh -c 'exit 0' 'a b'` (or skips NAME)
	local name=$1; shift
	"$C2C" record -q "$@" -o "$name.data" -- sh -c 'exit 0' 'a b' 2>"$name.err" || {
		echo "skip $name: $(head -1 "$name.err")"; return 1; }
	local line="# cmdline: c2c-lite record -q $* -o $name.data -- sh -c 'exit 0' 'a b'"
	"$C2C" report --stdio -i "$name.data" >"$name.txt" 2>/dev/null || fail "$name: report failed"
	head -5 "$name.txt" | grep -qxF "$line" || fail "$name: no '$line' in: $(head -5 "$name.txt")"
	"$C2C" report --json -i "$name.data" 2>/dev/null |
		grep -qF "\"cmdline\": \"c2c-lite record -q $* -o $name.data -- sh -c 'exit 0' 'a b'\"" ||
		fail "$name: no cmdline in the JSON header"
	echo "ok: $name"
}
n=0
rec swevent -e page-faults && n=$((n + 1))
rec soft --backend=soft && n=$((n + 1))
[ $n -gt 0 ] || { echo "skip: nothing records here"; exit 77; }
echo "ok"
