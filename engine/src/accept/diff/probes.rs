//! Which probe blocks `accept diff` may leave out of the fix: only those a live ledger entry owns.
//! Markers are text anyone can type, so a block is excluded only when a live entry (status not
//! `removed`) of a ledger under the root's `.planning/debug/` (or one named with `--ledger`) has
//! its slug, probe id and file, and the sha256 of the block's exact bytes. Every other block stays
//! in the text, is classified like the code it is, and is itself an `unledgered_probe` finding.
//! A ledger that cannot be read owns nothing (its blocks are then classified: fail closed).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ledger::{Ledger, ProbeStatus};

/// The folder, relative to the work tree's top, that holds session ledgers.
const LEDGER_DIR: &str = ".planning/debug";

/// The live source probes the ledgers know: `(slug, probe)` to `(file, block sha256)`.
#[derive(Debug, Default)]
pub struct Owned {
    live: HashMap<(String, String), Vec<(String, String)>>,
}

impl Owned {
    /// Read every `*.json` directly under `root/.planning/debug/`, and `extra`.
    pub fn load(root: &Path, extra: &[PathBuf]) -> Owned {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(LEDGER_DIR))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.extend(extra.iter().cloned());
        paths.sort();
        paths.dedup();
        let mut out = Owned::default();
        for p in paths {
            // `Ledger::load` refuses a symlink, a non-file, an oversized or malformed ledger.
            let Ok(ledger) = Ledger::load(&p) else {
                continue;
            };
            for e in ledger.probes {
                if e.status == ProbeStatus::Removed {
                    continue;
                }
                let (Some(file), Some(sha)) = (e.file, e.expected_block_sha256) else {
                    continue;
                };
                out.live
                    .entry((e.slug, e.id))
                    .or_default()
                    .push((file, sha.to_ascii_lowercase()));
            }
        }
        out
    }

    /// Whether a live entry owns the block of `(slug, probe)` in `file` (repository-relative,
    /// `None` when the name is not UTF-8: no ledger can name it) whose bytes hash to `sha`.
    pub fn owns(&self, slug: &str, probe: &str, file: Option<&str>, sha: &str) -> bool {
        let Some(file) = file else { return false };
        self.live
            .get(&(slug.to_owned(), probe.to_owned()))
            .is_some_and(|v| v.iter().any(|(f, h)| f == file && h == sha))
    }
}
