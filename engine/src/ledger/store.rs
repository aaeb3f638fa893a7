//! The ledger store: where ledgers live, loading, saving, and the lock that serializes writers.
//!
//! A ledger that does not parse is never rewritten: it is reported (`ledger_unreadable`) and left
//! on disk for inspection. Saving is atomic and durable (temp file, fsync, rename, fsync
//! directory, through `fsio`). Every operation that changes a ledger holds its
//! [`LedgerLock`] (`<ledger>.lock`, `flock`) from before it loads until after its last save; the
//! lock belongs to the library operations (`ops`, `session`), never to a front-end.
//!
//! Must not: interpret the session rules (that is [`super::state`]) or touch source files.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::schema::{Ledger, ProbeStatus};
use crate::error::Error;
use crate::fsio;
use crate::reason::Reason;

impl Ledger {
    /// Load a ledger; a missing file is an empty ledger.
    pub fn load(path: &Path) -> Result<Ledger, Error> {
        check_session_folder(path)?;
        let bytes = match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Ledger {
                    schema_version: 1,
                    ..Ledger::default()
                });
            }
            _ => fsio::read_target(path).map_err(|e| {
                let reason = match e.reason {
                    Reason::FileNotFound => Reason::FileNotFound,
                    Reason::IoError => Reason::LedgerUnreadable,
                    other => other,
                };
                Error::new(reason, e.detail)
            })?,
        };
        Ledger::parse(&bytes, path)
    }

    /// A ledger from the bytes of a file (`path` names it in errors): JSON of the schema,
    /// `schema_version` 1, each live probe once (`ledger_unreadable`, `ledger_invalid`).
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Ledger, Error> {
        let ledger: Ledger = serde_json::from_slice(bytes).map_err(|e| {
            Error::new(Reason::LedgerUnreadable, format!("{}: {e}", path.display()))
        })?;
        checked(ledger, path)
    }

    /// [`Ledger::load`] for the commands that remove probes and artifacts (`strip`, `cleanup`),
    /// which must work on any session: a ledger past the read limit (runs of a version that did
    /// not bound them, or a hand-edited one) is read as a stream, up to
    /// [`MAX_OVERSIZED_LEDGER_BYTES`], keeping only the most recent [`super::MAX_RUNS_KEPT`] run
    /// records (the others counted in `runs_dropped`), so memory stays bounded; the next save
    /// writes the compacted ledger, which every command reads again.
    /// See: issue 12, "A session can outgrow its own ledger".
    pub fn load_for_removal(path: &Path) -> Result<Ledger, Error> {
        match Ledger::load(path) {
            Err(e) if e.reason == Reason::FileTooLarge => load_oversized(path),
            other => other,
        }
    }
}

/// The most bytes [`Ledger::load_for_removal`] streams of an oversized ledger.
pub const MAX_OVERSIZED_LEDGER_BYTES: u64 = 1 << 30;

/// Stream an oversized ledger: a regular file (not followed if a symlink), its top-level
/// fields read one by one, `runs` keeping only the most recent records; then compacted.
fn load_oversized(path: &Path) -> Result<Ledger, Error> {
    use std::io::Read;
    let unreadable = |e: &dyn std::fmt::Display| {
        Error::new(Reason::LedgerUnreadable, format!("{}: {e}", path.display()))
    };
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| unreadable(&e))?;
    let meta = file.metadata().map_err(|e| unreadable(&e))?;
    if !meta.is_file() {
        return Err(Error::at(
            Reason::NotRegularFile,
            path,
            "not a regular file",
        ));
    }
    if meta.len() > MAX_OVERSIZED_LEDGER_BYTES {
        return Err(Error::new(
            Reason::FileTooLarge,
            format!(
                "{} is {} bytes; ledgers up to {MAX_OVERSIZED_LEDGER_BYTES} bytes are read to \
                 clean them",
                path.display(),
                meta.len()
            ),
        ));
    }
    let reader = std::io::BufReader::new(file.take(MAX_OVERSIZED_LEDGER_BYTES));
    let mut de = serde_json::Deserializer::from_reader(reader);
    let fields = serde::Deserializer::deserialize_map(&mut de, stream::Fields::new())
        .and_then(|f| de.end().map(|()| f))
        .map_err(|e| unreadable(&e))?;
    let mut ledger: Ledger = serde_json::from_value(serde_json::Value::Object(fields.map))
        .map_err(|e| unreadable(&e))?;
    if fields.dropped > 0 {
        ledger.runs_dropped = Some(ledger.runs_dropped.unwrap_or(0) + fields.dropped);
    }
    ledger.compact();
    checked(ledger, path)
}

