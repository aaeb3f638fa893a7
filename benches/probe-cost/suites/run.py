#!/usr/bin/env python3
"""Real packages' own test suites, uninstrumented, with inert probes and with the runtime active.

Issue 22, point 3: a package's own suite runs with probes in its hottest functions, once with the
probes placed but no runtime (inert) and once under `probity run` (runtime and sink active exactly
as a user gets them); no test may cross a timeout it did not cross without probes, and each wall
time must stay within 1.3x of the uninstrumented run.

    PROBITY_BIN=target/debug/probity python3 benches/probe-cost/suites/run.py [--json out.json]
        [--only zod,sqlparse,pulldown-cmark] [--repeat N]

Packages are fetched pinned from their registries (npm, PyPI, crates.io) with the ordinary
clients and cached under $PROBITY_BENCH_CACHE or ~/.cache/probity-bench/suites. Every run works
on a fresh copy of the unpacked package made into a git repository. Exit 0 when every ratio is
within target and no new timeout or failure appears, 1 otherwise, 2 when something could not be
set up or measured (a probe that never fired included).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

TARGET = 1.3
SLUG = "suites-bench"
SUITE_TIMEOUT = 900  # seconds, per suite run (probity run --timeout and the plain runs alike)

# --------------------------------------------------------------------------------------------
# The three packages. Versions are exact; the npm and Python tool chains are pinned too.

ZOD_VERSION = "4.6.7"
VITEST_VERSION = "3.2.4"
VITEST_TEST_TIMEOUT_MS = 5000  # vitest's default testTimeout
SQLPARSE_VERSION = "0.5.3"
PYTEST_VERSION = "8.3.4"
CMARK_VERSION = "0.13.6"

ZOD_VITEST_CONFIG = """\
import { defineConfig } from "vitest/config";
// zod's own sources: the `@zod/source` export condition (as in zod's repository) makes
// `import "zod/v4"` in the tests resolve to src/, node_modules/zod -> .. makes the name resolve
export default defineConfig({
  resolve: { conditions: ["@zod/source"] },
  ssr: { resolve: { conditions: ["@zod/source"] } },
  test: { include: ["src/v4/core/tests/**/*.test.ts"] },
});
"""

PACKAGES = {
    "zod": {
        "language": "typescript",
        "version": ZOD_VERSION,
        "registry": "npm",
        "runner": "vitest " + VITEST_VERSION,
        "suite": "src/v4/core/tests (29 files, 439 tests)",
        # (file, --function, --capture): chosen from a `--cpu-prof` profile of the suite (self
        # time in zod's own code) and their call counts: every schema construction runs `init`
        # once per class of its chain, the compiler emits every line through `Doc.write`, and
        # every failed check of a parse builds its issue through `finalizeIssue`
        "probes": [
            ("src/v4/core/core.ts", "init", "type=def.type"),
            ("src/v4/core/doc.ts", "Doc.write", "indent=this.indent"),
            ("src/v4/core/util.ts", "finalizeIssue", "code=iss.code"),
        ],
        "watch": "random schemas parse identically through the interpreter and the compiler",
    },
    "sqlparse": {
        "language": "python",
        "version": SQLPARSE_VERSION,
        "registry": "PyPI (sdist)",
        "runner": "pytest " + PYTEST_VERSION,
        "suite": "tests/ (464 tests)",
        # the three most-called functions of sqlparse under cProfile of its suite:
        # Token.match 99k calls, imt 77k, _TokenType.__contains__ 77k
        "probes": [
            ("sqlparse/sql.py", "Token.match", "ttype=ttype"),
            ("sqlparse/utils.py", "imt", "i=i"),
            ("sqlparse/tokens.py", "_TokenType.__contains__", "item=item"),
        ],
    },
    "pulldown-cmark": {
        "language": "rust",
        "version": CMARK_VERSION,
        "registry": "crates.io",
        "runner": "cargo test --tests (debug, the crate's Cargo.lock)",
        "suite": "unit and integration tests (the CommonMark spec and extension suites)",
        # the parser's innermost calls: every byte class test of the scanners goes through
        # is_ascii_whitespace, every node of the tree through Tree::append, every line of the
        # block pass through FirstPass::parse_line
        "probes": [
            ("src/scanners.rs", "is_ascii_whitespace", "c=c"),
            ("src/tree.rs", "Tree::append", "n=self.nodes.len()"),
            ("src/firstpass.rs", "FirstPass::parse_line", "start=start"),
        ],
    },
}


def log(msg):
    print(f"[suites {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def sh(cmd, cwd=None, env=None, check=True, capture=True, timeout=None):
    r = subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        text=True,
        stdout=subprocess.PIPE if capture else None,
        stderr=subprocess.PIPE if capture else None,
        timeout=timeout,
    )
    if check and r.returncode != 0:
        out = (r.stdout or "")[-3000:] + (r.stderr or "")[-3000:]
        raise SystemExit(f"suites: command failed ({r.returncode}): {' '.join(map(str, cmd))}\n{out}")
    return r


def plain_env():
    """The environment of an uninstrumented run: no probe variable at all."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("GSD_DEBUG_PROBE"):
            del env[k]
    return env


