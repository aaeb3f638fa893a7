#!/usr/bin/env python3
"""`probity accept reconfirm` (issue 15, signal 5) on real bug fixes of real packages.

For each case: a pinned pair of consecutive releases from the registries (fetched with
benches/accept/run.py's `fetch` into ~/.cache/probity/accept-reconfirm, never vendored), and a
small reproduction of the bug the newer release fixes. Exactly what a front-end does:

  1. a git repository of the OLD release, committed; `.planning/` ignored (.git/info/exclude);
  2. the NEW release's versions of the fix's files (only those) as the uncommitted working tree;
  3. the reproduction under .planning/repro/ (outside the fix; untracked);
  4. `session init --policy adaptive`, one probe at the entry of the fixed function
     (`place --function`), `run --phase baseline -- ARGV`;
  5. `accept reconfirm --json -- ARGV`: want status ok, result pass, bug_returned_on_revert,
     fixed_on_reapply, tree_restored, probes verified after revert and restore;
  6. `accept diff --slug S --json` (signal 3, recorded), `accept verdict --slug S --json`;
  7. `cleanup --json`: the fix's files must be byte-identical (sha256) to the NEW release's,
     no other tracked file changed, `verify .` clean.
Then, in the same repository: `accept reconfirm` killed (SIGKILL) once the revert is on disk,
then `cleanup`, and killed once its journal exists, then the next `accept reconfirm` (each must
restore the fix byte-exactly and leave no `.probity-*.tmp`); the fix committed and checked with
`--commit HEAD`; and the negative case: the fix reverted (the tree back to the OLD release) and
a fake "fix" applied that only adds a comment above the fixed function; the same flow must give
result `fail` (the bug does not go away on re-apply).

  python3 benches/accept/reconfirm_real.py [--probity PATH] [--only ID] [--markdown]

Exit 0 when every check held, 1 when one did not, 2 when the harness itself failed.
Standard library only.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
import run as fetcher  # noqa: E402  (benches/accept/run.py: the registry fetch code)

CACHE = Path(os.environ.get("PROBITY_RECONFIRM_CACHE",
                            Path.home() / ".cache" / "probity" / "accept-reconfirm"))
fetcher.CACHE = CACHE
TSC = os.environ.get("TSC", str(REPO / "node_modules" / ".bin" / "tsc"))

PY_IDNA = """\
# idna 3.7: a ZWNJ (U+200C) is valid only right after (L|D)(T)*; 3.6 skipped any non-T
# character while looking back, so 'beh, arabic-indic zero, ZWNJ, beh' was accepted.
import os, sys
sys.path.insert(0, os.getcwd())
import idna

try:
    idna.encode("\\u0628\\u0660\\u200c\\u0628")
except idna.IDNAError as e:
    print("rejected:", e)
    sys.exit(0)
print("accepted: the joiner context is not checked")
sys.exit(1)
"""

JS_MINIMIST = """\
// minimist 1.2.6 (CVE-2021-44906): `--_.constructor.constructor.prototype.foo` polluted
// Function.prototype through the `constructor` key.
const parse = require(require("path").resolve("index.js"));
parse(["--_.constructor.constructor.prototype.foo", "bar"]);
const polluted = (function () {}).foo;
console.log("Function.prototype.foo =", polluted);
process.exit(polluted === undefined ? 0 : 1);
"""

TS_DEDENT = """\
// ts-dedent 2.1.0: escape sequences in the template (\\t here) are cooked; 2.0.0 used the
// raw strings, so dedent`a\\tb` kept a backslash and a `t`.
import { dedent } from "../../src/index";

declare const process: { exit(code: number): never };

const got = dedent`
    a\\tb
`;
console.log(JSON.stringify(got));
process.exit(got === "a\\tb" ? 0 : 1);
"""

TS_CHECK = """\
set -e
rm -rf .planning/repro/out
"$TSC" --outDir .planning/repro/out --rootDir . --module commonjs --target es2019 \\
  --skipLibCheck src/index.ts .planning/repro/repro.ts
exec node .planning/repro/out/.planning/repro/repro.js
"""

RS_BASE64 = """\
// base64 0.21.1 (#226): DecoderReader ignored padding followed by more input when the two
// arrived in separate reads of the delegate. Exit 0 when the padding is reported.
use base64::engine::general_purpose::STANDARD;
use std::io::Read;

