//! The README's first command, `scripts/demo.sh`, run as a user runs it (with the binary the
//! suite built): it must place, run, strip and end byte-identical in every language, so a change
//! of the JSON the script reads cannot break the README unnoticed.

use crate::util::{probity_bin, repo_root};

fn demo(lang: &str) {
    let out = std::process::Command::new("bash")
        .arg(repo_root().join("scripts/demo.sh"))
        .arg(lang)
        .env("PROBITY_BIN", probity_bin())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "demo.sh {lang}: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("is byte-identical to the original and every probe is `removed`"),
        "{stdout}"
    );
    // Both probes recorded events while the program ran.
    assert!(
        stdout.contains("p-entry") && stdout.contains("p-result"),
        "{stdout}"
    );
}

#[test]
fn the_readme_demo_runs_in_python() {
    demo("python");
}

#[test]
fn the_readme_demo_runs_in_javascript() {
    demo("javascript");
}
