//! jest, vitest and mocha configuration: `jest.config.{js,ts,cjs,mjs}`, `vitest.config.*` /
//! `vite.config.*` and `.mocharc.{js,cjs}` parsed with tree-sitter (JavaScript or TypeScript, as
//! the file's extension says), `.mocharc.json` and `package.json` with serde_json (its `jest` and
//! `mocha` keys and its `scripts`). Read: `testPathIgnorePatterns`, `modulePathIgnorePatterns`
//! and `testTimeout` (jest: at any depth of the file's object literals, so `projects` and a
//! `const config = {...}` count; vitest: under a `test` key, with `exclude`), mocha's `ignore`,
//! `exclude` and `timeout`, and in scripts `--testPathIgnorePatterns`,
//! `--modulePathIgnorePatterns`, `--exclude`, `--ignore`, `--testTimeout` and mocha's
//! `--timeout`/`-t`. A pattern is new when neither the old version nor the runner's defaults held
//! it. The lists that select tests (jest `testMatch`, vitest `test.include`, mocha `spec`) exclude
//! through a new negated pattern (`!**/a.test.js`, `test/**/!(reset).test.ts`); a `node --test`
//! script through its paths narrowed from directories (or node's discovery) to a list of files
//! in them. A timeout is in ms (default 5000; mocha's 2000, `0` or `false` none).

use std::path::Path;

use serde_json::Value;
use tree_sitter::Node;

use super::item::{Found, Limit, added, excluded, raised};
use crate::accept::diff::syntax::{all_nodes, compact, text};
use crate::lang;
use crate::parse::parse;

mod npm;
use npm::{Settings, mocha_json, mocha_timeout, narrowed, package};

/// jest's default `testPathIgnorePatterns`.
const JEST_DEFAULT: &[&str] = &["/node_modules/"];
/// vitest's default `exclude` (`configDefaults.exclude`, written out or spread).
const VITEST_DEFAULT: &[&str] = &[
    "...configDefaults.exclude",
    "...defaultExclude",
    "**/node_modules/**",
    "**/dist/**",
    "**/cypress/**",
    "**/.{idea,git,cache,output,temp}/**",
];
/// jest's and vitest's default test timeout, ms.
const DEFAULT_TIMEOUT_MS: f64 = 5000.0;
/// mocha's default test timeout, ms.
const MOCHA_TIMEOUT_MS: f64 = 2000.0;

/// Which runner a file configures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Form {
    /// `jest.config.*`.
    Jest,
    /// `vitest.config.*`, `vite.config.*`.
    Vitest,
    /// `package.json`.
    Package,
    /// `.mocharc.js`, `.mocharc.cjs`.
    Mocha,
    /// `.mocharc.json`.
    MochaJson,
}

impl Form {
    /// The form of a file named `base`.
    pub(super) fn of(base: &str) -> Option<Form> {
        let (stem, ext) = base.rsplit_once('.')?;
        let js = matches!(ext, "js" | "ts" | "cjs" | "mjs" | "cts" | "mts");
        Some(match stem {
            ".mocharc" if matches!(ext, "js" | "cjs") => Form::Mocha,
            ".mocharc" if ext == "json" => Form::MochaJson,
            "jest.config" if js => Form::Jest,
            "vitest.config" | "vite.config" if js => Form::Vitest,
            _ if base == "package.json" => Form::Package,
            _ => return None,
        })
    }
}