# --------------------------------------------------------------------------------------------
# Fetching (cached) and preparing a fresh work copy


def fetch_zod(cache):
    d = cache / "dl"
    d.mkdir(parents=True, exist_ok=True)
    tgz = d / f"zod-{ZOD_VERSION}.tgz"
    if not tgz.exists():
        log(f"npm pack zod@{ZOD_VERSION}")
        sh(["npm", "pack", f"zod@{ZOD_VERSION}", "--pack-destination", str(d)], cwd=d)
    # node_modules installed once from a lock file, kept outside the work copy
    mods = cache / f"zod-{ZOD_VERSION}-deps"
    lock = Path(__file__).with_name("zod-package-lock.json")
    if not (mods / "node_modules" / "vitest").exists():
        mods.mkdir(parents=True, exist_ok=True)
        (mods / "package.json").write_text(
            json.dumps({"name": "zod-suite-deps", "private": True,
                        "devDependencies": {"vitest": VITEST_VERSION}}, indent=2) + "\n"
        )
        if lock.exists():
            shutil.copy(lock, mods / "package-lock.json")
            log("npm ci (vitest, from the lock file)")
            sh(["npm", "ci", "--no-audit", "--no-fund"], cwd=mods)
        else:
            log("npm install (vitest); writing the lock file")
            sh(["npm", "install", "--no-audit", "--no-fund"], cwd=mods)
            shutil.copy(mods / "package-lock.json", lock)
    return tgz, mods


def prepare_zod(cache, work):
    tgz, mods = fetch_zod(cache)
    with tarfile.open(tgz) as t:
        t.extractall(work.parent / "unpack-zod", filter="data")
    shutil.move(work.parent / "unpack-zod" / "package", work)
    shutil.rmtree(work.parent / "unpack-zod")
    (work / "vitest.config.mjs").write_text(ZOD_VITEST_CONFIG)
    (work / "node_modules").mkdir()
    for entry in (mods / "node_modules").iterdir():
        (work / "node_modules" / entry.name).symlink_to(entry)
    (work / "node_modules" / "zod").symlink_to("..")
    (work / ".gitignore").write_text("node_modules/\n")


def zod_cmd(work, report):
    vitest = work / "node_modules" / "vitest" / "vitest.mjs"
    return ["node", str(vitest), "run", "--reporter=default", "--reporter=json",
            f"--outputFile={report}"]


def zod_results(report, out):
    data = json.loads(Path(report).read_text())
    tests = {}
    for f in data["testResults"]:
        for a in f["assertionResults"]:
            msgs = " ".join(a.get("failureMessages") or [])
            failed = a["status"] == "failed"
            # vitest fails a test that ran past its timeout (5000 ms: zod sets none) even when it
            # is synchronous and ends; its JSON report then carries only the stack of the
            # registration-time Error("STACK_TRACE_ERROR"), not the "timed out in" message
            timeout = failed and ("timed out in" in msgs or "STACK_TRACE_ERROR" in msgs
                                  or (a.get("duration") or 0) >= VITEST_TEST_TIMEOUT_MS)
            tests[f["name"].split("/src/", 1)[-1] + " > " + a["fullName"]] = {
                "status": a["status"],
                "duration_ms": a.get("duration"),
                "timeout": timeout,
            }
    return tests


def pyvenv(cache):
    venv = cache / f"venv-pytest-{PYTEST_VERSION}"
    py = venv / "bin" / "python"
    if not py.exists():
        log(f"venv with pytest=={PYTEST_VERSION}")
        sh([sys.executable, "-m", "venv", str(venv)])
        sh([str(py), "-m", "pip", "install", "-q", f"pytest=={PYTEST_VERSION}"])
    return py


