# Helpers sourced by tests/e2e/record-*.sh (a subdirectory, so tests/run.sh does not run it).
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
WL=$PWD/$BUILD/tests/tools/rec-workload
DUMP=$PWD/$BUILD/tests/tools/trace-dump
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$WL" ] && [ -x "$DUMP" ] || { echo "skip: $WL or $DUMP not built"; exit 77; }
# Software events need perf_event_open for our own tasks (paranoid <= 2, or root).
if ! "$C2C" record -e cpu-clock -o "$TMP/probe.data" -- true 2>"$TMP/probe.err"; then
	echo "skip: perf_event_open unavailable: $(head -1 "$TMP/probe.err")"
	exit 77
fi
# check WANT PATTERN ARGS...: `record ARGS` exits with WANT and says PATTERN on standard error
check() {
	local want=$1 pat=$2; shift 2
	"$C2C" record "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ $rc -eq "$want" ] || fail "record $*: exit $rc, want $want ($(cat "$TMP/err"))"
	grep -q -- "$pat" "$TMP/err" || fail "record $*: no '$pat' in: $(cat "$TMP/err")"
}
