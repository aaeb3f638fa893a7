#!/usr/bin/env python3
"""The drift oracle's TypeScript/JavaScript family (see README.md).

For each package of `packages-js.toml`: fetch the npm tarball pinned by its
`dist.integrity`, keep its source tree (`keep`, tests pruned), index it with
`scip-typescript` 0.4.0 (installed from npm into the cache), check that the
index has a document for every source file, turn the definitions into cited
references (real and invented, `scip.Oracle`), run `probity resolve` over the
tree and tally the verdicts.

    python3 benches/drift-oracle/js.py            # every package
    ONLY=redux,express python3 benches/drift-oracle/js.py
    PROBITY=target/release/probity PER_PKG=3000 python3 benches/drift-oracle/js.py
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402
import scip  # noqa: E402

SCIP_TYPESCRIPT = "@sourcegraph/scip-typescript@0.4.0"
SOURCE_EXT = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
TREE_VERSION = "2"  # how the tree is pruned: a change rebuilds trees and indexes
TEST_DIRS = {"test", "tests", "__tests__", "__test__", "spec", "__mocks__", "fixtures"}


def is_test(rel: str) -> bool:
    parts = rel.split("/")
    if any(p in TEST_DIRS for p in parts[:-1]):
        return True
    base = parts[-1]
    return any(t in base for t in (".test.", ".spec.", "-test.", ".bench."))


def tool() -> Path:
    prefix = common.cache_dir("tools", "scip-typescript")
    exe = prefix / "node_modules" / ".bin" / "scip-typescript"
    if not exe.exists():
        subprocess.run(["npm", "install", "--prefix", str(prefix), SCIP_TYPESCRIPT], check=True)
    return exe


def check_integrity(path: Path, integrity: str) -> None:
    algo, _, want = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algo, path.read_bytes()).digest()).decode()
    if got != want:
        path.unlink()
        raise RuntimeError(f"{path.name}: {algo} {got}, pinned {want}")


def source_files(root: Path) -> list[str]:
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name.endswith(SOURCE_EXT) and not p.name.endswith(".min.js"):
            out.append(p.relative_to(root).as_posix())
    return out


def slug_of(pkg: dict) -> str:
    return pkg["name"].replace("/", "__").lstrip("@") + "-" + pkg["version"]


def tree(pkg: dict) -> Path:
    """The package's pruned source tree (fetched and pruned once; a new `TREE_VERSION` drops
    the tree and its index)."""
    slug = slug_of(pkg)
    tgz = common.fetch(pkg["tarball"], common.cache_dir("npm") / (slug + ".tgz"))
    check_integrity(tgz, pkg["integrity"])
    top = common.unpack(tgz, common.cache_dir("npm", "unpacked", slug))
    root = common.cache_dir("npm", "trees") / slug
    index = root.parent / (slug + ".scip")
    if (root / ".ready").exists() and (root / ".ready").read_text() != TREE_VERSION:
        (root / ".ready").unlink()
        index.unlink(missing_ok=True)
    if not (root / ".ready").exists():
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        for keep in pkg["keep"] + ["package.json"]:
            src = top / keep
            if src.is_dir():
                shutil.copytree(src, root / keep, symlinks=False)
            elif src.is_file():
                shutil.copy2(src, root / keep)
        for p in sorted(root.rglob("*"), reverse=True):
            rel = p.relative_to(root).as_posix()
            if p.is_dir() and p.name in TEST_DIRS:
                shutil.rmtree(p)
            elif p.is_file() and p.name.endswith(SOURCE_EXT) and is_test(rel):
                p.unlink()
            elif p.is_file() and p.name.endswith((".map", ".min.js")):
                p.unlink()
            elif p.is_file() and pkg["lang"] == "js" and p.name.endswith(".d.ts"):
                # a JavaScript package's hand-written typings: TypeScript reads
                # `x.d.ts` instead of `x.js`, so the index would miss the JS
                p.unlink()
        (root / ".ready").write_text(TREE_VERSION)
    return root


def prepare(pkg: dict) -> tuple[Path, Path, str]:
    """The package's pruned source tree and its SCIP index (built once)."""
    root = tree(pkg)
    index = root.parent / (slug_of(pkg) + ".scip")
    log = ""
    if not index.exists():
        cmd = ["nice", "-n", "19", str(tool()), "index", "--output", str(index)]
        infer = not (root / "tsconfig.json").exists()
        if infer:
            cmd.append("--infer-tsconfig")
        proc = subprocess.run(cmd, cwd=root, capture_output=True, timeout=3600)
        log = (proc.stdout + proc.stderr).decode(errors="replace")[-3000:]
        if infer:
            (root / "tsconfig.json").unlink(missing_ok=True)
        if proc.returncode != 0 and not index.exists():
            raise RuntimeError(f"scip-typescript {pkg['name']}: exit {proc.returncode}: {log}")
    return root, index, log


def main() -> None:
    score = common.Score("TypeScript/JavaScript")
    per_pkg = int(os.environ.get("PER_PKG", "2000"))
    for pkg in common.load_packages("packages-js.toml"):
        name = pkg["name"]
        try:
            root, index, _log = prepare(pkg)
        except Exception as e:  # an oracle that fails is reported, not trusted
            score.skip(name, f"oracle failed: {str(e)[:200]}")
            continue
        files = source_files(root)
        oracle = scip.Oracle.from_index(scip.read_index(index), root, files, scip.JS)
        if not oracle.covered:
            score.skip(name, f"index covers none of {len(files)} files")
            continue
        refs = oracle.references(name, per_pkg)
        ps = score.run(name, root, refs, oracle.coverage, common.scip_authority(index))
        print(f"{name}: {len(refs)} refs, {len(ps.unsafe)} unsafe", file=sys.stderr, flush=True)
        for ref, verdict in ps.unsafe:
            print(f"  unsafe {ref.truth} {ref.text!r} -> {verdict} [{ref.form}] {ref.why}", file=sys.stderr)
    # a subset (ONLY=) never overwrites the results of a full run
    out = "js-results-subset.json" if os.environ.get("ONLY") else "js-results.json"
    score.report(common.cache_dir() / out)


if __name__ == "__main__":
    main()
