#!/usr/bin/env bash
# Regressions found on files nobody here wrote (issue "Read every perf.data that real perf
# writes"), each reproduced with the real perf where it can run:
#  1. side-band that perf synthesizes for running processes carries sample id 0 (-a, -p with two
#     events): it belongs to the first event; every sample keeps its map and symbol;
#  2. a build-id ending in 0x00 is a build-id like any other;
#  3. a corrupted header feature never crashes nor allocates by its counts;
#  4. -i DIR says it is a directory;
#  5. without -i, report reads c2c-lite.data, else perf.data, and says so.
set -u
BUILD=${BUILD:-build}
C2C=$(realpath "${C2C:-$BUILD/c2c-lite}")
DUMP=$(realpath "$BUILD/tests/tools/perfdata-dump")
tmp=$(mktemp -d)
trap 'kill $bg 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
bg=
fail() { echo "FAIL: $*"; exit 1; }

# --- 4 and 5: no perf needed ---------------------------------------------------------------------
mkdir "$tmp/dir"
for cmd in report convert; do
	if [ $cmd = report ]; then
		"$C2C" report --stdio -i "$tmp/dir" >/dev/null 2>"$tmp/err"
	else
		"$C2C" convert "$tmp/dir" -o "$tmp/x.c2c" >/dev/null 2>"$tmp/err"
	fi
	rc=$?
	[ $rc -eq 1 ] || fail "$cmd DIR: exit $rc"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "'$tmp/dir' is a directory" "$tmp/err" ||
		fail "$cmd DIR: $(cat "$tmp/err")"
done
echo "ok: -i DIR says it is a directory"

(cd "$tmp/dir" && "$C2C" report --stdio >/dev/null 2>"$tmp/err")
[ $? -eq 1 ] && grep -q "cannot open 'c2c-lite.data' (nor perf.data)" "$tmp/err" ||
	fail "report with neither file: $(cat "$tmp/err")"
cp data/perf/z-phys.data "$tmp/dir/perf.data"
(cd "$tmp/dir" && "$C2C" report --stdio >"$tmp/out" 2>"$tmp/err") || fail "report of ./perf.data: $(cat "$tmp/err")"
grep -q "reading perf.data" "$tmp/err" || fail "report does not say it read perf.data"
head -1 "$tmp/out" | grep -q "report of 'perf.data'" || fail "report header: $(head -1 "$tmp/out")"
cp data/demo.c2c "$tmp/dir/c2c-lite.data"
(cd "$tmp/dir" && "$C2C" report --stdio >"$tmp/out" 2>"$tmp/err") || fail "report of ./c2c-lite.data"
head -1 "$tmp/out" | grep -q "report of 'c2c-lite.data'" || fail "c2c-lite.data is not preferred"
echo "ok: report without -i reads c2c-lite.data, else perf.data"

# --- 3: every byte of MEM_TOPOLOGY and NUMA_TOPOLOGY of a real file, through the whole report ----
feat_sections() {  # FILE: "offset size" of the features MEM_TOPOLOGY (22) and NUMA_TOPOLOGY (14)
	od -A n -t u8 -j 40 -N 16 "$1" | {
		read -r doff dsz
		bits=$(od -A n -t u8 -j 72 -N 8 "$1" | tr -d ' ')
		t=$((doff + dsz))
		for f in $(seq 0 63); do
			[ $(((bits >> f) & 1)) -eq 1 ] || continue
			if [ "$f" -eq 22 ] || [ "$f" -eq 14 ]; then od -A n -t u8 -j $t -N 16 "$1"; fi
			t=$((t + 16))
		done
	}
}
src=data/perf/sys-2ev.data
n=0
while read -r off size; do
	for ((b = off; b < off + size; b++)); do
		for v in '\377' '\177'; do
			cp "$src" "$tmp/m.data"
			printf "$v" | dd of="$tmp/m.data" bs=1 seek=$b conv=notrunc 2>/dev/null
			"$C2C" report --stdio -i "$tmp/m.data" >/dev/null 2>"$tmp/err"
			rc=$?
			[ $rc -le 1 ] || fail "byte $b = $v of $src: exit $rc: $(tail -1 "$tmp/err")"
			grep -q "out of memory" "$tmp/err" && fail "byte $b = $v: $(cat "$tmp/err")"
			n=$((n + 1))
		done
	done
