//! Python function bodies that can hold no declaration, blanked before the declarations parse
//! ([`python_bodies`]): most of a module's bytes are statements inside functions, and the index
//! keeps nothing of them (names bound in a function are locals), so parsing them is most of the
//! cost of a cold `drift` and buys nothing.
//!
//! What a function body can give the index, and so what keeps one whole: a `self.x` binding
//! (an instance attribute of the method's class), a `class` (its members are declarations), an
//! option-declaring call (`add_argument`, `option`, `add_option`). A body without any of them is
//! replaced, byte for byte, by spaces (line ends kept, so every line and column stays where it
//! was) and a single `0` statement at its first statement's indentation: the tree keeps every
//! header, decorator, class body and module statement as it was. Anything this byte scan cannot
//! follow for certain (a tab or form feed in an indentation, a lone carriage return, a string or
//! bracket that does not close) leaves the file whole.

use super::literals::{fstring_prefix, string_end};
use super::{is_compound, is_w};

/// A logical line of code (brackets and `\` continuations joined; blank and comment-only lines
/// are none).
struct Line {
    /// Offset of the first byte of its first physical line.
    start: usize,
    /// Offset just past its last physical line's end (or the end of the file).
    end: usize,
    /// Spaces before its first character.
    indent: usize,
    /// A `def` (or `async def`) header whose body starts on the next line.
    def_header: bool,
    /// Holds something a declaration can come from inside a function (see the module doc).
    keeps: bool,
}

/// `bytes` with every function body that can hold no declaration blanked (see the module doc);
/// `None` when none is, or when the file cannot be followed for certain.
pub(in crate::index) fn python_bodies(bytes: &[u8]) -> Option<Vec<u8>> {
    let lines = logical_lines(bytes)?;
    let mut out: Option<Vec<u8>> = None;
    let mut k = 0;
    while k < lines.len() {
        let l = &lines[k];
        if !l.def_header {
            k += 1;
            continue;
        }
        // The body: the following logical lines indented deeper than the header.
        let mut j = k + 1;
        while j < lines.len() && lines[j].indent > l.indent {
            j += 1;
        }
        if j == k + 1 || lines[k + 1..j].iter().any(|b| b.keeps) {
            // No body (a syntax error), or one that may declare: look at the defs inside it.
            k += 1;
            continue;
        }
        let (s, e) = (lines[k].end, lines[j - 1].end);
        let first = lines[k + 1].start + lines[k + 1].indent;
        let o = out.get_or_insert_with(|| bytes.to_vec());
        for b in &mut o[s..e] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        o[first] = b'0';
        k = j;
    }
    out
}

/// The logical lines of `bytes`, or `None` when the scan cannot follow the file for certain.
fn logical_lines(bytes: &[u8]) -> Option<Vec<Line>> {
    let n = bytes.len();
    let mut lines = Vec::new();
    let mut i = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    while i < n {
        let start = i;
        let mut indent = 0;
        while i < n && bytes[i] == b' ' {
            indent += 1;
            i += 1;
        }
        match bytes.get(i) {
            None => break,
            Some(b'\t' | b'\x0c') => return None,
            Some(b'\r') if bytes.get(i + 1) != Some(&b'\n') => return None,
            Some(b'\n' | b'\r' | b'#') => {
                // Blank or comment-only.
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(n, |k| i + k + 1);
                continue;
            }
            Some(_) => {}
        }
        let (end, def_header, keeps) = scan_line(bytes, i)?;
        lines.push(Line {
            start,
            end,
            indent,
            def_header,
            keeps,
        });
        i = end;
    }
    Some(lines)
}

