#!/usr/bin/env bash
# record -g (issue 18): every backend that records here carries the kernel's frame-pointer
# callchains into the trace. A program built with frame pointers (tests/e2e/lib/callchain-prog.c:
# main -> outer -> middle -> inner, inner hot) is recorded with -e page-faults (ring decoding),
# --backend=soft (cpu-clock, its own parser) and --backend=watch (watchpoints on 'counter'):
#  - every sample has a chain (with dwarf, all but the few whose stack copy failed), and its first address after the context marker is the sample's
#    own ip (page-faults, soft) or the instruction after it (watch: the trap's ip);
#  - the user samples in inner have middle and outer among their callers (nm gives the ranges);
#  - the report reads the trace, and the soft report draws middle and outer under inner's rows;
#  - --call-graph dwarf records the same program built without frame pointers (page-faults,
#    soft, watch): its user stacks are unwound while recording, and reach middle and outer,
#    where the frame-pointer walk does not, also when the workload has exited before the
#    recorder reads its samples (the maps come from the kernel's MMAP records, not only /proc);
#  - bad --call-graph sizes and modes, and lbr (no LBR here), are refused with the reason.
# Backends that cannot open here are skipped one by one (doctor says why).
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
DUMP=$PWD/$BUILD/tests/tools/trace-dump
[ -x "$C2C" ] && [ -x "$DUMP" ] || { echo "fail: c2c-lite or trace-dump not built"; exit 1; }
command -v cc >/dev/null || { echo "skip: no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL [$1]: $2"; fail=1; }

# prog: with frame pointers (-g walks it); nofp: without (only --call-graph dwarf walks it)
cc -O1 -g -fno-omit-frame-pointer -o "$tmp/prog" tests/e2e/lib/callchain-prog.c &&
	cc -O1 -g -fomit-frame-pointer -o "$tmp/nofp" tests/e2e/lib/callchain-prog.c ||
	{ echo "fail: cannot build callchain-prog.c"; exit 1; }
# function ranges [start, end) from nm -S: "name start end", file offsets = link addresses (PIE)
HEX='function hex(s,   i, v) { v = 0; sub(/^0x/, "", s); s = tolower(s)
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v }'
for p in prog nofp; do
	nm -S "$tmp/$p" | awk "$HEX"' $3 ~ /^[Tt]$/ && ($4 == "inner" || $4 == "middle" ||
		$4 == "outer") { printf "%s %.0f %.0f\n", $4, hex($1), hex($1) + hex($2) }' \
		>"$tmp/$p.funcs"
	[ "$(wc -l <"$tmp/$p.funcs")" -eq 3 ] || { echo "fail: nm found no inner/middle/outer"; exit 1; }
done

# check TAG FIRST [PROG [MIN]]: the samples of $tmp/TAG.c2c against the rules above; MIN is the
# share of inner's samples that must reach middle and outer (default 0.9)
check() {
	local tag=$1 first=$2 prog=${3:-prog} min=${4:-0.9}
	"$DUMP" "$tmp/$tag.c2c" >"$tmp/$tag.txt" || { bad "$tag" "trace-dump failed"; return; }
	# the executable's load address: its first MMAP
	awk -v tag="$tag" -v first="$first" -v prog="$tmp/$prog" -v funcs="$tmp/$prog.funcs" \
		-v min="$min" "$HEX"'
	BEGIN { while ((getline l < funcs) > 0) { split(l, w, " "); lo[w[1]] = w[2]; hi[w[1]] = w[3] } }
	function fn(a,   n) { for (n in lo) if (a - base >= lo[n] && a - base < hi[n]) return n; return "" }
	/^MMAP / && index($0, "file=" prog) && !base {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^start=/) s = hex(substr($i, 7))
			if ($i ~ /^pgoff=/) p = hex(substr($i, 7))
		}
		base = s - p
	}
	# confirmation watchpoints of the soft backend (events after cpu-clock) record no chain
	/^SAMPLE / && !/ ev=0 / && tag ~ /soft/ { next }
	/^SAMPLE / {
		n++
		ip = ""; ch = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^ip=/) ip = substr($i, 4)
			if ($i ~ /^chain=/) ch = substr($i, 7)
		}
		if (ch == "") { nochain++; next }
		k = split(ch, c, "/")
		if (first == "ip" && "0x" c[2] != ip) badfirst++
		if (fn(hex(ip)) != "inner") next
		inner++
		m = o = 0
		for (i = 2; i <= k; i++) {
			g = fn(hex(c[i]))
			if (g == "middle") m = 1
			if (g == "outer") o = 1
		}
		if (m && o) walked++
	}
	END {
		printf "%s: %d samples, %d in inner, %d of them with middle and outer as callers\n",
		       tag, n, inner, walked
		if (!n) { print "FAIL [" tag "]: no samples"; exit 1 }
		# dwarf: a sample whose stack could not be copied has no user part (perf shows none)
		if (nochain > n * (tag ~ /^dw/ ? 0.02 : 0)) {
			print "FAIL [" tag "]: " nochain " samples without a callchain"; exit 1 }
		if (badfirst) { print "FAIL [" tag "]: " badfirst " chains do not start at the ip"; exit 1 }
		if (min > 0 && inner && walked < inner * min) { print "FAIL [" tag "]: the walk " \
			"missed middle/outer"; exit 1 }
		if (min < 0 && inner && walked >= inner * -min) { print "FAIL [" tag "]: the " \
			"frame-pointer walk got through code without frame pointers"; exit 1 }
	}' "$tmp/$tag.txt" || fail=1
	"$C2C" report --stdio -i "$tmp/$tag.c2c" >/dev/null 2>"$tmp/$tag.err" ||
		bad "$tag" "report failed: $(head -1 "$tmp/$tag.err")"
}

