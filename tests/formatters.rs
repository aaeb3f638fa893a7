//! Formatters and strip (docs/probes.md): blocks carry the pragmas black, ruff format, prettier
//! and rustfmt honour, and strip survives a formatter that changed a block's whitespace anyway.
//!
//! - With the real formatters, on every placed file of the golden corpus: the formatter leaves
//!   the block byte-identical (where it keeps the file's line endings and indentation style;
//!   where it converts CRLF or tabs, the block's tokens are unchanged), and strip of the
//!   formatted file removes exactly the block. Formatters: `black`, `ruff` (`PROBITY_BLACK`,
//!   `PROBITY_RUFF`, else `<repo>/target/fmt-venv/bin/`, else PATH), `prettier`
//!   (`<repo>/node_modules/.bin/prettier`, pinned in package.json), `rustfmt` (the toolchain's).
//!   A formatter that is not installed skips its part with a message, unless
//!   `PROBITY_REQUIRE_FORMATTERS=1` (set by `.ci/run`, which installs them pinned): then it fails.
//! - Without tools: the ledger records the block's token hash; a block re-indented, re-wrapped
//!   or converted to CRLF is stripped and reported `reformatted`; any token change is refused
//!   `block_hash_mismatch`; ledgers written by the previous templates (no token hash, fixtures
//!   in tests/fixtures/legacy-v1 made with the binary of the commit before compact blocks) still
//!   strip byte-exactly.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sha2::{Digest, Sha256};

use probity::source::Source;
use probity::strip::{Outcome, Target, token_sha256};

use crate::util::{Repo, data, lang_of, probity, repo_root};

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The byte range of the block of `slug`/`probe` in `text`: from its start marker line through
/// its end marker line's terminator (markers found as whole lines, so marker text in strings is
/// not taken).
fn block_span(
    text: &str,
    comment: &str,
    slug: &str,
    probe: &str,
) -> Option<std::ops::Range<usize>> {
    let start = format!("{comment} gsd-debug-probe:start {slug} {probe}");
    let end = format!("{comment} gsd-debug-probe:end {slug} {probe}");
    let mut at = 0;
    let mut from = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t == start && from.is_none() {
            from = Some(at);
        }
        if let (true, Some(f)) = (t == end, from) {
            return Some(f..at + line.len());
        }
        at += line.len();
    }
    None
}

/// Strip `slug`/`probe` from `bytes` (a file named `path`) with both ledgered hashes.
fn strip_with(
    path: &str,
    bytes: &[u8],
    slug: &str,
    probe: &str,
    hashes: (&str, &str),
) -> (Outcome, Option<Vec<u8>>) {
    let (lang, grammar) = lang_of(path);
    let source = Source::new(bytes.to_vec()).expect("valid source");
    let plan = probity::strip::strip(
        lang,
        grammar,
        &source,
        &[Target {
            slug: slug.to_owned(),
            probe: probe.to_owned(),
            expected_sha256: hashes.0.to_owned(),
            expected_token_sha256: Some(hashes.1.to_owned()),
        }],
    );
    (plan.outcomes[0].clone(), plan.new_bytes)
}

// ---------------------------------------------------------------------------------------------
// Token hash, without external tools
// ---------------------------------------------------------------------------------------------

const PY: &str = "def f(a, b):\n    c = a + b\n    return c\n";

fn place_py(repo: &Repo) -> Value {
    repo.write("m.py", PY);
    let out = probity()
        .current_dir(repo.path())
        .args([
            "place", "m.py", "--line", "3", "--slug", "fmt", "--probe", "p1",
        ])
        .args([
            "--hypothesis",
            "h1",
            "--message",
            "state",
            "--capture",
            "c=c",
        ])
        .arg("--ledger")
        .arg(repo.ledger())
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    crate::util::parse_output(&String::from_utf8_lossy(&out.stdout))
}

fn strip_json(repo: &Repo) -> (i32, Value) {
    let out = probity()
        .current_dir(repo.path())
        .arg("strip")
        .arg("--ledger")
        .arg(repo.ledger())
        .arg("--json")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        crate::util::parse_output(&String::from_utf8_lossy(&out.stdout)),
    )
}

#[test]
fn the_ledger_records_the_blocks_token_hash() {
    let repo = Repo::new();
    let v = place_py(&repo);
    let block = data(&v)["placement"]["block"].as_str().unwrap();
    let l: Value =
        serde_json::from_slice(&repo.read(".planning/debug/test.evidence.json")).unwrap();
    let (lang, grammar) = lang_of("m.py");
    assert_eq!(
        l["probes"][0]["expected_block_token_sha256"].as_str(),
        token_sha256(lang, grammar, block).as_deref()
    );
}