/// The streaming reader of [`load_oversized`].
mod stream {
    use std::collections::VecDeque;
    use std::fmt;

    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    /// A ledger's top-level fields, `runs` cut to the most recent records.
    pub(super) struct Fields {
        pub(super) map: Map<String, Value>,
        pub(super) dropped: u64,
    }

    impl<'de> Visitor<'de> for Fields {
        type Value = Fields;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a ledger object")
        }
        fn visit_map<A: MapAccess<'de>>(mut self, mut m: A) -> Result<Fields, A::Error> {
            while let Some(k) = m.next_key::<String>()? {
                if k == "runs" {
                    let LastRuns(runs, dropped) = m.next_value()?;
                    self.dropped += dropped;
                    self.map.insert(k, Value::Array(runs.into()));
                } else {
                    let v: Value = m.next_value()?;
                    self.map.insert(k, v);
                }
            }
            Ok(self)
        }
    }

    impl Fields {
        /// None read yet.
        pub(super) fn new() -> Fields {
            Fields {
                map: Map::new(),
                dropped: 0,
            }
        }
    }

    /// The last [`crate::ledger::MAX_RUNS_KEPT`] elements of an array, and how many were not
    /// kept; each element is read and dropped in turn.
    struct LastRuns(VecDeque<Value>, u64);

    impl<'de> Deserialize<'de> for LastRuns {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = LastRuns;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an array of runs")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<LastRuns, A::Error> {
                    let mut kept = VecDeque::new();
                    let mut dropped = 0;
                    while let Some(v) = s.next_element::<Value>()? {
                        kept.push_back(v);
                        if kept.len() > crate::ledger::MAX_RUNS_KEPT {
                            kept.pop_front();
                            dropped += 1;
                        }
                    }
                    Ok(LastRuns(kept, dropped))
                }
            }
            d.deserialize_seq(V)
        }
    }
}

/// The checks every loaded ledger passes: schema version 1, each live probe once.
fn checked(ledger: Ledger, path: &Path) -> Result<Ledger, Error> {
    if ledger.schema_version != 1 {
        return Err(Error::new(
            Reason::LedgerInvalid,
            format!(
                "{}: schema_version {} is not 1",
                path.display(),
                ledger.schema_version
            ),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for p in &ledger.probes {
        // Only live entries must be unique: a removed probe's id may be placed again.
        if p.status != ProbeStatus::Removed && !seen.insert((&p.slug, &p.id)) {
            return Err(Error::new(
                Reason::LedgerInvalid,
                format!("{}: probe {} appears twice", path.display(), p.id),
            ));
        }
    }
    Ok(ledger)
}

impl Ledger {
    /// Write the ledger atomically and durably (temp file, fsync, rename, fsync directory).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        check_session_folder(path)?;
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            create_dirs(dir);
            match std::fs::symlink_metadata(dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(Error::at(
                        Reason::NotRegularFile,
                        dir,
                        "the ledger's folder is not a directory",
                    ));
                }
                Err(e) => return Err(Error::io(dir, e)),
            }
        }
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::new(Reason::IoError, e.to_string()))?;
        text.push('\n');
        fsio::atomic_replace(path, None, text.as_bytes())
    }
}

/// How long an operation waits for another probity process to release a ledger.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// An exclusive lock on a ledger, held until dropped.
///
/// `flock` locks belong to an open file description: a second [`lock`] of the same ledger from
/// the same process blocks like any other. An operation that holds the lock and calls another
/// one passes `&LedgerLock` down (see `ops::strip_held`) instead of locking again.
///
/// A lock leaves nothing behind: the lock file, and any folder created to hold it, are removed
/// when the lock that created them is released (still holding the `flock`), so a refused
/// command writes nothing (issue 21). A waiter whose file was removed that way sees that the
/// path no longer names the file it locked and takes the lock again. (A folder is removed only
/// when empty: one that another process's lock file was in at that moment stays, empty.)
pub struct LedgerLock {
    file: File,
    ledger: PathBuf,
    path: PathBuf,
    /// Whether this lock created the lock file (then it removes it on release).
    created_file: bool,
    /// Whether the `flock` is held (only a holder removes anything).
    held: bool,
    /// Folders created to hold the lock file, deepest first (removed on release when empty).
    created_dirs: Vec<PathBuf>,
}

