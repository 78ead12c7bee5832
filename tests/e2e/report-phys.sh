#!/usr/bin/env bash
# report --phys: lines by physical address. A generated trace and perf.data (c2c-gen physshare:
# one physical line seen at two processes' anonymous addresses and the kernel's direct map)
# give three lines by virtual address and one by physical address, with every writer in it;
# a real perf.data recorded with --phys-data gives the physical lines perf script prints; a
# file without physical addresses is refused in one line. Soft and watch recordings carry
# them when the recorder may read /proc/PID/pagemap (root): tested when we are root.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=${GEN:-$PWD/$BUILD/tests/tools/c2c-gen}
EX=${EX:-$PWD/$BUILD/examples}
DATA=$PWD/data/perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

lines() {  # FILE [options]: the Cacheline addresses of the Shared Data Cache Line Table
	local f=$1; shift
	"$C2C" report --stdio --summary 0 "$@" -i "$f" 2>/dev/null |
		sed -n '/Shared Data Cache Line Table/,/Pareto/p' | awk '$1 ~ /^[0-9]+$/ { print $2 }'
}

"$GEN" -s physshare -t p.c2c -p p.data >/dev/null || fail "c2c-gen physshare"
for f in p.c2c p.data; do
	[ "$(lines $f | wc -l)" -eq 3 ] || fail "$f: by virtual address: $(lines $f | tr '\n' ' ')"
	[ "$(lines $f --phys)" = 0x5a0000040 ] || fail "$f --phys: $(lines $f --phys | tr '\n' ' ')"
	"$C2C" report --stdio --phys -i $f >out.txt 2>err.txt || fail "$f --phys: $(cat err.txt)"
	grep -q "^# lines by physical address (--phys)" out.txt || fail "$f: no --phys header"
	grep -q "90 of 900 samples carry no physical address" err.txt || fail "$f: $(cat err.txt)"
	grep -q "FALSE SHARING.*1 line (0x5a0000040)" out.txt || fail "$f: the finding"
	for w in producer/9500 consumer/9600; do
		grep -q "rw $w" out.txt || fail "$f --phys: $w does not write the line"
	done
	"$C2C" report --json --phys -i $f 2>/dev/null | grep -q '"phys": true' || fail "$f: JSON"
done

# a real perf.data with --phys-data: the lines are perf's physical addresses, by line
command -v perf >/dev/null || { echo "skip: no perf"; exit 77; }
perf script -i "$DATA/z-phys.data" -F phys_addr 2>/dev/null | while read -r a; do
	[ $((0x$a)) -ne 0 ] && printf '0x%x\n' $((0x$a & ~63))
done | sort -u >want.txt
[ -s want.txt ] || fail "perf script printed no physical address"
lines "$DATA/z-phys.data" --phys --show-all | sort -u >got.txt
diff want.txt got.txt >/dev/null || fail "z-phys.data: $(diff want.txt got.txt | head -5)"

# no physical address at all: one line naming the file, exit 1
"$C2C" report --stdio --phys -i "$DATA/sys-2ev.data" >/dev/null 2>err.txt
[ $? -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
	grep -q "sys-2ev.data'.*--phys: no sample carries a physical address" err.txt ||
	fail "sys-2ev.data: $(cat err.txt)"
# soft and watch, recorded here: as root the lines are physical and still named by the program's
# variable, at another address than the virtual one
if [ "$(id -u)" -ne 0 ]; then
	echo "ok (trace, perf.data, z-phys.data, refusal; soft/watch skipped: not root)"
	exit 0
fi
for b in soft watch; do
	args=(--backend=$b); [ $b = watch ] && args+=(--watch buf1)
	"$C2C" record -q "${args[@]}" -o $b.c2c -- "$EX/false_sharing" 0.5 >/dev/null 2>err.txt || {
		echo "skip $b: $(head -1 err.txt)"; continue; }
	"$C2C" report --stdio --phys -i $b.c2c >out.txt 2>err.txt || fail "$b --phys: $(cat err.txt)"
	grep -q "buf1 (struct pair, 64 bytes).*FALSE SHARING" out.txt || fail "$b --phys: no buf1 line"
	pl=$(grep -m1 -o "FALSE SHARING, [0-9.]*% of [a-z ]*, 1 line (0x[0-9a-f]*)" out.txt | sed 's/.*(//; s/)//')
	vl=$("$C2C" report --stdio -i $b.c2c 2>/dev/null |
		grep -m1 -o "FALSE SHARING, [0-9.]*% of [a-z ]*, 1 line (0x[0-9a-f]*)" | sed 's/.*(//; s/)//')
	[ -n "$pl" ] && [ -n "$vl" ] && [ "$pl" != "$vl" ] || fail "$b: physical $pl, virtual $vl"
done
echo "ok (trace, perf.data, perf script's z-phys.data, refusal, soft and watch as root)"
