//! Bounded reads: every input probity reads that it did not write itself is read through
//! [`read_bounded`] (inputs the user names: plans, `--refs` files) or [`read_repo_file`] /
//! [`read_repo_string`] (files of the repository read to resolve: sources, `tsconfig.json`,
//! `package.json`, `Cargo.toml`, `Cargo.lock`, ...), so no file type (a FIFO fed forever,
//! `/dev/zero`, `/dev/stdin`, a file that grows while read) makes probity read without bound.
//!
//! The size a file reports is a hint, not a bound: both read at most the limit + 1 bytes and
//! refuse when the extra byte arrives. Ledgers and session markdown go through
//! [`super::read_target`] and sinks through the sink module, which apply the same
//! limit-plus-one read to regular files only; traces have their own line reader.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use crate::error::Error;
use crate::reason::Reason;
use crate::source::MAX_FILE_BYTES;

/// The most bytes [`read_repo_file`] reads of a repository file (the limit of a source file).
pub const MAX_REPO_FILE_BYTES: u64 = MAX_FILE_BYTES as u64;

/// At most `limit` + 1 bytes of `f`, or `None` when it holds more than `limit`.
fn take_limited(f: &mut File, limit: u64, hint: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::with_capacity(hint.min(limit) as usize);
    f.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// The bytes of `path`, whatever its type (regular file, FIFO, character device, standard
/// input), reading at most `limit` + 1 bytes: more than `limit` is refused with `too_large`
/// (for example [`Reason::PlanTooLarge`] or [`Reason::FileTooLarge`]; the detail calls the
/// inputs `what`, as in "plans up to N bytes are read"); a file that cannot be opened or read is
/// [`Error::io`]. Opening a FIFO waits for its writer, as any reader does.
pub fn read_bounded(
    path: &Path,
    limit: u64,
    too_large: Reason,
    what: &str,
) -> Result<Vec<u8>, Error> {
    let shown = path.display();
    let mut f = File::open(path).map_err(|e| Error::io(path, e))?;
    let meta = f.metadata().map_err(|e| Error::io(path, e))?;
    let refuse = |size: String| {
        Error::new(
            too_large,
            format!("{shown} is {size} bytes; {what} up to {limit} bytes are read"),
        )
    };
    if meta.is_file() && meta.len() > limit {
        return Err(refuse(meta.len().to_string()));
    }
    let hint = if meta.is_file() { meta.len() } else { 0 };
    match take_limited(&mut f, limit, hint).map_err(|e| Error::io(path, e))? {
        Some(bytes) => Ok(bytes),
        None => Err(refuse(format!("more than {limit}"))),
    }
}

/// A drop-in for `std::fs::read` on a file of the repository: a regular file (opened without
/// waiting, so a FIFO is refused, not waited on) of at most [`MAX_REPO_FILE_BYTES`]. The
/// refusals are `io::Error`s whose text starts with the reason code (`not_regular_file: `,
/// `file_too_large: `), so callers that report why a file was skipped show the code.
pub fn read_repo_file(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let mut f = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path.as_ref())?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a regular file", Reason::NotRegularFile.code()),
        ));
    }
    let too_large = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "{}: more than {MAX_REPO_FILE_BYTES} bytes",
                Reason::FileTooLarge.code()
            ),
        )
    };
    if meta.len() > MAX_REPO_FILE_BYTES {
        return Err(too_large());
    }
    take_limited(&mut f, MAX_REPO_FILE_BYTES, meta.len())?.ok_or_else(too_large)
}

/// [`read_repo_file`] as UTF-8 text: a drop-in for `std::fs::read_to_string`.
pub fn read_repo_string(path: impl AsRef<Path>) -> io::Result<String> {
    String::from_utf8(read_repo_file(path)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}
