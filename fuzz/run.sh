#!/usr/bin/env bash
# `make fuzz`: builds every fuzz/fuzz_*.c as a libFuzzer binary in $BUILD/fuzz/ with clang
# (ASan + UBSan), the lib/ and report/ sources it needs compiled by clang alongside, and runs
# each for FUZZ_SECONDS seconds (0: build only) on a corpus $BUILD/fuzz/corpus-<name> seeded from
# small perf.data files recorded here (when perf works) and from data/*.c2c traces.
#   FUZZ_SECONDS=600 make fuzz        FUZZ_FILTER=perfdata runs only the matching targets
set -eu
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-0}
FILTER=${FUZZ_FILTER:-}
out=$BUILD/fuzz
mkdir -p "$out/obj"
command -v clang >/dev/null || { echo "fuzz: clang is not installed"; exit 1; }
SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-std=gnu11 -O1 -g -fno-omit-frame-pointer -Iinclude -I. $(pkg-config --cflags libzstd zlib)"
LIBS="$(pkg-config --libs libzstd zlib libelf libdw capstone) -lpthread -lm"

# The library sources a target may need: lib/ and the perf.data reader. Objects are rebuilt
# when their source is newer.
srcs=(lib/*.c report/read/perfdata*.c)
objs=()
for s in "${srcs[@]}"; do
	o=$out/obj/$(echo "$s" | tr / _).o
	if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ -n "$(find include report lib -name '*.h' -newer "$o" 2>/dev/null | head -1)" ]; then
		clang $CFLAGS $SAN -c "$s" -o "$o"
	fi
	objs+=("$o")
done

seed_perfdata() {
	local dir=$1 t
	t=$(mktemp -d)
	if command -v perf >/dev/null; then
		local rec=(perf record -q -e page-faults -c 1 -d -W --sample-cpu --phys-data)
		"${rec[@]}" -o "$t/file.data" -- /bin/true 2>/dev/null || true
		"${rec[@]}" -z -o "$t/z.data" -- /bin/true 2>/dev/null || true
		"${rec[@]}" -o - -- /bin/true >"$t/pipe.data" 2>/dev/null || true
		perf record -q -e page-faults,minor-faults -c 1 --sample-identifier -o "$t/two.data" \
			-- /bin/true 2>/dev/null || true
		for f in "$t"/*.data; do [ -s "$f" ] && cp "$f" "$dir/seed-$(basename "$f")"; done
	fi
	rm -rf "$t"
}

status=0
for f in fuzz/fuzz_*.c; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .c)
	name=${name#fuzz_}
	[ -n "$FILTER" ] && [[ "$name" != *"$FILTER"* ]] && continue
	bin=$out/fuzz_$name
	echo "  FUZZ    $bin"
	clang $CFLAGS -fsanitize=fuzzer,address,undefined -o "$bin" "$f" "${objs[@]}" $LIBS
	corpus=$out/corpus-$name
	mkdir -p "$corpus"
	if [ -z "$(ls -A "$corpus")" ]; then
		case "$name" in
		perfdata) seed_perfdata "$corpus" ;;
		esac
		for d in data/*.c2c; do [ -f "$d" ] && cp "$d" "$corpus/"; done
	fi
	[ "$FUZZ_SECONDS" -gt 0 ] || continue
	echo "  RUN     $bin for ${FUZZ_SECONDS}s on $corpus"
	if ! "$bin" -max_total_time="$FUZZ_SECONDS" -max_len=65536 -rss_limit_mb=2048 \
		-artifact_prefix="$out/crash-$name-" -print_final_stats=1 "$corpus" \
		>"$out/log-$name.txt" 2>&1; then
		echo "  FAILED  $name: see $out/log-$name.txt and $out/crash-$name-*"
		status=1
	fi
	grep -E '^stat::number_of_executed_units|^Done' "$out/log-$name.txt" | tail -2 || true
done
exit $status