struct FourAtATime<'a>(&'a [u8]);

impl Read for FourAtATime<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(4).min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn main() {
    let mut r = base64::read::DecoderReader::new(FourAtATime(b"YQ==YWJj"), &STANDARD);
    let mut out = Vec::new();
    let res = r.read_to_end(&mut out);
    println!("{:?} {:?}", res, out);
    std::process::exit(if res.is_err() { 0 } else { 1 });
}
"""

RS_CHECK = """\
set -e
o=.planning/repro/out
mkdir -p $o
rustc --cap-lints allow --edition 2021 --crate-type rlib --crate-name base64 \\
  --cfg 'feature="std"' --cfg 'feature="alloc"' src/lib.rs -o $o/libbase64.rlib
rustc --edition 2021 .planning/repro/repro.rs --extern base64=$o/libbase64.rlib -o $o/repro
exec $o/repro
"""

CASES = [
    {
        "id": "py-idna-3.7", "lang": "Python", "eco": "pypi", "name": "idna",
        "old": "3.6", "new": "3.7", "files": ["idna/core.py"],
        "probe": ("idna/core.py", "valid_contextj"),
        "repro": {"repro.py": PY_IDNA}, "argv": ["python3", ".planning/repro/repro.py"],
        "note": "CVE-2024-3651 release: valid_contextj stops at the first non-T joining type",
    },
    {
        "id": "js-minimist-1.2.6", "lang": "JavaScript", "eco": "npm", "name": "minimist",
        "old": "1.2.5", "new": "1.2.6", "files": ["index.js"],
        "probe": ("index.js", "setKey"),
        "repro": {"repro.js": JS_MINIMIST}, "argv": ["node", ".planning/repro/repro.js"],
        "note": "CVE-2021-44906: prototype pollution through `constructor`",
    },
    {
        "id": "ts-ts-dedent-2.1.0", "lang": "TypeScript", "eco": "npm", "name": "ts-dedent",
        "old": "2.0.0", "new": "2.1.0", "files": ["src/index.ts"],
        "probe": ("src/index.ts", "dedent"),
        "repro": {"repro.ts": TS_DEDENT, "check.sh": TS_CHECK},
        "argv": ["sh", ".planning/repro/check.sh"],
        "note": "escape sequences: cooked template strings instead of raw",
    },
    {
        "id": "rs-base64-0.21.1", "lang": "Rust", "eco": "crates", "name": "base64",
        "old": "0.21.0", "new": "0.21.1", "files": "src-non-test",
        "probe": ("src/read/decoder.rs", "DecoderReader::decode_to_buf"),
        "repro": {"repro.rs": RS_BASE64, "check.sh": RS_CHECK},
        "argv": ["sh", ".planning/repro/check.sh"],
        "note": "#226: DecoderReader honours padding across reads (with the engine API it needs)",
    },
]


class Harness(Exception):
    pass


def sh(cmd, cwd, env=None, timeout=600):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def git(d, *args):
    p = sh(["git", "-c", "user.email=b@example.com", "-c", "user.name=bench",
            "-c", "commit.gpgsign=false", *args], d)
    if p.returncode:
        raise Harness(f"git {args}: {p.stderr}")
    return p.stdout


def pj(probity, d, *args, env=None):
    """A probity command with --json: (exit code, envelope)."""
    p = sh([probity, *args], d, env=env)
    try:
        v = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError:
        # JSON Lines (verify): the last line is the summary envelope.
        v = json.loads(p.stdout.strip().splitlines()[-1])
    if v is None:
        raise Harness(f"probity {' '.join(args)}: exit {p.returncode}, no JSON: {p.stderr[-1500:]}")
    return p.returncode, v


def data(v):
    return v.get("data", v) if isinstance(v, dict) else v


def sha(p):
    return hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else None


def fix_files(case, old, new):
    if case["files"] != "src-non-test":
        return case["files"]
    return [f for f in fetcher.auto_files(old, new)
            if f.startswith("src/") and not f.endswith("tests.rs")]


def copy_release(src, d):
    for p in sorted(src.rglob("*")):
        rel = p.relative_to(src)
        if p.name == fetcher.DONE or ".git" in rel.parts:
            continue
        if p.is_dir():
            (d / rel).mkdir(parents=True, exist_ok=True)
        elif p.is_file():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, d / rel)


def session(probity, d, case, slug, env):
    """init, place one probe, baseline run; returns the baseline's exit code."""
    code, v = pj(probity, d, "session", "init", "--slug", slug, "--policy", "adaptive", "--json")
    if code:
        raise Harness(f"session init: {v}")
    f, fn = case["probe"]
    code, v = pj(probity, d, "place", f, "--function", fn, "--slug", slug, "--probe", "p-entry",
                 "--hypothesis", "h1", "--message", "entry", "--json")
    if code:
        raise Harness(f"place --function {fn} {f}: {v}")
    code, v = pj(probity, d, "run", "--slug", slug, "--phase", "baseline", "--json", "--",
                 *case["argv"], env=env)
    return data(v).get("run", {}).get("exit_code"), v


