//! Golden corpus: every `corpus/<lang>/<case>/` is one placement request with a known answer.
//!
//! A case holds `input.<ext>` (the original bytes), `case.toml` (the request and the expected
//! outcome) and, for placed cases, `expected.<ext>` (the exact bytes after placement). For each
//! case the input is copied into a fresh temporary repository as `input.<ext>` and
//! `probity place ... --json` is run with the case's request. See corpus/README.md.
//!
//! Placed cases: exit 0, `status == "placed"`, the file equals `expected.<ext>` byte for byte,
//! the file is the input with `placement.block` inserted at `placement.offset` (a line start),
//! `placement.block_sha256` is the SHA-256 of exactly that span, every block line carries the
//! anchor line's indentation and line ending and the markers are exact; placing the same probe
//! again is refused `marker_collision` with nothing changed; `probity strip` then exits 0 and
//! gives back the input byte for byte.
//!
//! Refused cases: exit 2, `status == "refused"`, `reason` equals the case's, the file is byte
//! identical to the input and the ledger holds no live (planned or active) entry.
//!
//! Refresh (blessing): with `PROBITY_BLESS=1` in the environment, `expected.<ext>` is written from
//! the actual output instead of being compared; every other check still runs. Re-bless after a
//! probe template changes (`PROBITY_BLESS=1 cargo test --test tests golden`), then review the
//! diff of `corpus/` by eye: only the block bodies should change.
//!
//! Every failing case is collected and reported at once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::util::{Repo, data, probity, repo_root};

/// Languages of the corpus and the minimum number of cases each must have.
const LANGUAGES: &[&str] = &["rust", "javascript", "typescript", "python"];
const MIN_CASES_PER_LANGUAGE: usize = 25;

/// `case.toml`. Field meanings: corpus/README.md.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    description: String,
    line: Option<usize>,
    after_line: Option<usize>,
    function: Option<String>,
    slug: String,
    probe: String,
    hypotheses: Vec<String>,
    message: String,
    #[serde(default)]
    captures: Vec<String>,
    expect: Expect,
    reason: Option<String>,
    /// Placed only: the statement line the engine must report as used.
    line_used: Option<usize>,
    /// Placed only: whether the engine must report the anchor as snapped.
    snapped: Option<bool>,
    /// Placed only: the qualified function name the engine must report.
    function_reported: Option<String>,
    /// Placed only: `before` or `after`.
    side: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Expect {
    Placed,
    Refused,
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn blessing() -> bool {
    std::env::var("PROBITY_BLESS").is_ok_and(|v| v == "1")
}

/// Every case directory, by language.
fn case_dirs() -> BTreeMap<String, Vec<PathBuf>> {
    let root = repo_root().join("corpus");
    let mut out = BTreeMap::new();
    for lang in LANGUAGES {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join(lang))
            .unwrap_or_else(|e| panic!("corpus/{lang}: {e}"))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        out.insert((*lang).to_owned(), dirs);
    }
    out
}

/// The one `input.<ext>` of a case: its file name and extension.
fn input_of(dir: &Path) -> Result<(String, String), String> {
    let inputs: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("input."))
        .collect();
    match inputs.as_slice() {
        [one] => Ok((one.clone(), one["input.".len()..].to_owned())),
        _ => Err(format!(
            "expected exactly one input.<ext>, found {inputs:?}"
        )),
    }
}

fn comment_token(ext: &str) -> &'static str {
    if matches!(ext, "py" | "pyw") {
        "#"
    } else {
        "//"
    }
}

/// Lines of `body` with their terminators (`""` for an unterminated last line).
fn lines_with_eol(body: &[u8]) -> Vec<(&[u8], &'static str)> {
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let line = &rest[..i];
                if let Some(l) = line.strip_suffix(b"\r") {
                    out.push((l, "\r\n"));
                } else {
                    out.push((line, "\n"));
                }
                rest = &rest[i + 1..];
            }
            None => {
                out.push((rest, ""));
                rest = &[];
            }
        }
    }
    out
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Leading whitespace and terminator of 1-based `line` of `input` (BOM skipped). A line without
/// terminator takes the file's first terminator, or `\n` (docs/contracts.md §2).
fn line_style(input: &[u8], line: usize) -> (String, &'static str) {
    let body = input.strip_prefix(BOM).unwrap_or(input);
    let lines = lines_with_eol(body);
    let (text, eol) = lines[line - 1];
    let indent: String = String::from_utf8_lossy(text)
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let eol = match eol {
        "" => lines
            .iter()
            .map(|(_, e)| *e)
            .find(|e| !e.is_empty())
            .unwrap_or("\n"),
        e => e,
    };
    (indent, eol)
}

