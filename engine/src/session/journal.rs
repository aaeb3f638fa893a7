//! The write-ahead journal of `probity accept reconfirm` (docs/accept.md, signal 5): before the
//! fix is reverted in the working tree, the exact bytes and permission bits of every file it
//! touches are saved in the journal (written atomically and synced), with the hash and mode of
//! the reverted version that is about to replace them. Whatever happens next (a failed run, a
//! signal, a crash, a power cut), the next `accept reconfirm` of the session, and `probity
//! cleanup`, put every file back from it first, then remove it.
//!
//! The journal is a copy of the user's files, and restoring from it writes files: so it is kept
//! where a clone cannot deliver one and only its owner can read it, and it is authenticated
//! (`store`: `<git dir>/probity/`, 0700, an HMAC keyed per repository). A journal that does not
//! authenticate, or one at the old place next to the ledger (`<ledger>.reconfirm`, under
//! `.planning/`; an older probity's, or planted), is never read for a restore: every caller
//! refuses with `journal_untrusted` and says to delete it. Even an authentic journal only
//! writes a path that is confined in the tree (no `.git` component, no symbolic link on the way:
//! `fsio::confine`), only when its current bytes and mode are exactly what reconfirm wrote,
//! and creates only a file that existed before reconfirm began.
//!
//! A file that holds neither the saved version nor the reverted one was changed by someone else
//! after the crash: it is left alone, the journal is kept, and the call is refused
//! (`concurrent_modification`), so no byte of anyone's is ever overwritten blindly. Restores
//! happen only under the session's reconfirm lock (`reconfirm_running` while another process
//! holds it), so a live reconfirm's journal is never "recovered".

mod store;

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use store::{Place, ReconfirmLock};

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
    /// Its permission bits then (`None` when it did not exist).
    #[serde(default)]
    pub saved_mode: Option<u32>,
    /// SHA-256 of the reverted bytes written in its place; `None` when the revert removes it.
    pub reverted_sha256: Option<String>,
    /// The permission bits of the reverted file.
    #[serde(default)]
    pub reverted_mode: Option<u32>,
}

/// The journal: the files of one reconfirm, as they were.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Journal {
    /// 2 (the authenticated format).
    pub schema_version: u32,
    /// The session.
    pub slug: String,
    /// The canonical ledger path.
    pub ledger: String,
    /// The canonical work tree the paths are relative to.
    pub root: String,
    /// When the reconfirm began.
    pub started_at: String,
    /// The files.
    pub files: Vec<JournalFile>,
}

/// What [`Reconfirming::recover`] put back.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Recovered {
    /// Files rewritten with their saved bytes (or removed, when they did not exist).
    pub restored: Vec<String>,
    /// Files that already held their saved bytes.
    pub unchanged: Vec<String>,
}

/// Where journals were kept before they were authenticated: `<ledger>.reconfirm`. A file there
/// is never read (see the module doc).
pub fn old_journal_path(ledger: &Path) -> PathBuf {
    let mut name = ledger.as_os_str().to_owned();
    name.push(".reconfirm");
    PathBuf::from(name)
}

fn untrusted(path: &Path, why: &str) -> Error {
    Error::at(
        Reason::JournalUntrusted,
        path,
        format!(
            "{why}; it was not read for a restore and nothing was written. If an interrupted \
             reconfirm left a fix reverted, put its files back by hand (git shows them); then \
             delete this file: rm '{}'",
            path.display()
        ),
    )
}

/// Refused when a journal lies at the old place (a clone can deliver it).
fn refuse_old(ledger: &Path) -> Result<(), Error> {
    let old = old_journal_path(ledger);
    if std::fs::symlink_metadata(&old).is_ok() {
        return Err(untrusted(
            &old,
            "a reconfirm journal under .planning/, where probity no longer keeps them (a clone \
             or a pull can deliver it)",
        ));
    }
    Ok(())
}

/// The session being reconfirmed: its place, under its reconfirm lock.
#[derive(Debug)]
pub struct Reconfirming {
    place: Place,
    slug: String,
    _lock: ReconfirmLock,
}

/// Take the reconfirm lock of the session `slug` (ledger `ledger`) in the work tree of `root`,
/// making the private folder and key if needed: `reconfirm_running` while another reconfirm
/// holds it, `journal_untrusted` while a journal lies at the old place.
pub fn begin(ledger: &Path, root: &Path, slug: &str) -> Result<Reconfirming, Error> {
    refuse_old(ledger)?;
    let place = store::locate(root, ledger, slug).ok_or_else(|| {
        Error::new(
            Reason::NotAGitRepository,
            format!("{} is not inside a git work tree", root.display()),
        )
    })?;
    place.ensure_dir()?;
    place.ensure_key()?;
    let lock = place.lock(true)?.expect("created");
    Ok(Reconfirming {
        place,
        slug: slug.to_owned(),
        _lock: lock,
    })
}

