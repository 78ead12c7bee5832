# Helpers sourced by the soft backend's e2e scripts: a subdirectory, so tests/run.sh does not
# run it.
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

# soft_setup: BUILD, C2C and CC set (from the environment or their defaults), a skip (77) unless
# the soft backend records here, and $tmp a directory removed at exit.
soft_setup() {
	BUILD=${BUILD:-build}
	C2C=${C2C:-$PWD/$BUILD/c2c-lite}
	CC=${CC:-cc}
	[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
	if ! "$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft '; then
		echo "skip: the soft backend cannot record here"
		exit 77
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}
