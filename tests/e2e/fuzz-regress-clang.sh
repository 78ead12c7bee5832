#!/usr/bin/env bash
# The fuzzing corpora (fuzz/regress/, fuzz/seeds/, data/perf/*.data, data/*.c2c, and for the
# function bounds the shared libraries the fuzz binary loads) through the
# libFuzzer binaries themselves, built by `make fuzz` with clang, ASan and UBSan: clang's UBSan
# reports what gcc's does not (an offset applied to a null pointer), so an input that was a
# clang finding is replayed where it was found. tests/test_fuzz_regress.c replays the same
# files through the same code built with gcc. Skips without clang.
set -u
command -v clang >/dev/null || { echo "fuzz-regress-clang: clang is not installed"; exit 77; }
BUILD=${BUILD:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! FUZZ_SECONDS=0 BUILD="$BUILD" bash fuzz/run.sh >"$log" 2>&1; then
	cat "$log"
	echo "fuzz-regress-clang: make fuzz failed"
	exit 1
fi
status=0
for t in perfdata trace spe fnbounds; do
	files=()
	for f in fuzz/regress/$t/* fuzz/seeds/$t/*; do [ -f "$f" ] && files+=("$f"); done
	case $t in
	perfdata) files+=(data/perf/*.data) ;;
	trace) files+=(data/*.c2c) ;;
	fnbounds)
		while read -r lib; do
			[ -f "$lib" ] && files+=("$lib")
		done < <(ldd "$BUILD/fuzz/fuzz_$t" 2>/dev/null | grep -o '/[^ ]*\.so[^ ]*')
		# and capstone, which c2c-lite loads when it disassembles (lib/capstone.c)
		for lib in "$(pkg-config --variable=libdir capstone)"/libcapstone.so.[0-9]*; do
			[ -f "$lib" ] && files+=("$lib")
		done ;;
	esac
	if ! "$BUILD/fuzz/fuzz_$t" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
		"${files[@]}" >"$log" 2>&1; then
		grep -E 'runtime error|ERROR|fuzz:|Running:' "$log" | tail -5
		echo "fuzz-regress-clang: $t: an input fails (above)"
		status=1
	else
		echo "fuzz-regress-clang: $t: ${#files[@]} inputs"
	fi
done
exit $status
