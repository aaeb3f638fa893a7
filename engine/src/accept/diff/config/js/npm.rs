//! `package.json` (its `mocha` key and its `scripts`) and `.mocharc.json`: mocha's options as
//! JSON, and the options of npm scripts that exclude tests, narrow their selection or set the
//! timeout.

use serde_json::Value;

use super::super::item::{Limit, line_of};

/// One setting: its key path's last keys (`test.exclude`), its values (a list's elements, or one
/// value), its line.
#[derive(Debug, Default)]
pub(super) struct Settings {
    pub(super) lists: Vec<(String, Vec<String>, Option<usize>)>,
    /// The lists that select tests (`testMatch`, `test.include`, `spec`).
    pub(super) includes: Vec<(String, Vec<String>, Option<usize>)>,
    pub(super) timeouts: Vec<(String, Limit)>,
}

/// A JSON value's strings: a list's, or the one string.
fn json_strings(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a
            .iter()
            .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_owned))
            .collect(),
        Value::String(x) => vec![x.clone()],
        other => vec![other.to_string()],
    }
}

/// A mocha timeout: ms as a number or a string (`"2000"`, `"5s"`, `"1m"`); `0`, `false` and
/// `"0"` disable it (no limit).
pub(super) fn mocha_timeout(v: &Value) -> Option<f64> {
    let ms = match v {
        Value::Bool(false) => 0.0,
        Value::Number(n) => n.as_f64()?,
        Value::String(t) => {
            let t = t.trim();
            let (num, scale) = if let Some(x) = t.strip_suffix("ms") {
                (x, 1.0)
            } else if let Some(x) = t.strip_suffix('s') {
                (x, 1000.0)
            } else if let Some(x) = t.strip_suffix('m') {
                (x, 60_000.0)
            } else {
                (t, 1.0)
            };
            num.trim().parse::<f64>().ok()? * scale
        }
        _ => return None,
    };
    Some(if ms == 0.0 { f64::INFINITY } else { ms })
}

/// The settings of a mocha options object (`.mocharc.json`, `package.json`'s `mocha`): `prefix`
/// names where it sits; lines are searched from `from`.
pub(super) fn mocha_json(v: &Value, text: &str, prefix: &str, from: usize, s: &mut Settings) {
    for key in ["ignore", "exclude"] {
        if let Some(x) = v.get(key) {
            let line = line_of(text, &format!("\"{key}\""), from);
            s.lists
                .push((format!("{prefix}{key}"), json_strings(x), line));
        }
    }
    if let Some(x) = v.get("spec") {
        let line = line_of(text, "\"spec\"", from);
        s.includes
            .push((format!("{prefix}spec"), json_strings(x), line));
    }
    let none = v.get("no-timeouts").and_then(Value::as_bool) == Some(true)
        || v.get("timeouts").and_then(Value::as_bool) == Some(false);
    let timeout = if none {
        Some(f64::INFINITY)
    } else {
        v.get("timeout").and_then(mocha_timeout)
    };
    if let Some(value) = timeout {
        let line = line_of(text, "timeout", from);
        s.timeouts
            .push((format!("{prefix}timeout"), Limit { value, line }));
    }
}

/// The settings of a `package.json`.
pub(super) fn package(text: &str) -> Result<Settings, ()> {
    let mut s = Settings::default();
    if text.trim().is_empty() {
        return Ok(s);
    }
    let v: Value = serde_json::from_str(text).map_err(|_| ())?;
    if let Some(jest) = v.get("jest") {
        let from = line_of(text, "\"jest\"", 1).unwrap_or(1);
        for key in ["testPathIgnorePatterns", "modulePathIgnorePatterns"] {
            if let Some(a) = jest.get(key).and_then(Value::as_array) {
                let values = a
                    .iter()
                    .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_owned))
                    .collect();
                s.lists
                    .push((key.to_owned(), values, line_of(text, key, from)));
            }
        }
        if let Some(a) = jest.get("testMatch") {
            let line = line_of(text, "testMatch", from);
            s.includes
                .push(("testMatch".to_owned(), json_strings(a), line));
        }
        if let Some(t) = jest.get("testTimeout").and_then(Value::as_f64) {
            let line = line_of(text, "testTimeout", from);
            s.timeouts
                .push(("testTimeout".to_owned(), Limit { value: t, line }));
        }
    }
    if let Some(m) = v.get("mocha") {
        let from = line_of(text, "\"mocha\"", 1).unwrap_or(1);
        mocha_json(m, text, "mocha.", from, &mut s);
    }
    if let Some(scripts) = v.get("scripts").and_then(Value::as_object) {
        let from = line_of(text, "\"scripts\"", 1).unwrap_or(1);
        for (name, cmd) in scripts {
            let Some(cmd) = cmd.as_str() else { continue };
            let line = line_of(text, &format!("\"{name}\""), from);
            cli(name, cmd, line, &mut s);
        }
    }
    Ok(s)
}

