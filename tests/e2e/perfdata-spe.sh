#!/usr/bin/env bash
# Arm SPE perf.data files against perf 6.1, which decodes SPE AUX data on any host (issue 15).
# `c2c-gen --perf spe,...` writes what `perf c2c record` writes on arm64: the arm_spe_0 event and
# dummy:u, AUXTRACE_INFO, the samples as SPE records (tests/tools/gen/spe-enc.c: every header
# form, CONTEXT packets, branch records, alignment and PAD) in per-CPU AUXTRACE buffers with their
# AUX and ITRACE_START records, context switches, TIME_CONV, the HEADER_AUXTRACE index. Scenarios:
#  - speclusters: false sharing across two clusters (peer-cluster, local-cluster, peer-core,
#    remote and system-cache loads; stores; a padded control line);
#  - spedsrc: every data source packet value with every event set, on Neoverse N1, N2, V1 (and
#    N1 r3p1: perf matches all variants and revisions), and on V2 and Cortex-A76, outside perf
#    6.1's Neoverse list (its generic decoding from the events);
#  - no HEADER_AUXTRACE index (perf then finds the AUXTRACE records as it reads), no CONTEXT
#    packets (tasks from the context switches), the last buffer of each CPU cut inside a packet,
#    bad bytes inside and between records, zstd, -a, the old TIME_CONV, chaos and multiproc.
# For each file:
#  - `perf report -D`: every AUX packet's offset, length and description, as c2c-lite's decoder
#    walks the same bytes (tests/tools/spe-dump);
#  - `perf script --itrace=M` against c2c-lite's reader (perfdata-dump -F): every sample's comm
#    pid tid cpu time event addr weight ip symbol dso phys_addr data_src, in order;
#  - `perf c2c report --stdio` against `c2c-lite report --stdio` on the same file (default, which
#    is -d peer on arm64, and -N, -NN, -d tot/lcl/rmt/peer, -c, --stats, --show-all), and on the
#    file converted to a c2c-lite trace (tests/e2e/lib/perf-diff.sh);
#  - corrupt and cut AUX data: every warning names a file offset inside an AUXTRACE payload.
# Then: pipe mode through a real pipe (perf script only: perf 6.1's c2c report cannot read pipe
# mode), the converted trace's size per sample, and convert --keep-aux. Skips (77) without
# perf 6.1.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
. tests/e2e/lib/perf-diff.sh
diff_setup
export PERF_SCRIPT_ARGS=--itrace=M

ALL=comm,pid,tid,cpu,time,event,addr,weight,ip,sym,dso,phys,dsrc
FULL=("" "-N" "-NN" "-d tot" "-d lcl" "-d rmt" "-d peer" "-c tid,iaddr" "-c pid" "--stats"
      "--show-all" "-d rmt -NN --show-all")
SHORT=("" "-NN" "-d tot" "-d lcl" "-d rmt" "--stats" "-c tid,iaddr --show-all")
checks=0 pkts=0
SPEDUMP=$PWD/$BUILD/tests/tools/spe-dump

