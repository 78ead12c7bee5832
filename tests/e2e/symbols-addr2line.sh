#!/usr/bin/env bash
# Cross-checks code symbolization (report/resolve/symbols.h) against addr2line, which is where perf 6.1
# (built without libbfd) gets its Source:Line column: for every instruction of a program built
# -O2 with inlining (PIE, mapped at a made-up base) and of a -O1 non-PIE one, our srcfile:line must
# equal addr2line's first (innermost) location (where the line table has no row, crtstuff.c's
# functions or _start, the file addr2line takes from the symbol table, "??" or none, and line 0),
# our inline_fn/call site its first inlined frame
# and its caller's location, and our symbol the outermost function. Then the same on addresses
# sampled across the libc this machine runs (when addr2line finds line info for them).
set -u
# addr2line and this perf do not ask debuginfod servers; neither may we, to compare like with like
unset DEBUGINFOD_URLS
for t in cc addr2line objdump readelf pkg-config; do
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
cc -O2 -g -pthread -Itests/symprogs -o "$tmp/inl" tests/symprogs/prog_inline.c || exit 1
cc -O1 -g -pthread -fno-pie -no-pie -Itests/symprogs -o "$tmp/nopie" tests/symprogs/prog_data.c \
	|| exit 1

# The executable segment's mapping for a load at base $2: "start len pgoff".
exec_map() {
	local type off va pa fsz msz rest
	readelf -lW "$1" | while read -r type off va pa fsz msz rest; do
		[ "$type" = LOAD ] && [[ "$rest" == *E* ]] || continue
		local lo=$(( va & ~4095 )) hi=$(( (va + fsz + 4095) & ~4095 ))
		printf '%x %x %x\n' $(( $2 + lo )) $(( hi - lo )) $(( off & ~4095 ))
		break
	done
}

# addr2line -a -f -i output -> one line per address: "vaddr<TAB>loc1<TAB>fn1<TAB>loc2<TAB>outerfn"
a2l() {
	addr2line -a -f -i -e "$1" | awk '
		function flush() { if (addr != "") print addr "\t" loc[1] "\t" fn[1] "\t" loc[2] "\t" fn[n] }
		/^0x[0-9a-f]+$/ { flush(); addr = $0; sub(/^0x0*/, "", addr); if (addr == "") addr = "0"
				  n = 0; split("", fn); split("", loc); next }
		{ if (n == 0 || loc[n] != "") { n++; fn[n] = $0; loc[n] = "" }
		  else { sub(/ \(discriminator [0-9]+\)$/, ""); loc[n] = $0 } }
		END { flush() }'
}

# check FILE BASE ADDRS-FILE SYMCHECK (vaddrs in hex without 0x or leading zeros, one per line).
# SYMCHECK 1: our ELF symbol must be addr2line's outermost DWARF function (true for the test
# programs; libc's symbol table has aliases and .cold/.isra parts that DWARF names otherwise).
check() {
	local bin=$1 base=$2 addrs=$3 symcheck=$4 m va
	m=$(exec_map "$bin" "$base")
	[ -n "$m" ] || { echo "no executable segment in $bin"; return 1; }
	set -- $m
	while read -r va; do
		printf 'code %s %s %s 5 %s %x\n' "$1" "$2" "$3" "$bin" $(( base + 0x$va ))
	done < "$addrs" | "$tmp/symlookup" | paste "$addrs" - > "$tmp/ours"
	sed 's/^/0x/' "$addrs" | a2l "$bin" > "$tmp/theirs"
	# ours: vaddr, runtime addr, symbol+off, file:line, inline_fn, call_file:call_line
	awk -v symcheck="$symcheck" -v lenient=$(( !symcheck )) -F'\t' '
		function differ(what, a, b) { bad++; if (bad <= 30) print what " " $1 ": ours " a ", addr2line " b }
		NR == FNR { loc[$1] = $2; ifn[$1] = $3; cloc[$1] = $4; outer[$1] = $5; next }
		{
			n++; va = $1
			if (!(va in loc)) { differ("no addr2line output", "", ""); next }
			# addr2line: "??:0" finds nothing (ours: no file, "?:0"); "FILE:?" or "??:?" names
			# the function but no line, the file from the STT_FILE symbol of the symbol table
			# (ours: srcfile FILE or "??", line 0)
			theirs = loc[va]
			if (theirs == "??:0") theirs = "?:0"; else sub(/:\?$/, ":0", theirs)
			if ($3 ~ /^!/) { if (theirs !~ /:0$/) differ("unresolved", $3, theirs); next }
			if (theirs ~ /:0$/) noline[theirs ~ /^[^?]/ ? "file" : "none"]++
			if ($4 != theirs) {
				# binutils 2.40 names the CU file instead of an included one for some DWARF 5
				# rows (gdb and libdw agree with us); the line must still be the same
				ol = $4; tl = theirs; sub(/.*:/, "", ol); sub(/.*:/, "", tl)
				if (lenient && ol == tl) { fileonly++; next }
				differ("line", $4, theirs); next
			}
			if (cloc[va] != "") {
				f = ifn[va]; if (lenient) sub(/^__GI_/, "", f)
				if ($5 != f || $6 != cloc[va]) differ("inline", $5 " " $6, ifn[va] " " cloc[va])
			} else if ($5 != "?") differ("inline", $5, "none")
			sym = $3; sub(/\+0x[0-9a-f]+$/, "", sym)
			# no symbol holds the address (padding after a sized function): perf has none
			# either, while addr2line names the function below it; the line was compared
			if (sym == "?") { nosym++; next }
			if (symcheck && outer[va] != "??" && sym != outer[va]) differ("symbol", sym, outer[va])
		}
		END { printf "  %d addresses, %d differ, %d name another file for the same line, %d without a line (%d with a file from STT_FILE), %d in no symbol\n",
			n, bad, fileonly, noline["file"] + noline["none"], noline["file"], nosym
		      exit bad > 0 }' "$tmp/theirs" "$tmp/ours"
}

insns() {
	objdump -d --no-show-raw-insn -j .text "$1" | awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }'
}

rc=0
insns "$tmp/inl" > "$tmp/inl.addrs"
echo "prog_inline.c -O2 PIE:"; check "$tmp/inl" 0x55d0c0de5000 "$tmp/inl.addrs" 1 || rc=1
insns "$tmp/nopie" > "$tmp/nopie.addrs"
echo "prog_data.c -O1 non-PIE:"; check "$tmp/nopie" 0 "$tmp/nopie.addrs" 1 || rc=1

libc=$(ldd "$tmp/inl" | awk '/libc\.so/ { print $3 }')
if [ -n "$libc" ] && [ -f "$libc" ]; then
	# every 679th byte of the executable segment, mapped at a made-up base
	read -r lo n < <(readelf -lW "$libc" | awk '$1 == "LOAD" && / R E / { print $3, $5; exit }')
	for (( a = lo; a < lo + n; a += 679 )); do printf '%x\n' $a; done > "$tmp/libc.addrs"
	echo "libc ($libc):"; check "$libc" 0x7f0000000000 "$tmp/libc.addrs" 0 || rc=1
fi
exit $rc
