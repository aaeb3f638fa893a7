//! The conventions users expect of a command-line tool (issue 13 §3): shell completions and man
//! pages generated from the parser, global `--quiet` / `--verbose` / `--color` (with `NO_COLOR`),
//! `verify --output-format text|json|sarif|github|gitlab`, `--sarif -`, and the pre-commit
//! manifest.

use std::path::Path;
use std::process::Command;

use crate::util::{Repo, probity, probity_bin};

const ESC: char = '\u{1b}';

/// A repository with one finding: a residue token in a file whose name needs escaping in
/// GitHub workflow-command properties (`%`, `,`, `:`).
fn repo_with_finding() -> Repo {
    let repo = Repo::new();
    repo.write("src/a%b,c:d.sh", "echo hi\necho GSDDBG1\n");
    repo
}

fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = probity()
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn completions_are_generated_from_the_parser() {
    let (code, bash, _) = run_in(Path::new("."), &["completions", "bash"]);
    assert_eq!(code, 0);
    for word in [
        "verify",
        "drift",
        "session",
        "completions",
        "man",
        "--output-format",
        "--sarif",
        "--color",
        "--quiet",
        "--verbose",
        "github",
        "gitlab",
    ] {
        assert!(bash.contains(word), "bash completions lack {word}");
    }
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &bash).unwrap();
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(file.path())
        .output()
        .unwrap();
    assert!(
        syntax.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (code, text, _) = run_in(Path::new("."), &["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(
            text.contains("verify") && text.contains("output-format"),
            "{shell}"
        );
    }
    let (code, _, err) = run_in(Path::new("."), &["completions", "tcsh"]);
    assert_eq!(code, 2, "an unknown shell is a usage error: {err}");
}

#[test]
fn man_page_is_roff_and_names_the_subcommands() {
    let (code, page, _) = run_in(Path::new("."), &["man"]);
    assert_eq!(code, 0);
    assert!(page.contains(".TH probity 1"), "{page}");
    assert!(page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"));
    for sub in ["verify", "drift", "session", "completions", "man"] {
        assert!(page.contains(sub), "man page lacks {sub}");
    }
    // `man -l` renders it, when man is installed.
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &page).unwrap();
    if let Ok(out) = Command::new("man")
        .arg("-l")
        .arg(file.path())
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
    {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("NAME") && text.contains("probity"), "{text}");
    }

    // `--dir`: one page per command, subcommands of subcommands included.
    let dir = tempfile::tempdir().unwrap();
    let (code, listed, _) = run_in(dir.path(), &["man", "--dir", "."]);
    assert_eq!(code, 0);
    for name in [
        "probity.1",
        "probity-verify.1",
        "probity-session-init.1",
        "probity-completions.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert!(text.starts_with(".ie") || text.contains(".TH"), "{name}");
        assert!(listed.contains(name), "{listed}");
    }
    use std::os::unix::fs::PermissionsExt;
    let umask = Command::new("sh")
        .current_dir(dir.path())
        .arg("-c")
        .arg("umask 022 && exec \"$0\" man --dir . --quiet")
        .arg(probity_bin())
        .status()
        .unwrap();
    assert!(umask.success());
    let mode = std::fs::metadata(dir.path().join("probity.1"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o044,
        0o044,
        "pages are readable by all (umask 022): {mode:o}"
    );
    let (code, listed, _) = run_in(dir.path(), &["man", "--dir", ".", "--quiet"]);
    assert_eq!((code, listed.as_str()), (0, ""));
    let (code, _, err) = run_in(dir.path(), &["man", "--dir", "nowhere"]);
    assert_eq!(code, 2);
    assert!(err.contains("not_a_directory"), "{err}");
}

