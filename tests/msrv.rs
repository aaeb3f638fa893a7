//! The declared `rust-version` is true (issue 24 §2): no locked crate, test dependencies
//! included, declares a newer minimum than the workspace's packages do, and, where the declared
//! toolchain is installed (`.ci/run` installs it and sets `PROBITY_REQUIRE_MSRV=1`), the whole
//! workspace checks with it, so the project's own code needs nothing newer either.

use std::process::Command;

use crate::util::repo_root;

/// `1.90` / `1.90.0` as comparable numbers.
fn version(v: &str) -> Vec<u32> {
    let mut n: Vec<u32> = v.split('.').map(|p| p.parse().unwrap()).collect();
    n.resize(3, 0);
    n
}

fn host() -> String {
    let out = Command::new("rustc").arg("-vV").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap()
        .to_owned()
}

/// Every package of the locked tree for this host: (name, version, declared rust-version).
fn locked_packages() -> Vec<(String, String, Option<String>)> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--locked", "--format-version", "1"])
        .args(["--filter-platform", &host()])
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    m["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["version"].as_str().unwrap().to_owned(),
                p["rust_version"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// The `rust-version` the workspace's own packages declare (they must agree).
fn declared(packages: &[(String, String, Option<String>)]) -> String {
    let ours: Vec<&Option<String>> = packages
        .iter()
        .filter(|(n, _, _)| n == "probity" || n == "probity-node")
        .map(|(_, _, rv)| rv)
        .collect();
    assert_eq!(ours.len(), 2, "both workspace packages are in the tree");
    assert_eq!(
        ours[0], ours[1],
        "probity and probity-node declare one rust-version"
    );
    ours[0]
        .clone()
        .expect("the workspace declares a rust-version")
}

#[test]
fn no_locked_crate_needs_a_newer_rust_than_declared() {
    let packages = locked_packages();
    assert!(packages.len() > 100, "only {} packages", packages.len());
    let ours = declared(&packages);
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|(n, v, rv)| {
            let rv = rv.as_deref()?;
            (version(rv) > version(&ours)).then(|| format!("{n} {v} needs {rv}"))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "rust-version = \"{ours}\" is untrue with --locked: {newer:?}"
    );
    // And it is the minimum the tree allows, not a guess below it: some locked crate needs it.
    let floor = packages
        .iter()
        .filter(|(n, _, _)| n != "probity" && n != "probity-node")
        .filter_map(|(_, _, rv)| rv.as_deref())
        .map(version)
        .max()
        .unwrap();
    assert_eq!(
        version(&ours),
        floor,
        "rust-version = \"{ours}\" is above every locked crate's; say why in Cargo.toml or lower it"
    );
}

#[test]
fn the_workspace_checks_with_the_declared_toolchain() {
    let ours = declared(&locked_packages());
    let toolchain = format!("{ours}.0");
    let installed = Command::new("rustup")
        .args(["run", &toolchain, "rustc", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        assert!(
            std::env::var_os("PROBITY_REQUIRE_MSRV").is_none(),
            "PROBITY_REQUIRE_MSRV is set but toolchain {toolchain} is not installed"
        );
        eprintln!("toolchain {toolchain} not installed: only the declared versions were checked");
        return;
    }
    let out = Command::new("rustup")
        .args([
            "run",
            &toolchain,
            "cargo",
            "check",
            "--locked",
            "--workspace",
        ])
        .args(["--all-targets", "--quiet"])
        .env("CARGO_TARGET_DIR", repo_root().join("target/msrv"))
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO")
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the workspace does not check with Rust {toolchain}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
