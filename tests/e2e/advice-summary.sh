#!/usr/bin/env bash
# The "# c2c-lite summary" and "# TopDown" blocks on a real binary: a small -g program with a
# falsely shared struct and a truly shared counter; advice-gen writes a trace whose mapping points
# at it and whose sample addresses come from its symbol table. Checks the names, verdicts and
# advice, that --summary=0 removes the block, that perf's sections do not change, and the TopDown
# percentages. Skips (77) without a C compiler or readelf/nm.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/advice-gen
command -v cc >/dev/null 2>&1 || { echo "skip: no C compiler"; exit 77; }
command -v readelf >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 ||
	{ echo "skip: readelf/nm missing"; exit 77; }
[ -x "$GEN" ] || { echo "fail: $GEN is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
expect() {   # description file fixed-string
	if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: no '$3' in $2"; sed 's/^/  | /' "$2" | head -40; fi
}
reject() {
	if grep -qF -- "$3" "$2"; then bad "$1: '$3' in $2"; else ok "$1"; fi
}

cat >"$tmp/fs.c" <<'C'
struct _buf {
	long a;
	long b;
};
struct _buf buf1 __attribute__((aligned(64)));
long counter __attribute__((aligned(64)));

__attribute__((noinline)) void writer_a(void) { buf1.a++; }
__attribute__((noinline)) void writer_b(void) { buf1.b++; }
__attribute__((noinline)) void inc(void) { counter++; }

int main(void)
{
	writer_a();
	writer_b();
	inc();
	return 0;
}
C
cc -g -O0 -no-pie -o "$tmp/fs" "$tmp/fs.c" || { echo "skip: cannot build a -no-pie program"; exit 77; }
addr() { printf '%#x' "0x$(nm "$tmp/fs" | awk -v s="$1" '$3 == s { print $1 }')"; }
buf1=$(addr buf1) counter=$(addr counter) wa=$(addr writer_a) wb=$(addr writer_b) inc=$(addr inc)
line_of() { grep -n "^__attribute__((noinline)) void $1(" "$tmp/fs.c" | cut -d: -f1; }
la=$(line_of writer_a) lb=$(line_of writer_b) li=$(line_of inc)
# one mapping per PT_LOAD, the whole memory size (the .bss is in the file's image)
readelf -lW "$tmp/fs" | while read -r type off va pa fsz msz fl rest; do
	[ "$type" = LOAD ] || continue
	off=$((off)) va=$((va)) msz=$((msz))
	prot=0
	case "$fl$rest" in *R*) prot=$((prot | 1)) ;; esac
	case "$fl$rest" in *W*) prot=$((prot | 2)) ;; esac
	case "$fl$rest" in *E*) prot=$((prot | 4)) ;; esac
	start=$((va - va % 4096))
	printf 'mmap 100 %#x %#x %#x %d %s\n' "$start" "$((va + msz - start))" "$((off - off % 4096))" \
		"$prot" "$tmp/fs"
done >"$tmp/maps"
[ -s "$tmp/maps" ] || { bad "no PT_LOAD in the test binary"; exit 1; }
script() {
	cat "$tmp/maps"
	printf 'comm 100 101 fs-a\ncomm 100 102 fs-b\n'
	[ -n "${1:-}" ] && echo "td 1000 30 10 20 40"
	printf 'sample 100 101 0 %s %s store 40\n' "$wa" "$buf1"
	printf 'sample 100 101 0 %s %s hitm 30\n' "$wa" "$buf1"
	printf 'sample 100 102 1 %s %s store 40\n' "$wb" "$((buf1 + 8))"
	printf 'sample 100 102 1 %s %s hitm 30\n' "$wb" "$((buf1 + 8))"
	[ -n "${1:-}" ] && echo "td 2000 10 5 5 80"
	printf 'sample 100 101 0 %s %s store 10\n' "$inc" "$counter"
	printf 'sample 100 101 0 %s %s hitm 10\n' "$inc" "$counter"
	printf 'sample 100 102 1 %s %s store 10\n' "$inc" "$counter"
	printf 'sample 100 102 1 %s %s hitm 10\n' "$inc" "$counter"
}
script | "$GEN" -o "$tmp/fs.c2c" || { bad "advice-gen"; exit 1; }
script td | "$GEN" --topdown -o "$tmp/td.c2c" || { bad "advice-gen --topdown"; exit 1; }

