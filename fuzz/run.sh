#!/usr/bin/env bash
# `make fuzz`: builds every fuzz/fuzz_*.c as a libFuzzer binary in $BUILD/fuzz/ with clang
# (ASan + UBSan; fuzz/mutator_<name>.c, when present, is linked in without coverage
# instrumentation), the lib/ and report/ sources (and the recorder's function bounds,
# record/fnbounds.c) compiled by clang into an archive beside it, and
# runs each for FUZZ_SECONDS seconds (0: build only) on the corpus $BUILD/fuzz/corpus-<name>,
# made (when empty) from fuzz/regress/<name>/, fuzz/seeds/<name>/ and inputs made here (see
# seed_*). fuzz/README.md says more.
#   FUZZ_SECONDS=600 make fuzz        FUZZ_FILTER=perfdata runs only the matching targets
#   FUZZ_COVERAGE=1 make fuzz         also builds $BUILD/fuzz/cov-<name> (clang source-based
#                                     coverage) and prints the per-function coverage of the
#                                     readers' parsers over the corpus
set -eu
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-0}
FILTER=${FUZZ_FILTER:-}
out=$BUILD/fuzz
mkdir -p "$out/obj"
command -v clang >/dev/null || { echo "fuzz: clang is not installed"; exit 1; }
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-std=gnu11 -O1 -g -fno-omit-frame-pointer -Iinclude -I. $(pkg-config --cflags libzstd zlib)"
CFLAGS="$CFLAGS -DC2C_CAPSTONE_SONAME=\"$(make -s --no-print-directory capstone-soname)\""
LIBS="$(pkg-config --libs libzstd zlib libelf libdw) -ldl -lpthread -lm"
if [ -f /usr/include/libiberty/demangle.h ]; then
	CFLAGS="$CFLAGS -DC2C_HAVE_LIBIBERTY"
	LIBS="$LIBS -liberty"
fi
# libFuzzer's limits: an allocation or a resident size beyond them is a finding (an allocation
# sized by untrusted bytes), a run beyond -timeout seconds too
LIMITS="-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10"
# one process per corpus: re-reading it for other processes' units only costs time
OPTS="-reload=0"
# fuzz_fnbounds: 16 KiB (small shared libraries fit; larger inputs only slow every execution);
# fuzz_spe: 1 KiB of raw SPE AUX data holds 25 to 40 records over up to four queues (4 KiB ran at
# half the speed)
max_len_of() {
	case "$1" in
	fnbounds) echo "${FUZZ_MAX_LEN:-16384}" ;;
	spe) echo "${FUZZ_MAX_LEN:-1024}" ;;
	*) echo "${FUZZ_MAX_LEN:-131072}" ;;
	esac
}

# The library: lib/ and report/ (without the command front ends) and record/fnbounds.c (the
# recorder's one parser of files it did not write: shared libraries' symbols and unwind
# tables), as an archive so that a target
# links only what it uses. Objects are rebuilt when their source or any header is newer. The
# readers get full coverage instrumentation (edges and comparisons); the report code behind them
# edges only (comparison tracing there cost a fifth of the time and guides nothing in the
# input's format), and so does the Arm SPE decoder (its packet headers are single bytes that
# edges find; comparison tracing was 40% of fuzz_spe's time); the printers and the rest none
# (still ASan and UBSan): their branches say nothing about the input.
READERS="lib/trace_read.c lib/trace_info.c report/read/perfdata.c report/read/perfdata-attr.c
	report/read/perfdata-spe.c report/read/perfdata-feat.c report/read/perfdata-queue.c report/read/perfdata-rec.c
	record/fnbounds.c"
REPORT="report/aggregate/cltable.c report/aggregate/cltable-feed.c report/aggregate/cltable-accum.c
	report/aggregate/cltable-shard.c report/aggregate/cltable-finish.c report/aggregate/cltable-results.c
	report/resolve/maps.c report/aggregate/dsrc.c
	report/read/spe.c report/read/spe-pkt.c report/read/spe-rec.c
	report/aggregate/topdown-agg.c report/aggregate/estimate.c report/aggregate/estimate-confirm.c
	report/aggregate/estimate-finish.c report/aggregate/estimate-results.c report/aggregate/watch-model.c"
