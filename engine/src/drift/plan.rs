//! Plan extraction: the references a plan cites (code spans, paths, `--flags`, macros, derives),
//! where it cites them, and the artifacts it declares as new (its "Artifacts this phase produces"
//! list). Pure text analysis: no file system, no resolution (that is `crate::resolve`).
//!
//! This file owns the walk over the plan (fences, the artifacts heading, code spans and prose),
//! the context of a span (another tool's flags, routes, HTTP headers, the plan's own example
//! code) and what is cited where; whether one token is a reference is `cite.rs`.

use schemars::JsonSchema;
use serde::Serialize;

use super::call::{calls_in, prose_arity};
use super::cite::{classify, code_like, take_derives};
use super::quote::quote_of;
use crate::resolve::{self, is_ident};

/// The heading under which a plan lists what it creates.
pub const ARTIFACTS_HEADING: &str = "artifacts this phase produces";

/// The heading, as it is quoted in reasons (the resolver's notes quote it too).
pub(super) use crate::resolve::ARTIFACTS_QUOTED;

/// Where a reference was cited.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Occurrence {
    /// 1-based plan line.
    pub line: usize,
    /// The plan line, trimmed; a line longer than [`super::QUOTE_BYTES`] is quoted as a window of
    /// about that many bytes around the reference, cut ends marked `…`.
    pub quote: String,
    /// `code_span`, `fenced` or `prose`.
    pub source: &'static str,
}

/// One reference of a plan and every line that cites it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cited {
    /// The reference, as `probity resolve` takes it.
    pub reference: String,
    /// Every citation, in line order (one per line).
    pub occurrences: Vec<Occurrence>,
    /// The first line citing it under the "Artifacts this phase produces" heading, if any.
    pub artifact_line: Option<usize>,
    /// The line of the plan's own fenced code that declares it (a flag in an option call, a
    /// variable its head names): a name of the plan's example, not of the repository.
    pub example_line: Option<usize>,
    /// The module the plan's example code binds the head to (`const x = require('pkg')`,
    /// `import x from 'pkg'`): `pkg`.
    pub example_module: Option<String>,
    /// The calls the plan writes of it (code spans: `parse(text, strict=True)`; prose: "taking
    /// two arguments"), each once, with the first line citing it.
    pub calls: Vec<resolve::CallShape>,
}

/// The references of a plan.
#[derive(Debug, Default)]
pub struct Extracted {
    /// Every reference, in order of first citation (line, then position in the line), those
    /// under the artifacts heading included.
    pub refs: Vec<Cited>,
    /// Where each reference is in `refs`, while extracting.
    at: std::collections::HashMap<String, usize>,
}

impl Extracted {
    /// The reference named `r`, if the plan cites it.
    pub fn get(&self, r: &str) -> Option<&Cited> {
        self.refs.iter().find(|c| c.reference == r)
    }

    /// Record that line `line` cites `r`; `occurrence` makes its [`Occurrence`] from the
    /// reference (called once per reference and line).
    fn push(
        &mut self,
        r: String,
        line: usize,
        occurrence: impl FnOnce(&str) -> Occurrence,
        artifact: bool,
    ) {
        let i = match self.at.get(&r) {
            Some(&i) => i,
            None => {
                self.at.insert(r.clone(), self.refs.len());
                self.refs.push(Cited {
                    reference: r,
                    occurrences: Vec::new(),
                    artifact_line: None,
                    example_line: None,
                    example_module: None,
                    calls: Vec::new(),
                });
                self.refs.len() - 1
            }
        };
        let c = &mut self.refs[i];
        if c.occurrences.last().is_none_or(|p| p.line != line) {
            let o = occurrence(&c.reference);
            c.occurrences.push(o);
        }
        if artifact && c.artifact_line.is_none() {
            c.artifact_line = Some(line);
        }
    }