def repro_exit(d, case, files, release, env):
    """The reproduction's exit code and last output line with `release`'s fix files in place;
    the working tree is put back as it was."""
    saved = {rel: (d / rel).read_bytes() if (d / rel).exists() else None for rel in files}
    try:
        for rel in files:
            if (release / rel).exists():
                shutil.copyfile(release / rel, d / rel)
            elif (d / rel).exists():
                (d / rel).unlink()
        p = sh(case["argv"], d, env=env, timeout=120)
        tail = (p.stdout + p.stderr).strip().splitlines()
        return p.returncode, tail[-1][:100] if tail else ""
    finally:
        for rel, b in saved.items():
            if b is None:
                (d / rel).unlink(missing_ok=True)
            else:
                (d / rel).write_bytes(b)


def kill_reconfirm(probity, d, case, files, new, env, slug, prob, when):
    """A session with its baseline, then `accept reconfirm` killed (SIGKILL, by its pid) as soon
    as its write-ahead journal exists (`when="journal"`) or a fix file was rewritten
    (`when="reverted"`: the revert is on disk). Returns what the fix's files held then."""
    session(probity, d, case, slug, env)
    snap = {rel: sha(d / rel) for rel in files}
    changed = lambda: any(sha(d / rel) != h for rel, h in snap.items())  # noqa: E731
    # The journal lives in the repository's private folder (issue 21): <git dir>/probity/.
    git_dir = Path(subprocess.run(["git", "-C", str(d), "rev-parse", "--absolute-git-dir"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    journal_exists = lambda: any((git_dir / "probity").glob(f"{slug}-*.reconfirm"))  # noqa: E731
    proc = subprocess.Popen([probity, "accept", "reconfirm", "--slug", slug, "--json", "--",
                             *case["argv"]], cwd=d, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    ready = journal_exists if when == "journal" else changed
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    if proc.poll() is not None:
        prob.append(f"kill: reconfirm ended (exit {proc.returncode}) before the {when} point")
        return None
    os.kill(proc.pid, 9)
    proc.wait()
    time.sleep(0.3)  # the reproduction, in its own process group, may still be finishing
    n = sum(sha(d / rel) != h for rel, h in snap.items())
    return f"killed at {when}: {n}/{len(files)} file(s) reverted"


def stray_temps(d):
    """probity's atomic-write temporary files (`.probity-<pid>-*.tmp`) left in the tree."""
    return sorted(p.relative_to(d).as_posix() for p in d.rglob(".probity-*.tmp")
                  if ".planning" not in p.relative_to(d).parts)


def kill_checked(probity, d, case, files, new, env, prob):
    """Crash safety, both recovery paths: after the kill, (a) `cleanup` puts the fix back from
    the journal; (b) the next `accept reconfirm` of the session does (reported as `recovered`)
    and then runs normally."""
    out = {}
    before = set(stray_temps(d))
    state = kill_reconfirm(probity, d, case, files, new, env, "killed", prob, "reverted")
    if state is None:
        return {"kill": "not killed"}
    code, v = pj(probity, d, "cleanup", "--slug", "killed", "--json")
    bad = [rel for rel in files if sha(d / rel) != sha(new / rel)]
    vcode, _ = pj(probity, d, "verify", ".", "--json")
    ok_a = code == 0 and not bad and vcode == 0
    if not ok_a:
        prob.append(f"kill + cleanup: exit {code} ({v.get('reason')}: {v.get('detail')}), "
                    f"files not restored {bad}, verify exit {vcode}")
    state_b = kill_reconfirm(probity, d, case, files, new, env, "killed2", prob, "journal")
    code, v = pj(probity, d, "accept", "reconfirm", "--slug", "killed2", "--json", "--",
                 *case["argv"], env=env)
    r = data(v)
    rec = r.get("recovered") or {}
    ok_b = (code == 0 and r.get("result") == "pass" and r.get("tree_restored") is True
            and r.get("recovered") is not None
            and sorted((rec.get("restored") or []) + (rec.get("unchanged") or [])) == sorted(files))
    ccode, _ = pj(probity, d, "cleanup", "--slug", "killed2", "--json")
    bad = [rel for rel in files if sha(d / rel) != sha(new / rel)]
    ok_b = ok_b and ccode == 0 and not bad
    if not ok_b:
        prob.append(f"kill + reconfirm: exit {code} result {r.get('result')!r} recovered {rec} "
                    f"({v.get('reason')}: {v.get('detail')}), cleanup exit {ccode}, not restored {bad}")
    temps = sorted(set(stray_temps(d)) - before)
    out["kill"] = (f"(a) {state}: cleanup restored, clean {ok_a}; (b) {state_b}: reconfirm "
                   f"recovered {len(rec.get('restored') or [])} file(s), then {r.get('result')}; "
                   f"stray temp files {len(temps)}")
    out["stray_temps"] = temps
    if temps:
        prob.append(f"kill: probity's temporary files left in the tree: {temps}")
        for t in temps:  # the scratch repository's later checks compare the tree
            (d / t).unlink()
    return out


def probe_hits(d, slug):
    """Events the probe recorded in each run of the session (baseline, reverted, re-applied)."""
    ledger = json.loads((d / ".planning" / "debug" / f"{slug}.evidence.json").read_text())
    return [((r.get("observations") or {}).get("p-entry") or {}).get("event_count", 0)
            for r in ledger.get("runs", [])]


def run_case(probity, case, env):
    t0 = time.monotonic()
    old = fetcher.fetch(case["eco"], case["name"], case["old"])
    new = fetcher.fetch(case["eco"], case["name"], case["new"])
    files = fix_files(case, old, new)
    d = CACHE / "repos" / case["id"]
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    git(d, "init", "-q")
    copy_release(old, d)
    (d / ".git" / "info").mkdir(parents=True, exist_ok=True)
    with open(d / ".git" / "info" / "exclude", "a") as fh:
        fh.write(".planning/\n")
    git(d, "add", "-A")
    git(d, "commit", "-qm", f"{case['name']} {case['old']}")
    for rel in files:
        if (new / rel).exists():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(new / rel, d / rel)
        elif (d / rel).exists():
            (d / rel).unlink()
    repro = d / ".planning" / "repro"
    repro.mkdir(parents=True)
    for name, text in case["repro"].items():
        (repro / name).write_text(text)
    row = {"id": case["id"], "pair": f"{case['name']} {case['old']} -> {case['new']}",
           "lang": case["lang"], "files": len(files), "problems": []}
    prob = row["problems"]
    # The reproduction itself, without probity: it must fail on the old code, pass on the new.
    row["repro_old"], row["repro_old_out"] = repro_exit(d, case, files, old, env)
    row["repro_new"], row["repro_new_out"] = repro_exit(d, case, files, new, env)
    if row["repro_old"] == 0 or row["repro_new"] != 0:
        prob.append(f"the reproduction exits {row['repro_old']} on the old code and "
                    f"{row['repro_new']} on the new one (want non-zero, 0)")

    slug = "real"
    base, v = session(probity, d, case, slug, env)
    row["baseline"] = base
    if base != 0:
        prob.append(f"baseline run with the fix applied exited {base}: {json.dumps(data(v))[:400]}")
    code, v = pj(probity, d, "accept", "reconfirm", "--slug", slug, "--json", "--", *case["argv"],
                 env=env)
    r = data(v)
    row.update(status=v.get("status"), result=r.get("result"), bug_returned=r.get("bug_returned_on_revert"),
               fixed=r.get("fixed_on_reapply"), restored=r.get("tree_restored"),
               probes=(r.get("probes_checked"), r.get("probes_verified_reverted"),
                       r.get("probes_verified_restored")),
               findings=[f.get("kind", f) if isinstance(f, dict) else f for f in r.get("findings") or []], hunks=r.get("hunks"),
               runs=((r.get("revert_run") or {}).get("exit_code"), (r.get("reapply_run") or {}).get("exit_code")),
               reason=v.get("reason"))
    want = dict(status="ok", result="pass", bug_returned=True, fixed=True, restored=True)
    for k, w in want.items():
        if row[k] != w:
            prob.append(f"reconfirm {k} = {row[k]!r}, want {w!r} ({v.get('reason')}: {v.get('detail')})")
    if row["probes"] != (1, True, True):
        prob.append(f"probes checked/verified: {row['probes']}")
    code, v = pj(probity, d, "accept", "diff", "--slug", slug, "--json")
    row["diff"] = data(v).get("verdict") or v.get("reason")
    row["diff_review"] = sum(f.get("severity") == "review" for f in data(v).get("findings") or [])
    code, v = pj(probity, d, "accept", "verdict", "--slug", slug, "--json")
    ver = data(v).get("verification") or {}
    row["guardrail"] = ver.get("guardrail_verdict")
    row["unmet"] = ver.get("unmet")
    code, v = pj(probity, d, "cleanup", "--slug", slug, "--json")
    if code:
        prob.append(f"cleanup exit {code}: {v.get('reason')} {v.get('detail')}")
    bad = [rel for rel in files if sha(d / rel) != sha(new / rel)]
    changed = sorted(set(git(d, "diff", "--name-only", "-z").split("\0")) - {""})
    extra = sorted(set(changed) - set(files))
    code, v = pj(probity, d, "verify", ".", "--json")
    row["clean"] = not bad and not extra and code == 0
    if bad:
        prob.append(f"after cleanup, not the new release's bytes: {bad}")
    if extra:
        prob.append(f"after cleanup, other tracked files changed: {extra}")
    if code:
        prob.append(f"verify . exit {code}: {v.get('status')} {v.get('reason')}")
    row["hits"] = probe_hits(d, "real")
    row["seconds"] = round(time.monotonic() - t0, 1)

    # Crash safety: reconfirm killed (SIGKILL) once its write-ahead journal exists; then
    # `cleanup` must put the fix back from the journal, byte-exactly.
    t3 = time.monotonic()
    row.update(kill_checked(probity, d, case, files, new, env, prob))
    row["kill_seconds"] = round(time.monotonic() - t3, 1)

    # The same fix committed: `accept reconfirm --commit HEAD` (`git revert -n` semantics).
    t2 = time.monotonic()
    git(d, "add", "--", *files)
    git(d, "commit", "-qm", f"{case['name']} {case['new']}: the fix")
    slug = "committed"
    session(probity, d, case, slug, env)
    code, v = pj(probity, d, "accept", "reconfirm", "--slug", slug, "--commit", "HEAD", "--json",
                 "--", *case["argv"], env=env)
    r = data(v)
    row["commit_result"] = r.get("result")
    if (code, r.get("result"), r.get("bug_returned_on_revert"), r.get("fixed_on_reapply"),
            r.get("tree_restored")) != (0, "pass", True, True, True):
        prob.append(f"--commit HEAD: exit {code} result {r.get('result')!r} "
                    f"({v.get('reason')}: {v.get('detail')})")
    code, v = pj(probity, d, "cleanup", "--slug", slug, "--json")
    status = git(d, "status", "--porcelain")
    row["commit_clean"] = code == 0 and status == ""
    if not row["commit_clean"]:
        prob.append(f"--commit HEAD: cleanup exit {code}, git status {status!r}")
    git(d, "reset", "-q", "--hard", "HEAD~1")
    row["commit_seconds"] = round(time.monotonic() - t2, 1)

    # The negative case: the real fix reverted, a comment added to the fixed file instead.
    t1 = time.monotonic()
    git(d, "checkout", "-q", "--", ".")
    f, fn = case["probe"]
    target = d / f
    text = target.read_text()
    marker = "#" if f.endswith(".py") else "//"
    lines = text.splitlines(keepends=True)
    at = next(i for i, l in enumerate(lines) if fn.split("::")[-1] in l and
              ("def " in l or "fn " in l or "function" in l))
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at, f"{indent}{marker} fixed: handle the reported input correctly\n")
    target.write_text("".join(lines))
    fake_bytes = sha(target)
    slug = "fake"
    fbase, _ = session(probity, d, case, slug, env)
    code, v = pj(probity, d, "accept", "reconfirm", "--slug", slug, "--json", "--", *case["argv"],
                 env=env)
    r = data(v)
    row.update(fake_status=v.get("status"), fake_result=r.get("result"),
               fake_bug_returned=r.get("bug_returned_on_revert"), fake_fixed=r.get("fixed_on_reapply"),
               fake_restored=r.get("tree_restored"))
    if row["fake_result"] != "fail" or code != 1:
        prob.append(f"fake fix: result {row['fake_result']!r} exit {code} ({v.get('reason')}), want fail")
    code, v = pj(probity, d, "accept", "diff", "--slug", slug, "--json")
    row["fake_diff"] = data(v).get("verdict") or v.get("reason")
    code, v = pj(probity, d, "accept", "verdict", "--slug", slug, "--json")
    row["fake_guardrail"] = (data(v).get("verification") or {}).get("guardrail_verdict")
    code, v = pj(probity, d, "cleanup", "--slug", slug, "--json")
    vcode, _ = pj(probity, d, "verify", ".", "--json")
    row["fake_clean"] = code == 0 and vcode == 0 and sha(target) == fake_bytes
    if not row["fake_clean"]:
        prob.append(f"fake fix: cleanup exit {code}, verify exit {vcode}, bytes kept {sha(target) == fake_bytes}")
    row["fake_seconds"] = round(time.monotonic() - t1, 1)
    return row


def table(rows, markdown):
    head = ["package", "versions", "language", "fix files", "hunks", "repro old/new exit",
            "reconfirm", "revert/reapply exit", "findings", "bug returned", "fixed",
            "tree restored", "probes", "probe events per run", "diff (signal 3)", "guardrail", "cleanup clean", "s", "killed mid-reconfirm, then cleanup", "committed fix (--commit HEAD)",
            "fake fix: reconfirm", "fake: diff", "fake: guardrail", "fake s"]
    out = []
    for r in rows:
        out.append([r["id"], r["pair"], r["lang"], str(r["files"]), str(r.get("hunks")),
                    f"{r.get('repro_old')}/{r.get('repro_new')}",
                    f"{r.get('result')} ({r.get('status')})",
                    "{}/{}".format(*r.get("runs", (None, None))), ",".join(r.get("findings") or []) or "-", str(r.get("bug_returned")),
                    str(r.get("fixed")), str(r.get("restored")),
                    "{}/{}/{}".format(*r.get("probes", (None,) * 3)),
                    "/".join(map(str, r.get("hits") or [])),
                    f"{r.get('diff')}" + (f" ({r['diff_review']} review)" if r.get("diff_review") else ""),
                    str(r.get("guardrail")), str(r.get("clean")), str(r.get("seconds")),
                    f"{r.get('kill')} ({r.get('kill_seconds')} s)",
                    f"{r.get('commit_result')}, clean {r.get('commit_clean')}, {r.get('commit_seconds')} s",
                    f"{r.get('fake_result')} (returned {r.get('fake_bug_returned')}, fixed {r.get('fake_fixed')})",
                    str(r.get("fake_diff")), str(r.get("fake_guardrail")), str(r.get("fake_seconds"))])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for o in out:
            print("| " + " | ".join(o) + " |")
    else:
        w = [max(len(h), *(len(o[i]) for o in out)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
        for o in out:
            print("  ".join(c.ljust(w[i]) for i, c in enumerate(o)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probity", default=str(REPO / "target" / "release" / "probity"))
    ap.add_argument("--only")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    probity = str(Path(a.probity).resolve())
    if not Path(probity).exists():
        print(f"no probity binary at {probity} (cargo build --release)", file=sys.stderr)
        return 2
    env = dict(os.environ, TSC=TSC)
    rows = []
    try:
        for c in CASES:
            if a.only and c["id"] != a.only:
                continue
            row = run_case(probity, c, env)
            rows.append(row)
            for p in row["problems"]:
                print(f"{c['id']}: {p}", file=sys.stderr)
    except (Harness, fetcher.HarnessError) as e:
        print(f"harness error: {e}", file=sys.stderr)
        if rows:
            table(rows, a.markdown)
        return 2
    table(rows, a.markdown)
    print()
    for r in rows:
        print(f"{r['id']}: old code: {r.get('repro_old_out')!r}; new code: {r.get('repro_new_out')!r}; "
              f"guardrail unmet: {r.get('unmet')}")
    failed = sum(bool(r["problems"]) for r in rows)
    print(f"\n{len(rows)} cases, {len(rows) - failed} with every check holding")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
