//! `probity verify` reads clean files in 64 KiB windows (issue 25 §3): a token crossing a window
//! boundary at any offset, a token in a file's last bytes, a file that grows or changes while it
//! is read, the binary test at its edge, CRLF text, non-UTF-8 names and symbolic links.

use std::os::unix::ffi::OsStrExt;

use probity::contract::Envelope;
use probity::scan::{MARKER, RESIDUE, Record, Summary, TOKEN_OVERLAP};

use crate::util::{Repo, probity};

/// The window the scan reads per call (engine/src/scan/walk.rs).
const WINDOW: usize = 64 * 1024;

/// Exit code, (path, kind) of each finding, (path, reason) of each file error, the summary.
type Outcome = (i32, Vec<(String, String)>, Vec<(String, String)>, Summary);

/// `probity verify --json <args>`: exit code, the paths with findings (sorted, with the kind), the
/// file errors' paths and reasons, the summary.
fn verify(args: &[&std::ffi::OsStr]) -> Outcome {
    let out = probity()
        .arg("verify")
        .arg("--json")
        .args(args)
        .output()
        .expect("run");
    records(&out)
}

fn records(out: &std::process::Output) -> Outcome {
    let code = out.status.code().expect("exit code");
    let stdout = String::from_utf8(out.stdout.clone()).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().collect();
    let (last, recs) = lines.split_last().unwrap_or_else(|| {
        panic!("no output: {}", String::from_utf8_lossy(&out.stderr));
    });
    let (mut f, mut e) = (Vec::new(), Vec::new());
    for line in recs {
        match serde_json::from_str::<Record>(line).unwrap_or_else(|err| panic!("{err}: {line}")) {
            Record::Finding(x) => f.push((x.path, format!("{:?}", x.kind))),
            Record::FileError(x) => e.push((x.path, format!("{:?}", x.reason))),
        }
    }
    let env: Envelope<Summary> = serde_json::from_str(last).unwrap();
    f.sort();
    (code, f, e, env.data)
}

/// `len` bytes of clean text (lines of 63 letters), with `token` written at `at`.
fn text_with(len: usize, at: usize, token: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = (0..len)
        .map(|i| {
            if i % 64 == 63 {
                b'\n'
            } else {
                b'a' + (i % 26) as u8
            }
        })
        .collect();
    v[at..at + token.len()].copy_from_slice(token);
    v
}

