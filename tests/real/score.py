#!/usr/bin/env python3
"""Score c2c-lite on the corpus (manifest.txt): for each program and each backend that records
here, record the buggy and the fixed variant, read `c2c-lite report --json`, and check that the
top finding names the right object with the right verdict and that the fixed variant is clean.
score.sh is the entry point; README.md says what is asserted and why."""
import argparse
import configparser
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REAL = os.path.dirname(os.path.abspath(__file__))
FLAGS = ("false", "mixed")
WATCH_RETRIES = 2


def first_item(what):
    """The finding's own description in `what`: up to the first comma outside brackets."""
    depth = 0
    for i, ch in enumerate(what):
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch == "," and depth == 0:
            return what[:i]
    return what


def object_matches(regex, finding):
    return re.search(regex, finding["object"] + " " + first_item(finding["what"])) is not None


def said(finding):
    return "%s: %s (%.0f%%)" % (first_item(finding["what"]), finding["verdict"], finding["share"])


def score_buggy(entry, findings):
    """(object ok, verdict ok, what c2c-lite said) of the buggy run's top finding."""
    if not findings:
        return False, False, "no finding"
    top = findings[0]
    return (object_matches(entry["object"], top), top["verdict"] in entry["verdict"].split("|"),
            said(top))


def score_fixed(entry, findings):
    """(clean, what c2c-lite said) of the fixed run: no false-sharing finding, and no
    true-sharing finding unless the program truly shares (fixed_true = allowed)."""
    bad = ("false", "mixed", "true") if entry.get("fixed_true") != "allowed" else FLAGS
    flags = [f for f in findings if f["verdict"] in bad]
    if not flags:
        rest = [f for f in findings if f["verdict"] == "true"]
        return True, "clean" + (" (true: %s)" % said(rest[0]) if rest else "")
    return False, "flags " + "; ".join(said(f) for f in flags[:2])


def outside_share(stats):
    """Percent of the sampled time whose IP fell in no function the recorder could decode."""
    if not stats or not stats.get("weight"):
        return None
    out = sum(r["weight"] for r in stats.get("not_recovered", [])
              if r["reason"] == "ip outside the function")
    return 100.0 * out / stats["weight"]


def check_outside(entry, backend, stats):
    """None, or why a soft run left too much time outside any function (outside_max)."""
    if backend != "soft" or "outside_max" not in entry:
        return None
    pct = outside_share(stats)
    if pct is None or pct > float(entry["outside_max"]):
        return "ip outside the function: %s of the sampled time, over %s%%" % (
            "no statistics" if pct is None else "%.1f%%" % pct, entry["outside_max"])
    return None


def subst(text, env):
    return re.sub(r"\$([A-Z]+)", lambda m: env.get(m.group(1), m.group(0)), text)


def words(text, env):
    return [subst(w, env) for w in shlex.split(text)]


def run(argv, log, timeout):
    """Run argv with output to log; kill its whole process group on timeout."""
    with open(log, "ab") as out:
        out.write(("$ " + " ".join(shlex.quote(a) for a in argv) + "\n").encode())
        out.flush()
        p = subprocess.Popen(argv, stdout=out, stderr=out, start_new_session=True)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return "timeout"


def missing(entry):
    for need in entry.get("requires", "").split():
        if "/" in need or need.endswith(".h"):
            if not os.path.exists(os.path.join("/usr/include", need)):
                return "no /usr/include/" + need
        elif shutil.which(need) is None:
            return "no " + need
    return None


