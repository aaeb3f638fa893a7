//! Shared helpers for the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root (where Cargo.toml is).
/// The plan lines of a `drift --json` entry's occurrences.
pub fn occurrence_lines(x: &serde_json::Value) -> Vec<u64> {
    x["occurrences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["line"].as_u64().unwrap())
        .collect()
}

/// The `data` of a command's `--json` envelope (the value itself when it has none).
pub fn data(v: &serde_json::Value) -> &serde_json::Value {
    v.get("data").unwrap_or(v)
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A `probity` command.
pub fn probity() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("probity").expect("probity binary")
}

/// A temporary repository: a directory with an empty `.git` folder.
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join(".git")).expect(".git");
        Repo { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.dir.path().join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, bytes).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.dir.path().join(rel)).unwrap()
    }

    pub fn ledger(&self) -> PathBuf {
        self.dir.path().join(".planning/debug/test.evidence.json")
    }
}

// --- Helpers for the placement, strip and CLI tests (rules.rs, cli.rs, properties.rs). ---

use probity::Error;
use probity::lang::{Grammar, Language};
use probity::place::{Anchor, Placement};
use probity::probe::ProbeIdentity;
use probity::reason::Reason;
use probity::source::Source;
use probity::strip::{StripPlan, Target};

/// The language and grammar for a file name (by extension).
pub fn lang_of(path: &str) -> (&'static Language, &'static Grammar) {
    probity::lang::for_path(Path::new(path)).unwrap_or_else(|| panic!("no language for {path}"))
}

/// A valid identity: hypothesis `h1`, message `checkpoint`, no captures.
pub fn identity(slug: &str, probe: &str) -> ProbeIdentity {
    ProbeIdentity::new(slug, probe, &["h1".to_owned()], "checkpoint", &[]).expect("valid identity")
}

/// Place probe `s`/`p` in `text` (a file named `path`) through the library.
pub fn place_in(path: &str, text: impl AsRef<[u8]>, anchor: Anchor) -> Result<Placement, Error> {
    place_as(path, text, &identity("s", "p"), anchor)
}

/// Place `id` in `text` (a file named `path`) through the library.
pub fn place_as(
    path: &str,
    text: impl AsRef<[u8]>,
    id: &ProbeIdentity,
    anchor: Anchor,
) -> Result<Placement, Error> {
    let (lang, grammar) = lang_of(path);
    let source = Source::new(text.as_ref().to_vec()).map_err(Error::from)?;
    probity::place::place(lang, grammar, &source, id, &anchor, path)
}

/// The reason code of a placement that must be refused.
#[track_caller]
pub fn refusal(r: Result<Placement, Error>) -> Reason {
    match r {
        Ok(p) => panic!(
            "expected a refusal, got a placement at line {} ({})",
            p.line_used, p.block_start_line
        ),
        Err(e) => e.reason,
    }
}

/// Plan the strip of `(slug, probe, block_sha256)` targets from `bytes` through the library.
pub fn strip_in(
    path: &str,
    bytes: &[u8],
    targets: &[(&str, &str, &str)],
) -> Result<StripPlan, Reason> {
    let (lang, grammar) = lang_of(path);
    let source = Source::new(bytes.to_vec())?;
    let targets: Vec<Target> = targets
        .iter()
        .map(|(s, p, h)| Target {
            slug: (*s).to_owned(),
            probe: (*p).to_owned(),
            expected_sha256: (*h).to_owned(),
            expected_token_sha256: None,
        })
        .collect();
    Ok(probity::strip::strip(lang, grammar, &source, &targets))
}

/// Whether `offset` is at the start of a line of `bytes` (the BOM counts as nothing).
pub fn at_line_start(bytes: &[u8], offset: usize) -> bool {
    offset == 0 || bytes[offset - 1] == b'\n' || (offset == 3 && bytes.starts_with(b"\xEF\xBB\xBF"))
}