doctor=$("$C2C" doctor 2>/dev/null)
if "$C2C" record -g -e page-faults -c 1 -o "$tmp/pf.c2c" -- "$tmp/prog" 0.1 >/dev/null 2>"$tmp/e"; then
	check pf ip
else
	echo "skip page-faults: $(head -1 "$tmp/e")"
fi
if echo "$doctor" | grep -q '^\[ok\] soft '; then
	"$C2C" record --backend=soft -g -o "$tmp/soft.c2c" -- "$tmp/prog" 0.5 >/dev/null 2>"$tmp/e" ||
		bad soft "record failed: $(head -1 "$tmp/e")"
	check soft ip
	# the soft report draws the callers under its rows: inner's row, called by middle and outer
	"$C2C" report --stdio -g --show-all -i "$tmp/soft.c2c" 2>/dev/null | awk '
		/^ *0x[0-9a-f]+ / { row = ($0 ~ / inner\+/) } row && /(---|--|  )middle$/ { m = 1 }
		row && /outer$/ { o = 1 } END { exit !(m && o) }' ||
		bad soft "the report's graph under inner's rows names no middle and outer"
	"$C2C" report --stdio --show-all --no-call-graph -i "$tmp/soft.c2c" 2>/dev/null | grep -q -- "---[a-z_]" &&
		bad soft "--no-call-graph still draws a graph"
else
	echo "skip soft: doctor says it cannot record here"
fi
if echo "$doctor" | grep -q '^\[ok\] watch '; then
	"$C2C" record --backend=watch --watch counter -g -o "$tmp/watch.c2c" -- "$tmp/prog" 0.1 \
		>/dev/null 2>"$tmp/e" || bad watch "record failed: $(head -1 "$tmp/e")"
	check watch trap
else
	echo "skip watch: doctor says it cannot record here"
fi

# --call-graph dwarf: the same program without frame pointers, unwound while recording; the
# frame-pointer walk does not get through it
if "$C2C" record --call-graph dwarf -m 1024 -e page-faults -c 1 -o "$tmp/dwpf.c2c" -- \
	"$tmp/nofp" 0 pages >/dev/null 2>"$tmp/e"; then
	check dwpf ip nofp
	# a process that exits before the recorder reads its first sample (a loaded machine: the
	# recorder is stopped until the workload is done) unwinds with the maps the kernel reported
	"$C2C" record --call-graph dwarf -m 1024 -e page-faults -c 1 -o "$tmp/dwstop.c2c" -- sh -c \
		'kill -STOP $PPID; (sleep 0.5; kill -CONT $PPID) & exec "$0" 0 pages' "$tmp/nofp" \
		>/dev/null 2>"$tmp/e" || bad dwstop "record failed: $(head -1 "$tmp/e")"
	check dwstop ip nofp
	"$C2C" record -g -m 1024 -e page-faults -c 1 -o "$tmp/fppf.c2c" -- "$tmp/nofp" 0 pages \
		>/dev/null 2>&1 && check fppf ip nofp -0.5
fi
if echo "$doctor" | grep -q '^\[ok\] soft '; then
	"$C2C" record --backend=soft --call-graph dwarf,16384 -m 1024 -o "$tmp/dwsoft.c2c" -- \
		"$tmp/nofp" 0.5 >/dev/null 2>"$tmp/e" || bad dwsoft "record failed: $(head -1 "$tmp/e")"
	check dwsoft ip nofp
fi
if echo "$doctor" | grep -q '^\[ok\] watch '; then
	"$C2C" record --backend=watch --watch counter --call-graph dwarf -m 1024 \
		-o "$tmp/dwwatch.c2c" -- "$tmp/nofp" 0.05 >/dev/null 2>"$tmp/e" ||
		bad dwwatch "record failed: $(head -1 "$tmp/e")"
	check dwwatch trap nofp 0.5
fi

# trace bytes per sample of one soft recording without callchains, with -g and with dwarf
if echo "$doctor" | grep -q '^\[ok\] soft '; then
	for mode in none -g "--call-graph dwarf"; do
		# shellcheck disable=SC2086
		"$C2C" record --backend=soft ${mode#none} -m 1024 -o "$tmp/size.c2c" -- "$tmp/prog" 2 \
			2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) samples, [0-9]* records, \([0-9]*\) bytes.*/\1 \2/p' |
			awk -v m="$mode" '$1 { printf "soft trace, callchains %s: %.1f bytes/sample (%d samples)\n",
				m, $2 / $1, $1 }'
	done
fi

# refused with the reason, exit status 2, no trace left behind
for cg in dwarf,4 dwarf,70000 dwarf,x fp,8 lbr bogus; do
	"$C2C" record --call-graph "$cg" -e page-faults -o "$tmp/no.c2c" -- true >/dev/null 2>"$tmp/e"
	rc=$?
	[ $rc -eq 2 ] && grep -q -- "--call-graph" "$tmp/e" && [ "$(wc -l <"$tmp/e")" -le 2 ] ||
		bad "--call-graph $cg" "exit $rc, not refused with one line: $(head -1 "$tmp/e")"
	[ -e "$tmp/no.c2c" ] && bad "--call-graph $cg" "a trace was left behind"
done
[ $fail -eq 0 ] && echo "record -g: callchains on every backend that records here"
exit $fail
