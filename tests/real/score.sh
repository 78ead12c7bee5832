#!/usr/bin/env bash
# Score c2c-lite on the corpus of third-party programs with known false sharing and on our own
# examples (manifest.txt, README.md): for each program and each backend that records here
# (soft; watch where the shared words have a symbol), record the buggy and the fixed variant
# and check the top finding's object and verdict and that the fixed variant is clean. Prints a
# table and the score per backend.
#
#   tests/real/score.sh [--backends soft,watch] [--only REGEX,...] [--min BACKEND=PCT[/CLEAN]]
#                       [--swap] [--keep DIR] [--timeout S]
#
# Exit status: 0, or 1 when a backend scores under a --min floor or a run fails, or 77 when no
# backend can record here (with the reason). Needs python3, cc, c++ and the built tree
# (make): C2C (default build/c2c-lite) and BUILD (default build) name them.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
export BUILD
[ -x "$C2C" ] || { echo "fail: no binary at $C2C (run make)"; exit 1; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

# The backends asked for that can record here; the others are dropped, and said so.
want=soft,watch
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--backends) want=$2; shift 2 ;;
	--backends=*) want=${1#--backends=}; shift ;;
	*) args+=("$1"); shift ;;
	esac
done
doctor=$("$C2C" doctor 2>/dev/null)
can=()
for b in ${want//,/ }; do
	if grep -q "^\[ok\] $b " <<<"$doctor"; then
		can+=("$b")
	else
		echo "note: the $b backend cannot record here:"
		grep -A1 "^\[no\] $b " <<<"$doctor" | sed 's/^/    /' || echo "    (c2c-lite doctor does not list it)"
	fi
done
if [ ${#can[@]} -eq 0 ]; then
	echo "skip: no backend of '$want' can record here"
	exit 77
fi
backends=$(IFS=,; echo "${can[*]}")
exec python3 tests/real/score.py --c2c "$C2C" --backends "$backends" "${args[@]+"${args[@]}"}"