class Corpus:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.one_cpu = False
        self.c2c = args.c2c
        build = os.path.abspath(os.environ.get("BUILD", "build"))
        self.env = {
            "CC": os.environ.get("CC", "cc"), "CXX": os.environ.get("CXX", "c++"),
            "FC": os.environ.get("FC", "gfortran"), "REAL": REAL,
            "TP": os.path.join(REAL, "third_party"), "DRV": os.path.join(REAL, "drivers"),
            "EX": os.path.join(build, "examples"), "BUILD": build,
        }

    def log(self, name):
        return os.path.join(self.work, name + ".log")

    def prepare(self, name, e):
        """Build both variants and the inputs: (buggy, fixed) binaries or an error string."""
        env = dict(self.env, WORK=os.path.join(self.work, name))
        os.makedirs(env["WORK"], exist_ok=True)
        bins = []
        for variant, key, prebuilt in (("buggy", "build", "bin"), ("fixed", "fixed_build",
                                                                   "fixed_bin")):
            if prebuilt in e:
                path = subst(e[prebuilt], env)
                if not os.access(path, os.X_OK):
                    return None, "%s is not built" % path
            elif key in e:
                path = os.path.join(env["WORK"], variant)
                rc = run(words(e[key], dict(env, OUT=path)), self.log(name), 300)
                if rc != 0:
                    return None, "%s build failed (%s): see %s" % (variant, rc, self.log(name))
            elif variant == "fixed" and "fixed_run" in e:
                path = bins[0]
            elif variant == "fixed":
                path = None
            else:
                return None, "no build or bin"
            bins.append(path)
        if "setup" in e:
            rc = run(words(e["setup"], env), self.log(name), 300)
            if rc != 0:
                return None, "setup failed (%s): see %s" % (rc, self.log(name))
        return (bins, env), None

    def record(self, name, e, backend, variant, binary, env):
        """Record one run; the report's findings, or an error string."""
        buggy = variant == "buggy"
        # the run: fixed_run defaults to run; for the watch backend, watch_run (and
        # fixed_watch_run, which defaults to watch_run unless the fixed run differs) replace them
        cmd = e["run"] if buggy else e.get("fixed_run", e["run"])
        opts = ["--backend=" + backend]
        if backend == "watch":
            if buggy:
                cmd = e.get("watch_run", cmd)
            elif "fixed_watch_run" in e:
                cmd = e["fixed_watch_run"]
            elif "fixed_run" not in e:
                cmd = e.get("watch_run", cmd)
            for spec in (e["watch"] if buggy else e.get("fixed_watch", e["watch"])).split():
                opts += ["--watch", spec]
        trace = os.path.join(self.work, "%s-%s-%s.c2c" % (name, backend, variant))
        argv = [self.c2c, "record"] + opts + ["-o", trace, "--"] + words(cmd, dict(env, BIN=binary))
        t0 = time.time()
        rc = run(argv, self.log(name), self.args.timeout)
        self.seconds[backend] = self.seconds.get(backend, 0) + time.time() - t0
        if rc != 0:
            return None, "record %s (%s): see %s" % ("timed out" if rc == "timeout" else "failed",
                                                    rc, self.log(name))
        rep = subprocess.run([self.c2c, "report", "--json", "-i", trace], capture_output=True)
        if rep.returncode != 0:
            return None, "report failed: " + rep.stderr.decode(errors="replace").strip()
        try:
            out = json.loads(rep.stdout)
            findings, stats = out["findings"], out.get("statistics")
        except (ValueError, KeyError) as err:
            return None, "report --json unreadable: %s" % err
        self.one_cpu = bool(stats and stats.get("one_cpu_lines"))
        why = check_outside(e, backend, stats)
        if why:
            self.outside.append("%s (%s, %s): %s" % (name, backend, variant, why))
        return findings, None

    def score(self, names, manifest, backends):
        self.seconds = {}
        self.outside = []
        rows = []
        for name in names:
            e = manifest[name]
            why = missing(e)
            prepared = None
            if why is None:
                prepared, why = self.prepare(name, e)
            for backend in backends:
                row = {"name": name, "kind": e.get("kind", "corpus"), "backend": backend}
                rows.append(row)
                if why is not None:
                    row["skip"] = why
                    continue
                if backend == "watch" and "watch" not in e:
                    row["skip"] = "no --watch words (heap or stack data)"
                    continue
                (bug_bin, fix_bin), env = prepared
                if self.args.swap:  # the self-test: score each variant as if it were the other
                    bug_bin, fix_bin = fix_bin, bug_bin
                findings, err = self.record(name, e, backend, "buggy", bug_bin, env)
                # watch: when every write to the lines ran on one CPU, nothing crossed CPUs and
                # the report says so (one_cpu_lines): the run saw nothing to judge, the scheduler's
                # doing, not the tool's. Record again, at most WATCH_RETRIES times, and say so.
                tries = 0
                while (not err and backend == "watch" and not findings and
                       self.one_cpu and tries < WATCH_RETRIES):
                    tries += 1
                    findings, err = self.record(name, e, backend, "buggy", bug_bin, env)
                if tries:
                    row["retries"] = tries
                if err:
                    row["error"] = err
                    continue
                row["object"], row["verdict"], row["said"] = score_buggy(e, findings)
                if fix_bin is None:
                    row["fixed"], row["fixed_said"] = None, "(no fixed variant)"
                    continue
                findings, err = self.record(name, e, backend, "fixed", fix_bin, env)
                if err:
                    row["fixed"], row["fixed_said"] = False, err
                    continue
                row["fixed"], row["fixed_said"] = score_fixed(e, findings)
        return rows


