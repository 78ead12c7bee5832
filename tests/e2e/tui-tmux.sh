#!/usr/bin/env bash
# Drives `c2c-lite tui` inside a detached tmux server on PMU, soft and watch traces: the first
# screen shows the hottest line with what it holds and its verdict; a line shows the findings
# (verdict, advice, the false sharing's share, who writes what), its line map and its rows; the sort menu,
# display modes and coalescing, search over the visible text, shrinking the window to 80x24 and
# back, the help, statistics and findings screens; the statistics of a trace with region markers
# and AMD uncore counts show both as the text report does; quits, and checks the terminal is restored
# (alternate screen left, echo and canonical mode back) after q, after Ctrl-C and after a load
# error. Also checks the refusal when stdout is not a terminal. Exit 77 when tmux or the
# generators are missing.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
EGEN=$PWD/$BUILD/tests/tools/estimate-gen
command -v tmux >/dev/null || { echo "tmux is not installed"; exit 77; }
[ -x "$GEN" ] && [ -x "$EGEN" ] || { echo "no $GEN or $EGEN (make BUILD=$BUILD first)"; exit 77; }
command -v cc >/dev/null || { echo "no C compiler"; exit 77; }

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
# the same scenario inside a region, with the AMD uncore summary an AMD recording ends with
printf 'c2c-uncore 1\nseconds 2.000000\nl3 0 0 1000000 250000\nl3 1 8 2000000 100000\ndram 0 0 3000000 192000000\nnote amd_df: remote links were not counted\n' >"$T/unc.txt"
"$GEN" -s falseshare -t "$T/ctx.c2c" --region phase1 --blob 16:"$T/unc.txt" >/dev/null ||
	fail "c2c-gen --region --blob failed"

cc -g -O1 -o "$T/prog" tests/e2e/lib/estimate-prog.c || fail "cc"
"$EGEN" -s soft-false --elf "$T/prog" -t "$T/soft.c2c" || fail "estimate-gen soft"
"$EGEN" -s watch --elf "$T/prog" -t "$T/watch.c2c" || fail "estimate-gen watch"