impl Reconfirming {
    /// The work tree the journal's paths are relative to.
    pub fn root(&self) -> &Path {
        &self.place.top
    }

    /// A journal of this session over `files`.
    pub fn journal(&self, started_at: String, files: Vec<JournalFile>) -> Journal {
        Journal {
            schema_version: store::FORMAT,
            slug: self.slug.clone(),
            ledger: self.place.ledger.clone(),
            root: self.place.top.to_string_lossy().into_owned(),
            started_at,
            files,
        }
    }

    /// Write the journal (0600, atomically, synced, authenticated); refused when one exists.
    pub fn write(&self, journal: &Journal) -> Result<(), Error> {
        let path = self.place.journal();
        if std::fs::symlink_metadata(&path).is_ok() {
            return Err(Error::at(
                Reason::ConcurrentModification,
                &path,
                "a reconfirm journal already exists; recover it first",
            ));
        }
        let key = self.place.ensure_key()?;
        let body = serde_json::to_vec(journal)
            .map_err(|e| Error::new(Reason::IoError, format!("journal: {e}")))?;
        let mut bytes = format!(
            "{} {} {}\n",
            store::MAGIC,
            store::FORMAT,
            store::mac(&key, &body)
        )
        .into_bytes();
        bytes.extend_from_slice(&body);
        fsio::atomic_replace_mode(&path, None, &bytes, Some(0o600))
    }

    /// Put back every file of the session's journal (one an interrupted reconfirm left, or this
    /// one's own), then remove it; `Ok(None)` when there is none. (A file at the old place was
    /// refused by [`begin`]; one planted there since does not stop this reconfirm's restore.)
    pub fn recover(&self) -> Result<Option<Recovered>, Error> {
        match read(&self.place, &self.slug)? {
            None => Ok(None),
            Some(j) => restore(&self.place, &j).map(Some),
        }
    }
}

/// `cleanup`'s recovery: refused while a reconfirm of the session runs (`reconfirm_running`) or
/// a journal lies at the old place (`journal_untrusted`); else what [`Reconfirming::recover`]
/// does. The lock is returned so that no reconfirm starts before the caller is done.
pub fn recover_for_cleanup(
    ledger: &Path,
    root: &Path,
    slug: &str,
) -> Result<(Option<Recovered>, Option<ReconfirmLock>), Error> {
    refuse_old(ledger)?;
    let Some(place) = store::locate(root, ledger, slug) else {
        return Ok((None, None));
    };
    if std::fs::symlink_metadata(&place.dir).is_err() {
        return Ok((None, None));
    }
    let lock = place.lock(true)?;
    let recovered = match read(&place, slug)? {
        None => None,
        Some(j) => Some(restore(&place, &j)?),
    };
    Ok((recovered, lock))
}

/// What the gate says of the session's journal, reading only: the detail of an authentic
/// journal (a fix left reverted: `reconfirm_pending`), `journal_untrusted` for one that is not,
/// the error reading it; `None` when there is none.
pub fn pending(ledger: &Path, slug: &str) -> Option<Result<String, Error>> {
    if let Err(e) = refuse_old(ledger) {
        return Some(Err(e));
    }
    let dir = ledger.parent().filter(|d| !d.as_os_str().is_empty())?;
    let place = store::locate(dir, ledger, slug)?;
    let path = place.journal();
    match read(&place, slug) {
        Ok(None) => None,
        Ok(Some(_)) => Some(Ok(format!(
            "an interrupted `accept reconfirm` left the fix reverted ({}); run it again or \
             `probity cleanup` to put the fix back",
            path.display()
        ))),
        Err(e) => Some(Err(e)),
    }
}

/// The largest journal read back (it saves whole files of the fix).
const JOURNAL_LIMIT: u64 = 1 << 30;

