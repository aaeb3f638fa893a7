//! The call shapes a plan cites (docs/drift.md, "Call shapes"): the calls written in a code span
//! (`parse(text, strict=True)`, `x = Builder::new(cfg, 3)`, `await client.send(req, { timeout
//! })`, `x = make()`) whose callee is a reference the span already cites, and the arity prose
//! gives right after one (`` `X.m` taking two arguments``, `with 2 parameters`). A declaration
//! the plan writes (`def f(a)`, `fn f(a: u8)`, `function f(a)`) is no call, and neither is a span
//! that is only `name()`: plans write it for the function itself. Pure text analysis.

use crate::resolve::CallShape;

/// Words before a name that make `name(...)` a declaration, not a call.
const DECLARING: &str = "def fn function class struct enum trait interface impl macro_rules";

/// The calls of `span` (a code span's text) whose callee is one of `refs`, each with its
/// reference.
pub(super) fn calls_in(span: &str, refs: &[String]) -> Vec<(String, CallShape)> {
    let b = span.as_bytes();
    let mut out = Vec::new();
    for (open, _) in span.match_indices('(') {
        // The callee: the path written right before `(`.
        let start = span[..open]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric() || "_$.:".contains(*c))
            .last()
            .map_or(open, |(i, _)| i);
        let callee = &span[start..open];
        if callee.is_empty() || callee.starts_with(['.', ':']) || !refs.iter().any(|r| r == callee)
        {
            continue;
        }
        let before = span[..start].trim_end();
        let word = before
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if DECLARING.split_ascii_whitespace().any(|w| w == word) || before.ends_with(['.', '#']) {
            continue;
        }
        let Some(close) = closing(b, open) else {
            continue;
        };
        let text = format!(
            "{}{}",
            if word == "new" { "new " } else { "" },
            &span[start..=close]
        );
        // A body after the parentheses (`f(a) {`, `f(a) =>`, `f(a):`) declares it.
        let after = span[close + 1..].trim_start();
        if after.starts_with('{') || after.starts_with("=>") || after.starts_with("->") {
            continue;
        }
        if let Some((c, shape)) = CallShape::parse(&text)
            && c == callee
            // A span that is only `name()` names the function (`collapse()`), it is no call
            // without arguments.
            && !(shape.args.is_empty() && span.trim() == text)
        {
            out.push((callee.to_owned(), shape));
        }
    }
    out
}

/// The `)` closing the `(` at `open`, outside quotes.
fn closing(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    for (i, &c) in b.iter().enumerate().skip(open) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (c == b')').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A number of arguments in words: `no`, `zero`, `a`, `one`, `single`, `two` ... `ten`, digits.
fn count_word(w: &str) -> Option<usize> {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    match w {
        "no" => Some(0),
        "a" | "an" | "single" => Some(1),
        _ => WORDS
            .iter()
            .position(|x| *x == w)
            .or_else(|| w.parse().ok().filter(|n| *n <= 64)),
    }
}

/// The arity the prose `after` a code span gives its reference (`taking two arguments`, `,
/// which takes 3 parameters`, `with no arguments`), with the words that say it.
pub(super) fn prose_arity(after: &str) -> Option<(usize, String)> {
    let words: Vec<&str> = after
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .take(7)
        .collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let mut i = 0;
    while i < lower.len() && matches!(lower[i].as_str(), "which" | "that" | "now" | "still") {
        i += 1;
    }
    let verb = lower.get(i)?;
    if !matches!(
        verb.as_str(),
        "takes" | "taking" | "accepts" | "accepting" | "expects" | "expecting" | "with"
    ) {
        return None;
    }
    let mut j = i + 1;
    while j < lower.len() && matches!(lower[j].as_str(), "exactly" | "only" | "just") {
        j += 1;
    }
    let mut n = count_word(lower.get(j)?)?;
    if matches!(lower[j].as_str(), "a" | "an") && lower.get(j + 1).is_some_and(|w| w == "single") {
        j += 1;
    }
    if lower[j] == "single" {
        n = 1;
    }
    let noun = lower.get(j + 1)?;
    let plural = matches!(
        noun.as_str(),
        "arguments" | "args" | "parameters" | "params"
    );
    let singular = matches!(noun.as_str(), "argument" | "arg" | "parameter" | "param");
    if !(plural || singular) || (singular && n != 1) || (plural && n == 1) {
        return None;
    }
    Some((n, words[i..=j + 1].join(" ")))
}

#[cfg(test)]
mod tests {
    use super::{calls_in, prose_arity};

    #[test]
    fn calls_of_cited_references_only() {
        let refs = vec!["parse".to_owned(), "Builder::new".to_owned()];
        let got = calls_in("x = parse(text, strict=True)", &refs);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1.text, "parse(text, strict=True)");
        assert_eq!(
            calls_in("Builder::new(cfg, 3).build()", &refs)[0]
                .1
                .args
                .len(),
            2
        );
        assert!(calls_in("def parse(text, strict=False)", &refs).is_empty());
        assert!(calls_in("fn parse(text: &str)", &refs).is_empty());
        assert!(calls_in("parse(text) {", &refs).is_empty());
        assert!(calls_in("other(text)", &refs).is_empty());
        assert!(calls_in("self.parse(x)", &refs).is_empty());
        assert!(calls_in("parse()", &refs).is_empty());
        assert_eq!(calls_in("doc = parse()", &refs).len(), 1);
    }

    #[test]
    fn arity_from_prose() {
        assert_eq!(prose_arity(" taking two arguments").unwrap().0, 2);
        assert_eq!(prose_arity(", which takes 3 parameters.").unwrap().0, 3);
        assert_eq!(prose_arity(" with no arguments").unwrap().0, 0);
        assert_eq!(prose_arity(" takes a single argument").unwrap().0, 1);
        assert_eq!(prose_arity(" takes exactly one argument").unwrap().0, 1);
        assert!(prose_arity(" with two fields").is_none());
        assert!(prose_arity(" takes two arguments' worth").is_some());
        assert!(prose_arity(" takes the arguments").is_none());
        assert!(prose_arity(" with one arguments").is_none());
    }
}
