#!/usr/bin/env python3
"""The tables of bench/bench_soft_overhead.sh: what a recorder adds to a workload's wall and CPU
time, with 95% confidence intervals, from the per-run times hyperfine and tests/tools/run-rusage
wrote. Standard library only (no scipy here).

The overhead of a recorder is the difference of the mean times with and without it, divided by
the mean without; its interval is Welch's t-interval on that difference (unequal variances,
Welch-Satterthwaite degrees of freedom), divided by the same mean (the baseline mean's own
uncertainty is left out of the ratio: second order at these noise levels). "net of start-up"
takes away the recorder's fixed cost, measured the same way on a workload of one iteration, and
its interval adds that difference's variance. Against a target T (default 3%): met when the
whole interval is below T, not met when it is all above, otherwise undecidable with this noise.

    welch.py DIR TARGET_PCT
DIR holds meta.json ({"warmup", "runs", "rounds", "examples": [{"name", "iters"}],
"commands": [{"key", "label"}], "baseline", "startup"}) and, per example E, command key K and
round R: E.R.json (hyperfine --export-json, the commands in meta's order), E.K.outer and E.K.inner
(run-rusage lines "wall user sys": the whole command, and the workload under the recorder).
"""
import json
import math
import os
import sys


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Numerical Recipes, betacf)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1.0 + aa / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1.0 + aa / c
        c = c if abs(c) > 1e-300 else 1e-300
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-12:
            break
    return h


