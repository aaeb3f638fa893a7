//! The higher rungs of the drift guard's authority ladder (ADR 22; docs/drift.md, "Rung 4: a
//! SCIP authority"): what a compiler-grade index of the repository adds to the verdicts of rung
//! 2 (tree-sitter, [`crate::resolve`]).
//!
//! # The API
//!
//! - **In**: a [`ScipIndex`] read by [`ScipIndex::read`] from any indexer's output
//!   (scip-typescript, scip-python, rust-analyzer, scip-java, probity's own `index --scip`),
//!   the repository root, and rung 2's final [`Resolution`]s.
//! - **Call**: [`apply_scip`], which changes the resolutions in place.
//! - **Out**: every resolution the index decided says so (`authority: "scip"`, `rung: 4`,
//!   `evidence`), and a [`ScipReport`]: what the index is, what it covers of the repository per
//!   family ([`Coverage`]), and what it decided.
//!
//! # The rules
//!
//! The index gives definitions (global symbols with a definition occurrence) and the
//! `is_implementation` relationships between types. A reference's segments (`Engine.start` →
//! `Engine`, `start`) *match* a definition when they are a suffix of its path (module parts,
//! containers, name) that spans at least its containers and name (a bare name: any definition
//! of that name).
//!
//! - VERIFIED at rung 2 with a matching definition on the same line of the same file: the
//!   verdict stands, confirmed at rung 4.
//! - UNCHECKABLE at rung 2 (a macro that may declare it, a base outside the repository, a file
//!   probity could not parse), one matching symbol, its file still holding the name on the
//!   definition's line, and the reference not anchored at a root probity would have to choose
//!   (`crate::`, `./`, `path:`): VERIFIED at rung 4, at the index's location.
//! - MISSING at rung 2 and a matching definition whose file still holds the name there: the
//!   two authorities disagree; the verdict becomes UNCHECKABLE saying so (neither a false
//!   MISSING nor a false VERIFIED).
//! - MISSING at rung 2, no definition of the name under any of the reference's heads (nor under
//!   the types the heads' types implement or extend, all of them in the index), and the index
//!   covering every file of each family rung 2 searched: MISSING at rung 4, a hard block
//!   (severity `high`). Otherwise the MISSING stays at rung 2 with a note saying why rung 4
//!   could not assert it (the files it does not cover, a definition under a related
//!   container, a base outside the index).
//! - Anything else (AMBIGUOUS, flags, file paths, macros) is left as rung 2 decided.
//!
//! Exported-ness still comes from rung 2: SCIP has no visibility field. Depends on `resolve`,
//! `index`, `lang`, `fsio`, `error` and `reason`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::lang::Family;
use crate::resolve::{RefKind, Resolution, Severity, Verdict};

mod coverage;
mod lsp;
mod read;
mod symbols;

pub use coverage::{Coverage, FamilyCoverage, MAX_LISTED};
pub use lsp::{DEFAULT_LSP_TIMEOUT, LSP_AUTHORITY, LSP_RUNG, LspReport, apply_lsp};
pub use read::{MAX_DOCUMENT_BYTES, MAX_SCIP_BYTES, ScipIndex};

use read::Def;
use symbols::{Anchor, segments};

/// The authority name of rung 4.
pub const SCIP_AUTHORITY: &str = "scip";
/// The rung of a SCIP index.
pub const SCIP_RUNG: u8 = 4;

/// What the SCIP rung was given and what it decided.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScipReport {
    /// `scip`.
    pub authority: &'static str,
    /// 4.
    pub rung: u8,
    /// The index read.
    pub index: PathBuf,
    /// The indexer that wrote it (`tool_info`: name and version).
    pub tool: String,
    /// Its documents.
    pub documents: usize,
    /// Its definitions of global symbols.
    pub definitions: usize,
    /// Documents ignored: a relative path that is not a plain path inside a repository.
    pub rejected_documents: usize,
    /// Definitions skipped: a symbol that does not parse.
    pub unreadable_symbols: usize,
    /// What it covers of the repository's source files.
    pub coverage: Coverage,
    /// VERIFIED verdicts the index confirmed.
    pub confirmed: usize,
    /// UNCHECKABLE verdicts the index made VERIFIED.
    pub verified: usize,
    /// MISSING verdicts the index proved (hard blocks).
    pub missing: usize,
    /// MISSING verdicts the index contradicts (now UNCHECKABLE).
    pub disagreements: usize,
    /// MISSING verdicts the index could not assert (left at rung 2, with the reason).
    pub not_asserted: usize,
}