/// The exclusions and raised timeouts of `new` that `old` did not have; `Err(())` when `new` does
/// not parse (JSON, or a script with a syntax error); an `old` that does not parse sets nothing.
pub(super) fn compare(form: Form, name: &str, old: &str, new: &str) -> Result<Vec<Found>, ()> {
    let n = read(form, name, new)?;
    let o = read(form, name, old).unwrap_or_default();
    let mut out = Vec::new();
    for (key, values, line) in &n.lists {
        let defaults: &[&str] = match key.as_str() {
            "testPathIgnorePatterns" => JEST_DEFAULT,
            "test.exclude" => VITEST_DEFAULT,
            _ => &[],
        };
        let mut before: Vec<String> = defaults.iter().map(|d| (*d).to_owned()).collect();
        for (k, v, _) in &o.lists {
            if k == key {
                before.extend(v.iter().cloned());
            }
        }
        let new_values: Vec<String> = added(&before, values).into_iter().cloned().collect();
        if !new_values.is_empty() {
            out.push(excluded(
                &format!("`{key}` gains {}", quoted(&new_values)),
                *line,
            ));
        }
    }
    for (key, values, line) in &n.includes {
        let before: Vec<String> = o
            .includes
            .iter()
            .filter(|(k, _, _)| k == key)
            .flat_map(|(_, v, _)| v.iter().cloned())
            .collect();
        let negated: Vec<String> = added(&before, values)
            .into_iter()
            .filter(|p| p.starts_with('!') || p.contains("!("))
            .cloned()
            .collect();
        if !negated.is_empty() {
            out.push(excluded(
                &format!("`{key}` gains the negated {}", quoted(&negated)),
                *line,
            ));
        }
        if key.ends_with("node --test")
            && o.includes.iter().any(|(k, _, _)| k == key)
            && narrowed(&before, values)
        {
            out.push(excluded(
                &format!(
                    "`{key}` narrowed from {} to the listed files {}",
                    if before.is_empty() {
                        "node's own discovery".to_owned()
                    } else {
                        quoted(&before)
                    },
                    quoted(values)
                ),
                *line,
            ));
        }
    }
    for (key, limit) in &n.timeouts {
        let old = o.timeouts.iter().find(|(k, _)| k == key).map(|(_, l)| *l);
        let default = if key.contains("testTimeout") {
            DEFAULT_TIMEOUT_MS
        } else {
            MOCHA_TIMEOUT_MS
        };
        out.extend(raised(key, " ms", old, Some(*limit), default));
    }
    Ok(out)
}

fn quoted(v: &[String]) -> String {
    let shown: Vec<String> = v.iter().take(3).map(|s| format!("`{s}`")).collect();
    let more = v.len().saturating_sub(3);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("{}{tail}", shown.join(", "))
}

fn read(form: Form, name: &str, text: &str) -> Result<Settings, ()> {
    match form {
        Form::Package => package(text),
        Form::MochaJson => {
            let mut s = Settings::default();
            if !text.trim().is_empty() {
                let v: Value = serde_json::from_str(text).map_err(|_| ())?;
                mocha_json(&v, text, "", 1, &mut s);
            }
            Ok(s)
        }
        _ => script(form, name, text),
    }
}

/// The settings of a JavaScript or TypeScript config file.
fn script(form: Form, name: &str, src: &str) -> Result<Settings, ()> {
    let mut s = Settings::default();
    if src.trim().is_empty() {
        return Ok(s);
    }
    let (_, grammar) = lang::for_path(Path::new(name)).ok_or(())?;
    let tree = parse(grammar, src).ok_or(())?;
    if tree.root_node().has_error() {
        return Err(());
    }
    for pair in all_nodes(tree.root_node())
        .into_iter()
        .filter(|n| n.kind() == "pair")
    {
        let Some(key) = pair.child_by_field_name("key").map(|k| key_name(k, src)) else {
            continue;
        };
        let Some(value) = pair.child_by_field_name("value") else {
            continue;
        };
        let parent = parent_key(pair, src);
        let path = match (form, key.as_str(), parent.as_deref()) {
            (
                Form::Jest,
                "testPathIgnorePatterns" | "modulePathIgnorePatterns" | "testTimeout" | "testMatch",
                _,
            ) => key.clone(),
            (Form::Vitest, "exclude" | "include" | "testTimeout", Some("test")) => {
                format!("test.{key}")
            }
            (Form::Mocha, "ignore" | "exclude" | "spec" | "timeout", _) => key.clone(),
            _ => continue,
        };
        let line = Some(pair.start_position().row + 1);
        let include = matches!(path.as_str(), "testMatch" | "test.include" | "spec");
        if key == "testTimeout" || key == "timeout" {
            let value = if form == Form::Mocha {
                number(value, src)
                    .map(|v| if v == 0.0 { f64::INFINITY } else { v })
                    .or_else(|| match value.kind() {
                        "false" => Some(f64::INFINITY),
                        "string" => mocha_timeout(&Value::String(literal(value, src))),
                        _ => None,
                    })
            } else {
                number(value, src)
            };
            if let Some(value) = value {
                s.timeouts.push((path, Limit { value, line }));
            }
        } else if include {
            let values = if value.kind() == "array" {
                let mut c = value.walk();
                value
                    .named_children(&mut c)
                    .filter(|e| !e.kind().contains("comment"))
                    .map(|e| literal(e, src))
                    .collect()
            } else {
                vec![literal(value, src)]
            };
            s.includes.push((path, values, line));
        } else if value.kind() == "array" {
            let mut c = value.walk();
            let values = value
                .named_children(&mut c)
                .filter(|e| !e.kind().contains("comment"))
                .map(|e| literal(e, src))
                .collect();
            s.lists.push((path, values, line));
        } else {
            // Not a literal list (a variable, a call): its text stands for it.
            s.lists.push((path, vec![compact(text(value, src))], line));
        }
    }
    Ok(s)
}

