//! The write-ahead journal of `probity accept reconfirm` (docs/accept.md, signal 5): before the
//! fix is reverted in the working tree, the exact bytes of every file it touches are saved in
//! `<ledger>.reconfirm` (written atomically and synced), with the hash of the reverted bytes
//! that are about to replace them. Whatever happens next (a failed run, a signal, a crash, a
//! power cut), the next `accept reconfirm` of the session, and `probity cleanup`, call
//! [`recover`] first: every file is put back byte-exactly, then the journal is removed.
//!
//! A file that holds neither the saved bytes nor the reverted ones was changed by someone else
//! after the crash: it is left alone, the journal is kept, and the call is refused
//! (`concurrent_modification`), so no byte of anyone's is ever overwritten blindly.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::fsio;
use crate::reason::Reason;
use crate::source::sha256_hex;

/// One file of the journal.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JournalFile {
    /// Repository-relative path, `/`-separated.
    pub path: String,
    /// The file's bytes before anything was touched, hex; `None` when it did not exist.
    pub saved_hex: Option<String>,
    /// SHA-256 of the reverted bytes written in its place; `None` when the revert removes it.
    pub reverted_sha256: Option<String>,
}

/// The journal: the files of one reconfirm, as they were.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Journal {
    /// Always 1.
    pub schema_version: u32,
    /// The session.
    pub slug: String,
    /// When the reconfirm began.
    pub started_at: String,
    /// The files.
    pub files: Vec<JournalFile>,
}

/// What [`recover`] put back.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Recovered {
    /// Files rewritten with their saved bytes (or removed, when they did not exist).
    pub restored: Vec<String>,
    /// Files that already held their saved bytes.
    pub unchanged: Vec<String>,
}

/// `<ledger>.reconfirm`.
pub fn journal_path(ledger: &Path) -> PathBuf {
    let mut name = ledger.as_os_str().to_owned();
    name.push(".reconfirm");
    PathBuf::from(name)
}

/// Write the journal (atomically, synced); refused when one already exists.
pub fn write(ledger: &Path, journal: &Journal) -> Result<(), Error> {
    let path = journal_path(ledger);
    if path.exists() {
        return Err(Error::at(
            Reason::ConcurrentModification,
            &path,
            "a reconfirm journal already exists (another reconfirm is running, or recover it)",
        ));
    }
    let bytes = serde_json::to_vec(journal)
        .map_err(|e| Error::new(Reason::IoError, format!("journal: {e}")))?;
    fsio::atomic_replace(&path, None, &bytes)
}

/// Remove the journal (the tree is as it was).
pub fn remove(ledger: &Path) -> Result<(), Error> {
    let path = journal_path(ledger);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(&path, e)),
    }
}

/// The current bytes of `rel` below `root` (`None` when it does not exist).
pub fn read_current(root: &Path, rel: &str) -> Result<Option<Vec<u8>>, Error> {
    let c = fsio::confine(root, rel)?;
    if std::fs::symlink_metadata(c.path()).is_err() {
        return Ok(None);
    }
    c.read().map(Some)
}

/// Make `rel` hold `bytes` (`None`: not exist), only if it now hashes to `expected` (`None`:
/// does not exist).
pub fn put(
    root: &Path,
    rel: &str,
    expected: Option<&str>,
    bytes: Option<&[u8]>,
) -> Result<(), Error> {
    let c = fsio::confine(root, rel)?;
    let now = read_current(root, rel)?;
    let now_sha = now.as_deref().map(sha256_hex);
    if now_sha.as_deref() != expected {
        return Err(Error::at(
            Reason::ConcurrentModification,
            c.path(),
            "changed since probity read it; nothing was written",
        ));
    }
    match (bytes, expected) {
        (Some(b), Some(e)) => c.replace(e, b),
        (Some(b), None) => {
            if let Some(d) = c.path().parent() {
                std::fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
            }
            fsio::atomic_replace(c.path(), None, b)
        }
        (None, Some(_)) => std::fs::remove_file(c.path()).map_err(|e| Error::io(c.path(), e)),
        (None, None) => Ok(()),
    }
}

fn saved_bytes(f: &JournalFile) -> Result<Option<Vec<u8>>, Error> {
    f.saved_hex
        .as_deref()
        .map(|h| {
            hex::decode(h).map_err(|e| {
                Error::new(
                    Reason::LedgerInvalid,
                    format!("reconfirm journal, {}: {e}", f.path),
                )
            })
        })
        .transpose()
}

/// The largest journal read back (it saves whole files of the fix).
const JOURNAL_LIMIT: u64 = 1 << 30;

/// Put back every file of a journal left by an interrupted reconfirm, then remove it. `Ok(None)`
/// when there is no journal.
pub fn recover(ledger: &Path, root: &Path) -> Result<Option<Recovered>, Error> {
    let path = journal_path(ledger);
    // Only a journal that is not there means "nothing to recover": one that cannot be read
    // must not let cleanup go on with the fix still reverted.
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path, e)),
        Ok(_) => {}
    }
    // It holds the fix's files, each at most a source file's size.
    let raw = fsio::read_bounded(
        &path,
        JOURNAL_LIMIT,
        Reason::FileTooLarge,
        "reconfirm journals",
    )?;
    let journal: Journal = serde_json::from_slice(&raw).map_err(|e| {
        Error::at(
            Reason::LedgerInvalid,
            &path,
            format!("unreadable reconfirm journal: {e}"),
        )
    })?;
    let mut out = Recovered::default();
    let mut conflicts = Vec::new();
    for f in &journal.files {
        let saved = saved_bytes(f)?;
        let now = read_current(root, &f.path)?;
        if now == saved {
            out.unchanged.push(f.path.clone());
            continue;
        }
        let now_sha = now.as_deref().map(sha256_hex);
        if now_sha == f.reverted_sha256 {
            put(root, &f.path, now_sha.as_deref(), saved.as_deref())?;
            out.restored.push(f.path.clone());
        } else {
            conflicts.push(f.path.clone());
        }
    }
    // A write the interrupted process was making when killed left its temporary file next to
    // the file; strip and cleanup sweep only the probes' and the ledger's folders, and a fix
    // may span others (found on base64 0.21.1: benches/accept/reconfirm_real.py).
    let dirs: std::collections::BTreeSet<PathBuf> = journal
        .files
        .iter()
        .filter_map(|f| fsio::confine(root, &f.path).ok())
        .filter_map(|c| c.path().parent().map(Path::to_path_buf))
        .collect();
    for d in dirs {
        fsio::remove_stale_temps(&d);
    }
    if !conflicts.is_empty() {
        return Err(Error::at(
            Reason::ConcurrentModification,
            &path,
            format!(
                "{} changed since the interrupted reconfirm (neither the fix's bytes nor the \
                 reverted ones); they were left alone and the journal kept: put them back by \
                 hand, then remove the journal",
                conflicts.join(", ")
            ),
        ));
    }
    remove(ledger)?;
    Ok(Some(out))
}
