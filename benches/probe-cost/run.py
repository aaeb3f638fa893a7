#!/usr/bin/env python3
"""What a probe costs per call: plain, inert, capped and recording, next to the disabled logger.

For Python, JavaScript, TypeScript (compiled by tsc) and Rust, a program with the tiny hot
function `x = a + 1; return x` written five times (`plain`, `probe1`, `probe8`, `log1`, `log8`)
is copied into a scratch git repository; `probity session init` and `probity place --function`
put a probe with 1 capture at the entry of `probe1` and one with 8 captures at the entry of
`probe8`, whatever blocks the given binary renders. The program times, inside itself, a loop of
N calls of each function (N calibrated to about --run-ms per timed run, --rounds rounds
interleaved), best and median, on the thread's CPU clock (the process's in Node.js; --clock wall
for the monotonic clock; both are kept in the JSON).

- plain: the function without a probe;
- inert: the probe without GSD_DEBUG_PROBE_RUNTIME and without a sink (the program run
  directly, probity's variables removed from the environment);
- capped: the program run by `probity run --phase baseline`, so the runtime, the sink and every
  variable are exactly what `probity run` sets; 200 warm-up calls spend each probe's 100-event cap
  before the timing starts;
- recording: the cost of a recorded event: --processes fresh processes per probe, each under
  `probity run`, timing its first 100 calls (all recorded): the first event alone and the mean
  of events 2-100;
- logger: the language's own disabled logger in the same program and run as inert
  (`logging.debug` below the logger's level, a `debug`-package logger not enabled,
  `tracing::debug!` with no subscriber), with 1 and 8 arguments.

Every `probity run` is checked: each probe that ran must be `observed` with exactly 100 events
from one process (and the sink must hold nothing else), else the bench fails (exit 2).
Prints a table (ns per call, added ns over plain, ratio to plain, the issue 22 targets) and
writes every figure with the blocks measured to --json. Exit 1 when a target is missed, 2 when
the bench itself could not run or a check failed.

Usage: python3 benches/probe-cost/run.py [--json FILE] [--langs python,javascript,...]
Binary: $PROBITY_BIN, else target/release/probity, else target/debug/probity of this checkout.
Cache (npm packages, cargo target dir, scratch repositories): $PROBITY_BENCH_CACHE, else
~/.cache/probity-bench/probe-cost.
"""

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SLUG = "probe-cost"
LANGS = ["python", "javascript", "typescript", "rust"]
# Issue 22, point 1: added ns per call over the plain call (inert, capped).
TARGETS = {
    "python": (120, 250),
    "javascript": (25, 50),
    "typescript": (25, 50),
    "rust": (2, 5),
}
CAPTURES = {1: ["a=a"], 8: [f"a{i}=a" for i in range(8)]}
PROBES = {1: ("probe1", "p1"), 8: ("probe8", "p8")}  # function, probe id
# Where each language's program is placed, and the files copied into its scratch repository.
SOURCES = {
    "python": ("hot.py", ["programs/hot.py", "programs/main.py"]),
    "javascript": ("bench.js", ["programs/bench.js"]),
    "typescript": ("bench.ts", ["programs/bench.ts"]),
    "rust": ("src/main.rs", ["rust/Cargo.toml", "rust/Cargo.lock", "rust/src/main.rs"]),
}
TSC_FLAGS = ["--strict", "--target", "es2022", "--module", "commonjs",
             "--noEmitOnError", "--outDir", "out"]


class BenchError(Exception):
    pass


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def sh(argv, cwd=None, env=None, what=None):
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"{what or argv[0]} failed ({r.returncode}): {' '.join(map(str, argv))}\n"
                         f"{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r.stdout


def probity_bin():
    env = os.environ.get("PROBITY_BIN")
    if env:
        return str(Path(env).resolve())
    for p in (REPO / "target/release/probity", REPO / "target/debug/probity"):
        if p.is_file():
            return str(p)
    raise BenchError("no probity binary: set PROBITY_BIN or build target/{release,debug}/probity")