# 1. not a terminal
out=$("$C2C" tui -i "$T/fs.c2c" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "non-terminal stdout: exit $rc, want 1"
[ "$out" = "c2c-lite: stdout is not a terminal; use 'c2c-lite report --stdio'" ] ||
	fail "non-terminal message: $out"

tm new-session -d -s t -x 120 -y 40 "env -u TMUX PS1='READY$ ' TERM=screen-256color bash --norc --noprofile" ||
	fail "tmux new-session"
wait_for "READY$"

# 2. PMU: the first screen says the hottest line, what it holds and its verdict
keys "$C2C tui -i $T/fs.c2c; echo TUI-EXIT=\$?" Enter
wait_for "Shared Data Cache Line Table (2 entries, sorted on Total HITMs)"
screen | grep -E '^ +1 +0x2001040 +heap of pid 4242 +FALSE SHARING +89\.07%' >/dev/null ||
	fail "line 1 row"
screen | grep -E '^ +2 +0x610100 .* 10\.93%' >/dev/null || fail "line 2 row"

# 3. open line 1 (perf's d): findings, line map, rows with perf's shares
keys d
wait_for "Cacheline 0x2001040"
wait_for "heap of pid 4242: FALSE SHARING, 89.07% of Total HITMs, 2 threads"
wait_for "advice: offset 0x0 (written by worker-a/4243) and offset 0x8 (written by worker-b/4244)"
wait_for "false sharing: 89.07% of Total HITMs"
screen | grep -E '^  4243 worker-a x\.{63}$' >/dev/null || fail "line map row of worker-a"
screen | grep -E '^  4244 worker-b \.{8}x\.{55}$' >/dev/null || fail "line map row of worker-b"
# the rows: what they touch and from where first, then perf's shares
[ "$(screen | grep -cE '^ +0x[08] +heap of pid 4242 +\[\.\] 0x0+11[57][04] +fs_demo +0x11[57][04] +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+% ')" = 4 ] ||
	fail "want 4 offset rows"
screen | grep -E '^ +0x0 +heap of pid 4242 .* 0x1150 +49\.50% +49\.76% +0\.00% +0\.00% ' >/dev/null ||
	fail "offset 0x0 HITM row"
keys v
wait_for "line map off"
screen | grep -q "4243 worker-a" && fail "the line map is still shown"
keys v Escape
wait_for "Shared Data Cache Line Table"

# 4. the sort menu, display modes (m: perf has no key for them)
keys o
wait_for "Order the cacheline list by"
keys Down Enter
wait_for "ordered by address"
screen | grep -E '^ +1 +0x610100 ' >/dev/null || fail "address order"
keys o Home Enter
wait_for "ordered by Total HITMs"
keys m
wait_for "(2 entries, sorted on Local HITMs)  display lcl"
keys m
wait_for "(1 entries, sorted on Remote HITMs)  display rmt"
keys m
wait_for "(0 entries, sorted on Peer Snoop)  display peer"
keys m
wait_for "(2 entries, sorted on Total HITMs)  display tot"

# 5. coalescing: the file is read again, the selection stays
keys End c
wait_for "display tot  coalesce tid,iaddr"
wait_for " 2/2 coalesce offset,tid,iaddr"
keys Home

# 6. search any visible text (F3 next)
keys / h e a p
wait_for "/heap_"
keys Enter
wait_for " 1/2 /heap"
keys / 6 1 0 Enter
wait_for " 2/2 /610"
keys Home F3
wait_for " 2/2 /610"

# 7. resize to 80x24 and back: the first screen still says line, data and verdict
tm resize-window -t t -x 80 -y 24
wait_for "Shared Data Cache Line Table"
sleep 0.3
[ "$(screen | wc -l)" -le 24 ] || fail "more than 24 rows after resize"
screen | awk 'length($0) > 80 { bad = 1 } END { exit bad }' || fail "a row wider than 80 columns"
screen | grep -qE '^ +2 +0x610100 +\[unknown\] +UNCLEAR' || fail "selected line lost after resize"
keys Home d
wait_for "advice:"
wait_for "4243 worker-a"
# a row says what it touches, the symbol, the source line and the code address on 80 columns
screen | grep -qE '^ +0x0 +heap of pid 4242 +\[\.\] 0x0+1150 +fs_demo +0x1150( |$)' ||
	fail "an offset row lost its data, symbol or code on 80 columns"
keys q
tm resize-window -t t -x 120 -y 40
sleep 0.3

# 8. help, statistics, findings
keys '?'
wait_for "search any text on the screen"
keys q t
wait_for "Trace Event Information"
screen | grep -qF "  Total records                     :       2000" || fail "Total records"
keys q f
wait_for "Findings: what to fix"
wait_for "c2c-lite summary: 2 findings"
keys q
wait_for "Shared Data Cache Line Table"

# 9. quit: the shell is back
keys q
restored "TUI-EXIT=0"

# 10. soft and watch traces: the same browser, their own columns
keys "$C2C tui -i $T/soft.c2c; echo TUI-EXIT=\$?" Enter
wait_for "Estimated Cache Line Table (soft backend: timer samples)"
screen | grep -E '^ +1 +0x[0-9a-f]+ +buf1 \(struct pair, 16 bytes\) +FALSE SHARING +[0-9.]+%' \
	>/dev/null || fail "soft: line 1 row"
keys d
wait_for "advice: buf1.a (written by tid 101) and buf1.b (written by tid 102)"
wait_for "A buf1.a  B buf1.b"
screen | grep -E '^  tid 101 +w+\.+$' >/dev/null || fail "soft: line map row of tid 101"
screen | grep -qE '^ +0x0 .*\[\.\] writer_a' || fail "soft: writer_a row"
keys m
wait_for "display modes are HITM and peer views of PMU data"
keys q q
restored "TUI-EXIT=0"
keys "$C2C tui -i $T/watch.c2c; echo TUI-EXIT=\$?" Enter
wait_for "Cache Line Table (watch backend: watchpoint hits)"
screen | grep -E '^ +1 +0x[0-9a-f]+ +buf1 \(struct pair, 16 bytes\) +TRUE\+FALSE' >/dev/null ||
	fail "watch: line 1 row"
keys d
wait_for "A buf1.a  B buf1.b"
keys q q
restored "TUI-EXIT=0"

# 10b. the run's context on the statistics screen: regions and AMD uncore, as report prints them
keys "$C2C tui -i $T/ctx.c2c; echo TUI-EXIT=\$?" Enter
wait_for "Shared Data Cache Line Table (2 entries, sorted on Total HITMs)"
keys t
wait_for "Regions (the workload's c2c-region markers)"
screen | grep -qE '^ +phase1 +3 +[0-9]+\.[0-9]{3} +2000 +2000 +100\.0%' || fail "region row"
screen | grep -qE '^ +\(outside any region\) +0 +0\.0%' || fail "outside-region row"
wait_for "AMD uncore over the run (2.000 s):"
screen | grep -qF "  L3 of CCX 0 (CPU 0): 1000000 accesses, 250000 misses (25.0%)" || fail "L3 row"
screen | grep -qF "  DRAM channel 0 (CPU 0): 192.0 MB, 96.0 MB/s" || fail "DRAM row"
screen | grep -qF "  amd_df: remote links were not counted" || fail "uncore note"
keys End
wait_for "Global Shared Cache Line Event Information"
keys q q
restored "TUI-EXIT=0"
# without markers or uncore counts the screen has neither
keys "$C2C tui -i $T/fs.c2c; echo TUI-EXIT=\$?" Enter
wait_for "Shared Data Cache Line Table"
keys t
wait_for "Trace Event Information"
screen | grep -qE "Regions|AMD uncore" && fail "context lines on a trace without any"
keys q q
restored "TUI-EXIT=0"

# 11. Ctrl-C: the TUI dies of SIGINT after restoring the terminal (bash then drops the rest of
# the command line, so $? is asked for separately)
keys "$C2C tui -i $T/fs.c2c" Enter
wait_for "Shared Data Cache Line Table"
keys C-c
wait_for "READY$"
keys "echo TUI-EXIT=\$?" Enter
restored "TUI-EXIT=130"

# 12. an unreadable file: one error line, exit 1, terminal restored
printf 'not a trace at all' > "$T/bad"
keys "$C2C tui -i $T/bad; echo TUI-EXIT=\$?" Enter
restored "TUI-EXIT=1"
echo "tui-tmux: ok"
