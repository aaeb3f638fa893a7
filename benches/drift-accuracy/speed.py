#!/usr/bin/env python3
"""Drift-guard speed on the accuracy set: each package's own plan, against its peers in one run.

For every package of benches/drift-accuracy/packages/ (fetched and cached by run.py's fetchers):
  - cold `probity drift` (empty cache) against `ctags -R --languages=<the package's language>` on
    the same root (one language, the same files: not every language ctags knows);
  - warm `probity drift` (nothing changed) against two `rg -l -F` runs for the plan's names;
  - the peak memory of the cold run.
Goals (issue 10): cold <= 1.0x ctags, warm <= 1.0x two rg runs, memory < 150 MB.

Usage: python3 benches/drift-accuracy/speed.py [--probity BIN] [--runs N] [--only ID] [--markdown]
                                                [--instructions]
Needs ctags (universal-ctags), rg, GNU time at /usr/bin/time. Standard library only.
Times are the best of N runs (default 5), wall clock, ms resolution.
--instructions: instead, count the instructions (valgrind --tool=callgrind, needs valgrind) of one
cold `probity drift --threads 1` and of one `ctags -R --languages=<lang>` per package: the same
binary and input give the same count whatever else runs on the machine.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as harness  # noqa: E402  (the fetchers and package loader)

CTAGS_LANG = {"rust": "Rust", "python": "Python", "javascript": "JavaScript",
              "typescript": "TypeScript"}


def timed(cmd, tmp):
    """(seconds, peak KB) of one run of `cmd`; output discarded."""
    tfile = os.path.join(tmp, "time")
    t0 = time.perf_counter()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tfile] + cmd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    secs = time.perf_counter() - t0
    with open(tfile) as f:
        kb = int(f.read().strip().splitlines()[-1])
    return secs, kb


def instructions(cmd, tmp):
    """Instructions (callgrind `Ir`) one run of `cmd` executes, every thread included."""
    out = os.path.join(tmp, "cg.out")
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", r.stderr) or re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
    if not m:
        raise SystemExit(f"speed.py: no instruction count from valgrind for {cmd[0]}")
    return int(m.group(1).replace(",", ""))


def best(n, fn):
    runs = [fn() for _ in range(n)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def plan_names(report):
    """The last segment of every reference the plan cites (what a grep would look for)."""
    names = set()
    for r in report.get("results", []):
        ref = r.get("reference", "").lstrip("@-")
        last = re.split(r"[.:/]+", ref)[-1]
        if last:
            names.add(last)
    return sorted(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--probity", default=str(harness.REPO / "target" / "release" / "probity"))
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "probity" / "drift-accuracy"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--instructions", action="store_true")
    a = ap.parse_args()
    for tool in ("ctags", "rg"):
        if not shutil.which(tool):
            print(f"speed.py: `{tool}` is missing", file=sys.stderr)
            return 2
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for folder in sorted((harness.HERE / "packages").iterdir()):
            if a.only and folder.name != a.only:
                continue
            pkg, _ = harness.load_package(folder)
            root = harness.fetch(pkg, Path(a.cache)) / pkg["root"]
            plan = folder / "plan.md"
            cache = os.path.join(tmp, "cache-" + folder.name)
            drift = [a.probity, "drift", "--json", "--plan", str(plan), "--root", str(root),
                     "--cache-dir", cache]

            ctags = ["ctags", "-R", f"--languages={CTAGS_LANG[pkg['language']]}", "-f",
                     os.path.join(tmp, "tags"), str(root)]
            if a.instructions:
                shutil.rmtree(cache, ignore_errors=True)
                p_i = instructions(drift + ["--threads", "1"], tmp)
                k_i = instructions(ctags, tmp)
                rows.append((folder.name, pkg["language"], p_i, k_i))
                continue

            def cold():
                shutil.rmtree(cache, ignore_errors=True)
                return timed(drift, tmp)

            c_s, c_kb = best(a.runs, cold)
            k_s, _ = best(a.runs, lambda: timed(
                ["ctags", "-R", f"--languages={CTAGS_LANG[pkg['language']]}", "-f",
                 os.path.join(tmp, "tags"), str(root)], tmp))
            subprocess.run(drift, stdout=subprocess.DEVNULL)
            w_s, w_kb = best(a.runs, lambda: timed(drift, tmp))
            report = json.loads(subprocess.run(drift, capture_output=True, text=True).stdout)
            rg = ["rg", "-l", "-F"] + [x for n in plan_names(report) for x in ("-e", n)] + [str(root)]

            def rg2():
                s1, _ = timed(rg, tmp)
                s2, kb = timed(rg, tmp)
                return s1 + s2, kb

            r_s, _ = best(a.runs, rg2)
            rows.append((folder.name, pkg["language"], len(report.get("results", [])),
                         c_s, k_s, w_s, r_s, max(c_kb, w_kb) // 1024))
    if a.instructions:
        head = ["package", "language", "cold drift Ir", "ctags Ir", "cold/ctags"]
        lines = [[n, l, f"{p / 1e6:.1f}M", f"{k / 1e6:.1f}M", f"{p / k:.2f}x"]
                 for n, l, p, k in rows]
        return emit(head, lines, a.markdown)
    head = ["package", "language", "refs", "cold s", "ctags s", "cold/ctags", "warm s",
            "2x rg s", "warm/rg", "peak MB"]
    lines = []
    for name, lang, refs, c, k, w, r, mb in rows:
        lines.append([name, lang, str(refs), f"{c:.3f}", f"{k:.3f}", f"{c / k:.2f}x",
                      f"{w:.3f}", f"{r:.3f}", f"{w / r:.2f}x", str(mb)])
    return emit(head, lines, a.markdown)


def emit(head, lines, markdown):
    """Print a table, aligned text or markdown."""
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|")
        for l in lines:
            print("| " + " | ".join(l) + " |")
    else:
        widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for l in lines:
            print("  ".join(x.ljust(w) for x, w in zip(l, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