build_lib() {
	local kind=$1 flags=$2 lib=$out/libc2c-$1.a s o f objs=() stale=0
	mkdir -p "$out/obj-$kind"
	for s in lib/*.c report/*.c report/*/*.c record/fnbounds.c; do
		case "$s" in report/cmd-*.c) continue ;; esac
		o=$out/obj-$kind/$(echo "$s" | tr / _).o
		if [[ " "$READERS" " == *[[:space:]]$s[[:space:]]* ]]; then
			f=$flags
		elif [[ " "$REPORT" " == *[[:space:]]$s[[:space:]]* ]]; then
			f="$flags -fno-sanitize-coverage=trace-cmp"
		else
			f=${flags//-fsanitize=fuzzer-no-link/}
		fi
		if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ fuzz/run.sh -nt "$o" ] ||
			[ -n "$(find include report lib record -name '*.h' -newer "$o" 2>/dev/null | head -1)" ]; then
			clang $CFLAGS $f -c "$s" -o "$o"
			stale=1
		fi
		objs+=("$o")
	done
	if [ $stale = 1 ] || [ ! -f "$lib" ]; then
		rm -f "$lib" && ar rcs "$lib" "${objs[@]}"
	fi
}

# Move the non-empty files of directory @1 that fit -max_len into the corpus @2; remove @1.
keep_seeds() {
	local f
	for f in "$1"/*; do
		[ -s "$f" ] && [ "$(stat -c %s "$f")" -le "$MAX_LEN" ] && cp "$f" "$2/seed-$(basename "$f")"
	done
	rm -rf "$1"
}

# perf.data seeds: small files perf records here (software events, as the VM has no PMU), the
# files in data/perf/ and generated ones.
seed_perfdata() {
	local dir=$1 t f s
	t=$(mktemp -d)
	if command -v perf >/dev/null; then
		local base=(perf record -q -c 1 -o)
		"${base[@]}" "$t/pf.data" -e page-faults -d -W --sample-cpu --phys-data -- /bin/true
		"${base[@]}" "$t/pfz.data" -z -e page-faults -d -W --sample-cpu --phys-data -- /bin/true
		"${base[@]}" - -e page-faults -d --sample-cpu -- /bin/true >"$t/pipe.data"
		"${base[@]}" "$t/two.data" -e page-faults,minor-faults --sample-identifier -- /bin/true
		"${base[@]}" "$t/group.data" -e '{page-faults,minor-faults}' -d -- /bin/true
		"${base[@]}" "$t/g.data" -e page-faults -g -- /bin/true
		"${base[@]}" "$t/dwarf.data" -e page-faults --call-graph dwarf,512 -- /bin/true
		"${base[@]}" - -e page-faults,minor-faults -g --sample-identifier -- /bin/true \
			>"$t/pipe-two.data"
		perf record -q -e cpu-clock -F 1000 -a -o "$t/sys.data" -- sleep 0.01
		"${base[@]}" "$t/tp.data" -e sched:sched_process_exec -e page-faults -- /bin/true
		perf record -q -e cpu-clock -F 10000 --sample-cpu -T -o "$t/clock.data" -- /bin/true
	fi 2>/dev/null || true
	for f in data/perf/*.data; do cp "$f" "$t/real-$(basename "$f")"; done
	for s in falseshare dsrcall kernel multiproc lost chaos; do
		"$BUILD/tests/tools/c2c-gen" -s $s -n 40 -p "$t/gen-$s.data" >/dev/null 2>&1 || true
	done
	for s in spe spe,noctx spe,noauxindex spe,auxcut,spebad spe,zstd; do   # Arm SPE AUX data
		"$BUILD/tests/tools/c2c-gen" -s chaos -n 40 --arch aarch64 --perf $s \
			-p "$t/gen-${s//,/-}.data" >/dev/null 2>&1 || true
	done
	keep_seeds "$t" "$dir"
}

# Trace seeds: data/*.c2c, generated traces, a recording and conversions of perf.data files.
seed_trace() {
	local dir=$1 t f s
	t=$(mktemp -d)
	cp data/*.c2c "$t/" 2>/dev/null || true
	for s in falseshare dsrcall kernel multiproc lost chaos; do
		"$BUILD/tests/tools/c2c-gen" -s $s -n 40 -t "$t/gen-$s.c2c" >/dev/null 2>&1 || true
	done
	for s in soft-false soft-true watch; do
		"$BUILD/tests/tools/estimate-gen" -s $s -t "$t/est-$s.c2c" >/dev/null 2>&1 || true
	done
	# -u: no kallsyms snapshot (megabytes)
	"$BUILD/c2c-lite" record -u -e page-faults -c 1 -o "$t/rec.c2c" --zstd 0 -- /bin/true \
		>/dev/null 2>&1 || true
	"$BUILD/c2c-lite" record -u -e page-faults -o "$t/recz.c2c" -- /bin/true >/dev/null 2>&1 || true
	"$BUILD/c2c-lite" record -u --backend soft -F 1000 --zstd 0 -o "$t/soft.c2c" -- \
		"$BUILD/examples/false_sharing" 0.05 >/dev/null 2>&1 || true
	for f in data/perf/pipe.data data/perf/z-phys.data; do
		"$BUILD/c2c-lite" convert -q "$f" -o "$t/conv-$(basename "$f" .data).c2c" \
			>/dev/null 2>&1 || true
	done
	"$BUILD/c2c-lite" convert -q data/perf/z-phys.data --zstd -o "$t/convz.c2c" >/dev/null 2>&1 ||
		true
	keep_seeds "$t" "$dir"
}

# Arm SPE seeds: the AUX data of c2c-gen's SPE perf.data files (every AUXTRACE record's payload,
# found with perf report -D), each behind the 4 bytes that set fuzz_spe_input()'s options.
seed_spe() {
	local dir=$1 t f tr n=0 off len
	t=$(mktemp -d)
	command -v perf >/dev/null || { rm -rf "$t"; return 0; }
	for tr in spe spe,noctx spe,spebad spe,auxcut spe,midr=0x410fd4f0; do
		f=$t/gen.data
		"$BUILD/tests/tools/c2c-gen" -s chaos -n 60 --arch aarch64 --perf "$tr" -p "$f" \
			>/dev/null 2>&1 || continue
		perf report -D -i "$f" 2>/dev/null |
			sed -n 's/^[0-9]* [0-9]* \(0x[0-9a-f]*\) \[\(0x[0-9a-f]*\)\]: PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\).*/\1 \2 \3/p' |
			while read -r off hdr len; do
				n=$((n + 1))
				{ printf '%b' "\\x$(printf %02x $((n * 37 % 256)))\\x08\\x01\\x10"
				  tail -c +$((off + hdr + 1)) "$f" | head -c $((len))
				} >"$t/${tr//[,=]/-}-$n"
			done
	done
	rm -f "$t/gen.data"
	keep_seeds "$t" "$dir"
}

