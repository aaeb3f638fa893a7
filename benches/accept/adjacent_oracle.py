#!/usr/bin/env python3
"""Hand-check helper for benches/accept/adjacent.md: run `probity accept tests` on one changed
file of a package and compare its depth-1 tests with an independent grep oracle (test files
whose import lines name the module: `from pkg.mod import`, `from . import mod`, `import
pkg.mod`, a JS/TS specifier ending in `/mod`, a Rust `use ...::mod`). Standard library only.

Usage: adjacent_oracle.py PROBITY ROOT FILE [FILE...]
"""
import json
import os
import re
import subprocess
import sys
import time


def is_test(rel):
    name = os.path.basename(rel)
    parts = rel.split("/")[:-1]
    if rel.endswith(".py"):
        return name.startswith("test_") or name.endswith("_test.py") or "tests" in parts or "test" in parts
    if re.search(r"\.(test|spec)\.[cm]?[jt]sx?$", name) or "__tests__" in parts:
        return True
    return rel.endswith(".rs") and "tests" in parts


def oracle(root, changed):
    mod = os.path.basename(changed).rsplit(".", 1)[0]
    if mod in ("__init__", "index", "mod"):
        mod = os.path.basename(os.path.dirname(changed))
    pats = [
        re.compile(r"^\s*from\s+[\w.]*\b%s\s+import\b" % re.escape(mod), re.M),
        re.compile(r"^\s*from\s+[\w.]+\s+import\s+[^\n]*\b%s\b" % re.escape(mod), re.M),
        re.compile(r"^\s*import\s+[\w.]*\b%s\b" % re.escape(mod), re.M),
        re.compile(r"""(from|import|require\()\s*['"][^'"]*/%s(\.[jt]sx?)?['"]""" % re.escape(mod)),
        re.compile(r"^\s*use\s+[\w:]*\b%s\b" % re.escape(mod), re.M),
    ]
    out = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in (".git", "node_modules", "target")]
        for f in files:
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            if not is_test(rel) or rel == changed:
                continue
            try:
                text = open(p, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            if any(r.search(text) for r in pats):
                out.add(rel)
    return out


def main():
    probity, root = sys.argv[1], sys.argv[2]
    for changed in sys.argv[3:]:
        t = time.time()
        out = subprocess.run(
            [probity, "accept", "tests", "--root", root, "--files", changed, "--json"],
            capture_output=True, text=True,
        )
        ms = int((time.time() - t) * 1000)
        v = json.loads(out.stdout)
        found1 = {x["path"] for x in v["tests"] if x["depth"] == 1 and x.get("via") is None}
        allf = len(v["tests"])
        exp = oracle(root, changed)
        print(json.dumps({
            "changed": changed, "found_depth1": len(found1), "oracle_depth1": len(exp),
            "agree": len(found1 & exp), "only_probity": sorted(found1 - exp),
            "only_oracle": sorted(exp - found1), "found_all_depths": allf, "ms": ms,
            "search_ms": v["stats"]["search_ms"], "candidates": v["stats"]["candidates"],
        }))


main()
