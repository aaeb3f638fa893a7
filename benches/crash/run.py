#!/usr/bin/env python3
"""Crash-consistency bench (issue 12): kill each command at every write-like system call.

For each command (place, strip, run, cleanup) in a fresh repository and session, the command
is first traced (strace -f -ff) to list the main process's write-like system calls: openat with
O_CREAT, write, rename/renameat/renameat2, unlink/unlinkat, fsync/fdatasync, mkdir/mkdirat.
Then, for every occurrence N of each, a fresh copy of the setup is made and the command run
under `strace -f -e inject=<syscall>:signal=SIGKILL:when=N`, which kills probity at that call.
After each kill it checks:

  1. the user's file is byte for byte the original or the fully-placed file (never partial);
  2. the same command run again, then `probity cleanup`, reconcile: cleanup exits 0 with the
     session `clean`, the user's file is the original, TMPDIR holds nothing of probity, and
     `probity gate` passes.

Temporary files a killed atomic write leaves next to its target (`.probity-*.tmp`) are
counted apart ("litter"): they hold no user byte and no later command reads them.

Usage: benches/crash/run.py [--probity PATH] [--only place,strip,run,cleanup] [--max N]
Prints a table: command, injection points, reconciled, failures, litter; exits 1 on failure.
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APP = "def main():\n    value = 21\n    print(value)\n\n\nmain()\n"
LEDGER = ".planning/debug/cr.evidence.json"
WRITE_LIKE = ["openat", "write", "rename", "renameat", "renameat2", "unlink", "unlinkat",
              "fsync", "fdatasync", "mkdir", "mkdirat"]

PLACE = ["place", "app.py", "--line", "3", "--slug", "cr", "--probe", "p-main",
         "--hypothesis", "h1"]
COMMANDS = {
    "place": PLACE,
    "strip": ["strip", "--ledger", LEDGER],
    "run": ["run", "--slug", "cr", "--phase", "baseline", "--", "true"],
    "cleanup": ["cleanup", "--slug", "cr"],
}


def probity(exe, repo, tmp, args, strace=None, check=False):
    """Run probity (under `strace` args if given) in `repo` with TMPDIR=tmp."""
    cmd = [exe] + args
    if strace is not None:
        cmd = ["strace", "-qq", "-f"] + strace + ["--"] + cmd
    env = dict(os.environ, TMPDIR=tmp)
    p = subprocess.run(cmd, cwd=repo, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    if check and p.returncode != 0:
        raise RuntimeError(f"{args}: exit {p.returncode}: {p.stdout[-400:]!r} {p.stderr[-400:]!r}")
    return p


def setup(exe, command, base):
    """A fresh repository and TMPDIR under `base`, in the state before `command`."""
    repo = tempfile.mkdtemp(dir=base, prefix="repo-")
    tmp = tempfile.mkdtemp(dir=base, prefix="tmp-")
    os.mkdir(os.path.join(repo, ".git"))
    with open(os.path.join(repo, "app.py"), "w") as f:
        f.write(APP)
    probity(exe, repo, tmp, ["session", "init", "--slug", "cr", "--policy", "adaptive"],
            check=True)
    if command != "place":
        probity(exe, repo, tmp, PLACE, check=True)
    if command == "cleanup":
        probity(exe, repo, tmp, COMMANDS["run"], check=True)
    return repo, tmp


def placed_bytes(exe, base):
    repo, tmp = setup(exe, "strip", base)
    with open(os.path.join(repo, "app.py"), "rb") as f:
        return f.read()


def write_points(exe, command, base):
    """(syscall, N) for every write-like call of the main process, N counted per syscall."""
    repo, tmp = setup(exe, command, base)
    logs = tempfile.mkdtemp(dir=base, prefix="trace-")
    prefix = os.path.join(logs, "t")
    probity(exe, repo, tmp, COMMANDS[command],
            strace=["-ff", "-o", prefix, "-e", "trace=" + ",".join(WRITE_LIKE)])
    files = sorted(os.listdir(logs), key=lambda n: int(n.rsplit(".", 1)[1]))
    main = os.path.join(logs, files[0])  # the lowest pid: probity itself
    counts, points = {}, []
    call = re.compile(r"^(\w+)\((.*)")
    with open(main) as f:
        for line in f:
            m = call.match(line)
            if not m or m.group(1) not in WRITE_LIKE:
                continue
            name = m.group(1)
            counts[name] = counts.get(name, 0) + 1
            if name == "openat" and "O_CREAT" not in m.group(2):
                continue
            points.append((name, counts[name], line.strip()[:100]))
    return points


def entries(d):
    return sorted(os.listdir(d))


def litter(repo):
    n = 0
    for dirpath, _, names in os.walk(repo):
        n += sum(1 for x in names if x.startswith(".probity-") and x.endswith(".tmp"))
    return n


def inject(exe, command, point, base, original, placed):
    """Kill `command` at `point`; None if everything reconciles, else what did not; and the
    number of temporary files left."""
    name, n, _ = point
    repo, tmp = setup(exe, command, base)
    # The injection fires only on traced calls: trace the one injected, output discarded.
    k = probity(exe, repo, tmp, COMMANDS[command],
                strace=["-o", "/dev/null", "-e", f"trace={name}",
                        "-e", f"inject={name}:signal=SIGKILL:when={n}"])
    if k.returncode not in (-9, 128 + 9):
        return f"not killed (exit {k.returncode})", litter(repo)
    app = os.path.join(repo, "app.py")
    with open(app, "rb") as f:
        now = f.read()
    if now not in (original, placed):
        return f"partial user file after the kill ({len(now)} bytes)", litter(repo)
    probity(exe, repo, tmp, COMMANDS[command])
    c = probity(exe, repo, tmp, ["cleanup", "--slug", "cr", "--json"])
    try:
        v = json.loads(c.stdout)
        state = v.get("data", v).get("state")
    except ValueError:
        state = None
    with open(app, "rb") as f:
        now = f.read()
    left = entries(tmp)
    g = probity(exe, repo, tmp, ["gate", "--slug", "cr"])
    problems = []
    if c.returncode != 0 or state != "clean":
        problems.append(f"cleanup exit {c.returncode} state {state}: {c.stdout[-300:]!r}")
    if now != original:
        problems.append("user file not restored")
    if left:
        problems.append(f"left in TMPDIR: {left}")
    if g.returncode != 0:
        problems.append(f"gate exit {g.returncode}")
    return ("; ".join(problems) or None), litter(repo)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probity", default=os.path.join(ROOT, "target/debug/probity"))
    ap.add_argument("--only", default="place,strip,run,cleanup")
    ap.add_argument("--max", type=int, default=0, help="at most this many points per command")
    a = ap.parse_args()
    if shutil.which("strace") is None:
        print("strace not found", file=sys.stderr)
        return 2
    exe = os.path.abspath(a.probity)
    base = tempfile.mkdtemp(prefix="probity-crash-bench-")
    original = APP.encode()
    rows, failures = [], []
    try:
        placed = placed_bytes(exe, base)
        for command in a.only.split(","):
            start = time.time()
            points = write_points(exe, command, base)
            if a.max:
                step = max(1, len(points) // a.max)
                points = points[::step][: a.max]
            ok, bad, lit = 0, 0, 0
            for p in points:
                problem, l = inject(exe, command, p, base, original, placed)
                lit += 1 if l else 0
                if problem:
                    bad += 1
                    failures.append((command, p, problem))
                else:
                    ok += 1
            rows.append((command, len(points), ok, bad, lit, time.time() - start))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'command':<9} {'points':>6} {'reconciled':>10} {'failures':>8} {'litter':>6} {'secs':>6}")
    for r in rows:
        print(f"{r[0]:<9} {r[1]:>6} {r[2]:>10} {r[3]:>8} {r[4]:>6} {r[5]:>6.1f}")
    for command, p, problem in failures:
        print(f"FAIL {command} {p[0]}#{p[1]} ({p[2]}): {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
