#!/usr/bin/env python3
"""Drift-guard accuracy on real packages (issue 10), in the spirit of ruff's ecosystem checks.

For every packages/<id>/ (package.toml, plan.md, truth.toml): fetch the package at its pinned
version into a cache outside the repository (crates.io via `cargo fetch`, PyPI sdists via
`pip download`, npm via `npm pack`), run `probity drift --json --no-cache` with the plan on the
unpacked sources, and compare every verdict with the hand-checked truth. Standard library only.

Exit status: 0 whatever the verdicts; 2 when the harness itself failed (a fetch, a probity run,
an unreadable package folder).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ECOSYSTEMS = ("crates", "pypi", "npm")
LANGUAGES = ("rust", "python", "javascript", "typescript")
DONE = ".probity-unpacked"


class HarnessError(Exception):
    pass


def run(cmd, cwd=None, env=None):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise HarnessError(
            f"`{' '.join(map(str, cmd))}` failed ({proc.returncode}):\n{proc.stderr.strip()[-2000:]}"
        )
    return proc.stdout


def safe_name(name):
    return name.replace("@", "").replace("/", "-")


def extract(archive, dest):
    """Unpack `archive` into `dest`, dropping its single top folder (package/, name-version/)."""
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=dest.parent))
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                for info in z.infolist():
                    target = (tmp / info.filename).resolve()
                    if not str(target).startswith(str(tmp.resolve())):
                        raise HarnessError(f"{archive}: member outside the archive: {info.filename}")
                z.extractall(tmp)
        else:
            with tarfile.open(archive) as t:
                if hasattr(tarfile, "data_filter"):
                    t.extractall(tmp, filter="data")
                else:
                    for m in t.getmembers():
                        if m.name.startswith("/") or ".." in Path(m.name).parts:
                            raise HarnessError(f"{archive}: member outside the archive: {m.name}")
                    t.extractall(tmp)
        entries = list(tmp.iterdir())
        top = entries[0] if len(entries) == 1 and entries[0].is_dir() else tmp
        if dest.exists():
            shutil.rmtree(dest)
        shutil.move(str(top), str(dest))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fetch_crate(name, version, cache):
    dest = cache / "crates" / f"{name}-{version}"
    proj = cache / "crates" / f"_fetch-{name}-{version}"
    (proj / "src").mkdir(parents=True, exist_ok=True)
    (proj / "src" / "lib.rs").write_text("")
    (proj / "Cargo.toml").write_text(
        f'[package]\nname = "fetch-probity-accuracy"\nversion = "0.0.0"\nedition = "2021"\n'
        f'[workspace]\n[dependencies]\n{name} = "={version}"\n'
    )
    run(["cargo", "fetch", "--manifest-path", str(proj / "Cargo.toml")])
    cargo_home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    found = sorted((cargo_home / "registry" / "src").glob(f"*/{name}-{version}"))
    if not found:
        raise HarnessError(f"cargo fetch did not unpack {name}-{version} under {cargo_home}/registry/src")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(found[0], dest, symlinks=True)
    shutil.rmtree(proj, ignore_errors=True)
    # As a developer of the crate has it: a Cargo.lock and every dependency unpacked (optional
    # and dev ones included), so that traits of dependencies can be read (docs/drift.md).
    run(["cargo", "generate-lockfile", "--manifest-path", str(dest / "Cargo.toml")])
    run(["cargo", "fetch", "--manifest-path", str(dest / "Cargo.toml")])
    return dest


def fetch_pypi(name, version, cache):
    dest = cache / "pypi" / f"{safe_name(name)}-{version}"
    dl = cache / "pypi" / "_downloads" / f"{safe_name(name)}-{version}"
    dl.mkdir(parents=True, exist_ok=True)
    archives = [p for p in dl.iterdir() if p.name.endswith((".tar.gz", ".zip", ".tar.bz2"))]
    if not archives:
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "--disable-pip-version-check", "-d", str(dl), f"{name}=={version}"])
        archives = [p for p in dl.iterdir() if p.name.endswith((".tar.gz", ".zip", ".tar.bz2"))]
    if len(archives) != 1:
        raise HarnessError(f"pip download of {name}=={version} gave {len(archives)} sdists in {dl}")
    extract(archives[0], dest)
    return dest


def fetch_npm(name, version, cache):
    dest = cache / "npm" / f"{safe_name(name)}-{version}"
    dl = cache / "npm" / "_downloads"
    dl.mkdir(parents=True, exist_ok=True)
    out = run(["npm", "pack", f"{name}@{version}", "--json", "--pack-destination", str(dl)], cwd=dl)
    info = json.loads(out)
    tarball = dl / info[0]["filename"].replace("@", "").replace("/", "-")
    if not tarball.exists():
        candidates = sorted(dl.glob(f"*{safe_name(name).split('-')[-1]}-{version}.tgz"))
        if not candidates:
            raise HarnessError(f"npm pack {name}@{version}: no tarball in {dl}")
        tarball = candidates[0]
    extract(tarball, dest)
    return dest


FETCHERS = {"crates": fetch_crate, "pypi": fetch_pypi, "npm": fetch_npm}


def fetch(pkg, cache):
    eco, name, version = pkg["ecosystem"], pkg["name"], pkg["version"]
    dest = cache / eco / f"{safe_name(name)}-{version}"
    if (dest / DONE).exists():
        return dest
    (cache / eco).mkdir(parents=True, exist_ok=True)
    dest = FETCHERS[eco](name, version, cache)
    (dest / DONE).write_text(f"{eco} {name} {version}\n")
    return dest


def load_package(folder):
    pkg = tomllib.loads((folder / "package.toml").read_text())
    for key in ("ecosystem", "name", "version", "language"):
        if key not in pkg:
            raise HarnessError(f"{folder}/package.toml: missing `{key}`")
    if pkg["ecosystem"] not in ECOSYSTEMS:
        raise HarnessError(f"{folder}/package.toml: ecosystem must be one of {ECOSYSTEMS}")
    if pkg["language"] not in LANGUAGES:
        raise HarnessError(f"{folder}/package.toml: language must be one of {LANGUAGES}")
    pkg.setdefault("root", "")
    truth = tomllib.loads((folder / "truth.toml").read_text()).get("ref", [])
    labels = {}
    for entry in truth:
        if entry.get("truth") not in ("real", "invented") or not entry.get("ref"):
            raise HarnessError(f"{folder}/truth.toml: bad entry {entry}")
        if entry["ref"] in labels:
            raise HarnessError(f"{folder}/truth.toml: `{entry['ref']}` labelled twice")
        labels[entry["ref"]] = entry
    calls = {}
    for entry in tomllib.loads((folder / "truth.toml").read_text()).get("call", []):
        if entry.get("truth") not in ("match", "mismatch") or not entry.get("cited"):
            raise HarnessError(f"{folder}/truth.toml: bad call entry {entry}")
        if entry["cited"] in calls:
            raise HarnessError(f"{folder}/truth.toml: call `{entry['cited']}` labelled twice")
        calls[entry["cited"]] = entry
    pkg["_calls"] = calls
    return pkg, labels


def drift(probity, plan, root):
    cmd = [str(probity), "drift", "--json", "--no-cache", "--plan", str(plan), "--root", str(root)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise HarnessError(f"`{' '.join(cmd)}` exited {proc.returncode}:\n{proc.stderr.strip()[-2000:]}")
    try:
        out = json.loads(proc.stdout)
        # The report is the envelope's `data` (schema_version 2).
        return out.get("data", out) if isinstance(out, dict) else out
    except json.JSONDecodeError as e:
        raise HarnessError(f"`{' '.join(cmd)}`: output is not JSON ({e})")


def why(result):
    """probity's own explanation of a verdict, for the listing."""
    parts = []
    if result.get("reason"):
        parts.append(result["reason"])
    if result.get("location"):
        parts.append(f"at {result['location']}")
    if result.get("candidates"):
        parts.append("candidates " + ", ".join(
            f"{c.get('qualified', '?')} ({c.get('location', '?')})" for c in result["candidates"][:4]))
    if result.get("suggestions"):
        parts.append("suggestions " + ", ".join(result["suggestions"]))
    return "; ".join(parts) or "(no reason given)"


