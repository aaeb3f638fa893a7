//! The bounded line reader of a trace: lines of at most [`MAX_LINE_BYTES`], at most
//! [`MAX_TRACE_LINES`] of them and [`MAX_TRACE_BYTES`] in all, with the memory held at any time
//! bounded by one line. A line over the bound is refused by number after reading at most one byte
//! past the bound, never read whole.

use std::io::{BufRead, Read};

use super::{MAX_LINE_BYTES, MAX_TRACE_BYTES, MAX_TRACE_LINES};
use crate::error::{Error, Result};
use crate::reason::Reason;

/// The bounds a [`Lines`] enforces: the module's constants, smaller in unit tests.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub line_bytes: usize,
    pub lines: usize,
    pub bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            line_bytes: MAX_LINE_BYTES,
            lines: MAX_TRACE_LINES,
            bytes: MAX_TRACE_BYTES,
        }
    }
}

/// Reads a trace line by line within the bounds.
pub(super) struct Lines<R> {
    inner: R,
    limits: Limits,
    buf: Vec<u8>,
    line: usize,
    bytes: u64,
}

impl<R: BufRead> Lines<R> {
    pub(super) fn new(inner: R, limits: Limits) -> Self {
        Lines {
            inner,
            limits,
            buf: Vec::new(),
            line: 0,
            bytes: 0,
        }
    }

    /// Bytes read so far.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The next line (1-based number, bytes without its `\n` and a `\r` before it), `None` at the
    /// end, or a refusal when a bound is crossed.
    pub(super) fn next_line(&mut self) -> Result<Option<(usize, &[u8])>> {
        self.buf.clear();
        let Limits {
            line_bytes,
            lines,
            bytes,
        } = self.limits;
        let cap = (line_bytes + 2) as u64; // the line, a `\r\n`
        let n = (&mut self.inner)
            .take(cap)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| Error::new(Reason::IoError, format!("line {}: {e}", self.line + 1)))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        self.bytes += n as u64;
        if self.line > lines {
            return Err(Error::new(
                Reason::TraceTooLarge,
                format!("more than {lines} lines"),
            ));
        }
        if self.bytes > bytes {
            return Err(Error::new(
                Reason::TraceTooLarge,
                format!("line {}: more than {bytes} bytes in all", self.line),
            ));
        }
        let mut end = self.buf.len();
        if self.buf.last() == Some(&b'\n') {
            end -= 1;
            if end > 0 && self.buf[end - 1] == b'\r' {
                end -= 1;
            }
        }
        if end > line_bytes {
            return Err(Error::new(
                Reason::TraceLineTooLong,
                format!(
                    "line {}: longer than {line_bytes} bytes; not read further",
                    self.line
                ),
            ));
        }
        Ok(Some((self.line, &self.buf[..end])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Result<Vec<(usize, Vec<u8>)>> {
        all_within(bytes, Limits::default())
    }

    fn all_within(bytes: &[u8], limits: Limits) -> Result<Vec<(usize, Vec<u8>)>> {
        let mut l = Lines::new(bytes, limits);
        let mut out = Vec::new();
        while let Some((n, b)) = l.next_line()? {
            out.push((n, b.to_vec()));
        }
        Ok(out)
    }

    #[test]
    fn lines_are_numbered_and_stripped_of_their_ending() {
        let got = all(b"a\r\n\nb").unwrap();
        assert_eq!(
            got,
            [(1, b"a".to_vec()), (2, Vec::new()), (3, b"b".to_vec())]
        );
    }

    #[test]
    fn a_line_at_the_bound_is_read_and_one_past_it_is_refused() {
        let mut at = vec![b'x'; MAX_LINE_BYTES];
        at.extend_from_slice(b"\r\nok\n");
        assert_eq!(all(&at).unwrap().len(), 2);
        let mut past = b"ok\n".to_vec();
        past.extend(vec![b'x'; MAX_LINE_BYTES + 1]);
        past.push(b'\n');
        let e = all(&past).unwrap_err();
        assert_eq!(e.reason, Reason::TraceLineTooLong);
        assert!(e.detail.starts_with("line 2:"));
    }

    #[test]
    fn an_endless_line_is_refused_after_at_most_the_bound() {
        // An infinite reader: the refusal must come after a bounded read.
        let mut l = Lines::new(
            std::io::BufReader::new(std::io::repeat(b'x')),
            Limits::default(),
        );
        let e = l.next_line().unwrap_err();
        assert_eq!(e.reason, Reason::TraceLineTooLong);
        assert!(l.bytes() <= (MAX_LINE_BYTES + 2) as u64);
        assert!(l.buf.capacity() <= 2 * (MAX_LINE_BYTES + 2));
    }

    #[test]
    fn the_line_and_byte_bounds_hold_while_streaming() {
        let small = Limits {
            line_bytes: 8,
            lines: 3,
            bytes: 20,
        };
        assert_eq!(all_within(b"a\nb\nc\n", small).unwrap().len(), 3);
        let e = all_within(b"a\nb\nc\nd\n", small).unwrap_err();
        assert_eq!(e.reason, Reason::TraceTooLarge);
        // 21 bytes in lines that are each within the line bound: refused at the line that
        // crosses it, even when nothing said the size up front (a pipe, a growing file).
        let e = all_within(b"1234567\n1234567\n12345", small).unwrap_err();
        assert_eq!(e.reason, Reason::TraceTooLarge);
        assert!(e.detail.starts_with("line 3:"), "{}", e.detail);
        let e = all_within(b"123456789\n", small).unwrap_err();
        assert_eq!(e.reason, Reason::TraceLineTooLong);
    }
}
