//! The bounded line reader of a trace: lines of at most [`MAX_LINE_BYTES`], at most
//! [`MAX_TRACE_LINES`] of them and [`MAX_TRACE_BYTES`] in all, with the memory held at any time
//! bounded by one line. A line over the bound is refused by number after reading at most one byte
//! past the bound, never read whole.

use std::io::{BufRead, Read};

use super::{MAX_LINE_BYTES, MAX_TRACE_BYTES, MAX_TRACE_LINES};
use crate::error::{Error, Result};
use crate::reason::Reason;

/// Reads a trace line by line within the bounds.
pub(super) struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    line: usize,
    bytes: u64,
}

impl<R: BufRead> Lines<R> {
    pub(super) fn new(inner: R) -> Self {
        Lines {
            inner,
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
        let cap = (MAX_LINE_BYTES + 2) as u64; // the line, a `\r\n`
        let n = (&mut self.inner)
            .take(cap)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| Error::new(Reason::IoError, format!("line {}: {e}", self.line + 1)))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        self.bytes += n as u64;
        if self.line > MAX_TRACE_LINES {
            return Err(Error::new(
                Reason::TraceTooLarge,
                format!("more than {MAX_TRACE_LINES} lines"),
            ));
        }
        if self.bytes > MAX_TRACE_BYTES {
            return Err(Error::new(
                Reason::TraceTooLarge,
                format!("more than {MAX_TRACE_BYTES} bytes"),
            ));
        }
        let mut end = self.buf.len();
        if self.buf.last() == Some(&b'\n') {
            end -= 1;
            if end > 0 && self.buf[end - 1] == b'\r' {
                end -= 1;
            }
        }
        if end > MAX_LINE_BYTES {
            return Err(Error::new(
                Reason::TraceLineTooLong,
                format!(
                    "line {}: longer than {MAX_LINE_BYTES} bytes; not read further",
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
        let mut l = Lines::new(bytes);
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
        let mut l = Lines::new(std::io::BufReader::new(std::io::repeat(b'x')));
        let e = l.next_line().unwrap_err();
        assert_eq!(e.reason, Reason::TraceLineTooLong);
        assert!(l.bytes() <= (MAX_LINE_BYTES + 2) as u64);
        assert!(l.buf.capacity() <= 2 * (MAX_LINE_BYTES + 2));
    }
}
