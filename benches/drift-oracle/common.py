"""Shared parts of the drift-oracle harness (see README.md).

Each family script (rust.py, js.py, python.py) turns a compiler-grade symbol
table into cited references, real and invented, and hands them to `score()`,
which runs `probity resolve` over the package and tallies the verdicts. This
module holds what the three have in common: the package cache, the fetch, the
perturbations that make invented references, the run of probity and the table.

Nothing here is vendored: packages are fetched pinned from the registries into
a cache directory (`$PROBITY_ORACLE_CACHE`, default
`~/.cache/probity-drift-oracle`), and the cache can be deleted at any time.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import urllib.request
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

REAL = "real"
INVENTED = "invented"

# A verdict that claims the symbol exists.
EXISTS = {"VERIFIED", "AMBIGUOUS"}


def cache_dir(*parts: str) -> Path:
    base = os.environ.get("PROBITY_ORACLE_CACHE") or str(
        Path.home() / ".cache" / "probity-drift-oracle"
    )
    path = Path(base, *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def probity_bin() -> str:
    """The probity binary: `$PROBITY`, else the release build, else debug."""
    env = os.environ.get("PROBITY")
    if env:
        return env
    for profile in ("release", "debug"):
        cand = REPO / "target" / profile / "probity"
        if cand.exists():
            return str(cand)
    sys.exit("drift-oracle: no probity binary: build one or set PROBITY=")


def load_packages(toml_name: str) -> list[dict]:
    """The pinned package list of a family (`packages-<family>.toml`)."""
    with open(HERE / toml_name, "rb") as fh:
        data = tomllib.load(fh)
    pkgs = data.get("package", [])
    only = os.environ.get("ONLY")
    if only:
        wanted = set(only.split(","))
        pkgs = [p for p in pkgs if p["name"] in wanted]
    return pkgs


def fetch(url: str, dest: Path, sha256: str | None = None) -> Path:
    """Download `url` to `dest` once (atomic rename); check `sha256` if given."""
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_suffix(dest.suffix + ".part")
        with urllib.request.urlopen(url, timeout=120) as resp, open(tmp, "wb") as out:
            while chunk := resp.read(1 << 16):
                out.write(chunk)
        os.replace(tmp, dest)
    if sha256:
        got = hashlib.sha256(dest.read_bytes()).hexdigest()
        if got != sha256:
            dest.unlink()
            raise RuntimeError(f"{url}: sha256 {got}, pinned {sha256}")
    return dest


def unpack(archive: Path, dest: Path) -> Path:
    """Unpack a .tar.gz/.tgz/.crate/.zip once into `dest`; return the single
    top folder when the archive has one (as sdists, crates and npm tarballs do)."""
    done = dest / ".unpacked"
    if not done.exists():
        dest.mkdir(parents=True, exist_ok=True)
        name = archive.name
        if name.endswith(".zip") or name.endswith(".whl"):
            with zipfile.ZipFile(archive) as zf:
                for info in zf.infolist():
                    target = (dest / info.filename).resolve()
                    if not str(target).startswith(str(dest.resolve())):
                        raise RuntimeError(f"{archive}: entry escapes: {info.filename}")
                zf.extractall(dest)
        else:
            with tarfile.open(archive) as tf:
                tf.extractall(dest, filter="data")
        done.write_text("")
    tops = [p for p in dest.iterdir() if p.name != ".unpacked"]
    if len(tops) == 1 and tops[0].is_dir():
        return tops[0]
    return dest


@dataclasses.dataclass
class Ref:
    """A cited reference and what the oracle says it is."""

    text: str
    truth: str  # REAL or INVENTED
    form: str  # how it was made: "Type::method", "near_miss", ...
    why: str = ""  # the oracle's evidence (a symbol id, a file) or the perturbation


WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def source_words(files: list[Path]) -> set[str]:
    """Every identifier-like word in the files: an invented name must be none
    of them, so that an invented reference is invented for certain."""
    words: set[str] = set()
    for f in files:
        try:
            data = f.read_bytes()
        except OSError:
            continue
        words.update(m.group().decode() for m in WORD.finditer(data))
    return words


LETTERS = "abcdefghijklmnopqrstuvwxyz"


def near_miss(name: str, taken: set[str], rng: random.Random) -> str | None:
    """An edit-distance-1 variant of `name` (substitution, deletion, insertion
    or transposition, keeping the first character and the case style) that is
    none of `taken`."""
    if len(name) < 4:
        return None
    for _ in range(40):
        i = rng.randrange(1, len(name))
        op = rng.choice("sdit")
        ch = rng.choice(LETTERS)
        if name[i - 1].isupper() or name[i].isupper():
            ch = ch.upper() if rng.random() < 0.5 else ch
        if op == "s":
            cand = name[:i] + ch + name[i + 1 :]
        elif op == "d":
            cand = name[:i] + name[i + 1 :]
        elif op == "i":
            cand = name[:i] + ch + name[i:]
        else:
            if i + 1 >= len(name):
                continue
            cand = name[:i] + name[i + 1] + name[i] + name[i + 2 :]
        if cand != name and cand not in taken and cand.isidentifier():
            return cand
    return None


def sample(items: list, k: int, rng: random.Random) -> list:
    items = sorted(set(items))
    if len(items) <= k:
        return items
    return rng.sample(items, k)


def scip_authority(index: Path) -> Path | None:
    """The index to give `probity resolve --scip` (rung 4) when `AUTHORITY=scip`, else None."""
    return index if os.environ.get("AUTHORITY") == "scip" else None


def resolve(root: Path, refs: list[Ref], timeout: int = 900, scip: Path | None = None) -> dict[str, dict]:
    """Run `probity resolve` on `root` over the references (with `--scip` when given, rung 4);
    ref text -> result."""
    texts = sorted({r.text for r in refs})
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        refs_file = Path(tmp, "refs.json")
        refs_file.write_text(json.dumps(texts))
        cmd = [
            probity_bin(),
            "resolve",
            "--root",
            str(root),
            "--refs",
            str(refs_file),
            "--json",
            "--no-cache",
            "-q",
        ] + (["--scip", str(scip)] if scip else [])
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout)
        try:
            doc = json.loads(proc.stdout)
        except json.JSONDecodeError:
            raise RuntimeError(
                f"probity resolve {root}: exit {proc.returncode}: "
                f"{proc.stderr.decode(errors='replace')[-2000:]}"
            )
        if doc.get("status") not in ("ok", "not_clean"):
            raise RuntimeError(f"probity resolve {root}: {doc.get('reason')}: {doc.get('detail')}")
        for res in doc["data"]["results"]:
            out[res["ref"]] = res
    return out


@dataclasses.dataclass
class PackageScore:
    name: str
    coverage: str = ""  # the oracle's own coverage, e.g. "212/212 files"
    real: int = 0
    real_right: int = 0
    real_unc: int = 0
    inv: int = 0
    inv_right: int = 0
    inv_unc: int = 0
    unsafe: list = dataclasses.field(default_factory=list)
    results: list = dataclasses.field(default_factory=list)
    rung4: int = 0  # verdicts decided by the SCIP index (AUTHORITY=scip)
    hard: int = 0  # of them, MISSING at rung 4 (hard blocks)
    skipped: str = ""  # why the package is not scored (oracle failed, partial index)


class Score:
    """Verdict tallies per package and for a family.

    A real reference is decided right when VERIFIED or AMBIGUOUS, unsafe when
    MISSING. An invented one is right when MISSING, unsafe when VERIFIED or
    AMBIGUOUS (either tells the planner the symbol is there). UNCHECKABLE is
    neither right nor unsafe; its rate is reported per class."""

    def __init__(self, family: str):
        self.family = family
        self.packages: list[PackageScore] = []

    def package(self, name: str, coverage: str = "") -> PackageScore:
        ps = PackageScore(name=name, coverage=coverage)
        self.packages.append(ps)
        return ps

    def skip(self, name: str, why: str) -> None:
        ps = self.package(name)
        ps.skipped = why

    @staticmethod
    def add(ps: PackageScore, ref: Ref, result: dict | None) -> None:
        verdict = (result or {}).get("verdict", "NONE")
        ps.results.append(
            {"ref": ref.text, "truth": ref.truth, "form": ref.form, "why": ref.why, "verdict": verdict,
             "reason": (result or {}).get("reason") or ""}
        )
        if (result or {}).get("rung") == 4:
            ps.rung4 += 1
            ps.hard += verdict == "MISSING"
        if ref.truth == REAL:
            ps.real += 1
            if verdict in EXISTS:
                ps.real_right += 1
            elif verdict == "UNCHECKABLE":
                ps.real_unc += 1
            else:
                ps.unsafe.append((ref, verdict))
        else:
            ps.inv += 1
            if verdict == "MISSING":
                ps.inv_right += 1
            elif verdict == "UNCHECKABLE":
                ps.inv_unc += 1
            else:
                ps.unsafe.append((ref, verdict))

    def run(self, name: str, root: Path, refs: list[Ref], coverage: str = "", scip: Path | None = None) -> PackageScore:
        """Resolve and tally one package's references (`scip`: rung 4 with that index)."""
        ps = self.package(name, coverage)
        results = resolve(root, refs, scip=scip)
        for ref in refs:
            self.add(ps, ref, results.get(ref.text))
        return ps

    def totals(self) -> PackageScore:
        t = PackageScore(name=f"{self.family} total")
        scored = [p for p in self.packages if not p.skipped]
        for p in scored:
            for f in ("real", "real_right", "real_unc", "inv", "inv_right", "inv_unc", "rung4", "hard"):
                setattr(t, f, getattr(t, f) + getattr(p, f))
            t.unsafe.extend(p.unsafe)
        t.coverage = f"{len(scored)} packages"
        return t

    def report(self, out: Path | None = None) -> None:
        """Print the table (and the unsafe references), write JSON if asked."""
        rung4 = os.environ.get("AUTHORITY") == "scip"
        extra = f" {'rung 4':>7} {'hard':>6}" if rung4 else ""
        hdr = f"{'package':<34} {'refs':>6} {'real ok':>8} {'inv ok':>8} {'unc r/i':>11} {'unsafe':>6}{extra}  oracle"
        print(hdr)
        print("-" * len(hdr))
        for p in self.packages + [self.totals()]:
            if p.skipped:
                print(f"{p.name:<34} skipped: {p.skipped}")
                continue
            print(
                f"{p.name:<34} {p.real + p.inv:>6} {pct(p.real_right, p.real):>8} "
                f"{pct(p.inv_right, p.inv):>8} {pct(p.real_unc, p.real):>5}/{pct(p.inv_unc, p.inv):<5} "
                f"{len(p.unsafe):>6}" + (f" {p.rung4:>7} {p.hard:>6}" if rung4 else "") + f"  {p.coverage}"
            )
        unsafe = [(p.name, r, v) for p in self.packages for r, v in p.unsafe]
        if unsafe:
            print(f"\nunsafe verdicts ({len(unsafe)}):")
            for name, ref, verdict in unsafe[: int(os.environ.get("SHOW", "200"))]:
                print(f"  {name}: {ref.truth} {ref.text!r} -> {verdict}  [{ref.form}] {ref.why}")
        if out:
            doc = {
                "family": self.family,
                "packages": [dataclasses.asdict(p) | {"unsafe": [(r.text, v) for r, v in p.unsafe]} for p in self.packages],
            }
            out.write_text(json.dumps(doc, indent=1, default=str))


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


def sample_refs(refs: list[Ref], k: int, rng: random.Random) -> list[Ref]:
    """Up to `k` of the references, one per text, chosen deterministically
    (sorted first, so the choice depends only on the rng's seed)."""
    uniq = {}
    for r in sorted(refs, key=lambda r: (r.text, r.form, r.why)):
        uniq.setdefault(r.text, r)
    items = list(uniq.values())
    if len(items) <= k:
        return items
    return rng.sample(items, k)
