//! Tests excluded, and timeouts raised, by configuration (issue 27): the changed files that
//! configure a test runner, parsed (never grepped) on both sides, their settings compared.
//! `pytest`'s ini/toml/cfg/tox files and `conftest.py` hooks, jest/vitest config files and
//! `package.json`, mocha's `.mocharc.*`, `Cargo.toml` test targets, Rust `#[cfg]` gates that `cargo test` never
//! compiles (`config/*.rs`). A finding is `flag` (these shapes delete no code line, so the net of
//! units does not apply), `review` where the reader says why (a target or file the same diff
//! adds, a timeout raised by at most 2x). A configuration file that does not parse on its new
//! side is a `not_analyzed` finding (`config_unparsable`, or the file's own reason: too large,
//! not UTF-8...): a diff never passes on a configuration it could not read.

mod cargo;
mod conftest;
mod ini;
mod item;
mod js;
mod pytest;
mod rust;

use std::collections::{BTreeMap, BTreeSet};

use self::item::{Ctx, Found};
use super::git::Change;
use super::model::{EXCERPT_LINE_CHARS, FileReport, Finding, Kind, Net, Severity};
use crate::error::Result;
use crate::reason::Reason;

/// A path's bytes on the new side, or why they cannot be read (`file_too_large`).
pub(super) type ReadNew<'a> = &'a dyn Fn(&[u8]) -> Result<std::result::Result<Vec<u8>, Reason>>;

/// How to read a file's two versions (the diff's old and new side; empty when it is not there).
pub(super) struct Versions<'a> {
    /// The old side's bytes of a path.
    pub(super) old: &'a dyn Fn(&[u8]) -> Result<Vec<u8>>,
    /// The new side's bytes of a path, or why they cannot be read (`file_too_large`).
    pub(super) new: ReadNew<'a>,
    /// The new side's file names (repository-relative) under a folder.
    pub(super) list: &'a dyn Fn(&str) -> Result<Vec<Vec<u8>>>,
}

/// What reads a changed file.
#[derive(Clone, Copy)]
enum Reader {
    Pytest(pytest::Form),
    Js(js::Form),
    Cargo,
    Conftest,
    Rust,
}

impl Reader {
    fn of(path: &str) -> Option<Reader> {
        let base = path.rsplit('/').next().unwrap_or(path);
        if let Some(f) = pytest::Form::of(base) {
            return Some(Reader::Pytest(f));
        }
        if let Some(f) = js::Form::of(base) {
            return Some(Reader::Js(f));
        }
        Some(match base {
            "Cargo.toml" => Reader::Cargo,
            "conftest.py" => Reader::Conftest,
            _ if base.ends_with(".rs") => Reader::Rust,
            _ => return None,
        })
    }

    /// The format a file no grammar reads is reported in (`files[].language`).
    fn format(self) -> Option<&'static str> {
        match self {
            Reader::Pytest(pytest::Form::Pyproject) | Reader::Cargo => Some("toml"),
            Reader::Pytest(_) => Some("ini"),
            Reader::Js(js::Form::Package | js::Form::MochaJson) => Some("json"),
            _ => None,
        }
    }
}

