//! The TypeScript surface of `@probity/node` (issue 24 §1), checked by the compiler: every
//! ```` ```ts ```` block of `bindings/node/README.md`, and of README.md's "## From TypeScript"
//! section, compiles with `tsc --strict --noEmit` against `bindings/node/index.d.ts`; the
//! exactly-one unions reject what they must (`bindings/node/test/unions.check.ts`: each
//! `// @ts-expect-error` line is an error, and only those); and the hand-written vocabularies
//! of `index.d.ts` (`ProbeMessage`, `SignalName`) are the library's (`probe::MESSAGES`,
//! `session::verification::SIGNALS`).
//!
//! A README block is compiled as it is written, each as its own ES module (top-level `await`
//! allowed, `@probity/node` mapped to the package's `index.d.ts`), with one convention: a block
//! that does not import the package itself gets `import * as probity from "@probity/node";`
//! prepended. Needs only `tsc` (no addon, no node run); skipped without `node` as
//! `node_binding` is.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::node_binding::{node, package};
use crate::util::{repo_root, tsc};

/// The ```` ```ts ```` blocks of `markdown`, with the line each starts on (1-based, the fence).
fn ts_blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        match &mut open {
            None if line.trim_start() == "```ts" || line.trim_start() == "```typescript" => {
                open = Some((i + 1, String::new()));
            }
            None => {}
            Some(_) if line.trim_start().starts_with("```") => blocks.extend(open.take()),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    assert!(open.is_none(), "an unclosed ```ts block");
    blocks
}

/// The section of `markdown` under the heading `heading`, to the next heading of its level.
fn section<'a>(markdown: &'a str, heading: &str) -> &'a str {
    let start = markdown
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no `{heading}` section"));
    let body = &markdown[start + 1..];
    let level = heading.split(' ').next().unwrap().len();
    let next = body[1..]
        .match_indices("\n#")
        .map(|(i, _)| i + 1)
        .find(|&i| {
            let l = &body[i + 1..];
            let hashes = l.len() - l.trim_start_matches('#').len();
            hashes <= level && l[hashes..].starts_with(' ')
        });
    next.map_or(body, |i| &body[..=i])
}

/// `tsc --strict --noEmit` of `files` (in `dir`) with `@probity/node` mapped to the package;
/// the compiler's output, and whether it succeeded.
fn compile(dir: &Path, files: &[PathBuf]) -> (bool, String) {
    let index = package().join("index.d.ts");
    let config = serde_json::json!({
        "compilerOptions": {
            "strict": true,
            "noEmit": true,
            "target": "es2022",
            "module": "es2022",
            "moduleResolution": "bundler",
            "types": [],
            "paths": { "@probity/node": [index] },
        },
        "files": files,
    });
    let tsconfig = dir.join("tsconfig.json");
    std::fs::write(&tsconfig, serde_json::to_string_pretty(&config).unwrap()).unwrap();
    let out = Command::new(tsc())
        .arg("--project")
        .arg(&tsconfig)
        .output()
        .expect("tsc runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// The README blocks to compile, each with the name it is reported under.
fn readme_blocks() -> Vec<(String, String)> {
    let package_readme = std::fs::read_to_string(package().join("README.md")).unwrap();
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let mut blocks: Vec<(String, String)> = Vec::new();
    for (line, text) in ts_blocks(&package_readme) {
        blocks.push((format!("bindings/node/README.md:{line}"), text));
    }
    let in_package = blocks.len();
    for (line, text) in ts_blocks(section(&readme, "## From TypeScript")) {
        let name = format!("README.md \"From TypeScript\" block at its line {line}");
        blocks.push((name, text));
    }
    // Usage, Errors, the run by hand, the guardrail; and the README's one.
    assert!(
        in_package >= 4 && blocks.len() > in_package,
        "the READMEs have {in_package} and {} TypeScript blocks: is the extraction broken?",
        blocks.len() - in_package
    );
    blocks
}

/// `text` as a module of its own in `dir` (`stem.ts`), the package's import prepended when it
/// has none.
fn block_file(dir: &Path, stem: &str, text: &str) -> PathBuf {
    let prelude = if text.contains("from \"@probity/node\"") {
        ""
    } else {
        "import * as probity from \"@probity/node\";\n"
    };
    let file = dir.join(format!("{stem}.ts"));
    std::fs::write(&file, format!("{prelude}{text}export {{}};\n")).unwrap();
    file
}

/// The lines of `text` a `// @ts-expect-error` marker stands over (1-based).
fn marked_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("// @ts-expect-error"))
        .map(|(i, _)| i + 2)
        .collect()
}

