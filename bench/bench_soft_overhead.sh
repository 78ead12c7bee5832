#!/usr/bin/env bash
# What the soft backend costs the workload (issue 16: at most 3% of its time). Each example of
# examples/ runs a fixed amount of work (EXAMPLES_ITERS, examples/work.h; the count is calibrated
# here so that a run alone takes about TARGET seconds) in several ways, pinned with taskset to the
# same CPUs: alone; under `c2c-lite record --backend=soft` (its default: the rate its 3% bound
# picks here, from 4000 Hz down, printed first); the same at 4000 Hz (--soft-overhead unlimited);
# under `perf record` of what the soft backend samples (cpu-clock:u with the user
# registers and the CPU: raw samples, decoded later), at the rate the soft backend picked and at
# 4000 Hz; the soft backend runs with its confirmation by watchpoints (the default, its traps
# within the same bound) and with --no-confirm. Last, when make bench built it,
# spin-pinned (bench/spin-pinned.c): one thread of fixed work pinned to the last CPU of the set,
# nothing contended: what the samples cost a thread, which the examples' contention blurs. hyperfine times RUNS runs of each (default 20), in ROUNDS rounds (default 4)
# that interleave them, so that a change in the machine's load hits them alike; each command
# runs under tests/tools/run-rusage twice over, outside the recorder (the CPU time of everything)
# and around the workload (its own CPU time), as hyperfine exports only mean CPU times.
# bench/welch.py prints, per example and recorder: the wall time mean ± sd, the overhead in % of
# the workload alone with its 95% confidence interval (Welch's t-interval on the difference of
# the means), whether the 3% target is met, not met or undecidable with that noise, the same net
# of the recorder's start-up (measured on a workload of one iteration), and the overheads in CPU
# time (user+sys) of the whole run and of the workload itself, which a shared machine's load
# disturbs less than wall time. perf runs with --no-bpf-event: perf 6.1's BPF side-band thread
# polls with a 1 s timeout that perf record waits out at exit (1.1 s of sleep on every run).
# Asserts nothing.
#   BUILD=build bash bench/bench_soft_overhead.sh    RUNS=20 ROUNDS=4 WARMUP=1 TARGET=0.3
#   CPUS=0-1 (taskset list) EXAMPLES="false_sharing ..." (default: every example built)
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
RUSAGE=$PWD/$BUILD/tests/tools/run-rusage
EXDIR=$PWD/$BUILD/examples
RUNS=${RUNS:-20}
ROUNDS=${ROUNDS:-4}
WARMUP=${WARMUP:-1}
TARGET=${TARGET:-0.3}
CPUS=${CPUS:-0-$(($(nproc) > 1 ? 1 : 0))}
GOAL=${GOAL:-3}
REGS=ax,bx,cx,dx,si,di,bp,sp,ip,r8,r9,r10,r11,r12,r13,r14,r15
start=$(date +%s)
for t in hyperfine taskset python3; do
	command -v $t >/dev/null || { echo "bench_soft_overhead: $t not installed, skipped"; exit 0; }
done
[ -x "$C2C" ] && [ -x "$RUSAGE" ] || { echo "bench_soft_overhead: build first ($C2C, $RUSAGE)"; exit 1; }
"$C2C" doctor 2>/dev/null | grep -q '^\[ok\] soft ' ||
	{ echo "bench_soft_overhead: skipped: the soft backend cannot record here (c2c-lite doctor)"; exit 0; }
have_perf=1
perf record -q --no-bpf-event -e cpu-clock:u -o /dev/null -- true >/dev/null 2>&1 || have_perf=0
[ $((RUNS % ROUNDS)) -eq 0 ] || RUNS=$(((RUNS / ROUNDS + 1) * ROUNDS))
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SPIN=$PWD/$BUILD/bench/spin-pinned
examples=${EXAMPLES:-$(cd "$EXDIR" && for f in *; do [ -x "$f" ] && echo "$f"; done)
	[ -x "$SPIN" ] && [ "$(nproc)" -gt 1 ] && echo spin-pinned}
# exbin NAME: the workload's binary (spin-pinned is bench/spin-pinned.c, built by make bench)
exbin() { if [ "$1" = spin-pinned ]; then echo "$SPIN"; else echo "$EXDIR/$1"; fi; }

# the commands, as hyperfine runs them (-N: no shell); @IN@ and @OUT@ are run-rusage files
# the rate the soft backend's default bound picks here (it measures a sample's cost at start):
# perf records at it too, so that the two compare at the same rate
rate=$("$C2C" record -v --backend=soft --no-confirm -o "$TMP/rate.c2c" -- true 2>&1 |
	sed -n 's/^c2c-lite: info: soft backend: sampling at \([0-9]*\) Hz:.*/\1/p')
rate=${rate:-4000}
keys=(alone soft softnc soft4k)
labels=("alone" "c2c-lite soft (confirmation on)" "c2c-lite soft --no-confirm"
	"c2c-lite soft, 4000 Hz")