#[test]
fn a_reindented_crlf_block_strips_as_reformatted() {
    let repo = Repo::new();
    place_py(&repo);
    let placed = String::from_utf8(repo.read("m.py")).unwrap();
    // What a formatter that leaves the tokens alone may do: re-indent (4 -> 2 spaces per level)
    // and convert the whole file to CRLF.
    let reformatted: String = placed
        .lines()
        .map(|l| {
            let body = l.trim_start_matches(' ');
            format!("{}{body}\r\n", " ".repeat((l.len() - body.len()) / 2))
        })
        .collect();
    repo.write("m.py", &reformatted);
    let (code, v) = strip_json(&repo);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["status"], "clean", "{v}");
    assert_eq!(data(&v)["probes"][0]["outcome"], "removed", "{v}");
    assert_eq!(data(&v)["probes"][0]["reformatted"], true, "{v}");
    let want: String = PY
        .lines()
        .map(|l| {
            let body = l.trim_start_matches(' ');
            format!("{}{body}\r\n", " ".repeat((l.len() - body.len()) / 2))
        })
        .collect();
    assert_eq!(String::from_utf8(repo.read("m.py")).unwrap(), want);
}

#[test]
fn a_block_with_a_changed_token_is_refused() {
    for edit in [
        ("(\"c\", c),", "(\"c\", c + 1),"),
        ("\"__GSDDBG1_rt1__\", {})", "\"__GSDDBG1_rt1__\", {1: 1})"),
        ("# fmt: on", "# fmt: on  # mine"),
    ] {
        let repo = Repo::new();
        place_py(&repo);
        let placed = String::from_utf8(repo.read("m.py")).unwrap();
        assert!(placed.contains(edit.0), "{}", edit.0);
        let changed = placed.replace(edit.0, edit.1).replace('\n', "\r\n");
        repo.write("m.py", &changed);
        let (code, v) = strip_json(&repo);
        assert_eq!(code, 1, "{v}");
        assert_eq!(
            data(&v)["probes"][0]["reason"],
            "block_hash_mismatch",
            "{v}"
        );
        assert_eq!(
            repo.read("m.py"),
            changed.as_bytes(),
            "the file is untouched"
        );
    }
}

