#!/usr/bin/env bash
# End to end, watch backend: hardware watchpoints on the words of the example workloads
# (examples/README.md), recorded with `c2c-lite record --backend=watch --watch ...` and replayed
# by the report's coherence model.
#   false_sharing (buf1.a, buf1.b): line 1 is buf1; its loads and stores are told apart; it has
#     transfers (at least 1% of the accesses), and at least 90% of them are false sharing.
#   padded (buf1.a, buf1.b 64 bytes apart): no false-sharing transfer at all, and transfers in
#     total below 0.01% of the accesses. (Not exactly 0: a transfer is also counted, correctly,
#     when the scheduler moves a thread to the other CPU, and when main reads the counters
#     after the join; the worker threads themselves never move a line between them.)
#   false_sharing with buf1/64 (8 words, more than the 4 debug registers): the registers rotate,
#     the trace and report say so, hits keep coming for the whole run (not only in the first
#     step), and both counters still show false-sharing transfers.
# Skips (77) when watchpoints cannot be opened here (doctor says why).
# WATCH_SECONDS (default 2) sets the length of the first two runs.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
EX=$PWD/$BUILD/examples
DUMP=$PWD/$BUILD/tests/tools/trace-dump
SECS=${WATCH_SECONDS:-2}
[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
for f in "$EX/false_sharing" "$EX/padded" "$DUMP"; do
	[ -x "$f" ] || { echo "fail: $f is not built"; exit 1; }
done
if ! "$C2C" doctor 2>/dev/null | grep -q '^\[ok\] watch '; then
	echo "skip: the watch backend cannot record here:"
	"$C2C" doctor 2>/dev/null | grep -A1 ' watch ' || echo "  (c2c-lite doctor failed)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL [$1]: $2"
	fail=1
}

# record TAG PROGRAM SECONDS WATCH...: trace $tmp/TAG.c2c, report $tmp/TAG.txt
record() {
	local tag=$1 prog=$2 secs=$3; shift 3
	local args=()
	for w in "$@"; do args+=(--watch "$w"); done
	if ! "$C2C" record --backend=watch "${args[@]}" -o "$tmp/$tag.c2c" -- "$EX/$prog" "$secs" \
		>"$tmp/$tag.rec" 2>&1; then
		bad "$tag" "record failed:"; sed 's/^/    /' "$tmp/$tag.rec"
		return 1
	fi
	if ! "$C2C" report --stdio --show-all -i "$tmp/$tag.c2c" >"$tmp/$tag.txt" 2>"$tmp/$tag.err"
	then
		bad "$tag" "report failed:"; sed 's/^/    /' "$tmp/$tag.err"
		return 1
	fi
	grep -q "backend watch" "$tmp/$tag.txt" || bad "$tag" "the report does not say 'backend watch'"
}

# Rows of the cache line table: index addr data accesses loads stores atomics xfers falsex ...
table() {
	awk '/Cache Line Table/ { t = 1 } /Pareto/ { t = 0 } t && $1 ~ /^[0-9]+$/ && $2 ~ /^0x/' \
		"$tmp/$1.txt"
}

# Pareto rows of line 1: offset xfer% accesses loads stores xfers xffalse inval ... data
sites() {
	awk '/Cache Line Distribution Pareto/ { p = 1 }
		p && /^ +-+$/ { dash++ }
		p && dash == 2 && $1 ~ /^0x[0-9a-f]+$/ && NF > 10
		p && dash == 3 { exit }' "$tmp/$1.txt"
}

start=$SECONDS
if record fs false_sharing "$SECS" buf1/16; then
	row=$(table fs | head -1)
	read -r _ _ data _ acc loads stores xf fx _ <<<"$row"
	[ "$data" = buf1 ] || bad fs "line 1 is not buf1: $row"
	[ "${loads:-0}" -gt 0 ] && [ "${stores:-0}" -gt 0 ] ||
		bad fs "loads and stores are not told apart: $row"
	[ "${xf:-0}" -gt 0 ] && [ $((xf * 100)) -ge "$acc" ] ||
		bad fs "fewer transfers than 1% of the accesses: $row"
	[ $((fx * 10)) -ge $((xf * 9)) ] || bad fs "under 90% of the transfers are false sharing: $row"
	grep -Eq ' FALSE SHARING$' <<<"$row" || bad fs "line 1's verdict is not false sharing: $row"
	sites fs | grep -Eq '^ *0x0 .* bump_a\+.* buf1\.a$' || bad fs "no bump_a row on buf1.a"
	sites fs | grep -Eq '^ *0x8 .* bump_b\+.* buf1\.b$' || bad fs "no bump_b row on buf1.b"
fi
if record padded padded "$SECS" buf1/8 buf1+64/8; then
	n=0 tot_acc=0 tot_xf=0
	while read -r _ _ data _ acc _ _ xf fx _; do
		[ "$data" = buf1 ] || continue
		n=$((n + 1)) tot_acc=$((tot_acc + acc)) tot_xf=$((tot_xf + xf))
		[ "$fx" -eq 0 ] || bad padded "false-sharing transfers on a padded line: $fx"
	done < <(table padded)
	[ $n -eq 2 ] || bad padded "expected 2 buf1 lines, found $n"
	[ $tot_acc -gt 0 ] && [ $((tot_xf * 10000)) -lt $tot_acc ] ||
		bad padded "$tot_xf transfers for $tot_acc accesses (expected < 0.01%)"
	grep -q 'Cachelines touched: *2 (0 contended)' "$tmp/padded.txt" ||
		bad padded "the report calls a padded line contended: $(grep 'Cachelines touched' "$tmp/padded.txt")"
fi
if record rot false_sharing 1.5 buf1/64; then
	grep -q "backend: watch, 8 words rotated over 4 debug registers" "$tmp/rot.rec" ||
		bad rot "record did not say it rotates: $(grep backend "$tmp/rot.rec")"
	grep -q "rotated over more words" "$tmp/rot.txt" || bad rot "the report does not say so"
	# hits over the whole run: the first and last hits at least 1 s apart
	span=$("$DUMP" "$tmp/rot.c2c" | awk '/^SAMPLE/ { sub("t=", "", $2); t = $2 + 0
		if (!f) f = t; l = t } END { printf "%d", (l - f) / 1e6 }')
	[ "${span:-0}" -ge 1000 ] || bad rot "hits span only ${span:-0} ms of a 1.5 s run"
	s=$(sites rot)
	for o in 0x0 0x8; do
		awk -v o=$o '$1 == o && $6 > 0 && $7 > 0 { ok = 1 } END { exit !ok }' <<<"$s" ||
			bad rot "no false-sharing transfers at offset $o"
	done
fi
echo "watch-examples: $((SECONDS - start)) s"
if [ $fail -ne 0 ]; then
	for f in "$tmp"/*.txt; do
		echo "---- $(basename "$f")"; sed -n '/Cache Line Table/,/What to fix/p' "$f" | head -30
	done
fi
exit $fail
