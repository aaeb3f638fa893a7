//! Issue 21, "Done means" (second bullet): the whole session (init, place in Python and
//! JavaScript, run with the shared runtime, compare, `accept reconfirm` on a small real git fix,
//! `probity env` evaluated by `sh`, cleanup, gate, verify) run as an attacker and an unlucky
//! user would:
//!
//! - (a) with a hostile co-tenant: a second uid (65534 through `setpriv`, when the test runs as
//!   root; else the same uid, where the checks still mean something) that, in a world-writable,
//!   non-sticky `TMPDIR`, renames every `probity-*` entry aside and plants its own runtime files
//!   and sinks whose payloads create a sentinel file if executed. The race is forced, never
//!   left to luck: at probity's test hooks (`PROBITY_TEST_PAUSE`, `util::Paused`'s protocol),
//!   and at a handshake of the reproduction itself (`check.py` waits for `ctl/go-<run>` before
//!   it loads the runtime), which is the window the issue describes (class 2);
//! - (b) with `.planning/` files replaced by attacker-chosen content between steps (a clone or
//!   a pull delivers them): planted ledgers, reconfirm journals, `.values-key`, `.lock`, `.md`
//!   notes, verification records, a deleted ledger, an emptied `.planning/debug`, a second clean
//!   session beside a live one.
//!
//! Every scenario checks the same promises, black-box through the CLI, after every step:
//! nothing outside the tree is written (a sentinel HOME, the parent folder, TMPDIR apart from
//! probity's own roots, `.git/config`, `.git/hooks`), nothing is executed (no sentinel file
//! appears), no command reports clean (gate exit 0, verify exit 0, cleanup `clean`) while a
//! probe marker remains in tracked or staged source, and every refusal carries a reason code
//! (the JSON envelope's `reason`, never message text). Violations are collected, tagged with the
//! issue class that covers them, and reported together at the end of each test.
//!
//! Not repeated here (already pinned): strip of ledger paths leading outside
//! (`hostile_fs::ledger_paths_leading_outside_are_refused`), capture roots swapped for a symlink
//! at the sink hooks (`hostile_fs::capture_root_swapped_*`), forged capture roots
//! (`hostile_fs::forged_capture_root_is_not_cleaned`), symlinked/FIFO/directory locks for strip
//! (`hostile_fs`), crash windows of `run` (`hostile_crash`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{check_json_output, data, line_number, parse_output, probity, probity_bin};

/// Refusal codes accepted besides those of the frozen `Reason` enum (`Reason::ALL`, which holds
/// every code the merged engine ships). Empty: a refusal must carry a real reason code. The
/// coordinator may add codes here if a fix names them elsewhere.
const EXTRA_REFUSAL_CODES: &[&str] = &[];

/// Prefixes of path components, in TMPDIR and HOME, that are probity's own (capture roots, a
/// private fallback folder such as `.cache/probity/...`, with the folders leading to it): not
/// "outside writes". Anything else that appears or changes there is.
const OWN_PREFIXES: &[&str] = &["probity"];

/// The session of every scenario.
const SLUG: &str = "t";

/// The uid of the co-tenant when the test runs as root.
const TENANT_UID: u32 = 65534;

const CALC: &str = "from rules import DISCOUNT\n\n\ndef total(prices):\n    \
subtotal = sum(prices)\n    return subtotal - subtotal * DISCOUNT // 100\n";
const RULES_BUGGY: &str = "DISCOUNT = 100\n";
const RULES_FIXED: &str = "DISCOUNT = 10\n";
const APP_JS: &str = "function label(n) {\n  const text = \"n=\" + n;\n  return text;\n}\n\nconsole.log(label(3));\n";
const README: &str = "# shop\n\nA tiny shop.\n";

/// The reproduction: with `ctl/hold` present it records its probe environment in
/// `ctl/env-<run>.json`, says `ctl/ready-<run>` and waits for `ctl/go-<run>` before it loads
/// anything probed (the Python probe loads the runtime at its first hit, `node` preloads it at
/// start): the co-tenant strikes in exactly that window. Exit 0 when the discount is right.
const CHECK: &str = r#"import json
import os
import subprocess
import sys
import time

run = os.environ.get("GSD_DEBUG_PROBE_RUN", "hand")
if os.path.exists("ctl/hold"):
    keys = ("GSD_DEBUG_PROBE_RUNTIME", "GSD_DEBUG_PROBE_SINK", "NODE_OPTIONS")
    with open("ctl/env-" + run + ".json", "w") as f:
        json.dump({k: os.environ.get(k) for k in keys}, f)
    open("ctl/ready-" + run, "w").close()
    end = time.time() + 30
    while not os.path.exists("ctl/go-" + run) and time.time() < end:
        time.sleep(0.01)
sys.path.insert(0, os.getcwd())
from calc import total

node = subprocess.run(["node", "app.js"], stdout=subprocess.DEVNULL).returncode
sys.exit(0 if total([100, 100]) == 180 and node == 0 else 1)
"#;

/// The co-tenant: `tenant.py MODE TMPDIR OUT`. For every `probity*` folder in TMPDIR that is not
/// its own (its own are mode 0777), rename it to `<name>.aside` and make its own folder (0777)
/// under the name; with MODE `attack`, then plant (replace) in each of its folders the runtime
/// files and sinks of runs 1-8 and `probity env` 1-8, whose payloads create `OUT/pwned-...`.
const TENANT: &str = r#"import json
import os
import sys

mode, tmp, out = sys.argv[1], sys.argv[2], sys.argv[3]


def put(path, text):
    t = path + ".tenant-tmp"
    with open(t, "w") as f:
        f.write(text)
    os.chmod(t, 0o666)
    os.replace(t, path)


def plant(d):
    stems = ["env-runtime"] + [k + "-" + str(n) + "-runtime" for k in ("run", "env") for n in range(1, 9)]
    for s in stems:
        py = "open(%r, 'w').close()\n" % os.path.join(out, "pwned-runtime-" + s + ".py")
        js = "require('fs').writeFileSync(%s, '')\n" % json.dumps(os.path.join(out, "pwned-runtime-" + s + ".cjs"))
        put(os.path.join(d, s + ".py"), py)
        put(os.path.join(d, s + ".cjs"), js)
        put(os.path.join(d, s), py)
    for n in range(1, 9):
        ev = {"schema_version": 1, "session_id": "t", "probe_id": "p-sub", "run_id": "run-%d" % n,
              "phase": "baseline", "ordinal": 1, "data": {"subtotal": "$(touch %s/pwned-sink)" % out}}
        put(os.path.join(d, "run-%d.sink" % n),
            "GSDDBG1 " + json.dumps(ev) + "\n`touch " + out + "/pwned-sink`\n")


done = []
for name in sorted(os.listdir(tmp)):
    p = os.path.join(tmp, name)
    if not name.startswith("probity") or name.endswith(".aside") or os.path.islink(p) or not os.path.isdir(p):
        continue
    if os.lstat(p).st_mode & 0o777 != 0o777:
        os.rename(p, p + ".aside")
        os.mkdir(p)
        os.chmod(p, 0o777)
        done.append("swapped " + name)
    if mode == "attack":
        plant(p)
        done.append("planted " + name)