/// The rungs above tree-sitter a call is given: a SCIP index (rung 4) and a language server
/// (rung 3); either may be absent.
#[derive(Debug, Default)]
pub struct Rungs<'a> {
    /// A SCIP index of the repository.
    pub scip: Option<&'a ScipIndex>,
    /// A language server's command line and the budget of the whole rung.
    pub lsp: Option<LspRung>,
}

/// A language server's command line (argv) and the budget of the whole rung.
pub type LspRung = (Vec<String>, std::time::Duration);

/// What the higher rungs did.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct RungsReport {
    /// Rung 4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scip: Option<ScipReport>,
    /// Rung 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lsp: Option<LspReport>,
}

/// Apply the rungs `rungs` to rung 2's `results` under `root`: the SCIP index first (it can
/// prove), then the language server for what is still UNCHECKABLE (it can only confirm).
pub fn apply(root: &Path, rungs: &Rungs, results: &mut [Resolution]) -> RungsReport {
    let scip = rungs.scip.map(|ix| apply_scip(root, ix, results));
    let lsp = rungs
        .lsp
        .as_ref()
        .map(|(argv, budget)| apply_lsp(root, argv, *budget, results));
    RungsReport { scip, lsp }
}

/// One rung-4 lookup: the index, the root's files and the coverage.
struct Rung4<'a> {
    ix: &'a ScipIndex,
    root: &'a Path,
    files: HashSet<&'a str>,
    coverage: &'a Coverage,
}

/// Apply the index `ix` of the repository at `root` to rung 2's `results` (see the module
/// docs for the rules).
pub fn apply_scip(root: &Path, ix: &ScipIndex, results: &mut [Resolution]) -> ScipReport {
    let files = crate::index::walk(root);
    let coverage = coverage::coverage(&files, ix);
    let mut report = ScipReport {
        authority: SCIP_AUTHORITY,
        rung: SCIP_RUNG,
        index: ix.path.clone(),
        tool: ix.tool.clone(),
        documents: ix.documents.len(),
        definitions: ix.definitions(),
        rejected_documents: ix.rejected_documents,
        unreadable_symbols: ix.unreadable_symbols,
        coverage: coverage.clone(),
        confirmed: 0,
        verified: 0,
        missing: 0,
        disagreements: 0,
        not_asserted: 0,
    };
    let r4 = Rung4 {
        ix,
        root,
        files: files.iter().map(String::as_str).collect(),
        coverage: &coverage,
    };
    for r in results.iter_mut() {
        r4.decide(r, &mut report);
    }
    report
}

/// The name a resolution is of: its reference, or the callee of a call given as one
/// (`probity resolve -- 'parse(text)'`).
fn named(r: &Resolution) -> &str {
    match r.reference.split_once('(') {
        Some((callee, _)) if !r.cited_calls.is_empty() => callee.trim(),
        _ => r.reference.as_str(),
    }
}

/// The signature text of a definition for its calls' check: its documentation, or, for a
/// symbol the index defines several times (TypeScript overloads, each documented as the first),
/// a text saying so, which the check refuses.
fn signature(d: &Def) -> Option<String> {
    if d.seen > 1 {
        return Some("(+ more overloads)".to_owned());
    }
    d.sig.as_deref().map(str::to_owned)
}

/// `path:line:column` (1-based) of a definition, when it has a range.
fn location(ix: &ScipIndex, d: &Def) -> String {
    let path = &ix.documents[d.doc as usize];
    match d.at {
        Some((l, c)) => format!("{path}:{}:{}", l + 1, c + 1),
        None => path.clone(),
    }
}

