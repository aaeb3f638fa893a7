//! `accept diff`: the no-op / behaviour-deleting detector (signal 3 of the fix-acceptance
//! guardrail). Lists the files a git diff changes, reads both versions through bounded git calls
//! (or the working tree), takes the probe blocks a live ledger entry owns out of each (they are
//! never part of the fix; any other marked block is code, and a finding: `probes`), parses
//! both with tree-sitter, diffs the lines, and classifies the hunks (`classify`). File names
//! travel as bytes (`git::Name`): a name that is not UTF-8 is read under its exact bytes and
//! reported with `path_bytes`. Reads only; never writes to the user's tree.

mod chains;
mod classify;
mod config;
mod equiv;
pub(super) mod git;
mod guards;
pub(super) mod model;
mod net;
mod probes;
mod replace;
mod side;
mod suppress;
mod syntax;
mod version;

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use similar::{Algorithm, TextDiff};
use tree_sitter::Tree;

use self::classify::{Elsewhere, Hunk, Side, classify, module_stem, survey};
use self::git::{EMPTY_TREE, Name, blob, commit_of, git_ok, parse_name_status, toplevel};
use self::model::{
    Basis, DiffReport, EXCERPT_LINE_CHARS, EXCERPT_LINES, FileReport, Finding, Kind, Net, Severity,
    Source, Verdict,
};
use self::probes::Owned;
use self::version::{NewSide, new_files, new_version, read_disk};
use crate::error::{Error, Result};
use crate::lang::{self, Grammar, Language};
use crate::marker;
use crate::parse::parse;
use crate::reason::Reason;

/// What to compare, and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// A directory inside the work tree.
    pub dir: PathBuf,
    /// Working tree, index, commit or range.
    pub source: Source,
    /// Ledgers read besides every `*.json` under the work tree's `.planning/debug/` (the
    /// session's `--ledger`): only the probe blocks their live entries own are left out.
    pub ledgers: Vec<PathBuf>,
}

