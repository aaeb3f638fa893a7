//! Sessions as agents and people drive them (issue 14): policy opt-in (ADR-3128 Decision 8),
//! signals sent to `probity run`, a gate that cannot pass by accident, probes brought back by
//! `git stash pop`, and secrets on the reproduction's command line. Each test does what the user
//! does, through the CLI.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{Repo, line_number, probity_json, session_ledger};

const APP: &str =
    "def compute(value):\n    value = value + 1\n    return value\n\n\nprint(compute(1))\n";

/// A repository with `app.py` and one session.
struct Life {
    repo: Repo,
    slug: &'static str,
}

impl Life {
    /// `session init --slug <slug> <init...>` in a new repository holding `app.py`.
    fn new(slug: &'static str, init: &[&str]) -> Life {
        let repo = Repo::new();
        repo.write("app.py", APP);
        let l = Life { repo, slug };
        let mut args = vec!["session", "init", "--slug", slug];
        args.extend_from_slice(init);
        let (code, v) = l.cli(&args);
        assert_eq!(code, 0, "session init: {v}");
        l
    }

    fn dir(&self) -> &Path {
        self.repo.path()
    }

    fn ledger(&self) -> PathBuf {
        session_ledger(self.dir(), self.slug)
    }

    fn ledger_json(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.ledger()).unwrap()).unwrap()
    }

    fn cli(&self, args: &[&str]) -> (i32, Value) {
        probity_json(self.dir(), args)
    }

    fn place(&self, probe: &str, before: &str) -> (i32, Value) {
        let n = line_number(&self.dir().join("app.py"), before).to_string();
        self.cli(&[
            "place",
            "app.py",
            "--line",
            &n,
            "--slug",
            self.slug,
            "--probe",
            probe,
            "--hypothesis",
            "h1",
        ])
    }

    fn show(&self) -> Value {
        let (code, v) = self.cli(&["session", "show", "--slug", self.slug]);
        assert_eq!(code, 0, "{v}");
        v
    }
}

// --- 1. Policy (ADR-3128 Decision 8) ---

#[test]
fn policy_default_is_off_and_placing_a_probe_says_how_to_opt_in() {
    let l = Life::new("pol-default", &[]);
    let show = l.show();
    assert_eq!(show["policy"]["effective"], "off", "{show}");
    assert_eq!(show["policy"]["saved"], "off", "{show}");
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "policy_off");
    let detail = v["detail"].as_str().unwrap();
    assert!(
        detail.contains("probity session set-policy --slug pol-default adaptive"),
        "{detail}"
    );
    assert_eq!(
        l.repo.read("app.py"),
        APP.as_bytes(),
        "the source is untouched"
    );
    // A run is refused the same way.
    let (code, v) = l.cli(&["run", "--slug", l.slug, "--phase", "baseline", "--", "true"]);
    assert_eq!((code, v["reason"].as_str()), (2, Some("policy_off")), "{v}");
}

#[test]
fn set_policy_opts_in_and_changes_only_the_policy() {
    let l = Life::new("pol-set", &[]);
    let (code, v) = l.cli(&["session", "set-policy", "--slug", l.slug, "adaptive"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["policy"]["effective"], "adaptive");
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 0, "{v}");
    let (code, v) = l.cli(&[
        "run", "--slug", l.slug, "--phase", "baseline", "--", "python3", "app.py",
    ]);
    assert_eq!(code, 0, "{v}");
    let before = l.ledger_json();
    assert_eq!(before["state"], "active");
    // Switching to off changes the policy and nothing else.
    let (code, v) = l.cli(&["session", "set-policy", "--slug", l.slug, "off"]);
    assert_eq!(code, 0, "{v}");
    let after = l.ledger_json();
    let mut expect = before.clone();
    expect["policy"] = "off".into();
    assert_eq!(after, expect, "only `policy` changed");
    let show = l.show();
    assert_eq!(show["policy"]["effective"], "off");
    // Under off, a new probe is refused but cleanup still reconciles and cleans.
    let (code, v) = l.place("p2", "    value = value + 1");
    assert_eq!((code, v["reason"].as_str()), (2, Some("policy_off")), "{v}");
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["state"], "clean");
    assert_eq!(
        l.repo.read("app.py"),
        APP.as_bytes(),
        "the probe is stripped"
    );
    let (code, v) = l.cli(&["gate"]);
    assert_eq!((code, v["pass"].as_bool()), (0, Some(true)), "{v}");
}

#[test]
fn invalid_saved_policy_stays_on_disk_and_reads_as_off() {
    let l = Life::new("pol-bad", &["--policy", "adaptive"]);
    let mut j = l.ledger_json();
    j["policy"] = serde_json::json!({"mode": "adaptive"});
    std::fs::write(l.ledger(), serde_json::to_vec_pretty(&j).unwrap()).unwrap();
    let show = l.show();
    assert_eq!(show["policy"]["effective"], "off");
    assert_eq!(
        show["policy"]["saved"],
        serde_json::json!({"mode": "adaptive"})
    );
    let (code, v) = l.place("p1", "    return value");
    assert_eq!((code, v["reason"].as_str()), (2, Some("policy_off")), "{v}");
    assert_eq!(
        l.ledger_json()["policy"],
        serde_json::json!({"mode": "adaptive"}),
        "the invalid value stays on disk for inspection"
    );
}
