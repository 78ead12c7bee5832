#!/usr/bin/env bash
# The region library installs (header, static and shared library, c2c-region.pc), a program
# builds against it with pkg-config both ways, and its counters come back through the read()
# fallback here (or rdpmc where a PMU allows it): entries, time and a non-zero task-clock or
# cycles count per region.
set -u
BUILD=${BUILD:-build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v pkg-config >/dev/null || { echo "skip: pkg-config not installed"; exit 77; }
make -s BUILD="$BUILD" install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/install.log" 2>&1 ||
	fail "make install: $(tail -3 "$TMP/install.log")"
for f in usr/include/c2c/region.h usr/lib/libc2c-region.a usr/lib/libc2c-region.so.0 \
	 usr/lib/libc2c-region.so usr/lib/pkgconfig/c2c-region.pc; do
	[ -e "$TMP/root/$f" ] || fail "not installed: /$f"
done
cat >"$TMP/prog.c" <<'PROG'
#include <c2c/region.h>
#include <string.h>

int main(void)
{
	struct c2c_region *r = c2c_region_new("work"), *inner = c2c_region_new("inner");
	struct c2c_region_stats st;
	volatile unsigned long x = 0;

	for (int i = 0; i < 100; i++) {
		c2c_region_begin(r);
		c2c_region_begin(inner);
		for (int k = 0; k < 100000; k++)
			x += (unsigned long)k;
		c2c_region_end(inner);
		c2c_region_end(r);
	}
	c2c_region_print_all(stdout);
	if (c2c_region_stats(r, &st) || st.entries != 100 || !st.ns || !st.nr || !st.value[0])
		return 2;
	if (c2c_region_stats(inner, &st) || st.entries != 100)
		return 3;
	return c2c_region_new("") == NULL ? 0 : 4;
}
PROG
export PKG_CONFIG_SYSROOT_DIR="$TMP/root" PKG_CONFIG_PATH="$TMP/root/usr/lib/pkgconfig"
pkg-config --exists c2c-region || fail "pkg-config does not find c2c-region"
# the program is built as the library was (make check: with the sanitizers, whose runtime
# must come first)
# shellcheck disable=SC2086
san="${EXTRA_CFLAGS:-} ${LDFLAGS:-}"
# shared
# shellcheck disable=SC2086
cc $san -o "$TMP/prog-so" "$TMP/prog.c" $(pkg-config --cflags --libs c2c-region) 2>"$TMP/cc.err" ||
	fail "build against the shared library: $(cat "$TMP/cc.err")"
LD_LIBRARY_PATH="$TMP/root/usr/lib" "$TMP/prog-so" >"$TMP/so.txt" || fail "shared: exit $? $(cat "$TMP/so.txt")"
LD_LIBRARY_PATH="$TMP/root/usr/lib" ldd "$TMP/prog-so" | grep -q "libc2c-region.so.0 => $TMP/root" ||
	fail "not linked to the installed shared library"
# static
# shellcheck disable=SC2086
cc $san -o "$TMP/prog-a" "$TMP/prog.c" $(pkg-config --cflags c2c-region) "$TMP/root/usr/lib/libc2c-region.a" \
	$(pkg-config --static --libs-only-l c2c-region | sed 's/-lc2c-region//') 2>"$TMP/cc.err" ||
	fail "build against the static library: $(cat "$TMP/cc.err")"
"$TMP/prog-a" >"$TMP/a.txt" || fail "static: exit $? $(cat "$TMP/a.txt")"
for o in "$TMP/so.txt" "$TMP/a.txt"; do
	grep -qE '^region work: 100 entries, [0-9.]+ ms inside, counters by (read\(\)|rdpmc)$' "$o" ||
		fail "no region line: $(cat "$o")"
	grep -qE '^ +[1-9][0-9]*  (task-clock|cycles|slots)$' "$o" || fail "no counts: $(cat "$o")"
done
echo "ok"