print(json.dumps(done))
"#;

// --- The audit: promises checked after every step, violations collected --------------------

/// One snapshot: path (relative) -> what it is (type, mode, owner, content hash or link target).
type Snap = BTreeMap<String, String>;

/// Record `dir` recursively (never following a link) into `out`, skipping top-level entries for
/// which `skip(name, meta)` holds.
fn snap_into(
    out: &mut Snap,
    dir: &Path,
    rel: &str,
    skip: &dyn Fn(&str, &std::fs::Metadata) -> bool,
) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Ok(m) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        if rel.is_empty() && skip(&name, &m) {
            continue;
        }
        let key = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let head = format!("{:o} {}:{}", m.mode(), m.uid(), m.gid());
        if m.file_type().is_symlink() {
            let t = std::fs::read_link(e.path()).unwrap_or_default();
            out.insert(key, format!("link {head} -> {}", t.display()));
        } else if m.is_dir() {
            out.insert(key.clone(), format!("dir {head}"));
            snap_into(out, &e.path(), &key, skip);
        } else {
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            out.insert(
                key,
                format!("file {head} {}", probity::source::sha256_hex(&bytes)),
            );
        }
    }
}

fn diff(before: &Snap, after: &Snap) -> Vec<String> {
    let mut d = Vec::new();
    for (k, v) in after {
        match before.get(k) {
            None => d.push(format!("+ {k} ({v})")),
            Some(b) if b != v => d.push(format!("~ {k} ({b} => {v})")),
            _ => {}
        }
    }
    for k in before.keys() {
        if !after.contains_key(k) {
            d.push(format!("- {k}"));
        }
    }
    d
}