def compare(report, labels):
    """Classify every labelled reference; return counters and the lists to print."""
    verdicts = {}
    for r in report.get("results", []):
        verdicts[r["ref"]] = (r["verdict"], r)
    for s in report.get("skipped", []):
        verdicts.setdefault(s["ref"], ("SKIPPED", s))
    c = {"real": 0, "invented": 0, "inv_verified": 0, "real_missing": 0,
         "real_ok": 0, "inv_ok": 0, "real_unch": 0, "inv_unch": 0}
    unsafe, undecided = [], []
    for ref, entry in labels.items():
        if ref not in verdicts:
            continue
        verdict, result = verdicts[ref]
        truth = entry["truth"]
        c[truth] += 1
        line = (ref, truth, verdict, why(result), entry.get("evidence", ""))
        if truth == "real":
            if verdict in ("VERIFIED", "AMBIGUOUS"):
                c["real_ok"] += 1
            elif verdict == "MISSING":
                c["real_missing"] += 1
                unsafe.append(line)
            else:
                if verdict == "UNCHECKABLE":
                    c["real_unch"] += 1
                undecided.append(line)
        else:
            # A new symbol of the artifacts section is skipped: not claimed to exist, correct.
            if verdict in ("MISSING", "SKIPPED"):
                c["inv_ok"] += 1
            elif verdict in ("VERIFIED", "AMBIGUOUS"):
                c["inv_verified"] += 1
                unsafe.append(line)
            else:
                c["inv_unch"] += 1
                undecided.append(line)
    unlabelled = sorted(set(verdicts) - set(labels))
    unextracted = sorted(set(labels) - set(verdicts))
    return c, unsafe, undecided, unlabelled, unextracted


