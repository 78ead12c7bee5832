# awk -f pareto-names.awk PERF_OUTPUT C2C_OUTPUT: checks that c2c-lite's report with data names
# is perf's report plus names only: the same number of lines, and every line either equal to
# perf's or perf's line followed by spaces, two more spaces and a name. Prints the first offending
# line pair and exits 1; exits 0 with "N lines, M named" on stderr otherwise.
NR == FNR { want[FNR] = $0; n = FNR; next }
{
	got = $0
	w = want[FNR]
	if (got == w)
		next
	rest = substr(got, length(w) + 1)
	if (FNR > n || substr(got, 1, length(w)) != w || rest !~ /^ *  [^ ]/) {
		printf "line %d differs beyond the data names:\n  perf: %s\n  ours: %s\n", FNR, w, got
		bad = 1
		exit 1
	}
	named++
}
END {
	if (bad)
		exit 1
	if (FNR != n) {
		printf "%d lines from perf, %d from c2c-lite\n", n, FNR
		exit 1
	}
	printf "%d lines, %d named\n", n, named > "/dev/stderr"
}