fn own(name: &str) -> bool {
    OWN_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// `s` without probity's own entries: every path with a component named by [`OWN_PREFIXES`],
/// and the folders that lead to one (a fallback such as `.cache/probity/...`).
fn without_own(mut s: Snap) -> Snap {
    let owned: Vec<String> = s
        .keys()
        .filter(|k| k.split('/').any(own))
        .cloned()
        .collect();
    s.retain(|k, v| {
        // A top-level folder of the fixture (`home`) is kept: it was there before probity made
        // its fallback below it, and dropping it would read as a removal.
        let leads_to_own = v.starts_with("dir ")
            && k.contains('/')
            && owned.iter().any(|o| o.starts_with(&format!("{k}/")));
        !(k.split('/').any(own) || leads_to_own)
    });
    s
}

/// How the co-tenant acts.
#[derive(Clone, Copy, PartialEq)]
enum Tenant {
    /// Another uid (65534), through `setpriv`.
    OtherUid,
    /// The test's own uid (not root, or no way to switch).
    SameUid,
}

/// What TMPDIR is.
enum Tmp {
    /// `<base>/tmp`, 0700.
    Private,
    /// `<base>/tmp`, 0777 without the sticky bit: any local user can rename its entries.
    WorldWritable,
    /// `<base>/<name>`, 0700, for a name chosen by the attacker.
    Named(&'static str),
}

/// A scenario: `<base>` (0755) holds the repository `repo/` (a real git repository), the
/// sentinel `home/` (HOME of every command), `out/` (where payloads would write), TMPDIR, and
/// files outside the tree an attacker would like changed.
struct Fx {
    base: tempfile::TempDir,
    repo: PathBuf,
    home: PathBuf,
    tmp: PathBuf,
    out: PathBuf,
    tenant: Tenant,
    /// The `python3` the co-tenant runs.
    tenant_python: PathBuf,
    /// The issue class an outside write or an executed payload belongs to in this scenario.
    class: &'static str,
    outside: std::cell::RefCell<Snap>,
    tmp_snap: std::cell::RefCell<Snap>,
    git_snap: std::cell::RefCell<Snap>,
    seen: std::cell::RefCell<BTreeSet<String>>,
    /// Whether the baselines are taken ([`Fx::seal`]).
    sealed: std::cell::Cell<bool>,
    bad: std::cell::RefCell<Vec<String>>,
}

impl Fx {
    fn new(tmp: Tmp, class: &'static str) -> Fx {
        let base = tempfile::tempdir().unwrap();
        let b = base.path().to_path_buf();
        std::fs::set_permissions(&b, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (tmp, mode) = match tmp {
            Tmp::Private => (b.join("tmp"), 0o700),
            Tmp::WorldWritable => (b.join("tmp"), 0o777),
            Tmp::Named(n) => (b.join(n), 0o700),
        };
        for d in ["repo", "home", "out"] {
            std::fs::create_dir(b.join(d)).unwrap();
        }
        std::fs::create_dir(&tmp).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode)).unwrap();
        std::fs::write(b.join("home/.profile"), "export KEEP=1\n").unwrap();
        std::fs::write(b.join("home/notes.md"), "# my notes\n").unwrap();
        std::fs::write(b.join("victim.txt"), "not yours\n").unwrap();
        std::fs::write(b.join("tenant.py"), TENANT).unwrap();
        let (tenant, tenant_python) = tenant_kind();
        let fx = Fx {
            repo: b.join("repo"),
            home: b.join("home"),
            out: b.join("out"),
            tmp,
            base,
            tenant,
            tenant_python,
            class,
            outside: Default::default(),
            tmp_snap: Default::default(),
            git_snap: Default::default(),
            seen: Default::default(),
            sealed: Default::default(),
            bad: Default::default(),
        };
        let files = [
            ("calc.py", CALC),
            ("rules.py", RULES_BUGGY),
            ("app.js", APP_JS),
            ("check.py", CHECK),
            ("README.md", README),
            (".gitignore", ".planning/\nctl/\n__pycache__/\n"),
        ];
        for (rel, text) in files {
            fx.write(rel, text);
        }
        std::fs::create_dir(fx.repo.join("ctl")).unwrap();
        fx.git(&["init", "-q"]);
        fx.git(&["add", "-A"]);
        fx.git(&["commit", "-qm", "buggy shop"]);
        fx
    }

    fn write(&self, rel: &str, text: impl AsRef<[u8]>) {
        let p = self.repo.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn read(&self, rel: &str) -> Option<Vec<u8>> {
        std::fs::read(self.repo.join(rel)).ok()
    }

    fn ledger(&self) -> PathBuf {
        self.repo
            .join(format!(".planning/debug/{SLUG}.evidence.json"))
    }

    fn git(&self, args: &[&str]) -> std::process::Output {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.repo)
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .env("HOME", &self.home)
            .output()
            .expect("git");
        assert!(
            out.status.success() || args[0] == "grep",
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// A violation of `class`.
    fn fail(&self, class: &str, what: String) {
        self.bad.borrow_mut().push(format!("[{class}] {what}"));
    }

    fn check(&self, ok: bool, class: &str, what: impl FnOnce() -> String) {
        if !ok {
            self.fail(class, what());
        }
    }

    fn outside_now(&self) -> Snap {
        let tmp_name = self.tmp.file_name().unwrap().to_string_lossy().into_owned();
        let mut s = Snap::new();
        snap_into(&mut s, self.base.path(), "", &|n, _| {
            n == "repo" || n == tmp_name
        });
        // probity's own folders in HOME (a private fallback) are not outside writes.
        without_own(s)
    }

    fn tmp_now(&self) -> Snap {
        let mut s = Snap::new();
        snap_into(&mut s, &self.tmp, "", &|_, m| m.uid() == TENANT_UID);
        without_own(s)
    }

    fn git_now(&self) -> Snap {
        let mut s = Snap::new();
        let config = std::fs::read(self.repo.join(".git/config")).unwrap_or_default();
        s.insert("config".into(), probity::source::sha256_hex(&config));
        snap_into(&mut s, &self.repo.join(".git/hooks"), "", &|_, _| false);
        s
    }

    /// Take the baselines: from now on, nothing outside may change.
    fn seal(&self) {
        *self.outside.borrow_mut() = self.outside_now();
        *self.tmp_snap.borrow_mut() = self.tmp_now();
        *self.git_snap.borrow_mut() = self.git_now();
        self.sealed.set(true);
    }

    /// After every step: nothing executed, nothing written outside the tree (each change
    /// reported once, at the step that made it).
    fn after(&self, step: &str) {
        let mut pwned: Vec<String> = std::fs::read_dir(&self.out)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("pwned"))
            .collect();
        pwned.sort();
        for p in pwned {
            if self.seen.borrow_mut().insert(p.clone()) {
                let class = match p.as_str() {
                    n if n.starts_with("pwned-runtime") || n.starts_with("pwned-sink") => "class 2",
                    n if n.starts_with("pwned-env") => "class 3",
                    _ => "class 1",
                };
                self.fail(class, format!("{step}: a planted payload ran: {p}"));
            }
        }
        if !self.sealed.get() {
            return;
        }
        for (what, cell, now, class) in [
            (
                "outside the tree",
                &self.outside,
                self.outside_now(),
                self.class,
            ),
            (
                "TMPDIR (not probity's)",
                &self.tmp_snap,
                self.tmp_now(),
                self.class,
            ),
            (
                ".git/config or .git/hooks",
                &self.git_snap,
                self.git_now(),
                "class 1",
            ),
        ] {
            let d = diff(&cell.borrow(), &now);
            if !d.is_empty() {
                self.fail(class, format!("{step}: written {what}: {}", d.join("; ")));
                *cell.borrow_mut() = now;
            }
        }
    }

    /// Every answer carries its codes: a refusal (exit 2) a reason code of the frozen enum, a
    /// cleanup failure item its code, a gate blocking item its reason.
    fn coded(&self, step: &str, code: i32, v: &Value) {
        let known = |r: &Value| {
            r.as_str().is_some_and(|r| {
                probity::reason::Reason::ALL.iter().any(|c| c.code() == r)
                    || EXTRA_REFUSAL_CODES.contains(&r)
            })
        };
        match code {
            0 | 1 => {}
            2 => self.check(
                matches!(v["status"].as_str(), Some("refused" | "failed")) && known(&v["reason"]),
                "refusal code",
                || format!("{step}: exit 2 without a reason code: {v}"),
            ),
            _ => self.fail("refusal code", format!("{step}: exit {code}: {v}")),
        }
        for item in data(v)["cleanup"]["failure"]
            .as_array()
            .into_iter()
            .flatten()
        {
            self.check(known(&item["reason"]), "refusal code", || {
                format!("{step}: cleanup failure item without a reason code: {item}")
            });
        }
        for item in data(v)["blocking"].as_array().into_iter().flatten() {
            self.check(
                item["reason"].as_str().is_some_and(|r| !r.is_empty()),
                "refusal code",
                || format!("{step}: gate item without a reason: {item}"),
            );
        }
    }

    /// A probity command with this scenario's TMPDIR and HOME, run in the repository.
    fn cmd(&self) -> Command {
        let mut c = Command::new(probity_bin());
        c.current_dir(&self.repo)
            .env("TMPDIR", &self.tmp)
            .env("HOME", &self.home)
            .env_remove("PROBITY_TEST_PAUSE");
        c
    }

    /// `probity <args> --json` as step `step`: codes checked, then [`Fx::after`].
    fn cli(&self, step: &str, args: &[&str]) -> (i32, Value) {
        let mut args: Vec<&str> = args.to_vec();
        let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
        args.insert(at, "--json");
        let mut c = probity();
        c.current_dir(&self.repo)
            .env("TMPDIR", &self.tmp)
            .env("HOME", &self.home)
            .args(&args);
        let (code, v) = crate::util::run_json(&mut c);
        trace(step, code, &v);
        self.coded(step, code, &v);
        self.after(step);
        (code, v)
    }

    /// A setup step that must succeed.
    #[track_caller]
    fn ok(&self, args: &[&str]) -> Value {
        let (code, v) = self.cli(&args.join(" "), args);
        assert_eq!(code, 0, "setup `{}`: {v}", args.join(" "));
        v
    }

    /// The session: `init` (adaptive), a control probe and a capturing probe in `calc.py`, a
    /// capturing probe in `app.js`.
    fn session(&self) {
        self.ok(&["session", "init", "--slug", SLUG, "--policy", "adaptive"]);
        self.place(
            SLUG,
            "calc.py",
            "    subtotal = sum(prices)",
            "p-ctl",
            &["--message", "control"],
        );
        self.place(
            SLUG,
            "calc.py",
            "    return subtotal - subtotal * DISCOUNT // 100",
            "p-sub",
            &["--message", "state", "--capture", "subtotal=subtotal"],
        );
        self.place(
            SLUG,
            "app.js",
            "  return text;",
            "p-js",
            &["--message", "state", "--capture", "text=text"],
        );
    }

    fn place(&self, slug: &str, file: &str, before: &str, probe: &str, extra: &[&str]) {
        let n = line_number(&self.repo.join(file), before).to_string();
        let mut args = vec![
            "place",
            file,
            "--line",
            &n,
            "--slug",
            slug,
            "--probe",
            probe,
            "--hypothesis",
            "h1",
        ];
        args.extend_from_slice(extra);
        self.ok(&args);
    }

    /// Tracked or staged files that hold a probe marker line (`slug`: of that session only).
    fn markers(&self, slug: Option<&str>) -> Vec<String> {
        let pat = match slug {
            Some(s) => format!("gsd-debug-probe:(start|end) {s} "),
            None => "gsd-debug-probe:(start|end) ".to_owned(),
        };
        let mut hits = BTreeSet::new();
        for cached in [false, true] {
            let mut args = vec!["grep", "-l", "-E", "-e", &pat];
            if cached {
                args.insert(1, "--cached");
            }
            let out = self.git(&args);
            for l in String::from_utf8_lossy(&out.stdout).lines() {
                hits.insert(format!("{l}{}", if cached { " (staged)" } else { "" }));
            }
        }
        hits.into_iter().collect()
    }

    /// `probity verify <args> --json`: the exit code (every JSON line checked against the schema).
    fn verify(&self, step: &str, args: &[&str]) -> i32 {
        let out = self
            .cmd()
            .arg("verify")
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            check_json_output(l);
        }
        let code = out.status.code().unwrap_or(-1);
        self.check(code != 2 || !out.stdout.is_empty(), "refusal code", || {
            format!("{step}: verify exit 2 with nothing on stdout")
        });
        self.after(step);
        code
    }

    /// No command says clean while a marker is in tracked or staged source: the gate (as a hook
    /// runs it, and with `--root` as a `command-exit-zero` gate may) and verify (of the tree, and
    /// `--staged`) all exit non-zero then. Class 4 (and 15 for verify).
    fn claims(&self, step: &str) {
        let markers = self.markers(None);
        let root = self.repo.to_str().unwrap().to_owned();
        for args in [vec!["gate"], vec!["gate", "--all", "--root", &root]] {
            let s = format!("{step}: {}", args.join(" "));
            let (code, v) = self.cli(&s, &args);
            self.check(markers.is_empty() || code != 0, "class 4", || {
                format!("{s}: exit 0 with markers in {markers:?}: {v}")
            });
        }
        for args in [vec!["."], vec!["--staged", "."]] {
            let s = format!("{step}: verify {}", args.join(" "));
            let code = self.verify(&s, &args);
            let staged = markers.iter().any(|m| m.ends_with("(staged)"));
            let applies = if args[0] == "--staged" {
                staged
            } else {
                !markers.is_empty()
            };
            self.check(!applies || code != 0, "class 4/15", || {
                format!("{s}: exit 0 with markers in {markers:?}")
            });
        }
    }

    /// `cleanup --slug slug`: never `clean` while a marker of that session is in tracked or
    /// staged source (class 4).
    fn cleanup(&self, step: &str, slug: &str) -> (i32, Value) {
        let (code, v) = self.cli(step, &["cleanup", "--slug", slug]);
        let left = self.markers(Some(slug));
        self.check(
            data(&v)["state"] != "clean" || left.is_empty(),
            "class 4",
            || format!("{step}: cleanup says clean with markers of {slug} in {left:?}: {v}"),
        );
        (code, v)
    }

    /// Run `args` as step `step`; it must be refused with a code and write nothing in the tree
    /// (class 17) or outside.
    fn refused_writes_nothing(&self, step: &str, args: &[&str]) {
        let before = self.tree_now();
        let (code, v) = self.cli(step, args);
        self.check(code == 2, "refusal code", || {
            format!("{step}: not refused: {v}")
        });
        let d = diff(&before, &self.tree_now());
        self.check(d.is_empty(), "class 17", || {
            format!("{step}: the refusal wrote {}", d.join("; "))
        });
    }

    /// The work tree (`.git` internals and caches aside).
    fn tree_now(&self) -> Snap {
        let mut s = Snap::new();
        snap_into(&mut s, &self.repo, "", &|n, _| {
            n == ".git" || n == "__pycache__"
        });
        s.retain(|k, _| !k.contains("__pycache__"));
        s
    }

    /// The co-tenant acts once (`attack` or `attack-empty`): as uid 65534 when it can be.
    fn tenant(&self, mode: &str) {
        let script = self.base.path().join("tenant.py");
        let mut c = match self.tenant {
            Tenant::OtherUid => {
                let mut c = Command::new("setpriv");
                c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]);
                c.arg(&self.tenant_python);
                c
            }
            Tenant::SameUid => Command::new(&self.tenant_python),
        };
        let out = c
            .arg(&script)
            .arg(mode)
            .arg(&self.tmp)
            .arg(&self.out)
            .current_dir(self.base.path())
            .env("HOME", "/")
            .output()
            .unwrap();
        assert!(out.status.success(), "the co-tenant failed: {out:?}");
    }

    /// Spawn `cmd` (stdout captured) and drive it to its end: when `hook` is `(point, mode)`, the
    /// process is stopped at that test hook and the co-tenant acts with `mode` there; at every
    /// handshake of the reproduction (`ctl/ready-<run>`) the runtime's folders are checked and
    /// the co-tenant acts with `attack` (when given) before the reproduction goes on. Returns
    /// the exit code and stdout.
    fn drive(
        &self,
        step: &str,
        mut cmd: Command,
        hook: Option<(&str, &str)>,
        attack: Option<&str>,
    ) -> (i32, String) {
        let ctl = self.repo.join("ctl");
        for e in std::fs::read_dir(&ctl).unwrap().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with("ready-") || n.starts_with("go-") || n.starts_with("env-") {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
        let hookdir = tempfile::tempdir().unwrap();
        if let Some((point, _)) = hook {
            cmd.env(
                "PROBITY_TEST_PAUSE",
                format!("{point}:{}", hookdir.path().display()),
            );
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let start = Instant::now();
        let mut hooked = hook.is_none();
        let mut served = BTreeSet::new();
        let status = loop {
            if !hooked {
                let (point, mode) = hook.unwrap();
                if hookdir.path().join(format!("{point}.ready")).exists() {
                    self.tenant(mode);
                    std::fs::write(hookdir.path().join(format!("{point}.go")), "").unwrap();
                    hooked = true;
                }
            }
            for e in std::fs::read_dir(&ctl).unwrap().flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                let Some(run) = n.strip_prefix("ready-") else {
                    continue;
                };
                if served.insert(run.to_owned()) {
                    self.runtime_folders_private(&format!("{step} ({run})"), run);
                    if let Some(mode) = attack {
                        self.tenant(mode);
                    }
                    std::fs::write(ctl.join(format!("go-{run}")), "").unwrap();
                }
            }
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(start.elapsed() < Duration::from_secs(120), "{step}: hangs");
            std::thread::sleep(Duration::from_millis(10));
        };
        let out = reader.join().unwrap();
        (status.code().unwrap_or(-1), out)
    }

    /// `drive` for a probity command printing one JSON envelope: codes checked, then `after`.
    fn drive_json(
        &self,
        step: &str,
        args: &[&str],
        hook: Option<(&str, &str)>,
        attack: Option<&str>,
    ) -> (i32, Value) {
        let mut c = self.cmd();
        let mut args: Vec<&str> = args.to_vec();
        let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
        args.insert(at, "--json");
        c.args(&args);
        let (code, out) = self.drive(step, c, hook, attack);
        let v = parse_output(&out);
        trace(step, code, &v);
        self.coded(step, code, &v);
        self.after(step);
        (code, v)
    }

    /// The runtime a probed process of run `run` is told to load lives where no one else can
    /// create or rename entries: every folder from it up to `/` is owned by this user or root and
    /// is not writable by others unless sticky (class 2).
    fn runtime_folders_private(&self, step: &str, run: &str) {
        let Ok(text) = std::fs::read_to_string(self.repo.join(format!("ctl/env-{run}.json")))
        else {
            return;
        };
        let env: Value = serde_json::from_str(&text).unwrap();
        let Some(stem) = env["GSD_DEBUG_PROBE_RUNTIME"].as_str() else {
            return;
        };
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        let mut dir = Path::new(stem).parent();
        while let Some(d) = dir {
            if let Ok(m) = std::fs::metadata(d) {
                let open = m.mode() & 0o002 != 0 && m.mode() & 0o1000 == 0;
                let foreign = m.uid() != me && m.uid() != 0;
                self.check(!open && !foreign, "class 2", || {
                    format!(
                        "{step}: the runtime {stem} is under {} (mode {:o}, uid {}), where another \
                         user can rename it",
                        d.display(),
                        m.mode() & 0o7777,
                        m.uid()
                    )
                });
            }
            dir = d.parent();
        }
    }

    /// A run of the session's reproduction (`python3 check.py`).
    fn run(
        &self,
        step: &str,
        phase: &str,
        hook: Option<(&str, &str)>,
        attack: Option<&str>,
    ) -> (i32, Value) {
        self.drive_json(
            step,
            &[
                "run",
                "--slug",
                SLUG,
                "--phase",
                phase,
                "--timeout",
                "60",
                "--",
                "python3",
                "check.py",
            ],
            hook,
            attack,
        )
    }

    /// End the scenario: the last checks, then every violation at once.
    fn finish(self) {
        self.after("end");
        let bad = self.bad.borrow();
        assert!(
            bad.is_empty(),
            "{} broken promise(s) (co-tenant: {}):\n{}",
            bad.len(),
            if self.tenant == Tenant::OtherUid {
                "uid 65534"
            } else {
                "same uid"
            },
            bad.join("\n")
        );
    }
}

