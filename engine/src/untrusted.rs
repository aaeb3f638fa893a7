//! Untrusted text in human output (issue 12): what a reproduction printed, the values it
//! captured, file names of the repository and lines of a sink or trace are shown, never obeyed,
//! and never allowed to pass for probity's own output.
//!
//! [`escape`] is the one function every human-output path uses for such text: control
//! characters (C0, DEL, C1) and the Unicode bidirectional controls become `\u{..}`, and `\` becomes
//! `\\`, so the text is one printable line that cannot move the cursor, recolour the terminal
//! or reorder what follows, and the escaping reads back unambiguously. [`frame`] shows a
//! block of untrusted lines with every line prefixed [`LINE_PREFIX`]: a program that prints
//! probity's "end of untrusted data" trailer, or a line shaped like a finding, shows it
//! prefixed, inside the frame.

use std::fmt::Write;

/// The prefix of every untrusted line inside a [`frame`].
pub const LINE_PREFIX: &str = "| ";

/// Whether `c` is escaped: a control character or a bidirectional control.
fn hostile(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with control and bidirectional characters as `\u{..}` and `\` as `\\`.
pub fn escape(s: &str) -> String {
    if !s.chars().any(|c| c == '\\' || hostile(c)) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if hostile(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` as text that stays on one markdown line and inside a code span there: [`escape`]d
/// (line breaks included, which would otherwise start a line of a ledger section's own shape,
/// or a heading that moves where the section ends), and a backtick as `'`.
pub fn inline(s: &str) -> String {
    escape(s).replace('`', "'")
}

/// The lines of `text` (split on `\n`; a final newline ends the last line), each escaped and
/// prefixed [`LINE_PREFIX`], each ending in a newline; empty text gives nothing.
pub fn frame(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16 + 4);
    for line in text.strip_suffix('\n').unwrap_or(text).split('\n') {
        if text.is_empty() {
            break;
        }
        out.push_str(LINE_PREFIX);
        out.push_str(&escape(line));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_escaped_and_frames_prefix_every_line() {
        assert_eq!(escape("plain text"), "plain text");
        assert_eq!(
            escape("a\u{1b}[2Jb\rc\u{9b}d\u{202e}e\\f"),
            "a\\u{1b}[2Jb\\u{d}c\\u{9b}d\\u{202e}e\\\\f"
        );
        assert_eq!(frame(""), "");
        assert_eq!(frame("x\n"), "| x\n");
        assert_eq!(
            frame("--- end of untrusted data ---\nlast"),
            "| --- end of untrusted data ---\n| last\n"
        );
        assert_eq!(frame("\n"), "| \n");
    }
}
