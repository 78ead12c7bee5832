#!/usr/bin/env bash
# Soft and watch reports name threads as the PMU summary does, comm/tid, in every front end:
# the text summary and its advice, the JSON and CSV members, diff's advice, and the TUI's line
# panel. Recorded for real from examples/false_sharing (two threads named false_sharing).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
EX=$PWD/$BUILD/examples
tmp=$(mktemp -d)
SOCK="c2c-names-$$"
cleanup() { command -v tmux >/dev/null && tmux -L "$SOCK" kill-server >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$EX/false_sharing" ] || { echo "skip: examples not built"; exit 77; }

name='false_sharing/[0-9]+'
check() {  # KIND TRACE
	local k=$1 t=$2 out=$tmp/$1
	"$C2C" report --stdio -i "$t" >"$out.txt" 2>/dev/null || fail "$k: report"
	# (main's final read of both members, when a watchpoint catches it, follows after a ';'; the
	# soft backend counts each buf1.a++, a load and a store, as a read-modify-write: `w` alone)
	grep -Eq "^ +0x0 +buf1\.a .* r?w $name[ ;]" "$out.txt" || fail "$k: member buf1.a has no comm/tid"
	grep -Eq "^ +0x8 +buf1\.b .* r?w $name[ ;]" "$out.txt" || fail "$k: member buf1.b has no comm/tid"
	grep -Eq "advice: buf1\.a \(written by $name\) and buf1\.b \(written by $name\)" "$out.txt" ||
		fail "$k: the advice names no threads: $(grep advice "$out.txt")"
	! grep -Eq '\btid [0-9]' "$out.txt" || fail "$k: a thread without its comm: $(grep -E '\btid [0-9]' "$out.txt")"
	"$C2C" report --json -i "$t" >"$out.json" 2>/dev/null || fail "$k: json"
	tr -d ' \n' <"$out.json" | grep -Eq '"writers":\[\{"tid":[0-9]+,"pid":[0-9]+,"comm":"false_sharing"\}\]' ||
		fail "$k: JSON writers without comm"
	"$C2C" report --csv=members -i "$t" >"$out.csv" 2>/dev/null || fail "$k: csv"
	[ "$(tr -d '\r' <"$out.csv" | grep -Ec "^1,0x[0-9a-f]+,(0|8),buf1\.[ab],.*,$name,($name)?$")" -eq 2 ] ||
		fail "$k: CSV members without comm/tid: $(cat "$out.csv")"
	"$C2C" diff "$tmp/padded.$k" "$t" >"$out.diff" 2>/dev/null || fail "$k: diff"
	grep -Eq "advice: buf1\.a \(written by $name\)" "$out.diff" || fail "$k: diff's advice: $(cat "$out.diff")"
	echo "ok: $k (text, JSON, CSV, diff)"
}
n=0
if "$C2C" record -q --backend=soft -o "$tmp/fs.soft" -- "$EX/false_sharing" 1 2>/dev/null &&
   "$C2C" record -q --backend=soft -o "$tmp/padded.soft" -- "$EX/padded" 0.3 2>/dev/null; then
	check soft "$tmp/fs.soft"
	n=$((n + 1))
fi
# watch: a second recording when the first saw no write to buf1.a (the overhead bound can pause
# the watchpoints through a thread's work in a short run on a loaded or sanitized build)
wrec() {
	"$C2C" record -q --backend=watch --watch buf1 -o "$tmp/fs.watch" -- "$EX/false_sharing" 0.5 \
		2>/dev/null || return 1
	"$C2C" report --stdio -i "$tmp/fs.watch" 2>/dev/null | grep -Eq "^ +0x0 +buf1\.a .* rw " ||
		"$C2C" record -q --backend=watch --watch buf1 -o "$tmp/fs.watch" -- "$EX/false_sharing" \
			0.5 2>/dev/null
}
if wrec &&
   "$C2C" record -q --backend=watch --watch buf1 -o "$tmp/padded.watch" -- "$EX/padded" 0.3 2>/dev/null; then
	check watch "$tmp/fs.watch"
	n=$((n + 1))
fi
[ $n -gt 0 ] || { echo "skip: neither the soft nor the watch backend records here"; exit 77; }

# the TUI: a line's panel says who writes each member
command -v tmux >/dev/null || { echo "ok (no tmux: TUI not checked)"; exit 0; }
t=$tmp/fs.soft
[ -f "$t" ] || t=$tmp/fs.watch
tm() { tmux -L "$SOCK" "$@"; }
tm new-session -d -s t -x 160 -y 50 "env -u TMUX TERM=screen-256color $C2C tui -i $t" || fail "tmux"
for _ in $(seq 50); do tm capture-pane -p -t t | grep -q buf1 && break; sleep 0.1; done
tm send-keys -t t d
for _ in $(seq 50); do tm capture-pane -p -t t | grep -q "written by" && break; sleep 0.1; done
tm capture-pane -p -t t >"$tmp/tui.txt"
grep -Eq "buf1\.a +written by $name" "$tmp/tui.txt" || fail "TUI: $(cat "$tmp/tui.txt")"
tm send-keys -t t q
echo "ok: TUI"
