//! pytest's configuration: the `addopts` of `pytest.ini` (`[pytest]`), `pyproject.toml`
//! (`[tool.pytest.ini_options]`, and pytest 9's `[tool.pytest]`), `setup.cfg` (`[tool:pytest]`),
//! `tox.ini` (`[pytest]`, and each `[testenv*]` `commands` line that runs pytest), read as pytest
//! reads them (INI: `ini`; TOML: the `toml` crate; options split as `shlex.split` does). An
//! exclusion is an option that drops tests (`--deselect`, `--ignore`, `--ignore-glob`, a `-k` or
//! `-m` expression) the old version did not pass, or a `norecursedirs` entry other than pytest's
//! defaults and the usual homes of no tests; a timeout is pytest-timeout's `timeout` key or
//! `--timeout` (seconds; `0` is no limit; none set is no limit).

use super::ini::{self, Section};
use super::item::{Ctx, Found, Limit, added, excluded, line_of, raised};

/// What one version of a pytest configuration asks for.
#[derive(Debug, Default)]
struct Opts {
    /// `(option, value, line)`: `("--deselect", "tests/a.py::t", 3)`.
    excl: Vec<(String, String, Option<usize>)>,
    /// The timeout, when set.
    timeout: Option<Limit>,
}

/// Which file this is, by its name (`None`: not a pytest configuration).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Form {
    /// `pytest.ini`.
    PytestIni,
    /// `tox.ini`.
    Tox,
    /// `setup.cfg`.
    SetupCfg,
    /// `pyproject.toml`.
    Pyproject,
}

impl Form {
    /// The form of a file named `base`.
    pub(super) fn of(base: &str) -> Option<Form> {
        Some(match base {
            "pytest.ini" | ".pytest.ini" => Form::PytestIni,
            "tox.ini" => Form::Tox,
            "setup.cfg" => Form::SetupCfg,
            "pyproject.toml" => Form::Pyproject,
            _ => return None,
        })
    }
}

/// The exclusions and raised timeouts `new` has that `old` did not; `Err(())` when `new` does
/// not parse (an `old` that does not parse counts as setting nothing).
pub(super) fn compare(form: Form, old: &str, new: &str, ctx: &Ctx<'_>) -> Result<Vec<Found>, ()> {
    let n = read(form, new)?;
    let o = read(form, old).unwrap_or_default();
    let key = |e: &(String, String, Option<usize>)| (e.0.clone(), e.1.clone());
    let old_keys: Vec<_> = o.excl.iter().map(key).collect();
    let new_keys: Vec<_> = n.excl.iter().map(key).collect();
    let mut out = Vec::new();
    for k in added(&old_keys, &new_keys) {
        let line = n.excl.iter().find(|e| key(e) == *k).and_then(|e| e.2);
        let mut f = excluded(&format!("pytest `{} {}`", k.0, k.1), line);
        if matches!(k.0.as_str(), "--deselect" | "--ignore") && ctx.adds(&k.1) {
            f.review = Some("the excluded file is added by the same diff");
        }
        out.push(f);
    }
    out.extend(raised(
        "pytest timeout",
        " s",
        o.timeout,
        n.timeout,
        f64::INFINITY,
    ));
    Ok(out)
}

