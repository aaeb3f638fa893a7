//! Conditional files: a file the placement query refuses only under a condition (a Rust crate
//! root with `#![cfg_attr(not(feature = "std"), no_std)]` is `no_std` only without `std`). The
//! probe is placed anyway, compiled only where the condition does not hold, through the
//! language's `conditional_attribute` (Rust `#[cfg(feature = "std")]`) on the block's statement.
//!
//! Pure: string work over the facts and the rendered block; no parsing, no I/O.

use super::facts::Facts;
use crate::error::Error;
use crate::lang::Language;

/// The condition a probe in this file must be compiled under (`feature = "std"`), if any: the
/// negation of every `@unless` condition, joined by `all(...)`. Refuses when the language has no
/// way to write it, or a condition cannot be read.
pub(super) fn only_where(lang: &Language, facts: &Facts) -> Result<Option<String>, Error> {
    if facts.unless.is_empty() {
        return Ok(None);
    }
    let mut negated: Vec<String> = Vec::new();
    for (reason, args, line) in &facts.unless {
        let refuse = |why: &str| {
            Error::new(
                *reason,
                format!(
                    "{} under a condition (line {}), and {why}; place the probe in a file compiled with std",
                    reason.describe().trim_end_matches('.'),
                    line + 1
                ),
            )
        };
        if lang.spec.conditional_attribute.is_none() {
            return Err(refuse("this language has no conditional attribute"));
        }
        let pred = predicate(args).ok_or_else(|| refuse("its condition cannot be read"))?;
        let neg = negate(&pred);
        if !negated.contains(&neg) {
            negated.push(neg);
        }
    }
    Ok(Some(if negated.len() == 1 {
        negated.remove(0)
    } else {
        format!("all({})", negated.join(", "))
    }))
}

/// The condition of `cfg_attr` arguments `(pred, attr, ...)`: the text before the first
/// top-level comma, trimmed.
fn predicate(args: &str) -> Option<String> {
    let inner = args.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    let mut in_str = false;
    let mut prev = ' ';
    for (i, c) in inner.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' | '[' if !in_str => depth += 1,
            ')' | ']' if !in_str => depth -= 1,
            ',' if !in_str && depth == 0 => {
                let p = inner[..i].trim();
                return (!p.is_empty()).then(|| p.to_owned());
            }
            _ => {}
        }
        prev = c;
    }
    None
}

/// `not(p)`, written `p` when the condition is itself `not(p)`.
fn negate(pred: &str) -> String {
    if let Some(inner) = pred.strip_prefix("not").map(str::trim_start)
        && let Some(inner) = inner.strip_prefix('(').and_then(|s| s.strip_suffix(')'))
        && balanced(inner)
    {
        return inner.trim().to_owned();
    }
    format!("not({pred})")
}

/// Whether the parentheses of `s` (outside strings) never close more than they opened and end
/// balanced: `a) or (b` is not.
fn balanced(s: &str) -> bool {
    let (mut depth, mut in_str, mut prev) = (0i32, false, ' ');
    for c in s.chars() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' if !in_str => depth += 1,
            ')' if !in_str => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
        prev = c;
    }
    depth == 0
}

/// `block` with the language's conditional attribute for `cond` as its second line (right after
/// the start marker), in the block's indentation.
pub(super) fn apply(lang: &Language, block: &str, indent: &str, eol: &str, cond: &str) -> String {
    let Some(attr) = &lang.spec.conditional_attribute else {
        return block.to_owned();
    };
    let split = block.find('\n').map_or(block.len(), |i| i + 1);
    let line = attr.replace("{}", cond);
    format!("{}{indent}{line}{eol}{}", &block[..split], &block[split..])
}
