# Helpers sourced by the differential tests against perf 6.1 (tests/e2e/report-diff.sh,
# tests/e2e/perfdata-traits.sh): a subdirectory, so tests/run.sh does not run it.
# The sourcing script sets BUILD, C2C and tmp (a temporary directory) first.
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

# Skips (77) unless perf 6.1, the reference, is installed.
need_perf61() {
	local ver
	command -v perf >/dev/null 2>&1 || { echo "skip: perf is not installed"; exit 77; }
	ver=$(perf version 2>/dev/null | awk '{print $3}')
	case "$ver" in 6.1.*) ;; *) echo "skip: perf $ver is not 6.1 (the reference)"; exit 77 ;; esac
}

# diff_setup: what the perf.data differential tests need: perf 6.1 (else skip), c2c-gen and
# perfdata-dump built (GEN, DUMP), a temporary directory (tmp) removed at exit, and SIGPIPE
# ignored (perf 6.1's addr2line on the missing mapped files: see report-diff.sh).
diff_setup() {
	GEN=$PWD/$BUILD/tests/tools/c2c-gen
	DUMP=$PWD/$BUILD/tests/tools/perfdata-dump
	need_perf61
	[ -x "$GEN" ] && [ -x "$DUMP" ] || { echo "fail: c2c-gen or perfdata-dump is not built"; exit 1; }
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	trap '' PIPE
}

NAMES=$PWD/tests/tools/pareto-names.awk
runs=0 fail=0

# check NAME FILE-PREFIX [options...]: `perf c2c report --stdio` on PREFIX.perf.data against
# `c2c-lite report --stdio` on PREFIX.$INPUT (default c2c: the trace written from the same events;
# INPUT=perf.data: c2c-lite reads the same perf.data). Everything from the first "=====" line on
# must be byte-identical with --no-data-names; without it, perf's lines plus data names only.
# PERF_INPUT=FILE gives perf another file than PREFIX.perf.data; PERF_EXPECT=TEXT must be in
# perf's output (it resolved what the test is about).
check() {
	local name=$1 p=$2 want
	shift 2
	want=${PERF_INPUT:-}
	want=${want:-$p.perf.data}
	perf c2c report --stdio -i "$want" "$@" 2>/dev/null | sed -n '/^=====/,$p' >"$p.want"
	"$C2C" report --stdio --no-data-names -i "$p.${INPUT:-c2c}" "$@" 2>"$p.err" |
		sed -n '/^=====/,$p' >"$p.got"
	"$C2C" report --stdio -i "$p.${INPUT:-c2c}" "$@" 2>/dev/null | sed -n '/^=====/,$p' >"$p.named"
	runs=$((runs + 1))
	if [ ! -s "$p.want" ]; then
		echo "FAIL $name [$*]: perf printed nothing"; fail=$((fail + 1))
	elif [ -n "${PERF_EXPECT:-}" ] && ! grep -qF "$PERF_EXPECT" "$p.want"; then
		echo "FAIL $name [$*]: perf resolved no '$PERF_EXPECT'"; fail=$((fail + 1))
	elif ! cmp -s "$p.want" "$p.got"; then
		echo "FAIL $name [$*]"; diff "$p.want" "$p.got" | head -20; fail=$((fail + 1))
	elif ! awk -f "$NAMES" "$p.want" "$p.named" 2>/dev/null; then
		echo "FAIL $name [$*] (with data names)"; fail=$((fail + 1))
	fi
}

