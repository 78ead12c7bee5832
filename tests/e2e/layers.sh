#!/usr/bin/env bash
# The dependency rules of docs/architecture.md, checked on the includes of product code:
# - lib/ and include/c2c/ include neither record/, report/ nor tui/;
# - record/ includes no report/ or tui/ header, report/ no record/ or tui/ header;
# - the printers (report/stdio/, report/json/, tui/) read the model only: no header of
#   report/aggregate/, report/read/ or report/resolve/;
# - no product file is over 1,200 lines.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# includes FILES... : "file: header" for every quoted include
includes() {
	grep -H -o '^#include "[^"]*"' "$@" 2>/dev/null | sed 's/#include "\(.*\)"/\1/'
}

check() {  # WHAT PATTERN FILES...: no include of FILES matches PATTERN
	local what=$1 pat=$2; shift 2
	local hits
	hits=$(includes "$@" | grep -E ":($pat)" || true)
	[ -z "$hits" ] || bad "$what: $(echo "$hits" | tr '\n' ' ')"
}

shopt -s nullglob
check "lib includes a side" 'record/|report/|tui/' lib/*.[ch] include/c2c/*.h
check "record includes report or tui" 'report/|tui/' record/*.[ch]
check "report includes record or tui" 'record/|tui/' report/*.[ch] report/*/*.[ch]
check "a printer includes a stage below the model" \
	'report/(aggregate|read|resolve)/' report/stdio/*.[ch] report/json/*.[ch] tui/*.[ch]

for f in lib/*.c record/*.c report/*.c report/*/*.c tui/*.c c2c-lite.c; do
	n=$(wc -l < "$f")
	[ "$n" -le 1200 ] || bad "$f has $n lines (at most 1200)"
done
[ $fail -eq 0 ] && echo "layers: dependency rules and file sizes hold"
exit $fail