fn read(form: Form, text: &str) -> Result<Opts, ()> {
    let mut o = Opts::default();
    match form {
        Form::Pyproject => {
            let table: toml::Table = text.parse().map_err(|_| ())?;
            let tool = table.get("tool").and_then(|t| t.get("pytest"));
            for t in [tool.and_then(|p| p.get("ini_options")), tool] {
                let Some(t) = t else { continue };
                let from = line_of(text, "[tool.pytest", 1).unwrap_or(1);
                match t.get("addopts") {
                    Some(toml::Value::String(s)) => {
                        args(&split(s), line_of(text, "addopts", from), &mut o);
                    }
                    Some(toml::Value::Array(a)) => {
                        let words: Vec<String> = a
                            .iter()
                            .filter_map(|v| v.as_str())
                            .flat_map(split)
                            .collect();
                        args(&words, line_of(text, "addopts", from), &mut o);
                    }
                    _ => {}
                }
                let line = line_of(text, "norecursedirs", from);
                match t.get("norecursedirs") {
                    Some(toml::Value::String(s)) => skip_dirs(s.split_whitespace(), line, &mut o),
                    Some(toml::Value::Array(a)) => {
                        skip_dirs(a.iter().filter_map(|v| v.as_str()), line, &mut o);
                    }
                    _ => {}
                }
                let line = line_of(text, "timeout", from);
                match t.get("timeout") {
                    Some(toml::Value::Integer(i)) => o.timeout = limit(&i.to_string(), line),
                    Some(toml::Value::Float(f)) => o.timeout = limit(&f.to_string(), line),
                    Some(toml::Value::String(s)) => o.timeout = limit(s, line),
                    _ => {}
                }
            }
        }
        _ => {
            let sections = ini::parse(text).map_err(|_| ())?;
            let name = match form {
                Form::SetupCfg => "tool:pytest",
                _ => "pytest",
            };
            if let Some(s) = ini::section(&sections, name) {
                ini_section(s, &mut o);
            }
            if form == Form::Tox {
                for s in sections.iter().filter(|s| s.name.starts_with("testenv")) {
                    let Some(c) = s.get("commands") else { continue };
                    for (cmd, line) in c.value.lines().zip(&c.lines) {
                        if let Some(words) = pytest_argv(cmd) {
                            args(&words, Some(*line), &mut o);
                        }
                    }
                }
            }
        }
    }
    Ok(o)
}

/// `addopts` and `timeout` of an INI section.
fn ini_section(s: &Section, o: &mut Opts) {
    if let Some(a) = s.get("addopts") {
        for (l, line) in a.value.lines().zip(&a.lines) {
            args(&split(l), Some(*line), o);
        }
    }
    if let Some(t) = s.get("timeout") {
        o.timeout = limit(&t.value, t.lines.first().copied());
    }
    if let Some(d) = s.get("norecursedirs") {
        skip_dirs(d.value.split_whitespace(), d.lines.first().copied(), o);
    }
}

/// `norecursedirs` entries: directories collection does not enter. pytest's defaults and the
/// usual homes of no tests (environments, documentation, build output) drop nothing.
fn skip_dirs<'a>(dirs: impl Iterator<Item = &'a str>, line: Option<usize>, o: &mut Opts) {
    const NO_TESTS: [&str; 20] = [
        "*.egg",
        ".*",
        "_darcs",
        "build",
        "CVS",
        "dist",
        "node_modules",
        "venv",
        "{arch}",
        ".git",
        ".tox",
        ".venv",
        "env",
        ".eggs",
        "*.egg-info",
        "docs",
        "doc",
        "__pycache__",
        "htmlcov",
        "site-packages",
    ];
    for d in dirs {
        let d = d.trim_matches(|c| c == '"' || c == '\'' || c == ',');
        if !d.is_empty() && !NO_TESTS.contains(&d.trim_end_matches('/')) {
            o.excl
                .push(("norecursedirs".to_owned(), d.to_owned(), line));
        }
    }
}

/// pytest-timeout's value: seconds, `0` (or less) is no limit.
fn limit(v: &str, line: Option<usize>) -> Option<Limit> {
    let value: f64 = v.trim().parse().ok()?;
    let value = if value <= 0.0 { f64::INFINITY } else { value };
    Some(Limit { value, line })
}

/// Words as `shlex.split` makes them; text that does not split (an open quote) is split on
/// white space.
fn split(s: &str) -> Vec<String> {
    shlex::split(s).unwrap_or_else(|| s.split_whitespace().map(str::to_owned).collect())
}

/// The arguments of a tox `commands` line that runs pytest (`pytest ...`, `py.test ...`,
/// `python -m pytest ...`, `coverage run -m pytest ...`), after the `pytest` word.
fn pytest_argv(cmd: &str) -> Option<Vec<String>> {
    let words = split(cmd);
    let at = words.iter().enumerate().position(|(i, w)| {
        let base = w.rsplit('/').next().unwrap_or(w);
        matches!(base, "pytest" | "py.test")
            && (i == 0 || words[i - 1] == "-m" || words[..i].iter().all(|w| w.starts_with('{')))
    })?;
    Some(words[at + 1..].to_vec())
}