/// The longest changed line (a line of a hunk, on either side) `accept diff` analyzes, in bytes.
/// The rules work on lines: a minified or generated file is one hunk as long as the file, where
/// every shape "moved" or "re-guarded" somewhere on the same line (a deleted branch passed), so
/// past this a file is not analyzed (`line_too_long`) and the diff is flagged `not_analyzed`.
/// A whole-line inline source map comment is exempt.
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// Whether a line is a whole-line inline source map comment (`//# sourceMappingURL=data:...`, as
/// babel and tsc write at the end of a built file): data, no code, however long.
fn source_map(line: &str) -> bool {
    let l = line.trim_start();
    [
        "//# sourceMappingURL=",
        "//@ sourceMappingURL=",
        "/*# sourceMappingURL=",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        && (!l.starts_with("/*") || l.trim_end().ends_with("*/") && l.matches("*/").count() == 1)
}

fn bad_rev(rev: &str) -> Error {
    Error::new(Reason::BadRevision, format!("`{rev}` names no commit"))
}

/// Run the detector.
pub fn run(opts: &Options) -> Result<DiffReport> {
    let root = toplevel(&opts.dir)?;
    let head = || commit_of(&root, "HEAD");
    let (old_rev, new_side): (Option<String>, NewSide) = match &opts.source {
        Source::Worktree => (head()?, NewSide::Disk),
        Source::Staged => (head()?, NewSide::Index),
        Source::Commit { rev } => {
            let c = commit_of(&root, rev)?.ok_or_else(|| bad_rev(rev))?;
            (commit_of(&root, &format!("{c}^"))?, NewSide::Rev(c))
        }
        Source::Range { range } => {
            let (a, b, three) = if let Some((a, b)) = range.split_once("...") {
                (a, b, true)
            } else if let Some((a, b)) = range.split_once("..") {
                (a, b, false)
            } else {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    format!("`{range}` is not A..B or A...B"),
                ));
            };
            let a = if a.is_empty() { "HEAD" } else { a };
            let b = if b.is_empty() { "HEAD" } else { b };
            let ca = commit_of(&root, a)?.ok_or_else(|| bad_rev(a))?;
            let cb = commit_of(&root, b)?.ok_or_else(|| bad_rev(b))?;
            let old = if three {
                let base = git_ok(&root, &["merge-base", &ca, &cb])?;
                String::from_utf8_lossy(&base).trim().to_owned()
            } else {
                ca
            };
            (Some(old), NewSide::Rev(cb))
        }
    };
    let old_tree = old_rev.clone().unwrap_or_else(|| EMPTY_TREE.to_owned());
    let mut args = vec!["diff", "--name-status", "-z", "-M", "--no-ext-diff"];
    match &new_side {
        NewSide::Disk => args.push(&old_tree),
        NewSide::Index => args.extend(["--cached", &old_tree]),
        NewSide::Rev(c) => args.extend([old_tree.as_str(), c.as_str()]),
    }
    args.push("--");
    let mut changes = parse_name_status(&git_ok(&root, &args)?);
    if let NewSide::Disk = new_side {
        let raw = git_ok(&root, &["ls-files", "--others", "--exclude-standard", "-z"])?;
        changes.extend(raw.split(|&b| b == 0).filter(|p| !p.is_empty()).map(|p| {
            self::git::Change {
                status: 'A',
                old: None,
                new: Some(p.to_vec()),
            }
        }));
    }
    let owned = Owned::load(&root, &opts.ledgers);
    let all = changes.clone();
    let mut files = Vec::new();
    let mut names: Vec<Name> = Vec::new();
    let mut prepared = Vec::new();
    let mut unowned: Vec<(usize, Unowned)> = Vec::new();
    let mut refused: Vec<(usize, Reason)> = Vec::new();
    for ch in changes {
        let name = ch.new.clone().or(ch.old.clone()).unwrap_or_default();
        let (path, path_bytes) = display(&name);
        let old_name = (ch.status == 'R').then(|| ch.old.clone()).flatten();
        let mut fr = FileReport {
            path,
            path_bytes,
            old_path: old_name.as_deref().map(|n| display(n).0),
            old_path_bytes: old_name.as_deref().and_then(|n| display(n).1),
            status: ch.status.to_string(),
            language: None,
            analyzed: false,
            skip_reason: None,
            hunks: 0,
            probe_blocks_excluded: 0,
        };
        names.push(name.clone());
        let Some((language, grammar)) = lang::for_path(Path::new(OsStr::from_bytes(&name))) else {
            fr.skip_reason = Some(Reason::UnsupportedLanguage);
            files.push(fr);
            continue;
        };
        fr.language = Some(language.id());
        let old_bytes = match &ch.old {
            Some(p) if old_rev.is_some() => blob(&root, &old_tree, p)?,
            _ => Vec::new(),
        };
        let new_bytes = match (&ch.new, &new_side) {
            (None, _) => Vec::new(),
            (Some(p), NewSide::Disk) => match read_disk(&root, p)? {
                Ok(bytes) => bytes,
                // Refused as its check would have refused it (the old side's reason first).
                Err(too_large) => {
                    let reason = crate::source::validate(&old_bytes)
                        .err()
                        .unwrap_or(too_large);
                    fr.skip_reason = Some(reason);
                    refused.push((files.len(), reason));
                    files.push(fr);
                    continue;
                }
            },
            (Some(p), NewSide::Index) => blob(&root, "", p)?,
            (Some(p), NewSide::Rev(c)) => blob(&root, c, p)?,
        };
        // A block is owned on a side only in the file of that side's name.
        let (old_file, new_file) = (utf8(ch.old.as_deref()), utf8(ch.new.as_deref()));
        let old_own = |b: &marker::Block, sha: &str| owned.owns(&b.slug, &b.probe, old_file, sha);
        let new_own = |b: &marker::Block, sha: &str| owned.owns(&b.slug, &b.probe, new_file, sha);
        match prepare(
            language,
            grammar,
            (&old_bytes, &old_own),
            (&new_bytes, &new_own),
        ) {
            Ok(p) => {
                fr.analyzed = true;
                fr.hunks = p.hunks.len();
                fr.probe_blocks_excluded = p.old.blocks + p.new.blocks;
                unowned.extend(p.unowned.iter().cloned().map(|u| (files.len(), u)));
                prepared.push((files.len(), language, p));
            }
            // A file in a language the detector reads that it could not analyze: the diff does
            // not pass on what was not read.
            Err(reason) => {
                fr.skip_reason = Some(reason);
                refused.push((files.len(), reason));
            }
        }
        files.push(fr);
    }
    // What the whole diff adds in new places, then each file's hunks.
    let mut elsewhere = Elsewhere::default();
    elsewhere.modules_deleted = files
        .iter()
        .filter(|f| f.status == "D" && !suppress::test_path(&f.path))
        .map(|f| module_stem(&f.path))
        .collect();
    for (_, language, p) in &prepared {
        if let Some((o, n)) = p.sides() {
            survey(language.family(), &o, &n, &mut elsewhere);
        }
    }
    let mut findings = Vec::new();
    let mut hunks = 0;
    let mut net_units = 0;
    for (i, language, p) in &prepared {
        hunks += p.hunks.len();
        if let Some((o, n)) = p.sides() {
            let path = &files[*i].path;
            let (found, file_units) =
                classify(language.family(), path, &o, &n, &p.hunks, &mut elsewhere);
            findings.extend(found.into_iter().map(|mut f| {
                f.file_bytes.clone_from(&files[*i].path_bytes);
                f
            }));
            net_units += file_units;
        }
    }
    for f in &mut findings {
        f.net.diff_units = net_units;
    }
    net::severities(&mut findings);
    // The suppression shapes that delete nothing carry their own severity (`suppress`).
    let views: Vec<suppress::FileView<'_>> = (prepared.iter())
        .filter_map(|(i, l, p)| {
            p.sides()
                .map(|s| (files[*i].path_bytes.as_deref(), i, l, s, p))
        })
        .map(|(b, i, l, (old, new), p)| suppress::FileView {
            f: l.family(),
            path: &files[*i].path,
            path_bytes: b,
            old,
            new,
            hunks: &p.hunks,
        })
        .collect();
    findings.extend(suppress::find(&views, net_units));
    // Probe-marked code no live ledger entry owns flags whatever the net: `cleanup` will never
    // remove it, so it ships with the fix, and markers must not be a way to exempt code.
    for (i, u) in unowned {
        findings.push(unowned_finding(&files[i], u, net_units));
    }
    let versions = config::Versions {
        old: &|p| {
            old_rev
                .as_ref()
                .map_or(Ok(Vec::new()), |_| blob(&root, &old_tree, p))
        },
        new: &|p| new_version(&root, &new_side, p),
        list: &|dir| new_files(&root, &new_side, dir),
    };
    findings.extend(config::analyze(&versions, &all, &mut files, net_units)?);
    for (i, reason) in refused {
        findings.push(not_analyzed(&files[i], reason, net_units));
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let mut sorted: Vec<Option<FileReport>> = files.into_iter().map(Some).collect();
    let files: Vec<FileReport> = order.iter().filter_map(|&i| sorted[i].take()).collect();
    findings.sort_by(|a, b| {
        (&a.file, &a.file_bytes, a.old_lines, a.new_lines).cmp(&(
            &b.file,
            &b.file_bytes,
            b.old_lines,
            b.new_lines,
        ))
    });
    let mut counts = std::collections::BTreeMap::new();
    for f in &findings {
        *counts.entry(f.kind).or_insert(0) += 1;
    }
    let review_findings = findings
        .iter()
        .filter(|f| f.severity == Severity::Review)
        .count();
    Ok(DiffReport {
        verdict: if review_findings == findings.len() {
            Verdict::Pass
        } else {
            Verdict::Flagged
        },
        source: opts.source.clone(),
        old_rev,
        new_rev: match new_side {
            NewSide::Rev(c) => Some(c),
            _ => None,
        },
        files,
        hunks,
        findings,
        counts,
        review_findings,
        net_units,
    })
}

