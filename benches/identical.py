#!/usr/bin/env python3
"""Byte-identity check for restructures: run two probity binaries over the same scenarios and
print every output that differs.

Usage:
  python3 benches/identical.py OLD_BINARY NEW_BINARY [SCENARIO...]
      (SCENARIO: golden, drift, resolve_kinds, verify, session, accept, gate, schema, misc;
      default all)
  benches/identical.sh [REV]     builds REV (default: origin/main or HEAD) and the work tree

Scenarios (each in a fresh folder at the same path for both binaries, so paths in outputs agree):
  - every golden placement case in corpus/<lang>/<case>/: `place` then `strip`, JSON and human,
    and the file bytes after each step;
  - `index` (JSON and human) on corpus/;
  - `drift` (JSON and human) on every sample plan in corpus/plans/, and `resolve` on a few refs;
  - `verify` (JSON Lines, human, SARIF) on corpus/ and on a repository with a forgotten probe;
  - the README's Runtime Evidence session on corpus/examples/python: init, place, run, compare,
    show, render, sync, cleanup, uninstrumented_verify, gate (JSON and human);
  - `resolve` on a repository made to give every reference kind (decorator, qualified,
    cli_flag, file_path, name, macro, unsupported) and every candidate kind (declarations, file,
    directory, cargo_feature, npm_script), VERIFIED and AMBIGUOUS;
  - fix acceptance on a session whose change touches Python, JavaScript, Rust, a text file and a
    file that is not UTF-8: `accept reconfirm`, `accept tests` (test files of each language),
    `accept diff` (skipped files and their `skip_reason`), `accept record`, `accept verdict`,
    `session show`/`render` with the verification record, and `gate` with its blockers (JSON and
    human);
  - `gate` (plain, `--slug`, `--verify`) with blockers of every source: an unreadable ledger,
    an active run, a live probe, a copied probe block, a file verify could not read;
  - `probity schema` of every command it lists;
  - `languages`, and refusals (bad flags, missing files, bad plans, unknown sessions).

Outputs are compared after masking what legitimately changes between two runs: timestamps,
durations, process ids, random temporary paths. Exit 0 when every output is identical, 1 when
any differs (each difference is printed with a unified diff), 2 on a usage error.
"""

import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# One folder per process (concurrent runs do not collide); its name is masked like every
# other temporary path, so the two binaries' outputs still compare equal.
WORK = tempfile.mkdtemp(prefix="probity-identical-", dir="/tmp")

