#!/usr/bin/env bash
# End to end: c2c-lite scored on the corpus of third-party programs with known false sharing
# and on our own examples (tests/real/README.md): every program of tests/real/manifest.txt,
# buggy and fixed variant, with every backend that records here (soft; watch where the words
# have a symbol). It asserts, per backend:
#   - the share of buggy programs whose top finding names the right object with the right
#     verdict is at least a floor: the score the current tool reaches, less a margin for
#     sampling noise (SOFT_FLOOR, WATCH_FLOOR below; raise them as the tool improves);
#   - the share of fixed variants with no false-sharing flag (and no true-sharing one unless
#     the program truly shares) is at least a floor (*_CLEAN_FLOOR);
#   - no soft run of an entry with outside_max leaves more of its time "ip outside the
#     function" (valkey-zmalloc: code in glibc the recorder must decode).
# The issue's target is SCORE_MIN=90 FIXED_CLEAN_MIN=100: setting them in the environment
# replaces the floors of every backend (e.g. `SCORE_MIN=90 bash tests/e2e/real-corpus.sh`).
# Before scoring, it checks that the scorer can fail: the rules on made-up findings, and one
# example scored with its variants swapped (the fixed one as the buggy one) must be flagged.
# CORPUS_ONLY=REGEX,... scores a subset (all by default), CORPUS_GROUPS=main,trial the entries
# of those manifest groups (main: those without a group key); CORPUS_KEEP=DIR keeps the traces.
# The `trial` group (issue 28's witnesses) has floors of its own, TRIAL_* below; SCORE_MIN and
# FIXED_CLEAN_MIN replace those too.
# Skips (77) when no backend can record here.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
export BUILD C2C

# Measured on the project's 2-core VM (tests/real/README.md, "Scores"); floors are below them.
# Watch: 8-10 of 10 at load 7-15, once 6; a watch run whose threads the scheduler put on one CPU
# shows nothing (nothing crossed CPUs), so its floor sits lower than its usual score (10 of 10 in
# three runs at make test's load after issue 28; 70 keeps that margin). Soft, after issue 28's
# attribution, byte members and confirmation (Intel KVM guest, three consecutive runs): 18, 17,
# 18 of 18, fixed variants 13/13 clean; the floor is one program under the lowest, 16 of 18.
SOFT_FLOOR=88 SOFT_CLEAN_FLOOR=100
WATCH_FLOOR=70 WATCH_CLEAN_FLOOR=100
# Issue 28's witnesses (manifest group `trial`) are scored on lines of their own: soft 8/8 with
# their source lines in three consecutive runs, 5/5 clean; watch 3/4 (the heap programs have no
# --watch words). Floors one program under: 7 of 8, and 2 of 4.
TRIAL_SOFT_FLOOR=87 TRIAL_SOFT_CLEAN_FLOOR=100
TRIAL_WATCH_FLOOR=50 TRIAL_WATCH_CLEAN_FLOOR=100

command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
start=$SECONDS
python3 tests/real/score.py --check-rules || exit 1

# The scorer must flag a wrong answer: scored as if swapped, false_sharing's fixed variant
# (padded: no finding) is a buggy program without its finding, and false_sharing itself is a
# "fixed" variant with a false-sharing flag; with a floor of 100%, score.sh must fail.
out=$(bash tests/real/score.sh --backends soft --only example-false_sharing --swap \
	--min soft=100/100 2>&1)
rc=$?
[ $rc -eq 77 ] && { echo "$out"; exit 77; }
if [ $rc -ne 1 ] || ! grep -Eq '^example-false_sharing +soft +NO +NO +- +NO ' <<<"$out"; then
	echo "FAIL: the swapped variants were not flagged (exit $rc):"
	echo "$out"
	exit 1
fi
echo "self-test: swapped variants flagged, as they must be"

min=(--min "soft=${SCORE_MIN:-$SOFT_FLOOR}/${FIXED_CLEAN_MIN:-$SOFT_CLEAN_FLOOR}"
	--min "watch=${SCORE_MIN:-$WATCH_FLOOR}/${FIXED_CLEAN_MIN:-$WATCH_CLEAN_FLOOR}"
	--min "trial:soft=${SCORE_MIN:-$TRIAL_SOFT_FLOOR}/${FIXED_CLEAN_MIN:-$TRIAL_SOFT_CLEAN_FLOOR}"
	--min "trial:watch=${SCORE_MIN:-$TRIAL_WATCH_FLOOR}/${FIXED_CLEAN_MIN:-$TRIAL_WATCH_CLEAN_FLOOR}")
extra=()
[ -n "${CORPUS_ONLY:-}" ] && extra+=(--only "$CORPUS_ONLY")
[ -n "${CORPUS_GROUPS:-}" ] && extra+=(--groups "$CORPUS_GROUPS")
[ -n "${CORPUS_KEEP:-}" ] && extra+=(--keep "$CORPUS_KEEP")
bash tests/real/score.sh "${min[@]}" "${extra[@]+"${extra[@]}"}"
rc=$?
echo "real-corpus: $((SECONDS - start)) s"
exit $rc
