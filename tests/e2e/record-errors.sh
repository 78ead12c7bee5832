#!/usr/bin/env bash
# Bad input gives a one-line error and a non-zero exit, never a crash.
. tests/e2e/record-lib/common.sh

check() {  # want-status pattern args...
	local want=$1 pat=$2; shift 2
	"$C2C" record "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ $rc -eq "$want" ] || fail "record $*: exit $rc, want $want ($(cat "$TMP/err"))"
	grep -q -- "$pat" "$TMP/err" || fail "record $*: no '$pat' in: $(cat "$TMP/err")"
}
check 1 "unknown event 'nosuch'" -e nosuch -o "$TMP/x" -- true
check 1 "no PMU 'nopmu'" -e nopmu/event=1/ -o "$TMP/x" -- true
check 2 "power of two" -m 3 -e cpu-clock -o "$TMP/x" -- true
check 2 "power of two of AUX pages" -m 8,3 -e cpu-clock -o "$TMP/x" -- true
check 1 "AUX area size applies to Arm SPE events only" -m 8,4 -e cpu-clock -o "$TMP/x" -- true
check 2 "needs a number" -c abc -e cpu-clock -o "$TMP/x" -- true
check 2 "give a command" -e cpu-clock
check 1 "no process or thread" -e cpu-clock -p 2147483646 -o "$TMP/x"
check 1 "cannot create trace" -e cpu-clock -o /nonexistent/dir/x -- true
"$C2C" record -e list >"$TMP/list" || fail "-e list failed"
grep -q page-faults "$TMP/list" || fail "-e list lacks page-faults"
echo "ok"
