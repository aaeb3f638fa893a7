//! The Rust probe block of issue 22, with real `rustc` programs: the decision "does this probe
//! record" is taken on its first call and cached in a `static` atomic, so that
//!
//! - an inert probe (no sink, a sink that is not a regular file, or another session's run) makes
//!   no system call after its first call: 10,000 calls make no more than 1 (`strace -f`);
//! - a capped probe (its 100 events written) makes none either after the cap;
//! - eight threads still write exactly 100 events, ordinals 1..=100, never 101;
//! - a program carrying probes of two sessions records, under `probity run --slug A`, only the
//!   probes of A (`GSD_DEBUG_PROBE_SESSION`): observed, not `inconclusive: identity_mismatch`;
//! - Rust values come out of `probity run` as the JSON types Python and JavaScript record.
//!
//! Toolchains: `rustc` and `strace` from PATH (a missing one fails the test).

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::util::{Repo, data, probity, probity_json};

const SLUG: &str = "rs-one";

/// A program whose `f` is called `argv[1]` times (from `argv[2]` threads when given).
const PROG: &str = r#"#![deny(warnings)]
#[inline(never)]
fn f(a: u64) -> u64 {
    let x = a + 1;
    x
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(1, |s| s.parse().unwrap());
    let threads: u64 = args.next().map_or(1, |s| s.parse().unwrap());
    let hs: Vec<_> = (0..threads)
        .map(|_| std::thread::spawn(move || (0..n).map(|i| std::hint::black_box(f(i))).sum::<u64>()))
        .collect();
    let s: u64 = hs.into_iter().map(|h| h.join().unwrap()).sum();
    std::hint::black_box(s);
}
"#;

/// `probity place` before the line of `rel` holding `needle`, into the ledger of `slug`'s
/// session (initialised when missing).
fn place(repo: &Repo, rel: &str, needle: &str, slug: &str, probe: &str, caps: &[&str]) {
    let ledger = crate::util::session_ledger(repo.path(), slug);
    if !ledger.exists() {
        let (code, v) = probity_json(
            repo.path(),
            &["session", "init", "--slug", slug, "--policy", "adaptive"],
        );
        assert_eq!(code, 0, "session init: {v}");
    }
    let text = String::from_utf8(repo.read(rel)).unwrap();
    let hits: Vec<usize> = (1..)
        .zip(text.lines())
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hits.len(), 1, "{needle:?} in {rel}");
    let line = hits[0].to_string();
    let mut args = vec![
        "place",
        rel,
        "--line",
        &line,
        "--slug",
        slug,
        "--probe",
        probe,
        "--hypothesis",
        "h1",
        "--message",
        "state",
    ];
    for c in caps {
        args.extend(["--capture", c]);
    }
    let (code, v) = probity_json(repo.path(), &args);
    assert_eq!(code, 0, "place {probe}: {v}");
}