impl Rung4<'_> {
    fn decide(&self, r: &mut Resolution, report: &mut ScipReport) {
        if !matches!(
            r.ref_kind,
            RefKind::Name | RefKind::Qualified | RefKind::Decorator
        ) {
            return;
        }
        let Some((segs, anchor)) = segments(named(r)) else {
            return;
        };
        let matching = self.matching(&segs);
        match r.verdict {
            Verdict::Verified => {
                let Some(loc) = r.location.as_deref() else {
                    return;
                };
                let mut it = loc.rsplitn(3, ':');
                let (_col, line, path) = (it.next(), it.next(), it.next());
                let Some(d) = matching.iter().find(|d| {
                    Some(self.ix.documents[d.doc as usize].as_str()) == path
                        && d.at.map(|(l, _)| (l + 1).to_string()).as_deref() == line
                }) else {
                    return;
                };
                r.authority = SCIP_AUTHORITY;
                r.rung = SCIP_RUNG;
                r.evidence = Some(format!("SCIP symbol `{}`", d.symbol));
                let path = self.ix.documents[d.doc as usize].clone();
                r.recheck_calls(&path, signature(d).as_deref(), SCIP_RUNG);
                report.confirmed += 1;
            }
            Verdict::Uncheckable => {
                let live: Vec<&Def> = matching.into_iter().filter(|d| self.holds(d)).collect();
                let [d] = live.as_slice() else {
                    return;
                };
                if anchor == Anchor::Rooted {
                    return;
                }
                let before = r.reason.take().unwrap_or_default();
                r.verdict = Verdict::Verified;
                r.severity = Severity::of(Verdict::Verified, SCIP_RUNG);
                r.location = Some(location(self.ix, d));
                r.authority = SCIP_AUTHORITY;
                r.rung = SCIP_RUNG;
                r.evidence = Some(format!("SCIP symbol `{}` ({})", d.symbol, d.kind.as_str()));
                r.reason = Some(format!(
                    "defined in the SCIP index; rung 2 could not decide: {before}"
                ));
                let path = self.ix.documents[d.doc as usize].clone();
                r.recheck_calls(&path, signature(d).as_deref(), SCIP_RUNG);
                report.verified += 1;
            }
            Verdict::Missing => self.missing(r, &segs, matching, report),
            Verdict::Ambiguous => {}
        }
    }

    /// Rung 2 found nothing: contradict, prove, or say why not.
    fn missing(
        &self,
        r: &mut Resolution,
        segs: &[String],
        matching: Vec<&Def>,
        report: &mut ScipReport,
    ) {
        if let Some(d) = matching.into_iter().find(|d| self.holds(d)) {
            r.verdict = Verdict::Uncheckable;
            r.severity = Severity::of(Verdict::Uncheckable, SCIP_RUNG);
            r.authority = SCIP_AUTHORITY;
            r.rung = SCIP_RUNG;
            r.evidence = Some(format!("SCIP symbol `{}` ({})", d.symbol, d.kind.as_str()));
            r.reason = Some(format!(
                "the authorities disagree: the SCIP index ({}) defines it at {}, where tree-sitter \
                 finds no declaration of it (rung 2 said MISSING)",
                self.ix.tool,
                location(self.ix, d)
            ));
            r.suggestions.clear();
            report.disagreements += 1;
            return;
        }
        let families = self.relevant(r);
        let uncovered: Vec<&FamilyCoverage> = families
            .iter()
            .filter_map(|f| self.coverage.of(*f))
            .filter(|c| !c.complete)
            .collect();
        let why_not = if !uncovered.is_empty() {
            Some(
                uncovered
                    .iter()
                    .map(|c| {
                        format!(
                            "the SCIP index covers {} of {} {} files (not: {}{})",
                            c.covered,
                            c.files,
                            c.family,
                            c.uncovered.join(", "),
                            if c.uncovered_count > c.uncovered.len() {
                                ", ..."
                            } else {
                                ""
                            }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        } else {
            self.related_definition(segs)
        };
        match why_not {
            Some(why) => {
                let note = format!("not asserted at rung 4: {why}");
                r.reason = Some(match r.reason.take() {
                    Some(n) => format!("{n}; {note}"),
                    None => note,
                });
                report.not_asserted += 1;
            }
            None => {
                r.authority = SCIP_AUTHORITY;
                r.rung = SCIP_RUNG;
                r.severity = Severity::of(Verdict::Missing, SCIP_RUNG);
                let covered: Vec<String> = families
                    .iter()
                    .filter_map(|f| self.coverage.of(*f))
                    .map(|c| format!("{} {} files", c.files, c.family))
                    .collect();
                r.evidence = Some(format!(
                    "absent from the SCIP index ({}), which covers every source file ({})",
                    self.ix.tool,
                    if covered.is_empty() {
                        "none under the root".to_owned()
                    } else {
                        covered.join(", ")
                    }
                ));
                report.missing += 1;
            }
        }
    }

    /// The families whose files could declare what `r` names: those of the files rung 2
    /// searched when it lists them all, else every family.
    fn relevant(&self, r: &Resolution) -> Vec<Family> {
        if let Some(s) = &r.searched
            && !s.files.is_empty()
            && s.files.len() == s.files_analyzed
        {
            let mut out: Vec<Family> = Vec::new();
            for f in s.files.iter().filter_map(|p| coverage::family_of(p)) {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
            return out;
        }
        Family::ALL.to_vec()
    }

    /// The definitions `segs` match (see the module docs).
    fn matching(&self, segs: &[String]) -> Vec<&Def> {
        let Some(name) = segs.last() else {
            return Vec::new();
        };
        let Some(ids) = self.ix.by_name.get(name.as_str()) else {
            return Vec::new();
        };
        ids.iter()
            .map(|&i| &self.ix.defs[i as usize])
            .filter(|d| {
                if segs.len() == 1 {
                    return true;
                }
                let own = d.parts.len() - d.ns;
                segs.len() >= own
                    && segs.len() <= d.parts.len()
                    && d.parts[d.parts.len() - segs.len()..]
                        .iter()
                        .zip(segs)
                        .all(|(p, s)| **p == **s)
            })
            .collect()
    }

    /// Why a definition of the name might still be the one cited: one under a head of the
    /// reference or under a type a head's type implements or extends, or a head's type with a
    /// base outside the index (`None`: none, absence holds).
    fn related_definition(&self, segs: &[String]) -> Option<String> {
        let (name, heads) = segs.split_last()?;
        let defs = self.ix.by_name.get(name.as_str())?;
        if heads.is_empty() {
            // A bare name defined anywhere matches (`matching`); nothing to add.
            return None;
        }
        let mut related: HashSet<&str> = heads.iter().map(String::as_str).collect();
        // The types the heads name, and their bases, transitively.
        let mut todo: Vec<&str> = heads
            .iter()
            .filter_map(|h| self.ix.by_name.get(h.as_str()))
            .flatten()
            .map(|&i| &*self.ix.defs[i as usize].symbol)
            .collect();
        let mut seen: HashSet<&str> = HashSet::new();
        while let Some(sym) = todo.pop() {
            if !seen.insert(sym) {
                continue;
            }
            for b in self.ix.bases.get(sym).into_iter().flatten() {
                match self.ix.by_symbol.get(b) {
                    Some(&i) => {
                        let d = &self.ix.defs[i as usize];
                        if let Some(n) = d.parts.last() {
                            related.insert(n);
                        }
                        todo.push(&d.symbol);
                    }
                    None => {
                        return Some(format!(
                            "`{sym}` implements or extends `{b}`, which the index does not define"
                        ));
                    }
                }
            }
        }
        let d = defs.iter().map(|&i| &self.ix.defs[i as usize]).find(|d| {
            d.parts[..d.parts.len() - 1]
                .iter()
                .any(|p| related.contains(&**p))
        })?;
        Some(format!(
            "the index defines `{name}` under a related container (`{}` at {})",
            d.symbol,
            location(self.ix, d)
        ))
    }

    /// Whether the definition's file, as it is now, still holds its name on the definition's
    /// line (an index older than the tree, or an indexer's artefact, is not evidence).
    fn holds(&self, d: &Def) -> bool {
        let path = &self.ix.documents[d.doc as usize];
        let (Some((line, _)), Some(name)) = (d.at, d.parts.last()) else {
            return false;
        };
        self.files.contains(path.as_str()) && line_holds(self.root, path, line as usize, name)
    }
}

/// Whether line `line` (0-based) of the root's file `rel`, as it is now, holds `name` as a
/// whole word (what makes an authority's definition evidence: rungs 3 and 4).
fn line_holds(root: &Path, rel: &str, line: usize, name: &str) -> bool {
    let Ok(bytes) = crate::fsio::read_repo_file(root.join(rel)) else {
        return false;
    };
    bytes
        .split(|&b| b == b'\n')
        .nth(line)
        .is_some_and(|l| holds_word(&String::from_utf8_lossy(l), name))
}

/// Whether `text` holds `name` as a whole word (not inside a longer identifier).
fn holds_word(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(word)
            && !text[i + name.len()..].chars().next().is_some_and(word)
    })
}
