#!/usr/bin/env python3
"""A probe at the entry of every function of real crates, then the crate's own test suite.

For each pinned crate: fetch its published `.crate` from static.crates.io into
~/.cache/probity/entry-probes (never vendored), unpack a pristine copy and a working copy, place
one `probity place --function <address> --message entry` probe per function of `src/` (the
addresses `probity index` gives: `name`, `Type::name`, `<Type as Trait>::name`), run the crate's
own `cargo test` with the probes in (GSD_DEBUG_PROBE_SINK unset, then set to a file), strip every
probe and compare the working copy with the pristine one byte for byte.

Prints per crate: functions, accepted %, refusals by reason code, test results with probes
(passed/failed, both runs), sink lines, and whether the tree is byte-identical after strip.
Exit 1 when a crate's accepted share is under 95 %, a test run fails, or the strip is not exact.

Usage: python3 benches/entry-probes/run.py [--probity target/debug/probity] [CRATE@VERSION ...]
Needs: cargo (dependencies from ~/.cargo/registry; `cargo fetch` is run when they are missing).
"""

import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

CRATES = ["semver@1.0.27", "indexmap@2.2.6"]
CACHE = Path.home() / ".cache" / "probity" / "entry-probes"
PER_LEDGER = 10  # a session ledger holds at most 10 probes


def fetch(name, version):
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}-{version}.crate"
    if not path.exists():
        url = f"https://static.crates.io/crates/{name}/{name}-{version}.crate"
        tmp = path.with_suffix(".part")
        with urllib.request.urlopen(url, timeout=60) as r, open(tmp, "wb") as f:
            shutil.copyfileobj(r, f)
        tmp.rename(path)
    return path


def unpack(crate, dest):
    with tarfile.open(crate) as t:
        t.extractall(dest, filter="data")
    (top,) = [p for p in Path(dest).iterdir() if p.is_dir()]
    return top


