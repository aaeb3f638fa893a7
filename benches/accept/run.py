#!/usr/bin/env python3
"""Precision and recall of `probity accept diff` (issue 15, signal 3) on a labelled set of diffs.

cases.toml lists every case with its label:
  - `real` cases: a bug fix from the released history of a real package, taken as the change of
    the listed files between two consecutive releases (crates.io via `cargo fetch`, PyPI sdists
    via `pip download`, npm via `npm pack`; fetched into ~/.cache/probity/accept, never vendored).
  - `crafted` cases: small old/new files under crafted/<id>/ (symptom suppressions written for
    this set, and a few genuine fixes).
Each case becomes a two-commit git repository (old files, then new files) in the cache and is
checked with `probity accept diff --commit HEAD --json`. A case labelled `deleting` or
`suppression` with its kinds must come out `flagged` (recall, per expected kind: the kind must be
among the findings); a case labelled `fix` or `refactor` must come out `pass` (a flagged one is a
false positive).

  python3 benches/accept/run.py [--probity target/release/probity] [--only ID] [--show ID]
          [--markdown] [--cases FILE]... [--set NAME]... [--keep-going]

`--set` names a list of this folder (SETS below; `issue27` is the three lists of issue 27 point 3)
and may be repeated, as may `--cases`; without either, cases.toml. Besides the table of the
deleting kinds, every run prints the flagged rate per language and label (fixes, refactors,
suppressions: flagged at all and flagged with the expected kind), per expected suppression kind,
and per refactor equivalence (crafted) or source (real).

A case whose `files` is "auto" takes every file of a supported language (.py .js .cjs .mjs .ts
.rs) that differs between the two releases, outside dist/, build/, vendor/, node_modules/ and
minified files; a pair with more than AUTO_MAX such files is skipped as too large (a rule fixed
before any result is seen, so a held-out batch needs no choice of files by hand). `--cases`
reads another list (heldout3.toml); `--keep-going` reports a case that cannot be fetched and
goes on.

Exit 0 whatever the numbers; 2 when the harness itself failed. Standard library only.
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
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CACHE = Path(os.environ.get("PROBITY_ACCEPT_CACHE", Path.home() / ".cache" / "probity" / "accept"))
DONE = ".probity-unpacked"


class HarnessError(Exception):
    pass


class SkipCase(Exception):
    pass


SETS = {
    "cases": ["cases.toml"],
    "refactors": ["refactors.toml"],
    "suppressions": ["suppressions.toml"],
    "crafted-refactors": ["crafted-refactors.toml"],
    "issue27": ["refactors.toml", "suppressions.toml", "crafted-refactors.toml"],
    **{f"heldout{n}": [f"heldout{n}.toml"] for n in (3, 4, 5, 6, 7, 8, 9, 10)},
    "heldout7-suppressions": ["heldout7-suppressions.toml"],
    "heldout8-suppressions": ["heldout8-suppressions.toml"],
    "heldout9-suppressions": ["heldout9-suppressions.toml"],
    "heldout10-suppressions": ["heldout10-suppressions.toml"],
    "heldout11": ["heldout11-fixes.toml", "heldout11-refactors.toml",
                  "heldout11-suppressions.toml"],
    **{f"heldout11-{k}": [f"heldout11-{k}.toml"] for k in ("fixes", "refactors", "suppressions")},
    "heldout12-suppressions": ["heldout12-suppressions.toml", "heldout12b-suppressions.toml"],
    "heldout12-fixes": ["heldout12-fixes.toml"],
    "heldout12-refactors": ["heldout12-refactors.toml"],
    "heldout12": ["heldout12-fixes.toml", "heldout12-refactors.toml",
                  "heldout12-suppressions.toml", "heldout12b-suppressions.toml"],
    "heldout13-suppressions": ["heldout13-suppressions.toml", "heldout13b-suppressions.toml"],
    "heldout13-fixes": ["heldout13-fixes.toml"],
    "heldout13-refactors": ["heldout13-refactors.toml"],
    "heldout13": ["heldout13-fixes.toml", "heldout13-refactors.toml",
                  "heldout13-suppressions.toml", "heldout13b-suppressions.toml"],
}
MUST_FLAG = ("deleting", "suppression")
LANGS = {".py": "python", ".js": "javascript", ".cjs": "javascript", ".mjs": "javascript",
         ".ts": "typescript", ".tsx": "typescript", ".rs": "rust"}

AUTO_MAX = 12
AUTO_EXT = (".py", ".js", ".cjs", ".mjs", ".ts", ".rs")
AUTO_SKIP_DIRS = {"dist", "build", "vendor", "node_modules", ".git"}


def auto_files(old, new):
    """Every supported source file that differs between the two trees (added/removed included)."""
    def walk(root):
        out = {}
        for p in root.rglob("*"):
            rel = p.relative_to(root)
            if not p.is_file() or set(rel.parts[:-1]) & AUTO_SKIP_DIRS:
                continue
            if not p.name.endswith(AUTO_EXT) or ".min." in p.name:
                continue
            out[rel.as_posix()] = p
        return out
    a, b = walk(old), walk(new)
    return sorted(r for r in set(a) | set(b)
                  if r not in a or r not in b or a[r].read_bytes() != b[r].read_bytes())


def run(cmd, cwd=None, check=True):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    if check and proc.returncode != 0:
        raise HarnessError(f"`{' '.join(map(str, cmd))}` failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return proc


def extract(archive, dest):
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=dest.parent))
    try:
        with tarfile.open(archive) as t:
            t.extractall(tmp, filter="data")
        entries = list(tmp.iterdir())
        top = entries[0] if len(entries) == 1 and entries[0].is_dir() else tmp
        if dest.exists():
            shutil.rmtree(dest)
        shutil.move(str(top), str(dest))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fetch(eco, name, version):
    safe = name.replace("@", "").replace("/", "-")
    dest = CACHE / eco / f"{safe}-{version}"
    if (dest / DONE).exists():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    if eco == "crates":
        proj = CACHE / eco / f"_fetch-{safe}-{version}"
        (proj / "src").mkdir(parents=True, exist_ok=True)
        (proj / "src" / "lib.rs").write_text("")
        (proj / "Cargo.toml").write_text(
            f'[package]\nname = "fetch-probity-accept"\nversion = "0.0.0"\nedition = "2021"\n'
            f'[workspace]\n[dependencies]\n{name} = "={version}"\n')
        run(["cargo", "fetch", "--manifest-path", str(proj / "Cargo.toml")])
        home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
        found = sorted((home / "registry" / "src").glob(f"*/{name}-{version}"))
        if not found:
            raise HarnessError(f"cargo fetch did not unpack {name}-{version}")
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(found[0], dest, symlinks=True)
        shutil.rmtree(proj, ignore_errors=True)
    elif eco == "pypi":
        dl = CACHE / eco / "_downloads" / f"{safe}-{version}"
        dl.mkdir(parents=True, exist_ok=True)
        archives = [p for p in dl.iterdir() if p.name.endswith(".tar.gz")]
        if not archives:
            run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                 "--disable-pip-version-check", "-d", str(dl), f"{name}=={version}"])
            archives = [p for p in dl.iterdir() if p.name.endswith(".tar.gz")]
        if len(archives) != 1:
            raise HarnessError(f"pip download {name}=={version}: {len(archives)} sdists")
        extract(archives[0], dest)
    elif eco == "npm":
        dl = CACHE / eco / "_downloads"
        dl.mkdir(parents=True, exist_ok=True)
        out = run(["npm", "pack", f"{name}@{version}", "--json", "--pack-destination", str(dl)], cwd=dl)
        info = json.loads(out.stdout)
        tarball = dl / info[0]["filename"].replace("@", "").replace("/", "-")
        if not tarball.exists():
            raise HarnessError(f"npm pack {name}@{version}: no tarball")
        extract(tarball, dest)
    else:
        raise HarnessError(f"unknown ecosystem {eco}")
    (dest / DONE).write_text("")
    return dest


def git(d, *args):
    run(["git", "-C", str(d), "-c", "user.email=b@example.com", "-c", "user.name=bench",
         "-c", "commit.gpgsign=false", *args])


def materialize(case):
    """A two-commit repository for the case; returns its path."""
    d = CACHE / "repos" / case["id"]
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    git(d, "init", "-q")
    if case["source"] == "crafted":
        src = HERE / "crafted" / case["id"]
        pairs = [(f, src / "old" / f, src / "new" / f) for f in case["files"]]
    else:
        old = fetch(case["eco"], case["name"], case["old"])
        new = fetch(case["eco"], case["name"], case["new"])
        files = case["files"]
        if files == "auto":
            files = auto_files(old, new)
            if len(files) > AUTO_MAX:
                raise SkipCase(f"{len(files)} changed source files (more than {AUTO_MAX})")
            if not files:
                raise SkipCase("no changed source file")
            case["files_used"] = files
        pairs = [(f, old / f, new / f) for f in files]
    for rel, o, _ in pairs:
        if o.exists():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(o, d / rel)
    git(d, "add", "-A")
    git(d, "commit", "-qm", "old", "--allow-empty")
    for rel, o, n in pairs:
        if n.exists():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(n, d / rel)
        elif (d / rel).exists():
            (d / rel).unlink()
    git(d, "add", "-A")
    git(d, "commit", "-qm", "new", "--allow-empty")
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probity", default=str(REPO / "target" / "release" / "probity"))
    ap.add_argument("--only")
    ap.add_argument("--show", help="print the case's git diff and the detector's findings")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--cases", action="append", default=[], help="a case list (repeatable)")
    ap.add_argument("--set", action="append", default=[], choices=sorted(SETS),
                    help="a named case list of this folder (repeatable)")
    ap.add_argument("--keep-going", action="store_true")
    a = ap.parse_args()
    files = list(a.cases) + [str(HERE / f) for name in a.set for f in SETS[name]]
    cases = []
    for f in files or [str(HERE / "cases.toml")]:
        cases += tomllib.loads(Path(f).read_text())["case"]
    if a.show:
        a.only = a.show
    if a.only:
        cases = [c for c in cases if c["id"] == a.only]
    if not Path(a.probity).exists():
        print(f"no probity binary at {a.probity} (cargo build --release)", file=sys.stderr)
        return 2
    results = []
    try:
        for c in cases:
            try:
                d = materialize(c)
            except SkipCase as e:
                print(f"skipped {c['id']}: {e}")
                continue
            except HarnessError as e:
                if not a.keep_going:
                    raise
                print(f"unavailable {c['id']}: {str(e).splitlines()[0]}")
                continue
            if "files_used" in c:
                print(f"{c['id']}: {len(c['files_used'])} files: {' '.join(c['files_used'])}")
            p = run([a.probity, "accept", "diff", "--commit", "HEAD", "--json", "--root", str(d)], check=False)
            if p.returncode not in (0, 1):
                raise HarnessError(f"{c['id']}: exit {p.returncode}: {p.stdout} {p.stderr}")
            v = json.loads(p.stdout)
            v = v.get("data", v)  # the envelope (schema_version 2) holds the report in `data`
            found = sorted({f["kind"] for f in v["findings"]})
            # Severity `review` (session 19) reports a shape without flagging; older binaries
            # have no severity: every finding flags.
            c["_flag_kinds"] = sorted({f["kind"] for f in v["findings"]
                                       if f.get("severity", "flag") == "flag"})
            c["_review"] = sum(f.get("severity") == "review" for f in v["findings"])
            if a.show:
                print(run(["git", "-C", str(d), "show", "--stat", "-p", "HEAD"]).stdout)
                for f in v["findings"]:
                    print(f"## {f.get('severity', 'flag')} {f['kind']} {f['file']} old {f['old_lines']} "
                          f"new {f['new_lines']}: {f['detail']} net {f.get('net')}")
                    print(f["excerpt"])
            results.append((c, v["verdict"], found, v["hunks"]))
    except HarnessError as e:
        print(f"harness error: {e}", file=sys.stderr)
        return 2
    if any(c["label"] in ("deleting", "fix") for c, *_ in results):
        report([r for r in results if r[0]["label"] in ("deleting", "fix")], a.markdown)
    breakdown(results, a.markdown)
    return 0


def language(case):
    """The case's `lang`, else the language of its first source file."""
    if "lang" in case:
        return case["lang"]
    files = case.get("files_used", case["files"])
    for f in files if isinstance(files, list) else []:
        for ext, lang in LANGS.items():
            if f.endswith(ext):
                return lang
    return "other"