/// `s` without probity's SGR sequences (`ESC [ digits;... m`).
fn strip_sgr(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(ESC) {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let end = tail
            .strip_prefix('[')
            .and_then(|t| t.find('m').map(|m| m + 2))
            .filter(|&m| {
                tail[1..m - 1]
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b';')
            })
            .unwrap_or_else(|| panic!("a non-SGR escape in {s:?}"));
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn color_flag_and_piped_default() {
    let repo = repo_with_finding();
    let (code, always, _) = run_in(repo.path(), &["verify", ".", "--color", "always"]);
    assert_eq!(code, 1, "colors do not change the exit code");
    assert!(always.contains(ESC), "{always:?}");
    assert!(
        always.contains("\u{1b}[31mresidue_without_markers\u{1b}[0m"),
        "{always:?}"
    );
    let (_, never, _) = run_in(repo.path(), &["verify", ".", "--color", "never"]);
    let (_, piped, _) = run_in(repo.path(), &["verify", "."]);
    assert!(
        !never.contains(ESC) && !piped.contains(ESC),
        "{never:?} {piped:?}"
    );
    assert_eq!(strip_sgr(&always), never, "color only wraps the same text");
    let out = probity()
        .current_dir(repo.path())
        .env("NO_COLOR", "1")
        .args(["verify", ".", "--color", "always"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout).unwrap().contains(ESC),
        "an explicit --color always wins over NO_COLOR"
    );
}

#[test]
fn untrusted_names_stay_escaped_under_color() {
    let repo = Repo::new();
    repo.write("x\u{1b}[2Jy.sh", "echo GSDDBG1\n");
    let (code, out, _) = run_in(repo.path(), &["verify", ".", "--color", "always"]);
    assert_eq!(code, 1);
    // Every escape sequence is one of probity's SGR codes; the name's ESC is shown escaped.
    let plain = strip_sgr(&out);
    assert!(
        plain.contains("x\\u{1b}[2Jy.sh:1: residue_without_markers"),
        "{plain}"
    );
}

/// Run `probity ARGS` under a pseudo-terminal (util-linux `script`), stderr discarded; `None`
/// when `script` is not installed.
fn in_terminal(dir: &Path, args: &str, no_color: Option<&str>) -> Option<String> {
    let cmd = format!("{} {args} 2>/dev/null", probity_bin().display());
    let mut c = Command::new("script");
    c.current_dir(dir)
        .args(["-qec", &cmd, "/dev/null"])
        .env("TERM", "xterm-256color")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR");
    if let Some(v) = no_color {
        c.env("NO_COLOR", v);
    }
    let out = c.output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn auto_color_follows_the_terminal_and_no_color() {
    let repo = repo_with_finding();
    let Some(tty) = in_terminal(repo.path(), "verify .", None) else {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    };
    assert!(tty.contains(ESC), "a terminal gets color: {tty:?}");
    let no = in_terminal(repo.path(), "verify .", Some("1")).unwrap();
    assert!(
        no.contains("residue_without_markers") && !no.contains(ESC),
        "{no:?}"
    );
    let empty = in_terminal(repo.path(), "verify .", Some("")).unwrap();
    assert!(
        empty.contains(ESC),
        "an empty NO_COLOR does not disable color"
    );
    let never = in_terminal(repo.path(), "verify . --color never", None).unwrap();
    assert!(!never.contains(ESC), "{never:?}");
    // The spinner (stderr, a terminal) is progress: --quiet drops it.
    let both = |args: &str| {
        let cmd = format!("{} {args}", probity_bin().display());
        let out = Command::new("script")
            .current_dir(repo.path())
            .args(["-qec", &cmd, "/dev/null"])
            .env("TERM", "xterm-256color")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // (The spinner's first frame is drawn by its ticker thread, which a loaded machine may not
    // schedule before a tiny walk ends: one frame in five runs is enough.)
    assert!((0..5).any(|_| both("verify .").contains("files checked")));
    let quiet = both("verify . --quiet");
    assert!(quiet.contains("residue_without_markers") && !quiet.contains("files checked"));
    // clap's own help follows --color too.
    let help = in_terminal(repo.path(), "--help", None).unwrap();
    assert!(help.contains(ESC), "{help:?}");
    let help = in_terminal(repo.path(), "--color=never --help", None).unwrap();
    assert!(help.contains("Usage:") && !help.contains(ESC), "{help:?}");
}

#[test]
fn drift_verdicts_and_gate_status_are_colored() {
    let repo = Repo::new();
    repo.write("m.py", "def present():\n    pass\n");
    repo.write("PLAN.md", "Call `present()` and `absent_fn()`.\n");
    repo.write(".planning/debug/.keep", "");
    let cache = tempfile::tempdir().unwrap();
    let c = cache.path().to_str().unwrap();
    let args = [
        "drift",
        "--plan",
        "PLAN.md",
        "--root",
        ".",
        "--cache-dir",
        c,
    ];
    let (_, plain, _) = run_in(repo.path(), &args);
    let mut colored_args = args.to_vec();
    colored_args.extend(["--color", "always"]);
    let (_, colored, _) = run_in(repo.path(), &colored_args);
    assert!(
        plain.contains("| VERIFIED |") && !plain.contains(ESC),
        "{plain}"
    );
    assert!(
        colored.contains("\u{1b}[32mVERIFIED\u{1b}[0m"),
        "{colored:?}"
    );
    assert!(
        colored.contains("\u{1b}[31mMISSING\u{1b}[0m"),
        "{colored:?}"
    );
    assert_eq!(strip_sgr(&colored), plain);
    let mut verbose_args = args.to_vec();
    verbose_args.push("--verbose");
    let (_, verbose, err) = run_in(repo.path(), &verbose_args);
    assert_eq!(verbose, plain, "verbose details go to stderr");
    assert!(
        err.contains("drift: 2 symbol(s) checked, 0 skipped, in "),
        "{err}"
    );

    let (code, gate, _) = run_in(repo.path(), &["gate", "--root", ".", "--color", "always"]);
    assert_eq!(code, 0);
    assert!(gate.contains("\u{1b}[32mgate: pass\u{1b}[0m"), "{gate:?}");
    // Blocking reasons (stderr) are red; `never` leaves them plain.
    let init = ["session", "init", "--slug", "g", "--policy", "adaptive"];
    assert_eq!(run_in(repo.path(), &init).0, 0);
    let start = [
        "run", "start", "--slug", "g", "--phase", "baseline", "--label", "x",
    ];
    assert_eq!(run_in(repo.path(), &start).0, 0);
    let (code, _, err) = run_in(repo.path(), &["gate", "--root", ".", "--color", "always"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(": \u{1b}[1m\u{1b}[31mactive_run\u{1b}[0m: run-1 never finished"),
        "{err:?}"
    );
    let (code, _, err) = run_in(repo.path(), &["gate", "--root", ".", "--color", "never"]);
    assert_eq!(code, 1);
    assert!(err.contains(": active_run: run-1 never finished") && !err.contains(ESC));
    assert_eq!(run_in(repo.path(), &["run", "finish", "--slug", "g"]).0, 0);
    let (code, out, _) = run_in(
        repo.path(),
        &["cleanup", "--slug", "g", "--color", "always"],
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with("session g: \u{1b}[1m\u{1b}[32mclean\u{1b}[0m\n"),
        "{out:?}"
    );
}

#[test]
fn quiet_and_verbose() {
    let repo = repo_with_finding();
    let (code, normal, _) = run_in(repo.path(), &["verify", "."]);
    let (qcode, quiet, qerr) = run_in(repo.path(), &["--quiet", "verify", "."]);
    assert_eq!((code, qcode), (1, 1));
    assert!(normal.contains("files scanned"));
    assert!(!quiet.contains("files scanned"), "{quiet}");
    assert!(
        quiet.contains("src/a%b,c:d.sh:2: residue_without_markers"),
        "{quiet}"
    );
    assert!(quiet.contains("verify: 1 finding(s)"), "{quiet}");
    assert_eq!(qerr, "");
    // Global: accepted after the subcommand too, short form included.
    let (_, quiet2, _) = run_in(repo.path(), &["verify", ".", "-q"]);
    assert_eq!(quiet, quiet2);

    let (vcode, verbose, verr) = run_in(repo.path(), &["verify", ".", "--verbose"]);
    assert_eq!(vcode, 1);
    assert_eq!(verbose, normal, "verbose details go to stderr");
    assert!(
        verr.contains(" ms, ") && verr.contains("thread(s)"),
        "{verr}"
    );
    assert!(
        verr.contains("1 files scanned, 1 with a token hit"),
        "{verr}"
    );

    let (code, _, err) = run_in(repo.path(), &["verify", ".", "-q", "-v"]);
    assert_eq!(code, 2, "--quiet and --verbose conflict: {err}");

    // index: its stderr count line is non-essential.
    let cache = tempfile::tempdir().unwrap();
    let c = cache.path().to_str().unwrap();
    repo.write("m.py", "def f():\n    pass\n");
    let (code, _, err) = run_in(repo.path(), &["index", "--root", ".", "--cache-dir", c]);
    assert_eq!(code, 0);
    assert!(err.contains("declarations"), "{err}");
    let (_, _, err) = run_in(
        repo.path(),
        &["index", "--root", ".", "--cache-dir", c, "-q"],
    );
    assert_eq!(err, "");

    // run start: the exports are the result, the how-to line on stderr is a hint.
    let init = ["session", "init", "--slug", "s", "--policy", "adaptive"];
    assert_eq!(run_in(repo.path(), &init).0, 0);
    let start = [
        "run", "start", "--slug", "s", "--phase", "baseline", "--label", "x",
    ];
    let (code, out, err) = run_in(repo.path(), &start);
    assert_eq!(code, 0);
    assert!(out.contains("export GSD_DEBUG_PROBE_SINK="), "{out}");
    assert!(err.contains("run-1 started"), "{err}");
    assert_eq!(run_in(repo.path(), &["run", "finish", "--slug", "s"]).0, 0);
    let (code, out, err) = run_in(repo.path(), &[&start[..], &["--quiet"]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("export GSD_DEBUG_PROBE_SINK="), "{out}");
    assert_eq!(err, "");
    assert_eq!(run_in(repo.path(), &["run", "finish", "--slug", "s"]).0, 0);

    // cleanup: the state is the result, the rebuild reminder a hint.
    let (code, out, _) = run_in(repo.path(), &["cleanup", "--slug", "s"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("rebuild compiled outputs"), "{out}");
    let (code, out, _) = run_in(repo.path(), &["cleanup", "--slug", "s", "-q"]);
    assert_eq!((code, out.as_str()), (0, "session s: clean\n"));
}

#[test]
fn output_format_github() {
    let repo = repo_with_finding();
    let (code, out, _) = run_in(repo.path(), &["verify", ".", "--output-format", "github"]);
    assert_eq!(code, 1, "the exit code does not depend on the format");
    assert_eq!(
        out,
        "::error file=src/a%25b%2Cc%3Ad.sh,line=2,title=probity%3A residue_without_markers::`GSDDBG1` outside any probe block\n"
    );
    // A block finding carries endLine; a message with `%` is encoded.
    let repo = Repo::new();
    repo.write(
        "x.py",
        "def f():\n    # gsd-debug-probe:start s p1\n    print('GSDDBG1 100%')\n    # gsd-debug-probe:end s p1\n    pass\n",
    );
    let (code, out, _) = run_in(repo.path(), &["verify", ".", "--output-format", "github"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "::error file=x.py,line=2,endLine=4,title=probity%3A leftover_unledgered::"
        ),
        "{out}"
    );
    // Clean: nothing to annotate, exit 0.
    let clean = Repo::new();
    clean.write("a.py", "x = 1\n");
    let (code, out, _) = run_in(clean.path(), &["verify", ".", "--output-format", "github"]);
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn output_format_gitlab() {
    let repo = repo_with_finding();
    repo.write("b.txt", "GSDDBG1\nGSDDBG1\n");
    let (code, out, _) = run_in(repo.path(), &["verify", ".", "--output-format", "gitlab"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let issues = v.as_array().unwrap();
    assert_eq!(issues.len(), 3, "{out}");
    let first = &issues[0];
    assert_eq!(first["check_name"], "residue_without_markers");
    assert_eq!(first["severity"], "critical");
    assert_eq!(first["location"]["path"], "b.txt");
    assert_eq!(first["location"]["lines"]["begin"], 1);
    assert!(
        first["description"]
            .as_str()
            .unwrap()
            .starts_with("residue_without_markers: ")
    );
    let fps: Vec<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    for fp in &fps {
        assert!(
            fp.len() == 64 && fp.bytes().all(|b| b.is_ascii_hexdigit()),
            "{fp}"
        );
    }
    let unique: std::collections::BTreeSet<_> = fps.iter().collect();
    assert_eq!(unique.len(), 3, "fingerprints are unique in a report");
    assert_eq!(issues[2]["location"]["path"], "src/a%b,c:d.sh");

    // Stable: moving the findings to other lines keeps every fingerprint.
    repo.write("b.txt", "intro\n\nGSDDBG1\nGSDDBG1\n");
    repo.write("src/a%b,c:d.sh", "# moved\n\necho hi\necho GSDDBG1\n");
    let (_, out2, _) = run_in(repo.path(), &["verify", ".", "--output-format", "gitlab"]);
    let v2: serde_json::Value = serde_json::from_str(&out2).unwrap();
    let fps2: Vec<&str> = v2
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(fps, fps2);
    assert_eq!(v2[0]["location"]["lines"]["begin"], 3);
}

#[test]
fn output_format_json_sarif_and_sarif_to_stdout() {
    let repo = repo_with_finding();
    let (c1, json_flag, _) = run_in(repo.path(), &["verify", ".", "--json"]);
    let (c2, json_fmt, _) = run_in(repo.path(), &["verify", ".", "--output-format", "json"]);
    assert_eq!((c1, c2), (1, 1));
    assert_eq!(json_flag, json_fmt, "--json is --output-format json");

    let (c3, sarif_fmt, _) = run_in(repo.path(), &["verify", ".", "--output-format", "sarif"]);
    let (c4, sarif_dash, _) = run_in(repo.path(), &["verify", ".", "--sarif", "-"]);
    assert_eq!((c3, c4), (1, 1));
    assert_eq!(sarif_fmt, sarif_dash);
    assert!(
        !repo.path().join("-").exists(),
        "--sarif - is stdout, not a file"
    );
    let v: serde_json::Value = serde_json::from_str(&sarif_dash).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert_eq!(
        v["runs"][0]["results"][0]["ruleId"],
        "residue_without_markers"
    );

    // --sarif FILE still writes the file, next to any stdout format.
    let (c5, gh, _) = run_in(
        repo.path(),
        &[
            "verify",
            ".",
            "--output-format",
            "github",
            "--sarif",
            "out.sarif",
        ],
    );
    assert_eq!(c5, 1);
    assert!(gh.starts_with("::error "));
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(repo.path().join("out.sarif")).unwrap()).unwrap();
    assert_eq!(file, v);

    // One stream cannot carry two documents.
    let (code, out, err) = run_in(repo.path(), &["verify", ".", "--json", "--sarif", "-"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["reason"], "invalid_argument", "{out} {err}");
    let (code, _, err) = run_in(
        repo.path(),
        &["verify", ".", "--output-format", "github", "--sarif", "-"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("invalid_argument"), "{err}");
    let (code, _, err) = run_in(
        repo.path(),
        &["verify", ".", "--json", "--output-format", "text"],
    );
    assert_eq!(code, 2, "--json conflicts with --output-format: {err}");
}

#[test]
fn pre_commit_manifest_installs_probity_itself() {
    let text =
        std::fs::read_to_string(crate::util::repo_root().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<&str> = text.split("\n- ").skip(1).collect();
    // `probity-verify`, and `probity-gate` (issue 21: the gate scans the tree and the index).
    assert_eq!(hooks.len(), 2, "{text}");
    for (hook, entry) in hooks
        .iter()
        .zip(["probity verify --staged .", "probity gate"])
    {
        let field = |k: &str| {
            hook.lines()
                .map(str::trim)
                .find_map(|l| l.strip_prefix(&format!("{k}: ")))
                .map(str::to_owned)
        };
        assert_eq!(field("language").as_deref(), Some("rust"));
        assert_eq!(field("entry").as_deref(), Some(entry));
        assert_eq!(field("pass_filenames").as_deref(), Some("false"));
    }
    assert!(text.starts_with("#") || text.starts_with("- id: probity-verify"));
    assert!(text.contains("- id: probity-verify"));
    assert!(text.contains("- id: probity-gate"));
}
