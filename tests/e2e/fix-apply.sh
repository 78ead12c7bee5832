#!/usr/bin/env bash
# End to end, `c2c-lite fix`: copy an example to a temporary source root, build it with -g -O1,
# record it with the soft backend, write the patch, apply it with patch -p1 (and check that git
# apply takes it too), rebuild, record again, and check that the fixed build's report has no
# false-sharing finding on the object the patch aligned. Examples: false_sharing.c (members of one
# struct, two threads), slots.c (a global array of 8-byte elements), heap_sharing.c (members of a
# malloc'ed struct, named by the code). true_sharing.c gets no patch and a reason. Skips (77)
# when the soft backend cannot record here.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
CC=${CC:-cc}
SECS=${FIX_SECONDS:-1}
[ -x "$C2C" ] || { echo "fail: no binary at $C2C"; exit 1; }
command -v patch >/dev/null || { echo "skip: patch(1) is not installed"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq is not installed"; exit 77; }
if ! "$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft '; then
	echo "skip: the soft backend cannot record here:"
	"$C2C" doctor 2>/dev/null | grep -A1 ' soft ' || echo "  (c2c-lite doctor failed)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL [$1]: $2"; fail=1; }

# build DIR SRC: the program DIR/prog, as a user builds it
build() {
	(cd "$1" && $CC -g -O1 -pthread -o prog "$2" 2>cc.err) || { bad "$2" "build failed: $(cat "$1/cc.err")"; return 1; }
}

# record DIR OUT: a soft recording of DIR/prog
record() {
	(cd "$1" && "$C2C" record --backend=soft -o "$2" -- ./prog "$SECS" >"$2.log" 2>&1) ||
		{ bad "$1" "record failed: $(tail -3 "$1/$2.log")"; return 1; }
}

# false findings on OBJECT (exact, or the pointer of memory typed by code: "heap of pid N: *c";
# "a|b": either)
false_on() {
	"$C2C" report --json -i "$1" 2>/dev/null | jq -r --arg o "$2" '($o | split("|")) as $os |
		[.findings[] | select(.verdict == "false" or .verdict == "mixed") | .object as $x |
		 select($os | any(. as $w | $x == $w or ($x | endswith(": " + $w))))] | length'
}

# check SRC OBJECT: the whole loop for examples/SRC (or $tmp/SRC), whose finding is on OBJECT
check() {
	local src=$1 obj=$2 d=$tmp/${1%.c} n
	mkdir -p "$d"
	cp examples/pin.h examples/work.h "$d/"
	if [ -f "$tmp/$src" ]; then cp "$tmp/$src" "$d/"; else cp "examples/$src" "$d/"; fi
	build "$d" "$src" || return
	# the witness is the fix, not the sampling: a run whose threads shared one CPU of a loaded
	# machine (no transfer could happen) is recorded again, up to three times
	for try in 1 2 3; do
		record "$d" before.c2c || return
		n=$(false_on "$d/before.c2c" "$obj")
		[ "${n:-0}" -ge 1 ] && break
		echo "$src: no false-sharing finding on '$obj' in recording $try before the fix"
	done
	[ "${n:-0}" -ge 1 ] || { bad "$src" "no false-sharing finding on '$obj' before the fix"; return; }
	(cd "$d" && "$C2C" fix -i before.c2c --dry-run >dry.txt 2>&1) || { bad "$src" "fix --dry-run failed"; return; }
	grep -q "^$src:[0-9]*: align " "$d/dry.txt" || { bad "$src" "--dry-run lists no change: $(cat "$d/dry.txt")"; return; }
	(cd "$d" && "$C2C" fix -i before.c2c -o fix.patch 2>fix.err) || { bad "$src" "fix failed: $(cat "$d/fix.err")"; return; }
	grep -q '^+.*/\* c2c-lite: FALSE SHARING' "$d/fix.patch" || bad "$src" "the patch has no comment naming the finding"
	if command -v git >/dev/null; then
		(cd "$d" && git apply --check fix.patch 2>git.err) || bad "$src" "git apply refuses the patch: $(cat "$d/git.err")"
	fi
	(cd "$d" && patch -p1 <fix.patch >patch.out 2>&1) || { bad "$src" "patch -p1 failed: $(cat "$d/patch.out")"; return; }
	build "$d" "$src" && record "$d" after.c2c || return
	n=$(false_on "$d/after.c2c" "$obj")
	[ "${n:-1}" -eq 0 ] || { bad "$src" "the fixed build still has false sharing on '$obj'"; return; }
	echo "$src: $(grep -c '^+.*_Alignas' "$d/fix.patch") alignment(s) applied; no false sharing on '$obj' after the fix"
}

check false_sharing.c buf1
check slots.c slots
check heap_sharing.c '*c'

# adjacent variables in .data, each written by its own thread (the finding is on the one the linker put
# first; both are aligned)
cat >"$tmp/adjacent.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
volatile int stop;
volatile long count_a = 1;
volatile long count_b = 1;
static void *bump_a(void *x) { (void)x; while (!stop) for (int i = 0; i < 4096; i++) count_a++; return 0; }
static void *bump_b(void *x) { (void)x; while (!stop) for (int i = 0; i < 4096; i++) count_b++; return 0; }
int main(int argc, char **argv)
{
	pthread_t a, b;

	pthread_create(&a, 0, bump_a, 0);
	pthread_create(&b, 0, bump_b, 0);
	usleep((useconds_t)(atof(argc > 1 ? argv[1] : "1") * 1e6));
	stop = 1;
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
C
check adjacent.c 'count_a|count_b'

# true sharing: no patch, a reason
d=$tmp/true_sharing
mkdir -p "$d"
cp examples/true_sharing.c examples/pin.h examples/work.h "$d/"
if build "$d" true_sharing.c && record "$d" t.c2c; then
	(cd "$d" && "$C2C" fix -i t.c2c >t.patch 2>t.err) || bad true_sharing.c "fix failed: $(cat "$d/t.err")"
	[ ! -s "$d/t.patch" ] || bad true_sharing.c "true sharing got a patch: $(head -5 "$d/t.patch")"
	grep -q "no patch: true sharing" "$d/t.err" || bad true_sharing.c "no reason on stderr: $(cat "$d/t.err")"
	echo "true_sharing.c: no patch ($(head -1 "$d/t.err"))"
fi
[ $fail -eq 0 ] && echo "ok"
exit $fail