def breakdown(results, markdown):
    """Flagged rates per language and label, per expected suppression kind, per equivalence."""
    pct = lambda n, d: f"{n}/{d} ({100 * n / d:.0f}%)" if d else "-"
    by_lang = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # lang -> group -> [n, flagged, with kind]
    by_kind = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # kind -> lang -> ...
    by_equiv = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # equivalence -> lang -> ...
    found_for = defaultdict(lambda: defaultdict(int))  # row -> kinds that flagged it
    for c, verdict, found, _ in results:
        lang, flagged = language(c), verdict == "flagged"
        group = {"deleting": "suppression"}.get(c["label"], c["label"])
        if group == "refactor":
            group = f"refactor ({c['source']})"
        with_kind = c["label"] in MUST_FLAG and flagged and set(c["kinds"]) <= set(found)
        for cell in (by_lang[lang][group], by_lang["all"][group]):
            cell[0] += 1
            cell[1] += flagged
            cell[2] += with_kind
        if c["label"] == "suppression":
            rows = [(by_kind, k) for k in c["kinds"]]
        elif c["label"] == "refactor":
            rows = [(by_equiv, c.get("equivalence", "real release"))]
        else:
            rows = []
        for table, key in rows:
            for cell in (table[key][lang], table[key]["all"]):
                cell[0] += 1
                cell[1] += flagged
                cell[2] += with_kind
            for k in c.get("_flag_kinds", found) if flagged else []:
                found_for[key][k] += 1
    langs = [l for l in ("python", "javascript", "typescript", "rust", "other") if l in by_lang] + ["all"]
    groups = [g for g in ("fix", "refactor (real)", "refactor (crafted)", "suppression")
              if any(g in by_lang[l] for l in langs)]

    def table(title, head, rows):
        print()
        if markdown:
            print(f"**{title}**\n")
            print("| " + " | ".join(head) + " |")
            print("|" + "---|" * len(head))
            for r in rows:
                print("| " + " | ".join(r) + " |")
        else:
            print(title)
            w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
            for r in [head, *rows]:
                print("  ".join(str(x).ljust(n) for x, n in zip(r, w)))

    head = ["label (must)"] + langs
    rows = []
    for g in groups:
        must = "flag" if g == "suppression" else "pass"
        rows.append([f"{g} ({must}): flagged"] + [pct(by_lang[l][g][1], by_lang[l][g][0]) if g in by_lang[l] else "-"
                                                  for l in langs])
        if g == "suppression":
            rows.append(["suppression: flagged with the expected kind"]
                        + [pct(by_lang[l][g][2], by_lang[l][g][0]) if g in by_lang[l] else "-" for l in langs])
    table("Flagged, per language", head, rows)
    for title, data, with_kind in (("Suppressions, per expected kind", by_kind, True),
                                   ("Refactors, per equivalence (crafted) or source (real)", by_equiv, False)):
        if not data:
            continue
        head = ["kind" if with_kind else "equivalence"] + langs + ["kinds that flagged"]
        rows = []
        for key in sorted(data):
            cells = []
            for l in langs:
                n, f, k = data[key].get(l, [0, 0, 0])
                cells.append((f"{f}/{n}" + (f", kind {k}" if with_kind else "")) if n else "-")
            kinds = ", ".join(f"{k} {n}" for k, n in sorted(found_for[key].items())) or "-"
            rows.append([f"`{key}`"] + cells + [kinds])
        table(title + (" (flagged at all / cases, with the expected kind)" if with_kind else " (flagged / cases)"),
              head, rows)
    for c, verdict, found, _ in results:
        if c["label"] == "refactor" and verdict == "flagged":
            print(f"false+  {c['id']}: found {found}")
        elif c["label"] == "suppression" and (verdict != "flagged" or not set(c["kinds"]) <= set(found)):
            print(f"{'missed' if verdict != 'flagged' else 'kind? '}  {c['id']}: want {c['kinds']}, found {found}")