/// With `HOSTILE_TENANT_TRACE` set, every step's answer on stderr (`--nocapture` to see it).
fn trace(step: &str, code: i32, v: &Value) {
    if std::env::var_os("HOSTILE_TENANT_TRACE").is_some() {
        eprintln!("--- {step}: exit {code}: {v}");
    }
}

/// Whether a second uid is available (running as root (`HOSTILE_TENANT_SAME_UID` set: act as if
/// not), `setpriv` can switch to 65534, and a
/// `python3` on PATH that uid can run), and the `python3` the co-tenant runs.
fn tenant_kind() -> (Tenant, PathBuf) {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || std::env::var_os("HOSTILE_TENANT_SAME_UID").is_some() {
        return (Tenant::SameUid, PathBuf::from("python3"));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let py = dir.join("python3");
        if !py.exists() {
            continue;
        }
        let ok = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(&py)
            .args(["-c", "pass"])
            .current_dir("/")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return (Tenant::OtherUid, py);
        }
    }
    (Tenant::SameUid, PathBuf::from("python3"))
}

// --- (a) A hostile co-tenant -----------------------------------------------------------------

/// Class 2 (and 3 for the `env` step): the whole session in a world-writable, non-sticky TMPDIR
/// while the co-tenant, at every moment a probed process is about to load the runtime (each run,
/// both runs of `accept reconfirm`, a run by hand after `eval "$(probity env)"`), renames every
/// `probity-*` folder aside and plants runtime files and sinks. Nothing planted runs, nothing
/// outside is written, the runtime is never somewhere another user can rename, and the session
/// still ends clean.
#[test]
fn a_co_tenant_swapping_capture_roots_mid_session_runs_nothing_and_writes_nothing_outside() {
    let fx = Fx::new(Tmp::WorldWritable, "class 2");
    fx.session();
    fx.write("ctl/hold", "");
    fx.seal();
    let (code, v) = fx.run("run-1 baseline", "baseline", None, Some("attack"));
    if code == 0 {
        let obs = &data(&v)["run"]["observations"];
        fx.check(obs["p-sub"]["verdict"] == "observed", "class 2", || {
            format!("run-1: probity's runtime did not record p-sub: {v}")
        });
    }
    fx.write("rules.py", RULES_FIXED);
    fx.run("run-2 post_fix", "post_fix", None, Some("attack"));
    fx.cli("compare", &["compare", "--slug", SLUG, "run-1", "run-2"]);
    let (code, v) = fx.drive_json(
        "accept reconfirm",
        &[
            "accept",
            "reconfirm",
            "--slug",
            SLUG,
            "--timeout",
            "60",
            "--",
            "python3",
            "check.py",
        ],
        None,
        Some("attack"),
    );
    fx.check(code != 1, "class 2", || {
        format!("reconfirm fails under the co-tenant: {v}")
    });
    fx.check(
        fx.read("rules.py").as_deref() == Some(RULES_FIXED.as_bytes()),
        "class 2",
        || "accept reconfirm did not leave the fix in place".into(),
    );
    // A run by hand: `eval "$(probity env)"` in sh, then the program, the co-tenant in between.
    let bin = probity_bin();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!(
            "out=\"$(probity env --slug {SLUG})\" || exit 97\neval \"$out\"\n: > ctl/hand.sink\n\
             GSD_DEBUG_PROBE_SINK=\"$PWD/ctl/hand.sink\" GSD_DEBUG_PROBE_RUN=hand \
             GSD_DEBUG_PROBE_PHASE=baseline exec python3 check.py\n"
        ))
        .current_dir(&fx.repo)
        .env("PATH", path)
        .env("TMPDIR", &fx.tmp)
        .env("HOME", &fx.home);
    let (code, _) = fx.drive("env by sh", sh, None, Some("attack"));
    fx.after("env by sh");
    if code == 97 {
        fx.cli("env", &["env", "--slug", SLUG]);
    } else {
        let sink = fx.read("ctl/hand.sink").unwrap_or_default();
        fx.check(
            String::from_utf8_lossy(&sink).contains("\"probe_id\":\"p-sub\""),
            "class 2",
            || "the run by hand did not load probity's runtime".into(),
        );
    }
    fx.claims("before cleanup");
    let (code, v) = fx.cleanup("cleanup", SLUG);
    fx.check(code == 0 && data(&v)["state"] == "clean", "class 2", || {
        format!("the co-tenant made the session uncleanable: {v}")
    });
    fx.claims("after cleanup");
    fx.finish();
}

