#!/usr/bin/env python3
"""Instruction counts of parse, place and strip per language, under valgrind's callgrind.

Wall-clock ratios move when other processes share the machine; instruction counts do not (the
same binary and input give the same count). This builds the criterion bench binary
(`cargo bench --bench engine --no-run`), runs it with PROBITY_BENCH_ONLY=<lang>:<op>:<n> under
`valgrind --tool=callgrind` for op = none (setup only), parse, place and strip, and prints
(count(op) - count(none)) / n per operation and the place/parse and strip/parse ratios against
the targets (place <= 3.0x, strip <= 2.0x).

Usage: python3 benches/instructions.py [--repeat N] [LANG ...]
Needs valgrind (Debian package `valgrind`). Standard library only. Exit 1 if a target is missed.
"""

import argparse
import json
import os
import re
import subprocess
import sys

LANGUAGES = ["rust", "javascript", "typescript", "python"]
TARGETS = {"place": 3.0, "strip": 2.0}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_binary():
    out = subprocess.run(
        ["cargo", "bench", "--bench", "engine", "--no-run", "--message-format=json"],
        cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True,
    ).stdout
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg["target"]["name"] == "engine":
            return msg["executable"]
    raise SystemExit("instructions.py: no bench executable in cargo's output")


def count(binary, lang, op, n):
    env = dict(os.environ, PROBITY_BENCH_ONLY="%s:%s:%d" % (lang, op, n))
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    if proc.returncode != 0:
        raise SystemExit("instructions.py: %s %s failed:\n%s" % (lang, op, proc.stderr))
    m = re.search(r"refs:\s*([\d,]+)", proc.stderr)
    if not m:
        raise SystemExit("instructions.py: no instruction count in valgrind's output")
    return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="operations per valgrind run")
    ap.add_argument("languages", nargs="*", default=LANGUAGES)
    args = ap.parse_args()
    binary = bench_binary()
    ok = True
    print("%-11s %12s %12s %12s %16s %16s" % (
        "language", "parse", "place", "strip", "place/parse<=3.0", "strip/parse<=2.0"))
    for lang in args.languages:
        base = count(binary, lang, "none", args.repeat)
        per = {op: (count(binary, lang, op, args.repeat) - base) / args.repeat
               for op in ("parse", "place", "strip")}
        cells = []
        for op in ("place", "strip"):
            ratio = per[op] / per["parse"]
            good = ratio <= TARGETS[op]
            ok = ok and good
            cells.append("%.2fx %s" % (ratio, "ok" if good else "OVER"))
        print("%-11s %11.1fM %11.1fM %11.1fM %16s %16s" % (
            lang, per["parse"] / 1e6, per["place"] / 1e6, per["strip"] / 1e6, *cells))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
