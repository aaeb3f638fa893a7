//! `Cargo.toml` (read with the `toml` crate): test targets switched off. An exclusion is
//! `autotests = false` set on a package that had it on while a file Cargo would have found by
//! itself (`tests/*.rs`, `tests/*/main.rs`) is no `[[test]]` target of the new manifest (the
//! manifest `cargo package` writes sets `autotests = false` and lists every target: nothing is
//! excluded), `test = false` set on a target (`[lib]`,
//! `[[bin]]`, `[[test]]`) whose old version ran its tests, and a `[[test]]` target removed while its
//! source file stays in the package and Cargo would not find it by itself (`autotests = false`, or
//! a path outside `tests/<name>.rs` / `tests/<name>/main.rs`), and `required-features` put on a
//! target with a feature `default` does not enable (a plain `cargo test` skips the target;
//! `review` for a target the diff adds). The features a manifest defines
//! (for `rust`'s feature gates) are read here too.

use std::collections::BTreeSet;

use super::item::{Ctx, Found, excluded, line_of};

/// One target: `(kind, name, path, test = false, required-features)`.
type Target = (&'static str, String, Option<String>, bool, Vec<String>);

/// What one version of a manifest says about tests.
struct Manifest {
    autotests: bool,
    targets: Vec<Target>,
    /// The `default` feature's list.
    default: Vec<String>,
}

fn read(text: &str) -> Result<Manifest, ()> {
    let t: toml::Table = text.parse().map_err(|_| ())?;
    let package = t.get("package");
    let autotests = package
        .and_then(|p| p.get("autotests"))
        .and_then(toml::Value::as_bool)
        .unwrap_or(true);
    let pkg_name = package
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .unwrap_or("lib")
        .replace('-', "_");
    let mut targets = Vec::new();
    let target = |kind: &'static str, v: &toml::Value, default: &str| -> Target {
        let s = |k: &str| v.get(k).and_then(toml::Value::as_str).map(str::to_owned);
        let off = v.get("test").and_then(toml::Value::as_bool) == Some(false);
        (
            kind,
            s("name").unwrap_or_else(|| default.to_owned()),
            s("path"),
            off,
            strings(v.get("required-features")),
        )
    };
    if let Some(lib) = t.get("lib") {
        targets.push(target("lib", lib, &pkg_name));
    }
    for kind in ["bin", "test"] {
        let kind: &'static str = kind;
        for v in t
            .get(kind)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            targets.push(target(kind, v, ""));
        }
    }
    let default = strings(t.get("features").and_then(|f| f.get("default")));
    Ok(Manifest {
        autotests,
        targets,
        default,
    })
}

/// A TOML array's strings (nothing when it is not one).
fn strings(v: Option<&toml::Value>) -> Vec<String> {
    v.and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_owned))
        .collect()
}

/// The exclusions `new` has that `old` did not; `Err(())` when `new` is not TOML (an `old` that
/// is not counts as a manifest with no settings). `exists` says whether a path (relative to the
/// manifest's folder) is a file in the new version; `tests` lists the new version's files under
/// the package's `tests/` (relative to it).
pub(super) fn compare(
    old: &str,
    new: &str,
    ctx: &Ctx<'_>,
    dir: &str,
    exists: &dyn Fn(&str) -> bool,
    tests: &[String],
) -> Result<Vec<Found>, ()> {
    let n = read(new)?;
    let o = read(old).unwrap_or(Manifest {
        autotests: true,
        targets: Vec::new(),
        default: Vec::new(),
    });
    let mut out = Vec::new();
    if o.autotests && !n.autotests {
        let listed = |file: &str| {
            n.targets.iter().any(|t| {
                t.0 == "test"
                    && t.2.as_deref().map_or_else(
                        || file == format!("{}.rs", t.1) || file == format!("{}/main.rs", t.1),
                        |p| p.strip_prefix("tests/") == Some(file),
                    )
            })
        };
        let dropped: Vec<&String> = tests
            .iter()
            .filter(|f| {
                let parts: Vec<&str> = f.split('/').collect();
                matches!(parts.as_slice(), [one] if one.ends_with(".rs"))
                    || matches!(parts.as_slice(), [_, "main.rs"])
            })
            .filter(|f| !listed(f))
            .collect();
        if let Some(first) = dropped.first() {
            let more = match dropped.len() {
                1 => String::new(),
                k => format!(" and {} more", k - 1),
            };
            out.push(excluded(
                &format!("Cargo.toml `autotests = false`: tests/{first}{more} no longer built"),
                line_of(new, "autotests", 1),
            ));
        }
    }
    for t in n.targets.iter().filter(|t| t.3) {
        let before = o.targets.iter().find(|b| b.0 == t.0 && b.1 == t.1);
        if before.is_some_and(|b| b.3) {
            continue;
        }
        let mut f = excluded(
            &format!("Cargo.toml `test = false` on the {} target `{}`", t.0, t.1),
            line_of(new, "test = false", 1).or(line_of(new, "test=false", 1)),
        );
        // A `[[test]]` target added over a file Cargo found by itself before (`tests/x.rs`)
        // switches that file's tests off.
        let auto_found = t.0 == "test" && o.autotests && {
            let path = t.2.clone().unwrap_or_else(|| format!("tests/{}.rs", t.1));
            path.strip_prefix("tests/")
                .is_some_and(|f| !f.contains('/') && tests.iter().any(|x| x == f))
                && !ctx.adds(&join(dir, &path))
        };
        if before.is_none() && t.0 != "lib" && !auto_found {
            f.review = Some("the target is added by the same diff");
        }
        out.push(f);
    }
    // `required-features` a plain `cargo test` does not enable: the target is skipped.
    for t in n.targets.iter().filter(|t| !t.3) {
        let before = o.targets.iter().find(|b| b.0 == t.0 && b.1 == t.1);
        let had = before.map_or(&[][..], |b| b.4.as_slice());
        let gated: Vec<&String> =
            t.4.iter()
                .filter(|x| !had.contains(x) && !n.default.contains(x))
                .collect();
        let Some(first) = gated.first() else { continue };
        let mut f = excluded(
            &format!(
                "Cargo.toml `required-features` {first:?} on the {} target `{}`: `cargo test` skips it unless the feature is enabled",
                t.0, t.1
            ),
            line_of(new, "required-features", 1),
        );
        if before.is_none() {
            f.review = Some("the target is added by the same diff");
        }
        out.push(f);
    }
    for t in o.targets.iter().filter(|t| t.0 == "test" && !t.3) {
        if n.targets.iter().any(|b| b.0 == "test" && b.1 == t.1) {
            continue;
        }
        let path = t.2.clone().unwrap_or_else(|| format!("tests/{}.rs", t.1));
        let auto = path == format!("tests/{}.rs", t.1) || path == format!("tests/{}/main.rs", t.1);
        if (!n.autotests || !auto) && exists(&path) && !ctx.adds(&join(dir, &path)) {
            out.push(excluded(
                &format!("Cargo.toml `[[test]]` `{}` removed while {path} stays", t.1),
                None,
            ));
        }
    }
    Ok(out)
}

