#!/usr/bin/env bash
# End to end, watch backend: where in a watched word each hit went, and the duty cycle that
# bounds the watchpoints' cost (issue "Verdicts you can trust on real programs", item 2).
# tests/e2e/lib/watch-prog.c: thread 0 writes A.x and B.x, thread 1 A.y and B.y (offset 4 of
# each 8-byte word), B.y loaded by an instruction that overwrites its own base register.
#   - offsets: with --watch A/8 --watch B/8, hits at A+4 and B+4 are reported at offset 4 of
#     their words (A.y, B.y), not at the words' starts; B.y's load is placed by its displacement
#     ("inferred"), the rest from the registers ("exact"); at -O0 and -O2; no TRUE SHARING.
#   - duty cycle: a long tight run with the default bound pauses the watchpoints and the report
#     says what the counts then mean; --watch-overhead=unlimited never pauses and says so.
# Skips (77) when watchpoints cannot be opened here.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
CC=${CC:-cc}
[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
if ! "$C2C" doctor 2>/dev/null | grep -q '^\[ok\] watch '; then
	echo "skip: the watch backend cannot record here"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL [$1]: $2"
	fail=1
}
json() {  # FILE PYTHON-EXPRESSION over d
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}

for opt in O0 O2; do
	"$CC" -g -"$opt" -pthread -o "$tmp/prog-$opt" tests/e2e/lib/watch-prog.c ||
		{ echo "skip: cannot build the test program"; exit 77; }
	t=$tmp/$opt
	if ! "$C2C" record --backend=watch --watch A/8 --watch B/8 -o "$t.c2c" -- \
		"$tmp/prog-$opt" 200000 >"$t.rec" 2>&1; then
		bad "$opt" "record failed: $(tail -1 "$t.rec")"
		continue
	fi
	"$C2C" report --stdio --show-all -i "$t.c2c" >"$t.txt" 2>&1 || bad "$opt" "report failed"
	"$C2C" report --json -i "$t.c2c" >"$t.json" 2>&1 || bad "$opt" "report --json failed"
	# the linker may put B before A: members are judged by their offset within the word
	seen=
	while read -r off name; do
		case $name in
		A.x | B.x) [ $((off % 8)) -eq 0 ] || bad "$opt" "$name shown at offset $off" ;;
		A.y | B.y) [ $((off % 8)) -eq 4 ] || bad "$opt" "$name shown at offset $off" ;;
		*) continue ;;
		esac
		seen="$seen $name"
	done < <(awk '$1 ~ /^0x[0-9a-f]+$/ && NF > 10 { print $1, $NF }' "$t.txt")
	for m in A.x A.y B.x B.y; do
		[[ " $seen " == *" $m "* ]] || bad "$opt" "no row named $m"
	done
	exact=$(json "$t.json" 'd["statistics"]["offsets"]["exact"]')
	inferred=$(json "$t.json" 'd["statistics"]["offsets"]["inferred"]')
	word=$(json "$t.json" 'd["statistics"]["offsets"]["word_start"]')
	[ "${exact:-0}" -gt 0 ] && [ "${inferred:-0}" -gt 0 ] && [ "${word:-1}" -eq 0 ] ||
		bad "$opt" "offsets: exact ${exact:-?}, inferred ${inferred:-?}, word start ${word:-?}"
	grep -q 'TRUE SHARING' "$t.txt" && bad "$opt" "true sharing reported for members no two threads share"
	json "$t.json" 'd["header"]["watch_duty"]["text"]' >/dev/null 2>&1 ||
		bad "$opt" "no watch_duty in the JSON header"
	echo "ok: -$opt offsets: $exact exact, $inferred inferred"
done

# The duty cycle: unlimited never pauses; a long run under the default bound does.
"$C2C" record --backend=watch --watch A/8 --watch-overhead=unlimited -o "$tmp/u.c2c" -- \
	"$tmp/prog-O2" 20000 >"$tmp/u.rec" 2>&1 || bad unlimited "record failed: $(tail -1 "$tmp/u.rec")"
"$C2C" report --stdio -i "$tmp/u.c2c" >"$tmp/u.txt" 2>&1
grep -q 'armed for the whole run' "$tmp/u.txt" || bad unlimited "the report does not say every access was counted"
"$C2C" record --backend=watch --watch A/8 -o "$tmp/d.c2c" -- "$tmp/prog-O2" 20000000 \
	>"$tmp/d.rec" 2>&1 || bad duty "record failed: $(tail -1 "$tmp/d.rec")"
# record says so in a short line, the bound under -v (record's info lines fit 100 columns)
grep -q 'watch backend: paused to bound its overhead' "$tmp/d.rec" ||
	bad duty "record does not say it paused the watchpoints"
"$C2C" report --stdio -i "$tmp/d.c2c" >"$tmp/d.txt" 2>&1
grep -q 'watchpoints were paused whenever' "$tmp/d.txt" || bad duty "the report does not say so"
"$C2C" report --json -i "$tmp/d.c2c" >"$tmp/d.json" 2>&1
sw=$(json "$tmp/d.json" 'd["header"]["watch_duty"]["switches"]' 2>/dev/null)
[ "${sw:-0}" -gt 0 ] || bad duty "no pause in the duty cycle (switches ${sw:-?})"
# refused where it does not apply
"$C2C" record --backend=soft --watch-overhead=50 -o "$tmp/x.c2c" -- true >"$tmp/x.rec" 2>&1 &&
	bad refuse "--watch-overhead accepted without --backend=watch"
[ $fail -eq 0 ] && echo "ok: duty cycle paused $sw times under the default bound; unlimited never"
exit $fail