def tree_digest(root):
    """{relative path: sha256} of every file, without probity's ledgers and cargo's output."""
    out = {}
    for p in sorted(Path(root).rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel.startswith((".planning", "target", "sink")) or rel == "Cargo.lock":
            continue
        if p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def functions(probity, root):
    """(file, name, line) of every function and method declared under src/, each file's from
    its last line up (a probe placed lower in a file does not move the lines above it)."""
    out = subprocess.run(
        [probity, "index", "--root", root, "--no-cache", "--json"],
        capture_output=True, text=True, check=True,
    )
    found = []
    for f in json.loads(out.stdout)["files"]:
        if not f["path"].startswith("src/"):
            continue
        decls = [d for d in f.get("decls", []) if d["kind"] in ("function", "method")]
        for d in sorted(decls, key=lambda d: -d["line"]):
            found.append((f["path"], d["name"], d["line"]))
    return found


def place(probity, root, path, function, group, i, ledger):
    r = subprocess.run(
        [probity, "place", path, "--function", function, "--slug", f"entry-{group}",
         "--probe", f"e{i}", "--hypothesis", "h1", "--message", "entry",
         "--ledger", ledger, "--root", ".", "--json"],
        cwd=root, capture_output=True, text=True,
    )
    return r.returncode, json.loads(r.stdout or "{}")


def cargo_test(root, env):
    r = subprocess.run(
        ["cargo", "test", "--offline", "--quiet", "--no-fail-fast"],
        cwd=root, env=env, capture_output=True, text=True,
    )
    passed = sum(int(m) for m in re.findall(r"test result: \w+\. (\d+) passed", r.stdout))
    failed = sum(int(m) for m in re.findall(r"; (\d+) failed", r.stdout))
    return r.returncode, passed, failed, r.stderr[-2000:]


def run_crate(probity, spec, keep):
    name, version = spec.split("@")
    crate = fetch(name, version)
    work = Path(tempfile.mkdtemp(prefix=f"entry-{name}-"))
    pristine = unpack(crate, work / "pristine")
    root = unpack(crate, work / "work")
    (root / ".git").mkdir()  # probity's repository root
    env = dict(os.environ)
    env.pop("GSD_DEBUG_PROBE_SINK", None)
    # Compiled dependencies are kept between runs (the crate itself is rebuilt: its sources change).
    env["CARGO_TARGET_DIR"] = str(CACHE / f"target-{name}-{version}")
    if subprocess.run(["cargo", "fetch", "--quiet"], cwd=root, env=env).returncode != 0:
        print(f"{spec}: cargo fetch failed", file=sys.stderr)
    base = cargo_test(root, env)

    fns = functions(probity, str(root))
    refusals = collections.Counter()
    ledgers = []
    accepted = 0
    for i, (path, fname, line) in enumerate(fns):
        group = i // PER_LEDGER
        ledger = f".planning/debug/entry-{group}.json"
        if ledger not in ledgers:
            ledgers.append(ledger)
        # The bare name first; where it names several functions, the candidate probity lists
        # for this declaration's line (each candidate names exactly one: `Type::name`,
        # `<Type as Trait>::name`).
        code, v = place(probity, root, path, fname, group, i, ledger)
        if code != 0 and v.get("reason") == "ambiguous_function":
            cands = [re.fullmatch(r"(.*) \(line (\d+)\)", c) for c in v.get("candidates", [])]
            mine = [m.group(1) for m in cands if m and int(m.group(2)) == line]
            if len(mine) == 1:
                code, v = place(probity, root, path, mine[0] + f" (line {line})", group, i, ledger)
        if code == 0:
            accepted += 1
        else:
            reason = v.get("reason", "?")
            refusals[reason] += 1
            if keep:
                print(f"  refused {path}:{line} {fname}: {reason}: {v.get('detail', '')}")

    unset = cargo_test(root, env)
    sink = root / "sink"
    sink.write_bytes(b"")
    env_sink = dict(env, GSD_DEBUG_PROBE_SINK=str(sink), GSD_DEBUG_PROBE_RUN="run-1",
                    GSD_DEBUG_PROBE_PHASE="baseline")
    live = cargo_test(root, env_sink)
    lines = sink.read_bytes().count(b"\n")
    sink.unlink()

    strip_ok = True
    for ledger in ledgers:
        if not (root / ledger).exists():  # every placement of that group was refused
            continue
        r = subprocess.run([probity, "strip", "--ledger", ledger, "--root", ".", "--json"],
                           cwd=root, capture_output=True, text=True)
        strip_ok &= r.returncode == 0
    exact = tree_digest(root) == tree_digest(pristine)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "crate": spec,
        "functions": len(fns),
        "accepted": accepted,
        "accepted_pct": round(100.0 * accepted / max(len(fns), 1), 1),
        "refusals": dict(refusals),
        "tests_without_probes": {"exit": base[0], "passed": base[1], "failed": base[2]},
        "tests_sink_unset": {"exit": unset[0], "passed": unset[1], "failed": unset[2]},
        "tests_sink_set": {"exit": live[0], "passed": live[1], "failed": live[2]},
        "sink_lines": lines,
        "strip_ok": strip_ok,
        "byte_exact_after_strip": exact,
        "stderr_tail": live[3] if live[0] != 0 else "",
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probity", default=str(Path(__file__).resolve().parents[2] / "target/debug/probity"))
    ap.add_argument("--keep", action="store_true", help="keep the work trees; list refusals")
    ap.add_argument("crates", nargs="*", default=CRATES)
    a = ap.parse_args()
    bad = False
    for spec in a.crates:
        r = run_crate(a.probity, spec, a.keep)
        print(json.dumps(r, indent=1))
        bad |= (r["accepted_pct"] < 95 or r["tests_sink_unset"]["failed"]
                or r["tests_sink_set"]["failed"] or r["tests_sink_unset"]["exit"]
                or r["tests_sink_set"]["exit"] or not r["byte_exact_after_strip"])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
