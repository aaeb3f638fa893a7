//! The line pairs the suppression rules compare: in one hunk, a removed line and the added line
//! that replaced it, with the span where they differ widened to whole tokens (`10` to `3600` in
//! `timeout=10` / `timeout=3600`, `MAX_ITEMS` to `Number.MAX_SAFE_INTEGER`), and the value of a
//! numeric span (`10**9`, `1 << 30`, `500_000`, `0x11E6_0398`, `Infinity`, `usize::MAX`).

use super::super::side::{Hunk, Side};

/// Literal node kinds, in all families.
pub fn is_literal(kind: &str) -> bool {
    matches!(
        kind,
        "integer"
            | "float"
            | "number"
            | "string"
            | "string_content"
            | "string_fragment"
            | "true"
            | "false"
            | "none"
            | "null"
            | "undefined"
            | "integer_literal"
            | "float_literal"
            | "string_literal"
            | "raw_string_literal"
            | "char_literal"
            | "boolean_literal"
            | "template_string"
    )
}

/// A removed line and the added line that replaced it, and where they differ.
#[derive(Debug, Clone)]
pub struct Pair<'a> {
    /// Old row (0-based, filtered).
    pub old_row: usize,
    /// New row.
    pub new_row: usize,
    /// The differing span of the old line (may be empty).
    pub old_mid: &'a str,
    /// The differing span of the new line (may be empty).
    pub new_mid: &'a str,
    /// Byte column of `old_mid` in the old line.
    pub old_col: usize,
    /// Byte column of `new_mid` in the new line.
    pub new_col: usize,
    /// The new line.
    pub new_line: &'a str,
}

fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// The differing spans of two lines (leading and trailing whitespace left out), widened to whole
/// tokens: `(old start, old end, new start, new end)` in bytes of each line.
fn differ(a: &str, b: &str) -> Option<(usize, usize, usize, usize)> {
    let (sa, sb) = (
        a.len() - a.trim_start().len(),
        b.len() - b.trim_start().len(),
    );
    let (ea, eb) = (a.trim_end().len(), b.trim_end().len());
    if sa >= ea || sb >= eb {
        return None;
    }
    let (x, y) = (&a.as_bytes()[sa..ea], &b.as_bytes()[sb..eb]);
    if x == y {
        return None;
    }
    let mut p = 0;
    while p < x.len() && p < y.len() && x[p] == y[p] {
        p += 1;
    }
    let mut s = 0;
    while s < x.len() - p && s < y.len() - p && x[x.len() - 1 - s] == y[y.len() - 1 - s] {
        s += 1;
    }
    let (mut p, mut s) = (p, s);
    // Widen to whole tokens on both sides (the common part must stay common).
    while p > 0 && (token_char(x[p - 1]) || token_char(y[p - 1])) {
        p -= 1;
    }
    while s > 0 && (token_char(x[x.len() - s]) || token_char(y[y.len() - s])) {
        s -= 1;
    }
    // Keep the spans on character boundaries.
    while !a.is_char_boundary(sa + p) || !b.is_char_boundary(sb + p) {
        p -= 1;
    }
    while !a.is_char_boundary(ea - s) || !b.is_char_boundary(eb - s) {
        s -= 1;
    }
    Some((sa + p, ea - s, sb + p, eb - s))
}

/// How alike two lines are: the length of their common prefix and suffix (trimmed).
fn likeness(a: &str, b: &str) -> usize {
    let (x, y) = (a.trim().as_bytes(), b.trim().as_bytes());
    let p = x.iter().zip(y).take_while(|(u, v)| u == v).count();
    let s = x
        .iter()
        .rev()
        .zip(y.iter().rev())
        .take_while(|(u, v)| u == v)
        .count();
    (p + s).min(x.len().min(y.len()))
}

/// The line pairs of one hunk: each added line with the removed line most like it (by index when
/// the hunk replaces as many lines as it removes), when at least half of the shorter line is
/// common.
pub fn pairs<'a>(old: &'a Side<'_>, new: &'a Side<'_>, hunk: &Hunk) -> Vec<Pair<'a>> {
    let (olds, news) = (hunk.old.clone(), hunk.new.clone());
    let mut out = Vec::new();
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    if olds.len() == news.len() {
        candidates.extend(olds.clone().zip(news.clone()));
    } else if olds.len() * news.len() <= 4096 {
        for n in news.clone() {
            let best = olds
                .clone()
                .max_by_key(|&o| likeness(old.line(o), new.line(n)));
            if let Some(o) = best {
                candidates.push((o, n));
            }
        }
    }
    for (o, n) in candidates {
        let (a, b) = (old.lines.get(o).copied(), new.lines.get(n).copied());
        let (Some(a), Some(b)) = (a, b) else { continue };
        let shorter = a.trim().len().min(b.trim().len());
        // A line that is one short value (`2` to `3` as a branch's value) pairs by place.
        let value_line = |l: &str| l.trim().len() <= 24 && !l.trim().contains(char::is_whitespace);
        let one_value = value_line(a) && value_line(b);
        if shorter == 0 || (likeness(a, b) * 2 < shorter && !one_value) {
            continue;
        }
        if let Some((os, oe, ns, ne)) = differ(a, b) {
            out.push(Pair {
                old_row: o,
                new_row: n,
                old_mid: &a[os..oe],
                new_mid: &b[ns..ne],
                old_col: os,
                new_col: ns,
                new_line: b,
            });
        }
    }
    out
}

