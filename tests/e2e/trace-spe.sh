#!/usr/bin/env bash
# Arm SPE recorded raw in a c2c-lite trace (record --backend=hw: the facts blob, AUX records each
# followed by its AUX bytes, ITRACE_START and SWITCH records) is decoded at report time by the
# decoder that reads perf.data (report/read/trace-spe.c): the report of such a trace must equal
# the report of the perf.data holding the same AUX data. c2c-gen --perf spe writes the perf.data,
# tests/tools/spe-trace rewrites it as record would have written the trace. For each file:
#  - `c2c-lite report --stdio` of both, with option variants (all but the line naming the file:
#    the Shared Data Cache Line Table, the Pareto table, the summary and the stats);
#  - the trace read as a stream (-i -) gives a report too;
#  - AUX data cut short or corrupt in a trace: warnings with the offset in the CPU's AUX data,
#    never a crash.
# No perf needed.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
CONV=$PWD/$BUILD/tests/tools/spe-trace
[ -x "$GEN" ] && [ -x "$CONV" ] || { echo "fail: c2c-gen or spe-trace is not built"; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$tmp'" EXIT
fail=0 runs=0

VARIANTS=("" "-NN" "-d tot" "-d rmt -NN --show-all" "-c tid,iaddr" "--stats")

# report FILE [options...] > text: the report without its first line (the file's name)
report() {
	local f=$1
	shift
	"$C2C" report --stdio "$@" -i "$f" 2>"$tmp/err" | tail -n +2
}

# spe NAME SCENARIO SAMPLES TRAITS
spe() {
	local name=$1 sc=$2 n=$3 tr=$4 p=$tmp/$1 o
	if ! "$GEN" -s "$sc" -n "$n" --arch aarch64 -p "$p.perf.data" --perf "$tr" ||
	   ! "$CONV" "$p.perf.data" "$p.c2c"; then
		echo "FAIL $name: c2c-gen or spe-trace"; fail=$((fail + 1)); return
	fi
	for o in "${VARIANTS[@]}"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		report "$p.perf.data" $o >"$p.want"
		# shellcheck disable=SC2086
		report "$p.c2c" $o >"$p.got"
		if grep -q "not decoded\|no SPE samples" "$tmp/err"; then
			echo "FAIL $name ($o): $(head -1 "$tmp/err")"; fail=$((fail + 1))
		elif ! grep -q "Shared Data Cache Line Table\|Trace Event Information" "$p.want" ||
		     ! cmp -s "$p.want" "$p.got"; then
			echo "FAIL $name ($o): the trace's report differs from the perf.data's"
			diff "$p.want" "$p.got" | head -10
			fail=$((fail + 1))
		fi
	done
}

spe clusters speclusters 3000 spe
for midr in 0x410fd0c0 0x410fd490 0x410fd400 0x410fd4f0 0x410fd0b0; do
	spe "dsrc-$midr" spedsrc 1152 "spe,midr=$midr"
done
spe noctx speclusters 1500 spe,noctx
spe noctx-noindex multiproc 1200 spe,noctx,noauxindex
spe cut speclusters 1500 spe,auxcut
spe bad-cut chaos 1500 spe,spebad,auxcut,speseed=4
spe oldtc speclusters 1000 spe,oldtc
spe chaos chaos 2000 spe,speseed=5

# A stream is decoded as it comes: a report, its samples decoded.
runs=$((runs + 1))
if ! "$C2C" report --stdio -i - <"$tmp/clusters.c2c" >"$tmp/stream" 2>"$tmp/err" ||
   ! grep -q "Total records *: *[1-9]" "$tmp/stream"; then
	echo "FAIL stream: no SPE samples from -i -"; fail=$((fail + 1))
fi

# Cut and corrupt AUX data: warnings naming an offset, no crash. The report still runs.
hurt() {
	local name=$1 rc
	shift
	runs=$((runs + 1))
	if ! "$CONV" "$tmp/clusters.perf.data" "$tmp/$name.c2c" "$@"; then
		echo "FAIL $name: spe-trace"; fail=$((fail + 1)); return
	fi
	"$C2C" report --stdio -i "$tmp/$name.c2c" >/dev/null 2>"$tmp/$name.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: report exited $rc"; fail=$((fail + 1))
	elif ! grep -q "offset [0-9]*: .*Arm SPE data of cpu" "$tmp/$name.err"; then
		echo "FAIL $name: no warning with an offset"; cat "$tmp/$name.err"; fail=$((fail + 1))
	fi
}
hurt cut7 --cut 7
hurt cut40 --cut 40
hurt corrupt --corrupt 333
# A trace file cut short in the middle: the reader's warning, no crash.
runs=$((runs + 1))
head -c 120000 "$tmp/clusters.c2c" >"$tmp/short.c2c"
"$C2C" report --stdio -i "$tmp/short.c2c" >/dev/null 2>"$tmp/short.err"
rc=$?
if [ $rc -gt 1 ]; then
	echo "FAIL short trace: report exited $rc"; fail=$((fail + 1))
fi

echo "trace-spe: $runs checks, $fail failures"
[ $fail -eq 0 ]