/// Whether a selection of directories or globs (or none: the runner's discovery) became a list of
/// files within them: the test files left out no longer run.
pub(super) fn narrowed(before: &[String], after: &[String]) -> bool {
    let file = |p: &str| {
        let base = p.rsplit('/').next().unwrap_or(p);
        !p.contains('*')
            && [".js", ".mjs", ".cjs", ".ts", ".mts"]
                .iter()
                .any(|e| base.ends_with(e))
    };
    let dir = |p: &String| p.trim_start_matches("./").trim_end_matches('/').to_owned();
    let dirs: Vec<String> = before.iter().filter(|p| !file(p)).map(dir).collect();
    !after.is_empty()
        && (before.is_empty() || !dirs.is_empty())
        && after.iter().all(|p| file(p) && !before.contains(p))
        && after.iter().all(|p| {
            let p = p.trim_start_matches("./");
            before.is_empty()
                || dirs.iter().any(|d| {
                    let d = d.split('*').next().unwrap_or(d).trim_end_matches('/');
                    d.is_empty() || p.starts_with(&format!("{d}/"))
                })
        })
}

/// The options of an npm script that exclude tests or set the timeout.
fn cli(script: &str, cmd: &str, line: Option<usize>, s: &mut Settings) {
    let words =
        shlex::split(cmd).unwrap_or_else(|| cmd.split_whitespace().map(str::to_owned).collect());
    let mocha = words.iter().any(|w| w.rsplit('/').next() == Some("mocha"));
    // `node --test [paths]`: the paths select the test files (none: node's own discovery).
    if let Some(at) = words.iter().position(|w| w == "--test")
        && words[..at]
            .iter()
            .any(|w| matches!(w.rsplit('/').next(), Some("node" | "tsx")))
    {
        let paths = words[at + 1..]
            .iter()
            .take_while(|w| !matches!(w.as_str(), "&&" | "||" | ";" | "|"))
            .filter(|w| !w.starts_with('-'))
            .cloned()
            .collect();
        s.includes
            .push((format!("script `{script}` node --test"), paths, line));
    }
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        let (opt, glued) = match w.split_once('=') {
            Some((o, v)) => (o, Some(v.to_owned())),
            None => (w.as_str(), None),
        };
        let opt = opt.to_owned();
        let value = |i: &mut usize| {
            glued.clone().or_else(|| {
                *i += 1;
                words.get(*i).cloned()
            })
        };
        match opt.as_str() {
            "--testPathIgnorePatterns"
            | "--modulePathIgnorePatterns"
            | "--exclude"
            | "--ignore" => {
                if let Some(v) = value(&mut i) {
                    let key = format!("script `{script}` {opt}");
                    s.lists.push((key, vec![v], line));
                }
            }
            "--testTimeout" => {
                if let Some(value) = value(&mut i).and_then(|v| v.parse().ok()) {
                    let key = format!("script `{script}` --testTimeout");
                    s.timeouts.push((key, Limit { value, line }));
                }
            }
            "--timeout" | "-t" if mocha => {
                if let Some(value) = value(&mut i).and_then(|v| mocha_timeout(&Value::String(v))) {
                    let key = format!("script `{script}` --timeout");
                    s.timeouts.push((key, Limit { value, line }));
                }
            }
            "--no-timeouts" if mocha => {
                let key = format!("script `{script}` --timeout");
                s.timeouts.push((
                    key,
                    Limit {
                        value: f64::INFINITY,
                        line,
                    },
                ));
            }
            _ => {}
        }
        i += 1;
    }
}
