#!/usr/bin/env bash
# Drives `c2c-lite tui` inside a detached tmux server: opens a line and checks its Pareto rows,
# switches sort column, display mode and coalescing, searches, shrinks the window to 80x24 and back, shows the
# help and statistics screens, quits, and checks the terminal is restored (alternate screen left,
# echo and canonical mode back) after q, after Ctrl-C and after a load error. Also checks the
# refusal when stdout is not a terminal. Exit 77 when tmux or the generator is missing.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
command -v tmux >/dev/null || { echo "tmux is not installed"; exit 77; }
[ -x "$GEN" ] || { echo "no $GEN (make BUILD=$BUILD first)"; exit 77; }

T=$(mktemp -d)
SOCK="c2c-tui-$$"
tm() { tmux -L "$SOCK" "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen:"; tm capture-pane -p -t t 2>/dev/null; exit 1; }

screen() { tm capture-pane -p -t t; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT (fixed string)
wait_for() {
	local i n=$(( ${2:-10} * 10 ))
	for ((i = 0; i < n; i++)); do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	fail "timed out waiting for '$1'"
}
keys() { tm send-keys -t t "$@"; }
restored() {   # the shell is back with a sane terminal
	wait_for "$1"
	[ "$(tm display -p -t t '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
	keys "stty -a | tr ' ' '\n' | grep -x -e -icanon -e -echo -e icanon -e echo | tr '\n' ' '; echo" Enter
	wait_for "icanon echo" 5
	keys clear Enter
	wait_for "READY$" 5
}

"$GEN" -s falseshare -t "$T/fs.c2c" >/dev/null || fail "c2c-gen failed"

# 1. not a terminal
out=$("$C2C" tui -i "$T/fs.c2c" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "non-terminal stdout: exit $rc, want 1"
[ "$out" = "c2c-lite: stdout is not a terminal; use 'c2c-lite report --stdio'" ] ||
	fail "non-terminal message: $out"

tm new-session -d -s t -x 120 -y 40 "env -u TMUX PS1='READY$ ' TERM=screen-256color bash --norc --noprofile" ||
	fail "tmux new-session"
wait_for "READY$"

# 2. the list
keys "$C2C tui -i $T/fs.c2c; echo TUI-EXIT=\$?" Enter
wait_for "Shared Data Cache Line Table (2 entries, sorted on Total HITMs)"
screen | grep -E '^ +0 +0x2001040 .* 89\.07%' >/dev/null || fail "line 0 row"
screen | grep -E '^ +1 +0x610100 .* 10\.93%' >/dev/null || fail "line 1 row"

# 3. open line 0: its Pareto
keys Enter
wait_for "Cacheline 0x2001040"
[ "$(screen | grep -cE '^ +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+% +0x[08] ')" = 4 ] ||
	fail "want 4 offset rows"
screen | grep -E '^ +49\.50% +49\.76% +0\.00% +0\.00% +0\.00% +0x0 ' >/dev/null || fail "offset 0x0 HITM row"
screen | grep -E '^ +0\.00% +0\.00% +51\.16% +50\.48% +0\.00% +0x8 ' >/dev/null || fail "offset 0x8 store row"
keys Escape
wait_for "Shared Data Cache Line Table"

# 4. sort column, display modes
keys s
wait_for "sorted on Load Hitm Total"
keys S
wait_for "sorted on Tot Hitm"
keys d
wait_for "(2 entries, sorted on Local HITMs)  display lcl"
keys d
wait_for "(1 entries, sorted on Remote HITMs)  display rmt"
keys d
wait_for "(0 entries, sorted on Peer Snoop)  display peer"
keys d
wait_for "(2 entries, sorted on Total HITMs)  display tot"

# 5. coalescing: the file is read again, the selection stays
keys End c
wait_for "display tot  coalesce tid,iaddr"
wait_for " 2/2 coalesce offset,tid,iaddr"
keys Home Enter
wait_for "Thread"
keys Escape

# 6. search, next match
keys / 6 1 0
wait_for "/610_"
keys Enter
wait_for " 2/2 /610"
keys Home n
wait_for " 2/2 /610"

# 7. resize to 80x24 and back
tm resize-window -t t -x 80 -y 24
wait_for "Shared Data Cache Line Table"
sleep 0.3
[ "$(screen | wc -l)" -le 24 ] || fail "more than 24 rows after resize"
screen | awk 'length($0) > 80 { bad = 1 } END { exit bad }' || fail "a row wider than 80 columns"
screen | grep -qE '^ +1 +0x610100' || fail "selected line lost after resize"
tm resize-window -t t -x 120 -y 40
sleep 0.3

# 8. help and statistics
keys '?'
wait_for "search a symbol, an address or a data name"
keys q t
wait_for "Trace Event Information"
screen | grep -qF "  Total records                     :       2000" || fail "Total records"
keys q
wait_for "Shared Data Cache Line Table"

# 9. quit: the shell is back
keys q
restored "TUI-EXIT=0"

# 10. Ctrl-C: the TUI dies of SIGINT after restoring the terminal (bash then drops the rest of
# the command line, so $? is asked for separately)
keys "$C2C tui -i $T/fs.c2c" Enter
wait_for "Shared Data Cache Line Table"
keys C-c
wait_for "READY$"
keys "echo TUI-EXIT=\$?" Enter
restored "TUI-EXIT=130"

# 11. an unreadable file: one error line, exit 1, terminal restored
printf 'not a trace at all' > "$T/bad"
keys "$C2C tui -i $T/bad; echo TUI-EXIT=\$?" Enter
restored "TUI-EXIT=1"
echo "tui-tmux: ok"
