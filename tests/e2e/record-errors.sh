#!/usr/bin/env bash
# Bad input gives a one-line error and a non-zero exit, never a crash.
. tests/e2e/record-lib/common.sh

check 1 "unknown event 'nosuch'" -e nosuch -o "$TMP/x" -- true
check 1 "no PMU 'nopmu'" -e nopmu/event=1/ -o "$TMP/x" -- true
check 2 "power of two" -m 3 -e cpu-clock -o "$TMP/x" -- true
check 2 "power of two of AUX pages" -m 8,3 -e cpu-clock -o "$TMP/x" -- true
check 1 "AUX area size applies to Arm SPE events only" -m 8,4 -e cpu-clock -o "$TMP/x" -- true
check 2 "-c needs a period > 0, not 'abc'" -c abc -e cpu-clock -o "$TMP/x" -- true
check 2 "give a command" -e cpu-clock
check 1 "no process or thread" -e cpu-clock -p 2147483646 -o "$TMP/x"
check 1 "cannot create trace" -e cpu-clock -o /nonexistent/dir/x -- true
# -F above kernel.perf_event_max_sample_rate: the limit and how to raise it, in one line
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
check 2 "above the kernel's limit of $max samples a second; use -F $max or less, or raise it: sysctl -w kernel.perf_event_max_sample_rate=$((max + 1))" \
	-F $((max + 1)) -e cpu-clock -o "$TMP/x" -- true
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "-F above the limit: not one line: $(cat "$TMP/err")"
[ ! -e "$TMP/x" ] || fail "-F above the limit left a trace"
"$C2C" record -F "$max" -e cpu-clock -o "$TMP/x" -- true 2>"$TMP/err" ||
	fail "-F at the limit ($max) refused: $(cat "$TMP/err")"
# a machine whose limit is under the default 4000 Hz: the default comes down to it, and says so
root=$TMP/fake
cp -r data/sysfs/vm-no-pmu "$root"
echo 1000 >"$root/proc/sys/kernel/perf_event_max_sample_rate"
C2C_SYSFS_ROOT=$root "$C2C" record -e cpu-clock -o "$TMP/x" -- true 2>"$TMP/err" ||
	fail "a default above a limit of 1000 was refused: $(cat "$TMP/err")"
grep -q "sampling at 1000 Hz, the kernel's perf_event_max_sample_rate" "$TMP/err" ||
	fail "the lowered default is not said: $(cat "$TMP/err")"
C2C_SYSFS_ROOT=$root "$C2C" record -e cpu-clock -F 1001 -o "$TMP/x" -- true 2>"$TMP/err" &&
	fail "-F 1001 above a limit of 1000 was accepted"
grep -q "limit of 1000 samples" "$TMP/err" || fail "fake limit: $(cat "$TMP/err")"
# the one rate plan: record's usage text and doctor say the rate record takes, the cap included
C2C_SYSFS_ROOT=$root "$C2C" record --help >"$TMP/help" || fail "record --help"
grep -q "sample HZ times a second (default 1000 here, the kernel's cap;" "$TMP/help" ||
	fail "record --help under a cap of 1000: $(grep -A1 'freq HZ' "$TMP/help")"
grep -q "the rate is lowered from 1000 Hz" "$TMP/help" || fail "--soft-overhead's rate under a cap"
C2C_SYSFS_ROOT=$root "$C2C" doctor >"$TMP/doc" 2>&1
grep -q "sample-rate .*record samples at 1000 Hz without -F or -c, the kernel's perf_event_max_sample_rate" \
	"$TMP/doc" || fail "doctor under a cap of 1000: $(grep sample-rate "$TMP/doc")"
echo 100000 >"$root/proc/sys/kernel/perf_event_max_sample_rate"
C2C_SYSFS_ROOT=$root "$C2C" doctor >"$TMP/doc" 2>&1
grep -q "sample-rate .*record samples at 4000 Hz without -F or -c (the default; -F up to 100000" \
	"$TMP/doc" || fail "doctor without a cap: $(grep sample-rate "$TMP/doc")"
C2C_SYSFS_ROOT=$root "$C2C" record --help >"$TMP/help" || fail "record --help"
n=$(sed -n 's/.*sample HZ times a second (default \([0-9]*\);.*/\1/p' "$TMP/help")
[ "$n" = 4000 ] || fail "record --help without a cap: default '$n'"
# the manual states the same default (it cannot ask the plan)
sed 's/\\-/-/g; s/\\f[BIR]//g' docs/man/man1/c2c-lite-record.1 | tr '\n' ' ' |
	grep -q "times a second (default $n)" || fail "c2c-lite-record(1) does not give -F's default $n"
