# A helper sourced by the e2e scripts that check usage errors (tests/e2e/report-cmdline.sh,
# tests/e2e/record-errors.sh): a subdirectory, so tests/run.sh does not run it. The sourcing
# script sets C2C, fail() and USAGE_ERR (a file in its temporary directory).
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

# usage CMD PATTERN ARGS...: `c2c-lite CMD ARGS` is a usage error: exit 2, one line on standard
# error in c2c-lite's form ("c2c-lite: error: ... (see 'c2c-lite CMD --help')") holding PATTERN;
# the line stays in $USAGE_ERR
usage() {
	local cmd=$1 pat=$2; shift 2
	"$C2C" "$cmd" "$@" </dev/null >/dev/null 2>"$USAGE_ERR"
	local rc=$?
	[ $rc -eq 2 ] || fail "$cmd $*: exit $rc, want 2 ($(cat "$USAGE_ERR"))"
	[ "$(wc -l <"$USAGE_ERR")" -eq 1 ] || fail "$cmd $*: not one line: $(cat "$USAGE_ERR")"
	grep -q "^c2c-lite: error: .*(see 'c2c-lite $cmd --help')\$" "$USAGE_ERR" ||
		fail "$cmd $*: not c2c-lite's form with the usage hint: $(cat "$USAGE_ERR")"
	grep -qF -- "$pat" "$USAGE_ERR" || fail "$cmd $*: no '$pat' in: $(cat "$USAGE_ERR")"
}