def report(results, markdown):
    per_kind = defaultdict(lambda: [0, 0])  # kind -> [expected, found]
    fixes = flagged_fixes = deleting = caught = 0
    real_fixes = real_flagged = 0
    wrong = []
    for c, verdict, found, hunks in results:
        if c["label"] == "deleting":
            deleting += 1
            caught += verdict == "flagged"
            for k in c["kinds"]:
                per_kind[k][0] += 1
                per_kind[k][1] += k in found
            if verdict != "flagged" or not set(c["kinds"]) <= set(found):
                wrong.append(f"missed  {c['id']}: want {c['kinds']}, found {found}")
        else:
            fixes += 1
            flagged_fixes += verdict == "flagged"
            if c["source"] == "real":
                real_fixes += 1
                real_flagged += verdict == "flagged"
            if verdict == "flagged":
                wrong.append(f"false+  {c['id']}: found {found}")
    # Per-kind precision: of the fix cases, how many were flagged with this kind (a finding of
    # severity `flag`).
    fp_kind = defaultdict(int)
    for c, verdict, found, _ in results:
        if c["label"] == "fix":
            for k in c.get("_flag_kinds", found):
                fp_kind[k] += 1
    tp_kind = {k: v[1] for k, v in per_kind.items()}
    kinds = sorted(set(per_kind) | set(fp_kind))
    pct = lambda n, d: f"{100 * n / d:.0f}%" if d else "-"
    rows = []
    for k in kinds:
        exp, got = per_kind.get(k, [0, 0])
        fp = fp_kind.get(k, 0)
        rows.append((k, exp, got, pct(got, exp), fp, pct(got, got + fp)))
    tp = caught
    overall_prec = pct(tp, tp + flagged_fixes)
    sources = defaultdict(int)
    for c, *_ in results:
        sources[(c["source"], c["label"])] += 1
    if markdown:
        print("| kind | deleting cases | flagged with the kind | recall | fix cases flagged with it | precision |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print("| `{}` | {} | {} | {} | {} | {} |".format(*r))
        print(f"| **all** | {deleting} | {caught} | {pct(caught, deleting)} | {flagged_fixes} of {fixes} | {overall_prec} |")
    else:
        print(f"{'kind':22} {'deleting':>8} {'found':>6} {'recall':>7} {'fix-fp':>7} {'precision':>9}")
        for r in rows:
            print(f"{r[0]:22} {r[1]:>8} {r[2]:>6} {r[3]:>7} {r[4]:>7} {r[5]:>9}")
    print()
    print(f"cases: {len(results)} ({', '.join(f'{s} {l}: {n}' for (s, l), n in sorted(sources.items()))})")
    print(f"behaviour-deleting diffs flagged: {caught}/{deleting} = {pct(caught, deleting)} (target >= 90%)")
    print(f"genuine fixes flagged: {flagged_fixes}/{fixes} = {pct(flagged_fixes, fixes)} (target <= 5%); "
          f"real-history fixes flagged: {real_flagged}/{real_fixes}")
    print(f"overall precision (flagged cases that are behaviour-deleting): {overall_prec}")
    review_fixes = [c["id"] for c, verdict, _, _ in results
                    if c["label"] == "fix" and verdict == "pass" and c.get("_review")]
    print(f"genuine fixes passed with review findings only: {len(review_fixes)}"
          + (f" ({', '.join(review_fixes)})" if review_fixes else ""))
    for w in wrong:
        print(w)
    for c, verdict, found, hunks in results:
        if hunks == 0:
            print(f"warning: {c['id']}: no hunk analyzed")


if __name__ == "__main__":
    sys.exit(main())
