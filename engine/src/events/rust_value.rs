//! The `Debug` text a Rust probe writes for each captured value, turned into the JSON value the
//! other languages record (docs/probes.md, "Values"): [`rust_value`] per value,
//! [`normalize_data`] per event.

use crate::protocol::{MAX_SEQ_ITEMS, MAX_VALUE_CHARS};

/// Whether an event's `location` (`path:line`) names a Rust file: a Rust probe writes each
/// captured value as its `Debug` text (docs/probes.md), which [`normalize_data`] parses.
fn is_rust_location(location: &str) -> bool {
    location
        .rsplit_once(':')
        .is_some_and(|(path, _)| path.ends_with(".rs"))
}

/// The JSON value a Rust probe's value stands for (the same JSON type Python and JavaScript
/// record; docs/probes.md "Values"). A Rust block writes every captured value as a JSON string
/// holding the value's `Debug` text, cut to [`MAX_VALUE_CHARS`] + 1 characters: `None` and `()`
/// become null, `Some(x)` the value of `x`, `true`/`false` booleans, a finite JSON number a
/// number (an integer beyond 64 bits its decimal text), `NaN`/`inf`/`-inf` the strings `"NaN"`,
/// `"Infinity"`, `"-Infinity"`, a `Debug` string (`"text"`) or char (`'c'`) its text with the
/// escapes undone, a `[..]` or tuple `(..)` of at most [`MAX_SEQ_ITEMS`] scalars an array (never
/// from a cut text); anything else (`Point { x: 1 }`, `<Type>` for a type without `Debug`) stays
/// a string, cut to [`MAX_VALUE_CHARS`] characters.
pub fn rust_value(text: &str) -> serde_json::Value {
    let cut = text.chars().count() > MAX_VALUE_CHARS;
    if !cut && let Some(inner) = text.strip_prefix("Some(").and_then(|r| r.strip_suffix(')')) {
        return rust_value(inner);
    }
    if !cut && let Some(items) = rust_sequence(text) {
        let values: Option<Vec<serde_json::Value>> = items.iter().map(|i| rust_scalar(i)).collect();
        if let Some(v) = values {
            return serde_json::Value::Array(v);
        }
    }
    if let Some(v) = (!cut).then(|| rust_scalar(text)).flatten() {
        return v;
    }
    if let Some(s) = text.strip_prefix('"') {
        // A cut string: no closing quote; its escapes undone as far as they go.
        let s = s.strip_suffix('"').filter(|_| !cut).unwrap_or(s);
        return cut_string(&unescape(s).unwrap_or_else(|| s.to_owned()));
    }
    cut_string(text)
}

fn cut_string(s: &str) -> serde_json::Value {
    serde_json::Value::String(s.chars().take(MAX_VALUE_CHARS).collect())
}

/// A whole (uncut) `Debug` text of a scalar: null, a boolean, a number, a string or a char.
fn rust_scalar(text: &str) -> Option<serde_json::Value> {
    use serde_json::Value;
    match text {
        "None" | "()" => return Some(Value::Null),
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        "NaN" | "-NaN" => return Some(Value::String("NaN".into())),
        "inf" => return Some(Value::String("Infinity".into())),
        "-inf" => return Some(Value::String("-Infinity".into())),
        _ => {}
    }
    if let Some(inner) = text.strip_prefix("Some(").and_then(|r| r.strip_suffix(')')) {
        return rust_scalar(inner);
    }
    if let Ok(n) = serde_json::from_str::<serde_json::Number>(text)
        && n.as_f64().is_some_and(f64::is_finite)
    {
        let integer = text.bytes().all(|b| b.is_ascii_digit() || b == b'-');
        if integer && n.as_i64().is_none() && n.as_u64().is_none() {
            return Some(Value::String(text.to_owned()));
        }
        return Some(Value::Number(n));
    }
    let quoted = |q: char| {
        let inner = text.strip_prefix(q)?.strip_suffix(q)?;
        (text.len() >= 2).then_some(inner)
    };
    if let Some(inner) = quoted('"') {
        return unescape(inner).map(|s| cut_string(&s));
    }
    if let Some(inner) = quoted('\'') {
        let c = unescape(inner)?;
        return (c.chars().count() == 1).then_some(Value::String(c));
    }
    None
}

/// The text a `Debug` string's inside stands for: `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\'`
/// and `\u{..}` undone; `None` for an unescaped `"` or an unknown escape (not a whole string).
/// A trailing lone backslash (a cut escape) is dropped.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            None => break,
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(c @ ('"' | '\\' | '\'')) => out.push(c),
            Some('u') => {
                let rest = chars.as_str();
                let hex = rest.strip_prefix('{')?;
                let end = hex.find('}')?;
                let code = u32::from_str_radix(&hex[..end], 16).ok()?;
                out.push(char::from_u32(code)?);
                chars = hex[end + 1..].chars();
            }
            Some(_) => return None,
        }
    }
    Some(out)
}

/// The top-level items of a `[..]` or a tuple `(..)` (not `Name(..)`) `Debug` text, split on
/// `, ` outside quotes, escapes and brackets; `None` when it is not one, or has more than
/// [`MAX_SEQ_ITEMS`] items.
fn rust_sequence(text: &str) -> Option<Vec<&str>> {
    let inner = text
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .or_else(|| text.strip_prefix('(').and_then(|r| r.strip_suffix(')')))?;
    if inner.is_empty() {
        return text.starts_with('[').then(Vec::new);
    }
    let (mut items, mut depth, mut quote, mut escaped, mut from) =
        (Vec::new(), 0i32, None, false, 0);
    let bytes = inner.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(q) = quote {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                _ if b == q => quote = None,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => quote = Some(b'"'),
            // A char literal: `'x'` or `'\n'`; a lone `'` (a lifetime in a type name) is not.
            b'\'' if inner[i + 1..].find('\'').is_some_and(|e| e <= 11) => quote = Some(b'\''),
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => depth -= 1,
            b',' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                items.push(&inner[from..i]);
                from = i + 2;
            }
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    if depth != 0 || quote.is_some() {
        return None;
    }
    let last = &inner[from..];
    // A one-item tuple is written `(x,)`.
    let last = last
        .strip_suffix(',')
        .filter(|_| text.starts_with('('))
        .unwrap_or(last);
    if !last.is_empty() {
        items.push(last);
    }
    let tuple_of_one = text.starts_with('(') && items.len() == 1 && !inner.ends_with(',');
    (items.len() <= MAX_SEQ_ITEMS && !tuple_of_one).then_some(items)
}

/// Turn the string values of an event written at `location` into the scalars they stand for
/// when `location` is a Rust file ([`rust_value`]); other languages write JSON scalars already.
pub fn normalize_data(location: &str, data: &mut serde_json::Map<String, serde_json::Value>) {
    if !is_rust_location(location) {
        return;
    }
    for v in data.values_mut() {
        if let serde_json::Value::String(s) = v {
            *v = rust_value(s);
        }
    }
}