/// Run a command; its exit code, its JSON answer and a short summary for failure messages
/// (the reason and detail of a refusal, else the start of its output).
/// Where two files first differ, as a line number and the two lines.
fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let e: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let i = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let show = |l: Option<&&[u8]>| match l {
        Some(l) => format!("{:?}", String::from_utf8_lossy(l)),
        None => "<end of file>".to_owned(),
    };
    format!(
        "line {}: expected {}, actual {}",
        i + 1,
        show(e.get(i)),
        show(a.get(i))
    )
}

fn run_json(cmd: &mut assert_cmd::Command) -> (i32, Value, String) {
    let out = cmd.output().expect("run probity");
    let code = out.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json: Value = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    if !json.is_null() {
        crate::util::check_json_output(stdout.trim());
    }
    let summary = if json["reason"].is_string() {
        format!("[{}: {}]", json["reason"], json["detail"])
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut s: String = format!("{stdout}{stderr}").chars().take(400).collect();
        s.push_str(" ...");
        format!("[{s}]")
    };
    (code, json, summary)
}

fn place_cmd(case: &Case, file: &Path, ledger: &Path) -> assert_cmd::Command {
    let mut cmd = probity();
    cmd.arg("place").arg(file);
    if let Some(n) = case.line {
        cmd.arg("--line").arg(n.to_string());
    }
    if let Some(n) = case.after_line {
        cmd.arg("--after-line").arg(n.to_string());
    }
    if let Some(f) = &case.function {
        cmd.arg("--function").arg(f);
    }
    cmd.args([
        "--slug",
        &case.slug,
        "--probe",
        &case.probe,
        "--message",
        &case.message,
    ]);
    for h in &case.hypotheses {
        cmd.args(["--hypothesis", h]);
    }
    for c in &case.captures {
        cmd.args(["--capture", c]);
    }
    cmd.arg("--ledger").arg(ledger).arg("--json");
    cmd
}

/// Live (planned or active) ledger entries; a missing ledger has none.
fn live_entries(ledger: &Path) -> Result<usize, String> {
    if !ledger.exists() {
        return Ok(0);
    }
    let v: Value = serde_json::from_slice(&std::fs::read(ledger).map_err(|e| e.to_string())?)
        .map_err(|e| format!("ledger does not parse: {e}"))?;
    Ok(v["probes"]
        .as_array()
        .map(|ps| ps.iter().filter(|p| p["status"] != "removed").count())
        .unwrap_or(0))
}

