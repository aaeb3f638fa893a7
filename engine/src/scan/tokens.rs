//! The byte-level checks every scanned file goes through before any parse: the binary test
//! (a NUL in the first 8 KiB) and the token prefilter (the marker tag, or a residue token).
//! Pure functions over bytes; no I/O.

use std::sync::OnceLock;

/// The marker tag.
pub const MARKER: &str = crate::protocol::MARKER_TAG;
/// Tokens every probe body carries: outside a probe block they are residue.
pub const RESIDUE: &[&str] = &["GSDDBG1", "GSD_DEBUG_PROBE_SINK"];
/// A NUL byte in this many first bytes makes a file binary (skipped, counted).
pub const BINARY_CHECK_BYTES: usize = 8192;

/// The longest token's length less one: a window scan keeps this many bytes of the previous
/// window before the next, so a token that crosses a window boundary is seen whole.
pub const TOKEN_OVERLAP: usize = {
    let mut n = MARKER.len();
    let mut i = 0;
    while i < RESIDUE.len() {
        if RESIDUE[i].len() > n {
            n = RESIDUE[i].len();
        }
        i += 1;
    }
    n - 1
};

/// Whether `bytes` holds a marker tag or a residue token. Two memmem passes (the residue tokens
/// share the prefix `GSD`) beat one multi-pattern search on source trees.
pub fn has_token(bytes: &[u8]) -> bool {
    static MARK: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    static GSD: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    if MARK
        .get_or_init(|| memchr::memmem::Finder::new(MARKER))
        .find(bytes)
        .is_some()
    {
        return true;
    }
    let gsd = GSD.get_or_init(|| memchr::memmem::Finder::new("GSD"));
    gsd.find_iter(bytes).any(|at| {
        RESIDUE
            .iter()
            .any(|t| bytes[at..].starts_with(t.as_bytes()))
    })
}

/// Whether `bytes` looks binary (a NUL in the first [`BINARY_CHECK_BYTES`]).
pub fn is_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(BINARY_CHECK_BYTES)]).is_some()
}