/// Run a probity command and return its exit code and its stdout parsed as JSON (checked
/// against `probity schema`, see [`check_json_output`]).
pub fn run_json(cmd: &mut assert_cmd::Command) -> (i32, serde_json::Value) {
    let out = cmd.output().expect("run probity");
    let code = out.status.code().expect("exit code");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = parse_output(&stdout);
    (code, json)
}

/// A command's `--json` stdout, parsed and checked against `probity schema`
/// ([`check_json_output`]).
#[track_caller]
pub fn parse_output(stdout: &str) -> serde_json::Value {
    let json = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout}"));
    check_json_output(stdout.trim());
    json
}

/// Check `doc` against the schema `name` of `probity schema` (ajv): `Err` with ajv's answer when
/// it is invalid.
pub fn validate_against(name: &str, doc: &serde_json::Value) -> Result<(), String> {
    let answer = validator_answer(&serde_json::json!({"probity_schema": name, "document": doc}));
    if answer.starts_with("ok ") {
        Ok(())
    } else {
        Err(answer)
    }
}

/// Check `doc` against `schema` itself (ajv, draft 2020-12, strict): `Err` with ajv's answer when
/// it is invalid, or when `schema` does not compile.
pub fn validate_with(schema: &serde_json::Value, doc: &serde_json::Value) -> Result<(), String> {
    let answer = validator_answer(&serde_json::json!({"inline_schema": schema, "document": doc}));
    if answer.starts_with("ok ") {
        Ok(())
    } else {
        Err(answer)
    }
}

/// The ajv validator (`tests/contract_validate.mjs`), started once per test process over the
/// schemas `probity schema` prints.
struct Validator {
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    _child: std::process::Child,
}

/// Check one JSON document probity printed (a command's `--json` envelope, or a record line of
/// `verify --json`) against `probity schema` with a real draft 2020-12 validator (ajv): every
/// test that reads JSON output goes through here (`run_json`, `probity_json`, `parse_output`,
/// the verify helper), so code, schemas and docs cannot drift apart. Panics when it is invalid.
/// With `PROBITY_CONTRACT_LOG=FILE`, appends the schema name of each checked document to FILE.
#[track_caller]
pub fn check_json_output(text: &str) {
    use std::io::Write;
    let doc: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    let answer = validator_answer(&doc);
    if let Some(file) = std::env::var_os("PROBITY_CONTRACT_LOG") {
        let rest = answer.trim();
        let rest = rest.strip_prefix("ok ").unwrap_or(rest);
        let name = rest.strip_prefix("invalid ").unwrap_or(rest);
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .expect("PROBITY_CONTRACT_LOG");
        let _ = writeln!(f, "{}", name.split(" [").next().unwrap_or(name));
    }
    assert!(
        answer.starts_with("ok "),
        "output does not match `probity schema`: {answer}\ndocument: {text}"
    );
}