cmds=("$RUSAGE @OUT@ $RUSAGE @IN@"
      "$RUSAGE @OUT@ $C2C record -q --backend=soft -o $TMP/t.c2c -- $RUSAGE @IN@"
      "$RUSAGE @OUT@ $C2C record -q --backend=soft --no-confirm -o $TMP/t.c2c -- $RUSAGE @IN@"
      "$RUSAGE @OUT@ $C2C record -q --backend=soft --soft-overhead unlimited -o $TMP/t.c2c -- $RUSAGE @IN@")
if [ $have_perf = 1 ]; then
	keys+=(perf)
	labels+=("perf record cpu-clock:u, $rate Hz")
	cmds+=("$RUSAGE @OUT@ perf record -q --no-bpf-event -e cpu-clock:u -F $rate --sample-cpu
		--user-regs=$REGS -o $TMP/t.data -- $RUSAGE @IN@")
	if [ "$rate" != 4000 ]; then
		keys+=(perf4k)
		labels+=("perf record cpu-clock:u, 4000 Hz")
		cmds+=("$RUSAGE @OUT@ perf record -q --no-bpf-event -e cpu-clock:u -F 4000 --sample-cpu
			--user-regs=$REGS -o $TMP/t.data -- $RUSAGE @IN@")
	fi
fi

# walltime ITERS EXAMPLE: seconds of the median of 3 runs alone
walltime() {
	rm -f "$TMP/cal"
	for _ in 1 2 3; do
		EXAMPLES_ITERS=$1 taskset -c "$CPUS" "$RUSAGE" "$TMP/cal" "$(exbin "$2")" 2>/dev/null
	done
	sort -n "$TMP/cal" | awk 'NR == 2 { print $1 }'
}

# calibrate EXAMPLE: an iteration count for about TARGET seconds alone
calibrate() {
	local n=1000000 t
	while :; do
		t=$(walltime $n "$1")
		awk -v t="$t" -v g="$TARGET" 'BEGIN { exit !(t >= g / 4) }' && break
		n=$((n * 8))
		[ $n -gt 100000000000 ] && break
	done
	awk -v n=$n -v t="$t" -v g="$TARGET" 'BEGIN { printf "%.0f\n", n * g / t }'
}

# measure NAME EXAMPLE ITERS: ROUNDS hyperfine runs of every command
measure() {
	local name=$1 ex=$2 r i c list
	for r in $(seq 0 $((ROUNDS - 1))); do
		list=()
		for i in "${!keys[@]}"; do
			c=${cmds[$i]//@OUT@/$TMP/$name.${keys[$i]}.outer}
			c=${c//@IN@/$TMP/$name.${keys[$i]}.inner}
			list+=("$(echo taskset -c "$CPUS" $c "$(exbin "$ex")")")
		done
		EXAMPLES_ITERS=$3 hyperfine -N --style none --warmup "$WARMUP" --runs $((RUNS / ROUNDS)) \
			--export-json "$TMP/$name.$r.json" "${list[@]}" >/dev/null 2>"$TMP/hf.err" ||
			{ echo "bench_soft_overhead: hyperfine failed on $name:"; head -5 "$TMP/hf.err"; return 1; }
	done
}

echo "bench_soft_overhead: $RUNS runs of each command in $ROUNDS interleaved rounds (+$WARMUP" \
	"warm-up a round), CPUs $CPUS, target about $TARGET s a run alone; load average" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
[ $have_perf = 1 ] || echo "  (perf record cannot record cpu-clock:u here: c2c-lite only)"
# the rate the soft backend's default bound picks here (it measures a sample's cost at start)
"$C2C" record -v --backend=soft -o "$TMP/rate.c2c" -- true 2>&1 |
	sed -n 's/^c2c-lite: debug: soft backend: \(a sample costs.*\)/  c2c-lite soft: \1/p;
		s/^c2c-lite: info: soft backend: \(sampling at [0-9]* Hz\)[:,].*/  c2c-lite soft: \1 (its 3% bound)/p'

measure start-up false_sharing 1 || exit 1
meta_ex=
for ex in $examples; do
	n=$(calibrate "$ex")
	measure "$ex" "$ex" "$n" || continue
	meta_ex+="${meta_ex:+,}{\"name\": \"$ex\", \"iters\": $n}"
done
meta_cmd=
for i in "${!keys[@]}"; do
	meta_cmd+="${meta_cmd:+,}{\"key\": \"${keys[$i]}\", \"label\": \"${labels[$i]}\"}"
done
cat >"$TMP/meta.json" <<EOF
{"warmup": $WARMUP, "runs": $RUNS, "rounds": $ROUNDS, "baseline": "alone",
 "startup": {"name": "start-up", "example": "false_sharing", "iters": 1}, "examples": [$meta_ex], "commands": [$meta_cmd]}
EOF
python3 bench/welch.py "$TMP" "$GOAL"
echo "  (target: at most $GOAL% of the workload's time; load average now" \
	"$(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - start)) s)"
