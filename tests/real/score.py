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
# The group of an entry without a `group` key: the one the floors of tests/e2e/real-corpus.sh
# count. Entries of another group (`group = trial`: issue 28's witnesses, many of which fail
# today) are scored on score lines of their own, which a floor counts only when it names them.
MAIN = "main"
KINDS = ("corpus", "control", "example", "trial")
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


def said(finding, where=None):
    return "%s: %s (%.0f%%)%s" % (first_item(finding["what"]), finding["verdict"], finding["share"],
                                  " at " + os.path.basename(where) if where else "")


# The row columns that weigh a row, by backend: soft's share of time, watch's share of the
# transfers, a PMU's share, then the plain counts (docs/report-json.md, `columns`).
ROW_WEIGHTS = ("time", "transfer_share", "share", "samples", "accesses", "records")


def row_weight(row):
    values = row.get("values") or {}
    return tuple(values.get(k) or 0 for k in ROW_WEIGHTS)


def hottest_code(finding, lines):
    """'file:line' of the code of the finding's hottest member: the costliest member of the
    finding's lines (`lines[].members`), then its costliest row (`lines[].rows` of that member,
    or at its offset when no row carries its name) and that row's `code`. None when the report
    gives no member, no row or no source line."""
    by_addr = dict((l.get("address"), l) for l in lines or [])
    best = None
    for addr in finding.get("lines", []):
        line = by_addr.get(addr)
        for m in (line or {}).get("members", []):
            if best is None or m.get("cost", 0) > best[1].get("cost", 0):
                best = (line, m)
    if best is None:
        return None
    line, m = best
    rows = line.get("rows", [])
    mine = ([r for r in rows if r.get("member") == m.get("name")] or
            [r for r in rows if r.get("offset") == m.get("offset")])
    if not mine:
        return None
    code = max(mine, key=row_weight).get("code") or {}
    if not code.get("file") or not code.get("line"):
        return None
    return "%s:%d" % (code["file"], code["line"])


def line_matches(entry, finding, lines):
    """None when the entry names no source line; else whether the top finding's hottest member's
    code (hottest_code) matches the entry's `line` regular expression."""
    if "line" not in entry:
        return None
    where = hottest_code(finding, lines)
    return where is not None and re.search(entry["line"], where) is not None


def score_buggy(entry, findings, lines=None):
    """(object ok, verdict ok, line ok (None: not asked), what c2c-lite said) of the buggy run's
    top finding; `lines` is the report's `lines` (for the source line of its hottest member)."""
    if not findings:
        return False, False, (None if "line" not in entry else False), "no finding"
    top = findings[0]
    return (object_matches(entry["object"], top), top["verdict"] in entry["verdict"].split("|"),
            line_matches(entry, top, lines), said(top, hottest_code(top, lines)))


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
        self.lines = []
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
            self.lines = out.get("lines", [])
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
                row = {"name": name, "kind": e.get("kind", "corpus"), "backend": backend,
                       "group": e.get("group", MAIN)}
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
                row["object"], row["verdict"], row["line"], row["said"] = score_buggy(
                    e, findings, self.lines)
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


def right(r):
    """A buggy program is right when object and verdict are, and its source line unless the
    entry names none."""
    return bool(r.get("object") and r.get("verdict") and r.get("line") is not False)


def report(rows, backends, seconds):
    """Print the table and one score line per group and backend; {(group, backend): (right %,
    clean %, programs scored)}. The main group's lines read as they always have; those of
    another group name it in brackets."""
    print("%-44s %-6s %-6s %-7s %-5s %-6s  %s" % ("program", "backend", "object", "verdict",
                                                  "line", "fixed",
                                                  "what c2c-lite said (buggy | fixed)"))
    for r in rows:
        if "skip" in r or "error" in r:
            print("%-44s %-6s %-6s %-7s %-5s %-6s  %s" % (
                r["name"], r["backend"], "-", "-", "-", "-",
                ("skipped: " + r["skip"]) if "skip" in r else "ERROR: " + r["error"]))
            continue
        print("%-44s %-6s %-6s %-7s %-5s %-6s  %s | %s" % (
            r["name"], r["backend"], mark(r["object"]), mark(r["verdict"]), mark(r["line"]),
            mark(r["fixed"]),
            r["said"] + (" (recorded %d more times: the threads ran on one CPU)" % r["retries"]
                         if r.get("retries") else ""), r["fixed_said"]))
    scores = {}
    print()
    groups = [MAIN] + sorted(set(r["group"] for r in rows) - {MAIN})
    for g in groups:
        for b in backends:
            scored = [r for r in rows if r["backend"] == b and r["group"] == g and "skip" not in r]
            if not scored and (g != MAIN or len(groups) > 1):
                continue
            ok = [r for r in scored if right(r)]
            fixed = [r for r in scored if r.get("fixed") is not None]
            clean = [r for r in fixed if r["fixed"]]
            by_kind = ", ".join("%s %d/%d" % (k, len([r for r in ok if r["kind"] == k]),
                                              len([r for r in scored if r["kind"] == k]))
                                for k in KINDS if any(r["kind"] == k for r in scored))
            lined = [r for r in scored if r.get("line") is not None]
            lines = (", source line %d/%d" % (len([r for r in lined if r["line"]]), len(lined))
                     if lined else "")
            pct = 100.0 * len(ok) / len(scored) if scored else 0.0
            cpct = 100.0 * len(clean) / len(fixed) if fixed else 100.0
            scores[(g, b)] = (pct, cpct, len(scored))
            print("%s%s: buggy right %d/%d (%.0f%%: %s%s); fixed clean %d/%d (%.0f%%)%s"
                  % (b, "" if g == MAIN else " [%s]" % g, len(ok), len(scored), pct, by_kind,
                     lines, len(clean), len(fixed), cpct,
                     "; %.0f s recording" % seconds.get(b, 0) if g == MAIN else ""))
    return scores