def mark(v):
    return "-" if v is None else ("yes" if v else "NO")


def report(rows, backends, seconds):
    print("%-44s %-6s %-6s %-7s %-6s  %s" % ("program", "backend", "object", "verdict",
                                              "fixed", "what c2c-lite said (buggy | fixed)"))
    for r in rows:
        if "skip" in r or "error" in r:
            print("%-44s %-6s %-6s %-7s %-6s  %s" % (r["name"], r["backend"], "-", "-", "-",
                                                      ("skipped: " + r["skip"]) if "skip" in r
                                                      else "ERROR: " + r["error"]))
            continue
        print("%-44s %-6s %-6s %-7s %-6s  %s | %s" % (
            r["name"], r["backend"], mark(r["object"]), mark(r["verdict"]), mark(r["fixed"]),
            r["said"] + (" (recorded %d more times: the threads ran on one CPU)" % r["retries"]
                         if r.get("retries") else ""), r["fixed_said"]))
    scores = {}
    print()
    for b in backends:
        scored = [r for r in rows if r["backend"] == b and "skip" not in r]
        right = [r for r in scored if r.get("object") and r.get("verdict")]
        fixed = [r for r in scored if r.get("fixed") is not None]
        clean = [r for r in fixed if r["fixed"]]
        by_kind = ", ".join("%s %d/%d" % (k, len([r for r in right if r["kind"] == k]),
                                          len([r for r in scored if r["kind"] == k]))
                            for k in ("corpus", "control", "example")
                            if any(r["kind"] == k for r in scored))
        pct = 100.0 * len(right) / len(scored) if scored else 0.0
        cpct = 100.0 * len(clean) / len(fixed) if fixed else 100.0
        scores[b] = (pct, cpct, len(scored))
        print("%s: buggy right %d/%d (%.0f%%: %s); fixed clean %d/%d (%.0f%%); %.0f s recording"
              % (b, len(right), len(scored), pct, by_kind, len(clean), len(fixed), cpct,
                 seconds.get(b, 0)))
    return scores