    /// Record that line `line` cites the already pushed reference `r` as the call `shape`.
    fn add_call(&mut self, r: &str, mut shape: resolve::CallShape, line: usize) {
        if let Some(&i) = self.at.get(r)
            && !self.refs[i].calls.iter().any(|c| c.text == shape.text)
        {
            shape.line = Some(line);
            self.refs[i].calls.push(shape);
        }
    }
}

/// Commands whose own flags a plan writes (`cargo build --features x`, `npm install --save-dev`):
/// flags after one of them, up to a `--` that passes the rest to the project's program, are that
/// tool's, not the repository's. Interpreters (`python`, `node`) run the project's code, so their
/// flags are not here.
const TOOLS: &str = "\
    cargo rustup rustc npm npx yarn pnpm bun deno git gh pip pip3 pipx uv poetry docker \
    kubectl brew apt apt-get make go curl wget tsc eslint prettier pytest ruff mypy";

/// HTTP methods: a path after one in a code span is a route (`GET /api/users`), not a file.
const HTTP_METHODS: &str = "GET POST PUT PATCH DELETE HEAD OPTIONS";

/// What the command words of a code span or fenced line say about its tokens: the tokens that
/// are another tool's flags or a route (not cited), and the names the command cites from a
/// manifest (`cargo build --features a,b`: Cargo features; `npm run build`: an npm script).
fn command_context(seg: &str) -> (Vec<String>, Vec<String>) {
    let toks: Vec<&str> = tokens(seg).collect();
    let mut skip = Vec::new();
    let mut cite = Vec::new();
    let mut tool: Option<&str> = None;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        let next = toks.get(i + 1).copied();
        if t == "--" {
            tool = None;
        } else if TOOLS.split_ascii_whitespace().any(|w| w == t) {
            tool = Some(t);
        } else if HTTP_METHODS.split_ascii_whitespace().any(|w| w == t)
            && let Some(n) = next.filter(|n| n.starts_with('/'))
        {
            skip.push(n.to_owned());
        } else if let Some(tl) = tool
            && t.starts_with('-')
        {
            skip.push(t.split('=').next().unwrap_or(t).to_owned());
            let value = match t.split_once('=') {
                Some((_, v)) => Some(v),
                None => next,
            };
            if tl == "cargo" && matches!(t.split('=').next(), Some("--features" | "-F")) {
                cite.extend(
                    value
                        .unwrap_or("")
                        .split([',', ' '])
                        .filter(|f| is_ident(f))
                        .map(str::to_owned),
                );
            }
        } else if matches!(tool, Some("npm" | "yarn" | "pnpm" | "bun"))
            && t == "run"
            && let Some(n) = next.filter(|n| is_ident(n))
        {
            cite.push(n.to_owned());
        }
        i += 1;
    }
    (skip, cite)
}

/// Whether prose `before` / `after` a code span calls it an HTTP header (`the `Authorization`
/// header`, `header `X-Id``).
fn header_word(before: &str, after: &str) -> bool {
    let a = after.trim_start().to_lowercase();
    let b = before.trim_end().to_lowercase();
    a.starts_with("header") || b.ends_with("header") || b.ends_with("headers")
}

/// What a fenced line of the plan declares itself: the variables of `const|let|var NAME` and the
/// flags of an option call (`.option('-p, --port <n>')`, `new Option('--port')`,
/// `add_argument("--dry-run")`).
fn example_decls(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let toks: Vec<&str> = line.split_whitespace().collect();
    for w in toks.windows(2) {
        if matches!(w[0], "const" | "let" | "var") {
            let name = w[1].trim_end_matches([':', '=', ';']);
            if is_ident(name) {
                out.push(name.to_owned());
            }
        }
    }
    for call in ["option(", "Option(", "add_argument(", "requiredOption("] {
        for (i, _) in line.match_indices(call) {
            let args = &line[i + call.len()..];
            let Some(q) = args.chars().next().filter(|c| "'\"`".contains(*c)) else {
                continue;
            };
            let Some(end) = args[1..].find(q) else {
                continue;
            };
            out.extend(
                args[1..=end]
                    .split([' ', ','])
                    .filter(|t| t.starts_with('-') && t.len() > 1)
                    .map(str::to_owned),
            );
        }
    }
    out
}