/// A key's name (`testTimeout`, `'testTimeout'`).
fn key_name(k: Node<'_>, src: &str) -> String {
    literal(k, src)
}

/// The key of the pair whose object holds `pair`, if any.
fn parent_key(pair: Node<'_>, src: &str) -> Option<String> {
    let object = pair.parent()?;
    let mut up = object.parent()?;
    // `test: { ... }`, or `test: defineProject({ ... })` / `satisfies` wrappers.
    while matches!(
        up.kind(),
        "arguments"
            | "call_expression"
            | "parenthesized_expression"
            | "satisfies_expression"
            | "as_expression"
    ) {
        up = up.parent()?;
    }
    (up.kind() == "pair").then(|| up.child_by_field_name("key").map(|k| key_name(k, src)))?
}

/// A string literal's content (a template without substitutions too); any other node's compact
/// text.
fn literal(n: Node<'_>, src: &str) -> String {
    let t = text(n, src);
    match n.kind() {
        "string" | "template_string" if t.len() >= 2 && !t.contains("${") => {
            t[1..t.len() - 1].to_owned()
        }
        _ => compact(t),
    }
}

/// A number literal, or a sum or product of them (`5 * 60 * 1000`), `1_000` separators allowed;
/// at most 16 operators deep (the value is untrusted text and this recurses).
fn number(n: Node<'_>, src: &str) -> Option<f64> {
    number_at(n, src, 0)
}