/// Class 2: the co-tenant takes the capture root at the very moment probity makes it (test
/// hook `root_created`: renamed aside, its own empty 0777 folder put in its place) and plants
/// the runtime in it when the reproduction is about to load it; and, for a second session, at
/// `sink_created` (the root swapped and planted between the sink and the runtime). Nothing
/// planted runs and each session can still be cleaned.
#[test]
fn a_co_tenant_taking_the_capture_root_as_it_is_made_gets_nothing_run() {
    let fx = Fx::new(Tmp::WorldWritable, "class 2");
    fx.write("ctl/hold", "");
    fx.seal();
    for (slug, file, line, point, mode) in [
        (
            "ra",
            "calc.py",
            "    return subtotal - subtotal * DISCOUNT // 100",
            "root_created",
            "attack-empty",
        ),
        ("rb", "app.js", "  return text;", "sink_created", "attack"),
    ] {
        fx.ok(&["session", "init", "--slug", slug, "--policy", "adaptive"]);
        fx.place(slug, file, line, "p1", &[]);
        let step = format!("{slug}: run, the co-tenant at {point}");
        fx.drive_json(
            &step,
            &[
                "run",
                "--slug",
                slug,
                "--phase",
                "baseline",
                "--timeout",
                "60",
                "--",
                "python3",
                "check.py",
            ],
            Some((point, mode)),
            Some("attack"),
        );
        let (code, v) = fx.cleanup(&format!("{slug}: cleanup"), slug);
        fx.check(code == 0 && data(&v)["state"] == "clean", "class 2", || {
            format!("{slug}: the co-tenant made the session uncleanable: {v}")
        });
        fx.claims(&format!("{slug}: after cleanup"));
    }
    fx.finish();
}

