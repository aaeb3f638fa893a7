//! Pure helpers of the adjacent-test search: which paths are test files by their language's
//! conventions, the words a module's importers must hold, and the imports a file's text names
//! that the index does not record (Python imports inside functions and dotted `import a.b`;
//! JS/TS side-effect imports, bare `require`, dynamic `import()`, `jest.mock`/`vi.mock`).
//!
//! A byte scan, not a parse: it may find an import in a comment or a docstring, which only costs
//! a candidate (every import is resolved to a file before it counts).

use crate::lang::Family;

/// The language family of a test file at `rel` by its path alone (`has_cfg_test` decides the
/// Rust files outside `tests/`).
pub(super) fn test_path_language(rel: &str) -> Option<Family> {
    let (dirs, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let in_dir = |d: &[&str]| dirs.split('/').any(|c| d.contains(&c));
    let (stem, ext) = name.rsplit_once('.')?;
    match ext {
        "py" => (stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem == "conftest"
            || in_dir(&["tests", "test"]))
        .then_some(Family::Python),
        "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => (stem.ends_with(".test")
            || stem.ends_with(".spec")
            || stem.ends_with("-test")
            || stem.ends_with("_test")
            || in_dir(&["__tests__", "test", "tests"]))
        .then_some(Family::JavaScript),
        "rs" => in_dir(&["tests"]).then_some(Family::Rust),
        _ => None,
    }
}

/// Whether pytest collects `rel` by default (`test_*.py`, `*_test.py`).
pub(super) fn is_pytest_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.strip_suffix(".py")
        .is_some_and(|s| s.starts_with("test_") || s.ends_with("_test"))
}

/// Whether jest collects `rel` by default (`*.test.*`, `*.spec.*`, `__tests__/`).
pub(super) fn is_jest_file(rel: &str) -> bool {
    is_spec_name(rel) || rel.contains("__tests__/")
}

/// Whether `rel` is named as a test (`*.test.*`, `*.spec.*`): what vitest collects by default.
pub(super) fn is_spec_name(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.contains(".test.") || name.contains(".spec.")
}

/// Whether Rust source holds a `#[cfg(test)]` item (its own unit tests).
pub(super) fn has_cfg_test(text: &str) -> bool {
    text.contains("#[cfg(test)]")
}

/// The identifier words of `s` (runs of ASCII letters, digits, `_`, `$`), as the word index
/// splits text.
pub(super) fn words_of(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty() && !w.as_bytes()[0].is_ascii_digit())
        .map(str::to_owned)
        .collect()
}

/// The words an importer of `rel` must hold: its module name (the file stem; the directory for a
/// package `__init__.py`, `index.*`, `mod.rs`), plus `extra` (a crate or package name).
pub(super) fn import_names(rel: &str, extra: &[String]) -> Vec<String> {
    let (dirs, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let stem = name.split_once('.').map_or(name, |(s, _)| s);
    let stem = match name.rsplit_once('.').map_or(name, |(s, _)| s) {
        "__init__" | "index" | "mod" => dirs.rsplit('/').next().unwrap_or(""),
        // `lib.rs` / `main.rs` are imported by their crate's name (in `extra`).
        "lib" | "main" if name.ends_with(".rs") => "",
        _ => name.rsplit_once('.').map_or(stem, |(s, _)| s),
    };
    let mut out = words_of(stem);
    for e in extra {
        out.extend(words_of(e));
    }
    out.sort();
    out.dedup();
    out
}

/// An import as written: the module specifier and, for `from m import n` / `use m::n`, the name.
pub(super) type Spec = (String, Option<String>);

/// Python imports of `text` the index leaves out: every `import a.b.c` (the index keeps `a`)
/// and every indented one (imports inside functions).
pub(super) fn python_text_specs(text: &str) -> Vec<Spec> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("import ") {
            for part in rest.split(',') {
                let m = part.split_whitespace().next().unwrap_or("");
                if is_dotted(m) {
                    out.push((m.to_owned(), None));
                }
            }
        } else if let Some(rest) = t.strip_prefix("from ") {
            let mut it = rest.splitn(2, " import ");
            let (Some(m), Some(names)) = (it.next(), it.next()) else {
                continue;
            };
            let m = m.trim();
            if !is_dotted(m) {
                continue;
            }
            out.push((m.to_owned(), None));
            let names = names
                .trim()
                .trim_start_matches('(')
                .trim_end_matches(['\\', ')']);
            for n in names.split(',') {
                let n = n.split_whitespace().next().unwrap_or("");
                if !n.is_empty() && n != "*" && n.bytes().all(is_word) {
                    out.push((m.to_owned(), Some(n.to_owned())));
                }
            }
        }
    }
    out
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_dotted(m: &str) -> bool {
    !m.is_empty() && m.bytes().all(|b| is_word(b) || b == b'.')
}

