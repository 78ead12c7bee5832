#!/usr/bin/env bash
# A one-page ring at a high sample rate overflows: lost records are counted and reported.
. tests/e2e/record-lib/common.sh

"$C2C" record -m 1 -e page-faults -c 1 -o "$TMP/l.data" -- "$WL" threads 2 20000 >/dev/null \
	2>"$TMP/err" || fail "record exited $?: $(cat "$TMP/err")"
"$DUMP" "$TMP/l.data" >"$TMP/l.txt" || fail "trace unreadable"
lost=$(awk '$1 == "LOST" && $3 == "kind=1" { sub("count=", "", $6); n += $6 } END { print n + 0 }' "$TMP/l.txt")
[ "$lost" -gt 0 ] || fail "no lost records with -m 1 (stderr: $(cat "$TMP/err"))"
grep -q "lost .* records.*bigger -m" "$TMP/err" || fail "no advice: $(cat "$TMP/err")"
echo "ok: $lost records lost and reported"