/// Class 3: a TMPDIR whose name holds newlines, `$(...)`, backticks and quotes. Whatever
/// `probity env` prints for a shell to evaluate (the export, and the comment naming the folder
/// of a ledger without a session) runs nothing when evaluated by `sh`, and the exported value
/// arrives intact; a refusal carries its code.
#[test]
fn probity_env_evaluated_by_sh_runs_nothing_from_tmpdir() {
    let fx = Fx::new(
        Tmp::Named(
            "t\ntouch pwned-env-newline\n$(touch pwned-env-subst)`touch pwned-env-tick`'\"x",
        ),
        "class 3",
    );
    let hand = fx.repo.join(".planning/debug/hand.evidence.json");
    let hand_s = hand.to_str().unwrap().to_owned();
    let n = line_number(&fx.repo.join("calc.py"), "    subtotal = sum(prices)").to_string();
    fx.ok(&[
        "place",
        "calc.py",
        "--line",
        &n,
        "--slug",
        "hand",
        "--probe",
        "p1",
        "--hypothesis",
        "h1",
        "--ledger",
        &hand_s,
    ]);
    fx.ok(&["session", "init", "--slug", SLUG, "--policy", "adaptive"]);
    fx.place(SLUG, "app.js", "  return text;", "p-js", &[]);
    fx.seal();
    let bin_dir = probity_bin().parent().unwrap().to_path_buf();
    let repo_s = fx.repo.to_str().unwrap().to_owned();
    for (what, args) in [
        (
            "a ledger without a session",
            vec!["--ledger", hand_s.as_str()],
        ),
        ("a session", vec!["--slug", SLUG, "--root", repo_s.as_str()]),
    ] {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let step = format!("eval \"$(probity env {})\" ({what})", args.join(" "));
        // Evaluated in `out/`, where a command slipped into the output would leave its file.
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "cd '{}' && eval \"$(probity env {})\" && printf %s \"$GSD_DEBUG_PROBE_RUNTIME\"",
                fx.out.display(),
                quoted.join(" ")
            ))
            .current_dir(&fx.repo)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin_dir.display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .env("TMPDIR", &fx.tmp)
            .env("HOME", &fx.home)
            .output()
            .unwrap();
        fx.after(&step);
        if out.status.success() {
            let rt = String::from_utf8_lossy(&out.stdout).into_owned();
            fx.check(Path::new(&format!("{rt}.py")).is_file(), "class 3", || {
                format!("{step}: the exported runtime {rt:?} is not the file probity wrote")
            });
        } else {
            let mut a = vec!["env"];
            a.extend(args.iter().copied());
            let (code, v) = fx.cli(&format!("{step} (--json)"), &a);
            fx.check(code == 2, "class 3", || {
                format!("{step}: the shell failed though env succeeds: {out:?} {v}")
            });
        }
    }
    // Done by hand, as the comment says: the folder of the ledger without a session.
    for e in std::fs::read_dir(&fx.tmp).unwrap().flatten() {
        if e.file_name().to_string_lossy().starts_with("probity-env") {
            std::fs::remove_dir_all(e.path()).unwrap();
        }
    }
    fx.cli("strip", &["strip", "--ledger", &hand_s]);
    fx.cleanup("cleanup", SLUG);
    fx.claims("end");
    fx.finish();
}

// --- (b) `.planning/` files replaced by attacker-chosen content -----------------------------

/// The reconfirm journal an attacker commits: `.git/config` with a `core.fsmonitor` command,
/// a new `conftest.py` and a new hook, the user's fix in `rules.py` "restored" to the bug, the
/// README replaced, and files outside the tree (`..`, absolute, through a symlink).
fn planted_journal(fx: &Fx) -> Value {
    let hex = |s: &[u8]| hex::encode(s);
    let sha = |s: &[u8]| probity::source::sha256_hex(s);
    let config = std::fs::read(fx.repo.join(".git/config")).unwrap();
    let mut evil_config = config.clone();
    evil_config.extend_from_slice(
        format!(
            "[core]\n\tfsmonitor = \"touch {}/pwned-fsmonitor; false\"\n",
            fx.out.display()
        )
        .as_bytes(),
    );
    let conftest = format!(
        "open({:?}, 'w').close()\n",
        fx.out.join("pwned-conftest").display().to_string()
    );
    let hook = format!("#!/bin/sh\ntouch {}/pwned-hook\n", fx.out.display());
    let victim = std::fs::read(fx.base.path().join("victim.txt")).unwrap();
    let abs = fx.base.path().join("victim.txt");
    let mut files = vec![
        json!({"path": ".git/config", "saved_hex": hex(&evil_config), "reverted_sha256": sha(&config)}),
        json!({"path": "conftest.py", "saved_hex": hex(conftest.as_bytes()), "reverted_sha256": null}),
        json!({"path": ".git/hooks/pre-commit", "saved_hex": hex(hook.as_bytes()), "reverted_sha256": null}),
        json!({"path": "rules.py", "saved_hex": hex(RULES_BUGGY.as_bytes()), "reverted_sha256": sha(RULES_FIXED.as_bytes())}),
        json!({"path": "README.md", "saved_hex": hex(b"pwned\n"), "reverted_sha256": sha(README.as_bytes())}),
    ];
    for p in ["../victim.txt", abs.to_str().unwrap(), "up/victim.txt"] {
        files.push(
            json!({"path": p, "saved_hex": hex(b"pwned\n"), "reverted_sha256": sha(&victim)}),
        );
    }
    json!({"schema_version": 1, "slug": SLUG, "started_at": "2026-01-01T00:00:00Z", "files": files})
}

/// What a planted journal must never have done: the files it names are as they were (the fix
/// in `rules.py` included), no file it names was created (class 1).
fn journal_changed_nothing(fx: &Fx, step: &str) {
    for (rel, want) in [
        ("rules.py", Some(RULES_FIXED)),
        ("README.md", Some(README)),
        ("conftest.py", None),
    ] {
        let now = fx.read(rel);
        fx.check(now.as_deref() == want.map(str::as_bytes), "class 1", || {
            format!(
                "{step}: the planted journal wrote {rel}: {:?}",
                now.map(|b| String::from_utf8_lossy(&b).into_owned())
            )
        });
    }
}