/// The validator's one-line answer for one document (see `tests/contract_validate.mjs`).
fn validator_answer(doc: &serde_json::Value) -> String {
    use std::io::{BufRead, Write};
    use std::sync::{Mutex, OnceLock};
    static VALIDATOR: OnceLock<Mutex<Validator>> = OnceLock::new();
    let v = VALIDATOR.get_or_init(|| {
        let modules = node_modules();
        assert!(
            modules.join("ajv/dist/2020.js").exists(),
            "ajv missing: run `npm ci`"
        );
        let out = probity().arg("schema").output().expect("probity schema");
        assert!(out.status.success(), "probity schema failed");
        let path =
            std::env::temp_dir().join(format!("probity-schemas-{}.json", std::process::id()));
        std::fs::write(&path, &out.stdout).expect("write schemas");
        let mut child = std::process::Command::new("node")
            .arg(repo_root().join("tests/contract_validate.mjs"))
            .arg(&path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("node (Node.js) is required by the tests");
        Mutex::new(Validator {
            stdin: child.stdin.take().expect("stdin"),
            stdout: std::io::BufReader::new(child.stdout.take().expect("stdout")),
            _child: child,
        })
    });
    let mut v = v.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(v.stdin, "{doc}").expect("write to the validator");
    let mut line = String::new();
    v.stdout.read_line(&mut line).expect("read the validator");
    line
}

impl Repo {
    /// `probity place <rel> --slug s --probe <probe> --hypothesis h1 --ledger <ledger> --json
    /// <extra...>`, run in the repository; returns the exit code and the JSON answer.
    pub fn place(&self, rel: &str, probe: &str, extra: &[&str]) -> (i32, serde_json::Value) {
        let mut cmd = probity();
        cmd.current_dir(self.path())
            .args([
                "place",
                rel,
                "--slug",
                "s",
                "--probe",
                probe,
                "--hypothesis",
                "h1",
                "--json",
            ])
            .arg("--ledger")
            .arg(self.ledger())
            .args(extra);
        run_json(&mut cmd)
    }

    /// `probity strip --ledger <ledger> --json <extra...>`, run in the repository.
    pub fn strip(&self, extra: &[&str]) -> (i32, serde_json::Value) {
        let mut cmd = probity();
        cmd.current_dir(self.path())
            .args(["strip", "--json", "--ledger"])
            .arg(self.ledger())
            .args(extra);
        run_json(&mut cmd)
    }

    /// The ledger, parsed.
    pub fn ledger_json(&self) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(self.ledger()).expect("ledger exists"))
            .expect("ledger is JSON")
    }

    /// The `status` of probe `probe` in the ledger.
    pub fn probe_status(&self, probe: &str) -> String {
        let l = self.ledger_json();
        l["probes"]
            .as_array()
            .expect("probes[]")
            .iter()
            .rev()
            .find(|p| p["id"] == probe)
            .map(|p| p["status"].as_str().unwrap_or_default().to_owned())
            .unwrap_or_else(|| panic!("probe {probe} not in ledger: {l}"))
    }
}

/// The byte ranges of every statement of a statement list in `text`, found independently of the
/// engine's own walk: named, non-comment children of a container kind (honouring the language's
/// parent exclusions and statement fields).
pub fn statement_ranges(path: &str, text: &str) -> Vec<std::ops::Range<usize>> {
    let (lang, grammar) = lang_of(path);
    let tree = probity::parse::parse(grammar, text).expect("parse");
    let spec = &lang.spec;
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        let children: Vec<_> = n.named_children(&mut c).collect();
        let container = spec.statement_containers.iter().any(|k| k == n.kind())
            && !n.parent().is_some_and(|p| {
                spec.container_parent_exclusions
                    .iter()
                    .any(|k| k == p.kind())
            });
        if container {
            let field: Option<Vec<usize>> = spec.statement_fields.get(n.kind()).map(|f| {
                let mut c = n.walk();
                n.children_by_field_name(f, &mut c)
                    .map(|x| x.id())
                    .collect()
            });
            for ch in &children {
                if lang.is_comment(ch.kind()) || ch.is_error() || ch.is_missing() {
                    continue;
                }
                if field.as_ref().is_some_and(|ids| !ids.contains(&ch.id())) {
                    continue;
                }
                out.push(ch.byte_range());
            }
        }
        stack.extend(children);
    }
    out.sort_by_key(|r| (r.start, r.end));
    out
}

/// Check what every successful placement must satisfy: the new file is the old one with exactly
/// the block spliced in at a line start; the block is indented like the anchor line, starts and
/// ends with this probe's markers, uses one line ending throughout; and it sits right before the
/// first line of a statement of a statement list (or right after the last line of one), with no
/// new syntax error.
#[track_caller]
pub fn check_placement(path: &str, src: &[u8], p: &Placement, slug: &str, probe: &str) {
    PlacementCheck::new(path, src).check(p, slug, probe);
}

