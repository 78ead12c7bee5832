#!/usr/bin/env bash
# The summary names a variable in the .bss tail that the kernel maps anonymously past the file's
# last page (the data map of the samples is "//anon"; the name comes from the file mapped just
# below it). Skips (77) without a C compiler, readelf/nm, or when the toolchain places the
# variable inside the file-backed pages.
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

cat >"$tmp/bss.c" <<'C'
char dpad[5000] = { 1 };
char bpad[8192];
struct _buf { long a; long b; };
struct _buf buf1 __attribute__((aligned(64)));
__attribute__((noinline)) void writer_a(void) { buf1.a++; }
__attribute__((noinline)) void writer_b(void) { buf1.b++; }
int main(void) { writer_a(); writer_b(); return dpad[1] + bpad[3]; }
C
cc -g -O0 -no-pie -o "$tmp/bss" "$tmp/bss.c" || { echo "skip: cannot build a -no-pie program"; exit 77; }
addr() { printf '%#x' "0x$(nm "$tmp/bss" | awk -v s="$1" '$3 == s { print $1 }')"; }
buf1=$(addr buf1) wa=$(addr writer_a) wb=$(addr writer_b)
file_end=0
{
	readelf -lW "$tmp/bss" | while read -r type off va pa fsz msz fl rest; do
		[ "$type" = LOAD ] || continue
		off=$((off)) va=$((va)) fsz=$((fsz)) msz=$((msz))
		prot=1
		case "$fl$rest" in *W*) prot=3 ;; esac
		case "$fl$rest" in *E*) prot=5 ;; esac
		start=$((va - va % 4096)) fend=$(((va + fsz + 4095) / 4096 * 4096))
		printf 'mmap 100 %#x %#x %#x %d %s\n' "$start" "$((fend - start))" \
			"$((off - off % 4096))" "$prot" "$tmp/bss"
		if [ $((va + msz)) -gt "$fend" ]; then
			printf 'mmap 100 %#x %#x 0 3 //anon\n' "$fend" \
				"$(((va + msz + 4095) / 4096 * 4096 - fend))"
			echo "# anon-from $fend"
		fi
	done
	printf 'comm 100 101 bss-a\ncomm 100 102 bss-b\n'
	printf 'sample 100 101 0 %s %s store 20\n' "$wa" "$buf1"
	printf 'sample 100 101 0 %s %s hitm 10\n' "$wa" "$buf1"
	printf 'sample 100 102 1 %s %s store 20\n' "$wb" "$((buf1 + 8))"
	printf 'sample 100 102 1 %s %s hitm 10\n' "$wb" "$((buf1 + 8))"
} >"$tmp/script"
anon_from=$(awk '/^# anon-from/ { print $3 }' "$tmp/script")
[ -n "$anon_from" ] && [ $((buf1)) -ge "$anon_from" ] ||
	{ echo "skip: buf1 ($buf1) is not past the file-backed pages here"; exit 77; }
"$GEN" -o "$tmp/bss.c2c" <"$tmp/script" || { echo "FAIL: advice-gen"; exit 1; }
"$C2C" report --stdio -i "$tmp/bss.c2c" 2>"$tmp/err" | sed -n '1,/^=====/p' >"$tmp/head"
fail=0
for want in "# 1. buf1 (struct _buf, 16 bytes): FALSE SHARING, 100.00% of Total HITMs, 1 line ($buf1)" \
	"writer_a at bss.c:5" "writer_b at bss.c:6" \
	"#   advice: buf1.a (written by bss-a/101) and buf1.b (written by bss-b/102) share a 64-byte line"; do
	if grep -qF -- "$want" "$tmp/head"; then echo "ok: $want"; else echo "FAIL: no '$want'"; fail=1; fi
done
[ $fail -eq 0 ] || { sed 's/^/  | /' "$tmp/head"; cat "$tmp/err"; }
exit $fail