/// Class 1: a reconfirm journal planted beside the session ledger (with a real session, a
/// baseline run and a real uncommitted fix) is never acted on, by `accept reconfirm` or by
/// `cleanup`: `.git/config` and `.git/hooks` stay as they were, no `conftest.py` appears, the
/// fix is not lost, nothing outside the tree is written, and the `core.fsmonitor` payload never
/// runs (a `git status` after every step). A refusal names its code; once the user deletes the
/// planted file, the session cleans, and a journal planted then that would put the probe blocks
/// back is not taken as a restore either (and, if it were, nothing would say clean).
#[test]
fn planted_reconfirm_journals_write_nothing_and_run_nothing() {
    let fx = Fx::new(Tmp::Private, "class 1");
    std::os::unix::fs::symlink(fx.base.path(), fx.repo.join("up")).unwrap();
    fx.session();
    fx.ok(&[
        "run", "--slug", SLUG, "--phase", "baseline", "--", "python3", "check.py",
    ]);
    fx.write("rules.py", RULES_FIXED);
    let probed = fx.read("calc.py").unwrap();
    let config = std::fs::read(fx.repo.join(".git/config")).unwrap();
    fx.seal();
    let journal = PathBuf::from(format!("{}.reconfirm", fx.ledger().display()));
    let plant = || std::fs::write(&journal, planted_journal(&fx).to_string()).unwrap();
    let git_status = |step: &str| {
        fx.git(&["status", "--short"]);
        fx.after(&format!("{step}, then git status"));
    };
    // Between steps: undo what a planted journal did, so each step answers for itself.
    let reset = || {
        fx.write("rules.py", RULES_FIXED);
        fx.write("README.md", README);
        let _ = std::fs::remove_file(fx.repo.join("conftest.py"));
        let _ = std::fs::remove_file(fx.repo.join(".git/hooks/pre-commit"));
        std::fs::write(fx.repo.join(".git/config"), &config).unwrap();
        std::fs::write(fx.base.path().join("victim.txt"), "not yours\n").unwrap();
        for e in std::fs::read_dir(&fx.out).unwrap().flatten() {
            std::fs::remove_file(e.path()).unwrap();
        }
        fx.seen.borrow_mut().clear();
        fx.seal();
    };
    plant();
    fx.claims("a planted journal");
    let step = "accept reconfirm with a planted journal";
    let (code, v) = fx.cli(
        step,
        &[
            "accept",
            "reconfirm",
            "--slug",
            SLUG,
            "--timeout",
            "60",
            "--",
            "python3",
            "check.py",
        ],
    );
    journal_changed_nothing(&fx, step);
    fx.check(data(&v)["recovered"].is_null(), "class 1", || {
        format!("{step}: reports recovering the planted journal (exit {code}): {v}")
    });
    git_status(step);
    reset();
    plant();
    let step = "cleanup with a planted journal";
    let (code, _) = fx.cleanup(step, SLUG);
    journal_changed_nothing(&fx, step);
    git_status(step);
    reset();
    if code == 2 {
        let _ = std::fs::remove_file(&journal);
        fx.cleanup("cleanup once the planted journal is deleted", SLUG);
    }
    // The session clean, a journal that would put the probed file back (`saved` holds the
    // blocks, `reverted_sha256` the file as cleanup left it): nothing takes it as a restore.
    let sha = probity::source::sha256_hex(CALC.as_bytes());
    let back = json!({"schema_version": 1, "slug": SLUG, "started_at": "2026-01-01T00:00:00Z",
        "files": [{"path": "calc.py", "saved_hex": hex::encode(&probed), "reverted_sha256": sha}]});
    std::fs::write(&journal, back.to_string()).unwrap();
    let step = "accept reconfirm with a journal putting the probes back";
    fx.cli(
        step,
        &[
            "accept",
            "reconfirm",
            "--slug",
            SLUG,
            "--",
            "python3",
            "check.py",
        ],
    );
    fx.check(
        fx.read("calc.py").as_deref() == Some(CALC.as_bytes()),
        "class 1",
        || format!("{step}: the planted journal put the probe blocks back in calc.py"),
    );
    fx.claims("end");
    fx.finish();
}

/// The session ledger's probe entries, each pointed at `files` instead.
fn ledger_naming(real: &Value, files: &[String]) -> Value {
    let mut l = real.clone();
    let entry = real["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "p-sub")
        .unwrap()
        .clone();
    let probes: Vec<Value> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut e = entry.clone();
            e["file"] = json!(f);
            e["id"] = json!(format!("p-x{i}"));
            e
        })
        .collect();
    l["probes"] = json!(probes);
    l
}

/// Class 1 (every `.planning/` file is untrusted) and 4: the session ledger replaced by one
/// whose probes name files outside the tree (`..`, absolute, through a symlinked folder), under
/// `.git/`, and not the real probes; then by one naming only an absent `.git/none.py`; then the ledger a
/// symlink to a copy outside, and `.planning/debug` itself a symlink to a folder outside. The
/// outside copies (which hold the very block) and `.git` are never written, and while the real
/// blocks stay in `calc.py` and `app.js` nothing says clean.
#[test]
fn planted_ledgers_naming_outside_git_and_symlinked_paths_write_nothing_outside() {
    let fx = Fx::new(Tmp::Private, "class 1");
    fx.session();
    let real: Value = serde_json::from_slice(&std::fs::read(fx.ledger()).unwrap()).unwrap();
    let probed = fx.read("calc.py").unwrap();
    let b = fx.base.path();
    std::fs::create_dir(b.join("victim")).unwrap();
    std::fs::write(b.join("victim/calc.py"), &probed).unwrap();
    std::fs::write(b.join("abs.py"), &probed).unwrap();
    std::os::unix::fs::symlink(b.join("victim"), fx.repo.join("linkdir")).unwrap();
    fx.seal();
    let steps = |phase: &str| {
        fx.claims(phase);
        fx.cli(
            &format!("{phase}: session show"),
            &["session", "show", "--slug", SLUG],
        );
        fx.cli(&format!("{phase}: env"), &["env", "--slug", SLUG]);
        fx.cli(
            &format!("{phase}: run"),
            &[
                "run", "--slug", SLUG, "--phase", "baseline", "--", "python3", "check.py",
            ],
        );
        fx.cleanup(&format!("{phase}: cleanup"), SLUG);
        fx.claims(&format!("{phase}: after cleanup"));
    };
    let files = vec![
        "../victim/calc.py".to_owned(),
        b.join("abs.py").to_str().unwrap().to_owned(),
        "linkdir/calc.py".to_owned(),
        ".git/config".to_owned(),
        ".git/hooks/pre-commit".to_owned(),
        "./../victim/calc.py".to_owned(),
    ];
    std::fs::write(fx.ledger(), ledger_naming(&real, &files).to_string()).unwrap();
    steps("ledger naming outside paths");
    // Only a file under `.git/` that holds no block: cleanup may call that probe removed, but
    // never the session clean while its real blocks are in the source.
    std::fs::write(
        fx.ledger(),
        ledger_naming(&real, &[".git/none.py".to_owned()]).to_string(),
    )
    .unwrap();
    steps("ledger naming only .git/none.py");
    // The ledger a symlink to a copy outside the tree.
    let copy = b.join("ledger-copy.json");
    std::fs::write(&copy, real.to_string()).unwrap();
    std::fs::remove_file(fx.ledger()).unwrap();
    std::os::unix::fs::symlink(&copy, fx.ledger()).unwrap();
    *fx.outside.borrow_mut() = fx.outside_now();
    steps("ledger a symlink outside");
    // `.planning/debug` a symlink to a folder outside holding the session's ledger.
    let planted = b.join("planted-debug");
    std::fs::create_dir(&planted).unwrap();
    std::fs::write(
        planted.join(format!("{SLUG}.evidence.json")),
        real.to_string(),
    )
    .unwrap();
    std::fs::remove_dir_all(fx.repo.join(".planning/debug")).unwrap();
    std::os::unix::fs::symlink(&planted, fx.repo.join(".planning/debug")).unwrap();
    *fx.outside.borrow_mut() = fx.outside_now();
    steps(".planning/debug a symlink outside");
    fx.cli(
        "session init through it",
        &["session", "init", "--slug", "u", "--policy", "adaptive"],
    );
    fx.finish();
}

