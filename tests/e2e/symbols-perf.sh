#!/usr/bin/env bash
# Compares code symbolization (report/resolve/symbols.h) with what perf itself prints: records
# tests/symprogs/prog_inline.c (built -O2, inlined helper) with the cpu-clock software event, then
# for every distinct user-space sample in a file mapping, our symbol must equal perf's Symbol and
# basename(srcfile):line perf's srcline: "FILE:0" or "??:0" where addr2line finds the function but
# no line, and no file at all where it finds nothing (perf script then prints "dso[addr]"; the PLT
# entries of prog_plt). The mappings are taken from perf's own MMAP2 events, so
# this also checks the runtime address -> file offset -> ELF address path on real mappings
# (PIE executable, ld.so, libc). Skips when perf cannot record here.
set -u
# addr2line and this perf do not ask debuginfod servers; neither may we, to compare like with like
unset DEBUGINFOD_URLS
for t in cc perf pkg-config; do
	command -v $t >/dev/null || { echo "skip: $t not installed"; exit 77; }
done
BUILD=${BUILD:-build}
[ -f "$BUILD/libc2c.a" ] || { echo "missing $BUILD/libc2c.a (run make first)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the driver links the archive under test with the Makefile's libraries; a sanitizer build (make
# check) needs the runtime too, and a build with C++ demangling libiberty
libs=$(pkg-config --libs libelf libdw capstone)
for san in "" "-fsanitize=address,undefined"; do
	for iberty in "" -liberty; do
		cc -std=gnu11 $san -Iinclude -I. -o "$tmp/symlookup" tests/symprogs/symlookup.c \
			"$BUILD/libc2c.a" $libs $iberty -lpthread 2>"$tmp/cc.err" && break 2
	done
done
[ -x "$tmp/symlookup" ] || { cat "$tmp/cc.err"; exit 1; }
# prog_inline: inlined code, threads, libc and ld.so; prog_plt: a hot loop of libc calls through
# lazily bound PLT entries ("func@plt" in perf, or the _init perf stretched over them); prog_cxx
# (below): C++ threads, templates, libstdc++
cc -O2 -g -pthread -DLOOPS=20000000 -Itests/symprogs -o "$tmp/prog_inline.bin" \
	tests/symprogs/prog_inline.c || exit 1
cc -O2 -g -fno-builtin -Wl,-z,lazy -DLOOPS=3000000 -o "$tmp/prog_plt.bin" tests/symprogs/prog_plt.c \
	|| exit 1

# compare PROGRAM NAME: record PROGRAM, resolve every distinct sample; 0 all agree with perf,
# 77 perf cannot record here, else 1
compare() {
	local top=$tmp
	local tmp=$top/$2
	mkdir -p "$tmp" && cp "$1" "$tmp/inl" && cp "$top/symlookup" "$tmp/symlookup" || return 1
	if ! perf record -q -e cpu-clock -c 20000 -o "$tmp/perf.data" -- "$tmp/inl" >/dev/null 2>&1; then
		echo "skip: perf record -e cpu-clock failed (perf_event_paranoid?)"
		return 77
	fi
	perf script -i "$tmp/perf.data" --show-mmap-events -F ip,sym,srcline,dso > "$tmp/script" 2>/dev/null \
		|| { echo "perf script failed"; return 1; }

	# MMAP2 lines: "start len pgoff prot file"
	awk '/PERF_RECORD_MMAP2/ {
		if (!match($0, /\[0x[0-9a-f]+\(0x[0-9a-f]+\) @ 0x?[0-9a-f]+ /)) next
		r = substr($0, RSTART + 1, RLENGTH - 2); gsub(/[()@]/, " ", r); split(r, f, " ")
		p = $NF; perm = $(NF - 1); prot = 0
		if (substr(perm, 1, 1) == "r") prot += 1
		if (substr(perm, 2, 1) == "w") prot += 2
		if (substr(perm, 3, 1) == "x") prot += 4
		if (p ~ /^\//) print f[1], f[2], f[3], prot, p
	}' "$tmp/script" > "$tmp/maps"
	# samples: "ip<TAB>sym<TAB>srcline<TAB>dso", distinct, user space file mappings only
	awk '
		/^ +[0-9a-f]+ .*\(\/.*\)$/ {
			if (ip != "") print ip "\t" sym "\t" "??:0" "\t" dso
			ip = $1; dso = $NF; gsub(/[()]/, "", dso)
			sym = $0; sub(/^ +[0-9a-f]+ /, "", sym); sub(/ \([^(]*\)$/, "", sym); next
		}
		ip != "" && /^  [^ ]/ { src = $1
					if (src ~ /\[[0-9a-f]+\]$/) src = "NONE"
					else if (src !~ /:[0-9?]+$/) src = "??:0"
					print ip "\t" sym "\t" src "\t" dso; ip = ""; next }
		{ if (ip != "") print ip "\t" sym "\t" "??:0" "\t" dso; ip = "" }
		END { if (ip != "") print ip "\t" sym "\t" "??:0" "\t" dso }' "$tmp/script" | sort -u > "$tmp/samples"
	[ -s "$tmp/samples" ] || { echo "skip: no user-space samples"; return 77; }

	# one query per sample, in the mapping of its file that holds it
	: > "$tmp/expect"
	while IFS=$'\t' read -r ip sym src dso; do
		while read -r start len pgoff prot file; do
			[ "$file" = "$dso" ] || continue
			(( 0x$ip >= start && 0x$ip < start + len )) || continue
			printf 'code %x %x %x %x %s %s\n' $((start)) $((len)) $((pgoff)) "$prot" "$file" "$ip" \
				>> "$tmp/queries"
			printf '%s\t%s\t%s\t%s\n' "$ip" "$sym" "$src" "$dso" >> "$tmp/expect"
			break
		done < "$tmp/maps"
	done < "$tmp/samples"
	[ -s "$tmp/expect" ] || { echo "no sample matched a mapping"; return 1; }
	"$tmp/symlookup" < "$tmp/queries" | paste "$tmp/expect" - > "$tmp/both"

	# expect: ip sym srcline dso | ours: addr symbol+off file:line inline call
	awk -F'\t' -v bin="$tmp/inl" -v name="$2" '
		function differ(what, a, b) { bad++; if (bad <= 20) print what " " $1 " (" $4 "): ours " a ", perf " b }
		{
			n++
			# no symbol: perf still asks addr2line, which may name the function below
			# ("??:0", "FILE:0"): ours says the same (symbol "?"); when the lookup failed
			# altogether ("!") there is no line to compare
			if ($6 ~ /^!/) { ours_sym = "[unknown]"; ours_src = $3; nosym++ }
			else {
				ours_sym = $6; sub(/\+0x[0-9a-f]+$/, "", ours_sym)
				if (ours_sym == "?") { ours_sym = "[unknown]"; padding++ }
				ours_src = $7; sub(/.*\//, "", ours_src); if (ours_src == "?:0") ours_src = "NONE"
			}
			if ($3 ~ /:0$/ && $3 !~ /^\?\?:/) fileonly0++
			if ($2 ~ /@plt$/ || ours_sym ~ /@plt$/) plt++
			if (ours_sym != $2) differ("symbol", ours_sym, $2)
			if (ours_src != $3) {
				# binutils addr2line (perf'"'"'s srcline) sometimes names the CU file instead of the
				# included one in DWARF 5 line tables of system libraries; the line must agree
				ol = ours_src; pl = $3; sub(/.*:/, "", ol); sub(/.*:/, "", pl)
				if ($4 != bin && ol == pl) fileonly++
				else differ("srcline", ours_src, $3)
			}
		}
		END { printf "%s: %d distinct samples, %d differ from perf, %d name another file for the same line, %d in PLT entries (named @plt), %d without a line where addr2line names the file (FILE:0), %d in no symbol (line compared), %d unresolved (line not compared)\n",
			name, n, bad, fileonly, plt, fileonly0 + 0, padding + 0, nosym + 0; exit bad > 0 }' "$tmp/both"
}

compare "$tmp/prog_inline.bin" prog_inline; r1=$?
[ $r1 = 77 ] && exit 77
compare "$tmp/prog_plt.bin" prog_plt; r2=$?
# prog_cxx: C++ names, which perf 6.1 demangles (libiberty); the archive needs -liberty exactly
# when it was built with demangling (tests/e2e/report-diff-symbols.sh fails without it)
r3=0
if ! command -v g++ >/dev/null; then
	echo "note: g++ not installed, prog_cxx not compared"
elif [ -z "$iberty" ]; then
	echo "note: $BUILD has no C++ demangling (libiberty), prog_cxx not compared"
else
	g++ -O2 -g -pthread -Wl,-z,lazy -DLOOPS=30000000L -o "$tmp/prog_cxx.bin" \
		tests/symprogs/prog_cxx.cc || exit 1
	compare "$tmp/prog_cxx.bin" prog_cxx; r3=$?
fi
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ]
