#!/usr/bin/env bash
# Every event name that `record -e list` prints on this machine records with `-e NAME` (the
# names on fake machines of every vendor: tests/test_eventlist.c).
. tests/e2e/record-lib/common.sh

"$C2C" record -e list >"$TMP/list" || fail "-e list failed"
# names: the first word of each line indented by two spaces, and each word after " OR "
names=$(sed -n 's/^  \([^ ]\)/\1/p' "$TMP/list" | sed 's/  \[.*//; s/ OR / /g')
n=0
for e in $names; do
	"$C2C" record -q -e "$e" -o "$TMP/e.data" -- "$WL" exit 0 >/dev/null 2>"$TMP/err" ||
		fail "'-e list' prints '$e', but 'record -e $e' fails: $(cat "$TMP/err")"
	"$DUMP" "$TMP/e.data" | grep -q '^end records=.* truncated=0' || fail "-e $e: trace incomplete"
	n=$((n + 1))
done
[ $n -ge 10 ] || fail "only $n names in: $(cat "$TMP/list")"
echo "ok: $n event names recorded"