def compare_calls(report, calls):
    """Classify every labelled call shape (truth `match`: a real call; `mismatch`: an invented
    one); return counters and the lines to print."""
    got = {}
    for r in report.get("results", []):
        for k in r.get("calls", []):
            got[k["cited"]] = k
    c = {"real": 0, "invented": 0, "real_match": 0, "false_mismatch": 0, "real_unch": 0,
         "caught": 0, "missed": 0, "inv_unch": 0}
    lines = []
    for cited, entry in calls.items():
        if cited not in got:
            continue
        k = got[cited]
        v = k["verdict"]
        real = entry["truth"] == "match"
        c["real" if real else "invented"] += 1
        key = {(True, "match"): "real_match", (True, "mismatch"): "false_mismatch",
               (True, "uncheckable"): "real_unch", (False, "mismatch"): "caught",
               (False, "match"): "missed", (False, "uncheckable"): "inv_unch"}[(real, v)]
        c[key] += 1
        if key in ("false_mismatch", "missed", "real_unch", "inv_unch"):
            lines.append((key, cited, entry["truth"], v, k.get("reason", ""), k.get("expected", "")))
    unlabelled = sorted(set(got) - set(calls))
    unextracted = sorted(set(calls) - set(got))
    return c, lines, unlabelled, unextracted


CALL_COLUMNS = ["real calls", "invented calls", "real→mismatch (false)", "real→match",
                "real→uncheckable", "invented→mismatch", "invented→match (missed)",
                "invented→uncheckable"]


def call_row(c):
    return [str(c["real"]), str(c["invented"]), str(c["false_mismatch"]), str(c["real_match"]),
            str(c["real_unch"]), str(c["caught"]), str(c["missed"]), str(c["inv_unch"])]


def pct(n, d):
    return "-" if d == 0 else f"{100.0 * n / d:.1f}%"


COLUMNS = ["real", "invented", "invented→VERIFIED", "real→MISSING", "correct real",
           "correct invented", "UNCHECKABLE real"]


def row(c):
    return [str(c["real"]), str(c["invented"]), str(c["inv_verified"]), str(c["real_missing"]),
            pct(c["real_ok"], c["real"]), pct(c["inv_ok"], c["invented"]),
            pct(c["real_unch"], c["real"])]


