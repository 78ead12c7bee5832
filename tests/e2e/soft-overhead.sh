#!/usr/bin/env bash
# End to end, soft backend, the record side of issue 16 (its samples take at most 3% of the
# workload's time): without -F or -c, `record` measures what one cpu-clock sample costs a thread
# here and lowers the rate from 4000 Hz so that the samples take at most --soft-overhead percent
# (default 3) of the sampled threads' time, and says so. Checked here:
#   - the option's refusals: 0, 101, words; with -F or -c (they set the rate); with -e or
#     another backend;
#   - with a bound of 1%, on a thread spinning for a second: the measured cost (-v) and the rate
#     obey the rule (rate x cost within 75% of the bound, its aim, and within two significant
#     digits of it, or 4000 Hz when samples are that cheap; where the aim is under 200 Hz, up
#     to 200 Hz within the whole bound, and said; else the floor of 100 Hz), every
#     sample's weight is that
#     rate's period (the kernel's NSEC_PER_SEC / freq), and the thread got about rate samples;
#   - 'unlimited' and -F measure nothing and sample at 4000 Hz and at -F's rate.
# Skips (77) when the soft backend cannot record here.
. tests/e2e/record-lib/common.sh

refused() {  # want-status pattern args...: check (record-lib/common.sh), in one error line
	check "$@"
	[ "$(grep -c error "$TMP/err")" -eq 1 ] || fail "record $*: not one error line: $(cat "$TMP/err")"
}
refused 2 "a percentage from 1 to 100 or 'unlimited', not '0'" --backend=soft --soft-overhead 0 \
	-o "$TMP/x" -- true
refused 2 "not '101'" --backend=soft --soft-overhead 101 -o "$TMP/x" -- true
refused 2 "not 'lots'" --backend=soft --soft-overhead lots -o "$TMP/x" -- true
refused 2 "chooses the sampling rate: not with -F" --backend=soft --soft-overhead 5 -F 1000 \
	-o "$TMP/x" -- true
refused 2 "chooses the sampling rate: not with -c" --backend=soft --soft-overhead 5 -c 100000 \
	-o "$TMP/x" -- true
refused 2 "needs the soft backend" --backend=watch --watch x --soft-overhead 5 -o "$TMP/x" -- true
refused 2 "needs the soft backend" -e cpu-clock --soft-overhead 5 -o "$TMP/x" -- true
[ ! -e "$TMP/x" ] || fail "a refused option left a trace"

"$C2C" doctor >"$TMP/doctor" 2>/dev/null
if ! grep -q '^\[ok\] soft ' "$TMP/doctor"; then
	echo "skip: the soft backend cannot record here"
	exit 77
fi
# doctor says the rate record takes, from the same plan (the kernel's cap included)
grep '^\[ok\] soft ' "$TMP/doctor" | grep -q 'record samples at [0-9]* Hz by default' ||
	fail "doctor does not say the default rate: $(grep '^\[ok\] soft ' "$TMP/doctor")"

# weights FILE: the distinct weights of the timer samples (event 0: cpu-clock; the confirmation
# watchpoints' hits are events of their own), and their count, as "W... N"
weights() {
	"$DUMP" "$1" | awk '/^SAMPLE/ && / ev=0 / { n++; for (i = 1; i <= NF; i++) if ($i ~ /^weight=/)
		w[substr($i, 8)] = 1 } END { for (k in w) printf "%s ", k; print n + 0 }'
}

"$C2C" record -v --backend=soft --soft-overhead 1 -o "$TMP/b.c2c" -- "$WL" spin 1 \
	>/dev/null 2>"$TMP/b.err" || fail "record --soft-overhead 1: $(tail -1 "$TMP/b.err")"
cost=$(sed -n 's/.*a sample costs the sampled thread about \([0-9.]*\) us here.*/\1/p' "$TMP/b.err")
[ -n "$cost" ] || fail "no measured cost said: $(cat "$TMP/b.err")"
rate=$(sed -n 's/.*info: soft backend: sampling at \([0-9]*\) Hz[:,] .*(bound 1%)$/\1/p' \
	"$TMP/b.err")
[ -n "$rate" ] || rate=4000
awk -v c="$cost" -v r="$rate" 'BEGIN {
	a = 0.0075 * 1e6 / c                   # the rate that spends 0.75% (its aim) at c us a sample
	b = 0.01 * 1e6 / c                     # ... and the whole bound
	if (c * 4000 <= 0.75e4 * 1.001) exit !(r == 4000)
	if (a >= 200) exit !(r <= a * 1.01 && r >= a * 0.85)
	w = b < 200 ? b : 200                  # under 200 samples a second: up to the bound
	if (w >= 100) exit !(r <= w * 1.01 && r >= w * 0.85)
	exit !(r == 100)                       # the floor, past the bound
}' || fail "rate $rate Hz breaks the rule for $cost us a sample and a 1% bound"
# under 200 Hz the few samples are said
if [ "$rate" -lt 200 ]; then
	grep -q "soft backend: about $rate samples per thread-second, few" "$TMP/b.err" ||
		fail "$rate Hz and no word of few samples: $(cat "$TMP/b.err")"
fi
read -r w n <<<"$(weights "$TMP/b.c2c")"
[ "$w" = "$((1000000000 / rate))" ] ||
	fail "samples weigh '$w' ns, not the period of $rate Hz ($((1000000000 / rate)))"
[ "$n" -ge $((rate * 3 / 10)) ] && [ "$n" -le $((rate * 3 / 2)) ] ||
	fail "$n samples of a 1 s spin at $rate Hz"
echo "soft-overhead: $cost us a sample: $rate Hz for a 1% bound ($n samples of a 1 s spin)"

"$C2C" record -v --backend=soft --soft-overhead unlimited -o "$TMP/u.c2c" -- "$WL" spin 0.2 \
	>/dev/null 2>"$TMP/u.err" || fail "record unlimited: $(tail -1 "$TMP/u.err")"
! grep -q "a sample costs\|sampling at" "$TMP/u.err" || fail "unlimited measured or lowered"
read -r w n <<<"$(weights "$TMP/u.c2c")"
[ "$w" = 250000 ] || fail "unlimited: samples weigh '$w' ns, not 4000 Hz's 250000"

"$C2C" record -v --backend=soft -F 2000 -o "$TMP/f.c2c" -- "$WL" spin 0.2 \
	>/dev/null 2>"$TMP/f.err" || fail "record -F 2000: $(tail -1 "$TMP/f.err")"
! grep -q "a sample costs\|sampling at" "$TMP/f.err" || fail "-F 2000 measured or lowered"
read -r w n <<<"$(weights "$TMP/f.c2c")"
[ "$w" = 500000 ] || fail "-F 2000: samples weigh '$w' ns, not 500000"
exit 0