# spe NAME SCENARIO SAMPLES TRAITS [report option sets (default: SHORT)...]
spe() {
	local name=$1 sc=$2 n=$3 tr=$4 o p=$tmp/$1
	shift 4
	[ $# -gt 0 ] || set -- "${SHORT[@]}"
	if ! "$GEN" -s "$sc" -n "$n" --arch aarch64 -p "$p.perf.data" --perf "$tr"; then
		echo "FAIL $name: c2c-gen --perf $tr"; fail=$((fail + 1)); return
	fi
	same_view "$name" "$p.perf.data" "$ALL"
	packets "$name"
	for o in "$@"; do
		# shellcheck disable=SC2086
		INPUT=perf.data check "$name" "$p" $o
	done
	if "$C2C" convert -q "$p.perf.data" -o "$p.c2c" 2>"$tmp/conv.err"; then
		INPUT=c2c check "$name (converted)" "$p"
		INPUT=c2c check "$name (converted)" "$p" -d rmt -NN --show-all
	else
		echo "FAIL $name: c2c-lite convert: $(head -1 "$tmp/conv.err")"; fail=$((fail + 1))
	fi
	checks=$((checks + 1))
}

# aux_ranges: from perf report -D (stdin), where each AUXTRACE payload lies: "OFFSET SIZE" lines.
aux_ranges() {
	sed -n 's/^[0-9]* [0-9]* \(0x[0-9a-f]*\) \[\(0x[0-9a-f]*\)\]: PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\).*/\1 \2 \3/p' |
		while read -r off hdr len; do echo $((off + hdr)) $((len)); done
}

# packets NAME: every packet perf report -D shows of NAME's AUX data, offset, length and
# description, equal to what c2c-lite's decoder makes of the same bytes (tests/tools/spe-dump).
packets() {
	local name=$1 p=$tmp/$1
	perf report -D -i "$p.perf.data" 2>/dev/null >"$p.D"
	awk '/ARM SPE data: size/ { on = 1; next }
	     on && /^\.  [0-9a-f]+: / {
		off = substr($0, 4, 8); sub(/^0+/, "", off); if (off == "") off = "0"
		hx = substr($0, 14, 48); n = gsub(/[0-9a-f][0-9a-f]/, "&", hx)
		print off, n, substr($0, 63); next }
	     { on = 0 }' "$p.D" >"$p.pk.want"
	aux_ranges <"$p.D" | "$SPEDUMP" "$p.perf.data" >"$p.pk.got"
	pkts=$((pkts + $(wc -l <"$p.pk.want")))
	if [ ! -s "$p.pk.want" ] || ! cmp -s "$p.pk.want" "$p.pk.got"; then
		echo "FAIL $name: packets differ from perf report -D"
		diff "$p.pk.want" "$p.pk.got" | head -6; fail=$((fail + 1))
	fi
}

# offsets NAME WHAT: c2c-lite's warnings about the AUX data of NAME name file offsets, each
# inside the payload of an AUXTRACE record as perf report -D lists them; WHAT must be among them.
offsets() {
	local name=$1 what=$2 p=$tmp/$1
	"$C2C" report --stdio -i "$p.perf.data" 2>"$p.warn" >/dev/null
	aux_ranges <"$p.D" | awk '{ print $1, $1 + $2 }' >"$p.aux"
	if ! grep -q "$what" "$p.warn"; then
		echo "FAIL $name: no warning '$what'"; fail=$((fail + 1)); return
	fi
	if ! awk 'NR == FNR { from[NR] = $1; to[NR] = $2; n = NR; next }
		  /Arm SPE data/ {
			if (!match($0, /offset [0-9]+:/)) { print "no offset: " $0; bad = 1; next }
			o = substr($0, RSTART + 7, RLENGTH - 8) + 0; in_aux = 0
			for (i = 1; i <= n; i++) if (o >= from[i] && o < to[i]) in_aux = 1
			if (!in_aux) { print "not in AUX data: " $0; bad = 1 }
			seen++
		  }
		  END { exit bad || !seen }' "$p.aux" "$p.warn"; then
		echo "FAIL $name: warning offsets"; fail=$((fail + 1))
	fi
}

spe clusters speclusters 3000 spe "${FULL[@]}"
INPUT=perf.data PERF_EXPECT="Peer" check "clusters (Peer Snoop columns)" "$tmp/clusters"
for midr in 0x410fd0c0 0x410fd490 0x410fd400 0x413fd0c1 0x410fd4f0 0x410fd0b0; do
	spe "dsrc-$midr" spedsrc 1152 "spe,midr=$midr"
done
spe noindex speclusters 1500 spe,noauxindex
spe noctx speclusters 1500 spe,noctx "${FULL[@]}"
spe noctx-noindex multiproc 1200 spe,noctx,noauxindex
spe cut speclusters 1500 spe,auxcut "${FULL[@]}"
offsets cut "packet cut short"
spe bad speclusters 1500 spe,spebad,speseed=3
offsets bad "invalid packet"
spe bad-cut chaos 1500 spe,spebad,auxcut,speseed=4
spe zstd speclusters 1500 spe,zstd
spe system speclusters 1000 spe,system
spe oldtc speclusters 1000 spe,oldtc
spe chaos chaos 2000 spe,speseed=5
spe chaos-noctx chaos 2000 spe,noctx,speseed=6
spe multiproc multiproc 1600 spe

# Pipe mode: perf reads each AUXTRACE payload into a copy of its own, so alignment packets count
# from the copy's start. Through a real pipe (perf 6.1 given a pipe-mode file by name seeks 16
# bytes short of each payload); the report of the same records in file mode stands for perf's.
p=$tmp/pipe
"$GEN" -s speclusters -n 1500 --arch aarch64 -p "$p.perf.data" --perf spe,pipe || exit 1
# shellcheck disable=SC2002
cat "$p.perf.data" | perf script -i - --itrace=M -F tid,time,addr,weight,ip,phys_addr --ns \
	2>/dev/null | awk '{ t = $2; sub(/:$/, "", t); sub(/\./, "", t); sub(/^0+/, "", t)
			     print $1, t, $3, $4, $5, $6 }' >"$p.want"
