#!/usr/bin/env bash
# Recorder cost of the soft backend on a workload whose time is in the C library
# (tests/e2e/lib/libcall-prog.c: memset and a shared mutex, two threads): the recorder attaches
# (-p) to the running program for SECS seconds (default 3), so that its rusage is the
# recorder's alone, RUNS times (default 5). Prints per run the recorder's CPU ms, samples, CPU us
# per sample, peak RSS and the share of sampled time "ip outside the function", then the
# medians. C2C names the binary: run it once with an older build to compare.
#
#   BUILD=build bash bench/bench_libcode.sh      (after 'make'; needs perf_event_open and cc)
set -u
BUILD=${BUILD:-build}
SECS=${SECS:-3}
RUNS=${RUNS:-5}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
CC=${CC:-cc}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; [ -n "${wpid:-}" ] && kill "$wpid" 2>/dev/null' EXIT
[ -x "$C2C" ] || { echo "bench_libcode: build first ($C2C)"; exit 1; }
command -v python3 >/dev/null || { echo "bench_libcode: no python3, skipped"; exit 0; }
"$CC" -g -O1 -pthread -o "$TMP/prog" tests/e2e/lib/libcall-prog.c ||
	{ echo "bench_libcode: cannot build the workload"; exit 0; }

echo "bench_libcode: $C2C attached to libcall-prog for $SECS s, $RUNS runs"
for r in $(seq "$RUNS"); do
	"$TMP/prog" $((SECS + 2)) >/dev/null &
	wpid=$!
	sleep 0.3
	# the recorder's own rusage (wait4: CPU time in microseconds, /usr/bin/time rounds to 10 ms)
	python3 -c 'import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 1); os.dup2(fd, 2)
    os.execv(sys.argv[2], sys.argv[2:])
_, _, ru = os.wait4(pid, 0)
print(ru.ru_utime, ru.ru_stime, ru.ru_maxrss)' "$TMP/out" "$C2C" record --backend=soft \
		-o "$TMP/t.c2c" -p "$wpid" --duration "$SECS" >"$TMP/time"
	kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null; wpid=
	read -r u s rss <"$TMP/time"
	n=$(awk '/samples,/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "samples,") print $i }' \
		"$TMP/out" | tail -1)
	out=$("$C2C" report --stdio --stats -i "$TMP/t.c2c" 2>/dev/null |
		awk '/ip outside the function/ { print $(NF) }')
	awk -v u="$u" -v s="$s" -v n="${n:-0}" -v rss="$rss" -v out="${out:-0%}" 'BEGIN {
		ms = (u + s) * 1000
		printf "run  cpu %7.1f ms  samples %6d  %6.2f us/sample  max RSS %6d KiB  outside %s\n",
			ms, n, n ? ms * 1000 / n : 0, rss, out }'
done | tee "$TMP/runs"
awk '{ cpu[NR] = $3; us[NR] = $7; rss[NR] = $11 }
	function med(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	END { printf "median cpu %.1f ms, %.2f us/sample, max RSS %d KiB\n", med(cpu, NR), med(us, NR),
		med(rss, NR) }' "$TMP/runs"
