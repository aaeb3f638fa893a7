//! Docs that run (issue 24 §5): every shell example of README.md, docs/session.md,
//! docs/place.md and docs/drift.md is run, in order, against the built binary (first on
//! `PATH`), and the output a document shows is compared with what the commands print, hashes
//! and line numbers included.
//!
//! The convention a document follows (every fenced block has a language):
//! - ```` ```console ````: `$ command` lines (a line ending in `\` goes on on the next), each
//!   followed by the output it prints (stdout and stderr together, as a terminal shows them). In
//!   an output line `[..]` stands for any text within the line, and a line `...` for any number
//!   of lines. A last output line `[exit N]` says the command exits `N`; otherwise it must exit 0.
//!   A command shown without output (but `[exit N]`) must print nothing, unless the document's
//!   next code block is a ```` ```json ```` block: that is then its output, compared as JSON
//!   (keys in any order but all of them; `…` in a string stands for any text; an object without
//!   a `command` key is the envelope's `data`). A here-document goes in a `sh` block.
//! - ```` ```sh ```` (or `bash`, `shell`): a script, run whole under `set -e`; its output is not
//!   compared. A block that starts with `#!` is a file's content (a hook): it is written to a
//!   file and executed.
//! - A shell block whose first line is `# not run by the docs test: REASON` is not run. The test
//!   asserts that the skipped blocks are exactly [`SKIPPED`], so none is skipped silently.
//! - A shell block whose first line is `# in the probity checkout` runs in the checkout (in a
//!   subshell); every other block runs where the document's own `cd` left the reader.
//! - Any other language (`json`, `text`, `yaml`, `rust`, `ts`, ...) is not shell and is not run;
//!   a block without a language, or one of another language that starts with `$ `, fails.
//!
//! A document runs in one bash process, as in a reader's terminal: variables, `cd` and `export`
//! carry from one block to the next. It starts in a copy of the checkout (`corpus/`, `scripts/`)
//! with a fixed environment, nothing of the caller's but `PATH` (after the binary's folder):
//! `HOME` and `TMPDIR` fresh folders (`~/src/` holds two small repositories, for
//! `verify ~/src/*`), `TZ=UTC`, a UTF-8 C locale, `NO_COLOR=1`, `TERM=dumb`, git's identity and
//! dates fixed, and `PROBITY_BIN` (so `scripts/demo.sh` runs the binary under test instead of
//! building one). Stdin is `/dev/null`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::util::{probity_bin, repo_root};

/// The blocks that are not run, by document and reason; the reason is the block's first line.
const SKIPPED: &[(&str, &str)] = &[
    (
        "README.md",
        "it runs the whole suite, the docs test included",
    ),
    ("README.md", "it installs probity"),
    (
        "README.md",
        "it needs pytest and a session with a fix (docs/accept.md; tests/accept_*.rs run each)",
    ),
];

const SKIP_MARK: &str = "# not run by the docs test: ";
const CHECKOUT_MARK: &str = "# in the probity checkout";
/// Begins the runner's own lines in the output (ASCII record separator).
const RS: char = '\u{1e}';
/// The longest a document may take before it is killed (a safety net, not a timing test).
const TIMEOUT: Duration = Duration::from_secs(300);

/// A fenced code block: its 1-based line, language and text.
struct Block {
    line: usize,
    lang: String,
    text: String,
}

