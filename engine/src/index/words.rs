//! The identifier-word summary of a file ([`words`]) that the resolver's word index
//! ([`super::Postings`]) is built from, with the mark bits saying where a word stands.
//!
//! A byte scan, not a parse: it must stay conservative (a word that could be a declaration is
//! marked as one; a false mark only costs a parse) and never depend on anything but the bytes.

/// Word mark: the word stands where a declaration of that name could (see `decl_context`).
pub const WORD_DECL: u8 = 1;
/// Word mark: the word follows `class` (Python), so members of that class can be in the file.
pub const WORD_CLASS: u8 = 2;
/// Word mark: the word is in an import statement.
pub const WORD_IMPORT: u8 = 4;
/// Word mark: the word follows `-` (a `--flag` string; Python flags are always written so).
pub const WORD_FLAG: u8 = 8;

/// The sorted, unique identifier words of `bytes` (runs of ASCII letters, digits, `_` and `$`;
/// any other byte separates), one per line, each prefixed with one mark byte: `b'0'` plus the
/// [`WORD_DECL`], [`WORD_CLASS`], [`WORD_IMPORT`] and [`WORD_FLAG`] bits of its occurrences
/// (`0`–`9`, `:`–`?`). For languages without a declaration filter every word has every bit.
pub fn words(bytes: &[u8], python: bool) -> String {
    let is_w = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut set: foldhash::HashMap<&[u8], u8> = foldhash::HashMap::default();
    // Inside an `import` / `from` statement (to its end: brackets and `\` continue it).
    let mut import_line = false;
    let mut depth: i32 = 0;
    let mut comment = false;
    // Still in the assignment targets at the head of a statement (`a, self.b: T = ...`).
    let mut head = true;
    let mut line_start = true;
    let mut prev_word: &[u8] = b"";
    let mut i = 0;
    let n = bytes.len();
    while i < n {
        let b = bytes[i];
        if is_w(b) {
            let s = i;
            while i < n && is_w(bytes[i]) {
                i += 1;
            }
            let w = &bytes[s..i];
            if w[0].is_ascii_digit() {
                prev_word = b"";
                line_start = false;
                head = false;
                continue;
            }
            let bits = if python {
                if line_start && !comment && (w == b"import" || w == b"from") {
                    import_line = true;
                    depth = 0;
                }
                let flag = if s > 0 && bytes[s - 1] == b'-' {
                    WORD_FLAG
                } else {
                    0
                };
                flag | if import_line {
                    WORD_DECL | WORD_IMPORT
                } else if prev_word == b"class" {
                    WORD_DECL | WORD_CLASS
                } else if decl_context(bytes, s, i, prev_word, head && !comment) {
                    WORD_DECL
                } else {
                    0
                }
            } else {
                WORD_DECL | WORD_CLASS | WORD_IMPORT | WORD_FLAG
            };
            let e = set.entry(w).or_insert(0);
            *e |= bits;
            prev_word = w;
            line_start = false;
            continue;
        }
        match b {
            b'\n' => {
                let k = if i > 0 && bytes[i - 1] == b'\r' {
                    i - 1
                } else {
                    i
                };
                let cont = k > 0 && bytes[k - 1] == b'\\';
                if !(import_line && (depth > 0 || cont)) {
                    import_line = false;
                    depth = 0;
                }
                comment = false;
                line_start = true;
                head = true;
                if !cont {
                    prev_word = b"";
                }
            }
            // A line continuation keeps `class \` + newline + `Name` together.
            b'\\' if matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => {}
            b' ' | b'\t' | b'\r' => {}
            b'#' => {
                comment = true;
                head = false;
                prev_word = b"";
            }
            b'(' | b')' if import_line && !comment => {
                depth += if b == b'(' { 1 } else { -1 };
                prev_word = b"";
            }
            b';' => {
                head = true;
                line_start = true;
                prev_word = b"";
            }
            b'.' | b',' | b'*' | b':' => {
                prev_word = b"";
                line_start = false;
            }
            b'=' => {
                // `==` ends the targets; a single `=` (chained assignment) keeps them.
                if bytes.get(i + 1) == Some(&b'=') {
                    head = false;
                    i += 1;
                }
                prev_word = b"";
                line_start = false;
            }
            _ => {
                head = false;
                prev_word = b"";
                line_start = false;
            }
        }
        i += 1;
    }
    let mut v: Vec<(&[u8], u8)> = set.into_iter().collect();
    v.sort_unstable();
    let mut out = String::with_capacity(v.iter().map(|(w, _)| w.len() + 2).sum());
    for (w, d) in v {
        out.push(char::from(b'0' + d));
        // ASCII by construction.
        out.push_str(std::str::from_utf8(w).unwrap_or(""));
        out.push('\n');
    }
    out
}

/// Whether the Python word at `s..e` stands where the definitions query could bind it: after
/// `def` / `class`; in the targets at the head of a statement (`a, self.b: T = ...`) before `=`
/// (not `==`), `:` or `,`; after `-` (a `--flag` string). Conservative: a false `true` only
/// costs a parse.
fn decl_context(bytes: &[u8], s: usize, e: usize, prev_word: &[u8], head: bool) -> bool {
    if prev_word == b"def" || prev_word == b"class" {
        return true;
    }
    if s > 0 && bytes[s - 1] == b'-' {
        return true;
    }
    if !head {
        return false;
    }
    let mut j = e;
    while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
        j += 1;
    }
    match bytes.get(j) {
        Some(b'=') => bytes.get(j + 1) != Some(&b'='),
        Some(b':' | b',') => true,
        _ => false,
    }
}
