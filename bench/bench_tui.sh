#!/usr/bin/env bash
# The TUI's first screen against `report --stdio` on the same trace (issue 16: it appears as fast
# as --stdio finishes), and what the report model costs inside both (issue 16: the line map and
# findings at most 10%). Two traces: a 10M-sample falseshare trace from c2c-gen (one hot line;
# TRACE instead when given) and the 1M-sample perf.data of perfdata-bench-gen (100000 cachelines,
# skewed) converted to a trace. For each, the run with the best wall time of RUNS (default 3):
#   report --stdio (wall and CPU seconds: tests/tools/run-rusage); the TUI's first screen, and
#   report --stdio typed into the same kind of terminal, alternately: a detached tmux pane whose
#   output streams (pipe-pane) into tests/tools/wait-text, so the clock stops when the table
#   title (or, after report --stdio, a mark echoed) comes out, without polling the screen (a
#   poll forking every 10 ms made the 10M report 40% slower on this 2-core VM, the TUI as much as
#   --stdio); the ratio of those two; report -v --stdio, whose "report
#   model" line times the model's steps (lines and rows with the touches line maps are drawn from,
#   data names, verdicts, findings: report/model/session.c), as a share of that run's wall time;
#   report --stdio --map (the line maps drawn) against --stdio, in CPU time (the machine may be
#   shared: CPU time moves less with its load than wall time).
# Asserts nothing.   BUILD=build bash bench/bench_tui.sh [TRACE]
set -u
BUILD=${BUILD:-build}
C2C=$PWD/$BUILD/c2c-lite
RUSAGE=$PWD/$BUILD/tests/tools/run-rusage
WAIT=$PWD/$BUILD/tests/tools/wait-text
RUNS=${RUNS:-3}
T=$(mktemp -d)
SOCK="c2c-tui-bench-$$"
trap 'for s in $(cat "$T/socks" 2>/dev/null); do tmux -L "$s" kill-server >/dev/null 2>&1; done
	rm -rf "$T"' EXIT
have_tmux=1
command -v tmux >/dev/null || have_tmux=0
now() { date +%s.%N; }
best() { sort -g | head -1; }
[ -x "$RUSAGE" ] && [ -x "$WAIT" ] || { echo "bench_tui: build first ($RUSAGE, $WAIT)"; exit 1; }

# stdio_secs ARGS...: "wall cpu" seconds of one report
stdio_secs() {
	rm -f "$T/ru"
	"$RUSAGE" "$T/ru" "$C2C" report "$@" >/dev/null 2>"$T/err"
	awk '{ print $1, $2 + $3 }' "$T/ru"
}

# pane_secs COMMAND TEXT: wall seconds from typing COMMAND into a fresh terminal (a tmux pane
# of its own server: one just killed may still hold the socket) until TEXT comes out of it;
# nothing if it did not within 300 s. Then q, for a TUI.
pane_secs() {
	local sock=$SOCK-$BASHPID s e rc
	echo "$sock" >>"$T/socks"
	tmux -L "$sock" new-session -d -s b -x 120 -y 40 "bash --norc --noprofile" || return
	sleep 0.3
	rm -f "$T/fifo" && mkfifo "$T/fifo" || return
	tmux -L "$sock" pipe-pane -t b -o "cat > '$T/fifo'" || return
	exec 9<"$T/fifo"
	s=$(now)
	tmux -L "$sock" send-keys -t b "$1" Enter
	"$WAIT" -t 300 "$2" <&9
	rc=$?
	e=$(now)
	exec 9<&-
	tmux -L "$sock" send-keys -t b q
	sleep 0.2
	tmux -L "$sock" kill-server
	[ $rc = 0 ] && echo "$e - $s" | bc
}

# bench_trace TRACE DESCRIPTION
bench_trace() {
	local tr=$1 rep tui map model t
	echo "$2:"
	rep=$(for _ in $(seq "$RUNS"); do stdio_secs --stdio -i "$tr"; done | best)
	set -- $rep
	printf '  %-34s %7.3f s  (%.3f s CPU)\n' "report --stdio" "$1" "$2"
	if [ $have_tmux = 1 ]; then
		: >"$T/pst" && : >"$T/ptui"
		for _ in $(seq "$RUNS"); do
			pane_secs "$C2C report --stdio -i $tr >/dev/null; echo DONE''MARK" DONEMARK >>"$T/pst"
			pane_secs "$C2C tui -i $tr" "Shared Data Cache Line Table (" >>"$T/ptui"
		done
		pst=$(best <"$T/pst") tui=$(best <"$T/ptui")
		if [ -n "$tui" ] && [ -n "$pst" ]; then
			printf '  %-34s %7.3f s  (typed into a terminal, to its end)\n' \
				"report --stdio in a terminal" "$pst"
			printf '  %-34s %7.3f s  %.2fx the time of --stdio in a terminal (target: 1.00x or less)\n' \
				"tui first screen" "$tui" "$(echo "$tui / $pst" | bc -l)"
		else
			echo "  tui first screen: the table or the mark did not show (tmux or the TUI failed)"
		fi
	else
		echo "  tui first screen: skipped: tmux is not installed"
	fi
	# the -v run with the shortest wall time, and its model line
	: >"$T/v"
	for _ in $(seq "$RUNS"); do
		t=$(stdio_secs -v --stdio -i "$tr")
		model=$(sed -n 's/.*report model: \([0-9.]*\) s (\(.*\))/\1 \2/p' "$T/err" | tail -1)
		echo "$t $model" >>"$T/v"
	done
	sort -g "$T/v" | head -1 | awk '{
		if (NF < 3) { print "  report model: no timing line (report -v)"; exit }
		printf "  %-34s %7.1f ms  %.1f%% of the report (%.3f s; target: 10%% or less)\n",
			"report model", $3 * 1000, 100 * $3 / $1, $1
		printf "  %-34s lines and rows %.1f ms, data names %.1f, verdicts %.1f, findings %.1f\n",
			"", $7 * 1000, $10 * 1000, $12 * 1000, $14 * 1000 }'
	map=$(for _ in $(seq "$RUNS"); do stdio_secs --stdio --map -i "$tr"; done | best)
	set -- $rep $map
	printf '  %-34s %7.3f s  (%.3f s CPU, %+.1f%% over --stdio)\n' "report --stdio --map" "$3" "$4" \
		"$(echo "100 * ($4 - $2) / $2" | bc -l)"
}

echo "bench_tui: best of $RUNS runs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${1:-}" ]; then
	bench_trace "$1" "$1"
else
	"$PWD/$BUILD/tests/tools/c2c-gen" -s falseshare -n 10000000 -t "$T/fs.c2c" >/dev/null || exit 1
	bench_trace "$T/fs.c2c" "10M-sample falseshare trace (c2c-gen), $(stat -c %s "$T/fs.c2c") bytes"
	rm -f "$T/fs.c2c"
	"$PWD/$BUILD/tests/tools/perfdata-bench-gen" -n 1000000 -l 100000 -o "$T/b.data" &&
		"$C2C" convert -q "$T/b.data" -o "$T/b.c2c" || exit 1
	rm -f "$T/b.data"
	bench_trace "$T/b.c2c" "1M samples over 100000 cachelines (perfdata-bench-gen, converted)"
fi