# shellcheck disable=SC2002
cat "$p.perf.data" | "$DUMP" -F tid,time,addr,weight,ip,phys - 2>/dev/null >"$p.got"
if [ ! -s "$p.want" ] || ! cmp -s "$p.want" "$p.got"; then
	echo "FAIL pipe: samples differ from perf script through a pipe"
	diff "$p.want" "$p.got" | head -6; fail=$((fail + 1))
fi
"$GEN" -s speclusters -n 1500 --arch aarch64 -p "$tmp/pipefile.perf.data" --perf spe || exit 1
PERF_INPUT=$tmp/pipefile.perf.data INPUT=perf.data check "pipe (report)" "$p"

# The converted trace holds decoded samples, not the AUX data: at most 16 bytes a sample.
"$GEN" -s speclusters -n 20000 --arch aarch64 -p "$tmp/big.perf.data" --perf spe,speseed=7 || exit 1
"$C2C" convert "$tmp/big.perf.data" -o "$tmp/big.c2c" >"$tmp/big.out" 2>&1
bps=$(sed -n 's/^ *c2c-lite: *[0-9]* bytes *\([0-9.]*\) bytes\/sample.*/\1/p' "$tmp/big.out")
n=$(sed -n 's/^converted [0-9]* records (\([0-9]*\) samples).*/\1/p' "$tmp/big.out")
if [ "${n:-0}" != 20000 ] || ! awk -v b="${bps:-99}" 'BEGIN { exit !(b <= 16) }'; then
	echo "FAIL convert: ${n:-?} samples, ${bps:-?} bytes a sample"; cat "$tmp/big.out"
	fail=$((fail + 1))
fi
# --keep-aux: the AUX data as well, raw, and the same report; refused where there is none.
cp "$tmp/clusters.perf.data" "$tmp/keep.perf.data"
if "$C2C" convert -q --keep-aux "$tmp/keep.perf.data" -o "$tmp/keep.c2c" &&
   [ "$(stat -c %s "$tmp/keep.c2c")" -gt $(($(stat -c %s "$tmp/clusters.c2c") * 3)) ]; then
	INPUT=c2c check "clusters (converted, --keep-aux)" "$tmp/keep" -NN
else
	echo "FAIL convert --keep-aux: no trace, or no AUX data in it"; fail=$((fail + 1))
fi
"$GEN" -s falseshare -n 100 -p "$tmp/x86.perf.data" || exit 1
if "$C2C" convert -q --keep-aux "$tmp/x86.perf.data" -o "$tmp/x86.c2c" 2>"$tmp/keep.err" ||
   ! grep -q "no Arm SPE" "$tmp/keep.err"; then
	echo "FAIL convert --keep-aux of an x86 file: not refused"; fail=$((fail + 1))
fi
echo "$checks SPE files, $pkts packets, $views sample views, $runs report comparisons," \
     "$fail different" \
     "(convert: ${bps:-?} bytes/sample)"
[ $fail -eq 0 ]
