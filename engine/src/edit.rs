//! Byte splices: apply sorted, non-overlapping replacements to a buffer.
//!
//! `strip` builds a file's new bytes through [`apply`] (one splice per removed block). It is not
//! the only builder of new contents: `place` inserts its one block by concatenation where it
//! re-parses the result (`place/reparse.rs`), and the session's markdown sync (`sync_text`)
//! rewrites one section of a markdown file. Whatever builds the bytes, every write of a probed
//! or markdown file to disk goes through `fsio::atomic_replace`.
//!
//! Pure, layer 1 (depends on nothing in the crate); refuses overlapping or out-of-bounds edits
//! rather than guessing an order.

use std::ops::Range;

/// One replacement of `range` (offsets into the original) by `with`.
#[derive(Debug, Clone)]
pub struct Splice<'a> {
    /// The bytes replaced.
    pub range: Range<usize>,
    /// What replaces them.
    pub with: &'a [u8],
}

/// Apply `splices` to `bytes`. Returns `None` if two ranges overlap or one is out of bounds.
pub fn apply(bytes: &[u8], splices: &[Splice<'_>]) -> Option<Vec<u8>> {
    let mut sorted: Vec<&Splice> = splices.iter().collect();
    sorted.sort_by_key(|s| (s.range.start, s.range.end));
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for s in sorted {
        if s.range.start < at || s.range.end < s.range.start || s.range.end > bytes.len() {
            return None;
        }
        out.extend_from_slice(&bytes[at..s.range.start]);
        out.extend_from_slice(s.with);
        at = s.range.end;
    }
    out.extend_from_slice(&bytes[at..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_in_order_and_refuses_overlap() {
        let b = b"0123456789";
        let out = apply(
            b,
            &[
                Splice {
                    range: 5..7,
                    with: b"",
                },
                Splice {
                    range: 1..2,
                    with: b"xx",
                },
            ],
        )
        .unwrap();
        assert_eq!(out, b"0xx234789");
        assert!(
            apply(
                b,
                &[
                    Splice {
                        range: 1..5,
                        with: b""
                    },
                    Splice {
                        range: 4..6,
                        with: b""
                    }
                ]
            )
            .is_none()
        );
        assert!(
            apply(
                b,
                &[Splice {
                    range: 9..11,
                    with: b""
                }]
            )
            .is_none()
        );
    }
}