/// Compile `rel` (edition 2021, optimised) into `bin` inside the repository.
fn compile(repo: &Repo, rel: &str, bin: &str) {
    let out = Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o", bin, rel])
        .current_dir(repo.path())
        .output()
        .expect("rustc");
    assert!(
        out.status.success(),
        "rustc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository with PROG in main.rs, one probe of SLUG at the entry of `f` capturing `a`, and
/// the program compiled as `prog`.
fn probed() -> Repo {
    let repo = Repo::new();
    repo.write("main.rs", PROG);
    place(
        &repo,
        "main.rs",
        "let x = a + 1;",
        SLUG,
        "p-entry",
        &["a=a"],
    );
    compile(&repo, "main.rs", "prog");
    repo
}

/// The file and descriptor system calls `prog calls` makes under `strace -f`, with `env` set (every probe
/// variable removed first).
fn syscalls(repo: &Repo, calls: u64, env: &[(&str, &Path)], session: &str) -> usize {
    let trace = repo.path().join(format!("trace-{calls}"));
    let mut cmd = Command::new("strace");
    // The calls on files and descriptors (stat, open, write...): what a probe would make; not
    // the memory and futex calls a thread's start varies by one or two.
    cmd.arg("-f")
        .arg("-qq")
        .arg("-e")
        .arg("trace=%file,%desc")
        .arg("-o")
        .arg(&trace)
        .arg("./prog")
        .arg(calls.to_string())
        .current_dir(repo.path());
    for k in [
        "GSD_DEBUG_PROBE_SINK",
        "GSD_DEBUG_PROBE_SESSION",
        "GSD_DEBUG_PROBE_RUN",
        "GSD_DEBUG_PROBE_PHASE",
        "GSD_DEBUG_PROBE_RUNTIME",
    ] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    if !session.is_empty() {
        cmd.env("GSD_DEBUG_PROBE_SESSION", session);
    }
    let out = cmd.output().expect("strace");
    assert!(
        out.status.success(),
        "strace ./prog: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    text.lines().count()
}

#[test]
fn an_inert_rust_probe_makes_no_system_call_after_its_first_call() {
    let repo = probed();
    let sink = repo.path().join("inert.sink");
    std::fs::write(&sink, b"").unwrap();
    let dir = repo.path().join("a-dir");
    std::fs::create_dir(&dir).unwrap();
    for (what, env, session) in [
        ("no sink", vec![], SLUG),
        (
            "a sink that is a directory",
            vec![("GSD_DEBUG_PROBE_SINK", dir.as_path())],
            SLUG,
        ),
        (
            "another session's run",
            vec![("GSD_DEBUG_PROBE_SINK", sink.as_path())],
            "rs-other",
        ),
        (
            "no session variable",
            vec![("GSD_DEBUG_PROBE_SINK", sink.as_path())],
            "",
        ),
    ] {
        let one = syscalls(&repo, 1, &env, session);
        let many = syscalls(&repo, 10_000, &env, session);
        assert!(
            many <= one,
            "{what}: 10,000 calls made {many} system calls, 1 call {one}"
        );
        assert!(
            std::fs::read(&sink).unwrap().is_empty(),
            "{what}: nothing recorded"
        );
    }
}

#[test]
fn a_capped_rust_probe_makes_no_system_call_after_its_cap() {
    let repo = probed();
    let sink = repo.path().join("capped.sink");
    let mut counts = Vec::new();
    for calls in [101, 10_100] {
        std::fs::write(&sink, b"").unwrap();
        let env = [("GSD_DEBUG_PROBE_SINK", sink.as_path())];
        counts.push(syscalls(&repo, calls, &env, SLUG));
        let text = std::fs::read_to_string(&sink).unwrap();
        assert_eq!(text.lines().count(), 100, "{calls} calls: the cap is 100");
    }
    assert!(
        counts[1] <= counts[0],
        "10,100 calls made {} system calls, 101 calls {}",
        counts[1],
        counts[0]
    );
}

#[test]
fn eight_threads_write_one_hundred_rust_events_with_ordinals_one_to_one_hundred() {
    let repo = probed();
    let sink = repo.path().join("threads.sink");
    std::fs::write(&sink, b"").unwrap();
    let out = Command::new("./prog")
        .args(["5000", "8"])
        .current_dir(repo.path())
        .env("GSD_DEBUG_PROBE_SINK", &sink)
        .env("GSD_DEBUG_PROBE_SESSION", SLUG)
        .env("GSD_DEBUG_PROBE_RUN", "run-1")
        .env("GSD_DEBUG_PROBE_PHASE", "baseline")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&sink).unwrap();
    let ordinals: Vec<u64> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l.strip_prefix("GSDDBG1 ").unwrap()).unwrap();
            v["ordinal"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(
        ordinals,
        (1..=100).collect::<Vec<u64>>(),
        "in the sink's order"
    );
}

/// `probity run --slug <slug> --phase baseline -- ./<bin>` in the repository.
fn run(repo: &Repo, slug: &str, bin: &str) -> Value {
    let out = probity()
        .current_dir(repo.path())
        .args([
            "run",
            "--slug",
            slug,
            "--phase",
            "baseline",
            "--timeout",
            "60",
        ])
        .args(["--json", "--", bin])
        .output()
        .unwrap();
    let v = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["status"], "ok", "{v}");
    v
}

/// The observation of `probe` in a run report.
fn observation(v: &Value, probe: &str) -> Value {
    data(v)["run"]["observations"][probe].clone()
}

#[test]
fn a_run_of_one_session_records_only_its_own_rust_probes() {
    let repo = Repo::new();
    repo.write(
        "two.rs",
        "fn main() {\n    let a = 1;\n    let b = a + 1;\n    println!(\"{}\", b);\n}\n",
    );
    place(&repo, "two.rs", "let b = a + 1;", "team-a", "pa", &["a=a"]);
    place(&repo, "two.rs", "println!", "team-b", "pb", &["b=b"]);
    compile(&repo, "two.rs", "two");
    for (slug, mine, other) in [("team-a", "pa", "pb"), ("team-b", "pb", "pa")] {
        let v = run(&repo, slug, "./two");
        assert_eq!(
            observation(&v, mine)["verdict"],
            json!("observed"),
            "{slug}: its probe is observed, not inconclusive: {v}"
        );
        let captured = data(&v)["untrusted_captured"].as_array().unwrap();
        assert!(
            !captured.is_empty() && captured.iter().all(|e| e["probe"] == mine),
            "{slug}: only {mine}'s events, none of {other}: {v}"
        );
    }
}

#[test]
fn rust_values_come_out_of_a_run_as_the_json_types_of_the_other_languages() {
    let repo = Repo::new();
    repo.write(
        "vals.rs",
        "fn main() {\n    let amount = 100.0f64;\n    let s = \"a\\\"b\\n\";\n    \
         let o = Some(3u8);\n    let none: Option<u8> = None;\n    let c = 'x';\n    \
         let v = vec![1, 2, 3];\n    let t = (1, \"x\", true);\n    let big = u128::MAX;\n    \
         let nan = f64::NAN;\n    let unit = ();\n    let long = vec![0u8; 9];\n    \
         let _ = (amount, s, o, none, c, &v, t, big, nan, unit, &long);\n}\n",
    );
    place(
        &repo,
        "vals.rs",
        "let _ = (amount",
        SLUG,
        "p-vals",
        &[
            "amount=amount",
            "s=s",
            "o=o",
            "none=none",
            "c=c",
            "v=v",
            "t=t",
            "big=big",
        ],
    );
    place(
        &repo,
        "vals.rs",
        "let _ = (amount",
        SLUG,
        "p-more",
        &["nan=nan", "unit=unit", "long=long"],
    );
    compile(&repo, "vals.rs", "vals");
    let v = run(&repo, SLUG, "./vals");
    let captured = data(&v)["untrusted_captured"].as_array().unwrap();
    let of = |p: &str| {
        captured
            .iter()
            .find(|e| e["probe"] == p)
            .unwrap_or_else(|| panic!("no event of {p}: {v}"))["data"]
            .clone()
    };
    assert_eq!(
        of("p-vals"),
        json!({
            "amount": 100.0, "s": "a\"b\n", "o": 3, "none": null, "c": "x",
            "v": [1, 2, 3], "t": [1, "x", true], "big": u128::MAX.to_string(),
        })
    );
    assert_eq!(
        of("p-more"),
        json!({"nan": "NaN", "unit": null, "long": "[0, 0, 0, 0, 0, 0, 0, 0, 0]"})
    );
}