/// A name as text, when it is UTF-8.
fn utf8(name: Option<&[u8]>) -> Option<&str> {
    name.and_then(|n| std::str::from_utf8(n).ok())
}

/// How a name is shown: its text (U+FFFD for bytes that are not UTF-8), and its exact bytes in
/// hex when they are not UTF-8 (as `verify`'s `path_bytes`).
fn display(name: &[u8]) -> (String, Option<String>) {
    match std::str::from_utf8(name) {
        Ok(s) => (s.to_owned(), None),
        Err(_) => (
            String::from_utf8_lossy(name).into_owned(),
            Some(hex::encode(name)),
        ),
    }
}

/// The finding for a complete probe block no live ledger entry owns.
fn unowned_finding(file: &FileReport, u: Unowned, diff_units: i64) -> Finding {
    let mut lines: Vec<String> = u
        .excerpt
        .lines()
        .take(EXCERPT_LINES)
        .map(|l| l.chars().take(EXCERPT_LINE_CHARS).collect())
        .collect();
    if u.excerpt.lines().count() > EXCERPT_LINES {
        lines.push("...".to_owned());
    }
    Finding {
        file: file.path.clone(),
        file_bytes: file.path_bytes.clone(),
        kind: Kind::UnledgeredProbe,
        old_lines: None,
        new_lines: Some(u.lines),
        excerpt: lines.join("\n"),
        detail: format!(
            "probe block `{}/{}` is owned by no live ledger entry (slug, id, file and bytes): \
             its code is classified as part of the fix; remove the markers or the block",
            u.slug, u.probe
        ),
        severity: Severity::Flag,
        net: Net {
            basis: Basis::Always,
            ..Net::diff_only(diff_units)
        },
    }
}