/// One logical line from its first character at `i`: (its end, whether it is a `def` header
/// with the body on the next line, whether it keeps a body whole).
fn scan_line(bytes: &[u8], mut i: usize) -> Option<(usize, bool, bool)> {
    let n = bytes.len();
    let mut depth = 0usize;
    let mut keeps = false;
    // The current statement: its first word, its number of words, whether it saw `self.` yet
    // (then a `=` or `:` outside brackets makes it a possible `self.x` binding).
    let mut first: &[u8] = b"";
    let mut words = 0usize;
    let mut self_attr = false;
    let mut def_line = false;
    // Last code byte that is not white space (for the header's closing `:`).
    let mut last = b'\n';
    while i < n {
        let b = bytes[i];
        if is_w(b) {
            let s = i;
            while i < n && is_w(bytes[i]) {
                i += 1;
            }
            let w = &bytes[s..i];
            if words == 0 {
                first = w;
            }
            if words == 0 && w == b"def" || words == 1 && first == b"async" && w == b"def" {
                def_line = true;
            }
            words += 1;
            if matches!(w, b"class" | b"add_argument" | b"option" | b"add_option") {
                keeps = true;
            }
            if w == b"self"
                && bytes.get(i) == Some(&b'.')
                && s.checked_sub(1).is_none_or(|p| bytes[p] != b'.')
            {
                self_attr = true;
                if matches!(first, b"for" | b"async" | b"with") {
                    // A loop or `with` target.
                    keeps = true;
                }
            }
            last = b'w';
            continue;
        }
        match b {
            b'\'' | b'"' => {
                i = string_end(bytes, i, fstring_prefix(bytes, i))?;
                last = b'"';
                continue;
            }
            b'#' => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(n, |k| i + k);
                continue;
            }
            b'\\' => {
                // A continuation: `\` and the line end.
                match (bytes.get(i + 1), bytes.get(i + 2)) {
                    (Some(b'\n'), _) => i += 2,
                    (Some(b'\r'), Some(b'\n')) => i += 3,
                    _ => return None,
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            b'\n' if depth == 0 => {
                return Some((i + 1, def_line && last == b':', keeps));
            }
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => return None,
            b';' if depth == 0 => {
                words = 0;
                self_attr = false;
                first = b"";
            }
            b':' if depth == 0 => {
                if is_compound(first) {
                    // The header ends: a statement may follow on the same line.
                    words = 0;
                    self_attr = false;
                    first = b"";
                } else if self_attr && bytes.get(i + 1) != Some(&b'=') {
                    // `self.x: T` (an annotation) or a lambda after `self.` (kept: harmless).
                    keeps = true;
                }
            }
            b'=' if depth == 0 => {
                let next = bytes.get(i + 1).copied();
                let before = i.checked_sub(1).map(|p| bytes[p]);
                let single =
                    next != Some(b'=') && !matches!(before, Some(b'=' | b'!' | b'<' | b'>' | b':'));
                if single && self_attr {
                    keeps = true;
                }
                if next == Some(b'=') {
                    i += 1;
                }
            }
            _ => {}
        }
        if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            last = b;
        }
        i += 1;
    }
    if depth > 0 {
        return None;
    }
    Some((n, def_line && last == b':', keeps))
}

#[cfg(test)]
mod tests {
    use super::python_bodies;

    fn elided(src: &str) -> Option<String> {
        python_bodies(src.as_bytes()).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn a_plain_body_is_blanked_in_place() {
        let src = "def f(a):\n    x = a + 1\n    return x\n\nY = 2\n";
        let got = elided(src).unwrap();
        assert_eq!(got, "def f(a):\n    0        \n            \n\nY = 2\n");
        assert_eq!(got.len(), src.len());
    }

    #[test]
    fn a_body_that_may_declare_stays() {
        for src in [
            "class A:\n    def __init__(self):\n        self.x = 1\n",
            "class A:\n    def f(self):\n        self.x: int = 1\n",
            "class A:\n    def f(self):\n        self.x, y = 1, 2\n",
            "class A:\n    def f(self):\n        (self.x, y) = 1, 2\n",
            "class A:\n    def f(self):\n        for self.i in range(3):\n            pass\n",
            "class A:\n    def f(self):\n        if ok: self.x = 1\n",
            "def f():\n    class B:\n        y = 1\n    return B\n",
            "def main():\n    p.add_argument('--x')\n",
            "class A:\n    def f(self):\n        a = \\\n            self.x = 2\n",
        ] {
            let got = elided(src);
            assert!(
                got.is_none() || got.as_deref() == Some(src),
                "{src:?} -> {got:?}"
            );
        }
    }

    #[test]
    fn reads_of_self_do_not_keep_a_body() {
        let src = "class A:\n    def f(self):\n        if self.x == 1 and self.y <= 2:\n            return self.z(k=self.w)\n        return [self.q]\n";
        let got = elided(src).unwrap();
        assert!(
            got.starts_with("class A:\n    def f(self):\n        0"),
            "{got:?}"
        );
        assert_eq!(got.lines().count(), src.lines().count());
    }

    #[test]
    fn strings_and_brackets_do_not_end_a_body() {
        let src = "def f():\n    s = '''\nnot: code\n'''\n    t = (1,\n2)\n    return s\nZ = 1\n";
        let got = elided(src).unwrap();
        assert!(got.ends_with("\nZ = 1\n"), "{got:?}");
        assert!(!got.contains("not"), "{got:?}");
    }

    #[test]
    fn what_the_scan_cannot_follow_stays_whole() {
        for src in [
            "def f():\n\treturn 1\n",
            "def f():\n    s = 'open\n",
            "def f():\n    return (1\n",
            "def f():\r    return 1\r",
            "def f(): return 1\n",
        ] {
            assert_eq!(elided(src), None, "{src:?}");
        }
    }

    #[test]
    fn crlf_files_keep_their_line_ends() {
        let src = "def f():\r\n    return 1\r\nX = 1\r\n";
        let got = elided(src).unwrap();
        assert_eq!(got, "def f():\r\n    0       \r\nX = 1\r\n");
    }
}
