//! Flags no option call declares: a flag whose text is in a string literal of a source file
//! (getopts' `optflag("t", "test", ..)`, click's `param_decls = ("--version",)`,
//! `hasFlag('no-color')`) is declared in a form probity cannot analyze; a well-known flag of the
//! ecosystem's tool (`--features` of cargo) is the tool's. Both UNCHECKABLE, never MISSING.
//! Candidate files come from the word index (files holding every word of the flag); only those
//! are read.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::Ordering;

use super::Repo;
use super::langs::{family_of, lang_of};
use super::refs::parts_of;
use crate::index::names::{JS_TOOL_FLAGS, PY_TOOL_FLAGS, RUST_TOOL_FLAGS};
use crate::lang::Family;

impl Repo {
    /// Why the flag `f` (`--name`), which no analyzed option call declares, is not MISSING: its
    /// text in a string literal of a source file, or the tool of the repository's ecosystem it
    /// belongs to.
    pub(super) fn undeclared_flag(&self, f: &str) -> Option<String> {
        if let Some(at) = self.flag_literal(f) {
            return Some(format!(
                "`{f}` is declared by no option call probity recognizes, but its text is in a \
                 string literal at {at} (a declaration in a form probity cannot analyze)"
            ));
        }
        let mut fams: BTreeSet<u8> = BTreeSet::new();
        for p in self.sums.keys() {
            match family_of(p) {
                Some(Family::Rust) => fams.insert(0),
                Some(Family::Python) => fams.insert(1),
                Some(Family::JavaScript) => fams.insert(2),
                None => false,
            };
        }
        let tables = [&RUST_TOOL_FLAGS, &PY_TOOL_FLAGS, &JS_TOOL_FLAGS];
        fams.iter().find_map(|&i| {
            tables[usize::from(i)].key_of(f).map(|tool| {
                format!(
                    "external: `{f}` is a flag of {tool}, which the repository does not declare"
                )
            })
        })
    }

    /// The first string literal of a source file that is a whole option spec naming the flag
    /// `f` (`'-h, --help'`, `"--help"`, `'-p, --port <n>'`: a declaration written as data, such
    /// as commander's default help flags or click's `help_option_names = ["--help"]`):
    /// (`path:line:column`, the literal).
    pub(super) fn flag_spec_literal(&self, f: &str) -> Option<(String, String)> {
        let bare = f.trim_start_matches('-');
        let dashed = format!("--{bare}");
        self.flag_files(bare).into_iter().find_map(|rel| {
            self.read.fetch_add(1, Ordering::Relaxed);
            let text = crate::fsio::read_repo_file(self.root.join(rel.as_str())).ok()?;
            // Most files holding the flag's words never write `--name` (`verbose = True`).
            memchr::memmem::find(&text, dashed.as_bytes())?;
            let found = spec_literals(&text, &dashed);
            if found.is_empty() {
                return None;
            }
            // Confirmed on the tree: the literal is a whole string of the code, not text inside a
            // docstring or comment (a docstring's example `@click.option("--name")`).
            let strings = self
                .ws
                .code_strings
                .get_or(rel.clone(), || code_strings(&rel, &text))?;
            found.into_iter().find_map(|(line, col, at, lit)| {
                (strings.get(&at) == Some(&lit)).then(|| (format!("{rel}:{line}:{col}"), lit))
            })
        })
    }

    /// Source files (not generated) holding every word of the flag `bare`, from the word index.
    fn flag_files(&self, bare: &str) -> Vec<String> {
        let words = parts_of(bare);
        let post = self.postings();
        let mut files: Option<BTreeSet<usize>> = None;
        for w in &words {
            let got: BTreeSet<usize> = post.exact(w).map(|(id, _)| id).collect();
            files = Some(match files {
                None => got,
                Some(prev) => prev.intersection(&got).copied().collect(),
            });
        }
        files
            .unwrap_or_default()
            .into_iter()
            .map(|id| post.files[id].to_string())
            // Generated files have their own reason (see `generated_for`).
            .filter(|rel| lang_of(rel).is_some() && !self.is_generated(rel))
            .collect()
    }

    /// `path:line` of the first string literal of a source file holding the flag `f`: `--name`
    /// inside a literal (`'-h, --help'`), or the whole literal `name` (`"test"`, `'no-color'`).
    fn flag_literal(&self, f: &str) -> Option<String> {
        let bare = f.trim_start_matches('-');
        let dashed = format!("--{bare}");
        self.flag_files(bare).into_iter().find_map(|rel| {
            self.read.fetch_add(1, Ordering::Relaxed);
            let text = crate::fsio::read_repo_file(self.root.join(rel.as_str())).ok()?;
            let line = literal_line(&text, &dashed, bare)?;
            Some(format!("{rel}:{line}"))
        })
    }
}