def prepare_sqlparse(cache, work):
    d = cache / "dl"
    d.mkdir(parents=True, exist_ok=True)
    sdist = d / f"sqlparse-{SQLPARSE_VERSION}.tar.gz"
    if not sdist.exists():
        log(f"pip download sqlparse=={SQLPARSE_VERSION} (sdist)")
        sh([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
            f"sqlparse=={SQLPARSE_VERSION}", "-d", str(d)])
    pyvenv(cache)
    with tarfile.open(sdist) as t:
        t.extractall(work.parent / "unpack-sqlparse", filter="data")
    shutil.move(work.parent / "unpack-sqlparse" / f"sqlparse-{SQLPARSE_VERSION}", work)
    shutil.rmtree(work.parent / "unpack-sqlparse")
    (work / ".gitignore").write_text("__pycache__/\n")


def sqlparse_cmd(work, report, cache):
    # the work copy's own sqlparse: the tests import it from the rootdir (no install)
    return [str(pyvenv(cache)), "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"--junitxml={report}"]


def sqlparse_results(report, out):
    tests = {}
    for tc in ET.parse(report).getroot().iter("testcase"):
        name = f"{tc.get('classname')}::{tc.get('name')}"
        status = "passed"
        for child in tc:
            if child.tag in ("failure", "error"):
                status = "failed"
            elif child.tag == "skipped" and status == "passed":
                status = "skipped"
        tests[name] = {"status": status, "duration_ms": float(tc.get("time", 0)) * 1000,
                       "timeout": False}
    return tests


def prepare_cmark(cache, work):
    # cargo's own client fetches the .crate: a throwaway package depending on =VERSION
    fetcher = cache / "cmark-fetch"
    if not (fetcher / "Cargo.toml").exists():
        (fetcher / "src").mkdir(parents=True, exist_ok=True)
        (fetcher / "Cargo.toml").write_text(
            f'[package]\nname = "cmark-fetch"\nversion = "0.0.0"\nedition = "2021"\n\n'
            f'[dependencies]\npulldown-cmark = "={CMARK_VERSION}"\n'
        )
        (fetcher / "src" / "main.rs").write_text("fn main() {}\n")
    meta = json.loads(sh(["cargo", "metadata", "--format-version", "1"], cwd=fetcher).stdout)
    src = next(Path(p["manifest_path"]).parent for p in meta["packages"]
               if p["name"] == "pulldown-cmark" and p["version"] == CMARK_VERSION)
    shutil.copytree(src, work)
    # .planning/ ignored: the crate's build.rs prints no `rerun-if-changed`, so cargo reruns it
    # (and rebuilds the crate, ~10 s) whenever any file of the package changes, and cargo lists
    # the package's files with git: an untracked ledger that `probity run` rewrites at every
    # run would make every run under `probity run` a rebuild, which is not the probes' cost
    (work / ".gitignore").write_text("target/\n.planning/\n")


def cargo_env(cache):
    env = plain_env()
    env["CARGO_TARGET_DIR"] = str(cache / f"target-pulldown-cmark-{CMARK_VERSION}")
    return env


def cargo_cmd(work, report):
    # --tests: the library's unit tests and the integration tests; no doctests (rustdoc compiles
    # each one on every run, which would time rustdoc, not the probes)
    return ["cargo", "test", "--locked", "-q", "--tests"]


TEST_LINE = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)", re.M)
FINISHED = re.compile(r"test result: (\w+)\. .* finished in ([0-9.]+)s")


def cargo_results(report, out):
    # `cargo test -q` prints dots; the per-binary "finished in" lines are the durations libtest
    # reports, failures are listed by name
    tests = {}
    for i, m in enumerate(FINISHED.finditer(out)):
        tests[f"binary {i + 1}"] = {"status": "passed" if m.group(1) == "ok" else "failed",
                                    "duration_ms": float(m.group(2)) * 1000, "timeout": False}
    for m in re.finditer(r"^    (\S+)$", out.split("failures:")[-1] if "failures:" in out else "",
                         re.M):
        tests[m.group(1)] = {"status": "failed", "duration_ms": None, "timeout": False}
    return tests


# --------------------------------------------------------------------------------------------
# Running


def git_repo(work):
    sh(["git", "init", "-q", "."], cwd=work)
    sh(["git", "add", "-A"], cwd=work)
    sh(["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm",
        "unpacked package"], cwd=work)