/// Run one case; `Err` holds every problem found.
fn run_case(dir: &Path) -> Result<(), String> {
    let case: Case = toml::from_str(
        &std::fs::read_to_string(dir.join("case.toml")).map_err(|e| format!("case.toml: {e}"))?,
    )
    .map_err(|e| format!("case.toml: {e}"))?;
    if case.description.trim().is_empty() {
        return Err("case.toml: empty description".into());
    }
    let anchors = [
        case.line.is_some(),
        case.after_line.is_some(),
        case.function.is_some(),
    ];
    if anchors.iter().filter(|a| **a).count() != 1 {
        return Err("case.toml: give exactly one of line, after_line, function".into());
    }
    let (input_name, ext) = input_of(dir)?;
    let input = std::fs::read(dir.join(&input_name)).map_err(|e| e.to_string())?;
    let expected_path = dir.join(format!("expected.{ext}"));
    let repo = Repo::new();
    let file = repo.write(&input_name, &input);
    let ledger = repo.ledger();

    let (code, json, out) = run_json(&mut place_cmd(&case, &file, &ledger));
    let now = repo.read(&input_name);
    match case.expect {
        Expect::Refused => {
            let reason = case
                .reason
                .as_deref()
                .ok_or("case.toml: refused case without reason")?;
            let mut errs = Vec::new();
            if expected_path.exists() {
                errs.push(format!("a refused case must not have expected.{ext}"));
            }
            if case.line_used.is_some()
                || case.snapped.is_some()
                || case.function_reported.is_some()
                || case.side.is_some()
            {
                errs.push(
                    "case.toml: line_used/snapped/function_reported/side are for placed cases"
                        .into(),
                );
            }
            if code != 2 {
                errs.push(format!("exit {code}, want 2; {out}"));
            }
            if json["status"] != "refused" {
                errs.push(format!("status {}, want refused; {out}", json["status"]));
            }
            if json["reason"] != reason {
                errs.push(format!("reason {}, want {reason:?}; {out}", json["reason"]));
            }
            if now != input {
                errs.push("the file changed".into());
            }
            match live_entries(&ledger) {
                Ok(0) => {}
                Ok(n) => errs.push(format!("{n} live ledger entries after a refusal")),
                Err(e) => errs.push(e),
            }
            return if errs.is_empty() {
                Ok(())
            } else {
                Err(errs.join("\n    "))
            };
        }
        Expect::Placed => {}
    }
    if case.reason.is_some() {
        return Err("case.toml: a placed case takes no reason".into());
    }
    if code != 0 || data(&json)["status"] != "placed" {
        return Err(format!(
            "exit {code}, status {}, want 0/placed; {out}",
            data(&json)["status"]
        ));
    }
    let mut errs: Vec<String> = Vec::new();
    let p = &data(&json)["placement"];

    // The golden file.
    if blessing() {
        std::fs::write(&expected_path, &now).map_err(|e| format!("bless: {e}"))?;
    } else {
        match std::fs::read(&expected_path) {
            Ok(exp) if exp == now => {}
            Ok(exp) => errs.push(format!(
                "the file differs from expected.{ext} (PROBITY_BLESS=1 refreshes it): {}",
                first_difference(&exp, &now)
            )),
            Err(e) => errs.push(format!("expected.{ext}: {e} (PROBITY_BLESS=1 writes it)")),
        }
    }

    // The block span: inserted whole at a line start, hashed exactly.
    let block = p["block"].as_str().unwrap_or_default().as_bytes().to_vec();
    let offset = p["offset"].as_u64().unwrap_or(u64::MAX) as usize;
    let sha = p["block_sha256"].as_str().unwrap_or_default();
    if block.is_empty() || offset > input.len() {
        return Err(format!("placement lacks block/offset; {out}"));
    }
    let mut rebuilt = input[..offset].to_vec();
    rebuilt.extend_from_slice(&block);
    rebuilt.extend_from_slice(&input[offset..]);
    if rebuilt != now {
        errs.push("the file is not the input with the block inserted at `offset`".into());
    }
    let body_start = if input.starts_with(BOM) { BOM.len() } else { 0 };
    if offset < body_start || (offset > body_start && input[offset - 1] != b'\n') {
        errs.push(format!("offset {offset} is not at a line start"));
    }
    if now
        .get(offset..offset + block.len())
        .map(sha256_hex)
        .as_deref()
        != Some(sha)
    {
        errs.push("block_sha256 is not the SHA-256 of the span in the file".into());
    }
    if sha256_hex(&block) != sha {
        errs.push("block_sha256 is not the SHA-256 of `block`".into());
    }

    // Indentation and line ending of every block line: the anchor line's.
    let after = p["side"] == "after";
    let line_used = p["line_used"].as_u64().unwrap_or(0) as usize;
    let body = &input[body_start..];
    let n_lines = lines_with_eol(body).len();
    if line_used == 0 || line_used > n_lines {
        return Err(format!(
            "line_used {line_used} outside 1..={n_lines}; {out}"
        ));
    }
    // The block sits right before the anchor statement's first line, or right after its last
    // line; `line_used` names that line (docs/contracts.md §3).
    let lines_before = body[..offset - body_start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let want_before = if after { line_used } else { line_used - 1 };
    if lines_before != want_before {
        errs.push(format!(
            "the block follows input line {lines_before}, but line_used {line_used} ({}) puts it after line {want_before}",
            p["side"]
        ));
    }
    // Line ending: the anchor line's. Indentation: the anchor statement's first line's; for an
    // `after` placement only its last line is known here, whose indentation it must prefix.
    let (line_indent, eol) = line_style(&input, line_used);
    let indent = p["indent"].as_str().unwrap_or_default().to_owned();
    if !after && indent != line_indent {
        errs.push(format!(
            "indent {indent:?} reported, the anchor line has {line_indent:?}"
        ));
    }
    if after && !line_indent.starts_with(&indent) {
        errs.push(format!(
            "indent {indent:?} reported, the statement's last line has {line_indent:?}"
        ));
    }
    if p["eol"] != eol {
        errs.push(format!(
            "eol {} reported, the anchor line has {eol:?}",
            p["eol"]
        ));
    }
    let block_text = String::from_utf8_lossy(&block).into_owned();
    let block_lines: Vec<&str> = block_text.split_inclusive('\n').collect();
    for (i, l) in block_lines.iter().enumerate() {
        let content = l.strip_suffix(eol).filter(|c| !c.ends_with('\r'));
        match content {
            None => errs.push(format!(
                "block line {} does not end with {eol:?}: {l:?}",
                i + 1
            )),
            Some(c) if !c.is_empty() && !c.starts_with(&indent) => errs.push(format!(
                "block line {} lacks the indent {indent:?}: {l:?}",
                i + 1
            )),
            _ => {}
        }
    }
    let c = comment_token(&ext);
    let start = format!(
        "{indent}{c} gsd-debug-probe:start {} {}{eol}",
        case.slug, case.probe
    );
    let end = format!(
        "{indent}{c} gsd-debug-probe:end {} {}{eol}",
        case.slug, case.probe
    );
    if block_lines.first() != Some(&start.as_str()) {
        errs.push(format!(
            "first block line {:?}, want {start:?}",
            block_lines.first()
        ));
    }
    if block_lines.last() != Some(&end.as_str()) {
        errs.push(format!(
            "last block line {:?}, want {end:?}",
            block_lines.last()
        ));
    }

    // What the case pins about the answer.
    if let Some(l) = case.line_used
        && line_used != l
    {
        errs.push(format!("line_used {line_used}, want {l}"));
    }
    if let Some(s) = case.snapped
        && p["snapped"] != s
    {
        errs.push(format!("snapped {}, want {s}", p["snapped"]));
    }
    if let Some(f) = &case.function_reported
        && p["function"] != f.as_str()
    {
        errs.push(format!("function {}, want {f:?}", p["function"]));
    }
    if let Some(s) = &case.side
        && p["side"] != s.as_str()
    {
        errs.push(format!("side {}, want {s:?}", p["side"]));
    }

    // The same request again: the markers are already there.
    let (code2, json2, out2) = run_json(&mut place_cmd(&case, &file, &ledger));
    if code2 != 2 || json2["reason"] != "marker_collision" {
        errs.push(format!(
            "re-place: exit {code2}, reason {}, want 2/marker_collision; {out2}",
            json2["reason"]
        ));
    }
    if repo.read(&input_name) != now {
        errs.push("re-place changed the file".into());
    }

    // Strip gives the input back, byte for byte.
    let (code3, json3, out3) = run_json(
        probity()
            .arg("strip")
            .arg("--ledger")
            .arg(&ledger)
            .arg("--json"),
    );
    if code3 != 0 || data(&json3)["status"] != "clean" {
        errs.push(format!(
            "strip: exit {code3}, status {}, want 0/clean; {out3}",
            data(&json3)["status"]
        ));
    }
    if repo.read(&input_name) != input {
        errs.push("after strip the file differs from the input".into());
    }
    match live_entries(&ledger) {
        Ok(0) => {}
        Ok(n) => errs.push(format!("{n} live ledger entries after strip")),
        Err(e) => errs.push(e),
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n    "))
    }
}

#[test]
fn golden_corpus() {
    let all = case_dirs();
    let mut failures: Vec<String> = Vec::new();
    let mut counts = Vec::new();
    for (lang, dirs) in &all {
        counts.push(format!("{lang}: {}", dirs.len()));
        if dirs.len() < MIN_CASES_PER_LANGUAGE {
            failures.push(format!(
                "corpus/{lang}: {} cases, at least {MIN_CASES_PER_LANGUAGE} required",
                dirs.len()
            ));
        }
    }
    // Cases are independent (each has its own temporary repository): run them on all cores.
    let dirs: Vec<&PathBuf> = all.values().flatten().collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(4, |n| n.get() * 2)
        .min(16);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(dir) = dirs.get(i) else { break };
                    if let Err(e) = run_case(dir) {
                        let name = dir
                            .strip_prefix(repo_root())
                            .unwrap_or(dir)
                            .display()
                            .to_string();
                        results
                            .lock()
                            .unwrap()
                            .push((i, format!("{name}:\n    {e}")));
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort();
    failures.extend(results.into_iter().map(|(_, e)| e));
    assert!(
        failures.is_empty(),
        "{} golden case(s) failed ({}):\n\n{}",
        failures.len(),
        counts.join(", "),
        failures.join("\n\n")
    );
}

#[test]
fn golden_corpus_has_no_stray_files() {
    for (lang, dirs) in case_dirs() {
        for dir in dirs {
            let (_, ext) = input_of(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().into_owned();
                let known = name == "case.toml"
                    || name == format!("input.{ext}")
                    || name == format!("expected.{ext}");
                assert!(
                    known,
                    "corpus/{lang}/{}: unexpected file {name}",
                    dir.file_name().unwrap_or_default().to_string_lossy()
                );
            }
        }
    }
}