# perf_view FILE FIELDS: perf script's samples, one line each, with the FIELDS (comma-separated:
# comm pid tid cpu time event addr weight ip sym dso phys dsrc) in the form and order
# `perfdata-dump -F FIELDS` prints them. pid and tid go together. PERF_SCRIPT_ARGS: more options
# for perf script (--itrace=M: the memory samples perf synthesizes from Arm SPE data).
perf_view() {
	local file=$1 fields=$2 pf
	pf=$(echo "$fields" | sed 's/\bphys\b/phys_addr/; s/,dsrc\b//; s/^dsrc,//')
	# shellcheck disable=SC2086
	perf script -i "$file" ${PERF_SCRIPT_ARGS:-} -F "$pf" --ns 2>/dev/null | awk -v want="$fields" '
	BEGIN { n = split(want, w, ",") }
	{
		i = 1
		if (want ~ /(^|,)comm(,|$)/) v["comm"] = $(i++)
		if ($i ~ /^-?[0-9]+\/-?[0-9]+$/) { split($i, pt, "/"); v["pid"] = pt[1]; v["tid"] = pt[2]; i++ }
		if (want ~ /(^|,)cpu(,|$)/) { c = $i; gsub(/[][]/, "", c); v["cpu"] = c + 0; i++ }
		if (want ~ /(^|,)time(,|$)/) {
			t = $i; sub(/:$/, "", t); split(t, ts, "."); t = ts[1] ts[2]; sub(/^0+/, "", t)
			v["time"] = t == "" ? 0 : t; i++
		}
		if (want ~ /(^|,)event(,|$)/) { e = $i; sub(/:$/, "", e); v["event"] = e; i++ }
		if (want ~ /(^|,)addr(,|$)/) v["addr"] = $(i++)
		if (want ~ /(^|,)weight(,|$)/) v["weight"] = $(i++)
		if (want ~ /(^|,)ip(,|$)/) v["ip"] = $(i++)
		if (want ~ /(^|,)sym(,|$)/) {
			sy = $(i++)
			while (i <= NF && $i !~ /^\(/) sy = sy " " $(i++)
			v["sym"] = sy
		}
		if (want ~ /(^|,)dso(,|$)/) {   # "(/path (deleted))": a name may hold spaces
			d = $(i++)
			while (d !~ /\)$/ && i <= NF) d = d " " $(i++)
			gsub(/^\(|\)$/, "", d); v["dso"] = d
		}
		if (want ~ /(^|,)phys(,|$)/) v["phys"] = $(i++)
		line = ""
		for (k = 1; k <= n; k++) if (w[k] != "dsrc") line = line (line == "" ? "" : " ") v[w[k]]
		print line
	}' >"$tmp/view.main"
	if [[ ",$fields," == *,dsrc,* ]]; then
		# data_src is printed with its decoding (spaces inside): a run of its own, pasted on
		# shellcheck disable=SC2086
		perf script -i "$file" ${PERF_SCRIPT_ARGS:-} -F data_src 2>/dev/null |
			awk '{ print $1 }' >"$tmp/view.dsrc"
		paste -d' ' "$tmp/view.main" "$tmp/view.dsrc"
	else
		cat "$tmp/view.main"
	fi
}

# same_view NAME FILE FIELDS [DSO]: perf script and c2c-lite's reader (perfdata-dump -F) see the
# same samples, field by field, in the same order (dsrc, when asked, must come last). With DSO
# (system-wide recordings; FIELDS then start with pid and end with sym,dso), only the processes
# with a sample in a map ending in DSO are compared with their symbols: other users' binaries
# may be rebuilt between the recording and the comparison (perf reads its build-id cache).
views=0
same_view() {
	local name=$1 file=$2 fields=$3 dso=${4:-} v
	perf_view "$file" "$fields" >"$tmp/perf.view"
	"$BUILD/tests/tools/perfdata-dump" -F "$fields" "$file" >"$tmp/ours.view" 2>"$tmp/dump.err"
	if [ -n "$dso" ]; then
		# other processes: the fields before sym and dso, then "- -" (a symbol may hold
		# spaces, so the fields are counted from the start, not from the end)
		local k=$(($(tr -cd , <<<"$fields" | wc -c) - 1))
		for v in perf ours; do
			awk -v d="$dso" -v k="$k" '
				NR == FNR { if (substr($NF, length($NF) - length(d) + 1) == d) keep[$1] = 1; next }
				!($1 in keep) { o = $1; for (i = 2; i <= k; i++) o = o " " $i; print o " - -"; next }
				{ print }' "$tmp/perf.view" "$tmp/$v.view" >"$tmp/$v.kept"
		done
		mv "$tmp/ours.kept" "$tmp/ours.view"
		mv "$tmp/perf.kept" "$tmp/perf.view"
	fi
	views=$((views + 1))
	if [ ! -s "$tmp/perf.view" ]; then
		echo "FAIL $name: perf script shows no samples ($fields)"; fail=$((fail + 1))
	elif ! cmp -s "$tmp/perf.view" "$tmp/ours.view"; then
		echo "FAIL $name: samples differ from perf script ($fields)"
		diff "$tmp/perf.view" "$tmp/ours.view" | head -6; fail=$((fail + 1))
	fi
}
