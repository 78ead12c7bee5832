#!/usr/bin/env bash
# End-to-end test of the estimate report (soft and watch backends): a small program built with
# -g gives real addresses, estimate-gen writes soft and watch traces against it, and
# `c2c-lite report --stdio` must name the functions, source lines and members, give the right
# verdicts and say the figures are estimates. Skips (77) without a C compiler.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/estimate-gen
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || { echo "skip: no C compiler"; exit 77; }
[ -x "$GEN" ] || { echo "fail: $GEN is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0


"$CC" -g -O1 -o "$tmp/prog" tests/e2e/lib/estimate-prog.c || { echo "skip: cannot build the test program"; exit 77; }

want() {   # file text...: each text must appear in file
	local f=$1; shift
	for t in "$@"; do
		if ! grep -qF -- "$t" "$f"; then
			echo "FAIL: '$t' missing from $(basename "$f")"
			fail=1
		fi
	done
}
lacks() {
	local f=$1; shift
	for t in "$@"; do
		if grep -qF -- "$t" "$f"; then
			echo "FAIL: '$t' unexpected in $(basename "$f")"
			fail=1
		fi
	done
}

for s in soft-false soft-true soft-none watch; do
	"$GEN" -s "$s" --elf "$tmp/prog" -t "$tmp/$s.c2c" || { echo "FAIL: cannot generate $s"; exit 1; }
	"$C2C" report --stdio -i "$tmp/$s.c2c" >"$tmp/$s.out" 2>"$tmp/$s.err" ||
		{ echo "FAIL: report of $s"; fail=1; }
done

want "$tmp/soft-false.out" "ESTIMATED FIGURES" "FALSE SHARING" "writer_a+0x4" "estimate-prog.c:7" \
	"buf1.a" "buf1.b" "stack push/pop/call/ret" "base/index register overwritten" \
	"80 (89.89% of samples, 89.89% of time)" \
	"advice: buf1.a (written by tid 101) and buf1.b (written by tid 102) share a 64-byte line: put them on separate lines"
want "$tmp/soft-true.out" "TRUE SHARING" "bump+0x4" "counter" \
	"advice: counter is written by 4 threads (tid 201, tid 202, tid 203, tid 204)"
lacks "$tmp/soft-true.out" "FALSE SHARING"
want "$tmp/soft-none.out" "no contended cacheline: nothing to fix" "2 (0 contended)"
lacks "$tmp/soft-none.out" "SHARING"
# CPU 0 writes buf1.a while CPU 1 reads it and writes buf1.b: both kinds
want "$tmp/watch.out" "COUNTED FROM WATCHPOINT HITS" "Xfers" "TRUE+FALSE SHARING" "19 transfers"
lacks "$tmp/watch.out" "ESTIMATED"
for f in "$tmp"/*.out; do
	n=$(grep -c ' 0 *n/a\| n/a *0 ' "$f" || true)
	[ "$n" = 0 ] || { echo "FAIL: a PMU column reads 0 next to n/a in $(basename "$f")"; fail=1; }
done

# Deterministic: the same trace twice gives the same bytes.
"$C2C" report --stdio -i "$tmp/soft-false.c2c" >"$tmp/again.out" 2>/dev/null
cmp -s "$tmp/soft-false.out" "$tmp/again.out" || { echo "FAIL: output differs between runs"; fail=1; }

# Bad input: one line naming the file, non-zero exit, no crash.
echo "not a trace" >"$tmp/bad.c2c"
if "$C2C" report --stdio -i "$tmp/bad.c2c" >/dev/null 2>"$tmp/bad.err"; then
	echo "FAIL: a bad file was accepted"; fail=1
fi
want "$tmp/bad.err" "bad.c2c"
# A file cut short: what was read is reported, and the report says so.
head -c 300 "$tmp/soft-false.c2c" >"$tmp/cut.c2c"
"$C2C" report --stdio -i "$tmp/cut.c2c" >"$tmp/cut.out" 2>"$tmp/cut.err"
rc=$?
if [ $rc -ge 128 ]; then
	echo "FAIL: crash (exit $rc) on a truncated file"; fail=1
elif [ $rc = 0 ]; then
	want "$tmp/cut.out" "TRUNCATED"
else
	want "$tmp/cut.err" "cut.c2c"
fi

# Options that do not apply to these traces are refused with the reason, never ignored.
for o in "-d rmt" "-N" "-c tid,iaddr"; do
	# shellcheck disable=SC2086
	if "$C2C" report --stdio $o -i "$tmp/soft-false.c2c" >/dev/null 2>"$tmp/opt.err"; then
		echo "FAIL: '$o' accepted on a soft trace"; fail=1
	fi
	[ "$(wc -l <"$tmp/opt.err")" = 1 ] && grep -q "does not apply to soft-backend traces" "$tmp/opt.err" ||
		{ echo "FAIL: '$o': $(cat "$tmp/opt.err")"; fail=1; }
done
# Options that apply change the output.
"$C2C" report --stdio --stats -i "$tmp/soft-false.c2c" >"$tmp/stats.out" 2>/dev/null
want "$tmp/stats.out" "Data address recovered"
lacks "$tmp/stats.out" "Cache Line Table" "What to fix"
"$C2C" report --stdio --summary 0 -i "$tmp/soft-false.c2c" >"$tmp/nosum.out" 2>/dev/null
lacks "$tmp/nosum.out" "What to fix"
want "$tmp/nosum.out" "Cache Line Distribution Pareto"
"$C2C" report --stdio --no-data-names -i "$tmp/soft-false.c2c" >"$tmp/nonames.out" 2>/dev/null
lacks "$tmp/nonames.out" "Cacheline  Data" "Source:Line                     Data"
want "$tmp/nonames.out" "  -  FALSE SHARING"
cmp -s "$tmp/soft-false.out" "$tmp/nonames.out" && { echo "FAIL: --no-data-names changed nothing"; fail=1; }

[ $fail = 0 ] && echo "estimate-report: ok"
exit $fail