/// The lines of `file` (by its name) tsc reports an error on, sorted, once each.
fn error_lines(out: &str, file: &Path) -> Vec<usize> {
    let name = format!("{}(", file.file_name().unwrap().to_str().unwrap());
    let mut lines: Vec<usize> = out
        .lines()
        .filter_map(|l| {
            let rest = &l[l.find(&name)? + name.len()..];
            rest[..rest.find(',')?].parse().ok()
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// One compile (tsc takes seconds to load the declarations): every README block, and
/// `test/unions.check.ts` as written, where an expected error that does not occur (an unused
/// `@ts-expect-error`) is itself an error.
#[test]
fn every_typescript_block_of_the_readmes_and_the_union_checks_compile_under_strict() {
    if node().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The few Node.js APIs a block may use (`process`, `node:child_process` ...), declared
    // without @types/node.
    let mut files = vec![
        package().join("test/node.d.ts"),
        package().join("test/unions.check.ts"),
    ];
    let mut names = Vec::new();
    for (i, (name, text)) in readme_blocks().iter().enumerate() {
        files.push(block_file(dir.path(), &format!("block{i}"), text));
        names.push(format!("block{i}.ts is {name}"));
    }
    let (ok, out) = compile(dir.path(), &files);
    assert!(
        ok,
        "a README TypeScript block or test/unions.check.ts fails tsc --strict:\n{out}\n{}",
        names.join("\n")
    );
}

/// The checks bite: with its markers removed, exactly the marked lines of
/// `test/unions.check.ts` fail, each for itself (two anchors, none, a message that is not a
/// label ...); and a README-style block with the old `observations["p1"].verdict` fails, so the
/// extraction really compiles what it finds.
#[test]
fn without_the_markers_exactly_the_marked_lines_fail() {
    if node().is_none() {
        return;
    }
    let text = std::fs::read_to_string(package().join("test/unions.check.ts")).unwrap();
    let marked = marked_lines(&text);
    assert!(marked.len() >= 14, "{marked:?}");
    let stripped: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("// @ts-expect-error") {
                "\n".to_owned()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    // In the scratch folder, its `../index` named absolutely (same line numbers).
    let index = package().join("index");
    let stripped = stripped.replace("\"../index\"", &format!("{:?}", index.to_str().unwrap()));
    let dir = tempfile::tempdir().unwrap();
    let unions = dir.path().join("unions.ts");
    std::fs::write(&unions, stripped).unwrap();
    let md = "# x\n\n```ts\nconst run = await probity.session.run({ slug: \"s\", \
              phase: \"baseline\", command: [\"true\"] });\nrun.run.observations[\"p1\"].verdict;\n```\n";
    let blocks = ts_blocks(md);
    assert_eq!(blocks.len(), 1);
    let snippet = block_file(dir.path(), "snippet", &blocks[0].1);
    let (ok, out) = compile(dir.path(), &[unions.clone(), snippet.clone()]);
    assert!(!ok, "{out}");
    assert_eq!(error_lines(&out, &unions), marked, "{out}");
    assert!(out.contains("'ProbeMessage | undefined'"), "{out}");
    // Line 3: the prelude's import, the run, the possibly undefined observation.
    assert_eq!(error_lines(&out, &snippet), [3], "{out}");
    assert!(out.contains("TS2532"), "{out}");
}

/// The members of the string-literal union `name` in `index.d.ts`, in order.
fn union_members(dts: &str, name: &str) -> Vec<String> {
    let start = dts
        .find(&format!("export type {name} ="))
        .unwrap_or_else(|| panic!("{name} in index.d.ts"));
    let body = &dts[start..];
    body[..body.find(';').unwrap()]
        .lines()
        .skip(1)
        .filter_map(|l| Some(l.trim().strip_prefix("| \"")?.strip_suffix('"')?.to_owned()))
        .collect()
}

#[test]
fn the_message_and_signal_unions_are_the_librarys_lists() {
    let dts = std::fs::read_to_string(package().join("index.d.ts")).unwrap();
    let messages: Vec<&str> = probity::probe::MESSAGES.iter().map(|(m, _)| *m).collect();
    assert_eq!(
        union_members(&dts, "ProbeMessage"),
        messages,
        "ProbeMessage in bindings/node/index.d.ts must list probity::probe::MESSAGES"
    );
    assert!(messages.contains(&probity::probe::DEFAULT_MESSAGE));
    let signals: Vec<String> = probity::session::verification::SIGNALS
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(union_members(&dts, "SignalName"), signals);
}
