#!/usr/bin/env python3
"""`probity accept diff` on long lines (issue 21, class 13): seconds per size.

For each size, a scratch repository holds one JavaScript file of that many bytes, committed, and
the working tree deletes one `if` branch in the middle of it; `accept diff --json` is timed once.
Two shapes of the same bytes:

- `one-line`: minified, every function on one line (`;`-joined);
- `split`: the same functions one per line.

`one-line` past `MAX_LINE_BYTES` (16 KiB) is refused per file (`line_too_long`, a `not_analyzed`
finding, exit 1); `under-limit` is a one-line file just below it (analyzed).

    cargo build --release
    python3 benches/accept/long_lines.py            # the table
    python3 benches/accept/long_lines.py --markdown # for benches/accept/README.md
    PROBITY=target/debug/probity python3 benches/accept/long_lines.py --sizes 225000
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_LINE_BYTES = 16 * 1024


def sources(n):
    """The old and new text of `n` bytes (one-line), and the same split into lines."""
    parts = []
    size = 0
    while size < n:
        i = len(parts)
        p = f"function f{i}(a){{if(a>{i}){{return a*{i}}}for(var j=0;j<a;j++){{a+=j}}return g(a)}}"
        parts.append(p)
        size += len(p) + 1
    k = len(parts) // 2
    new = list(parts)
    new[k] = new[k].replace(f"if(a>{k}){{return a*{k}}}", "")
    return {
        "one-line": (";".join(parts) + "\n", ";".join(new) + "\n"),
        "split": ("\n".join(parts) + "\n", "\n".join(new) + "\n"),
    }


def git(d, *args):
    subprocess.run(
        ["git", "-C", d, "-c", "user.name=b", "-c", "user.email=b@example.com", *args],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def measure(probity, old, new, timeout):
    """(seconds, exit code, verdict, kinds, skip_reason) of one run; seconds None on timeout."""
    with tempfile.TemporaryDirectory() as d:
        git(d, "init", "-q")
        with open(os.path.join(d, "bundle.js"), "w") as f:
            f.write(old)
        git(d, "add", "-A")
        git(d, "commit", "-qm", "old")
        with open(os.path.join(d, "bundle.js"), "w") as f:
            f.write(new)
        t = time.monotonic()
        try:
            p = subprocess.run(
                [probity, "accept", "diff", "--root", d, "--json"],
                capture_output=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return None, None, "-", "-", "-"
        secs = time.monotonic() - t
        data = json.loads(p.stdout).get("data") or {}
        kinds = ",".join(sorted(data.get("counts", {}))) or "-"
        skip = (data.get("files") or [{}])[0].get("skip_reason") or "-"
        return secs, p.returncode, data.get("verdict", "-"), kinds, skip


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[225_000, 1 << 20, 8 * (1 << 20) - 4096])
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    probity = os.environ.get("PROBITY") or os.path.join(ROOT, "target/release/probity")
    rows = []
    cases = [("under-limit", MAX_LINE_BYTES - 256, "one-line")]
    for n in a.sizes:
        cases += [("one-line", n, "one-line"), ("split", n, "split")]
    for label, n, shape in cases:
        old, new = sources(n)[shape]
        secs, code, verdict, kinds, skip = measure(probity, old, new, a.timeout)
        shown = "timeout" if secs is None else f"{secs:.2f}"
        rows.append((label, len(old), shown, code, verdict, kinds, skip))
        if not a.markdown:
            print(f"{label:12} {len(old):>9} bytes  {shown:>8} s  exit {code}  {verdict:8} {kinds:16} {skip}")
            sys.stdout.flush()
    if a.markdown:
        print("| shape | bytes | seconds | exit | verdict | kinds | skip_reason |")
        print("|---|---:|---:|---:|---|---|---|")
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")


if __name__ == "__main__":
    main()
