//! Issue 21, classes 2, 3, 11 and 12: the shared probe runtime and the capture root live only
//! where no one else can rename or plant entries (a hostile co-tenant with a second uid tries),
//! `probity env` output is safe to `eval` whatever TMPDIR holds, secrets inside `sh -c` strings
//! are masked in `reproduction_ref`, and the per-session values key exists only while a run can
//! record values, a planted one never keying `values_sha256`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::*;

const APP: &str = "def branch(flag):\n    value = flag * 2\n    return value\n\nbranch(21)\n";

/// The `probity` binary (`CARGO_BIN_EXE_probity` when set at run time: a test can be pointed at
/// another build).
fn bin() -> PathBuf {
    std::env::var_os("CARGO_BIN_EXE_probity").map_or_else(probity_bin, PathBuf::from)
}

/// `probity <args> --json` in `dir` with `envs` set (a `None` value removes the variable).
fn cli(dir: &Path, envs: &[(&str, Option<&Path>)], args: &[&str]) -> (i32, Value) {
    let mut args: Vec<&str> = args.to_vec();
    let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
    args.insert(at, "--json");
    let mut cmd = probity();
    cmd.current_dir(dir).args(&args);
    for (k, v) in envs {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    run_json(&mut cmd)
}

/// A repository with `app.py`, a session `rt` and a probe `p-main` capturing `value` (42).
fn session_repo(envs: &[(&str, Option<&Path>)]) -> Repo {
    let r = Repo::new();
    r.write("app.py", APP);
    let (code, v) = cli(
        r.path(),
        envs,
        &["session", "init", "--slug", "rt", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = cli(
        r.path(),
        envs,
        &[
            "place",
            "app.py",
            "--line",
            "3",
            "--slug",
            "rt",
            "--probe",
            "p-main",
            "--hypothesis",
            "h1",
            "--message",
            "state",
            "--capture",
            "value=value",
        ],
    );
    assert_eq!(code, 0, "{v}");
    r
}

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn ledger_of(r: &Repo) -> Value {
    serde_json::from_slice(&std::fs::read(session_ledger(r.path(), "rt")).unwrap()).unwrap()
}

/// A folder everyone may write to, without the sticky bit (0777), inside a folder others can
/// reach (0755); the outer temp dir is returned to keep it alive.
fn world_writable() -> (tempfile::TempDir, PathBuf) {
    let base = tempfile::tempdir().unwrap();
    chmod(base.path(), 0o755);
    let ww = base.path().join("ww");
    std::fs::create_dir(&ww).unwrap();
    chmod(&ww, 0o777);
    (base, ww)
}

/// The command prefix that runs a program as a second, unprivileged uid (nobody), when this
/// test can get one (it runs as root and `setpriv` exists).
fn as_other_user() -> Option<Vec<String>> {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|p| Path::new(p).exists())?;
    root.then(|| {
        [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
            .map(str::to_owned)
            .to_vec()
    })
}

/// Class 2. With a TMPDIR others can write to (0777, no sticky bit), a second uid renames the
/// capture root aside during `probity run` and plants its own `run-N-runtime.py` / `.cjs`
/// (either by the path the probes are given or by the `probity-*` names in TMPDIR), which would
/// create a marker file if the probed program executed it. Before, the root was in that TMPDIR
/// and the program ran the planted runtime with the victim's uid; now the root is in a private
/// folder (`$XDG_RUNTIME_DIR` here), the planted file is never loaded, and the run observes the
/// real runtime's event. Without a second uid the same run checks the location alone.
#[test]
fn the_capture_root_never_lives_in_a_folder_others_can_rename_in() {
    let (base, ww) = world_writable();
    let xdg = tempfile::tempdir().unwrap();
    let envs = [
        ("TMPDIR", Some(ww.as_path())),
        ("XDG_RUNTIME_DIR", Some(xdg.path())),
    ];
    let r = session_repo(&envs);
    let marker = base.path().join("MARKER");
    let m = marker.display().to_string();
    let planted_py = format!("open({m:?}, 'w').write('pwned')\n");
    let planted_js = format!("require('fs').writeFileSync({m:?}, 'pwned')\n");
    // The attacker knows the runtime's name from the probes' environment; it cannot list the
    // 0700 root, and renames the folder holding it (or any `probity-*` in TMPDIR) aside.
    let attack = "cd / || exit 0; stem=$(basename \"$GSD_DEBUG_PROBE_RUNTIME\"); \
        for d in \"$(dirname \"$GSD_DEBUG_PROBE_RUNTIME\")\" \"$TMPDIR\"/probity-*; do \
          [ -d \"$d\" ] || continue; [ -O \"$d\" ] && continue; \
          mv \"$d\" \"$d.aside\" 2>/dev/null || continue; \
          mkdir \"$d\" && printf %s \"$PY\" > \"$d/$stem.py\" && printf %s \"$JS\" > \"$d/$stem.cjs\"; \
          chmod -R a+rwx \"$d\"; \
        done; exit 0";
    let other = as_other_user();
    let script = match &other {
        Some(prefix) => format!(
            "{} sh -c '{}'; exec python3 app.py",
            prefix.join(" "),
            attack.replace('\'', r"'\''")
        ),
        None => "exec python3 app.py".to_owned(),
    };
    let mut cmd = probity();
    cmd.current_dir(r.path())
        .env("TMPDIR", &ww)
        .env("XDG_RUNTIME_DIR", xdg.path())
        .env("PY", &planted_py)
        .env("JS", &planted_js)
        .args([
            "run", "--slug", "rt", "--phase", "baseline", "--json", "--", "sh", "-c",
        ])
        .arg(&script);
    let (_, v) = run_json(&mut cmd);
    assert!(
        !marker.exists(),
        "the probed program executed a runtime another user planted: {v}"
    );
    let l = ledger_of(&r);
    let root = l["artifact_root"]["canonical_path"]
        .as_str()
        .unwrap_or_default();
    let xdg_c = xdg.path().canonicalize().unwrap();
    assert!(
        Path::new(root).starts_with(&xdg_c),
        "the capture root is not in the private folder: {root}"
    );
    assert_eq!(
        entries(&ww),
        Vec::<String>::new(),
        "nothing in the unsafe TMPDIR"
    );
    assert_eq!(
        data(&v)["run"]["observations"]["p-main"]["verdict"],
        "observed",
        "the probe loaded probity's runtime: {v}"
    );
    let (code, v) = cli(r.path(), &envs, &["cleanup", "--slug", "rt"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        entries(xdg.path()),
        Vec::<String>::new(),
        "cleanup removed the root"
    );
}

/// Class 2, the fallbacks and the refusal: with an unsafe TMPDIR and no `$XDG_RUNTIME_DIR`, the
/// root goes into `probity/tmp` of the user's cache folder (0700); when that is unsafe too the
/// run is refused (`unsafe_temp_dir`) and the ledger is left as it was.
#[test]
fn with_no_private_folder_a_run_is_refused_unsafe_temp_dir() {
    let (_base, ww) = world_writable();
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("cache");
    let envs = [
        ("TMPDIR", Some(ww.as_path())),
        ("XDG_RUNTIME_DIR", None),
        ("HOME", Some(home.path())),
        ("XDG_CACHE_HOME", Some(cache.as_path())),
    ];
    let r = session_repo(&envs);
    let run = |envs: &[(&str, Option<&Path>)]| {
        cli(
            r.path(),
            envs,
            &[
                "run", "--slug", "rt", "--phase", "baseline", "--", "python3", "app.py",
            ],
        )
    };
    let (code, v) = run(&envs);
    assert_eq!(code, 0, "{v}");
    let root = ledger_of(&r)["artifact_root"]["canonical_path"]
        .as_str()
        .unwrap()
        .to_owned();
    let private = cache.canonicalize().unwrap().join("probity/tmp");
    assert!(Path::new(&root).starts_with(&private), "{root}");
    let mode = std::fs::metadata(&private).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    assert_eq!(entries(&ww), Vec::<String>::new());
    let (code, v) = cli(r.path(), &envs, &["cleanup", "--slug", "rt"]);
    assert_eq!(code, 0, "{v}");

    // A cache folder inside a world-writable folder is no private place either.
    let r = session_repo(&envs);
    let (_base2, ww2) = world_writable();
    let envs = [
        ("TMPDIR", Some(ww.as_path())),
        ("XDG_RUNTIME_DIR", None),
        ("HOME", Some(ww2.as_path())),
        ("XDG_CACHE_HOME", None),
    ];
    let before = std::fs::read(session_ledger(r.path(), "rt")).unwrap();
    let (code, v) = cli(
        r.path(),
        &envs,
        &[
            "run", "--slug", "rt", "--phase", "baseline", "--", "python3", "app.py",
        ],
    );
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "unsafe_temp_dir", "{v}");
    assert_eq!(
        std::fs::read(session_ledger(r.path(), "rt")).unwrap(),
        before
    );
    assert_eq!(entries(&ww), Vec::<String>::new());
}

/// Class 2, a recorded root: a ledger is untrusted, and a temp dir can be opened to others after
/// the root was made. A run re-checks the recorded root's folder; one that is no longer private
/// is not used (the empty root is removed and a new one made in a private folder).
#[test]
fn a_recorded_capture_root_in_a_folder_others_can_write_is_not_used() {
    let base = tempfile::tempdir().unwrap();
    chmod(base.path(), 0o755);
    let tmp = base.path().join("t");
    std::fs::create_dir(&tmp).unwrap();
    chmod(&tmp, 0o700);
    let xdg = tempfile::tempdir().unwrap();
    let envs = [
        ("TMPDIR", Some(tmp.as_path())),
        ("XDG_RUNTIME_DIR", Some(xdg.path())),
    ];
    let r = session_repo(&envs);
    let run = || {
        cli(
            r.path(),
            &envs,
            &[
                "run", "--slug", "rt", "--phase", "baseline", "--", "python3", "app.py",
            ],
        )
    };
    let (code, v) = run();
    assert_eq!(code, 0, "{v}");
    let first = ledger_of(&r)["artifact_root"]["canonical_path"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(Path::new(&first).starts_with(tmp.canonicalize().unwrap()));
    chmod(&tmp, 0o777);
    let (code, v) = run();
    assert_eq!(code, 0, "{v}");
    let second = ledger_of(&r)["artifact_root"]["canonical_path"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        Path::new(&second).starts_with(xdg.path().canonicalize().unwrap()),
        "the run used a root in a folder others can write: {second}"
    );
    assert_eq!(
        entries(&tmp),
        Vec::<String>::new(),
        "the old root was removed"
    );
    let (code, v) = cli(r.path(), &envs, &["cleanup", "--slug", "rt"]);
    assert_eq!(code, 0, "{v}");
}

/// The shells installed here that evaluate POSIX `export` lines.
fn posix_shells() -> Vec<String> {
    ["sh", "dash", "bash", "zsh", "ksh", "mksh"]
        .into_iter()
        .filter(|s| {
            Command::new("sh")
                .args(["-c", &format!("command -v {s} >/dev/null")])
                .status()
                .is_ok_and(|st| st.success())
        })
        .map(str::to_owned)
        .collect()
}

/// Class 3. A TMPDIR holding a newline and a command: `eval "$(probity env ...)"` (and of `run
/// start`) in every POSIX shell here runs nothing (no `PWNED` file), and the variables it sets
/// hold exactly the values `--json` reports. Before, the `# the runtime is in ...` comment
/// printed the folder raw, and its second line ran as a command.
#[test]
fn probity_env_output_is_safe_to_eval_with_a_hostile_tmpdir() {
    let base = tempfile::tempdir().unwrap();
    let tmp = base.path().join("x\ntouch PWNED\n");
    std::fs::create_dir(&tmp).unwrap();
    let work = base.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let envs = [("TMPDIR", Some(tmp.as_path()))];
    let r = session_repo(&envs);
    // A ledger without a session, for the `# the runtime is in ...` comment.
    r.write("b.py", APP);
    let (code, v) = r.place("b.py", "p-x", &["--line", "3"]);
    assert_eq!(code, 0, "{v}");
    let human = |args: &[&str]| {
        let out = Command::new(bin())
            .current_dir(r.path())
            .env("TMPDIR", &tmp)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let ledger = r.ledger().display().to_string();
    let outputs = [
        human(&["env", "--ledger", &ledger]),
        human(&["env", "--slug", "rt"]),
        human(&[
            "run", "start", "--slug", "rt", "--phase", "baseline", "--label", "by hand",
        ]),
    ];
    for text in &outputs {
        let wanted: Vec<(String, String)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("export "))
            .filter_map(|l| l.split_once('='))
            .map(|(k, _)| (k.to_owned(), String::new()))
            .collect();
        assert!(!wanted.is_empty(), "{text}");
        for shell in posix_shells() {
            let names: Vec<&str> = wanted.iter().map(|(k, _)| k.as_str()).collect();
            let print: String = names
                .iter()
                .map(|k| format!("printf '%s\\0' \"${k}\"; "))
                .collect();
            let out = Command::new(&shell)
                .current_dir(&work)
                .args(["-c", &format!("eval \"$1\"; {print}"), "sh", text])
                .output()
                .unwrap();
            assert!(
                !work.join("PWNED").exists() && !r.path().join("PWNED").exists(),
                "{shell}: eval ran text from TMPDIR: {text:?}"
            );
            let got: Vec<&str> = std::str::from_utf8(&out.stdout)
                .unwrap()
                .split('\0')
                .filter(|s| !s.is_empty())
                .collect();
            assert_eq!(got.len(), names.len(), "{shell}: {out:?}");
            for (k, value) in names.iter().zip(got) {
                if *k == "GSD_DEBUG_PROBE_RUNTIME" {
                    assert!(
                        Path::new(&format!("{value}.py")).is_file(),
                        "{shell}: {k}={value:?}"
                    );
                    assert!(value.contains("\ntouch PWNED\n"), "{shell}: {value:?}");
                }
            }
        }
    }
    // The values are exactly those the JSON answer names.
    let (code, v) = cli(r.path(), &envs, &["env", "--slug", "rt"]);
    assert_eq!(code, 0, "{v}");
    let text = human(&["env", "--slug", "rt"]);
    let want = data(&v)["exports"]["GSD_DEBUG_PROBE_RUNTIME"]
        .as_str()
        .unwrap();
    let out = Command::new("sh")
        .args([
            "-c",
            "eval \"$1\"; printf %s \"$GSD_DEBUG_PROBE_RUNTIME\"",
            "sh",
            &text,
        ])
        .output()
        .unwrap();
    let got = String::from_utf8(out.stdout).unwrap();
    // Each `env` writes a fresh runtime (`env-K-runtime`): same folder, the next K.
    assert_eq!(
        Path::new(&got).parent(),
        Path::new(want).parent(),
        "{got:?} vs {want:?}"
    );
    assert!(Path::new(&format!("{got}.py")).is_file(), "{got:?}");
    let (code, v) = cli(r.path(), &envs, &["cleanup", "--slug", "rt"]);
    assert_eq!(code, 0, "{v}");
    for e in entries(&tmp) {
        let _ = std::fs::remove_dir_all(tmp.join(e));
    }
}

/// Class 11. Secrets inside the command string of `sh -c` (and `bash -lc`, `-ec`, `env ... sh
/// -c`, a nested `sh -c`) are masked in `reproduction_ref` with the rules of top-level argv,
/// the options `--pass`, `--passphrase`, `-u user:S` and `-pS` included; a string that does not
/// parse is masked whole; a string without secrets is kept as it was.
#[test]
fn secrets_inside_sh_c_strings_are_masked() {
    let r = Repo::new();
    let (code, v) = probity_json(
        r.path(),
        &["session", "init", "--slug", "rx", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let run = |argv: &[&str]| {
        let mut args = vec!["run", "--slug", "rx", "--phase", "baseline", "--"];
        args.extend_from_slice(argv);
        let (_, v) = probity_json(r.path(), &args);
        data(&v)["run"]["reproduction_ref"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"))
            .to_owned()
    };
    let has = |s: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {s} >/dev/null")])
            .status()
            .is_ok_and(|st| st.success())
    };
    let mut cases: Vec<Vec<String>> = Vec::new();
    let mut add = |argv: &[&str]| cases.push(argv.iter().map(|s| s.to_string()).collect());
    add(&["sh", "-c", "true app.py --token hunter2a"]);
    add(&["sh", "-c", "true app.py --password=hunter2b"]);
    add(&["sh", "-c", "true app.py --api-key hunter2c"]);
    add(&["sh", "-c", "true app.py --passphrase hunter2d"]);
    add(&["sh", "-c", "true app.py --pass hunter2e"]);
    add(&["sh", "-c", "true -u user:hunter2f https://example.invalid"]);
    add(&["sh", "-c", "true -phunter2g db"]);
    add(&["sh", "-ec", "true --token 'hunter2h' && true"]);
    add(&["/bin/sh", "-xc", "TOKEN=hunter2i true"]);
    add(&["env", "A=1", "sh", "-c", "true --token=\"hunter2j\""]);
    add(&["sh", "-c", "sh -c 'true --token hunter2k'"]);
    add(&["sh", "-c", "true \"--token hunter2l"]);
    add(&["sh", "-c", "true --token hunter2m;true"]);
    add(&["sh", "-c", "true -H 'Authorization: Bearer hunter2n'"]);
    add(&["sh", "-o", "errexit", "-c", "true --token hunter2o"]);
    if has("bash") {
        add(&["bash", "-lc", "true --token hunter2p"]);
    }
    if has("dash") {
        add(&["dash", "-c", "true --secret hunter2q"]);
    }
    for argv in &cases {
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        let reference = run(&argv);
        assert!(
            !reference.contains("hunter2"),
            "{argv:?} kept a secret: {reference}"
        );
        assert!(reference.contains("***"), "{argv:?}: {reference}");
    }
    // Without a secret, the reference is the argv joined by spaces, as before.
    assert_eq!(
        run(&["sh", "-c", "true app.py --verbose 'a b'"]),
        "sh -c true app.py --verbose 'a b'"
    );
    let text = std::fs::read_to_string(session_ledger(r.path(), "rx")).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
}

/// Class 12. `run --phase uninstrumented_verify` after `cleanup` (the README's last step) records
/// no values, so it neither creates nor leaves `<ledger>.values-key`. Before, it recreated the
/// key and left it while gate and verify said clean.
#[test]
fn a_run_after_cleanup_leaves_no_values_key() {
    let r = session_repo(&[]);
    let key = PathBuf::from(format!(
        "{}.values-key",
        session_ledger(r.path(), "rt").display()
    ));
    let (code, v) = probity_json(
        r.path(),
        &[
            "run", "--slug", "rt", "--phase", "baseline", "--", "python3", "app.py",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert!(key.exists(), "a run with live probes has a key");
    let (code, v) = probity_json(r.path(), &["cleanup", "--slug", "rt"]);
    assert_eq!(code, 0, "{v}");
    assert!(!key.exists());
    let (code, v) = probity_json(
        r.path(),
        &[
            "run",
            "--slug",
            "rt",
            "--phase",
            "uninstrumented_verify",
            "--",
            "python3",
            "app.py",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert!(!key.exists(), "the uninstrumented run left a values key");
    // A session without probes never makes one either.
    let (code, v) = probity_json(
        r.path(),
        &["session", "init", "--slug", "np", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = probity_json(
        r.path(),
        &["run", "--slug", "np", "--phase", "baseline", "--", "true"],
    );
    assert_eq!(code, 0, "{v}");
    assert!(
        !PathBuf::from(format!(
            "{}.values-key",
            session_ledger(r.path(), "np").display()
        ))
        .exists()
    );
}

/// Class 12, a planted key: a `<ledger>.values-key` that arrived with a clone (0600 under a
/// umask of 077, owned by the user) or a symlink to such a file is never used to key
/// `values_sha256`: the run's hash is not the one keyed with the planted bytes, the key file is
/// replaced by a fresh 0600 one, and a symlink's target is left untouched.
#[test]
fn a_planted_values_key_never_keys_values_sha256() {
    let keyed = |key: &[u8]| {
        let mut b = key.to_vec();
        b.push(0);
        b.extend_from_slice(br#"[[{"value":42}]]"#);
        probity::source::sha256_hex(&b)
    };
    for symlink in [false, true] {
        let r = session_repo(&[]);
        let key = PathBuf::from(format!(
            "{}.values-key",
            session_ledger(r.path(), "rt").display()
        ));
        let planted = [0x41u8; 32];
        let target = r.path().join("elsewhere");
        if symlink {
            std::fs::write(&target, planted).unwrap();
            chmod(&target, 0o600);
            std::os::unix::fs::symlink(&target, &key).unwrap();
        } else {
            std::fs::write(&key, planted).unwrap();
            chmod(&key, 0o600);
        }
        let (code, v) = probity_json(
            r.path(),
            &[
                "run", "--slug", "rt", "--phase", "baseline", "--", "python3", "app.py",
            ],
        );
        assert_eq!(code, 0, "symlink={symlink}: {v}");
        let hash = data(&v)["run"]["observations"]["p-main"]["values_sha256"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"))
            .to_owned();
        assert_ne!(
            hash,
            keyed(&planted),
            "symlink={symlink}: the planted key was used"
        );
        let meta = std::fs::symlink_metadata(&key).unwrap();
        assert!(meta.is_file(), "symlink={symlink}");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        let fresh = std::fs::read(&key).unwrap();
        assert_ne!(fresh, planted);
        assert_eq!(hash, keyed(&fresh), "the run is keyed with the fresh key");
        if symlink {
            assert_eq!(std::fs::read(&target).unwrap(), planted, "target untouched");
        }
        // The next run uses the same (recorded) key: runs of one session still compare.
        let (code, v2) = probity_json(
            r.path(),
            &[
                "run", "--slug", "rt", "--phase", "baseline", "--", "python3", "app.py",
            ],
        );
        assert_eq!(code, 0, "{v2}");
        assert_eq!(
            data(&v2)["run"]["observations"]["p-main"]["values_sha256"],
            hash.as_str()
        );
    }
}

/// Class 2, the identity check before the spawn: a runtime file replaced after probity wrote it
/// and before the command starts (only its owner can, in a private root; the check is the second
/// line of defence) is never run: the run is refused (`identity_mismatch`) and the program never
/// starts. Before, the identities were checked only after the run.
#[test]
fn a_runtime_replaced_before_the_spawn_is_never_run() {
    let tmp = tempfile::tempdir().unwrap();
    let envs = [("TMPDIR", Some(tmp.path()))];
    let r = session_repo(&envs);
    let marker = r.path().join("MARKER");
    let mut cmd = Command::new(bin());
    cmd.current_dir(r.path())
        .env("TMPDIR", tmp.path())
        .args([
            "run", "--slug", "rt", "--phase", "baseline", "--json", "--", "python3", "app.py",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let paused = Paused::spawn(&mut cmd, "runtime_written");
    let root = ledger_of(&r)["artifact_root"]["canonical_path"]
        .as_str()
        .unwrap()
        .to_owned();
    let py = Path::new(&root).join("run-1-runtime.py");
    std::fs::rename(&py, Path::new(&root).join("aside")).unwrap();
    std::fs::write(
        &py,
        format!(
            "open({:?}, 'w').write('pwned')\n",
            marker.display().to_string()
        ),
    )
    .unwrap();
    let out = paused.go().wait_with_output().unwrap();
    let v = parse_output(&String::from_utf8_lossy(&out.stdout));
    assert!(!marker.exists(), "a replaced runtime was run: {v}");
    assert_eq!(out.status.code(), Some(2), "{v}");
    assert_eq!(v["reason"], "identity_mismatch", "{v}");
}