/// The finding for a file the detector reads but could not analyze.
fn not_analyzed(file: &FileReport, reason: Reason, diff_units: i64) -> Finding {
    let why = match reason {
        Reason::LineTooLong => format!(
            "a changed line is longer than {MAX_LINE_BYTES} bytes (minified or generated code)"
        ),
        r => r.describe(),
    };
    Finding {
        file: file.path.clone(),
        file_bytes: file.path_bytes.clone(),
        kind: Kind::NotAnalyzed,
        old_lines: None,
        new_lines: None,
        excerpt: String::new(),
        detail: format!("not analyzed ({}): {why}; review it by hand", reason.code()),
        severity: Severity::Flag,
        net: Net {
            basis: Basis::Always,
            ..Net::diff_only(diff_units)
        },
    }
}

/// One version of a file with its complete probe blocks taken out.
pub(super) struct Filtered {
    /// The text without the blocks.
    pub(super) text: String,
    /// Filtered row (0-based) to original line (1-based).
    pub(super) map: Vec<usize>,
    /// Blocks taken out.
    pub(super) blocks: usize,
}

/// A complete probe block left in the text because no live ledger entry owns it.
#[derive(Debug, Clone)]
pub(super) struct Unowned {
    slug: String,
    probe: String,
    /// 1-based inclusive original lines.
    lines: [usize; 2],
    /// Its text.
    excerpt: String,
}

/// `bytes` with its complete probe blocks taken out (and the line map back), whoever owns them
/// (`accept reconfirm` keeps every block byte-exact where it is).
pub(super) fn filter(
    language: &Language,
    grammar: &Grammar,
    bytes: &[u8],
) -> std::result::Result<Filtered, Reason> {
    filter_owned(language, grammar, bytes, &|_, _| true).map(|(f, _)| f)
}