class Suite:
    def __init__(self, name, cache, probity, reports):
        self.name = name
        self.spec = PACKAGES[name]
        self.cache = cache
        self.probity = probity
        self.reports = reports
        self.work = cache / "work" / name
        self.env = cargo_env(cache) if self.spec["language"] == "rust" else plain_env()

    def prepare(self):
        if self.work.exists():
            shutil.rmtree(self.work)
        self.work.parent.mkdir(parents=True, exist_ok=True)
        {"zod": prepare_zod, "sqlparse": prepare_sqlparse, "pulldown-cmark": prepare_cmark}[self.name](
            self.cache, self.work)
        git_repo(self.work)

    def command(self, report):
        if self.name == "zod":
            return zod_cmd(self.work, report)
        if self.name == "sqlparse":
            return sqlparse_cmd(self.work, report, self.cache)
        return cargo_cmd(self.work, report)

    def results(self, report, out):
        f = {"zod": zod_results, "sqlparse": sqlparse_results,
             "pulldown-cmark": cargo_results}[self.name]
        return f(report, out)

    def build(self):
        """Untimed: compile what the timed run would otherwise compile (Rust; Python's .pyc)."""
        if self.name == "sqlparse":
            sh([str(pyvenv(self.cache)), "-m", "compileall", "-q", "sqlparse"], cwd=self.work)
        if self.spec["language"] == "rust":
            log(f"{self.name}: cargo test --tests --no-run")
            sh(["cargo", "test", "--locked", "--no-run", "-q", "--tests"], cwd=self.work,
               env=self.env)

    def run_once(self, variant, i):
        report = self.reports / f"{self.name}-{variant}-{i}.report"
        if report.exists():
            report.unlink()
        cmd = self.command(report)
        if variant == "active":
            full = [str(self.probity), "run", "--slug", SLUG, "--phase", "baseline", "--json",
                    "--timeout", str(SUITE_TIMEOUT), "--"] + cmd
        else:
            full = cmd
        t0 = time.perf_counter()
        r = subprocess.run(full, cwd=self.work, env=self.env, text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=SUITE_TIMEOUT + 60)
        wall = time.perf_counter() - t0
        obs = None
        if variant == "active":
            if r.returncode != 0:
                raise SystemExit(f"suites: probity run refused ({r.returncode}): {r.stdout}{r.stderr}")
            env = json.loads(r.stdout)
            run = env["data"]["run"]
            obs = run["observations"]
            out = env["data"].get("untrusted_stdout_tail", "") + env["data"].get(
                "untrusted_stderr_tail", "")
            code = run["exit_code"]
            if run["status"] != "completed":
                raise SystemExit(f"suites: {self.name} active run {run['status']}")
        else:
            out = r.stdout + r.stderr
            code = r.returncode
        tests = self.results(report, out)
        log(f"{self.name} {variant} #{i + 1}: {wall:.2f} s, exit {code}, {len(tests)} results")
        return {"wall_s": wall, "exit_code": code, "tests": tests, "observations": obs}

    def fire_check(self):
        """A short run under `probity run` of one part of the suite, whose events stay under the
        sink's byte limit, so that every probe's own event count is known (a whole suite of many
        processes overflows the sink, and an overflowed run counts no probe's events)."""
        report = self.reports / f"{self.name}-fire.report"
        cmd = self.command(report)
        if self.name == "zod":
            cmd = cmd + ["src/v4/core/tests/compile-generative.test.ts"]
        elif self.spec["language"] == "rust":
            cmd = ["cargo", "test", "--locked", "-q", "--test", "lib", "--", "spec_test_1"]
        r = sh([str(self.probity), "run", "--slug", SLUG, "--phase", "baseline", "--json",
                "--timeout", str(SUITE_TIMEOUT), "--"] + cmd, cwd=self.work, env=self.env)
        obs = json.loads(r.stdout)["data"]["run"]["observations"]
        log(f"{self.name} fire check: " + ", ".join(
            f"{k} {o.get('verdict')} {o.get('event_count', 0)}" for k, o in sorted(obs.items())))
        return {k: {"verdict": o.get("verdict"), "reason": o.get("reason"),
                    "events": o.get("event_count", 0), "processes": o.get("process_count", 0)}
                for k, o in obs.items()}

    def place(self):
        p = str(self.probity)
        sh([p, "session", "init", "--slug", SLUG, "--policy", "adaptive", "--json"], cwd=self.work)
        for n, (f, fn, cap) in enumerate(self.spec["probes"], 1):
            r = sh([p, "place", f, "--function", fn, "--slug", SLUG, "--probe", f"p{n}",
                    "--hypothesis", "h1", "--message", "state", "--capture", cap, "--json"],
                   cwd=self.work)
            v = json.loads(r.stdout)
            if v["status"] != "ok":
                raise SystemExit(f"suites: place {f} {fn}: {r.stdout}")

    def cleanup(self):
        p = str(self.probity)
        c = json.loads(sh([p, "cleanup", "--slug", SLUG, "--json"], cwd=self.work, check=False).stdout)
        state = c.get("data", {}).get("state")
        v = sh([p, "verify", "."], cwd=self.work, check=False)
        diff = sh(["git", "status", "--porcelain", "--untracked-files=no"], cwd=self.work).stdout
        return {"cleanup_state": state, "verify_exit": v.returncode,
                "verify_out": (v.stdout + v.stderr).strip()[-500:], "tracked_changes": diff.strip()}


