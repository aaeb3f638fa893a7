//! Numbers moved in the permissive direction, line pair by line pair (`lines`):
//!
//! - `timeout_raised`: a number next to a timeout (`timeout=10`, `@pytest.mark.timeout(5)`,
//!   `{ timeoutMs: 2000 }`, `CONNECT_TIMEOUT ... from_secs(5)`, `tokio::time::timeout(..)`,
//!   `jest.setTimeout(..)`, `vi.setConfig({ testTimeout })`, a wait or a sleep in a test, the
//!   trailing timeout argument of `it(name, fn, 5000)`) raised at least twice, or set to none
//!   (`0` for pytest-timeout, `None`, `Infinity`). Configuration files (`jest.config.js`) are
//!   not code and are left out. `flag` from ten times up (four in a test) or when disabled;
//!   `review` below (a slow service's timeout raised a little is a common genuine change).
//! - `threshold_loosened`: a limit (an upper-case constant, a name with `max`, `limit`, `quota`,
//!   `per`, `cap`, `threshold`) or a comparison operand moved to an unbounded value (`Infinity`,
//!   `Number.MAX_SAFE_INTEGER`, `usize::MAX`, `float('inf')`) or a thousand times up or more
//!   (`10**9`, `1 << 30`, `x * 1000`; fifty times on a limit's name: `MAX_SEGMENTS = 3` to
//!   `255`). `flag` when unbounded, or in a comparison, or on a limit's
//!   name; `review` for another upper-case constant a thousand times up. A test's named
//!   tolerance (`TOLERANCE`, `EPSILON`, `tol`) raised twofold is `flag`. A `min` name is left
//!   out (a larger minimum is stricter).

use tree_sitter::{Node, Point};

use super::super::model::{Kind, Severity};
use super::super::syntax::{callee_root, is_function, scope_key, text};
use super::lines::{Pair, factor, pairs, unbounded, value};
use super::region::{config_path, in_test_region, test_path};
use super::view::{FileView, Hit, short};
use crate::lang::Family;