/// `bytes` with the complete probe blocks taken out that `owns` accepts (given the block and the
/// sha256 of its exact bytes); the others stay in the text and are returned.
pub(super) fn filter_owned(
    language: &Language,
    grammar: &Grammar,
    bytes: &[u8],
    owns: &dyn Fn(&marker::Block, &str) -> bool,
) -> std::result::Result<(Filtered, Vec<Unowned>), Reason> {
    let source = crate::source::Source::new(bytes.to_vec())?;
    let body = source.body();
    let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
    let mut unowned = Vec::new();
    if body.contains(crate::protocol::MARKER_TAG) {
        let tree = parse(grammar, body).ok_or(Reason::InvalidLanguageData)?;
        let markers = marker::find(language, &source, &tree);
        for b in marker::blocks(&source, &markers) {
            let block = &body[b.span.clone()];
            if owns(&b, &crate::source::sha256_hex(block.as_bytes())) {
                spans.push(b.span);
            } else {
                let first = source.line_of(b.span.start) + 1;
                unowned.push(Unowned {
                    lines: [first, first + block.lines().count().max(1) - 1],
                    excerpt: block.to_owned(),
                    slug: b.slug,
                    probe: b.probe,
                });
            }
        }
    }
    let mut text = String::with_capacity(body.len());
    let mut map = Vec::new();
    let mut at = 0;
    // `spans` is in file order: one pass.
    let mut next = spans.iter().peekable();
    for (i, line) in body.split_inclusive('\n').enumerate() {
        while next.peek().is_some_and(|s| s.end <= at) {
            next.next();
        }
        if !next.peek().is_some_and(|s| s.contains(&at)) {
            text.push_str(line);
            map.push(i + 1);
        }
        at += line.len();
    }
    let blocks = spans.len();
    Ok((Filtered { text, map, blocks }, unowned))
}

/// One file, ready to classify: both versions filtered and parsed, and the hunks.
struct Prepared {
    old: Filtered,
    new: Filtered,
    /// The new version's blocks no live entry owns.
    unowned: Vec<Unowned>,
    /// `None` when nothing changed once probe blocks were taken out.
    trees: Option<(Tree, Tree)>,
    hunks: Vec<Hunk>,
    removed: BTreeSet<usize>,
    added: BTreeSet<usize>,
}

impl Prepared {
    fn sides(&self) -> Option<(Side<'_>, Side<'_>)> {
        let (to, tn) = self.trees.as_ref()?;
        Some((
            Side {
                src: &self.old.text,
                tree: to,
                map: &self.old.map,
                lines: self.old.text.lines().collect(),
                changed: self.removed.clone(),
            },
            Side {
                src: &self.new.text,
                tree: tn,
                map: &self.new.map,
                lines: self.new.text.lines().collect(),
                changed: self.added.clone(),
            },
        ))
    }
}

/// One side's bytes and which of its probe blocks are owned.
type SideIn<'a> = (&'a [u8], &'a dyn Fn(&marker::Block, &str) -> bool);

fn prepare(
    language: &Language,
    grammar: &Grammar,
    (old, old_owns): SideIn<'_>,
    (new, new_owns): SideIn<'_>,
) -> std::result::Result<Prepared, Reason> {
    let (fo, _) = filter_owned(language, grammar, old, old_owns)?;
    let (fnew, unowned) = filter_owned(language, grammar, new, new_owns)?;
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(&fo.text, &fnew.text);
    let mut hunks = Vec::new();
    let (mut removed, mut added) = (BTreeSet::new(), BTreeSet::new());
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (fo.text.lines().collect(), fnew.text.lines().collect());
    let too_long = |lines: &[&str], r: &std::ops::Range<usize>| {
        lines.get(r.clone()).is_some_and(|ls| {
            ls.iter()
                .any(|l| l.len() > MAX_LINE_BYTES && !source_map(l))
        })
    };
    for group in diff.grouped_ops(0) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_r = first.old_range().start..last.old_range().end;
        let new_r = first.new_range().start..last.new_range().end;
        if old_r.is_empty() && new_r.is_empty() {
            continue;
        }
        if too_long(&old_lines, &old_r) || too_long(&new_lines, &new_r) {
            return Err(Reason::LineTooLong);
        }
        removed.extend(old_r.clone());
        added.extend(new_r.clone());
        hunks.push(Hunk {
            old: old_r,
            new: new_r,
        });
    }
    let trees = if hunks.is_empty() {
        None
    } else {
        let to = parse(grammar, &fo.text).ok_or(Reason::InvalidLanguageData)?;
        let tn = parse(grammar, &fnew.text).ok_or(Reason::InvalidLanguageData)?;
        Some((to, tn))
    };
    Ok(Prepared {
        old: fo,
        new: fnew,
        unowned,
        trees,
        hunks,
        removed,
        added,
    })
}
