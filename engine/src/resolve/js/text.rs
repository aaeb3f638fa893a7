//! A small JavaScript / TypeScript lexer for one question: does a word occur in a file's text,
//! and where (code, or the text of a string or template literal)? Comments never count; the
//! `${...}` interpolations of a template literal are code. Used where the resolver must know
//! whether a name is written anywhere a declaration or a use could hide (jsmembers, stemhead).

/// Whether `word` occurs as a whole identifier in JS/TS `text` outside comments; inside string
/// and template-literal text only when `strings_count`.
pub(in crate::resolve) fn has_word(text: &str, word: &str, strings_count: bool) -> bool {
    let b = text.as_bytes();
    let is_w = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    // Open template literals (`` ` ``) and the braces of their interpolations (`{`).
    let mut stack: Vec<u8> = Vec::new();
    let (mut i, mut quote) = (0, None::<u8>);
    while i < b.len() {
        let c = b[i];
        let in_template = stack.last() == Some(&b'`');
        if in_template && c == b'$' && b.get(i + 1) == Some(&b'{') {
            stack.push(b'{');
            i += 2;
            continue;
        }
        if is_w(c) && (i == 0 || !is_w(b[i - 1])) {
            let s = i;
            while i < b.len() && is_w(b[i]) {
                i += 1;
            }
            let in_text = in_template || quote.is_some();
            if (strings_count || !in_text) && &text[s..i] == word {
                return true;
            }
            continue;
        }
        if in_template {
            match c {
                b'\\' => i += 1,
                b'`' => {
                    stack.pop();
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) if c == b'\\' => i += 1,
            Some(_) => {}
            None if c == b'/' && b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |e| i + e);
                continue;
            }
            None if c == b'/' && b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 4 + e);
                continue;
            }
            None if matches!(c, b'"' | b'\'') => quote = Some(c),
            None if c == b'`' || (c == b'{' && !stack.is_empty()) => stack.push(c),
            None if c == b'}' && stack.last() == Some(&b'{') => {
                stack.pop();
            }
            None => {}
        }
        i += 1;
    }
    false
}

/// Whether `word` occurs in JS/TS `text` outside comments and outside the `{ ... }` lists of
/// `import { ... } from` / `export { ... } from` statements (string text counts); an entry
/// renaming it (`word as other`) counts.
pub(in crate::resolve) fn writes_outside_lists(text: &str, word: &str) -> bool {
    let mut rest = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(open) = text[i..].find('{').map(|o| i + o) {
        let before = text[..open].trim_end();
        let before = before.strip_suffix("type").map_or(before, str::trim_end);
        let close = text[open..].find('}').map(|c| open + c);
        let list = (before.ends_with("import") || before.ends_with("export"))
            .then_some(close)
            .flatten()
            .filter(|&c| text[c + 1..].trim_start().starts_with("from"));
        match list {
            Some(c) => {
                let inner = &text[open + 1..c];
                let renamed = inner.split(',').any(|e| {
                    let mut w = e.split_whitespace();
                    w.next() == Some(word) && w.next() == Some("as")
                });
                if renamed {
                    return true;
                }
                rest.push_str(&text[i..open]);
                rest.push_str("{}");
                i = c + 1;
            }
            None => {
                rest.push_str(&text[i..=open]);
                i = open + 1;
            }
        }
    }
    rest.push_str(&text[i..]);
    has_word(&rest, word, true)
}

#[cfg(test)]
mod tests {
    use super::{has_word, writes_outside_lists};

    #[test]
    fn words_outside_import_and_export_lists() {
        let src =
            "import { a, Reaction } from './x'\nexport {\n  Reaction,\n  b\n} from './internal'\n";
        assert!(!writes_outside_lists(src, "Reaction"));
        assert!(writes_outside_lists(
            &format!("{src}Reaction.prototype.m = 1\n"),
            "Reaction"
        ));
        assert!(writes_outside_lists(
            "import { Reaction as R } from './x'",
            "Reaction"
        ));
        assert!(writes_outside_lists(
            "import Reaction from './x'",
            "Reaction"
        ));
        assert!(writes_outside_lists("export { Reaction }\n", "Reaction"));
        assert!(!writes_outside_lists(
            "// Reaction\nexport { x } from 'y'",
            "Reaction"
        ));
    }

    #[test]
    fn words_outside_comments_in_code_or_text() {
        let src = "// mobx\n/* mobx */ 'mobx' \"mobx\" `[mobx] x`";
        assert!(!has_word(src, "mobx", false));
        assert!(
            has_word(src, "mobx", true),
            "string contents count when asked"
        );
        assert!(!has_word("// hostname\n/* hostname */", "hostname", true));
        assert!(has_word("defineGetter(req, 'hostname')", "hostname", true));
        assert!(has_word("`a ${mobx.x} b`", "mobx", false));
        assert!(has_word("`a ${ {k: 1}.k } b` + mobx", "mobx", false));
        assert!(!has_word("mobxy + xmobx", "mobx", true), "whole words only");
        assert!(!has_word("$mobx + mobxy", "mobx", false));
        assert!(has_word("const s = 'a'; mobx()", "mobx", false));
    }
}
