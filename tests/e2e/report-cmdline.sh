#!/usr/bin/env bash
# The command lines of the report side. The report header says how the data was recorded: the
# command line of `c2c-lite record` (words quoted for the shell) or perf.data's cmdline feature,
# in the text report of every backend and in the JSON header (the TUI: tests/test_tui.c). Usage
# errors of report, diff, tui, convert and selftest are one line with the usage hint, exit 2;
# the option policy (report/cmdline.c) refuses an option where it does not apply, for report,
# diff and the TUI alike.
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

# usage errors: exit 2, one line in c2c-lite's form, what is wrong and the command's usage hint
USAGE_ERR=$tmp/err
. tests/e2e/lib/usage.sh
GEN=$PWD/$BUILD/tests/tools/c2c-gen
EGEN=$PWD/$BUILD/tests/tools/estimate-gen
"$GEN" -s falseshare -t "$tmp/pmu.c2c" >/dev/null 2>&1 || fail "c2c-gen"
"$EGEN" -s soft-false -t "$tmp/soft.c2c" >/dev/null 2>&1 || fail "estimate-gen soft"
"$EGEN" -s watch -t "$tmp/watch.c2c" >/dev/null 2>&1 || fail "estimate-gen watch"
pd=data/perf/sys-2ev.data
for cmd in report diff tui convert selftest; do
	usage $cmd "unknown option '--bogus'" --bogus
	usage $cmd "unknown option '-Z'" -Z
done
usage report "option '--no-' is ambiguous: --no-source, --no-data-names, --no-call-graph" --no-
usage report "option '--stdio' takes no argument" --stdio=yes
usage report "option '-d' needs an argument" -i "$tmp/pmu.c2c" -d
usage report "option '--input' needs an argument" --input
usage report "unknown display type 'bogus'" -d bogus -i "$tmp/pmu.c2c"
usage report "unknown key 'nope' in --coalesce 'pid,nope'" -c pid,nope -i "$tmp/pmu.c2c"
usage report "--cacheline-size '48' is not a power of two" --cacheline-size 48
usage report "-j/--jobs '0' is not a thread count" -j 0
usage report "--summary 'x' is not a line count" --summary x
usage report "--csv 'x': the tables are lines, rows and members" --csv=x
usage report "--call-graph 'flat'" -g --call-graph=flat
usage report "unexpected argument 'x'" x
usage diff "option '-d' needs an argument" -d
usage diff "unknown display type 'x'" -d x a b
usage diff "diff needs two inputs, OLD and NEW" a
usage tui "option '-c' needs an argument" -c
usage tui "unknown key 'x' in --coalesce 'x'" -c x
usage tui "--cacheline-size '3' is not a power of two" --cacheline-size 3
usage tui "unexpected argument 'x'" x
usage convert "option '-o' needs an argument" -o
usage convert "convert needs -o OUT" -i "$pd"
usage convert "--zstd '99' is not a level (1..22)" --zstd=99 -o x
usage convert "unexpected argument 'b'" a b -o x
usage selftest "give --hw or --compare"
usage selftest "--seconds 'x' is not a positive duration" --hw --seconds x
usage selftest "--compare takes two files: PERF.DATA TRACE" --compare a

# the option policy: what does not apply to the output, before any input is read
usage report "--csv does not apply to --json: one output at a time" --json --csv
usage report "--stdio does not apply to --json: one output at a time" --stdio --json -i "$tmp/pmu.c2c"
usage report "--stdio does not apply to --csv: one output at a time" --csv=rows --stdio
for o in --stats -N --no-source --full-symbols --map --no-data-names "--summary 3" --regions; do
	# shellcheck disable=SC2086
	usage report "${o% *}" --json $o -i "$tmp/pmu.c2c"
	grep -q "does not apply to --json: it shapes the text report" "$USAGE_ERR" || fail "--json $o: $(cat "$USAGE_ERR")"
done
# ... and what does not apply to the input, when the session opens it: report, diff and the TUI
# alike (the TUI on a terminal: script(1) gives it one)
refused() {  # INPUT-NAME FILE SAID OPTION...: report, diff and tui refuse OPTION on FILE
	local what=$1 f=$2 said=$3; shift 3
	usage report "$said does not apply to $what" "$@" -i "$f"
	[[ $1 = -d ]] && usage diff "$said does not apply to $what" "$@" "$f" "$f"
	if [[ $1 = -[dc] ]] && command -v script >/dev/null; then
		TERM=xterm script -qec "$(printf '%q ' "$C2C" tui "$@" -i "$f")" /dev/null \
			</dev/null >"$tmp/tui.out" 2>&1
		rc=$?
		[ $rc -eq 2 ] && grep -qF "c2c-lite: error: $said does not apply to $what" "$tmp/tui.out" ||
			fail "tui $* on $what: exit $rc: $(tail -c 300 "$tmp/tui.out")"
	fi
	return 0
}
for k in soft watch; do
	refused "$k-backend traces" "$tmp/$k.c2c" "-d/--display rmt" -d rmt
	refused "$k-backend traces" "$tmp/$k.c2c" "-c/--coalesce tid,iaddr" -c tid,iaddr
	refused "$k-backend traces" "$tmp/$k.c2c" "-N/--node-info" -N
	refused "$k-backend traces" "$tmp/$k.c2c" "-j/--jobs 2" -j 2
	# what these traces do anyway is accepted: -c iaddr, -j 1
	"$C2C" report -c iaddr -j 1 -i "$tmp/$k.c2c" >/dev/null 2>"$USAGE_ERR" ||
		fail "$k: -c iaddr -j 1 refused: $(cat "$USAGE_ERR")"
done
usage report "(lines rank by transfers)" -d tot -i "$tmp/watch.c2c"
usage report "(lines rank by sampled time)" -d tot -i "$tmp/soft.c2c"
refused "perf.data files" "$pd" --regions --regions
refused "perf.data files" "$pd" "--region r" --region r
for o in "-d rmt" "-c tid,iaddr" "-N" "-j 2"; do
	# shellcheck disable=SC2086
	"$C2C" report $o -i "$tmp/pmu.c2c" >/dev/null 2>"$USAGE_ERR" || fail "PMU trace: $o refused: $(cat "$USAGE_ERR")"
	# shellcheck disable=SC2086
	"$C2C" report $o -i "$pd" >/dev/null 2>"$USAGE_ERR" || fail "perf.data: $o refused: $(cat "$USAGE_ERR")"
done
"$C2C" diff -d rmt "$tmp/pmu.c2c" "$tmp/pmu.c2c" >/dev/null 2>"$USAGE_ERR" || fail "diff -d rmt of PMU traces: $(cat "$USAGE_ERR")"
# --stdio is the text report (what report prints without --json or --csv)
"$C2C" report -i "$tmp/pmu.c2c" >"$tmp/a.txt" 2>/dev/null && "$C2C" report --stdio -i "$tmp/pmu.c2c" >"$tmp/b.txt" 2>/dev/null &&
	cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "--stdio is not the text report"

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