/// Rust's integer and float suffixes.
const SUFFIXES: &[&str] = &[
    "usize", "isize", "u128", "i128", "u64", "u32", "u16", "u8", "i64", "i32", "i16", "i8", "f64",
    "f32",
];

/// One number literal: `500_000`, `0x11E6_0398`, `1e6`, `2.5`, `64usize`, `10n`.
fn number(t: &str) -> Option<f64> {
    let t = t.trim().replace('_', "");
    let t = SUFFIXES
        .iter()
        .find_map(|s| t.strip_suffix(s))
        .unwrap_or(&t);
    let t = t.strip_suffix('n').unwrap_or(t);
    for (p, r) in [("0x", 16), ("0X", 16), ("0b", 2), ("0o", 8)] {
        if let Some(d) = t.strip_prefix(p) {
            return i128::from_str_radix(d, r).ok().map(|v| v as f64);
        }
    }
    if !t.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    t.parse::<f64>().ok()
}

/// The value of a numeric span: a literal, or literals joined by `*`, `**`, `<<` (`10**9`,
/// `1 << 30`, `20 * 1024 * 1024`), parenthesized or not.
pub fn value(s: &str) -> Option<f64> {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.trim_matches(|c| c == '(' || c == ')');
    if t.is_empty() {
        return None;
    }
    if let Some((a, b)) = t.split_once("**") {
        return Some(value(a)?.powf(value(b)?));
    }
    if let Some((a, b)) = t.split_once("<<") {
        let shift = value(b)?;
        return (shift < 128.0).then(|| value(a).map(|v| v * 2f64.powf(shift)))?;
    }
    if t.contains('*') {
        return t
            .split('*')
            .map(value)
            .try_fold(1.0, |acc, v| v.map(|v| acc * v));
    }
    number(t)
}

/// Whether a span names an unbounded value: `Infinity`, `Number.MAX_SAFE_INTEGER`,
/// `float('inf')`, `math.inf`, `sys.maxsize`, `usize::MAX`, `f64::INFINITY`, `Duration::MAX`.
pub fn unbounded(s: &str) -> bool {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.trim_start_matches('-');
    let last = t.rsplit(['.', ':']).next().unwrap_or(t);
    matches!(
        last,
        "Infinity"
            | "POSITIVE_INFINITY"
            | "MAX_SAFE_INTEGER"
            | "MAX_VALUE"
            | "INFINITY"
            | "maxsize"
            | "inf"
    ) || (last == "MAX"
        && t.rsplit_once("::").is_some_and(|(ty, _)| {
            let ty = ty.rsplit("::").next().unwrap_or(ty);
            matches!(
                ty,
                "usize"
                    | "u128"
                    | "u64"
                    | "u32"
                    | "u16"
                    | "i128"
                    | "i64"
                    | "i32"
                    | "isize"
                    | "f64"
                    | "f32"
                    | "Duration"
                    | "Instant"
            )
        }))
        || matches!(t, "float('inf')" | "float(\"inf\")" | "float('Infinity')")
        || t.ends_with("MAX_SAFE_INTEGER")
}

/// How many times larger `new` is than `old` (`old` an expression, `new` that expression times
/// a constant, or two values); `None` when it cannot be told.
pub fn factor(old: &str, new: &str) -> Option<f64> {
    let (o, n) = (old.trim(), new.trim());
    if let (Some(a), Some(b)) = (value(o), value(n)) {
        return (a > 0.0).then_some(b / a);
    }
    let rest: String = n
        .strip_prefix(o)?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if let Some(k) = rest.strip_prefix("**") {
        return value(k).map(|_| f64::INFINITY);
    }
    if let Some(k) = rest.strip_prefix("<<") {
        return value(k).map(|k| 2f64.powf(k));
    }
    rest.strip_prefix('*').and_then(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_factors() {
        assert_eq!(value("10**9"), Some(1e9));
        assert_eq!(value("1 << 30"), Some(1073741824.0));
        assert_eq!(value("500_000"), Some(500000.0));
        assert_eq!(value("0x11E6_0398"), Some(300_286_872.0));
        assert_eq!(value("1e6"), Some(1e6));
        assert_eq!(value("64usize"), Some(64.0));
        assert_eq!(value("20 * 1024 * 1024"), Some(20.0 * 1024.0 * 1024.0));
        assert_eq!(value("MAX"), None);
        assert_eq!(factor("MAX_BYTES", "MAX_BYTES * 1000"), Some(1000.0));
        assert_eq!(factor("2000", "2_000_000"), Some(1000.0));
        assert!(unbounded("Number.MAX_SAFE_INTEGER") && unbounded("usize::MAX"));
        assert!(unbounded("float('inf')") && unbounded("Infinity") && !unbounded("MAX_ITEMS"));
    }

    #[test]
    fn differing_spans_are_whole_tokens() {
        let a = "    resp = get(url, timeout=10)";
        let b = "    resp = get(url, timeout=3600)";
        let (os, oe, ns, ne) = differ(a, b).unwrap();
        assert_eq!((&a[os..oe], &b[ns..ne]), ("10", "3600"));
        let a = "MAX_ROWS = 100";
        let b = "MAX_ROWS = 10**9";
        let (os, oe, ns, ne) = differ(a, b).unwrap();
        assert_eq!((&a[os..oe], &b[ns..ne]), ("100", "10**9"));
        let a = "if len(data) > MAX_BYTES:";
        let b = "if len(data) > MAX_BYTES * 1000:";
        let (os, oe, ns, ne) = differ(a, b).unwrap();
        assert_eq!((&a[os..oe], &b[ns..ne]), ("MAX_BYTES", "MAX_BYTES * 1000"));
    }
}
