#!/usr/bin/env python3
"""Real release pairs that change test-runner configuration must not flag (issue 27 point 2).

For every package of the accept benchmark cache (~/.cache/probity/accept: crates, npm, pypi;
filled by run.py, never fetched here) and every two consecutive versions of it there, the
test-runner configuration files of both releases (pytest.ini, tox.ini, setup.cfg,
pyproject.toml, package.json, Cargo.toml, conftest.py, jest/vitest/vite config files; outside
node_modules/) become a two-commit repository, and `probity accept diff --json` runs on it. A
release is not a suppression: every flagged pair is printed with its findings, then the totals.

  python3 benches/accept/config_pairs.py target/debug/probity

Standard library only; exit 0 whatever the numbers.
"""
import json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path
C = Path(os.environ.get("PROBITY_ACCEPT_CACHE", Path.home() / ".cache" / "probity" / "accept"))
BIN = sys.argv[1] if len(sys.argv) > 1 else "target/debug/probity"
NAMES = {"pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "package.json", "Cargo.toml", "conftest.py"}
def is_cfg(n):
    return n in NAMES or re.match(r"^(jest|vitest|vite)\.config\.(js|ts|cjs|mjs|cts|mts)$", n)
def ver(v):
    return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"[.\-]", v))
def root_of(d):
    subs = [p for p in d.iterdir() if p.is_dir()]
    if (d/"package").is_dir(): return d/"package"
    if len(subs) == 1 and not any(p.is_file() for p in d.iterdir()): return subs[0]
    return d
def cfgs(r):
    out = {}
    for dp, dn, fn in os.walk(r):
        dn[:] = [x for x in dn if x not in ("node_modules", ".git")]
        for f in fn:
            if is_cfg(f):
                p = Path(dp)/f
                out[str(p.relative_to(r))] = p.read_bytes()
    return out
pairs = []
for eco in ("crates", "npm", "pypi"):
    groups = {}
    for d in (C/eco).iterdir():
        if not d.is_dir() or d.name.startswith("_"): continue
        m = re.match(r"^(.*)-(\d[^-]*(?:-[a-z]+[.\d]*)?)$", d.name)
        if not m: continue
        groups.setdefault(m.group(1), []).append((ver(m.group(2)), d))
    for name, vs in groups.items():
        vs.sort()
        for (_, a), (_, b) in zip(vs, vs[1:]):
            pairs.append((a, b))
stats = {"pairs": 0, "changed": 0, "flagged": 0}
for a, b in pairs:
    o, n = cfgs(root_of(a)), cfgs(root_of(b))
    stats["pairs"] += 1
    if o == n: continue
    stats["changed"] += 1
    with tempfile.TemporaryDirectory() as t:
        t = Path(t)
        g = lambda *args: subprocess.run(["git", "-C", str(t), "-c", "user.email=a@b", "-c", "user.name=a", *args], check=True, capture_output=True)
        g("init", "-q")
        for k, v in o.items():
            (t/k).parent.mkdir(parents=True, exist_ok=True); (t/k).write_bytes(v)
        g("add", "-A"); g("commit", "-qm", "o", "--allow-empty")
        for k in o: (t/k).unlink()
        for k, v in n.items():
            (t/k).parent.mkdir(parents=True, exist_ok=True); (t/k).write_bytes(v)
        r = subprocess.run([BIN, "accept", "diff", "--json"], cwd=t, capture_output=True, text=True)
        try:
            d = json.loads(r.stdout)["data"]
        except Exception:
            print("ERR", a.name, b.name, r.stdout[:200], r.stderr[:200]); continue
        changed = [f["path"] for f in d["files"]]
        fs = [(f["kind"], f["severity"], f["file"], f["detail"][:140]) for f in d["findings"]]
        if d["verdict"] == "flagged": stats["flagged"] += 1
        print(("FLAG " if d["verdict"] == "flagged" else "pass ") + a.name + " -> " + b.name, changed)
        for f in fs: print("    ", f)
print(stats)
