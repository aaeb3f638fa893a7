//! The identifier-word summary of a file ([`words`]) that the resolver's word index
//! ([`super::Postings`]) is built from, with the mark bits saying where a word stands.
//!
//! A byte scan, not a parse: it must stay conservative (a word that could be a declaration is
//! marked as one; a false mark only costs a parse) and never depend on anything but the bytes.

mod elide;
mod literals;

pub(in crate::index) use elide::python_bodies;

use literals::{fstring_prefix, literal_words, string_end};

/// Word mark: the word stands where a declaration of that name could (see `decl_context`),
/// other than an import (Python words in an import statement carry [`WORD_IMPORT`] only: an
/// import binds a name declared elsewhere, so the resolver can look at the files that declare a
/// name before, or instead of, the ones that import it).
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
///
/// Python words inside string literals and comments get no mark but [`WORD_FLAG`] (with
/// [`WORD_DECL`]) after `-`: no declaration the definitions query binds stands there, and prose
/// (`"the class object"`, a docstring's `def run():` example) otherwise marks words of files that
/// declare nothing of that name. The word list itself is the same either way. When the literals
/// cannot be followed to their ends (an unterminated string, a comment inside an f-string
/// replacement field), the file is scanned again with every byte treated as code, as before.
pub fn words(bytes: &[u8], python: bool) -> String {
    if python && let Some(s) = scan(bytes, true, true) {
        return s;
    }
    scan(bytes, python, false).unwrap_or_default()
}

/// Whether `w` is a keyword opening a compound statement, whose header ends at a `:`.
pub(super) fn is_compound(w: &[u8]) -> bool {
    matches!(
        w,
        b"if"
            | b"elif"
            | b"else"
            | b"for"
            | b"while"
            | b"try"
            | b"except"
            | b"finally"
            | b"with"
            | b"def"
            | b"class"
            | b"async"
            | b"match"
            | b"case"
    )
}

/// Identifier bytes (ASCII letters, digits, `_`, `$`) as a table: the predicate was 13 % of a
/// no-op run's instructions.
static WORD_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    t
};

#[inline]
fn is_w(b: u8) -> bool {
    WORD_BYTE[b as usize]
}

