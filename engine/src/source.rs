//! A source file's bytes as probity sees them: validated text, BOM, line index, line endings and
//! SHA-256.
//!
//! Invariants: a [`Source`] is valid UTF-8 without NUL bytes or lone-CR line endings and at most
//! [`MAX_FILE_BYTES`] long. Offsets are byte offsets into the text after the BOM ("body");
//! lines are 1-based at the boundary and 0-based inside.
//!
//! Layer 1: depends only on the reason codes. No I/O here: callers read the bytes (`fsio`,
//! `scan`) and hand them in; nothing here parses or edits.

use ropey::Rope;
use sha2::{Digest, Sha256};

use crate::reason::Reason;

/// Files larger than this are refused (`file_too_large`).
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Check the properties every editable file must have, cheapest first.
pub fn validate(bytes: &[u8]) -> Result<(), Reason> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Reason::FileTooLarge);
    }
    if memchr::memchr(0, bytes).is_some() {
        return Err(Reason::NulByte);
    }
    if std::str::from_utf8(bytes).is_err() {
        return Err(Reason::NotUtf8);
    }
    if memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n')) {
        return Err(Reason::LoneCrLineEnding);
    }
    Ok(())
}

/// A validated text file.
pub struct Source {
    bytes: Vec<u8>,
    bom: usize,
    lines: Rope,
}

impl Source {
    /// Validate and index `bytes`.
    pub fn new(bytes: Vec<u8>) -> Result<Self, Reason> {
        validate(&bytes)?;
        let bom = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
        let lines =
            Rope::from_str(std::str::from_utf8(&bytes[bom..]).map_err(|_| Reason::NotUtf8)?);
        Ok(Source { bytes, bom, lines })
    }

    /// Every byte of the file, BOM included.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The BOM (empty or `EF BB BF`).
    pub fn bom(&self) -> &[u8] {
        &self.bytes[..self.bom]
    }

    /// The text after the BOM; every offset in the engine is into this.
    pub fn body(&self) -> &str {
        // Validated in `new`.
        std::str::from_utf8(&self.bytes[self.bom..]).unwrap_or_default()
    }

    /// Number of lines (a final line without terminator counts; an empty tail after a final
    /// terminator does not).
    pub fn line_count(&self) -> usize {
        let n = self.lines.len_lines();
        if self.body().is_empty() {
            0
        } else if self.body().ends_with('\n') {
            n - 1
        } else {
            n
        }
    }

    /// 0-based line of a body offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.lines.byte_to_line(offset.min(self.body().len()))
    }

    /// Body offset where 0-based `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.lines.line_to_byte(line.min(self.lines.len_lines()))
    }

    /// Body offset just past `line`'s terminator (the next line's start, or the end of file).
    pub fn line_end_with_eol(&self, line: usize) -> usize {
        if line + 1 >= self.lines.len_lines() {
            self.body().len()
        } else {
            self.line_start(line + 1)
        }
    }

    /// The text of 0-based `line`, terminator excluded.
    pub fn line_text(&self, line: usize) -> &str {
        let s = &self.body()[self.line_start(line)..self.line_end_with_eol(line)];
        s.strip_suffix('\n')
            .map(|s| s.strip_suffix('\r').unwrap_or(s))
            .unwrap_or(s)
    }

    /// The terminator of 0-based `line`: `"\r\n"`, `"\n"`, or `""` for an unterminated last line.
    pub fn line_eol(&self, line: usize) -> &'static str {
        let s = &self.body()[self.line_start(line)..self.line_end_with_eol(line)];
        if s.ends_with("\r\n") {
            "\r\n"
        } else if s.ends_with('\n') {
            "\n"
        } else {
            ""
        }
    }

    /// The file's first line terminator, or `"\n"` if it has none.
    pub fn first_eol(&self) -> &'static str {
        match memchr::memchr(b'\n', self.body().as_bytes()) {
            Some(i) if i > 0 && self.body().as_bytes()[i - 1] == b'\r' => "\r\n",
            _ => "\n",
        }
    }

    /// The leading spaces and tabs of 0-based `line`.
    pub fn indent_of(&self, line: usize) -> &str {
        let t = self.line_text(line);
        &t[..t.len() - t.trim_start_matches([' ', '\t']).len()]
    }

    /// The file's indentation unit: a tab if `indent` uses tabs, otherwise the smallest non-zero
    /// space indentation of any line (2, 4, 8...), otherwise `default`.
    pub fn indent_unit<'a>(&self, indent: &str, default: &'a str) -> std::borrow::Cow<'a, str> {
        if indent.contains('\t') {
            return "\t".into();
        }
        let smallest = self
            .body()
            .lines()
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .filter(|&n| n > 0 && n <= 8)
            .min();
        match smallest {
            Some(n) if n >= 2 => " ".repeat(n).into(),
            _ => default.into(),
        }
    }

    /// SHA-256 of every byte of the file.
    pub fn sha256(&self) -> String {
        sha256_hex(&self.bytes)
    }
}
