//! The temporary files a killed write leaves: every atomic write of [`super`] goes through a
//! temporary file named `.probity-<pid>-<unique>.tmp` in the target's folder; a process killed
//! between creating it and renaming it over the target leaves it behind, holding a copy of what
//! was being written (a placed probe block, say, that the gate would then see as a stray copy).
//!
//! [`remove_stale_temps`] removes those of writers that are gone: the name is probity's own
//! pattern, the writer's pid (in the name) is no longer running, and the entry is a regular file
//! of this user (not followed if a link). A live writer's temporary file is never touched.
//! Found by the crash bench (`benches/crash/run.py`, issue 12).

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// The pid in a temporary file name `.probity-<pid>-<unique>.tmp`, if it is one.
pub(super) fn temp_pid(name: &str) -> Option<i32> {
    let rest = name.strip_prefix(".probity-")?.strip_suffix(".tmp")?;
    let (pid, unique) = rest.split_once('-')?;
    if unique.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok().filter(|p| *p > 0)
}

/// Whether a process with this pid exists (`kill(pid, 0)` does not say `ESRCH`).
fn running(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Remove the temporary files of dead writers in `dir` (see the module doc), relative to the
/// folder's descriptor; returns how many were removed. Best effort: what cannot be read or
/// removed is left.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(folder) = std::fs::File::open(dir) else {
        return 0;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(temp_pid) else {
            continue;
        };
        let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        if !meta.file_type().is_file() || meta.uid() != uid || running(pid) {
            continue;
        }
        let Ok(c) = CString::new(name.as_bytes()) else {
            continue;
        };
        // SAFETY: a valid directory descriptor and a NUL-terminated name.
        if unsafe { libc::unlinkat(folder.as_raw_fd(), c.as_ptr(), 0) } == 0 {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::temp_pid;

    #[test]
    fn temp_names_are_probitys_own() {
        assert_eq!(temp_pid(".probity-123-abc.tmp"), Some(123));
        assert_eq!(temp_pid(".probity-123-4.tmp"), Some(123));
        assert_eq!(temp_pid(".probity-abc.tmp"), None);
        assert_eq!(temp_pid(".probity-123-.tmp"), None);
        assert_eq!(temp_pid("probity-123-a.tmp"), None);
        assert_eq!(temp_pid(".probity-0-a.tmp"), None);
    }
}
