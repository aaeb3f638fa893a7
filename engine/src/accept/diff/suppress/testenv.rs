//! Test-environment markers: what a condition asks about running under a test or CI, and a Rust
//! function that `cargo test` replaces by a `#[cfg(test)]` twin (`guard.rs` reports both as
//! `test_environment_guard`).

use tree_sitter::Node;

use super::super::model::{Kind, Severity};
use super::super::syntax::{all_nodes, compact, is_comment, scope_key, text};
use super::view::{FileView, Hit};

/// Whether compacted code reads an environment variable (`os.environ`, `os.getenv(..)`,
/// `process.env`, `std::env::var`, `import.meta.env`).
fn reads_env(c: &str) -> bool {
    [
        "environ",
        "getenv(",
        "process.env",
        "env::var",
        "import.meta.env",
    ]
    .iter()
    .any(|m| c.contains(m))
}

/// What a condition asks about the environment: `Some(true)` a test marker, `Some(false)` the
/// `CI` variable.
pub fn env_marker(cond: &str) -> Option<bool> {
    let c = compact(cond);
    let node_env_test = c.contains("NODE_ENV") && (c.contains("'test'") || c.contains("\"test\""));
    let test = node_env_test
        || [
            "JEST_WORKER_ID",
            "env.VITEST",
            "\"VITEST\"",
            "'VITEST'",
            "PYTEST_CURRENT_TEST",
            "settings.TESTING",
            "cfg!(test)",
            "typeofjest!==",
            "typeofjest!=",
            "MODE==='test'",
        ]
        .iter()
        .any(|m| c.contains(m))
        || c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
            .any(|w| w == "TESTING" || w == "IS_TEST" || w == "UNDER_TEST");
    // Any environment variable compared with "test" (`os.environ.get("APP_ENV") == "test"`).
    let test = test
        || reads_env(&c)
            && ["\"test\"", "'test'", "\"testing\"", "'testing'"]
                .iter()
                .any(|m| c.contains(m));
    let pytest_loaded = (c.contains("\"pytest\"") || c.contains("'pytest'"))
        && (c.contains("sys.modules") || c.contains("sys.argv"));
    if test || pytest_loaded {
        return Some(true);
    }
    let ci = c.contains("\"CI\"") || c.contains("'CI'") || c.contains("env.CI");
    ci.then_some(false)
}

/// The `#[cfg(test)]` / `#[cfg(not(test))]` right before a Rust item (comments and other
/// attributes between), and whether it is the `not`.
fn cfg_gate<'t>(x: Node<'t>, src: &str) -> Option<(Node<'t>, bool)> {
    let mut p = x.prev_named_sibling();
    while let Some(a) = p
        && (a.kind() == "attribute_item" || is_comment(a.kind()))
    {
        let t = compact(text(a, src));
        if t == "#[cfg(test)]" || t == "#[cfg(not(test))]" {
            return Some((a, t.contains("not")));
        }
        p = a.prev_named_sibling();
    }
    None
}

/// Rust: an existing function put under `#[cfg(not(test))]` with a `#[cfg(test)]` twin the
/// same diff adds: `cargo test` runs other code than the build does.
pub fn twins(v: &FileView<'_>) -> Vec<Hit> {
    let n = v.new.src;
    let name = |x: Node<'_>, src: &str| {
        x.child_by_field_name("name")
            .map(|k| text(k, src).to_owned())
    };
    let (mut old, mut new) = (
        all_nodes(v.old.tree.root_node()),
        all_nodes(v.new.tree.root_node()),
    );
    old.retain(|x| x.kind() == "function_item");
    new.retain(|x| x.kind() == "function_item");
    let mut out = Vec::new();
    for &x in &new {
        let Some((attr, true)) = cfg_gate(x, n) else {
            continue;
        };
        let Some(fname) = name(x, n) else { continue };
        let existed = old
            .iter()
            .any(|o| name(*o, v.old.src).as_deref() == Some(&fname));
        let twin = new.iter().any(|t| {
            name(*t, n).as_deref() == Some(&fname)
                && cfg_gate(*t, n)
                    .is_some_and(|(a, not)| !not && v.new.changed.contains(&a.start_position().row))
        });
        if !v.new.changed.contains(&attr.start_position().row) || !existed || !twin {
            continue;
        }
        out.push(Hit {
            kind: Kind::TestEnvironmentGuard,
            old: false,
            rows: (attr.start_position().row, x.end_position().row),
            detail: format!(
                "`{fname}` put under `#[cfg(not(test))]` with a `#[cfg(test)]` twin: tests run another body"
            ),
            severity: Severity::Flag,
            scope: scope_key(v.f, x, n),
        });
    }
    out
}

/// Whether `x`, a new `if`/`else` or ternary on a condition that compares the deployment
/// environment with production or development (`process.env.NODE_ENV === 'production'`,
/// `os.environ.get("APP_ENV") != "prod"`), computes a value one way in production and another
/// elsewhere: both arms present, neither only logging, warning or throwing (a dev-only warning
/// or invariant check, or an entry point requiring its production or development build, is not a
/// second behaviour). Tests run outside production, so they check the other arm.
pub fn production_split(x: Node<'_>, cond: &str, src: &str) -> bool {
    let c = compact(cond);
    let env = c.contains("NODE_ENV") || reads_env(&c);
    let deploy = ["production", "development", "prod", "dev"]
        .iter()
        .any(|w| c.contains(&format!("'{w}'")) || c.contains(&format!("\"{w}\"")));
    if !env || !deploy {
        return false;
    }
    let (then, other) = match x.kind() {
        "conditional_expression" => (x.named_child(0), x.named_child(2)),
        _ => (
            x.child_by_field_name("consequence"),
            x.child_by_field_name("alternative"),
        ),
    };
    let (Some(then), Some(other)) = (then, other) else {
        return false;
    };
    let inert = |arm: Node<'_>| {
        let t = compact(text(arm, src));
        let t = t.trim_start_matches(['{', '(']).trim_start_matches("else");
        let t = t.trim_start_matches(['{', ':']);
        t.is_empty()
            || [
                "console.", "logger.", "log.", "warn", "throw", "raise", "panic!", "print",
                "require(", "import(",
            ]
            .iter()
            .any(|l| t.starts_with(l))
            || all_nodes(arm)
                .into_iter()
                .any(|y| matches!(y.kind(), "throw_statement" | "raise_statement"))
    };
    !inert(then) && !inert(other)
}