done < <(feat_sections "$src")
[ $n -gt 100 ] || fail "only $n mutations of the topology features"
echo "ok: $n corrupted topology bytes, each read or refused in one line"

# --- 1 and 2 need the real perf --------------------------------------------------------------------
command -v perf >/dev/null || { echo "skip: perf is not installed"; exit 77; }
[ -x "$DUMP" ] || { echo "skip: $DUMP not built"; exit 77; }
cc=${CC:-cc}
# perf's build-id cache (~/.debug) answers before the files on disk: keep this test's binaries,
# whose forced build-id repeats from run to run, out of the user's cache. perf never reads
# $PERF_BUILDID_DIR (it only sets it for its children): its cache is the config's buildid.dir.
printf '[buildid]\n\tdir = %s\n' "$tmp/buildid-cache" >"$tmp/perfconfig"
export PERF_CONFIG=$tmp/perfconfig PERF_BUILDID_DIR=$tmp/buildid-cache

# perf script's view against perfdata-dump's: "pid tid time ip sym dso" (tests/e2e/lib/perf-diff.sh;
# symbols may hold spaces: C++ names of other processes in an -a recording)
. tests/e2e/lib/perf-diff.sh
view() {  # FILE WHAT [DSO]
	same_view "$2" "$1" pid,tid,time,ip,sym,dso "${3:-}"
	[ "$fail" -eq 0 ] || fail "$2: samples differ from perf script"
	echo "ok: $2: $(wc -l <"$tmp/ours.view") samples, pid tid time ip symbol dso as perf script"
}
no_skips() {  # FILE WHAT
	"$C2C" report --stdio -i "$1" >"$tmp/rep" 2>"$tmp/rep.err" || fail "$2: report failed"
	grep -q "malformed or unattributable" "$tmp/rep.err" && fail "$2: $(cat "$tmp/rep.err")"
	return 0
}

cat >"$tmp/pf.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
/* Faults pages in: once (touch), or for argv[1] seconds. */
__attribute__((noinline)) void touch(char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
}
int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 0);
	do {
		size_t n = 4 << 20;
		char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		touch(p, n);
		munmap(p, n);
		if (argc > 1)
			usleep(2000);
	} while (time(NULL) < end);
	return 0;
}
EOF
$cc -O1 -g -o "$tmp/pf" "$tmp/pf.c" || fail "cc"
$cc -O1 -g -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234500 -o "$tmp/pf00" "$tmp/pf.c" ||
	fail "cc --build-id"

# 1. -a with two events
if ! perf record -q -a -d -e page-faults -e minor-faults -o "$tmp/sys.data" -- "$tmp/pf" 2>"$tmp/err"; then
	echo "skip: perf record -a failed: $(head -1 "$tmp/err")"; exit 77
fi
no_skips "$tmp/sys.data" "perf record -a, two events"
view "$tmp/sys.data" "perf record -a, two events" /pf
grep -q ' touch .*/pf$' "$tmp/ours.view" || fail "-a: the workload's samples are not named touch"

# 1. -p of a process started before perf, two events
# The target outlives perf whatever the load: perf stops early (and fails) when its target exits.
"$tmp/pf" 60 &
bg=$!
sleep 0.3
perf record -q -d -e page-faults -e minor-faults -p $bg -o "$tmp/p.data" -- sleep 1 2>/dev/null ||
	fail "perf record -p"
kill $bg
wait $bg 2>/dev/null
no_skips "$tmp/p.data" "perf record -p PID, two events"
view "$tmp/p.data" "perf record -p PID, two events"
grep -q "^$bg $bg .* touch .*/pf$" "$tmp/ours.view" || fail "-p: no sample of touch in pf"

# 2. build-id ending in 00
perf record -q -e page-faults -c 1 -d -o "$tmp/b.data" -- "$tmp/pf00" 2>/dev/null || fail "perf record pf00"
perf buildid-list -i "$tmp/b.data" 2>/dev/null | grep -q '^0123456789abcdef0123456789abcdef01234500 ' ||
	fail "perf did not record the build-id ending in 00"
"$C2C" report --stdio -i "$tmp/b.data" >/dev/null 2>"$tmp/err" || fail "report b.data"
grep -q "build-id mismatch" "$tmp/err" && fail "build-id ending in 00: $(cat "$tmp/err")"
view "$tmp/b.data" "build-id ending in 00"
grep -q ' touch .*/pf00$' "$tmp/ours.view" || fail "build-id 00: touch is not named"
exit 0
