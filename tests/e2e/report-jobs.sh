#!/usr/bin/env bash
# `report -j N` (aggregation threads, each folding the lines of one shard) prints byte for byte
# what `report -j 1` prints. Inputs: every c2c-gen scenario as a trace and as perf.data (several
# perf traits and seeds), the data/ files, and 200k-sample random traces whose lines spread over
# every shard; outputs: --stdio with option variants (display modes, coalesce keys, --show-all,
# -N, --double-cl), --json and --csv. Also: -j is refused for soft traces and out of range.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
[ -x "$C2C" ] && [ -x "$GEN" ] || { echo "fail: c2c-lite or c2c-gen is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# same FILE OPTIONS...: -j1 against -j2 and -j3 (exit status and stdout)
same() {
	local f=$1 j rc1 rc
	shift
	"$C2C" report -q -j 1 "$@" -i "$f" >"$tmp/j1" 2>/dev/null
	rc1=$?
	for j in 2 3; do
		"$C2C" report -q -j $j "$@" -i "$f" >"$tmp/jn" 2>/dev/null
		rc=$?
		n=$((n + 1))
		if [ $rc -ne $rc1 ] || ! cmp -s "$tmp/j1" "$tmp/jn"; then
			echo "FAIL $(basename "$f") $* -j$j: exit $rc1/$rc, output differs from -j1:"
			diff "$tmp/j1" "$tmp/jn" | head -5
			fail=$((fail + 1))
		fi
	done
}

variants() {
	local f=$1
	same "$f" --stdio
	same "$f" --stdio -d rmt
	same "$f" --stdio -d lcl -c pid,tid
	same "$f" --stdio -d peer -c tid,iaddr,dso
	same "$f" --stdio --show-all -N
	same "$f" --stdio -NN --double-cl --no-data-names
	same "$f" --stdio --phys
	same "$f" --json
	same "$f" --csv=rows
}

inputs=()
for sc in falseshare trueshare padded dsrcall kernel multiproc lost random chaos; do
	"$GEN" -s "$sc" -t "$tmp/$sc.c2c" -p "$tmp/$sc.data" >/dev/null 2>&1 ||
		{ echo "FAIL c2c-gen -s $sc"; fail=$((fail + 1)); continue; }
	inputs+=("$tmp/$sc.c2c" "$tmp/$sc.data")
done
for seed in 2; do
	"$GEN" -s chaos --seed $seed -t "$tmp/chaos$seed.c2c" >/dev/null 2>&1 && inputs+=("$tmp/chaos$seed.c2c")
	"$GEN" -s random --seed $seed -n 200000 -t "$tmp/big$seed.c2c" >/dev/null 2>&1 &&
		inputs+=("$tmp/big$seed.c2c")
done
for tr in "nocpu,pids" "perthread,noindex" "zstd" "hybrid,weight=struct" "pipe"; do
	"$GEN" -s multiproc -p "$tmp/mp-$tr.data" --perf "$tr" >/dev/null 2>&1 &&
		inputs+=("$tmp/mp-$tr.data")
done
for f in data/demo.c2c data/perf/*.data; do
	[ -f "$f" ] && inputs+=("$PWD/$f")
done
# every option variant on the inputs with the most lines, threads and coalesce keys; the
# default text and JSON on the others
for f in "${inputs[@]}"; do
	case "$(basename "$f")" in
	falseshare.* | multiproc.* | chaos.* | big*) variants "$f" ;;
	*) same "$f" --stdio; same "$f" --json ;;
	esac
done

# -j does not apply to the soft backend's estimate; out-of-range counts are refused
"$GEN" -s falseshare -t "$tmp/fs.c2c" >/dev/null 2>&1
if "$BUILD/tests/tools/estimate-gen" -s soft-false -n 10 -t "$tmp/soft.c2c" >/dev/null 2>&1; then
	n=$((n + 1))
	if "$C2C" report --stdio -j 2 -i "$tmp/soft.c2c" >/dev/null 2>"$tmp/err" ||
	   ! grep -q 'jobs 2 does not apply' "$tmp/err"; then
		echo "FAIL: -j 2 on a soft trace was not refused: $(head -1 "$tmp/err")"
		fail=$((fail + 1))
	fi
fi
for bad in 0 -1 257 x 2x; do
	n=$((n + 1))
	if "$C2C" report --stdio -j "$bad" -i "$tmp/fs.c2c" >/dev/null 2>"$tmp/err" ||
	   ! grep -q "is not a thread count" "$tmp/err"; then
		echo "FAIL: -j '$bad' was not refused"
		fail=$((fail + 1))
	fi
done

echo "report-jobs: ${#inputs[@]} inputs, $n comparisons, $fail failed"
[ $fail -eq 0 ]