impl LedgerLock {
    /// The ledger this lock guards.
    pub fn ledger(&self) -> &Path {
        &self.ledger
    }
}

impl Drop for LedgerLock {
    fn drop(&mut self) {
        // Still locked here (the descriptor closes after this body): only a file this lock
        // created, and only while the path still names it.
        if self.held && self.created_file && names_file(&self.path, &self.file) {
            let _ = std::fs::remove_file(&self.path);
        }
        for d in &self.created_dirs {
            // Fails, and keeps the folder, when anything is in it (a ledger saved there).
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Whether `path` (not followed) is the very file open as `file`.
fn names_file(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::symlink_metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The session folder chain of a ledger kept in a `.planning/debug/` folder (the default
/// ledger, [`ledger_path`], or one named there with `--ledger`): `.planning` and
/// `.planning/debug` must each be a real directory or not exist yet, never a symbolic link
/// (`symlink`, wherever it points, inside the tree or not), so no ledger, lock, `.values-key`,
/// notes or journal of a session is read or written through a link a clone delivered (git
/// commits symlinks). Checked by [`Ledger::load`], [`Ledger::save`] and [`lock`], before
/// anything is created; a ledger kept in any other folder is the user's choice and is not
/// checked (its own file is never followed: the read, the atomic write and the lock's
/// `O_NOFOLLOW`). A path component that is not a directory is `not_regular_file`.
/// See: issue 21, class 1.
pub fn check_session_folder(ledger: &Path) -> Result<(), Error> {
    let Some(debug) = ledger.parent() else {
        return Ok(());
    };
    if !debug.ends_with(".planning/debug") {
        return Ok(());
    }
    let planning = debug.parent().unwrap_or(Path::new(".planning"));
    for d in [planning, debug] {
        match std::fs::symlink_metadata(d) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Error::at(
                    Reason::Symlink,
                    d,
                    "the session folder is a symbolic link: probity reads and writes session \
                     ledgers only in a real .planning/debug folder of the tree",
                ));
            }
            Ok(m) if !m.is_dir() => {
                return Err(Error::at(
                    Reason::NotRegularFile,
                    d,
                    "the session folder is not a directory",
                ));
            }
            Ok(_) => {}
            // Not there yet (created later, one folder at a time, never through a link).
            Err(_) => break,
        }
    }
    Ok(())
}

/// Create the missing folders of `dir` one by one: the ones this call created, deepest first.
/// `mkdir` of a name never follows a symlink at that name (it fails with `EEXIST`), and only
/// names that did not exist are created.
fn create_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
        .collect();
    missing.reverse();
    let mut created = Vec::new();
    for d in missing {
        if std::fs::create_dir(d).is_ok() {
            created.push(d.to_path_buf());
        }
    }
    created.reverse();
    created
}

/// Take `<ledger>.lock`, waiting up to `wait`.
pub fn lock(ledger: &Path, wait: Duration) -> Result<LedgerLock, Error> {
    let mut name = ledger.as_os_str().to_owned();
    name.push(".lock");
    let path = PathBuf::from(name);
    check_session_folder(ledger)?;
    let start = Instant::now();
    let mut created_dirs: Vec<PathBuf> = Vec::new();
    let mut attempts = 0;
    loop {
        attempts += 1;
        if let Some(dir) = path.parent() {
            let mut more = create_dirs(dir);
            more.extend(std::mem::take(&mut created_dirs));
            created_dirs = more;
        }
        let (file, created_file) = match open_lock(&path) {
            Ok(Ok(f)) => f,
            // The file or its folder was removed by a lock released meanwhile (between our
            // creating the folder and opening, or between `O_EXCL` failing and the reopen):
            // create them again while the caller waits. A folder that cannot be created is
            // given up on after 20 tries, as an I/O error.
            Ok(Err(_))
                if attempts < 1000
                    && start.elapsed() < wait
                    && (attempts < 20 || path.parent().is_some_and(Path::exists)) =>
            {
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            Ok(Err(e)) => {
                remove_dirs(&created_dirs);
                return Err(Error::at(Reason::IoError, &path, e));
            }
            Err(e) => {
                remove_dirs(&created_dirs);
                return Err(e);
            }
        };
        let mut lock = LedgerLock {
            file,
            ledger: ledger.to_path_buf(),
            path: path.clone(),
            created_file,
            held: false,
            created_dirs: std::mem::take(&mut created_dirs),
        };
        loop {
            // SAFETY: flock on a file descriptor this function owns.
            let rc = unsafe { libc::flock(lock.file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if rc == 0 {
                lock.held = true;
                break;
            }
            if start.elapsed() >= wait {
                return Err(Error::new(
                    Reason::LedgerLocked,
                    format!("{} is held by another probity process", path.display()),
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if names_file(&path, &lock.file) {
            return Ok(lock);
        }
        // The holder released it and removed the file: this lock is on a file nobody else
        // will see. Take it again (keeping the folders this call created to remove them).
        lock.created_file = false;
        created_dirs = std::mem::take(&mut lock.created_dirs);
        drop(lock);
    }
}

/// Remove the (empty) folders a failed [`lock`] created, deepest first.
fn remove_dirs(dirs: &[PathBuf]) {
    for d in dirs {
        let _ = std::fs::remove_dir(d);
    }
}

/// Open (creating it if needed) a lock file that is a plain regular file, never following a
/// symlink (`symlink`) nor blocking on a FIFO or device (`not_regular_file`, as for a
/// directory): `O_NOFOLLOW | O_NONBLOCK`, then `fstat` on the descriptor. Also says whether
/// this call created the file (`O_EXCL`). `Ok(Err(not found))` when the file or its folder
/// vanished between two steps (a lock released meanwhile removes both): the caller tries again.
/// See: issue 12, "Writes outside the repository".
fn open_lock(path: &Path) -> Result<std::io::Result<(File, bool)>, Error> {
    let refuse = |meta: Option<std::fs::Metadata>, e: Option<std::io::Error>| {
        let meta = meta.or_else(|| std::fs::symlink_metadata(path).ok());
        match meta {
            Some(m) if m.file_type().is_symlink() => {
                Error::at(Reason::Symlink, path, "the lock is a symbolic link")
            }
            Some(m) if !m.is_file() => Error::at(
                Reason::NotRegularFile,
                path,
                "the lock is not a regular file",
            ),
            _ => match e {
                Some(e) => Error::at(Reason::IoError, path, e),
                None => Error::at(
                    Reason::NotRegularFile,
                    path,
                    "the lock is not a regular file",
                ),
            },
        }
    };
    let flags = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    let (file, created) = match OpenOptions::new()
        .create_new(true)
        .write(true)
        .mode(0o600)
        .custom_flags(flags)
        .open(path)
    {
        Ok(f) => (f, true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            match OpenOptions::new()
                .write(true)
                .custom_flags(flags)
                .open(path)
            {
                Ok(f) => (f, false),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Err(e)),
                Err(e) => return Err(refuse(None, Some(e))),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Err(e)),
        Err(e) => return Err(refuse(None, Some(e))),
    };
    let meta = file
        .metadata()
        .map_err(|e| Error::at(Reason::IoError, path, e))?;
    if !meta.is_file() {
        return Err(refuse(Some(meta), None));
    }
    Ok(Ok((file, created)))
}

/// The default ledger of a session: `<root>/.planning/debug/<slug>.evidence.json`.
pub fn ledger_path(root: &Path, slug: &str) -> PathBuf {
    root.join(".planning/debug")
        .join(format!("{slug}.evidence.json"))
}

/// Every `*.evidence.json` under `<root>/.planning/debug/`, sorted.
pub fn all_ledgers(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root.join(".planning/debug"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".evidence.json"))
        .collect();
    out.sort();
    out
}

/// The repository root that ledger paths are relative to: `explicit`, else the nearest ancestor
/// of the ledger holding `.git`, else the folder holding `.planning/debug/`, else `cwd`.
pub fn repository_root(explicit: Option<&Path>, ledger: &Path, cwd: &Path) -> PathBuf {
    if let Some(r) = explicit {
        return r.to_path_buf();
    }
    let ledger_abs = if ledger.is_absolute() {
        ledger.to_path_buf()
    } else {
        cwd.join(ledger)
    };
    if let Some(root) = ledger_abs.parent().and_then(fsio::git_root) {
        return root;
    }
    if let Some(d) = ledger_abs.parent()
        && d.ends_with(".planning/debug")
        && let Some(root) = d.parent().and_then(Path::parent)
    {
        return root.to_path_buf();
    }
    cwd.to_path_buf()
}
