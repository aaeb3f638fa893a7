//! Python string literals and comments for the word scan ([`super::words`]): where a literal
//! ends (f-string fields and nested strings followed), and the words in it, which mark no
//! declaration but a `-flag` one.

use super::{WORD_DECL, WORD_FLAG, is_w};

/// Add the words of the literal or comment `bytes[s..e]` to `set`: no mark, but a word after `-`
/// keeps [`WORD_FLAG`] and [`WORD_DECL`] (a flag is declared in a `'--name'` string).
pub(super) fn literal_words<'a>(
    bytes: &'a [u8],
    s: usize,
    e: usize,
    set: &mut foldhash::HashMap<&'a [u8], u8>,
) {
    let mut i = s;
    while i < e {
        if !is_w(bytes[i]) {
            i += 1;
            continue;
        }
        let st = i;
        while i < e && is_w(bytes[i]) {
            i += 1;
        }
        if bytes[st].is_ascii_digit() {
            continue;
        }
        let bits = if st > 0 && bytes[st - 1] == b'-' {
            WORD_FLAG | WORD_DECL
        } else {
            0
        };
        *set.entry(&bytes[st..i]).or_insert(0) |= bits;
    }
}

/// Whether the quote at `q` opens an f-string (or a template string): the identifier run right
/// before it is a string prefix (`f`, `rf`, `Fr`, `t`...) holding `f` or `t`.
pub(super) fn fstring_prefix(bytes: &[u8], q: usize) -> bool {
    let mut s = q;
    while s > 0 && is_w(bytes[s - 1]) {
        s -= 1;
    }
    let p = &bytes[s..q];
    p.len() <= 2
        && p.iter().all(|b| b"rRbBuUfFtT".contains(b))
        && p.iter().any(|b| b"fFtT".contains(b))
}

/// The end (one past the closing quote) of the Python string literal opening at `q`; `None` for
/// one that does not end (end of file, or a newline in a one-line string), so that the caller
/// falls back to treating the file as code. A backslash always escapes the next byte (raw strings
/// too, as Python's tokenizer does). `fstr`: replacement fields are followed, with the strings
/// nested in them (Python 3.12 allows the same quotes there).
pub(super) fn string_end(bytes: &[u8], q: usize, fstr: bool) -> Option<usize> {
    let n = bytes.len();
    let quote = bytes[q];
    let triple = bytes.get(q + 1) == Some(&quote) && bytes.get(q + 2) == Some(&quote);
    let mut j = q + if triple { 3 } else { 1 };
    while j < n {
        let c = bytes[j];
        if c == b'\\' {
            // `\` CR LF is one line continuation.
            j += if bytes.get(j + 1) == Some(&b'\r') && bytes.get(j + 2) == Some(&b'\n') {
                3
            } else {
                2
            };
            continue;
        }
        if c == quote {
            if !triple {
                return Some(j + 1);
            }
            if bytes.get(j + 1) == Some(&quote) && bytes.get(j + 2) == Some(&quote) {
                return Some(j + 3);
            }
        } else if c == b'\n' && !triple {
            return None;
        } else if c == b'{' && fstr {
            if bytes.get(j + 1) == Some(&b'{') {
                j += 2;
                continue;
            }
            j = field_end(bytes, j + 1, triple)?;
            continue;
        }
        j += 1;
    }
    None
}

/// The end (one past the `}`) of the f-string replacement field whose expression starts at `j`:
/// brackets nest, strings are skipped, a `:` outside brackets starts the format spec (text with
/// nested fields). `None` at the end of the file, at a `#` (a comment in a multi-line field) or
/// at a newline in a field of a one-line string (`!triple`; Python 3.12 allows it, but so does a
/// brace left open by mistake): the fallback scan handles those.
fn field_end(bytes: &[u8], mut j: usize, triple: bool) -> Option<usize> {
    let n = bytes.len();
    let mut depth = 0usize;
    while j < n {
        match bytes[j] {
            b'\'' | b'"' => {
                j = string_end(bytes, j, fstring_prefix(bytes, j))?;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' if depth == 0 => return Some(j + 1),
            b'}' => depth -= 1,
            b'#' => return None,
            b'\n' if !triple => return None,
            b':' if depth == 0 => {
                j += 1;
                while j < n {
                    match bytes[j] {
                        b'{' => j = field_end(bytes, j + 1, triple)?,
                        b'}' => return Some(j + 1),
                        b'\n' if !triple => return None,
                        _ => j += 1,
                    }
                }
                return None;
            }
            _ => {}
        }
        j += 1;
    }
    None
}