/// Every token, at every offset around each window boundary (the first window ends at
/// `WINDOW + TOKEN_OVERLAP` bytes, the next one `WINDOW` later), is found: the prefilter never
/// misses a token split across two reads.
#[test]
fn verify_window_token_across_every_boundary_offset() {
    let repo = Repo::new();
    let marker = format!("{MARKER}start s p");
    let tokens: Vec<&[u8]> = vec![
        marker.as_bytes(),
        RESIDUE[0].as_bytes(),
        RESIDUE[1].as_bytes(),
    ];
    let boundaries = [WINDOW, WINDOW + TOKEN_OVERLAP, 2 * WINDOW + TOKEN_OVERLAP];
    let len = 2 * WINDOW + 200;
    let mut want: Vec<String> = Vec::new();
    for (ti, tok) in tokens.iter().enumerate() {
        for b in boundaries {
            // From wholly before the boundary to wholly after it.
            for at in b - tok.len() - 1..=b + 1 {
                let name = format!("t{ti}-{at}.txt");
                repo.write(&name, text_with(len, at, tok));
                want.push(name);
            }
        }
    }
    // Clean files of the sizes around the boundaries: no finding, every byte counted.
    let mut clean_bytes = 0;
    for size in [
        WINDOW - 1,
        WINDOW,
        WINDOW + 1,
        WINDOW + TOKEN_OVERLAP,
        3 * WINDOW + 7,
    ] {
        repo.write(&format!("clean-{size}.txt"), text_with(size, 0, b""));
        clean_bytes += size as u64;
    }
    let (code, f, e, s) = verify(&[repo.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(e.is_empty(), "{e:?}");
    let mut found: Vec<&str> = f.iter().map(|(p, _)| p.as_str()).collect();
    found.dedup();
    // The offset ranges around `WINDOW` and `WINDOW + TOKEN_OVERLAP` overlap: one file each.
    want.sort();
    want.dedup();
    assert_eq!(found, want.iter().map(String::as_str).collect::<Vec<_>>());
    let r = &s.roots[0];
    assert_eq!(r.files_scanned as usize, want.len() + 5);
    assert_eq!(r.files_with_hits as usize, want.len());
    assert_eq!(
        r.bytes_scanned,
        clean_bytes + (want.len() * len) as u64,
        "every byte of every file is counted"
    );
}

/// A token in the very last bytes of a file longer than a window (no newline after it), for
/// file sizes on and off the window boundaries, and in a file larger than the 4 MiB mapping
/// threshold.
#[test]
fn verify_window_token_at_the_very_end() {
    let repo = Repo::new();
    let tok = RESIDUE[1].as_bytes();
    let mut want = Vec::new();
    for size in [
        WINDOW + 1,
        WINDOW + TOKEN_OVERLAP,
        WINDOW + TOKEN_OVERLAP + 1,
        2 * WINDOW + TOKEN_OVERLAP,
        3 * WINDOW + 5,
        5 * 1024 * 1024 + 3,
    ] {
        let name = format!("end-{size}.sh");
        repo.write(&name, text_with(size, size - tok.len(), tok));
        want.push((name, "ResidueWithoutMarkers".to_owned()));
    }
    let (code, f, e, _) = verify(&[repo.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(e.is_empty(), "{e:?}");
    want.sort();
    assert_eq!(f, want);
}

/// The binary test looks at the first 8 KiB only, whatever the windows: a NUL at byte 8191 makes
/// a file binary (skipped), one at byte 8192 does not, and a token after it is found.
#[test]
fn verify_window_binary_edge() {
    let repo = Repo::new();
    let mut bin = text_with(3 * WINDOW, 2 * WINDOW, RESIDUE[0].as_bytes());
    bin[8191] = 0;
    repo.write("bin.dat", &bin);
    let mut text = text_with(3 * WINDOW, 2 * WINDOW, RESIDUE[0].as_bytes());
    text[8192] = 0;
    repo.write("text.dat", &text);
    repo.write("small.dat", b"\0GSDDBG1");
    let (code, f, _, s) = verify(&[repo.path().as_os_str()]);
    assert_eq!(code, 1);
    assert_eq!(
        f,
        vec![("text.dat".to_owned(), "ResidueWithoutMarkers".to_owned())]
    );
    assert_eq!(
        (s.roots[0].binary_skipped, s.roots[0].files_scanned),
        (2, 1)
    );
}

/// CRLF text larger than a window: a probe block past the first window is still classified (the
/// whole file is read once a window hits).
#[test]
fn verify_window_crlf_block_after_the_first_window() {
    let repo = Repo::new();
    let mut src = String::new();
    while src.len() < WINDOW + 100 {
        src.push_str("x = 1  # padding padding padding padding padding padding\r\n");
    }
    src.push_str(&format!(
        "# {MARKER}start s p\r\nprint('GSDDBG1')\r\n# {MARKER}end s p\r\n"
    ));
    repo.write("w.py", &src);
    let (code, f, e, _) = verify(&[repo.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(
        f,
        vec![("w.py".to_owned(), "LeftoverUnledgered".to_owned())]
    );
}

/// Non-UTF-8 names: the finding and the clean file alike; symbolic links to a file with a token
/// are followed only with `--follow`, and a link to a clean file adds nothing.
#[test]
fn verify_window_names_and_links() {
    let repo = Repo::new();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(
        repo.path().join(name),
        text_with(WINDOW + 50, WINDOW + 10, b"GSDDBG1"),
    )
    .unwrap();
    std::fs::write(
        repo.path()
            .join(std::ffi::OsStr::from_bytes(b"clean\xff.txt")),
        text_with(2 * WINDOW, 0, b""),
    )
    .unwrap();
    let (code, f, e, s) = verify(&[repo.path().as_os_str()]);
    assert_eq!(code, 1);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].0.starts_with("caf") && f[0].0.ends_with(".txt"),
        "{f:?}"
    );
    assert_eq!(s.roots[0].files_scanned, 2);

    let repo = Repo::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("far.txt"),
        text_with(
            2 * WINDOW,
            WINDOW + TOKEN_OVERLAP - 3,
            b"GSD_DEBUG_PROBE_SINK",
        ),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path().join("far.txt"), repo.path().join("link.txt"))
        .unwrap();
    repo.write("clean.txt", text_with(WINDOW + 3, 0, b""));
    let (code, f, _, _) = verify(&[repo.path().as_os_str()]);
    assert_eq!((code, f.len()), (0, 0), "links are not followed by default");
    let (code, f, _, _) = verify(&[repo.path().as_os_str(), "--follow".as_ref()]);
    assert_eq!(code, 1);
    assert_eq!(
        f,
        vec![("link.txt".to_owned(), "ResidueWithoutMarkers".to_owned())]
    );
}

/// How long a file is left alone before the settled path (one `fstat`, after the read) may clear
/// it: more than `SETTLE` (300 ms) plus the 2 s of slack for timestamp grain (walk.rs).
const SETTLED_AFTER: std::time::Duration = std::time::Duration::from_millis(2600);

/// How a test changes a file while it is read.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// A token appended: the file grows.
    Append,
    /// The file written again, a token in the middle, same size.
    InPlace,
    /// Written again in place, then its mtime set back to what it was: only the ctime moves.
    InPlaceOldMtime,
    /// Nothing: the file stays clean.
    Nothing,
}

/// `verify --threads 1` of a repository holding one clean file of three and a bit windows,
/// stopped at test hook `point` (between the read and the `fstat` after it), where the file is
/// changed as `change` says; with `settled`, the file is left alone long enough first for the
/// settled path to take it; `extra` are more arguments (`--no-ignore`: the plain walk, which
/// opens files relative to their folder). The outcome, and whether the file grew.
fn change_while_read(
    point: &str,
    settled: bool,
    change: Change,
    extra: &[&str],
) -> (Outcome, bool) {
    let repo = Repo::new();
    let size = 3 * WINDOW + 11;
    let p = repo.write("big.txt", text_with(size, 0, b""));
    if settled {
        std::thread::sleep(SETTLED_AFTER);
    }
    // The hook's folder lives until the process ends: a file read again after the change
    // stops at the hook again, and must find `POINT.go` there.
    let hook = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(crate::util::probity_bin())
        .args(["verify", "--json", "--threads", "1"])
        .args(extra)
        .arg(repo.path())
        .env(
            "PROBITY_TEST_PAUSE",
            format!("{point}:{}", hook.path().display()),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !hook.path().join(format!("{point}.ready")).exists() {
        assert!(start.elapsed().as_secs() < 60, "never paused at {point}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
    match change {
        Change::Append => {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
            f.write_all(b"\nGSDDBG1\n").unwrap();
        }
        Change::InPlace | Change::InPlaceOldMtime => {
            std::fs::write(&p, text_with(size, WINDOW + 5, b"GSDDBG1")).unwrap();
        }
        Change::Nothing => {}
    }
    if let Change::InPlaceOldMtime = change {
        let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.set_modified(mtime).unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), mtime);
    }
    std::fs::write(hook.path().join(format!("{point}.go")), "").unwrap();
    let out = child.wait_with_output().unwrap();
    let grew = std::fs::metadata(&p).unwrap().len() > size as u64;
    (records(&out), grew)
}

/// A file that changes between its read and the `fstat` after it (at the `verify-read` test
/// hook of the careful path, which takes files changed in the last moments) is read again: a
/// token appended (the file grows) or written in place (same size) is found, never passed as
/// clean.
#[test]
fn verify_window_file_changed_while_read() {
    for change in [Change::Append, Change::InPlace] {
        let ((code, f, e, _), grew) = change_while_read("verify-read", false, change, &[]);
        assert!(e.is_empty(), "{change:?}: {e:?}");
        assert_eq!(code, 1, "{change:?}: the token must be found");
        assert_eq!(
            f,
            vec![("big.txt".to_owned(), "ResidueWithoutMarkers".to_owned())],
            "{change:?}"
        );
        assert_eq!(grew, matches!(change, Change::Append));
    }
}

/// The settled path (a file unchanged for seconds is cleared by one `fstat` after its read): a
/// file changed between that read and that `fstat` (at the `verify-read-settled` hook) is not
/// cleared but read again, whether it grew, was written in place, or was written in place with
/// its mtime set back (the ctime, which no one can set, still moves). A file left alone is
/// cleared: clean, every byte counted.
#[test]
fn verify_window_settled_file_changed_while_read() {
    let changes = [
        Change::Append,
        Change::InPlace,
        Change::InPlaceOldMtime,
        Change::Nothing,
    ];
    // Both walks: the `ignore` one, and the plain one of `--no-ignore`.
    let extras: [&'static [&'static str]; 2] = [&[], &["--no-ignore"]];
    let runs: Vec<_> = extras
        .into_iter()
        .flat_map(|x| changes.map(|c| (c, x)))
        .map(|(c, x)| {
            (
                c,
                std::thread::spawn(move || change_while_read("verify-read-settled", true, c, x)),
            )
        })
        .collect();
    for (change, run) in runs {
        let ((code, f, e, s), grew) = run.join().unwrap();
        assert!(e.is_empty(), "{change:?}: {e:?}");
        assert_eq!(grew, matches!(change, Change::Append));
        if let Change::Nothing = change {
            assert_eq!((code, f.len()), (0, 0), "{f:?}");
            assert_eq!(s.roots[0].bytes_scanned, 3 * WINDOW as u64 + 11);
            continue;
        }
        assert_eq!(code, 1, "{change:?}: the token must be found");
        assert_eq!(
            f,
            vec![("big.txt".to_owned(), "ResidueWithoutMarkers".to_owned())],
            "{change:?}"
        );
    }
}

/// The window tests above on files old enough for the settled path: tokens at every offset around
/// the window boundaries and at the very end, clean files of the boundary sizes (every byte
/// counted), the binary edge, a file of size 0; and an allowlisted file with a token, skipped.
#[test]
fn verify_window_settled_tree() {
    let repo = Repo::new();
    let tok = RESIDUE[1].as_bytes();
    let marker = format!("{MARKER}start s p");
    let mut want = Vec::new();
    for (ti, t) in [marker.as_bytes(), tok].iter().enumerate() {
        for b in [WINDOW, WINDOW + TOKEN_OVERLAP, 2 * WINDOW + TOKEN_OVERLAP] {
            for at in b - t.len() - 1..=b + 1 {
                let name = format!("t{ti}-{at}.txt");
                repo.write(&name, text_with(2 * WINDOW + 200, at, t));
                want.push(name);
            }
        }
    }
    for size in [WINDOW + 1, WINDOW + TOKEN_OVERLAP, 3 * WINDOW + 5] {
        let name = format!("end-{size}.sh");
        repo.write(&name, text_with(size, size - tok.len(), tok));
        want.push(name);
    }
    let mut clean_bytes = 0;
    for size in [
        0,
        1,
        WINDOW - 1,
        WINDOW,
        WINDOW + 1,
        WINDOW + TOKEN_OVERLAP,
        3 * WINDOW + 7,
    ] {
        repo.write(&format!("clean-{size}.txt"), text_with(size, 0, b""));
        clean_bytes += size as u64;
    }
    let mut bin = text_with(3 * WINDOW, 2 * WINDOW, RESIDUE[0].as_bytes());
    bin[8191] = 0;
    repo.write("bin.dat", &bin);
    let mut text = text_with(3 * WINDOW, 2 * WINDOW, RESIDUE[0].as_bytes());
    text[8192] = 0;
    repo.write("text.dat", &text);
    want.push("text.dat".to_owned());
    // With an allowlist, the path is looked at before the settled path reads.
    let allowing = Repo::new();
    allowing.write(".probity-allow", "allowed.txt\n");
    allowing.write("allowed.txt", "GSDDBG1\n");
    allowing.write("other.txt", "GSDDBG1\n");
    allowing.write("clean.txt", text_with(WINDOW + 1, 0, b""));
    std::thread::sleep(SETTLED_AFTER);
    let (code, f, e, s) = verify(&[allowing.path().as_os_str()]);
    assert_eq!((code, e.len()), (1, 0), "{e:?}");
    assert_eq!(
        f,
        vec![("other.txt".to_owned(), "ResidueWithoutMarkers".to_owned())]
    );
    let r = &s.roots[0];
    assert_eq!(
        (r.allowed_skipped, r.files_scanned, r.files_with_hits),
        (1, 3, 1),
        "the allowlist file, other.txt and clean.txt are scanned"
    );

    want.sort();
    want.dedup();
    let hit_bytes: u64 = want
        .iter()
        .map(|n| std::fs::metadata(repo.path().join(n)).unwrap().len())
        .sum();
    // Both walks: the `ignore` one, and the plain one of `--no-ignore` (files opened relative
    // to their folder).
    for extra in [None, Some("--no-ignore")] {
        let mut args = vec![repo.path().as_os_str()];
        args.extend(extra.map(std::ffi::OsStr::new));
        let (code, f, e, s) = verify(&args);
        assert_eq!(code, 1, "{extra:?}");
        assert!(e.is_empty(), "{extra:?}: {e:?}");
        let mut found: Vec<&str> = f.iter().map(|(p, _)| p.as_str()).collect();
        found.dedup();
        assert_eq!(
            found,
            want.iter().map(String::as_str).collect::<Vec<_>>(),
            "{extra:?}"
        );
        let r = &s.roots[0];
        assert_eq!(r.binary_skipped, 1, "{extra:?}");
        assert_eq!(r.files_scanned as usize, want.len() + 7, "{extra:?}");
        assert_eq!(r.bytes_scanned, clean_bytes + hit_bytes, "{extra:?}");
    }
}