/// A name an example line binds to a module: `const x = require('m')`, `import x from 'm'`,
/// `import * as x from 'm'` → `(x, m)`.
fn example_import(line: &str) -> Option<(String, String)> {
    let t = line.trim().trim_end_matches(';');
    let quoted = |s: &str| -> Option<String> {
        let s = s.trim();
        let q = s.chars().next().filter(|c| "'\"".contains(*c))?;
        let inner = s[1..].strip_suffix(q)?;
        (!inner.is_empty() && !inner.contains(q)).then(|| inner.to_owned())
    };
    if let Some(rest) = t.strip_prefix("import ") {
        let (name, from) = rest.split_once(" from ")?;
        let name = name.trim();
        let name = name.strip_prefix("* as ").unwrap_or(name).trim();
        return is_ident(name).then(|| Some((name.to_owned(), quoted(from)?)))?;
    }
    let rest = ["const ", "let ", "var "]
        .iter()
        .find_map(|k| t.strip_prefix(k))?;
    let (name, value) = rest.split_once('=')?;
    let name = name.trim();
    let arg = value.trim().strip_prefix("require(")?.strip_suffix(')')?;
    is_ident(name).then(|| Some((name.to_owned(), quoted(arg)?)))?
}

/// The names prose calls an HTTP header outside code spans (`parses the Accept header`,
/// `the Content-Type headers`): a capitalized word between an article and `header`/`headers`
/// (not `the Response headers`, which names where headers live).
fn prose_headers(line: &str) -> Vec<String> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || ",;:()".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(3)
        .filter(|w| matches!(w[0].to_lowercase().as_str(), "the" | "a" | "an"))
        .filter(|w| matches!(w[2].trim_end_matches('.'), "header" | "headers"))
        .map(|w| w[1])
        .filter(|h| !matches!(*h, "HTTP" | "Request" | "Response"))
        .filter(|h| h.starts_with(|c: char| c.is_ascii_uppercase()))
        .filter(|h| {
            h.split('-')
                .all(|p| p.chars().all(|c| c.is_ascii_alphanumeric()))
        })
        .map(str::to_owned)
        .collect()
}

fn tokens(seg: &str) -> impl Iterator<Item = &str> {
    seg.split(|c: char| c.is_whitespace() || ",;\"'|<>{}`".contains(c))
        .filter(|t| !t.is_empty())
}

