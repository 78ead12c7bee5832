#!/usr/bin/env bash
# The traits of perf.data files real perf writes (issue "Read every perf.data that real perf
# writes"), each compared with perf 6.1 reading the same file. `c2c-gen --perf TRAITS` writes a
# scenario as perf 6.1 records it with those traits (tests/tools/gen/perf-writer.c names the perf
# function each one imitates); then, for each:
#  - `perf script` against c2c-lite's reader (`perfdata-dump -F`): every sample's comm pid tid cpu
#    time event addr weight ip symbol dso phys_addr data_src, in delivery order (the fields the
#    trait's sample_type has; perf refuses the others);
#  - `perf c2c report --stdio` against `c2c-lite report --stdio` on the same file, default and
#    option variants, and on the file converted to a c2c-lite trace: byte-identical from the
#    first "=====" with --no-data-names, and perf's lines plus data names without
#    (tests/e2e/lib/perf-diff.sh);
#  - LOST, LOST_SAMPLES, THROTTLE and UNTHROTTLE records as `perf report -D` counts them.
# Skips (77) without perf 6.1.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
. tests/e2e/lib/perf-diff.sh
diff_setup

ALL=comm,pid,tid,cpu,time,event,addr,weight,ip,sym,dso,phys,dsrc
NOCPU=comm,pid,tid,time,event,addr,weight,ip,sym,dso,phys,dsrc
NOTIME=comm,pid,tid,cpu,event,addr,weight,ip,sym,dso,phys,dsrc
NOWEIGHT=comm,pid,tid,cpu,time,event,addr,ip,sym,dso,phys,dsrc

# trait NAME SCENARIO SAMPLES TRAITS FIELDS [c2c report option sets beyond the default...]
# perf 6.1's c2c report cannot read pipe mode (its setup_nodes runs before the HEADER_FEATURE
# records are read: "Failed setup nodes"), so for pipe traits the report of the pipe file is
# compared with perf's of the same records written in file mode.
trait() {
	local name=$1 sc=$2 n=$3 tr=$4 fields=$5 o perf_input=
	shift 5
	if ! "$GEN" -s "$sc" -n "$n" -p "$tmp/$name.perf.data" --perf "$tr"; then
		echo "FAIL $name: c2c-gen --perf $tr"; fail=$((fail + 1)); return
	fi
	same_view "$name" "$tmp/$name.perf.data" "$fields"
	if [[ ",$tr," == *,pipe,* ]]; then
		perf_input=$tmp/$name.file.data
		"$GEN" -s "$sc" -n "$n" -p "$perf_input" --perf "$(echo "$tr" | sed 's/,pipe//; s/^pipe,//')"
		if perf c2c report --stdio -i "$tmp/$name.perf.data" 2>&1 >/dev/null |
		   grep -q "Failed setup nodes"; then :; else
			echo "FAIL $name: perf c2c report read pipe mode (the test assumes it cannot)"
			fail=$((fail + 1))
		fi
	fi
	for o in "" "$@"; do
		# shellcheck disable=SC2086
		PERF_INPUT=$perf_input INPUT=perf.data check "$name" "$tmp/$name" $o
	done
	# converted to a c2c-lite trace, the records keep what the report needs (FORK flags, ...)
	if "$C2C" convert "$tmp/$name.perf.data" -o "$tmp/$name.c2c" >/dev/null 2>"$tmp/conv.err"; then
		PERF_INPUT=$perf_input INPUT=c2c check "$name (converted)" "$tmp/$name"
	else
		echo "FAIL $name: c2c-lite convert: $(head -1 "$tmp/conv.err")"; fail=$((fail + 1))
	fi
}

