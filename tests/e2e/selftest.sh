#!/usr/bin/env bash
# c2c-lite selftest, the hardware acceptance kit. --compare is fed recordings we generate
# (tests/tools/c2c-gen writes one scenario as perf.data and as a trace): the same run agrees,
# another seed agrees within sampling noise, another workload disagrees on the top finding,
# a run without contention agrees with --expect -, a soft trace is refused; perf 6.1's own
# perf c2c report of each perf.data shows the first line our report of it shows. --hw records for real
# where doctor finds a memory-sampling PMU and perf; elsewhere (this VM) it is refused in one line,
# and its steps are checked with a stand-in perf on a fake sysfs tree.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=${GEN:-$PWD/$BUILD/tests/tools/c2c-gen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

for s in "falseshare 1" "falseshare 7" "trueshare 1" "padded 1"; do
	set -- $s
	"$GEN" -s $1 --seed $2 -t $1-$2.c2c -p $1-$2.data >/dev/null || fail "c2c-gen $s"
done
check() {  # WANT-EXIT WANT-TEXT... -- ARGS: selftest ARGS exits WANT-EXIT and prints each text
	local want=$1 texts=() rc; shift
	while [ "$1" != -- ]; do texts+=("$1"); shift; done; shift
	"$C2C" selftest "$@" >out.txt 2>err.txt; rc=$?
	[ $rc -eq "$want" ] || fail "selftest $*: exit $rc, not $want: $(cat out.txt err.txt)"
	for t in "${texts[@]}"; do
		grep -qE -- "$t" out.txt err.txt || fail "selftest $*: no '$t' in: $(cat out.txt err.txt)"
	done
}
key=line:0x2001040      # the generated false-sharing line (no symbols: its address names it)
check 0 "top finding +ok +perf c2c: $key \(FALSE SHARING\), c2c-lite: $key" "HITM share +ok" \
	"top share +ok" "TopDown +skipped" "expected +ok" "^verdict: PASS" -- \
	--compare falseshare-1.data falseshare-1.c2c --expect $key
check 0 "HITM share +ok +56.9% \(perf c2c\) vs 56.5% \(c2c-lite\)" "^verdict: PASS" -- \
	--compare falseshare-1.data falseshare-7.c2c
if command -v perf >/dev/null; then
	for s in falseshare-1 trueshare-1; do
		check "$([ $s = trueshare-1 ] && echo 1 || echo 0)" \
			"perf report +ok +first line of the perf.data, perf c2c report/ours: (0x[0-9a-f]+)/\\1" \
			-- --compare $s.data falseshare-1.c2c
	done
else
	check 0 "perf report +skipped" -- --compare falseshare-1.data falseshare-1.c2c
fi
check 1 "top finding +FAIL" "data names +FAIL" "top share +skipped" "^verdict: FAIL" -- \
	--compare trueshare-1.data falseshare-1.c2c
check 1 "expected +FAIL" "^verdict: FAIL" -- --compare falseshare-1.data falseshare-1.c2c \
	--expect buf1
check 0 "top finding +ok +perf c2c: no contended line" "expected +ok" "^verdict: PASS" -- \
	--compare padded-1.data padded-1.c2c --expect -
check 0 "^verdict: PASS" -- -q --compare falseshare-1.data falseshare-1.c2c
[ "$(wc -l <out.txt)" -eq 1 ] || fail "-q: $(cat out.txt)"
# perf stat's TopDown, and our trace without any: skipped, with the reason
printf ',,,,,30,%% tma_retiring\n,,,,,5,%% tma_bad_speculation\n,,,,,15,%% tma_frontend_bound\n,,,,,50,%% tma_backend_bound\n' >td.csv
check 0 "TopDown +skipped +our samples carry no TopDown" -- \
	--compare falseshare-1.data falseshare-1.c2c --perf-stat td.csv

# refusals: a soft trace, a missing file, options of the other mode
"$GEN" -s falseshare -t x.c2c >/dev/null
if "$C2C" record -q --backend=soft -o soft.c2c -- sleep 0.2 2>/dev/null; then
	check 1 "soft.c2c' is a soft trace: the kit compares PMU recordings" -- \
		--compare falseshare-1.data soft.c2c
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "soft trace: $(cat err.txt)"
fi
check 1 "nothing.data" -- --compare nothing.data x.c2c
check 2 "give --hw or --compare" -- --hw --compare a b
check 2 "apply to --hw" -- --compare -o dir a b
check 2 "apply to --compare" -- --hw --expect buf1
check 2 "takes two files" -- --compare a

# --hw: for real on a machine with a memory-sampling PMU, else one line saying why not
if "$C2C" doctor | grep -q '^summary: hardware memory sampling is available' && command -v perf >/dev/null; then
	"$C2C" selftest --hw --seconds 0.5 -o hw >out.txt 2>err.txt
	grep -q '^verdict: ' out.txt || fail "--hw: $(tail -5 out.txt err.txt)"
	grep -q '^machine (c2c-lite doctor):' out.txt || fail "--hw: no machine summary"
	echo "selftest --hw here: $(grep '^verdict: ' out.txt)"
else
	check 1 "^c2c-lite: error: selftest --hw: no hardware memory sampling on this machine \(doctor: " -- --hw
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "--hw refusal: $(cat err.txt)"
fi
# --hw's steps on a machine doctor believes has PEBS (a fake sysfs tree) with a stand-in perf
# that logs its arguments and writes a generated perf.data: the machine summary is doctor's,
# perf c2c record gets the example and its duration, and c2c-lite record --backend=hw, which
# cannot open PEBS events on this VM, is reported as the failure it is, with its log
mkdir fakebin
cat >fakebin/perf <<'P'
#!/bin/sh
echo "perf $*" >>"$FAKE_PERF_LOG"
[ "$1 $2" = "c2c record" ] && "$GEN" -s falseshare -p "$4" >/dev/null
exit 0
P
chmod +x fakebin/perf
EXDIR=$(dirname "$C2C")/examples
FAKE_PERF_LOG=$tmp/perf.log GEN=$GEN PATH=$tmp/fakebin:$PATH C2C_SYSFS_ROOT=$OLDPWD/data/sysfs/sapphire-rapids \
	"$C2C" selftest --hw --seconds 0.3 -o hw >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "--hw with a failing recorder: exit $rc"
grep -q "^  [ ]*cpu .*Xeon(R) Platinum 8480+" out.txt && grep -q "^  \[ok\] pebs-loads" out.txt &&
	grep -q "^  summary: hardware memory sampling is available" out.txt || fail "--hw summary: $(cat out.txt)"
grep -qx "perf --version" perf.log &&
	grep -qx "perf c2c record -o hw/false_sharing.perf.data -- $EXDIR/false_sharing 0.3" perf.log ||
	fail "--hw ran perf as: $(cat perf.log)"
grep -qx "c2c-lite: error: selftest --hw: recording false_sharing failed (see hw/false_sharing.log)" err.txt ||
	fail "--hw failure: $(cat err.txt)"
grep -q "cannot open event" hw/false_sharing.log || fail "--hw log: $(cat hw/false_sharing.log)"
echo "ok"