def check_rules():
    """The scoring rules on made-up findings: each rule must be able to fail."""
    def f(obj, what, verdict):
        return {"object": obj, "what": what, "verdict": verdict, "share": 50.0,
                "lines": ["0x1000"]}

    def stats(pct):
        return {"weight": 1000, "not_recovered": [
            {"reason": "stack push/pop/call/ret", "weight": 300},
            {"reason": "ip outside the function", "weight": 10 * pct}]}
    buggy = {"object": r"\bused_memory_thread\b", "verdict": "false"}
    heap = {"object": r"\*me\b", "verdict": "false", "line": r"fs_heap\.c:15$"}

    def row(off, member, line, time):
        return {"offset": off, "member": member, "values": {"time": time},
                "code": {"file": "/src/fs_heap.c", "line": line}}
    lines = [{"address": "0x1000", "members": [
        {"offset": 32, "name": "me->hits", "cost": 10},
        {"offset": 48, "name": "me->misses", "cost": 30}], "rows": [
        row(32, "me->hits", 21, 0.3), row(48, "me->misses", 22, 0.1),
        row(48, "me->misses", 15, 0.5)]},
        {"address": "0x2000", "members": [{"offset": 0, "name": "other", "cost": 99}],
         "rows": [row(0, "other", 99, 0.9)]}]
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
        # the source line: the code of the hottest member's hottest row on the finding's lines
        # (not the hotter member of a line outside the finding), matched against `line`
        (score_buggy(heap, [f("*me", "*me (struct percpu, 16 bytes)", "false")], lines)[2], True),
        # a source line of a cooler member, or of a cooler row of the hottest one, is wrong
        (score_buggy(dict(heap, line=r"fs_heap\.c:21$"), [f("*me", "*me", "false")], lines)[2],
         False),
        (score_buggy(dict(heap, line=r"fs_heap\.c:22$"), [f("*me", "*me", "false")], lines)[2],
         False),
        # no row or no source line: wrong; no finding: wrong; an entry without `line`: not asked
        (score_buggy(heap, [f("*me", "*me", "false")], [dict(lines[0], rows=[])])[2], False),
        (score_buggy(heap, [f("*me", "*me", "false")], [])[2], False),
        (score_buggy(heap, [], lines)[2], False),
        (score_buggy(buggy, [f("used_memory_thread", "used_memory_thread", "false")], lines)[2],
         None),
        # rows found by the member's offset when none carries its name
        (hottest_code({"lines": ["0x40"]}, [{"address": "0x40", "members": [
            {"offset": 8, "name": "s.b", "cost": 5}], "rows": [
            {"offset": 8, "member": "s.b[0]", "code": {"file": "a.c", "line": 7}}]}]), "a.c:7"),
        # a wrong source line makes the program wrong; an entry without one scores as before
        (right({"object": True, "verdict": True, "line": False}), False),
        (right({"object": True, "verdict": True, "line": None}), True),
        (right({"object": True, "verdict": True, "line": True}), True),
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
    ap.add_argument("--groups", default="",
                    help="comma-separated groups to score (default all; %s: the entries "
                         "without a group key)" % MAIN)
    ap.add_argument("--min", action="append", default=[], metavar="[GROUP:]BACKEND=PCT[/CLEAN]",
                    help="fail when a backend scores under PCT%% right on the buggy programs of "
                         "GROUP (default %s), or under CLEAN%% clean fixed variants" % MAIN)
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
    if args.groups:
        names = [n for n in names if manifest[n].get("group", MAIN) in args.groups.split(",")]
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
        g, _, b = b.rpartition(":")
        g = g or MAIN
        want, _, want_clean = lim.partition("/")
        if (g, b) not in scores:
            continue
        pct, cpct, n = scores[(g, b)]
        name = b if g == MAIN else "%s [%s]" % (b, g)
        if n and pct < float(want):
            print("FAIL: %s: %.0f%% right on buggy programs, under the floor of %s%%"
                  % (name, pct, want))
            fail = 1
        if n and want_clean and cpct < float(want_clean):
            print("FAIL: %s: %.0f%% of fixed variants clean, under the floor of %s%%"
                  % (name, cpct, want_clean))
            fail = 1
    errors = [r for r in rows if "error" in r]
    for r in errors:
        print("FAIL: %s (%s): %s" % (r["name"], r["backend"], r["error"]))
    for why in corpus.outside:
        print("FAIL: " + why)
    return 1 if fail or errors or corpus.outside else 0


if __name__ == "__main__":
    sys.exit(main())