/// Words that make a number a timeout.
fn timeout_word(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    [
        "timeout",
        "deadline",
        "wait_for",
        "waitfor",
        "settimeout",
        "time_limit",
        "timelimit",
        "grace",
        // A `Duration` or `timedelta` is a span of time: raised, it is waited longer.
        "duration::from_",
        "timedelta(",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// A Rust `Duration` constructor's span in seconds, its unit read (`from_millis(500)`,
/// `Duration::from_secs(600`, `from_secs_f64(1.5)`): so that `from_millis(500)` to
/// `from_secs(600)` is 1200-fold, not 1.2.
fn span_secs(s: &str) -> Option<f64> {
    let t = s.trim().trim_start_matches("Duration::");
    let (unit, rest) = t.split_once('(')?;
    let scale = match unit {
        "from_secs" | "from_secs_f64" | "from_secs_f32" => 1.0,
        "from_millis" => 1e-3,
        "from_micros" => 1e-6,
        "from_nanos" => 1e-9,
        "from_mins" => 60.0,
        "from_hours" => 3600.0,
        _ => return None,
    };
    let num = rest.trim_end_matches(')').replace('_', "");
    Some(value(&num)? * scale)
}

/// Whether `x` is the trailing timeout argument of a JS test call: `it(name, fn, 5000)`,
/// `beforeAll(fn, 5000)`.
fn test_call_timeout(x: Node<'_>, src: &str) -> bool {
    let Some(args) = x.parent().filter(|p| p.kind() == "arguments") else {
        return false;
    };
    let Some(call) = args.parent().filter(|c| c.kind() == "call_expression") else {
        return false;
    };
    let root = call
        .child_by_field_name("function")
        .map(|c| callee_root(c, src))
        .unwrap_or("");
    let last = args.named_child(args.named_child_count().saturating_sub(1) as u32);
    let fn_before = x
        .prev_named_sibling()
        .is_some_and(|p| is_function(p.kind()));
    matches!(
        root,
        "it" | "test" | "beforeAll" | "beforeEach" | "afterAll" | "afterEach" | "describe"
    ) && last.is_some_and(|l| l.id() == x.id())
        && fn_before
}

/// The innermost named node covering the new span of a pair.
fn node_of<'t>(v: &FileView<'t>, p: &Pair<'_>) -> Option<Node<'t>> {
    let a = Point::new(p.new_row, p.new_col);
    let b = Point::new(p.new_row, p.new_col + p.new_mid.len().max(1));
    v.new
        .tree
        .root_node()
        .named_descendant_for_point_range(a, b)
}

/// Whether the span sits in a comparison (`len > MAX`), on the new side.
fn in_comparison(x: Node<'_>, src: &str) -> bool {
    let mut cur = Some(x);
    let mut depth = 0;
    while let Some(n) = cur {
        if depth > 4 {
            return false;
        }
        if n.kind() == "comparison_operator" {
            return true;
        }
        if n.kind() == "binary_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| matches!(text(o, src), "<" | ">" | "<=" | ">="))
        {
            return true;
        }
        cur = n.parent();
        depth += 1;
    }
    false
}

/// The name a value is bound to on its line (`MAX_LINES = 500`, `const MAX: usize = 64`,
/// `{ maxItems: 10 }`, `limit=10`): the identifier right before the `=` or `:` the span follows.
fn bound_name(prefix: &str) -> Option<&str> {
    let t = prefix.trim_end();
    let t = t
        .strip_suffix('=')
        .or_else(|| t.strip_suffix(':'))
        .or_else(|| t.strip_suffix("= Duration::from_secs("))?;
    let t = t.trim_end();
    // `const MAX_UPSTREAMS: usize =`: skip the type.
    let t = match t.rsplit_once(':') {
        Some((name, ty)) if !ty.trim().contains(' ') && !name.ends_with(':') => name.trim_end(),
        _ => t,
    };
    let start = t
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .map_or(0, |i| i + 1);
    let name = &t[start..];
    (!name.is_empty()).then_some(name)
}

fn limit_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    [
        "max",
        "limit",
        "quota",
        "per_",
        "_per",
        "cap",
        "threshold",
        "budget",
        "allowed",
    ]
    .iter()
    .any(|w| l.contains(w))
        || (name.contains("Per") && !name.starts_with("Per"))
}

/// Whether a name is a tolerance (`TOLERANCE`, `tol`, `EPSILON`, `eps`, `maxDelta`,
/// `abs_tol`): the closeness a test's comparisons allow.
fn tolerance_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        matches!(
            w,
            "tol" | "tolerance" | "eps" | "epsilon" | "delta" | "slack"
        )
    }) || ["tolerance", "epsilon", "Tol", "Eps", "Delta"]
        .iter()
        .any(|w| name.contains(w))
}

/// Whether a name is a minimum (`MIN_LEN`, `minLength`, `min_rows`): larger is stricter.
fn minimum(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.split('_').any(|w| w == "min" || w == "minimum")
        || name.starts_with("min") && name[3..].starts_with(|c: char| c.is_ascii_uppercase())
}