/// The findings of the configuration files among `changes` (`files[i]` is `changes[i]`'s
/// report; the reports of configuration files no grammar reads are updated: `language` their
/// format, `analyzed`, `skip_reason`).
pub(super) fn analyze(
    v: &Versions<'_>,
    changes: &[Change],
    files: &mut [FileReport],
    diff_units: i64,
) -> Result<Vec<Finding>> {
    let added: BTreeSet<String> = changes
        .iter()
        .filter(|c| c.status == 'A')
        .filter_map(|c| c.new.as_deref().and_then(|n| std::str::from_utf8(n).ok()))
        .map(str::to_owned)
        .collect();
    let ctx = Ctx { added: &added };
    let mut manifests: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut out = Vec::new();
    for (ch, fr) in changes.iter().zip(files.iter_mut()) {
        let Some(name) = ch.new.as_deref() else {
            continue;
        };
        let Ok(path) = std::str::from_utf8(name) else {
            continue;
        };
        let Some(reader) = Reader::of(path) else {
            continue;
        };
        // A file the detector reads as code that it refused is already `not_analyzed`.
        if fr.language.is_some() && !fr.analyzed {
            continue;
        }
        let format = reader.format();
        let new = match (v.new)(name)? {
            Ok(b) => crate::source::validate(&b).map(|()| b),
            Err(r) => Err(r),
        };
        let new = match new {
            Ok(b) => String::from_utf8(b).unwrap_or_default(),
            Err(reason) => {
                if format.is_some() {
                    fr.language = format;
                    fr.skip_reason = Some(reason);
                }
                out.push(not_analyzed(fr, reason, diff_units));
                continue;
            }
        };
        let old = match ch.old.as_deref() {
            Some(p) => {
                let b = (v.old)(p)?;
                match crate::source::validate(&b) {
                    Ok(()) => String::from_utf8(b).unwrap_or_default(),
                    Err(_) => String::new(),
                }
            }
            None => String::new(),
        };
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        let found = match reader {
            Reader::Pytest(form) => pytest::compare(form, &old, &new, &ctx),
            Reader::Js(form) => js::compare(form, path, &old, &new),
            Reader::Cargo => {
                let exists = |rel: &str| {
                    let p = cargo::join(dir, rel);
                    matches!((v.new)(p.as_bytes()), Ok(Ok(b)) if !b.is_empty())
                };
                let tests_dir = cargo::join(dir, "tests");
                let tests: Vec<String> = (v.list)(&tests_dir)?
                    .iter()
                    .filter_map(|n| std::str::from_utf8(n).ok())
                    .filter_map(|n| n.strip_prefix(&format!("{tests_dir}/")).map(str::to_owned))
                    .collect();
                cargo::compare(&old, &new, &ctx, dir, &exists, &tests)
            }
            Reader::Conftest => Ok(conftest::compare(&old, &new)),
            Reader::Rust if new.contains("cfg") => {
                let features = if new.contains("feature") {
                    features_for(v, dir, &mut manifests)?
                } else {
                    None
                };
                Ok(rust::compare(&old, &new, features.as_ref()))
            }
            Reader::Rust => Ok(Vec::new()),
        };
        if format.is_some() {
            fr.language = format;
            fr.analyzed = found.is_ok();
            fr.skip_reason = found.is_err().then_some(Reason::ConfigUnparsable);
        }
        match found {
            Ok(found) => out.extend(found.into_iter().map(|f| finding(fr, &new, f, diff_units))),
            Err(()) => out.push(not_analyzed(fr, Reason::ConfigUnparsable, diff_units)),
        }
    }
    Ok(out)
}

/// The features defined by the manifest of the package `dir` is in: the nearest `Cargo.toml` at
/// or above `dir` on the new side (`None`: none found, or not TOML; then no feature is judged).
fn features_for(
    v: &Versions<'_>,
    dir: &str,
    cache: &mut BTreeMap<String, Option<BTreeSet<String>>>,
) -> Result<Option<BTreeSet<String>>> {
    let mut d = dir.to_owned();
    loop {
        if let Some(hit) = cache.get(&d) {
            return Ok(hit.clone());
        }
        let manifest = cargo::join(&d, "Cargo.toml");
        if let Ok(bytes) = (v.new)(manifest.as_bytes())?
            && !bytes.is_empty()
        {
            let f = std::str::from_utf8(&bytes).ok().and_then(cargo::features);
            cache.insert(d, f.clone());
            return Ok(f);
        }
        if d.is_empty() {
            return Ok(None);
        }
        d = d
            .rsplit_once('/')
            .map_or(String::new(), |(p, _)| p.to_owned());
    }
}

/// A reader's result as a finding of `file`.
fn finding(file: &FileReport, new: &str, f: Found, diff_units: i64) -> Finding {
    let excerpt = f
        .line
        .and_then(|l| new.lines().nth(l - 1))
        .map(|l| l.chars().take(EXCERPT_LINE_CHARS).collect())
        .unwrap_or_default();
    let (severity, detail) = match f.review {
        None => (Severity::Flag, f.detail),
        Some(why) => (Severity::Review, format!("{} (review: {why})", f.detail)),
    };
    Finding {
        file: file.path.clone(),
        file_bytes: file.path_bytes.clone(),
        kind: f.kind,
        old_lines: None,
        new_lines: f.line.map(|l| [l, l]),
        excerpt,
        detail,
        severity,
        net: Net::diff_only(diff_units),
    }
}

/// A configuration file that could not be read: flags, as every `not_analyzed`.
fn not_analyzed(file: &FileReport, reason: Reason, diff_units: i64) -> Finding {
    Finding {
        file: file.path.clone(),
        file_bytes: file.path_bytes.clone(),
        kind: Kind::NotAnalyzed,
        old_lines: None,
        new_lines: None,
        excerpt: String::new(),
        detail: format!(
            "configuration not analyzed ({}): {}; review it by hand",
            reason.code(),
            reason.describe()
        ),
        severity: Severity::Flag,
        net: Net::diff_only(diff_units),
    }
}