/// The scan of [`words`]; with `literals`, Python strings and comments are followed (`None` when
/// one cannot be).
fn scan(bytes: &[u8], python: bool, literals: bool) -> Option<String> {
    // About one distinct word per 40 bytes of Python source: sized once instead of regrown.
    let mut set: foldhash::HashMap<&[u8], u8> = foldhash::HashMap::with_capacity_and_hasher(
        bytes.len() / 40,
        foldhash::fast::RandomState::default(),
    );
    // Inside an `import` / `from` statement (to its end: brackets and `\` continue it).
    let mut import_line = false;
    let mut depth: i32 = 0;
    let mut comment = false;
    // Still in the assignment targets at the head of a statement (`a, self.b: T = ...`).
    let mut head = true;
    let mut line_start = true;
    let mut prev_word: &[u8] = b"";
    // The statement began with a compound keyword (`if`, `def`, `class`...): a `:` outside
    // brackets ends its header, and a statement may follow on the same line (`if a: b = 1`,
    // `def f(self): self.x = 1`). Brackets are counted only when literals are followed (a
    // bracket inside a string would skew them otherwise; without them every `:` after a compound
    // keyword counts, which only marks more words).
    let mut compound = false;
    let mut brackets: usize = 0;
    // A byte-order mark does not end the first line's start (`import` after it is a statement).
    let mut i = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
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
                // Never cleared but by the `:` it waits for: a stale `true` (a conditional
                // expression's `if` starting a continuation line) only marks more words.
                if line_start && !comment && is_compound(w) {
                    compound = true;
                }
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
                    WORD_IMPORT
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
        if literals {
            match b {
                b'\'' | b'"' => {
                    let end = string_end(bytes, i, fstring_prefix(bytes, i))?;
                    literal_words(bytes, i, end, &mut set);
                    head = false;
                    prev_word = b"";
                    line_start = false;
                    i = end;
                    continue;
                }
                b'#' => {
                    let end = memchr::memchr(b'\n', &bytes[i..]).map_or(n, |k| i + k);
                    literal_words(bytes, i, end, &mut set);
                    head = false;
                    prev_word = b"";
                    i = end;
                    continue;
                }
                b'(' | b'[' | b'{' => brackets += 1,
                b')' | b']' | b'}' => brackets = brackets.saturating_sub(1),
                _ => {}
            }
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
            b':' if python && compound && !comment && brackets == 0 => {
                // Without bracket counts any later `:` may be the header's (`def f(d={'k': 1}):`).
                compound = !literals;
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
    if brackets > 0 {
        // Unbalanced (a syntax error): the count cannot be trusted; scan again without it.
        return None;
    }
    Some(sorted_lines(set))
}

/// The lines of [`words`]: one per word, its mark byte first, in byte order of the words.
fn sorted_lines(set: foldhash::HashMap<&[u8], u8>) -> String {
    // Sorted on the first 8 bytes as one big-endian number first (words hold no 0 byte, so the
    // zero padding keeps byte order), the whole word only on a tie: most comparisons are one
    // integer compare instead of a `memcmp` call (the sort was 15 % of a no-op run's instructions).
    let key = |w: &[u8]| {
        let mut b = [0u8; 8];
        let k = w.len().min(8);
        b[..k].copy_from_slice(&w[..k]);
        u64::from_be_bytes(b)
    };
    let mut v: Vec<(u64, &[u8], u8)> = set.into_iter().map(|(w, d)| (key(w), w, d)).collect();
    v.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    let mut out = Vec::with_capacity(v.iter().map(|(_, w, _)| w.len() + 2).sum());
    for (_, w, d) in v {
        out.push(b'0' + d);
        out.extend_from_slice(w);
        out.push(b'\n');
    }
    // ASCII by construction (identifier bytes, mark bytes `0`-`?`, newlines).
    String::from_utf8(out).unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(text: &str) -> std::collections::HashMap<String, u8> {
        words(text.as_bytes(), true)
            .lines()
            .map(|l| (l[1..].to_owned(), l.as_bytes()[0] - b'0'))
            .collect()
    }

    #[test]
    fn literals_and_comments_mark_nothing_but_flags() {
        let m = marks(
            "\"\"\"Docs: class Foo: def run(): x = 1\nimport os\n\"\"\"\n# class Bar\n\
             p.add_argument('--verbose', help='class Baz')\ny = 'it\\'s'\ndef go(): pass\n",
        );
        for w in ["Foo", "run", "x", "os", "Bar", "Baz"] {
            assert_eq!(m[w], 0, "{w}: in a literal or a comment");
        }
        assert_eq!(m["verbose"], WORD_FLAG | WORD_DECL);
        assert_eq!(
            m["go"] & WORD_DECL,
            WORD_DECL,
            "code after an escaped quote"
        );
        assert_eq!(m["y"] & WORD_DECL, WORD_DECL);
    }

    #[test]
    fn fstrings_prefixes_and_nested_quotes() {
        // Python 3.12 nested quotes, a quote in a format spec, `{{`, prefixes, `\` CR LF.
        let m = marks(
            "a = f\"{x[\"k\"]} {y:'>10} {{class No}} {z:{w}}\"\nclass A: pass\n\
             b = rb'\\'' + Rf'{q}' + u\"\"\"class N2\"\"\" + 'x\\\r\ny'\nclass B: pass\n",
        );
        assert_eq!(m["A"] & WORD_CLASS, WORD_CLASS);
        assert_eq!(m["B"] & WORD_CLASS, WORD_CLASS);
        assert_eq!(m["No"], 0);
        assert_eq!(m["N2"], 0);
        assert_eq!(m["k"], 0);
    }

    #[test]
    fn a_statement_after_a_compound_header_on_its_line() {
        let src =
            "class S:\n    def f(self, d={'k': 1}): self.seq = d\nif a: import os\nelse: b = 2\n";
        for m in [marks(src), {
            let w = scan(src.as_bytes(), true, false).unwrap();
            w.lines()
                .map(|l| (l[1..].to_owned(), l.as_bytes()[0] - b'0'))
                .collect()
        }] {
            assert_eq!(m["seq"] & WORD_DECL, WORD_DECL);
            assert_eq!(m["os"] & WORD_IMPORT, WORD_IMPORT);
            assert_eq!(m["b"] & WORD_DECL, WORD_DECL);
        }
        // Outside a compound header a `:` starts no statement (`k` is a dict key).
        assert_eq!(marks(src)["k"], 0);
    }

    #[test]
    fn unfollowable_literals_fall_back_to_code() {
        // An unterminated string, a `#` in a replacement field, a newline in a one-line
        // string's field: every byte is code, as before literals were followed.
        for text in [
            "s = 'open\nclass C: pass\n",
            "s = f'{x # c\n}'\nclass C: pass\n",
            "s = f'{x\n}'\nclass C: pass\n",
            "s = \"\"\"never closed\nclass C: pass\n",
        ] {
            assert_eq!(
                words(text.as_bytes(), true),
                scan(text.as_bytes(), true, false).unwrap(),
                "{text:?}"
            );
            assert_eq!(marks(text)["C"] & WORD_CLASS, WORD_CLASS, "{text:?}");
        }
    }

    #[test]
    fn word_table_and_sorted_lines() {
        for b in 0..=255u8 {
            assert_eq!(
                is_w(b),
                b.is_ascii_alphanumeric() || b == b'_' || b == b'$',
                "{b}"
            );
        }
        // Byte order, whatever the first 8 bytes share (`abcdefgh`, `abcdefghZ`, `abcdefgha`).
        let text = b"abcdefgha abcdefghZ abcdefgh abc ab_ B $x zz Z abcdefgg";
        let got: Vec<String> = words(text, false)
            .lines()
            .map(|l| l[1..].to_owned())
            .collect();
        let mut want: Vec<String> = text
            .split(|&b| b == b' ')
            .map(|w| String::from_utf8(w.to_vec()).unwrap())
            .collect();
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn literals_change_marks_not_words() {
        let text = "x = '''a b'''\n# c d\ndef e(): return f\"{g}\"\n";
        let with: Vec<String> = words(text.as_bytes(), true)
            .lines()
            .map(|l| l[1..].to_owned())
            .collect();
        let without: Vec<String> = scan(text.as_bytes(), true, false)
            .unwrap()
            .lines()
            .map(|l| l[1..].to_owned())
            .collect();
        assert_eq!(with, without);
    }

    fn py_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                py_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "py") {
                out.push(p);
            }
        }
    }

    /// Soundness of the marks: every Python declaration the index extracts has its name marked
    /// [`WORD_DECL`] ([`WORD_IMPORT`] for an import; classes also [`WORD_CLASS`]), and a
    /// member's container [`WORD_CLASS`], on
    /// every Python file of the corpus (and of `PROBITY_WORDS_EXTRA`, `:`-separated dirs).
    #[test]
    fn every_extracted_declaration_is_marked() {
        let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        py_files(&top.join("corpus"), &mut files);
        py_files(&top.join("tests"), &mut files);
        if let Ok(extra) = std::env::var("PROBITY_WORDS_EXTRA") {
            for d in extra.split(':') {
                py_files(std::path::Path::new(d), &mut files);
            }
        }
        assert!(files.len() > 50, "python files found: {}", files.len());
        for p in files {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let Some((l, g)) = crate::lang::for_path(&p) else {
                continue;
            };
            let (decls, errors) = super::super::extract(l, g, &text);
            if errors > 0 {
                continue;
            }
            let lines = words(text.as_bytes(), true);
            let ws: Vec<&str> = lines.lines().map(|l| &l[1..]).collect();
            assert!(
                ws.windows(2).all(|p| p[0] < p[1]),
                "{}: sorted, unique",
                p.display()
            );
            let m = marks(&text);
            for d in decls {
                if d.kind == super::super::Kind::CliFlag {
                    continue;
                }
                let name = d.name.rsplit('.').next().unwrap_or(&d.name);
                // Words are ASCII runs: other names are not in the word list at all (as before).
                if !name.bytes().all(is_w) {
                    continue;
                }
                let got = m.get(name).copied().unwrap_or(0);
                // An import's name is marked as imported; any other declaration's as declared.
                let want = if d.kind == super::super::Kind::Import {
                    WORD_IMPORT
                } else {
                    WORD_DECL
                };
                assert_ne!(got & want, 0, "{}: {d:?}", p.display());
                if d.kind == super::super::Kind::Class {
                    assert_ne!(got & WORD_CLASS, 0, "{}: {d:?}", p.display());
                }
                if let Some(c) = d.container.as_ref().filter(|c| c.bytes().all(is_w)) {
                    let got = m.get(c.as_str()).copied().unwrap_or(0);
                    assert_ne!(got & WORD_CLASS, 0, "{}: container of {d:?}", p.display());
                }
            }
        }
    }
}
