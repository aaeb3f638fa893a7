#!/usr/bin/env python3
"""The drift oracle's Python family (see README.md).

For each package of `packages-python.toml`: fetch the PyPI sdist pinned by its
sha256, keep its source tree (tests, docs, examples and build scripts
pruned), index it with `scip-python` 0.6.6 (pyright; installed from npm into
the cache, run under nice, one package at a time), check that the index has a
document for every `.py` file, turn the definitions into cited references
(real and invented, `scip.Oracle`), run `probity resolve` over the tree and
tally the verdicts.

    python3 benches/drift-oracle/python.py
    ONLY=attrs,click python3 benches/drift-oracle/python.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402
import scip  # noqa: E402

SCIP_PYTHON = "@sourcegraph/scip-python@0.6.6"
PRUNE_DIRS = {
    "tests", "test", "testing", "docs", "doc", "examples", "example", "benchmarks", "bench",
    "scripts", "tools", ".github", "ci", "tasks",
}
PRUNE_FILES = {"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "tasks.py", "docs_conf.py"}


def tool() -> Path:
    prefix = common.cache_dir("tools", "scip-python")
    exe = prefix / "node_modules" / ".bin" / "scip-python"
    if not exe.exists():
        subprocess.run(["npm", "install", "--prefix", str(prefix), SCIP_PYTHON], check=True)
    return exe


def is_test(rel: str) -> bool:
    base = rel.rsplit("/", 1)[-1]
    return base.startswith("test_") or base.endswith("_test.py")


def source_files(root: Path) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*.py") if p.is_file()
    )


def tree(pkg: dict) -> Path:
    """The package's pruned source tree in the cache (fetched and pruned once)."""
    slug = f"{pkg['name']}-{pkg['version']}"
    fname = pkg["url"].rsplit("/", 1)[-1]
    archive = common.fetch(pkg["url"], common.cache_dir("pypi") / fname, pkg["sha256"])
    top = common.unpack(archive, common.cache_dir("pypi", "unpacked", slug))
    root = common.cache_dir("pypi", "trees") / slug
    if not (root / ".ready").exists():
        if root.exists():
            shutil.rmtree(root)
        shutil.copytree(top, root, symlinks=False)
        for p in sorted(root.rglob("*"), reverse=True):
            if not p.exists():
                continue
            rel = p.relative_to(root).as_posix()
            if p.is_dir() and p.name.lower() in PRUNE_DIRS:
                shutil.rmtree(p)
            elif p.is_file() and p.suffix == ".py" and (
                p.name in PRUNE_FILES or is_test(rel) or p.parent == root and p.name != "__init__.py"
                and p.name.startswith(("setup", "conf"))
            ):
                p.unlink()
        (root / ".ready").write_text("")
    return root


def prepare(pkg: dict) -> tuple[Path, Path, str]:
    root = tree(pkg)
    index = root.parent / f"{pkg['name']}-{pkg['version']}.scip"
    log = ""
    if not index.exists():
        cmd = [
            "nice", "-n", "19", str(tool()), "index", "--project-name", pkg["name"],
            "--project-version", pkg["version"], "--output", str(index), "--quiet",
        ]
        env = dict(os.environ, NODE_OPTIONS="--max-old-space-size=2048")
        proc = subprocess.run(cmd, cwd=root, capture_output=True, timeout=3600, env=env)
        log = (proc.stdout + proc.stderr).decode(errors="replace")[-3000:]
        if proc.returncode != 0 and not index.exists():
            raise RuntimeError(f"scip-python {pkg['name']}: exit {proc.returncode}: {log}")
    return root, index, log


def main() -> None:
    score = common.Score("Python")
    per_pkg = int(os.environ.get("PER_PKG", "2000"))
    for pkg in common.load_packages("packages-python.toml"):
        name = pkg["name"]
        try:
            root, index, _log = prepare(pkg)
        except Exception as e:  # an oracle that fails is reported, not trusted
            score.skip(name, f"oracle failed: {str(e)[:200]}")
            continue
        files = source_files(root)
        oracle = scip.Oracle.from_index(scip.read_index(index), root, files, scip.PY)
        if not oracle.covered:
            score.skip(name, f"index covers none of {len(files)} files")
            continue
        refs = oracle.references(name, per_pkg)
        ps = score.run(name, root, refs, oracle.coverage, common.scip_authority(index))
        print(f"{name}: {len(refs)} refs, {len(ps.unsafe)} unsafe", file=sys.stderr, flush=True)
        for ref, verdict in ps.unsafe:
            print(f"  unsafe {ref.truth} {ref.text!r} -> {verdict} [{ref.form}] {ref.why}", file=sys.stderr)
    # a subset (ONLY=) never overwrites the results of a full run
    out = "python-results-subset.json" if os.environ.get("ONLY") else "python-results.json"
    score.report(common.cache_dir() / out)


if __name__ == "__main__":
    main()