fn number_at(n: Node<'_>, src: &str, depth: usize) -> Option<f64> {
    if depth > 16 {
        return None;
    }
    match n.kind() {
        "number" => text(n, src).replace('_', "").parse().ok(),
        "parenthesized_expression" => number_at(n.named_child(0)?, src, depth + 1),
        "binary_expression" => {
            let op = n.child_by_field_name("operator")?;
            let (l, r) = (
                number_at(n.child_by_field_name("left")?, src, depth + 1)?,
                number_at(n.child_by_field_name("right")?, src, depth + 1)?,
            );
            match text(op, src) {
                "*" => Some(l * r),
                "+" => Some(l + r),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jest_patterns_and_timeouts() {
        let old = "module.exports = {\n  testPathIgnorePatterns: ['/node_modules/'],\n  testTimeout: 5000,\n};\n";
        let new = "module.exports = {\n  testPathIgnorePatterns: ['/node_modules/', 'a\\\\.test'],\n  testTimeout: 5 * 60 * 1000,\n};\n";
        let f = compare(Form::Jest, "jest.config.js", old, new).unwrap();
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[0].line, Some(2));
        // The default added explicitly, a timeout lowered: nothing.
        let same =
            "module.exports = { testPathIgnorePatterns: ['/node_modules/'], testTimeout: 2000 };\n";
        assert!(
            compare(Form::Jest, "jest.config.js", "", same)
                .unwrap()
                .is_empty()
        );
        assert!(compare(Form::Jest, "jest.config.js", old, "module.exports = {").is_err());
    }

    #[test]
    fn vitest_exclude_under_test_only() {
        let old =
            "export default defineConfig({ test: { exclude: [...configDefaults.exclude] } });\n";
        let new = "export default defineConfig({ test: { exclude: [...configDefaults.exclude, 'src/b/**'] }, build: { exclude: ['x'] } });\n";
        let f = compare(Form::Vitest, "vitest.config.ts", old, new).unwrap();
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].detail.contains("src/b/**"));
    }

    #[test]
    fn negated_selections_and_mocha() {
        let old = "module.exports = { testMatch: ['**/__tests__/**/*.test.js'] };\n";
        let new = "module.exports = { testMatch: ['**/__tests__/**/*.test.js', '!**/__tests__/a.test.js'] };\n";
        assert_eq!(
            compare(Form::Jest, "jest.config.js", old, new)
                .unwrap()
                .len(),
            1
        );
        let wider = "module.exports = { testMatch: ['**/*.test.js', '**/*.spec.js'] };\n";
        assert!(
            compare(Form::Jest, "jest.config.js", old, wider)
                .unwrap()
                .is_empty()
        );
        let vi = "export default defineConfig({ test: { include: ['test/**/*.test.ts'] } });\n";
        let glob = vi.replace("test/**/*", "test/**/!(reset)");
        assert_eq!(
            compare(Form::Vitest, "vitest.config.ts", vi, &glob)
                .unwrap()
                .len(),
            1
        );
        let rc = r#"{"spec": ["test/**/*.spec.js"], "timeout": 4000}"#;
        let ignored =
            r#"{"spec": ["test/**/*.spec.js"], "ignore": ["test/a.spec.js"], "timeout": 4000}"#;
        assert_eq!(
            compare(Form::MochaJson, ".mocharc.json", rc, ignored)
                .unwrap()
                .len(),
            1
        );
        let off = r#"{"spec": ["test/**/*.spec.js"], "timeout": 0}"#;
        let f = compare(Form::MochaJson, ".mocharc.json", rc, off).unwrap();
        assert!(f.len() == 1 && f[0].detail.contains("no limit"), "{f:?}");
        let js = "module.exports = { timeout: '5s' };\n";
        assert_eq!(
            compare(Form::Mocha, ".mocharc.js", "", js).unwrap().len(),
            1
        );
        let pkg = r#"{"scripts": {"test": "mocha --timeout 2000"}}"#;
        let slow = r#"{"scripts": {"test": "mocha --timeout 60000 --ignore test/b.js"}}"#;
        assert_eq!(
            compare(Form::Package, "package.json", pkg, slow)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn node_test_paths_narrowed_to_a_list_of_files() {
        let old = r#"{"scripts": {"test": "node --test test/"}}"#;
        let new = r#"{"scripts": {"test": "node --test test/a.test.js test/b.test.js"}}"#;
        let f = compare(Form::Package, "package.json", old, new).unwrap();
        assert_eq!(f.len(), 1, "{f:?}");
        let bare = r#"{"scripts": {"test": "node --test"}}"#;
        assert_eq!(
            compare(Form::Package, "package.json", bare, new)
                .unwrap()
                .len(),
            1
        );
        // Widened, or a directory swapped for another, is no narrowing.
        assert!(
            compare(Form::Package, "package.json", new, old)
                .unwrap()
                .is_empty()
        );
        let other = r#"{"scripts": {"test": "node --test spec/"}}"#;
        assert!(
            compare(Form::Package, "package.json", old, other)
                .unwrap()
                .is_empty()
        );
        let moved = r#"{"scripts": {"test": "node --test lib/a.test.js"}}"#;
        assert!(
            compare(Form::Package, "package.json", old, moved)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn package_json_scripts_and_jest_key() {
        let old = r#"{"scripts": {"test": "jest --ci"}}"#;
        let new = r#"{"scripts": {"test": "jest --ci --testPathIgnorePatterns=orders"}}"#;
        assert_eq!(
            compare(Form::Package, "package.json", old, new)
                .unwrap()
                .len(),
            1
        );
        let lint = r#"{"scripts": {"test": "jest --ci", "lint": "eslint --fix ."}}"#;
        assert!(
            compare(Form::Package, "package.json", old, lint)
                .unwrap()
                .is_empty()
        );
        let t = r#"{"jest": {"testTimeout": 60000}}"#;
        assert_eq!(
            compare(Form::Package, "package.json", "{}", t)
                .unwrap()
                .len(),
            1
        );
        assert!(compare(Form::Package, "package.json", old, "{not json").is_err());
    }
}
