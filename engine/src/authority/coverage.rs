//! What a SCIP index covers of a repository, per language family: every source file the walk
//! lists (gitignore respected, hidden files skipped; the files probity itself resolves over)
//! against the index's documents. Checked, never assumed: an indexer that stopped half way (a
//! crash, an `include` that leaves files out) leaves files without a document, and for their
//! family absence is not proven by the index.

use std::collections::HashSet;
use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use super::ScipIndex;
use crate::lang::Family;

/// The most uncovered files listed per family.
pub const MAX_LISTED: usize = 20;

/// What the index covers of one family's files.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FamilyCoverage {
    /// `rust`, `python`, `javascript` (JavaScript and TypeScript).
    pub family: String,
    /// The family's source files under the root.
    pub files: usize,
    /// How many of them the index has a document for.
    pub covered: usize,
    /// Files without a document, sorted; at most [`MAX_LISTED`].
    pub uncovered: Vec<String>,
    /// How many files have no document (`uncovered` may list fewer).
    pub uncovered_count: usize,
    /// Whether every file of the family has a document: only then can the index prove a name
    /// absent in it.
    pub complete: bool,
}

/// What the index covers of the repository.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Coverage {
    /// One per family with source files under the root, in [`Family::ALL`] order.
    pub families: Vec<FamilyCoverage>,
    /// Documents of the index that are no file of the repository (an index of another tree,
    /// or of files since removed).
    pub foreign_documents: usize,
}

impl Coverage {
    /// Whether every file of family `f` is covered (a family without files is).
    pub fn complete(&self, f: Family) -> bool {
        self.families
            .iter()
            .find(|c| c.family == f.as_str())
            .is_none_or(|c| c.complete)
    }

    /// The coverage of family `f`, when the root has files of it.
    pub fn of(&self, f: Family) -> Option<&FamilyCoverage> {
        self.families.iter().find(|c| c.family == f.as_str())
    }
}

/// The family of a repository path, by its extension.
pub(super) fn family_of(path: &str) -> Option<Family> {
    crate::lang::for_path(Path::new(path)).map(|(l, _)| l.family())
}

/// The coverage of `ix` over `files`, the repository's files (relative, `/`-separated).
pub(super) fn coverage(files: &[String], ix: &ScipIndex) -> Coverage {
    let docs: HashSet<&str> = ix.documents.iter().map(String::as_str).collect();
    let ours: HashSet<&str> = files.iter().map(String::as_str).collect();
    let mut families = Vec::new();
    for &f in Family::ALL {
        let of: Vec<&String> = files.iter().filter(|p| family_of(p) == Some(f)).collect();
        if of.is_empty() {
            continue;
        }
        let uncovered: Vec<&String> = of
            .iter()
            .copied()
            .filter(|p| !docs.contains(p.as_str()))
            .collect();
        families.push(FamilyCoverage {
            family: f.as_str().to_owned(),
            files: of.len(),
            covered: of.len() - uncovered.len(),
            uncovered: uncovered
                .iter()
                .take(MAX_LISTED)
                .map(|p| (*p).clone())
                .collect(),
            uncovered_count: uncovered.len(),
            complete: uncovered.is_empty(),
        });
    }
    Coverage {
        families,
        foreign_documents: ix
            .documents
            .iter()
            .filter(|d| !ours.contains(d.as_str()))
            .count(),
    }
}