/// The string literals of a source file's code: the byte where each one's content starts → the
/// content (between its quotes). Docstrings and comments are no literals of the code: text inside
/// them is inside a larger string or a comment. `None` for a file with syntax errors (not
/// analyzed: its absence rules apply instead). Kept in the workspace (parsed once per workspace
/// for each file, however many flags are looked up in it).
fn code_strings(rel: &str, bytes: &[u8]) -> Option<std::sync::Arc<HashMap<usize, String>>> {
    use std::sync::Arc;
    let compute = || -> Option<Arc<HashMap<usize, String>>> {
        let (_, grammar) = crate::lang::for_path(std::path::Path::new(rel))?;
        let text = std::str::from_utf8(bytes).ok()?;
        let tree = crate::parse::parse(grammar, text).filter(|t| !t.root_node().has_error())?;
        let mut out = HashMap::new();
        let mut w = tree.walk();
        'walk: loop {
            let n = w.node();
            let k = n.kind();
            if matches!(
                k,
                "string" | "string_literal" | "raw_string_literal" | "template_string"
            ) {
                let t = text.get(n.byte_range()).unwrap_or("");
                let prefix = t.len()
                    - t.trim_start_matches(|c: char| c.is_ascii_alphabetic())
                        .len();
                let body = &t[prefix..];
                let open = body.len() - body.trim_start_matches(['"', '\'', '`', '#']).len();
                let inner = body.trim_matches(['"', '\'', '`', '#']);
                out.insert(n.start_byte() + prefix + open, inner.to_owned());
            } else if w.goto_first_child() {
                continue;
            }
            while !w.goto_next_sibling() {
                if !w.goto_parent() {
                    break 'walk;
                }
            }
        }
        Some(Arc::new(out))
    };
    compute()
}

/// Every quoted literal of `text` (not on a comment line) that is a whole option spec with
/// `dashed` as one of its flags: tokens split at `,`, `|` and spaces, each a flag (`-x`,
/// `--name`) or an argument placeholder (`<n>`, `[file...]`). (line, byte column, byte offset,
/// literal), in text order.
fn spec_literals(text: &[u8], dashed: &str) -> Vec<(usize, usize, usize, String)> {
    let mut out = Vec::new();
    let is_spec = |lit: &str| {
        let mut named = false;
        let ok = lit
            .split([',', '|', ' ', '\t'])
            .filter(|t| !t.is_empty())
            .all(|t| {
                if t == dashed {
                    named = true;
                    return true;
                }
                let flag = t.starts_with('-')
                    && t.len() > 1
                    && t[1..]
                        .trim_start_matches('-')
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
                let placeholder = (t.starts_with('<') && t.ends_with('>'))
                    || (t.starts_with('[') && t.ends_with(']'));
                flag || placeholder
            });
        ok && named
    };
    let mut line_no = 0usize;
    let mut offset = 0usize;
    for line in text.split(|&b| b == b'\n') {
        line_no += 1;
        let line_start = offset;
        offset += line.len() + 1;
        if memchr::memmem::find(line, dashed.as_bytes()).is_none() || comment_line(line) {
            continue;
        }
        for q in [b'"', b'\'', b'`'] {
            let quotes: Vec<usize> = line
                .iter()
                .enumerate()
                .filter(|&(j, &b)| b == q && (j == 0 || line[j - 1] != b'\\'))
                .map(|(j, _)| j)
                .collect();
            for pair in quotes.chunks_exact(2) {
                let Ok(lit) = std::str::from_utf8(&line[pair[0] + 1..pair[1]]) else {
                    continue;
                };
                if is_spec(lit) {
                    let col = pair[0] + 1;
                    out.push((line_no, col, line_start + col, lit.to_owned()));
                }
            }
        }
    }
    out
}

/// A comment line (`//! opts.optflag("h", "help", ..)` in a doc example), not a Rust attribute
/// (`#[arg(long = "no-color")]`).
fn comment_line(line: &[u8]) -> bool {
    let code = line.trim_ascii_start();
    let attr = code.starts_with(b"#[") || code.starts_with(b"#![");
    !attr
        && [&b"//"[..], b"#", b"*", b"/*"]
            .iter()
            .any(|c| code.starts_with(c))
}

