//! `probity verify --no-ignore`'s plain walker finds what the `ignore` walk finds: on a tree
//! with no ignore files outside any git work tree the default walk (the `ignore` crate) and
//! `--no-ignore` (the plain walker) must print the same records, over hidden folders, `.git`
//! entries, symbolic links and their loops, a non-UTF-8 name and an unreadable folder.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use crate::util::probity;

const PROBE: &str = "# gsd-debug-probe:start s p\n";

/// `probity verify --json ROOT <extra>`: exit code and every output line.
fn run(root: &Path, extra: &[&str]) -> (i32, Vec<String>) {
    let out = probity()
        .arg("verify")
        .arg("--json")
        .arg(root)
        .args(extra)
        .output()
        .expect("run");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let code = out.status.code().expect("exit code");
    (code, stdout.lines().map(str::to_owned).collect())
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn plain_walker_matches_the_ignore_walk() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for rel in [
        "a.py",
        ".hid/b.py",
        ".hid/.deeper/c.js",
        "sub/d.rs",
        "sub/.git/e.py",
        ".git/f.py",
        "locked/g.py",
    ] {
        write(root, rel, PROBE);
    }
    write(root, "deep/.git", PROBE); // a `.git` file, skipped like the folder
    write(root, "clean.txt", "nothing here\n");
    std::fs::write(root.join(OsStr::from_bytes(b"n\xffme.py")), PROBE).unwrap();
    symlink(".", root.join("loop")).unwrap();
    symlink("b", root.join("c")).unwrap();
    symlink("c", root.join("b")).unwrap();
    symlink("a.py", root.join("link.py")).unwrap();
    symlink("sub", root.join("sublink")).unwrap();
    let locked = root.join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable = std::fs::read_dir(&locked).is_ok(); // root reads anything

    let (code_ignore, lines_ignore) = run(root, &[]);
    let (code_plain, lines_plain) = run(root, &["--no-ignore"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();

    assert_eq!(code_plain, code_ignore);
    assert_eq!(lines_plain, lines_ignore);
    assert_eq!(code_plain, if readable { 1 } else { 2 });
    let all = lines_plain.join("\n");
    for seen in [
        "\"a.py\"",
        "\".hid/b.py\"",
        "\".hid/.deeper/c.js\"",
        "\"sub/d.rs\"",
        "\"locked/g.py\"",
        "6eff6d652e7079",
    ] {
        let want = readable || seen != "\"locked/g.py\"";
        assert_eq!(all.contains(seen), want, "{seen}: {all}");
    }
    for unseen in [
        "\"sub/.git/e.py\"",
        "\".git/f.py\"",
        "\"link.py\"",
        "sublink",
        "\"deep/.git\"",
    ] {
        assert!(!all.contains(unseen), "{unseen}: {all}");
    }
    if !readable {
        assert!(all.contains("\"locked\""), "{all}");
    }
}