/// [`check_placement`] for many placements in one file: the original is parsed once.
pub struct PlacementCheck<'a> {
    path: &'a str,
    src: &'a [u8],
    bom: usize,
    stmts: Vec<std::ops::Range<usize>>,
    errors_before: usize,
}

impl<'a> PlacementCheck<'a> {
    /// Parse the original file.
    pub fn new(path: &'a str, src: &'a [u8]) -> Self {
        let (_, grammar) = lang_of(path);
        let bom = if src.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let body = std::str::from_utf8(&src[bom..]).expect("utf-8");
        let errors_before =
            probity::parse::error_count(&probity::parse::parse(grammar, body).unwrap());
        PlacementCheck {
            path,
            src,
            bom,
            stmts: statement_ranges(path, body),
            errors_before,
        }
    }

    /// Check one placement of probe `slug`/`probe` into the original.
    #[track_caller]
    pub fn check(&self, p: &Placement, slug: &str, probe: &str) {
        let (path, src) = (self.path, self.src);
        let (lang, grammar) = lang_of(path);
        let mut expect = src[..p.offset].to_vec();
        expect.extend_from_slice(p.block.as_bytes());
        expect.extend_from_slice(&src[p.offset..]);
        assert!(
            expect == p.new_bytes,
            "{path}: new bytes are not old bytes + block at {}",
            p.offset
        );
        assert!(
            at_line_start(src, p.offset),
            "{path}: block not at a line start ({})",
            p.offset
        );
        assert_eq!(
            probity::source::sha256_hex(p.block.as_bytes()),
            p.block_sha256
        );
        let c = &lang.spec.comment;
        let lines: Vec<&str> = p.block.split_inclusive('\n').collect();
        assert!(lines.len() >= 2, "{path}: block has {} lines", lines.len());
        let marker = |kind: &str| {
            format!(
                "{}{c} gsd-debug-probe:{kind} {slug} {probe}{}",
                p.indent, p.eol
            )
        };
        assert_eq!(lines[0], marker("start"), "{path}: start marker");
        assert_eq!(*lines.last().unwrap(), marker("end"), "{path}: end marker");
        for l in &lines {
            assert!(
                l.ends_with(p.eol),
                "{path}: block line {l:?} does not end with {:?}",
                p.eol
            );
            if p.eol == "\n" {
                assert!(
                    !l.ends_with("\r\n"),
                    "{path}: mixed line endings in the block"
                );
            }
            assert!(
                l.trim().is_empty() || l.starts_with(&p.indent),
                "{path}: block line {l:?} not indented"
            );
        }
        // Independently: the block touches a statement of a statement list.
        let body = std::str::from_utf8(&src[self.bom..]).expect("utf-8");
        let at = p.offset - self.bom;
        let ok = if p.side == "before" {
            self.stmts.iter().any(|r| r.start == at + p.indent.len())
        } else {
            // The statement's last line is the line just before the block.
            let prev_line_start = body[..at.saturating_sub(1)]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            self.stmts.iter().any(|r| {
                r.end > prev_line_start
                    && r.end <= at
                    && (body[r.end..at].trim().is_empty() || lang_comment_tail(&body[r.end..at], c))
            })
        };
        assert!(
            ok,
            "{path}: the block at line {} ({}) is not next to a statement of a statement list",
            p.block_start_line, p.side
        );
        // No new syntax error (fresh parse, not the engine's incremental one).
        let new_body = std::str::from_utf8(&p.new_bytes[self.bom..]).unwrap();
        let after = probity::parse::error_count(&probity::parse::parse(grammar, new_body).unwrap());
        assert!(
            after <= self.errors_before,
            "{path}: placement added syntax errors ({} -> {after})",
            self.errors_before
        );
    }
}

/// Whether `rest` is only whitespace and one trailing line comment.
fn lang_comment_tail(rest: &str, comment: &str) -> bool {
    let t = rest.trim_start_matches([' ', '\t']);
    t.starts_with(comment) && !t.trim_end().contains('\n')
}

