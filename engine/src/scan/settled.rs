//! The settled path of the working-tree walk: a file that had long settled is proven unchanged
//! while it was read by one `fstat`, after the read, instead of the careful path's two (see
//! [`Settled`]); what decides which files may take it (the root's file system and device, the
//! walk's start), and the walk's check that the clock did not go back.

use std::path::Path;

use super::root::RootCtx;
use crate::fsio;

/// What lets a file be checked with a single `fstat`, taken after its read (the settled path).
///
/// Every change to a file's bytes or status sets its ctime to the time of the change, and no
/// call sets a ctime of the caller's choosing. So a file whose `fstat` after the read shows a
/// ctime older than the walk's start less [`fsio::SETTLE`] was last changed before the read
/// began, by more than `SETTLE`: it had settled, and nothing changed it while it was read. That
/// is what the careful path proves with two `fstat`s (before and after, compared), for the price
/// of one. Times must come from this machine's clock at a known grain, so the path is taken only
/// for files on the device of their root, when the root's file system is a local one that keeps
/// times to the second or finer (ext2/3/4, XFS, Btrfs, F2FS, tmpfs, overlayfs); the limit is
/// [`TIMES_SLACK`] further back for the grain and the kernel's coarse clock, and a walk during
/// which the system clock went back is walked again without the settled path. Any other file,
/// and any file the settled path cannot clear (a recent ctime, another size than was read, a
/// token), goes the careful path.
pub(super) struct Settled {
    /// ctime (seconds, nanoseconds since the epoch) that a file's must be older than.
    pub(super) limit: (i64, i64),
    /// Per root: its device, when its file system keeps local times ([`local_times_dev`]).
    pub(super) devs: Vec<Option<u64>>,
}

/// How much further back than `SETTLE` the settled path's limit lies: a second of timestamp
/// grain (ext4 with small inodes), the kernel's coarse clock (a tick), and the half second by
/// which the system clock may go back before the walk is done again.
const TIMES_SLACK: std::time::Duration = std::time::Duration::from_secs(2);

/// The device of `root` when its file system keeps times from this machine's clock to the
/// second or finer; `None` for any other (network, FUSE, FAT, unknown) or when it cannot be told.
#[cfg(target_os = "linux")]
fn local_times_dev(root: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata(root).ok()?.dev();
    let c = std::ffi::CString::new(root.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a NUL-terminated path that outlives the call; `st` is plain data the call
    // fills, read only when it succeeds.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    [
        libc::EXT4_SUPER_MAGIC,
        libc::XFS_SUPER_MAGIC,
        libc::BTRFS_SUPER_MAGIC,
        libc::F2FS_SUPER_MAGIC,
        libc::TMPFS_MAGIC,
        libc::OVERLAYFS_SUPER_MAGIC,
    ]
    .contains(&st.f_type)
    .then_some(dev)
}

#[cfg(not(target_os = "linux"))]
fn local_times_dev(_: &Path) -> Option<u64> {
    None
}

impl Settled {
    /// Taken at the walk's start; `None` when the clock reads before the limit could be.
    pub(super) fn at_start(ctxs: &[RootCtx]) -> Option<Self> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        let limit = now.checked_sub(fsio::SETTLE + TIMES_SLACK)?;
        let devs: Vec<Option<u64>> = ctxs.iter().map(|c| local_times_dev(&c.path)).collect();
        devs.iter().any(Option::is_some).then(|| Settled {
            limit: (
                i64::try_from(limit.as_secs()).ok().unwrap_or(i64::MAX),
                i64::from(limit.subsec_nanos()),
            ),
            devs,
        })
    }
}

/// Whether the system clock went back by more than half a second since `start` (wall time
/// passed less than monotonic time).
pub(super) fn clock_went_back(start: (std::time::SystemTime, std::time::Instant)) -> bool {
    let slack = std::time::Duration::from_millis(500);
    match std::time::SystemTime::now().duration_since(start.0) {
        Ok(wall) => start.1.elapsed() > wall + slack,
        Err(_) => true,
    }
}

/// Whether the `fstat` after a file's read, `m`, clears it (see [`Settled`]): on the root's device
/// `dev`, a ctime older than `limit`, and, for a clean file, as many bytes as were `read` (`None`
/// for a binary one: the NUL of its first bytes is in the file as it was, and still is).
pub(super) fn clears(
    m: &std::fs::Metadata,
    limit: (i64, i64),
    dev: u64,
    read: Option<u64>,
) -> bool {
    use std::os::unix::fs::MetadataExt;
    m.dev() == dev && (m.ctime(), m.ctime_nsec()) < limit && read.is_none_or(|n| n == m.len())
}
