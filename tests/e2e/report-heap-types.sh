#!/usr/bin/env bash
# End to end, data-type profiling in the report: heap memory that no symbol names is named from
# the instruction of each sample and the DWARF location of the pointer it goes through.
# c2c-gen writes MMAP2 records of examples/heap_sharing.c (built here with cc -O1 -g, as `make`
# builds the examples, but never with sanitizers, whose shadow checks are memory accesses too) and
# samples at the memory instructions of count_hits and count_misses (taken from objdump), each
# touching the [heap] line at the member's offset. The Pareto must name the rows c->hits and
# c->misses and the line "heap of pid 4400: *c (struct counters, 64 bytes)", on the trace and on
# the perf.data; perf c2c report (6.1) must print the same as c2c-lite --no-data-names, and the
# named report must be perf's lines plus names only. Skips (77) without objdump/readelf; the
# comparison with perf is skipped without perf 6.1.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
NAMES=$PWD/tests/tools/pareto-names.awk
. tests/e2e/lib/spec.sh
for t in cc objdump readelf stat; do
	command -v $t >/dev/null || { echo "skip: $t not installed"; exit 77; }
done
[ -x "$GEN" ] || { echo "fail: $GEN is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BIN=$tmp/heap_sharing
cc -O1 -g -fno-omit-frame-pointer -pthread -Iexamples -o "$BIN" examples/heap_sharing.c ||
	{ echo "FAIL: cannot build examples/heap_sharing.c"; exit 1; }
trap '' PIPE
export HOME=$tmp/home PERF_BUILDID_DIR=$tmp/home/.debug
unset DEBUGINFOD_URLS
mkdir -p "$HOME"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

base=$((0x555555554000))
{
	spec_maps "$BIN" $base "$(bid_of "$BIN")"
	# the memory operands through a register (not rip-relative) of the two counting loops
	objdump -d --no-show-raw-insn "$BIN" | awk '
		/^[0-9a-f]+ <count_hits>:/ { off = 0; next }
		/^[0-9a-f]+ <count_misses>:/ { off = 8; next }
		/^$/ { off = -1 }
		off >= 0 && /\(%r/ && !/%rip/ { sub(":", "", $1); print $1, off }' |
		while read -r a off; do printf 'code %x %x\n' $((base + 0x$a)) "$off"; done
} >"$tmp/heap.spec"
n=$(grep -c '^code' "$tmp/heap.spec")
[ "$n" -ge 4 ] || { echo "FAIL: found $n memory instructions in count_hits/count_misses"; exit 1; }
"$GEN" -s spec --spec "$tmp/heap.spec" -n 2000 -t "$tmp/heap.c2c" -p "$tmp/heap.perf.data" ||
	{ echo "FAIL: c2c-gen"; exit 1; }

for in in c2c perf.data; do
	out=$tmp/named.$in
	"$C2C" report --stdio -i "$tmp/heap.$in" >"$out" 2>"$tmp/err" || { bad "report ($in)"; continue; }
	grep -Eq '^ +0 .* 0x[0-9a-f]+  heap of pid 4400: \*c \(struct counters, 64 bytes\)$' "$out" ||
		bad "($in) the line heading does not name *c (struct counters, 64 bytes) on the heap"
	# every Pareto row of count_hits is c->hits, of count_misses c->misses
	awk '/Distribution Pareto/ { p = 1 } p && /\[\.\] count_/ {
		want = /count_hits/ ? "c->hits" : "c->misses"; rows++
		if ($NF != want) { print "row names " $NF ", want " want ": " $0; bad = 1 } }
		END { if (rows < 4) { print rows " rows of count_hits/count_misses"; bad = 1 }; exit bad }' \
		"$out" || bad "($in) Data column"
	grep -q 'c->hits .*count_hits' "$out" || bad "($in) the summary does not name c->hits"
	"$C2C" report --stdio -v -i "$tmp/heap.$in" 2>/dev/null | grep -q 'c->misses' ||
		bad "($in) -v loses the names"
done

if command -v perf >/dev/null 2>&1 && perf version 2>/dev/null | grep -q ' 6\.1\.'; then
	perf c2c report --stdio -i "$tmp/heap.perf.data" 2>/dev/null | sed -n '/^=====/,$p' >"$tmp/want"
	grep -q '\[\.\] count_hits' "$tmp/want" || bad "perf resolved no count_hits"
	for in in c2c perf.data; do
		"$C2C" report --stdio --no-data-names -i "$tmp/heap.$in" 2>/dev/null |
			sed -n '/^=====/,$p' >"$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" || { bad "($in) differs from perf"; diff "$tmp/want" "$tmp/got" | head; }
		sed -n '/^=====/,$p' "$tmp/named.$in" >"$tmp/named"
		awk -f "$NAMES" "$tmp/want" "$tmp/named" 2>/dev/null || bad "($in) names change perf's lines"
	done
else
	echo "perf 6.1 not installed: the comparison with perf is skipped"
fi
[ $fail = 0 ] && echo "ok: $n instructions, heap rows named c->hits / c->misses"
exit $fail
