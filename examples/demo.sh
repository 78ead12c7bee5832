#!/usr/bin/env bash
# The c2c-lite demo: record the false_sharing example with the best backend this machine has
# (hardware memory sampling when the PMU offers it, else the soft backend: cpu-clock samples
# decoded into data accesses) and print the report. `make demo` runs it after building
# everything; it builds nothing itself. Environment: BUILD (default build), C2C (default
# $BUILD/c2c-lite), DEMO_SECONDS (default 3), DEMO_BACKEND (default: auto; soft, watch or hw).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$BUILD/c2c-lite}
SECS=${DEMO_SECONDS:-3}
BACKEND=${DEMO_BACKEND:-auto}
WORKLOAD=$BUILD/examples/false_sharing

die() {
	echo "demo: $*" >&2
	exit 1
}

[ -x "$C2C" ] || die "no c2c-lite binary at '$C2C'; run 'make BUILD=$BUILD' first"
[ -x "$WORKLOAD" ] || die "no workload at '$WORKLOAD'; run 'make BUILD=$BUILD' first"

tmp=$(mktemp -d) || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT

args=(--backend="$BACKEND")
# the watch backend needs the words: the two counters of false_sharing's contended line
[ "$BACKEND" = watch ] && args+=(--watch buf1/16)

echo "== $C2C record ${args[*]} -o $tmp/demo.c2c -- $WORKLOAD $SECS"
"$C2C" record "${args[@]}" -o "$tmp/demo.c2c" -- "$WORKLOAD" "$SECS"
rc=$?
if [ $rc -ne 0 ]; then
	echo "demo: record failed (exit $rc); 'c2c-lite doctor' says what this machine can record" >&2
	exit 1
fi
[ -s "$tmp/demo.c2c" ] || die "record wrote no trace to '$tmp/demo.c2c'"
echo
echo "== $C2C report --stdio -i $tmp/demo.c2c"
"$C2C" report --stdio -i "$tmp/demo.c2c" || die "report failed (exit $?)"
echo
echo "== expected: the top line is buf1, with buf1.a (offset 0x0) written by bump_a and"
echo "   buf1.b (offset 0x8) written by bump_b: false sharing (see examples/README.md)"
