#!/usr/bin/env bash
# Callchains (issue 18). perf 6.1 is the oracle:
#  1. the perf.data reader delivers the callchains `perf script` prints, on files recorded here
#     with `perf record -g -e page-faults -d` (file, -z and pipe mode);
#  2. `c2c-lite report` draws the callers under each Pareto row as `perf c2c report` does:
#     callee first by default, caller first with -g, on perf.data that c2c-gen --callchain
#     writes (and on the c2c-lite trace written from the same events), with symbols from a
#     real program (--exe) merging the addresses of one function as perf does;
#  3. --no-call-graph gives perf's report without them; the trace stores each chain once.
# Skips (77) when perf is missing or is not perf 6.1.
set -u
BUILD=${BUILD:-build}
C2C=${C2C:-$PWD/$BUILD/c2c-lite}
GEN=$PWD/$BUILD/tests/tools/c2c-gen
DUMP=$PWD/$BUILD/tests/tools/perfdata-dump
. tests/e2e/lib/perf-diff.sh
need_perf61
for b in "$GEN" "$DUMP"; do [ -x "$b" ] || { echo "fail: $b is not built"; exit 1; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# c2c-gen --exe places callers in this program's .text as the Makefile builds the example (its
# flags, without a build's EXTRA_CFLAGS: make check's sanitizers move main elsewhere)
EXE=$tmp/false_sharing
${CC:-cc} -std=gnu11 -O1 -g -fno-omit-frame-pointer -o "$EXE" examples/false_sharing.c -lpthread ||
	{ echo "fail: cannot build examples/false_sharing.c"; exit 1; }
trap '' PIPE
printf '[buildid]\n\tdir = %s\n' "$tmp/buildid" >"$tmp/perfconfig"
export PERF_CONFIG=$tmp/perfconfig

# 1. real recordings: the chains, sample by sample
rec=(perf record -q -g -e page-faults -c 1 -d)
if "${rec[@]}" -o "$tmp/f.data" -- "$EXE" >/dev/null 2>"$tmp/err"; then
	"${rec[@]}" -z -o "$tmp/z.data" -- "$EXE" >/dev/null 2>&1 || { echo "FAIL: perf record -z"; exit 1; }
	"${rec[@]}" -o - -- "$EXE" 2>/dev/null >"$tmp/p.data" || { echo "FAIL: perf record -o -"; exit 1; }
	for f in f z p; do
		# perf script -F ip: each sample's chain, one address a line, a blank line after it
		perf script -i "$tmp/$f.data" -F ip 2>/dev/null | awk '
			NF { c = c (c == "" ? "" : "/") $1; next }
			c != "" { print c; c = "" }
			END { if (c != "") print c }' >"$tmp/$f.want"
		"$DUMP" -F chain "$tmp/$f.data" >"$tmp/$f.got" || { echo "FAIL: perfdata-dump $f.data"; exit 1; }
		runs=$((runs + 1))
		if [ ! -s "$tmp/$f.want" ] || ! cmp -s "$tmp/$f.want" "$tmp/$f.got"; then
			echo "FAIL: callchains of $f.data differ from perf script's"
			diff "$tmp/$f.want" "$tmp/$f.got" | head -5; fail=$((fail + 1))
		fi
	done
	echo "real perf record -g: $(wc -l <"$tmp/f.got") samples, chains as perf script prints them"
else
	echo "note: perf record -g failed here ($(head -1 "$tmp/err")): real-file checks skipped"
fi

# 1b. perf record --call-graph dwarf: the report unwinds the user stacks of perf.data (libdw,
# the registers and stack copy of each sample) into the chains perf script shows, in a program
# built without frame pointers
if cc -O2 -g -fomit-frame-pointer -o "$tmp/nofp" tests/e2e/lib/callchain-prog.c &&
	perf record -q --call-graph dwarf -e page-faults -c 1 -d -o "$tmp/dw.data" -- \
		"$tmp/nofp" 0 pages >/dev/null 2>&1; then
	perf script -i "$tmp/dw.data" -F ip,sym 2>/dev/null | awk '
		NF { c = c (c == "" ? "" : "/") $2; next } c != "" { print c; c = "" }' |
		grep '^inner/middle/outer/main/' | sed 's|^\(inner/middle/outer/main\)/.*|\1|' |
		sort | uniq -c >"$tmp/dw.want"
	# the report of the perf.data, and of its conversion (convert unwinds: traces keep chains)
	"$C2C" convert -i "$tmp/dw.data" -o "$tmp/dw.c2c" >"$tmp/dw.conv" ||
		{ echo "FAIL: convert of the dwarf perf.data"; fail=$((fail + 1)); }
	sed -n 's/^ *\(perf.data\|c2c-lite\): */convert --call-graph dwarf perf.data: \1 /p' "$tmp/dw.conv"
	for f in dw.data dw.c2c; do
	"$C2C" report --json --show-all -i "$tmp/$f" 2>/dev/null | python3 -c '
import json, sys, collections
d = json.load(sys.stdin)
n = collections.Counter()
for l in d["lines"]:
    for r in l["rows"]:
        for c in r.get("callers", []):
            s = "/".join(f["symbol"] or f["ip"] for f in c["frames"])
            if s.startswith("inner/middle/outer/main/"):
                n["inner/middle/outer/main"] += c["samples"]
for k, v in n.items():
    print("%7d %s" % (v, k))' >"$tmp/dw.got"
	runs=$((runs + 1))
	if [ ! -s "$tmp/dw.want" ] || ! diff -bq "$tmp/dw.want" "$tmp/dw.got" >/dev/null; then
		echo "FAIL: --call-graph dwarf $f: perf script has $(cat "$tmp/dw.want"), we $(cat "$tmp/dw.got")"
		fail=$((fail + 1))
	else
		echo "perf record --call-graph dwarf, $f: $(awk '{print $1}' "$tmp/dw.got") samples unwound through inner, middle, outer and main, as perf script"
	fi
	done
else
	echo "note: perf record --call-graph dwarf failed here: dwarf check skipped"
fi

# 2. the callers under the Pareto rows
for sx in falseshare kernel multiproc chaos falseshare-exe random-exe; do
	s=${sx%-exe} exe=
	[ "$s" = "$sx" ] || exe=$EXE
	p=$tmp/$sx
	"$GEN" -s "$s" --callchain ${exe:+--exe "$exe"} -t "$p.c2c" -p "$p.perf.data" ||
		{ echo "FAIL: c2c-gen -s $s --callchain"; exit 1; }
	for o in "" "-g" "-g -c tid,iaddr --show-all -NN" "--call-graph=callee -d rmt"; do
		# shellcheck disable=SC2086
		PERF_EXPECT=%-- check "$sx callchains" "$p" $o
	done
	INPUT=perf.data PERF_EXPECT=%-- check "$sx callchains, perf.data" "$p" -g
done
grep -q -- '--[0-9.]*%--main$' "$tmp/falseshare-exe.want" ||
	{ echo "FAIL: perf's graph names no caller 'main' (symbols were not used)"; fail=$((fail + 1)); }
# perf.data as perf record writes it for several events, and in pipe mode
for tr in ls,dummy,system aux,zstd; do
	"$GEN" -s falseshare --callchain --perf "$tr" -p "$tmp/tr.perf.data" || exit 1
	INPUT=perf.data PERF_EXPECT=%-- check "falseshare callchains --perf $tr" "$tmp/tr" -g
done

# JSON: every row has callers (every sample had a chain), the frames are named; none with
# --no-call-graph
if command -v python3 >/dev/null; then
	"$C2C" report --json -i "$tmp/falseshare-exe.c2c" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = [r for l in d["lines"] for r in l["rows"]]
assert rows, "no rows"
for r in rows:
    got = sum(c["samples"] for c in r.get("callers", []))
    assert 0 < got <= r["values"]["records"], (r["offset"], got, r["values"]["records"])
    assert all(c["frames"][0]["ip"] == r["code"]["ip"] for c in r["callers"]), r["offset"]
names = {f["symbol"] for r in rows for c in r["callers"] for f in c["frames"]}
assert "main" in names, names
print("json: %d rows, each with its callers" % len(rows))' ||
		{ echo "FAIL: JSON callers"; fail=$((fail + 1)); }
	"$C2C" report --json --no-call-graph -i "$tmp/falseshare-exe.c2c" | grep -q '"callers"' &&
		{ echo "FAIL: JSON callers with --no-call-graph"; fail=$((fail + 1)); }
fi

# 3. --no-call-graph: perf's report without the graphs
"$GEN" -s falseshare -t "$tmp/plain.c2c" -p "$tmp/plain.perf.data" || exit 1
PERF_INPUT=$tmp/plain.perf.data check "falseshare --no-call-graph" "$tmp/falseshare" --no-call-graph
if "$C2C" report --stdio -g -i "$tmp/plain.c2c" 2>/dev/null | grep -q -- '--[0-9.]*%--'; then
	echo "FAIL: a graph from a trace without callchains"; fail=$((fail + 1))
fi
"$C2C" report --stdio --call-graph=flat -i "$tmp/falseshare.c2c" >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "call-graph 'flat'" "$tmp/e" ||
	{ echo "FAIL: --call-graph=flat is not refused: $(cat "$tmp/e")"; fail=$((fail + 1)); }

# the trace keeps one copy of each chain per chunk: bytes per sample with and without them
n=20000
"$GEN" -s random -n $n -t "$tmp/nc.c2c" || exit 1
"$GEN" -s random -n $n --callchain -t "$tmp/wc.c2c" || exit 1
nc=$(stat -c %s "$tmp/nc.c2c") wc=$(stat -c %s "$tmp/wc.c2c")
awk -v n=$n -v a="$nc" -v b="$wc" 'BEGIN {
	printf "trace bytes per sample: %.2f without callchains, %.2f with (3 to 5 frames each)\n",
	       a / n, b / n }'
# a copy per sample costs 2 bytes of record header and a byte or more per frame: a reference
# into the chunk's dictionary costs the header and 1 or 2 bytes
[ $((wc - nc)) -lt $((n * 5)) ] || { echo "FAIL: callchains cost $(((wc - nc) / n)) bytes a sample"; fail=$((fail + 1)); }

echo "$runs comparisons, $fail different"
[ $fail -eq 0 ]