def betai(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * betacf(b, a, 1.0 - x) / b


def t_quantile(p, df):
    """The p quantile (p > 0.5) of Student's t with df degrees of freedom, by bisection."""
    def cdf(t):
        return 1.0 - 0.5 * betai(df / 2.0, 0.5, df / (df + t * t))
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def stats(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, var, n


def interval(diff_terms, minus_terms=()):
    """Mean difference of (a - b) pairs, less those of minus_terms, with its 95% interval.
    Each term is (samples_a, samples_b)."""
    d, parts = 0.0, []
    for sign, terms in ((1, diff_terms), (-1, minus_terms)):
        for a, b in terms:
            ma, va, na = stats(a)
            mb, vb, nb = stats(b)
            d += sign * (ma - mb)
            parts += [(va / na, na), (vb / nb, nb)]
    se2 = sum(v for v, _ in parts)
    den = sum(v * v / (n - 1) for v, n in parts if n > 1)
    df = se2 * se2 / den if den > 0 else 1e9
    half = t_quantile(0.975, max(df, 1.0)) * math.sqrt(se2)
    return d, d - half, d + half


def verdict(lo, hi, target):
    if hi < target:
        return "met"
    if lo > target:
        return "NOT met"
    return "undecidable"


def load_runs(path, warmup, per_round, rounds, col):
    """Column col of a run-rusage file, warm-up lines of each round left out."""
    with open(path) as f:
        rows = [list(map(float, line.split())) for line in f if line.strip()]
    if len(rows) != rounds * (warmup + per_round):
        sys.exit("welch.py: %s has %d runs, not %d" % (path, len(rows), rounds * (warmup + per_round)))
    keep = []
    for r in range(rounds):
        block = rows[r * (warmup + per_round):(r + 1) * (warmup + per_round)]
        keep += block[warmup:]
    return [row[col] if col >= 0 else row[1] + row[2] for row in keep]


def load(dirname, meta, name):
    """{key: {"wall": [...], "cpu": [...], "wl_cpu": [...]}} of one example."""
    per_round = meta["runs"] // meta["rounds"]
    out = {c["key"]: {"wall": []} for c in meta["commands"]}
    for r in range(meta["rounds"]):
        with open(os.path.join(dirname, "%s.%d.json" % (name, r))) as f:
            res = json.load(f)["results"]
        for c, rr in zip(meta["commands"], res):
            out[c["key"]]["wall"] += rr["times"]
    for c in meta["commands"]:
        base = os.path.join(dirname, "%s.%s" % (name, c["key"]))
        out[c["key"]]["cpu"] = load_runs(base + ".outer", meta["warmup"], per_round, meta["rounds"], -1)
        out[c["key"]]["wl_cpu"] = load_runs(base + ".inner", meta["warmup"], per_round, meta["rounds"], -1)
    return out


def pct_cell(d, lo, hi, base, target=None):
    """An overhead in % of base with its interval, and the verdict against target if given."""
    cell = "%+6.1f%% [%+6.1f, %+6.1f]" % (100 * d / base, 100 * lo / base, 100 * hi / base)
    if target is not None:
        cell += " %-11s" % verdict(100 * lo / base, 100 * hi / base, target)
    return cell


def sec_cell(d, lo, hi):
    return "%+6.3f s [%+.3f, %+.3f]" % (d, lo, hi)


W_LABEL, W_WALL, W_GOAL, W_PCT = 24, 17, 38, 26
HEADER = ("  %-*s %*s  %-*s %-*s %-*s %s" % (
    W_LABEL, "", W_WALL, "wall (mean ± sd)", W_GOAL, "wall overhead [95% CI] vs target",
    W_GOAL, "net of start-up [95% CI]", W_PCT, "CPU, all [95% CI]", "workload's CPU [95% CI]"))


def print_example(ex, data, st, meta, target, startup):
    base = meta["baseline"]
    a = data[base]
    mw = stats(a["wall"])[0]
    mc, mwc = stats(a["cpu"])[0], stats(a["wl_cpu"])[0]
    if startup:
        print("start-up: %s with EXAMPLES_ITERS=%s, %d runs a command" % (
            ex["example"], ex["iters"], len(a["wall"])))
    else:
        print("%s: EXAMPLES_ITERS=%s, %d runs a command" % (ex["name"], ex["iters"], len(a["wall"])))
    for c in meta["commands"]:
        k = c["key"]
        w = data[k]["wall"]
        m, v, _ = stats(w)
        line = "  %-*s %*s  " % (W_LABEL, c["label"], W_WALL, "%.3f ± %.3f s" % (m, math.sqrt(v)))
        if k == base:
            print(line + "(CPU %.3f s, the workload's %.3f s)" % (mc, mwc))
            continue
        wall = interval([(w, a["wall"])])
        cpu = interval([(data[k]["cpu"], a["cpu"])])
        if startup:
            wl = interval([(data[k]["wl_cpu"], a["wl_cpu"])])
            print(line + "%-*s %-*s %-*s %s" % (W_GOAL, sec_cell(*wall), W_GOAL, "",
                                                 W_PCT, sec_cell(*cpu), sec_cell(*wl)))
            continue
        net = interval([(w, a["wall"])], [(st[k]["wall"], st[base]["wall"])])
        wl = interval([(data[k]["wl_cpu"], a["wl_cpu"])])
        print(line + "%-*s %-*s %-*s %s" % (
            W_GOAL, pct_cell(*wall, mw, target), W_GOAL, pct_cell(*net, mw, target),
            W_PCT, pct_cell(*cpu, mc), pct_cell(*wl, mwc)))


def main():
    dirname, target = sys.argv[1], float(sys.argv[2])
    with open(os.path.join(dirname, "meta.json")) as f:
        meta = json.load(f)
    startup = meta["startup"]
    st = load(dirname, meta, startup["name"])
    print(HEADER)
    print_example(startup, st, st, meta, target, True)
    for ex in meta["examples"]:
        print_example(ex, load(dirname, meta, ex["name"]), st, meta, target, False)
    print("  met, NOT met, undecidable: the 95% interval lies below the target, above it, or across"
          " it. The examples\n  contend for cachelines: a recorder's interruptions change how often"
          " their lines move, so their\n  times may drop as well as rise under it; CPU, all: the"
          " recorder's and the workload's")


if __name__ == "__main__":
    main()