#[test]
fn ledgers_of_the_previous_templates_still_strip() {
    let fixtures = repo_root().join("tests/fixtures/legacy-v1");
    let repo = Repo::new();
    for f in ["cart.py", "cart.js", "cart.ts", "cart.rs"] {
        repo.write(f, std::fs::read(fixtures.join(f)).unwrap());
    }
    repo.write(
        ".planning/debug/test.evidence.json",
        std::fs::read(fixtures.join("legacy.evidence.json")).unwrap(),
    );
    let l: Value =
        serde_json::from_slice(&repo.read(".planning/debug/test.evidence.json")).unwrap();
    assert!(
        l["probes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p.get("expected_block_token_sha256").is_none()),
        "the fixture predates the token hash"
    );
    assert!(
        String::from_utf8(repo.read("cart.py"))
            .unwrap()
            .contains("exec("),
        "the fixture has a block of the previous template"
    );
    let (code, v) = strip_json(&repo);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["status"], "clean", "{v}");
    for (f, lang) in [
        ("cart.py", "python"),
        ("cart.js", "javascript"),
        ("cart.ts", "typescript"),
        ("cart.rs", "rust"),
    ] {
        let original =
            std::fs::read(repo_root().join("corpus/examples").join(lang).join(f)).unwrap();
        assert!(
            repo.read(f) == original,
            "{f} is the example again, byte for byte"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Real formatters on the golden corpus
// ---------------------------------------------------------------------------------------------

/// A formatter: its name, the languages it formats, and how to run it on one file.
struct Formatter {
    name: &'static str,
    langs: &'static [&'static str],
    program: Option<PathBuf>,
    args: &'static [&'static str],
}

fn runs(p: &Path) -> bool {
    Command::new(p)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `env` if set, else the first of `candidates` that runs.
fn find(env: &str, candidates: &[PathBuf]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    candidates.iter().find(|p| runs(p)).cloned()
}

fn formatters() -> Vec<Formatter> {
    let venv = repo_root().join("target/fmt-venv/bin");
    vec![
        Formatter {
            name: "black",
            langs: &["python"],
            program: find("PROBITY_BLACK", &[venv.join("black"), "black".into()]),
            args: &["-q"],
        },
        Formatter {
            name: "ruff format",
            langs: &["python"],
            program: find("PROBITY_RUFF", &[venv.join("ruff"), "ruff".into()]),
            args: &["format", "-q", "--no-cache"],
        },
        Formatter {
            name: "prettier",
            langs: &["javascript", "typescript"],
            program: find(
                "PROBITY_PRETTIER",
                &[crate::util::node_modules().join(".bin/prettier")],
            ),
            args: &["--write", "--log-level", "silent"],
        },
        Formatter {
            name: "rustfmt",
            langs: &["rust"],
            program: find("PROBITY_RUSTFMT", &["rustfmt".into()]),
            args: &["--edition", "2021"],
        },
    ]
}

/// Run `f` on a copy of `bytes` named `name`; the formatted bytes, or `None` if it refused.
fn format(f: &Formatter, program: &Path, name: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    let ok = Command::new(program)
        .args(f.args)
        .arg(&p)
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", f.name))
        .status
        .success();
    ok.then(|| std::fs::read(&p).unwrap())
}

fn case_field(toml: &str, key: &str) -> String {
    toml.lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| panic!("{key} in case.toml"))
}

#[test]
fn real_formatters_leave_blocks_alone_and_strip_removes_exactly_the_block() {
    let required = std::env::var_os("PROBITY_REQUIRE_FORMATTERS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for f in formatters() {
        let Some(program) = f.program.clone().filter(|p| runs(p)) else {
            assert!(
                !required,
                "{} is required (PROBITY_REQUIRE_FORMATTERS=1) but does not run",
                f.name
            );
            eprintln!(
                "formatters: {} is not installed: its part is skipped (.ci/run installs it)",
                f.name
            );
            continue;
        };
        let (mut kept, mut tokens_only, mut refused, mut as_original) = (0, 0, 0, 0);
        let mut differs = Vec::new();
        for lang in f.langs {
            let mut cases: Vec<PathBuf> = std::fs::read_dir(repo_root().join("corpus").join(lang))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_dir())
                .collect();
            cases.sort();
            for case in cases {
                let Some(expected) = std::fs::read_dir(&case)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .find(|p| p.file_stem().is_some_and(|s| s == "expected"))
                else {
                    continue;
                };
                let ext = expected.extension().unwrap().to_string_lossy().into_owned();
                let input = case.join(format!("input.{ext}"));
                let toml = std::fs::read_to_string(case.join("case.toml")).unwrap();
                let (slug, probe) = (case_field(&toml, "slug"), case_field(&toml, "probe"));
                let name = format!("input.{ext}");
                let (lang_spec, grammar) = lang_of(&name);
                let comment = lang_spec.spec.comment.clone();
                let placed = std::fs::read(&expected).unwrap();
                let id = format!(
                    "{} {}",
                    f.name,
                    case.strip_prefix(repo_root()).unwrap().display()
                );
                let text = String::from_utf8(placed.clone()).unwrap();
                let span = block_span(&text, &comment, &slug, &probe).expect("the block");
                let block = &text[span];
                let hashes = (
                    sha(block.as_bytes()),
                    token_sha256(lang_spec, grammar, block).unwrap(),
                );
                let original = std::fs::read(&input).unwrap();
                let (Some(fmt_placed), Some(fmt_original)) = (
                    format(&f, &program, &name, &placed),
                    format(&f, &program, &name, &original),
                ) else {
                    refused += 1;
                    continue;
                };
                let fmt_text = String::from_utf8(fmt_placed.clone()).unwrap();
                let Some(fspan) = block_span(&fmt_text, &comment, &slug, &probe) else {
                    failures.push(format!("{id}: the markers are gone"));
                    continue;
                };
                let same = &fmt_text[fspan.clone()] == block;
                let (outcome, stripped) =
                    strip_with(&name, &fmt_placed, &slug, &probe, (&hashes.0, &hashes.1));
                let Outcome::Removed { reformatted, .. } = outcome else {
                    failures.push(format!("{id}: strip refused: {outcome:?}"));
                    continue;
                };
                if same {
                    kept += 1;
                } else {
                    tokens_only += 1;
                    let normalizes = text.contains("\r\n") || text.contains('\t');
                    if !normalizes {
                        failures.push(format!(
                            "{id}: the formatter changed the block:\n{}\n---\n{}",
                            block,
                            &fmt_text[fspan.clone()]
                        ));
                    }
                }
                if reformatted == same {
                    failures.push(format!(
                        "{id}: reformatted = {reformatted}, block same = {same}"
                    ));
                }
                let mut want = fmt_placed.clone();
                want.drain(fspan.clone());
                if stripped.as_deref() != Some(&want[..]) {
                    failures.push(format!("{id}: strip did not remove exactly the block"));
                }
                if want == fmt_original {
                    as_original += 1;
                } else {
                    differs.push(id.clone());
                }
            }
        }
        eprintln!(
            "formatters: {}: {kept} blocks byte-identical, {tokens_only} changed in whitespace \
             only (CRLF or tab files) and stripped as reformatted, {refused} inputs the \
             formatter refuses; after strip {as_original} files equal the formatted original \
             (differ: {differs:?})",
            f.name
        );
        assert!(kept > 20, "{}: only {kept} cases kept their block", f.name);
        // black and ruff want a blank line after the last `from __future__` import: with the
        // block placed right after it, the blank line comes after the block instead of before
        // the next statement, and stays there when the block is stripped (outside the block;
        // the strip itself is exact). Every other file strips to the formatted original.
        for d in &differs {
            assert!(
                d.ends_with("after_line_future_import"),
                "{d}: after strip the file differs from the formatted original"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
