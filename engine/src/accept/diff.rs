//! `accept diff`: the no-op / behaviour-deleting detector (signal 3 of the fix-acceptance
//! guardrail). Lists the files a git diff changes, reads both versions through bounded git calls
//! (or the working tree), takes complete probe blocks out of each (they are never part of the
//! fix), parses both with tree-sitter, diffs the lines, and classifies the hunks
//! (`diffclassify`). Reads only; never writes to the user's tree.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use similar::{Algorithm, TextDiff};
use tree_sitter::Tree;

use super::diffclassify::{Elsewhere, Hunk, Side, classify, survey};
use super::diffgit::{EMPTY_TREE, blob, commit_of, git_ok, parse_name_status, toplevel};
use super::diffmodel::{DiffReport, FileReport, Net, Severity, Source, Verdict};
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
}

/// Where the new side's bytes come from.
enum NewSide {
    Disk,
    Index,
    Rev(String),
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
            super::diffgit::Change {
                status: 'A',
                old: None,
                new: Some(String::from_utf8_lossy(p).into_owned()),
            }
        }));
    }
    let mut files = Vec::new();
    let mut prepared = Vec::new();
    for ch in changes {
        let path = ch.new.clone().or(ch.old.clone()).unwrap_or_default();
        let mut fr = FileReport {
            path: path.clone(),
            old_path: (ch.status == 'R').then(|| ch.old.clone()).flatten(),
            status: ch.status.to_string(),
            language: None,
            analyzed: false,
            skip_reason: None,
            hunks: 0,
            probe_blocks_excluded: 0,
        };
        let Some((language, grammar)) = lang::for_path(Path::new(&path)) else {
            fr.skip_reason = Some(Reason::UnsupportedLanguage.code().to_owned());
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
            (Some(p), NewSide::Disk) => read_disk(&root, p)?,
            (Some(p), NewSide::Index) => blob(&root, "", p)?,
            (Some(p), NewSide::Rev(c)) => blob(&root, c, p)?,
        };
        match prepare(language, grammar, &old_bytes, &new_bytes) {
            Ok(p) => {
                fr.analyzed = true;
                fr.hunks = p.hunks.len();
                fr.probe_blocks_excluded = p.old.blocks + p.new.blocks;
                prepared.push((files.len(), language, p));
            }
            Err(reason) => fr.skip_reason = Some(reason.code().to_owned()),
        }
        files.push(fr);
    }
    // What the whole diff adds in new places, then each file's hunks.
    let mut elsewhere = Elsewhere::default();
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
            findings.extend(found);
            net_units += file_units;
        }
    }
    for f in &mut findings {
        f.net.diff_units = net_units;
        f.severity = severity(&f.net);
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    findings.sort_by(|a, b| {
        (&a.file, a.old_lines, a.new_lines).cmp(&(&b.file, b.old_lines, b.new_lines))
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

/// A finding flags the diff only when the change removes behaviour that nothing in it replaces.
fn severity(net: &Net) -> Severity {
    if net.scope_units < 0 && net.file_units < 0 && net.diff_units < 0 {
        Severity::Flag
    } else {
        Severity::Review
    }
}

/// A working-tree file (empty when it is gone; a symlink or other non-file is read as empty).
fn read_disk(root: &Path, rel: &str) -> Result<Vec<u8>> {
    let p = root.join(rel);
    match std::fs::symlink_metadata(&p) {
        Ok(m) if m.is_file() => std::fs::read(&p)
            .map_err(|e| Error::new(Reason::IoError, format!("{}: {e}", p.display()))),
        _ => Ok(Vec::new()),
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

/// `bytes` with its complete probe blocks taken out (and the line map back).
pub(super) fn filter(
    language: &Language,
    grammar: &Grammar,
    bytes: &[u8],
) -> std::result::Result<Filtered, Reason> {
    let source = crate::source::Source::new(bytes.to_vec())?;
    let body = source.body();
    let spans: Vec<std::ops::Range<usize>> = if body.contains(crate::protocol::MARKER_TAG) {
        let tree = parse(grammar, body).ok_or(Reason::InvalidLanguageData)?;
        let markers = marker::find(language, &source, &tree);
        marker::blocks(&source, &markers)
            .into_iter()
            .map(|b| b.span)
            .collect()
    } else {
        Vec::new()
    };
    let mut text = String::with_capacity(body.len());
    let mut map = Vec::new();
    let mut at = 0;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        if !spans.iter().any(|s| s.contains(&at)) {
            text.push_str(line);
            map.push(i + 1);
        }
        at += line.len();
    }
    Ok(Filtered {
        text,
        map,
        blocks: spans.len(),
    })
}

/// One file, ready to classify: both versions filtered and parsed, and the hunks.
struct Prepared {
    old: Filtered,
    new: Filtered,
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

fn prepare(
    language: &Language,
    grammar: &Grammar,
    old: &[u8],
    new: &[u8],
) -> std::result::Result<Prepared, Reason> {
    let fo = filter(language, grammar, old)?;
    let fnew = filter(language, grammar, new)?;
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(&fo.text, &fnew.text);
    let mut hunks = Vec::new();
    let (mut removed, mut added) = (BTreeSet::new(), BTreeSet::new());
    for group in diff.grouped_ops(0) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_r = first.old_range().start..last.old_range().end;
        let new_r = first.new_range().start..last.new_range().end;
        if old_r.is_empty() && new_r.is_empty() {
            continue;
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
        trees,
        hunks,
        removed,
        added,
    })
}
