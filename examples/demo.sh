#!/usr/bin/env bash
# The c2c-lite demo: record the false_sharing example with the soft backend (works without a
# memory-sampling PMU) and print the report. `make demo` runs it after building everything; it
# builds nothing itself. Environment: BUILD (default build), C2C (default $BUILD/c2c-lite),
# DEMO_SECONDS (default 2).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$BUILD/c2c-lite}
SECS=${DEMO_SECONDS:-2}
WORKLOAD=$BUILD/examples/false_sharing

die() {
	echo "demo: $*" >&2
	exit 1
}

[ -x "$C2C" ] || die "no c2c-lite binary at '$C2C'; run 'make BUILD=$BUILD' first"
[ -x "$WORKLOAD" ] || die "no workload at '$WORKLOAD'; run 'make BUILD=$BUILD' first"
# Fail clearly while the soft backend is not wired into record yet.
if ! "$C2C" record --help 2>&1 | grep -q -- '--backend'; then
	die "'$C2C record' has no --backend option yet: the soft backend is not available in this build"
fi

tmp=$(mktemp -d) || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT

echo "== $C2C record --backend=soft -o $tmp/demo.c2c -- $WORKLOAD $SECS"
"$C2C" record --backend=soft -o "$tmp/demo.c2c" -- "$WORKLOAD" "$SECS" ||
	die "record failed (exit $?)"
[ -s "$tmp/demo.c2c" ] || die "record wrote no trace to '$tmp/demo.c2c'"
echo "== $C2C report --stdio -i $tmp/demo.c2c"
"$C2C" report --stdio -i "$tmp/demo.c2c" || die "report failed (exit $?)"
echo "== expected: the top line is buf1, with buf1.a (offset 0x0) written by bump_a and"
echo "   buf1.b (offset 0x8) written by bump_b: false sharing (see examples/README.md)"