/// The references a plan cites (see docs/drift.md, "Extraction").
pub fn extract(plan: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut fence: Option<String> = None;
    let mut artifacts_level: Option<usize> = None;
    // What the plan's own example code declares (name → first line), and the header names of
    // its prose.
    let mut example: Vec<(String, usize)> = Vec::new();
    // The names it binds to a module (name → module specifier).
    let mut example_modules: Vec<(String, String)> = Vec::new();
    let mut headers: Vec<String> = Vec::new();
    for (i, line) in plan.lines().enumerate() {
        let n = i + 1;
        let trimmed = line.trim_start();
        if fence.is_some() {
            example.extend(example_decls(line).into_iter().map(|d| (d, n)));
            example_modules.extend(example_import(line));
        } else {
            headers.extend(prose_headers(&line.replace('`', " ")));
        }
        if let Some(f) = &fence {
            if trimmed.starts_with(f.as_str()) {
                fence = None;
                continue;
            }
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_owned());
            continue;
        } else if trimmed.starts_with('#') {
            let level = trimmed.chars().take_while(|&c| c == '#').count();
            let title = trimmed[level..].trim().to_lowercase();
            if title.contains(ARTIFACTS_HEADING) {
                artifacts_level = Some(level);
                continue;
            }
            if artifacts_level.is_some_and(|l| level <= l) {
                artifacts_level = None;
            }
        }
        let mut segs: Vec<(&str, &'static str)> = Vec::new();
        if fence.is_some() {
            segs.push((line, "fenced"));
        } else {
            for (k, part) in line.split('`').enumerate() {
                segs.push((part, if k % 2 == 1 { "code_span" } else { "prose" }));
            }
        }
        for (k, &(seg, source)) in segs.iter().enumerate() {
            // `#[derive(A, b::C)]`: one reference per derive path.
            let (mut found, seg) = take_derives(seg);
            let whole = seg.trim();
            let code_like = code_like(whole);
            let (skip, cited) = if source == "prose" {
                (Vec::new(), Vec::new())
            } else {
                command_context(&seg)
            };
            let header = source == "code_span"
                && header_word(
                    k.checked_sub(1).map_or("", |p| segs[p].0),
                    segs.get(k + 1).map_or("", |n| n.0),
                );
            let mut calls = Vec::new();
            // A code span that is exactly one reference.
            if source == "code_span"
                && let Some(r) = classify(whole, source, true, code_like)
            {
                if !header && !skip.contains(&r) {
                    // `X.m` taking two arguments.
                    if let Some((n, words)) = prose_arity(segs.get(k + 1).map_or("", |p| p.0)) {
                        calls.push((r.clone(), resolve::CallShape::arity(&r, n, &words)));
                    }
                    found.push(r);
                }
            } else {
                for t in tokens(&seg) {
                    if let Some(r) = classify(t, source, false, code_like)
                        && !skip.contains(&r)
                    {
                        found.push(r);
                    }
                }
            }
            if source == "code_span" {
                calls.extend(calls_in(&seg, &found));
            }
            found.extend(cited);
            let raw = segs[k].0;
            for r in found {
                let occurrence = |r: &str| Occurrence {
                    line: n,
                    quote: quote_of(line, raw, r),
                    source,
                };
                out.push(r, n, occurrence, artifacts_level.is_some());
            }
            for (r, shape) in calls {
                out.add_call(&r, shape, n);
            }
        }
    }
    // A header the prose names (`the Accept header`) is no symbol wherever a span cites it.
    out.refs.retain(|c| !headers.contains(&c.reference));
    for c in &mut out.refs {
        let head = if c.reference.starts_with('-') {
            c.reference.as_str()
        } else {
            c.reference.split(['.', ':']).next().unwrap_or("")
        };
        c.example_line = example.iter().find(|(d, _)| d == head).map(|(_, l)| *l);
        c.example_module = example_modules
            .iter()
            .find(|(d, _)| d == head)
            .map(|(_, m)| m.clone());
    }
    out
}

/// Whether `r` lies under the artifact `a`: a member (`A.x`, `A::x`), a path below it (`A/x`), a
/// name in it (`A:x`), or, for a file, a name in its module (`a/b.py` → `a.b.x`,
/// `./a/b.x`; `src/a.rs` → `crate::a::x`).
pub fn is_under(a: &str, r: &str) -> bool {
    let a = a.trim_start_matches("./");
    let r = r.trim_start_matches("./");
    let below = |prefix: &str, seps: &[&str]| {
        r.strip_prefix(prefix)
            .is_some_and(|rest| seps.iter().any(|s| rest.starts_with(s)))
    };
    if below(a, &[".", "::", "/", ":"]) {
        return true;
    }
    let Some((stem, ext)) = a.rsplit_once('.') else {
        return false;
    };
    if stem.is_empty() || !resolve::is_file_ext(ext) {
        return false;
    }
    if below(stem, &["."]) {
        return true;
    }
    let module = stem
        .strip_suffix("/__init__")
        .or_else(|| stem.strip_suffix("/mod"))
        .unwrap_or(stem);
    let dotted = module.replace('/', ".");
    let mut heads = vec![dotted.clone()];
    if let Some(d) = dotted.strip_prefix("src.") {
        heads.push(d.to_owned());
    }
    if ext == "rs"
        && let Some(m) = module.strip_prefix("src/")
    {
        heads.push(format!("crate::{}", m.replace('/', "::")));
    }
    heads.iter().any(|h| r == h || below(h, &[".", "::"]))
}
