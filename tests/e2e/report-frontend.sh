#!/usr/bin/env bash
# `c2c-lite report` picks its front end in one place (c2c-lite.c): the TUI when stdin and stdout
# are a terminal and only options the TUI knows are given, the stdio report otherwise.
set -u
C2C=${C2C:-build/c2c-lite}
command -v tmux >/dev/null || { echo "tmux not installed"; exit 77; }
n=0
sock="c2c-frontend-$$-0"
trap 'tmux -L "$sock" kill-server 2>/dev/null' EXIT
fail() { echo "report-frontend: $*"; exit 1; }

# Piped: the stdio report, whatever the options.
"$C2C" report -i data/demo.c2c | grep -q '^ *Shared Data Cache Line Table *$' || fail "piped report is not stdio"

# start CMD...: run it in a fresh 120x30 tmux pane; the pane shows EXIT=<status> when it ends.
start() {
	tmux -L "$sock" kill-server 2>/dev/null
	n=$((n + 1)); sock="c2c-frontend-$$-$n"
	tmux -L "$sock" new-session -d -x 120 -y 30 "$*; echo EXIT=\$?; sleep 5"
	sleep 1.5
}
pane() { tmux -L "$sock" capture-pane -p; }

# On a terminal with TUI options: the browser (its title line), and q leaves it with status 0.
start "$C2C" report -i data/demo.c2c -d rmt
grep -q 'Shared Data Cache Line Table (.* entries, sorted on' <<<"$(pane)" || fail "terminal report did not open the TUI: $(pane)"
tmux -L "$sock" send-keys q; sleep 0.7
grep -q 'EXIT=0' <<<"$(pane)" || fail "quitting the TUI did not exit 0: $(pane)"
# On a terminal with --stdio or a stdio-only option: text, which ends by itself (no key pressed).
for opt in --stdio --show-all -N; do
	start "$C2C" report -i data/demo.c2c "$opt"
	out=$(pane)
	grep -q 'EXIT=0' <<<"$out" || fail "report $opt on a terminal did not print and exit: $out"
	grep -q 'sorted on' <<<"$out" && fail "report $opt on a terminal opened the TUI: $out"
	grep -q -- '------------------------------' <<<"$out" || fail "report $opt printed no Pareto: $out"
done
echo "report-frontend: ok"