/// The options in `words` that exclude tests, or set the timeout.
fn args(words: &[String], line: Option<usize>, o: &mut Opts) {
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let mut take = |opt: &str| -> Option<String> {
            if w == opt {
                i += 1;
                return words.get(i).cloned();
            }
            if let Some(v) = w.strip_prefix(opt).and_then(|r| r.strip_prefix('=')) {
                return Some(v.to_owned());
            }
            // `-kEXPR`, `-mEXPR`: short options take their value glued on.
            if opt.len() == 2 && w.len() > 2 && w.starts_with(opt) {
                return Some(w[2..].to_owned());
            }
            None
        };
        let mut found = None;
        for opt in ["--deselect", "--ignore-glob", "--ignore", "-k", "-m"] {
            if let Some(v) = take(opt) {
                found = Some((opt, v));
                break;
            }
        }
        if let Some((opt, v)) = found {
            o.excl.push((opt.to_owned(), v, line));
        } else if let Some(v) = take("--timeout") {
            o.timeout = limit(&v, line);
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn cmp(form: Form, old: &str, new: &str) -> Vec<Found> {
        let added = BTreeSet::new();
        compare(form, old, new, &Ctx { added: &added }).unwrap()
    }

    #[test]
    fn options_that_drop_tests() {
        let old = "[pytest]\naddopts = -ra\n";
        for new in [
            "[pytest]\naddopts = -ra --deselect tests/a.py::t\n",
            "[pytest]\naddopts = -ra --ignore=tests/a.py\n",
            "[pytest]\naddopts = -ra\n  -k 'not slow'\n",
            "[pytest]\naddopts = -ra -m\"not net\"\n",
            "[pytest]\naddopts = -ra -knot_x\n",
        ] {
            let f = cmp(Form::PytestIni, old, new);
            assert_eq!(f.len(), 1, "{new}: {f:?}");
        }
        assert!(
            cmp(
                Form::PytestIni,
                old,
                "[pytest]\naddopts = -ra --strict-markers\n"
            )
            .is_empty()
        );
        // A directory collection no longer enters; the defaults and build output drop nothing.
        let toml = "[tool.pytest.ini_options]\nnorecursedirs = [\".*\", \"build\"]\n";
        let f = cmp(
            Form::Pyproject,
            toml,
            &toml.replace("\"build\"]", "\"build\", \"tiebreak\"]"),
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(cmp(Form::Pyproject, "", toml).is_empty());
        assert_eq!(
            cmp(
                Form::PytestIni,
                old,
                "[pytest]\naddopts = -ra\nnorecursedirs = .* slow\n"
            )
            .len(),
            1
        );
        // A filter kept as it was is not new.
        let k = "[tool:pytest]\naddopts = -k 'not a'\n";
        assert!(cmp(Form::SetupCfg, k, &format!("{k}minversion = 8\n")).is_empty());
    }

    #[test]
    fn tox_commands_and_timeouts() {
        let old = "[tox]\nenvlist = py\n[testenv]\ncommands =\n    pytest {posargs}\n";
        let new = "[tox]\nenvlist = py\n[testenv]\ncommands =\n    pytest -k 'not b' {posargs}\n";
        let f = cmp(Form::Tox, old, new);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].line, Some(5));
        let f = cmp(
            Form::Pyproject,
            "[tool.pytest.ini_options]\ntimeout = 10\n",
            "[tool.pytest.ini_options]\ntimeout = 0\n",
        );
        assert_eq!(f[0].kind, crate::accept::diff::model::Kind::TimeoutRaised);
        assert!(
            cmp(
                Form::Pyproject,
                "[tool.pytest.ini_options]\naddopts = \"--timeout=30\"\n",
                "[tool.pytest.ini_options]\naddopts = \"--timeout=10\"\n",
            )
            .is_empty()
        );
        assert!(
            compare(
                Form::Pyproject,
                "",
                "[tool",
                &Ctx {
                    added: &BTreeSet::new()
                }
            )
            .is_err()
        );
    }
}
