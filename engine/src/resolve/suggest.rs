//! Suggestions for MISSING references: the files to load for names near them (from the word
//! index), the nearest names among what was loaded, and near paths for a missing file.

use super::Repo;
use super::load::ToLoad;
use super::refs::Ref;
use crate::index::{self, Kind};

/// How many near words [`Repo::near_files`] loads files for, per MISSING reference.
const NEAR_WORDS: usize = 6;

impl Repo {
    /// The files to load so that [`Repo::suggest`] can name declarations near `target` (a
    /// MISSING reference's name): the vocabulary words within `nearest`'s distance of it, closest
    /// first, and for each of the first [`NEAR_WORDS`] of them up to two files where it stands in
    /// a declaration position. For a flag: files declaring a flag that shares a word with it.
    /// Each file comes with the word it was loaded for.
    pub(super) fn near_files(&self, target: &str, flag: bool) -> ToLoad {
        let post = self.postings();
        let mut out = Vec::new();
        if flag {
            for part in target.split('-').filter(|p| p.len() >= 3) {
                out.extend(
                    post.exact(part)
                        .filter(|&(_, m)| m & index::WORD_FLAG != 0)
                        .take(NEAR_WORDS)
                        .map(|(f, _)| (post.files[f].clone(), vec![part.to_owned()])),
                );
            }
            return out;
        }
        let max = (target.to_lowercase().chars().count() / 3).max(2);
        let near = post.near(target, max);
        let mut words = 0;
        for (_, id) in near {
            let at: Vec<usize> = post
                .files_of(id)
                .filter(|&(_, m)| m & (index::WORD_DECL | index::WORD_IMPORT) != 0)
                .map(|(f, _)| f)
                .take(2)
                .collect();
            if at.is_empty() {
                continue;
            }
            let w = post.word(id).to_owned();
            out.extend(
                at.into_iter()
                    .map(|f| (post.files[f].clone(), vec![w.clone()])),
            );
            words += 1;
            if words == NEAR_WORDS {
                break;
            }
        }
        out
    }

    pub(super) fn suggest(&self, r: &Ref, scope: &[String]) -> Vec<String> {
        let Some(target) = r.primary() else {
            return Vec::new();
        };
        let pool: Vec<String> = if !scope.is_empty() {
            scope.to_vec()
        } else {
            match r {
                Ref::Flag(_) => self
                    .files
                    .values()
                    .flat_map(|f| f.decls.iter().filter(|d| d.kind == Kind::CliFlag))
                    .map(|d| d.name.trim_start_matches('-').to_owned())
                    .collect(),
                _ => {
                    // Unique names (not every declaration), of a length `nearest` can accept.
                    let max = (target.to_lowercase().chars().count() / 3).max(2);
                    self.by_name
                        .iter()
                        .filter(|(n, _)| n.len().abs_diff(target.len()) <= max)
                        .filter(|(_, v)| {
                            v.iter().any(|&(no, i)| {
                                self.files.get(&self.loaded[no as usize]).is_some_and(|f| {
                                    !matches!(
                                        f.decls[i as usize].kind,
                                        Kind::Import | Kind::CliFlag
                                    )
                                })
                            })
                        })
                        .map(|(n, _)| n.clone())
                        .collect()
                }
            }
        };
        let prefix = if matches!(r, Ref::Flag(_)) { "--" } else { "" };
        nearest(&target, pool.iter().map(String::as_str))
            .into_iter()
            .map(|s| format!("{prefix}{s}"))
            .collect()
    }

    pub(super) fn near_paths(&self, p: &str) -> Vec<String> {
        let base = p.rsplit('/').next().unwrap_or(p);
        let mut scored: Vec<(usize, &String)> = self
            .ws
            .paths
            .iter()
            .filter_map(|q| {
                let qb = q.rsplit('/').next().unwrap_or(q);
                let d = levenshtein(base, qb).min(levenshtein(p, q));
                (d <= (base.len() / 3).max(2)).then_some((d, q))
            })
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, q)| q.clone()).collect()
    }
}

pub(super) use crate::similar::{levenshtein, nearest};

#[cfg(test)]
mod tests {
    use crate::index::{Postings, words};

    /// The word index's bounded near-word search agrees with a plain full-table edit distance on
    /// every word.
    #[test]
    fn postings_near_agrees_with_levenshtein() {
        let a = words(
            b"def parse_rows(): pass\nParse_Row = 1\nparse_columns = 2\n",
            true,
        );
        let p = Postings::build(&[("a.py", a.as_str())]).unwrap();
        for (i, w) in p.words() {
            let full = super::levenshtein("parse_row", &w.to_lowercase());
            let got = p
                .near("parse_row", 20)
                .into_iter()
                .find(|x| x.1 == i)
                .map(|x| x.0);
            if w != "parse_row" {
                assert_eq!(got, Some(full), "{w}");
            }
        }
    }
}
