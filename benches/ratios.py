#!/usr/bin/env python3
"""Print place/parse and strip/parse ratios from criterion's results (issue 2 §7).

Reads target/criterion/<language>/{parse,place,strip}/new/estimates.json, as written by
`cargo bench --bench engine`, and compares each language's ratios with the targets:
place <= 3.0x one parse, strip <= 2.0x one parse. Standard library only.

Usage: python3 benches/ratios.py [--criterion-dir DIR] [--estimate mean|median|min] [--markdown]

`min` is the fastest sample's time per iteration (from sample.json): on a machine shared with
other work it is closer to the code's own cost than the mean.
Exit status: 0 when every ratio meets its target, 1 when one does not, 2 when results are missing.
"""

import argparse
import json
import os
import sys

TARGETS = {"place": 3.0, "strip": 2.0}
LANGUAGES = ["rust", "javascript", "typescript", "python"]


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(criterion_dir, language, bench, estimate):
    name = "sample.json" if estimate == "min" else "estimates.json"
    path = os.path.join(criterion_dir, language, bench, "new", name)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if estimate == "min":
        return min(t / n for t, n in zip(data["times"], data["iters"]))  # nanoseconds
    return float(data[estimate]["point_estimate"])  # nanoseconds


def fmt_time(ns):
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    return "%.1f µs" % (ns / 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--criterion-dir",
        default=os.path.join(
            os.environ.get("CARGO_TARGET_DIR", os.path.join(repo_root(), "target")), "criterion"
        ),
    )
    ap.add_argument("--estimate", choices=["mean", "median", "min"], default="mean")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()

    rows = []
    missing = []
    for lang in LANGUAGES:
        t = {b: load(args.criterion_dir, lang, b, args.estimate) for b in ("parse", "place", "strip")}
        if None in t.values():
            missing.append(lang)
            continue
        rows.append((lang, t))
    if not rows:
        print("no results under %s: run `cargo bench --bench engine` first" % args.criterion_dir,
              file=sys.stderr)
        return 2

    ok = True
    if args.markdown:
        print("| language | parse | place | strip | place / parse (≤ 3.0) | strip / parse (≤ 2.0) |")
        print("|---|---:|---:|---:|---:|---:|")
    else:
        print("%-11s %10s %10s %10s %16s %16s" % (
            "language", "parse", "place", "strip", "place/parse<=3.0", "strip/parse<=2.0"))
    for lang, t in rows:
        cells = []
        for bench in ("place", "strip"):
            ratio = t[bench] / t["parse"]
            good = ratio <= TARGETS[bench]
            ok = ok and good
            cells.append("%.2fx %s" % (ratio, "ok" if good else "OVER"))
        times = [fmt_time(t[b]) for b in ("parse", "place", "strip")]
        if args.markdown:
            print("| %s | %s | %s | %s | %s | %s |" % (lang, *times, *cells))
        else:
            print("%-11s %10s %10s %10s %16s %16s" % (lang, *times, *cells))
    for lang in missing:
        print("%s: no results (run `cargo bench --bench engine`)" % lang, file=sys.stderr)
    if missing:
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
