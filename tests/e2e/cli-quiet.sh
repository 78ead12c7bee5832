#!/usr/bin/env bash
# -q on every command: errors only. Info lines stay short (at most 100 columns: a long line is
# split into a short one and details under -v), and -v shows the details.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
WL=$PWD/$BUILD/tests/tools/rec-workload
FS=$PWD/$BUILD/examples/false_sharing
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
demo=$PWD/data/demo.c2c
perfdata=$PWD/data/perf/sys-2ev.data
cd "$tmp" || exit 1

quiet() {  # NAME CMD...: exit 0 and nothing on stderr
	local name=$1; shift
	"$@" >out.txt 2>err.txt || fail "$name: exit $?: $(cat err.txt)"
	[ ! -s err.txt ] || fail "$name: -q still printed: $(cat err.txt)"
}
# report, diff, convert: what they print without -q is gone with it
cp "$perfdata" perf.data
"$C2C" report --stdio >/dev/null 2>err.txt || fail "report of ./perf.data"
grep -q "info: no -i and no c2c-lite.data here" err.txt || fail "no info line to silence: $(cat err.txt)"
quiet "report -q" "$C2C" report --stdio -q
quiet "report --quiet --json" "$C2C" report --json --quiet -i "$demo"
quiet "diff -q" "$C2C" diff -q "$demo" "$demo"
"$C2C" convert perf.data -o c.c2c >out.txt 2>&1 && [ -s out.txt ] || fail "convert printed nothing"
quiet "convert -q" "$C2C" convert -q perf.data -o c.c2c
[ ! -s out.txt ] || fail "convert -q printed: $(cat out.txt)"
# doctor: the summary line only
"$C2C" doctor -q --no-probe >out.txt 2>err.txt || fail "doctor -q"
[ "$(wc -l <out.txt)" -eq 1 ] && grep -q '^summary: ' out.txt || fail "doctor -q: $(cat out.txt)"
"$C2C" doctor --no-probe | grep -q '^summary: ' || fail "doctor's summary is not its -q line"
# stat: -q keeps the counts (they are its output) and drops every info or warning line
"$C2C" stat -q -- true >out.txt 2>err.txt || fail "stat -q"
cat out.txt err.txt | grep -q 'task-clock' || fail "stat -q printed no counts"
! grep -q 'c2c-lite: ' err.txt out.txt || fail "stat -q printed: $(grep 'c2c-lite: ' err.txt out.txt)"
# tui: -q parses (the TUI itself needs a terminal: tests/e2e/tui-tmux.sh)
"$C2C" tui -q -i "$demo" >/dev/null 2>err.txt
grep -q "not a terminal" err.txt || fail "tui -q: $(cat err.txt)"
"$C2C" tui --quiet -i "$demo" >/dev/null 2>err.txt
grep -q "not a terminal" err.txt || fail "tui --quiet: $(cat err.txt)"
# (and the TUI cannot read its input from where it reads its keys: one line, usage error)
"$C2C" tui -i - <"$demo" >/dev/null 2>err.txt
[ $? -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "reads its keys from standard input" err.txt ||
	fail "tui -i -: $(cat err.txt)"

# record: -q leaves nothing; every info line fits 100 columns; -v gives the details
if ! "$C2C" record -e cpu-clock -o probe.data -- true 2>err.txt; then
	echo "record parts skipped: perf_event_open unavailable: $(head -1 err.txt)"
	echo "ok (report, diff, convert, stat, doctor, tui)"
	exit 0
fi
quiet "record -q" "$C2C" record -q -e cpu-clock -o r.data -- "$WL" spin 0.2
[ -s r.data ] || fail "record -q wrote no trace"
short() {  # NAME FILE: every info line of FILE within 100 columns
	local long
	long=$(grep 'info: ' "$2" | awk 'length($0) > 100')
	[ -z "$long" ] || fail "$1: info line over 100 columns: $long"
	grep -q 'info: ' "$2" || fail "$1: no info line at all"
}
"$C2C" record -o auto.data -- "$FS" 0.3 >/dev/null 2>auto.err || fail "record (auto): $(cat auto.err)"
short "record (auto backend)" auto.err
"$C2C" record -v -o auto.data -- "$FS" 0.3 >/dev/null 2>autov.err
if grep -q "falling back to the soft backend" auto.err; then
	grep -q "debug: .*hardware memory sampling unavailable\|debug: .*PMU" autov.err ||
		fail "-v does not say why there is no hardware sampling: $(cat autov.err)"
	quiet "record -q (soft)" "$C2C" record -q -o auto.data -- sh -c "exec $FS 0.3 2>/dev/null"
fi
if "$C2C" record --backend=watch --watch buf1 -o w.data -- "$FS" 0.5 >/dev/null 2>watch.err; then
	short "record --backend=watch" watch.err
	grep -q "info: backend: watch, 8 words rotated over 4 debug registers" watch.err ||
		fail "watch: no short backend line: $(cat watch.err)"
	"$C2C" record -v --backend=watch --watch buf1 -o w.data -- "$FS" 0.5 >/dev/null 2>watchv.err
	grep -q "debug: backend: watch: 8 words: buf1=0x" watchv.err || fail "watch -v: no word list"
	if grep -q "watch backend: paused" watchv.err; then
		grep -q "debug: the watchpoints were paused at times" watchv.err ||
			fail "watch -v: no details on the pauses"
	fi
	# (the workload's own line on stderr stays)
	"$C2C" record -q --backend=watch --watch buf1 -o w.data -- "$FS" 0.3 >/dev/null 2>err.txt ||
		fail "record -q (watch): $(cat err.txt)"
	grep -v '^false_sharing: ' err.txt >rest.txt
	[ ! -s rest.txt ] || fail "record -q (watch) still printed: $(cat rest.txt)"
else
	echo "watch parts skipped: $(head -1 watch.err)"
fi
echo "ok"
