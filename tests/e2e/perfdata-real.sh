#!/usr/bin/env bash
# perf.data recorded here with software events (file mode, -z, pipe mode): the perf.data reader
# must deliver exactly the samples `perf script` / `perf report -D` see, with the same fields,
# in time order, and `c2c-lite convert` must count the same samples.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$BUILD/c2c-lite}
DUMP=$BUILD/tests/tools/perfdata-dump
command -v perf >/dev/null || { echo "skip: perf is not installed"; exit 77; }
[ -x "$DUMP" ] || { echo "skip: $DUMP not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# perf's build-id cache is the config's buildid.dir (perf never reads $PERF_BUILDID_DIR): ours
printf '[buildid]\n\tdir = %s\n' "$tmp/buildid" >"$tmp/perfconfig"
export PERF_CONFIG=$tmp/perfconfig PERF_BUILDID_DIR=$tmp/buildid

work=(/bin/sh -c 'for i in 1 2 3; do ls -R /usr/include >/dev/null; done')
rec=(perf record -q -e page-faults -c 1 -d -W --sample-cpu --phys-data)
"${rec[@]}" -o "$tmp/f.data" -- "${work[@]}" 2>"$tmp/err" ||
	{ echo "skip: perf record failed: $(head -1 "$tmp/err")"; exit 77; }
"${rec[@]}" -z -o "$tmp/z.data" -- "${work[@]}" 2>/dev/null || fail "perf record -z"
"${rec[@]}" -o - -- "${work[@]}" >"$tmp/p.data" 2>/dev/null || fail "perf record -o -"

perf_samples() { perf report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE('; }
our_samples() { "$DUMP" -c "$1" | sed -n 's/^samples \([0-9]*\) .*/\1/p'; }

for f in f z p; do
	want=$(perf_samples "$tmp/$f.data")
	got=$(our_samples "$tmp/$f.data") || fail "perfdata-dump $f.data"
	[ "$want" -gt 0 ] || fail "perf saw no samples in $f.data"
	[ "$got" = "$want" ] || fail "$f.data: $got samples, perf report -D has $want"
	"$DUMP" -c "$tmp/$f.data" | grep -q ' backwards 0 ' || fail "$f.data: samples out of time order"
	out=$("$C2C" convert "$tmp/$f.data" -o "$tmp/$f.c2c") || fail "convert $f.data"
	echo "$out" | grep -q "($want samples)" || fail "convert $f.data: $out"
	echo "$f.data: $want samples"
done
# pipe mode from standard input
got=$("$DUMP" -c - <"$tmp/p.data" | sed -n 's/^samples \([0-9]*\) .*/\1/p')
[ "$got" = "$(perf_samples "$tmp/p.data")" ] || fail "stdin: $got samples"
"$C2C" convert - -o "$tmp/stdin.c2c" <"$tmp/p.data" >/dev/null || fail "convert from stdin"

# field by field against perf script, order included (tests/e2e/lib/perf-diff.sh)
. tests/e2e/lib/perf-diff.sh
# (no sym or dso: for page faults perf script names the data address's symbol after addr)
same_view f.data "$tmp/f.data" comm,pid,tid,cpu,time,event,addr,ip,phys,dsrc
[ "$fail" -eq 0 ] || fail "sample fields differ from perf script"
echo "fields of $(wc -l <"$tmp/ours.view") samples match perf script"

# the report side: the statistics sections must equal perf c2c report's on the same file
stats() { awk '/Trace Event Information/ { p = 1 } /Shared Data Cache Line Table/ { p = 0 } p'; }
if "$C2C" report --help >/dev/null 2>&1; then
	for f in f z; do
		"$C2C" report --stdio -i "$tmp/$f.data" 2>"$tmp/rep.err" | stats >"$tmp/ours.rep" ||
			fail "c2c-lite report $f.data: $(head -1 "$tmp/rep.err")"
		perf c2c report --stdio -i "$tmp/$f.data" 2>/dev/null | stats >"$tmp/perf.rep"
		[ -s "$tmp/perf.rep" ] || { echo "perf c2c report printed no statistics; not compared"; continue; }
		diff "$tmp/perf.rep" "$tmp/ours.rep" >"$tmp/rep.diff" ||
			{ head -10 "$tmp/rep.diff"; fail "$f.data: report statistics differ from perf c2c"; }
		echo "$f.data: c2c-lite report statistics match perf c2c report"
	done
fi
exit 0
