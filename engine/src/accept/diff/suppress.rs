//! The suppression shapes of issue 27 found in code (not in configuration files): an expected
//! literal of an assertion changed, a threshold loosened, a timeout raised, an early exit on a
//! new condition before unchanged logic, code made conditional on running under a test, and a
//! propagated error turned into a default value.
//!
//! These shapes delete no behaviour, so the net-units rule of the verdict (`severity` in the
//! parent) would leave them all `review`. Each kind has its own rule instead, decided by its
//! detector (docs/accept.md, "Kinds"): `flag` where the shape is a suppression on its face (a
//! limit moved to infinity, an environment-keyed test guard, a `raise` replaced by a value),
//! `review` where a genuine fix commonly has it too, unless another signal of the diff agrees.
//! The detectors live in `expected`, `numbers` (thresholds and timeouts), `guard` (early exits
//! and test-environment guards) and `default` (errors replaced by values), over `lines` (the
//! line pairs of a hunk and the values of numeric spans), `region` (test files and regions)
//! and `view` (a file as the rules read it, a hit).

mod default;
mod expected;
mod guard;
mod lines;
mod numbers;
mod region;
pub use self::region::test_path;
mod exits;
mod testenv;
mod view;

use std::collections::BTreeMap;

pub use self::view::FileView;
use self::view::{DiffFacts, Hit};
use super::model::{EXCERPT_LINE_CHARS, EXCERPT_LINES, Finding, Kind, Net, Severity};
use super::side::Side;

/// The suppression findings of the diff (`diff_units`: the diff's net units, for `net`).
pub fn find(files: &[FileView<'_>], diff_units: i64) -> Vec<Finding> {
    let code_hunks = || {
        files.iter().flat_map(|v| {
            v.hunks
                .iter()
                .filter(|h| !region::hunk_in_test(v.f, v.path, &v.old, &v.new, h))
                .map(move |h| (v, h))
        })
    };
    let facts = DiffFacts {
        code_changed: code_hunks().next().is_some(),
        code_only_swaps_tokens: code_hunks().all(|(v, h)| token_swaps(v, h)),
    };
    let mut out = Vec::new();
    for v in files {
        let mut hits = Vec::new();
        hits.extend(expected::find(v, &facts));
        hits.extend(numbers::find(v));
        hits.extend(guard::find(v));
        hits.extend(default::find(v));
        out.extend(settle(v, hits, diff_units));
    }
    out
}

/// Whether a hunk only swaps single tokens, line for line (import lines aside).
fn token_swaps(v: &FileView<'_>, h: &super::side::Hunk) -> bool {
    let import = |l: &str| {
        let t = l.trim_start();
        ["import ", "import{", "from ", "use "]
            .iter()
            .any(|k| t.starts_with(k))
            || (["const ", "let ", "var "].iter().any(|k| t.starts_with(k))
                && t.contains("require("))
    };
    // A word, a number, or an operator (`===` to `<=`: a comparison moved with the test).
    let token = |s: &str| {
        !s.is_empty()
            && (s
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | ':'))
                || (s.len() <= 3 && s.chars().all(|c| "=<>!&|+-*/%".contains(c))))
    };
    let rows =
        |side: &Side<'_>, r: std::ops::Range<usize>| r.filter(|&i| !import(side.line(i))).count();
    let (o, n) = (rows(&v.old, h.old.clone()), rows(&v.new, h.new.clone()));
    o == n
        && lines::pairs(&v.old, &v.new, h)
            .iter()
            .filter(|p| !import(p.new_line))
            .filter(|p| token(p.old_mid) && token(p.new_mid))
            .count()
            == n
}

/// One finding per kind per hunk: the first hit's rows and detail, `flag` when any hit flags.
fn settle(v: &FileView<'_>, hits: Vec<Hit>, diff_units: i64) -> Vec<Finding> {
    let mut by: BTreeMap<(usize, Kind), (Hit, usize)> = BTreeMap::new();
    for hit in hits {
        let side = if hit.old { &v.old } else { &v.new };
        let row = (hit.rows.0..=hit.rows.1)
            .find(|r| side.changed.contains(r))
            .unwrap_or(hit.rows.0);
        let Some(h) = v
            .hunks
            .iter()
            .position(|h| if hit.old { &h.old } else { &h.new }.contains(&row))
        else {
            continue;
        };
        match by.entry((h, hit.kind)) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert((hit, 1));
            }
            std::collections::btree_map::Entry::Occupied(mut e) => {
                let (first, n) = e.get_mut();
                *n += 1;
                if hit.severity == Severity::Flag && first.severity == Severity::Review {
                    *first = hit;
                }
            }
        }
    }
    let range = |map: &[usize], r: &std::ops::Range<usize>| {
        (!r.is_empty()).then(|| [map[r.start], map[r.end - 1]])
    };
    by.into_iter()
        .map(|((h, kind), (hit, n))| {
            let hunk = &v.hunks[h];
            let side = if hit.old { &v.old } else { &v.new };
            Finding {
                file: v.path.to_owned(),
                file_bytes: v.path_bytes.map(str::to_owned),
                kind,
                old_lines: range(v.old.map, &hunk.old),
                new_lines: range(v.new.map, &hunk.new),
                excerpt: excerpt(side, hit.rows),
                detail: if n > 1 {
                    format!("{} ({n} in this hunk)", hit.detail)
                } else {
                    hit.detail
                },
                severity: hit.severity,
                net: Net {
                    scope: hit.scope,
                    ..Net::diff_only(diff_units)
                },
            }
        })
        .collect()
}

fn excerpt(side: &Side<'_>, (start, end): (usize, usize)) -> String {
    let mut out: Vec<String> = (start..=end)
        .take(EXCERPT_LINES)
        .map(|r| {
            let l = side.line(r);
            let cut: String = l.chars().take(EXCERPT_LINE_CHARS).collect();
            if cut.len() < l.len() {
                format!("{cut}...")
            } else {
                cut
            }
        })
        .collect();
    if end + 1 - start > EXCERPT_LINES {
        out.push("...".to_owned());
    }
    out.join("\n")
}