/// The first line of `text`, not a comment line, where `dashed` (`--name`) stands inside a
/// quoted literal of that line, or, on a line of option code, a literal is exactly `bare`
/// (`"name"`).
fn literal_line(text: &[u8], dashed: &str, bare: &str) -> Option<usize> {
    // Only lines holding `bare` can match (`dashed` holds it too): visit just those, found with
    // one substring search over the file, instead of splitting and scanning every line.
    let (mut line_no, mut counted_to, mut next_line) = (1usize, 0usize, 0usize);
    for hit in memchr::memmem::find_iter(text, bare.as_bytes()) {
        if hit < next_line {
            continue;
        }
        let start = memchr::memrchr(b'\n', &text[..hit]).map_or(0, |k| k + 1);
        let end = memchr::memchr(b'\n', &text[hit..]).map_or(text.len(), |k| hit + k);
        line_no += memchr::memchr_iter(b'\n', &text[counted_to..start]).count();
        counted_to = start;
        next_line = end + 1;
        if line_matches(&text[start..end], dashed, bare) {
            return Some(line_no);
        }
    }
    None
}

/// Whether one line (not a comment line) holds `dashed` inside a quoted literal, or, on a line
/// of option code, a literal that is exactly `bare`.
fn line_matches(line: &[u8], dashed: &str, bare: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    {
        let code = line.trim_ascii_start();
        if comment_line(line) {
            return false;
        }
        // A bare literal (`"test"`) is a flag's only on a line of option code (`optflag`,
        // `hasFlag`, `add_argument`, `option`), not any string that happens to be the word.
        let lower = code.to_ascii_lowercase();
        let optionish = ["flag", "opt", "arg"]
            .iter()
            .any(|w| memchr::memmem::find(&lower, w.as_bytes()).is_some());
        for q in [b'"', b'\'', b'`'] {
            // Quoted literals of the line: the text between the 1st and 2nd quote, 3rd and 4th...
            let quotes: Vec<usize> = line
                .iter()
                .enumerate()
                .filter(|&(j, &b)| b == q && (j == 0 || line[j - 1] != b'\\'))
                .map(|(j, _)| j)
                .collect();
            for pair in quotes.chunks_exact(2) {
                let lit = &line[pair[0] + 1..pair[1]];
                if optionish && lit == bare.as_bytes() {
                    return true;
                }
                let mut from = 0;
                while let Some(k) = memchr::memmem::find(&lit[from..], dashed.as_bytes()) {
                    let (s, e) = (from + k, from + k + dashed.len());
                    if (s == 0 || !word(lit[s - 1])) && (e == lit.len() || !word(lit[e])) {
                        return true;
                    }
                    from = e;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{literal_line, spec_literals};

    #[test]
    fn whole_option_specs() {
        let at = |t: &[u8]| {
            spec_literals(t, "--help")
                .first()
                .map(|(l, c, _, _)| (*l, *c))
        };
        assert_eq!(at(b"flags = flags ?? '-h, --help';"), Some((1, 18)));
        assert_eq!(at(b"x\nnames = [\"--help\"]"), Some((2, 10)));
        assert_eq!(at(b"o('-H, --help [topic]', 'show')"), Some((1, 3)));
        assert_eq!(at(b"f('Use --help to see more')"), None);
        assert_eq!(at(b"f('--help=all')"), None);
        assert_eq!(at(b"f('--helpful')"), None);
        assert_eq!(at(b"# names = ['--help']"), None);
    }

    #[test]
    fn flag_in_a_literal() {
        let t = b"a\nx.optflag(\"t\", \"test\", \"run\")\n";
        assert_eq!(literal_line(t, "--test", "test"), Some(2));
        assert_eq!(literal_line(b"f('-h, --help')", "--help", "help"), Some(1));
        assert_eq!(literal_line(b"f('--helpful')", "--help", "help"), None);
        // Lines holding the word but no literal of it are passed over; numbering stays right.
        let t = b"// help\nlet help = 1;\n\nx(\"a\")\nf('-h, --help')\n";
        assert_eq!(literal_line(t, "--help", "help"), Some(5));
        assert_eq!(
            literal_line(b"// --help in a comment", "--help", "help"),
            None
        );
        assert_eq!(literal_line(b"let test = 1;", "--test", "test"), None);
        assert_eq!(literal_line(b"let t = \"test\";", "--test", "test"), None);
        let doc = b"//! opts.optflag(\"h\", \"help\", \"\")";
        assert_eq!(literal_line(doc, "--help", "help"), None);
        assert_eq!(
            literal_line(b"  #[arg(long = \"--x\")]", "--x", "x"),
            Some(1)
        );
    }
}
