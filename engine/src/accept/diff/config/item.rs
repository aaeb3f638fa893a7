//! What the configuration readers of `accept diff` report (`config`): one setting that excludes
//! tests or raises a timeout, on the new side of a file, before it becomes a [`Finding`]
//! (crate::accept::diff::model::Finding).

use std::collections::BTreeSet;

use crate::accept::diff::model::Kind;

/// One exclusion or raised timeout found in a configuration file.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Found {
    /// `test_excluded_by_config` or `timeout_raised`.
    pub(super) kind: Kind,
    /// 1-based line of the setting in the new version, when known.
    pub(super) line: Option<usize>,
    /// One sentence.
    pub(super) detail: String,
    /// Why it is only `review` (`None`: `flag`).
    pub(super) review: Option<&'static str>,
}

/// What a reader knows about the diff besides the file it reads.
pub(super) struct Ctx<'a> {
    /// Paths (UTF-8, repository-relative) the diff adds.
    pub(super) added: &'a BTreeSet<String>,
}

impl Ctx<'_> {
    /// Whether `path` (possibly `path::test_id`, `./path` or `<rootDir>/path`) is a file the
    /// diff adds.
    pub(super) fn adds(&self, path: &str) -> bool {
        let p = path.split("::").next().unwrap_or(path);
        let p = p.trim_start_matches("<rootDir>/").trim_start_matches("./");
        self.added.contains(p)
    }
}

/// An exclusion: `what` names the setting (`--deselect tests/a.py::t`); the new side's line.
pub(super) fn excluded(what: &str, line: Option<usize>) -> Found {
    Found {
        kind: Kind::TestExcludedByConfig,
        line,
        detail: format!("tests excluded by configuration: {what}"),
        review: None,
    }
}

/// The 1-based line of the first line of `text` at or after line `from` (1-based) that holds
/// `needle` (a location only: what a setting means is decided on the parsed value).
pub(super) fn line_of(text: &str, needle: &str, from: usize) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
}

/// The items of `new` that `old` does not hold, in `new`'s order, each once.
pub(super) fn added<'a, T: PartialEq>(old: &[T], new: &'a [T]) -> Vec<&'a T> {
    let mut out: Vec<&T> = Vec::new();
    for n in new {
        if !old.contains(n) && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A timeout setting: its value in its own unit, `f64::INFINITY` for "no timeout".
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Limit {
    /// The value.
    pub(super) value: f64,
    /// Its line in its version.
    pub(super) line: Option<usize>,
}

/// A raised timeout: `setting` went from `old` (or `default` when the old version does not set
/// it) to `new`. Raised by at most 2x is `review` (a slow machine's margin); more, or to no
/// limit, is `flag`. `None` when it is not higher.
pub(super) fn raised(
    setting: &str,
    unit: &str,
    old: Option<Limit>,
    new: Option<Limit>,
    default: f64,
) -> Option<Found> {
    let new = new?;
    let before = old.map_or(default, |l| l.value);
    if new.value.partial_cmp(&before) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let shown = |v: f64| {
        if v.is_infinite() {
            "no limit".to_owned()
        } else {
            format!("{v}{unit}")
        }
    };
    let small = new.value.is_finite() && before > 0.0 && new.value <= before * 2.0;
    Some(Found {
        kind: Kind::TimeoutRaised,
        line: new.line,
        detail: format!(
            "`{setting}` raised from {}{} to {}",
            shown(before),
            if old.is_none() { " (the default)" } else { "" },
            shown(new.value)
        ),
        review: small.then_some("raised by at most 2x"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raised_compares_with_the_default_and_by_factor() {
        let l = |value| {
            Some(Limit {
                value,
                line: Some(3),
            })
        };
        assert!(raised("t", "ms", l(5000.0), l(3000.0), 5000.0).is_none());
        let f = raised("t", "ms", None, l(300000.0), 5000.0).unwrap();
        assert_eq!(f.review, None);
        assert!(f.detail.contains("(the default)"), "{}", f.detail);
        let f = raised("t", "ms", l(5000.0), l(8000.0), 5000.0).unwrap();
        assert_eq!(f.review, Some("raised by at most 2x"));
        let f = raised("t", "s", l(30.0), l(f64::INFINITY), f64::INFINITY).unwrap();
        assert!(f.detail.ends_with("no limit"), "{}", f.detail);
        assert!(raised("t", "s", None, l(30.0), f64::INFINITY).is_none());
    }

    #[test]
    fn added_keeps_new_order_once() {
        assert_eq!(added(&[1, 2], &[3, 1, 3, 4]), vec![&3, &4]);
    }
}
