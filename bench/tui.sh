#!/usr/bin/env bash
# Time to the first screen of `c2c-lite tui` against `c2c-lite report --stdio` on the same trace
# (default: a 10M-sample falseshare trace from c2c-gen). The TUI runs in a detached tmux pane; the
# clock stops when the pane shows the table title (polled every 10 ms, so add up to 0.01 s).
#   BUILD=build bash bench/tui.sh [TRACE]
set -u
BUILD=${BUILD:-build}
C2C=$PWD/$BUILD/c2c-lite
command -v tmux >/dev/null || { echo "tui bench: tmux is not installed"; exit 0; }
T=$(mktemp -d)
SOCK="c2c-tui-bench-$$"
trap 'tmux -L "$SOCK" kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
TRACE=${1:-}
if [ -z "$TRACE" ]; then
	TRACE=$T/big.c2c
	"$PWD/$BUILD/tests/tools/c2c-gen" -s falseshare -n 10000000 -t "$TRACE" >/dev/null || exit 1
fi
now() { date +%s.%N; }

for run in 1 2 3; do
	s=$(now)
	"$C2C" report --stdio -i "$TRACE" >/dev/null
	e=$(now)
	rep=$(echo "$e - $s" | bc)

	tmux -L "$SOCK" new-session -d -s b -x 120 -y 40 "bash --norc --noprofile"
	sleep 0.3
	s=$(now)
	tmux -L "$SOCK" send-keys -t b "$C2C tui -i $TRACE" Enter
	until tmux -L "$SOCK" capture-pane -p -t b | grep -qF "Shared Data Cache Line Table ("; do
		sleep 0.01
	done
	e=$(now)
	tui=$(echo "$e - $s" | bc)
	tmux -L "$SOCK" send-keys -t b q
	sleep 0.2
	tmux -L "$SOCK" kill-server
	printf 'run %d: report --stdio %.3f s, tui first screen %.3f s (difference %+.3f s)\n' \
		"$run" "$rep" "$tui" "$(echo "$tui - $rep" | bc)"
done