/// `dir/path` (`path` when `dir` is empty).
pub(super) fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() {
        path.to_owned()
    } else {
        format!("{dir}/{path}")
    }
}

/// The features a manifest defines: its `[features]` keys and its optional dependencies (each an
/// implicit feature); `None` when it is not TOML.
pub(super) fn features(text: &str) -> Option<BTreeSet<String>> {
    let t: toml::Table = text.parse().ok()?;
    let mut out: BTreeSet<String> = t
        .get("features")
        .and_then(toml::Value::as_table)
        .map(|f| f.keys().cloned().collect())
        .unwrap_or_default();
    let deps = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut tables: Vec<&toml::Table> = deps
        .iter()
        .filter_map(|d| t.get(*d).and_then(toml::Value::as_table))
        .collect();
    for target in t.get("target").and_then(toml::Value::as_table).into_iter() {
        for cfg in target.values() {
            tables.extend(
                deps.iter()
                    .filter_map(|d| cfg.get(*d).and_then(toml::Value::as_table)),
            );
        }
    }
    for table in tables {
        for (name, spec) in table {
            if spec.get("optional").and_then(toml::Value::as_bool) == Some(true) {
                out.insert(name.clone());
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str =
        "[package]\nname = \"a\"\n\n[[test]]\nname = \"rep\"\npath = \"tests/rep.rs\"\n";

    fn cmp(old: &str, new: &str) -> Vec<Found> {
        let added = BTreeSet::new();
        let tests = ["rep.rs".to_owned(), "common/mod.rs".to_owned()];
        let exists = |p: &str| p.starts_with("tests/");
        compare(old, new, &Ctx { added: &added }, "", &exists, &tests).unwrap()
    }

    #[test]
    fn targets_switched_off() {
        assert_eq!(cmp(BASE, &format!("{BASE}test = false\n")).len(), 1);
        let off = BASE.replace("name = \"a\"\n", "name = \"a\"\nautotests = false\n");
        let gone = off.replace("[[test]]\nname = \"rep\"\npath = \"tests/rep.rs\"\n", "");
        assert_eq!(cmp(BASE, &gone).len(), 2, "{gone}");
        // A target removed that Cargo still finds by itself is not excluded.
        let auto = BASE.replace("[[test]]\nname = \"rep\"\npath = \"tests/rep.rs\"\n", "");
        assert!(cmp(BASE, &auto).is_empty());
        // `cargo package`'s manifest: autotests off, every target listed.
        let packaged = BASE.replace("name = \"a\"\n", "name = \"a\"\nautotests = false\n");
        assert!(cmp(BASE, &packaged).is_empty());
        // A feature required that `cargo test` does not enable; one it enables by default.
        let gated = format!("{BASE}required-features = [\"pg\"]\n");
        assert_eq!(cmp(BASE, &gated).len(), 1, "{gated}");
        let on = format!("{gated}\n[features]\ndefault = [\"pg\"]\npg = []\n");
        assert!(cmp(BASE, &on).is_empty());
        assert!(cmp(&gated, &gated).is_empty());
        // A dependency added is not an exclusion.
        assert!(cmp(BASE, &format!("{BASE}\n[dependencies]\nx = \"1\"\n")).is_empty());
    }

    #[test]
    fn features_defined_and_implicit() {
        let f = features(
            "[features]\nfast = []\n[dependencies]\nserde = { version = \"1\", optional = true }\n",
        )
        .unwrap();
        assert!(f.contains("fast") && f.contains("serde"));
        assert!(features("[features").is_none());
    }
}