# ELF seeds: shared libraries built here from a small source (sized symbols in .symtab, only
# .dynsym once stripped, static and .cold functions that only .eh_frame bounds, CIEs with and
# without a personality, no .eh_frame_hdr table), and the system's shared libraries that fit
# -max_len.
seed_fnbounds() {
	local dir=$1 t f n=0 cc=${CC:-cc}
	t=$(mktemp -d)
	cat >"$t/lib.c" <<-'SRC'
	static __attribute__((noinline)) int helper(int *p, int n)
	{
		for (int i = 0; i < n; i++)
			p[i] += i;
		return p[0];
	}
	__attribute__((cold, noinline)) static void rare(int *p) { p[1] = 0; }
	int api(int *p, int n)
	{
		if (__builtin_expect(n < 0, 0))
			rare(p);
		return helper(p, n);
	}
	int api2(int *p) { return api(p, 4) + api(p + 4, 2); }
	static void undo(int **p) { if (*p) (*p)[0] = 0; }
	extern void callback(int *p);
	int guarded(int *p, int n)
	{
		int *g __attribute__((cleanup(undo))) = p;
		callback(g);
		return n + g[1];
	}
	SRC
	# -fexceptions: the cleanup's landing pad gives a "zPLR" CIE (personality, LSDA), the
	# other functions "zR"
	local small=(-shared -fPIC -O2 -fexceptions -Wl,-z,max-page-size=4096
		-Wl,-z,noseparate-code)
	if $cc "${small[@]}" -o "$t/elf-symtab.so" "$t/lib.c" 2>/dev/null; then
		strip -o "$t/elf-dynsym.so" "$t/elf-symtab.so" 2>/dev/null || true
		$cc "${small[@]}" -Wl,--no-eh-frame-hdr -s -o "$t/elf-nohdr.so" "$t/lib.c" 2>/dev/null ||
			true
		$cc "${small[@]}" -m32 -o "$t/elf-32.so" "$t/lib.c" 2>/dev/null || true
	fi
	rm -f "$t/lib.c"
	for f in /usr/lib/x86_64-linux-gnu/*.so*; do
		[ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s "$f")" -le "$MAX_LEN" ] || continue
		readelf -S "$f" 2>/dev/null | grep -q eh_frame_hdr || continue
		cp "$f" "$t/sys-$(basename "$f")"
		n=$((n + 1))
		[ $n -ge 12 ] && break
	done
	keep_seeds "$t" "$dir"
}

# Per-function line coverage of @files by the corpus of target @name.
coverage() {
	local name=$1 corpus=$2 bin=$out/cov-$name prof=$out/cov-$name.profdata
	shift 2
	clang $CFLAGS -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping -o "$bin" \
		"fuzz/fuzz_$name.c" $(ls fuzz/mutator_$name.c 2>/dev/null) lib/*.c \
		$(ls report/*.c report/*/*.c | grep -v '/cmd-') record/fnbounds.c $LIBS
	rm -f "$out"/cov-$name.profraw
	LLVM_PROFILE_FILE="$out/cov-$name.profraw" "$bin" -runs=0 "$corpus" >/dev/null 2>&1 || true
	llvm-profdata merge -sparse "$out/cov-$name.profraw" -o "$prof"
	llvm-cov report "$bin" -instr-profile="$prof" -show-functions "$@"
	llvm-cov report "$bin" -instr-profile="$prof" "$@" | tail -1
}

