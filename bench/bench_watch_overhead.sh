#!/usr/bin/env bash
# What the watch backend costs the workload: wall time of tests/e2e/lib/watch-prog.c (two threads
# incrementing the two halves of 8-byte words, a trap on every access when watched) alone, under
# `c2c-lite record --backend=watch` with the default bound (traps at most 80% of the workload's
# CPU time), with --watch-overhead=unlimited (every access), and under perf recording the same
# words as hardware breakpoints (`perf record -e mem:ADDR/8:rw`, every access). Prints wall time,
# the slowdown against the workload alone, and the share of the work watched; asserts nothing.
#   bash bench/bench_watch_overhead.sh            ITERS=20000000 (about 0.1 s alone)
# The unlimited and perf runs use ITERS/200 (a trap costs microseconds) and their slowdown is
# against the workload alone scaled to that count.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
ITERS=${ITERS:-20000000}
SMALL=$((ITERS / 200))
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$C2C" ] || { echo "bench_watch_overhead: build first ($C2C)"; exit 1; }
"$C2C" doctor 2>/dev/null | grep -q '^\[ok\] watch ' ||
	{ echo "bench_watch_overhead: skipped: watchpoints do not fire here (c2c-lite doctor)"; exit 0; }
# not position-independent: perf's mem: event takes the link-time address
"$CC" -O2 -g -pthread -no-pie -o "$tmp/prog" tests/e2e/lib/watch-prog.c ||
	{ echo "bench_watch_overhead: cannot build the program"; exit 1; }
addr=$(nm "$tmp/prog" | awk '$3 == "A" { print "0x" $1 }')

# secs CMD...: best wall seconds of 3 runs
secs() {
	local best= t
	for _ in 1 2 3; do
		/usr/bin/time -f %e -o "$tmp/t" "$@" >/dev/null 2>&1
		t=$(tail -1 "$tmp/t")
		best=$(awk -v a="$t" -v b="${best:-1e9}" 'BEGIN { print (a < b ? a : b) }')
	done
	echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" -v k="${3:-1}" 'BEGIN { if (b > 0) printf "%.1fx", a * k / b; else print "n/a" }'; }

alone=$(secs "$tmp/prog" "$ITERS")
bounded=$(secs "$C2C" record --backend=watch --watch A/8 -o "$tmp/b.c2c" -- "$tmp/prog" "$ITERS")
"$C2C" report --json -i "$tmp/b.c2c" >"$tmp/b.json" 2>/dev/null
seen=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["header"]["watch_duty"]; print("%s %.3g%%" % ("at most" if d["seen_is_bound"] else "about", 100 * d["seen"]))' "$tmp/b.json" 2>/dev/null)
unl=$(secs "$C2C" record --backend=watch --watch A/8 --watch-overhead=unlimited -o "$tmp/u.c2c" -- \
	"$tmp/prog" "$SMALL")
startup=$(secs "$C2C" record --backend=watch --watch A/8 -o "$tmp/s.c2c" -- "$tmp/prog" 1)
printf "watch overhead: %s iterations a thread, two threads, one 8-byte word watched\n" "$ITERS"
printf "  %-40s %8.3f s\n" "c2c-lite watch, workload of 1 iteration" "$startup"
printf "  %-40s %8.3f s\n" "workload alone" "$alone"
printf "  %-40s %8.3f s  %6s  (saw %s of the work)\n" "c2c-lite --backend=watch (default bound)" \
	"$bounded" "$(ratio "$bounded" "$alone")" "${seen:-?}"
printf "  %-40s %8.3f s  %6s\n" "... less the recorder's fixed start" \
	"$(awk -v a="$bounded" -v b="$startup" 'BEGIN { print a - b }')" \
	"$(ratio "$(awk -v a="$bounded" -v b="$startup" 'BEGIN { print a - b }')" "$alone")"
printf "  %-40s %8.3f s  %6s  (at %s iterations; every access)\n" \
	"c2c-lite --watch-overhead=unlimited" "$unl" "$(ratio "$unl" "$alone" $((ITERS / SMALL)))" "$SMALL"
if command -v perf >/dev/null; then
	p=$(secs perf record -q -e "mem:$addr/8:rw" -o "$tmp/p.data" -- "$tmp/prog" "$SMALL")
	printf "  %-40s %8.3f s  %6s  (at %s iterations; every access)\n" "perf record -e mem:A/8:rw" \
		"$p" "$(ratio "$p" "$alone" $((ITERS / SMALL)))" "$SMALL"
	printf "  c2c-lite unlimited / perf: %s\n" "$(ratio "$unl" "$p")"
fi