MASKS = [
    (re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"), b"<time>"),
    (re.compile(rb'"(duration_ms|elapsed_ms|search_ms|pid|started_at_ns|ns|sink_bytes)":\s*\d+'),
     b'"\\1":<n>'),
    (re.compile(rb"pid \d+"), b"pid <n>"),
    (re.compile(rb"/tmp/(probity|gsd)[^\s\"'/]*"), b"/tmp/<tmp>"),
    (re.compile(rb'"(dev|ino|inode|device|mtime_ns|ctime_ns|mtime|ctime)":\s*\d+'), b'"\\1":<n>'),
    (re.compile(rb'"file_id":\s*"\d+"'), b'"file_id":"<n>"'),
    (re.compile(rb"in \d+(\.\d+)?\s?(ms|s)\b"), b"in <t>"),
    # Keyed by a random per-session secret (issue 12), and that key file's bytes.
    (re.compile(rb'"values_sha256":(\s*)"[0-9a-f]{64}"'), b'"values_sha256":\\1"<keyed>"'),
]


def mask(b):
    for rx, rep in MASKS:
        b = rx.sub(rep, b)
    return b


def run(binary, args, cwd, env=None):
    e = dict(os.environ)
    for k in list(e):
        if k.startswith("GSD_") or k.startswith("PROBITY_"):
            del e[k]
    e["NO_COLOR"] = "1"
    if env:
        e.update(env)
    p = subprocess.run([binary] + args, cwd=cwd, capture_output=True, env=e, timeout=120)
    return b"exit %d\n--- stdout\n%s--- stderr\n%s" % (p.returncode, p.stdout, p.stderr)


def fresh(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    subprocess.run(["git", "init", "-q", d], check=True)
    return d


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        return ("<%s>" % e.strerror).encode()


def golden_cases():
    for lang in ("rust", "javascript", "typescript", "python"):
        base = os.path.join(ROOT, "corpus", lang)
        for case in sorted(os.listdir(base)):
            toml_path = os.path.join(base, case, "case.toml")
            if os.path.exists(toml_path):
                yield lang, case, os.path.join(base, case)


def place_args(c, inp):
    a = ["place", inp]
    if c.get("line") is not None:
        a += ["--line", str(c["line"])]
    if c.get("after_line") is not None:
        a += ["--after-line", str(c["after_line"])]
    if c.get("function") is not None:
        a += ["--function", c["function"]]
    a += ["--slug", c["slug"], "--probe", c["probe"], "--message", c["message"]]
    for h in c["hypotheses"]:
        a += ["--hypothesis", h]
    for cap in c.get("captures", []):
        a += ["--capture", cap]
    return a


def scenario_golden(binary):
    out = {}
    for lang, case, d in golden_cases():
        with open(os.path.join(d, "case.toml"), "rb") as f:
            c = tomllib.load(f)
        inp = next(n for n in os.listdir(d) if n.startswith("input."))
        for mode in ("json", "human"):
            w = fresh("golden")
            shutil.copy(os.path.join(d, inp), os.path.join(w, inp))
            flag = ["--json"] if mode == "json" else []
            led = ["--ledger", "ledger.json"]
            key = "golden/%s/%s/%s" % (lang, case, mode)
            out[key + "/place"] = run(binary, place_args(c, inp) + led + flag, w)
            out[key + "/file-after-place"] = read(os.path.join(w, inp))
            out[key + "/ledger-after-place"] = read(os.path.join(w, "ledger.json"))
            out[key + "/strip"] = run(binary, ["strip"] + led + flag, w)
            out[key + "/file-after-strip"] = read(os.path.join(w, inp))
            out[key + "/ledger-after-strip"] = read(os.path.join(w, "ledger.json"))
        w = fresh("golden")
        shutil.copy(os.path.join(d, inp), os.path.join(w, inp))
        out["golden/%s/%s/dry-run" % (lang, case)] = run(
            binary, place_args(c, inp) + ["--dry-run", "--json"], w
        )
    return out


def scenario_drift(binary):
    out = {}
    corpus = os.path.join(ROOT, "corpus")
    cache = fresh("cache")
    for flag in (["--json"], []):
        m = "json" if flag else "human"
        out["index/corpus/" + m] = run(binary, ["index", "--no-cache", "--root", corpus] + flag, ROOT)
        out["index/corpus-cached/" + m] = run(
            binary, ["index", "--threads", "1", "--cache-dir", cache, "--root", corpus] + flag, ROOT
        )
        plans = os.path.join(corpus, "plans")
        for p in sorted(os.listdir(plans)):
            pd = os.path.join("corpus", "plans", p)
            out["drift/%s/%s" % (p, m)] = run(
                binary,
                ["drift", "--no-cache", "--plan", pd + "/plan.md", "--root", pd + "/repo"] + flag,
                ROOT,
            )
        out["resolve/" + m] = run(
            binary,
            [
                "resolve",
                "--no-cache",
                "--root",
                "corpus/plans/python_ingest/repo",
                "--fail-on",
                "medium",
                "ingest.Loader.load",
                "Loader",
                "nope.missing",
                "os.path.join",
            ]
            + flag,
            ROOT,
        )
        out["drift/bad-plan/" + m] = run(binary, ["drift", "--plan", "/nonexistent.md"] + flag, ROOT)
        out["drift/bad-fail-on/" + m] = run(
            binary, ["drift", "--plan", "README.md", "--fail-on", "x"] + flag, ROOT
        )
        out["drift/bad-root/" + m] = run(
            binary, ["drift", "--plan", "README.md", "--root", "/nonexistent"] + flag, ROOT
        )
        w = fresh("plan")
        with open(os.path.join(w, "plan.md"), "wb") as f:
            f.write(b"# plan \xff\n")
        out["drift/not-utf8/" + m] = run(binary, ["drift", "--plan", "plan.md"] + flag, w)
    return out


def scenario_verify(binary):
    out = {}
    corpus = os.path.join(ROOT, "corpus")
    for flag in (["--json"], []):
        m = "json" if flag else "human"
        out["verify/corpus/" + m] = run(binary, ["verify", "--threads", "1", corpus] + flag, ROOT)
        w = fresh("verify")
        shutil.copy(os.path.join(ROOT, "corpus", "examples", "python", "cart.py"), w)
        run(
            binary,
            ["place", "cart.py", "--line", "24", "--slug", "s", "--probe", "p", "--hypothesis",
             "h1", "--message", "entry", "--ledger", "l.json"],
            w,
        )
        out["verify/leftover/" + m] = run(binary, ["verify", "."] + flag, w)
        out["verify/sarif/" + m] = run(binary, ["verify", "--sarif", "out.sarif", "."] + flag, w)
        out["verify/sarif-file/" + m] = read(os.path.join(w, "out.sarif"))
        out["verify/missing-root/" + m] = run(binary, ["verify", "/nonexistent"] + flag, w)
    return out


def scenario_session(binary):
    out = {}
    for flag in (["--json"], []):
        m = "json" if flag else "human"
        w = fresh("session")
        shutil.copy(os.path.join(ROOT, "corpus", "examples", "python", "cart.py"), w)
        with open(os.path.join(w, "notes.md"), "w") as f:
            f.write("# Debug notes\n\nSome text.\n\n## Other\n\nkept\n")
        steps = [
            ("init", ["session", "init", "--slug", "cart-bug"]),
            ("init-again", ["session", "init", "--slug", "cart-bug"]),
            ("place-1", ["place", "cart.py", "--function", "apply_discount", "--slug", "cart-bug",
                         "--probe", "p1", "--hypothesis", "h1", "--message", "entry",
                         "--capture", "amount=amount", "--capture", "percent=percent"]),
            ("place-2", ["place", "cart.py", "--function", "apply_discount", "--slug", "cart-bug",
                         "--probe", "ctl", "--hypothesis", "h1", "--message", "control"]),
            ("run-1", ["run", "--slug", "cart-bug", "--phase", "baseline", "--", "python3",
                       "cart.py"]),
            ("run-2", ["run", "--slug", "cart-bug", "--phase", "post_fix", "--", "python3",
                       "cart.py"]),
            ("run-bad", ["run", "--slug", "cart-bug", "--phase", "post_fix", "--",
                         "/nonexistent-program"]),
            ("compare", ["compare", "--slug", "cart-bug", "run-1", "run-2"]),
            ("compare-missing", ["compare", "--slug", "cart-bug", "run-1", "run-9"]),
            ("show", ["session", "show", "--slug", "cart-bug"]),
            ("render", ["session", "render", "--slug", "cart-bug"]),
            ("sync", ["session", "sync", "notes.md", "--slug", "cart-bug"]),
            ("gate-before", ["gate"]),
            ("cleanup", ["cleanup", "--slug", "cart-bug"]),
            ("verify-run", ["run", "--slug", "cart-bug", "--phase", "uninstrumented_verify", "--",
                            "python3", "cart.py"]),
            ("gate", ["gate"]),
            ("gate-unknown", ["gate", "--slug", "nope"]),
            ("show-unknown", ["session", "show", "--slug", "nope"]),
            ("strip-no-ledger", ["strip"]),
            ("place-missing-file", ["place", "nope.py", "--line", "1", "--slug", "cart-bug",
                                    "--probe", "p3", "--hypothesis", "h1", "--message", "entry"]),
        ]
        for name, args in steps:
            out["session/%s/%s" % (m, name)] = run(binary, args + flag, w)
            out["session/%s/%s/file" % (m, name)] = read(os.path.join(w, "cart.py"))
            out["session/%s/%s/ledger" % (m, name)] = read(
                os.path.join(w, ".planning", "debug", "cart-bug.evidence.json")
            )
        out["session/%s/notes" % m] = read(os.path.join(w, "notes.md"))
    return out


def write(d, rel, text):
    f = os.path.join(d, rel)
    os.makedirs(os.path.dirname(f), exist_ok=True)
    with open(f, "wb") as fh:
        fh.write(text if isinstance(text, bytes) else text.encode())


def git(d, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
        cwd=d,
        check=True,
        capture_output=True,
        env={**os.environ, "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",
             "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z"},
    )


def scenario_resolve_kinds(binary):
    """Every `ref_kind` and every candidate `kind` (issue 23 made both enums)."""
    out = {}
    w = fresh("kinds")
    write(w, "Cargo.toml", '[package]\nname = "demo"\nversion = "0.1.0"\n\n'
          "[features]\nfast = []\nbuild = []\n")
    write(w, "package.json", '{"name": "demo", "scripts": {"build": "tsc", "test": "jest"}}\n')
    write(w, "src/lib.rs", "pub fn open() {}\npub struct Store;\n"
          "impl Store {\n    pub fn open(&self) {}\n}\n"
          "#[macro_export]\nmacro_rules! count {\n    () => {\n        0\n    };\n}\n")
    write(w, "pkg/a.py", "import click\n\n\n@click.command()\n@click.option(\"--fast\")\n"
          "def open(fast):\n    pass\n\n\nclass Loader:\n    def load(self):\n        pass\n")
    write(w, "web/app.js", "export default function () {}\nexport function open() {}\n")
    refs = ["build", "fast", "test", "src/", "./pkg", "pkg/a.py", "open", "Store.open",
            "Loader.load", "pkg.a.Loader", "count!", "@click.command", "@nope", "--fast",
            "--slow", "a b c", "x:y:z", "web/app.js", "nope.missing", "os.path.join"]
    for flag in (["--json"], []):
        m = "json" if flag else "human"
        out["resolve-kinds/" + m] = run(
            binary, ["resolve", "--no-cache", "--root", w] + flag + ["--"] + refs, w
        )
    # The verdict words colored by their verdict (the CLI's tone of each).
    out["resolve-kinds/color"] = run(
        binary, ["resolve", "--no-cache", "--color", "always", "--root", w, "--"] + refs, w
    )
    plan = os.path.join("corpus", "plans", "python_ingest")
    out["drift/python_ingest/color"] = run(
        binary,
        ["drift", "--no-cache", "--color", "always", "--plan", plan + "/plan.md", "--root",
         plan + "/repo"],
        ROOT,
    )
    return out


ACCEPT_LIB = "def join_words(words):\n    joined = \"\".join(words)\n    return joined\n\n\ndef other():\n    return 1\n"
ACCEPT_CHECK = ("import sys\nfrom pkg.lib import join_words\n\n"
                "sys.exit(0 if join_words([\"a\", \"b\"]) == \"a, b\" else 1)\n")


def scenario_accept(binary):
    """A session whose fix is reconfirmed, then a change in every language: accept tests (test
    files with their language), accept diff (skipped files), the verification record, gate."""
    out = {}
    for flag in (["--json"], []):
        m = "json" if flag else "human"
        w = fresh("accept")
        write(w, ".gitignore", ".planning/\n")
        write(w, "pkg/__init__.py", "")
        write(w, "pkg/lib.py", ACCEPT_LIB)
        write(w, "check.py", ACCEPT_CHECK)
        write(w, "tests/test_lib.py", "from pkg.lib import join_words\n\n\n"
              "def test_join():\n    assert join_words([\"a\"]) == \"a\"\n")
        write(w, "web/lib.js", "function twice(x) {\n    return 2 * x;\n}\n\nmodule.exports = { twice };\n")
        write(w, "web/lib.test.js", "const { twice } = require(\"./lib.js\");\n"
              "test(\"twice\", () => expect(twice(2)).toBe(4));\n")
        write(w, "Cargo.toml", '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n')
        write(w, "src/lib.rs", "pub fn three() -> i32 {\n    3\n}\n\n#[cfg(test)]\nmod tests {\n"
              "    #[test]\n    fn three() {\n        assert_eq!(super::three(), 3);\n    }\n}\n")
        write(w, "tests/it.rs", "#[test]\nfn it() {\n    assert_eq!(demo::three(), 3);\n}\n")
        write(w, "notes.txt", "notes\n")
        write(w, "pkg/latin.py", "x = 1\n")
        git(w, "add", "-A")
        git(w, "commit", "-qm", "buggy")
        steps = [
            ("init", ["session", "init", "--slug", "rc", "--policy", "adaptive"]),
            ("place", ["place", "pkg/lib.py", "--line", "3", "--slug", "rc", "--probe",
                       "p-joined", "--hypothesis", "h1", "--message", "state", "--capture",
                       "joined=joined"]),
            ("baseline", ["run", "--slug", "rc", "--phase", "baseline", "--", "python3",
                          "check.py"]),
            ("fix", lambda: write(w, "pkg/lib.py", read(os.path.join(w, "pkg/lib.py")).replace(
                b"\"\".join(words)", b"\", \".join(words)"))),
            ("reconfirm", ["accept", "reconfirm", "--slug", "rc", "--", "python3", "check.py"]),
            ("change", lambda: [
                write(w, "web/lib.js", "function twice(x) {\n    return x + x;\n}\n\n"
                      "module.exports = { twice };\n"),
                write(w, "src/lib.rs", read(os.path.join(w, "src/lib.rs")).replace(b"    3\n", b"    1 + 2\n")),
                write(w, "notes.txt", "notes, changed\n"),
                write(w, "pkg/latin.py", b"x = '\xe9'\n"),
            ]),
            ("tests", ["accept", "tests", "--no-cache", "--slug", "rc"]),
            ("tests-files", ["accept", "tests", "--no-cache", "--files", "pkg/lib.py",
                             "web/lib.js", "src/lib.rs", "notes.txt"]),
            ("diff", ["accept", "diff", "--slug", "rc"]),
            ("record-pass", ["accept", "record", "--slug", "rc", "--signal", "target_test",
                             "--result", "pass"]),
            ("record-skip", ["accept", "record", "--slug", "rc", "--signal", "mutation_check",
                             "--result", "skipped", "--reason", "no mutation tool installed"]),
            ("record-bad", ["accept", "record", "--slug", "rc", "--signal", "mutation_check",
                            "--result", "skipped"]),
            ("verdict", ["accept", "verdict", "--slug", "rc"]),
            ("show", ["session", "show", "--slug", "rc"]),
            ("render", ["session", "render", "--slug", "rc"]),
            ("gate", ["gate", "--slug", "rc"]),
            ("debt", ["accept", "record", "--slug", "rc", "--signal", "no_op_deletion",
                      "--accept-debt", "the removal is the fix"]),
            ("verdict-debt", ["accept", "verdict", "--slug", "rc"]),
            ("gate-debt", ["gate", "--slug", "rc"]),
            ("cleanup", ["cleanup", "--slug", "rc"]),
            ("gate-cleaned", ["gate", "--slug", "rc"]),
            ("verdict-cleaned", ["accept", "verdict", "--slug", "rc"]),
        ]
        for name, step in steps:
            key = "accept/%s/%s" % (m, name)
            if callable(step):
                step()
                continue
            # Flags go before `--` (after it they are the reproduction's).
            cut = step.index("--") if "--" in step else len(step)
            out[key] = run(binary, step[:cut] + flag + step[cut:], w)
            out[key + "/ledger"] = read(os.path.join(w, ".planning", "debug", "rc.evidence.json"))
        # The fix's file after reconfirm and everything else: the tree is restored byte-exactly.
        out["accept/%s/lib.py" % m] = read(os.path.join(w, "pkg", "lib.py"))
    return out


def scenario_gate(binary):
    """`gate` with blockers of every source: an unreadable ledger, an active run, a live probe, a
    copied probe block in the tree (`--verify`), a file verify could not check."""
    out = {}
    for flag in (["--json"], []):
        m = "json" if flag else "human"
        w = fresh("gate")
        shutil.copy(os.path.join(ROOT, "corpus", "examples", "python", "cart.py"), w)
        write(w, ".planning/debug/broken.evidence.json", "{ not json\n")
        steps = [
            ("init", ["session", "init", "--slug", "g1", "--policy", "adaptive"]),
            ("place", ["place", "cart.py", "--function", "apply_discount", "--slug", "g1",
                       "--probe", "p1", "--hypothesis", "h1", "--message", "entry"]),
            ("start", ["run", "start", "--slug", "g1", "--phase", "baseline", "--label", "by hand"]),
            ("gate", ["gate"]),
            ("gate-slug", ["gate", "--slug", "g1"]),
        ]
        for name, args in steps:
            out["gate/%s/%s" % (m, name)] = run(binary, args + flag, w)
        shutil.copy(os.path.join(w, "cart.py"), os.path.join(w, "copy.py"))
        write(w, "bad.py", b"# gsd-debug-probe:start g1 p9\n\xff\n")
        # The session's values key is 32 random bytes: binary (skipped) or not by chance.
        write(w, ".probity-allow", ".planning/debug/g1.evidence.json.values-key\n")
        out["gate/%s/gate-verify" % m] = run(binary, ["gate", "--verify"] + flag, w)
        out["gate/%s/verify-copy" % m] = run(binary, ["verify", "."] + flag, w)
        out["gate/%s/cleanup" % m] = run(binary, ["cleanup", "--slug", "g1"] + flag, w)
    return out


def scenario_schema(binary):
    """`probity schema` of every command (issue 23: enum fields keep their schemas)."""
    out = {}
    listed = run(binary, ["schema", "--list"], ROOT)
    out["schema/--list"] = listed
    body = listed.split(b"--- stdout\n", 1)[-1].split(b"--- stderr\n", 1)[0]
    for c in body.decode("utf-8", "replace").splitlines():
        if c.strip():
            out["schema/" + c] = run(binary, ["schema"] + c.split(), ROOT)
    return out


def scenario_misc(binary):
    out = {}
    for args in (["languages"], ["languages", "--json"], ["--help"], ["place", "--help"],
                 ["place", "--bogus"], ["nope"], ["verify", "--help"], ["drift", "--help"],
                 ["session", "--help"], ["--version"]):
        out["misc/" + " ".join(args)] = run(binary, args, ROOT)
    return out


SCENARIOS = [
    scenario_golden,
    scenario_drift,
    scenario_resolve_kinds,
    scenario_verify,
    scenario_session,
    scenario_accept,
    scenario_gate,
    scenario_schema,
    scenario_misc,
]


def collect(binary, only):
    out = {}
    for s in SCENARIOS:
        if not only or s.__name__.removeprefix("scenario_") in only:
            out.update(s(binary))
    return {k: mask(v) for k, v in out.items()}


def main():
    names = {s.__name__.removeprefix("scenario_") for s in SCENARIOS}
    only = set(sys.argv[3:])
    if len(sys.argv) < 3 or not only <= names:
        print(__doc__, file=sys.stderr)
        return 2
    old_bin, new_bin = (os.path.abspath(b) for b in sys.argv[1:3])
    old, new = collect(old_bin, only), collect(new_bin, only)
    differ = 0
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k, b"<absent>"), new.get(k, b"<absent>")
        if a != b:
            differ += 1
            print("DIFFERS: %s" % k)
            for line in difflib.unified_diff(
                a.decode("utf-8", "replace").splitlines(),
                b.decode("utf-8", "replace").splitlines(),
                "old",
                "new",
                lineterm="",
                n=1,
            ):
                print("  " + line[:300])
    print("%d outputs compared, %d identical, %d differ" % (len(old), len(old) - differ, differ))
    shutil.rmtree(WORK, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