def base_env(cache):
    """The environment every program runs in: probity's variables, NODE_OPTIONS and DEBUG
    removed (inert means no runtime and no sink; `debug` loggers stay disabled); the bench's
    npm packages on NODE_PATH."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GSD_DEBUG_PROBE_") and k not in ("NODE_OPTIONS", "DEBUG")}
    env["NODE_PATH"] = str(cache / "npm" / "node_modules")
    return env


def npm_install(cache):
    """`npm ci` of benches/probe-cost/package.json into the cache (again when the lock changes)."""
    dest = cache / "npm"
    files = [HERE / "package.json", HERE / "package-lock.json"]
    stamp = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    if (dest / ".stamp").is_file() and (dest / ".stamp").read_text() == stamp:
        return dest
    log("npm ci (typescript, debug) into " + str(dest))
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for f in files:
        shutil.copy(f, dest / f.name)
    sh(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=dest, what="npm ci")
    (dest / ".stamp").write_text(stamp)
    return dest


def probity_json(probity, args, cwd, env):
    r = subprocess.run([probity, *args], cwd=cwd, env=env, capture_output=True, text=True)
    try:
        v = json.loads(r.stdout)
    except json.JSONDecodeError:
        raise BenchError(f"probity {' '.join(args)}: no JSON ({r.returncode})\n{r.stdout[-2000:]}"
                         f"{r.stderr[-2000:]}") from None
    if r.returncode != 0 or v.get("status") != "ok":
        raise BenchError(f"probity {' '.join(args)} refused ({r.returncode}): "
                         f"{v.get('reason')}: {v.get('detail')}")
    return v["data"]


def prepare(lang, probity, work, cache, env):
    """The scratch repository of `lang` with both probes placed; returns (dir, argv, blocks)."""
    d = work / lang
    d.mkdir(parents=True)
    for rel in SOURCES[lang][1]:
        dest = d / Path(rel).relative_to(Path(rel).parts[0])
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE / rel, dest)
    sh(["git", "init", "-q"], cwd=d)
    probity_json(probity, ["session", "init", "--slug", SLUG, "--policy", "adaptive", "--json"],
                 d, env)
    target = SOURCES[lang][0]
    blocks = {}
    for n, (func, probe) in PROBES.items():
        args = ["place", target, "--function", func, "--slug", SLUG, "--probe", probe,
                "--hypothesis", "h1", "--message", "entry", "--json"]
        for c in CAPTURES[n]:
            args += ["--capture", c]
        p = probity_json(probity, args, d, env)["placement"]
        blocks[n] = {"lines": p["block_end_line"] - p["block_start_line"] + 1,
                     "sha256": p["block_sha256"], "block": p["block"]}
    if lang == "python":
        argv = [sys.executable, "main.py"]
    elif lang == "javascript":
        argv = ["node", "bench.js"]
    elif lang == "typescript":
        tsc = cache / "npm" / "node_modules" / ".bin" / "tsc"
        sh([str(tsc), *TSC_FLAGS, "bench.ts"], cwd=d, env=env, what="tsc")
        argv = ["node", "out/bench.js"]
    else:
        tdir = cache / "rust-target"
        sh(["cargo", "build", "--release", "--locked", "--quiet"], cwd=d,
           env=dict(env, CARGO_TARGET_DIR=str(tdir)), what="cargo build --release")
        argv = [str(tdir / "release" / "probe-cost")]
    return d, argv, blocks


def read_out(out):
    try:
        return json.loads(Path(out).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BenchError(f"the program wrote no result to {out}: {e}") from None


def run_inert(d, argv, env, out, a):
    sh([*argv, "loops", str(out), str(a.rounds), str(a.run_ms)], cwd=d, env=env,
       what="the inert run")
    return read_out(out)


def run_probity(probity, d, argv, env, out, mode, a, recorded):
    """`probity run` of the program; checks each probe of `recorded` is observed with exactly
    100 events of one process, the others are not, and the sink held nothing else."""
    if out.exists():
        out.unlink()
    data = probity_json(probity, ["run", "--slug", SLUG, "--phase", "baseline", "--timeout",
                                  "600", "--json", "--", *argv, mode, str(out), str(a.rounds),
                                  str(a.run_ms)], d, env)
    run = data["run"]
    if run.get("status") != "completed" or run.get("exit_code") != 0:
        raise BenchError(f"probity run {mode}: {run.get('status')}, exit {run.get('exit_code')}:"
                         f" {json.dumps(data)[-2000:]}")
    obs = run["observations"]
    for _, probe in PROBES.values():
        o = {k: v for k, v in obs.get(probe, {}).items() if k != "citations"}
        if probe in recorded:
            if (o.get("verdict"), o.get("event_count"), o.get("process_count")) != (
                    "observed", 100, 1):
                raise BenchError(f"probity run {mode}: probe {probe} should have exactly 100 "
                                 f"valid events of one process, got {json.dumps(o)}")
        elif o.get("verdict") == "observed":
            raise BenchError(f"probity run {mode}: probe {probe} recorded but was never called")
    if run.get("sink_lines") != 100 * len(recorded):
        raise BenchError(f"probity run {mode}: {run.get('sink_lines')} sink lines, expected "
                         f"{100 * len(recorded)}")
    return read_out(out)


def stats(xs):
    return {"best": min(xs), "median": statistics.median(xs), "mean": statistics.fmean(xs),
            "samples": xs}


def row(lang, variant, caps, s, base, target=None):
    added_best = s["best"] - base["best"]
    r = {"lang": lang, "variant": variant, "captures": caps, "best": s["best"],
         "median": s["median"], "mean": s["mean"], "added_best": added_best,
         "added_median": s["median"] - base["median"],
         "ratio": s["best"] / base["best"] if base["best"] > 0 else None,
         "target_added": target, "samples": s["samples"]}
    if target is not None:
        r["pass"] = added_best <= target
    return r


def bench_lang(lang, probity, work, cache, env, a):
    log(f"{lang}: placing the probes")
    d, argv, blocks = prepare(lang, probity, work, cache, env)
    out = work / f"{lang}.out.json"
    log(f"{lang}: inert")
    inert = run_inert(d, argv, env, out, a)
    log(f"{lang}: capped (under probity run)")
    capped = run_probity(probity, d, argv, env, out, "loops", a, {"p1", "p8"})
    rec = {1: [], 8: []}
    log(f"{lang}: recording ({a.processes} processes per probe, each under probity run)")
    for _ in range(a.processes):
        for n, (_, probe) in PROBES.items():
            rec[n].append(run_probity(probity, d, argv, env, out, f"record{n}", a, {probe}))
    iv, cv = inert["variants"], capped["variants"]
    key = "cpu_ns" if a.clock == "cpu" else "ns"
    plain = stats(iv["plain"][key])
    inert_t, capped_t = TARGETS[lang]
    rows = [row(lang, "plain", 0, plain, plain)]
    for n in (1, 8):
        rows.append(row(lang, "inert", n, stats(iv[f"probe{n}"][key]), plain, inert_t))
    cplain = stats(cv["plain"][key])
    for n in (1, 8):
        rows.append(row(lang, "capped", n, stats(cv[f"probe{n}"][key]), cplain, capped_t))
    rk, fk = ("rest_cpu_ns", "first_cpu_ns") if a.clock == "cpu" else ("rest_ns", "first_ns")
    for n in (1, 8):
        rows.append(row(lang, "recording", n, stats([float(r[rk]) for r in rec[n]]), plain))
    for n in (1, 8):
        rows.append(row(lang, "first event", n, stats([float(r[fk]) for r in rec[n]]), plain))
    for n in (1, 8):
        rows.append(row(lang, "logger", n, stats(iv[f"log{n}"][key]), plain))
    # The other clock's best, next to each figure (a wait would show here, not in CPU time).
    other = {"plain": [iv["plain"]], "inert": [iv["probe1"], iv["probe8"]],
             "capped": [cv["probe1"], cv["probe8"]], "logger": [iv["log1"], iv["log8"]]}
    okey = "ns" if key == "cpu_ns" else "cpu_ns"
    ork, ofk = ("rest_ns", "first_ns") if a.clock == "cpu" else ("rest_cpu_ns", "first_cpu_ns")
    other["recording"] = [{okey: [r[ork] for r in rec[n]]} for n in (1, 8)]
    other["first event"] = [{okey: [r[ofk] for r in rec[n]]} for n in (1, 8)]
    seen = {}
    for r in rows:
        k = seen.setdefault(r["variant"], 0)
        seen[r["variant"]] += 1
        r["other_clock_best"] = min(other[r["variant"]][k][okey])
    return {"blocks": blocks, "plain_in_capped_run": cplain, "rows": rows,
            "raw": {"inert": iv, "capped": cv, "recording": rec},
            "calls_per_run": {"inert": {k: v["n"] for k, v in iv.items()},
                              "capped": {k: v["n"] for k, v in cv.items()}}}


LOGGER = {"python": "logging.debug, below level", "javascript": "debug, not enabled",
          "typescript": "debug, not enabled", "rust": "tracing::debug!, no subscriber"}
NOTES = {"plain": "no probe", "inert": "no runtime, no sink", "capped": "cap spent",
         "recording": "events 2-100, mean", "first event": "incl. loading"}


def fmt_ns(x):
    if x is None:
        return "-"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


RIGHT = {2, 3, 4, 5, 6, 7, 8}  # the numeric columns
OTHER = {"cpu": "wall", "wall": "cpu"}


def table(results, clock):
    head = ["language", "variant", "caps", "best ns", "median ns", "+ns best", "+ns median",
            "x plain", f"{OTHER[clock]} best", "target +ns", "check"]
    lines = []
    for lang, res in results.items():
        for r in res["rows"]:
            what = r["variant"] + (f" ({NOTES[r['variant']]})" if r["variant"] in NOTES
                                   else f" ({LOGGER[lang]})")
            lines.append([
                lang, what, str(r["captures"]) if r["captures"] else "-",
                fmt_ns(r["best"]), fmt_ns(r["median"]),
                "-" if r["variant"] == "plain" else f"{r['added_best']:+,.1f}",
                "-" if r["variant"] == "plain" else f"{r['added_median']:+,.1f}",
                "-" if r["variant"] == "plain" or r["ratio"] is None else f"{r['ratio']:,.1f}",
                fmt_ns(r["other_clock_best"]),
                "-" if r["target_added"] is None else f"<= {r['target_added']}",
                "" if r["target_added"] is None else ("PASS" if r["pass"] else "FAIL"),
            ])
    widths = [max(len(x[i]) for x in [head, *lines]) for i in range(len(head))]
    out = []
    for k, x in enumerate([head, *lines]):
        out.append("  ".join(c.rjust(w) if i in RIGHT else c.ljust(w)
                             for i, (c, w) in enumerate(zip(x, widths))).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def summary(results):
    """One Markdown row per language: the best figures, added ns over plain."""
    out = ["| language | plain | inert, 1 / 8 captures | capped, 1 / 8 | recorded event "
           "(2-100), 1 / 8 | first event, 1 / 8 | disabled logger, 1 / 8 | targets |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for lang, res in results.items():
        by = {(r["variant"], r["captures"]): r for r in res["rows"]}

        def pair(variant, fmt):
            return " / ".join(fmt(by[(variant, n)]) for n in (1, 8))

        def added(r):
            return f"{r['added_best']:+,.1f}" if abs(r["added_best"]) < 100 else \
                f"{r['added_best']:+,.0f}"

        def us(r):
            return f"{r['best'] / 1000:,.0f} µs"
        ok = all(r.get("pass", True) for r in res["rows"])
        inert_t, capped_t = TARGETS[lang]
        out.append(f"| {lang} | {fmt_ns(by[('plain', 0)]['best'])} ns | {pair('inert', added)} | "
                   f"{pair('capped', added)} | {pair('recording', added)} | "
                   f"{pair('first event', us)} | {pair('logger', added)} | "
                   f"{'met' if ok else 'missed'} (<= {inert_t} / {capped_t}) |")
    return "\n".join(out)


def versions(probity, cache):
    def v(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True).stdout.strip()
        except OSError:
            return None
    return {"probity": v([probity, "--version"]),
            "probity_sha256": hashlib.sha256(Path(probity).read_bytes()).hexdigest(),
            "python": sys.version.split()[0], "node": v(["node", "--version"]),
            "tsc": v([str(cache / "npm/node_modules/.bin/tsc"), "--version"]),
            "rustc": v(["rustc", "--version"]), "cpus": os.cpu_count(),
            "loadavg_at_end": os.getloadavg()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="write every figure (and the blocks measured) to this file")
    ap.add_argument("--langs", default=",".join(LANGS), help="comma-separated subset of "
                    + ",".join(LANGS))
    ap.add_argument("--rounds", type=int, default=21,
                    help="timed runs per variant (default 21)")
    ap.add_argument("--run-ms", type=int, default=10,
                    help="target length of one timed run in ms (default 10)")
    ap.add_argument("--processes", type=int, default=20,
                    help="fresh processes per probe for the recording cost (default 20)")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="the clock of the figures and the targets: cpu (default: the thread's "
                    "CPU time, the process's in Node.js) or wall (monotonic); the table also "
                    "shows the other clock's best")
    ap.add_argument("--markdown", action="store_true",
                    help="also print a one-row-per-language summary in Markdown (added ns)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch repositories")
    a = ap.parse_args()
    langs = [x for x in a.langs.split(",") if x]
    if any(x not in LANGS for x in langs):
        ap.error(f"--langs: one of {','.join(LANGS)}")
    load_at_start = os.getloadavg()
    cache = Path(os.environ.get("PROBITY_BENCH_CACHE")
                 or Path.home() / ".cache" / "probity-bench" / "probe-cost").resolve()
    cache.mkdir(parents=True, exist_ok=True)
    lock = open(cache / ".lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)  # one bench at a time per cache (shared work folder)
    work = cache / "work"
    try:
        probity = probity_bin()
        env = base_env(cache)
        if {"javascript", "typescript"} & set(langs):
            npm_install(cache)
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        log(f"probity: {probity}; load average {os.getloadavg()[0]:.2f}")
        results = {}
        for lang in langs:
            try:
                results[lang] = bench_lang(lang, probity, work, cache, env, a)
            finally:
                d = work / lang
                if (d / ".planning").is_dir():  # remove the session's capture root
                    subprocess.run([probity, "cleanup", "--slug", SLUG, "--json"], cwd=d,
                                   env=env, capture_output=True)
    except BenchError as e:
        log(f"probe-cost: {e}")
        return 2
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"ns per call ({a.clock} clock); +ns: over the plain call; x plain: ratio to it")
    print(table(results, a.clock), flush=True)
    if a.markdown:
        print()
        print(summary(results))
    failed = [f"{r['lang']} {r['variant']} ({r['captures']} captures)"
              for res in results.values() for r in res["rows"] if r.get("pass") is False]
    print()
    print("targets: " + ("all met" if not failed else "MISSED: " + ", ".join(failed)))
    if a.json:
        doc = {"settings": {"clock": a.clock, "rounds": a.rounds, "run_ms": a.run_ms,
                            "processes": a.processes, "probity_bin": probity,
                            "loadavg_at_start": load_at_start},
               "versions": versions(probity, cache), "targets": TARGETS,
               "targets_met": not failed, "languages": results}
        Path(a.json).write_text(json.dumps(doc, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