fn upper_constant(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Timeouts raised and thresholds loosened in one file.
pub fn find(v: &FileView<'_>) -> Vec<Hit> {
    let mut out = Vec::new();
    if config_path(v.path) {
        return out;
    }
    let n = v.new.src;
    for h in v.hunks {
        for mut p in pairs(&v.old, &v.new, h) {
            // A comment added after the number (`255  # up to 255 parts`) is not the value.
            for mark in [" #", " //"] {
                if let Some((num, _)) = p.new_mid.split_once(mark)
                    && !p.old_mid.contains(mark)
                {
                    p.new_mid = num.trim_end();
                }
            }
            let Some(x) = node_of(v, &p) else { continue };
            let prefix = &p.new_line[..p.new_col];
            let in_test = test_path(v.path) || in_test_region(v.f, x, n);
            let tail: String = prefix
                .chars()
                .rev()
                .take(48)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let pytest_mark = v.f == Family::Python && prefix.contains("mark.timeout(");
            let sleep = in_test && tail.to_ascii_lowercase().contains("sleep");
            let timeout = timeout_word(&tail)
                || pytest_mark
                || sleep
                || (v.f == Family::JavaScript && test_call_timeout(x, n))
                || (timeout_word(p.new_line) && v.f == Family::Rust);
            let scope = scope_key(v.f, x, n);
            let old_v = value(p.old_mid);
            if timeout {
                let disabled = old_v.is_some_and(|o| o > 0.0)
                    && (matches!(p.new_mid, "None" | "null" | "undefined")
                        || unbounded(p.new_mid)
                        || (pytest_mark && value(p.new_mid) == Some(0.0)));
                let spans = match (span_secs(p.old_mid), span_secs(p.new_mid)) {
                    (Some(a), Some(b)) if a > 0.0 => Some(b / a),
                    _ => None,
                };
                let raised = factor(p.old_mid, p.new_mid).or(spans).filter(|k| *k >= 2.0);
                if !disabled && raised.is_none() {
                    continue;
                }
                // In a test, 4-fold: a test's wait raised past the slowness it should catch.
                let floor = if in_test { 4.0 } else { 10.0 };
                let big = disabled || raised.is_some_and(|k| k >= floor);
                let how = match raised {
                    Some(k) if !disabled => format!("raised {k:.0}-fold"),
                    _ => "disabled".to_owned(),
                };
                out.push(Hit {
                    kind: Kind::TimeoutRaised,
                    old: false,
                    rows: (p.new_row, p.new_row),
                    detail: format!(
                        "timeout {how}: `{}` to `{}` in `{}`",
                        p.old_mid,
                        p.new_mid,
                        short(p.new_line)
                    ),
                    severity: if big {
                        Severity::Flag
                    } else {
                        Severity::Review
                    },
                    scope,
                });
                continue;
            }
            let name = bound_name(prefix);
            if name.is_some_and(minimum) {
                continue;
            }
            let comparison = in_comparison(x, n);
            let limit = name.is_some_and(limit_name) || limit_name(p.new_mid);
            // A test's named tolerance (`const TOLERANCE = 0.05` to `1.5`): 2-fold.
            let tolerance = in_test && name.is_some_and(tolerance_name);
            let constant = name.is_some_and(upper_constant);
            if !(comparison || limit || constant || tolerance) {
                continue;
            }
            let to_unbounded =
                unbounded(p.new_mid) && !unbounded(p.old_mid) && !p.old_mid.is_empty();
            // A limit's name moved 50-fold (`MAX_SEGMENTS = 3` to `255`); other numbers 1000.
            let fold = if tolerance {
                2.0
            } else if limit {
                50.0
            } else {
                1000.0
            };
            let k = factor(p.old_mid, p.new_mid).filter(|k| *k >= fold);
            if !to_unbounded && k.is_none() {
                continue;
            }
            let how = match k {
                Some(k) if !to_unbounded && k.is_finite() => format!("{k:.0}-fold"),
                _ => "to an unbounded value".to_owned(),
            };
            out.push(Hit {
                kind: Kind::ThresholdLoosened,
                old: false,
                rows: (p.new_row, p.new_row),
                detail: format!(
                    "limit raised {how}: `{}` to `{}` in `{}`",
                    p.old_mid,
                    p.new_mid,
                    short(p.new_line)
                ),
                severity: if to_unbounded || comparison || limit || tolerance {
                    Severity::Flag
                } else {
                    Severity::Review
                },
                scope,
            });
        }
    }
    out
}