/// The session's journal, authenticated: `None` when there is none, `journal_untrusted` when
/// it is not probity's own for this session and tree.
fn read(place: &Place, slug: &str) -> Result<Option<Journal>, Error> {
    let path = place.journal();
    // Only a journal that is not there means "nothing to recover": one that cannot be read
    // must not let cleanup go on with the fix still reverted.
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path, e)),
        Ok(_) => {}
    }
    let raw = fsio::read_bounded(
        &path,
        JOURNAL_LIMIT,
        Reason::FileTooLarge,
        "reconfirm journals",
    )?;
    let Some(key) = place.read_key().ok().flatten() else {
        return Err(untrusted(
            &path,
            "the repository's journal key is missing or unusable",
        ));
    };
    let nl = raw.iter().position(|b| *b == b'\n').unwrap_or(raw.len());
    let (head, body) = (&raw[..nl], raw.get(nl + 1..).unwrap_or_default());
    let head = String::from_utf8_lossy(head);
    let words: Vec<&str> = head.split(' ').collect();
    let authentic = match words.as_slice() {
        [magic, format, mac] => {
            *magic == store::MAGIC
                && *format == store::FORMAT.to_string()
                && store::same_mac(mac, &store::mac(&key, body))
        }
        _ => false,
    };
    if !authentic {
        return Err(untrusted(
            &path,
            "a reconfirm journal that fails authentication (not written by probity here, or \
             changed since)",
        ));
    }
    let journal: Journal = serde_json::from_slice(body).map_err(|e| {
        Error::at(
            Reason::LedgerInvalid,
            &path,
            format!("unreadable reconfirm journal: {e}"),
        )
    })?;
    if journal.schema_version != store::FORMAT
        || journal.slug != slug
        || journal.ledger != place.ledger
        || Path::new(&journal.root) != place.top
    {
        return Err(untrusted(
            &path,
            "a reconfirm journal of another session or work tree",
        ));
    }
    if let Some(f) = journal.files.iter().find(|f| !plausible(f)) {
        return Err(untrusted(
            &path,
            &format!(
                "a reconfirm journal naming `{}`, which reconfirm never writes",
                f.path
            ),
        ));
    }
    Ok(Some(journal))
}

/// What an entry of a journal reconfirm wrote looks like: a relative path with no `.git`
/// component, a file that existed before or after the revert, modes of plain files.
fn plausible(f: &JournalFile) -> bool {
    let git = f
        .path
        .split(['/', '\\'])
        .any(|c| c.eq_ignore_ascii_case(".git") || c.is_empty() || c == "..");
    let modes = [f.saved_mode, f.reverted_mode]
        .into_iter()
        .flatten()
        .all(|m| m & !0o777 == 0);
    !git && modes && (f.saved_hex.is_some() || f.reverted_sha256.is_some())
}

/// The current bytes of `rel` below `root` (`None` when it does not exist).
pub fn read_current(root: &Path, rel: &str) -> Result<Option<Vec<u8>>, Error> {
    let c = fsio::confine(root, rel)?;
    if c.stat()?.is_none() {
        return Ok(None);
    }
    c.read().map(Some)
}

/// The permission bits of `rel` below `root` (`None` when it does not exist).
pub fn current_mode(root: &Path, rel: &str) -> Result<Option<u32>, Error> {
    Ok(fsio::confine(root, rel)?.stat()?.map(|(m, _, _)| m))
}

/// Make `rel` hold `bytes` with the permission bits `mode` (`None` bytes: not exist; `None`
/// mode: its own, 0644 for a new file), only if it now hashes to `expected` (`None`: does not
/// exist).
pub fn put(
    root: &Path,
    rel: &str,
    expected: Option<&str>,
    bytes: Option<&[u8]>,
    mode: Option<u32>,
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
        (Some(b), Some(e)) => c.replace_mode(e, b, mode),
        (Some(b), None) => {
            let m = mode.unwrap_or(0o644);
            match c.create(b, m) {
                // A folder on the way is missing (a file the fix moved away): made, then the
                // path confined again.
                Err(e) if e.reason == Reason::FileNotFound => {
                    if let Some(d) = c.path().parent() {
                        std::fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
                    }
                    fsio::confine(root, rel)?.create(b, m)
                }
                r => r,
            }
        }
        (None, Some(_)) => c.remove(),
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

/// Put back every file of an authentic journal (see the module doc), then remove it.
fn restore(place: &Place, journal: &Journal) -> Result<Recovered, Error> {
    let root = &place.top;
    let path = place.journal();
    let mut out = Recovered::default();
    let mut conflicts = Vec::new();
    for f in &journal.files {
        let saved = saved_bytes(f)?;
        let now = read_current(root, &f.path)?;
        let mode = current_mode(root, &f.path)?;
        if now == saved && (saved.is_none() || f.saved_mode.is_none() || mode == f.saved_mode) {
            out.unchanged.push(f.path.clone());
            continue;
        }
        let now_sha = now.as_deref().map(sha256_hex);
        let mode_ok = now.is_none() || f.reverted_mode.is_none() || mode == f.reverted_mode;
        if now_sha == f.reverted_sha256 && mode_ok {
            put(
                root,
                &f.path,
                now_sha.as_deref(),
                saved.as_deref(),
                f.saved_mode,
            )?;
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
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&path, e)),
        _ => Ok(out),
    }
}