// --- Helpers for the session and end-to-end tests (session.rs, e2e.rs). ---

/// The built `probity` binary, for tests that spawn it themselves (kill it, run it in parallel,
/// call it from a git hook).
pub fn probity_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_probity"))
}

/// `probity <args>` run in `dir`, with `--json` added (before a `--`, else at the end); the exit
/// code and the JSON answer.
pub fn probity_json(dir: &Path, args: &[&str]) -> (i32, serde_json::Value) {
    let mut args: Vec<&str> = args.to_vec();
    let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
    args.insert(at, "--json");
    let mut cmd = probity();
    cmd.current_dir(dir).args(&args);
    run_json(&mut cmd)
}

/// The session ledger of `slug` in the repository `dir`.
pub fn session_ledger(dir: &Path, slug: &str) -> PathBuf {
    dir.join(".planning/debug")
        .join(format!("{slug}.evidence.json"))
}

/// The 1-based number of the one line of `file` that is exactly `line` (line ending excluded).
#[track_caller]
pub fn line_number(file: &Path, line: &str) -> usize {
    let text = std::fs::read_to_string(file).expect("read file");
    let hits: Vec<usize> = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| l.trim_end_matches('\r') == line)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "{}: line {line:?} found {} times",
        file.display(),
        hits.len()
    );
    hits[0]
}

/// The repository's `node_modules` (installed from package-lock.json by `npm ci`). If it is
/// missing, `npm ci` is run once, so that `cargo test` works on a fresh checkout.
pub fn node_modules() -> PathBuf {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let dir = repo_root().join("node_modules");
    ONCE.call_once(|| {
        let marker = dir.join(".package-lock.json");
        if !marker.exists() {
            let status = std::process::Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(repo_root())
                .status()
                .expect("npm (Node.js) is required by the tests");
            assert!(
                status.success(),
                "`npm ci` failed in {}",
                repo_root().display()
            );
        }
    });
    dir
}

