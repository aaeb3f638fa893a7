//! The git side of `accept diff`: which files a diff changes and the bytes of each side, read by
//! running `git` with an argv (never a shell string) in its own process group, bounded in time
//! ([`GIT_TIMEOUT`]) and output ([`MAX_GIT_OUTPUT`]); on timeout the group is killed
//! (`runner::Tool`).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::Error;
use crate::reason::Reason;
use crate::runner::{Limits, Tool};

/// Time one git call may take.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(30);
/// Bytes of stdout one git call may print (a blob is refused above `source::MAX_FILE_BYTES`
/// anyway, by the caller).
pub const MAX_GIT_OUTPUT: usize = 64 * 1024 * 1024;

/// The empty tree's object id (the old side of a root commit or an unborn HEAD).
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// One `git` call: `Ok(Some(stdout))` on exit 0, `Ok(None)` on another exit status, an error when
/// git cannot be run (`git_failed`), times out (`git_timed_out`), or prints too much
/// (`git_failed`). Arguments are bytes (a file name need not be UTF-8).
pub fn git<A: AsRef<OsStr>>(root: &Path, args: &[A]) -> Result<Option<Vec<u8>>, Error> {
    let out = Tool::git(root)
        .hidden_args(["-c", "core.quotepath=off", "--no-pager"])
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_EXTERNAL_DIFF")
        .capture(Limits::new(GIT_TIMEOUT, MAX_GIT_OUTPUT))?;
    Ok(out.status.success().then_some(out.stdout))
}

/// [`git`] that must succeed.
pub fn git_ok<A: AsRef<OsStr>>(root: &Path, args: &[A]) -> Result<Vec<u8>, Error> {
    git(root, args)?.ok_or_else(|| {
        let shown: Vec<String> = args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect();
        Error::new(Reason::GitFailed, format!("git {} failed", shown.join(" ")))
    })
}

/// The top of the work tree containing `dir`, or `not_a_git_repository`.
pub fn toplevel(dir: &Path) -> Result<PathBuf, Error> {
    let out = git(dir, &["rev-parse", "--show-toplevel"])?.ok_or_else(|| {
        Error::new(
            Reason::NotAGitRepository,
            format!("{} is not inside a git work tree", dir.display()),
        )
    })?;
    Ok(PathBuf::from(
        String::from_utf8_lossy(&out).trim_end_matches(['\n', '\r']),
    ))
}

/// The full commit id of `rev`, or `None` when it names no commit.
pub fn commit_of(root: &Path, rev: &str) -> Result<Option<String>, Error> {
    if rev.starts_with('-') {
        return Ok(None);
    }
    let spec = format!("{rev}^{{commit}}");
    Ok(git(root, &["rev-parse", "--verify", "--quiet", &spec])?
        .map(|o| String::from_utf8_lossy(&o).trim().to_owned()))
}

/// A repository-relative file name exactly as git prints it with `-z`: bytes, which need not be
/// UTF-8 (a name is never decoded lossily on its way to a read).
pub type Name = Vec<u8>;

/// One changed file: status letter, old path, new path.
#[derive(Debug, Clone)]
pub struct Change {
    /// `A`, `M`, `D`, `R`, `T` (copies are reported as `A`).
    pub status: char,
    /// Path on the old side (`None` for an added file).
    pub old: Option<Name>,
    /// Path on the new side (`None` for a deleted file).
    pub new: Option<Name>,
}

/// Parse `git diff --name-status -z -M` output; names stay bytes.
pub fn parse_name_status(raw: &[u8]) -> Vec<Change> {
    let mut fields = raw.split(|&b| b == 0).map(<[u8]>::to_vec);
    let mut out = Vec::new();
    while let Some(st) = fields.next() {
        let Some(&c) = st.first() else {
            continue;
        };
        let c = char::from(c);
        let change = match c {
            'R' => {
                let (Some(o), Some(n)) = (fields.next(), fields.next()) else {
                    break;
                };
                Change {
                    status: 'R',
                    old: Some(o),
                    new: Some(n),
                }
            }
            'C' => {
                let (Some(_), Some(n)) = (fields.next(), fields.next()) else {
                    break;
                };
                Change {
                    status: 'A',
                    old: None,
                    new: Some(n),
                }
            }
            _ => {
                let Some(p) = fields.next() else { break };
                match c {
                    'A' => Change {
                        status: 'A',
                        old: None,
                        new: Some(p),
                    },
                    'D' => Change {
                        status: 'D',
                        old: Some(p),
                        new: None,
                    },
                    other => Change {
                        status: other,
                        old: Some(p.clone()),
                        new: Some(p),
                    },
                }
            }
        };
        out.push(change);
    }
    out
}

/// `rev:path` as git stores it (empty when it does not exist there). The path is passed as its
/// bytes (git takes any bytes in argv).
pub fn blob(root: &Path, rev: &str, path: &[u8]) -> Result<Vec<u8>, Error> {
    let mut spec = format!("{rev}:").into_bytes();
    spec.extend_from_slice(path);
    let args: [&OsStr; 3] = [
        "cat-file".as_ref(),
        "blob".as_ref(),
        OsStr::from_bytes(&spec),
    ];
    Ok(git(root, &args)?.unwrap_or_default())
}