# Two and three events with distinct ids, one per CPU: loads and stores; the mem-loads-aux group
# leader that takes no samples (Sapphire Rapids); cpu_core and cpu_atom events (hybrid).
trait ls falseshare 400 ls "$ALL" "-d lcl" "-c tid,iaddr --show-all"
trait aux falseshare 400 aux "$ALL" "-N"
trait hybrid random 500 hybrid "$ALL" "-d rmt" "-NN"
# A dummy:HG event carries the side-band, the memory events none (IDENTIFIER: the types differ).
trait dummy multiproc 400 ls,dummy "$ALL" "-c pid,iaddr"
# -a: side-band perf synthesizes for running tasks with sample id 0 (FORK with FORK_EXEC, COMM,
# MMAP2), kernel modules, then FINISHED_INIT; the shell's maps cover the workload's unmapped
# addresses, and a synthesized FORK copies none of them.
trait system dsrcall 450 ls,system "$ALL" "--show-all" "-c dso"
trait system-mp multiproc 400 aux,system "$ALL" "-c pid,iaddr"
trait system-chaos chaos 600 ls,system "$ALL" "-d peer --show-all"
# -p: a COMM per thread, the leader's MMAP2s, no FORK
trait pids multiproc 400 ls,pids "$ALL" "-c tid,pid,iaddr"
# a workload's preamble: ID_INDEX (idx = ring buffer, not event), kernel MMAP, THREAD_MAP,
# CPU_MAP, "perf-exec" COMM, FINISHED_INIT; and the same without ID_INDEX
trait init trueshare 300 ls,init "$ALL"
trait noindex trueshare 300 ls,init,noindex "$ALL"
# IDENTIFIER with equal sample types; the older ID position with unequal ones; no id at all
trait identifier trueshare 300 ls,init,id=identifier "$ALL"
trait id-dummy trueshare 300 ls,dummy,id=id "$ALL"
trait noid padded 300 init "$ALL"
# samples without CPU, without PERIOD, without TIME (--per-thread: one id per thread, cpu -1)
trait nocpu falseshare 300 ls,init,nocpu "$NOCPU" "-N"
trait noperiod falseshare 300 ls,init,noperiod "$ALL"
trait perthread random 400 ls,init,perthread "$NOTIME" "-c tid,iaddr"
# WEIGHT and WEIGHT_STRUCT (ins_lat in the upper bits), and no weight
trait weight falseshare 300 ls,init,weight=plain "$ALL"
trait weight-struct falseshare 300 ls,init,weight=struct "$ALL" "-d rmt"
trait weight-none falseshare 300 ls,init,weight=none "$NOWEIGHT"
# no sample_id_all (perf before 2.6.38): perf orders nothing in a file (perf_session__new turns
# ordered_events off); in a pipe it orders the samples and delivers untimed side-band when read
trait noidall chaos 600 noidall "$ALL" "-c tid,iaddr"
trait noidall-ls chaos 600 ls,noidall "$ALL"
trait noidall-pipe chaos 600 ls,noidall,pipe "$ALL"
# pipe mode; zstd-compressed records (4 KiB pushes: records span COMPRESSED records)
trait pipe falseshare 400 ls,init,pipe "$ALL" "-d rmt"
trait pipe-system multiproc 400 aux,system,pipe "$ALL"
trait zstd random 1500 ls,init,zstd "$ALL" "-c pid,iaddr"
trait zstd-system dsrcall 450 ls,system,zstd "$ALL"
trait pipe-zstd falseshare 400 ls,init,pipe,zstd "$ALL"

# attr sizes of older perf versions (PERF_ATTR_SIZE_VER0..7) ...
for size in 64 72 80 96 104 112 120 128; do
	trait "attr$size" falseshare 200 "ls,init,attr=$size" "$ALL"
done
# ... and of perf 6.3+ (VER8, config3), which perf 6.1 refuses ("incompatible file format"):
# c2c-lite reads it, and must print what perf 6.1 prints for the same records with 128 bytes.
"$GEN" -s falseshare -n 200 -p "$tmp/attr136.perf.data" --perf ls,init,attr=136 || exit 1
if perf script -i "$tmp/attr136.perf.data" >/dev/null 2>&1; then
	echo "FAIL attr136: perf 6.1 read a VER8 attr (the test assumes it cannot)"; fail=$((fail + 1))
fi
"$DUMP" -F "$ALL" "$tmp/attr136.perf.data" >"$tmp/ours.view"
cmp -s "$tmp/ours.view" <(perf_view "$tmp/attr128.perf.data" "$ALL") ||
	{ echo "FAIL attr136: samples differ from perf's of attr=128"; fail=$((fail + 1)); }
views=$((views + 1))
PERF_INPUT=$tmp/attr128.perf.data INPUT=perf.data check attr136 "$tmp/attr136"

# LOST, THROTTLE/UNTHROTTLE with the event's id mid-stream; LOST_SAMPLES at the end with a
# zero-time sample id (record__read_lost_samples): in delivery order, the kind, time and count
# perf report -D prints (it prints no count for THROTTLE), and the event of the records' id
lost_view() {
	perf report -D -i "$1" 2>/dev/null |
		awk '/: PERF_RECORD_(LOST|LOST_SAMPLES|THROTTLE|UNTHROTTLE):/ {
			k = $5; sub(/^PERF_RECORD_/, "", k); sub(/:$/, "", k)
			n = "-"; if (k !~ /THROTTLE/ && match($0, /[0-9]+$/)) n = substr($0, RSTART)
			print k, $2, n }' >"$tmp/lost.perf"
	"$DUMP" "$1" | awk '$1 == "L" { split("LOST LOST_SAMPLES THROTTLE UNTHROTTLE", kn, " ")
		print kn[$2], $4, ($2 >= 3 ? "-" : $3) }' >"$tmp/lost.ours"
}
for tr in ls,init aux,system,zstd; do
	name=lost-${tr//,/-}
	trait "$name" lost 600 "$tr" "$ALL"
	lost_view "$tmp/$name.perf.data"
	views=$((views + 1))
	if [ "$(wc -l <"$tmp/lost.perf")" -lt 4 ] || ! cmp -s "$tmp/lost.perf" "$tmp/lost.ours"; then
		echo "FAIL $name: lost records (perf -D, then ours):"
		paste "$tmp/lost.perf" "$tmp/lost.ours"; fail=$((fail + 1))
	fi
	# the id in each is the first sampling event's (the mem-loads-aux leader takes no samples)
	if "$DUMP" "$tmp/$name.perf.data" | awk '$1 == "L" && $5 != "cpu/mem-loads,ldlat=30/P"' |
	   grep -q .; then
		echo "FAIL $name: lost records given to another event"; fail=$((fail + 1))
	fi
done

echo "$views sample views and $runs reports compared with perf 6.1, $fail different"
[ $fail -eq 0 ]