def best(runs):
    return min(runs, key=lambda r: r["wall_s"])


def measure(name, cache, probity, reports, repeat):
    s = Suite(name, cache, probity, reports)
    log(f"{name}: preparing a fresh copy")
    s.prepare()
    s.build()
    log(f"{name}: warm-up run (not counted)")
    warm = s.run_once("warmup", 0)
    base = [s.run_once("plain", i) for i in range(repeat)]
    s.place()
    s.build()
    inert, active = [], []
    for i in range(repeat):  # interleaved, so that a drift of the machine's load hits both
        inert.append(s.run_once("inert", i))
        active.append(s.run_once("active", i))
    fire = None
    if any(o.get("verdict") != "observed" for o in (best(active)["observations"] or {}).values()):
        fire = s.fire_check()
    clean = s.cleanup()
    # once more uninstrumented, on the stripped files (byte-identical to the package again):
    # the plain figure is the best of the runs before and after the probes
    s.build()
    base.append(s.run_once("plain", repeat))
    b, n, a = best(base), best(inert), best(active)

    def bad(r):
        return {k for k, t in r["tests"].items() if t["status"] == "failed"}

    def timeouts(r):
        return {k for k, t in r["tests"].items() if t["timeout"]}

    base_bad = set().union(*(bad(r) for r in base))
    base_to = set().union(*(timeouts(r) for r in base))
    new_to = sorted(set().union(*(timeouts(r) for r in inert + active)) - base_to)
    new_fail = sorted(set().union(*(bad(r) for r in inert + active)) - base_bad)
    fired = {}
    for pid, o in (a["observations"] or {}).items():
        fired[pid] = {"verdict": o.get("verdict"), "reason": o.get("reason"),
                      "events": o.get("event_count", 0), "processes": o.get("process_count", 0)}
    probes = [fn for (_, fn, _) in s.spec["probes"]]
    proof = fire or fired
    never = [f"p{i}" for i in range(1, len(probes) + 1)
             if proof.get(f"p{i}", {}).get("events", 0) == 0]
    watch = s.spec.get("watch")
    watched = None
    if watch:
        watched = {v: next((t["duration_ms"] for k, t in r["tests"].items() if k.endswith(watch)), None)
                   for v, r in (("plain", b), ("inert", n), ("active", a))}
    row = {
        "package": name,
        "language": s.spec["language"],
        "version": s.spec["version"],
        "registry": s.spec["registry"],
        "runner": s.spec["runner"],
        "suite": s.spec["suite"],
        "probes": probes,
        "plain_s": b["wall_s"],
        "inert_s": n["wall_s"],
        "active_s": a["wall_s"],
        "inert_ratio": n["wall_s"] / b["wall_s"],
        "active_ratio": a["wall_s"] / b["wall_s"],
        "all_walls": {"plain": [r["wall_s"] for r in base], "inert": [r["wall_s"] for r in inert],
                      "active": [r["wall_s"] for r in active]},
        "exit_codes": {"plain": b["exit_code"], "inert": n["exit_code"], "active": a["exit_code"]},
        "tests": len(b["tests"]),
        "new_timeouts": new_to,
        "new_failures": new_fail,
        "fired": fired,
        "fire_check": fire,
        "never_fired": never,
        "watched_test": watch,
        "watched_ms": watched,
        # not counted; under heavy load even an uninstrumented run can cross a timeout
        "warmup": {"wall_s": warm["wall_s"], "exit_code": warm["exit_code"],
                   "timeouts": sorted(timeouts(warm))},
        "slowest_plain": sorted(((t["duration_ms"] or 0, k) for k, t in b["tests"].items()),
                                reverse=True)[:3],
        "cleanup": clean,
    }
    return row


