//! The language registry matches the folders, and every query and template compiles.

use crate::util::repo_root;

#[test]
fn registry_matches_grammar_and_query_folders() {
    let langs = probity::lang::try_languages()
        .expect("every language.toml parses and every query compiles");
    let mut registry: Vec<&str> = langs.iter().map(|l| l.id()).collect();
    registry.sort();
    for folder in ["grammars", "queries"] {
        let mut dirs: Vec<String> = std::fs::read_dir(repo_root().join(folder))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        dirs.sort();
        assert_eq!(dirs, registry, "{folder}/ and the registry differ");
    }
}

#[test]
fn every_template_has_its_required_placeholders() {
    for lang in probity::lang::languages() {
        let t = lang.entry.template;
        for needle in ["{{PROBE_KEY}}", "{{CAPTURE_NAME}}", "{{CAPTURE_EXPR}}"] {
            assert!(t.contains(needle), "{}: template lacks {needle}", lang.id());
        }
        // A block either calls the shared runtime (which holds the identity and the limits) or
        // carries them itself (Rust).
        let calls_runtime = t.contains("{{RUNTIME_MODULE}}");
        let self_contained = t.contains("{{EVENT_FMT}}") && t.contains("{{MAX_EVENTS}}");
        assert!(
            calls_runtime || self_contained,
            "{}: template neither calls the runtime nor carries the identity and limits",
            lang.id()
        );
        assert!(
            !t.contains('\t'),
            "{}: template indents with tabs",
            lang.id()
        );
        for line in t.lines() {
            let lead = line.len() - line.trim_start_matches(' ').len();
            assert_eq!(
                lead % 4,
                0,
                "{}: template line not in 4-space steps: {line:?}",
                lang.id()
            );
        }
    }
}

#[test]
fn every_extension_maps_to_its_language() {
    for (ext, id) in [
        ("rs", "rust"),
        ("js", "javascript"),
        ("mjs", "javascript"),
        ("cjs", "javascript"),
        ("jsx", "javascript"),
        ("ts", "typescript"),
        ("mts", "typescript"),
        ("cts", "typescript"),
        ("tsx", "typescript"),
        ("py", "python"),
        ("pyw", "python"),
    ] {
        let (lang, _) = probity::lang::for_path(std::path::Path::new(&format!("x.{ext}"))).unwrap();
        assert_eq!(lang.id(), id, ".{ext}");
    }
    assert!(probity::lang::for_path(std::path::Path::new("x.go")).is_none());
    let (_, g) = probity::lang::for_path(std::path::Path::new("x.tsx")).unwrap();
    assert_eq!(g.name, "tsx");
}

#[test]
fn reason_codes_are_unique_snake_case() {
    let mut seen = std::collections::HashSet::new();
    for r in probity::reason::Reason::ALL {
        let code = r.code();
        assert!(seen.insert(code), "duplicate code {code}");
        assert!(
            code.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{code}"
        );
        assert_eq!(
            serde_json::to_value(r).unwrap(),
            serde_json::Value::String(code.into())
        );
    }
}

#[test]
fn reason_codes_doc_lists_every_code() {
    let doc = std::fs::read_to_string(repo_root().join("docs/reason-codes.md")).unwrap();
    for r in probity::reason::Reason::ALL {
        assert!(
            doc.contains(&format!("`{}`", r.code())),
            "docs/reason-codes.md lacks `{}`",
            r.code()
        );
    }
}