fn blocks(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (ev, range) in Parser::new_ext(md, Options::ENABLE_TABLES).into_offset_iter() {
        match ev {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => {
                        info.split_whitespace().next().unwrap_or("").to_owned()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                let line = md[..range.start].matches('\n').count() + 1;
                open = Some(Block {
                    line,
                    lang,
                    text: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(b) = &mut open {
                    b.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(open.take()),
            _ => {}
        }
    }
    out
}

/// What the runner does with one step, and what it expects.
enum Expect {
    /// A console command: its output lines (with wildcards) and exit code.
    Text(Vec<String>, i32),
    /// A console command whose output is the next ```json block, and its exit code.
    Json(serde_json::Value, i32),
    /// A script: it must succeed; its output is not compared.
    Success,
}

struct Step {
    /// `doc:line` of the command or block.
    at: String,
    shown: String,
    expect: Expect,
}

/// A document's plan: the bash script and the steps it runs, and the blocks it skips.
#[derive(Default)]
struct Plan {
    script: String,
    steps: Vec<Step>,
    skipped: Vec<String>,
    problems: Vec<String>,
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A console block's commands: each command's text (continuation lines joined as written) and
/// the output lines shown after it.
fn console_commands(text: &str) -> Result<Vec<(usize, String, Vec<String>)>, String> {
    let mut out: Vec<(usize, String, Vec<String>)> = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        if let Some(cmd) = line.strip_prefix("$ ") {
            let mut cmd = cmd.to_owned();
            while cmd.ends_with('\\') {
                let Some((_, next)) = lines.next() else { break };
                cmd.push('\n');
                cmd.push_str(next);
            }
            out.push((i, cmd, Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.2.push(line.to_owned());
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            return Err(format!("output before the first `$ ` command: {line:?}"));
        }
    }
    Ok(out)
}

fn plan(doc: &str, md: &str, scratch: &Path) -> Plan {
    let mut p = Plan::default();
    let all = blocks(md);
    for (k, b) in all.iter().enumerate() {
        let at = |i: usize| format!("{doc}:{}", b.line + 1 + i);
        let first = b.text.lines().next().unwrap_or("");
        match b.lang.as_str() {
            "" => p
                .problems
                .push(format!("{}: a code block without a language", at(0))),
            "console" | "sh" | "bash" | "shell" => {}
            _ => {
                if b.text.starts_with("$ ") {
                    p.problems
                        .push(format!("{}: a transcript must be ```console", at(0)));
                }
                continue;
            }
        }
        if b.lang.is_empty() {
            continue;
        }
        if let Some(reason) = first.strip_prefix(SKIP_MARK) {
            p.skipped.push(reason.to_owned());
            continue;
        }
        let in_checkout = first == CHECKOUT_MARK;
        let (open, close) = if in_checkout {
            ("( cd \"$__checkout\"\n", "\n)")
        } else {
            ("{\n", "\n}")
        };
        if b.lang != "console" {
            let n = p.steps.len();
            let body = if b.text.starts_with("#!") {
                let file = scratch.join(format!("block-{n}"));
                std::fs::write(&file, &b.text).unwrap();
                let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
                std::fs::set_permissions(&file, mode).unwrap();
                quote(&file.display().to_string())
            } else {
                b.text.clone()
            };
            let _ = writeln!(
                p.script,
                "printf '\\036BEGIN {n}\\n'\n{open}{body}{close}\nprintf '\\n\\036END {n} 0\\n'"
            );
            p.steps.push(Step {
                at: at(0),
                shown: b.text.clone(),
                expect: Expect::Success,
            });
            continue;
        }
        let cmds = match console_commands(&b.text) {
            Ok(c) => c,
            Err(e) => {
                p.problems.push(format!("{}: {e}", at(0)));
                continue;
            }
        };
        let last = cmds.len().saturating_sub(1);
        for (j, (i, cmd, mut shown)) in cmds.into_iter().enumerate() {
            let n = p.steps.len();
            let mut code = 0;
            if let Some(c) = shown
                .last()
                .and_then(|l| l.strip_prefix("[exit ")?.strip_suffix(']'))
            {
                code = c.parse().unwrap_or(-1);
                shown.pop();
            }
            let json = all
                .get(k + 1)
                .filter(|n| n.lang == "json" && j == last && shown.is_empty());
            let expect = match json.map(|n| serde_json::from_str(&n.text)) {
                Some(Ok(v)) => Expect::Json(v, code),
                Some(Err(e)) => {
                    p.problems
                        .push(format!("{}: the json block after it: {e}", at(i)));
                    continue;
                }
                None => Expect::Text(shown, code),
            };
            let _ = writeln!(
                p.script,
                "printf '\\036BEGIN {n}\\n'\n__s=0\n{open}{cmd}{close} || __s=$?\nprintf '\\n\\036END {n} %d\\n' \"$__s\""
            );
            p.steps.push(Step {
                at: at(i),
                shown: cmd,
                expect,
            });
        }
    }
    p
}

/// Whether `line` matches `pat`, where `[..]` in `pat` stands for any text.
fn line_matches(pat: &str, line: &str) -> bool {
    glob(pat, line, "[..]")
}

fn glob(pat: &str, text: &str, any: &str) -> bool {
    let parts: Vec<&str> = pat.split(any).collect();
    if parts.len() == 1 {
        return pat == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(at) => rest = &rest[at + mid.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the output lines match the shown ones (`...` lines stand for any number of lines).
fn lines_match(shown: &[String], out: &[&str]) -> bool {
    match shown.first() {
        None => out.is_empty(),
        Some(s) if s == "..." => (0..=out.len()).any(|skip| lines_match(&shown[1..], &out[skip..])),
        Some(s) => {
            out.first().is_some_and(|o| line_matches(s, o)) && lines_match(&shown[1..], &out[1..])
        }
    }
}

/// Where the shown JSON differs from the printed one (empty: it matches).
fn json_diff(shown: &serde_json::Value, out: &serde_json::Value, path: &str) -> Vec<String> {
    use serde_json::Value as V;
    match (shown, out) {
        (V::Object(a), V::Object(b)) => {
            let mut diffs = Vec::new();
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                diffs.push(format!("{path}.{k}: shown, not printed"));
            }
            for k in b.keys().filter(|k| !a.contains_key(*k)) {
                diffs.push(format!("{path}.{k}: printed, not shown"));
            }
            for (k, v) in a.iter().filter(|(k, _)| b.contains_key(*k)) {
                diffs.extend(json_diff(v, &b[k], &format!("{path}.{k}")));
            }
            diffs
        }
        (V::Array(a), V::Array(b)) if a.len() == b.len() => (a.iter().zip(b).enumerate())
            .flat_map(|(i, (x, y))| json_diff(x, y, &format!("{path}[{i}]")))
            .collect(),
        (V::String(a), V::String(b)) if glob(a, b, "…") => Vec::new(),
        (a, b) if a == b => Vec::new(),
        (a, b) => vec![format!("{path}: {a} shown, {b} printed")],
    }
}

/// The fixed environment and the folders a document runs in.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let s = Scratch { dir };
        for d in ["bin", "home/src", "tmp", "probity/corpus"] {
            std::fs::create_dir_all(s.path(d)).unwrap();
        }
        std::os::unix::fs::symlink(probity_bin(), s.path("bin/probity")).unwrap();
        let root = repo_root();
        for d in ["corpus/examples", "corpus/e2e", "corpus/plans", "scripts"] {
            copy_tree(&root.join(d), &s.path("probity").join(d));
        }
        // Two repositories for `probity verify ~/src/*`.
        for (name, file) in [
            ("cart-py", "python/cart.py"),
            ("cart-js", "javascript/cart.js"),
        ] {
            let repo = s.path("home/src").join(name);
            std::fs::create_dir_all(repo.join(".git")).unwrap();
            std::fs::copy(
                root.join("corpus/examples").join(file),
                repo.join(Path::new(file).file_name().unwrap()),
            )
            .unwrap();
        }
        s
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn command(&self) -> std::process::Command {
        let mut c = std::process::Command::new("bash");
        let path = std::env::var("PATH").unwrap_or_default();
        c.env_clear()
            .env("PATH", format!("{}:{path}", self.path("bin").display()))
            .env("HOME", self.path("home"))
            .env("TMPDIR", self.path("tmp"))
            .env("TZ", "UTC")
            .env("LANG", "C.UTF-8")
            .env("LC_ALL", "C.UTF-8")
            .env("NO_COLOR", "1")
            .env("TERM", "dumb")
            .env("PROBITY_BIN", probity_bin())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "A Reader")
            .env("GIT_AUTHOR_EMAIL", "reader@example.org")
            .env("GIT_COMMITTER_NAME", "A Reader")
            .env("GIT_COMMITTER_EMAIL", "reader@example.org")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .current_dir(self.path("probity"))
            .stdin(std::process::Stdio::null());
        c
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Runs `script` with bash in the scratch environment, killed (its whole process group) after
/// [`TIMEOUT`]; its merged stdout and stderr, and whether it ended by itself.
fn run_script(s: &Scratch, script: &str) -> (String, Option<i32>) {
    use std::os::unix::process::CommandExt;
    let file = s.path("doc.sh");
    std::fs::write(&file, script).unwrap();
    let out = std::fs::File::create(s.path("doc.out")).unwrap();
    let mut child = s
        .command()
        .arg(&file)
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .process_group(0)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > TIMEOUT {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        String::from_utf8_lossy(&std::fs::read(s.path("doc.out")).unwrap()).into_owned(),
        status,
    )
}

/// Step `n`'s output and exit code in the shell's output: `None` when it never began, a `None`
/// code when it began but did not end (the shell exited in it).
fn step_output(out: &str, n: usize) -> Option<(String, Option<i32>)> {
    let begin = format!("{RS}BEGIN {n}\n");
    let rest = &out[out.find(&begin)? + begin.len()..];
    let end = format!("\n{RS}END {n} ");
    let Some(e) = rest.find(&end) else {
        return Some((rest.to_owned(), None));
    };
    let code = rest[e + end.len()..]
        .lines()
        .next()
        .and_then(|c| c.parse().ok());
    Some((rest[..e].to_owned(), code))
}

/// What is wrong with a step's output and exit code, if anything.
fn check(expect: &Expect, text: &str, code: i32) -> Option<String> {
    match expect {
        Expect::Success if code != 0 => Some("the block failed".to_owned()),
        Expect::Success => None,
        Expect::Text(shown, want) => {
            let lines: Vec<&str> = text.lines().collect();
            if code == *want && lines_match(shown, &lines) {
                return None;
            }
            let shown = shown.join("\n") + "\n";
            let diff = similar::TextDiff::from_lines(&shown, text);
            let diff = diff.unified_diff().header("shown", "printed").to_string();
            Some(format!(
                "the output or the exit code ({want} shown) differ:\n{diff}"
            ))
        }
        Expect::Json(shown, want) => {
            let v: serde_json::Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => return Some(format!("not JSON: {e}")),
            };
            let v = match (shown.get("command"), v.get("data")) {
                (None, Some(data)) => data.clone(),
                _ => v,
            };
            let diffs = json_diff(shown, &v, "$");
            if code != *want {
                Some(format!("exit code {code}, {want} shown"))
            } else if diffs.is_empty() {
                None
            } else {
                Some(diffs.join("\n"))
            }
        }
    }
}

/// Runs the document `doc` (its text `md`): the problems found, and the reasons of the blocks
/// it skipped.
fn run_doc(doc: &str, md: &str) -> (Vec<String>, Vec<String>) {
    let s = Scratch::new();
    let mut p = plan(doc, md, s.dir.path());
    let checkout = quote(&s.path("probity").display().to_string());
    let script = format!(
        "set -e\n__checkout={checkout}\n{}printf '\\036DONE\\n'\n",
        p.script
    );
    let (out, status) = run_script(&s, &script);
    for (n, step) in p.steps.iter().enumerate() {
        let Some((text, code)) = step_output(&out, n) else {
            let why = format!("the document's shell ended ({status:?}) before it");
            p.problems.push(format!("{}: not reached: {why}", step.at));
            break;
        };
        let why = match code {
            Some(code) => check(&step.expect, &text, code),
            None => Some("the document's shell exited in it".to_owned()),
        };
        if let Some(why) = why {
            let code = code.map_or("?".to_owned(), |c| c.to_string());
            let (at, shown) = (&step.at, &step.shown);
            p.problems.push(format!(
                "{at}: {why}\n$ {shown}\n--- printed (exit {code}):\n{text}"
            ));
        }
    }
    if p.problems.is_empty() && !out.ends_with(&format!("{RS}DONE\n")) {
        p.problems.push(format!(
            "{doc}: the shell did not finish ({status:?}):\n{out}"
        ));
    }
    (p.problems, p.skipped)
}

fn run_file(rel: &str) -> Vec<String> {
    let md = std::fs::read_to_string(repo_root().join(rel)).unwrap();
    let (problems, skipped) = run_doc(rel, &md);
    assert!(
        problems.is_empty(),
        "{rel} does not run as written:\n\n{}",
        problems.join("\n\n")
    );
    skipped
}

#[test]
fn the_readme_runs_as_written() {
    let skipped = run_file("README.md");
    let mut want: Vec<&str> = SKIPPED
        .iter()
        .filter(|(d, _)| *d == "README.md")
        .map(|(_, r)| *r)
        .collect();
    let mut got: Vec<&str> = skipped.iter().map(String::as_str).collect();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(
        got, want,
        "the README's skipped blocks are not the listed ones (SKIPPED)"
    );
}

#[test]
fn the_session_walkthrough_runs_as_written() {
    let skipped = run_file("docs/session.md");
    assert!(skipped.is_empty(), "docs/session.md skips {skipped:?}");
}

#[test]
fn the_place_page_runs_as_written() {
    let skipped = run_file("docs/place.md");
    assert!(skipped.is_empty(), "docs/place.md skips {skipped:?}");
}

#[test]
fn the_drift_page_runs_as_written() {
    let skipped = run_file("docs/drift.md");
    assert!(skipped.is_empty(), "docs/drift.md skips {skipped:?}");
}

/// The runner itself: each rule can fail.
#[test]
fn a_wrong_output_exit_code_or_json_fails() {
    let md = "```console\n$ echo 'sha 1234'\nsha 1234\n$ echo two; echo three\n...\nthree\n$ false\n[exit 1]\n$ printf 'a b c'\na [..] c\n```\n\n```sh\ncd /\nx=1\n```\n\n```console\n$ echo \"$x $PWD\"\n1 /\n```\n\n\
              ```console\n# in the probity checkout\n$ ls corpus/examples/python\ncart.py\n```\n";
    assert_eq!(run_doc("ok.md", md).0, Vec::<String>::new());
    let bad = [
        "```console\n$ echo 'sha 1234'\nsha 1235\n```\n",
        "```console\n$ echo hi\n```\n",
        "```console\n$ false\n```\n",
        "```console\n$ true\n[exit 2]\n```\n",
        "```console\n$ printf 'a\\nb\\n'\na[..]b\n```\n",
        "```console\n$ echo '{\"data\":{\"a\":\"xyz\",\"b\":1}}'\n```\n\n```json\n{\"a\": \"x…\"}\n```\n",
        "```console\n$ echo '{\"data\":{\"a\":\"xyz\"}}'\n```\n\n```json\n{\"a\": \"y…\"}\n```\n",
        "```sh\nfalse\necho after\n```\n",
        "```\n$ echo hi\nhi\n```\n",
        "```text\n$ echo hi\nhi\n```\n",
        "```console\n$ echo 'unclosed\n```\n\n```console\n$ true\n```\n",
        "```console\n$ true\n[exit x]\n```\n",
        "```sh\nexit 0\n```\n\n```console\n$ true\n```\n",
    ];
    std::thread::scope(|scope| {
        for bad in bad {
            scope.spawn(move || assert!(!run_doc("bad.md", bad).0.is_empty(), "passed:\n{bad}"));
        }
    });
    let (problems, skipped) = run_doc("skip.md", &format!("```sh\n{SKIP_MARK}why\nfalse\n```\n"));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(skipped, ["why"]);
}
