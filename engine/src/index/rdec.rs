//! The stream decoder ([`RDec`]) the manifest and the word index ([`super::Postings`]) decode
//! their stored binary form with: it reads the manifest file through a buffer, never the whole
//! file at once.
//!
//! Invariant: every length is checked against the bytes the stream still holds before anything
//! is allocated, so a truncated or corrupt input decodes to `None` instead of panicking or
//! over-allocating. No file I/O here beyond the reader it is handed.

/// A decoder reading a stream (the manifest file through a buffer) instead of a slice: `left`
/// is the number of bytes the stream still holds, so every length is checked before anything is
/// allocated, and a manifest of tens of megabytes is never held in memory whole.
pub(super) struct RDec<R> {
    r: R,
    left: u64,
}

impl<R: std::io::Read> RDec<R> {
    pub(super) fn new(r: R, len: u64) -> RDec<R> {
        RDec { r, left: len }
    }
    pub(super) fn left(&self) -> u64 {
        self.left
    }
    pub(super) fn fixed<const N: usize>(&mut self) -> Option<[u8; N]> {
        if (N as u64) > self.left {
            return None;
        }
        let mut b = [0u8; N];
        self.r.read_exact(&mut b).ok()?;
        self.left -= N as u64;
        Some(b)
    }
    pub(super) fn bytes(&mut self, n: usize) -> Option<Vec<u8>> {
        if n as u64 > self.left {
            return None;
        }
        let mut b = vec![0u8; n];
        self.r.read_exact(&mut b).ok()?;
        self.left -= n as u64;
        Some(b)
    }
    pub(super) fn u32(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.fixed()?) as usize)
    }
    pub(super) fn string(&mut self) -> Option<String> {
        let n = self.u32()?;
        String::from_utf8(self.bytes(n)?).ok()
    }
    /// A length-prefixed array of `u32`, read in chunks (never a second copy of it).
    pub(super) fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.u32()?;
        if (n as u64).checked_mul(4)? > self.left {
            return None;
        }
        let mut out = Vec::with_capacity(n);
        let mut buf = vec![0u8; 4 * 4096];
        while out.len() < n {
            let k = (n - out.len()).min(4096);
            self.r.read_exact(&mut buf[..4 * k]).ok()?;
            out.extend(
                buf[..4 * k]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
        self.left -= 4 * n as u64;
        Some(out)
    }
}
