#!/usr/bin/env bash
# Runs every cmocka suite ($BUILD/tests/test_*) and every end-to-end script (tests/e2e/*.sh),
# then prints one closing line "N passed, N failed" counting suites and scripts.
# The e2e scripts get BUILD and C2C (the binary) in their environment, run from the repo root,
# exit 0 on success, 77 to skip (with a reason on stdout), anything else on failure.
set -u
BUILD=${BUILD:-build}
export BUILD C2C="$PWD/$BUILD/c2c-lite"
pass=0 fail=0 skip=0 failed=()
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *.o|*.d) continue ;; esac
	echo "== suite $(basename "$t")"
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$t"); fi
done
for s in tests/e2e/*.sh; do
	[ -f "$s" ] || continue
	echo "== e2e $(basename "$s")"
	bash "$s"
	rc=$?
	if [ $rc -eq 0 ]; then pass=$((pass + 1))
	elif [ $rc -eq 77 ]; then skip=$((skip + 1))
	else fail=$((fail + 1)); failed+=("$s (exit $rc)"); fi
done
for f in "${failed[@]+"${failed[@]}"}"; do echo "FAILED: $f"; done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