def check_rules():
    """The scoring rules on made-up findings: each rule must be able to fail."""
    def f(obj, what, verdict):
        return {"object": obj, "what": what, "verdict": verdict, "share": 50.0}

    def stats(pct):
        return {"weight": 1000, "not_recovered": [
            {"reason": "stack push/pop/call/ret", "weight": 300},
            {"reason": "ip outside the function", "weight": 10 * pct}]}
    buggy = {"object": r"\bused_memory_thread\b", "verdict": "false"}
    cases = [
        (score_buggy(buggy, [f("used_memory_thread", "used_memory_thread (size_t[20], 160 bytes)",
                               "false")])[:2], (True, True)),
        # the right data only among the other items of `what`: the object is wrong
        (score_buggy(buggy, [f("total_active_threads", "total_active_threads (atomic_int, 4 "
                               "bytes), used_memory_thread (size_t[20], 160 bytes)", "false")])[:2],
         (False, True)),
        (score_buggy(buggy, [f("used_memory_thread", "used_memory_thread", "true")])[:2],
         (True, False)),
        (score_buggy(buggy, [])[:2], (False, False)),
        # a type's commas do not end the first item
        (object_matches(r"\bThroughputTest\b", f("anon: *test", "anon: *test (struct "
                        "ThroughputTest<A<int>, B>, 40 bytes), *this (int, 4 bytes)", "mixed")),
         True),
        (score_fixed({}, [])[0], True),
        (score_fixed({}, [f("x", "x", "mixed")])[0], False),
        (score_fixed({}, [f("x", "x", "true")])[0], False),
        (score_fixed({"fixed_true": "allowed"}, [f("x", "x", "true")])[0], True),
        (score_fixed({"fixed_true": "allowed"}, [f("x", "x", "false")])[0], False),
        # the share of time outside any function, against an entry's outside_max
        (check_outside({"outside_max": "5"}, "soft", stats(4)), None),
        (check_outside({"outside_max": "5"}, "soft", stats(27)) is not None, True),
        (check_outside({"outside_max": "5"}, "soft", None) is not None, True),
        (check_outside({"outside_max": "5"}, "watch", stats(27)), None),
        (check_outside({}, "soft", stats(27)), None),
    ]
    bad = [i for i, (got, want) in enumerate(cases) if got != want]
    for i in bad:
        print("FAIL: scoring rule case %d: got %r, want %r" % (i, cases[i][0], cases[i][1]))
    print("scoring rules: %d of %d cases as expected" % (len(cases) - len(bad), len(cases)))
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--check-rules"]:
        return check_rules()
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--c2c", default=os.environ.get("C2C", "build/c2c-lite"))
    ap.add_argument("--backends", default="soft,watch", help="comma-separated")
    ap.add_argument("--only", default="", help="comma-separated program names (regexes)")
    ap.add_argument("--min", action="append", default=[], metavar="BACKEND=PCT[/CLEAN]",
                    help="fail when a backend scores under PCT%% right on buggy programs, or "
                         "under CLEAN%% clean fixed variants")
    ap.add_argument("--swap", action="store_true",
                    help="score each fixed variant as the buggy one and vice versa (self-test)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per recorded run")
    ap.add_argument("--keep", help="keep traces and logs in this directory")
    args = ap.parse_args()

    manifest = configparser.ConfigParser(interpolation=None)
    manifest.read(os.path.join(REAL, "manifest.txt"))
    names = manifest.sections()
    if args.only:
        names = [n for n in names if any(re.fullmatch(p, n) for p in args.only.split(","))]
    backends = [b for b in args.backends.split(",") if b]

    work = args.keep or tempfile.mkdtemp(prefix="c2c-corpus.")
    os.makedirs(work, exist_ok=True)
    try:
        corpus = Corpus(args, work)
        rows = corpus.score(names, manifest, backends)
        scores = report(rows, backends, corpus.seconds)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    fail = 0
    for spec in args.min:
        b, _, lim = spec.partition("=")
        want, _, want_clean = lim.partition("/")
        if b not in scores:
            continue
        pct, cpct, n = scores[b]
        if n and pct < float(want):
            print("FAIL: %s: %.0f%% right on buggy programs, under the floor of %s%%" % (b, pct, want))
            fail = 1
        if n and want_clean and cpct < float(want_clean):
            print("FAIL: %s: %.0f%% of fixed variants clean, under the floor of %s%%"
                  % (b, cpct, want_clean))
            fail = 1
    errors = [r for r in rows if "error" in r]
    for r in errors:
        print("FAIL: %s (%s): %s" % (r["name"], r["backend"], r["error"]))
    for why in corpus.outside:
        print("FAIL: " + why)
    return 1 if fail or errors or corpus.outside else 0


if __name__ == "__main__":
    sys.exit(main())