def table(title, rows, markdown, columns=None):
    head = [title] + (columns or COLUMNS)
    out = []
    if markdown:
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
        for name, cells in rows:
            out.append("| " + " | ".join([name] + cells) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *[[n] + cl for n, cl in rows])]
        fmt = lambda cells: "  ".join(
            str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in enumerate(zip(cells, widths)))
        out.append(fmt(head))
        for name, cells in rows:
            out.append(fmt([name] + cells))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--probity", default=str(REPO / "target" / "release" / "probity"),
                    help="probity binary (default: target/release/probity)")
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "probity" / "drift-accuracy"),
                    help="where packages are fetched and unpacked")
    ap.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    ap.add_argument("--only", action="append", metavar="ID", help="run only this package (repeatable)")
    args = ap.parse_args()

    cache = Path(args.cache).expanduser().resolve()
    probity = Path(args.probity)
    if not probity.exists():
        print(f"error: no probity binary at {probity} (build it: cargo build --release)", file=sys.stderr)
        return 2
    folders = sorted(p for p in (HERE / "packages").iterdir() if (p / "package.toml").exists())
    if args.only:
        unknown = set(args.only) - {p.name for p in folders}
        if unknown:
            print(f"error: no package {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        folders = [p for p in folders if p.name in args.only]

    failed = False
    per_pkg, per_lang, details = [], {}, []
    per_call, call_lang, call_details = [], {}, []
    for folder in folders:
        pid = folder.name
        try:
            pkg, labels = load_package(folder)
            unpacked = fetch(pkg, cache)
            root = unpacked / pkg["root"] if pkg["root"] else unpacked
            if not root.is_dir():
                raise HarnessError(f"{pid}: root `{pkg['root']}` is not a folder of {unpacked}")
            report = drift(probity, folder / "plan.md", root)
        except (HarnessError, OSError, tomllib.TOMLDecodeError) as e:
            print(f"error: {pid}: {e}", file=sys.stderr)
            failed = True
            continue
        c, unsafe, undecided, unlabelled, unextracted = compare(report, labels)
        per_pkg.append((f"{pid} ({pkg['language']})", row(c)))
        agg = per_lang.setdefault(pkg["language"], {k: 0 for k in c})
        for k, v in c.items():
            agg[k] += v
        details.append((pid, f"{pkg['name']} {pkg['version']}", unsafe, undecided, unlabelled, unextracted))
        cc, clines, cunl, cunx = compare_calls(report, pkg["_calls"])
        if pkg["_calls"]:
            per_call.append((f"{pid} ({pkg['language']})", call_row(cc)))
            cagg = call_lang.setdefault(pkg["language"], {k: 0 for k in cc})
            for k, v in cc.items():
                cagg[k] += v
            call_details.append((pid, clines, cunl, cunx))

    md = args.markdown
    print(("### " if md else "== ") + "Per package")
    print()
    print(table("package", per_pkg, md))
    print()
    print(("### " if md else "== ") + "Per language")
    print()
    print(table("language", [(lang, row(c)) for lang, c in sorted(per_lang.items())], md))
    if per_call:
        print()
        print(("### " if md else "== ") + "Call shapes (signature drift), per package")
        print()
        print(table("package", per_call, md, CALL_COLUMNS))
        print()
        print(("### " if md else "== ") + "Call shapes, per language")
        print()
        print(table("language", [(lang, call_row(c)) for lang, c in sorted(call_lang.items())],
                    md, CALL_COLUMNS))
        for pid, clines, cunl, cunx in call_details:
            if not (clines or cunl or cunx):
                continue
            print()
            print(("#### " if md else "-- ") + f"{pid} calls")
            for key, cited, truth, v, reason, expected in clines:
                print(f"{'- ' if md else '  '}{key}: `{cited}` ({truth}) -> {v}: {reason} [{expected}]")
            for cited in cunl:
                print(f"{'- ' if md else '  '}call not in truth.toml: `{cited}`")
            for cited in cunx:
                print(f"{'- ' if md else '  '}call in truth.toml but not extracted: `{cited}`")
    for pid, what, unsafe, undecided, unlabelled, unextracted in details:
        if not (unsafe or undecided or unlabelled or unextracted):
            continue
        print()
        print(("#### " if md else "-- ") + f"{pid} ({what})")
        for title, items in (("unsafe", unsafe), ("undecided", undecided)):
            for ref, truth, verdict, reason, evidence in items:
                print(f"{'- ' if md else '  '}{title}: `{ref}` ({truth}, {evidence}) -> {verdict}: {reason}")
        for ref in unlabelled:
            print(f"{'- ' if md else '  '}not in truth.toml (label it or fix the plan): `{ref}`")
        for ref in unextracted:
            print(f"{'- ' if md else '  '}in truth.toml but not extracted by drift: `{ref}`")
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