/// Class 1 (untrusted `.planning/` files): the session's `.values-key` replaced by a
/// symlink to a file in HOME (dangling, then existing), its `.lock` by a symlink into HOME, its
/// `.md` notes by a symlink to the user's notes outside, and its `verification` record by
/// attacker text (command substitutions, a terminal escape) or a wrong type. Every command then
/// answers with a code or works, HOME is never written, nothing runs, and cleanup removes only
/// the links.
#[test]
fn planted_key_lock_notes_and_verification_write_nothing_outside() {
    let fx = Fx::new(Tmp::Private, "class 1");
    fx.session();
    fx.ok(&[
        "run", "--slug", SLUG, "--phase", "baseline", "--", "python3", "check.py",
    ]);
    fx.seal();
    let side = |ext: &str| PathBuf::from(format!("{}{ext}", fx.ledger().display()));
    let relink = |p: &Path, to: &Path| {
        let _ = std::fs::remove_file(p);
        std::os::unix::fs::symlink(to, p).unwrap();
    };
    let run = |step: &str| {
        fx.cli(
            step,
            &[
                "run", "--slug", SLUG, "--phase", "baseline", "--", "python3", "check.py",
            ],
        )
    };
    // The values key.
    relink(&side(".values-key"), &fx.home.join("planted-key"));
    run("run with .values-key a dangling symlink into HOME");
    relink(&side(".values-key"), &fx.home.join(".profile"));
    run("run with .values-key a symlink to HOME/.profile");
    // As a clone delivers it: a regular file of the attacker's 32 bytes, mode 0644.
    std::fs::remove_file(side(".values-key")).unwrap();
    std::fs::write(side(".values-key"), [7u8; 32]).unwrap();
    std::fs::set_permissions(side(".values-key"), std::fs::Permissions::from_mode(0o644)).unwrap();
    run("run with a planted 0644 .values-key");
    // The lock.
    relink(&side(".lock"), &fx.home.join("planted-lock"));
    fx.cli(
        "set-policy with .lock a symlink into HOME",
        &["session", "set-policy", "--slug", SLUG, "adaptive"],
    );
    run("run with .lock a symlink into HOME");
    fx.cleanup("cleanup with .lock a symlink into HOME", SLUG);
    std::fs::remove_file(side(".lock")).unwrap();
    // The notes.
    let md = fx.repo.join(format!(".planning/debug/{SLUG}.md"));
    relink(&md, &fx.home.join("notes.md"));
    let md_s = md.to_str().unwrap().to_owned();
    fx.cli(
        "sync into a notes symlink",
        &["session", "sync", &md_s, "--slug", SLUG],
    );
    // The verification record.
    let out = fx.out.display().to_string();
    let text = format!(
        "$(touch {out}/pwned-verification) `touch {out}/pwned-verification` \u{1b}]0;x\u{7}"
    );
    for record in [
        json!({"revert_and_reconfirm": {"result": "pass", "source": "accept reconfirm", "reason": text,
               "recorded_at": text}, "guardrail_verdict": "accepted", "accepted_debt":
               {"signal": text, "justification": text, "recorded_at": text}}),
        json!(text),
    ] {
        let mut l: Value = serde_json::from_slice(&std::fs::read(fx.ledger()).unwrap()).unwrap();
        l["verification"] = record;
        std::fs::write(fx.ledger(), l.to_string()).unwrap();
        fx.write("notes.md", "# notes\n");
        for args in [
            vec!["accept", "verdict", "--slug", SLUG],
            vec!["session", "render", "--slug", SLUG],
            vec!["session", "sync", "notes.md", "--slug", SLUG],
            vec![
                "accept",
                "record",
                "--slug",
                SLUG,
                "--signal",
                "target_test",
                "--result",
                "pass",
            ],
        ] {
            fx.cli(&format!("planted verification: {}", args.join(" ")), &args);
        }
    }
    let mut l: Value = serde_json::from_slice(&std::fs::read(fx.ledger()).unwrap()).unwrap();
    l.as_object_mut().unwrap().remove("verification");
    std::fs::write(fx.ledger(), l.to_string()).unwrap();
    fx.cleanup("cleanup", SLUG);
    fx.claims("end");
    fx.finish();
}

/// Class 4 and 17: the session ledger deleted while its probes are still in the source. Gate
/// and verify block, and every command about the session is refused with a code and writes
/// nothing (no `.lock`, no key, no ledger).
#[test]
fn a_deleted_ledger_with_probes_in_place_is_never_called_clean() {
    let fx = Fx::new(Tmp::Private, "class 4");
    fx.session();
    std::fs::remove_file(fx.ledger()).unwrap();
    fx.seal();
    fx.claims("ledger deleted");
    for args in [
        vec!["cleanup", "--slug", SLUG],
        vec!["session", "show", "--slug", SLUG],
        vec!["gate", "--slug", SLUG],
        vec!["env", "--slug", SLUG],
        vec!["accept", "verdict", "--slug", SLUG],
        vec![
            "run", "--slug", SLUG, "--phase", "baseline", "--", "python3", "check.py",
        ],
    ] {
        fx.refused_writes_nothing(&format!("ledger deleted: {}", args.join(" ")), &args);
    }
    fx.claims("end");
    fx.finish();
}

/// Class 4 and 17: `rm -rf .planning` and an empty `.planning/debug` while the probes are in the
/// source, staged too. Gate (with and without `--root`) and verify (tree and `--staged`) block;
/// commands about the session are refused with a code and write nothing.
#[test]
fn an_emptied_planning_folder_with_probes_staged_is_never_called_clean() {
    let fx = Fx::new(Tmp::Private, "class 4");
    fx.session();
    std::fs::remove_dir_all(fx.repo.join(".planning")).unwrap();
    std::fs::create_dir_all(fx.repo.join(".planning/debug")).unwrap();
    fx.git(&["add", "calc.py", "app.js"]);
    fx.seal();
    fx.claims("empty .planning/debug");
    for args in [
        vec!["cleanup", "--slug", SLUG],
        vec!["gate", "--slug", SLUG],
        vec!["session", "render", "--slug", SLUG],
    ] {
        fx.refused_writes_nothing(&format!("empty .planning/debug: {}", args.join(" ")), &args);
    }
    fx.finish();
}

/// Class 4: a second, clean session beside the live one, then the live ledger deleted: the gate
/// keeps blocking while the live session's probes are in the source.
#[test]
fn a_clean_session_beside_a_live_one_never_makes_the_gate_pass() {
    let fx = Fx::new(Tmp::Private, "class 4");
    fx.session();
    fx.ok(&["session", "init", "--slug", "other", "--policy", "adaptive"]);
    fx.ok(&[
        "run", "--slug", "other", "--phase", "baseline", "--", "true",
    ]);
    fx.seal();
    fx.cleanup("cleanup of the other session", "other");
    fx.claims("a clean session beside the live one");
    std::fs::remove_file(fx.ledger()).unwrap();
    fx.claims("only the clean session left");
    fx.finish();
}