# errors first: a -p or -t that does not exist and an output that cannot be written are found
# before the backend is set up (with the default backend, the soft one's cost measured): the
# error line and nothing else, -v included, and no trace
first() {  # want-status pattern args...: check, and the one line is all standard error says
	check "$@"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "record $*: not just the error: $(cat "$TMP/err")"
}
rm -f "$TMP/x"
touch "$TMP/file"
first 1 "^c2c-lite: error: no process or thread 2147483646$" -o "$TMP/x" -p 2147483646
first 1 "no process or thread 2147483646" -v -o "$TMP/x" -t 2147483646
first 1 "no process or thread 2147483646" --backend=soft -o "$TMP/x" -p 1,2147483646
first 1 "cannot create trace '/nonexistent/dir/x': No such file or directory" \
	-o /nonexistent/dir/x -- true
first 1 "cannot create trace '$TMP/file/x': Not a directory" -v -o "$TMP/file/x" -- true
first 1 "cannot create trace '$TMP': Is a directory" --backend=soft -o "$TMP" -- true
[ ! -e "$TMP/x" ] || fail "a refused recording left a trace"
# (a trace that exists is not truncated by the check, nor is a file created by it left behind)
printf 'old' >"$TMP/old"
first 1 "no process or thread" -o "$TMP/old" -p 2147483646
[ "$(cat "$TMP/old")" = old ] || fail "the check of -o changed an existing file"
# usage errors of record, stat and doctor: exit 2 and one line, c2c-lite's prefix, what is wrong
# and the command's usage hint (getopt's own messages were two lines, prefixed 'record:'; a bad
# number said two errors)
USAGE_ERR=$TMP/err
. tests/e2e/lib/usage.sh
for cmd in record stat doctor; do
	usage $cmd "unknown option '--bogus'" --bogus
	usage $cmd "unknown option '-Z'" -Z
done
usage record "option '--no-' is ambiguous: --no-inherit, --no-topdown, --no-confirm" --no- -- true
usage record "option '--no-inherit' takes no argument" --no-inherit=1 -- true
usage record "option '-F' needs an argument" -F
usage record "option '--freq' needs an argument" --freq
usage record "-F needs a frequency > 0, not 'abc'" -F abc -- true
usage record "-F needs a frequency > 0, not '0'" -F 0 -- true
usage record "bad process id 'x'" -p x
usage record "bad process id '0'" -t 0
usage record "--ldlat needs 1..65535 cycles, not '70000'" -l 70000 -- true
usage record "--zstd needs a level 0..22, not '23'" --zstd 23 -- true
usage record "--duration needs seconds > 0, not '-1'" --duration -1 -- true
usage record "unknown backend 'nope'" --backend=nope -- true
usage record "--soft-overhead needs a percentage from 1 to 100 or 'unlimited', not '0'" \
	--soft-overhead 0 -- true
usage record "--watch-step needs 1..60000 ms" --watch-step 0 -- true
usage record "--call-graph 'xyz': the modes are fp, dwarf[,SIZE] and lbr" --call-graph xyz -- true
usage record "-c and -F exclude each other" -c 100 -F 100 -- true
usage record "--watch needs --backend=watch" --watch x -- true
usage record "give a command after '--', -p, -t or -a"
usage stat "option '-I' needs an argument" -I
usage stat "-I needs a number above 0, not 'abc'" -I abc -- true
usage stat "-p needs a number above 0, not 'x'" -p x
usage stat "--duration needs seconds > 0, not 'y'" --duration y -- true
usage stat "options '-a' and '-p' cannot be used together" -a -p 1
usage stat "give a command after '--', -p or -a"
usage doctor "unexpected argument 'x'" x
# a workload that cannot start: the shell's codes, for stat as for record
for cmd in record stat; do
	"$C2C" $cmd -- "$TMP/nope" >/dev/null 2>"$TMP/err"; rc=$?
	[ $rc -eq 127 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "cannot run '$TMP/nope'" "$TMP/err" ||
		fail "$cmd -- nope: exit $rc, want 127: $(cat "$TMP/err")"
	"$C2C" $cmd -- "$TMP/file" >/dev/null 2>"$TMP/err"; rc=$?
	[ $rc -eq 126 ] || fail "$cmd -- (not executable): exit $rc, want 126: $(cat "$TMP/err")"
done
"$C2C" record -e list >"$TMP/list" || fail "-e list failed"
grep -q page-faults "$TMP/list" || fail "-e list lacks page-faults"
echo "ok"
