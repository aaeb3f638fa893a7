//! Issue 12, the rest: crash windows of `probity run` (intent recorded before every creation),
//! `strip` deciding from the bytes it wrote, a session that outgrows its ledger's read limit
//! and can still be cleaned, and fuzz properties for the config parsers of `resolve` and for
//! place-then-strip on arbitrary and mutated source. The strace-driven crash bench that found
//! what these tests pin is `benches/crash/run.py`.

mod fuzz {
    use proptest::prelude::*;

    use crate::hostile_bounds::fuzz::fuzz;
    use crate::util::*;

    /// A tsconfig.json that maps `@app/*`, with comments and a trailing comma.
    const TSCONFIG: &str = "{\n  // paths\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@app/*\": [\"src/app/*\"], \"~/*\": [\"./*\"] },\n    /* x */\n  },\n  \"extends\": \"./base.json\",\n  \"include\": [\"src\"],\n}\n";
    const PACKAGE: &str = "{\"name\":\"pkg\",\"exports\":{\".\":\"./src/a.ts\",\"./sub\":{\"import\":\"./src/app/x.ts\"}},\"imports\":{\"#x\":\"./src/app/x.ts\"},\"workspaces\":[\"packages/*\"],\"main\":\"src/a.ts\"}";

    /// Config text: arbitrary bytes, a valid config with one byte changed, cut or inserted, or
    /// JSON-ish tokens in any order.
    fn config_text(valid: &'static str) -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..300),
            (0..valid.len(), any::<u8>(), 0usize..3).prop_map(move |(at, b, how)| {
                let mut v = valid.as_bytes().to_vec();
                match how {
                    0 => v[at] = b,
                    1 => v.truncate(at),
                    _ => v.insert(at, b),
                }
                v
            }),
            proptest::collection::vec(
                prop_oneof![
                    Just("{".to_owned()),
                    Just("}".to_owned()),
                    Just("[".to_owned()),
                    Just("]".to_owned()),
                    Just(",".to_owned()),
                    Just(":".to_owned()),
                    Just("//".to_owned()),
                    Just("/*".to_owned()),
                    Just("*/".to_owned()),
                    Just("\n".to_owned()),
                    Just("\"compilerOptions\"".to_owned()),
                    Just("\"paths\"".to_owned()),
                    Just("\"baseUrl\"".to_owned()),
                    Just("\"extends\"".to_owned()),
                    Just("\"exports\"".to_owned()),
                    Just("\"imports\"".to_owned()),
                    Just("\"workspaces\"".to_owned()),
                    Just("\"@app/*\"".to_owned()),
                    Just("\"../../*\"".to_owned()),
                    Just("\"/etc/*\"".to_owned()),
                    "\"[ -~]{0,10}\"",
                    "[0-9]{1,4}",
                ],
                0..60
            )
            .prop_map(|v| v.concat().into_bytes()),
        ]
    }

    /// The repository's `tsconfig.json` and `package.json` are untrusted: whatever they hold,
    /// resolving references gives one resolution per reference and never panics or reads
    /// outside the root.
    #[test]
    fn fuzz_tsconfig_and_package_json() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/app")).unwrap();
        std::fs::write(
            root.join("src/a.ts"),
            "import { x } from \"@app/x\";\nimport { y } from \"#x\";\nexport const a = x;\n",
        )
        .unwrap();
        std::fs::write(
            root.join("src/app/x.ts"),
            "export const x = 1;\nexport class K { m() {} }\n",
        )
        .unwrap();
        let refs: Vec<String> = [
            "src/a.ts",
            "@app/x",
            "pkg/sub",
            "#x",
            "K.m",
            "src/app/x.ts:2",
            "~/src/a",
        ]
        .map(str::to_owned)
        .to_vec();
        let cache = probity::index::Cache::new(None, true);
        fuzz(
            "tsconfig/package.json",
            (config_text(TSCONFIG), config_text(PACKAGE), 0u8..4),
            |(tsconfig, package, which)| {
                let name = if which == 3 {
                    "jsconfig.json"
                } else {
                    "tsconfig.json"
                };
                std::fs::write(root.join(name), &tsconfig).unwrap();
                std::fs::write(root.join("package.json"), &package).unwrap();
                std::fs::write(
                    root.join("base.json"),
                    if which == 1 { &tsconfig } else { &package },
                )
                .unwrap();
                let (res, _) = probity::resolve::resolve(root, &refs, &cache);
                prop_assert_eq!(res.len(), refs.len());
                let _ = std::fs::remove_file(root.join(name));
                Ok(())
            },
        );
    }

    /// Sources to place in: arbitrary bytes, or a corpus input of one of the four languages
    /// with a few bytes changed, removed or inserted.
    fn source() -> impl Strategy<Value = (String, Vec<u8>)> {
        let corpus = corpus_sources();
        let n = corpus.len();
        let ext = || prop_oneof![Just("a.py"), Just("a.js"), Just("a.ts"), Just("a.rs")];
        prop_oneof![
            1 => (ext(), proptest::collection::vec(any::<u8>(), 0..400))
                .prop_map(|(p, b)| (p.to_owned(), b)),
            1 => (ext(), "(([ -~]{0,30}|[{}();:\\t ]{0,4})\n){0,30}")
                .prop_map(|(p, t)| (p.to_owned(), t.into_bytes())),
            6 => (
                0..n,
                proptest::collection::vec(
                    (any::<prop::sample::Index>(), any::<u8>(), 0u8..3),
                    0..3
                ),
            )
                .prop_map(move |(i, edits)| {
                    let (path, mut bytes) = corpus[i].clone();
                    for (at, b, how) in edits {
                        if bytes.is_empty() {
                            bytes.push(b);
                            continue;
                        }
                        let at = at.index(bytes.len());
                        match how {
                            0 => bytes[at] = b,
                            1 => {
                                bytes.remove(at);
                            }
                            _ => bytes.insert(at, b),
                        }
                    }
                    (path, bytes)
                }),
        ]
    }

    /// Every `corpus/<language>/*/input.*` of the four languages, named by extension only.
    fn corpus_sources() -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for lang in ["python", "javascript", "typescript", "rust"] {
            let Ok(cases) = std::fs::read_dir(repo_root().join("corpus").join(lang)) else {
                continue;
            };
            for case in cases.flatten() {
                for f in std::fs::read_dir(case.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    let name = f.file_name().to_string_lossy().into_owned();
                    let ext = name.rsplit('.').next().unwrap_or_default().to_owned();
                    if name.starts_with("input.")
                        && ["py", "js", "ts", "rs"].contains(&ext.as_str())
                    {
                        out.push((format!("a.{ext}"), std::fs::read(f.path()).unwrap()));
                    }
                }
            }
        }
        out.sort();
        assert!(out.len() >= 4, "corpus inputs");
        out
    }

    /// Place either refuses with a reason code or places; the strip of what it placed gives back
    /// the exact original bytes.
    #[test]
    fn fuzz_place_then_strip() {
        let anchor = (any::<prop::sample::Index>(), 0u8..3);
        let placed = std::sync::atomic::AtomicU64::new(0);
        fuzz(
            "place then strip",
            (source(), anchor),
            |((path, bytes), (line, k))| {
                let lines = bytes.split(|b| *b == b'\n').count();
                let n = line.index(lines) + 1;
                let anchor = match k {
                    0 => probity::place::Anchor::Line(n),
                    1 => probity::place::Anchor::AfterLine(n),
                    _ => probity::place::Anchor::CleanLine(n),
                };
                let p = match place_in(&path, &bytes, anchor.clone()) {
                    Ok(p) => {
                        placed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        p
                    }
                    Err(e) => {
                        prop_assert!(!e.reason.code().is_empty());
                        return Ok(());
                    }
                };
                let plan =
                    strip_in(&path, &p.new_bytes, &[("s", "p", &p.block_sha256)]).map_err(|r| {
                        TestCaseError::fail(format!(
                            "{path} {anchor:?}: placed file refused: {r:?}"
                        ))
                    })?;
                prop_assert!(
                    matches!(plan.outcomes[..], [probity::strip::Outcome::Removed { .. }]),
                    "{} {:?}: {:?}",
                    path,
                    anchor,
                    plan.outcomes
                );
                prop_assert!(
                    plan.new_bytes.as_deref() == Some(&bytes[..]),
                    "{} {:?}: strip did not restore the file",
                    path,
                    anchor
                );
                Ok(())
            },
        );
        let placed = placed.into_inner();
        eprintln!("fuzz place then strip: {placed} placed and stripped back");
    }
}