/// The TypeScript compiler: `PROBITY_TSC`, else `<repo>/node_modules/.bin/tsc`, else `tsc` on PATH.
pub fn tsc() -> PathBuf {
    use std::ffi::OsStr;
    use std::process::{Command, Stdio};
    let runs = |p: &OsStr| {
        Command::new(p)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if let Some(p) = std::env::var_os("PROBITY_TSC") {
        assert!(runs(&p), "PROBITY_TSC={p:?} does not run `--version`");
        return PathBuf::from(p);
    }
    let local = node_modules().join(".bin/tsc");
    if local.exists() && runs(local.as_os_str()) {
        return local;
    }
    assert!(
        runs(OsStr::new("tsc")),
        "TypeScript compiler not found: set PROBITY_TSC, or run `npm ci` in {}, \
         or put `tsc` on PATH. This test must not be skipped.",
        repo_root().display()
    );
    PathBuf::from("tsc")
}

/// `probity resolve --json REFS` on `r` (a fresh cache); the `results` array.
pub fn resolve_all(r: &Repo, refs: &[&str]) -> Vec<serde_json::Value> {
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("resolve")
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--json")
        .arg("--")
        .args(refs)
        .output()
        .unwrap();
    assert!(
        out.status.code() == Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    data(&v)["results"].as_array().unwrap().clone()
}

/// Each reference of `want` resolves as given: `VERIFIED path:line`, `MISSING`, `UNCHECKABLE`,
/// `AMBIGUOUS`; the reason of an UNCHECKABLE must contain the text after it.
#[track_caller]
pub fn expect_verdicts(r: &Repo, want: &[(&str, &str)]) {
    let refs: Vec<&str> = want.iter().map(|(r, _)| *r).collect();
    let got = resolve_all(r, &refs);
    let mut bad = Vec::new();
    for ((reference, w), v) in want.iter().zip(&got) {
        let (verdict, rest) = w.split_once(' ').unwrap_or((w, ""));
        let ok = v["verdict"] == verdict
            && match verdict {
                "VERIFIED" => v["location"]
                    .as_str()
                    .is_some_and(|l| l.starts_with(&format!("{rest}:"))),
                "UNCHECKABLE" => v["reason"].as_str().is_some_and(|s| s.contains(rest)),
                _ => true,
            };
        if !ok {
            bad.push(format!("{reference}: want {w}, got {v}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `probity drift --json` over `plan` (written as `PLAN.md` in `r`, a fresh cache): the results.
pub fn drift_plan(r: &Repo, plan: &str) -> Vec<serde_json::Value> {
    r.write("PLAN.md", plan);
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("drift")
        .arg("--plan")
        .arg(r.path().join("PLAN.md"))
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    data(&v)["results"].as_array().unwrap().clone()
}

/// Run git in `dir` with a throwaway identity and no signing; panics with git's output when it
/// fails.
pub fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A probity process stopped at one of its test hooks (`PROBITY_TEST_PAUSE=<point>:<dir>`): it
/// has written `<dir>/<point>.ready` and waits for `<dir>/<point>.go`.
pub struct Paused {
    /// The paused process.
    pub child: std::process::Child,
    hook: tempfile::TempDir,
    point: String,
}

impl Paused {
    /// Spawn `cmd` with the hook at `point` and wait (at most 60 s) until it pauses there;
    /// panics if it ends first.
    pub fn spawn(cmd: &mut std::process::Command, point: &str) -> Paused {
        let hook = tempfile::tempdir().unwrap();
        let mut child = cmd
            .env(
                "PROBITY_TEST_PAUSE",
                format!("{point}:{}", hook.path().display()),
            )
            .spawn()
            .unwrap();
        let ready = hook.path().join(format!("{point}.ready"));
        let start = std::time::Instant::now();
        while !ready.exists() {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "never paused at {point}"
            );
            if let Some(s) = child.try_wait().unwrap() {
                panic!("the command ended ({s}) without pausing at {point}");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Paused {
            child,
            hook,
            point: point.to_owned(),
        }
    }

    /// Let it go on from the pause.
    pub fn go(self) -> std::process::Child {
        std::fs::write(self.hook.path().join(format!("{}.go", self.point)), "").unwrap();
        self.child
    }

    /// Kill it (SIGKILL) where it paused.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

/// `probity place REL --line LINE` of probe `probe` of slug `slug` into the repository's plain
/// ledger (hypothesis `h1`, message `state`), with `caps`; the placement must succeed.
pub fn place_on_ledger(
    repo: &Repo,
    rel: &str,
    line: usize,
    slug: &str,
    probe: &str,
    caps: &[&str],
) {
    let mut cmd = probity();
    cmd.current_dir(repo.path())
        .arg("place")
        .arg(repo.path().join(rel))
        .args(["--line", &line.to_string(), "--slug", slug])
        .args(["--probe", probe, "--hypothesis", "h1", "--message", "state"])
        .arg("--ledger")
        .arg(repo.ledger());
    for c in caps {
        cmd.args(["--capture", c]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "place {probe}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `probity env --ledger` for the repository's plain ledger: the runtime stem to export, the
/// folder holding it (the caller's to remove: a plain ledger has no session), and the whole
/// `--json` document.
pub fn ledger_runtime(repo: &Repo) -> (String, String, serde_json::Value) {
    let out = probity()
        .arg("env")
        .arg("--ledger")
        .arg(repo.ledger())
        .arg("--json")
        .output()
        .unwrap();
    let v = parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["status"], "ok", "{v}");
    let root = data(&v)["root"].as_str().unwrap().to_owned();
    let rt = data(&v)["exports"]["GSD_DEBUG_PROBE_RUNTIME"]
        .as_str()
        .unwrap()
        .to_owned();
    (rt, root, v)
}
