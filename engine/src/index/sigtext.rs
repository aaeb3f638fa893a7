//! A signature as an authority writes it (a language server's `textDocument/hover`, a SCIP
//! symbol's documentation) read as a callable (docs/drift.md, "Call shapes", rungs 3 and 4):
//! the first code block that declares something callable is completed into a declaration of
//! its language (`(method) def open(self: Self@Store, path, mode='r') -> ...` into a Python
//! method of a class, `function parse(text: string, strict?: boolean): string` into a
//! TypeScript `declare function`, `pub fn open(&self, path: &str)` into a Rust trait method)
//! and parsed with its grammar, so that its parameters are read exactly as a declaration's in
//! the repository would be. Text that does not read as one declaration is refused with the
//! reason: an overload list the text shows only one of (`(+2 overloads)`), a value of a
//! function type (`const f: (a: string) => void`), anything that does not parse cleanly.

use super::Callable;
use super::params::Parsed;

/// The most bytes of a signature read.
const MAX_SIGNATURE_BYTES: usize = 4096;

/// The code blocks of markdown text (the text itself when it has none).
fn code_blocks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some((_, after)) = rest.split_once("```") {
        let after = after.split_once('\n').map_or("", |(_, r)| r);
        let (block, tail) = after.split_once("```").unwrap_or((after, ""));
        out.push(block);
        rest = tail;
    }
    if out.is_empty() {
        out.push(text);
    }
    out
}

/// Drop a leading `(method) `, `(function) `, `(constructor) ` label.
fn unlabel(s: &str) -> &str {
    let s = s.trim_start();
    match s.strip_prefix('(').and_then(|r| r.split_once(") ")) {
        Some((label, rest)) if label.chars().all(|c| c.is_ascii_alphabetic() || c == ' ') => {
            rest.trim_start()
        }
        _ => s,
    }
}

/// The callables `text` declares, read for the language `lang` (`python`, `typescript`,
/// `javascript`, `rust`), or why it cannot be read as one.
pub fn callables_from_text(lang: &str, text: &str) -> Result<Vec<Callable>, String> {
    if text.len() > MAX_SIGNATURE_BYTES {
        return Err(format!("the signature is over {MAX_SIGNATURE_BYTES} bytes"));
    }
    if text.contains("(+") && text.contains("overload") {
        return Err("the authority shows one of several overloads".to_owned());
    }
    let block = code_blocks(text)
        .into_iter()
        .map(|b| b.split_whitespace().collect::<Vec<_>>().join(" "))
        .find(|b| {
            let b = unlabel(b);
            match lang {
                "python" => b.starts_with("def ") || b.starts_with("async def "),
                "rust" => b.contains("fn "),
                _ => b.contains('(') && !b.starts_with("const ") && !b.starts_with("let "),
            }
        })
        .ok_or_else(|| "the authority's text declares no function".to_owned())?;
    let decl = unlabel(&block);
    let (name, source) = match lang {
        "python" => {
            // pyright writes the type of `self` as `Self@Store`.
            let d = python_self(decl);
            let method = d
                .split_once('(')
                .map(|(_, p)| p.trim_start())
                .is_some_and(|p| p.starts_with("self") || p.starts_with("cls"));
            let src = if method {
                format!("class P:\n    {d}:\n        pass\n")
            } else {
                format!("{d}:\n    pass\n")
            };
            ("sig.py", src)
        }
        "rust" => {
            let d = decl[decl.find("fn ").unwrap_or(0)..].trim_end_matches(';');
            ("sig.rs", format!("trait P {{\n    {d};\n}}\n"))
        }
        "typescript" | "javascript" => {
            let d = decl
                .strip_prefix("function ")
                .or_else(|| decl.strip_prefix("async function "))
                .unwrap_or(decl);
            // `Client.send(...)`: the qualified name of a member.
            let (head, params) = d.split_at(d.find(['(', '<']).unwrap_or(d.len()));
            let name = head.rsplit('.').next().unwrap_or(head).trim();
            let name = if name.is_empty() { "f" } else { name };
            ("sig.ts", format!("declare function {name}{params};\n"))
        }
        other => return Err(format!("no signature rules for {other}")),
    };
    let parsed = Parsed::from_text(name, source)?;
    if parsed.root().has_error() {
        return Err(format!(
            "the authority's signature does not parse: `{block}`"
        ));
    }
    let r = parsed.reader();
    let mut out = Vec::new();
    let mut cur = parsed.root().walk();
    let mut stack = vec![parsed.root()];
    while let Some(n) = stack.pop() {
        if let Some(name) = n.child_by_field_name("name")
            && n.child_by_field_name("parameters").is_some()
            && let Some(c) = r.callable(name)
        {
            out.push(c);
            continue;
        }
        stack.extend(n.named_children(&mut cur));
    }
    match out.len() {
        1 => Ok(out),
        n => Err(format!(
            "the authority's signature declares {n} functions: `{block}`"
        )),
    }
}

/// `self: Self@Store` as `self: Self` (pyright's hover syntax is no Python).
fn python_self(d: &str) -> String {
    let mut out = String::with_capacity(d.len());
    let mut rest = d;
    while let Some(i) = rest.find("Self@") {
        out.push_str(&rest[..i + 4]);
        rest = rest[i + 5..].trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::callables_from_text;
    use crate::index::ParamKind;

    fn names(lang: &str, text: &str) -> Vec<(String, ParamKind, bool)> {
        let c = callables_from_text(lang, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        c[0].params
            .iter()
            .map(|p| (p.name.clone(), p.kind, p.optional))
            .collect()
    }

    #[test]
    fn hovers_and_scip_documentation_read_as_declarations() {
        use ParamKind::*;
        let py = names(
            "python",
            "```python\n(method) def open(self: Self@Store, path, mode='r') -> None\n```",
        );
        assert_eq!(
            py,
            [
                ("self".into(), Regular, false),
                ("path".into(), Regular, false),
                ("mode".into(), Regular, true)
            ]
        );
        let c = callables_from_text("python", "def parse(text, *, strict=False) -> str").unwrap();
        assert!(!c[0].in_class);
        assert_eq!(c[0].params[1].kind, KeywordOnly);
        let c =
            callables_from_text("python", "(method) def read(self, n: int = -1) -> bytes").unwrap();
        assert!(c[0].in_class);
        let ts = names(
            "typescript",
            "```ts\nfunction parse(text: string, strict?: boolean | undefined, ...rest: number[]): string\n```",
        );
        assert_eq!(
            ts,
            [
                ("text".into(), Regular, false),
                ("strict".into(), Regular, true),
                ("rest".into(), VarArgs, false)
            ]
        );
        let ts = names(
            "typescript",
            "```ts\n(method) Client.send(req: object, opts?: { timeout: number; } | undefined): void\n```",
        );
        assert_eq!(ts.len(), 2);
        let ts = names(
            "typescript",
            "```ts\nconstructor(url: string, timeout?: number): Client\n```",
        );
        assert_eq!(ts[1], ("timeout".into(), Regular, true));
        let rs = names(
            "rust",
            "```rust\ncrate::store\n```\n\n```rust\npub fn open(&self, path: &str) -> Result<()>\n```",
        );
        assert_eq!(rs[0].1, Receiver);
        assert_eq!(rs.len(), 2);
        for (lang, bad) in [
            (
                "typescript",
                "(method) over(a: string): void (+2 overloads)",
            ),
            ("typescript", "const f: (a: string) => void"),
            ("python", "(variable) x: int"),
            ("python", "def broken(a, ,) -> None"),
        ] {
            assert!(callables_from_text(lang, bad).is_err(), "{bad}");
        }
    }
}