def fmt_table(rows):
    out = ["| package | version | probes | uninstrumented | inert (ratio) | active (ratio) | "
           "events (active) | new timeouts / other new failures |",
           "|---|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        ev = ", ".join(f"{p} {o['events']}" + (f" ({o['reason']})" if o.get("reason") else "")
                       for p, o in sorted(r["fired"].items()))
        if r["fire_check"]:
            ev += "; fire check: " + ", ".join(f"{p} {o['events']}"
                                               for p, o in sorted(r["fire_check"].items()))
        short = [t.rsplit(" > ", 1)[-1] for t in r["new_timeouts"]]
        other = [t.rsplit(" > ", 1)[-1] for t in r["new_failures"] if t not in r["new_timeouts"]]
        nt = (", ".join(f"`{t}`" for t in short) or "none") + " / " + (
            ", ".join(f"`{t}`" for t in other) or "none")
        out.append(
            f"| {r['package']} | {r['version']} | {', '.join('`' + p + '`' for p in r['probes'])} "
            f"| {r['plain_s']:.2f} s | {r['inert_s']:.2f} s ({r['inert_ratio']:.2f}x) "
            f"| {r['active_s']:.2f} s ({r['active_ratio']:.2f}x) | {ev} | {nt} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    ap.add_argument("--only", help="comma-separated: " + ",".join(PACKAGES))
    ap.add_argument("--repeat", type=int, default=1, help="runs per variant; the best counts")
    args = ap.parse_args()
    probity = Path(os.environ.get("PROBITY_BIN") or shutil.which("probity") or "target/debug/probity")
    if not probity.is_file():
        raise SystemExit(f"suites: no probity binary at {probity} (set PROBITY_BIN)")
    probity = probity.resolve()
    cache = Path(os.environ.get("PROBITY_BENCH_CACHE") or Path.home() / ".cache/probity-bench/suites")
    cache = cache.resolve()
    reports = cache / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    names = args.only.split(",") if args.only else list(PACKAGES)
    for n in names:
        if n not in PACKAGES:
            raise SystemExit(f"suites: unknown package {n} (one of {', '.join(PACKAGES)})")
    rows = []
    t0 = time.time()
    for n in names:
        rows.append(measure(n, cache, probity, reports, args.repeat))
    print(fmt_table(rows))
    for r in rows:
        if r["watched_ms"]:
            w = r["watched_ms"]
            print(f"\n{r['package']}: `{r['watched_test']}`: "
                  + ", ".join(f"{k} {v:.0f} ms" if v is not None else f"{k} ?" for k, v in w.items()))
    problems = []
    setup = []
    for r in rows:
        for k in ("inert_ratio", "active_ratio"):
            if r[k] > TARGET:
                problems.append(f"{r['package']}: {k} {r[k]:.2f} > {TARGET}")
        if r["new_timeouts"]:
            problems.append(f"{r['package']}: new timeouts {r['new_timeouts']}")
        if r["new_failures"]:
            problems.append(f"{r['package']}: new failures {r['new_failures']}")
        if r["never_fired"]:
            setup.append(f"{r['package']}: probes that never recorded: {r['never_fired']}")
        c = r["cleanup"]
        if c["cleanup_state"] != "clean" or c["verify_exit"] != 0 or c["tracked_changes"]:
            setup.append(f"{r['package']}: not clean after cleanup: {c}")
    print(f"\nprobity: {probity}; total {time.time() - t0:.0f} s; cleanup + verify: "
          + ", ".join(f"{r['package']} {r['cleanup']['cleanup_state']}/verify exit "
                      f"{r['cleanup']['verify_exit']}" for r in rows))
    if args.json:
        Path(args.json).write_text(json.dumps({"probity": str(probity), "target": TARGET,
                                               "rows": rows, "problems": problems,
                                               "setup_errors": setup}, indent=2) + "\n")
    for p in problems + setup:
        print("FAIL " + p)
    if setup:
        sys.exit(2)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