"$C2C" report --stdio -i "$tmp/fs.c2c" >"$tmp/out" 2>"$tmp/err" || { bad "report failed"; cat "$tmp/err"; exit 1; }
sed -n '1,/^=====/p' "$tmp/out" >"$tmp/head"
expect "summary block" "$tmp/head" "# c2c-lite summary: 2 findings on 2 contended cachelines (by Total HITMs)"
expect "finding 1 names buf1" "$tmp/head" "# 1. buf1 (struct _buf, 16 bytes): FALSE SHARING, 75.00% of Total HITMs, 1 line ($buf1)"
expect "member buf1.a and its code" "$tmp/head" "buf1.a      30      40      30  rw fs-a/101                  writer_a at fs.c:$la"
expect "member buf1.b and its code" "$tmp/head" "writer_b at fs.c:$lb"
expect "false sharing advice" "$tmp/head" "#   advice: buf1.a (written by fs-a/101) and buf1.b (written by fs-b/102) share a 64-byte line: put them on separate lines (pad, or align each to 64 bytes: __attribute__((aligned(64))))"
expect "false sharing share" "$tmp/head" "#   false sharing: 75.00% of Total HITMs; not a speedup forecast (measure the fix with c2c-lite diff)"
expect "finding 2 names counter" "$tmp/head" "# 2. counter (long int, 8 bytes): TRUE SHARING, 25.00% of Total HITMs, 1 line ($counter)"
expect "true sharing advice" "$tmp/head" "#   advice: counter is written and read by 2 threads (fs-a/101, fs-b/102): the threads share these bytes: make them per-thread and combine, or batch updates"
expect "true sharing code" "$tmp/head" "inc at fs.c:$li"
reject "no TopDown without values" "$tmp/head" "# TopDown"
# every summary line sits before perf's first section and starts with "# "
awk '/^=====/ { exit } $0 != "" && !/^#( |$)/ { bad = 1 } END { exit bad }' "$tmp/out" &&
	ok "header lines are '# ' lines" || bad "a header line does not start with '# '"

"$C2C" report --stdio --summary=1 -i "$tmp/fs.c2c" >"$tmp/one" 2>/dev/null
expect "--summary=1" "$tmp/one" "2 findings on 2 contended cachelines (by Total HITMs); the first 1"
reject "--summary=1 stops after one line" "$tmp/one" "# 2. "
"$C2C" report --stdio --summary=0 -i "$tmp/fs.c2c" >"$tmp/none" 2>/dev/null
reject "--summary=0" "$tmp/none" "c2c-lite summary"
if cmp -s <(sed -n '/^=====/,$p' "$tmp/out") <(sed -n '/^=====/,$p' "$tmp/none"); then
	ok "perf sections unchanged by the summary"
else
	bad "perf sections differ with the summary"
fi
"$C2C" report --stdio --summary=x -i "$tmp/fs.c2c" >/dev/null 2>"$tmp/uerr"
[ $? -ne 0 ] && grep -q "summary" "$tmp/uerr" && ok "bad --summary rejected" || bad "bad --summary accepted"
# two runs print the same bytes
"$C2C" report --stdio -i "$tmp/fs.c2c" 2>/dev/null | cmp -s - "$tmp/out" && ok "deterministic" || bad "two runs differ"

# data that no variable names: "[unknown]", and the reason only under -v
main=$(addr main)
{ cat "$tmp/maps"; printf 'sample 100 101 0 %s %s store 15\nsample 100 102 1 %s %s hitm 15\n' \
	"$wa" "$main" "$wb" "$main"; } | "$GEN" -o "$tmp/unk.c2c" || bad "advice-gen (unknown)"
"$C2C" report --stdio -i "$tmp/unk.c2c" 2>/dev/null | sed -n '1,/^=====/p' >"$tmp/unk"
"$C2C" report --stdio -v -i "$tmp/unk.c2c" 2>/dev/null | sed -n '1,/^=====/p' >"$tmp/unkv"
expect "unknown data" "$tmp/unk" "# 1. [unknown]: TRUE SHARING, 100.00% of Total HITMs, 1 line ($(printf %#x $((main / 64 * 64))))"
expect "unknown data, reason under -v" "$tmp/unkv" "[unknown] (fs: "
reject "no reason without -v" "$tmp/unk" "[unknown] ("

"$C2C" report --stdio -i "$tmp/td.c2c" >"$tmp/td" 2>"$tmp/err" || { bad "topdown report failed"; cat "$tmp/err"; exit 1; }
sed -n '1,/^=====/p' "$tmp/td" >"$tmp/tdhead"
expect "TopDown block" "$tmp/tdhead" "# TopDown: % of pipeline slots"
# Each (CPU, thread)'s first sample only sets the base: 69 + 69 intervals of 1000 slots at
# 30/10/20/40 %, then 40 of 2000 slots at 10/5/5/80 %: 218000 slots, retiring 49400 (22.7 %).
fields() {   # description row-prefix expected "slots ret bad fe be"
	local got
	got=$(awk -v p="$2" 'index($0, p) == 1 { print $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF; exit }' "$tmp/tdhead")
	if [ "$got" = "$3" ]; then ok "$1"; else bad "$1: got '$got', want '$3'"; fi
}
fields "TopDown overall" "#   all " "218000 22.7 8.2 14.5 54.7"
fields "TopDown of buf1's line" "#   line $buf1 " "138000 30.0 10.0 20.0 40.0"
fields "TopDown of counter's line" "#   line $counter " "80000 10.0 5.0 5.0 80.0"
fields "TopDown of writer_a()" "#   func writer_a " "69000 30.0 10.0 20.0 40.0"
fields "TopDown of inc()" "#   func inc " "80000 10.0 5.0 5.0 80.0"
exit $fail