[ -x "$BUILD/tests/tools/c2c-gen" ] && [ -x "$BUILD/c2c-lite" ] ||
	make --no-print-directory BUILD="$BUILD" >/dev/null
build_lib san "-fsanitize=fuzzer-no-link $SAN"
status=0
for f in fuzz/fuzz_*.c; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .c)
	name=${name#fuzz_}
	[ -n "$FILTER" ] && [[ "$name" != *"$FILTER"* ]] && continue
	bin=$out/fuzz_$name
	MAX_LEN=$(max_len_of "$name")
	echo "  FUZZ    $bin"
	extra=()
	if [ -f "fuzz/mutator_$name.c" ]; then
		clang $CFLAGS $SAN -c "fuzz/mutator_$name.c" -o "$out/mutator_$name.o"
		extra+=("$out/mutator_$name.o")
	fi
	clang $CFLAGS -fsanitize=fuzzer $SAN -o "$bin" "$f" "${extra[@]}" "$out/libc2c-san.a" $LIBS
	[ "$FUZZ_SECONDS" -gt 0 ] || [ -n "${FUZZ_COVERAGE:-}" ] || continue
	corpus=$out/corpus-$name
	mkdir -p "$corpus"
	if [ -z "$(ls -A "$corpus")" ]; then
		for d in "fuzz/regress/$name" "fuzz/seeds/$name"; do
			cp "$d"/* "$corpus/" 2>/dev/null || true
		done
		case "$name" in
		perfdata) seed_perfdata "$corpus" ;;
		trace) seed_trace "$corpus" ;;
		spe) seed_spe "$corpus" ;;
		fnbounds) seed_fnbounds "$corpus" ;;
		esac
	fi
	dict=()
	[ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
	if [ -n "${FUZZ_COVERAGE:-}" ]; then
		case "$name" in
		perfdata) coverage "$name" "$corpus" report/read/perfdata*.c ;;
		trace) coverage "$name" "$corpus" lib/trace_read.c lib/trace_info.c ;;
		spe) coverage "$name" "$corpus" report/read/spe*.c ;;
		fnbounds) coverage "$name" "$corpus" record/fnbounds.c ;;
		esac
	fi
	[ "$FUZZ_SECONDS" -gt 0 ] || continue
	echo "  RUN     $bin for ${FUZZ_SECONDS}s on $corpus"
	# short allocation stacks: recording 30 frames per malloc was a tenth of the time
	if ! ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=5} nice -n 19 "$bin" -max_total_time="$FUZZ_SECONDS" -max_len="$MAX_LEN" $LIMITS $OPTS \
		"${dict[@]}" -artifact_prefix="$out/crash-$name-" -print_final_stats=1 "$corpus" \
		>"$out/log-$name.txt" 2>&1; then
		echo "  FAILED  $name: see $out/log-$name.txt and $out/crash-$name-*"
		status=1
	fi
	grep -E '^stat::number_of_executed_units|^Done' "$out/log-$name.txt" | tail -2 || true
done
exit $status