/// JS/TS module specifiers of `text` written as a string right after `from`, `import`,
/// `import(`, `require(`, `mock(` (`jest.mock`, `vi.mock`), `requireActual(`, `importActual(`.
pub(super) fn js_text_specs(text: &str) -> Vec<Spec> {
    const HEADS: &[&str] = &[
        "from",
        "import",
        "require",
        "mock",
        "doMock",
        "requireActual",
        "importActual",
    ];
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if !matches!(q, b'\'' | b'"' | b'`') {
            i += 1;
            continue;
        }
        let Some(len) = b[i + 1..].iter().position(|&c| c == q || c == b'\n') else {
            break;
        };
        let end = i + 1 + len;
        if b[end] != q {
            i = end + 1;
            continue;
        }
        // The word before the literal, skipping blanks and one `(`.
        let mut j = i;
        while j > 0 && b[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        if j > 0 && b[j - 1] == b'(' {
            j -= 1;
            while j > 0 && b[j - 1].is_ascii_whitespace() {
                j -= 1;
            }
        }
        let w_end = j;
        while j > 0 && (b[j - 1].is_ascii_alphanumeric() || b[j - 1] == b'_') {
            j -= 1;
        }
        let spec = &text[i + 1..end];
        if HEADS.contains(&&text[j..w_end]) && !spec.is_empty() && !spec.contains("${") {
            out.push((spec.to_owned(), None));
        }
        i = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_by_convention() {
        for (p, want) in [
            ("tests/test_a.py", Some(Family::Python)),
            ("pkg/a_test.py", Some(Family::Python)),
            ("conftest.py", Some(Family::Python)),
            ("pkg/a.py", None),
            ("src/a.test.ts", Some(Family::JavaScript)),
            ("src/__tests__/a.js", Some(Family::JavaScript)),
            ("lib/a.spec.mjs", Some(Family::JavaScript)),
            ("src/a.ts", None),
            ("tests/it.rs", Some(Family::Rust)),
            ("src/lib.rs", None),
        ] {
            assert_eq!(test_path_language(p), want, "{p}");
        }
    }

    #[test]
    fn import_names_of_modules() {
        assert_eq!(import_names("pkg/util.py", &[]), ["util"]);
        assert_eq!(import_names("pkg/__init__.py", &[]), ["pkg"]);
        assert_eq!(import_names("src/ui/index.ts", &[]), ["ui"]);
        assert_eq!(import_names("src/date-fns.ts", &[]), ["date", "fns"]);
        assert_eq!(import_names("src/a/mod.rs", &[]), ["a"]);
        assert_eq!(
            import_names("src/lib.rs", &["my-crate".into()]),
            ["crate", "my"]
        );
    }

    #[test]
    fn text_imports() {
        let py = "def f():\n    import a.b.c as d\n    from .x import (y, z)\nfrom q import *\n";
        assert_eq!(
            python_text_specs(py),
            [
                ("a.b.c".to_owned(), None),
                (".x".to_owned(), None),
                (".x".to_owned(), Some("y".to_owned())),
                (".x".to_owned(), Some("z".to_owned())),
                ("q".to_owned(), None),
            ]
        );
        let js = "import './side';\nconst m = require( \"../m\" );\njest.mock('./dep');\nx('no');\nawait import(`./lazy`);";
        let got: Vec<String> = js_text_specs(js).into_iter().map(|s| s.0).collect();
        assert_eq!(got, ["./side", "../m", "./dep", "./lazy"]);
    }
}
